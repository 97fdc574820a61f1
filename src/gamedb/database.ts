/**
 * The engine's view of a GADB v17 database: categories, records and fields answered the way the running game
 * answers them (seed `000_04a0193be20b749f`, "Categories", "Records", "Descriptors and the slot rule").
 *
 * - `findCategory(name | hash)`: binary search over the categories' stored sort keys (FindCategory 0x115B4D4).
 * - `findRecord(category, name | hash)`: binary search over the P919 of the secondaries' names, which the file
 *   stores in ascending order (FindRecord 0x278540).
 * - Field lookup: binary search of the record's **own** sorted hash column, then the permutation byte
 *   (FindDescriptorPermuted 0x251BD0). A cell is never found through another record's run.
 * - The slot rule (GetIntFast 0x278758): element i of a field is cell `link + i` for `i < count`, otherwise the
 *   caller's default; a Bool is bit `link & 31` of cell `link >> 5`.
 * - RecordLinks: `(categoryOrdinal << 20) | index`, the index counting primaries first (H-PRIM-FIRST);
 *   0xFFFFFFFF and anything out of range are null.
 *
 * Everything is a view over the codec's model (`Gadb`, struct-of-arrays): opening costs one parse plus three
 * small typed arrays; values are decoded on access. Record and field objects are created on demand and hold only
 * indexes, so paging through a category of 17,000 records allocates 17,000 small objects at most.
 */
import { FormatError, NotFoundError } from '../binary/errors.ts';
import { DEFAULT_P919_TABLE, canHashP919, p919, type P919Table } from '../hash/p919.ts';
import { parseGadb, type ParseGadbOptions } from '../formats/gadb/parse.ts';
import { gadbRecordCellStarts, gadbRunSlot, popcount32 } from '../formats/gadb/layout.ts';
import { GADB_STORAGE_BY_TYPE_BYTE, GADB_TYPE_MASK, GadbStorageCode, gadbTypeInfo, gadbTypeName, isResourcePathType, type GadbTypeInfo } from '../formats/gadb/type-codes.ts';
import type { Gadb } from '../formats/gadb/types.ts';
import { FieldTypeError, SlotMismatchError } from './errors.ts';
import { NameDictionary, formatHash, parseHashLiteral } from './names.ts';
import { BlockReader, type CurveKey, type EnumValue } from './values.ts';

/** The encoded null RecordLink. */
export const NULL_LINK = 0xffffffff;
/** Bits of a RecordLink that hold the record index within the category. */
export const LINK_INDEX_BITS = 20;
/** `(1 << LINK_INDEX_BITS) - 1`. */
const LINK_INDEX_MASK = 0xfffff;

/** Base type codes the typed getters check against (`type & 0x3F`, as the engine's by-name getters do). */
const T = { Bool: 1, Float: 2, Int: 3, String: 4, StringEnum: 5, Int64: 6, FloatPair: 7, Vector3: 8, Type9: 9, RecordLink: 10, RecordLink11: 11 } as const;

/** A decoded element of a field. */
export type FieldValue =
  | boolean
  | number
  | bigint
  | string
  | EnumValue
  | readonly number[]
  | readonly CurveKey[]
  | Uint8Array
  | DbRecord
  | null;

/** How a field is named in a call: its name, its P919 hash, or a cached slot (the fast path). */
export type FieldRef = string | number | FieldSlot;

/** How a category or record is named in a call: its name or its P919 hash. */
export type NameRef = string | number;

export interface DatabaseOptions {
  /** P919 table used to hash names in lookups (default: the built-in table; pass a calibrated one for `/`). */
  table?: P919Table;
  /** Names for field hashes (default: empty; the Node helper loads the shipped list). */
  names?: NameDictionary;
  /** Options passed to the codec when opening from bytes. */
  parse?: ParseGadbOptions;
}

/** A link cell decoded without following it. */
export interface LinkInfo {
  raw: number;
  /** `raw >>> 20`. */
  categoryOrdinal: number;
  /** `raw & 0xFFFFF`: primaries first, then secondaries. */
  index: number;
  /** Why the link resolves to no record: the null word, a category past the table, an index past both sides. */
  nullReason?: 'null' | 'category-out-of-range' | 'index-out-of-range';
  /** The global record index of the target, when it resolves. */
  target?: number;
}

/** One incoming reference: `record`'s field `field` element `element` links to the record asked about. */
export interface Reference {
  record: DbRecord;
  field: Field;
  element: number;
}

/** Incoming links in CSR form: the links to record t are entries `[start[t], start[t + 1])`. */
interface ReverseIndex {
  start: Uint32Array;
  source: Uint32Array;
  row: Uint32Array;
  element: Uint16Array;
}

const EMPTY_ROWS = new Uint32Array(0);
/** `Database.#itemValueCode` of an item decoded as a StringEnum value (type codes are below 64). */
const ENUM_VALUE_CODE = 255;
// Local bindings of the codec's tables for the hot paths (a transpiled module may expose imports through getters).
const typeInfoOf = gadbTypeInfo;

/** P919 of a NUL-terminated name in the block, or -1 when it has a byte of unknown (or only inferred) value. */
function hashBlockText(data: Uint8Array, key: number, table: P919Table): number {
  const { values, status } = table;
  let h = 0;
  for (let i = key; i < data.length; i++) {
    const c = data[i]!;
    if (c === 0) return h >>> 0;
    const s = status[c];
    if (s === 'unknown' || s === 'inferred') return -1;
    h = (Math.imul(h, 919) + values[c]!) | 0;
  }
  return -1;
}

/** Passed by `Database.open` to its constructor: the model comes straight from `parseGadb`. */
const FRESHLY_PARSED: unique symbol = Symbol('freshly parsed');

/**
 * Every record's run inside the descriptor table and its cells inside the model's pool (the codec guarantees both
 * for parsed files; an edited model may not): one pass, throwing a `FormatError` naming the first that is not.
 */
function checkRecordRanges(model: Gadb, starts: Uint32Array): void {
  const { firstDescriptor, descriptorCount, cellCount } = model.records;
  const r = firstRecordOutOfRange(firstDescriptor, descriptorCount, cellCount, starts, model.records.count, model.descriptors.count, model.cells.length);
  if (r < 0) return;
  const descriptors = model.descriptors.count;
  if (firstDescriptor[r]! + descriptorCount[r]! > descriptors) {
    throw new FormatError('gadb', 0, `/records[${r}]`, `run [${firstDescriptor[r]}, +${descriptorCount[r]}) lies past the ${descriptors} descriptors`);
  }
  throw new FormatError('gadb', 0, `/records[${r}]/cells`, `record ${r}'s cells run past the ${model.cells.length} cells the model holds`);
}

/** The first record whose run or cells lie outside the tables, or -1 (a loop with no exit but its result: V8 keeps it optimized). */
function firstRecordOutOfRange(firstDescriptor: Uint32Array, descriptorCount: Uint8Array, cellCount: Uint16Array, starts: Uint32Array, count: number, descriptors: number, cells: number): number {
  for (let r = 0; r < count; r++) {
    if (firstDescriptor[r]! + descriptorCount[r]! > descriptors || starts[r]! + cellCount[r]! > cells) return r;
  }
  return -1;
}

/**
 * A GADB database opened for lookups. Construct with `Database.open(bytes)` (any container: `.gamedb`, `.fxp`,
 * `.bvr`) or `new Database(model)` over a model already parsed or built.
 */
export class Database {
  /** The codec's model; the database never changes it. */
  readonly model: Gadb;
  readonly table: P919Table;
  readonly names: NameDictionary;
  /** Reads values out of the string block. */
  readonly block: BlockReader;
  /** `recordCellStart[r]`: index in `model.cells` of record r's first cell; length `records.count + 1` (`gadbRecordCellStarts`). */
  readonly recordCellStart: Uint32Array;
  #recordCategory: Uint32Array | undefined;
  /** `categoryFirstRecord[c]`: global index of category c's first record; length `categories + 1`. */
  readonly categoryFirstRecord: Uint32Array;
  /** @internal `linkSpansOf(categoryFirstRecord)`: what `linkTarget` resolves a link word against. */
  readonly linkSpans: Int32Array;
  /** Cells read as f32 (the same memory as `model.cells`). */
  readonly cellsF32: Float32Array;
  readonly #categories: Category[];
  #reverse: ReverseIndex | undefined;
  #shared: Map<number, number> | undefined;
  readonly #runRows = new Map<number, Uint32Array>();
  readonly #enums = new Map<number, EnumValue>();
  readonly #values = new Map<number, FieldValue>();
  /**
   * Per string-block item: the enum value or block value decoded from it (the first kind it was read as;
   * `#itemValueCode[i]` is that type code, `ENUM_VALUE_CODE` for an enum, 0 for none yet). Reads of an item as
   * another kind go through `#enums` / `#values`.
   */
  #itemValues: Array<FieldValue | undefined> | undefined;
  #itemValueCode = new Uint8Array(0);
  /** Per category, P919 of each secondary's name in stored order (-1: cannot be hashed), computed on first lookup. */
  readonly #nameHashes: Array<Float64Array | undefined> = [];
  #lowerCategoryNames: Map<string, number> | undefined;
  #recordPlans: RecordPlans | undefined;

  /** Parses `bytes` with the codec and opens the result. Throws the codec's `FormatError` on bad input. */
  static open(bytes: Uint8Array, options: DatabaseOptions = {}): Database {
    return new Database(parseGadb(bytes, options.parse), options, FRESHLY_PARSED);
  }

