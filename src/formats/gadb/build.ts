/**
 * `buildGadb`: a consistent model from a friendly description (names, fields, per-record values). It interns
 * values once per kind, derives each record's run from its element counts (one run per distinct layout, shared by
 * the records that have it), applies the slot rule and packs Bools. Used by tests and small generators.
 *
 * It does not sort: give categories in ascending P919(name) order and secondaries in ascending P919(name) order
 * (`verifyGadb` reports otherwise). RecordLink values are raw cells (`encodeGadbLink`).
 */
import { ConsistencyError } from '../../binary/errors.ts';
import { gadbFloatToCell } from './decode.ts';
import { assignGadbSlots, DEFAULT_GADB_FLAGGED_ORDER, type GadbFlaggedOrder } from './slots.ts';
import { GADB_FORMAT, parseGadb } from './parse.ts';
import { writeGadb } from './write.ts';
import { gadbTypeInfo } from './type-codes.ts';
import { GadbItemKind, type Gadb, type GadbCategory, type GadbContainer } from './types.ts';
import { cstringEncode, latin1Decode } from '../../binary/text.ts';

/** One element value: Bool boolean; Float/Int number; text string; Int64 bigint; FloatPair/Vector3 number[]; curves rows `[t, …v]`; type 9 bytes; RecordLink (and unknown codes) the raw cell. */
export type GadbBuildValue = boolean | number | string | bigint | number[] | number[][] | Uint8Array;

/** A declared field of a record type. */
export interface GadbBuildField {
  /** P919 of the field name. */
  hash: number;
  /** Type byte (0x44 for a resource-path String). */
  type: number;
  /** Schema ordinal (default: the declaration index). */
  ordinal?: number;
}

/** One record: for each declared field, its elements (an empty array = count 0). */
export interface GadbBuildRecord {
  /** Record name (secondaries only). */
  name?: string;
  values: GadbBuildValue[][];
  /** Header byte +0x0B (default 0x08, as in every sample record). */
  flags?: number;
  /** Header byte +0x0A (default 0). */
  unk0A?: number;
}

export interface GadbBuildCategory {
  name: string;
  /** +0x04 string (default: the name). */
  typeName?: string;
  /** +0x08 string (default: ""). */
  unk08?: string;
  /** Sort key (default: computed by the caller; required). */
  sortKey: number;
  fields: GadbBuildField[];
  primaries?: GadbBuildRecord[];
  records: GadbBuildRecord[];
}

export interface GadbBuildInput {
  rootName: string;
  container?: GadbContainer;
  categories: GadbBuildCategory[];
  unk14?: number;
  unk20?: number;
  unk24?: number;
  valueSectionUnk00?: number;
  /** Flattened (u32, u32) pairs of the trailer. */
  pairs?: number[];
  /** Slot order for flagged type codes (H-SLOT-FLAGGED). */
  flaggedOrder?: GadbFlaggedOrder;
  /** Return the model as `parseGadb(writeGadb(m))` would (default true): canonical keys and header sizes. */
  canonical?: boolean;
}

function bad(message: string): ConsistencyError {
  return new ConsistencyError(GADB_FORMAT, [{ rule: 'build.value', message, severity: 'error' }]);
}

class Pool {
  private chunks: Uint8Array[] = [];
  readonly keys: number[] = [];
  readonly sizes: number[] = [];
  size = 0;
  private readonly seen = new Map<string, number>();
  intern(kind: number, payload: Uint8Array, padTo4: boolean): number {
    const id = String.fromCharCode(kind) + ':' + latin1Decode(payload);
    const hit = this.seen.get(id);
    if (hit !== undefined) return hit;
    const key = this.size;
    const padded = padTo4 ? (payload.length + 3) & ~3 : payload.length;
    const b = new Uint8Array(padded);
    b.set(payload);
    this.chunks.push(b);
    this.keys.push(key);
    this.sizes.push(padded);
    this.size += padded;
    this.seen.set(id, key);
    return key;
  }
  text(s: string): number {
    return this.intern(GadbItemKind.Text, cstringEncode(s, { format: GADB_FORMAT, path: '/strings' }), true);
  }
  bytes(): Uint8Array {
    const out = new Uint8Array(this.size);
    let at = 0;
    for (const c of this.chunks) {
      out.set(c, at);
      at += c.length;
    }
    return out;
  }
}

