/** Shared helpers for the HavokScript tests: fixture lists and byte comparison with a first-difference hexdump. */
import { readdirSync } from 'node:fs';
import { expect } from 'vitest';
import { firstDifference, hexdump } from '../../../src/binary/hexdump.ts';
import { fixturePath, loadFixture } from '../../support/fixtures.ts';

/** Every bytecode fixture: [name, bytes], real ones first. */
export function bytecodeFixtures(): [string, Uint8Array][] {
  const out: [string, Uint8Array][] = [];
  for (const dir of ['real', 'generated']) {
    for (const f of readdirSync(fixturePath('hks', dir)).filter((n) => n.endsWith('.luac')).sort()) out.push([`${dir}/${f}`, loadFixture('hks', dir, f)]);
  }
  return out;
}

/** The SCRI fixtures: [name, bytes]. */
export function scriFixtures(): [string, Uint8Array][] {
  return readdirSync(fixturePath('hks', 'generated', 'scri'))
    .filter((n) => n.endsWith('.scri'))
    .sort()
    .map((f) => [`generated/scri/${f}`, loadFixture('hks', 'generated', 'scri', f)]);
}

/** Asserts byte equality; on failure the message shows the first differing offset and both hexdumps around it. */
export function expectSameBytes(actual: Uint8Array, expected: Uint8Array, what: string): void {
  const at = firstDifference(actual, expected);
  if (at < 0) return;
  const start = Math.max(0, at - 32);
  const message = [
    `${what}: first difference at 0x${at.toString(16)} (actual ${actual.length} bytes, expected ${expected.length})`,
    'actual:',
    hexdump(actual, start, 80),
    'expected:',
    hexdump(expected, start, 80),
  ].join('\n');
  expect.fail(message);
}