  /** `origin` (module-private) marks a model straight from `parseGadb`, whose record ranges the parser checked. */
  constructor(model: Gadb, options: DatabaseOptions = {}, origin?: typeof FRESHLY_PARSED) {
    this.model = model;
    this.table = options.table ?? DEFAULT_P919_TABLE;
    this.names = options.names ?? new NameDictionary(this.table);
    this.block = new BlockReader(model.strings);
    const { records, categories, cells } = model;
    this.cellsF32 = new Float32Array(cells.buffer, cells.byteOffset, cells.length);
    this.recordCellStart = gadbRecordCellStarts(model);
    if (!records.cellStart) {
      const at = this.recordCellStart[records.count]!;
      if (at !== cells.length) throw new FormatError('gadb', 0, '/cells', `records claim ${at} cells but the model holds ${cells.length}`);
    }
    // The parser refuses a record whose run leaves the descriptor table or whose cells leave the value section, so
    // only a model from elsewhere (built, edited) is checked here.
    if (origin !== FRESHLY_PARSED) checkRecordRanges(model, this.recordCellStart);
    this.categoryFirstRecord = new Uint32Array(categories.length + 1);
    let r = 0;
    for (let c = 0; c < categories.length; c++) {
      this.categoryFirstRecord[c] = r;
      const n = categories[c]!.primaryCount + categories[c]!.secondaryCount;
      if (r + n > records.count) throw new FormatError('gadb', 0, `/categories[${c}]`, `categories claim more records than the model's ${records.count}`);
      r += n;
    }
    this.categoryFirstRecord[categories.length] = r;
    this.linkSpans = linkSpansOf(this.categoryFirstRecord);
    if (r !== records.count) throw new FormatError('gadb', 0, '/records', `categories claim ${r} records but the model holds ${records.count}`);
    this.#categories = categories.map((_, i) => new Category(this, i));
  }

  // ---------------------------------------------------------------- categories

  /** Ordinal of each record's category (built on first use: 4 bytes a record). */
  get recordCategory(): Uint32Array {
    if (!this.#recordCategory) {
      const n = this.model.records.count;
      const out = new Uint32Array(n);
      const f = this.categoryFirstRecord;
      for (let c = 0; c + 1 < f.length; c++) out.fill(c, f[c]!, f[c + 1]!);
      this.#recordCategory = out;
    }
    return this.#recordCategory;
  }

  /** Categories in file order, which is ascending sort key; a category's position is its link ordinal. */
  get categories(): readonly Category[] {
    return this.#categories;
  }

  /** The root type name at sb+0 (`GameDatabase`, `FXDB`, `BlendDB`). */
  get rootName(): string {
    return this.block.text(0);
  }

  /** P919 of `name` with this database's table; throws a `HashError` for a character of unknown value. */
  hash(name: string): number {
    return p919(name, { table: this.table });
  }

