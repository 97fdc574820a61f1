/**
 * The generator's semantic core: the GameDB records the streaming systems read, at the seed's figures
 * (`figures.ts`), as one deterministic database — `Faction/Global` (NemsisBundleMemoryLimit 320), 1,484
 * `DynamicResource/BundleDefinition` records over the three `Bundles/Types`, `Inventory/ArmorData` and
 * `Inventory/WeaponData` with their two bundles and `OutOfMemoryBackups`, `Server/NPCBundle/Lists`
 * (World_Island_Day's six, World_MinasIthil_Day's nine), 177 `AI/Templates` of which 94 have no bundle,
 * `Character/Models.Bundle`, `WorldInfo` (IsTestWorld) and the spawn channels `AITypes.Entries[] →
 * _StructuresAISpawnAmbientTypeEntry.AITemplate`. Field names come from `resources/bundles/schema.ts`.
 *
 * Names are made up in the game's style; which item has which bundle, priority or backup is random (seeded); the
 * counts are the seed's. Category names contain `/`, so sort keys need a P919 value for it (`table.ts`).
 * `worldFiles` (files.ts) makes the matching bundle files.
 */
import type { Gadb } from '../../../formats/gadb/types.ts';
import type { P919Table } from '../../../hash/p919.ts';
import { WORLD_CATEGORIES as C, WORLD_FIELDS as F, WORLD_RECORDS } from '../../../resources/bundles/schema.ts';
import { Prng } from '../prng.ts';
import { WORLD_FIGURES, ISLAND_FORTWALL_LAYER } from './figures.ts';
import { buildSemanticGadb, type SemanticCategory, type SemanticRecord, type SemanticValue } from './semantic.ts';
import { slashTable } from './table.ts';

/** Folder of gear bundles the generator names but never ships (the registry's rows whose manifest has no data). */
export const WORLD_UNSHIPPED_FOLDER = 'characters\\gear\\retired';

export const GEAR_ARMOR_SLOTS = ['Armor', 'Cloak'] as const;
export const GEAR_WEAPON_SLOTS = ['Sword', 'Dagger', 'Bow'] as const;

export interface GearPiecePlan {
  /** Item record name (`<Set>_<Slot>_<n>`) in Inventory/ArmorData or Inventory/WeaponData. */
  name: string;
  set: string;
  slot: string;
  kind: 'armor' | 'weapon';
  /** BundleDefinition names of its `_g` and `_m` bundles. */
  bundles: readonly [string, string];
  priority: number;
  backups: string[];
}

export interface BundleDefinitionPlan {
  name: string;
  path: string;
  type: string;
  /** True when the path is under WORLD_UNSHIPPED_FOLDER (no file is generated). */
  unshipped: boolean;
}

export interface TemplatePlan {
  name: string;
  model: string;
  /** Creature bundle name, or undefined for a null bundle. */
  bundle: string | undefined;
}

export interface RegionPlan {
  name: string;
  isTestWorld: boolean;
  /** Its Server/NPCBundle/Lists record (same name). */
  list: string[];
  skins: string[];
  layers: string[];
  spawnTypes: string[];
}

/** What was generated, by name: the tests and the `sim` commands read the database, this is for reports. */
export interface WorldPlan {
  seed: number;
  bundleDefinitions: BundleDefinitionPlan[];
  armor: GearPiecePlan[];
  weapons: GearPiecePlan[];
  templates: TemplatePlan[];
  /** Creature bundle name → path. */
  creatureBundles: Record<string, string>;
  lists: Record<string, string[]>;
  regions: RegionPlan[];
  spawnTypes: Record<string, Array<{ template: string; weight: number }>>;
}

export interface GeneratedWorld {
  gadb: Gadb;
  plan: WorldPlan;
  table: P919Table;
  /** True when category names were hashed with the provisional `/` value (hypothesis `world.slashValue`). */
  provisionalSlash: boolean;
}

export interface GenerateWorldOptions {
  seed?: number;
  /** A calibrated P919 table; without one that knows `/`, the provisional table is used. */
  table?: P919Table;
}

