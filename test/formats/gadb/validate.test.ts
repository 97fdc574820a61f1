/**
 * validateGadb: each structural rule, broken on purpose in the real sample's model, is reported by its rule and
 * path (the whole-model checks run first as loops that build no finding; these tests hold the second walk that
 * names the culprit to the same findings).
 */
import { describe, expect, it } from 'vitest';
import { ConsistencyError, type Issue } from '../../../src/binary/errors.ts';
import { parseGadb, validateGadb, verifyGadb, writeGadb, type Gadb } from '../../../src/formats/gadb/index.ts';
import { Database } from '../../../src/gamedb/index.ts';
import { loadFixture } from '../../support/fixtures.ts';

const original = loadFixture('gadb', 'landmine_curse.fxp');

function errorsAfter(edit: (g: Gadb) => void, options: { owned?: boolean } = { owned: true }): Issue[] {
  const g = parseGadb(original, options);
  edit(g);
  return validateGadb(g).filter((i) => i.severity === 'error');
}
const rules = (issues: Issue[]): string[] => [...new Set(issues.map((i) => i.rule))].sort();

describe('validateGadb', () => {
  it('passes the sample as parsed, owned or viewing', () => {
    expect(errorsAfter(() => {})).toEqual([]);
    expect(errorsAfter(() => {}, {})).toEqual([]);
  });

  it('reports item keys out of alignment or order, and an item past the data', () => {
    const aligned = errorsAfter((g) => void (g.strings.itemKeys[1] = g.strings.itemKeys[1]! + 1));
    expect(aligned.find((i) => i.rule === 'strings.keyAligned')).toMatchObject({ path: '/strings/itemKeys[1]' });
    const order = errorsAfter((g) => void (g.strings.itemKeys[2] = g.strings.itemKeys[1]!));
    expect(order.find((i) => i.rule === 'strings.keyOrder')).toMatchObject({ path: '/strings/itemKeys[2]' });
    const range = errorsAfter((g) => {
      const last = g.strings.itemSizes.length - 1;
      g.strings.itemSizes[last] = g.strings.itemSizes[last]! + 4;
    });
    expect(rules(range)).toEqual(['strings.itemRange']);
  });

  it("reports a record's cells overlapping the previous record's in a viewing model's pool", () => {
    const issues = errorsAfter((g) => void (g.records.cellStart![2] = g.records.cellStart![1]!), {});
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ rule: 'model.cellCount', path: '/records/cellStart[2]' });
  });

  it('reports a name that is no item key', () => {
    const issues = errorsAfter((g) => void (g.records.nameKey[7] = g.records.nameKey[7]! + 1));
    expect(issues.map((i) => [i.rule, i.path])).toEqual([['strings.reference', '/records[7]/nameKey']]);
    const cat = errorsAfter((g) => void (g.categories[3]!.typeNameKey = g.categories[3]!.typeNameKey + 1));
    expect(cat.map((i) => [i.rule, i.path])).toEqual([['strings.reference', '/categories[3]/typeNameKey']]);
  });

  it('reports runs outside the table, a first descriptor past 24 bits, a permutation entry outside its run', () => {
    const past = errorsAfter((g) => void (g.records.firstDescriptor[0] = g.descriptors.count));
    expect(past.map((i) => [i.rule, i.path])).toEqual([['records.run', '/records[0]/firstDescriptor']]);
    const wide = errorsAfter((g) => void (g.records.firstDescriptor[0] = 0x1000000));
    expect(rules(wide)).toEqual(['records.firstDescriptor', 'records.run']);
    const perm = errorsAfter((g) => void (g.descriptors.sortedToDeclared[0] = 200));
    expect(perm.map((i) => [i.rule, i.path])).toEqual([['descriptors.permutationRange', '/descriptors/sortedToDeclared[0]']]);
    expect(perm[0]!.message).toContain('record 0');
  });

  it('refuses to write what it reports', () => {
    const g = parseGadb(original, { owned: true });
    g.strings.itemKeys[2] = g.strings.itemKeys[1]!;
    expect(() => writeGadb(g)).toThrow(/strings\.keyOrder|item keys must be strictly ascending/);
  });

  // The writer's fast path checks the per-record rules while it writes (and the whole-model ones as one boolean):
  // every rule broken alone must still be refused, on a viewing and on an owned model, with validateGadb's finding.
  const breaks: [string, (g: Gadb) => void][] = [
    ['a descriptor column short', (g) => void (g.descriptors.link = g.descriptors.link.subarray(1))],
    ['a record column short', (g) => void (g.records.flags = g.records.flags.subarray(1))],
    ['item sizes for fewer items', (g) => void (g.strings.itemSizes = g.strings.itemSizes.subarray(1))],
    ['version 18', (g) => void (g.header.version = 18)],
    ['an odd pair table', (g) => void (g.pairs = new Uint32Array(3))],
    ['a 3-character wrapper magic', (g) => void (g.container = { kind: 'wrapped', magic: 'LTF', version: 8 })],
    ['no root item at key 0', (g) => void (g.strings.itemKeys[0] = 4)],
    ['an item key out of alignment', (g) => void (g.strings.itemKeys[1] = g.strings.itemKeys[1]! + 1)],
    ['an item past the data', (g) => void (g.strings.itemSizes[g.strings.itemSizes.length - 1] = g.strings.itemSizes[g.strings.itemSizes.length - 1]! + 4)],
    ['categories claiming one record more', (g) => void (g.categories[0]!.secondaryCount += 1)],
    ['a record name no item key', (g) => void (g.records.nameKey[7] = g.records.nameKey[7]! + 1)],
    ['a category name no item key', (g) => void (g.categories[3]!.typeNameKey = g.categories[3]!.typeNameKey + 1)],
    ['a run past the table', (g) => void (g.records.firstDescriptor[0] = g.descriptors.count)],
    ['a first descriptor past 24 bits', (g) => void (g.records.firstDescriptor[0] = 0x1000000)],
    ['a permutation entry outside its run', (g) => void (g.descriptors.sortedToDeclared[0] = 200)],
  ];
  for (const [what, edit] of breaks) {
    for (const owned of [true, false]) {
      it(`refuses to write ${what} (${owned ? 'owned' : 'viewing'} model), with validateGadb's errors`, () => {
        const g = parseGadb(original.slice(), { owned });
        edit(g);
        const errors = validateGadb(g).filter((i) => i.severity === 'error');
        expect(errors.length).toBeGreaterThan(0);
        expect(() => writeGadb(g)).toThrow(ConsistencyError);
      });
    }
  }

  it("refuses to write a viewing model whose record cells overlap, or one whose built pool is short", () => {
    const g = parseGadb(original.slice());
    g.records.cellStart![2] = g.records.cellStart![1]!;
    expect(() => writeGadb(g)).toThrow(ConsistencyError);
    const h = parseGadb(original, { owned: true });
    h.cells = h.cells.subarray(1);
    expect(() => writeGadb(h)).toThrow(ConsistencyError);
  });
});

