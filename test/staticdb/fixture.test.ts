import { describe, expect, it } from 'vitest';
import { SD2_TYPES, Sd2Names, StaticDb, parseSd2 } from '../../src/index.ts';
import { dump, expectedValue, fixtureBytes, sampleNames } from './dump.ts';

const names = new Sd2Names();
names.load(sampleNames(), 'sample');
const d = dump();

describe('the FauFau 1.5.0 fixture reads with exactly the values of its full dump', () => {
  const db = StaticDb.open(fixtureBytes(), { names });

  it('header and image summary', () => {
    const f = parseSd2(fixtureBytes());
    expect(f.header.fileVersion).toBe(d.fileVersion);
    expect(f.header.flags).toBe(d.flags);
    expect(f.header.timestamp).toBe(BigInt(d.timestampMicros));
    expect(f.header.patch).toBe(d.patch);
    expect(f.image.memoryVersion).toBe(d.memoryVersion);
    expect(f.image.tables.length).toBe(d.tableCount);
    expect(fixtureBytes().length - 128).toBe(d.payloadSize);
  });

  for (const [ti, dt] of d.tables.entries()) {
    it(`${dt.name}: schema and every cell`, () => {
      const t = db.tableAt(ti);
      expect(t.label).toBe(dt.name);
      expect('0x' + t.id.toString(16).toUpperCase().padStart(8, '0')).toBe(dt.id);
      expect(t.rowCount).toBe(dt.rowCount);
      expect(t.columns.map((c) => [c.label, c.type.name, c.typeId, c.nullable ? c.nullableIndex : null])).toEqual(dt.columns.map((c) => [c.name, c.type, c.typeId, c.nullableIndex]));
      for (let r = 0; r < dt.rowCount; r++) {
        const expected = dt.rows[r]!.map((v, c) => expectedValue(dt.columns[c]!.type, v));
        expect(t.row(r), `${dt.name} row ${r}`).toEqual(expected);
      }
    });
  }

  it('decodes the worked example of spec §9 (first pool cell, null bits)', () => {
    const pool = db.table('dbtest::PoolTypes');
    expect(Array.from(pool.rawCell(0, 1))).toEqual([1, 0, 0, 0]); // key 1: long form, address 0
    expect(new TextDecoder().decode(pool.entryBytes(0, 1)!)).toBe('first\0');
    const wide = db.table('dbtest::Wide');
    const raw = wide.raw.rows;
    expect([raw[19], raw[20]]).toEqual([0x49, 0x02]);
    expect(SD2_TYPES.length).toBe(27);
  });

  it('shares one pool entry between cells with the same bytes (rows 0 and 2 of PoolTypes)', () => {
    const pool = db.table('dbtest::PoolTypes');
    expect(pool.rawCell(2, 1)).toEqual(pool.rawCell(0, 1));
    expect(pool.rawCell(2, 2)).toEqual(pool.rawCell(0, 2));
  });
});
