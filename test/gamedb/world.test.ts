import { describe, expect, it } from 'vitest';
import { Database, DEFAULT_P919_TABLE, calibrateP919, checkEmbbAgainstBndl, p919, parseBndl, verifyGadb, writeGadb, bundleDefinitions, gearBudget, worldBundleRefs, worldInfo, spawnChain } from '../../src/index.ts';
import { generatedEffectBytes, PROVISIONAL_SLASH_TABLE, SLASH_HYPOTHESIS, WORLD_FIGURES, WorldFileSource, generateWorld, packWorldArchives, planBundleRefs, worldBundleFiles } from '../../src/gamedb/generate/world/index.ts';
import { loadFixture } from '../support/fixtures.ts';

const world = generateWorld({ seed: 1 });
const bytes = writeGadb(world.gadb);
const db = Database.open(bytes);

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

describe('the generator\'s semantic core (seed 001 figures)', () => {
  it('holds the gear budget\'s records: NemsisBundleMemoryLimit 320, 1,484 BundleDefinitions over Flair_1MB/2MB/3MB', () => {
    expect(gearBudget(db)).toEqual({ limit: 320, budget: 3200 });
    const defs = bundleDefinitions(db);
    expect(defs).toHaveLength(1484);
    const types = db.findCategory('Bundles/Types')!;
    expect(types.records().map((r) => [r.label, r.getInt('MaxMemoryPC')]).sort()).toEqual([
      ['Flair_1MB', 10],
      ['Flair_2MB', 20],
      ['Flair_3MB', 30],
    ]);
    expect(db.findCategory('Bundles/Policies')!.findRecord('Character_Nemesis')!.getInt('MemoryBudgetPC')).toBe(1600);
    // every armour and weapon item names two definitions: <piece>_g and the set-wide <set>_<slot>_m
    for (const cat of ['Inventory/ArmorData', 'Inventory/WeaponData']) {
      for (const r of db.findCategory(cat)!.records()) {
        const links = r.values('DynamicBundle') as Array<{ label: string }>;
        expect(links).toHaveLength(2);
        expect(links[0]!.label).toBe(`${r.label}_g`);
        expect(links[1]!.label).toMatch(/^[A-Za-z]+_(Armor|Cloak|Sword|Dagger|Bow)_m$/);
      }
    }
  });

  it('holds the creature records: the two region lists, 177 templates of which 94 have no bundle, WorldInfo.IsTestWorld', () => {
    const island = worldInfo(db, 'World_Island_Day');
    expect(island.worldSet.map((p) => p.slice(p.lastIndexOf('\\') + 1))).toEqual(WORLD_FIGURES.islandList.map((n) => `${n.toLowerCase()}.bndl`));
    expect(worldInfo(db, 'World_MinasIthil_Day').worldSet).toHaveLength(9);
    expect(island.isTestWorld).toBe(false);
    expect(worldInfo(db, 'World_TestArena').isTestWorld).toBe(true);
    expect(island.maxBundleSizePC).toBe(1096);
    const templates = db.findCategory('AI/Templates')!.records();
    expect(templates).toHaveLength(177);
    const nulls = templates.filter((t) => spawnChain(db, t.label).bundle === undefined).map((t) => t.label);
    expect(nulls).toHaveLength(94);
    expect(nulls.filter((t) => t.startsWith('Orc_'))).toHaveLength(80);
    expect(nulls).toEqual(expect.arrayContaining(['Fellbeast', 'Warg_Tamed_1', 'Olog_Base']));
    // spawn channels: AITypes.Entries[] → _StructuresAISpawnAmbientTypeEntry (primaries) → AI/Templates
    const entries = db.findCategory('_StructuresAISpawnAmbientTypeEntry')!;
    expect(entries.primaryCount).toBeGreaterThan(0);
    expect(entries.secondaryCount).toBe(0);
  });

  it('hashes "/" names with the provisional table (a named hypothesis) unless a calibrated table is given', () => {
    expect(world.provisionalSlash).toBe(true);
    expect(SLASH_HYPOTHESIS.status).toBe('provisional');
    expect(PROVISIONAL_SLASH_TABLE.calibrationSource).toMatch(/PROVISIONAL/);
    const cat = db.findCategory('AI/Templates')!;
    expect(cat.sortKey).toBe(p919('AI/Templates', { table: PROVISIONAL_SLASH_TABLE }));
    // the verifier cannot check "/" keys with the default table, and says so instead of failing
    const v = verifyGadb(bytes);
    expect(v.filter((i) => i.severity === 'error')).toEqual([]);
    expect(v.some((i) => i.rule === 'categories.sortKeyUnchecked')).toBe(true);
    // with a (here: made-up) calibrated value, sort keys follow it
    const slash = 0x2f;
    const values = Int8Array.from(DEFAULT_P919_TABLE.values);
    values[slash] = 47;
    const status = [...DEFAULT_P919_TABLE.status];
    status[slash] = 'calibrated';
    const calibrated = { values, status, calibrationSource: 'test' };
    const w2 = generateWorld({ seed: 1, table: calibrated });
    expect(w2.provisionalSlash).toBe(false);
    expect(Database.open(writeGadb(w2.gadb)).findCategory('AI/Templates')!.sortKey).toBe(p919('AI/Templates', { table: calibrated }));
    // a table calibrated from the generated keys recovers the provisional value: the keys are P919 of the names
    const pairs = db.categories.map((c) => ({ text: c.name, hash: c.sortKey }));
    expect(calibrateP919(pairs).derived.find((d) => d.character === '/')?.value).toBe(41);
  });

  it('is deterministic: the same seed gives the same bytes; another seed another world', () => {
    expect(writeGadb(generateWorld({ seed: 1 }).gadb)).toEqual(bytes);
    expect(writeGadb(generateWorld({ seed: 2 }).gadb)).not.toEqual(bytes);
  });

  it('makes bundle files of the seed\'s sizes: gear medians, Nazgul_Base 36.0 MB, the real fortwall manifest', () => {
    const refs = planBundleRefs(world.plan);
    expect(worldBundleRefs(db).map((r) => r.path).sort()).toEqual(refs.map((r) => r.path).sort());
    const mb = (ref: (typeof refs)[number]): number => worldBundleFiles(ref).contentSize / 1048576;
    const gear = refs.filter((r) => r.kind.startsWith('gear'));
    const flair1 = gear.filter((r) => r.type === 'Flair_1MB').map(mb);
    const flair2 = gear.filter((r) => r.type === 'Flair_2MB').map(mb);
    expect(median(flair1)).toBeGreaterThan(0.36);
    expect(median(flair1)).toBeLessThan(0.44);
    expect(Math.max(...flair1)).toBeLessThanOrEqual(1.12 + 0.001);
    expect(median(flair2)).toBeGreaterThan(0.015);
    expect(median(flair2)).toBeLessThan(0.022);
    const nazgul = refs.find((r) => r.path.endsWith('nazgul_base.bndl'))!;
    expect(worldBundleFiles(nazgul).manifest.entries.reduce((s, e) => s + e.size, 0)).toBe(36 * 1048576);
    const fort = refs.find((r) => r.path === 'worlds\\retail\\island\\sectionsandlayers\\fortwallgameplay.bndl')!;
    expect(worldBundleFiles(fort).manifestBytes).toEqual(loadFixture('bndl', 'fortwallgameplay_island.bndl'));
    // every generated content obeys the verified size rule
    for (const r of [fort, nazgul, gear[0]!, gear[1]!]) {
      const f = worldBundleFiles(r);
      expect(checkEmbbAgainstBndl(f.contentSize, parseBndl(f.manifestBytes))[0]!.severity).toBe('info');
    }
    expect(world.plan.bundleDefinitions.filter((d) => d.unshipped)).toHaveLength(WORLD_FIGURES.missingManifestRows);
  });

  it('serves the files through a VFS source and packs them into archives with path indexes', async () => {
    const refs = planBundleRefs(world.plan);
    const src = new WorldFileSource(refs, { sizeScale: 1 / 256 });
    const unshipped = world.plan.bundleDefinitions.find((d) => d.unshipped)!;
    expect(await src.has(unshipped.path)).toBe(false);
    const goblin = 'characters\\npcbundles\\goblin.bndl';
    expect(parseBndl(await src.read(goblin)).entries.some((e) => e.path.endsWith('goblin_blood.fxp'))).toBe(true);
    expect((await src.read('characters\\npcbundles\\goblin.embb')).length).toBe(await src.size('characters\\npcbundles\\goblin.embb'));
    const index = await src.pathIndex();
    expect(index.entries.some((e) => e.path === 'characters\\npcbundles\\goblin_blood.fxp')).toBe(true);
    const archives = packWorldArchives(refs.filter((r) => r.kind === 'creature'), { sizeScale: 1 / 256 });
    expect(archives.map((a) => a.name)).toEqual(['world_characters.arch06']);
    expect(generatedEffectBytes().length).toBeGreaterThan(40);
  });
});

