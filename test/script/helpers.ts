/** Shared helpers of the compiler tests: the golden corpus and a readable first difference between two chunks. */
import { readdirSync, existsSync } from 'node:fs';
import { disassembleHks, parseHksChunk } from '../../src/formats/hks/index.ts';
import type { StripLevel } from '../../src/script/compile/index.ts';
import { fixturePath, loadFixture } from '../support/fixtures.ts';

/** The strip levels and the file suffix hksc's output has for each (X.debug.luac …). */
export const LEVELS: readonly [StripLevel, string][] = [
  ['none', 'debug'],
  ['profile', 'profile'],
  ['all', 'stripped'],
];

export interface GoldenCase {
  set: string;
  program: string;
  source: Uint8Array;
  /** Compiled by hksc, per strip level present. */
  expected: { strip: StripLevel; file: string; bytes: Uint8Array }[];
}

/** Every program of test/fixtures/hks/{hksc-tests,generated} with hksc's bytes at each strip level present. */
export function goldenCorpus(): GoldenCase[] {
  const out: GoldenCase[] = [];
  for (const set of ['hksc-tests', 'generated']) {
    const dir = fixturePath('hks', set);
    for (const f of readdirSync(dir).filter((n) => n.endsWith('.lua')).sort()) {
      const program = f.slice(0, -4);
      const expected = LEVELS.filter(([, suffix]) => existsSync(fixturePath('hks', set, `${program}.${suffix}.luac`))).map(([strip, suffix]) => ({
        strip,
        file: `${program}.${suffix}.luac`,
        bytes: loadFixture('hks', set, `${program}.${suffix}.luac`),
      }));
      out.push({ set, program, source: loadFixture('hks', set, f), expected });
    }
  }
  return out;
}

/** Index of the first differing byte, or -1 when equal. */
export function firstDiff(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? -1 : n;
}

/**
 * Where two chunks first differ, as listing lines (function, pc, instruction) from the disassembler, with a few
 * lines of context: what a failing byte-exact test prints so the difference can be read at once.
 */
export function describeDifference(expected: Uint8Array, actual: Uint8Array): string {
  const at = firstDiff(expected, actual);
  if (at < 0) return 'identical';
  let a: string[];
  let b: string[];
  try {
    a = disassembleHks(parseHksChunk(expected)).split('\n');
    b = disassembleHks(parseHksChunk(actual)).split('\n');
  } catch (e) {
    return `first difference at byte ${at} (a listing failed: ${(e as Error).message})`;
  }
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  let fn = '';
  for (let j = i; j >= 0; j--) {
    const m = /^\s*\.function (\S+)/.exec(a[j] ?? '');
    if (m) {
      fn = m[1]!;
      break;
    }
  }
  const from = Math.max(0, i - 4);
  return [
    `first difference at byte ${at}, listing line ${i + 1}, in function ${fn || '?'}:`,
    ...a.slice(from, i + 4).map((l, k) => `  hksc ${from + k === i ? '>' : ' '} ${l}`),
    ...b.slice(from, i + 4).map((l, k) => `  ours ${from + k === i ? '>' : ' '} ${l}`),
  ].join('\n');
}
