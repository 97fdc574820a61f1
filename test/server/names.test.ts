/** Names in the workbench: lists given at start, coverage, names added from the page (kept in the config folder), the name finder. */
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { p919 } from '../../src/hash/p919.ts';
import { ffnv32 } from '../../src/formats/sd2/obfuscation.ts';
import { startWorkbench, type Workbench } from '../../src/server/server.ts';
import type { AddNamesAnswer, CategoryDetail, CrackAnswer, GadbNamesInfo, Sd2NamesInfo, Sd2TableDetail } from '../../src/server/api-types.ts';
import { fixturePath } from '../support/fixtures.ts';
import { api, mutate, raw, TOKEN } from './harness.ts';

const hex = (h: number) => '0x' + h.toString(16).toUpperCase().padStart(8, '0');
const F = '/api/files/landmine_curse.fxp';

describe('names in the workbench', () => {
  let dir: string;
  let config: string;
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
      nameFiles: [join(dir, 'community.txt')],
      configDir: config,
    });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'scry-names-'));
    config = join(dir, 'config');
    copyFileSync(fixturePath('gadb', 'landmine_curse.fxp'), join(dir, 'landmine_curse.fxp'));
    // a list in both forms: a plain name and a checked pair
    writeFileSync(join(dir, 'community.txt'), `# Field names collected on the forum\nModelColor\n${hex(p919('ModelScale'))}\tModelScale\n`);
    wb = await start();
  });
  afterAll(async () => {
    await wb.close();
  });

  it('counts the field hashes the shipped names and --names lists name', async () => {
    const n = await api<GadbNamesInfo>(wb, `${F}/names`);
    expect(n).toMatchObject({ kind: 'gadb', fields: 348, named: 35, persistent: true });
    // the list's first comment line says what it is (the generated sample's says it stands in for a community list)
    expect(n.lists).toEqual([{ name: 'community.txt', added: 2, skipped: 0, about: 'Field names collected on the forum' }]);
    expect(n.unnamed.map((u) => u.hex)).toContain(hex(p919('Intensity2')));
    expect(n.unnamed.map((u) => u.hex)).not.toContain(hex(p919('ModelColor')));
  });

  it('finds names with the cracker without adding them, then adds them: columns show the names, the config folder keeps them', async () => {
    const crack = await api<CrackAnswer>(wb, `${F}/names/crack?words=2`);
    expect(crack.worker).toBe(false);
    const hit = crack.hits.find((h) => h.name === 'Intensity2');
    expect(hit?.hex).toBe(hex(p919('Intensity2')));
    for (const h of crack.hits) expect(hex(p919(h.name))).toBe(h.hex);
    expect((await api<GadbNamesInfo>(wb, `${F}/names`)).named).toBe(35);

    expect((await raw(wb, 'POST', '/api/names', {}, { text: 'Intensity2' })).status).toBe(403);
    const r = await mutate(wb, 'POST', '/api/names', { text: `${hit!.hex}\t${hit!.name}\n0x00000001\tIntensity3\n`, file: 'landmine_curse.fxp' });
    expect(r.status).toBe(200);
    const a = r.json<AddNamesAnswer>();
    expect(a).toMatchObject({ added: 1, saved: true, mismatches: [{ line: 2, name: 'Intensity3', listed: '0x00000001', hash: hex(p919('Intensity3')) }] });
    expect((a.coverage as GadbNamesInfo).named).toBe(36);
    const rumble = await api<CategoryDetail>(wb, `${F}/categories/ClientFX.Rumble`);
    expect(rumble.fields.find((f) => f.hex === hit!.hex)?.name).toBe('Intensity2');
    expect(readFileSync(join(config, 'names', 'workbench.txt'), 'utf8')).toContain(`${hit!.hex}\tIntensity2\n`);
    expect(readFileSync(join(config, 'names', 'workbench.txt'), 'utf8')).not.toContain('0x00000001');
    // the next run reads the config folder
    await wb.close();
    wb = await start();
    expect((await api<GadbNamesInfo>(wb, `${F}/names`)).named).toBe(36);
  });

  it('gives sd2 coverage and labels a table once its name is added', async () => {
    const S = '/api/files/sample-beta-1869.sd2';
    const before = await api<Sd2NamesInfo>(wb, `${S}/names`);
    expect(before.tables.named).toBe(0);
    const id = hex(ffnv32('dbtest::PoolTypes'));
    expect(before.unnamedTables).toContain(id);
    expect((await api<Sd2TableDetail>(wb, `${S}/sd2/tables/${id}`)).label).toBe(id);
    const r = await mutate(wb, 'POST', '/api/names', { text: 'dbtest::PoolTypes', file: 'sample-beta-1869.sd2' });
    expect((r.json<AddNamesAnswer>().coverage as Sd2NamesInfo).tables.named).toBe(1);
    expect((await api<Sd2TableDetail>(wb, `${S}/sd2/tables/${id}`)).label).toBe('dbtest::PoolTypes');
  });
});
