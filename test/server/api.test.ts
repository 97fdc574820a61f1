import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database } from '../../src/gamedb/database.ts';
import { verifyGadb } from '../../src/formats/gadb/index.ts';
import { readBytes } from '../../src/node/fs.ts';
import type {
  CategoryDetail,
  CategorySummary,
  EditList,
  GadbAnalysis,
  GadbOverview,
  HashAnswer,
  RecordPage,
  RecordView,
  ReferencedBy,
  SaveResult,
  SearchResult,
  SessionInfo,
  StagedEdit,
} from '../../src/server/api-types.ts';
import { loadFixture } from '../support/fixtures.ts';
import { api, mutate, raw, startHarness, type Harness } from './harness.ts';

const F = '/api/files/landmine_curse.fxp';

describe('workbench API over the real sample', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.wb.close();
  });

  it('lists the served file by id, kind and size, without its folder', async () => {
    const s = await api<SessionInfo>(h.wb, '/api/session');
    expect(s.files).toEqual([{ id: 'landmine_curse.fxp', name: 'landmine_curse.fxp', kind: 'gadb', size: 14524, origin: 'argument' }]);
  });

  it('gives the overview: container, header words, counts, no verify findings', async () => {
    const o = await api<GadbOverview>(h.wb, F);
    expect(o.container).toBe('LTFX v8 wrapper');
    expect(o.rootName).toBe('FXDB');
    const header = Object.fromEntries(o.header.map((x) => [x.name, x.hex]));
    expect(header['unk20']).toBe('0xABF244DF');
    expect(header['stringBlockSize']).toBe('0x00000E4C');
    const counts = Object.fromEntries(o.counts.map((c) => [c.label, c.value]));
    expect(counts).toMatchObject({ categories: 12, records: 16, primaries: 0, cells: 652, descriptors: 514, 'string-block items': 152 });
  });

  it('analyses the file: link and shared-value figures, no verify findings', async () => {
    const a = await api<GadbAnalysis>(h.wb, `${F}/analysis`);
    const counts = Object.fromEntries(a.counts.map((c) => [c.label, c.value]));
    expect(counts).toMatchObject({ 'record layouts': 12, 'link cells': 15, 'null links': 0, 'unresolved links': 0 });
    expect(a.descriptorTypes[0]).toEqual({ type: 'String', count: 137 });
    expect(a.findings).toEqual([]);
    expect(a.worker).toBe(false);
  });

  it('lists categories in file order with record and field counts', async () => {
    const cats = await api<CategorySummary[]>(h.wb, `${F}/categories`);
    expect(cats.map((c) => c.name)).toEqual([
      'FxGlobalProps',
      'ClientFX.StandardGPUParticleSystem',
      'ClientFX.DynaLight',
      'ClientFX.Wind',
      'ClientFX.Rumble',
      'ClientFX.Sound',
      'ClientFX.CameraShake',
      'ClientFX.MaterialController',
      'ClientFX.Model',
      'ClientFX.ParticleSystem',
      'ClientFX.Sprite',
      'ClientFX.DecalLight',
    ]);
    expect(cats[7]).toMatchObject({ ordinal: 7, recordCount: 2, fieldCount: 101 });
  });

  it('gives typed columns with known names resolved and unknown ones as hashes', async () => {
    const d = await api<CategoryDetail>(h.wb, `${F}/categories/ClientFX.Sprite`);
    expect(d.fields.length).toBe(38);
    expect(d.fields[0]).toMatchObject({ hash: 0x267d8bca, hex: '0x267D8BCA', name: 'KeyName', type: 'String', count: 1, editable: true });
    const unknown = d.fields.find((f) => f.hex === '0x3A52F4DA')!;
    expect(unknown.name).toBeUndefined();
    expect(unknown.type).toBe('Vector3Curve');
  });

  it('pages records with one compact value per column, bounded by limit', async () => {
    const p = await api<RecordPage>(h.wb, `${F}/categories/ClientFX.Sprite/records?offset=1&limit=1`);
    expect(p.total).toBe(2);
    expect(p.rows.length).toBe(1);
    expect(p.rows[0]!.label).toBe('8');
    expect(p.rows[0]!.values.length).toBe(38);
    expect(p.rows[0]!.values[0]).toEqual({ t: 'string', v: 'Glow' });
    expect(p.rows[0]!.values[2]).toEqual({ t: 'float', v: 0.122 });
    expect((await raw(h.wb, 'GET', `${F}/categories/ClientFX.Sprite/records?limit=100000`)).status).toBe(400);
    expect((await raw(h.wb, 'GET', `${F}/categories/ClientFX.Sprite/records?offset=abc`)).status).toBe(400);
  });

  it('shows a record with typed values: floats as f32 shortest, enums, curves, link arrays', async () => {
    const sprite = await api<RecordView>(h.wb, `${F}/categories/ClientFX.Sprite/records/1`);
    expect(sprite.ref).toEqual({ index: 12, category: 'ClientFX.Sprite', label: '1', primary: false });
    const byName = Object.fromEntries(sprite.fields.map((f) => [f.name ?? f.hex, f.value]));
    expect(byName['EndTime']).toEqual({ t: 'float', v: 0.084 });
    expect(byName['0x23E7C5B3']).toEqual({ t: 'enum', v: 'Follow', hash: '0x74748AC9' });
    expect(byName['Offset']).toEqual({ t: 'curve', curve: 'Vector3Curve', keys: [{ time: 0, value: [0, 0, 0] }, { time: 1, value: [0, 0, 0] }] });
    const global = await api<RecordView>(h.wb, `${F}/categories/FxGlobalProps/records/FxGlobalProps`);
    const links = global.fields.find((f) => f.hex === '0xCA5E75DD')!;
    expect(links.type).toBe('RecordLink');
    expect(links.editable).toBe(true);
    expect(links.value.t).toBe('array');
    const items = (links.value as { items: { t: string; target: { category: string; label: string } }[] }).items;
    expect(items.length).toBe(15);
    expect(items[1]!.target).toEqual({ index: 12, category: 'ClientFX.Sprite', label: '1', primary: false });
    expect((await api<RecordView>(h.wb, `${F}/records/12`)).ref.label).toBe('1');
    expect((await raw(h.wb, 'GET', `${F}/categories/ClientFX.Sprite/records/nope`)).status).toBe(404);
  });

  it('lists the records that link to a record (referenced-by)', async () => {
    const refs = await api<ReferencedBy>(h.wb, `${F}/records/12/referenced-by`);
    expect(refs).toEqual({ total: 1, offset: 0, refs: [{ from: { index: 0, category: 'FxGlobalProps', label: 'FxGlobalProps', primary: false }, field: '0xCA5E75DD', fieldHex: '0xCA5E75DD', element: 1 }] });
  });

  it('searches names, values and 0x… hashes, pointing at record and field', async () => {
    const quad = await api<SearchResult>(h.wb, `${F}/search?q=quad`);
    expect(quad.hits).toEqual([{ kind: 'value', record: { index: 1, category: 'ClientFX.StandardGPUParticleSystem', label: '4', primary: false }, field: { hex: '0xE8A6CE23' }, text: 'Quad' }]);
    const sprite = await api<SearchResult>(h.wb, `${F}/search?q=sprite`);
    expect(sprite.hits.some((x) => x.kind === 'category' && x.category === 'ClientFX.Sprite')).toBe(true);
    const byHash = await api<SearchResult>(h.wb, `${F}/search?q=0x267D8BCA`);
    expect(byHash.mode).toBe('hash');
    expect(byHash.hits.filter((x) => x.kind === 'field').length).toBe(11);
    expect((await raw(h.wb, 'GET', `${F}/search?q=`)).status).toBe(400);
  });

  it('hashes text with P919 and names a hash from the dictionary and the open files', async () => {
    expect(await api<HashAnswer>(h.wb, '/api/hash?text=CombatProp')).toMatchObject({ hash: 0x9ce11687, hex: '0x9CE11687' });
    const bad = await api<HashAnswer>(h.wb, '/api/hash?text=a%2Fb');
    expect(bad.error).toContain("'/'");
    const names = await api<HashAnswer>(h.wb, '/api/hash?hash=0x267D8BCA');
    expect(names.names).toContainEqual({ name: 'KeyName', source: 'field-name dictionary' });
    const cat = await api<HashAnswer>(h.wb, '/api/hash?hash=E3FF71EF');
    expect(cat.names).toContainEqual({ name: 'ClientFX.Sprite', source: 'category in landmine_curse.fxp' });
    expect((await raw(h.wb, 'GET', '/api/hash?hash=xyz')).status).toBe(400);
  });
});

