/**
 * Placing the semantic core into another database (the generator's hook: `scry db gen --with-world`): the core's
 * categories are inserted at their sorted places among the base's, in one linear pass — descriptors appended,
 * records and cells copied in the merged category order, every RecordLink in both renumbered to the merged category
 * ordinals, and the core's names and values interned into the base's string block (a value both hold is stored
 * once). Neither input is changed.
 *
 * The merged database holds the base's figures plus the core's (12 categories, ~3,900 records): the game-scale
 * generator's exact counts describe its own part.
 */
import { ConsistencyError } from '../../../binary/errors.ts';
import { latin1Decode } from '../../../binary/text.ts';
import { GADB_NULL_LINK } from '../../../formats/gadb/decode.ts';
import { gadbRecordCellStarts } from '../../../formats/gadb/layout.ts';
import { gadbTypeInfo } from '../../../formats/gadb/type-codes.ts';
import { GadbItemKind, type Gadb, type GadbCategory } from '../../../formats/gadb/types.ts';
import { StringInterner, itemKindsOf } from '../../edit/interner.ts';
import { itemBytes } from '../../edit/model.ts';

const LINK_INDEX_MASK = 0xfffff;

/** The bytes of the item at `key` (payload and padding). */
function itemAt(g: Gadb, key: number): Uint8Array {
  const b = itemBytes(g, key);
  if (!b) throw new ConsistencyError('gadb', [{ rule: 'merge.item', message: `no string-block item at key ${key}`, severity: 'error' }]);
  return b;
}

