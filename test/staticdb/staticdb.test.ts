import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import {
  ConsistencyError,
  NotFoundError,
  Sd2Names,
  StaticDb,
  crackSd2Names,
  exportSd2Csv,
  exportSd2Json,
  exportSd2Sql,
  ffnv32,
  harvestSd2Words,
  importSd2Json,
  parseSd2,
  sd2NameCoverage,
  searchSd2,
  sd2Tokens,
  unnamedSd2Ids,
  writeSd2,
  type Sd2SqlDatabase,
} from '../../src/index.ts';
import { loadFixture } from '../support/fixtures.ts';
import { fixtureBytes, sampleNames } from './dump.ts';

const text = (...p: string[]): string => new TextDecoder().decode(loadFixture(...p));
const sample = (): Sd2Names => {
  const n = new Sd2Names();
  n.load(sampleNames(), 'sample');
  return n;
};
const open = (): StaticDb => StaticDb.open(fixtureBytes(), { names: sample() });

describe('lookups', () => {
  const db = open();
  it('finds tables by name, hex id, decimal id and #index, rows by index or first-column key', () => {
    expect(db.table('dbtest::Wide').index).toBe(2);
    expect(db.table('0xEC6CAED8').index).toBe(2);
    expect(db.table(String(0xec6caed8)).index).toBe(2);
    expect(db.table('#2').label).toBe('dbtest::Wide');
    expect(() => db.table('dbtest::Nope')).toThrow(NotFoundError);
    const pool = db.table('dbtest::PoolTypes');
    expect(pool.findRowByKey(4)).toBe(3);
    expect(pool.findRowByKey('4')).toBe(3);
    expect(pool.findRowByKey(99)).toBe(-1);
    expect(db.table('dbtest::AllInline').findRowByKey('252')).toBe(2);
    expect(pool.column('name').index).toBe(1);
    expect(pool.column('0x2108BA1B').index).toBe(1);
    expect(pool.rowObject(0)['name']).toBe('first');
    expect(() => pool.row(5)).toThrow(NotFoundError);
  });

  it('opening decodes no pool entry until a cell is read', () => {
    const lazy = open();
    const cache = (lazy as unknown as { poolCache: Map<unknown, unknown> }).poolCache;
    expect(cache.size).toBe(0);
    lazy.table('dbtest::PoolTypes').cell(3, 1);
    expect(cache.size).toBe(1);
  });

  it('typed search across tables gives table:row:column', () => {
    expect(searchSd2(db, { value: 'grüße' }).hits.map((h) => h.ref)).toEqual(['dbtest::PoolTypes:3:name']);
    expect(searchSd2(db, { value: '4000000000' }).hits.map((h) => h.ref)).toEqual(['dbtest::AllInline:0:u32', 'dbtest::PoolTypes:0:u32s']);
    expect(searchSd2(db, { value: '1.75', kind: 'float' }).hits.map((h) => h.ref)).toContain('dbtest::AllInline:3:f32');
    expect(searchSd2(db, { value: '-0.1', kind: 'float' }).hits.map((h) => h.ref)).toEqual(['dbtest::AllInline:1:f64']);
    expect(searchSd2(db, { value: '2005', tables: ['dbtest::Wide'] }).hits.map((h) => h.ref)).toEqual(['dbtest::Wide:2:c5']);
    expect(searchSd2(db, { value: 'x', limit: 0 }).truncated).toBe(true);
  });
});

