/** Record tables like xEdit's: per-column filters and sorting over the whole category, referenced-by paged past 200. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database, type DbRecord } from '../../src/gamedb/database.ts';
import { generateGadbBytes } from '../../src/gamedb/generate/index.ts';
import { startWorkbench, type Workbench } from '../../src/server/server.ts';
import type { CategoryDetail, RecordPage, ReferencedBy } from '../../src/server/api-types.ts';
import { api, raw, TOKEN } from './harness.ts';

describe('record tables: filters, sorting, referenced-by pages', () => {
  let wb: Workbench;
  let db: Database;
  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'scry-tables-'));
    const bytes = generateGadbBytes({ seed: 919, scale: 0.02 }).bytes;
    writeFileSync(join(dir, 'g.gamedb'), bytes);
    db = Database.open(bytes);
    wb = await startWorkbench({ files: [{ path: join(dir, 'g.gamedb'), origin: 'argument' }], port: 0, token: TOKEN, sampleOutDir: join(dir, 'out') });
  });
  afterAll(async () => {
    await wb.close();
  });

  /** The category with the most records that has an Int or Float field, that field and how to read it. */
  const numericColumn = () => {
    const cats = [...db.categories].sort((a, b) => b.recordCount - a.recordCount);
    for (const c of cats) {
      const f = c.firstRecordWithFields()?.fields().find((x) => (x.typeName === 'Float' || x.typeName === 'Int') && x.count === 1);
      if (f && c.recordCount > 50) return { cat: c, hash: f.hash, read: (r: DbRecord) => (f.typeName === 'Int' ? r.getInt(f.hash) : r.getFloat(f.hash)) };
    }
    throw new Error('no category with a numeric field');
  };

  it('sorts by a numeric column both ways and filters it with a comparison, over every record of the category', async () => {
    const { cat, hash, read } = numericColumn();
    const hex = '0x' + hash.toString(16).toUpperCase().padStart(8, '0');
    const base = `/api/files/g.gamedb/categories/${encodeURIComponent(cat.name)}/records`;
    const detail = await api<CategoryDetail>(wb, `/api/files/g.gamedb/categories/${encodeURIComponent(cat.name)}`);
    const col = detail.fields.findIndex((f) => f.hex === hex);
    const valuesOf = (p: RecordPage) => p.rows.map((r) => (r.values[col] as { v: number }).v);
    const up = await api<RecordPage>(wb, `${base}?sort=${hex}&limit=500`);
    const down = await api<RecordPage>(wb, `${base}?sort=${hex}&dir=desc&limit=500`);
    expect(up.total).toBe(cat.recordCount);
    const a = valuesOf(up);
    expect(a).toEqual([...a].sort((x, y) => x - y));
    expect(valuesOf(down)[0]).toBe(Math.max(...cat.records().map((r) => Number(read(r).toPrecision(9)))));
    // the filter keeps exactly the records the library says hold more than the median
    const median = a[Math.floor(a.length / 2)]!;
    const kept = cat.records().filter((r) => read(r) > median).length;
    const filtered = await api<RecordPage>(wb, `${base}?filter.${hex}=${encodeURIComponent('>' + median)}&limit=500`);
    expect(filtered.total).toBe(kept);
    expect(valuesOf(filtered).every((v) => v > median)).toBe(true);
    // rows say where they are in the unfiltered table
    expect(filtered.rows.every((r) => cat.at(r.position)!.index === r.index)).toBe(true);
    // a text filter on the record column, negated, and an unknown column
    const named = await api<RecordPage>(wb, `${base}?filter.record=${encodeURIComponent('!zzz')}`);
    expect(named.total).toBe(cat.recordCount);
    expect((await raw(wb, 'GET', `${base}?sort=0x12345678`)).status).toBe(400);
  });

  it('pages referenced-by past the first 200', async () => {
    let best = db.record(0);
    for (let r = 0; r < db.recordCount; r++) if (db.referenceCount(db.record(r)) > db.referenceCount(best)) best = db.record(r);
    const total = db.referenceCount(best);
    expect(total).toBeGreaterThan(200);
    const first = await api<ReferencedBy>(wb, `/api/files/g.gamedb/records/${best.index}/referenced-by`);
    const second = await api<ReferencedBy>(wb, `/api/files/g.gamedb/records/${best.index}/referenced-by?offset=200`);
    expect(first).toMatchObject({ total, offset: 0 });
    expect(first.refs).toHaveLength(200);
    expect(second.offset).toBe(200);
    expect(second.refs).toHaveLength(Math.min(200, total - 200));
    const expected = best.referencedBy().slice(200, 400).map((x) => `${x.record.index}:${x.field.hash}:${x.element}`);
    expect(second.refs.map((x) => `${x.from.index}:${parseInt(x.fieldHex, 16)}:${x.element ?? 0}`)).toEqual(expected);
  });
});
