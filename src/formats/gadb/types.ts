/**
 * The GADB v17 model: plain data that a writer can turn back into the exact bytes.
 *
 * GADB is the LithTech Firebird (Middle-earth: Shadow of War) database container: `game.gamedb` (root type
 * `GameDatabase`), the database inside every `.fxp` effect (root `FXDB`, in an `LTFX` wrapper) and the behaviour
 * graphs (`.bvr`, root `BlendDB`). Little-endian throughout. Layout and evidence: `shared/specs/gadb.md`, the seed
 * note `shared/seeds/000_04a0193be20b749f.txt`; open questions are named in `hypotheses.ts`.
 *
 * Scale: the real `game.gamedb` has 2,742 categories, 694,632 records (278,865 secondaries + 415,767 primaries),
 * 8.5M cells and 361,939 descriptors (56.8 MB). Descriptors, records and cells are therefore stored as
 * struct-of-arrays typed arrays (one column per field, one row per item); values are decoded on access
 * (`decode.ts`). Categories are few and are plain objects.
 *
 * Model rules:
 * - A parsed model **views** its input where it can (`parseGadb`): the string block's `data`, and `cells` when the
 *   value section lies 4-aligned in memory on a little-endian host. Such a model must not outlive changes to its
 *   input, and writing into its arrays writes into the input; `parseGadb(bytes, { owned: true })` copies instead,
 *   and the editor (`src/gamedb/edit`) copies before it changes anything. Either way the model is plain data and
 *   `structuredClone`-able (a clone owns copies).
 * - Every byte the writer needs is here: unknown fields by offset (`unk14`), the inline header string, the
 *   value section's leading word, record header bytes +0x0A/+0x0B, the pair table, and the string block's
 *   items with their padding.
 * - String-block references (names, string/enum/vector/curve cells) are **item keys**: the item's offset in
 *   `strings.data`. For a parsed file the key is the offset in the file's block; the writer lays the items out
 *   again (first-use order, `layout.ts`) and rewrites every reference, so an editor may append an item past the
 *   end of `data` and reference its key.
 * - Sizes and counts that the bytes determine (`header.stringBlockSize`, `categoryCount`, `cellCount`,
 *   `descriptorCount`, `headerSize`, the u16 at +0x2C) are kept as read, for display; the writer recomputes them
 *   and `validateGadb` reports a stale value. Hypothesis-bound fields (`recordCount`, `unk14`, `unk20`, `unk24`)
 *   are written as they are in the model.
 */

/** How the database is packaged. */
export type GadbContainer =
  /** A bare database: the file starts with `GADB` (`.gamedb`; `.bvr` by hypothesis H-BVR-BARE). */
  | { kind: 'bare' }
  /**
   * An 8-byte wrapper header then one database that ends at end of file. `LTFX` version 8 is the `.fxp`
   * wrapper [V]; any other 4-byte magic is accepted only by hypothesis H-WRAPPER-GENERIC.
   */
  | {
      kind: 'wrapped';
      /** The wrapper's 4 magic bytes as Latin-1 text (`LTFX` for `.fxp`). */
      magic: string;
      /** u32 at wrapper +0x04: 8 in every `.fxp` seen. */
      version: number;
    };

/** The 44-byte header at GADB+0x00, plus the u16 at GADB+0x2C. */
export interface GadbHeader {
  /** +0x04: format version; always 17 (the engine's loader refuses anything else). */
  version: number;
  /** +0x08: string block size in bytes, from sb+0 (excludes the u16 and the inline header string). As read; the writer recomputes it. */
  stringBlockSize: number;
  /** +0x0C: category count; equals the value section's count [V]. As read; the writer recomputes it. */
  categoryCount: number;
  /**
   * +0x10: record count. Equals the number of secondaries [V]; whether primaries are counted is unknown
   * (H-HDR-10: they are not). Written as it is in the model.
   */
  recordCount: number;
  /** +0x14: unknown; 0 in the sample. Possibly the total primary count (H-HDR-14). Written verbatim. */
  unk14: number;
  /** +0x18: total cell count = the sum of every record's cell count [V]. As read; the writer recomputes it. */
  cellCount: number;
  /** +0x1C: field-descriptor count [V]. As read; the writer recomputes it. */
  descriptorCount: number;
  /** +0x20: unknown 32-bit value (0xABF244DF in the sample; not P919 or CRC-32 of anything obvious). Written verbatim (H-HDR-20). */
  unk20: number;
  /** +0x24: unknown; 0 in the sample. Possibly the pair-table count (H-HDR-24). Written verbatim. */
  unk24: number;
  /**
   * +0x28: header size = GADB-relative offset of the u16 that follows; 0x2C in the sample [V value]. Bytes between
   * 0x2C and this offset are kept in `Gadb.headerExtra` (H-HDR-28). As read; the writer recomputes it.
   */
  headerSize: number;
  /**
   * The u16 after the header (GADB+0x2C): length of an inline string before the string block (H-HDR-2C; 0 in the
   * sample). As read; the writer recomputes it from `Gadb.headerString`.
   */
  headerStringLength: number;
}

