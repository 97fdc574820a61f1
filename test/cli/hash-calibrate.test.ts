/**
 * `scry hash calibrate` on a synthetic database whose category names contain `/` (sort keys made with a stand-in
 * value for `/`), and the reuse of the calibrated table by `--lut`, the saved user table and the db commands.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeGadb } from '../../src/formats/gadb/index.ts';
import { p919 } from '../../src/hash/p919.ts';
import { runCli } from '../support/cli.ts';
import { fixturePath } from '../support/fixtures.ts';
import { syntheticModel, TRUE_TABLE } from '../gamedb/synthetic.ts';

const dir = mkdtempSync(join(tmpdir(), 'scry-cal-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = join(dir, 'slash.gamedb');
writeFileSync(file, writeGadb(syntheticModel()));
const env = { XDG_CONFIG_HOME: join(dir, 'config') };
const hex = (h: number) => '0x' + h.toString(16).toUpperCase().padStart(8, '0');
const trueHash = p919('AI/Templates', { table: TRUE_TABLE });

describe('scry hash calibrate', () => {
  it('derives `/` from the category sort keys and reports it', async () => {
    const r = await runCli(['hash', 'calibrate', file], { env });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/'\/' \(0x2f\) = 41 {3}confirmed by 1 pair/);
    expect(r.stdout).toMatch(/not saved: pass -o TABLE.json or --save/);
    const j = JSON.parse((await runCli(['hash', 'calibrate', file, '--json'], { env })).stdout);
    expect(j.derived).toEqual([{ character: '/', byte: 0x2f, value: 41, support: 1 }]);
    expect([j.pairs, j.unresolved, j.contradicted]).toEqual([4, 0, []]);
  });

  it('writes a table that --lut reuses for hashing and for db lookups by hash', async () => {
    expect((await runCli(['hash', 'AI/Templates'], { env })).code).toBe(3); // `/` is unknown before calibration
    const table = join(dir, 'table.json');
    expect((await runCli(['hash', 'calibrate', file, '-o', table], { env })).code).toBe(0);
    expect(JSON.parse(readFileSync(table, 'utf8'))).toMatchObject({ format: 'scry-p919-table', calibrationSource: 'category sort keys of slash.gamedb' });
    const h = await runCli(['hash', 'AI/Templates', '--lut', table], { env });
    expect(h.stdout).toBe(`${hex(trueHash)}\tAI/Templates\n`);
    const find = JSON.parse((await runCli(['db', 'find', file, 'Uruk/Captain', '--lut', table, '--json'], { env })).stdout);
    expect(find.hash).toBe(p919('Uruk/Captain', { table: TRUE_TABLE }));
    const get = await runCli(['db', 'get', file, 'AI/Templates', 'Uruk/Captain', hex(p919('Scale')), '--lut', table, '--json'], { env });
    expect(get.stdout).toBe('2\n');
    expect((await runCli(['hash', 'calibrate', file, '-o', table], { env })).code).toBe(3); // no overwrite without --force
    expect((await runCli(['hash', 'calibrate', file, '-o', table, '--force'], { env })).code).toBe(0);
    expect(existsSync(table + '.bak')).toBe(true);
  });

  it('--save puts the table where every later command finds it', async () => {
    const saved = await runCli(['hash', 'calibrate', file, '--save'], { env });
    expect(saved.stdout).toContain(`saved ${join(dir, 'config', 'scry', 'p919-table.json')}`);
    expect((await runCli(['hash', 'AI/Templates'], { env })).stdout).toBe(`${hex(trueHash)}\tAI/Templates\n`);
    const info = JSON.parse((await runCli(['db', 'ls', file, '--json'], { env })).stdout);
    expect(info.find((c: { name: string }) => c.name === 'AI/Templates').sortKey).toBe(trueHash);
  });

  it('exits 1 when a stored key contradicts the table, 3 for a file that is not a database', async () => {
    const model = syntheticModel();
    model.categories[0]!.sortKey = (model.categories[0]!.sortKey ^ 1) >>> 0;
    const wrong = join(dir, 'wrong.gamedb');
    writeFileSync(wrong, writeGadb(model));
    const r = await runCli(['hash', 'calibrate', wrong], { env: { XDG_CONFIG_HOME: join(dir, 'empty') } });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/contradiction: "Inventory.Items" is stored as 0x[0-9A-F]{8}, the table gives 0x[0-9A-F]{8}/);
    expect((await runCli(['hash', 'calibrate', fixturePath('hash', 'p919-lut.json')], { env: { XDG_CONFIG_HOME: join(dir, 'empty') } })).code).toBe(3);
  });
});
