/**
 * The workbench bugs of issue 17 that the API shows (the numbers are the issue's); the others are in
 * `test/e2e/bugs.test.ts` and `test/server/routes.test.ts`. Each test failed before its fix.
 */
import { copyFileSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Database } from '../../src/gamedb/database.ts';
import { readBytes } from '../../src/node/fs.ts';
import { startWorkbench, type Workbench } from '../../src/server/server.ts';
import type { EditList, GadbAnalysis, RecordView, SaveResult, SearchResult, SessionInfo, Sd2SearchAnswer, StagedEdit } from '../../src/server/api-types.ts';
import { fixturePath } from '../support/fixtures.ts';
import { api, mutate, raw, TOKEN } from './harness.ts';

const F = '/api/files/landmine_curse.fxp';
/** FxGlobalProps/FxGlobalProps (record 0): Int 0x3114F9A5 = 6000, Float 0xE907FA5A = 1e11, 15 RecordLinks 0xCA5E75DD. */
const GLOBAL = 0;
/** ClientFX.DynaLight/11 (record 2): StringEnum 0x23E7C5B3 = "Follow". */
const DYNALIGHT = 2;

describe('workbench bugs seen through the API', () => {
  let dir: string;
  let wb: Workbench;
  const start = () =>
    startWorkbench({
      files: [
        { path: join(dir, 'landmine_curse.fxp'), origin: 'argument' },
        { path: fixturePath('sd2', 'faufau-1.5.0-generated', 'sample-beta-1869.sd2'), origin: 'sample' },
      ],
      port: 0,
      token: TOKEN,
      sampleOutDir: join(dir, 'out'),
      workDir: join(dir, 'work'),
    });
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'scry-bugs-'));
    copyFileSync(fixturePath('gadb', 'landmine_curse.fxp'), join(dir, 'landmine_curse.fxp'));
    wb = await start();
  });
  afterAll(async () => {
    await wb.close();
  });
  beforeEach(async () => {
    await mutate(wb, 'DELETE', `${F}/edits`);
  });
  const stage = (record: number, field: string, value: unknown) => mutate(wb, 'POST', `${F}/edits`, { record, field, value });

  it('1: a second save of the same name is refused with a plain message (no folder, no CLI flag)', async () => {
    await stage(GLOBAL, '0x3114F9A5', { t: 'int', v: 6001 });
    expect((await mutate(wb, 'POST', `${F}/save`, { name: 'twice.fxp' })).status).toBe(200);
    const second = await mutate(wb, 'POST', `${F}/save`, { name: 'twice.fxp' });
    expect(second.status).toBe(409);
    const message = second.json<{ message: string }>().message;
    expect(message).toBe('a file named twice.fxp already exists in the output folder: choose another name');
    expect(message).not.toContain(dir);
    expect(message).not.toContain('--force');
  });

  it('3: a Float out of the f32 range is refused with a clear message; inf stores infinity when asked for', async () => {
    const r = await stage(GLOBAL, '0xE907FA5A', { t: 'float', v: 1e40 });
    expect(r.status).toBe(400);
    expect(r.json<{ message: string }>().message).toContain('1e+40 is outside the range of a Float (f32, ±3.4028234663852886e+38): type inf or -inf to store an infinity');
    expect((await api<EditList>(wb, `${F}/edits`)).edits).toEqual([]);
    const inf = await stage(GLOBAL, '0xE907FA5A', 'inf');
    expect(inf.status).toBe(200);
    expect(inf.json<StagedEdit>().after).toEqual({ t: 'float', v: 'Infinity' });
  });

  it('6: numeric search finds Ints, Floats (to their f32 value or a ±tolerance), hashes and enum values', async () => {
    const search = async (q: string) => (await api<SearchResult>(wb, `${F}/search?q=${encodeURIComponent(q)}`)).hits;
    const int = await search('6000');
    expect(int).toContainEqual(expect.objectContaining({ kind: 'value', record: expect.objectContaining({ label: 'FxGlobalProps' }), field: { hex: '0x3114F9A5' }, text: '6000' }));
    // 0.084 is EndTime of ClientFX.Sprite/1 as f32 (0.08399999886751175)
    const float = await search('0.084');
    expect(float).toContainEqual(expect.objectContaining({ record: expect.objectContaining({ category: 'ClientFX.Sprite', label: '1' }), field: { hex: '0x5E0B44D0', name: 'EndTime' }, text: '0.084' }));
    const near = await search('0.08~0.005');
    expect(near.map((x) => `${x.record?.label} ${x.field?.name}`)).toContain('1 EndTime');
    expect(await search('0.0841')).toEqual([]);
    expect((await search('1e11')).map((x) => x.field?.hex)).toContain('0xE907FA5A');
    // a StringEnum value's hash (Follow = 0x74748AC9) and the enum text both find the field
    expect((await search('0x74748AC9')).map((x) => x.field?.hex)).toContain('0x23E7C5B3');
  });

  it('8: a StringEnum value the database never uses for that field is staged with a warning naming the values it uses', async () => {
    const known = await stage(DYNALIGHT, '0x23E7C5B3', { t: 'enum', v: 'Follow' });
    expect(known.json<StagedEdit>().messages.filter((m) => m.severity === 'warning')).toEqual([]);
    const r = await stage(DYNALIGHT, '0x23E7C5B3', { t: 'enum', v: 'Folow' });
    expect(r.status).toBe(200);
    const warnings = r.json<StagedEdit>().messages.filter((m) => m.severity === 'warning');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.message).toMatch(/^"Folow" is not a value this database uses for 0x23E7C5B3 \(it uses: .*Follow.*\)/);
  });

  it('10: HEAD answers on API routes like GET, without a body', async () => {
    for (const path of ['/api/session', F, `${F}/categories`]) {
      const r = await raw(wb, 'HEAD', path);
      expect(r.status).toBe(200);
      expect(r.body).toBe('');
      expect(r.headers['content-type']).toBe('application/json; charset=utf-8');
    }
  });

  it('12: save names with control, bidi or reserved device names are refused, and a long one for its length', async () => {
    await stage(GLOBAL, '0x3114F9A5', { t: 'int', v: 6002 });
    const cases: [string, RegExp][] = [
      ['a\nb.fxp', /control character/],
      ['a\tb.fxp', /control character/],
      ['\u202Eexf.fxp', /U\+202E/],
      ['CON', /reserved on Windows/],
      ['nul.fxp', /reserved on Windows/],
      ['com1.gamedb', /reserved on Windows/],
      ['edited.fxp.', /ends with a dot or a space/],
      ['x'.repeat(250) + '.fxp', /at most 200 characters \(this one has 254\)/],
      ['a/b.fxp', /not a plain file name/],
    ];
    for (const [name, why] of cases) {
      const r = await mutate(wb, 'POST', `${F}/save`, { name });
      expect(r.status, JSON.stringify(name)).toBe(400);
      expect(r.json<{ message: string }>().message, JSON.stringify(name)).toMatch(why);
    }
    expect(readdirSync(dir).filter((f) => !['landmine_curse.fxp', 'twice.fxp', 'work', 'out'].includes(f))).toEqual([]);
  });

  it('13: sd2 search hits show f32 vectors in their shortest form (0.001), as the grid does', async () => {
    const r = await api<Sd2SearchAnswer>(wb, '/api/files/sample-beta-1869.sd2/sd2/search?q=0.001');
    const cell = r.hits.find((h) => h.kind === 'cell');
    expect(cell && 'value' in cell && cell.value).toEqual([-2, 0.5, -0.5, 0.001]);
  });

  it('14: a patch database saved from the page opens against its base: no broken links, verify of base + patch', async () => {
    await stage(GLOBAL, '0x3114F9A5', { t: 'int', v: 7000 });
    const saved = (await mutate(wb, 'POST', `${F}/save`, { name: 'landmine_curse.fxpgamedb_patch', as: 'patch' })).json<SaveResult>();
    expect(saved.findings).toEqual([]);
    const P = `/api/files/${saved.saved!.id}`;
    const a = await api<GadbAnalysis>(wb, `${P}/analysis`);
    expect(a.findings.filter((f) => f.severity === 'error')).toEqual([]);
    const rec = await api<RecordView>(wb, `${P}/categories/FxGlobalProps/records/FxGlobalProps`);
    const links = rec.fields.find((f) => f.hex === '0xCA5E75DD')!.value;
    expect(links.t).toBe('array');
    const first = (links as { items: { t: string; target: unknown; broken?: boolean }[] }).items[1]!;
    expect(first).toEqual({ t: 'link', raw: 0x00a00000, target: expect.objectContaining({ category: 'ClientFX.Sprite', label: '1', primary: false, file: 'landmine_curse.fxp' }) });
  });

  it('17: staged edits and saved files survive a restart (kept in the work folder)', async () => {
    await stage(GLOBAL, '0x3114F9A5', { t: 'int', v: 6003 });
    await stage(DYNALIGHT, '0x23E7C5B3', { t: 'enum', v: 'Follow2' });
    const saved = (await mutate(wb, 'POST', `${F}/save`, { name: 'kept.fxp' })).json<SaveResult>();
    await wb.close();
    wb = await start();
    const s = await api<SessionInfo>(wb, '/api/session');
    expect(s.files.map((f) => f.name)).toContain('kept.fxp');
    expect(s.files.find((f) => f.name === 'kept.fxp')).toMatchObject({ id: saved.saved!.id, origin: 'saved', savedFrom: 'landmine_curse.fxp' });
    const edits = (await api<EditList>(wb, `${F}/edits`)).edits;
    expect(edits.map((e) => [e.field.hex, e.after])).toEqual([
      ['0x3114F9A5', { t: 'int', v: 6003 }],
      ['0x23E7C5B3', expect.objectContaining({ t: 'enum', v: 'Follow2' })],
    ]);
    expect(Database.open(readBytes(join(dir, 'kept.fxp'))).record(GLOBAL).getInt(0x3114f9a5)).toBe(6003);
  });
});
