/** `scry db …` in-process: the issue's checks, every command's output, exit codes for usage and bad input. */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import { writeGadb } from '../../src/formats/gadb/index.ts';
import { runCli } from '../support/cli.ts';
import { fixturePath, loadFixture } from '../support/fixtures.ts';
import { syntheticModel } from '../gamedb/synthetic.ts';

const FXP = fixturePath('gadb', 'landmine_curse.fxp');
const dir = mkdtempSync(join(tmpdir(), 'scry-db-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const synthetic = join(dir, 'synthetic.gamedb');
writeFileSync(synthetic, writeGadb(syntheticModel()));

describe('scry db get', () => {
  it('prints 6000 for FxGlobalProps FxGlobalProps 0x3114F9A5 --json (the issue\'s check)', async () => {
    const r = await runCli(['db', 'get', FXP, 'FxGlobalProps', 'FxGlobalProps', '0x3114F9A5', '--json']);
    expect(r).toEqual({ code: 0, stdout: '6000\n', stderr: '' });
  });

  it('takes field names, prints arrays element by element, and --index one element', async () => {
    expect((await runCli(['db', 'get', FXP, 'ClientFX.Sprite', '8', 'KeyName'])).stdout).toBe('"Glow"\n');
    const all = await runCli(['db', 'get', FXP, 'FxGlobalProps', 'FxGlobalProps', '0xCA5E75DD', '--json']);
    const links = JSON.parse(all.stdout) as Array<{ category: string; record: string }>;
    expect(links.map((l) => l.record)).toEqual(Array.from({ length: 15 }, (_, i) => String(i)));
    expect(links[8]).toEqual({ category: 'ClientFX.Sprite', record: '8', link: '0x00A00001' });
    const one = await runCli(['db', 'get', FXP, 'FxGlobalProps', 'FxGlobalProps', '0xCA5E75DD', '--index', '13']);
    expect(one.stdout).toBe('-> ClientFX.Sound:13\n');
    const vec = await runCli(['db', 'get', FXP, 'ClientFX.Sprite', '8', 'Offset', '--json']);
    expect(JSON.parse(vec.stdout)).toEqual([{ time: 0, value: [0, 7, 0] }, { time: 1, value: [0, 7, 0] }]);
  });

  it('exits 1 when the slot rule gives no value (past the count, count 0, no such field)', async () => {
    const past = await runCli(['db', 'get', FXP, 'FxGlobalProps', 'FxGlobalProps', '0x3114F9A5', '--index', '1']);
    expect(past.code).toBe(1);
    expect(past.stderr).toMatch(/no value at element 1 \(count 1\)/);
    const materials = await runCli(['db', 'get', FXP, 'ClientFX.MaterialController', '3', 'Materials', '--json']);
    expect([materials.code, materials.stdout]).toEqual([1, 'null\n']);
    expect((await runCli(['db', 'get', FXP, 'FxGlobalProps', 'FxGlobalProps', 'NoSuchField'])).code).toBe(1);
  });

  it('decodes the synthetic types as JSON (int64 as a decimal string, enums with their hash, links as records)', async () => {
    const id = await runCli(['db', 'get', synthetic, 'Inventory.Items', 'Sword', 'Id', '--json']);
    expect(JSON.parse(id.stdout)).toBe('81985529216486895');
    const q = JSON.parse((await runCli(['db', 'get', synthetic, 'Inventory.Items', 'Axe', 'Quality', '--json'])).stdout);
    expect(q.text).toBe('HIGH');
    const stats = JSON.parse((await runCli(['db', 'get', synthetic, 'Inventory.Items', 'Axe', 'Stats', '--json'])).stdout);
    expect(stats).toMatchObject({ category: '_StructuresWeapon.Stats', record: '#2' });
    const primary = await runCli(['db', 'get', synthetic, '_StructuresWeapon.Stats', '#0', 'Tags']);
    expect(primary.stdout).toBe('[0] "sharp"\n[1] "long"\n');
  });
});

describe('scry db info / ls / show / find / refs', () => {
  it('info summarizes the sample', async () => {
    const r = await runCli(['db', 'info', FXP]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/GADB v17 database "FXDB" \(LTFX v8 wrapper\), 14,524 bytes/);
    expect(r.stdout).toMatch(/records\s+16 \(0 primaries, 16 secondaries/);
    expect(r.stdout).toMatch(/links\s+15 cells: 0 null, 0 to primaries, 15 to secondaries/);
    const j = JSON.parse((await runCli(['db', 'info', FXP, '--json'])).stdout);
    expect(j).toMatchObject({ categories: 12, records: 16, cells: 652, descriptors: 514, rootName: 'FXDB', bytes: 14524 });
    expect(j.descriptorTypes).toMatchObject({ String: 137, Float: 81, Bool: 56, RecordLink: 1 });
  });

  it('ls lists categories, one category\'s records (paged), or everything', async () => {
    const cats = await runCli(['db', 'ls', FXP]);
    expect(cats.stdout.trim().split('\n')).toHaveLength(13);
    expect(cats.stdout).toMatch(/0\s+0x0BFCC9AB\s+1\s+0\s+5\s+FxGlobalProps/);
    const sprite = await runCli(['db', 'ls', FXP, 'ClientFX.Sprite']);
    expect(sprite.stdout).toMatch(/#1\s+8\s+0x00000023\s+38\s+29\s+<- 1/);
    const page = JSON.parse((await runCli(['db', 'ls', FXP, 'ClientFX.Sprite', '--offset', '1', '--limit', '1', '--json'])).stdout);
    expect(page.items.map((i: { record: string }) => i.record)).toEqual(['8']);
    const all = await runCli(['db', 'ls', FXP, '--all']);
    expect(all.stdout.trim().split('\n')).toHaveLength(13 + 16);
    expect((await runCli(['db', 'ls', FXP, '--limit', 'x'])).code).toBe(2);
  });

  it('show prints every field with its value, names where known, shared values', async () => {
    const r = await runCli(['db', 'show', FXP, 'ClientFX.Sprite', '8']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^ClientFX.Sprite:8 {2}\(record 1 of ClientFX.Sprite, link 0x00A00001, name hash 0x00000023\)/);
    expect(r.stdout).toMatch(/KeyName\s+String\s+1\s+16\s+"Glow"/);
    expect(r.stdout).toMatch(/AttachName\s+String\s+1\s+15\s+"" \[shared ×\d+\]/);
    expect(r.stdout).toMatch(/0x23E7C5B3\s+StringEnum\s+1\s+20\s+Follow \(0x74748AC9\)/);
    const toc = await runCli(['db', 'show', FXP, 'FxGlobalProps', 'FxGlobalProps']);
    expect(toc.stdout).toContain('"fx\\weapons\\landmines\\landmine_curse.fxp"'); // paths stay readable: one backslash each
    expect(toc.stdout).toMatch(/\[15\] -> ClientFX.CameraShake:0, .*, … 7 more \(scry db get\)/);
    const j = JSON.parse((await runCli(['db', 'show', FXP, 'FxGlobalProps', 'FxGlobalProps', '--json'])).stdout);
    expect(j.fieldList.find((f: { field: string }) => f.field === '0x3114F9A5').values).toEqual([6000]);
  });

  it('--names resolves more field hashes from a plain-text list', async () => {
    const list = join(dir, 'names.txt');
    writeFileSync(list, '# guessed\nPrice\nQuality\n');
    const r = await runCli(['db', 'show', synthetic, 'Inventory.Items', 'Sword', '--names', list]);
    expect(r.stdout).toMatch(/Price\s+Int\s+1\s+\d+\s+100/);
    expect(r.stdout).toMatch(/0x[0-9A-F]{8}\s+Int64/); // Id stays a hash
  });

  it('find searches names, hashes and values; exit 1 when nothing matches', async () => {
    const r = await runCli(['db', 'find', FXP, 'smoke']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/value\s+String\s+ClientFX.StandardGPUParticleSystem:4 KeyName\s+"Smoke"/);
    const byHash = JSON.parse((await runCli(['db', 'find', FXP, '0x3114F9A5', '--json'])).stdout);
    expect(byHash.hits).toEqual([{ kind: 'field', by: 'hash', category: 'FxGlobalProps', field: '0x3114F9A5', hash: 0x3114f9a5 }]);
    expect((await runCli(['db', 'find', FXP, 'qqqzzz'])).code).toBe(1);
  });

  it('refs lists who links to a record and what it links to', async () => {
    const r = await runCli(['db', 'refs', FXP, 'ClientFX.Sprite', '8']);
    expect(r.stdout).toMatch(/referenced by 1 link\n {2}<- FxGlobalProps:FxGlobalProps {2}0xCA5E75DD\[8\]/);
    const j = JSON.parse((await runCli(['db', 'refs', FXP, 'FxGlobalProps', 'FxGlobalProps', '--json'])).stdout);
    expect(j.referencedBy).toEqual([]);
    expect(j.linksTo).toHaveLength(15);
  });
});

describe('scry db verify / rebuild', () => {
  it('verify: the sample is clean (exit 0); a broken link is a finding with offset and hypothesis (exit 1)', async () => {
    const ok = await runCli(['db', 'verify', FXP]);
    expect([ok.code, ok.stdout]).toEqual([0, 'landmine_curse.fxp: ok\n']);
    const bad = await runCli(['db', 'verify', synthetic]);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(/error\s+0x[0-9A-F]{4,} links.range .*\[H-PRIM-FIRST\]/);
    const j = JSON.parse((await runCli(['db', 'verify', synthetic, '--json'])).stdout);
    expect(j.issues.find((i: { rule: string }) => i.rule === 'links.range')).toMatchObject({ hypothesis: 'H-PRIM-FIRST', severity: 'error' });
  });

  it('rebuild writes a byte-identical file, refuses to overwrite without --force, keeps a .bak', async () => {
    const out = join(dir, 'rebuilt.fxp');
    const r = await runCli(['db', 'rebuild', FXP, '-o', out]);
    expect(r).toMatchObject({ code: 0, stdout: 'rebuilt.fxp: 14,524 bytes, byte-identical to landmine_curse.fxp\n' });
    expect(Buffer.compare(readFileSync(out), Buffer.from(loadFixture('gadb', 'landmine_curse.fxp')))).toBe(0);
    const again = await runCli(['db', 'rebuild', FXP, '-o', out]);
    expect(again.code).toBe(3);
    expect(again.stderr).toMatch(/refusing to overwrite/);
    const forced = await runCli(['db', 'rebuild', FXP, '-o', out, '--force', '--json']);
    expect(JSON.parse(forced.stdout)).toMatchObject({ identical: true, outputBytes: 14524 });
    expect(existsSync(out + '.bak')).toBe(true);
    expect((await runCli(['db', 'rebuild', FXP])).code).toBe(2);
  });
});

describe('bad input and usage', () => {
  it('exits 3 with offset and path for a truncated, a non-GADB and a missing file', async () => {
    const truncated = join(dir, 'truncated.fxp');
    writeFileSync(truncated, loadFixture('gadb', 'landmine_curse.fxp').subarray(0, 5000));
    const t = await runCli(['db', 'info', truncated, '--json']);
    expect(t.code).toBe(3);
    expect(JSON.parse(t.stdout)).toMatchObject({ format: 'gadb' });
    expect(t.stderr).toMatch(/gadb: .* at 0x[0-9A-F]{4}/);
    const junk = join(dir, 'junk.bin');
    writeFileSync(junk, 'not a database at all');
    for (const cmd of ['info', 'ls', 'verify']) expect((await runCli(['db', cmd, junk])).code).toBe(3);
    expect((await runCli(['db', 'show', join(dir, 'missing.gamedb'), 'A', 'B'])).code).toBe(3);
  });

  it('exits 3 for an unknown category or record, 2 for wrong arguments', async () => {
    const c = await runCli(['db', 'show', FXP, 'ClientFX.Nope', '1']);
    expect([c.code, c.stderr]).toEqual([3, 'scry db show: no category "ClientFX.Nope"\n']);
    expect((await runCli(['db', 'show', FXP, 'ClientFX.Sprite', '99'])).stderr).toMatch(/no record "99" in category ClientFX.Sprite/);
    expect((await runCli(['db', 'get', FXP, 'FxGlobalProps'])).code).toBe(2);
    expect((await runCli(['db', 'get', FXP, 'FxGlobalProps', 'FxGlobalProps', '0x3114F9A5', '--index', '-1'])).code).toBe(2);
    expect((await runCli(['db', 'info', FXP, '--bogus'])).code).toBe(2);
  });
});
