/**
 * `summarizeDatabase`: the figures the seed note gives for the real game database (categories, primaries,
 * secondaries, cells, descriptors, distinct runs, link cells by side, shared values, zero-field records), computed
 * for any database in one pass over its descriptor uses.
 */
import { GadbStorageCode, gadbTypeName } from '../formats/gadb/type-codes.ts';
import { gadbCellTotal } from '../formats/gadb/layout.ts';
import type { Database } from './database.ts';
import { NULL_LINK } from './database.ts';

export interface DatabaseSummary {
  container: string;
  rootName: string;
  version: number;
  categories: number;
  records: number;
  primaries: number;
  secondaries: number;
  /** Records whose run is empty (descriptor count 0). */
  zeroFieldRecords: number;
  /** `_Structures*` categories (the inline-structure arrays) and how many of them hold primaries. */
  structureCategories: { total: number; withPrimaries: number };
  /** Secondaries named `DEFAULT_RECORD_NAME…` (921 in the game, always record 0 of their category). */
  placeholders: number;
  /** Distinct secondary names, and how many of them occur in more than one category (a name needs its category). */
  recordNames: { distinct: number; inSeveralCategories: number };
  cells: number;
  descriptors: number;
  /** Distinct (first descriptor, descriptor count) runs used by records with fields. */
  runs: number;
  stringBlockBytes: number;
  stringBlockItems: number;
  /** Header words whose meaning is unknown or inferred, as stored. */
  header: { recordCount: number; unk14: number; unk20: number; unk24: number };
  pairTableEntries: number;
  /** Descriptor rows per type name (`String|ResourcePath` for 0x44). */
  descriptorTypes: Record<string, number>;
  links: { cells: number; null: number; toPrimary: number; toSecondary: number; unresolved: number };
  /** Cells that point at a string-block value, distinct values behind them, and cells whose value is shared. */
  blockValues: { cells: number; distinct: number; sharedCells: number };
  /** The categories with the most records (at most 5). */
  largestCategories: Array<{ name: string; records: number }>;
}

export function summarizeDatabase(db: Database): DatabaseSummary {
  const m = db.model;
  const { records, descriptors, cells } = m;
  let primaries = 0;
  for (const c of m.categories) primaries += c.primaryCount;
  const runs = new Set<number>();
  let zeroFieldRecords = 0;
  const links = { cells: 0, null: 0, toPrimary: 0, toSecondary: 0, unresolved: 0 };
  const blockCounts = new Map<number, number>();
  let blockCells = 0;
  for (let r = 0; r < records.count; r++) {
    const n = records.descriptorCount[r]!;
    const first = records.firstDescriptor[r]!;
    if (n === 0) {
      zeroFieldRecords++;
      continue;
    }
    runs.add(first * 256 + n);
    const base = db.recordCellStart[r]!;
    const own = records.cellCount[r]!;
    const blockRows = db.runRows(r, GadbStorageCode.Block);
    for (let j = 0; j < blockRows.length; j++) {
      const row = blockRows[j]!;
      const count = descriptors.elementCount[row]!;
      const link = descriptors.link[row]!;
      for (let e = 0; e < count && link + e < own; e++) {
        const raw = cells[base + link + e]!;
        blockCells++;
        blockCounts.set(raw, (blockCounts.get(raw) ?? 0) + 1);
      }
    }
    const linkRows = db.runRows(r, GadbStorageCode.Link);
    for (let j = 0; j < linkRows.length; j++) {
      const row = linkRows[j]!;
      const count = descriptors.elementCount[row]!;
      const link = descriptors.link[row]!;
      for (let e = 0; e < count && link + e < own; e++) {
        const raw = cells[base + link + e]!;
        links.cells++;
        if (raw === NULL_LINK) {
          links.null++;
          continue;
        }
        const t = db.linkTarget(raw);
        if (t < 0) links.unresolved++;
        else if (t - db.categoryFirstRecord[db.recordCategory[t]!]! < m.categories[db.recordCategory[t]!]!.primaryCount) links.toPrimary++;
        else links.toSecondary++;
      }
    }
  }
  const structureCategories = { total: 0, withPrimaries: 0 };
  let placeholders = 0;
  const nameCategories = new Map<number, number>(); // name key -> categories holding it (counted once per category)
  for (const c of db.categories) {
    if (c.isStructures) {
      structureCategories.total++;
      if (c.primaryCount > 0) structureCategories.withPrimaries++;
    }
    const seen = new Set<number>();
    for (let r = c.firstRecord + c.primaryCount; r < c.firstRecord + c.recordCount; r++) {
      const key = records.nameKey[r]!;
      if (seen.has(key)) continue;
      seen.add(key);
      nameCategories.set(key, (nameCategories.get(key) ?? 0) + 1);
      if (db.block.text(key).startsWith('DEFAULT_RECORD_NAME')) placeholders++;
    }
  }
  let inSeveralCategories = 0;
  for (const n of nameCategories.values()) if (n > 1) inSeveralCategories++;
  let sharedCells = 0;
  for (const n of blockCounts.values()) if (n > 1) sharedCells += n;
  const descriptorTypes: Record<string, number> = {};
  for (let row = 0; row < descriptors.count; row++) {
    const name = gadbTypeName(descriptors.typeCode[row]!);
    descriptorTypes[name] = (descriptorTypes[name] ?? 0) + 1;
  }
  const largestCategories = db.categories
    .map((c) => ({ name: c.name, records: c.recordCount }))
    .sort((a, b) => b.records - a.records)
    .slice(0, 5);
  return {
    container: m.container.kind === 'bare' ? 'bare GADB' : `${m.container.magic} v${m.container.version} wrapper`,
    rootName: db.rootName,
    version: m.header.version,
    categories: m.categories.length,
    records: records.count,
    primaries,
    secondaries: records.count - primaries,
    zeroFieldRecords,
    structureCategories,
    placeholders,
    recordNames: { distinct: nameCategories.size, inSeveralCategories },
    cells: gadbCellTotal(m),
    descriptors: descriptors.count,
    runs: runs.size,
    stringBlockBytes: m.strings.data.length,
    stringBlockItems: m.strings.itemKeys.length,
    header: { recordCount: m.header.recordCount, unk14: m.header.unk14, unk20: m.header.unk20, unk24: m.header.unk24 },
    pairTableEntries: m.pairs.length / 2,
    descriptorTypes,
    links,
    blockValues: { cells: blockCells, distinct: blockCounts.size, sharedCells },
    largestCategories,
  };
}
