/**
 * The string block's layout rule [V]: after the root name, items appear in the order of their first use in this
 * traversal: for each category in file order, its name (+0x00), its +0x04 string, its +0x08 string; then for each
 * of its records (primaries, then secondaries), the record's name, then the values the record references, field
 * by field in **ascending field-hash order** (the run's sorted column), array elements in order. Each item keeps
 * its own bytes (payload and padding); sharing is whatever the model's keys say (one key, one item).
 *
 * Also here: the one walk every layer shares over a model's cells (`GadbSpanWalk`, spans per distinct run), where
 * each record's cells start (`gadbRecordCellStarts`) and the key → item lookup (`GadbItemIndex`).
 */
import { GADB_STORAGE_BY_TYPE_BYTE, GadbStorageCode } from './type-codes.ts';
import { grow } from '../../binary/grow.ts';
import type { Gadb } from './types.ts';

/** How the writer orders the string block's items. */
export type GadbStringOrder =
  /** The spec's first-use rule (default); items no name or cell references are dropped (the root name stays). */
  | 'first-use'
  /** The model's key order, every item kept: reproduces a file whose block breaks the first-use rule. */
  | 'model';

/** A planned string block. */
export interface GadbStringPlan {
  /** Item indexes (into `strings.itemKeys`) in output order. */
  order: Uint32Array;
  /** Output offset of each item index (-1 when dropped). */
  newOffset: Int32Array;
  /** Key → item index of the model's items. */
  items: GadbItemIndex;
  /** Output block size in bytes. */
  size: number;
  /** True when every item stays at its key (the block is copied as it is and no reference changes). */
  identity: boolean;
}

/** Bit count of a 32-bit word. */
export function popcount32(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

/**
 * Key → item index of a model's string block: a bit per 4-byte word of the block (set where an item starts) and
 * a running count per 32 words, so a lookup is a bit test and a popcount (about 1/16 of the block's size in
 * memory, where a table of one index per word would be the block's size).
 */
export class GadbItemIndex {
  /** Bit `w & 31` of `bits[w >> 5]`: an item starts at key `4w`. */
  readonly bits: Uint32Array;
  /** Items starting before word `32i`. */
  readonly before: Uint32Array;

  /** Indexes `keys` (strictly ascending in a valid model; otherwise a key's index is its rank among the keys). */
  constructor(keys: Uint32Array, dataLength: number) {
    const bits = gadbItemStartBits(keys, dataLength);
    const groups = bits.length;
    const before = new Uint32Array(groups);
    for (let g = 1; g < groups; g++) before[g] = before[g - 1]! + popcount32(bits[g - 1]!);
    this.bits = bits;
    this.before = before;
  }

  /** Index of the item whose key is `key`, or -1 when no item starts there. */
  of(key: number): number {
    if ((key & 3) !== 0) return -1;
    const w = key >>> 2;
    const g = w >>> 5;
    if (g >= this.bits.length) return -1;
    const word = this.bits[g]!;
    const m = 1 << (w & 31);
    if ((word & m) === 0) return -1;
    return this.before[g]! + popcount32(word & (m - 1));
  }
}

/**
 * @internal The item-start bits of `GadbItemIndex` alone (bit `w & 31` of word `w >> 5`: an item starts at key
 * `4w`), for a caller that only asks whether an item starts at a key (the writer's fast path).
 */
export function gadbItemStartBits(keys: Uint32Array, dataLength: number): Uint32Array {
  const groups = (((dataLength >>> 2) + 1) >>> 5) + 1;
  const bits = new Uint32Array(groups);
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    if ((k & 3) !== 0) continue;
    const w = k >>> 2;
    if (w >>> 5 < groups) bits[w >>> 5] = bits[w >>> 5]! | (1 << (w & 31));
  }
  return bits;
}

/** The key → item index of `g`'s string block. */
export function gadbItemIndex(g: Gadb): GadbItemIndex {
  return new GadbItemIndex(g.strings.itemKeys, g.strings.data.byteLength);
}

/** Plans the string block of `g` (`validateGadb` must have passed). */
export function planGadbStringBlock(g: Gadb, order: GadbStringOrder = 'first-use'): GadbStringPlan {
  return planGadbStringBlockWithItems(g, order, gadbItemIndex(g));
}

