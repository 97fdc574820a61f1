import { describe, expect, it } from 'vitest';
import { NemesisBundleMgr, Streamer, bundleDefinitions, equipFlags, giveFlags, requesterMultiplier } from '../../../src/index.ts';
import { STARTER_GEAR_SETS, WorldFileSource } from '../../../src/gamedb/generate/world/index.ts';
import { worldDb, worldVfs } from './world.ts';

async function manager(budget?: number): Promise<{ s: Streamer; mgr: NemesisBundleMgr; source: WorldFileSource }> {
  const { db } = worldDb();
  const vfs = await worldVfs();
  const s = new Streamer({ vfs });
  const mgr = new NemesisBundleMgr(db, s.bundles, { now: () => s.now(), ...(budget !== undefined ? { budget } : {}) });
  return { s, mgr, source: vfs.sources[0] as WorldFileSource };
}

/** Runs frames until the manager settles. */
async function frames(s: Streamer, mgr: NemesisBundleMgr): Promise<void> {
  for (let i = 0; i < 10 && mgr.changed; i++) {
    mgr.update();
    await s.run();
  }
}

describe('NemesisBundleMgr (seed 001 "The gear budget")', () => {
  it('scales priority by the requester count: 4, 5, 6, 8, 9 → × 1.25, 1, 1.5, 1, 1.75', () => {
    expect([4, 5, 6, 8, 9].map(requesterMultiplier)).toEqual([1.25, 1, 1.5, 1, 1.75]);
    expect([1, 2, 3, 7, 10, 49].map(requesterMultiplier)).toEqual([1, 1, 1, 1.5, 1.75, 1.75]);
  });

  it('sets the budget to Faction/Global.NemsisBundleMemoryLimit × 10 and builds one object per BundleDefinition', async () => {
    const { mgr } = await manager();
    expect(mgr.memoryLimit).toBe(320);
    expect(mgr.budget).toBe(3200);
    expect(mgr.objects).toHaveLength(1484);
    const byType = new Map<string | undefined, Set<number>>();
    for (const o of mgr.objects) {
      if (!byType.has(o.definition.type)) byType.set(o.definition.type, new Set());
      byType.get(o.definition.type)!.add(o.cost);
    }
    // the estimate is the type's Bundles/Types.MaxMemoryPC
    expect(Object.fromEntries([...byType].map(([k, v]) => [k, [...v]]))).toEqual({ Flair_1MB: [10], Flair_2MB: [20], Flair_3MB: [30] });
  });

  it('builds the priority from the requesters: highest DynamicBundleLoadPriority + max byte 3, flags by OR, then the count scale', async () => {
    const { world } = worldDb();
    const { s, mgr } = await manager();
    const piece = world.plan.armor.find((p) => !(STARTER_GEAR_SETS as readonly string[]).includes(p.set))!;
    mgr.equip('a', piece.name, equipFlags({ score: 7 }));
    mgr.equip('b', piece.name, equipFlags({ score: 12, b1: true }));
    mgr.equip('c', piece.name, equipFlags({ b2: true }));
    mgr.equip('d', piece.name, equipFlags({ b4: true }));
    const g = mgr.objects.find((o) => o.name === piece.bundles[0])!;
    expect(mgr.mergedFlags(g)).toEqual({ b0: true, b1: true, b2: true, score: 12, b4: true });
    // no handle yet: byte 0 does not count
    expect(mgr.priorityOf(g)).toBe((piece.priority + 12 + 10_000 + 500 + 1_000) * 1.25);
    await frames(s, mgr);
    expect(g.hasHandle).toBe(true);
    expect(g.priority).toBe((piece.priority + 12 + 1_000 + 10_000 + 500 + 1_000) * 1.25);
    // a fifth requester: × 1
    mgr.equip('e', piece.name);
    expect(mgr.priorityOf(g)).toBe(piece.priority + 12 + 1_000 + 10_000 + 500 + 1_000);
  });

  it('counts byte 0 only for equip-path requests: give-path requests carry it clear', async () => {
    const { world } = worldDb();
    const { s, mgr } = await manager();
    const piece = world.plan.weapons[3]!;
    const given = mgr.equip('npc', piece.name, giveFlags({ score: 41 }));
    await frames(s, mgr);
    const g = given.objects[0]!;
    expect(g.hasHandle).toBe(true);
    expect(mgr.priorityOf(g)).toBe(piece.priority + 41);
    mgr.equip('player', piece.name); // an equip-path request sets byte 0: now + 1,000
    expect(mgr.priorityOf(g)).toBe(piece.priority + 41 + 1_000);
  });

  it('replaces the estimate once by the real size (content bytes / 2^20) when the load finishes, state 2', async () => {
    const { world } = worldDb();
    const { s, mgr, source } = await manager();
    const piece = world.plan.weapons[5]!;
    const r = mgr.equip('player', piece.name);
    await frames(s, mgr);
    expect(r.status).toBe('loaded');
    for (const o of r.objects) {
      const contentBytes = (await source.size(o.definition.path.replace(/\.bndl$/, '.embb')))!;
      expect(o.latched).toBe(true);
      expect(o.cost).toBe(contentBytes / 1048576);
      expect(o.state).toBe(2);
      expect(o.issued).toBe(o.completed);
    }
    const cost = r.objects[0]!.cost;
    mgr.unequip(r);
    expect(r.objects[0]!.state).toBe(0);
    const again = mgr.equip('player', piece.name);
    await frames(s, mgr);
    expect(again.objects[0]!.cost).toBe(cost);
    expect(again.objects[0]!.issued).toBe(2);
  });

  /**
   * A piece whose backup fits a budget of exactly the backup's two estimates, while the piece's first object (in
   * table order: equal priorities sort by position) has a larger estimate than what the budget leaves.
   */
  function overBudgetCase(): { piece: string; backup: string; budget: number } {
    const { world, db } = worldDb();
    const estimate: Record<string, number> = { Flair_1MB: 10, Flair_2MB: 20, Flair_3MB: 30 };
    const defs = world.plan.bundleDefinitions;
    const type = new Map(defs.map((d) => [d.name, d.type]));
    // the manager's table follows the file's record order (ascending P919 of the name)
    const index = new Map(bundleDefinitions(db).map((d, i) => [d.name, i]));
    const est = (name: string): number => estimate[type.get(name)!]!;
    for (const p of world.plan.armor) {
      for (const b of p.backups) {
        const bp = world.plan.armor.find((x) => x.name === b)!;
        const budget = est(bp.bundles[0]) + est(bp.bundles[1]);
        const first = [...p.bundles].sort((x, y) => index.get(x)! - index.get(y)!)[0]!;
        if (est(first) > budget) return { piece: p.name, backup: b, budget };
      }
    }
    throw new Error('no such piece in the generated world');
  }

  it('loads within the budget in priority order; over it, takes the first resident backup and loads nothing new', async () => {
    const { piece, backup, budget } = overBudgetCase();
    const { s, mgr } = await manager(budget);
    // the backup is worn by someone else first: its estimates fit the budget exactly, and it becomes resident
    const worn = mgr.equip('npc', backup);
    await frames(s, mgr);
    expect(worn.status).toBe('loaded');
    expect(mgr.evaluations[0]!.used).toBe(budget);
    const rowsBefore = s.bundles.size;
    const r = mgr.equip('player', piece);
    const e = mgr.update()!;
    await s.run();
    // sorted highest first: the resident backup (+ 1,000 for its handle) at its real size, then the new piece's estimates
    expect(e.rows.map((x) => x.action)).toEqual(['resident', 'resident', 'over-budget', 'over-budget']);
    expect(e.rows[1]!.cumulative).toBeLessThan(2);
    expect(e.rows[2]!.cumulative).toBeGreaterThan(budget);
    expect(r.status).toBe('replaced');
    expect(r.backup!.name).toBe(backup);
    // nothing new was loaded for it
    expect(s.bundles.size).toBe(rowsBefore);
    expect(r.objects.every((o) => o.state === 0 && !o.hasHandle && o.issued === 0)).toBe(true);
  });

  it('takes a backup only when all its bundles are resident: a handle, counters equal, state 2', async () => {
    const { world } = worldDb();
    const { piece, backup, budget } = overBudgetCase();
    const { s, mgr } = await manager(budget);
    mgr.equip('npc', backup);
    mgr.update(); // loads issued, not finished
    const r = mgr.equip('player', piece);
    mgr.update();
    const o = mgr.objects.find((x) => x.name === world.plan.armor.find((p) => p.name === backup)!.bundles[0])!;
    expect([o.hasHandle, o.issued, o.completed, o.state]).toEqual([true, 1, 0, 1]);
    expect(r.status).toBe('unavailable');
    await s.run(); // the loads finish: the next frame sees them
    await frames(s, mgr);
    expect([o.issued, o.completed, o.state]).toEqual([1, 1, 2]);
    expect(r.status).toBe('replaced');
  });

  it('reports a piece whose bundle is never shipped as missing (the registry keeps an empty row)', async () => {
    const { world } = worldDb();
    const unshipped = world.plan.bundleDefinitions.find((d) => d.unshipped)!;
    const piece = [...world.plan.armor, ...world.plan.weapons].find((p) => p.bundles.includes(unshipped.name))!;
    const { s, mgr } = await manager();
    const r = mgr.equip('player', piece.name);
    await frames(s, mgr);
    expect(r.status).toBe('missing');
    expect(r.objects.find((o) => o.name === unshipped.name)!.missing).toBe(true);
    expect(s.bundles.missingRows().map((b) => b.path)).toEqual([unshipped.path]);
  });

  it('lets a bundle go when the last item requesting it goes; one another item still requests stays', async () => {
    const { world } = worldDb();
    const twins = world.plan.armor.filter((p, _, all) => all.some((q) => q !== p && q.bundles[1] === p.bundles[1]));
    const [p1, p2] = [twins[0]!, twins.find((q) => q !== twins[0] && q.bundles[1] === twins[0]!.bundles[1])!];
    const { s, mgr } = await manager();
    const r1 = mgr.equip('a', p1.name);
    mgr.equip('b', p2.name);
    await frames(s, mgr);
    const shared = s.bundles.find(world.plan.bundleDefinitions.find((d) => d.name === p1.bundles[1])!.path)!;
    const own = s.bundles.find(world.plan.bundleDefinitions.find((d) => d.name === p1.bundles[0])!.path)!;
    expect([shared.resident, own.resident]).toEqual([true, true]);
    mgr.unequip(r1);
    expect(shared.references).toBe(1);
    expect(s.bundles.find(own.path)).toBeUndefined();
  });
});
