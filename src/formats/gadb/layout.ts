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
  const { itemKeys, itemSizes } = g.strings;
  const n = itemKeys.length;
  const map = itemIndexByWord(g);
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
  const { categories, records, cells, descriptors: d } = g;
  let rec = 0;
  let cellStart = 0;
  for (let c = 0; c < categories.length; c++) {
    const cat = categories[c]!;
    place(itemOf(map, cat.nameKey));
    place(itemOf(map, cat.typeNameKey));
    place(itemOf(map, cat.unk08Key));
    const total = cat.primaryCount + cat.secondaryCount;
    for (let i = 0; i < total; i++, rec++) {
      if (i >= cat.primaryCount) place(itemOf(map, records.nameKey[rec]!));
      const first = records.firstDescriptor[rec]!;
      const fields = records.descriptorCount[rec]!;
      const cellCount = records.cellCount[rec]!;
      for (let j = 0; j < fields; j++) {
        const k = first + d.sortedToDeclared[first + j]!;
        if (GADB_STORAGE_BY_TYPE_BYTE[d.typeCode[k]!] !== GadbStorageCode.Block) continue;
        const link = d.link[k]!;
        const end = Math.min(cellCount, link + d.elementCount[k]!);
        for (let e = link; e < end; e++) place(itemOf(map, cells[cellStart + e]!));
      }
      cellStart += cellCount;
    }
  }
  return { order: out.subarray(0, count), newOffset, itemIndexByWord: map, size };
}

/**
 * Calls `visit(cellIndex)` for every cell of `g` that holds a string-block reference: cells inside their record
 * claimed by a field of a block type (through the record's own run).
 */
export function forEachBlockCell(g: Gadb, visit: (cellIndex: number, record: number) => void): void {
  const { records, descriptors: d } = g;
  let cellStart = 0;
  for (let r = 0; r < records.count; r++) {
    const first = records.firstDescriptor[r]!;
    const fields = records.descriptorCount[r]!;
    const cellCount = records.cellCount[r]!;
    for (let k = first; k < first + fields; k++) {
      if (GADB_STORAGE_BY_TYPE_BYTE[d.typeCode[k]!] !== GadbStorageCode.Block) continue;
      const link = d.link[k]!;
      const end = Math.min(cellCount, link + d.elementCount[k]!);
      for (let e = link; e < end; e++) visit(cellStart + e, r);
    }
    cellStart += cellCount;
  }
}
