/** `buildGadbIndex`: the derived lookup tables of a model (cell starts, record categories, item kinds and reference counts). */
import { GADB_ITEM_KIND_BY_TYPE_BYTE } from './type-codes.ts';
import { gadbSpanWalk, gadbItemIndex, gadbRecordCellStarts, type GadbItemIndex } from './layout.ts';
import { GadbItemKind, type Gadb, type GadbIndex } from './types.ts';

/** Builds the derived tables of `g` in one pass over records and block cells. */
export function buildGadbIndex(g: Gadb): GadbIndex {
  return buildGadbIndexWithItems(g, gadbItemIndex(g));
}

/** `buildGadbIndex` with the model's item index already built (internal: shared by verify). */
export function buildGadbIndexWithItems(g: Gadb, items: GadbItemIndex): GadbIndex {
  const { records, categories, cells } = g;
  const recordCellStart = gadbRecordCellStarts(g);
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

  const n = g.strings.itemKeys.length;
  const itemKinds = new Uint8Array(n);
  const itemRefCounts = new Uint32Array(n);
  const UNREFERENCED = GadbItemKind.Unreferenced;
  const MIXED = GadbItemKind.Mixed;
  const mark = (key: number, kind: number): void => {
    const i = items.of(key);
    if (i < 0) return;
    itemRefCounts[i]!++;
    const was = itemKinds[i]!;
    if (was === UNREFERENCED) itemKinds[i] = kind;
    else if (was !== kind) itemKinds[i] = MIXED;
  };
  if (n > 0 && g.strings.itemKeys[0] === 0) itemKinds[0] = GadbItemKind.Root;
  const TEXT = GadbItemKind.Text;
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
    for (let k = s.begin; k < s.end; k++) mark(cells[k]!, kind);
  }
  return { recordCellStart, recordCategory, categoryFirstRecord, itemKinds, itemRefCounts };
}