/**
 * `planGadbStringBlock` with the model's item index already built (internal: shared by write and verify).
 *
 * While the walk finds items in key order (a file written by the first-use rule, or by scry), each item's place
 * is its key: an item is already placed exactly when its key is below the size laid out so far, and the next new
 * one must start right there. Only a reference past that point (an item out of first-use order, or a gap) turns
 * to the general rule, which tracks each item's place.
 */
export function planGadbStringBlockWithItems(g: Gadb, order: GadbStringOrder, items: GadbItemIndex): GadbStringPlan {
  const { itemKeys, itemSizes } = g.strings;
  const n = itemKeys.length;
  const plan = new StringPlanner(itemKeys, itemSizes, items);
  if (order === 'model') {
    for (let i = 0; i < n; i++) plan.place(i);
    return plan.result();
  }
  // The common case (a file written by the first-use rule, or by scry, unchanged): one tight walk that only
  // confirms every item is first used at its own key.
  const identitySize = firstUseInKeyOrder(g);
  if (identitySize >= 0) return identityPlan(itemKeys, items, identitySize);
  if (n > 0) plan.place(items.of(0));
  const { categories, records } = g;
  const nameKey = records.nameKey;
  // Names are placed as the walk reaches their record (records without block fields included).
  let nextRecord = 0;
  let category = -1;
  let categoryEnd = 0;
  let primaryEnd = 0;
  const namesThrough = (r: number): void => {
    for (; nextRecord <= r; nextRecord++) {
      while (nextRecord >= categoryEnd && category + 1 < categories.length) {
        const cat = categories[++category]!;
        plan.reference(cat.nameKey);
        plan.reference(cat.typeNameKey);
        plan.reference(cat.unk08Key);
        primaryEnd = categoryEnd + cat.primaryCount;
        categoryEnd = primaryEnd + cat.secondaryCount;
      }
      if (nextRecord >= primaryEnd && nextRecord < categoryEnd) plan.reference(nameKey[nextRecord]!);
    }
  };
  const cells = g.cells;
  for (const s = gadbSpanWalk(g, 'sorted'); s.next(); ) {
    if (s.record >= nextRecord) namesThrough(s.record);
    for (let k = s.begin; k < s.end; k++) {
      const v = cells[k]!;
      // In key order so far: below the laid-out size means placed already (or not an item key at all).
      if (v >= plan.size || !plan.inKeyOrder) plan.reference(v);
    }
  }
  namesThrough(records.count - 1);
  // Categories after the last record (empty ones) still name items.
  while (category + 1 < categories.length) {
    const cat = categories[++category]!;
    plan.reference(cat.nameKey);
    plan.reference(cat.typeNameKey);
    plan.reference(cat.unk08Key);
  }
  return plan.result();
}

/**
 * The first-use walk of `planGadbStringBlockWithItems` for the case where every item is first used at its own key:
 * the block size when each reference is either below the size laid out so far or the next item's key exactly,
 * and every item gets placed; -1 as soon as one is not (the general planner then does the work). No object, no
 * callback: one pass over the records, their names and their block cells in ascending field-hash order.
 */
function firstUseInKeyOrder(g: Gadb): number {
  const { itemKeys: keys, itemSizes: sizes } = g.strings;
  const n = keys.length;
  if (n === 0 || keys[0] !== 0) return n === 0 ? 0 : -1;
  let size = sizes[0]!;
  let placed = 1;
  const { categories, records, cells } = g;
  const { nameKey, firstDescriptor, descriptorCount, cellCount } = records;
  const starts = gadbRecordCellStarts(g);
  const runs = new GadbRunSpans(g, 'sorted', GadbStorageCode.Block);
  let rec = 0;
  for (let c = 0; c < categories.length; c++) {
    const cat = categories[c]!;
    for (const key of [cat.nameKey, cat.typeNameKey, cat.unk08Key]) {
      if (key < size) continue;
      if (key !== size || placed >= n || keys[placed] !== key) return -1;
      size += sizes[placed++]!;
    }
    const primaryEnd = rec + cat.primaryCount;
    const end = primaryEnd + cat.secondaryCount;
    for (; rec < end; rec++) {
      if (rec >= primaryEnd) {
        const key = nameKey[rec]!;
        if (key >= size) {
          if (key !== size || placed >= n || keys[placed] !== key) return -1;
          size += sizes[placed++]!;
        }
      }
      const fields = descriptorCount[rec]!;
      if (fields === 0) continue;
      const u = runs.run(firstDescriptor[rec]!, fields);
      const spans = runs.spans;
      const base = starts[rec]!;
      const own = cellCount[rec]!;
      for (let q = runs.start[u]! * 3, qEnd = runs.start[u + 1]! * 3; q < qEnd; q += 3) {
        const link = spans[q]!;
        const stop = base + Math.min(own, link + spans[q + 1]!);
        for (let k = base + link; k < stop; k++) {
          const v = cells[k]!;
          if (v < size) continue;
          if (v !== size || placed >= n || keys[placed] !== v) return -1;
          size += sizes[placed++]!;
        }
      }
    }
  }
  return placed === n ? size : -1;
}

