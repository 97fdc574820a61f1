/**
 * A small, independent builder of GADB models for tests: categories, primaries and secondaries with typed fields,
 * laid out by the spec's rules written out here (sort keys = P919 of names, secondaries by P919 of their names,
 * Bools first as bits by hash, then the other fields by type code and hash, `count` cells each). It does not use
 * the codec's slot or layout code, so a test that writes the model with `writeGadb` and reads it back through
 * `Database.open` checks both sides against this second reading of the spec.
 */
import { DEFAULT_P919_TABLE, p919, type P919Table } from '../../src/hash/p919.ts';
import type { Gadb } from '../../src/formats/gadb/types.ts';

/** A value to store. Links name a target by category and index (primaries first), or give the raw word. */
export type SpecValue =
  | boolean
  | number
  | bigint
  | string
  | readonly number[]
  | { curve: ReadonlyArray<readonly [number, ...number[]]> }
  | { link: { category: string; index: number } | null }
  | { raw: number }
  | { bytes: Uint8Array };

export interface FieldSpec {
  name: string;
  type: number;
  /** One value per element; `[]` gives a count-0 field. */
  values: readonly SpecValue[];
}

export interface RecordSpec {
  /** Omitted for a primary. */
  name?: string;
  fields: readonly FieldSpec[];
}

export interface CategorySpec {
  name: string;
  typeName?: string;
  primaries?: readonly RecordSpec[];
  records: readonly RecordSpec[];
}

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
const floatBits = (x: number) => ((f32[0] = x), u32[0]!);

/** Curve key sizes by type (spec §3.7). */
const CURVE_KEY: Record<number, number> = { 12: 8, 13: 8, 14: 12, 15: 8, 16: 16 };

