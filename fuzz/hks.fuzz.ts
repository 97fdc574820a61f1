/**
 * HavokScript campaign (bare chunks and SCRI containers): `npm run fuzz -- hks`. Seeds: every bytecode fixture
 * and SCRI container under 12 KB (hksc's output at three strip levels, the real sample, SCRI wrappers). Per case:
 * open; anything that opens must write back byte for byte, verify and analyse without an untyped exception and
 * survive `asm(disasm(x))` byte for byte.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { firstDifference } from '../src/binary/hexdump.ts';
import { analyzeHksChunk, assembleHksFile, disassembleHksFile, openHksFile, verifyHksChunk, writeHksFile } from '../src/formats/hks/index.ts';
import { fixturePath } from '../test/support/fixtures.ts';
import { Finding, formatCampaign, typed, type FuzzTarget } from './harness.ts';

/** Bytecode and SCRI fixtures of at most `limit` bytes (large ones make a case slow without new structure). */
export function hksSeeds(limit = 12 * 1024): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (const dir of ['hks/real', 'hks/generated', 'hks/generated/scri']) {
    for (const f of readdirSync(fixturePath(dir)).sort()) {
      if (!/\.(luac|scri)$/.test(f)) continue;
      const b = new Uint8Array(readFileSync(join(fixturePath(dir), f)));
      if (b.length <= limit) out.push(b);
    }
  }
  return out;
}

export const target: FuzzTarget = {
  id: 'hks',
  seeds: () => hksSeeds(),
  open: (b) => openHksFile(b),
  check: (b) =>
    typed(() => {
      const file = openHksFile(b);
      const at = firstDifference(writeHksFile(file), b);
      if (at >= 0) throw new Finding(`write(open(x)) differs at 0x${at.toString(16)}`);
      if (file.kind === 'scri-source') return;
      verifyHksChunk(file.chunk);
      analyzeHksChunk(file.chunk);
      const back = firstDifference(assembleHksFile(disassembleHksFile(file)).bytes, b);
      if (back >= 0) throw new Finding(`asm(disasm(x)) differs at 0x${back.toString(16)}`);
    }),
};

export const fuzz = formatCampaign(import.meta.url, target);