/** The plan that keeps every item at its key (`size`: the block's size). */
function identityPlan(keys: Uint32Array, items: GadbItemIndex, size: number): GadbStringPlan {
  const n = keys.length;
  const newOffset = new Int32Array(n);
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    newOffset[i] = keys[i]!;
    order[i] = i;
  }
  return { order, newOffset, items, size, identity: true };
}

/** @internal Size of the string block when its items tile it from 0 in key order (each key the sum of the sizes before it), else -1. */
export function gadbTiledBlockSize(keys: Uint32Array, sizes: Uint32Array): number {
  let size = 0;
  for (let i = 0; i < keys.length; i++) {
    if (keys[i] !== size) return -1;
    size += sizes[i]!;
  }
  return size;
}

/**
 * @internal The first-use rule's key-order walk (`firstUseInKeyOrder`) over a model whose items tile the block in
 * key order (`gadbTiledBlockSize`), fed by a caller that walks the records anyway, in traversal order: each name
 * and block cell must reference an item already laid out (below `size`) or the next one (at `size`), and every
 * item must be reached; the same verdict as the planner's. The writer reads the block cells from its output beside
 * the record header it just wrote, the verifier beside its own checks of the same cells.
 */
export class GadbFirstUseCheck {
  private size: number;
  private placed = 1;
  private readonly n: number;
  private readonly sizes: Uint32Array;
  /**
   * Or, for a block whose items are not derived yet (`itemStarts`: `gadbUnderivedItemStarts`), where they start and
   * the block's end: each item runs to the next start (the derivation's rule, `itemsFromStarts` in parse.ts), and
   * the walk is done when `size` reaches the end. The verifier's `spanCells` walks sizes only.
   */
  private readonly starts: Uint32Array | undefined;
  private readonly blockEnd: number;
  /** The block-type spans of each run in ascending field-hash order (a caller that looks a run up itself passes its spans to `spanCells`). */
  readonly runs: GadbRunSpans;
  private readonly records: Gadb['records'];

  constructor(g: Gadb, itemStarts?: Uint32Array) {
    this.starts = itemStarts;
    this.blockEnd = itemStarts ? g.strings.data.byteLength : 0;
    this.sizes = itemStarts ? new Uint32Array(0) : g.strings.itemSizes;
    this.n = itemStarts ? (this.blockEnd > 0 ? Infinity : 0) : this.sizes.length;
    this.size = itemStarts ? this.startAfter(0) : this.n > 0 ? this.sizes[0]! : 0;
    this.runs = new GadbRunSpans(g, 'sorted', GadbStorageCode.Block);
    this.records = g.records;
  }

  /** A name referencing `key`, in traversal order; false when the rule would move an item. */
  key(key: number): boolean {
    if (key < this.size || this.n === 0) return true;
    return key === this.size && this.next();
  }

  /** Lays out the item at `size` (the next in key order); false when there is none. */
  private next(): boolean {
    if (this.starts) {
      if (this.size >= this.blockEnd) return false;
      this.size = this.startAfter(this.size);
      return true;
    }
    if (this.placed >= this.n) return false;
    this.size += this.sizes[this.placed++]!;
    return true;
  }

