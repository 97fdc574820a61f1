/**
 * Reading the streaming systems' records out of a database, through the one field table (`schema.ts`). A record or
 * field the systems need and the database lacks is a `WorldDataError` naming it (the CLI's "bad input"), never a
 * guess.
 */
import { ToolkitError } from '../../binary/errors.ts';
import type { Category, Database, DbRecord } from '../../gamedb/database.ts';
import { vfsKey } from '../vfs/source.ts';
import { WORLD_CATEGORIES as C, WORLD_FIELDS as F, WORLD_RECORDS, worldFieldRef, type WorldFieldDef } from './schema.ts';

export class WorldDataError extends ToolkitError {
  override name = 'WorldDataError';
  constructor(message: string) {
    super('E_WORLD_DATA', message);
  }
}

/** Bundle kinds as the generated world files know them (`gamedb/generate/world/files.ts`). */
export type BundleRefKind = 'gear-geometry' | 'gear-material' | 'creature' | 'skin' | 'layer';

function category(db: Database, name: string): Category {
  const c = db.findCategory(name);
  if (!c) throw new WorldDataError(`the database has no category ${name} (the streaming systems read it; generate a world with \`scry db gen --world\`)`);
  return c;
}

function record(db: Database, categoryName: string, name: string): DbRecord {
  const r = category(db, categoryName).findRecord(name);
  if (!r) throw new WorldDataError(`${categoryName} has no record ${JSON.stringify(name)}`);
  return r;
}

function need(r: DbRecord, def: WorldFieldDef): void {
  if (!r.has(worldFieldRef(def))) throw new WorldDataError(`${r.path} has no field ${def.name ?? '0x' + def.hash!.toString(16).toUpperCase().padStart(8, '0')}`);
}

function intField(r: DbRecord, def: WorldFieldDef): number {
  need(r, def);
  return r.getInt(worldFieldRef(def));
}
function boolField(r: DbRecord, def: WorldFieldDef): boolean {
  need(r, def);
  return r.getBool(worldFieldRef(def));
}
function pathField(r: DbRecord, def: WorldFieldDef): string {
  need(r, def);
  return r.getString(worldFieldRef(def));
}
/** Every element of an array of resource paths (the list length is the field's element count). */
function pathList(r: DbRecord, def: WorldFieldDef): string[] {
  need(r, def);
  return r.values(worldFieldRef(def)).map((v) => String(v));
}
function linkField(r: DbRecord, def: WorldFieldDef): DbRecord | null {
  need(r, def);
  return (r.get(worldFieldRef(def)) as DbRecord | null | undefined) ?? null;
}
function linkList(r: DbRecord, def: WorldFieldDef): Array<DbRecord | null> {
  if (!r.has(worldFieldRef(def))) return [];
  return r.values(worldFieldRef(def)) as Array<DbRecord | null>;
}

/** Faction/Global.NemsisBundleMemoryLimit and the budget it gives (× 10). */
export function gearBudget(db: Database): { limit: number; budget: number } {
  const limit = intField(record(db, C.factionGlobal, WORLD_RECORDS.factionGlobal), F[C.factionGlobal].memoryLimit);
  return { limit, budget: limit * 10 };
}

export interface BundleDefinitionInfo {
  record: DbRecord;
  name: string;
  path: string;
  /** Bundles/Types record name (e.g. Flair_1MB), or undefined when the link is null. */
  type: string | undefined;
  /** Bundles/Types.MaxMemoryPC: the cost estimate. */
  estimate: number;
}

export function bundleDefinition(r: DbRecord): BundleDefinitionInfo {
  const fields = F[C.bundleDefinition];
  const type = linkField(r, fields.bundleType);
  return { record: r, name: r.label, path: pathField(r, fields.bundle), type: type?.label, estimate: type ? intField(type, F[C.bundleTypes].maxMemoryPC) : 0 };
}

/** Every DynamicResource/BundleDefinition record, in file order. */
export function bundleDefinitions(db: Database): BundleDefinitionInfo[] {
  return category(db, C.bundleDefinition).records().map(bundleDefinition);
}

export interface GearItemInfo {
  record: DbRecord;
  name: string;
  kind: 'armor' | 'weapon';
  /** Its BundleDefinition records (DynamicBundle: `<piece>_g`, then `<set>_<slot>_m`). */
  bundles: DbRecord[];
  priority: number;
  /** OutOfMemoryBackups of the armour record, then of the weapon record (`gear.backupLists`). */
  backups: DbRecord[];
}

/** An item of Inventory/ArmorData or Inventory/WeaponData by name. */
export function gearItem(db: Database, name: string): GearItemInfo {
  for (const [cat, kind] of [[C.armorData, 'armor'], [C.weaponData, 'weapon']] as const) {
    const r = db.findCategory(cat)?.findRecord(name);
    if (r) return gearItemOf(r, kind);
  }
  throw new WorldDataError(`no item ${JSON.stringify(name)} in ${C.armorData} or ${C.weaponData}`);
}

export function gearItemOf(r: DbRecord, kind: 'armor' | 'weapon'): GearItemInfo {
  const fields = kind === 'armor' ? F[C.armorData] : F[C.weaponData];
  return {
    record: r,
    name: r.label,
    kind,
    bundles: linkList(r, fields.dynamicBundle).filter((x): x is DbRecord => x !== null),
    priority: intField(r, fields.loadPriority),
    backups: linkList(r, fields.backups).filter((x): x is DbRecord => x !== null),
  };
}

