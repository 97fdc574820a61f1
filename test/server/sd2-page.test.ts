/** sd2 in the page (issue 17): search by table and column name or id, and exports (JSON, CSV, SQLite) as downloads. */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Sqlite from 'better-sqlite3';
import { ffnv32 } from '../../src/formats/sd2/obfuscation.ts';
import { StaticDb } from '../../src/staticdb/database.ts';
import { Sd2Names } from '../../src/staticdb/names.ts';
import { exportSd2Csv, exportSd2Json } from '../../src/staticdb/export.ts';
import { startWorkbench, type Workbench } from '../../src/server/server.ts';
import type { Sd2SearchAnswer } from '../../src/server/api-types.ts';
import { fixturePath, loadFixture } from '../support/fixtures.ts';
import { api, raw } from './harness.ts';

const SD2 = fixturePath('sd2', 'faufau-1.5.0-generated', 'sample-beta-1869.sd2');
const NAMES = fixturePath('sd2', 'faufau-1.5.0-generated', 'sample-names.txt');
const F = '/api/files/sample-beta-1869.sd2/sd2';
const hex = (h: number) => '0x' + h.toString(16).toUpperCase().padStart(8, '0');

describe('sd2 in the page', () => {
  let named: Workbench;
  let bare: Workbench;
  beforeAll(async () => {
    named = await startWorkbench({ files: [{ path: SD2, origin: 'sample' }], port: 0, sampleOutDir: '/nonexistent', sd2NameFiles: [NAMES] });
    bare = await startWorkbench({ files: [{ path: SD2, origin: 'sample' }], port: 0, sampleOutDir: '/nonexistent' });
  });
  afterAll(async () => {
    await named.close();
    await bare.close();
  });

  it('finds tables and columns by name, by 0x id, and by the FFnv32 of a name the lists do not know', async () => {
    const byName = await api<Sd2SearchAnswer>(named, `${F}/search?q=PoolTypes`);
    expect(byName.hits[0]).toMatchObject({ kind: 'table', table: 'dbtest::PoolTypes', id: hex(ffnv32('dbtest::PoolTypes')) });
    const column = await api<Sd2SearchAnswer>(named, `${F}/search?q=name`);
    expect(column.hits.filter((h) => h.kind === 'column').map((h) => `${h.table}.${h.column}`)).toContain('dbtest::PoolTypes.name');
    const id = await api<Sd2SearchAnswer>(bare, `${F}/search?q=${hex(ffnv32('dbtest::PoolTypes'))}`);
    expect(id.hits[0]).toMatchObject({ kind: 'table', table: hex(ffnv32('dbtest::PoolTypes')), by: 'id' });
    // without names, the text is hashed: the unnamed table answers to its real name
    const guessed = await api<Sd2SearchAnswer>(bare, `${F}/search?q=dbtest::PoolTypes`);
    expect(guessed.hits[0]).toMatchObject({ kind: 'table', by: 'hash', id: hex(ffnv32('dbtest::PoolTypes')) });
    // values are still found after the names
    expect(byName.hits.some((h) => h.kind === 'cell') || (await api<Sd2SearchAnswer>(named, `${F}/search?q=first`)).hits.some((h) => h.kind === 'cell')).toBe(true);
  });

  it('exports the database as JSON and SQLite, and a table as CSV and JSON, as the library writes them', async () => {
    const names = new Sd2Names();
    names.load(readFileSync(NAMES, 'utf8'), 'sample-names.txt');
    const db = StaticDb.open(loadFixture('sd2', 'faufau-1.5.0-generated', 'sample-beta-1869.sd2'), { names });
    const json = await raw(named, 'GET', `${F}/export?format=json`);
    expect(json.status).toBe(200);
    expect(json.headers['content-disposition']).toContain('filename="sample-beta-1869.json"');
    expect(json.body).toBe(exportSd2Json(db));
    const csv = await raw(named, 'GET', `${F}/export?format=csv&table=dbtest::PoolTypes`);
    expect(csv.headers['content-disposition']).toContain('filename="dbtest.PoolTypes.csv"');
    expect(csv.body).toBe(exportSd2Csv(db.table('dbtest::PoolTypes')));
    const one = await raw(named, 'GET', `${F}/export?format=json&table=dbtest::PoolTypes`);
    expect(one.body).toBe(exportSd2Json(db, { tables: ['dbtest::PoolTypes'] }));
    expect((await raw(named, 'GET', `${F}/export?format=csv`)).status).toBe(400);
    // SQLite: a database file with one table per sd2 table, the same rows
    const sqlite = await new Promise<Buffer>((resolve, reject) => {
      void fetch(`${named.url}api/files/sample-beta-1869.sd2/sd2/export?format=sqlite`).then(async (r) => resolve(Buffer.from(await r.arrayBuffer())), reject);
    });
    expect(sqlite.subarray(0, 15).toString('latin1')).toBe('SQLite format 3');
    const s = new Sqlite(sqlite);
    try {
      for (const t of db.tables()) {
        const tableName = (s.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE ?`).get(`%${t.label.split('::').pop()}%`) as { name: string } | undefined)?.name;
        expect(tableName, t.label).toBeDefined();
        expect((s.prepare(`SELECT count(*) AS n FROM "${tableName!.replace(/"/g, '""')}"`).get() as { n: number }).n).toBe(t.rowCount);
      }
    } finally {
      s.close();
    }
  });
});