  /** The key of the first item after the one at `key` (bits mode), or the block's end. */
  private startAfter(key: number): number {
    const bits = this.starts!;
    let w = (key >>> 2) + 1;
    let g = w >>> 5;
    let x = g < bits.length ? bits[g]! & (-1 << (w & 31)) : 0;
    while (x === 0) {
      if (++g >= bits.length) return this.blockEnd;
      x = bits[g]!;
    }
    w = (g << 5) + (31 - Math.clz32(x & -x));
    return Math.min(w * 4, this.blockEnd);
  }

  /** Record `rec`'s name (a secondary) and block cells (its cells at `words[at]`), field by field in ascending hash order. */
  record(rec: number, named: boolean, words: Uint32Array, at: number): boolean {
    if (named && !this.key(this.records.nameKey[rec]!)) return false;
    return this.cells(rec, words, at);
  }

  /** Record `rec`'s block cells (its cells at `words[at]`), field by field in ascending hash order. */
  cells(rec: number, words: Uint32Array, at: number): boolean {
    const { descriptorCount, firstDescriptor, cellCount } = this.records;
    const fields = descriptorCount[rec]!;
    if (fields === 0) return true;
    const runs = this.runs;
    const u = runs.run(firstDescriptor[rec]!, fields);
    return this.spanCells(runs.start[u]! * 3, runs.start[u + 1]! * 3, cellCount[rec]!, words, at);
  }

  /** The block cells of a record whose run's spans are `runs.spans[q0, qEnd)` and that owns `own` cells, at `words[at]` (a check over item sizes, the verifier's). */
  spanCells(q0: number, qEnd: number, own: number, words: Uint32Array, at: number): boolean {
    if (this.n === 0) return true;
    const spans = this.runs.spans;
    const sizes = this.sizes;
    const n = this.n;
    let size = this.size;
    let placed = this.placed;
    for (let q = q0; q < qEnd; q += 3) {
      const link = spans[q]!;
      const stop = at + Math.min(own, link + spans[q + 1]!);
      for (let k = at + link; k < stop; k++) {
        const v = words[k]!;
        if (v < size) continue;
        if (v !== size || placed >= n) return false;
        size += sizes[placed++]!;
      }
    }
    this.size = size;
    this.placed = placed;
    return true;
  }

  /**
   * The block cells of a record at `words[at]` given as its cell slots in traversal order, `slots[from, to)`
   * (the writer's per-run lists, `FirstUseRuns`); `clip` drops the slots at or past `own`, the record's cell
   * count (a record shorter than its run's fields: the slot rule is `verifyGadb`'s, not the writer's).
   */
  slotCells(slots: Uint16Array, from: number, to: number, clip: boolean, own: number, words: Uint32Array, at: number): boolean {
    if (this.n === 0) return true;
    let size = this.size;
    for (let s = from; s < to; s++) {
      const slot = slots[s]!;
      if (clip && slot >= own) continue;
      const v = words[at + slot]!;
      if (v < size) continue;
      if (v !== size) return false;
      this.size = size;
      if (!this.next()) return false;
      size = this.size;
    }
    this.size = size;
    return true;
  }

  /** True when the walk reached every item. */
  done(): boolean {
    return this.starts ? this.size >= this.blockEnd : this.placed >= this.n;
  }
}

