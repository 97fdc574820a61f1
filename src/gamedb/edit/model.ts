/**
 * Model-level access shared by the editing, diff, patch and export code: record and category positions, names,
 * the fields of a record's own run, and string-block items. Works on the plain `Gadb` model of the codec
 * (`src/formats/gadb/types.ts`), so it runs in the browser.
 *
 * A record is addressed as (category ordinal, index within the category), the index counting the category's
 * primaries first, then its secondaries — the RecordLink numbering (H-PRIM-FIRST). A field is addressed by the
 * P919 hash of its name; its cells are found through the record's own run only (seed: "a cell is therefore found
 * through the record's own run, never through another record's").
 */
import { NotFoundError, UsageError } from '../../binary/errors.ts';
import { bytesToHex, findNonLatin1, latin1Decode, latin1Encode } from '../../binary/text.ts';
import type { Gadb } from '../../formats/gadb/types.ts';
import { findGadbItem } from '../../formats/gadb/decode.ts';
import { gadbCompactCells, gadbRecordCellStarts } from '../../formats/gadb/layout.ts';
import { gadbTypeInfo, GADB_TYPE_MASK, type GadbTypeInfo } from '../../formats/gadb/type-codes.ts';
import { p919, type P919Table } from '../../hash/p919.ts';

/** Positions derived from a model; rebuilt after every structural edit. */
export interface ModelIndex {
  /** `recordCellStart[r]` = index in `cells` of record r's first cell; length `records.count + 1`. */
  recordCellStart: Uint32Array;
  /** `categoryFirstRecord[c]` = absolute index of category c's first record; length `categories.length + 1`. */
  categoryFirstRecord: Uint32Array;
  /** Category ordinal of every record. */
  recordCategory: Uint32Array;
}

/** Builds the positions of every record and category (one pass over the record column). */
export function indexModel(g: Gadb): ModelIndex {
  const n = g.records.count;
  const recordCellStart = gadbRecordCellStarts(g);
  const categoryFirstRecord = new Uint32Array(g.categories.length + 1);
  const recordCategory = new Uint32Array(n);
  let r = 0;
  for (let c = 0; c < g.categories.length; c++) {
    categoryFirstRecord[c] = r;
    const cat = g.categories[c]!;
    const end = r + cat.primaryCount + cat.secondaryCount;
    recordCategory.fill(c, r, Math.min(end, n));
    r = end;
  }
  categoryFirstRecord[g.categories.length] = r;
  return { recordCellStart, categoryFirstRecord, recordCategory };
}

/**
 * A deep copy of a model that owns all its bytes, its records' cells back to back (no `records.cellStart`): the
 * editor's working copy. Editing it never changes the original, nor the input a parsed model views.
 */
export function cloneGadb(g: Gadb): Gadb {
  const { cells, strings, records, ...rest } = g;
  const { cellStart, ...columns } = records;
  const copy = structuredClone({ ...rest, records: columns }) as Gadb;
  copy.strings = { data: strings.data.slice(), itemKeys: strings.itemKeys.slice(), itemSizes: strings.itemSizes.slice() };
  copy.cells = gadbCompactCells(g);
  void cellStart;
  return copy;
}

/**
 * Makes `g` own its bytes, in place, before it is edited (copy on write): cells back to back in record order (a
 * parsed model's pool keeps the file's record headers between them) and the string block copied out of the
 * input. The model object stays the same; its arrays no longer share memory with anything.
 */
export function ownGadb(g: Gadb): void {
  g.cells = gadbCompactCells(g);
  delete g.records.cellStart;
  g.strings = { data: g.strings.data.slice(), itemKeys: g.strings.itemKeys.slice(), itemSizes: g.strings.itemSizes.slice() };
  g.headerExtra = g.headerExtra.slice();
  g.headerString = g.headerString.slice();
}

/**
 * The bytes a text is stored as in the block: Latin-1 (the codec's reading; identical to ASCII for every known
 * name). A char above U+00FF has no stored form: `undefined`, so a lookup by such a name finds nothing.
 */
export function textBytes(text: string): Uint8Array | undefined {
  return findNonLatin1(text) < 0 ? latin1Encode(text, { format: 'gadb', path: '/strings' }) : undefined;
}