describe('the generator hook: the semantic core placed into a generated database', () => {
  it('keeps every base record and link, adds the core\'s categories at their sorted places, and verifies clean', async () => {
    const { generateGadb } = await import('../../src/gamedb/generate/index.ts');
    const { mergeGadbCategories } = await import('../../src/gamedb/generate/world/index.ts');
    const base = generateGadb({ seed: 42, scale: 0.002 }).gadb;
    const baseBytes = writeGadb(base);
    const merged = writeGadb(mergeGadbCategories(base, world.gadb));
    const a = Database.open(baseBytes);
    const m = Database.open(merged);
    expect(m.categories).toHaveLength(a.categories.length + db.categories.length);
    expect(writeGadb(base)).toEqual(baseBytes); // the base model is untouched
    // every base link still names the same record (category name and label), now through the new ordinals
    let links = 0;
    for (const c of a.categories) {
      const mc = m.findCategory(c.name)!;
      expect(mc.recordCount).toBe(c.recordCount);
      for (const r of c.records(0, 40)) {
        const mr = mc.at(r.indexInCategory)!;
        for (const f of r.fields()) {
          const before = r.values(f.hash);
          const after = mr.values(f.hash);
          expect(after.length).toBe(before.length);
          before.forEach((v, i) => {
            if (v && typeof v === 'object' && 'path' in v) {
              links++;
              expect((after[i] as { path: string }).path).toBe((v as { path: string }).path);
            } else expect(after[i]).toEqual(v);
          });
        }
      }
    }
    expect(links).toBeGreaterThan(100);
    // the core reads as it does alone
    expect(gearBudget(m)).toEqual({ limit: 320, budget: 3200 });
    expect(worldInfo(m, 'World_Island_Day').worldSet).toEqual(worldInfo(db, 'World_Island_Day').worldSet);
    expect(spawnChain(m, 'Goblin_3').model!.label).toBe('Goblin_3_Model');
    expect(verifyGadb(merged).filter((i) => i.severity === 'error')).toEqual([]);
  });
});
