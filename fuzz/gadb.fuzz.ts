/**
 * Long mutation-fuzz campaign for the GADB codec: `npm run fuzz -- gadb [--runs N --seed S]`.
 *
 * Inputs: the real sample (`landmine_curse.fxp`) and the hand-assembled synthetic file of the hypothesis tests,
 * mutated by byte flips, u32 overwrites (random, small, 0xFFFFFFFF), truncation and splices. A finding is:
 * an exception that is not a `ToolkitError` from parse/verify, anything but a `ConsistencyError` from write, a
 * case slower than 2 s (a hang), or a file that `verifyGadb` finds clean which the writer does not reproduce byte
 * for byte. The input of a finding is saved under `fuzz/crashers/`.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ConsistencyError, ToolkitError } from '../src/binary/errors.ts';
import { firstDifference } from '../src/binary/hexdump.ts';
import { parseGadb, verifyGadb, writeGadb } from '../src/formats/gadb/index.ts';
import type { FuzzOptions } from './run.ts';

const here = fileURLToPath(new URL('.', import.meta.url));

/** xorshift32: deterministic from the seed. */
function rng(seed: number): () => number {
  let s = seed >>> 0 || 0x9e3779b9;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s;
  };
}

function mutate(input: Uint8Array, next: () => number): Uint8Array {
  let b = input.slice();
  const n = 1 + (next() % 4);
  for (let i = 0; i < n; i++) {
    if (b.length < 8) break;
    const at = next() % b.length;
    switch (next() % 6) {
      case 0:
        b[at] = next() & 0xff;
        break;
      case 1:
        b[at] = b[at]! ^ (1 << (next() % 8));
        break;
      case 2:
      case 3: {
        const p = Math.min(at, b.length - 4);
        const choice = next() % 3;
        const v = choice === 0 ? next() : choice === 1 ? next() % 64 : 0xffffffff;
        new DataView(b.buffer, b.byteOffset).setUint32(p, v >>> 0, true);
        break;
      }
      case 4:
        b = b.slice(0, at);
        break;
      default: {
        // Splice: copy a run of bytes from elsewhere in the file.
        const from = next() % b.length;
        const len = Math.min(1 + (next() % 32), b.length - Math.max(at, from));
        b.copyWithin(at, from, from + len);
      }
    }
  }
  return b;
}

function save(input: Uint8Array, seed: number, i: number): string {
  const dir = join(here, 'crashers');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `gadb-${seed}-${i}.bin`);
  writeFileSync(file, input);
  return file;
}

function check(b: Uint8Array): string | undefined {
  let g;
  try {
    g = parseGadb(b);
  } catch (e) {
    return e instanceof ToolkitError ? undefined : `parse threw ${(e as Error).name}: ${(e as Error).message}`;
  }
  let issues;
  try {
    issues = verifyGadb(g);
  } catch (e) {
    return e instanceof ToolkitError ? undefined : `verify threw ${(e as Error).name}: ${(e as Error).message}`;
  }
  let out: Uint8Array;
  try {
    out = writeGadb(g);
  } catch (e) {
    return e instanceof ConsistencyError ? undefined : `write threw ${(e as Error).name}: ${(e as Error).message}`;
  }
  if (!issues.some((i) => i.severity === 'error')) {
    const at = firstDifference(out, b);
    if (at >= 0) return `verify found no error but the rewrite differs at 0x${at.toString(16)}`;
  }
  return undefined;
}

export async function fuzz(options: FuzzOptions): Promise<string> {
  const corpus = [
    new Uint8Array(readFileSync(join(here, '../test/fixtures/gadb/landmine_curse.fxp'))),
    ...(await synthetic()),
  ];
  const next = rng(options.seed);
  let rejected = 0;
  let slowest = 0;
  const t0 = performance.now();
  for (let i = 0; i < options.runs; i++) {
    const input = mutate(corpus[next() % corpus.length]!, next);
    const start = performance.now();
    let finding: string | undefined;
    try {
      finding = check(input);
    } catch (e) {
      finding = `unexpected: ${(e as Error).message}`;
    }
    const ms = performance.now() - start;
    slowest = Math.max(slowest, ms);
    if (ms > 2000) finding ??= `case took ${ms.toFixed(0)} ms`;
    if (finding) throw new Error(`gadb fuzz finding (seed ${options.seed}, case ${i}): ${finding}; input saved to ${save(input, options.seed, i)}`);
    try {
      parseGadb(input);
    } catch {
      rejected++;
    }
  }
  const secs = (performance.now() - t0) / 1000;
  return `${options.runs} cases in ${secs.toFixed(1)} s, ${rejected} rejected with a typed error, slowest ${slowest.toFixed(1)} ms, no finding`;
}

/** The hand-assembled file of the hypothesis tests (kept in sync by importing it). */
async function synthetic(): Promise<Uint8Array[]> {
  try {
    const mod = (await import('../test/formats/gadb/synthetic.ts')) as { SYNTHETIC: Uint8Array };
    return [mod.SYNTHETIC];
  } catch {
    return [];
  }
}
