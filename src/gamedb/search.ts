/**
 * Search over one database: names, hashes, text values and numbers, through a `SearchIndex` built once per file.
 *
 * A query matches, case-insensitively, any category or record whose name contains it, any field whose known name
 * contains it, and any String / StringEnum value that contains it. It also matches by hash: a `0x…` literal, or
 * P919 of the query (when it can be hashed), against category sort keys, record name hashes, field hashes,
 * Int cells holding that word and the P919 of text values (a StringEnum value is found by its hash). A number
 * (`98573`, `0.25`, `1e11`, with an optional tolerance `0.25~0.01` or `0.25±0.01`) matches Int cells equal to it,
 * Float cells and Vector3/FloatPair components within the tolerance (default: relative 1e-6, which is what an
 * f32 typed as a decimal needs) and Int64 values equal to it.
 *
 * The index holds typed arrays only: the distinct block values (texts, vectors, 64-bit integers) with the cells
 * that use each, and every Int and Float cell sorted by value (a radix sort), so a numeric query is two binary
 * searches and a text query one pass over the distinct texts. Field names are looked up in the database's
 * dictionary at query time, so names added later are searched too.
 */
import { HashError } from '../binary/errors.ts';
import { formatF32 } from '../binary/text.ts';
import { canHashP919, p919 } from '../hash/p919.ts';
import { GADB_STORAGE_BY_TYPE_BYTE, GadbStorageCode, gadbTypeInfo } from '../formats/gadb/type-codes.ts';
import { Category, DbRecord, Field, type Database } from './database.ts';
import { parseHashLiteral } from './names.ts';

export type SearchHit =
  | { kind: 'category'; category: Category; by: 'name' | 'hash' }
  | { kind: 'record'; record: DbRecord; by: 'name' | 'hash' }
  /** A field declared by a category's records (reported once per category). */
  | { kind: 'field'; category: Category; hash: number; name: string | undefined; by: 'name' | 'hash' }
  /** A value: a text that contains the query, a number equal (or near) to it, a word equal to the hash. */
  | { kind: 'value'; record: DbRecord; field: Field; element: number; text: string };

export interface SearchOptions {
  /** Stop collecting after this many hits (default 200). `total` still counts every hit. */
  limit?: number;
}

/** How a query was read. */
export interface SearchQueryInfo {
  /** The hash searched for (the literal, or P919 of the query), when there is one. */
  hash: number | undefined;
  /** The number searched for and its tolerance, when the query is one. */
  number?: { value: number; tolerance: number; integer: boolean };
}

export interface SearchResult extends SearchQueryInfo {
  query: string;
  hits: SearchHit[];
  /** Every hit, including those past the limit. */
  total: number;
}

export interface SearchIndexOptions {
  /** Called while the index is built: records scanned so far, of `total`. */
  onProgress?(done: number, total: number): void;
}