/** The state of a string-block plan (see `planGadbStringBlockWithItems`). */
class StringPlanner {
  /** Bytes laid out so far. */
  size = 0;
  /** True while every item placed so far sits at its own key, i.e. items `[0, placed)` in key order. */
  inKeyOrder = true;
  private placed = 0;
  private readonly keys: Uint32Array;
  private readonly sizes: Uint32Array;
  private readonly items: GadbItemIndex;
  /** Output offset per item once the plan leaves key order (-1: not placed). */
  private newOffset: Int32Array | undefined;
  private order: Uint32Array | undefined;
  constructor(keys: Uint32Array, sizes: Uint32Array, items: GadbItemIndex) {
    this.keys = keys;
    this.sizes = sizes;
    this.items = items;
  }
  /** A name or cell that references `key` (ignored when no item starts there). */
  reference(key: number): void {
    if (this.inKeyOrder) {
      if (key < this.size) return;
      if (key === this.size && this.placed < this.keys.length && this.keys[this.placed] === key) {
        this.size += this.sizes[this.placed++]!;
        return;
      }
    }
    this.place(this.items.of(key));
  }
  /** Places item `i` next unless it is placed already (-1: nothing). */
  place(i: number): void {
    if (i < 0) return;
    if (this.inKeyOrder) {
      if (i < this.placed) return;
      if (i === this.placed && this.keys[i] === this.size) {
        this.size += this.sizes[this.placed++]!;
        return;
      }
      this.leaveKeyOrder();
    }
    const newOffset = this.newOffset!;
    if (newOffset[i]! >= 0) return;
    newOffset[i] = this.size;
    this.size += this.sizes[i]!;
    this.order![this.placed++] = i;
  }
  private leaveKeyOrder(): void {
    const n = this.keys.length;
    const newOffset = new Int32Array(n).fill(-1);
    const order = new Uint32Array(n);
    for (let i = 0; i < this.placed; i++) {
      newOffset[i] = this.keys[i]!;
      order[i] = i;
    }
    this.newOffset = newOffset;
    this.order = order;
    this.inKeyOrder = false;
  }
  result(): GadbStringPlan {
    const n = this.keys.length;
    if (this.inKeyOrder) {
      const newOffset = new Int32Array(n).fill(-1);
      const order = new Uint32Array(this.placed);
      for (let i = 0; i < this.placed; i++) {
        newOffset[i] = this.keys[i]!;
        order[i] = i;
      }
      return { order, newOffset, items: this.items, size: this.size, identity: this.placed === n };
    }
    return { order: this.order!.subarray(0, this.placed), newOffset: this.newOffset!, items: this.items, size: this.size, identity: false };
  }
}

/**
 * The one walk over the cells of fields of one storage kind (string-block references, links…), record by record
 * through each record's own run, with no callback per cell. Each step gives one field's cell range of one
 * record, clipped to the record's cells (`begin`/`end` index `g.cells`; `begin - recordCellStart` is the cell's
 * slot in the record); fields with no cells are skipped:
 *
 *     for (const s = gadbSpanWalk(g, 'declared', GadbStorageCode.Block); s.next(); )
 *       for (let k = s.begin; k < s.end; k++) visit(g.cells[k]);
 *
 * Writers that emit records themselves position it per record instead: `s.enter(r, cellStart)` then
 * `while (s.nextInRecord())`. Spans are computed once per distinct run (13,612 runs under the real game's
 * 694,632 records), on first use.
 */
export class GadbSpanWalk {
  readonly runs: GadbRunSpans;
  private readonly records: Gadb['records'];
  private readonly starts: Uint32Array;
  /** The current record. */
  record = -1;
  /** Index in `g.cells` of the current record's first cell. */
  recordCellStart = 0;
  /** The current span's cells: `[begin, end)` in `g.cells`. */
  begin = 0;
  end = 0;
  /** The current field's type byte. */
  typeByte = 0;
  private cellCount = 0;
  private q = 0;
  private qEnd = 0;
  private lastKey = -1;
  private lastQ = 0;
  private lastQEnd = 0;

  constructor(g: Gadb, runs: GadbRunSpans) {
    this.runs = runs;
    this.records = g.records;
    this.starts = gadbRecordCellStarts(g);
  }

  /** Positions the walk at the spans of record `r`, whose first cell is `cellStart`. */
  enter(r: number, cellStart: number): void {
    const { firstDescriptor, descriptorCount, cellCount } = this.records;
    this.record = r;
    this.recordCellStart = cellStart;
    this.cellCount = cellCount[r]!;
    const first = firstDescriptor[r]!;
    const n = descriptorCount[r]!;
    const key = first * 256 + n;
    if (key !== this.lastKey) {
      // Records of one category mostly share their run: the previous record's is kept.
      const u = this.runs.run(first, n);
      this.lastKey = key;
      this.lastQ = this.runs.start[u]! * 3;
      this.lastQEnd = this.runs.start[u + 1]! * 3;
    }
    this.q = this.lastQ;
    this.qEnd = this.lastQEnd;
  }