  /**
   * The category named `ref` (text or P919 hash, or a `0x…` literal), by binary search over the stored sort keys,
   * as the engine's FindCategory does. A name with a character of unknown P919 value (e.g. `/` before the table
   * is calibrated) cannot be hashed; it is then matched against the stored names, ignoring case as the hash does.
   */
  findCategory(ref: NameRef): Category | undefined {
    const hash = this.#keyOf(ref);
    if (hash === undefined) {
      this.#lowerCategoryNames ??= new Map(this.#categories.map((c) => [c.name.toLowerCase(), c.ordinal]));
      const ordinal = this.#lowerCategoryNames.get((ref as string).toLowerCase());
      return ordinal === undefined ? undefined : this.#categories[ordinal];
    }
    const cats = this.model.categories;
    let lo = 0;
    let hi = cats.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const key = cats[mid]!.sortKey >>> 0;
      if (key < hash) lo = mid + 1;
      else if (key > hash) hi = mid - 1;
      else return this.#categories[mid];
    }
    return undefined;
  }

  /** Like `findCategory`, but throws a `NotFoundError` naming what was asked. */
  category(ref: NameRef | Category): Category {
    if (ref instanceof Category) return ref;
    const c = this.findCategory(ref);
    if (!c) throw new NotFoundError(`no category ${typeof ref === 'number' ? formatHash(ref) : JSON.stringify(ref)}`);
    return c;
  }

  /** Categories whose record-type name (category +0x04, H-CAT-04) is `typeName`, e.g. `AI.Template`. */
  categoriesOfType(typeName: string): Category[] {
    const wanted = typeName.toLowerCase();
    return this.#categories.filter((c) => c.typeName.toLowerCase() === wanted);
  }

  /** The hash to search for, or `undefined` when `ref` is text that cannot be hashed with the table. */
  #keyOf(ref: NameRef): number | undefined {
    if (typeof ref === 'number') return ref >>> 0;
    const literal = parseHashLiteral(ref);
    if (literal !== undefined) return literal;
    return canHashP919(ref, { table: this.table }) ? this.hash(ref) : undefined;
  }

  // ---------------------------------------------------------------- records

  /** Number of records (primaries and secondaries) in the whole database. */
  get recordCount(): number {
    return this.model.records.count;
  }

  /** The record at a global index (file order), e.g. a handle a script VM kept. */
  record(index: number): DbRecord {
    if (!Number.isInteger(index) || index < 0 || index >= this.model.records.count) {
      throw new NotFoundError(`no record #${index} (the database has ${this.model.records.count})`);
    }
    return new DbRecord(this, index);
  }

  /**
   * A reusable cursor over this database's records and fields, for reading many of them: one object, positioned
   * with `seek(record)` and `nextField()`, decoding elements with no allocation (see `FieldCursor`).
   */
  cursor(): FieldCursor {
    return new FieldCursor(this);
  }

  /** @internal The decoding plans of the records' descriptor runs that `FieldCursor.readRecord` reads (built on first use). */
  get recordPlans(): RecordPlans {
    return (this.#recordPlans ??= new RecordPlans(this.model));
  }

  /**
   * The record named `ref` in `category`: binary search over P919 of the secondaries' names (stored ascending),
   * as the engine's FindRecord. A `#N` reference selects the category's record N in link order (primaries
   * first), which is how primaries, having no name, are addressed.
   */
  findRecord(category: NameRef | Category, ref: NameRef): DbRecord | undefined {
    const cat = category instanceof Category ? category : this.findCategory(category);
    return cat?.findRecord(ref);
  }

  /** Like `findRecord`, but throws a `NotFoundError` naming what was asked. */
  getRecord(category: NameRef | Category, ref: NameRef): DbRecord {
    const cat = this.category(category);
    const rec = cat.findRecord(ref);
    if (!rec) throw new NotFoundError(`no record ${typeof ref === 'number' ? formatHash(ref) : JSON.stringify(ref)} in category ${cat.name}`);
    return rec;
  }

  /**
   * @internal Binary search of a category's secondaries by name hash, as FindRecord does over the keys the engine
   * keeps in memory. The keys are P919 of the stored names, computed once per category on its first lookup; a
   * category with a name that cannot be hashed (a character of unknown value) is scanned instead.
   */
  searchSecondaries(cat: Category, hash: number): number {
    let keys = this.#nameHashes[cat.ordinal];
    if (!keys) {
      const data = this.model.strings.data;
      const nameKey = this.model.records.nameKey;
      const first = cat.firstRecord + cat.primaryCount;
      keys = new Float64Array(cat.secondaryCount);
      for (let i = 0; i < keys.length; i++) keys[i] = hashBlockText(data, nameKey[first + i]!, this.table);
      this.#nameHashes[cat.ordinal] = keys;
    }
    const first = cat.firstRecord + cat.primaryCount;
    let lo = 0;
    let hi = keys.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const key = keys[mid]!;
      if (key < 0) return this.#scanSecondaries(keys, first, hash);
      if (key < hash) lo = mid + 1;
      else if (key > hash) hi = mid - 1;
      else return first + mid;
    }
    return -1;
  }

  /** Fallback when a probed name cannot be hashed: a linear scan over the names that can. */
  #scanSecondaries(keys: Float64Array, first: number, hash: number): number {
    for (let i = 0; i < keys.length; i++) if (keys[i] === hash) return first + i;
    return -1;
  }

  /** @internal P919 of a record's stored name, or -1 when it cannot be hashed. */
  hashRecordName(index: number): number {
    return hashBlockText(this.model.strings.data, this.model.records.nameKey[index]!, this.table);
  }

  // ---------------------------------------------------------------- links

  /** Decodes a link word: category ordinal, index, and the target record or why there is none. */
  decodeLink(raw: number): LinkInfo {
    raw >>>= 0;
    const categoryOrdinal = raw >>> LINK_INDEX_BITS;
    const index = raw & LINK_INDEX_MASK;
    if (raw === NULL_LINK) return { raw, categoryOrdinal, index, nullReason: 'null' };
    const cat = this.model.categories[categoryOrdinal];
    if (!cat) return { raw, categoryOrdinal, index, nullReason: 'category-out-of-range' };
    // H-PRIM-FIRST: an index below the primary count selects that primary, the next ones the secondaries.
    if (index >= cat.primaryCount + cat.secondaryCount) return { raw, categoryOrdinal, index, nullReason: 'index-out-of-range' };
    return { raw, categoryOrdinal, index, target: this.categoryFirstRecord[categoryOrdinal]! + index };
  }

  /** @internal Global index of a link's target, or -1 for null. */
  linkTarget(raw: number): number {
    return linkTargetIn(this.linkSpans, raw);
  }

  /** The record a link word names, or null (the null word, or out of range: the loader's rule). */
  resolveLink(raw: number): DbRecord | null {
    const t = this.linkTarget(raw >>> 0);
    return t < 0 ? null : new DbRecord(this, t);
  }

  /**
   * The reverse index: every (record, field, element) whose RecordLink names `record`. Built once, on first use,
   * in two passes over the link cells (a count per target, then a fill): O(cells) time, 10 bytes per link.
   */
  referencedBy(record: DbRecord): Reference[] {
    const rev = this.#reverseIndex();
    const out: Reference[] = [];
    for (let i = rev.start[record.index]!; i < rev.start[record.index + 1]!; i++) {
      const source = new DbRecord(this, rev.source[i]!);
      out.push({ record: source, field: new Field(source, rev.row[i]!), element: rev.element[i]! });
    }
    return out;
  }

  /** How many link cells name `record` (builds the reverse index on first use). */
  referenceCount(record: DbRecord): number {
    const rev = this.#reverseIndex();
    return rev.start[record.index + 1]! - rev.start[record.index]!;
  }

  /**
   * @internal The rows of record `r`'s run whose type has `storage` (a `GadbStorageCode`), cached per distinct run:
   * the game database has 13,612 distinct runs under 686,401 records, so scans over one kind of cell (links,
   * block values) touch only those rows instead of every descriptor use.
   */
  runRows(r: number, storage: number): Uint32Array {
    const { records, descriptors } = this.model;
    const first = records.firstDescriptor[r]!;
    const count = records.descriptorCount[r]!;
    const key = (first * 256 + count) * 4 + storage;
    let rows = this.#runRows.get(key);
    if (!rows) {
      const list: number[] = [];
      const end = Math.min(first + count, descriptors.count);
      for (let row = first; row < end; row++) if (GADB_STORAGE_BY_TYPE_BYTE[descriptors.typeCode[row]!] === storage) list.push(row);
      rows = list.length === 0 ? EMPTY_ROWS : Uint32Array.from(list);
      this.#runRows.set(key, rows);
    }
    return rows;
  }

  /**
   * Calls `visit(record, row, element, cell)` for every element of every field of one storage kind, in file order
   * (elements past the record's own cells are skipped: they have no value).
   */
  #forEachCell(storage: number, visit: (record: number, row: number, element: number, cell: number) => void): void {
    const { records, descriptors, cells } = this.model;
    const { elementCount, link } = descriptors;
    for (let r = 0; r < records.count; r++) {
      const rows = this.runRows(r, storage);
      if (rows.length === 0) continue;
      const base = this.recordCellStart[r]!;
      const own = records.cellCount[r]!;
      for (let j = 0; j < rows.length; j++) {
        const row = rows[j]!;
        const n = elementCount[row]!;
        const l = link[row]!;
        for (let e = 0; e < n && l + e < own; e++) visit(r, row, e, cells[base + l + e]!);
      }
    }
  }

  /** Calls `visit(sourceRecord, row, element, target)` for every non-null link cell, in file order. */
  #forEachLink(visit: (source: number, row: number, element: number, target: number) => void): void {
    this.#forEachCell(GadbStorageCode.Link, (r, row, e, cell) => {
      const t = this.linkTarget(cell);
      if (t >= 0) visit(r, row, e, t);
    });
  }

  #reverseIndex(): ReverseIndex {
    if (this.#reverse) return this.#reverse;
    const n = this.model.records.count;
    const start = new Uint32Array(n + 1);
    let total = 0;
    this.#forEachLink((_s, _r, _e, t) => {
      start[t + 1]!++;
      total++;
    });
    for (let i = 0; i < n; i++) start[i + 1]! += start[i]!;
    const fill = start.slice(0, n);
    const source = new Uint32Array(total);
    const row = new Uint32Array(total);
    const element = new Uint16Array(total);
    this.#forEachLink((s, r, e, t) => {
      const at = fill[t]!++;
      source[at] = s;
      row[at] = r;
      element[at] = e;
    });
    this.#reverse = { start, source, row, element };
    return this.#reverse;
  }

  // ---------------------------------------------------------------- shared values

  /**
   * How many cells point at the string-block item `key` (strings, enum texts, 64-bit integers, float pairs,
   * vectors, curves). The file stores each distinct value once (spec §3.3); a value behind `n > 1` cells is
   * shared, and changing its bytes changes every one of those fields (seed "Shared values"). Counted once, on
   * first use, over every block cell.
   */
  sharedCount(key: number): number {
    if (!this.#shared) {
      const counts = new Map<number, number>();
      this.#forEachCell(GadbStorageCode.Block, (_r, _row, _e, key) => counts.set(key, (counts.get(key) ?? 0) + 1));
      this.#shared = counts;
    }
    return this.#shared.get(key) ?? 0;
  }

  /**
   * @internal The StringEnum value at `key`: its text and P919, decoded once per distinct value (the file stores
   * each enum text once, and thousands of cells share it). The returned object is frozen.
   */
  enumValue(key: number): EnumValue {
    const i = this.block.items.of(key);
    const table = (this.#itemValues ??= this.#newItemValues());
    if (i >= 0 && this.#itemValueCode[i] === ENUM_VALUE_CODE) return table[i] as EnumValue;
    let v = this.#enums.get(key);
    if (!v) {
      const text = this.block.text(key);
      // The text decoded, its NUL lies inside the item: P919 up to it (-1: a byte of unknown table value).
      const h = hashBlockText(this.model.strings.data, key, this.table);
      v = Object.freeze({ text, hash: h < 0 ? undefined : h });
      if (i >= 0 && this.#itemValueCode[i] === 0) {
        table[i] = v;
        this.#itemValueCode[i] = ENUM_VALUE_CODE;
      } else this.#enums.set(key, v);
    }
    return v;
  }

  /**
   * @internal A fixed-size value (Int64, FloatPair, Vector3) or a curve at `key`, decoded once per distinct value
   * and type: values are shared by up to tens of thousands of cells (seed "Shared values"). Arrays are frozen.
   */
  blockValue(key: number, info: GadbTypeInfo): FieldValue {
    const i = this.block.items.of(key);
    const table = (this.#itemValues ??= this.#newItemValues());
    if (i >= 0 && this.#itemValueCode[i] === info.code) return table[i]!;
    const cacheKey = key * 64 + info.code;
    let v = this.#values.get(cacheKey);
    if (v === undefined) {
      const dec = info.decoding;
      if (dec.kind === 'fixed') v = dec.element === 'i64' ? this.block.i64(key) : Object.freeze(this.block.floats(key, dec.count));
      else if (dec.kind === 'curve') {
        const keys: CurveKey[] = this.block.curve(key, dec).map((k) => Object.freeze({ time: k.time, value: Array.isArray(k.value) ? Object.freeze(k.value) : k.value }) as CurveKey);
        v = Object.freeze(keys);
      } else throw new Error(`blockValue: ${info.name} is not a fixed or curve type`);
      // The first kind an item is read as keeps it in the per-item table; another kind (a mixed item) goes to the map.
      if (i >= 0 && this.#itemValueCode[i] === 0) {
        table[i] = v;
        this.#itemValueCode[i] = info.code;
      } else this.#values.set(cacheKey, v);
    }
    return v!;
  }

  /** The per-item value table (enum values and block values, indexed by item; `#itemValueCode` says which). */
  #newItemValues(): Array<FieldValue | undefined> {
    const n = this.model.strings.itemKeys.length;
    this.#itemValueCode = new Uint8Array(n);
    // Filled, not `new Array(n)` alone: V8 keeps a large array made with a length only as a hash table.
    return new Array<FieldValue | undefined>(n).fill(undefined);
  }

  /** The extent of the block item that starts at `key` (`undefined` when no item starts there). */
  itemAt(key: number): { key: number; size: number } | undefined {
    const { itemKeys, itemSizes } = this.model.strings;
    let lo = 0;
    let hi = itemKeys.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const k = itemKeys[mid]!;
      if (k < key) lo = mid + 1;
      else if (k > key) hi = mid - 1;
      else return { key, size: itemSizes[mid]! };
    }
    return undefined;
  }

  /**
   * @internal Element `element` of descriptor row `row` of record `r` (global index), decoded by the slot rule and
   * the type table; `undefined` when the slot rule gives no value. Reads the model's columns directly: nothing is
   * allocated but the value itself (texts, enum values and block values are decoded once per distinct item).
   */
  decodeAt(r: number, row: number, element: number): FieldValue | undefined {
    const d = this.model.descriptors;
    if (element >>> 0 !== element || element >= d.elementCount[row]!) return undefined;
    const typeByte = d.typeCode[row]!;
    const as = DECODE_AS[typeByte]!;
    const own = this.model.records.cellCount[r]!;
    const base = this.recordCellStart[r]!;
    const local = d.link[row]! + element;
    if (as === (1 satisfies typeof DecodeAs.Bit)) {
      // H-BOOL-ARRAY for element > 0: consecutive bits.
      if (local >>> 5 >= own) return undefined;
      return cellBit(this.model.cells, base, local);
    }
    if (local >= own) return undefined;
    return this.decodeCell(as, typeByte, base + local);
  }

  /**
   * @internal The value of cell `cell` of the pool read as decoding `as` (`DECODE_AS` of `typeByte`; not Bit): the
   * one decoder behind `decodeAt` and `FieldCursor`.
   */
  decodeCell(as: number, typeByte: number, cell: number): FieldValue {
    switch (as) {
      case (2 satisfies typeof DecodeAs.F32):
        return this.cellsF32[cell]!;
      case (3 satisfies typeof DecodeAs.I32):
        return this.model.cells[cell]! | 0;
      case (8 satisfies typeof DecodeAs.Link): {
        const t = this.linkTarget(this.model.cells[cell]!);
        return t < 0 ? null : new DbRecord(this, t);
      }
      case (4 satisfies typeof DecodeAs.Text):
        return this.block.text(this.model.cells[cell]!);
      case (5 satisfies typeof DecodeAs.Enum):
        return this.enumValue(this.model.cells[cell]!);
      case (6 satisfies typeof DecodeAs.BlockValue):
        return this.blockValue(this.model.cells[cell]!, typeInfoOf(typeByte)!);
      case (7 satisfies typeof DecodeAs.Opaque): {
        const raw = this.model.cells[cell]!;
        const item = this.itemAt(raw);
        if (!item) throw new FormatError('gadb', raw, `/strings[${raw}]`, `cell of ${gadbTypeName(typeByte)} field points at 0x${raw.toString(16)}, where no string-block item starts`);
        return this.model.strings.data.slice(item.key, item.key + item.size);
      }
      default:
        return this.model.cells[cell]!;
    }
  }

  // ---------------------------------------------------------------- fast path

  /**
   * A cached field slot for `field` in records of `category`, the way compiled accessors cache a descriptor index
   * (seed "Reading a field"): resolved once by name in the category's first record that has fields, then applied
   * to any record of the category without a search. Throws a `NotFoundError` when the category has no such field.
   */
  slot(category: NameRef | Category, field: NameRef): FieldSlot {
    const cat = this.category(category);
    const probe = cat.firstRecordWithFields();
    const f = probe?.field(field);
    if (!probe || !f) throw new NotFoundError(`category ${cat.name} has no field ${typeof field === 'number' ? formatHash(field) : JSON.stringify(field)}`);
    return new FieldSlot(cat, f.hash, f.declIndex, f.name);
  }
}

/** A category: a sorted table of records (primaries first, then secondaries by ascending P919 of their names). */
export class Category {
  readonly db: Database;
  /** Position in the category table (the link ordinal). */
  readonly ordinal: number;

  constructor(db: Database, ordinal: number) {
    this.db = db;
    this.ordinal = ordinal;
  }

  get #entry() {
    return this.db.model.categories[this.ordinal]!;
  }

  /** The category name, e.g. `AI/Templates`, `ClientFX.Sprite`. */
  get name(): string {
    return this.db.block.text(this.#entry.nameKey);
  }

  /** The record-type name at +0x04 (H-CAT-04), e.g. `AI.Template`. */
  get typeName(): string {
    return this.db.block.text(this.#entry.typeNameKey);
  }

  /** The stored sort key (P919 of the name in every known file). */
  get sortKey(): number {
    return this.#entry.sortKey >>> 0;
  }

  get primaryCount(): number {
    return this.#entry.primaryCount;
  }

  get secondaryCount(): number {
    return this.#entry.secondaryCount;
  }

  /** Primaries plus secondaries. */
  get recordCount(): number {
    return this.#entry.primaryCount + this.#entry.secondaryCount;
  }

  /** Global index of the first record (its first primary, else its first secondary). */
  get firstRecord(): number {
    return this.db.categoryFirstRecord[this.ordinal]!;
  }

  /** The record at `index` in link order (primaries first), or `undefined` past the end. */
  at(index: number): DbRecord | undefined {
    return Number.isInteger(index) && index >= 0 && index < this.recordCount ? new DbRecord(this.db, this.firstRecord + index) : undefined;
  }

  /** A page of records in link order: `offset`, at most `limit` (for listings of 17,000-record categories). */
  records(offset = 0, limit = Number.POSITIVE_INFINITY): DbRecord[] {
    const end = Math.min(this.recordCount, offset + limit);
    const out: DbRecord[] = [];
    for (let i = Math.max(0, offset); i < end; i++) out.push(new DbRecord(this.db, this.firstRecord + i));
    return out;
  }

  /** The record named `ref` (name, P919 hash, `0x…` literal), or `#N` for record N in link order. */
  findRecord(ref: NameRef): DbRecord | undefined {
    if (typeof ref === 'string') {
      const m = /^#(\d+)$/.exec(ref);
      if (m) return this.at(Number(m[1]));
      const literal = parseHashLiteral(ref);
      if (literal !== undefined) return this.findRecord(literal);
      if (!canHashP919(ref, { table: this.db.table })) {
        // A name with a character of unknown P919 value: matched by text, ignoring case as the hash does.
        const wanted = ref.toLowerCase();
        for (let i = this.primaryCount; i < this.recordCount; i++) {
          const r = new DbRecord(this.db, this.firstRecord + i);
          if (r.name!.toLowerCase() === wanted) return r;
        }
        return undefined;
      }
      const hash = this.db.hash(ref);
      return this.findRecord(hash);
    }
    const found = this.db.searchSecondaries(this, ref >>> 0);
    return found < 0 ? undefined : new DbRecord(this.db, found);
  }

  /** The first record whose run has fields (the probe for a field slot), if any. */
  firstRecordWithFields(): DbRecord | undefined {
    const { descriptorCount } = this.db.model.records;
    for (let r = this.firstRecord; r < this.firstRecord + this.recordCount; r++) if (descriptorCount[r]! > 0) return new DbRecord(this.db, r);
    return undefined;
  }

  /** True for the `_Structures*` categories that hold inline (primary) structure arrays. */
  get isStructures(): boolean {
    return this.name.startsWith('_Structures');
  }
}

/**
 * A record. Identified by its category and name (secondaries) or its index in the category (primaries, which
 * have no name). A light view: holds the database and a global index.
 */
export class DbRecord {
  readonly db: Database;
  /** Global index in file order; stable for the life of the database (a handle for script VMs). */
  readonly index: number;

  constructor(db: Database, index: number) {
    this.db = db;
    this.index = index;
  }

  get category(): Category {
    return this.db.categories[this.db.recordCategory[this.index]!]!;
  }

  /** Position in the category in link order (primaries first). */
  get indexInCategory(): number {
    return this.index - this.db.categoryFirstRecord[this.db.recordCategory[this.index]!]!;
  }

  /** True for an inline-structure record (no name; H-PRIM-HDR). */
  get isPrimary(): boolean {
    return this.indexInCategory < this.db.model.categories[this.db.recordCategory[this.index]!]!.primaryCount;
  }

  /** The record's name, `undefined` for a primary. */
  get name(): string | undefined {
    return this.isPrimary ? undefined : this.db.block.text(this.db.model.records.nameKey[this.index]!);
  }

  /** P919 of the name (the key FindRecord searches), `undefined` for a primary or a name that cannot be hashed. */
  get nameHash(): number | undefined {
    if (this.isPrimary) return undefined;
    const h = this.db.hashRecordName(this.index);
    return h < 0 ? undefined : h;
  }

  /** The name, or `#N` (N = index in the category) for a primary: what `findRecord` accepts back. */
  get label(): string {
    return this.name ?? `#${this.indexInCategory}`;
  }

  /** `Category:Name` (category names may contain `/`, so the separator is `:`). */
  get path(): string {
    return `${this.category.name}:${this.label}`;
  }

  /** The link word that names this record: `(categoryOrdinal << 20) | indexInCategory`. */
  get linkValue(): number {
    return ((this.db.recordCategory[this.index]! << LINK_INDEX_BITS) | this.indexInCategory) >>> 0;
  }

  get descriptorCount(): number {
    return this.db.model.records.descriptorCount[this.index]!;
  }

  get firstDescriptor(): number {
    return this.db.model.records.firstDescriptor[this.index]!;
  }

  get cellCount(): number {
    return this.db.model.records.cellCount[this.index]!;
  }

  /** Index in `model.cells` of the record's first cell. */
  get cellStart(): number {
    return this.db.recordCellStart[this.index]!;
  }

  /** Header byte +0x0B (0x08 in every sample record; H-REC-FLAGS). */
  get flags(): number {
    return this.db.model.records.flags[this.index]!;
  }

  /**
   * Flag 0x10: a native-structure record, whose instance the engine lays out by its type's reflected slots, not by
   * the slot rule (seed "Native-structure records"; every behaviour-graph record sets it, no game-database record
   * does). scry still reads it by the slot rule, which for such a record is a guess (H-REC-FLAGS).
   */
  get isNativeStructure(): boolean {
    return (this.flags & 0x10) !== 0;
  }

  /** The record's own cells (a view). */
  get cells(): Uint32Array {
    return this.db.model.cells.subarray(this.cellStart, this.cellStart + this.cellCount);
  }

  equals(other: DbRecord): boolean {
    return other.db === this.db && other.index === this.index;
  }

  /** The record's fields in declaration order. */
  fields(): Field[] {
    const first = this.firstDescriptor;
    const out: Field[] = [];
    for (let i = 0; i < this.descriptorCount; i++) out.push(new Field(this, first + i));
    return out;
  }

  /**
   * The descriptor row of field `ref` in this record's own run: binary search of the sorted hash column, then the
   * permutation byte (FindDescriptorPermuted). -1 when the run has no such field.
   */
  findDescriptor(hash: number): number {
    const d = this.db.model.descriptors;
    const first = this.firstDescriptor;
    const n = this.descriptorCount;
    if (first + n > d.count) throw new FormatError('gadb', 0, `/records[${this.index}]`, `run [${first}, ${first + n}) past the ${d.count} descriptors`);
    let lo = first;
    let hi = first + n - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const key = d.sortedHash[mid]!;
      if (key < hash) lo = mid + 1;
      else if (key > hash) hi = mid - 1;
      else {
        const decl = d.sortedToDeclared[mid]!;
        return decl < n ? first + decl : -1;
      }
    }
    return -1;
  }

  /** The field named `ref` (name, hash, `0x…` literal or slot), or `undefined`. */
  field(ref: FieldRef): Field | undefined {
    const row = this.#row(ref);
    return row < 0 ? undefined : new Field(this, row);
  }

  #row(ref: FieldRef): number {
    if (ref instanceof FieldSlot) return this.#slotRow(ref);
    if (typeof ref === 'number') return this.findDescriptor(ref >>> 0);
    const literal = parseHashLiteral(ref);
    return this.findDescriptor(literal ?? this.db.hash(ref));
  }

  /** The fast path: the cached index applied to this record's run, no search. */
  #slotRow(slot: FieldSlot): number {
    if (slot.declIndex >= this.descriptorCount) return -1;
    const row = this.firstDescriptor + slot.declIndex;
    if (this.db.model.descriptors.declaredHash[row] !== slot.hash) {
      throw new SlotMismatchError(
        `slot ${slot.label} (index ${slot.declIndex} of ${slot.category.name}) does not fit record ${this.path}: its field there is ${formatHash(this.db.model.descriptors.declaredHash[row]!)}`,
      );
    }
    return row;
  }

  /** True when the record's run declares the field (it may still have count 0, i.e. no value). */
  has(ref: FieldRef): boolean {
    return this.#row(ref) >= 0;
  }

  /** Element count of the field in this record (0 when absent). */
  count(ref: FieldRef): number {
    const row = this.#row(ref);
    return row < 0 ? 0 : this.db.model.descriptors.elementCount[row]!;
  }

  /** Element `element` of the field, decoded by its type; `undefined` when the slot rule gives no value. */
  get(ref: FieldRef, element = 0): FieldValue | undefined {
    const row = this.#row(ref);
    return row < 0 ? undefined : decodeElement(this, row, element);
  }

  /** Every element of the field, decoded (empty when absent or count 0). */
  values(ref: FieldRef): FieldValue[] {
    const row = this.#row(ref);
    return row < 0 ? [] : new Field(this, row).values();
  }

  #typed(ref: FieldRef, want: readonly number[], wantName: string): number {
    const row = this.#row(ref);
    if (row < 0) return -1;
    const type = this.db.model.descriptors.typeCode[row]! & GADB_TYPE_MASK;
    if (!want.includes(type)) {
      throw new FieldTypeError(`field ${new Field(this, row).label} of ${this.path} is ${gadbTypeName(this.db.model.descriptors.typeCode[row]!)}, not ${wantName}`, wantName, gadbTypeName(type));
    }
    return row;
  }

  /** Bool element (bit `link + i` of the record's bool words); `fallback` when the slot rule gives no value. */
  getBool(ref: FieldRef, element = 0, fallback = false): boolean {
    const row = this.#typed(ref, [T.Bool], 'Bool');
    const v = row < 0 ? undefined : decodeElement(this, row, element);
    return v === undefined ? fallback : (v as boolean);
  }

  getFloat(ref: FieldRef, element = 0, fallback = 0): number {
    const row = this.#typed(ref, [T.Float], 'Float');
    const v = row < 0 ? undefined : decodeElement(this, row, element);
    return v === undefined ? fallback : (v as number);
  }

  getInt(ref: FieldRef, element = 0, fallback = 0): number {
    const row = this.#typed(ref, [T.Int], 'Int');
    const v = row < 0 ? undefined : decodeElement(this, row, element);
    return v === undefined ? fallback : (v as number);
  }

  /** A String (plain or resource path, 0x44). */
  getString(ref: FieldRef, element = 0, fallback = ''): string {
    const row = this.#typed(ref, [T.String], 'String');
    const v = row < 0 ? undefined : decodeElement(this, row, element);
    return v === undefined ? fallback : (v as string);
  }

  /** A StringEnum: its text and its P919 (the value the engine's cell holds after loading). */
  getEnum(ref: FieldRef, element = 0): EnumValue | undefined {
    const row = this.#typed(ref, [T.StringEnum], 'StringEnum');
    return row < 0 ? undefined : (decodeElement(this, row, element) as EnumValue | undefined);
  }

  getInt64(ref: FieldRef, element = 0, fallback = 0n): bigint {
    const row = this.#typed(ref, [T.Int64], 'Int64');
    const v = row < 0 ? undefined : decodeElement(this, row, element);
    return v === undefined ? fallback : (v as bigint);
  }

  getFloatPair(ref: FieldRef, element = 0): readonly [number, number] | undefined {
    const row = this.#typed(ref, [T.FloatPair], 'FloatPair');
    return row < 0 ? undefined : (decodeElement(this, row, element) as readonly [number, number] | undefined);
  }

  getVector3(ref: FieldRef, element = 0): readonly [number, number, number] | undefined {
    const row = this.#typed(ref, [T.Vector3], 'Vector3');
    return row < 0 ? undefined : (decodeElement(this, row, element) as readonly [number, number, number] | undefined);
  }

  /** A curve of any curve type (12 to 16). */
  getCurve(ref: FieldRef, element = 0): readonly CurveKey[] | undefined {
    const row = this.#typed(ref, [12, 13, 14, 15, 16], 'a curve');
    return row < 0 ? undefined : (decodeElement(this, row, element) as readonly CurveKey[] | undefined);
  }

  /** The record a RecordLink names, `null` for a null or out-of-range link, `undefined` when there is no element. */
  getLink(ref: FieldRef, element = 0): DbRecord | null | undefined {
    const row = this.#typed(ref, [T.RecordLink, T.RecordLink11], 'RecordLink');
    return row < 0 ? undefined : (decodeElement(this, row, element) as DbRecord | null | undefined);
  }

  /** Outgoing links: every (field, element, target) of this record's RecordLink fields, nulls included. */
  links(): Array<{ field: Field; element: number; raw: number; target: DbRecord | null }> {
    const out: Array<{ field: Field; element: number; raw: number; target: DbRecord | null }> = [];
    for (const f of this.fields()) {
      if (GADB_STORAGE_BY_TYPE_BYTE[f.typeByte] !== GadbStorageCode.Link) continue;
      for (let e = 0; e < f.count; e++) {
        const raw = f.raw(e);
        if (raw !== undefined) out.push({ field: f, element: e, raw, target: this.db.resolveLink(raw) });
      }
    }
    return out;
  }

  /** Records whose links name this one (the reverse index). */
  referencedBy(): Reference[] {
    return this.db.referencedBy(this);
  }
}

