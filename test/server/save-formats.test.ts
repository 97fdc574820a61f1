/**
 * Saving staged edits as a patch database and as a change file: both re-read with the library and applied to the
 * base give the staged result (the same edits made with `GadbEditor` directly), `scry db apply` applies the change
 * file, and both refuse a request without the token and a name that exists.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseGadb, writeGadb } from '../../src/formats/gadb/index.ts';
import type { Gadb } from '../../src/formats/gadb/types.ts';
import { Database } from '../../src/gamedb/database.ts';
import { applyChangeFiles, parseChangeFile } from '../../src/gamedb/edit/changes.ts';
import { diffGadb } from '../../src/gamedb/edit/diff.ts';
import { GadbEditor } from '../../src/gamedb/edit/editor.ts';
import { applyGadbPatch, gadbBuildTag } from '../../src/gamedb/edit/patch.ts';
import { readBytes } from '../../src/node/fs.ts';
import type { EditList, SaveResult, SessionInfo } from '../../src/server/api-types.ts';
import { runCli } from '../support/cli.ts';
import { loadFixture } from '../support/fixtures.ts';
import { api, mutate, raw, startHarness, type Harness } from './harness.ts';

const F = '/api/files/landmine_curse.fxp';
const END_TIME = 0x5e0b44d0;
const KEY_NAME = 0x267d8bca;

/** The staged edits of these tests, made with the library directly: the result every save must reproduce. */
function expectedResult(): Gadb {
  const ed = new GadbEditor(parseGadb(loadFixture('gadb', 'landmine_curse.fxp')));
  const sprite = ed.record('ClientFX.Sprite', '1');
  ed.set(sprite, '0x5E0B44D0', 0.5);
  ed.set(sprite, '0x267D8BCA', 'Glow: "edited" # not a comment');
  const props = ed.record('FxGlobalProps', 'FxGlobalProps');
  ed.set(props, '0x3114F9A5', 6500);
  ed.set(props, '0xCA5E75DD', 'ClientFX.Sprite/8', { index: 0 });
  return ed.finish();
}

function differences(a: Gadb, b: Gadb): number {
  const d = diffGadb(a, b);
  return d.categoriesAdded.length + d.categoriesRemoved.length + d.categoriesChanged.length + d.recordsAdded.length + d.recordsRemoved.length + d.recordsChanged.length + d.header.length;
}