function floats(values: readonly number[]): Uint8Array {
  const b = new Uint8Array(values.length * 4);
  const dv = new DataView(b.buffer);
  values.forEach((v, i) => dv.setFloat32(i * 4, v, true));
  return b;
}

/** Builds a consistent model; throws a `ConsistencyError` for a value that does not fit its field's type. */
export function buildGadb(input: GadbBuildInput): Gadb {
  const pool = new Pool();
  const rootKey = pool.text(input.rootName);
  if (rootKey !== 0) throw new Error('root name must be the first item');
  const order = input.flaggedOrder ?? DEFAULT_GADB_FLAGGED_ORDER;

  const desc = { declaredHash: [] as number[], sortedHash: [] as number[], schemaOrdinal: [] as number[], sortedToDeclared: [] as number[], typeCode: [] as number[], elementCount: [] as number[], link: [] as number[] };
  const rec = { nameKey: [] as number[], cellCount: [] as number[], descriptorCount: [] as number[], firstDescriptor: [] as number[], unk0A: [] as number[], flags: [] as number[] };
  const cells: number[] = [];
  const categories: GadbCategory[] = [];
  let secondaries = 0;

  for (const cat of input.categories) {
    const entry: GadbCategory = {
      nameKey: pool.text(cat.name),
      typeNameKey: pool.text(cat.typeName ?? cat.name),
      unk08Key: pool.text(cat.unk08 ?? ''),
      primaryCount: cat.primaries?.length ?? 0,
      secondaryCount: cat.records.length,
      sortKey: cat.sortKey >>> 0,
    };
    categories.push(entry);
    const runs = new Map<string, { first: number; links: number[]; cellCount: number }>();
    const all = [...(cat.primaries ?? []).map((r) => [r, true] as const), ...cat.records.map((r) => [r, false] as const)];
    for (const [r, primary] of all) {
      if (r.values.length !== cat.fields.length) throw bad(`record ${r.name ?? '(primary)'} of ${cat.name} has ${r.values.length} value lists for ${cat.fields.length} fields`);
      const counts = r.values.map((v) => v.length);
      const runKey = counts.join(',');
      let run = runs.get(runKey);
      if (!run) {
        if (cat.fields.length === 0) {
          run = { first: 0, links: [], cellCount: 0 };
        } else {
          const a = assignGadbSlots(cat.fields.map((f, j) => ({ hash: f.hash >>> 0, typeByte: f.type, count: counts[j]! })), order);
          const first = desc.declaredHash.length;
          const sorted = cat.fields.map((f, j) => [f.hash >>> 0, j] as const).sort((x, y) => x[0] - y[0]);
          cat.fields.forEach((f, j) => {
            desc.declaredHash.push(f.hash >>> 0);
            desc.sortedHash.push(sorted[j]![0]);
            desc.sortedToDeclared.push(sorted[j]![1]);
            desc.schemaOrdinal.push(f.ordinal ?? j);
            desc.typeCode.push(f.type);
            desc.elementCount.push(counts[j]!);
            desc.link.push(a.links[j]!);
          });
          run = { first, links: a.links, cellCount: a.cellCount };
        }
        runs.set(runKey, run);
      }
      rec.nameKey.push(primary ? 0 : pool.text(r.name ?? ''));
      if (!primary) secondaries++;
      rec.cellCount.push(run.cellCount);
      rec.descriptorCount.push(cat.fields.length);
      rec.firstDescriptor.push(run.first);
      rec.unk0A.push(r.unk0A ?? 0);
      rec.flags.push(r.flags ?? 0x08);
      const base = cells.length;
      for (let k = 0; k < run.cellCount; k++) cells.push(0);
      cat.fields.forEach((f, j) => {
        const values = r.values[j]!;
        values.forEach((v, e) => {
          const slot = run.links[j]! + e;
          const info = gadbTypeInfo(f.type);
          if (info?.storage === 'bit') {
            if (typeof v !== 'boolean') throw bad(`field 0x${f.hash.toString(16)} expects booleans`);
            if (v) cells[base + (slot >>> 5)] = (cells[base + (slot >>> 5)]! | (1 << (slot & 31))) >>> 0;
            return;
          }
          cells[base + slot] = encodeValue(pool, f, v) >>> 0;
        });
      });
    }
  }

  const g: Gadb = {
    container: input.container ?? { kind: 'bare' },
    header: {
      version: 17,
      stringBlockSize: pool.size,
      categoryCount: categories.length,
      recordCount: secondaries,
      unk14: input.unk14 ?? 0,
      cellCount: cells.length,
      descriptorCount: desc.declaredHash.length,
      unk20: input.unk20 ?? 0,
      unk24: input.unk24 ?? 0,
      headerSize: 0x2c,
      headerStringLength: 0,
    },
    headerExtra: new Uint8Array(0),
    headerString: new Uint8Array(0),
    strings: { data: new Uint8Array(0), itemKeys: new Uint32Array(0), itemSizes: new Uint32Array(0) },
    descriptors: {
      count: desc.declaredHash.length,
      declaredHash: Uint32Array.from(desc.declaredHash),
      sortedHash: Uint32Array.from(desc.sortedHash),
      schemaOrdinal: Uint8Array.from(desc.schemaOrdinal),
      sortedToDeclared: Uint8Array.from(desc.sortedToDeclared),
      typeCode: Uint8Array.from(desc.typeCode),
      elementCount: Uint16Array.from(desc.elementCount),
      link: Uint16Array.from(desc.link),
    },
    valueSectionUnk00: input.valueSectionUnk00 ?? 0,
    categories,
    records: {
      count: rec.nameKey.length,
      nameKey: Uint32Array.from(rec.nameKey),
      cellCount: Uint16Array.from(rec.cellCount),
      descriptorCount: Uint8Array.from(rec.descriptorCount),
      firstDescriptor: Uint32Array.from(rec.firstDescriptor),
      unk0A: Uint8Array.from(rec.unk0A),
      flags: Uint8Array.from(rec.flags),
    },
    cells: Uint32Array.from(cells),
    pairs: Uint32Array.from(input.pairs ?? []),
  };
  g.strings = { data: pool.bytes(), itemKeys: Uint32Array.from(pool.keys), itemSizes: Uint32Array.from(pool.sizes) };
  return input.canonical === false ? g : parseGadb(writeGadb(g));
}

