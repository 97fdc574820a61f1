import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkbench, type Workbench } from '../../src/server/server.ts';
import type { Sd2Overview, Sd2RowPage, Sd2SearchAnswer, Sd2TableDetail } from '../../src/server/api-types.ts';
import { fixturePath, loadJsonFixture } from '../support/fixtures.ts';
import { api, raw } from './harness.ts';

const dump = loadJsonFixture<{ memoryVersion: number; patch: string; tables: { name: string; rowCount: number; columns: { name: string; type: string }[]; rows: unknown[][] }[] }>('sd2', 'faufau-1.5.0-generated', 'sample-beta-1869.dump.json');
const F = '/api/files/sample-beta-1869.sd2/sd2';

/**
 * The dump prints f32 values with 9 digits, -0 as a number and strings with the stored NUL; the API sends each
 * f32 in its shortest form, "-0" (the library's JSON form) and strings without the terminator.
 */
function f32Normal(x: unknown): unknown {
  if (x === '-0') return -0;
  if (typeof x === 'string') return x.replace(/\0$/, '');
  if (typeof x === 'number') return Math.fround(x);
  if (Array.isArray(x)) return x.map(f32Normal);
  if (x !== null && typeof x === 'object') return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, f32Normal(v)]));
  return x;
}

describe('workbench sd2 API over the peer-made sample', () => {
  let wb: Workbench;
  beforeAll(async () => {
    wb = await startWorkbench({
      files: [{ path: fixturePath('sd2', 'faufau-1.5.0-generated', 'sample-beta-1869.sd2'), origin: 'sample' }],
      port: 0,
      sampleOutDir: '/nonexistent',
      sd2NameFiles: [fixturePath('sd2', 'faufau-1.5.0-generated', 'sample-names.txt')],
    });
  });
  afterAll(async () => {
    await wb.close();
  });

  it('lists the tables with their names, rows and columns', async () => {
    const o = await api<Sd2Overview>(wb, F);
    expect(o.file.kind).toBe('sd2');
    expect(o.tables.map((t) => [t.label, t.rowCount, t.columnCount])).toEqual(dump.tables.map((t) => [t.name, t.rowCount, t.columns.length]));
    expect(o.header.find((x) => x.name === 'memory version')?.value).toBe(String(dump.memoryVersion));
    expect(o.header.find((x) => x.name === 'patch')?.value).toBe(dump.patch);
  });

  it('gives columns with types and nullability', async () => {
    const d = await api<Sd2TableDetail>(wb, `${F}/tables/dbtest::PoolTypes`);
    expect(d.columns.map((c) => [c.label, c.type])).toEqual(dump.tables[1]!.columns.map((c) => [c.name, c.type]));
    expect(d.columns.find((c) => c.label === 'name')).toMatchObject({ nullable: true, pool: true });
  });

  it('pages rows with every cell as the dump has it, NULL as null', async () => {
    for (const [i, t] of dump.tables.entries()) {
      const page = await api<Sd2RowPage>(wb, `${F}/tables/${i}/rows?limit=500`);
      expect(page.total).toBe(t.rowCount);
      expect(f32Normal(page.rows.map((r) => r.cells))).toEqual(f32Normal(t.rows));
    }
    const nulls = await api<Sd2RowPage>(wb, `${F}/tables/dbtest::PoolTypes/rows?offset=1&limit=1`);
    expect(nulls.rows).toEqual([{ row: 1, cells: [2, null, null, null, null, null, null, null, null] }]);
  });

  it('searches cells by typed value, naming table, row and column', async () => {
    const r = await api<Sd2SearchAnswer>(wb, `${F}/search?q=first`);
    expect(r.hits.length).toBeGreaterThan(0);
    expect(r.hits[0]).toMatchObject({ table: 'dbtest::PoolTypes', column: 'name', row: 0 });
    expect((await raw(wb, 'GET', `${F}/tables/nope`)).status).toBe(404);
  });
});