  /** Advances to the next non-empty span of the current record; false when the record has no more. */
  nextInRecord(): boolean {
    const spans = this.runs.spans;
    while (this.q < this.qEnd) {
      const q = this.q;
      this.q = q + 3;
      const link = spans[q]!;
      const last = Math.min(this.cellCount, link + spans[q + 1]!);
      if (last <= link) continue;
      this.begin = this.recordCellStart + link;
      this.end = this.recordCellStart + last;
      this.typeByte = spans[q + 2]!;
      return true;
    }
    return false;
  }

  /** Advances to the next non-empty span of the database, moving on to the next records as needed. */
  next(): boolean {
    for (;;) {
      if (this.q < this.qEnd && this.nextInRecord()) return true;
      const r = this.record + 1;
      if (r >= this.records.count) return false;
      this.enter(r, this.starts[r]!);
    }
  }
}

/** A walk over the cells of every field of storage kind `storage` (default: string-block references). */
export function gadbSpanWalk(g: Gadb, order: 'declared' | 'sorted' = 'declared', storage: number = GadbStorageCode.Block): GadbSpanWalk {
  return new GadbSpanWalk(g, new GadbRunSpans(g, order, storage));
}

/**
 * Where each record's cells start in `g.cells` (length `records.count + 1`): the model's `records.cellStart` when
 * it has one (a parsed file), else back to back in record order (a built model), the last entry being the total.
 */
export function gadbRecordCellStarts(g: Gadb): Uint32Array {
  const own = g.records.cellStart;
  if (own) return own;
  const { count, cellCount } = g.records;
  const starts = new Uint32Array(count + 1);
  for (let r = 0; r < count; r++) starts[r + 1] = starts[r]! + cellCount[r]!;
  return starts;
}

/** The records' cells back to back in record order, in a new array (the layout of a model without `cellStart`). */
export function gadbCompactCells(g: Gadb): Uint32Array {
  const { count, cellCount, cellStart } = g.records;
  if (!cellStart) return g.cells.slice();
  const cells = g.cells;
  const out = new Uint32Array(gadbCellTotal(g));
  for (let r = 0, o = 0; r < count; r++) {
    const n = cellCount[r]!;
    const from = cellStart[r]!;
    if (n > 16) out.set(cells.subarray(from, from + n), o);
    else for (let k = 0; k < n; k++) out[o + k] = cells[from + k]!;
    o += n;
  }
  return out;
}

/** How many cells the records own (the header's +0x18). */
export function gadbCellTotal(g: Gadb): number {
  const { count, cellCount } = g.records;
  let n = 0;
  for (let r = 0; r < count; r++) n += cellCount[r]!;
  return n;
}

/**
 * The fields of one storage kind of each distinct run, computed on first use: for run `u`, `spans[3s..3s+2]` for
 * `s` in `[start[u], start[u+1])` are `(link, elementCount, typeByte)`, in declaration order or in ascending
 * field-hash order (the first-use order). Fields with no elements (they own no cells) and rows past the descriptor
 * table (`validateGadb` reports them) are left out.
 */
export class GadbRunSpans {
  /** Triples (link, elementCount, typeByte). */
  spans: Int32Array<ArrayBuffer> = new Int32Array(192);
  /** First span of each run; run u's spans end at `start[u + 1]`. */
  start: Int32Array<ArrayBuffer> = new Int32Array(64);
  private runs = 0;
  private words = 0;
  /**
   * Run id + 1 (0: empty) by (first descriptor, count), open-addressed (linear probing, at most half full), with
   * each run's key in `runFirst` and `counts`: a few hundred KB for the real game's 13,613 runs, where a table by
   * first descriptor would be 4 bytes per descriptor with its entries spread over all of them (cache misses).
   */
  private slots: Int32Array<ArrayBuffer> = new Int32Array(1024);
  /** 32 - log2(slots.length): the hash keeps its top bits. */
  private shift = 22;
  private runFirst: Int32Array<ArrayBuffer> = new Int32Array(64);
  private counts: Int32Array<ArrayBuffer> = new Int32Array(64);
  private readonly d: Gadb['descriptors'];
  private readonly sorted: boolean;
  private readonly storage: number;

  /** Spans over `g`'s descriptor table (only `descriptors` is read: a reader may pass its table before the model exists). */
  constructor(g: Pick<Gadb, 'descriptors'>, order: 'declared' | 'sorted', storage: number) {
    this.d = g.descriptors;
    this.sorted = order === 'sorted';
    this.storage = storage;
  }

