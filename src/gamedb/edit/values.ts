/**
 * Field values as plain JavaScript, read from and written to a model's cells: the one codec the editor, diff,
 * patch and export code share. How a type decodes comes from the codec's type table (`GADB_TYPE_CODES[…]
 * .decoding`); this module switches on the decoding kind, never on type codes.
 *
 * Element shapes (one element; a field of count n ≠ 1 is an array of n elements):
 *   Bool → boolean · Float → number (f32) · Int → number (s32) · String/StringEnum → string ·
 *   Int64 → bigint · FloatPair → [a, b] · Vector3 → [x, y, z] · RecordLink → { category, index } | null
 *   (a cell that resolves nowhere → { raw }) · curves → [[time, value…], …] · Type9 → Uint8Array (item bytes).
 */
import { UsageError } from '../../binary/errors.ts';
import type { Gadb } from '../../formats/gadb/types.ts';
import type { GadbDecoding, GadbTypeInfo } from '../../formats/gadb/type-codes.ts';
import { NULL_LINK, type RecordField } from './model.ts';
import { latin1EncodeInto, latin1Issue } from '../../binary/text.ts';
import { decodeGadbBlockValue } from '../../formats/gadb/decode.ts';

/** A decoded link: a category ordinal and an index within it (primaries first), or null. */
export interface LinkValue {
  category: number;
  index: number;
}
/** A link cell that names no existing record (kept raw). */
export interface RawLink {
  raw: number;
}
export type CurveKey = number[];
export type ElementValue = boolean | number | string | bigint | number[] | CurveKey[] | LinkValue | RawLink | null | Uint8Array;

const f32buf = new Float32Array(1);
const u32buf = new Uint32Array(f32buf.buffer);

/** The f32 whose bits are `u`. */
export function f32FromBits(u: number): number {
  u32buf[0] = u;
  return f32buf[0]!;
}
/** The bits of `x` rounded to f32. */
export function f32Bits(x: number): number {
  f32buf[0] = x;
  return u32buf[0]!;
}


/** Decodes the block item at `key` per the type's decoding: the codec's one decoder (opaque bytes copied). */
export function decodeBlockValue(g: Gadb, decoding: GadbDecoding, key: number): ElementValue {
  const v = decodeGadbBlockValue(g.strings, decoding, key);
  return v instanceof Uint8Array ? v.slice() : v;
}

/** Encodes a block value to its item bytes (payload plus NUL padding to a multiple of 4). */
export function encodeBlockValue(decoding: GadbDecoding, value: ElementValue, where: string): Uint8Array {
  switch (decoding.kind) {
    case 'text': {
      if (typeof value !== 'string') throw new UsageError(`${where}: expected text, got ${describe(value)}`);
      const bad = latin1Issue(value, where, { nul: true });
      if (bad) throw new UsageError(`${where}: ${bad.message}`);
      const out = new Uint8Array((value.length + 1 + 3) & ~3);
      latin1EncodeInto(value, out, 0, { format: 'gadb', path: where });
      return out;
    }
    case 'fixed': {
      const out = new Uint8Array((decoding.size + 3) & ~3);
      const dv = new DataView(out.buffer);
      if (decoding.element === 'i64') {
        if (typeof value !== 'bigint') throw new UsageError(`${where}: expected a 64-bit integer, got ${describe(value)}`);
        dv.setBigInt64(0, BigInt.asIntN(64, value), true);
        return out;
      }
      if (!Array.isArray(value) || value.length !== decoding.count || !value.every((x) => typeof x === 'number')) {
        throw new UsageError(`${where}: expected ${decoding.count} numbers, got ${describe(value)}`);
      }
      for (let i = 0; i < decoding.count; i++) dv.setFloat32(4 * i, value[i] as number, true);
      return out;
    }
    case 'curve': {
      if (!Array.isArray(value)) throw new UsageError(`${where}: expected a list of curve keys, got ${describe(value)}`);
      const width = decoding.value === 'vec3' ? 4 : decoding.value === 'raw8' ? 3 : 2;
      const out = new Uint8Array(4 + value.length * decoding.keySize);
      const dv = new DataView(out.buffer);
      dv.setUint32(0, value.length, true);
      let p = 4;
      for (const k of value as unknown[]) {
        if (!Array.isArray(k) || k.length !== width || !k.every((x) => typeof x === 'number' && (Number.isFinite(x) || Number.isNaN(x)))) {
          throw new UsageError(`${where}: each curve key must be ${width} numbers [time, …], got ${describe(k)}`);
        }
        const key = k as number[];
        dv.setFloat32(p, key[0]!, true);
        switch (decoding.value) {
          case 'u32':
            dv.setUint32(p + 4, key[1]! >>> 0, true);
            break;
          case 'f32':
            dv.setFloat32(p + 4, key[1]!, true);
            break;
          case 'i32':
            dv.setInt32(p + 4, key[1]! | 0, true);
            break;
          case 'vec3':
            dv.setFloat32(p + 4, key[1]!, true);
            dv.setFloat32(p + 8, key[2]!, true);
            dv.setFloat32(p + 12, key[3]!, true);
            break;
          case 'raw8':
            dv.setUint32(p + 4, key[1]! >>> 0, true);
            dv.setUint32(p + 8, key[2]! >>> 0, true);
            break;
        }
        p += decoding.keySize;
      }
      return out;
    }
    case 'opaque': {
      if (!(value instanceof Uint8Array) || value.length % 4 !== 0) throw new UsageError(`${where}: expected raw bytes (a multiple of 4), got ${describe(value)}`);
      return value.slice();
    }
    default:
      throw new Error(`encodeBlockValue: ${decoding.kind} is not a block decoding`);
  }
}

