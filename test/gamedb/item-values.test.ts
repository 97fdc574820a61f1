/**
 * Values decoded once per string-block item (`Database.enumValue` / `blockValue`, the cursor's text table): an
 * item read as two kinds (two cells of different types pointing at the same bytes, which a hostile or hand-edited
 * file can do) must decode as each kind, whichever is read first, through the cursor and the object API alike.
 */
import { describe, expect, it } from 'vitest';
import { writeGadb } from '../../src/formats/gadb/index.ts';
import { Database } from '../../src/gamedb/index.ts';
import { buildGadb } from './build.ts';

/** One record with a FloatPair, an Int64, a StringEnum and a String field; `share` points the later cells at the FloatPair's item. */
function model(share: boolean) {
  const g = buildGadb({
    categories: [
      {
        name: 'Things',
        records: [
          {
            name: 'One',
            fields: [
              { name: 'Pair', type: 7, values: [[1.5, -2]] },
              { name: 'Big', type: 6, values: [123456789012n] },
              { name: 'Kind', type: 5, values: ['Sharp'] },
              { name: 'Label', type: 4, values: ['Sharp'] },
            ],
          },
        ],
      },
    ],
  });
  const db = new Database(g);
  const pair = db.record(0).field('Pair')!;
  if (share) {
    // The Int64 cell pointed at the FloatPair's 8 bytes.
    g.cells[db.recordCellStart[0]! + db.record(0).field('Big')!.cellIndex(0)] = pair.raw(0)!;
  }
  return { g, pairKey: pair.raw(0)! };
}

describe('per-item value tables', () => {
  it('an item read as a FloatPair and as an Int64 decodes as each, in either order', () => {
    const { g, pairKey } = model(true);
    expect(g.cells.filter((c) => c === pairKey)).toHaveLength(2);
    // The 8 bytes of the pair (1.5f, -2f) read as one little-endian i64.
    const dv = new DataView(new ArrayBuffer(8));
    dv.setFloat32(0, 1.5, true);
    dv.setFloat32(4, -2, true);
    const asI64 = dv.getBigInt64(0, true);
    for (const pairFirst of [true, false]) {
      const db = new Database(g);
      const r = db.record(0);
      const read = () => (pairFirst ? [r.get('Pair'), r.get('Big')] : [r.get('Big'), r.get('Pair')].reverse());
      const [pair, big] = read();
      expect(pair).toEqual([1.5, -2]);
      expect(big).toBe(asI64);
      // Again (now from the tables), and through a cursor.
      expect(read()).toEqual([[1.5, -2], asI64]);
      const cur = db.cursor().seek(0);
      const byName = new Map<number, unknown>();
      while (cur.nextField()) byName.set(cur.hash, cur.value(0));
      expect(byName.get(db.hash('Pair'))).toEqual([1.5, -2]);
      expect(byName.get(db.hash('Big'))).toBe(asI64);
    }
  });

  it('an item read as a StringEnum and as a String gives the enum value and the text', () => {
    const { g } = model(false);
    const db = Database.open(writeGadb(g));
    const cur = db.cursor().seek(0);
    const got: unknown[] = [];
    for (let pass = 0; pass < 2; pass++) {
      cur.seek(0);
      while (cur.nextField()) got.push(cur.value(0));
    }
    const r = db.record(0);
    expect(r.get('Label')).toBe('Sharp');
    expect(r.get('Kind')).toEqual({ text: 'Sharp', hash: db.hash('Sharp') });
    expect(got.filter((v) => v === 'Sharp')).toHaveLength(2);
    expect(got.filter((v) => typeof v === 'object' && v !== null && (v as { text?: string }).text === 'Sharp')).toHaveLength(2);
  });
});