describe('verifyGadb string-block items (rules the block-wide pass decides before naming)', () => {
  function issuesAfter(edit: (g: Gadb) => void): Issue[] {
    const g = parseGadb(original, { owned: true });
    edit(g);
    return verifyGadb(g).filter((i) => i.severity === 'error');
  }

  it('reports an item whose extent is not a multiple of 4', () => {
    const issues = issuesAfter((g) => {
      g.strings.itemSizes[1] = g.strings.itemSizes[1]! - 1;
    });
    expect(rules(issues)).toContain('strings.aligned');
    expect(issues.find((i) => i.rule === 'strings.aligned')!.path).toBe(`/strings@0x${parseGadb(original).strings.itemKeys[1]!.toString(16)}`);
  });

  it('reports an item referenced as two kinds', () => {
    const db = new Database(parseGadb(original));
    // The item of a Vector3 value, given to a record as its name as well.
    let vectorKey = -1;
    for (let r = 0; r < db.recordCount && vectorKey < 0; r++) {
      const cur = db.cursor().seek(r);
      while (cur.nextField()) if ((cur.typeByte & 0x3f) === 8 && cur.count > 0) vectorKey = cur.raw(0)!;
    }
    expect(vectorKey).toBeGreaterThan(0);
    const issues = issuesAfter((g) => void (g.records.nameKey[7] = vectorKey));
    expect(issues.find((i) => i.rule === 'strings.kind')).toMatchObject({ path: `/strings@0x${vectorKey.toString(16)}` });
  });

  it('reports a text item whose NUL comes too early for its extent', () => {
    const g0 = parseGadb(original);
    const key = g0.categories[0]!.nameKey;
    const span = g0.strings.itemSizes[g0.strings.itemKeys.indexOf(key)]!;
    expect(span).toBeGreaterThan(4);
    const issues = issuesAfter((g) => void (g.strings.data[key + 1] = 0));
    expect(issues.find((i) => i.rule === 'strings.tiling')).toMatchObject({ path: `/strings@0x${key.toString(16)}` });
    expect(rules(issues)).toContain('strings.padding');
  });
});
