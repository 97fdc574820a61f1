import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeScri } from '../../src/formats/scri/scri.ts';
import { writeGadb } from '../../src/formats/gadb/write.ts';
import { startWorkbench, type Workbench } from '../../src/server/server.ts';
import type { RunAnswer, RunSetup } from '../../src/server/api-engine.ts';
import { fixturePath } from '../support/fixtures.ts';
import { buildScriptGadb, fortAssaultCategories } from '../engine/support/script-db.ts';
import { api, raw } from './harness.ts';

const dir = mkdtempSync(join(tmpdir(), 'scry-run-api-'));
const LAYER = join(dir, 'fagameplay.scripts');
const DB = join(dir, 'fortassault.gamedb');
writeFileSync(LAYER, writeScri({ version: 1, flag: 1, body: new Uint8Array(readFileSync(fixturePath('scripts', 'island_fortassault_fagameplay.closed.lua'))), trailing: new Uint8Array(0) }));
writeFileSync(DB, writeGadb(buildScriptGadb(fortAssaultCategories())));

describe('workbench Run API', () => {
  let wb: Workbench;
  beforeAll(async () => {
    wb = await startWorkbench({ files: [{ path: LAYER, origin: 'sample' }, { path: DB, origin: 'sample' }, { path: fixturePath('scripts', 'island_fortassault_fagameplay.scripts.first65536.bin'), origin: 'sample' }], port: 0, sampleOutDir: '/nonexistent' });
  });
  afterAll(async () => {
    await wb.close();
  });
  const id = (name: string) => wb.workspace.list().find((f) => f.name === name)!.id;

  it('lists the entries (StartupCommands marked), the __eventmap handlers and the databases', async () => {
    const s = await api<RunSetup>(wb, `/api/files/${id('fagameplay.scripts')}/run/setup`);
    expect(s.entries).toHaveLength(13);
    expect(s.entries.filter((e) => e.startupCommand).map((e) => e.name)).toEqual(['_ammo_large_timed_SC_Script_1b86e977']);
    expect(s.entries.find((e) => e.name === '_assaultarcherdrumtowertopfull_scWD_Script_696a2498')).toMatchObject({ prefab: 'assaultarcherdrumtowertopfull', object: 'scWD' });
    expect(s.eventMaps).toHaveLength(11);
    expect(s.databases.map((d) => d.name)).toEqual(['fortassault.gamedb']);
  });

  it('says why a truncated .scripts head cannot run', async () => {
    const s = await api<RunSetup>(wb, `/api/files/${id('island_fortassault_fagameplay.scripts.first65536.bin')}/run/setup`);
    expect(s.problem).toMatch(/cut short by 753843 bytes/);
  });

  it('runs the plan of the query: fire, start, pause, against the database, and lists what can be fired next', async () => {
    const q = new URLSearchParams([
      ['for', '12'],
      ['db', id('fortassault.gamedb')],
      ['fire', 'InventoryItemUI.OnCollect@1'],
      ['start', '_assaultarcherdrumtowertopfull_rsWD_Script_119ac151@2'],
      ['start', '_assaultarcherdrumtowertopfull_scWD_Script_696a2498@2'],
      ['pause', '5:1'],
    ]);
    const r = await api<RunAnswer>(wb, `/api/files/${id('fagameplay.scripts')}/run?${q}`);
    expect(r.database).toBe('fortassault.gamedb');
    const dispatched = r.trace.filter((e) => e.kind === 'dispatch').map((e) => [e.name, e.t, e.rt]);
    // Collected at run 1 s; the 10 s drum timer started at run 2 s completes at world 12 s, run 13 s: after the run
    expect(dispatched).toEqual([['Collected', 1000, 1000], ['OnTimeout', 1020, 1020]]);
    expect(r.trace.find((e) => e.kind === 'db' && e.name === 'DBDOGStateType.Hidden')?.record).toBe('DynamicObjectGroup/StateTypes:Hidden');
    expect(r.summary).toMatchObject({ worldMs: 11000, realMs: 12000, errors: 0 });
    expect(r.registrations).toContainEqual({ sender: 'ST', event: 'OnComplete', hash: '0x7DA073C0', entry: '_assaultarcherdrumtowertopfull_SO_Script_5301485f', handler: 'AssaultDrumScriptTimerComplete' });
    // the same URL gives the same trace (the second run takes the compiled layer from the process's cache)
    const again = await api<RunAnswer>(wb, `/api/files/${id('fagameplay.scripts')}/run?${q}`);
    expect(again.trace[0]!.message).toBe('from the layer cache (compiled once per process)');
    expect(JSON.stringify(again.trace.slice(1))).toBe(JSON.stringify(r.trace.slice(1)));
  });

  it('refuses a malformed plan with 400 and the reason', async () => {
    const res = await raw(wb, 'GET', `/api/files/${id('fagameplay.scripts')}/run?fire=nonsense`);
    expect(res.status).toBe(400);
    expect(res.body).toMatch(/OBJECT\.EVENT/);
    const long = await raw(wb, 'GET', `/api/files/${id('fagameplay.scripts')}/run?for=100000`);
    expect(long.status).toBe(400);
  });
});
