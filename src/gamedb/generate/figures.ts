/**
 * The real game database's figures, as measured in the running game and in the shipped file (seed note
 * `000_04a0193be20b749f`, "The database file", "Records", "RecordLinks", "Shared values", "Value types"), and
 * their scaled versions for small test databases.
 *
 * At scale 1 the generator reproduces every figure marked *exact* below exactly; the per-type cell totals
 * (floats, ints, strings, …) are quotas the schema is drawn towards and land within a few percent.
 */
import { UsageError } from '../../binary/errors.ts';

/** The figures of `game.gamedb` (HotChunk copy, game version 1.21). */
export const GAME_DB_FIGURES = {
  /** File size in bytes (exact when `exactSize` is on). */
  fileSize: 56_759_100,
  /** Categories (exact). */
  categories: 2_742,
  /** `_Structures*` categories (exact). 736 hold every primary; 777 carry a `DEFAULT_RECORD_NAME<Type>` placeholder. */
  structureCategories: 799,
  structureCategoriesWithPrimaries: 736,
  structureCategoriesWithPlaceholder: 777,
  /** Categories whose record 0 is a `DEFAULT_RECORD_NAME<Type>` placeholder (exact). */
  placeholders: 921,
  /** Categories that hold no record (2,742 − 2,713; exact). */
  emptyCategories: 29,
  /** Categories with two or more secondaries (exact). */
  multiSecondaryCategories: 1_371,
  /** Inline (primary) records (exact). */
  primaries: 415_767,
  /** Named (secondary) records, placeholders included (exact). */
  secondaries: 278_865,
  /** Records with descriptor count 0 (exact). */
  zeroFieldRecords: 8_231,
  /** Field descriptors (exact). */
  descriptors: 361_939,
  /** Distinct descriptor runs (record layouts; exact). */
  runs: 13_612,
  /** (category, field) pairs (exact). */
  fieldPairs: 18_554,
  /** Distinct field names (approximate: the names are drawn from a pool of this size). */
  fieldNames: 11_756,
  /** Categories whose records have more than one layout (exact). */
  multiLayoutCategories: 876,
  /** Largest layout count in one category (Combat/Attack: 1,898 layouts over 16,976 records). */
  largestLayoutCount: 1_898,
  /** Cells (exact). */
  cells: 8_544_670,
  /** RecordLink cells (exact), null ones (exact); each primary is the target of exactly one link. */
  linkCells: 5_204_006,
  nullLinks: 3_471_923,
  /** Quotas per value type, in cells (Bool: in bits). */
  boolBits: 2_943_938,
  floatCells: 900_436,
  intCells: 641_086,
  stringCells: 721_164,
  resourcePathCells: 196_950,
  emptyResourcePaths: 120_185,
  enumCells: 336_338,
  int64Cells: 210,
  floatPairCells: 166_606,
  vector3Cells: 50_734,
  /** Distinct float pairs and vectors (exact given the cell totals). */
  distinctFloatPairs: 3_071,
  distinctVectors: 2_596,
  /** Secondaries' distinct names, names found in several categories (approximate targets). */
  distinctRecordNames: 181_736,
  sharedRecordNames: 50_607,
  recordsWithSharedName: 147_736,
} as const;

/** The most shared float pairs and how many cells point at each (seed "Shared values"; exact at scale 1). */
export const SHARED_FLOAT_PAIRS: ReadonlyArray<readonly [number, number, number]> = [
  [0, 0, 72_774],
  [1, 1, 17_492],
  [100, 200, 13_591],
  [0.25, 0.25, 13_257],
  [0, 200, 10_743],
];

/** The all-zero vector's share of vector cells (exact at scale 1). */
export const ZERO_VECTOR_CELLS = 25_616;

/** Record names found in the most categories (seed "Records"; exact at scale 1). */
export const MOST_SHARED_RECORD_NAMES: ReadonlyArray<readonly [string, number]> = [
  ['Default', 95],
  ['Player', 45],
  ['True', 35],
  ['Balrog', 35],
  ['Warg', 25],
  ['Troll', 25],
  ['FellBeast', 24],
  ['False', 22],
];

/** What resource paths (type 0x44) name, per extension (seed "Value types"; the other non-empty ones are folders). */
export const RESOURCE_PATH_EXTENSIONS: ReadonlyArray<readonly [string, number]> = [
  ['bndl', 29_795],
  ['fxp', 16_814],
  ['mat', 14_642],
  ['tex', 7_788],
  ['skel', 3_197],
  ['vid', 940],
];
export const RESOURCE_PATH_FILES = 73_591;

