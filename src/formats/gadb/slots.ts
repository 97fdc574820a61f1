/**
 * The cell slot rule [V, all 16 sample records; seed "The slot rule"]: how a record type's fields are placed in
 * its cells, i.e. what each descriptor's `link` must be.
 *
 * 1. Bools, in ascending field-hash order, take bit indexes 0, 1, 2, … and occupy `ceil(bits / 32)` leading
 *    cells (a run without Bools has no bool word, H-SLOT-NOBOOL; a Bool of count n takes n bits, H-BOOL-ARRAY).
 * 2. Every other field follows, grouped by ascending type code and, within a type, by ascending field hash; each
 *    takes `count` consecutive cells (a count-0 field takes none and shares the next field's link).
 * 3. The record's cell count is the total.
 *
 * Whether a flagged code (0x44) sorts by its full byte or by its low 6 bits is unknown (H-SLOT-FLAGGED): both
 * orders are available; `verifyGadb` accepts either and says which a file uses.
 */
import { GADB_STORAGE_BY_TYPE_BYTE, GADB_TYPE_MASK, GadbStorageCode } from './type-codes.ts';
import type { GadbDescriptors } from './types.ts';

/** H-SLOT-FLAGGED: `full` sorts by the whole type byte (0x44 after 16), `base` by its low 6 bits (0x44 with 4). */
export type GadbFlaggedOrder = 'full' | 'base';

/** The slot rule's default reading of H-SLOT-FLAGGED. */
export const DEFAULT_GADB_FLAGGED_ORDER: GadbFlaggedOrder = 'full';

/** Sort key of a type byte in the slot rule's type grouping. */
export function gadbSlotOrderKey(typeByte: number, order: GadbFlaggedOrder = DEFAULT_GADB_FLAGGED_ORDER): number {
  return order === 'full' ? typeByte : typeByte & GADB_TYPE_MASK;
}

/** The fields of one run, as the slot rule sees them (declaration order). */
export interface GadbSlotField {
  hash: number;
  typeByte: number;
  count: number;
}

/** Result of the slot rule for one run. */
export interface GadbSlotAssignment {
  /** Link of each field, in declaration order (Bool: a bit index; others: a cell index). */
  links: number[];
  /** Bool bits used. */
  boolBits: number;
  /** Cells the record owns: bool words plus every other field's count. */
  cellCount: number;
}

/** Applies the slot rule to `fields` (declaration order). */
export function assignGadbSlots(fields: readonly GadbSlotField[], order: GadbFlaggedOrder = DEFAULT_GADB_FLAGGED_ORDER): GadbSlotAssignment {
  const n = fields.length;
  const hash = new Float64Array(n);
  const typeByte = new Uint8Array(n);
  const count = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    hash[i] = fields[i]!.hash;
    typeByte[i] = fields[i]!.typeByte;
    count[i] = fields[i]!.count;
  }
  const links = new Int32Array(n);
  const { boolBits, cellCount } = assignSlots(hash, typeByte, count, 0, n, order, links);
  return { links: Array.from(links), boolBits, cellCount };
}

/**
 * The slot rule on the run `[first, first + n)` of a descriptor table, without objects: each field's link goes to
 * `links[j]` (declaration index j), and the run's cell count is returned. The verifier checks every distinct run
 * of the game database with it.
 */
export function assignGadbRunSlots(d: GadbDescriptors, first: number, n: number, order: GadbFlaggedOrder, links: Int32Array): number {
  return assignSlots(d.declaredHash, d.typeCode, d.elementCount, first, n, order, links).cellCount;
}

/**
 * `assignGadbRunSlots` for a run whose sorted column is already checked: `sortedToDeclared[first, first + n)` a
 * permutation of `[0, n)` listing the fields by strictly ascending hash (what `verifyGadb` confirms first). The
 * hash order is then read off that column instead of sorted again, and the type grouping is a counting pass over
 * the few type groups present: the same links and cell count as `assignGadbRunSlots`, in time linear in `n`.
 */
