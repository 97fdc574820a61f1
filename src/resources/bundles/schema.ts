/**
 * The GameDB records the streaming systems read, as one table: category names, field names (or, where the name is
 * unknown, the field's P919 hash) and their type codes. Seed `001_83bc7b444f8213a8` names most of them; the ones it
 * does not are marked `named: 'scry'` — a name scry chose for a field whose existence the seed implies, so a real
 * database may call it something else (then the readers report the field as missing, never guess).
 *
 * The generator's semantic core (`src/gamedb/generate/world/`) writes exactly these fields, and the managers in
 * this folder read exactly these fields: there is no second copy of any name.
 */

/** Type codes used below (spec gadb.md §3.5). */
export const WORLD_TYPES = { Bool: 1, Float: 2, Int: 3, String: 4, RecordLink: 10, ResourcePath: 0x44 } as const;

/** One field: its name (or only its hash), type and where the name comes from. */
export interface WorldFieldDef {
  /** Field name; undefined when only the hash is known. */
  readonly name: string | undefined;
  /** P919 of the name, when only the hash is known (the seed's 0x7AB8B862). */
  readonly hash?: number;
  readonly type: number;
  /** Elements: 1 for a scalar, 'array' for a variable count. */
  readonly count: 1 | 'array';
  /** Category a RecordLink points into. */
  readonly target?: string;
  /** `seed`: the name (or hash) is the seed's; `scry`: a name scry chose (the field's role is the seed's). */
  readonly named: 'seed' | 'scry';
  readonly note: string;
}

const f = (name: string | undefined, type: number, count: 1 | 'array', named: 'seed' | 'scry', note: string, target?: string, hash?: number): WorldFieldDef => ({
  name,
  type,
  count,
  named,
  note,
  ...(target !== undefined ? { target } : {}),
  ...(hash !== undefined ? { hash } : {}),
});

/** Category names (the seed's; `/` needs a P919 table value, see `world.slashValue`). */
export const WORLD_CATEGORIES = {
  factionGlobal: 'Faction/Global',
  bundleDefinition: 'DynamicResource/BundleDefinition',
  bundleTypes: 'Bundles/Types',
  bundlePolicies: 'Bundles/Policies',
  armorData: 'Inventory/ArmorData',
  weaponData: 'Inventory/WeaponData',
  npcBundleLists: 'Server/NPCBundle/Lists',
  templates: 'AI/Templates',
  models: 'Character/Models',
  worldInfo: 'WorldInfo',
  aiTypes: 'AITypes',
  spawnEntry: '_StructuresAISpawnAmbientTypeEntry',
} as const;

const C = WORLD_CATEGORIES;
const T = WORLD_TYPES;

/** The fields of each category, in declaration order. */
export const WORLD_FIELDS = {
  [C.factionGlobal]: {
    memoryLimit: f('NemsisBundleMemoryLimit', T.Int, 1, 'seed', 'gear budget in tenths: NemesisBundleMgr budget = this × 10 (320 → 3,200); spelled as the seed spells it'),
  },
  [C.bundleTypes]: {
    maxMemoryPC: f('MaxMemoryPC', T.Int, 1, 'seed', 'cost estimate of a bundle of this type until its real size latches (Flair_1MB 10, Flair_2MB 20, Flair_3MB 30)'),
  },
  [C.bundlePolicies]: {
    budgetPC: f('MemoryBudgetPC', T.Int, 1, 'scry', 'Character_Nemesis 1,600 on PC; NemesisBundleMgr does not read it'),
  },
  [C.bundleDefinition]: {
    bundle: f('Bundle', T.ResourcePath, 1, 'scry', 'the .bndl this definition streams'),
    bundleType: f('BundleType', T.RecordLink, 1, 'scry', 'its Bundles/Types record (the cost estimate)', C.bundleTypes),
  },
  [C.armorData]: {
    dynamicBundle: f('DynamicBundle', T.RecordLink, 'array', 'seed', 'the piece\'s two bundles: element 0 <piece>_g (geometry), element 1 the set-wide <set>_<slot>_m (material, textures); the two-element layout is scry\'s reading', C.bundleDefinition),
    loadPriority: f('DynamicBundleLoadPriority', T.Int, 1, 'seed', 'the highest among an object\'s requesters starts its priority'),
    backups: f('OutOfMemoryBackups', T.RecordLink, 'array', 'seed', 'walked in order when the piece is over the budget; the first whose bundles are all resident replaces it', C.armorData),
  },
  [C.weaponData]: {
    dynamicBundle: f('DynamicBundle', T.RecordLink, 'array', 'seed', 'as Inventory/ArmorData.DynamicBundle', C.bundleDefinition),
    loadPriority: f('DynamicBundleLoadPriority', T.Int, 1, 'seed', 'as Inventory/ArmorData'),
    backups: f('OutOfMemoryBackups', T.RecordLink, 'array', 'seed', 'walked after the armour\'s backups', C.weaponData),
  },
  [C.npcBundleLists]: {
    bundles: f(undefined, T.ResourcePath, 'array', 'seed', 'the list\'s bundles; the list length is this field\'s element count; only the hash 0x7AB8B862 is known', undefined, 0x7ab8b862),
    second: f('Extra', T.ResourcePath, 'array', 'scry', 'the empty second array every list record has'),
  },
  [C.models]: {
    bundle: f('Bundle', T.ResourcePath, 1, 'seed', 'the character bundle; empty = null bundle (the spawn is allowed: the data is always resident)'),
  },
  [C.templates]: {
    characterModel: f('CharacterModel', T.RecordLink, 1, 'seed', 'the template\'s model', C.models),
  },
  [C.worldInfo]: {
    isTestWorld: f('IsTestWorld', T.Bool, 1, 'seed', 'set: the spawn gate requests a missing bundle; clear (retail): the spawn is rejected'),
    maxBundleSizePC: f('MaxBundleSizePC', T.Int, 1, 'seed', '1096 on PC; checked only when content is packed, no run-time code reads it'),
    npcBundleList: f('NPCBundleList', T.RecordLink, 1, 'scry', 'the world set\'s Server/NPCBundle/Lists record (the provider\'s list)', C.npcBundleLists),
    skinBundles: f('SkinBundles', T.ResourcePath, 'array', 'scry', 'skins, rebuilt first on a region change'),
    layerBundles: f('LayerBundles', T.ResourcePath, 'array', 'scry', 'the region\'s layer bundles (resident, placing nothing)'),
    spawnTypes: f('AmbientSpawnTypes', T.RecordLink, 'array', 'scry', 'the AITypes spawn channels of the region', C.aiTypes),
  },
  [C.aiTypes]: {
    entries: f('Entries', T.RecordLink, 'array', 'seed', 'AITypes.Entries[]: inline _StructuresAISpawnAmbientTypeEntry records', C.spawnEntry),
  },
  [C.spawnEntry]: {
    template: f('AITemplate', T.RecordLink, 1, 'seed', 'the entry\'s AI/Templates record', C.templates),
    weight: f('Weight', T.Float, 1, 'scry', 'spawn weight of the entry'),
  },
} as const satisfies Record<string, Record<string, WorldFieldDef>>;

/** The name by which a reader addresses a field: its name, or `0x…` when only the hash is known. */
export function worldFieldRef(def: WorldFieldDef): string | number {
  return def.name ?? def.hash!;
}

/** The record of `Faction/Global` that carries the budget, and of `Bundles/Policies` that the seed names. */
export const WORLD_RECORDS = {
  factionGlobal: 'Global',
  nemesisPolicy: 'Character_Nemesis',
} as const;
