/**
 * The string block's layout rule [V]: after the root name, items appear in the order of their first use in this
 * traversal: for each category in file order, its name (+0x00), its +0x04 string, its +0x08 string; then for each
 * of its records (primaries, then secondaries), the record's name, then the values the record references, field
 * by field in **ascending field-hash order** (the run's sorted column), array elements in order. Each item keeps
 * its own bytes (payload and padding); sharing is whatever the model's keys say (one key, one item).
 */
import { GADB_STORAGE_BY_TYPE_BYTE, GadbStorageCode } from './type-codes.ts';
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
  /** `itemIndexByWord[key >> 2]` is the item whose key is `key`, or -1. */
  itemIndexByWord: Int32Array;
  /** Output block size in bytes. */
  size: number;
}

/** Index from a key to its item: `result[key >> 2]` (keys are 4-aligned), -1 when no item starts there. */
export function itemIndexByWord(g: Gadb): Int32Array {
  const { data, itemKeys } = g.strings;
  const map = new Int32Array((data.byteLength >>> 2) + 1).fill(-1);
  for (let i = 0; i < itemKeys.length; i++) {
    const k = itemKeys[i]!;
    if ((k & 3) === 0 && k >>> 2 < map.length) map[k >>> 2] = i;
  }
  return map;
}

/** The item index for a reference, or -1 when the value is not an item key. */
export function itemOf(map: Int32Array, key: number): number {
  if ((key & 3) !== 0) return -1;
  const w = key >>> 2;
  return w < map.length ? map[w]! : -1;
}

/** Plans the string block of `g` (`validateGadb` must have passed). */
export function planGadbStringBlock(g: Gadb, order: GadbStringOrder = 'first-use'): GadbStringPlan {
  return planGadbStringBlockWithItems(g, order, itemIndexByWord(g));
}

/** `planGadbStringBlock` with the model's `itemIndexByWord` already computed (internal: shared by write and verify). */
export function planGadbStringBlockWithItems(g: Gadb, order: GadbStringOrder, map: Int32Array): GadbStringPlan {
  const { itemKeys, itemSizes } = g.strings;
  const n = itemKeys.length;
  const newOffset = new Int32Array(n).fill(-1);
  const out = new Uint32Array(n);
  let count = 0;
  let size = 0;
  const place = (i: number): void => {
    if (i < 0 || newOffset[i]! >= 0) return;
    newOffset[i] = size;
    size += itemSizes[i]!;
    out[count++] = i;
  };
  if (order === 'model') {
    for (let i = 0; i < n; i++) place(i);
    return { order: out, newOffset, itemIndexByWord: map, size };
  }
  if (n > 0) place(itemOf(map, 0));
  const { categories, records, cells } = g;
  const walk = gadbSpanWalk(g, 'sorted');
  let rec = 0;
  let cellStart = 0;
  for (let c = 0; c < categories.length; c++) {
    const cat = categories[c]!;
    place(itemOf(map, cat.nameKey));
    place(itemOf(map, cat.typeNameKey));
    place(itemOf(map, cat.unk08Key));
    const total = cat.primaryCount + cat.secondaryCount;
    for (let i = 0; i < total && rec < records.count; i++, rec++) {
      if (i >= cat.primaryCount) place(itemOf(map, records.nameKey[rec]!));
      walk.enter(rec, cellStart);
      while (walk.nextInRecord()) {
        for (let k = walk.begin; k < walk.end; k++) {
          const v = cells[k]!;
          if ((v & 3) !== 0 || v >>> 2 >= map.length) continue;
          const it = map[v >>> 2]!;
          if (it >= 0 && newOffset[it]! < 0) place(it);
        }
      }
      cellStart += records.cellCount[rec]!;
    }
  }
  return { order: out.subarray(0, count), newOffset, itemIndexByWord: map, size };
}

/**
 * Calls `visit(cellIndex)` for every cell of `g` that holds a string-block reference: cells inside their record
 * claimed by a field of a block type (through the record's own run).
 */
export function forEachBlockCell(g: Gadb, visit: (cellIndex: number, record: number, typeByte: number) => void): void {
  for (const s = gadbSpanWalk(g); s.next(); ) for (let k = s.begin; k < s.end; k++) visit(k, s.record, s.typeByte);
}

/**
 * Rewrites, in `cells` (a copy of `g.cells`), every string-block reference through `newOffset` (item index →
 * output offset); values that are not item keys stay as they are.
 */
export function remapBlockCells(g: Gadb, plan: GadbStringPlan, cells: Uint32Array): void {
  const map = plan.itemIndexByWord;
  for (const s = gadbSpanWalk(g); s.next(); ) {
    for (let k = s.begin; k < s.end; k++) {
      const v = cells[k]!;
      if ((v & 3) !== 0 || v >>> 2 >= map.length) continue;
      const it = map[v >>> 2]!;
      if (it >= 0) cells[k] = plan.newOffset[it]!;
    }
  }
}