export function assignGadbSortedRunSlots(d: GadbDescriptors, first: number, n: number, order: GadbFlaggedOrder, links: Int32Array): number {
  const { sortedToDeclared, typeCode, elementCount } = d;
  const bit = GADB_STORAGE_BY_TYPE_BYTE;
  const mask = order === 'full' ? 0xff : GADB_TYPE_MASK;
  const cells = groupCells;
  let groups = 0;
  // 1. Bools by ascending hash take consecutive bits; the others' cells are totalled per type group.
  let bits = 0;
  for (let j = 0; j < n; j++) {
    const p = sortedToDeclared[first + j]!;
    const t = typeCode[first + p]!;
    const c = elementCount[first + p]!;
    if (bit[t] === GadbStorageCode.Bit) {
      links[p] = bits;
      bits += c;
      continue;
    }
    const g = t & mask;
    if (groupSeen[g] === 0) {
      groupSeen[g] = 1;
      cells[g] = 0;
      groupList[groups++] = g;
    }
    cells[g] = cells[g]! + c;
  }
  // 2. Groups in ascending order start after the bool words and one another; within one, fields by hash.
  const list = groupList;
  sortGroups(list, groups);
  let slot = (bits + 31) >>> 5;
  for (let i = 0; i < groups; i++) {
    const g = list[i]!;
    const size = cells[g]!;
    cells[g] = slot;
    slot += size;
    groupSeen[g] = 0;
  }
  for (let j = 0; j < n; j++) {
    const p = sortedToDeclared[first + j]!;
    const t = typeCode[first + p]!;
    if (bit[t] === GadbStorageCode.Bit) continue;
    const g = t & mask;
    links[p] = cells[g]!;
    cells[g] = cells[g]! + elementCount[first + p]!;
  }
  return slot;
}

/**
 * Whether the links of the run `[first, first + n)` are the slot rule's, checked off the run's own links in one
 * pass (the run's sorted column checked as for `assignGadbSortedRunSlots`): the run's cell count when they are,
 * -1 when not. The rule holds exactly when, in ascending hash order, the Bools' links are their running bit
 * count, each other field's link is the end of the one before it in its type group, and the groups, in
 * ascending order, start at the bool words' end and each at the end of the one before: the links
 * `assignGadbSortedRunSlots` would assign, without assigning them (what the bytes verifier asks of every
 * distinct run).
 */
export function gadbSortedRunSlotsHold(d: GadbDescriptors, first: number, n: number, order: GadbFlaggedOrder): number {
  const { sortedToDeclared, typeCode, elementCount, link } = d;
  const bit = GADB_STORAGE_BY_TYPE_BYTE;
  const mask = order === 'full' ? 0xff : GADB_TYPE_MASK;
  const start = groupStart;
  const next = groupNext;
  const list = groupList;
  let groups = 0;
  let bits = 0;
  let holds = true;
  for (let j = 0; j < n && holds; j++) {
    const k = first + sortedToDeclared[first + j]!;
    const t = typeCode[k]!;
    const at = link[k]!;
    if (bit[t] === GadbStorageCode.Bit) {
      holds = at === bits;
      bits += elementCount[k]!;
      continue;
    }
    const g = t & mask;
    if (groupSeen[g] === 0) {
      groupSeen[g] = 1;
      start[g] = at;
      list[groups++] = g;
    } else holds = at === next[g];
    next[g] = at + elementCount[k]!;
  }
  sortGroups(list, groups);
  let slot = (bits + 31) >>> 5;
  for (let i = 0; i < groups; i++) {
    const g = list[i]!;
    if (start[g] !== slot) holds = false;
    slot = next[g]!;
    groupSeen[g] = 0;
  }
  return holds ? slot : -1;
}

/** The type groups `list[0, groups)` in ascending order (by insertion: a run has a few). */
function sortGroups(list: Int32Array, groups: number): void {
  for (let i = 1; i < groups; i++) {
    const g = list[i]!;
    let k = i - 1;
    while (k >= 0 && list[k]! > g) {
      list[k + 1] = list[k]!;
      k--;
    }
    list[k + 1] = g;
  }
}

/** Scratch of `assignGadbSortedRunSlots`: per type group, its cells (then its next slot), whether seen, and the list. */
const groupCells = new Float64Array(256);
const groupSeen = new Uint8Array(256);
const groupList = new Int32Array(256);
/** Scratch of `gadbSortedRunSlotsHold`: per type group, the link of its first field and the end of its last so far. */
const groupStart = new Int32Array(256);
const groupNext = new Int32Array(256);

let sortIndex = new Int32Array(64);
let sortGroup = new Int32Array(64);
let sortKey = new Float64Array(64);

