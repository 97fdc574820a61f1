/**
 * The conflict view's API over the real sample: a change file and a patch database saved from the page are served
 * and offered as sources; the load order decides the winner (a patch replaces its whole records); bad source lists
 * are refused in the user's terms; the merge is saved as a new file only.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database } from '../../src/gamedb/database.ts';
import type { ConflictAnswer, RecordView, SaveResult } from '../../src/server/api-types.ts';
import { api, mutate, raw, startHarness, type Harness } from './harness.ts';

const F = '/api/files/landmine_curse.fxp';
const END_TIME = '0x5E0B44D0';

describe('conflict view API', () => {
  let hs: Harness;
  beforeAll(async () => {
    hs = await startHarness();
    // two saves of different edits of ClientFX.Sprite/1: a change file (EndTime 0.5) and a patch (EndTime 2)
    const sprite = await api<RecordView>(hs.wb, `${F}/categories/ClientFX.Sprite/records/1`);
    const stage = (value: string) => mutate(hs.wb, 'POST', `${F}/edits`, { record: sprite.ref.index, field: END_TIME, value });
    expect((await stage('0.5')).status).toBe(200);
    expect((await mutate(hs.wb, 'POST', `${F}/save`, { name: 'a.yaml', as: 'changes' })).status).toBe(200);
    expect((await stage('2')).status).toBe(200);
    expect((await mutate(hs.wb, 'POST', `${F}/save`, { name: 'p.fxpgamedb_patch', as: 'patch' })).status).toBe(200);
    await mutate(hs.wb, 'DELETE', `${F}/edits`);
  });
  afterAll(async () => hs?.wb.close());

  it('offers the saved change file and patch as sources, and the last loaded wins', async () => {
    const none = await api<ConflictAnswer>(hs.wb, `${F}/conflicts`);
    expect(none.candidates.map((c) => [c.id, c.kind])).toEqual([
      ['a.yaml', 'changes'],
      ['p.fxpgamedb_patch', 'patch'],
    ]);
    expect(none.rows).toEqual([]);
    const patchLast = await api<ConflictAnswer>(hs.wb, `${F}/conflicts?src=a.yaml&src=p.fxpgamedb_patch`);
    const row = patchLast.rows.find((r) => r.hash === END_TIME)!;
    expect(row).toMatchObject({ record: 'ClientFX.Sprite/1', base: '0.084', values: ['0.5', '2'], winner: 1, merged: '2', status: 'conflict', ref: { category: 'ClientFX.Sprite', label: '1' } });
    const changesLast = await api<ConflictAnswer>(hs.wb, `${F}/conflicts?src=p.fxpgamedb_patch&src=a.yaml`);
    expect(changesLast.rows.find((r) => r.hash === END_TIME)).toMatchObject({ values: ['2', '0.5'], winner: 1, merged: '0.5' });
    expect(changesLast.sources.map((s) => s.id)).toEqual(['p.fxpgamedb_patch', 'a.yaml']);
  });

  it('refuses a source twice, a file that is not a source, and a file it does not serve', async () => {
    expect((await raw(hs.wb, 'GET', `${F}/conflicts?src=a.yaml&src=a.yaml`)).json<{ message: string }>().message).toMatch(/once/);
    const self = await raw(hs.wb, 'GET', `${F}/conflicts?src=landmine_curse.fxp`);
    expect(self.status).toBe(400);
    expect(self.json<{ message: string }>().message).toMatch(/neither a change file nor a patch database/);
    expect((await raw(hs.wb, 'GET', `${F}/conflicts?src=nope.yaml`)).status).toBe(404);
  });

  it('saves the merge as a new file (token required, an existing name refused)', async () => {
    const body = { src: ['p.fxpgamedb_patch', 'a.yaml'], name: 'merged.fxp' };
    expect((await raw(hs.wb, 'POST', `${F}/conflicts/save`, {}, body)).status).toBe(403);
    const r = await mutate(hs.wb, 'POST', `${F}/conflicts/save`, body);
    expect(r.status).toBe(200);
    expect(r.json<SaveResult>().saved?.name).toBe('merged.fxp');
    const db = Database.open(new Uint8Array(readFileSync(join(hs.dir, 'merged.fxp'))));
    expect(db.getRecord('ClientFX.Sprite', '1').getFloat(0x5e0b44d0)).toBe(0.5);
    const again = await mutate(hs.wb, 'POST', `${F}/conflicts/save`, body);
    expect(again.status).toBe(409);
    expect(again.json<{ message: string }>().message).toMatch(/already exists/);
  });
});