export function buildGadb(spec: { root?: string; categories: readonly CategorySpec[]; table?: P919Table }): Gadb {
  const table = spec.table ?? DEFAULT_P919_TABLE;
  const hash = (s: string) => p919(s, { table });
  const bytes: number[] = [];
  const itemKeys: number[] = [];
  const itemSizes: number[] = [];
  const interned = new Map<string, number>();
  const addItem = (kind: string, payload: Uint8Array): number => {
    const id = kind + ':' + Array.from(payload).join(',');
    const known = interned.get(id);
    if (known !== undefined) return known;
    const key = bytes.length;
    bytes.push(...payload);
    while (bytes.length % 4 !== 0) bytes.push(0);
    itemKeys.push(key);
    itemSizes.push(bytes.length - key);
    interned.set(id, key);
    return key;
  };
  const text = (s: string) => addItem('text', new Uint8Array([...new TextEncoder().encode(s), 0]));
  const le = (words: number[], floats = false) => {
    const out = new Uint8Array(words.length * 4);
    const dv = new DataView(out.buffer);
    words.forEach((w, i) => (floats ? dv.setFloat32(i * 4, w, true) : dv.setUint32(i * 4, w >>> 0, true)));
    return out;
  };
  text(spec.root ?? 'GameDatabase');

  const cats = [...spec.categories].sort((a, b) => hash(a.name) - hash(b.name));
  const ordinal = new Map(cats.map((c, i) => [c.name, i]));
  const sortedSecondaries = cats.map((c) => [...c.records].sort((a, b) => hash(a.name!) - hash(b.name!)));

  const d = { declaredHash: [] as number[], sortedHash: [] as number[], schemaOrdinal: [] as number[], sortedToDeclared: [] as number[], typeCode: [] as number[], elementCount: [] as number[], link: [] as number[] };
  const rec = { nameKey: [] as number[], cellCount: [] as number[], descriptorCount: [] as number[], firstDescriptor: [] as number[] };
  const cells: number[] = [];

  const encode = (field: FieldSpec, v: SpecValue): number => {
    if (typeof v === 'object' && v !== null && 'raw' in v) return v.raw >>> 0;
    const base = field.type & 0x3f;
    switch (base) {
      case 2:
        return floatBits(v as number);
      case 3:
        return (v as number) >>> 0;
      case 4:
      case 5:
        return text(v as string);
      case 6: {
        const b = new Uint8Array(8);
        new DataView(b.buffer).setBigInt64(0, v as bigint, true);
        return addItem('i64', b);
      }
      case 7:
        return addItem('pair', le(v as number[], true));
      case 8:
        return addItem('vec3', le(v as number[], true));
      case 9:
        return addItem('type9', (v as { bytes: Uint8Array }).bytes);
      case 10:
      case 11: {
        const l = (v as { link: { category: string; index: number } | null }).link;
        return l === null ? 0xffffffff : ((ordinal.get(l.category)! << 20) | l.index) >>> 0;
      }
      default: {
        const keys = (v as { curve: ReadonlyArray<readonly number[]> }).curve;
        const size = CURVE_KEY[base]!;
        const out = new Uint8Array(4 + keys.length * size);
        const dv = new DataView(out.buffer);
        dv.setUint32(0, keys.length, true);
        keys.forEach((k, i) => {
          dv.setFloat32(4 + i * size, k[0]!, true);
          for (let j = 1; j < k.length; j++) {
            if (base === 13 || base === 16) dv.setFloat32(4 + i * size + j * 4, k[j]!, true);
            else dv.setUint32(4 + i * size + j * 4, k[j]! >>> 0, true);
          }
        });
        return addItem(`curve${base}`, out);
      }
    }
  };

  const addRecord = (r: RecordSpec, isPrimary: boolean) => {
    rec.nameKey.push(isPrimary ? 0 : text(r.name!));
    const first = r.fields.length === 0 ? 0 : d.declaredHash.length;
    const hashes = r.fields.map((f) => hash(f.name));
    // Slot rule (spec §3.6): Bools by hash as bit indexes, then the others by (type byte, hash), count cells each.
    const order = r.fields.map((_, i) => i);
    const bools = order.filter((i) => (r.fields[i]!.type & 0x3f) === 1).sort((a, b) => hashes[a]! - hashes[b]!);
    const others = order.filter((i) => (r.fields[i]!.type & 0x3f) !== 1).sort((a, b) => r.fields[a]!.type - r.fields[b]!.type || hashes[a]! - hashes[b]!);
    const links = new Array<number>(r.fields.length).fill(0);
    let bit = 0;
    for (const i of bools) {
      links[i] = bit;
      bit += r.fields[i]!.values.length;
    }
    let cell = Math.ceil(bit / 32);
    for (const i of others) {
      links[i] = cell;
      cell += r.fields[i]!.values.length;
    }
    const own = new Array<number>(cell).fill(0);
    r.fields.forEach((f, i) => {
      f.values.forEach((v, e) => {
        if ((f.type & 0x3f) === 1) {
          const b = links[i]! + e;
          if (v) own[b >>> 5] = (own[b >>> 5]! | (1 << (b & 31))) >>> 0;
        } else own[links[i]! + e] = encode(f, v);
      });
    });
    const sorted = order.slice().sort((a, b) => hashes[a]! - hashes[b]!);
    r.fields.forEach((f, i) => {
      d.declaredHash.push(hashes[i]!);
      d.sortedHash.push(hashes[sorted[i]!]!);
      d.sortedToDeclared.push(sorted[i]!);
      d.schemaOrdinal.push(i);
      d.typeCode.push(f.type);
      d.elementCount.push(f.values.length);
      d.link.push(links[i]!);
    });
    rec.cellCount.push(cell);
    rec.descriptorCount.push(r.fields.length);
    rec.firstDescriptor.push(first);
    cells.push(...own);
  };

  const categories = cats.map((c, ci) => {
    const nameKey = text(c.name);
    const typeNameKey = text(c.typeName ?? c.name);
    const unk08Key = text('');
    for (const p of c.primaries ?? []) addRecord(p, true);
    for (const r of sortedSecondaries[ci]!) addRecord(r, false);
    return { nameKey, typeNameKey, unk08Key, primaryCount: c.primaries?.length ?? 0, secondaryCount: c.records.length, sortKey: hash(c.name) };
  });

  const n = rec.nameKey.length;
  const secondaries = cats.reduce((s, c) => s + c.records.length, 0);
  return {
    container: { kind: 'bare' },
    header: {
      version: 17,
      stringBlockSize: bytes.length,
      categoryCount: categories.length,
      recordCount: secondaries,
      unk14: 0,
      cellCount: cells.length,
      descriptorCount: d.declaredHash.length,
      unk20: 0,
      unk24: 0,
      headerSize: 0x2c,
      headerStringLength: 0,
    },
    headerExtra: new Uint8Array(0),
    headerString: new Uint8Array(0),
    strings: { data: Uint8Array.from(bytes), itemKeys: Uint32Array.from(itemKeys), itemSizes: Uint32Array.from(itemSizes) },
    descriptors: {
      count: d.declaredHash.length,
      declaredHash: Uint32Array.from(d.declaredHash),
      sortedHash: Uint32Array.from(d.sortedHash),
      schemaOrdinal: Uint8Array.from(d.schemaOrdinal),
      sortedToDeclared: Uint8Array.from(d.sortedToDeclared),
      typeCode: Uint8Array.from(d.typeCode),
      elementCount: Uint16Array.from(d.elementCount),
      link: Uint16Array.from(d.link),
    },
    valueSectionUnk00: 0,
    categories,
    records: {
      count: n,
      nameKey: Uint32Array.from(rec.nameKey),
      cellCount: Uint16Array.from(rec.cellCount),
      descriptorCount: Uint8Array.from(rec.descriptorCount),
      firstDescriptor: Uint32Array.from(rec.firstDescriptor),
      unk0A: new Uint8Array(n),
      flags: new Uint8Array(n).fill(8),
    },
    cells: Uint32Array.from(cells),
    pairs: new Uint32Array(0),
  };
}