/** The slot rule over columns (fields `[at, at + n)`); stable sorts, as `Array.prototype.sort` gives. */
function assignSlots(hash: ArrayLike<number>, typeByte: ArrayLike<number>, count: ArrayLike<number>, at: number, n: number, order: GadbFlaggedOrder, links: Int32Array): { boolBits: number; cellCount: number } {
  if (sortIndex.length < n) {
    sortIndex = new Int32Array(n);
    sortGroup = new Int32Array(n);
    sortKey = new Float64Array(n);
  }
  const idx = sortIndex;
  const group = sortGroup;
  const key = sortKey;
  const bit = GADB_STORAGE_BY_TYPE_BYTE;
  // 1. Bools by ascending hash take consecutive bits.
  let m = 0;
  for (let j = 0; j < n; j++) {
    if (bit[typeByte[at + j]!] !== GadbStorageCode.Bit) continue;
    idx[m] = j;
    group[m] = 0;
    key[m++] = hash[at + j]!;
  }
  sortByKey(idx, group, key, m);
  let bits = 0;
  for (let i = 0; i < m; i++) {
    links[idx[i]!] = bits;
    bits += count[at + idx[i]!]!;
  }
  // 2. Every other field, by type group then hash, takes consecutive cells after the bool words.
  m = 0;
  for (let j = 0; j < n; j++) {
    const t = typeByte[at + j]!;
    if (bit[t] === GadbStorageCode.Bit) continue;
    idx[m] = j;
    group[m] = gadbSlotOrderKey(t, order);
    key[m++] = hash[at + j]!;
  }
  sortByKey(idx, group, key, m);
  let slot = (bits + 31) >>> 5;
  for (let i = 0; i < m; i++) {
    links[idx[i]!] = slot;
    slot += count[at + idx[i]!]!;
  }
  return { boolBits: bits, cellCount: slot };
}

/** Sorts `idx[0, m)` by (`group`, `key`) ascending, stably; groups and keys move along. */
function sortByKey(idx: Int32Array, group: Int32Array, key: Float64Array, m: number): void {
  if (m <= 16) {
    insertionSort(idx, group, key, 0, m);
    return;
  }
  // Bottom-up merge sort: runs of 16 by insertion, then merged pairwise through scratch arrays.
  for (let lo = 0; lo < m; lo += 16) insertionSort(idx, group, key, lo, Math.min(m, lo + 16));
  if (mergeIndex.length < m) {
    mergeIndex = new Int32Array(m);
    mergeGroup = new Int32Array(m);
    mergeKey = new Float64Array(m);
  }
  let si: Int32Array = idx;
  let sg: Int32Array = group;
  let sk: Float64Array = key;
  let di: Int32Array = mergeIndex;
  let dg: Int32Array = mergeGroup;
  let dk: Float64Array = mergeKey;
  for (let width = 16; width < m; width *= 2) {
    for (let lo = 0; lo < m; lo += 2 * width) {
      const mid = Math.min(m, lo + width);
      const hi = Math.min(m, lo + 2 * width);
      let a = lo;
      let b = mid;
      for (let o = lo; o < hi; o++) {
        // Take from the right run only when strictly smaller: equal keys keep their order.
        if (b < hi && (a >= mid || sg[b]! < sg[a]! || (sg[b] === sg[a] && sk[b]! < sk[a]!))) {
          di[o] = si[b]!;
          dg[o] = sg[b]!;
          dk[o] = sk[b++]!;
        } else {
          di[o] = si[a]!;
          dg[o] = sg[a]!;
          dk[o] = sk[a++]!;
        }
      }
    }
    [si, di] = [di, si];
    [sg, dg] = [dg, sg];
    [sk, dk] = [dk, sk];
  }
  if (si !== idx) {
    idx.set(si.subarray(0, m));
    group.set(sg.subarray(0, m));
    key.set(sk.subarray(0, m));
  }
}

let mergeIndex = new Int32Array(64);
let mergeGroup = new Int32Array(64);
let mergeKey = new Float64Array(64);

/** Stable insertion sort of `[lo, hi)` by (`group`, `key`). */
function insertionSort(idx: Int32Array, group: Int32Array, key: Float64Array, lo: number, hi: number): void {
  for (let i = lo + 1; i < hi; i++) {
    const gi = group[i]!;
    const k = key[i]!;
    const j0 = idx[i]!;
    let j = i - 1;
    while (j >= lo && (group[j]! > gi || (group[j] === gi && key[j]! > k))) {
      group[j + 1] = group[j]!;
      key[j + 1] = key[j]!;
      idx[j + 1] = idx[j]!;
      j--;
    }
    group[j + 1] = gi;
    key[j + 1] = k;
    idx[j + 1] = j0;
  }
}

/** The slot-rule fields of the run `[first, first + count)` of a descriptor table. */
export function gadbRunFields(d: GadbDescriptors, first: number, count: number): GadbSlotField[] {
  const out: GadbSlotField[] = new Array<GadbSlotField>(count);
  for (let j = 0; j < count; j++) out[j] = { hash: d.declaredHash[first + j]!, typeByte: d.typeCode[first + j]!, count: d.elementCount[first + j]! };
  return out;
}