/** The figures the generator aims at for one scale. */
export type GenFigures = { -readonly [K in keyof typeof GAME_DB_FIGURES]: number };

/**
 * Figures for a database `scale` times the game's (scale 1: the game's own). Counts shrink in proportion but keep
 * every kind of thing present (at least a few structure categories, placeholders, zero-field records, layouts…),
 * and stay mutually consistent (e.g. there are never more placeholders than categories with records).
 */
export function scaledFigures(scale: number): GenFigures {
  if (!(scale > 0 && scale <= 1)) throw new UsageError(`scale must be a fraction in (0, 1] (1 = the real game's size), got ${scale}`);
  const G = GAME_DB_FIGURES;
  const f = {} as GenFigures;
  for (const k of Object.keys(G) as (keyof typeof G)[]) f[k] = G[k];
  if (scale === 1) return f;
  const s = (x: number, min: number): number => Math.max(min, Math.round(x * scale));
  f.categories = s(G.categories, 40);
  f.structureCategories = Math.max(6, Math.round((f.categories * G.structureCategories) / G.categories));
  f.structureCategoriesWithPrimaries = Math.max(4, Math.round((f.structureCategories * G.structureCategoriesWithPrimaries) / G.structureCategories));
  // Structure categories without primaries must carry the placeholder (or they would hold nothing).
  f.structureCategoriesWithPlaceholder = Math.min(f.structureCategories, Math.max(f.structureCategories - f.structureCategoriesWithPrimaries + 1, Math.round((f.structureCategories * G.structureCategoriesWithPlaceholder) / G.structureCategories)));
  f.emptyCategories = Math.max(1, Math.round((f.categories * G.emptyCategories) / G.categories));
  const nonStructure = f.categories - f.structureCategories;
  f.multiSecondaryCategories = Math.max(8, Math.round((f.categories * G.multiSecondaryCategories) / G.categories));
  f.multiSecondaryCategories = Math.min(f.multiSecondaryCategories, nonStructure - f.emptyCategories - 2);
  f.placeholders = f.structureCategoriesWithPlaceholder + Math.max(2, Math.round(((G.placeholders - G.structureCategoriesWithPlaceholder) * f.categories) / G.categories));
  f.primaries = s(G.primaries, f.structureCategoriesWithPrimaries * 3);
  f.secondaries = s(G.secondaries, f.structureCategoriesWithPlaceholder + (nonStructure - f.emptyCategories) * 3);
  f.zeroFieldRecords = s(G.zeroFieldRecords, 6);
  f.multiLayoutCategories = Math.max(4, Math.round((f.categories * G.multiLayoutCategories) / G.categories));
  f.largestLayoutCount = Math.max(6, Math.round(G.largestLayoutCount * Math.sqrt(scale)));
  f.runs = s(G.runs, f.categories + f.multiLayoutCategories * 3);
  f.fieldPairs = Math.max(Math.round((f.categories * G.fieldPairs) / G.categories), f.categories * 4);
  f.fieldNames = Math.max(20, Math.round((f.fieldPairs * G.fieldNames) / G.fieldPairs));
  // Descriptors follow from the runs and the fields per run: keep the game's ratio of extra descriptors per extra run.
  const perExtraRun = (G.descriptors - G.fieldPairs) / (G.runs - G.categories);
  f.descriptors = f.fieldPairs + Math.round((f.runs - f.categories) * perExtraRun * 0.6);
  for (const k of ['cells', 'linkCells', 'nullLinks', 'boolBits', 'floatCells', 'intCells', 'stringCells', 'resourcePathCells', 'emptyResourcePaths', 'enumCells', 'floatPairCells', 'vector3Cells', 'distinctRecordNames', 'sharedRecordNames', 'recordsWithSharedName'] as const) {
    f[k] = Math.round(G[k] * scale);
  }
  f.int64Cells = Math.max(4, Math.round(G.int64Cells * scale));
  f.distinctFloatPairs = Math.max(8, Math.round(G.distinctFloatPairs * Math.sqrt(scale)));
  f.distinctVectors = Math.max(8, Math.round(G.distinctVectors * Math.sqrt(scale)));
  f.fileSize = Math.round(G.fileSize * scale);
  return f;
}
