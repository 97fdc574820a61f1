/**
 * The Streaming page's routes: a simulated region visit (the region change, the creature set, layer bundles and a
 * gear loadout through the budget) over an open database and, when given, open archives; without archives the
 * database's world is served by the generated world source (the seed's sizes). Library: `simulateVisit` of
 * `src/resources/streaming/scenarios.ts`.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../binary/errors.ts';
import { writeGadb } from '../formats/gadb/write.ts';
import { generateWorld } from '../gamedb/generate/world/world.ts';
import { planBundleRefs } from '../gamedb/generate/world/files.ts';
import { writeFileAtomic } from '../node/fs.ts';
import { writeWorldArchives } from '../node/streaming.ts';
import type { Arch06Archive } from '../formats/arch06/archive.ts';
import { WorldFileSource, type WorldBundleRef } from '../gamedb/generate/world/files.ts';
import { hasWorldData, worldBundleRefs, worldNames } from '../resources/bundles/world-data.ts';
import { defaultLoadout, simulateVisit, type GearEquip, type VisitReport } from '../resources/streaming/scenarios.ts';
import { ArchiveTreeSource } from '../resources/vfs/archive-source.ts';
import { MountVector } from '../resources/vfs/mount-vector.ts';
import type { ApiContext } from './api.ts';
import type { GadbDoc } from './api-gadb.ts';
import type { Router } from './router.ts';

/** What the page needs before it runs anything: the worlds, the default loadout, the archives it could mount. */
export interface StreamingSetup {
  available: boolean;
  /** Why the page cannot run (no semantic core in this database). */
  reason?: string;
  worlds: string[];
  loadout: GearEquip[];
  archives: Array<{ id: string; name: string }>;
}

/** A visit as the page shows it: the report plus what was mounted. */
export interface StreamingVisit extends VisitReport {
  mounted: string[];
  ms: number;
}

/** Parses `ITEM[@OWNER][:SCORE]` lists (comma-separated). */
function parseEquips(text: string): GearEquip[] {
  return text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0)
    .map((spec) => {
      const m = /^([^@:]+)(?:@([^:]+))?(?::(\d+))?$/.exec(spec);
      if (!m) throw new UsageError(`equip takes ITEM[@OWNER][:SCORE], got ${JSON.stringify(spec)}`);
      return { item: m[1]!, ...(m[2] ? { owner: m[2] } : {}), ...(m[3] ? { score: Number(m[3]) } : {}) };
    });
}

export function registerStreamingApi(router: Router<ApiContext>): void {
  router.add({
    method: 'GET',
    pattern: '/api/files/:file/streaming',
    summary: 'Streaming page setup: the database\'s worlds, a default gear loadout, the open archives',
    handler: (req, c): StreamingSetup => {
      const db = c.workspace.open<GadbDoc>(req.params['file']!, 'gadb').db;
      const archives = c.workspace.list().filter((f) => f.kind === 'arch06').map((f) => ({ id: f.id, name: f.name }));
      if (!hasWorldData(db)) return { available: false, reason: 'this database has none of the streaming systems\' records (Faction/Global, DynamicResource/BundleDefinition…); open a world database, e.g. `scry db gen --world --seed 1 -o world.gamedb`', worlds: [], loadout: [], archives };
      return { available: true, worlds: worldNames(db), loadout: defaultLoadout(db), archives };
    },
  });

  router.add({
    method: 'GET',
    pattern: '/api/files/:file/streaming/visit',
    summary: 'simulate a region visit: ?world=&equip=ITEM[@OWNER][:SCORE],…&budget=&mount=ID,…&layers=0',
    handler: async (req, c): Promise<StreamingVisit> => {
      const t0 = performance.now();
      const db = c.workspace.open<GadbDoc>(req.params['file']!, 'gadb').db;
      if (!hasWorldData(db)) throw new UsageError('this database has none of the streaming systems\' records');
      const world = req.query.get('world') ?? worldNames(db)[0];
      if (!world) throw new UsageError('give ?world=');
      const vfs = new MountVector();
      const mounted: string[] = [];
      for (const id of (req.query.get('mount') ?? '').split(',').filter((s) => s.length > 0)) {
        const info = c.workspace.info(id);
        const archive = await c.workspace.open<Promise<Arch06Archive>>(info.id, 'arch06');
        await vfs.mount(new ArchiveTreeSource(archive, { name: info.name }));
        mounted.push(info.name);
      }
      if (mounted.length === 0) {
        await vfs.mount(new WorldFileSource(worldBundleRefs(db) as WorldBundleRef[], { name: 'generated world' }));
        mounted.push('generated world');
      }
      const budgetText = req.query.get('budget');
      const budget = budgetText === null || budgetText === '' ? undefined : Number(budgetText);
      if (budget !== undefined && !(budget >= 0 && Number.isFinite(budget))) throw new UsageError(`budget must be a number ≥ 0, got ${JSON.stringify(budgetText)}`);
      const equipText = req.query.get('equip');
      const report = await simulateVisit(
        { db, vfs },
        { world, ...(equipText !== null ? { equips: parseEquips(equipText) } : {}), ...(budget !== undefined ? { budget } : {}), layers: req.query.get('layers') !== '0' },
      );
      return { ...report, mounted, ms: Math.round(performance.now() - t0) };
    },
  });
}

/** Size scale of the sample world's archives (the Streaming page simulates the seed's sizes without them). */
export const WORLD_SAMPLE_SIZE_SCALE = 1 / 256;

/**
 * The world sample `scry serve` adds: the semantic-core database (seed 1) and its archives at 1/256 of the seed's
 * sizes, generated into the cache folder on first run. Returns the files to serve and what was done.
 */
export function prepareWorldSamples(cacheDir: string): { files: Array<{ path: string; origin: 'sample' }>; notes: string[] } {
  const dir = join(cacheDir, 'world');
  const dbPath = join(dir, 'world.gamedb');
  const notes: string[] = [];
  const archives = ['world_characters', 'world_gear', 'world_island', 'world_minasithil', 'world_testarena'].map((n) => join(dir, `${n}.arch06`));
  if (!existsSync(dbPath) || archives.some((a) => !existsSync(a))) {
    notes.push(`generating the streaming world (database and archives at 1/256 of the seed's sizes) into ${dir} (first run only)…`);
    mkdirSync(dir, { recursive: true });
    const w = generateWorld({ seed: 1 });
    const refs = planBundleRefs(w.plan);
    writeFileAtomic(dbPath, writeGadb(w.gadb), { overwrite: true, backup: false });
    writeWorldArchives(dir, refs, { sizeScale: WORLD_SAMPLE_SIZE_SCALE, overwrite: true });
  }
  return { files: [dbPath, ...archives].map((path) => ({ path, origin: 'sample' as const })), notes };
}
