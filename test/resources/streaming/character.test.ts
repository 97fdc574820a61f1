import { describe, expect, it } from 'vitest';
import { CharacterBundleMgr, Streamer, npcBundleListNamed, spawnChain, type CharacterBundleEvent } from '../../../src/index.ts';
import { WORLD_FIGURES } from '../../../src/gamedb/generate/world/index.ts';
import { worldDb, worldVfs } from './world.ts';

async function setup(sizeScale?: number): Promise<{ s: Streamer; cbm: CharacterBundleMgr; events: Array<['loaded' | 'unloaded', CharacterBundleEvent]> }> {
  const { db } = worldDb();
  const s = new Streamer({ vfs: await worldVfs(sizeScale) });
  const events: Array<['loaded' | 'unloaded', CharacterBundleEvent]> = [];
  const cbm = new CharacterBundleMgr(db, s.bundles, { now: () => s.now(), listener: { bundleLoaded: (e) => events.push(['loaded', e]), bundleUnloaded: (e) => events.push(['unloaded', e]) } });
  return { s, cbm, events };
}

const stem = (p: string): string => p.slice(p.lastIndexOf('\\') + 1).replace(/\.bndl$/, '');

describe('CharacterBundleMgr (seed 001 "Creature bundles")', () => {
  it('reads a list\'s length from its field\'s element count (the bundle array 0x7AB8B862)', () => {
    const { db } = worldDb();
    expect(npcBundleListNamed(db, 'World_Island_Day').map(stem)).toEqual(['goblin', 'spider', 'warg_base', 'fellbeast', 'troll_base', 'troll_poison']);
    expect(npcBundleListNamed(db, 'World_MinasIthil_Day')).toHaveLength(9);
    const rec = db.findCategory('Server/NPCBundle/Lists')!.findRecord('World_Island_Day')!;
    expect(rec.count(WORLD_FIGURES.npcBundleArrayHash)).toBe(6);
    expect(rec.fields().map((f) => f.count)).toContain(0); // the empty second array
  });

  it('rebuilds a region change skins first, then the world set, resident in about the seed\'s 3 seconds', async () => {
    const { s, cbm, events } = await setup(1);
    const change = cbm.changeRegion('World_Island_Day');
    expect(change.requested.map(stem)).toEqual(['talion_base', 'celebrimbor_base', 'goblin', 'spider', 'warg_base', 'fellbeast', 'troll_base', 'troll_poison']);
    await s.run();
    expect(events.map(([k, e]) => `${k} ${e.name}`)).toEqual(change.requested.map((p) => `loaded ${stem(p)}`));
    const done = Math.max(...cbm.dump().map((d) => d.residentAt!));
    expect(done).toBeGreaterThan(2000);
    expect(done).toBeLessThan(4000);
  });

  it('reconciles: the first override replaces the default list, always and extra sets add; dropped bundles unload', async () => {
    const { s, cbm, events } = await setup();
    cbm.changeRegion('World_TestArena');
    await s.run();
    cbm.loadDefaultList('World_MinasIthil_Day');
    cbm.setAlways(['characters\\npcbundles\\drake.bndl']);
    let r = cbm.update();
    expect(r.requested.map(stem)).toEqual(['goblin', 'spider', 'warg_base', 'caragor', 'ghul', 'graug', 'drake', 'human_gondor', 'nazgul_base']);
    await s.run();
    cbm.loadOverrideList('Override_Nazgul', 1);
    cbm.loadOverrideList('Override_Elf', 0);
    r = cbm.update();
    expect(r.requested.map(stem)).toEqual(['elf_base']);
    // the default list's bundles drop out, except drake (always) and troll_base (the world set)
    expect(r.unloaded.map(stem).sort()).toEqual(['caragor', 'ghul', 'goblin', 'graug', 'human_gondor', 'nazgul_base', 'spider', 'warg_base']);
    await s.run();
    expect(events.filter(([k]) => k === 'unloaded').map(([, e]) => e.name).sort()).toEqual(r.unloaded.map(stem).sort());
    cbm.unloadOverrideList(0);
    r = cbm.update();
    expect(r.requested.map(stem)).toEqual(['nazgul_base']);
    expect(r.unloaded.map(stem)).toEqual(['elf_base']);
    expect(cbm.update()).toEqual({ requested: [], unloaded: [] }); // nothing changed: no work
  });

  it('keeps direct RequestBundleLoad loads within a region; a region change clears direct and set loads alike', async () => {
    const { s, cbm, events } = await setup();
    cbm.changeRegion('World_Island_Day');
    cbm.requestBundleLoad('characters\\npcbundles\\graug.bndl');
    cbm.loadOverrideList('Override_Nazgul');
    cbm.update();
    await s.run();
    cbm.loadOverrideList('Override_Elf'); // same slot: replaces the Nazgul override
    cbm.update();
    await s.run();
    const held = () => cbm.dump().map((d) => stem(d.bundle)).sort();
    expect(held()).toContain('graug'); // no set owns it, so it persists
    expect(held()).not.toContain('nazgul_base');
    expect(cbm.isBundleLoaded('characters\\npcbundles\\graug.bndl')).toBe(true);
    const before = events.length;
    const change = cbm.changeRegion('World_MinasIthil_Day');
    expect(change.cleared.map(stem)).toEqual(expect.arrayContaining(['graug', 'elf_base', 'goblin', 'talion_base']));
    // everything was unloaded (events fired) before the new region's sets were requested
    const unloadedNow = events.slice(before).filter(([k]) => k === 'unloaded').map(([, e]) => e.name);
    expect(unloadedNow.sort()).toEqual(change.cleared.map(stem).sort());
    expect(cbm.direct.size).toBe(0);
    expect(cbm.overrides.size).toBe(0);
    expect(s.bundles.find('characters\\npcbundles\\elf_base.bndl')).toBeUndefined();
    await s.run();
    expect(held()).toEqual(['caragor', 'celebrimbor_base', 'drake', 'ghul', 'goblin', 'graug', 'human_gondor', 'nazgul_base', 'spider', 'talion_base', 'warg_base']);
  });

  it('spawn gate: the 94 templates with a null bundle spawn everywhere; others need their bundle loaded', async () => {
    const { db } = worldDb();
    const { s, cbm } = await setup();
    cbm.changeRegion('World_Island_Day');
    await s.run();
    const templates = db.findCategory('AI/Templates')!.records().map((r) => r.label);
    expect(templates).toHaveLength(177);
    const decisions = templates.map((t) => cbm.spawn(t));
    const nulls = decisions.filter((d) => d.reason === 'null-bundle');
    expect(nulls).toHaveLength(94);
    expect(nulls.every((d) => d.admitted)).toBe(true);
    const island = new Set(npcBundleListNamed(db, 'World_Island_Day'));
    for (const d of decisions.filter((x) => x.bundle !== undefined)) {
      expect(d.admitted).toBe(island.has(d.bundle!));
      if (!d.admitted) {
        expect(d.reason).toBe('rejected');
        expect(d.requested).toBe(false);
        expect(d.message).toMatch(/^\[AI\|SPAWNAMBIENT\|REJECT\] .+ doesn't have character bundle loaded/);
      }
    }
    expect(spawnChain(db, 'Orc_Feral_Captain').bundle).toBeUndefined();
    expect(cbm.dump()).toHaveLength(8); // a retail region requests nothing for a rejected spawn
  });

  it('in a test world (WorldInfo.IsTestWorld) the gate requests the missing bundle, and the spawn passes once it is loaded', async () => {
    const { s, cbm } = await setup();
    cbm.changeRegion('World_TestArena');
    await s.run();
    const first = cbm.spawn('Graug_2');
    expect(first).toMatchObject({ admitted: false, requested: true, reason: 'requested', isTestWorld: true, channels: ['TestArena_Ambient'] });
    await s.run();
    expect(cbm.spawn('Graug_2')).toMatchObject({ admitted: true, reason: 'loaded' });
    expect(cbm.direct.has('characters\\npcbundles\\graug.bndl')).toBe(true);
  });
});