const SET_PREFIXES = ['Ranger', 'Bright', 'Shadow', 'Ithil', 'Gondor', 'Mordor', 'Eregion', 'Udun', 'Nurn', 'Seregost', 'Cirith', 'Lithlad', 'Carn', 'Morgai', 'Dol', 'Minas', 'Barad', 'Gorgoroth', 'Ered', 'Harad', 'Numenor', 'Palantir', 'Galadriel', 'Eltariel', 'Baranor', 'Torvin', 'Shelob', 'Nazgul', 'Witch', 'Black', 'White', 'Elven', 'Dwarf', 'Orc', 'Uruk', 'Olog', 'Ghul', 'Warg', 'Drake', 'Balrog'];
const SET_SUFFIXES = ['Warden', 'Reaper', 'Stalker', 'Lord', 'Slayer', 'Hunter', 'Keeper', 'Bane', 'Guard', 'Blade', 'Wraith', 'Flame', 'Storm', 'Frost', 'Iron', 'Stone'];
/** Sets whose pieces are everyone's fallback (no backups of their own): the first four sets. */
export const STARTER_GEAR_SETS = ['RangerWarden', 'BrightLord', 'GondorGuard', 'ElvenKeeper'] as const;
const STARTER_SETS = STARTER_GEAR_SETS.length;
const GEAR_SETS = 106;

/** Creature bundles and the templates that use them (83 templates with a bundle). */
const BUNDLED_TEMPLATES: ReadonlyArray<readonly [bundle: string, prefix: string, count: number]> = [
  ['Goblin', 'Goblin', 8],
  ['Spider', 'Spider', 7],
  ['Warg_Base', 'Warg_Wild', 6],
  ['Fellbeast', 'Fellbeast_Wild', 3],
  ['Troll_Base', 'Troll', 6],
  ['Troll_Poison', 'Troll_Poison', 4],
  ['Caragor', 'Caragor', 7],
  ['Ghul', 'Ghul', 7],
  ['Graug', 'Graug', 6],
  ['Drake', 'Drake', 6],
  ['Human_Gondor', 'Human_Gondor', 12],
  ['Nazgul_Base', 'Nazgul', 9],
  ['Elf_Base', 'Elf_Galadhrim', 2],
];
const TRIBES = ['Dark', 'Feral', 'Machine', 'Marauder', 'Mystic', 'Outlaw', 'Terror', 'Warmonger'];
const ORC_ROLES = ['Warrior', 'Archer', 'Defender', 'Berserker', 'Hunter', 'Slayer', 'Marksman', 'Assassin', 'Captain', 'Warchief'];
const MINAS_ITHIL_LIST = ['Goblin', 'Spider', 'Warg_Base', 'Caragor', 'Ghul', 'Graug', 'Drake', 'Human_Gondor', 'Nazgul_Base'];
const SECTION_WORDS = ['fortwall', 'gate', 'keep', 'market', 'harbor', 'ruins', 'tower', 'bridge', 'camp', 'forge', 'mine', 'temple', 'village', 'grove', 'cliff', 'cave', 'shore', 'pass', 'road', 'wall', 'square', 'well', 'throne', 'barracks', 'pit', 'arena', 'docks', 'garden', 'vault', 'spire'];
const LAYER_KINDS = ['gameplay', 'art', 'lighting'];

/** Path of a creature bundle. */
export function creatureBundlePath(name: string): string {
  return `characters\\npcbundles\\${name.toLowerCase()}.bndl`;
}

function layerNames(region: string, sections: number): string[] {
  const folder = `worlds\\retail\\${region}\\sectionsandlayers`;
  const out: string[] = [];
  for (let s = 0; s < sections; s++) {
    const word = SECTION_WORDS[s % SECTION_WORDS.length]!;
    const section = s < SECTION_WORDS.length ? word : `${word}${String(Math.floor(s / SECTION_WORDS.length)).padStart(2, '0')}`;
    for (const kind of LAYER_KINDS) out.push(`${folder}\\${section}${kind}.bndl`);
  }
  return out;
}