/** The NUL-terminated text at block key `key` (raw bytes, a view). Stops at the end of the data if unterminated. */
export function blockTextBytes(g: Gadb, key: number): Uint8Array {
  const data = g.strings.data;
  if (key < 0 || key > data.length) return new Uint8Array(0);
  let end = data.indexOf(0, key);
  if (end < 0) end = data.length;
  return data.subarray(key, end);
}

/** The text at block key `key` (Latin-1, as the codec reads it). */
export function blockText(g: Gadb, key: number): string {
  return latin1Decode(blockTextBytes(g, key));
}

/** Index in `strings.itemKeys` of the item starting at `key`, or -1. */
export function itemIndexOfKey(g: Gadb, key: number): number {
  return findGadbItem(g.strings, key);
}

/** Bytes of the item at `key` including its padding (a view), or undefined when no item starts there. */
export function itemBytes(g: Gadb, key: number): Uint8Array | undefined {
  const i = itemIndexOfKey(g, key);
  if (i < 0) return undefined;
  return g.strings.data.subarray(key, key + g.strings.itemSizes[i]!);
}

/** Category name as text. */
export function categoryName(g: Gadb, c: number): string {
  return blockText(g, g.categories[c]!.nameKey);
}

/** Whether record `index` of category `c` is a primary (unnamed inline structure). */
export function isPrimary(g: Gadb, c: number, index: number): boolean {
  return index < g.categories[c]!.primaryCount;
}

/** Name of a record for display and addressing: its text for a secondary, `#index` for a primary. */
export function recordName(g: Gadb, ix: ModelIndex, c: number, index: number): string {
  if (isPrimary(g, c, index)) return `#${index}`;
  return blockText(g, g.records.nameKey[ix.categoryFirstRecord[c]! + index]!);
}

/** One declared field of a record's run. */
export interface RecordField {
  /** Declaration index within the run. */
  decl: number;
  /** Absolute descriptor row. */
  row: number;
  hash: number;
  typeByte: number;
  count: number;
  link: number;
  info: GadbTypeInfo | undefined;
}

/** The declared fields of record `r` (absolute index), in declaration order. */
export function recordFields(g: Gadb, r: number): RecordField[] {
  const d = g.descriptors;
  const first = g.records.firstDescriptor[r]!;
  const n = g.records.descriptorCount[r]!;
  const out: RecordField[] = [];
  for (let j = 0; j < n; j++) {
    const row = first + j;
    const typeByte = d.typeCode[row]!;
    out.push({ decl: j, row, hash: d.declaredHash[row]!, typeByte, count: d.elementCount[row]!, link: d.link[row]!, info: gadbTypeInfo(typeByte) });
  }
  return out;
}

/**
 * The declared field with hash `hash` in record `r`, found as the engine does: binary search of the run's sorted
 * column, then the permutation byte (+0x09). Undefined when the record does not declare it.
 */
export function findField(g: Gadb, r: number, hash: number): RecordField | undefined {
  const d = g.descriptors;
  const first = g.records.firstDescriptor[r]!;
  const n = g.records.descriptorCount[r]!;
  let lo = 0;
  let hi = n - 1;
  hash >>>= 0;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const h = d.sortedHash[first + mid]!;
    if (h === hash) {
      const decl = d.sortedToDeclared[first + mid]!;
      const row = first + decl;
      if (d.declaredHash[row] !== hash) break; // a broken permutation: fall back to a scan
      const typeByte = d.typeCode[row]!;
      return { decl, row, hash, typeByte, count: d.elementCount[row]!, link: d.link[row]!, info: gadbTypeInfo(typeByte) };
    }
    if (h < hash) lo = mid + 1;
    else hi = mid - 1;
  }
  for (let j = 0; j < n; j++) {
    if (d.declaredHash[first + j] === hash) return recordFields(g, r)[j];
  }
  return undefined;
}

/** The base type code (low 6 bits) of a field. */
export function baseType(f: RecordField): number {
  return f.typeByte & GADB_TYPE_MASK;
}