describe('edits', () => {
  it('sets inline and pool cells, null bits, and writes a file that reads back (original untouched)', () => {
    const db = open();
    const before = db.write();
    db.setCell('dbtest::Wide', 0, 'c0', 99);
    db.setCell('dbtest::Wide', 0, 'c1', null);
    db.setCell('dbtest::PoolTypes', 1, 'name', 'second');
    db.setCell('dbtest::PoolTypes', 0, 'u16s', [1, 2, 3]);
    db.setCell('dbtest::AllInline', 4, 'u64', 18446744073709551615n);
    db.setCell('dbtest::AllInline', 4, 'ch', 'z');
    expect(() => db.setCell('dbtest::AllInline', 0, 'u8', 256)).toThrow(ConsistencyError);
    expect(() => db.setCell('dbtest::AllInline', 0, 'u8', null)).toThrow(/not nullable/);
    const back = StaticDb.open(db.write(), { names: sample() });
    expect(back.table('dbtest::Wide').row(0).slice(0, 2)).toEqual([99, null]);
    expect(back.table('dbtest::PoolTypes').cell(1, 1)).toBe('second');
    expect(back.table('dbtest::PoolTypes').cell(0, 4)).toEqual([1, 2, 3]);
    expect(back.table('dbtest::PoolTypes').cell(2, 1)).toBe('first');
    expect(back.table('dbtest::AllInline').cell(4, 3)).toBe(18446744073709551615n);
    expect(back.table('dbtest::AllInline').cell(4, 15)).toBe('z');
    expect(open().write()).toEqual(before);
    expect(before).toEqual(fixtureBytes());
  });

  it('adds and removes rows and tables; subset keeps only the named tables with a minimal pool', () => {
    const db = open();
    const r = db.addRow('dbtest::PoolTypes', { id: 6, name: 'sixth', u32s: [6] });
    expect(r).toBe(5);
    db.removeRow('dbtest::PoolTypes', 1);
    const t = db.addTable('dbtest::Added', [
      { name: 'key', type: 'UInt' },
      { name: 'label', type: 'String', nullable: true },
      { name: 'pos', type: 'Vector3' },
    ]);
    db.addRow(t, [1, 'one', [1, 2, 3]]);
    db.addRow(t, [2]);
    db.removeTable('dbtest::Empty');
    const back = StaticDb.open(db.write(), { names: db.names });
    expect(back.tables().map((x) => x.label)).toEqual(['dbtest::AllInline', 'dbtest::PoolTypes', 'dbtest::Wide', 'dbtest::Added']);
    const pool = back.table('dbtest::PoolTypes');
    expect(pool.rowCount).toBe(5);
    expect(pool.row(4).slice(0, 2)).toEqual([6, 'sixth']);
    expect(pool.cell(4, 5)).toEqual([6]);
    expect(pool.cell(1, 0)).toBe(3);
    expect(back.table('dbtest::Added').row(1)).toEqual([2, null, [0, 0, 0]]);

    const sub = open().subset(['dbtest::PoolTypes']);
    const subBytes = sub.write();
    const subBack = StaticDb.open(subBytes, { names: sample() });
    expect(subBack.tables().map((x) => x.label)).toEqual(['dbtest::PoolTypes']);
    expect(subBack.table('dbtest::PoolTypes').row(3)[1]).toBe('Grüße, ünïcödé ✓');
    expect(parseSd2(subBytes).image.pool.length).toBe(parseSd2(fixtureBytes()).image.pool.length);
    expect(open().subset(['dbtest::Wide']).toFile().image.pool.length).toBe(0);
  });

  it('pool dedup compares exact bytes: distinct entries whose 32-bit hashes collide stay distinct', () => {
    // FFnv32 collision listed by Brutus; FauFau 1.5.0 dedups by a 32-bit hash and would merge such entries.
    expect(ffnv32('GrowIntoPfxId')).toBe(ffnv32('AngularDurationTemplate'));
    const db = StaticDb.create();
    const t = db.addTable('t::Collide', [{ name: 's', type: 'String' }]);
    db.addRow(t, ['GrowIntoPfxId']);
    db.addRow(t, ['AngularDurationTemplate']);
    db.addRow(t, ['GrowIntoPfxId']);
    const compacted = StaticDb.open(db.compact().write());
    const c = compacted.tableAt(0);
    expect([c.cell(0, 0), c.cell(1, 0), c.cell(2, 0)]).toEqual(['GrowIntoPfxId', 'AngularDurationTemplate', 'GrowIntoPfxId']);
    expect(c.rawCell(0, 0)).toEqual(c.rawCell(2, 0));
    expect(c.rawCell(0, 0)).not.toEqual(c.rawCell(1, 0));
  });

  it('memory version 1000: removing a row re-keys the entries of the rows that move', () => {
    const db = open().withMemoryVersion(1000);
    db.removeRow(0xd9e1f95e, 0);
    const back = StaticDb.open(db.write());
    const t = back.table(0xd9e1f95e);
    expect(t.row(2)[1]).toBe('Grüße, ünïcödé ✓');
    expect(t.row(1).slice(0, 3)).toEqual([3, 'first', new Uint8Array([1, 2, 3])]);
  });
});