/** Merges `extra`'s categories into `base`. Category names and sort keys must not collide. */
export function mergeGadbCategories(base: Gadb, extra: Gadb): Gadb {
  const nb = base.categories.length;
  const ne = extra.categories.length;
  // merged order: ascending sort key; remember where each input category lands
  const order: Array<{ from: 'base' | 'extra'; ordinal: number; key: number }> = [
    ...base.categories.map((c, i) => ({ from: 'base' as const, ordinal: i, key: c.sortKey >>> 0 })),
    ...extra.categories.map((c, i) => ({ from: 'extra' as const, ordinal: i, key: c.sortKey >>> 0 })),
  ].sort((a, b) => a.key - b.key || (a.from === b.from ? a.ordinal - b.ordinal : a.from === 'base' ? -1 : 1));
  for (let i = 1; i < order.length; i++) {
    if (order[i]!.key === order[i - 1]!.key) throw new ConsistencyError('gadb', [{ rule: 'merge.sortKey', message: `two categories share sort key 0x${order[i]!.key.toString(16).toUpperCase()}`, severity: 'error' }]);
  }
  const baseOrdinal = new Uint32Array(nb);
  const extraOrdinal = new Uint32Array(ne);
  order.forEach((o, i) => ((o.from === 'base' ? baseOrdinal : extraOrdinal)[o.ordinal] = i));

  const out: Gadb = {
    container: base.container,
    header: { ...base.header, recordCount: base.header.recordCount + extra.header.recordCount, unk14: base.header.unk14 + extra.header.unk14 },
    headerExtra: base.headerExtra.slice(),
    headerString: base.headerString.slice(),
    strings: { data: base.strings.data.slice(), itemKeys: base.strings.itemKeys.slice(), itemSizes: base.strings.itemSizes.slice() },
    descriptors: {
      count: base.descriptors.count + extra.descriptors.count,
      declaredHash: concat(Uint32Array, base.descriptors.declaredHash, extra.descriptors.declaredHash),
      sortedHash: concat(Uint32Array, base.descriptors.sortedHash, extra.descriptors.sortedHash),
      schemaOrdinal: concat(Uint8Array, base.descriptors.schemaOrdinal, extra.descriptors.schemaOrdinal),
      sortedToDeclared: concat(Uint8Array, base.descriptors.sortedToDeclared, extra.descriptors.sortedToDeclared),
      typeCode: concat(Uint8Array, base.descriptors.typeCode, extra.descriptors.typeCode),
      elementCount: concat(Uint16Array, base.descriptors.elementCount, extra.descriptors.elementCount),
      link: concat(Uint16Array, base.descriptors.link, extra.descriptors.link),
    },
    valueSectionUnk00: base.valueSectionUnk00,
    categories: [],
    records: {
      count: base.records.count + extra.records.count,
      nameKey: new Uint32Array(base.records.count + extra.records.count),
      cellCount: new Uint16Array(base.records.count + extra.records.count),
      descriptorCount: new Uint8Array(base.records.count + extra.records.count),
      firstDescriptor: new Uint32Array(base.records.count + extra.records.count),
      unk0A: new Uint8Array(base.records.count + extra.records.count),
      flags: new Uint8Array(base.records.count + extra.records.count),
    },
    cells: new Uint32Array(0),
    pairs: base.pairs.slice(),
  };
  const interner = new StringInterner(out);
  // a text is one value whatever its item's padding (the game-scale generator pads some items to hit its file size)
  let texts: Map<string, number> | undefined;
  const textOf = (bytes: Uint8Array): string => {
    const end = bytes.indexOf(0);
    return latin1Decode(end < 0 ? bytes : bytes.subarray(0, end));
  };
  const baseTexts = (): Map<string, number> => {
    const m = new Map<string, number>();
    const kinds = itemKindsOf(base);
    const { itemKeys, itemSizes, data } = base.strings;
    for (let i = 0; i < itemKeys.length; i++) {
      if (kinds[i] !== GadbItemKind.Text) continue;
      const t = textOf(data.subarray(itemKeys[i]!, itemKeys[i]! + itemSizes[i]!));
      if (!m.has(t)) m.set(t, itemKeys[i]!);
    }
    return m;
  };
  const keyMap = new Map<number, number>();
  const text = (key: number): number => {
    let k = keyMap.get(key);
    if (k === undefined) {
      const bytes = itemAt(extra, key);
      texts ??= baseTexts();
      const t = textOf(bytes);
      k = texts.get(t);
      if (k === undefined) {
        k = interner.intern(GadbItemKind.Text, bytes);
        texts.set(t, k);
      }
      keyMap.set(key, k);
    }
    return k;
  };
  const itemMap = new Map<string, number>();
  const item = (kind: number, key: number): number => {
    const id = `${kind}:${key}`;
    let k = itemMap.get(id);
    if (k === undefined) {
      k = interner.intern(kind, itemAt(extra, key));
      itemMap.set(id, k);
    }
    return k;
  };

  const firstRecord = (g: Gadb): Uint32Array => {
    const f = new Uint32Array(g.categories.length + 1);
    let r = 0;
    g.categories.forEach((c, i) => {
      f[i] = r;
      r += c.primaryCount + c.secondaryCount;
    });
    f[g.categories.length] = r;
    return f;
  };
  const firstOf = { base: firstRecord(base), extra: firstRecord(extra) };
  const startsOf = { base: gadbRecordCellStarts(base), extra: gadbRecordCellStarts(extra) };
  let cellTotal = 0;
  for (const g of [base, extra]) for (let r = 0; r < g.records.count; r++) cellTotal += g.records.cellCount[r]!;
  out.cells = new Uint32Array(cellTotal);
  const remapLink = (cell: number, map: Uint32Array, count: number): number => {
    if (cell === GADB_NULL_LINK) return cell;
    const ordinal = cell >>> 20;
    if (ordinal >= count) return cell; // out of range stays as it was: it names no record either way
    return ((map[ordinal]! << 20) | (cell & LINK_INDEX_MASK)) >>> 0;
  };

  let r = 0;
  let at = 0;
  for (const o of order) {
    const g = o.from === 'base' ? base : extra;
    const isExtra = o.from === 'extra';
    const src: GadbCategory = g.categories[o.ordinal]!;
    out.categories.push(isExtra ? { ...src, nameKey: text(src.nameKey), typeNameKey: text(src.typeNameKey), unk08Key: text(src.unk08Key) } : { ...src });
    const map = isExtra ? extraOrdinal : baseOrdinal;
    const ordinals = isExtra ? ne : nb;
    const descriptorShift = isExtra ? base.descriptors.count : 0;
    const first = firstOf[o.from][o.ordinal]!;
    const end = firstOf[o.from][o.ordinal + 1]!;
    const starts = startsOf[o.from];
    for (let s = first; s < end; s++, r++) {
      const n = g.records.cellCount[s]!;
      const isPrimary = s - first < src.primaryCount;
      out.records.nameKey[r] = isExtra && !isPrimary ? text(g.records.nameKey[s]!) : g.records.nameKey[s]!;
      out.records.cellCount[r] = n;
      out.records.descriptorCount[r] = g.records.descriptorCount[s]!;
      out.records.firstDescriptor[r] = g.records.descriptorCount[s]! === 0 ? g.records.firstDescriptor[s]! : g.records.firstDescriptor[s]! + descriptorShift;
      out.records.unk0A[r] = g.records.unk0A[s]!;
      out.records.flags[r] = g.records.flags[s]!;
      out.cells.set(g.cells.subarray(starts[s]!, starts[s]! + n), at);
      // links everywhere; block keys only in the core's records (the base's keep their keys)
      const d0 = g.records.firstDescriptor[s]!;
      for (let d = d0; d < d0 + g.records.descriptorCount[s]!; d++) {
        const info = gadbTypeInfo(g.descriptors.typeCode[d]!);
        if (!info || info.storage === 'bit' || info.storage === 'cell') continue;
        const link = g.descriptors.link[d]!;
        const count = g.descriptors.elementCount[d]!;
        for (let e = 0; e < count; e++) {
          const c = at + link + e;
          if (info.storage === 'link') out.cells[c] = remapLink(out.cells[c]!, map, ordinals);
          else if (isExtra) out.cells[c] = info.itemKind === GadbItemKind.Text ? text(out.cells[c]!) : item(info.itemKind, out.cells[c]!);
        }
      }
      at += n;
    }
  }
  interner.compact();
  out.header.categoryCount = out.categories.length;
  out.header.cellCount = out.cells.length;
  out.header.descriptorCount = out.descriptors.count;
  out.header.stringBlockSize = out.strings.data.length;
  return out;
}

function concat<T extends Uint8Array | Uint16Array | Uint32Array>(Ctor: { new (n: number): T }, a: T, b: T): T {
  const out = new Ctor(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
