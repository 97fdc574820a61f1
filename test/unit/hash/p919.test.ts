import { describe, expect, it } from 'vitest';
import { DEFAULT_P919_TABLE, HashError, P919_UNKNOWN_CHARACTERS, calibrateP919, p919, parseP919Table, serializeP919Table } from '../../../src/index.ts';
import { loadJsonFixture } from '../../support/fixtures.ts';
import { runCli } from '../../support/cli.ts';

interface Pair {
  text: string;
  hash: number;
}

const pathPairs = loadJsonFixture<Pair[]>('hash', 'p919-pairs.json');
const namePairs = loadJsonFixture<Pair[]>('hash', 'p919-pairs-names.json');
const lutFixture = loadJsonFixture<number[]>('hash', 'p919-lut.json');

describe('P919', () => {
  it('matches the two test vectors of the fan document', () => {
    expect(p919('CombatProp')).toBe(0x9ce11687);
    expect(p919('3DRotation')).toBe(0xa37788cc);
    expect(p919('')).toBe(0);
  });

  it(`reproduces all ${pathPairs.length} archive-path pairs and ${namePairs.length} name pairs`, () => {
    expect(pathPairs.length).toBe(243);
    expect(namePairs.length).toBe(707);
    for (const { text, hash } of [...pathPairs, ...namePairs]) expect(p919(text), text).toBe(hash);
  });

  it('agrees with the fixture table on every known entry', () => {
    for (let i = 0; i < 256; i++) expect(DEFAULT_P919_TABLE.values[i], `entry ${i}`).toBe(lutFixture[i]);
  });

  it('refuses each of the 27 characters of unknown value, naming it', () => {
    expect(P919_UNKNOWN_CHARACTERS.length).toBe(27);
    for (const c of P919_UNKNOWN_CHARACTERS) {
      expect(() => p919(`Inventory${c}Items`)).toThrow(HashError);
      try {
        p919(`Inventory${c}Items`);
      } catch (e) {
        expect((e as HashError).character).toBe(c);
        expect((e as HashError).position).toBe(9);
        expect((e as Error).message).toContain(`'${c}'`);
      }
    }
  });

  it('refuses bytes whose zero value is only inferred unless asked', () => {
    expect(() => p919('caf\u00e9')).toThrow(/only inferred/);
    expect(p919('ab\u0001', { allowInferred: true })).toBe(Math.imul(p919('ab'), 919) >>> 0);
  });
});

describe('P919 calibration', () => {
  // A synthetic ground truth: '/' = 41 and ':' = 43 (one of the probable assignments), never the real answer.
  const truth = Int8Array.from(DEFAULT_P919_TABLE.values);
  truth['/'.charCodeAt(0)] = 41;
  truth[':'.charCodeAt(0)] = 43;
  const trueTable = { values: truth, status: DEFAULT_P919_TABLE.status.map((s, i) => (i === 47 || i === 58 ? 'verified' : s)) as never };
  const names = ['Inventory/Items', 'Quest/Quests', 'Ai/Perception/Senses', 'A::B/C'];
  const pairs = names.map((text) => ({ text, hash: p919(text, { table: trueTable }) }));

  it('derives the unknown entries from pairs and checks them against every pair', () => {
    const result = calibrateP919(pairs, DEFAULT_P919_TABLE, 'synthetic');
    expect(result.derived.map((d) => [d.character, d.value])).toEqual([
      ['/', 41],
      [':', 43],
    ]);
    expect(result.unresolved).toEqual([]);
    expect(result.contradicted).toEqual([]);
    for (const { text, hash } of pairs) expect(p919(text, { table: result.table })).toBe(hash);
    expect(() => p919('x;y', { table: result.table })).toThrow(HashError);
  });

  it('reports pairs that contradict the table', () => {
    const result = calibrateP919([...pairs, { text: 'Abc', hash: 5 }]);
    expect(result.contradicted).toEqual([{ text: 'Abc', hash: 5, computed: p919('Abc') }]);
  });

  it('saves and reloads a calibrated table, and refuses one that contradicts verified entries', () => {
    const { table } = calibrateP919(pairs);
    const reloaded = parseP919Table(JSON.parse(JSON.stringify(serializeP919Table(table))));
    expect(p919('Inventory/Items', { table: reloaded })).toBe(pairs[0]!.hash);
    const bad = serializeP919Table(table);
    bad.values[97] = 2;
    expect(() => parseP919Table(bad)).toThrow(/contradicts the verified value 1/);
  });
});

describe('scry hash', () => {
  it('prints 0x%08X<TAB>text per argument', async () => {
    const r = await runCli(['hash', 'CombatProp', '3DRotation']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('0x9CE11687\tCombatProp\n0xA37788CC\t3DRotation\n');
  });

  it('reads lines from stdin with -', async () => {
    const r = await runCli(['hash', '-'], { stdin: 'CombatProp\r\n3DRotation\n' });
    expect(r.stdout).toBe('0x9CE11687\tCombatProp\n0xA37788CC\t3DRotation\n');
  });

  it('exits 3 with the character named when it cannot hash faithfully', async () => {
    const r = await runCli(['hash', 'Inventory/Items']);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain("character '/' (0x2f) at position 9");
  });

  it('exits 2 on usage errors', async () => {
    expect((await runCli(['hash'])).code).toBe(2);
    expect((await runCli(['hash', '--bogus', 'x'])).code).toBe(2);
  });
});