/** A field of one record: a descriptor row of the record's own run. */
export class Field {
  readonly record: DbRecord;
  /** Global descriptor row. */
  readonly row: number;

  constructor(record: DbRecord, row: number) {
    this.record = record;
    this.row = row;
  }

  get #d() {
    return this.record.db.model.descriptors;
  }

  /** Declaration index within the run (what a field slot caches). */
  get declIndex(): number {
    return this.row - this.record.firstDescriptor;
  }

  /** P919 of the field's name. */
  get hash(): number {
    return this.#d.declaredHash[this.row]!;
  }

  /** The name from the database's dictionary, if known. */
  get name(): string | undefined {
    return this.record.db.names.get(this.hash);
  }

  /** The name, or the hash as `0x%08X`. */
  get label(): string {
    return this.name ?? formatHash(this.hash);
  }

  /** The raw type byte (flags included). */
  get typeByte(): number {
    return this.#d.typeCode[this.row]!;
  }

  /** The codec's type-table row, `undefined` for an unknown code. */
  get type(): GadbTypeInfo | undefined {
    return gadbTypeInfo(this.typeByte);
  }

  /** `Float`, `String|ResourcePath`, `Type0x2A`… */
  get typeName(): string {
    return gadbTypeName(this.typeByte);
  }

  /** True for a resource-path String (flag 0x40, H-FLAG-40). */
  get isResourcePath(): boolean {
    return isResourcePathType(this.typeByte);
  }

  /** Element count in this record (0 = no value). */
  get count(): number {
    return this.#d.elementCount[this.row]!;
  }

  /** First cell, or for a Bool the bit index. */
  get link(): number {
    return this.#d.link[this.row]!;
  }

  /** The editor's schema ordinal (+0x08). */
  get schemaOrdinal(): number {
    return this.#d.schemaOrdinal[this.row]!;
  }

  /**
   * The model cell index of element `i` by the slot rule, or -1 when `i >= count` or the cell lies outside the
   * record's own cells (a broken file; `verifyGadb` reports it). For a Bool, the index of its bool word.
   */
  cellIndex(i = 0): number {
    if (!Number.isInteger(i) || i < 0 || i >= this.count) return -1;
    const local = GADB_STORAGE_BY_TYPE_BYTE[this.typeByte] === GadbStorageCode.Bit ? (this.link + i) >>> 5 : this.link + i;
    return local < this.record.cellCount ? this.record.cellStart + local : -1;
  }

  /** The raw 32-bit cell of element `i` (for a Bool, its whole bool word), `undefined` when none. */
  raw(i = 0): number | undefined {
    const c = this.cellIndex(i);
    return c < 0 ? undefined : this.record.db.model.cells[c]!;
  }

  /** Element `i`, decoded; `undefined` when the slot rule gives no value. */
  value(i = 0): FieldValue | undefined {
    return decodeElement(this.record, this.row, i);
  }

  /**
   * How many of the `count` elements the record's cells hold (the slot rule gives no value past the record's
   * end): a broken count cannot make a read walk more elements than the record has cells (or bits).
   */
  get presentCount(): number {
    return presentElements(DECODE_AS[this.typeByte]!, this.record.cellCount, this.link, this.count);
  }

  /** Every element, decoded (the `presentCount` first ones: elements past the record's cells have no value). */
  values(): FieldValue[] {
    const out: FieldValue[] = [];
    for (let i = 0, n = this.presentCount; i < n; i++) {
      const v = decodeElement(this.record, this.row, i);
      if (v !== undefined) out.push(v);
    }
    return out;
  }

  /** For block types: how many cells in the database point at the value of element `i` (1 = not shared). */
  sharedCount(i = 0): number | undefined {
    if (GADB_STORAGE_BY_TYPE_BYTE[this.typeByte] !== GadbStorageCode.Block) return undefined;
    const raw = this.raw(i);
    return raw === undefined ? undefined : this.record.db.sharedCount(raw);
  }
}