  /**
   * The last run looked up in each of `GADB_RECENT_RUN_SLOTS` slots (by the same hash): records of one category
   * alternate between a few runs (5 on average in the real game, up to 1,898), and these few KB stay in cache
   * while the table's entries, far apart, would not (the cells streaming past evict them).
   */
  private readonly recentFirst = new Int32Array(GADB_RECENT_RUN_SLOTS).fill(-1);
  private readonly recentCount = new Uint8Array(GADB_RECENT_RUN_SLOTS);
  private readonly recentId = new Int32Array(GADB_RECENT_RUN_SLOTS);

  /** The id of the run `[first, first + n)`. */
  run(first: number, n: number): number {
    const c = gadbRunSlot(first, n, GADB_RECENT_RUN_SHIFT);
    if (this.recentFirst[c] === first && this.recentCount[c] === n) return this.recentId[c]!;
    const id = this.find(first, n);
    this.recentFirst[c] = first;
    this.recentCount[c] = n;
    this.recentId[c] = id;
    return id;
  }

  private find(first: number, n: number): number {
    const slots = this.slots;
    const mask = slots.length - 1;
    for (let h = gadbRunSlot(first, n, this.shift); ; h = (h + 1) & mask) {
      const id = slots[h]! - 1;
      if (id < 0) return this.add(first, n, h);
      if (this.runFirst[id] === first && this.counts[id] === n) return id;
    }
  }

  /** A new run `[first, first + n)`, its id going in the empty slot `h`. */
  private add(first: number, n: number, h: number): number {
    const d = this.d;
    const storageByType = GADB_STORAGE_BY_TYPE_BYTE;
    const id = this.runs++;
    if (id >= this.counts.length) {
      this.counts = grow(this.counts, id + 1);
      this.runFirst = grow(this.runFirst, id + 1);
    }
    this.counts[id] = n;
    this.runFirst[id] = first;
    if (2 * this.runs > this.slots.length) this.rehash(this.slots.length * 2);
    else this.slots[h] = id + 1;
    if (this.runs + 1 > this.start.length) this.start = grow(this.start, this.runs + 1);
    if (this.words + 3 * n > this.spans.length) this.spans = grow(this.spans, this.words + 3 * n);
    const spans = this.spans;
    let w = this.words;
    for (let j = 0; j < n; j++) {
      const k = this.sorted ? first + d.sortedToDeclared[first + j]! : first + j;
      if (k >= d.count) continue;
      const t = d.typeCode[k]!;
      if (storageByType[t] !== this.storage || d.elementCount[k] === 0) continue;
      spans[w++] = d.link[k]!;
      spans[w++] = d.elementCount[k]!;
      spans[w++] = t;
    }
    this.words = w;
    this.start[this.runs] = w / 3;
    return id;
  }

  /** Every run again in a table of `size` slots (a power of 2). */
  private rehash(size: number): void {
    const slots = new Int32Array(size);
    const mask = size - 1;
    this.shift = 32 - Math.log2(size);
    for (let id = 0; id < this.runs; id++) {
      let h = gadbRunSlot(this.runFirst[id]!, this.counts[id]!, this.shift);
      while (slots[h] !== 0) h = (h + 1) & mask;
      slots[h] = id + 1;
    }
    this.slots = slots;
  }
}

/**
 * @internal Slots of the caches of recently met runs (`GadbRunSpans.run`, the writer's fast path): 1,024 leave
 * 17,560 misses over the game-scale file's 694,632 records and 13,613 runs (256 left 59,062; 4,096, 13,826).
 */
export const GADB_RECENT_RUN_SLOTS = 1024;
/** @internal `gadbRunSlot`'s shift for `GADB_RECENT_RUN_SLOTS`. */
export const GADB_RECENT_RUN_SHIFT = 32 - Math.log2(GADB_RECENT_RUN_SLOTS);

/** @internal Home slot of the run (first descriptor, count) in a table of 2^(32 - shift) slots (Fibonacci hashing). */
export function gadbRunSlot(first: number, n: number, shift: number): number {
  return Math.imul((first << 8) | n, 0x9e3779b1) >>> shift;
}

