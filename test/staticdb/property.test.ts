import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { StaticDb, ToolkitError, parseSd2, writeSd2 } from '../../src/index.ts';
import { propertySeed } from '../support/fixtures.ts';
import { buildDb, dbModelArb, expectedCell } from './arbitraries.ts';
import { fixtureBytes } from './dump.ts';

describe('sd2 properties (random schemas and rows, every type, file version, memory version and flag set)', () => {
  it('write → read gives the values back; write(parse(write(m))) == write(m); compact keeps values', () => {
    fc.assert(
      fc.property(dbModelArb, (m) => {
        const db = buildDb(m);
        const bytes = db.write();
        const back = StaticDb.open(bytes);
        expect(back.tableCount).toBe(m.tables.length);
        m.tables.forEach((t, ti) => {
          const table = back.tableAt(ti);
          const order = table.columns.map((c) => Number((c.label.match(/col_(\d+)/) ?? [])[1] ?? -1));
          expect(table.rowCount).toBe(t.rows.length);
          t.rows.forEach((row, r) => {
            const got = table.row(r);
            table.columns.forEach((c, k) => {
              const i = order[k] ?? -1;
              const want = i >= 0 ? expectedCell(c.typeId, row[i]) : undefined;
              if (i >= 0) expect(got[k], `${t.name} row ${r} ${c.label}`).toEqual(want);
            });
          });
        });
        expect(writeSd2(parseSd2(bytes))).toEqual(bytes);
        const rewritten = writeSd2(parseSd2(bytes), { reuseCompressed: false });
        expect(writeSd2(parseSd2(rewritten))).toEqual(rewritten);
        const compact = StaticDb.open(db.compact({ shortKeys: true }).write());
        for (const t of back.tables()) for (let r = 0; r < t.rowCount; r++) expect(compact.tableAt(t.index).row(r)).toEqual(t.row(r));
      }),
      { seed: propertySeed(), numRuns: 150 },
    );
  });
});

describe('sd2 mutation fuzz (parse + decode every cell: typed errors only)', () => {
  function decodeAll(bytes: Uint8Array): void {
    const db = StaticDb.open(bytes);
    for (const t of db.tables()) for (let r = 0; r < Math.min(t.rowCount, 64); r++) t.row(r);
  }

  const seeds = (): Uint8Array[] => {
    const raw = StaticDb.open(fixtureBytes()).withFlags(8); // raw image payload: mutations hit the image directly
    return [fixtureBytes(), raw.write()];
  };

  it('byte flips, truncations and splices never escape as RangeError/TypeError', () => {
    const inputs = seeds();
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: inputs.length - 1 }),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 6 }),
        fc.option(fc.nat(), { nil: undefined }),
        (which, flips, cut) => {
          const src = inputs[which]!;
          let bytes = src.slice();
          // Mutations land past the header's magic most of the time: in the header fields or the payload.
          for (const [at, value] of flips) bytes[4 + (at % (bytes.length - 4))] = value;
          if (cut !== undefined) bytes = bytes.subarray(0, cut % bytes.length);
          try {
            decodeAll(bytes);
          } catch (e) {
            if (!(e instanceof ToolkitError)) throw e;
          }
        },
      ),
      { seed: propertySeed(), numRuns: 400 },
    );
  });
});
