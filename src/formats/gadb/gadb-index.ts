/** `buildGadbIndex`: the derived lookup tables of a model (cell starts, record categories, item kinds and reference counts). */
import { GADB_ITEM_KIND_BY_TYPE_BYTE } from './type-codes.ts';
import { gadbSpanWalk, itemIndexByWord, itemOf } from './layout.ts';
import { GadbItemKind, type Gadb, type GadbIndex } from './types.ts';

/** Builds the derived tables of `g` in one pass over records and block cells. */
export function buildGadbIndex(g: Gadb): GadbIndex {
  return buildGadbIndexWithItems(g, itemIndexByWord(g));
}

/** `buildGadbIndex` with the model's `itemIndexByWord` already computed (internal: shared by verify). */
export function buildGadbIndexWithItems(g: Gadb, map: Int32Array): GadbIndex {
  const { records, categories, cells } = g;
  const recordCellStart = new Uint32Array(records.count + 1);
  for (let r = 0; r < records.count; r++) recordCellStart[r + 1] = recordCellStart[r]! + records.cellCount[r]!;
  const recordCategory = new Uint32Array(records.count);
  const categoryFirstRecord = new Uint32Array(categories.length + 1);
  let rec = 0;
  for (let c = 0; c < categories.length; c++) {
    categoryFirstRecord[c] = rec;
    const n = categories[c]!.primaryCount + categories[c]!.secondaryCount;
    recordCategory.fill(c, rec, Math.min(records.count, rec + n));
    rec += n;
  }
  categoryFirstRecord[categories.length] = Math.min(rec, records.count);

  const items = g.strings.itemKeys.length;
  const itemKinds = new Uint8Array(items);
  const itemRefCounts = new Uint32Array(items);
  const UNREFERENCED = GadbItemKind.Unreferenced;
  const MIXED = GadbItemKind.Mixed;
  const TEXT = GadbItemKind.Text;
  const mark = (key: number, kind: number): void => {
    const i = itemOf(map, key);
    if (i < 0) return;
    itemRefCounts[i]!++;
    const was = itemKinds[i]!;
    if (was === UNREFERENCED) itemKinds[i] = kind;
    else if (was !== kind) itemKinds[i] = MIXED;
  };
  if (items > 0 && g.strings.itemKeys[0] === 0) itemKinds[0] = GadbItemKind.Root;
  rec = 0;
  for (const cat of categories) {
    mark(cat.nameKey, TEXT);
    mark(cat.typeNameKey, TEXT);
    mark(cat.unk08Key, TEXT);
    rec += cat.primaryCount;
    for (let i = 0; i < cat.secondaryCount && rec < records.count; i++, rec++) mark(records.nameKey[rec]!, TEXT);
  }
  // Kind of a block cell = kind of its field's type.
  const kindByType = GADB_ITEM_KIND_BY_TYPE_BYTE;
  for (const s = gadbSpanWalk(g); s.next(); ) {
    const kind = kindByType[s.typeByte]!;
    for (let k = s.begin; k < s.end; k++) {
      const v = cells[k]!;
      if ((v & 3) !== 0 || v >>> 2 >= map.length) continue;
      const i = map[v >>> 2]!;
      if (i < 0) continue;
      itemRefCounts[i]!++;
      const was = itemKinds[i]!;
      if (was === UNREFERENCED) itemKinds[i] = kind;
      else if (was !== kind) itemKinds[i] = MIXED;
    }
  }
  return { recordCellStart, recordCategory, categoryFirstRecord, itemKinds, itemRefCounts };
}