describe('workbench edits and save', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.wb.close();
  });

  it('stages typed edits, shows them with before/after, refuses bad values, drops no-op edits', async () => {
    const endTime = { record: 12, field: '0x5E0B44D0' };
    const r1 = await mutate(h.wb, 'POST', `${F}/edits`, { ...endTime, value: { t: 'float', v: 0.5 } });
    expect(r1.status).toBe(200);
    expect(r1.json<StagedEdit>()).toMatchObject({ before: { t: 'float', v: 0.084 }, after: { t: 'float', v: 0.5 }, field: { name: 'EndTime', type: 'Float' } });
    const bad = await mutate(h.wb, 'POST', `${F}/edits`, { ...endTime, value: { t: 'string', v: 'soon' } });
    expect(bad.status).toBe(400);
    expect(bad.json<{ message: string }>().message).toContain('expected a number');
    await mutate(h.wb, 'POST', `${F}/edits`, { record: 12, field: '0x267D8BCA', value: { t: 'string', v: 'Glow (edited)' } });
    await mutate(h.wb, 'POST', `${F}/edits`, { record: 0, field: '0x3114F9A5', value: { t: 'int', v: 6000 } });
    const list = await api<EditList>(h.wb, `${F}/edits`);
    expect(list.edits.map((e) => e.field.name ?? e.field.hex)).toEqual(['EndTime', 'KeyName']);
    expect(list.suggestedName).toBe('landmine_curse.edited.fxp');
    const view = await api<RecordView>(h.wb, `${F}/records/12`);
    expect(view.fields.find((f) => f.name === 'EndTime')).toMatchObject({ value: { t: 'float', v: 0.084 }, staged: { t: 'float', v: 0.5 } });
  });

  it('re-links a RecordLink element by Category/Record and unstages on request', async () => {
    const r = await mutate(h.wb, 'POST', `${F}/edits`, { record: 0, field: '0xCA5E75DD', element: 0, value: { t: 'link', raw: 0, target: { category: 'ClientFX.Sprite', label: '8', index: -1, primary: false } } });
    expect(r.status).toBe(200);
    const e = r.json<StagedEdit>();
    expect(e.after).toMatchObject({ t: 'link', target: { category: 'ClientFX.Sprite', label: '8' } });
    expect((await mutate(h.wb, 'DELETE', `${F}/edits/${e.id}`)).status).toBe(200);
    expect((await api<EditList>(h.wb, `${F}/edits`)).edits.length).toBe(2);
  });

  it('saves atomically as a new file beside the original, which the library reads back', async () => {
    const r = await mutate(h.wb, 'POST', `${F}/save`, { name: 'landmine_curse.edited.fxp' });
    expect(r.status).toBe(200);
    const result = r.json<SaveResult>();
    expect(result.saved).toMatchObject({ id: 'landmine_curse.edited.fxp', kind: 'gadb', origin: 'saved', savedFrom: 'landmine_curse.fxp' });
    expect(result.findings.filter((f) => f.severity === 'error')).toEqual([]);
    const path = join(h.dir, 'landmine_curse.edited.fxp');
    const bytes = readBytes(path);
    expect(bytes.length).toBe(result.bytes);
    expect(verifyGadb(bytes).filter((i) => i.severity === 'error')).toEqual([]);
    const db = Database.open(bytes);
    const sprite = db.getRecord('ClientFX.Sprite', '1');
    expect(sprite.getFloat(0x5e0b44d0)).toBe(0.5);
    expect(sprite.getString(0x267d8bca)).toBe('Glow (edited)');
    expect(db.getRecord('ClientFX.Sprite', '8').getString(0x267d8bca)).toBe('Glow');
    expect(db.getRecord('ClientFX.Sprite', '8').getFloat(0x5e0b44d0)).toBe(Math.fround(0.122));
    // The original is untouched, byte for byte.
    expect(Buffer.compare(readBytes(join(h.dir, 'landmine_curse.fxp')), loadFixture('gadb', 'landmine_curse.fxp'))).toBe(0);
    // The saved file is served too.
    const a = await api<GadbAnalysis>(h.wb, '/api/files/landmine_curse.edited.fxp/analysis');
    expect(a.findings.filter((f) => f.severity === 'error')).toEqual([]);
  });

  it('never replaces a file and refuses names that are paths', async () => {
    writeFileSync(join(h.dir, 'taken.fxp'), 'x');
    const taken = await mutate(h.wb, 'POST', `${F}/save`, { name: 'taken.fxp' });
    expect(taken.status).toBe(409);
    for (const name of ['../escape.fxp', 'a/b.fxp', '.hidden', '', 'C:evil.fxp']) {
      const r = await mutate(h.wb, 'POST', `${F}/save`, { name });
      expect(r.status, name).toBe(400);
    }
    expect(existsSync(join(h.dir, '..', 'escape.fxp'))).toBe(false);
  });
});
