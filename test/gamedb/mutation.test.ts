/**
 * Mutation fuzz of the runtime layer: flip bytes of the real sample and of the synthetic database; whenever the
 * codec still accepts the file, walking every category, record, field and element through the `Database`
 * (lookups, typed decoding, links, the reverse index, shared counts, search, summary) must either work or raise a
 * `ToolkitError` — never a RangeError/TypeError, never a hang. A few hundred cases with a printed seed.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ToolkitError } from '../../src/binary/errors.ts';
import { writeGadb } from '../../src/formats/gadb/index.ts';
import { Database, searchDatabase, summarizeDatabase } from '../../src/gamedb/index.ts';
import { loadFixture, propertySeed } from '../support/fixtures.ts';
import { syntheticModel } from './synthetic.ts';

const seed = propertySeed();
const sources = { sample: loadFixture('gadb', 'landmine_curse.fxp'), synthetic: writeGadb(syntheticModel()) };

function walk(db: Database): number {
  let n = 0;
  summarizeDatabase(db);
  searchDatabase(db, 'a', { limit: 5 });
  for (const c of db.categories) {
    db.findCategory(c.sortKey);
    for (const r of c.records()) {
      if (r.name !== undefined) c.findRecord(r.name);
      r.referencedBy();
      for (const f of r.fields()) {
        for (let i = 0; i <= f.count; i++) {
          f.value(i);
          f.sharedCount(i);
          n++;
        }
      }
    }
  }
  return n;
}

function survives(bytes: Uint8Array): void {
  let db: Database;
  try {
    db = Database.open(bytes);
  } catch (e) {
    if (e instanceof ToolkitError) return;
    throw e;
  }
  try {
    walk(db);
  } catch (e) {
    if (!(e instanceof ToolkitError)) throw e;
  }
}

describe('Database on mutated files', () => {
  for (const [label, original] of Object.entries(sources)) {
    it(`never fails with anything but a ToolkitError (${label})`, () => {
      expect(walk(Database.open(original))).toBeGreaterThan(10);
      fc.assert(
        fc.property(fc.array(fc.tuple(fc.nat({ max: original.length - 1 }), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 4 }), (flips) => {
          const bytes = original.slice();
          for (const [at, value] of flips) bytes[at] = value;
          survives(bytes);
        }),
        { seed, numRuns: 60 },
      );
    });
  }

  it('never fails with anything but a ToolkitError on a model with corrupted columns (an editor\'s model is not parsed)', () => {
    const columns = ['link', 'elementCount', 'typeCode', 'sortedToDeclared', 'sortedHash', 'cells', 'firstDescriptor', 'descriptorCount', 'nameKey'] as const;
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom(...columns), fc.nat(), fc.nat({ max: 0xffffffff })), { minLength: 1, maxLength: 4 }), (edits) => {
        const m = syntheticModel();
        for (const [column, at, value] of edits) {
          const target =
            column === 'cells' ? m.cells : column === 'firstDescriptor' || column === 'descriptorCount' || column === 'nameKey' ? m.records[column] : m.descriptors[column];
          target[at % target.length] = value;
        }
        let db: Database;
        try {
          db = new Database(m);
        } catch (e) {
          if (e instanceof ToolkitError) return;
          throw e;
        }
        try {
          walk(db);
        } catch (e) {
          if (!(e instanceof ToolkitError)) throw e;
        }
      }),
      { seed, numRuns: 100 },
    );
  });
});