/** Plans the world: every name, link and number the database will hold. Deterministic in `seed`. */
export function planWorld(seed: number): WorldPlan {
  const rng = new Prng(seed ^ 0x5eed_0001);
  const W = WORLD_FIGURES;
  // Gear: 106 sets × 5 slots = 530 set-wide `_m` bundles; 954 pieces (424 set-slots with two, 106 with one) = 954 `_g`.
  const combos: string[] = [];
  for (const p of SET_PREFIXES) for (const s of SET_SUFFIXES) combos.push(p + s);
  for (let i = combos.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [combos[i], combos[j]] = [combos[j]!, combos[i]!];
  }
  const sets = [...STARTER_GEAR_SETS, ...combos.filter((c) => !(STARTER_GEAR_SETS as readonly string[]).includes(c)).slice(0, GEAR_SETS - STARTER_SETS)];
  const slots = [...GEAR_ARMOR_SLOTS, ...GEAR_WEAPON_SLOTS];
  const setSlots = sets.length * slots.length;
  const pieceTotal = W.bundleDefinitions - setSlots;
  const doubles = new Set<number>();
  const pick = [...Array(setSlots).keys()];
  for (let i = pick.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [pick[i], pick[j]] = [pick[j]!, pick[i]!];
  }
  for (let i = 0; i < pieceTotal - setSlots; i++) doubles.add(pick[i]!);
  const typeWeights = [W.flair1Resident, W.flair2Resident, W.residentGearBundles - W.flair1Resident - W.flair2Resident];
  const typeOf = (): string => {
    const total = typeWeights[0]! + typeWeights[1]! + typeWeights[2]!;
    let x = rng.int(total);
    for (let t = 0; t < 3; t++) {
      if (x < typeWeights[t]!) return W.bundleTypes[t]![0];
      x -= typeWeights[t]!;
    }
    return W.bundleTypes[0]![0];
  };
  const defs: BundleDefinitionPlan[] = [];
  const armor: GearPiecePlan[] = [];
  const weapons: GearPiecePlan[] = [];
  sets.forEach((set, si) => {
    slots.forEach((slot, li) => {
      const folder = `characters\\gear\\${set.toLowerCase()}`;
      const m = `${set}_${slot}_m`;
      defs.push({ name: m, path: `${folder}\\${m.toLowerCase()}.bndl`, type: typeOf(), unshipped: false });
      const n = doubles.has(si * slots.length + li) ? 2 : 1;
      for (let k = 1; k <= n; k++) {
        const piece = `${set}_${slot}_${k}`;
        const g = `${piece}_g`;
        defs.push({ name: g, path: `${folder}\\${g.toLowerCase()}.bndl`, type: typeOf(), unshipped: false });
        const kind = (GEAR_ARMOR_SLOTS as readonly string[]).includes(slot) ? 'armor' : 'weapon';
        (kind === 'armor' ? armor : weapons).push({ name: piece, set, slot, kind, bundles: [g, m], priority: 10 * rng.range(0, 10), backups: [] });
      }
    });
  });
  // Ten definitions whose bundle is never shipped: a missing path is benign (the registry keeps an empty row).
  const unshippable = defs.filter((d) => d.name.endsWith('_g') && !sets.slice(0, STARTER_SETS).some((s) => d.name.startsWith(s + '_')));
  for (let i = 0; i < W.missingManifestRows; i++) {
    const d = unshippable[Math.floor(((i + 0.5) * unshippable.length) / W.missingManifestRows)]!;
    d.path = `${WORLD_UNSHIPPED_FOLDER}\\${d.name.toLowerCase()}.bndl`;
    d.unshipped = true;
  }
  // Backups: one to three pieces of the same slot from the starter sets.
  for (const list of [armor, weapons]) {
    for (const p of list) {
      if (sets.indexOf(p.set) < STARTER_SETS) continue;
      const pool = list.filter((q) => q.slot === p.slot && sets.indexOf(q.set) < STARTER_SETS);
      const k = Math.min(pool.length, rng.range(1, 3));
      const chosen = new Set<string>();
      while (chosen.size < k) chosen.add(pool[rng.int(pool.length)]!.name);
      p.backups = [...chosen];
    }
  }
  // Templates: 83 with a bundle, 94 without (every orc and olog class, tamed wargs, the fellbeast).
  const templates: TemplatePlan[] = [];
  const creatureBundles: Record<string, string> = {};
  for (const [bundle, prefix, count] of BUNDLED_TEMPLATES) {
    creatureBundles[bundle] = creatureBundlePath(bundle);
    for (let i = 1; i <= count; i++) templates.push({ name: `${prefix}_${i}`, model: `${prefix}_${i}_Model`, bundle });
  }
  for (const tribe of TRIBES) for (const role of ORC_ROLES) templates.push({ name: `Orc_${tribe}_${role}`, model: `Orc_${tribe}_${role}_Model`, bundle: undefined });
  for (const tribe of TRIBES) templates.push({ name: `Olog_${tribe}`, model: `Olog_${tribe}_Model`, bundle: undefined });
  templates.push({ name: 'Olog_Base', model: 'Olog_Base_Model', bundle: undefined }, { name: 'Olog_Captain', model: 'Olog_Captain_Model', bundle: undefined });
  for (let i = 1; i <= 3; i++) templates.push({ name: `Warg_Tamed_${i}`, model: `Warg_Tamed_${i}_Model`, bundle: undefined });
  templates.push({ name: 'Fellbeast', model: 'Fellbeast_Model', bundle: undefined });

  const lists: Record<string, string[]> = {
    World_Island_Day: [...W.islandList],
    World_MinasIthil_Day: MINAS_ITHIL_LIST.slice(0, W.minasIthilListLength),
    World_TestArena: ['Troll_Base'],
    Override_Nazgul: ['Nazgul_Base'],
    Override_Elf: ['Elf_Base'],
  };
  const skins = ['characters\\skins\\talion_base.bndl', 'characters\\skins\\celebrimbor_base.bndl'];
  const regions: RegionPlan[] = [
    { name: 'World_Island_Day', isTestWorld: false, list: lists['World_Island_Day']!, skins, layers: layerNames('island', 120), spawnTypes: ['Island_Ambient'] },
    { name: 'World_MinasIthil_Day', isTestWorld: false, list: lists['World_MinasIthil_Day']!, skins, layers: layerNames('minasithil', 110), spawnTypes: ['MinasIthil_Ambient'] },
    { name: 'World_TestArena', isTestWorld: true, list: lists['World_TestArena']!, skins: skins.slice(0, 1), layers: layerNames('testarena', 4), spawnTypes: ['TestArena_Ambient'] },
  ];
  const island = regions[0]!.layers;
  if (island[0] !== `${ISLAND_FORTWALL_LAYER.folder}\\${ISLAND_FORTWALL_LAYER.stem}.bndl`) throw new Error('the island\'s first layer must be the real fortwallgameplay bundle');
  const bundledFor = (list: readonly string[]): TemplatePlan[] => templates.filter((t) => t.bundle !== undefined && list.includes(t.bundle));
  const orcs = templates.filter((t) => t.bundle === undefined);
  const entries = (ts: TemplatePlan[]): Array<{ template: string; weight: number }> => ts.map((t) => ({ template: t.name, weight: rng.range(1, 20) / 4 }));
  const spawnTypes = {
    Island_Ambient: entries([...bundledFor(lists['World_Island_Day']!), ...orcs.slice(0, 20)]),
    MinasIthil_Ambient: entries([...bundledFor(lists['World_MinasIthil_Day']!), ...orcs.slice(20, 40)]),
    TestArena_Ambient: entries([...bundledFor(['Troll_Base', 'Graug']), ...orcs.slice(0, 4)]),
  };
  return { seed, bundleDefinitions: defs, armor, weapons, templates, creatureBundles, lists, regions, spawnTypes };
}