/** Kinds of the distinct block values in the index. */
const BLOCK_TEXT = 0;
const BLOCK_F32 = 1;
const BLOCK_I64 = 2;
/** Default relative tolerance of a Float match (f32 keeps about 7 decimal digits). */
const RELATIVE_TOLERANCE = 1e-6;
const NUMBER = /^([-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?)(?:\s*(?:~|±|\+-)\s*(\d+\.?\d*(?:e[-+]?\d+)?|\.\d+(?:e[-+]?\d+)?))?$/i;

/** Reads a query as a number with its tolerance, or `undefined`. */
export function parseNumberQuery(query: string): SearchQueryInfo['number'] {
  const m = NUMBER.exec(query.trim());
  if (!m) return undefined;
  const value = Number(m[1]);
  if (!Number.isFinite(value)) return undefined;
  const tolerance = m[2] !== undefined ? Number(m[2]) : Math.abs(value) * RELATIVE_TOLERANCE;
  return { value, tolerance, integer: Number.isInteger(value) && !/[.e]/i.test(m[1]!) };
}

/** A growable u32 list. */
class U32List {
  data = new Uint32Array(1024);
  length = 0;
  push(x: number): void {
    if (this.length === this.data.length) {
      const next = new Uint32Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = x;
  }
  view(): Uint32Array {
    return this.data.subarray(0, this.length);
  }
}

/** Positions 0…n-1 ordered by `keys` (LSD radix sort, 4 passes of 8 bits; stable). */
export function radixOrder(keys: Uint32Array): Uint32Array {
  const n = keys.length;
  let order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  let next = new Uint32Array(n);
  const count = new Uint32Array(256);
  for (let shift = 0; shift < 32; shift += 8) {
    count.fill(0);
    for (let i = 0; i < n; i++) count[(keys[order[i]!]! >>> shift) & 255]!++;
    let sum = 0;
    for (let b = 0; b < 256; b++) {
      const c = count[b]!;
      count[b] = sum;
      sum += c;
    }
    for (let i = 0; i < n; i++) {
      const o = order[i]!;
      next[count[(keys[o]! >>> shift) & 255]!++] = o;
    }
    [order, next] = [next, order];
  }
  return order;
}

const f32 = new Float32Array(1);
const f32Word = new Uint32Array(f32.buffer);

/** A u32 that orders like the f32 whose bits are `bits` (negative numbers reversed below the positives). */
function orderableF32(bits: number): number {
  return (bits & 0x80000000 ? ~bits : bits | 0x80000000) >>> 0;
}

function orderableOfFloat(x: number): number {
  f32[0] = x;
  return orderableF32(f32Word[0]!);
}

/** First position in the sorted `keys` whose key is ≥ `key`. */
function lowerBound(keys: Uint32Array, key: number): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid]! < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Cells of one storage kind sorted by an orderable key: `keys[i]` is the key of `cells[i]`. */
interface SortedCells {
  keys: Uint32Array;
  cells: Uint32Array;
}

function sortCells(keys: U32List, cells: U32List): SortedCells {
  const k = keys.view();
  const c = cells.view();
  const order = radixOrder(k);
  const sk = new Uint32Array(order.length);
  const sc = new Uint32Array(order.length);
  for (let i = 0; i < order.length; i++) {
    sk[i] = k[order[i]!]!;
    sc[i] = c[order[i]!]!;
  }
  return { keys: sk, cells: sc };
}

/** The search index of one database (see the module comment). Build once, query many times. */
export class SearchIndex {
  readonly db: Database;
  /** Secondary records and the P919 of their names (-1: unhashable). */
  readonly #secondaries: Uint32Array;
  readonly #secondaryHash: Float64Array;
  /** Distinct secondary names (lower-cased) and the records that carry each, in CSR form. */
  readonly #names: string[];
  readonly #nameStart: Uint32Array;
  readonly #nameRecords: Uint32Array;
  /** Distinct block values: their key, kind, lower-cased text (texts), element count (f32 values), P919 (texts). */
  readonly #blockKeys: Uint32Array;
  readonly #blockKind: Uint8Array;
  readonly #blockCount: Uint8Array;
  readonly #blockText: string[];
  readonly #blockHash: Float64Array;
  readonly #blockStart: Uint32Array;
  readonly #blockCells: Uint32Array;
  /** Components of the f32 block values (vectors, pairs): those of block value i start at `#vecStart[i]`. */
  readonly #vecStart: Uint32Array;
  readonly #vecValues: Float32Array;
  readonly #ints: SortedCells;
  readonly #floats: SortedCells;

  /** Builds the index (one pass over the records, then radix sorts). */
  constructor(db: Database, options: SearchIndexOptions = {}) {
    this.db = db;
    const m = db.model;
    const d = m.descriptors;
    const total = m.records.count;
    const secondaries = new U32List();
    const blockKeyOfCell = new U32List();
    const blockCells = new U32List();
    const intKeys = new U32List();
    const intCells = new U32List();
    const floatKeys = new U32List();
    const floatCells = new U32List();
    const blockMeta = new Map<number, number>();
    const step = 32768;
    for (let r = 0; r < total; r++) {
      if (options.onProgress && r % step === 0) options.onProgress(r, total);
      const c = db.categories[db.recordCategory[r]!]!;
      if (r - c.firstRecord >= c.primaryCount) secondaries.push(r);
      const first = m.records.firstDescriptor[r]!;
      const end = first + m.records.descriptorCount[r]!;
      const base = db.recordCellStart[r]!;
      const own = m.records.cellCount[r]!;
      for (let row = first; row < end; row++) {
        const typeByte = d.typeCode[row]!;
        const storage = GADB_STORAGE_BY_TYPE_BYTE[typeByte];
        const dec = gadbTypeInfo(typeByte)?.decoding;
        const link = d.link[row]!;
        const n = d.elementCount[row]!;
        if (storage === GadbStorageCode.Inline && (dec?.kind === 'f32' || dec?.kind === 'i32')) {
          for (let e = 0; e < n && link + e < own; e++) {
            const cell = base + link + e;
            const word = m.cells[cell]!;
            if (dec.kind === 'i32') {
              intKeys.push((word ^ 0x80000000) >>> 0);
              intCells.push(cell);
            } else {
              floatKeys.push(orderableF32(word));
              floatCells.push(cell);
            }
          }
        } else if (storage === GadbStorageCode.Block) {
          let kind = -1;
          let count = 0;
          if (dec?.kind === 'text') kind = BLOCK_TEXT;
          else if (dec?.kind === 'fixed') {
            kind = dec.element === 'i64' ? BLOCK_I64 : BLOCK_F32;
            count = dec.count;
          }
          if (kind < 0) continue;
          for (let e = 0; e < n && link + e < own; e++) {
            const cell = base + link + e;
            const key = m.cells[cell]!;
            if (!blockMeta.has(key)) blockMeta.set(key, kind * 256 + count);
            blockKeyOfCell.push(key);
            blockCells.push(cell);
          }
        }
      }
    }
    options.onProgress?.(total, total);
    this.#secondaries = secondaries.view().slice();
    this.#secondaryHash = new Float64Array(this.#secondaries.length);
    for (let i = 0; i < this.#secondaries.length; i++) this.#secondaryHash[i] = db.hashRecordName(this.#secondaries[i]!);
    // Secondary names: distinct name keys, each with its records.
    const nameKeys = new U32List();
    for (const r of this.#secondaries) nameKeys.push(m.records.nameKey[r]!);
    const nameOrder = radixOrder(nameKeys.view());
    const names: string[] = [];
    const nameStart = new U32List();
    const nameRecords = new Uint32Array(nameOrder.length);
    let prevKey = -1;
    for (let i = 0; i < nameOrder.length; i++) {
      const key = nameKeys.data[nameOrder[i]!]!;
      if (key !== prevKey) {
        nameStart.push(i);
        names.push(db.block.text(key).toLowerCase());
        prevKey = key;
      }
      nameRecords[i] = this.#secondaries[nameOrder[i]!]!;
    }
    nameStart.push(nameOrder.length);
    this.#names = names;
    this.#nameStart = nameStart.view().slice();
    this.#nameRecords = nameRecords;
    // Block values: distinct keys in CSR form, with their texts and hashes.
    const sorted = sortCells(blockKeyOfCell, blockCells);
    const keys = new U32List();
    const start = new U32List();
    for (let i = 0; i < sorted.keys.length; i++) {
      if (i === 0 || sorted.keys[i] !== sorted.keys[i - 1]) {
        keys.push(sorted.keys[i]!);
        start.push(i);
      }
    }
    start.push(sorted.keys.length);
    this.#blockKeys = keys.view().slice();
    this.#blockStart = start.view().slice();
    this.#blockCells = sorted.cells;
    const nb = this.#blockKeys.length;
    this.#blockKind = new Uint8Array(nb);
    this.#blockCount = new Uint8Array(nb);
    const block = db.block;
    this.#blockText = new Array<string>(nb);
    this.#blockHash = new Float64Array(nb).fill(-1);
    this.#vecStart = new Uint32Array(nb);
    const vec: number[] = [];
    for (let i = 0; i < nb; i++) {
      const key = this.#blockKeys[i]!;
      const meta = blockMeta.get(key)!;
      const kind = meta >>> 8;
      this.#blockKind[i] = kind;
      this.#blockCount[i] = meta & 255;
      if (kind === BLOCK_TEXT) {
        this.#blockText[i] = db.block.text(key).toLowerCase();
        const bytes = db.block.textBytes(key);
        if (canHashP919(bytes, { table: db.table })) this.#blockHash[i] = p919(bytes, { table: db.table });
      } else this.#blockText[i] = '';
      if (kind === BLOCK_F32) {
        this.#vecStart[i] = vec.length;
        vec.push(...block.floats(key, meta & 255));
      }
    }
    this.#vecValues = Float32Array.from(vec);
    this.#ints = sortCells(intKeys, intCells);
    this.#floats = sortCells(floatKeys, floatCells);
  }

  /** Cells indexed: Int, Float and block-valued cells. */
  get cellCount(): number {
    return this.#ints.cells.length + this.#floats.cells.length + this.#blockCells.length;
  }

  /** The record, field and element a cell belongs to. */
  #locate(cell: number): { record: DbRecord; field: Field; element: number } | undefined {
    const db = this.db;
    const starts = db.recordCellStart;
    let lo = 0;
    let hi = db.recordCount - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (starts[mid]! <= cell) lo = mid;
      else hi = mid - 1;
    }
    // The last record starting at or before `cell` owns it (zero-cell records after it start past it).
    const r = lo;
    const offset = cell - starts[r]!;
    const m = db.model;
    const d = m.descriptors;
    const first = m.records.firstDescriptor[r]!;
    for (let row = first; row < first + m.records.descriptorCount[r]!; row++) {
      const storage = GADB_STORAGE_BY_TYPE_BYTE[d.typeCode[row]!];
      if (storage !== GadbStorageCode.Inline && storage !== GadbStorageCode.Block) continue;
      const link = d.link[row]!;
      if (offset >= link && offset < link + d.elementCount[row]!) {
        const record = new DbRecord(db, r);
        return { record, field: new Field(record, row), element: offset - link };
      }
    }
    return undefined;
  }

  /** Runs a query (see the module comment). */
  search(query: string, options: SearchOptions = {}): SearchResult {
    const limit = options.limit ?? 200;
    const db = this.db;
    const q = query.trim();
    const needle = q.toLowerCase();
    const literal = parseHashLiteral(q);
    let hash = literal;
    if (hash === undefined && q.length > 0) {
      try {
        hash = db.hash(q);
      } catch (e) {
        if (!(e instanceof HashError)) throw e;
      }
    }
    const number = parseNumberQuery(q);
    const hits: SearchHit[] = [];
    let total = 0;
    const add = (hit: SearchHit) => {
      total++;
      if (hits.length < limit) hits.push(hit);
    };
    // A cell is matched at most once (a text by its one key, a number by its one kind); past the limit it is counted only.
    const addCell = (cell: number, text: string) => {
      if (hits.length >= limit) {
        total++;
        return;
      }
      const at = this.#locate(cell);
      if (at) add({ kind: 'value', ...at, text });
    };
    if (q.length === 0) return { query, hash: undefined, hits, total };
    for (const c of db.categories) {
      if (c.name.toLowerCase().includes(needle)) add({ kind: 'category', category: c, by: 'name' });
      else if (hash !== undefined && c.sortKey === hash) add({ kind: 'category', category: c, by: 'hash' });
    }
    const byName = new Set<number>();
    for (let i = 0; i < this.#names.length; i++) {
      if (!this.#names[i]!.includes(needle)) continue;
      for (let k = this.#nameStart[i]!; k < this.#nameStart[i + 1]!; k++) byName.add(this.#nameRecords[k]!);
    }
    for (let i = 0; i < this.#secondaries.length; i++) {
      const r = this.#secondaries[i]!;
      if (byName.has(r)) add({ kind: 'record', record: new DbRecord(db, r), by: 'name' });
      else if (hash !== undefined && this.#secondaryHash[i] === hash) add({ kind: 'record', record: new DbRecord(db, r), by: 'hash' });
    }
    // Fields: once per category, from its first record with fields (every record declares the same fields, H-RUN-SHAPE).
    const d = db.model.descriptors;
    for (const c of db.categories) {
      const probe = c.firstRecordWithFields();
      if (!probe) continue;
      for (let row = probe.firstDescriptor; row < probe.firstDescriptor + probe.descriptorCount; row++) {
        const h = d.declaredHash[row]!;
        const name = db.names.get(h);
        if (name !== undefined && name.toLowerCase().includes(needle)) add({ kind: 'field', category: c, hash: h, name, by: 'name' });
        else if (hash !== undefined && h === hash) add({ kind: 'field', category: c, hash: h, name, by: 'hash' });
      }
    }
    // Text values containing the query, or whose P919 is the hash searched for (enum values by their hash).
    const block = db.block;
    for (let i = 0; i < this.#blockKeys.length; i++) {
      if (this.#blockKind[i] !== BLOCK_TEXT) continue;
      if (!this.#blockText[i]!.includes(needle) && !(literal !== undefined && this.#blockHash[i] === literal)) continue;
      const text = block.text(this.#blockKeys[i]!);
      for (let k = this.#blockStart[i]!; k < this.#blockStart[i + 1]!; k++) addCell(this.#blockCells[k]!, text);
    }
    // Int cells holding the hash searched for (a 0x… literal).
    if (literal !== undefined) this.#intRange(literal | 0, literal | 0, addCell);
    if (number) {
      const { value, tolerance, integer } = number;
      if (integer && value >= -0x80000000 && value <= 0xffffffff) this.#intRange(value | 0, value | 0, addCell);
      this.#floatRange(value - tolerance, value + tolerance, addCell);
      for (let i = 0; i < this.#blockKeys.length; i++) {
        const kind = this.#blockKind[i]!;
        if (kind === BLOCK_F32) {
          let near = false;
          for (let k = this.#vecStart[i]!; k < this.#vecStart[i]! + this.#blockCount[i]!; k++) if (Math.abs(this.#vecValues[k]! - value) <= tolerance) near = true;
          if (!near) continue;
          const text = `(${Array.from(this.#vecValues.subarray(this.#vecStart[i]!, this.#vecStart[i]! + this.#blockCount[i]!), formatF32).join(', ')})`;
          for (let k = this.#blockStart[i]!; k < this.#blockStart[i + 1]!; k++) addCell(this.#blockCells[k]!, text);
        } else if (kind === BLOCK_I64 && integer && Number.isSafeInteger(value)) {
          const v = block.i64(this.#blockKeys[i]!);
          if (v !== BigInt(value)) continue;
          for (let k = this.#blockStart[i]!; k < this.#blockStart[i + 1]!; k++) addCell(this.#blockCells[k]!, v.toString());
        }
      }
    }
    const out: SearchResult = { query, hash, hits, total };
    if (number) out.number = number;
    return out;
  }

  #intRange(lo: number, hi: number, visit: (cell: number, text: string) => void): void {
    const { keys, cells } = this.#ints;
    const end = lowerBound(keys, ((hi ^ 0x80000000) >>> 0) + 1);
    for (let i = lowerBound(keys, (lo ^ 0x80000000) >>> 0); i < end; i++) visit(cells[i]!, String((keys[i]! ^ 0x80000000) | 0));
  }

  #floatRange(lo: number, hi: number, visit: (cell: number, text: string) => void): void {
    const { keys, cells } = this.#floats;
    // The first f32 at or above `lo` is at or above fround(lo); -0 sorts below +0, and equals it.
    const from = lowerBound(keys, orderableOfFloat(lo === 0 ? -0 : lo));
    const cellsF32 = this.db.cellsF32;
    for (let i = from; i < keys.length; i++) {
      const v = cellsF32[cells[i]!]!;
      if (v > hi) break;
      if (v >= lo) visit(cells[i]!, formatF32(v));
    }
  }
}

/** Searches `db` once: builds a `SearchIndex` and runs the query (keep the index to run several). */
export function searchDatabase(db: Database, query: string, options: SearchOptions = {}): SearchResult {
  return new SearchIndex(db).search(query, options);
}
