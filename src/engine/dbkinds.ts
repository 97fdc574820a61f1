/**
 * `DB<Kind>.Name`: how a script names a GameDB record (seed 002, "Records and natives from script"). The lookup
 * (WBDBRecordLookup) takes the kind's live category and the name's hash and binary-searches the category's
 * secondaries (0x278540), the same search `Database.findRecord` runs. The Lua kind names differ from the category
 * paths; the seed names a few pairs, and the rule for the others is a hypothesis (H-DBKIND-RULE), so every
 * resolution says how it was reached.
 *
 * `DB<Kind>.None` is the null record (`DBRegion.None`, `DBFAComposition.None` in the shipped source): not a
 * lookup.
 */
import type { Category, Database, DbRecord } from '../gamedb/database.ts';
import { closestNames } from './closest.ts';

/** One row of the kind table. */
export interface DbKindSpec {
  /** The Lua global, `DB` + kind. */
  readonly kind: string;
  /** The category, when the seed (or another seed) names it. */
  readonly category?: string;
  /** The number of records the seed counted in the category, when it gives one (a check on a real database). */
  readonly records?: number;
  /** `seed`: the seed names the category; `inferred`: from another seed's category name; `open`: the seed lists the
   * kind among those whose names differ from their categories, without the category. */
  readonly status: 'seed' | 'inferred' | 'open';
  readonly note?: string;
}

/** The kinds the seed names (002), as data. */
export const DB_KINDS: readonly DbKindSpec[] = [
  { kind: 'DBFX', category: 'Client/ClientFXList', status: 'seed' },
  { kind: 'DBFXSeq', category: 'Client/ClientFXSequence', status: 'seed' },
  { kind: 'DBMaterialState', category: 'Combat/FX/MaterialController/States', records: 168, status: 'seed' },
  { kind: 'DBSlowMo', records: 332, status: 'open', note: 'the seed gives 332 records, not the category' },
  { kind: 'DBAlignments', records: 52, status: 'open', note: 'the seed gives 52 records, not the category' },
  { kind: 'DBBandType', status: 'open' },
  { kind: 'DBCombatAppliedState', status: 'open' },
  { kind: 'DBCharacterModels', category: 'Character/Models', status: 'inferred', note: 'seed 001 names the category Character/Models (AI/Templates.CharacterModel -> Character/Models.Bundle)' },
  { kind: 'DBCombatBuff', status: 'open' },
];

/** The record name that means "no record". */
export const NULL_RECORD_NAME = 'None';

/** How a kind was matched to its category. */
export type KindMatch = 'table' | 'type-name' | 'joined-name' | 'last-segment' | 'plural' | 'record-count';

/** One matcher of H-DBKIND-RULE, tried in order; the first that yields exactly one category decides. */
interface KindMatcher {
  readonly id: KindMatch;
  readonly test: (c: Category, stem: string) => boolean;
}

const lower = (s: string) => s.toLowerCase();
const lastSegment = (name: string) => name.slice(name.lastIndexOf('/') + 1);

/**
 * H-DBKIND-RULE (open): for a kind the table does not place, `DB<Stem>` is the category whose record type name
 * (+0x04, H-CAT-04) without its dots is `Stem` (`Inventory.Item` for DBInventoryItem), else whose name without
 * `/` is `Stem`, else whose last path segment is `Stem`, else the same with a plural `s` (case-insensitive).
 */
const KIND_MATCHERS: readonly KindMatcher[] = [
  { id: 'type-name', test: (c, stem) => lower(c.typeName.replaceAll('.', '')) === stem },
  { id: 'joined-name', test: (c, stem) => lower(c.name.replaceAll('/', '')) === stem },
  { id: 'last-segment', test: (c, stem) => lower(lastSegment(c.name)) === stem },
  { id: 'plural', test: (c, stem) => lower(c.name.replaceAll('/', '')) === stem + 's' || lower(lastSegment(c.name)) === stem + 's' },
];

/** Where a kind resolved (or why it did not). */
export type KindResolution =
  | { ok: true; kind: string; category: Category; match: KindMatch; spec?: DbKindSpec; warnings: string[] }
  | { ok: false; kind: string; reason: 'not-a-kind' | 'unknown-kind' | 'ambiguous' | 'table-category-missing'; candidates: string[]; spec?: DbKindSpec; message: string };

/** Where a `DB<Kind>.Name` lookup ended. */
export type RecordResolution =
  | { ok: true; kind: string; name: string; record: DbRecord; category: Category; match: KindMatch }
  | { ok: false; kind: string; name: string; reason: 'unknown-kind' | 'unknown-record' | 'no-database'; closest: string[]; message: string; category?: string };

/** True for a global the engine treats as a record kind (`DB` then an upper-case letter). */
export function isDbKindName(name: string): boolean {
  return /^DB[A-Z][A-Za-z0-9_]*$/.test(name);
}

/** The table row for a kind, if the seed names it. */
export function dbKindSpec(kind: string): DbKindSpec | undefined {
  return DB_KINDS.find((k) => k.kind === kind);
}

