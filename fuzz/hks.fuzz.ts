/**
 * Long mutation-fuzz campaign for the HavokScript codec, disassembler and assembler. Inputs: every bytecode
 * fixture and SCRI container. Each run flips, inserts, deletes or truncates bytes (or rewrites instruction words
 * and counts), then checks: parsing throws nothing but a ToolkitError; anything that parses writes back exactly,
 * verifies and analyses without crashing, and survives `asm(disasm(x))`. Crashing inputs go to fuzz/crashers/.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { ToolkitError } from '../src/binary/errors.ts';
import { firstDifference } from '../src/binary/hexdump.ts';
import { analyzeHksChunk, assembleHksFile, disassembleHksFile, openHksFile, verifyHksChunk, writeHksFile } from '../src/formats/hks/index.ts';
import type { FuzzOptions } from './run.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

function corpus(): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (const dir of ['test/fixtures/hks/real', 'test/fixtures/hks/generated', 'test/fixtures/hks/generated/scri']) {
    for (const f of readdirSync(join(root, dir))) if (/\.(luac|scri)$/.test(f)) out.push(new Uint8Array(readFileSync(join(root, dir, f))));
  }
  return out;
}

/** xorshift32: a small deterministic generator, so a seed replays a campaign exactly. */
function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 0x100000000;
  };
}

function mutate(input: Uint8Array, rand: () => number): Uint8Array {
  let b = input.slice();
  const n = 1 + Math.floor(rand() * 4);
  for (let i = 0; i < n; i++) {
    const pos = Math.floor(rand() * b.length);
    switch (Math.floor(rand() * 6)) {
      case 0:
        b[pos] = Math.floor(rand() * 256);
        break;
      case 1:
        b[pos]! ^= 1 << Math.floor(rand() * 8);
        break;
      case 2:
        b = b.subarray(0, pos).slice();
        break;
      case 3: {
        const ins = new Uint8Array(1 + Math.floor(rand() * 8)).map(() => Math.floor(rand() * 256));
        b = Uint8Array.from([...b.subarray(0, pos), ...ins, ...b.subarray(pos)]);
        break;
      }
      case 4:
        b = Uint8Array.from([...b.subarray(0, pos), ...b.subarray(Math.min(b.length, pos + 1 + Math.floor(rand() * 8)))]);
        break;
      default: {
        // an interesting 32-bit value at an aligned position (counts, lengths, instruction words)
        const values = [0, 1, 0x7fffffff, 0xffffffff, 0x80000000, 128, 129, 0x4c000000, 0x1ffff00];
        const at = pos & ~3;
        if (at + 4 <= b.length) new DataView(b.buffer, b.byteOffset).setUint32(at, values[Math.floor(rand() * values.length)]!, rand() < 0.5);
      }
    }
    if (b.length === 0) break;
  }
  return b;
}

export async function fuzz(options: FuzzOptions): Promise<string> {
  const inputs = corpus().filter((b) => b.length < 50_000);
  const rand = rng(options.seed);
  let parsed = 0;
  let rejected = 0;
  for (let run = 0; run < options.runs; run++) {
    const bytes = mutate(inputs[Math.floor(rand() * inputs.length)]!, rand);
    try {
      let file;
      try {
        file = openHksFile(bytes);
      } catch (e) {
        if (e instanceof ToolkitError) {
          rejected++;
          continue;
        }
        throw e;
      }
      parsed++;
      if (firstDifference(writeHksFile(file), bytes) >= 0) throw new Error('write(parse(x)) differs');
      if (file.kind !== 'scri-source') {
        verifyHksChunk(file.chunk);
        analyzeHksChunk(file.chunk);
        if (firstDifference(assembleHksFile(disassembleHksFile(file)).bytes, bytes) >= 0) throw new Error('asm(disasm(x)) differs');
      }
    } catch (e) {
      const dir = join(root, 'fuzz', 'crashers');
      mkdirSync(dir, { recursive: true });
      const file = join(dir, `hks-${options.seed}-${run}.bin`);
      writeFileSync(file, bytes);
      throw new Error(`hks fuzz: run ${run} (seed ${options.seed}) failed: ${(e as Error).message}; input saved to ${file}`, { cause: e });
    }
  }
  return `${options.runs} runs, ${parsed} parsed and checked, ${rejected} rejected with typed errors`;
}
