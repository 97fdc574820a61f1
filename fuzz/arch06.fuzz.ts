/**
 * Long mutation-fuzz campaign for the archive family: `npm run fuzz -- arch06 [--runs N --seed S]`.
 *
 * Targets, each fed mutated real inputs (byte flips, u32 overwrites, truncations, splices):
 * - the `.arch06` table parser and lazy reader (both real heads, plus a packed archive with stored, raw-chunk
 *   and LZB16 entries): open, validate, read and verify every entry;
 * - the LZB16 decoder (the four real chunks), strict and lax, with the declared size varied;
 * - `.bndl` and `archivepatchloosefiles` parsers (real files).
 * A finding is an exception that is not a `ToolkitError`, a decoded size other than the declared one, an
 * unmutated round-trip that differs, or a case slower than 2 s (a hang). Inputs of findings go to `fuzz/crashers/`.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ToolkitError } from '../src/binary/errors.ts';
import { Arch06Archive, packArch06, validateArch06Index } from '../src/formats/arch06/index.ts';
import { decodeLzb16 } from '../src/compress/lzb16.ts';
import { ChunkDecoder } from '../src/compress/codecs.ts';
import { parseBndl, writeBndl } from '../src/formats/bndl/bndl.ts';
import { parseArchivePathIndex, writeArchivePathIndex } from '../src/formats/apl/apl.ts';
import type { FuzzOptions } from './run.ts';
import { mutateBytes as mutate, saveCrasher, xorshift32 as rng } from './support.ts';

const here = fileURLToPath(new URL('.', import.meta.url));
const fixtures = join(here, '..', 'test', 'fixtures');
const load = (...p: string[]): Uint8Array => new Uint8Array(readFileSync(join(fixtures, ...p)));

const lzbChunks = readdirSync(join(fixtures, 'oodle'))
  .filter((f) => f.startsWith('lzb16.'))
  .sort()
  .map((f) => ({ payload: load('oodle', f), raw: f.includes('island') ? 740 : 760 }));

const text = new TextEncoder().encode('worlds\\retail\\island\\sectionsandlayers\\fortwallgameplay.bndl\n'.repeat(300));
const packed = packArch06(
  [
    { path: 'a/stored.txt', data: text },
    { path: 'b/small.bndl', data: load('bndl', 'fortwallgameplay_island.bndl') },
  ],
  { storage: 'lzb16' },
).bytes;
const heads = [load('arch06', 'Patch_13_LC.arch06.head2700.bin'), load('arch06', 'Patch_00.arch06.head1080.bin'), packed];
const bndls = ['island', 'mtnpass', 'snowmtn', 'volcano'].map((r) => load('bndl', `fortwallgameplay_${r}.bndl`));
const apls = [load('archivepatchloosefiles', 'Patch_13_LC.archivepatchloosefiles.txt'), load('archivepatchloosefiles', 'Eltariel_BlackNumT2_Wraith_UHD.archivepatchloosefiles.txt')];

function typed(e: unknown): string | undefined {
  return e instanceof ToolkitError ? undefined : `${(e as Error)?.name}: ${(e as Error)?.message}`;
}

// Kraken chunks meet a stub ooz that returns nothing: the size check must turn that into a typed CodecError.
const decoder = new ChunkDecoder({ oozLoader: async () => ({ decompress: () => new Uint8Array(0) }) });

async function checkArchive(b: Uint8Array): Promise<string | undefined> {
  try {
    const a = await Arch06Archive.fromBytes(b, { decoder });
    validateArch06Index(a.index, b.length);
    for (const f of a.files.slice(0, 16)) {
      try {
        const out = await a.read(f);
        if (out.length !== f.rawSize) return `read ${out.length} bytes, ${f.rawSize} declared`;
      } catch (e) {
        const t = typed(e);
        if (t) return t;
      }
    }
    await a.verify();
  } catch (e) {
    return typed(e);
  }
  return undefined;
}

function checkLzb(payload: Uint8Array, raw: number, strict: boolean): string | undefined {
  try {
    const out = decodeLzb16(payload, raw, { strict });
    if (out.length !== raw) return `decoded ${out.length} bytes, ${raw} declared`;
  } catch (e) {
    return typed(e);
  }
  return undefined;
}

function checkParser(b: Uint8Array, parse: (b: Uint8Array) => unknown): string | undefined {
  try {
    parse(b);
  } catch (e) {
    return typed(e);
  }
  return undefined;
}

export async function fuzz(options: FuzzOptions): Promise<string> {
  const next = rng(options.seed);
  // unmutated round-trips first
  for (const b of bndls) if (Buffer.compare(writeBndl(parseBndl(b)), b) !== 0) throw new Error('bndl round-trip differs');
  for (const b of apls) if (Buffer.compare(writeArchivePathIndex(parseArchivePathIndex(b)), b) !== 0) throw new Error('apl round-trip differs');
  let findings = 0;
  let slowest = 0;
  for (let i = 0; i < options.runs; i++) {
    const target = next() % 4;
    let input: Uint8Array;
    let result: string | undefined;
    const t0 = performance.now();
    if (target === 0) {
      input = mutate(heads[next() % heads.length]!, next);
      result = await checkArchive(input);
    } else if (target === 1) {
      const c = lzbChunks[next() % lzbChunks.length]!;
      input = mutate(c.payload, next);
      result = checkLzb(input, Math.max(0, c.raw + ((next() % 9) - 4)), (next() & 1) === 0);
    } else if (target === 2) {
      input = mutate(bndls[next() % bndls.length]!, next);
      result = checkParser(input, parseBndl);
    } else {
      input = mutate(apls[next() % apls.length]!, next);
      result = checkParser(input, parseArchivePathIndex);
    }
    const ms = performance.now() - t0;
    slowest = Math.max(slowest, ms);
    if (ms > 2000) result ??= `slow case: ${ms.toFixed(0)} ms`;
    if (result) {
      findings++;
      const file = saveCrasher(`arch06-${options.seed}-${i}.bin`, input);
      throw new Error(`finding at run ${i} (target ${target}): ${result}; input saved to ${file}`);
    }
  }
  return `${options.runs} runs, ${findings} findings, slowest case ${slowest.toFixed(1)} ms`;
}