/** Hashes a name with P919, using a calibrated table when one is given. */
export type NameHasher = (name: string) => number;

/** The default hasher: P919 with the given (or built-in) table; throws a `HashError` for a character of unknown value. */
export function p919Hasher(table?: P919Table): NameHasher {
  return (name) => p919(name, table ? { table } : {});
}

/** Resolves field names and hashes; a `0x…` literal is always accepted. */
export interface FieldNamer {
  /** Name of a field hash, when known. */
  get(hash: number): string | undefined;
}

/** Parses `0x1234ABCD` as a hash, or undefined. */
export function parseHash(text: string): number | undefined {
  return /^0x[0-9a-f]{1,8}$/i.test(text) ? parseInt(text.slice(2), 16) >>> 0 : undefined;
}

/** Formats a hash as `0x%08X`. */
export function hashText(h: number): string {
  return '0x' + (h >>> 0).toString(16).toUpperCase().padStart(8, '0');
}

/** A field's display name: its known name, else `0x%08X`. */
export function fieldLabel(hash: number, namer?: FieldNamer): string {
  return namer?.get(hash) ?? hashText(hash);
}

/** Finds a category by exact name (text comparison, so names with characters of unknown P919 value work). */
export function findCategoryByName(g: Gadb, name: string): number {
  const want = textBytes(name);
  if (!want) return -1;
  for (let c = 0; c < g.categories.length; c++) {
    if (bytesEqual(blockTextBytes(g, g.categories[c]!.nameKey), want)) return c;
  }
  return -1;
}

/** Finds a record of category `c` by name (`#i` for record index i); returns the index within the category or -1. */
export function findRecordByName(g: Gadb, ix: ModelIndex, c: number, name: string): number {
  const cat = g.categories[c]!;
  const total = cat.primaryCount + cat.secondaryCount;
  const m = /^#(\d+)$/.exec(name);
  if (m) {
    const i = Number(m[1]);
    return i < total ? i : -1;
  }
  const want = textBytes(name);
  if (!want) return -1;
  const base = ix.categoryFirstRecord[c]!;
  for (let i = cat.primaryCount; i < total; i++) {
    if (bytesEqual(blockTextBytes(g, g.records.nameKey[base + i]!), want)) return i;
  }
  return -1;
}

/** Resolves a field given by name or `0x` hash to its hash. */
export function fieldHashOf(spec: string, hasher: NameHasher): number {
  const h = parseHash(spec);
  if (h !== undefined) return h;
  if (spec.length === 0) throw new UsageError('empty field name');
  return hasher(spec) >>> 0;
}

/** A resolved record address. */
export interface RecordAddress {
  category: number;
  index: number;
  /** Absolute record index. */
  record: number;
}

/** Finds `category`/`record` by name or throws a `NotFoundError` naming what is missing. */
export function resolveRecord(g: Gadb, ix: ModelIndex, category: string, record: string): RecordAddress {
  const c = findCategoryByName(g, category);
  if (c < 0) throw new NotFoundError(`no category named ${JSON.stringify(category)}`);
  const i = findRecordByName(g, ix, c, record);
  if (i < 0) throw new NotFoundError(`no record ${JSON.stringify(record)} in category ${JSON.stringify(category)}`);
  return { category: c, index: i, record: ix.categoryFirstRecord[c]! + i };
}

export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Hex of bytes (lower case). */
export function toHex(b: Uint8Array): string {
  return bytesToHex(b);
}

/** Bytes of a hex string. */
export function fromHex(h: string): Uint8Array {
  if (h.length % 2 !== 0 || /[^0-9a-f]/i.test(h)) throw new UsageError(`bad hex string ${JSON.stringify(h.slice(0, 40))}`);
  const out = new Uint8Array(h.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(h.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/** `Category/Record` label for a record address. */
export function recordLabel(g: Gadb, ix: ModelIndex, c: number, index: number): string {
  return `${categoryName(g, c)}/${recordName(g, ix, c, index)}`;
}

/** Encoded RecordLink of (category ordinal, index). */
export function encodeLink(category: number, index: number): number {
  return ((category << 20) | index) >>> 0;
}

export const NULL_LINK = 0xffffffff;