/** The kind of item a record is (by its category). */
export function gearItemKind(r: DbRecord): 'armor' | 'weapon' | undefined {
  return r.category.name === C.armorData ? 'armor' : r.category.name === C.weaponData ? 'weapon' : undefined;
}

/** A Server/NPCBundle/Lists record's bundles: the array with hash 0x7AB8B862, its length the element count. */
export function npcBundleList(r: DbRecord): string[] {
  return pathList(r, F[C.npcBundleLists].bundles).filter((p) => p !== '');
}

export function npcBundleListNamed(db: Database, name: string): string[] {
  return npcBundleList(record(db, C.npcBundleLists, name));
}

export interface WorldInfo {
  record: DbRecord;
  name: string;
  isTestWorld: boolean;
  /** Its Server/NPCBundle/Lists record's name and bundles (the world set). */
  listName: string | undefined;
  worldSet: string[];
  skins: string[];
  layers: string[];
  spawnTypes: DbRecord[];
  maxBundleSizePC: number;
}

export function worldInfo(db: Database, name: string): WorldInfo {
  const r = record(db, C.worldInfo, name);
  const fields = F[C.worldInfo];
  const list = linkField(r, fields.npcBundleList);
  return {
    record: r,
    name: r.label,
    isTestWorld: boolField(r, fields.isTestWorld),
    listName: list?.label,
    worldSet: list ? npcBundleList(list) : [],
    skins: r.has(worldFieldRef(fields.skinBundles)) ? pathList(r, fields.skinBundles).filter((p) => p !== '') : [],
    layers: r.has(worldFieldRef(fields.layerBundles)) ? pathList(r, fields.layerBundles).filter((p) => p !== '') : [],
    spawnTypes: linkList(r, fields.spawnTypes).filter((x): x is DbRecord => x !== null),
    maxBundleSizePC: r.has(worldFieldRef(fields.maxBundleSizePC)) ? intField(r, fields.maxBundleSizePC) : 0,
  };
}

/** The names of the WorldInfo records. */
export function worldNames(db: Database): string[] {
  return category(db, C.worldInfo).records().map((r) => r.label);
}

/** The spawn chain template → CharacterModel → Bundle (plain field reads, as the descriptor 0x166878 does). */
export interface SpawnChain {
  template: DbRecord;
  model: DbRecord | null;
  /** The bundle path; undefined for a null bundle (no model, or an empty Bundle). */
  bundle: string | undefined;
}

export function spawnChainOf(template: DbRecord): SpawnChain {
  const model = linkField(template, F[C.templates].characterModel);
  const path = model ? pathField(model, F[C.models].bundle) : '';
  return { template, model, bundle: path === '' ? undefined : path };
}

export function spawnChain(db: Database, templateName: string): SpawnChain {
  return spawnChainOf(record(db, C.templates, templateName));
}

/** The templates an AITypes spawn channel reaches: AITypes.Entries[] → _StructuresAISpawnAmbientTypeEntry.AITemplate. */
export function spawnChannelTemplates(channel: DbRecord): DbRecord[] {
  const out: DbRecord[] = [];
  for (const e of linkList(channel, F[C.aiTypes].entries)) {
    if (!e) continue;
    const t = linkField(e, F[C.spawnEntry].template);
    if (t) out.push(t);
  }
  return out;
}

export interface WorldBundleRefInfo {
  path: string;
  kind: BundleRefKind;
  type?: string;
}

/**
 * Every bundle the database names, with what it is for: gear (BundleDefinition; `_m` = material), creature
 * (Character/Models.Bundle and the NPC lists), skins and layers (WorldInfo). The first kind found wins.
 */
export function worldBundleRefs(db: Database): WorldBundleRefInfo[] {
  const refs = new Map<string, WorldBundleRefInfo>();
  const add = (path: string, kind: BundleRefKind, type?: string): void => {
    if (path === '') return;
    const key = vfsKey(path);
    if (!refs.has(key)) refs.set(key, type !== undefined ? { path, kind, type } : { path, kind });
  };
  if (db.findCategory(C.bundleDefinition)) {
    for (const d of bundleDefinitions(db)) add(d.path, /_m\.bndl$/i.test(d.path) ? 'gear-material' : 'gear-geometry', d.type);
  }
  if (db.findCategory(C.models)) for (const m of category(db, C.models).records()) add(pathField(m, F[C.models].bundle), 'creature');
  if (db.findCategory(C.npcBundleLists)) for (const l of category(db, C.npcBundleLists).records()) for (const p of npcBundleList(l)) add(p, 'creature');
  if (db.findCategory(C.worldInfo)) {
    for (const name of worldNames(db)) {
      const w = worldInfo(db, name);
      for (const s of w.skins) add(s, 'skin');
      for (const l of w.layers) add(l, 'layer');
    }
  }
  return [...refs.values()];
}

/** Whether a database carries the streaming systems' records (the semantic core). */
export function hasWorldData(db: Database): boolean {
  return db.findCategory(C.factionGlobal) !== undefined && db.findCategory(C.bundleDefinition) !== undefined;
}