describe('workbench: save as patch database and as change file', () => {
  let h: Harness;
  let base: Gadb;
  let expected: Gadb;
  beforeAll(async () => {
    h = await startHarness();
    base = parseGadb(loadFixture('gadb', 'landmine_curse.fxp'));
    expected = expectedResult();
    const stage = async (body: unknown) => expect((await mutate(h.wb, 'POST', `${F}/edits`, body)).status).toBe(200);
    await stage({ record: 12, field: '0x5E0B44D0', value: { t: 'float', v: 0.5 } });
    await stage({ record: 12, field: '0x267D8BCA', value: { t: 'string', v: 'Glow: "edited" # not a comment' } });
    await stage({ record: 0, field: '0x3114F9A5', value: { t: 'int', v: 6500 } });
    await stage({ record: 0, field: '0xCA5E75DD', element: 0, value: { t: 'link', raw: 0, target: { category: 'ClientFX.Sprite', label: '8', index: -1, primary: false } } });
  });
  afterAll(async () => {
    await h.wb.close();
  });

  it('offers the three formats with their suggested names', async () => {
    const list = await api<EditList>(h.wb, `${F}/edits`);
    expect(list.edits).toHaveLength(4);
    expect(list.saveAs.map((f) => [f.id, f.suggestedName])).toEqual([
      ['gadb', 'landmine_curse.edited.fxp'],
      ['patch', 'landmine_curse.fxpgamedb_patch'],
      ['changes', 'landmine_curse.changes.yaml'],
    ]);
  });

  it('the staged result the saves must reproduce is what the edits say', () => {
    // Guards the expectation itself: golden values of the fixture, before and after.
    const db0 = Database.open(writeGadb(base));
    expect(db0.getRecord('ClientFX.Sprite', '1').getFloat(END_TIME)).toBe(Math.fround(0.084));
    const db = Database.open(writeGadb(expected));
    expect(db.getRecord('ClientFX.Sprite', '1').getFloat(END_TIME)).toBe(0.5);
    expect(db.getRecord('ClientFX.Sprite', '1').getString(KEY_NAME)).toBe('Glow: "edited" # not a comment');
    expect(db.getRecord('ClientFX.Sprite', '8').getString(KEY_NAME)).toBe('Glow');
    expect(differences(base, expected)).toBe(2);
  });

  it('saves a patch database (GADB, base build tag, only the changed records) that applied to the base gives the staged result', async () => {
    const r = await mutate(h.wb, 'POST', `${F}/save`, { name: 'landmine_curse.fxpgamedb_patch', as: 'patch' });
    expect(r.status, r.body).toBe(200);
    const result = r.json<SaveResult>();
    expect(result).toMatchObject({ format: 'patch', name: 'landmine_curse.fxpgamedb_patch', saved: { id: 'landmine_curse.fxpgamedb_patch', kind: 'gadb', origin: 'saved', savedFrom: 'landmine_curse.fxp' } });
    expect(result.findings.filter((f) => f.severity === 'error')).toEqual([]);
    const bytes = readBytes(join(h.dir, 'landmine_curse.fxpgamedb_patch'));
    expect(bytes.length).toBe(result.bytes);
    const patch = parseGadb(bytes);
    expect(gadbBuildTag(patch)).toBe(gadbBuildTag(base));
    const pdb = Database.open(bytes);
    // Only the two edited records, both named: ClientFX.Sprite/1 and FxGlobalProps/FxGlobalProps.
    expect(pdb.recordCount).toBe(2);
    expect(pdb.getRecord('ClientFX.Sprite', '1').getFloat(END_TIME)).toBe(0.5);
    const merged = applyGadbPatch(base, patch);
    expect(merged.replaced.sort()).toEqual(['ClientFX.Sprite/1', 'FxGlobalProps/FxGlobalProps']);
    expect(differences(expected, merged.merged)).toBe(0);
    expect(Buffer.compare(writeGadb(merged.merged), writeGadb(expected))).toBe(0);
    // The original is untouched.
    expect(Buffer.compare(readBytes(join(h.dir, 'landmine_curse.fxp')), loadFixture('gadb', 'landmine_curse.fxp'))).toBe(0);
    // The patch is served like any database.
    const s = await api<SessionInfo>(h.wb, '/api/session');
    expect(s.files.map((f) => f.id)).toContain('landmine_curse.fxpgamedb_patch');
  });

  it('saves a YAML change file in the documented format that applied to the base gives the staged result', async () => {
    const r = await mutate(h.wb, 'POST', `${F}/save`, { name: 'landmine_curse.changes.yaml', as: 'changes' });
    expect(r.status, r.body).toBe(200);
    const result = r.json<SaveResult>();
    expect(result).toMatchObject({ format: 'changes', name: 'landmine_curse.changes.yaml' });
    // served from now on, as a source of the conflict view
    expect(result.saved).toMatchObject({ name: 'landmine_curse.changes.yaml', kind: 'changes', origin: 'saved', savedFrom: 'landmine_curse.fxp' });
    expect(result.findings.filter((f) => f.severity === 'error')).toEqual([]);
    const path = join(h.dir, 'landmine_curse.changes.yaml');
    const text = readFileSync(path, 'utf8');
    expect(Buffer.byteLength(text)).toBe(result.bytes);
    const ops = parseChangeFile(text, 'landmine_curse.changes.yaml');
    expect(ops).toEqual([
      { op: 'set', path: 'ClientFX.Sprite/1.0x5E0B44D0', value: 0.5 },
      { op: 'set', path: 'ClientFX.Sprite/1.0x267D8BCA', value: 'Glow: "edited" # not a comment' },
      { op: 'set', path: 'FxGlobalProps/FxGlobalProps.0x3114F9A5', value: 6500 },
      { op: 'set', path: 'FxGlobalProps/FxGlobalProps.0xCA5E75DD', index: 0, value: 'ClientFX.Sprite/8' },
    ]);
    const applied = applyChangeFiles(base, [{ name: 'landmine_curse.changes.yaml', ops }]).gadb;
    expect(differences(expected, applied)).toBe(0);
    // `scry db apply` applies it to the base with the same result.
    const out = join(h.dir, 'applied.fxp');
    const cli = await runCli(['db', 'apply', join(h.dir, 'landmine_curse.fxp'), path, '-o', out]);
    expect(cli.code, cli.stderr).toBe(0);
    const fromCli = parseGadb(readBytes(out));
    expect(differences(expected, fromCli)).toBe(0);
    expect(Database.open(readBytes(out)).getRecord('ClientFX.Sprite', '1').getString(KEY_NAME)).toBe('Glow: "edited" # not a comment');
  });

  it('refuses both formats without the token, and never replaces an existing file', async () => {
    for (const as of ['patch', 'changes']) {
      const name = `no-token-${as}.out`;
      const r = await raw(h.wb, 'POST', `${F}/save`, {}, { name, as });
      expect(r.status, as).toBe(403);
      expect(existsSync(join(h.dir, name))).toBe(false);
    }
    writeFileSync(join(h.dir, 'taken.out'), 'x');
    for (const as of ['patch', 'changes']) {
      const r = await mutate(h.wb, 'POST', `${F}/save`, { name: 'taken.out', as });
      expect(r.status, as).toBe(409);
      expect(readFileSync(join(h.dir, 'taken.out'), 'utf8')).toBe('x');
    }
    // The files saved earlier are not replaced either.
    expect((await mutate(h.wb, 'POST', `${F}/save`, { name: 'landmine_curse.changes.yaml', as: 'changes' })).status).toBe(409);
    expect((await mutate(h.wb, 'POST', `${F}/save`, { name: 'landmine_curse.fxpgamedb_patch', as: 'patch' })).status).toBe(409);
    for (const name of ['../escape.yaml', 'a/b.yaml', '.hidden']) expect((await mutate(h.wb, 'POST', `${F}/save`, { name, as: 'changes' })).status, name).toBe(400);
    expect((await mutate(h.wb, 'POST', `${F}/save`, { name: 'x.out', as: 'zip' })).status).toBe(400);
  });
});
