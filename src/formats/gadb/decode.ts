/**
 * Low-level value decoding for the `Database` layer and tools: one cell, or one string-block item, at a time.
 * Nothing here allocates per cell beyond the returned value. Malformed items (a missing NUL, a curve whose key
 * count runs past its item) raise a `FormatError` whose offset is the item's **string-block** offset (sb+n) and
 * whose path is `/strings@0x…`.
 *
 * The type table (`type-codes.ts`) decides which helper applies to a field: `decodeGadbElement` does the dispatch.
 */
import { ConsistencyError, FormatError } from '../../binary/errors.ts';
import { GADB_FORMAT } from './parse.ts';
import { gadbTypeInfo, type GadbDecoding } from './type-codes.ts';
import type { Gadb, GadbIndex, GadbStringBlock } from './types.ts';
import { latin1Decode } from '../../binary/text.ts';

const scratch = new DataView(new ArrayBuffer(4));

/** A Float cell (its raw u32 bits) as a number. */
export function gadbCellToFloat(raw: number): number {
  scratch.setUint32(0, raw >>> 0, true);
  return scratch.getFloat32(0, true);
}

/** The raw u32 bits of a Float cell holding `value` (rounded to f32). */
export function gadbFloatToCell(value: number): number {
  scratch.setFloat32(0, value, true);
  return scratch.getUint32(0, true);
}

/** An Int cell (raw u32) as a signed 32-bit number. */
export function gadbCellToInt(raw: number): number {
  return raw | 0;
}

/** Bool `bitIndex` of a record whose cells start at `cellStart`: bit `bitIndex & 31` of cell `bitIndex >> 5` [V]. */
export function readGadbBool(cells: Uint32Array, cellStart: number, bitIndex: number): boolean {
  return ((cells[cellStart + (bitIndex >>> 5)]! >>> (bitIndex & 31)) & 1) === 1;
}

/** The null RecordLink. */
export const GADB_NULL_LINK = 0xffffffff;

/** A decoded non-null RecordLink cell: `(categoryOrdinal << 20) | index` [V]. */
export interface GadbLink {
  raw: number;
  /** Category position in file (sort-key) order. */
  categoryOrdinal: number;
  /** Record index within the category: primaries first, then secondaries (H-PRIM-FIRST). */
  index: number;
}

/** Decodes a RecordLink cell; `null` for 0xFFFFFFFF (0 is a real link: category 0, record 0). */
export function decodeGadbLink(raw: number): GadbLink | null {
  const v = raw >>> 0;
  if (v === GADB_NULL_LINK) return null;
  return { raw: v, categoryOrdinal: v >>> 20, index: v & 0xfffff };
}

/** Encodes a RecordLink cell (category ordinal below 4096, index below 2^20). */
export function encodeGadbLink(categoryOrdinal: number, index: number): number {
  if (!Number.isInteger(categoryOrdinal) || !Number.isInteger(index) || categoryOrdinal < 0 || categoryOrdinal > 0xfff || index < 0 || index > 0xfffff) {
    throw new ConsistencyError(GADB_FORMAT, [{ rule: 'links.encode', message: `record link (${categoryOrdinal}, ${index}) does not fit 12 + 20 bits`, severity: 'error' }]);
  }
  return ((categoryOrdinal << 20) | index) >>> 0;
}

/** Where a link lands, the way the engine's loader resolves it (seed "Loading"; H-PRIM-FIRST). */
export type GadbLinkTarget =
  | { kind: 'null' }
  /** Category or index out of range: the engine reads null. */
  | { kind: 'dangling'; categoryOrdinal: number; index: number }
  | { kind: 'primary' | 'secondary'; categoryOrdinal: number; index: number; /** Index among the category's primaries / secondaries. */ sideIndex: number; /** Global record index (file order). */ record: number };

/** Resolves a link cell against the model: category past the table, or index past primaries + secondaries, is `dangling`. */
export function resolveGadbLink(g: Gadb, index: GadbIndex, raw: number): GadbLinkTarget {
  const link = decodeGadbLink(raw);
  if (!link) return { kind: 'null' };
  const cat = g.categories[link.categoryOrdinal];
  if (!cat || link.index >= cat.primaryCount + cat.secondaryCount) return { kind: 'dangling', categoryOrdinal: link.categoryOrdinal, index: link.index };
  const record = index.categoryFirstRecord[link.categoryOrdinal]! + link.index;
  if (link.index < cat.primaryCount) return { kind: 'primary', categoryOrdinal: link.categoryOrdinal, index: link.index, sideIndex: link.index, record };
  return { kind: 'secondary', categoryOrdinal: link.categoryOrdinal, index: link.index, sideIndex: link.index - cat.primaryCount, record };
}

