/**
 * Long mutation-fuzz campaign for the GADB codec: `npm run fuzz -- gadb [--runs N --seed S]`.
 *
 * Inputs: the real sample (`landmine_curse.fxp`) and the hand-assembled synthetic file of the hypothesis tests,
 * mutated by byte flips, u32 overwrites (random, small, 0xFFFFFFFF), truncation and splices. A finding is:
 * an exception that is not a `ToolkitError` from parse/verify, anything but a `ConsistencyError` from write, a
 * case slower than 2 s (a hang), or a file that `verifyGadb` finds clean which the writer does not reproduce byte
 * for byte. The input of a finding is saved under `fuzz/crashers/`.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ConsistencyError, ToolkitError } from '../src/binary/errors.ts';
import { firstDifference } from '../src/binary/hexdump.ts';
import { parseGadb, verifyGadb, writeGadb } from '../src/formats/gadb/index.ts';
import type { FuzzOptions } from './run.ts';
import { mutateBytes as mutate, saveCrasher, xorshift32 as rng } from './support.ts';

const here = fileURLToPath(new URL('.', import.meta.url));

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
    if (finding) throw new Error(`gadb fuzz finding (seed ${options.seed}, case ${i}): ${finding}; input saved to ${saveCrasher(`gadb-${options.seed}-${i}.bin`, input)}`);
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