/**
 * A reusable view of one field of one record at a time: the fast way to read many records. It holds indexes
 * only, and reads the model's columns through `Database.decodeAt`; nothing is allocated per record, field or
 * element but a link's `DbRecord` (numbers and booleans are plain values; texts, enum values and block values are
 * decoded once per distinct string-block item and shared; `linkTarget` gives a link's target index with no
 * allocation at all).
 *
 *     const cur = db.cursor();
 *     for (let r = 0; r < db.recordCount; r++) {
 *       cur.seek(r);
 *       while (cur.nextField()) {
 *         if (cur.isLink) for (let e = 0; e < cur.count; e++) useLink(cur.hash, cur.linkTarget(e));
 *         else for (let e = 0; e < cur.count; e++) use(cur.hash, cur.value(e));
 *       }
 *     }
 *
 * The object API (`DbRecord`, `Field`) answers the same questions one object per record and field; a cursor is
 * to it what a database cursor is to a result set. Fields come in declaration order, as `DbRecord.fields()`.
 * To read every cell, `readRecord()` decodes all of a record's elements at once (about half the time of
 * `value(e)` field by field on the game database; docs/gamedb.md).
 */
export class FieldCursor {
  readonly db: Database;
  readonly #cells: Uint32Array;
  readonly #f32: Float32Array;
  readonly #d: Gadb['descriptors'];
  /**
   * The columns the hot paths read, held by the cursor itself: each is then one load from the cursor, where
   * `this.#d.typeCode` is two and a module constant a context load and a check that it is initialized.
   */
  readonly #recordCount: number;
  readonly #firstDescriptor: Uint32Array;
  readonly #descriptorCount: Uint8Array;
  readonly #recordCells: Uint16Array;
  readonly #recordCellStart: Uint32Array;
  readonly #typeCode: Uint8Array;
  readonly #elementCount: Uint16Array;
  readonly #links: Uint16Array;
  readonly #decodeAs: Uint8Array = DECODE_AS;
  /** The string block's key → item index (its two columns) and per-item texts (`BlockReader.textTable`). */
  readonly #itemBits: Uint32Array;
  readonly #itemsBefore: Uint32Array;
  readonly #texts: Array<string | undefined>;
  /** `Database.linkSpans`, for `linkTarget`. */
  readonly #linkSpans: Int32Array;
  /** `readRecord`'s plans, its outputs, and the run whose plan it read last (`#plan`: its offset in the plans' pool). */
  #plans: RecordPlans | undefined;
  #planFirst = -1;
  #planCount = -1;
  #plan = 0;
  #numbers = new Float64Array(64);
  #objects: Array<FieldValue | undefined> = new Array<FieldValue | undefined>(64).fill(undefined);
  #record = -1;
  #first = 0;
  #end = 0;
  #base = 0;
  #own = 0;
  #row = -1;
  #count = 0;
  /**
   * The current field's decoding (`DECODE_AS`), its first cell (a Bool: first bit) relative to the record, and
   * the pool index of that cell (not a Bool).
   */
  #as = 0;
  #link = 0;
  #cell = 0;
  /**
   * Index of the current field's first element among the record's elements (`readRecord`'s outputs), kept by
   * `nextField`; negative when not known (after `at`, which moves without summing the fields it skips):
   * `elementIndex` then sums them.
   */
  #elementAt = 0;