/**
 * The string-block references of each record, computed once per distinct run (a run is shared by every record
 * with the same layout: 13,612 runs for 694,632 records in the real game). For run `u`, `spans[3s..3s+2]` for
 * `s` in `[runStart[u], runStart[u+1])` are `(link, elementCount, typeByte)` of its block-type fields, in
 * declaration order or in ascending field-hash order (the first-use order).
 */
export interface GadbBlockSpans {
  /** Run id of each record. */
  recordRun: Int32Array;
  /** First span of each run; length runs + 1. */
  runStart: Int32Array;
  /** Triples (link, elementCount, typeByte). */
  spans: Int32Array;
}

/**
 * The one walk over the cells of fields of one storage kind (string-block references, links…), record by record
 * through each record's own run, with no callback per cell. Each step gives one field's cell range of one
 * record, clipped to the record's cells (`begin`/`end` index `g.cells`; `begin - recordCellStart` is the cell's
 * slot in the record):
 *
 *     for (const s = gadbSpanWalk(g, 'declared', GadbStorageCode.Block); s.next(); )
 *       for (let k = s.begin; k < s.end; k++) visit(g.cells[k]);
 *
 * Writers that emit records themselves position it per record instead: `s.enter(r, cellStart)` then
 * `while (s.nextInRecord())`.
 */
export class GadbSpanWalk {
  readonly spans: GadbBlockSpans;
  private readonly cellCounts: Uint16Array | Uint32Array | readonly number[];
  private readonly recordCount: number;
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

  constructor(g: Gadb, spans: GadbBlockSpans) {
    this.spans = spans;
    this.cellCounts = g.records.cellCount;
    this.recordCount = g.records.count;
  }

  /** Positions the walk at the spans of record `r`, whose first cell is `cellStart`. */
  enter(r: number, cellStart: number): void {
    const { recordRun, runStart } = this.spans;
    this.record = r;
    this.recordCellStart = cellStart;
    this.cellCount = this.cellCounts[r]!;
    const u = recordRun[r]!;
    this.q = runStart[u]! * 3;
    this.qEnd = runStart[u + 1]! * 3;
  }

  /** Advances to the next non-empty span of the current record; false when the record has no more. */
  nextInRecord(): boolean {
    const spans = this.spans.spans;
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
      if (this.nextInRecord()) return true;
      if (this.record + 1 >= this.recordCount) return false;
      this.enter(this.record + 1, this.record < 0 ? 0 : this.recordCellStart + this.cellCount);
    }
  }
}

/** A walk over the cells of every field of storage kind `storage` (default: string-block references). */
export function gadbSpanWalk(g: Gadb, order: 'declared' | 'sorted' = 'declared', storage: number = GadbStorageCode.Block): GadbSpanWalk {
  return new GadbSpanWalk(g, gadbStorageSpans(g, order, storage));
}

/**
 * Builds the per-run spans of the fields of one storage code (`GadbStorageCode`: Block, Link, …); `order`:
 * `declared`, or `sorted` = ascending hash, the first-use order. Walk them with `GadbSpanWalk`.
 */
export function gadbStorageSpans(g: Gadb, order: 'declared' | 'sorted', storage: number): GadbBlockSpans {
  const { records, descriptors: d } = g;
  const storageByType = GADB_STORAGE_BY_TYPE_BYTE;
  const sorted = order === 'sorted';
  const recordRun = new Int32Array(records.count);
  const runIds = new Map<number, number>();
  let starts = new Int32Array(64);
  let spans = new Int32Array(192);
  let runs = 0;
  let spanWords = 0;
  // Records of one category mostly share their run: the previous record's run is checked before the map.
  let lastKey = -1;
  let lastId = -1;
  for (let r = 0; r < records.count; r++) {
    const first = records.firstDescriptor[r]!;
    const n = records.descriptorCount[r]!;
    const key = first * 256 + n;
    if (key === lastKey) {
      recordRun[r] = lastId;
      continue;
    }
    let id = runIds.get(key);
    if (id === undefined) {
      id = runs++;
      runIds.set(key, id);
      if (runs + 1 > starts.length) starts = grow(starts, runs + 1);
      if (spanWords + 3 * n > spans.length) spans = grow(spans, spanWords + 3 * n);
      for (let j = 0; j < n; j++) {
        const k = sorted ? first + d.sortedToDeclared[first + j]! : first + j;
        if (k >= d.count) continue;
        const t = d.typeCode[k]!;
        if (storageByType[t] !== storage) continue;
        spans[spanWords++] = d.link[k]!;
        spans[spanWords++] = d.elementCount[k]!;
        spans[spanWords++] = t;
      }
      starts[runs] = spanWords / 3;
    }
    lastKey = key;
    lastId = id;
    recordRun[r] = id;
  }
  return { recordRun, runStart: starts.slice(0, runs + 1), spans: spans.slice(0, spanWords) };
}

function grow(a: Int32Array<ArrayBuffer>, need: number): Int32Array<ArrayBuffer> {
  const b = new Int32Array(Math.max(need, a.length * 2));
  b.set(a);
  return b;
}