describe('names', () => {
  it('loads the three public list formats, verifies every hash, reports collisions', () => {
    const brutus = new Sd2Names();
    expect(brutus.load(text('sd2', 'names', 'brutus.json'), 'brutus')).toBeGreaterThan(2696);
    expect(brutus.mismatches).toEqual([]);
    expect(brutus.size).toBe(2696);
    expect(brutus.collisions().length).toBe(13);
    expect(brutus.entry(1499660214)!.names).toEqual(['GrowIntoPfxId', 'AngularDurationTemplate']);
    expect(brutus.get(ffnv32('dbdecals::DecalRecord'))).toBe('dbdecals::DecalRecord');
    const docs = new Sd2Names();
    expect(docs.load(text('sd2', 'names', 'documentation-sdb_names.txt'), 'docs')).toBe(2696);
    expect(docs.size).toBe(2696);
    const sdb = new Sd2Names();
    sdb.load(text('sd2', 'names', 'sdbrowser-fields.txt'), 'sdbrowser');
    expect(sdb.size).toBeGreaterThan(2696);
    const bad = new Sd2Names();
    bad.load('{"123": {"BestGuess": "nope", "Matches": ["nope"]}}', 'bad');
    expect(bad.mismatches).toEqual([{ source: 'bad', key: '123', name: 'nope', hash: ffnv32('nope') }]);
  });

  it('coverage counts named and unnamed tables and columns', () => {
    const db = StaticDb.open(fixtureBytes());
    db.names.add('dbtest::Wide');
    db.names.add('c0');
    const cov = sd2NameCoverage(db);
    expect(cov.tables).toEqual({ total: 4, named: 1, unnamed: [0x5496d6b8, 0xd9e1f95e, 0xb1c50401] });
    expect(cov.columns.total).toBe(40);
    expect(cov.columns.named).toBe(1);
    expect(sd2NameCoverage(open()).tables.named).toBe(4);
  });

  it('cracks unnamed ids from dictionary words, token permutations, namespaces and harvested strings', () => {
    const db = StaticDb.open(fixtureBytes());
    const { tables, columns } = unnamedSd2Ids(db, db.names);
    expect(tables.length).toBe(4);
    expect(sd2Tokens('dbitems::WeaponStats_v2')).toEqual(['dbitems', 'weapon', 'stats', 'v2']);
    const harvested = harvestSd2Words(db);
    expect(harvested).toContain('first');
    const result = crackSd2Names({ targets: [...tables, ...columns], words: ['dbtest::Something', 'all inline', 'Pool', 'Types', 'wide', 'empty', 'u8', 'label', 'key', 'name', 'id', 'blob', ...harvested] });
    const found = new Map(result.hits.map((h) => [h.name, h.method]));
    expect(found.get('dbtest::Wide')).toBe('namespace');
    expect(found.get('dbtest::PoolTypes')).toBe('namespace');
    expect(found.get('dbtest::AllInline')).toBe('namespace');
    expect(found.get('label')).toBe('word');
    expect(result.complete).toBe(true);
    const exported = new Sd2Names();
    for (const h of result.hits) exported.add(h.name, 'crack');
    for (const h of result.hits) expect(ffnv32(h.name)).toBe(h.id);
    expect(exported.toText()).toContain('dbtest::Wide\n');
  });
});

