import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { runCli } from '../support/cli.ts';
import { fixturePath } from '../support/fixtures.ts';
import { StaticDb, ffnv32, parseSd2 } from '../../src/index.ts';

const SD2 = fixturePath('sd2', 'faufau-1.5.0-generated', 'sample-beta-1869.sd2');
const NAMES = fixturePath('sd2', 'faufau-1.5.0-generated', 'sample-names.txt');
const BRUTUS = fixturePath('sd2', 'names', 'brutus.json');
const dir = mkdtempSync(join(tmpdir(), 'scry-sd2-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const read = (p: string): Uint8Array => new Uint8Array(readFileSync(p));

describe('scry sd2 (read-only commands)', () => {
  it('info --json gives header, versions and counts', async () => {
    const r = await runCli(['sd2', 'info', SD2, '--json']);
    expect(r.code).toBe(0);
    const info = JSON.parse(r.stdout);
    expect(info).toMatchObject({ fileVersion: 12, memoryVersion: 1002, flags: 13, flagNames: ['ObfuscatedPool', 'Compressed', 'Client'], patch: 'beta-1869', tables: 4, columns: 40, rows: 33, imageSize: 2821, timestampUtc: '2016-05-05T04:21:54.000Z', findings: [] });
  });

  it('tables shows names from a list; show prints a row by index or key', async () => {
    const t = await runCli(['sd2', 'tables', SD2, '--names', NAMES]);
    expect(t.stdout).toContain('2\t0xEC6CAED8\t23\t11\t24\tdbtest::Wide');
    const row = await runCli(['sd2', 'show', SD2, 'dbtest::PoolTypes', 'key:4', '--names', NAMES, '--json']);
    expect(JSON.parse(row.stdout)).toMatchObject({ row: 3, values: { id: 4, name: 'Grüße, ünïcödé ✓', u32s: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9] } });
    const bare = await runCli(['sd2', 'show', SD2, '0xD9E1F95E', '1']);
    expect(bare.stdout).toContain('0x2108BA1B');
    const missing = await runCli(['sd2', 'show', SD2, 'dbtest::Nope', '--names', NAMES]);
    expect(missing.code).toBe(3);
  });

  it('find prints table:row:column and exits 1 when nothing matches', async () => {
    const hit = await runCli(['sd2', 'find', SD2, '65533', '--names', NAMES]);
    expect(hit.code).toBe(0);
    expect(hit.stdout).toBe('dbtest::AllInline:3:u16\t65533\n');
    expect((await runCli(['sd2', 'find', SD2, 'no such text'])).code).toBe(1);
    expect((await runCli(['sd2', 'find', SD2, 'x', '--type', 'weird'])).code).toBe(2);
  });

  it('names reports coverage and collisions; crack writes verified candidates as a name list', async () => {
    const n = await runCli(['sd2', 'names', SD2, '--names', BRUTUS, '--json']);
    const report = JSON.parse(n.stdout);
    expect(report.tables).toMatchObject({ total: 4, named: 0 });
    expect(report.columns).toMatchObject({ total: 40, named: 4 });
    const out = join(dir, 'cracked.txt');
    const c = await runCli(['sd2', 'crack', SD2, '--words', NAMES, '-o', out]);
    expect(c.code).toBe(0);
    expect(readFileSync(out, 'utf8').split('\n')).toContain('dbtest::PoolTypes');
    const again = await runCli(['sd2', 'names', SD2, '--names', out, '--json']);
    expect(JSON.parse(again.stdout).tables.named).toBe(4);
  });

  it('sql runs a query over the tables it names', async () => {
    const r = await runCli(['sd2', 'sql', SD2, 'SELECT _row, c1 FROM "dbtest::Wide" WHERE c0 IS NULL AND key > 10', '--names', NAMES, '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([
      { _row: 12, c1: 12001 },
      { _row: 15, c1: 15001 },
      { _row: 18, c1: 18001 },
      { _row: 21, c1: 21001 },
    ]);
    expect((await runCli(['sd2', 'sql', SD2, 'SELEC nonsense'])).code).toBe(2);
  });

  it('show --render renders localized-text parameter headers', async () => {
    const db = StaticDb.create();
    const t = db.addTable('dblocalization::LocalizedText', [
      { name: 'id', type: 'UInt' },
      { name: 'text', type: 'String' },
    ]);
    db.addRow(t, [1, '\u0003\u0000\u0000\u0004Hit  times']);
    const path = join(dir, 'loc.sd2');
    writeFileSync(path, db.write());
    writeFileSync(join(dir, 'loc-names.txt'), 'dblocalization::LocalizedText\nid\ntext\n');
    const r = await runCli(['sd2', 'show', path, 'dblocalization::LocalizedText', '0', '--render', '--json', '--names', join(dir, 'loc-names.txt')]);
    expect(JSON.parse(r.stdout).values).toMatchObject({ text: 'Hit {0} times' });
  });

  it('a wrong patch name is bad input (exit 3) with a clear message', async () => {
    const r = await runCli(['sd2', 'info', SD2, '--patch', 'beta-1868']);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('inflate failed: payload does not decrypt with patch name "beta-1868"');
  });
});

describe('scry sd2 (writing commands)', () => {
  it('export json | pack round-trips to FauFau\'s memory image; csv and sqlite exports', async () => {
    const json = join(dir, 'db.json');
    expect((await runCli(['sd2', 'export', SD2, '-o', json, '--names', NAMES])).code).toBe(0);
    const packed = join(dir, 'packed.sd2');
    expect((await runCli(['sd2', 'pack', json, '-o', packed, '--compact'])).code).toBe(0);
    expect(parseSd2(read(packed)).source!.image).toEqual(parseSd2(read(SD2)).source!.image);
    const csvDir = join(dir, 'csv');
    expect((await runCli(['sd2', 'export', SD2, '--format', 'csv', '-o', csvDir, '--names', NAMES])).code).toBe(0);
    expect(readdirSync(csvDir).sort()).toEqual(['dbtest.AllInline.csv', 'dbtest.Empty.csv', 'dbtest.PoolTypes.csv', 'dbtest.Wide.csv']);
    expect(readFileSync(join(csvDir, 'dbtest.Empty.csv'), 'utf8')).toBe('id,label\r\n');
    const sqlitePath = join(dir, 'db.sqlite');
    expect((await runCli(['sd2', 'export', SD2, '--format', 'sqlite', '-o', sqlitePath, '--names', NAMES])).code).toBe(0);
    const sqlite = new Database(sqlitePath, { readonly: true });
    expect(sqlite.prepare('SELECT count(*) AS n FROM "dbtest::Wide"').get()).toEqual({ n: 23 });
    sqlite.close();
    expect((await runCli(['sd2', 'export', SD2, '--format', 'sqlite', '-o', sqlitePath])).code).toBe(2);
  });

  it('set writes a new file atomically and never overwrites without --force (then keeps a .bak)', async () => {
    const out = join(dir, 'set.sd2');
    const r = await runCli(['sd2', 'set', SD2, 'dbtest::PoolTypes', 'key:2', 'name', 'renamed', '-o', out, '--names', NAMES, '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ ref: 'dbtest::PoolTypes:1:name', before: null, after: 'renamed' });
    expect(StaticDb.open(read(out)).table(0xd9e1f95e).cell(1, 1)).toBe('renamed');
    const again = await runCli(['sd2', 'set', out, 'dbtest::Wide', '0', 'c0', '7', '--names', NAMES]);
    expect(again.code).toBe(2);
    const forced = await runCli(['sd2', 'set', out, 'dbtest::Wide', '0', 'c0', '7', '--names', NAMES, '--force']);
    expect(forced.code).toBe(0);
    expect(existsSync(out + '.bak')).toBe(true);
    expect(StaticDb.open(read(out)).table(0xec6caed8).cell(0, 0)).toBe(7);
    const bad = await runCli(['sd2', 'set', SD2, 'dbtest::Wide', '0', 'c1', '70000', '-o', join(dir, 'bad.sd2'), '--names', NAMES]);
    expect(bad.code).toBe(3);
    expect(bad.stderr).toMatch(/UShort needs an integer in 0…65535/);
  });

  it('diff reports table, row and cell changes by first-column key and exits 1; identical content exits 0', async () => {
    const db = StaticDb.open(read(SD2));
    db.setCell(0xd9e1f95e, 3, 1, 'changed');
    db.removeRow(0xd9e1f95e, 4);
    db.addRow(0xd9e1f95e, { '#0': 9 });
    db.addTable('dbtest::New', [{ name: 'id', type: 'UInt' }]);
    db.removeTable(0xb1c50401);
    const changed = join(dir, 'changed.sd2');
    writeFileSync(changed, db.write());
    const r = await runCli(['sd2', 'diff', SD2, changed, '--names', NAMES]);
    expect(r.code).toBe(1);
    expect(ffnv32('dbtest::New')).toBe(0x5207aff1); // not in the sample names: shown by id
    expect(r.stdout.split('\n')).toEqual(['+ table 0x5207AFF1', '- table dbtest::Empty', '~ table dbtest::PoolTypes', '  + row 9', '  - row 5', '  ~ 4:name "Grüße, ünïcödé ✓" → "changed"', '']);
    const repacked = join(dir, 'repacked.sd2');
    expect((await runCli(['sd2', 'pack', SD2, '-o', repacked, '--memory-version', '1000', '--file-version', '7'])).code).toBe(0);
    expect((await runCli(['sd2', 'diff', SD2, repacked])).code).toBe(0);
  });

  it('subset keeps only the named tables; pack converts file and memory versions', async () => {
    const out = join(dir, 'subset.sd2');
    expect((await runCli(['sd2', 'subset', SD2, 'dbtest::Wide', 'dbtest::Empty', '-o', out, '--names', NAMES])).code).toBe(0);
    expect(StaticDb.open(read(out)).tables().map((t) => t.rowCount)).toEqual([23, 0]);
    for (const [fv, mv] of [
      ['7', '1000'],
      ['11', '1002'],
      ['12', '1000'],
    ] as const) {
      const p = join(dir, `v${fv}-${mv}.sd2`);
      expect((await runCli(['sd2', 'pack', SD2, '-o', p, '--file-version', fv, '--memory-version', mv])).code).toBe(0);
      const back = StaticDb.open(read(p));
      expect([back.toFile().header.fileVersion, back.memoryVersion]).toEqual([Number(fv), Number(mv)]);
      const orig = StaticDb.open(read(SD2));
      for (const t of orig.tables()) for (let r = 0; r < t.rowCount; r++) expect(back.tableAt(t.index).row(r)).toEqual(t.row(r));
    }
    const plain = join(dir, 'plain.sd2');
    expect((await runCli(['sd2', 'pack', SD2, '-o', plain, '--flags', '0'])).code).toBe(0);
    const plainFile = parseSd2(read(plain));
    expect(plainFile.compression.compressed).toBe(false);
    expect(StaticDb.open(read(plain)).table(0xd9e1f95e).cell(3, 1)).toBe('Grüße, ünïcödé ✓');
    writeFileSync(join(dir, 'junk.json'), '{"x":1}');
    expect((await runCli(['sd2', 'pack', join(dir, 'junk.json'), '-o', join(dir, 'junk.sd2')])).code).toBe(3);
  });
});
