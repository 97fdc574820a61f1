/**
 * Interning of values in the string block. Each distinct value is stored once per value kind and shared by every
 * reference [V] (spec §3.3; texts of names, Strings and StringEnums are one pool, H-SB-TEXT-POOL). An edit never
 * rewrites an existing item — other cells may share it (seed: "writing the floats behind such a pointer changes
 * every field that shares them") — it points the edited cell at the item holding the new value, appending one when
 * no item of that kind holds it yet. The writer lays the block out again in first-use order and drops items nothing
 * references any more, so the appended items land where the spec's rule puts them.
 */
import { GADB_ITEM_KIND_BY_TYPE_BYTE } from '../../formats/gadb/type-codes.ts';
import { GadbItemKind, type Gadb } from '../../formats/gadb/types.ts';
import { itemIndexOfKey } from './model.ts';
import { latin1Decode } from '../../binary/text.ts';
import { gadbRecordCellStarts } from '../../formats/gadb/layout.ts';

function keyOf(kind: number, bytes: Uint8Array): string {
  return String.fromCharCode(kind) + latin1Decode(bytes);
}

/** Per item (parallel to `strings.itemKeys`): the kind of the references to it (0 when unreferenced, 255 mixed). */
export function itemKindsOf(g: Gadb): Uint8Array {
  const kinds = new Uint8Array(g.strings.itemKeys.length);
  const mark = (key: number, kind: number): void => {
    const i = itemIndexOfKey(g, key);
    if (i < 0) return;
    const k = kinds[i]!;
    kinds[i] = k === 0 || k === kind ? kind : GadbItemKind.Mixed;
  };
  if (kinds.length > 0 && g.strings.itemKeys[0] === 0) kinds[0] = GadbItemKind.Root;
  for (const c of g.categories) {
    mark(c.nameKey, GadbItemKind.Text);
    mark(c.typeNameKey, GadbItemKind.Text);
    mark(c.unk08Key, GadbItemKind.Text);
  }
  const { records, descriptors: d, cells } = g;
  const starts = gadbRecordCellStarts(g);
  let rec = 0;
  for (const c of g.categories) {
    const total = c.primaryCount + c.secondaryCount;
    for (let i = 0; i < total; i++, rec++) {
      if (i >= c.primaryCount) mark(records.nameKey[rec]!, GadbItemKind.Text);
      const first = records.firstDescriptor[rec]!;
      const n = records.descriptorCount[rec]!;
      const cellCount = records.cellCount[rec]!;
      for (let k = first; k < first + n; k++) {
        const kind = GADB_ITEM_KIND_BY_TYPE_BYTE[d.typeCode[k]!]!;
        if (kind === 0) continue;
        const end = Math.min(cellCount, d.link[k]! + d.elementCount[k]!);
        for (let e = d.link[k]!; e < end; e++) mark(cells[starts[rec]! + e]!, kind);
      }
    }
  }
  return kinds;
}

/**
 * Finds or appends string-block items. Appends go into growable buffers; `strings.data`, `itemKeys` and
 * `itemSizes` of the model are views of them, kept current after every append.
 */
export class StringInterner {
  readonly #g: Gadb;
  #map: Map<string, number> | undefined;
  #data: Uint8Array;
  #keys: Uint32Array;
  #sizes: Uint32Array;
  #len: number;
  #items: number;

  constructor(g: Gadb) {
    this.#g = g;
    this.#data = g.strings.data;
    this.#keys = g.strings.itemKeys;
    this.#sizes = g.strings.itemSizes;
    this.#len = g.strings.data.length;
    this.#items = g.strings.itemKeys.length;
  }

  #build(): Map<string, number> {
    const g = this.#g;
    const kinds = itemKindsOf(g);
    const map = new Map<string, number>();
    const { itemKeys, itemSizes, data } = g.strings;
    for (let i = 0; i < itemKeys.length; i++) {
      const kind = kinds[i]!;
      if (kind === 0 || kind === GadbItemKind.Mixed || kind === GadbItemKind.Root) continue;
      const k = keyOf(kind, data.subarray(itemKeys[i]!, itemKeys[i]! + itemSizes[i]!));
      if (!map.has(k)) map.set(k, itemKeys[i]!);
    }
    return map;
  }

  /**
   * The key of an item of `kind` holding exactly `bytes` (payload with its NUL padding): an existing one, or a new
   * item appended past the end of the block.
   */
  intern(kind: number, bytes: Uint8Array): number {
    this.#map ??= this.#build();
    const k = keyOf(kind, bytes);
    const found = this.#map.get(k);
    if (found !== undefined) return found;
    const key = (this.#len + 3) & ~3;
    const end = key + bytes.length;
    if (end > this.#data.length || this.#data.buffer !== this.#g.strings.data.buffer) {
      const next = new Uint8Array(Math.max(end, this.#data.length * 2, 1024));
      next.set(this.#g.strings.data.subarray(0, this.#len));
      this.#data = next;
    }
    this.#data.set(bytes, key);
    if (this.#items >= this.#keys.length || this.#keys.buffer !== this.#g.strings.itemKeys.buffer) {
      const cap = Math.max(this.#items * 2, 64);
      const keys = new Uint32Array(cap);
      keys.set(this.#g.strings.itemKeys.subarray(0, this.#items));
      const sizes = new Uint32Array(cap);
      sizes.set(this.#g.strings.itemSizes.subarray(0, this.#items));
      this.#keys = keys;
      this.#sizes = sizes;
    }
    this.#keys[this.#items] = key;
    this.#sizes[this.#items] = bytes.length;
    this.#items++;
    this.#len = end;
    this.#g.strings.data = this.#data.subarray(0, this.#len);
    this.#g.strings.itemKeys = this.#keys.subarray(0, this.#items);
    this.#g.strings.itemSizes = this.#sizes.subarray(0, this.#items);
    this.#map.set(k, key);
    return key;
  }

  /** Copies the block into exactly-sized arrays (so the model owns no spare capacity). */
  compact(): void {
    const s = this.#g.strings;
    if (s.data.byteLength !== s.data.buffer.byteLength) s.data = s.data.slice();
    if (s.itemKeys.byteLength !== s.itemKeys.buffer.byteLength) s.itemKeys = s.itemKeys.slice();
    if (s.itemSizes.byteLength !== s.itemSizes.buffer.byteLength) s.itemSizes = s.itemSizes.slice();
    this.#data = s.data;
    this.#keys = s.itemKeys;
    this.#sizes = s.itemSizes;
  }
}