/**
 * The string block ("sb"): the root type name at sb+0, then every distinct string and binary value (vector,
 * curve, 64-bit int, float pair) once, each item 4-aligned and NUL-padded, tiling the block exactly [V].
 *
 * Items are identified by their key (start offset in `data`). Each item spans `[key, key + size)`: its payload
 * plus its padding bytes, kept verbatim. Kinds are not stored: they follow from the fields that reference an
 * item (see `GadbIndex.itemKinds`).
 */
export interface GadbStringBlock {
  /** Bytes from which item contents are taken (for a parsed file, a copy of the file's block). Owned. */
  data: Uint8Array;
  /** Item keys, strictly ascending; `itemKeys[0]` is 0, the root name. Every key is a multiple of 4. */
  itemKeys: Uint32Array;
  /** Item sizes in bytes including padding (multiples of 4 in every valid file); `itemKeys[i] + itemSizes[i] <= data.length`. */
  itemSizes: Uint32Array;
}

/**
 * The field-descriptor table (15 bytes per row in the file), one column per field. Rows are grouped in runs, one
 * run per record layout: a record uses rows `[firstDescriptor, firstDescriptor + descriptorCount)`.
 *
 * Each row carries two unrelated things [V]: row j of the **declaration-order** table (`declaredHash`,
 * `schemaOrdinal`, `typeCode`, `elementCount`, `link` all describe declared field j) and row j of the **sorted**
 * lookup table (`sortedHash`, `sortedToDeclared`).
 */
export interface GadbDescriptors {
  /** Number of rows. */
  count: number;
  /** +0x00: P919 of the name of the field declared at position j of its run [V]. */
  declaredHash: Uint32Array;
  /** +0x04: j-th entry of the run's sorted hash column (strictly ascending within a run; the binary-search key) [V]. */
  sortedHash: Uint32Array;
  /**
   * +0x08: schema ordinal of declared field j: strictly increasing within a run, with gaps (the editor's property
   * slot, which also counts group markers) [V monotone; meaning per the seed].
   */
  schemaOrdinal: Uint8Array;
  /** +0x09: declaration index (within the run) of the field whose hash is sorted entry j: `declaredHash[first + sortedToDeclared[j]] == sortedHash[j]` [V]. */
  sortedToDeclared: Uint8Array;
  /** +0x0A: type code of declared field j; low 6 bits are the type, 0x40 marks a resource-path String (H-FLAG-40). See `type-codes.ts`. */
  typeCode: Uint8Array;
  /** +0x0B: element count of declared field j (1 for scalars, n for arrays, 0 = no value in this record) [V]. */
  elementCount: Uint16Array;
  /** +0x0D: slot of declared field j: first cell index, or for Bool the bit index (bit `link & 31` of cell `link >> 5`) [V]. */
  link: Uint16Array;
}

/** A category entry (24 bytes) of the value section. Its records follow it: primaries first, then secondaries. */
export interface GadbCategory {
  /** +0x00: item key of the category name (e.g. `ClientFX.Sprite`, `AI/Templates`) [V]. */
  nameKey: number;
  /** +0x04: item key of a string equal to the name in every sample category; probably the record-type name (H-CAT-04). */
  typeNameKey: number;
  /** +0x08: item key of a string, `""` in every sample category; meaning unknown (H-CAT-08). */
  unk08Key: number;
  /** +0x0C: number of primary (inline-structure, unnamed) records that follow (H-CAT-0C; 0 in the sample). */
  primaryCount: number;
  /** +0x10: number of secondary (named) records that follow the primaries [V]. */
  secondaryCount: number;
  /** +0x14: sort key = P919(category name) [V 12/12]; categories are stored in strictly ascending key order. */
  sortKey: number;
}

/**
 * Every record of the file in file order (category by category, each category's primaries then its
 * secondaries), one column per header field. Record r's cells are `Gadb.cells[cellStart[r], cellStart[r] +
 * cellCount[r])`; without `cellStart` (a built model) records' cells lie back to back in record order.
 *
 * Secondary header (12 bytes) [V]: +0x00 u32 name key, +0x04 u16 cell count, +0x06 u8 descriptor count, +0x07 u24
 * first descriptor, +0x0A u8, +0x0B u8. Primary header: the same without the name (8 bytes; H-PRIM-HDR).
 */
export interface GadbRecords {
  /** Number of records (primaries and secondaries). */
  count: number;
  /** Secondary +0x00: item key of the record name. 0 for primaries, which have no name (H-PRIM-HDR). */
  nameKey: Uint32Array;
  /** +0x04 (primary: +0x00): number of 4-byte cells the record owns [V]. */
  cellCount: Uint16Array;
  /** +0x06: number of descriptors in the record's run (0: a zero-field record, H-ZERO-FIELD) [V]. */
  descriptorCount: Uint8Array;
  /** +0x07: index of the run's first descriptor; u24 by hypothesis H-REC-FIRST-U24 (only 16 bits exercised). */
  firstDescriptor: Uint32Array;
  /** +0x0A: unknown byte, 0 in every sample record (H-REC-0A). Written verbatim. */
  unk0A: Uint8Array;
  /**
   * +0x0B: 0x08 in every sample record; probably the record flags the engine tests (0x01 own-sorted run, 0x10
   * native structure; H-REC-FLAGS). Written verbatim.
   */
  flags: Uint8Array;
  /**
   * Index in `Gadb.cells` of each record's first cell, length `count + 1` (the last entry: one past the last
   * record's cells). A parsed model has it: its `cells` are the value section's u32 words (a view of the file or
   * one copy), so record headers lie between the records' cells. Absent: back to back (`gadbRecordCellStarts`).
   * Never written to the file (it follows from the cell counts).
   */
  cellStart?: Uint32Array;
}