describe('export', () => {
  it('JSON export re-imports to the same values; compact re-import equals FauFau\'s memory image', () => {
    const db = open();
    const json = exportSd2Json(db);
    const parsed = JSON.parse(json);
    expect(parsed.tables[1].rows[3][1]).toBe('Grüße, ünïcödé ✓');
    expect(parsed.tables[0].rows[0][3]).toBe('18000000000000000000');
    expect(parsed.tables[0].rows[0][9]).toBe('-0');
    expect(parsed.tables[1].rows[0][2]).toEqual({ hex: '010203' });
    const back = importSd2Json(json);
    for (const t of db.tables()) for (let r = 0; r < t.rowCount; r++) expect(back.tableAt(t.index).row(r)).toEqual(t.row(r));
    const rewritten = parseSd2(writeSd2(back.compact().toFile()));
    expect(rewritten.source!.image).toEqual(parseSd2(fixtureBytes()).source!.image);
  });

  it('CSV per table holds every raw column, quoted per RFC 4180', () => {
    const csv = exportSd2Csv(open().table('dbtest::PoolTypes'));
    const lines = csv.split('\r\n');
    expect(lines[0]).toBe('id,name,blob,bytes,u16s,u32s,v2s,v3s,v4s');
    expect(lines[1]).toBe('1,first,010203,09,"[1,60000]","[7,4000000000]","[[1,2]]","[[1,2,3],[4,5,6]]","[[1,2,3,4]]"');
    expect(lines[2]).toBe('2,,,,,,,,');
    expect(lines[4]).toBe('4,"Grüße, ünïcödé ✓",,,,"[0,1,2,3,4,5,6,7,8,9]",,,');
  });

  it('SQLite export: typed columns, NULLs, metadata tables', () => {
    const sqlite = new Database(':memory:');
    exportSd2Sql(open(), sqlite as unknown as Sd2SqlDatabase);
    expect(sqlite.prepare('SELECT name FROM "dbtest::PoolTypes" WHERE id = 4').get()).toEqual({ name: 'Grüße, ünïcödé ✓' });
    expect(sqlite.prepare('SELECT count(*) AS n FROM "dbtest::Wide" WHERE c0 IS NULL').get()).toEqual({ n: 8 });
    expect(sqlite.prepare('SELECT typeof(u64) AS a, typeof(f32) AS b, typeof(v3) AS c FROM "dbtest::AllInline" WHERE _row = 0').get()).toEqual({ a: 'text', b: 'real', c: 'text' });
    expect(sqlite.prepare('SELECT u64, s64 FROM "dbtest::AllInline" WHERE _row = 4').get()).toEqual({ u64: '18000000000000000004', s64: -8999999999999999996 });
    expect(sqlite.prepare("SELECT type FROM _sd2_columns WHERE name = 'hm43'").get()).toEqual({ type: 'HalfMatrix4x3' });
    expect(sqlite.prepare('SELECT hex(blob) AS h FROM "dbtest::PoolTypes" WHERE _row = 0').get()).toEqual({ h: '010203' });
    sqlite.close();
  });
});

describe('flags and memory versions', () => {
  it('withFlags re-keys the pool when the Client flag changes, and drops payload XOR / compression as asked', () => {
    const db = open();
    for (const flags of [0, 4, 5, 8, 12, 13]) {
      const bytes = db.withFlags(flags).write();
      const back = StaticDb.open(bytes);
      expect(back.toFile().header.flags).toBe(flags);
      expect(back.toFile().compression.compressed).toBe((flags & 4) !== 0);
      for (const t of db.tables()) for (let r = 0; r < t.rowCount; r++) expect(back.tableAt(t.index).row(r)).toEqual(t.row(r));
    }
    // Client clear: pool entries are stored plain, so the string bytes are visible in the image.
    const plain = parseSd2(db.withFlags(4).write()).image.pool;
    expect(new TextDecoder().decode(plain)).toContain('Grüße');
    expect(new TextDecoder().decode(parseSd2(fixtureBytes()).image.pool)).not.toContain('Grüße');
  });
});