/**
 * Resolves `DB<Kind>` lookups against one open GameDB, caching the kind's category as the engine's static
 * category slots do (a kind is resolved once).
 */
export class DbKindResolver {
  readonly db: Database;
  readonly #kinds = new Map<string, KindResolution>();
  readonly #overrides: ReadonlyMap<string, string>;

  /** `overrides` maps a kind to a category name, for a user who knows better than the table and the rule. */
  constructor(db: Database, overrides: ReadonlyMap<string, string> = new Map()) {
    this.db = db;
    this.#overrides = overrides;
  }

  /** The category a kind reads, or why none. */
  kind(kind: string): KindResolution {
    let r = this.#kinds.get(kind);
    if (!r) {
      r = this.#resolveKind(kind);
      this.#kinds.set(kind, r);
    }
    return r;
  }

  #resolveKind(kind: string): KindResolution {
    const spec = dbKindSpec(kind);
    if (!isDbKindName(kind)) return { ok: false, kind, reason: 'not-a-kind', candidates: [], message: `${kind} is not a DB<Kind> name` };
    const categoryName = this.#overrides.get(kind) ?? spec?.category;
    if (categoryName !== undefined) {
      const category = this.db.findCategory(categoryName);
      if (category) return { ok: true, kind, category, match: 'table', ...(spec ? { spec } : {}), warnings: this.#countWarnings(spec, category) };
      const candidates = closestNames(categoryName, this.db.categories.map((c) => c.name));
      return {
        ok: false,
        kind,
        reason: 'table-category-missing',
        candidates,
        ...(spec ? { spec } : {}),
        message: `${kind} reads category ${categoryName}, which this database does not have${candidates.length ? ` (closest: ${candidates.join(', ')})` : ''}`,
      };
    }
    const stem = lower(kind.slice(2));
    const cats = this.db.categories;
    for (const m of KIND_MATCHERS) {
      const hits = cats.filter((c) => m.test(c, stem));
      if (hits.length === 1) return { ok: true, kind, category: hits[0]!, match: m.id, ...(spec ? { spec } : {}), warnings: this.#countWarnings(spec, hits[0]!) };
      if (hits.length > 1) {
        // The seed's record count, when it gives one, picks among several.
        const counted = spec?.records !== undefined ? hits.filter((c) => c.secondaryCount === spec.records) : [];
        if (counted.length === 1) return { ok: true, kind, category: counted[0]!, match: 'record-count', ...(spec ? { spec } : {}), warnings: [] };
        const candidates = hits.map((c) => c.name);
        return { ok: false, kind, reason: 'ambiguous', candidates, ...(spec ? { spec } : {}), message: `${kind} matches ${hits.length} categories by ${m.id} (${candidates.slice(0, 5).join(', ')}); name one with a kind override` };
      }
    }
    if (spec?.records !== undefined) {
      // An open table row: a category whose name contains the stem and holds the seed's record count.
      const counted = cats.filter((c) => lower(c.name).includes(stem) && c.secondaryCount === spec.records);
      if (counted.length === 1) return { ok: true, kind, category: counted[0]!, match: 'record-count', spec, warnings: [] };
    }
    const candidates = closestNames(kind.slice(2), cats.flatMap((c) => [c.name, lastSegment(c.name)]));
    return {
      ok: false,
      kind,
      reason: 'unknown-kind',
      candidates,
      ...(spec ? { spec } : {}),
      message: `no category for ${kind}${candidates.length ? ` (closest: ${candidates.join(', ')})` : ''}`,
    };
  }

  #countWarnings(spec: DbKindSpec | undefined, category: Category): string[] {
    if (spec?.records === undefined || category.secondaryCount === spec.records) return [];
    return [`${category.name} holds ${category.secondaryCount} records; the seed counted ${spec.records} in the game's database`];
  }

  /** `DB<Kind>.Name`: the record, or why there is none, with the closest names. */
  record(kind: string, name: string): RecordResolution {
    const k = this.kind(kind);
    if (!k.ok) return { ok: false, kind, name, reason: 'unknown-kind', closest: k.candidates, message: k.message };
    const record = k.category.findRecord(name);
    if (record && !record.isPrimary) return { ok: true, kind, name, record, category: k.category, match: k.match };
    const closest = closestNames(name, k.category.records().flatMap((r) => (r.name === undefined ? [] : [r.name])));
    return {
      ok: false,
      kind,
      name,
      reason: 'unknown-record',
      closest,
      category: k.category.name,
      message: `no record ${JSON.stringify(name)} in ${k.category.name} (${kind})${closest.length ? `; closest: ${closest.join(', ')}` : ''}`,
    };
  }
}

/** A lookup with no database open. */
export function unresolvedWithoutDatabase(kind: string, name: string): RecordResolution {
  return { ok: false, kind, name, reason: 'no-database', closest: [], message: `${kind}.${name}: no GameDB open` };
}