const link = (category: string, record: string): SemanticValue => ({ link: [category, record] });

/** The database of a plan, as semantic categories (field keys from `schema.ts`). */
export function worldCategories(plan: WorldPlan): SemanticCategory[] {
  const W = WORLD_FIGURES;
  const rec = (name: string, values: SemanticRecord['values']): SemanticRecord => ({ name, values });
  const gear = (p: GearPiecePlan, self: string): SemanticRecord =>
    rec(p.name, {
      dynamicBundle: p.bundles.map((b) => link(C.bundleDefinition, b)),
      loadPriority: [p.priority],
      backups: p.backups.map((b) => link(self, b)),
    });
  const entryPrimaries: SemanticRecord[] = [];
  const aiTypes: SemanticRecord[] = [];
  for (const [name, entries] of Object.entries(plan.spawnTypes)) {
    const first = entryPrimaries.length;
    for (const e of entries) entryPrimaries.push({ values: { template: [link(C.templates, e.template)], weight: [e.weight] } });
    aiTypes.push(rec(name, { entries: entries.map((_, i) => link(C.spawnEntry, `#${first + i}`)) }));
  }
  return [
    { name: C.factionGlobal, fields: F[C.factionGlobal], records: [rec(WORLD_RECORDS.factionGlobal, { memoryLimit: [W.nemesisBundleMemoryLimit] })] },
    { name: C.bundleTypes, fields: F[C.bundleTypes], records: W.bundleTypes.map(([n, mb]) => rec(n, { maxMemoryPC: [mb] })) },
    { name: C.bundlePolicies, fields: F[C.bundlePolicies], records: [rec(WORLD_RECORDS.nemesisPolicy, { budgetPC: [W.characterNemesisBudgetPC] })] },
    { name: C.bundleDefinition, fields: F[C.bundleDefinition], records: plan.bundleDefinitions.map((d) => rec(d.name, { bundle: [d.path], bundleType: [link(C.bundleTypes, d.type)] })) },
    { name: C.armorData, fields: F[C.armorData], records: plan.armor.map((p) => gear(p, C.armorData)) },
    { name: C.weaponData, fields: F[C.weaponData], records: plan.weapons.map((p) => gear(p, C.weaponData)) },
    { name: C.npcBundleLists, fields: F[C.npcBundleLists], records: Object.entries(plan.lists).map(([n, bundles]) => rec(n, { bundles: bundles.map((b) => plan.creatureBundles[b]!), second: [] })) },
    { name: C.models, fields: F[C.models], records: plan.templates.map((t) => rec(t.model, { bundle: [t.bundle === undefined ? '' : plan.creatureBundles[t.bundle]!] })) },
    { name: C.templates, fields: F[C.templates], records: plan.templates.map((t) => rec(t.name, { characterModel: [link(C.models, t.model)] })) },
    {
      name: C.worldInfo,
      fields: F[C.worldInfo],
      records: plan.regions.map((r) =>
        rec(r.name, {
          isTestWorld: [r.isTestWorld],
          maxBundleSizePC: [W.maxBundleSizePC],
          npcBundleList: [link(C.npcBundleLists, r.name)],
          skinBundles: r.skins,
          layerBundles: r.layers,
          spawnTypes: r.spawnTypes.map((s) => link(C.aiTypes, s)),
        }),
      ),
    },
    { name: C.aiTypes, fields: F[C.aiTypes], records: aiTypes },
    { name: C.spawnEntry, fields: F[C.spawnEntry], primaries: entryPrimaries, records: [] },
  ];
}

/** Generates the semantic core: a GADB model of the streaming systems' records at the seed's figures. */
export function generateWorld(options: GenerateWorldOptions = {}): GeneratedWorld {
  const seed = options.seed ?? 1;
  const { table, provisional } = slashTable(options.table);
  const plan = planWorld(seed);
  const gadb = buildSemanticGadb(worldCategories(plan), table);
  return { gadb, plan, table, provisionalSlash: provisional };
}