  constructor(db: Database) {
    this.db = db;
    this.#cells = db.model.cells;
    this.#f32 = db.cellsF32;
    const { records, descriptors } = db.model;
    this.#d = descriptors;
    this.#recordCount = records.count;
    this.#firstDescriptor = records.firstDescriptor;
    this.#descriptorCount = records.descriptorCount;
    this.#recordCells = records.cellCount;
    this.#recordCellStart = db.recordCellStart;
    this.#typeCode = descriptors.typeCode;
    this.#elementCount = descriptors.elementCount;
    this.#links = descriptors.link;
    const items = db.block.items;
    this.#itemBits = items.bits;
    this.#itemsBefore = items.before;
    this.#texts = db.block.textTable;
    this.#linkSpans = db.linkSpans;
  }

  /** Global index of the current record (-1 before the first `seek`). */
  get record(): number {
    return this.#record;
  }

  /** Number of fields (descriptors) the current record declares. */
  get fieldCount(): number {
    return this.#end - this.#first;
  }

  /**
   * Positions the cursor at record `record` (global index, file order), before its first field; throws a
   * `NotFoundError` outside `[0, db.recordCount)`.
   */
  seek(record: number): this {
    if (record >>> 0 !== record || record >= this.#recordCount) noSuchRecord(record, this.#recordCount);
    this.#record = record;
    const first = this.#firstDescriptor[record]!;
    this.#first = first;
    this.#end = first + this.#descriptorCount[record]!;
    this.#base = this.#recordCellStart[record]!;
    this.#own = this.#recordCells[record]!;
    this.#row = first - 1;
    this.#count = 0;
    this.#elementAt = 0;
    return this;
  }

  /** Moves to the current record's next field (the first after `seek`); false past the last. */
  nextField(): boolean {
    const row = this.#row + 1;
    if (row >= this.#end) {
      this.#row = this.#end;
      this.#count = 0;
      return false;
    }
    this.#elementAt += this.#count;
    this.#enter(row);
    return true;
  }

  /** Moves to the field at declaration index `index` of the current record (e.g. a `FieldSlot`'s); false when there is none. */
  at(index: number): boolean {
    if (this.#record < 0 || index >>> 0 !== index || this.#first + index >= this.#end) return false;
    // Not known until asked: below -2^24, more than the elements of any run (255 fields of at most 65535), so the
    // counts `nextField` adds keep it negative.
    this.#elementAt = -(1 << 30);
    this.#enter(this.#first + index);
    return true;
  }

  #enter(row: number): void {
    this.#row = row;
    const as = this.#decodeAs[this.#typeCode[row]!]!;
    const link = this.#links[row]!;
    const n = this.#elementCount[row]!;
    this.#as = as;
    this.#link = link;
    this.#cell = this.#base + link;
    this.#count = presentElements(as, this.#own, link, n);
  }

  /** Global descriptor row of the current field (-1 outside a field). */
  get row(): number {
    return this.#row >= this.#first && this.#row < this.#end ? this.#row : -1;
  }

  /** Declaration index of the current field within the record's run. */
  get declIndex(): number {
    return this.#row - this.#first;
  }

  /** P919 of the current field's name. */
  get hash(): number {
    return this.#d.declaredHash[this.#row]!;
  }

  /** The current field's raw type byte (flags included; `gadbTypeInfo` names it); 0 outside a field. */
  get typeByte(): number {
    return this.#typeCode[this.row] ?? 0;
  }

  /**
   * True when `readRecord` gives the current field's elements as numbers (`numbers`): Bool (1 or 0), Float, Int,
   * RecordLink (the target's index, -1 for null, as `linkTarget`) and a type the table does not name (its raw
   * cell); false when it gives them as values (`objects`: texts, enum values, block values, opaque bytes).
   */
  get numeric(): boolean {
    return ((NUMERIC_DECODINGS >>> this.#as) & 1) === 1;
  }

  /** Index of the current field's first element among the current record's elements, in `readRecord`'s outputs. */
  get elementIndex(): number {
    if (this.#elementAt < 0) {
      let before = 0;
      for (let row = this.#first; row < this.#row; row++) before += presentElements(this.#decodeAs[this.#typeCode[row]!]!, this.#own, this.#links[row]!, this.#elementCount[row]!);
      this.#elementAt = before;
    }
    return this.#elementAt;
  }

  /** True when the current field is a RecordLink (type 10 or 11): `linkTarget` reads it with no allocation. */
  get isLink(): boolean {
    return this.#as === (8 satisfies typeof DecodeAs.Link);
  }

  /**
   * How many elements of the current field the record holds: its element count, less any past the record's own
   * cells (a broken file), as `Field.presentCount`. Elements `[0, count)` all have values.
   */
  get count(): number {
    return this.#count;
  }

  /**
   * Element `element` of the current field, decoded as `Field.value` (`Database.decodeAt`) does; `undefined` when the
   * slot rule gives none.
   */
  value(element = 0): FieldValue | undefined {
    if (element >>> 0 !== element || element >= this.#count) return undefined;
    const cell = this.#cell + element;
    // The common decodings inline (one switch per element), the rest through the database's decoder.
    switch (this.#as) {
      case (1 satisfies typeof DecodeAs.Bit):
        return cellBit(this.#cells, this.#base, this.#link + element);
      case (2 satisfies typeof DecodeAs.F32):
        return this.#f32[cell]!;
      case (3 satisfies typeof DecodeAs.I32):
        return this.#cells[cell]! | 0;
      case (4 satisfies typeof DecodeAs.Text): {
        const key = this.#cells[cell]!;
        const i = this.#itemOf(key);
        const s = i >= 0 ? this.#texts[i] : undefined;
        return s !== undefined ? s : this.db.block.text(key);
      }
      default:
        return this.db.decodeCell(this.#as, this.#typeCode[this.#row]!, cell);
    }
  }

  /** Index of the string-block item at `key` (`GadbItemIndex.of`), or -1. */
  #itemOf(key: number): number {
    const w = key >>> 2;
    const g = w >>> 5;
    const bits = this.#itemBits;
    if ((key & 3) !== 0 || g >= bits.length) return -1;
    const word = bits[g]!;
    const m = 1 << (w & 31);
    return (word & m) === 0 ? -1 : this.#itemsBefore[g]! + popcount32(word & (m - 1));
  }

  /** The raw 32-bit cell of element `element` (a Bool's whole bool word), `undefined` when none. */
  raw(element = 0): number | undefined {
    if (element >>> 0 !== element || element >= this.#count) return undefined;
    return this.#cells[this.#as === (1 satisfies typeof DecodeAs.Bit) ? this.#base + ((this.#link + element) >>> 5) : this.#cell + element]!;
  }

  /** For a link field: the global index of element `element`'s target record, -1 when null (or no such element). */
  linkTarget(element = 0): number {
    if (element >>> 0 !== element || element >= this.#count) return -1;
    const raw = this.#cells[this.#as === (1 satisfies typeof DecodeAs.Bit) ? this.#base + ((this.#link + element) >>> 5) : this.#cell + element]!;
    return linkTargetIn(this.#linkSpans, raw);
  }

  /**
   * `readRecord`'s numeric outputs: element `elementIndex + e` of a `numeric` field is its element `e`. The array
   * is the cursor's own, replaced by a longer one when a record needs more room: read it after `readRecord`.
   */
  get numbers(): Float64Array {
    return this.#numbers;
  }

  /** `readRecord`'s other outputs, indexed as `numbers`: the values of the elements of fields that are not `numeric` (elsewhere: stale). */
  get objects(): ReadonlyArray<FieldValue | undefined> {
    return this.#objects;
  }

  /**
   * Decodes every element of every field of the current record at once, the fields in declaration order and each
   * field's `count` elements in order, into `numbers` (the elements of `numeric` fields) and `objects` (the
   * others); returns how many elements. Each value is the one `value(e)` gives, a link as `linkTarget(e)` and a Bool
   * as 1 or 0. The fast way to read every cell: the elements are decoded by a plan of the record's descriptor run
   * (built once per distinct run, `RecordPlans`), kind by kind, with no branch per field; a record whose cells do
   * not hold all of its run's elements (a broken file) is decoded field by field instead. Throws the error
   * `value(e)` would for an element that cannot be decoded (a block key where no item starts).
   */
  readRecord(): number {
    if (this.#record < 0) return 0;
    const plans = (this.#plans ??= this.db.recordPlans);
    const first = this.#first;
    const count = this.#end - first;
    if (first !== this.#planFirst || count !== this.#planCount) {
      this.#plan = plans.of(first, count);
      this.#planFirst = first;
      this.#planCount = count;
    }
    const pool = plans.pool;
    const p = this.#plan;
    if (p < 0 || this.#own < pool[p + PLAN_NEED]!) return this.#readFieldByField();
    const total = pool[p + PLAN_TOTAL]!;
    if (total > this.#numbers.length) this.#reserve(total);
    const cells = this.#cells;
    const f32 = this.#f32;
    const base = this.#base;
    const out = this.#numbers;
    const objects = this.#objects;
    // Entries `(element << 17) | slot`, one group per decoding (the plan's layout: `RecordPlans`).
    let i = p + PLAN_HEADER;
    for (let end = pool[p + PLAN_ENDS + (0 satisfies typeof DecodeAs.Raw)]!; i < end; i++) {
      const w = pool[i]!;
      out[w >>> 17] = cells[base + (w & 0x1ffff)]!;
    }
    for (let end = pool[p + PLAN_ENDS + (1 satisfies typeof DecodeAs.Bit)]!; i < end; i++) {
      const w = pool[i]!;
      const bit = w & 0x1ffff;
      out[w >>> 17] = (cells[base + (bit >>> 5)]! >>> (bit & 31)) & 1;
    }
    for (let end = pool[p + PLAN_ENDS + (2 satisfies typeof DecodeAs.F32)]!; i < end; i++) {
      const w = pool[i]!;
      out[w >>> 17] = f32[base + (w & 0x1ffff)]!;
    }
    for (let end = pool[p + PLAN_ENDS + (3 satisfies typeof DecodeAs.I32)]!; i < end; i++) {
      const w = pool[i]!;
      out[w >>> 17] = cells[base + (w & 0x1ffff)]! | 0;
    }
    for (let end = pool[p + PLAN_ENDS + (4 satisfies typeof DecodeAs.Text)]!; i < end; i++) {
      const w = pool[i]!;
      objects[w >>> 17] = this.#text(cells[base + (w & 0x1ffff)]!);
    }
    for (let end = pool[p + PLAN_ENDS + (5 satisfies typeof DecodeAs.Enum)]!; i < end; i++) {
      const w = pool[i]!;
      objects[w >>> 17] = this.db.enumValue(cells[base + (w & 0x1ffff)]!);
    }
    // Block values and opaque bytes: two words an entry, the second the field's type byte.
    for (let end = pool[p + PLAN_ENDS + (6 satisfies typeof DecodeAs.BlockValue)]!; i < end; i += 2) {
      const w = pool[i]!;
      objects[w >>> 17] = this.db.decodeCell(6 satisfies typeof DecodeAs.BlockValue, pool[i + 1]!, base + (w & 0x1ffff));
    }
    for (let end = pool[p + PLAN_ENDS + (7 satisfies typeof DecodeAs.Opaque)]!; i < end; i += 2) {
      const w = pool[i]!;
      objects[w >>> 17] = this.db.decodeCell(7 satisfies typeof DecodeAs.Opaque, pool[i + 1]!, base + (w & 0x1ffff));
    }
    for (let end = pool[p + PLAN_ENDS + (8 satisfies typeof DecodeAs.Link)]!; i < end; i++) {
      const w = pool[i]!;
      out[w >>> 17] = linkTargetIn(this.#linkSpans, cells[base + (w & 0x1ffff)]!);
    }
    return total;
  }

  /** `readRecord` for a record whose cells do not hold its run's elements: field by field, each field's `count` (`presentElements`) elements. */
  #readFieldByField(): number {
    const own = this.#own;
    const base = this.#base;
    let total = 0;
    for (let row = this.#first; row < this.#end; row++) total += presentElements(this.#decodeAs[this.#typeCode[row]!]!, own, this.#links[row]!, this.#elementCount[row]!);
    if (total > this.#numbers.length) this.#reserve(total);
    let at = 0;
    for (let row = this.#first; row < this.#end; row++) {
      const typeByte = this.#typeCode[row]!;
      const as = this.#decodeAs[typeByte]!;
      const link = this.#links[row]!;
      const n = presentElements(as, own, link, this.#elementCount[row]!);
      for (let e = 0; e < n; e++, at++) {
        const cell = base + link + e;
        if (as === (1 satisfies typeof DecodeAs.Bit)) this.#numbers[at] = cellBit(this.#cells, base, link + e) ? 1 : 0;
        else if (as === (8 satisfies typeof DecodeAs.Link)) this.#numbers[at] = linkTargetIn(this.#linkSpans, this.#cells[cell]!);
        else if (((NUMERIC_DECODINGS >>> as) & 1) === 1) this.#numbers[at] = this.db.decodeCell(as, typeByte, cell) as number;
        else this.#objects[at] = as === (4 satisfies typeof DecodeAs.Text) ? this.#text(this.#cells[cell]!) : this.db.decodeCell(as, typeByte, cell);
      }
    }
    return total;
  }

  /** The text at `key`, as `value` decodes a String element: the per-item table first, else `BlockReader.text`. */
  #text(key: number): string {
    const i = this.#itemOf(key);
    const s = i >= 0 ? this.#texts[i] : undefined;
    return s !== undefined ? s : this.db.block.text(key);
  }

  /** Room for `n` elements in `readRecord`'s outputs. */
  #reserve(n: number): void {
    const size = Math.max(n, this.#numbers.length * 2);
    this.#numbers = new Float64Array(size);
    const objects = new Array<FieldValue | undefined>(size).fill(undefined);
    this.#objects = objects;
  }
}

/** The decodings whose elements `readRecord` gives as numbers, a bit each (Raw, Bit, F32, I32, Link). */
const NUMERIC_DECODINGS = (1 << 0) | (1 << 1) | (1 << 2) | (1 << 3) | (1 << 8);

/**
 * A plan's header (words of `RecordPlans.pool` at its offset): the run's element count, the cells a record must
 * own for the plan to hold (else 0x10000, more than a record can own: the run has 2^15 elements or more, which an
 * entry cannot index), then the end of each decoding's entries (`DecodeAs` order); the entries follow.
 */
const PLAN_TOTAL = 0;
const PLAN_NEED = 1;
const PLAN_ENDS = 2;
const PLAN_HEADER = 11;

/**
 * How `FieldCursor.readRecord` decodes the records of each distinct descriptor run (the game database has 13,613
 * under 694,632 records): every element of the run's fields, grouped by decoding (`DecodeAs` order: raw, bit,
 * f32, i32, text, enum, block value, opaque, link), each entry one word `(element << 17) | slot`: the element's
 * index among the record's elements (below 2^15) and its cell relative to the record (a Bool: its bit; below
 * 2^17, as a u16 link plus a u16 element index is). Block values and opaque bytes take a second word, the field's
 * type byte. Every run's plan is built at once, on first use, into one pool of the exact size (two passes over
 * the records: 2.6 MB for the game database); a hash table keyed by (first row, count) finds them.
 */
export class RecordPlans {
  /** The plans, back to back. */
  readonly pool: Uint32Array;
  readonly #d: Gadb['descriptors'];
  /** Open addressing: per slot the run's first row and count (`-1`: empty) and its plan's offset. */
  #keyFirst = new Int32Array(1 << 10).fill(-1);
  #keyCount = new Int32Array(1 << 10);
  #offset = new Int32Array(1 << 10);
  /** 32 - log2(the table's size): `gadbRunSlot` keeps the hash's top bits. */
  #shift = 22;
  #runs = 0;
  /** `#fill`'s scratch: per decoding, its entries' words, then where the next entry goes. */
  readonly #words = new Int32Array(9);
  readonly #fillAt = new Int32Array(9);

  constructor(model: Gadb) {
    this.#d = model.descriptors;
    const { count, firstDescriptor, descriptorCount } = model.records;
    // Pass 1: each distinct run its slot and its plan's offset; pass 2: the plans.
    let size = 0;
    for (let r = 0; r < count; r++) {
      const first = firstDescriptor[r]!;
      const n = descriptorCount[r]!;
      const h = this.#slot(first, n);
      if (this.#keyFirst[h]! >= 0) continue;
      this.#keyFirst[h] = first;
      this.#keyCount[h] = n;
      this.#offset[h] = size;
      size += this.#size(first, n);
      if (++this.#runs * 2 > this.#keyFirst.length) this.#rehash();
    }
    this.pool = new Uint32Array(size);
    for (let h = 0; h < this.#keyFirst.length; h++) if (this.#keyFirst[h]! >= 0) this.#fill(this.#keyFirst[h]!, this.#keyCount[h]!, this.#offset[h]!);
  }

  /** The offset in `pool` of the plan of the run of `count` rows from row `first`, -1 for a run no record has. */
  of(first: number, count: number): number {
    const h = this.#slot(first, count);
    return this.#keyFirst[h]! < 0 ? -1 : this.#offset[h]!;
  }

  /** The run's slot in the table, or the empty slot where it would go. */
  #slot(first: number, count: number): number {
    const keyFirst = this.#keyFirst;
    const mask = keyFirst.length - 1;
    let h = gadbRunSlot(first, count, this.#shift);
    for (;;) {
      const k = keyFirst[h]!;
      if (k < 0 || (k === first && this.#keyCount[h] === count)) return h;
      h = (h + 1) & mask;
    }
  }

  #rehash(): void {
    const [keyFirst, keyCount, offset] = [this.#keyFirst, this.#keyCount, this.#offset];
    const size = keyFirst.length * 2;
    this.#keyFirst = new Int32Array(size).fill(-1);
    this.#keyCount = new Int32Array(size);
    this.#offset = new Int32Array(size);
    this.#shift--;
    for (let s = 0; s < keyFirst.length; s++) {
      if (keyFirst[s]! < 0) continue;
      const h = this.#slot(keyFirst[s]!, keyCount[s]!);
      this.#keyFirst[h] = keyFirst[s]!;
      this.#keyCount[h] = keyCount[s]!;
      this.#offset[h] = offset[s]!;
    }
  }

  /** The words of the run's plan: the header, and an entry per element (two for block values and opaque bytes) when it has fewer than 2^15. */
  #size(first: number, count: number): number {
    const { typeCode, elementCount } = this.#d;
    let total = 0;
    let words = PLAN_HEADER;
    for (let row = first, end = Math.min(first + count, this.#d.count); row < end; row++) {
      const as = DECODE_AS[typeCode[row]!]!;
      const n = elementCount[row]!;
      total += n;
      words += as === (6 satisfies typeof DecodeAs.BlockValue) || as === (7 satisfies typeof DecodeAs.Opaque) ? 2 * n : n;
    }
    return total < 1 << 15 ? words : PLAN_HEADER;
  }

  /** Writes the plan of the run (`count` rows from `first`) at `p`. */
  #fill(first: number, count: number, p: number): void {
    const { typeCode, elementCount, link } = this.#d;
    const pool = this.pool;
    const end = Math.min(first + count, this.#d.count);
    const words = this.#words.fill(0);
    let total = 0;
    let need = 0;
    for (let row = first; row < end; row++) {
      const as = DECODE_AS[typeCode[row]!]!;
      const n = elementCount[row]!;
      if (n === 0) continue;
      total += n;
      const l = link[row]!;
      need = Math.max(need, as === (1 satisfies typeof DecodeAs.Bit) ? ((l + n - 1) >>> 5) + 1 : l + n);
      words[as]! += as === (6 satisfies typeof DecodeAs.BlockValue) || as === (7 satisfies typeof DecodeAs.Opaque) ? 2 * n : n;
    }
    const plannable = total < 1 << 15;
    pool[p + PLAN_TOTAL] = total;
    pool[p + PLAN_NEED] = plannable ? need : 0x10000;
    const fill = this.#fillAt;
    let at = p + PLAN_HEADER;
    for (let g = 0; g < 9; g++) {
      fill[g] = at;
      if (plannable) at += words[g]!;
      pool[p + PLAN_ENDS + g] = at;
    }
    if (!plannable) return;
    let element = 0;
    for (let row = first; row < end; row++) {
      const typeByte = typeCode[row]!;
      const as = DECODE_AS[typeByte]!;
      const l = link[row]!;
      for (let e = 0, n = elementCount[row]!; e < n; e++, element++) {
        pool[fill[as]!++] = (element << 17) | (l + e);
        if (as === (6 satisfies typeof DecodeAs.BlockValue) || as === (7 satisfies typeof DecodeAs.Opaque)) pool[fill[as]!++] = typeByte;
      }
    }
  }
}

/**
 * Per possible category ordinal of a link word (12 bits: 4,096), its first record and record count, interleaved
 * (`[2c]`, `[2c + 1]`); ordinals past the table have none. The last ordinal holds at most 0xFFFFF records, so
 * that the null word 0xFFFFFFFF (ordinal 4095, index 0xFFFFF) never resolves.
 */
function linkSpansOf(categoryFirstRecord: Uint32Array): Int32Array {
  const ordinals = 1 << (32 - LINK_INDEX_BITS);
  const spans = new Int32Array(ordinals * 2);
  for (let c = 0; c + 1 < categoryFirstRecord.length && c < ordinals; c++) {
    spans[2 * c] = categoryFirstRecord[c]!;
    spans[2 * c + 1] = Math.min(categoryFirstRecord[c + 1]! - categoryFirstRecord[c]!, c === ordinals - 1 ? NULL_LINK & LINK_INDEX_MASK : LINK_INDEX_MASK + 1);
  }
  return spans;
}

/**
 * The global index of the record a link word names (H-PRIM-FIRST: primaries first), or -1 for the null word and
 * for an ordinal or index out of range, without a branch: two thirds of the game database's links are null, in no
 * order a branch predictor could follow.
 */
function linkTargetIn(spans: Int32Array, raw: number): number {
  const at = (raw >>> (20 satisfies typeof LINK_INDEX_BITS)) << 1;
  const index = raw & (0xfffff satisfies typeof LINK_INDEX_MASK);
  // All ones when index < count (both below 2^21), else zero.
  const inRange = (index - spans[at + 1]!) >> 31;
  return ((spans[at]! + index) & inRange) | ~inRange;
}

/** The cursor's error for a record outside the database (out of line: `seek` stays small enough to inline). */
function noSuchRecord(record: number, count: number): never {
  throw new NotFoundError(`no record #${record} (the database has ${count})`);
}

/**
 * How many of a field's `count` elements a record of `own` cells holds when the field runs past them (a broken
 * file): those before the record's end (its last bit, for a Bool).
 */
function presentElements(as: number, own: number, link: number, count: number): number {
  const room = (as === (1 satisfies typeof DecodeAs.Bit) ? own * 32 : own) - link;
  return room <= 0 ? 0 : count < room ? count : room;
}

/** Bit `local & 31` of cell `base + (local >>> 5)`: a Bool element (H-BOOL-ARRAY for element > 0: consecutive bits). */
function cellBit(cells: Uint32Array, base: number, local: number): boolean {
  return ((cells[base + (local >>> 5)]! >>> (local & 31)) & 1) === 1;
}

/**
 * A cached field index for records of one category (the engine's schema slot, seed "Reading a field").
 * Pass it wherever a field name is accepted: `record.getFloat(slot)`.
 */
export class FieldSlot {
  readonly category: Category;
  readonly hash: number;
  /** The cached declaration index. */
  readonly declIndex: number;
  readonly name: string | undefined;

  constructor(category: Category, hash: number, declIndex: number, name?: string) {
    this.category = category;
    this.hash = hash >>> 0;
    this.declIndex = declIndex;
    this.name = name;
  }

  get label(): string {
    return this.name ?? formatHash(this.hash);
  }
}

/**
 * How the read API decodes the cells of each type byte, from the codec's type table (`GADB_TYPE_CODES`): one small
 * code per byte, so decoding an element is one table read and one switch.
 *
 * The hot paths compare with literals checked against these names (`case (1 satisfies typeof DecodeAs.Bit)`): in
 * V8's optimized code a module-level constant is a load from the module's context (a heap number, for
 * `NULL_LINK`) at every use, and the property of a constant object one more load, where a literal folds away.
 */
const DecodeAs = { Raw: 0, Bit: 1, F32: 2, I32: 3, Text: 4, Enum: 5, BlockValue: 6, Opaque: 7, Link: 8 } as const;
const DECODE_AS: Uint8Array = (() => {
  const t = new Uint8Array(256);
  for (let b = 0; b < 256; b++) {
    const info = gadbTypeInfo(b);
    if (!info) continue;
    const kind = info.decoding.kind;
    t[b] =
      info.storage === 'bit' ? DecodeAs.Bit
      : kind === 'f32' ? DecodeAs.F32
      : kind === 'i32' ? DecodeAs.I32
      : kind === 'text' ? (info.code === T.StringEnum ? DecodeAs.Enum : DecodeAs.Text)
      : kind === 'fixed' || kind === 'curve' ? DecodeAs.BlockValue
      : kind === 'opaque' ? DecodeAs.Opaque
      : kind === 'link' ? DecodeAs.Link
      : DecodeAs.Raw;
  }
  return t;
})();

/** Decodes element `element` of descriptor `row` of `record` by the slot rule and the type table. */
export function decodeElement(record: DbRecord, row: number, element: number): FieldValue | undefined {
  return record.db.decodeAt(record.index, row, element);
}