/** Decodes a link cell against the model's categories (H-PRIM-FIRST: primaries first, then secondaries). */
export function decodeLink(g: Gadb, cell: number): LinkValue | RawLink | null {
  if (cell === NULL_LINK) return null;
  const category = cell >>> 20;
  const index = cell & 0xfffff;
  const cat = g.categories[category];
  if (!cat || index >= cat.primaryCount + cat.secondaryCount) return { raw: cell };
  return { category, index };
}

/** Reads element `i` of field `f` of the record whose first cell is `base`. */
export function readElement(g: Gadb, f: RecordField, base: number, i: number): ElementValue {
  const info = f.info;
  if (!info) return g.cells[base + f.link + i]!;
  const d = info.decoding;
  if (d.kind === 'bool') {
    const bit = f.link + i;
    return ((g.cells[base + (bit >>> 5)]! >>> (bit & 31)) & 1) === 1;
  }
  const cell = g.cells[base + f.link + i]!;
  switch (d.kind) {
    case 'f32':
      return f32FromBits(cell);
    case 'i32':
      return cell | 0;
    case 'link':
      return decodeLink(g, cell);
    default:
      return decodeBlockValue(g, d, cell);
  }
}

/** Reads a whole field: the element for count 1, an array of elements otherwise. */
export function readField(g: Gadb, f: RecordField, base: number): ElementValue | ElementValue[] {
  if (f.count === 1) return readElement(g, f, base, 0);
  const out: ElementValue[] = [];
  for (let i = 0; i < f.count; i++) out.push(readElement(g, f, base, i));
  return out;
}

/** Cell indexes (relative to the record) a field claims; for Bools the word(s) holding its bits. */
export function fieldCells(f: RecordField): number[] {
  if (f.info?.decoding.kind === 'bool') {
    const out = new Set<number>();
    for (let i = 0; i < f.count; i++) out.add((f.link + i) >>> 5);
    return [...out];
  }
  return Array.from({ length: f.count }, (_, i) => f.link + i);
}

export function describe(v: unknown): string {
  if (typeof v === 'bigint') return `${v}n`;
  if (v instanceof Uint8Array) return `<${v.length} bytes>`;
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
}

/** Default element for a new array slot: false, 0, "", null link, empty curve, zeros. */
export function defaultElement(info: GadbTypeInfo | undefined): ElementValue {
  if (!info) return 0;
  const d = info.decoding;
  switch (d.kind) {
    case 'bool':
      return false;
    case 'f32':
    case 'i32':
      return 0;
    case 'text':
      return '';
    case 'fixed':
      return d.element === 'i64' ? 0n : new Array<number>(d.count).fill(0);
    case 'curve':
      return [];
    case 'link':
      return null;
    case 'opaque':
      return new Uint8Array(0);
  }
}

/** Structural equality of two decoded element values (numbers by `Object.is`, so -0 ≠ 0). */
export function elementsEqual(a: ElementValue, b: ElementValue): boolean {
  if (typeof a === 'number' || typeof b === 'number') return Object.is(a, b);
  if (a === b) return true;
  if (a === null || b === null) return false;
  if (a instanceof Uint8Array || b instanceof Uint8Array) {
    if (!(a instanceof Uint8Array && b instanceof Uint8Array) || a.length !== b.length) return false;
    return a.every((x, i) => x === b[i]);
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!elementsEqual(a[i] as ElementValue, b[i] as ElementValue)) return false;
    return true;
  }
  if (typeof a === 'object' && typeof b === 'object') {
    if ('raw' in a || 'raw' in b) return 'raw' in a && 'raw' in b && a.raw === b.raw;
    if (Array.isArray(a) || Array.isArray(b)) return false;
    return (a as LinkValue).category === (b as LinkValue).category && (a as LinkValue).index === (b as LinkValue).index;
  }
  return false;
}
