/**
 * A small semantic layer over the codec's `buildGadb`: categories and records described by field *names* with
 * symbolic links (`{ link: ['AI/Templates', 'Goblin_Scout'] }`), sorted and encoded the way the file stores them
 * (categories by P919 of the name, secondaries by P919 of their names, links as `(ordinal << 20) | index` with
 * primaries first). The world generator describes its records with it.
 */
import { ConsistencyError } from '../../../binary/errors.ts';
import { buildGadb, type GadbBuildCategory, type GadbBuildValue } from '../../../formats/gadb/build.ts';
import { encodeGadbLink, GADB_NULL_LINK } from '../../../formats/gadb/decode.ts';
import type { Gadb } from '../../../formats/gadb/types.ts';
import { p919, type P919Table } from '../../../hash/p919.ts';
import type { WorldFieldDef } from '../../../resources/bundles/schema.ts';

/** A link to a secondary by name, to a primary by `#index`, or null. */
export type SemanticLink = { link: readonly [category: string, record: string] | null };
export type SemanticValue = boolean | number | string | SemanticLink;

export interface SemanticRecord {
  /** Secondary name; omitted for a primary. */
  name?: string;
  /** Elements per field key (the keys of the category's `fields`); a missing key is an empty field. */
  values: Record<string, readonly SemanticValue[]>;
}

export interface SemanticCategory {
  name: string;
  fields: Record<string, WorldFieldDef>;
  primaries?: SemanticRecord[];
  records: SemanticRecord[];
}

function bad(message: string): ConsistencyError {
  return new ConsistencyError('gadb', [{ rule: 'world.build', message, severity: 'error' }]);
}

/** Builds the model: sorts, resolves every symbolic link, and hands the result to `buildGadb`. */
export function buildSemanticGadb(categories: readonly SemanticCategory[], table: P919Table, rootName = 'GameDatabase'): Gadb {
  const hash = (s: string): number => p919(s, { table });
  const sorted = [...categories].sort((a, b) => hash(a.name) - hash(b.name));
  for (let i = 1; i < sorted.length; i++) if (hash(sorted[i - 1]!.name) === hash(sorted[i]!.name)) throw bad(`categories ${sorted[i - 1]!.name} and ${sorted[i]!.name} share a sort key`);
  // Record order per category: primaries in given order, then secondaries by P919(name).
  const order = sorted.map((c) => {
    const secondaries = [...c.records].sort((a, b) => hash(a.name!) - hash(b.name!));
    for (let i = 1; i < secondaries.length; i++) if (hash(secondaries[i - 1]!.name!) === hash(secondaries[i]!.name!)) throw bad(`${c.name}: records ${secondaries[i - 1]!.name} and ${secondaries[i]!.name} share a P919 key`);
    return { primaries: c.primaries ?? [], secondaries };
  });
  const index = new Map<string, Map<string, number>>();
  sorted.forEach((c, ci) => {
    const m = new Map<string, number>();
    const o = order[ci]!;
    o.primaries.forEach((_, i) => m.set(`#${i}`, i));
    o.secondaries.forEach((r, i) => m.set(r.name!, o.primaries.length + i));
    index.set(c.name, m);
  });
  const ordinal = new Map(sorted.map((c, i) => [c.name, i]));
  const encode = (where: string, v: SemanticValue): GadbBuildValue => {
    if (typeof v !== 'object') return v;
    if (v.link === null) return GADB_NULL_LINK | 0;
    const [cat, rec] = v.link;
    const at = index.get(cat)?.get(rec);
    if (at === undefined) throw bad(`${where}: link to ${cat}/${rec}, which is not generated`);
    return encodeGadbLink(ordinal.get(cat)!, at) | 0;
  };
  const build: GadbBuildCategory[] = sorted.map((c, ci) => {
    const keys = Object.keys(c.fields);
    const defs = keys.map((k) => c.fields[k]!);
    const row = (r: SemanticRecord): GadbBuildValue[][] => {
      for (const k of Object.keys(r.values)) if (!(k in c.fields)) throw bad(`${c.name}/${r.name ?? '#'}: no field ${k}`);
      return keys.map((k, j) => {
        const vs = r.values[k] ?? [];
        const d = defs[j]!;
        if (d.count === 1 && vs.length !== 1) throw bad(`${c.name}/${r.name ?? '#'}.${k}: a scalar field takes one value`);
        return vs.map((v) => encode(`${c.name}/${r.name ?? '#'}.${k}`, v));
      });
    };
    const o = order[ci]!;
    return {
      name: c.name,
      sortKey: hash(c.name),
      fields: defs.map((d) => ({ hash: d.name !== undefined ? hash(d.name) : d.hash!, type: d.type })),
      primaries: o.primaries.map((r) => ({ values: row(r) })),
      records: o.secondaries.map((r) => ({ name: r.name!, values: row(r) })),
    };
  });
  return buildGadb({ rootName, categories: build, unk14: build.reduce((s, c) => s + (c.primaries?.length ?? 0), 0) });
}
