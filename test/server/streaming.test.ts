import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeGadb } from '../../src/formats/gadb/write.ts';
import { generateWorld, packWorldArchives, planBundleRefs } from '../../src/gamedb/generate/world/index.ts';
import { startWorkbench, type Workbench } from '../../src/server/server.ts';
import { prepareWorldSamples, type StreamingSetup, type StreamingVisit } from '../../src/server/api-streaming.ts';
import { Arch06Archive } from '../../src/formats/arch06/archive.ts';
import { readBytes } from '../../src/node/fs.ts';
import { fixturePath } from '../support/fixtures.ts';
import { api, raw, TOKEN } from './harness.ts';

describe('workbench Streaming API', () => {
  let wb: Workbench;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'scry-streaming-'));
    const world = generateWorld({ seed: 1 });
    writeFileSync(join(dir, 'world.gamedb'), writeGadb(world.gadb));
    const refs = planBundleRefs(world.plan).filter((r) => r.kind === 'creature' || r.kind === 'skin');
    for (const a of packWorldArchives(refs, { sizeScale: 1 / 512 })) writeFileSync(join(dir, a.name), a.bytes);
    wb = await startWorkbench({
      files: [
        { path: join(dir, 'world.gamedb'), origin: 'argument' },
        { path: join(dir, 'world_characters.arch06'), origin: 'argument' },
        { path: fixturePath('gadb', 'landmine_curse.fxp'), origin: 'argument' },
      ],
      port: 0,
      token: TOKEN,
      sampleOutDir: join(dir, 'out'),
    });
  });
  afterAll(async () => {
    await wb.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const id = (name: string): string => wb.workspace.list().find((f) => f.name === name)!.id;

  it('offers the worlds, a default loadout and the open archives; says why a database without the records cannot run', async () => {
    const s = await api<StreamingSetup>(wb, `/api/files/${id('world.gamedb')}/streaming`);
    expect(s.available).toBe(true);
    expect(s.worlds).toEqual(expect.arrayContaining(['World_Island_Day', 'World_MinasIthil_Day', 'World_TestArena']));
    expect(s.loadout.length).toBeGreaterThan(5);
    expect(s.archives.map((a) => a.name)).toEqual(['world_characters.arch06']);
    const fx = await api<StreamingSetup>(wb, `/api/files/${id('landmine_curse.fxp')}/streaming`);
    expect(fx.available).toBe(false);
    expect(fx.reason).toMatch(/scry db gen --world/);
  });

  it('simulates a visit over the generated world: bundle table, budget, queue depths, timeline', async () => {
    const v = await api<StreamingVisit>(wb, `/api/files/${id('world.gamedb')}/streaming/visit?world=World_Island_Day&equip=RangerWarden_Armor_1,DolIron_Armor_1@captain:20&layers=0`);
    expect(v.mounted).toEqual(['generated world']);
    const creatures = v.bundles.filter((b) => b.role === 'world').map((b) => b.name);
    expect(creatures).toEqual(['goblin', 'spider', 'warg_base', 'fellbeast', 'troll_base', 'troll_poison']);
    const gear = v.bundles.filter((b) => b.role === 'gear');
    expect(gear).toHaveLength(4);
    expect(gear.every((b) => b.state === 'resident' && b.cost! < b.estimate! && b.requesters === 1 && b.references === 1 && b.prefetches === 1)).toBe(true);
    expect(v.budget.budget).toBe(3200);
    expect(v.budget.used).toBeCloseTo(gear.reduce((s, b) => s + b.cost!, 0), 9);
    expect(v.depths!.open).toHaveLength(2);
    expect(v.events.some((e) => e.kind === 'region.change')).toBe(true);
    expect(v.events.some((e) => e.kind === 'gear.resident')).toBe(true);
    expect(v.timeToResident.skins!).toBeLessThan(v.timeToResident.worldSet!);
  });

  it('mounts an open archive instead, and answers bad parameters with a usage error', async () => {
    const v = await api<StreamingVisit>(wb, `/api/files/${id('world.gamedb')}/streaming/visit?world=World_Island_Day&equip=&layers=0&mount=${id('world_characters.arch06')}`);
    expect(v.mounted).toEqual(['world_characters.arch06']);
    const goblin = v.bundles.find((b) => b.name === 'goblin')!;
    expect(goblin.state).toBe('resident');
    expect(goblin.contentBytes).toBeLessThan(1 << 20); // the archive's 1/512 sizes, not the generated world's
    const bad = await raw(wb, 'GET', `/api/files/${id('world.gamedb')}/streaming/visit?budget=much`);
    expect(bad.status).toBe(400);
    const nowhere = await raw(wb, 'GET', `/api/files/${id('world.gamedb')}/streaming/visit?world=Nowhere`);
    expect(nowhere.status).toBeGreaterThanOrEqual(400);
  });
});

describe('the world sample scry serve adds', () => {
  it('is generated into the cache folder once: the world database and its five archives', async () => {
    const cache = mkdtempSync(join(tmpdir(), 'scry-world-sample-'));
    try {
      const first = prepareWorldSamples(cache);
      expect(first.notes).toHaveLength(1);
      expect(first.files.map((f) => f.path.slice(f.path.lastIndexOf('/') + 1))).toEqual(['world.gamedb', 'world_characters.arch06', 'world_gear.arch06', 'world_island.arch06', 'world_minasithil.arch06', 'world_testarena.arch06']);
      const archive = await Arch06Archive.fromBytes(readBytes(first.files[1]!.path));
      expect(archive.files.some((f) => f.path === 'characters\\npcbundles\\goblin.embb')).toBe(true);
      expect(prepareWorldSamples(cache).notes).toEqual([]);
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  });
});