function encodeValue(pool: Pool, f: GadbBuildField, v: GadbBuildValue): number {
  const info = gadbTypeInfo(f.type);
  const where = `field 0x${(f.hash >>> 0).toString(16)} (type 0x${f.type.toString(16)})`;
  if (!info) {
    if (typeof v !== 'number') throw bad(`${where}: unknown type codes take raw numbers`);
    return v;
  }
  const d = info.decoding;
  switch (d.kind) {
    case 'f32':
      if (typeof v !== 'number') throw bad(`${where} expects a number`);
      return gadbFloatToCell(v);
    case 'i32':
    case 'link':
      if (typeof v !== 'number') throw bad(`${where} expects a number`);
      return v | 0;
    case 'text':
      if (typeof v !== 'string') throw bad(`${where} expects a string`);
      return pool.text(v);
    case 'fixed':
      if (d.element === 'i64') {
        if (typeof v !== 'bigint') throw bad(`${where} expects a bigint`);
        const b = new Uint8Array(8);
        new DataView(b.buffer).setBigInt64(0, v, true);
        return pool.intern(info.itemKind, b, true);
      }
      if (!Array.isArray(v) || v.length !== d.count || v.some((x) => typeof x !== 'number')) throw bad(`${where} expects ${d.count} numbers`);
      return pool.intern(info.itemKind, floats(v as number[]), true);
    case 'opaque':
      if (!(v instanceof Uint8Array) || v.length === 0 || v.length % 4 !== 0) throw bad(`${where} expects bytes, a non-zero multiple of 4`);
      return pool.intern(info.itemKind, v, true);
    case 'curve': {
      if (!Array.isArray(v)) throw bad(`${where} expects curve rows`);
      const rows = v as number[][];
      const b = new Uint8Array(4 + rows.length * d.keySize);
      const dv = new DataView(b.buffer);
      dv.setUint32(0, rows.length, true);
      rows.forEach((row, i) => {
        const p = 4 + i * d.keySize;
        dv.setFloat32(p, row[0] ?? 0, true);
        if (d.value === 'f32' || d.value === 'vec3') for (let k = 1; k < d.keySize / 4; k++) dv.setFloat32(p + k * 4, row[k] ?? 0, true);
        else if (d.value === 'i32') dv.setInt32(p + 4, row[1] ?? 0, true);
        else for (let k = 1; k < d.keySize / 4; k++) dv.setUint32(p + k * 4, (row[k] ?? 0) >>> 0, true);
      });
      return pool.intern(info.itemKind, b, true);
    }
    default:
      throw bad(`${where}: Bool values are packed separately`);
  }
}