/** A parsed or built GADB v17 database. Plain data; see the module comment for the rules. */
export interface Gadb {
  container: GadbContainer;
  header: GadbHeader;
  /** Bytes between GADB+0x2C and `header.headerSize` (empty in every known file; H-HDR-28). */
  headerExtra: Uint8Array;
  /** The inline string after the u16 at GADB+0x2C, `headerStringLength` bytes (empty in every known file; H-HDR-2C). */
  headerString: Uint8Array;
  strings: GadbStringBlock;
  descriptors: GadbDescriptors;
  /** The value section's leading u32 (0 in every known file; meaning unknown, H-VAL-00). */
  valueSectionUnk00: number;
  /** Categories in file order; a category's ordinal (its index here) is what RecordLinks use [V]. */
  categories: GadbCategory[];
  records: GadbRecords;
  /**
   * The cell pool: every record's cells as the raw u32 the file stores (floats as their bits), where
   * `records.cellStart` says (a parsed file: the value section's words, headers in between), else back to back in
   * file order. Only the records' own cells mean anything; the writer never reads the words between them.
   */
  cells: Uint32Array;
  /** The trailer's pair table, flattened: pair i is `(pairs[2i], pairs[2i+1])`; empty in every known file (H-PAIRS). */
  pairs: Uint32Array;
}

/**
 * Derived lookup tables built from a model (`buildGadbIndex`): never written, never needed by the writer,
 * rebuilt whenever the model changes.
 */
export interface GadbIndex {
  /**
   * `recordCellStart[r]` is the index in `Gadb.cells` of record r's first cell; length `records.count + 1`
   * (`gadbRecordCellStarts`: the model's own `records.cellStart`, or back to back). A record's cells end at its
   * start plus its cell count (not necessarily at the next record's start).
   */
  recordCellStart: Uint32Array;
  /** Ordinal of each record's category. */
  recordCategory: Uint32Array;
  /** `categoryFirstRecord[c]` is the index of category c's first record (its first primary); length `categories.length + 1`. */
  categoryFirstRecord: Uint32Array;
  /** Per item (parallel to `strings.itemKeys`): the value kind that references it (`GadbItemKind`), `Unreferenced`, or `Mixed`. */
  itemKinds: Uint8Array;
  /** Per item: how many references (names and cells) point at it. */
  itemRefCounts: Uint32Array;
}

/** What a string-block item holds, decided by the references to it. Dedup ("stored once") is per kind [V]. */
export const GadbItemKind = {
  /** Not referenced by any name or cell (only the root name, in a valid file). */
  Unreferenced: 0,
  /** NUL-terminated text: names, String, StringEnum and resource-path values (one pool, H-SB-TEXT-POOL). */
  Text: 1,
  /** Int64 value, type 6 (H-TYPE-6). */
  Int64: 2,
  /** Float pair, type 7 (H-TYPE-7). */
  FloatPair: 3,
  /** Vector3, type 8 [V]. */
  Vector3: 4,
  /** Type 9: a block value of unknown content (H-TYPE-9). */
  Type9: 5,
  /** ColorCurve, type 12 [V]. */
  ColorCurve: 6,
  /** FloatCurve, type 13 [V]. */
  FloatCurve: 7,
  /** Curve of 8-byte values, type 14 (value kind unknown, H-TYPE-14). */
  Curve14: 8,
  /** IntCurve, type 15 [V]. */
  IntCurve: 9,
  /** Vector3Curve, type 16 [V]. */
  Vector3Curve: 10,
  /** The root name at sb+0. */
  Root: 11,
  /** Referenced as two different kinds (a finding of `verifyGadb`). */
  Mixed: 255,
} as const;
export type GadbItemKind = (typeof GadbItemKind)[keyof typeof GadbItemKind];

/** Where the parts of a parsed file lie (absolute file offsets). Produced by `parseGadbWithLayout`; used by `verifyGadb` for offsets. */
export interface GadbLayout {
  /** File offset of the `GADB` magic (8 in an `.fxp`, 0 for a bare database). */
  gadbOffset: number;
  /** File offset of sb+0. */
  stringBlockOffset: number;
  descriptorsOffset: number;
  valueSectionOffset: number;
  /** File offset of each category entry. */
  categoryOffsets: Uint32Array;
  /** File offset of each record header. */
  recordOffsets: Uint32Array;
  /** File offset of the trailer's pair count. */
  trailerOffset: number;
  fileSize: number;
}