/** Index of the item whose key is `key` (binary search), or -1. */
export function findGadbItem(strings: GadbStringBlock, key: number): number {
  const keys = strings.itemKeys;
  let lo = 0;
  let hi = keys.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const k = keys[mid]!;
    if (k === key) return mid;
    if (k < key) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

function itemError(key: number, reason: string): FormatError {
  return new FormatError(GADB_FORMAT, key >>> 0, `/strings@0x${(key >>> 0).toString(16)}`, reason, { actual: key });
}

/** The bytes of the item `key` (payload and padding; a view into the model). Throws when `key` is not an item. */
export function gadbItemBytes(strings: GadbStringBlock, key: number): Uint8Array {
  const i = findGadbItem(strings, key);
  if (i < 0) throw itemError(key, `no string-block item starts at offset ${key >>> 0}`);
  return strings.data.subarray(key, key + strings.itemSizes[i]!);
}

/** The text bytes (without NUL) of a text item. */
export function decodeGadbTextBytes(strings: GadbStringBlock, key: number): Uint8Array {
  const b = gadbItemBytes(strings, key);
  const end = b.indexOf(0);
  if (end < 0) throw itemError(key, 'text item has no NUL terminator');
  return b.subarray(0, end);
}

/** A text item as a string (one char per byte, Latin-1: reversible; every known name is ASCII). */
export function decodeGadbText(strings: GadbStringBlock, key: number): string {
  return latin1Decode(decodeGadbTextBytes(strings, key));
}

function view(b: Uint8Array): DataView {
  return new DataView(b.buffer, b.byteOffset, b.byteLength);
}

function needSize(key: number, b: Uint8Array, size: number, what: string): void {
  if (b.byteLength < size) throw itemError(key, `${what} needs ${size} bytes, the item has ${b.byteLength}`);
}

/** `count` f32 values at the start of item `key` (Vector3: 3, float pair: 2, H-TYPE-7). */
export function decodeGadbFloats(strings: GadbStringBlock, key: number, count: number): number[] {
  const b = gadbItemBytes(strings, key);
  needSize(key, b, count * 4, `${count} floats`);
  const dv = view(b);
  const out: number[] = new Array<number>(count);
  for (let i = 0; i < count; i++) out[i] = dv.getFloat32(i * 4, true);
  return out;
}

/** An Int64 item (H-TYPE-6). */
export function decodeGadbInt64(strings: GadbStringBlock, key: number): bigint {
  const b = gadbItemBytes(strings, key);
  needSize(key, b, 8, 'an int64');
  return view(b).getBigInt64(0, true);
}

/**
 * A curve item: u32 key count n, then n keys of f32 time + value. Returned as rows `[time, …value]`: ColorCurve
 * `[t, colour u32]` (byte order unknown, H-COLOR-ORDER), FloatCurve `[t, f]`, IntCurve `[t, i]`, Vector3Curve
 * `[t, x, y, z]`, type 14 `[t, u32, u32]` (value kind unknown, H-TYPE-14).
 */
export function decodeGadbCurve(strings: GadbStringBlock, key: number, typeByte: number): number[][] {
  const info = gadbTypeInfo(typeByte);
  if (!info || info.decoding.kind !== 'curve') throw new Error(`type 0x${typeByte.toString(16)} is not a curve`);
  return decodeGadbCurveItem(strings, key, info.decoding);
}

/** The curve item at `key` decoded per a curve decoding of the type table (see `decodeGadbCurve`). */
export function decodeGadbCurveItem(strings: GadbStringBlock, key: number, decoding: Extract<GadbDecoding, { kind: 'curve' }>): number[][] {
  const { keySize, value } = decoding;
  const b = gadbItemBytes(strings, key);
  needSize(key, b, 4, 'a curve');
  const dv = view(b);
  const n = dv.getUint32(0, true);
  if (n > Math.floor((b.byteLength - 4) / keySize)) throw itemError(key, `curve of ${n} keys of ${keySize} bytes runs past its ${b.byteLength}-byte item`);
  const rows: number[][] = new Array<number[]>(n);
  for (let i = 0; i < n; i++) {
    const p = 4 + i * keySize;
    const t = dv.getFloat32(p, true);
    switch (value) {
      case 'u32':
        rows[i] = [t, dv.getUint32(p + 4, true)];
        break;
      case 'f32':
        rows[i] = [t, dv.getFloat32(p + 4, true)];
        break;
      case 'i32':
        rows[i] = [t, dv.getInt32(p + 4, true)];
        break;
      case 'vec3':
        rows[i] = [t, dv.getFloat32(p + 4, true), dv.getFloat32(p + 8, true), dv.getFloat32(p + 12, true)];
        break;
      case 'raw8':
        rows[i] = [t, dv.getUint32(p + 4, true), dv.getUint32(p + 8, true)];
        break;
    }
  }
  return rows;
}

/** A value stored in the string block: text, Int64, float tuple, curve rows, or an opaque item's bytes (a view). */
export type GadbBlockValue = string | bigint | number[] | number[][] | Uint8Array;

/**
 * The one decoder of string-block values: the item at `key` read per its type's decoding (`text`, `fixed`,
 * `curve`, `opaque`), bounded by the item (never by the end of the block). Throws a FormatError naming the key.
 */
export function decodeGadbBlockValue(strings: GadbStringBlock, decoding: GadbDecoding, key: number): GadbBlockValue {
  switch (decoding.kind) {
    case 'text':
      return decodeGadbText(strings, key);
    case 'fixed':
      return decoding.element === 'i64' ? decodeGadbInt64(strings, key) : decodeGadbFloats(strings, key, decoding.count);
    case 'curve':
      return decodeGadbCurveItem(strings, key, decoding);
    case 'opaque':
      return gadbItemBytes(strings, key);
    default:
      throw new Error(`decodeGadbBlockValue: ${decoding.kind} is not a string-block decoding`);
  }
}

/** Size in bytes a block value of this type must have when it starts with `firstWord` (curves: their count), or -1 when unknown (text, opaque). */
export function gadbBlockSize(typeByte: number, firstWord: number): number {
  const info = gadbTypeInfo(typeByte);
  if (!info) return -1;
  const d = info.decoding;
  if (d.kind === 'fixed') return d.size;
  if (d.kind === 'curve') return 4 + firstWord * d.keySize;
  return -1;
}

/**
 * One decoded element. Bool → boolean; Float, Int → number; String, StringEnum → string; Int64 → bigint;
 * FloatPair, Vector3 → number[]; curves → number[][]; type 9 → the item's bytes; RecordLink → `GadbLink | null`;
 * unknown type codes → the raw cell.
 */
export type GadbElement = boolean | number | string | bigint | number[] | number[][] | Uint8Array | GadbLink | null;

/**
 * Element `element` of the field described by descriptor row `descriptor` in `record`, by the slot rule [V]:
 * cell `link + element` (Bool: bit `link + element`), `undefined` when `element >= elementCount` (the engine
 * returns the caller's default). The caller picks the descriptor (by the record's own run).
 */
export function decodeGadbElement(g: Gadb, index: GadbIndex, record: number, descriptor: number, element = 0): GadbElement | undefined {
  const d = g.descriptors;
  if (element < 0 || element >= d.elementCount[descriptor]!) return undefined;
  const typeByte = d.typeCode[descriptor]!;
  const info = gadbTypeInfo(typeByte);
  const start = index.recordCellStart[record]!;
  const link = d.link[descriptor]! + element;
  if (info?.storage === 'bit') return readGadbBool(g.cells, start, link);
  if (link >= g.records.cellCount[record]!) {
    throw new FormatError(GADB_FORMAT, 0, `/records[${record}]/cells[${link}]`, `field slot ${link} is outside the record's ${g.records.cellCount[record]} cells`);
  }
  const raw = g.cells[start + link]!;
  if (!info) return raw;
  const dec = info.decoding;
  switch (dec.kind) {
    case 'f32':
      return gadbCellToFloat(raw);
    case 'i32':
      return gadbCellToInt(raw);
    case 'link':
      return decodeGadbLink(raw);
    case 'text':
    case 'fixed':
    case 'curve':
    case 'opaque':
      return decodeGadbBlockValue(g.strings, dec, raw);
    default:
      return raw;
  }
}
