/**
 * Every GADB fact that the one real sample (`landmine_curse.fxp`) cannot prove, as data: an id, the statement
 * scry implements, its status and where the evidence is. Code that relies on one names its id (and
 * `verifyGadb` findings carry it in `Issue.hypothesis`), so when a real `game.gamedb` disagrees, the id leads to
 * the one place to change.
 *
 * Status: `inferred` = consistent with the data and implemented as stated; `unknown` = scry only preserves the
 * bytes and reports what it sees.
 */

export interface GadbHypothesis {
  readonly id: string;
  readonly statement: string;
  readonly status: 'inferred' | 'unknown';
  /** Spec section (`gadb.md §…`) or seed-note heading. */
  readonly spec: string;
  /** What scry does about it. */
  readonly handling: string;
}

export const GADB_HYPOTHESES: readonly GadbHypothesis[] = [
  // Container
  { id: 'H-BVR-BARE', statement: 'A .bvr behaviour graph is a bare GADB v17 database (root type BlendDB) with no wrapper.', status: 'inferred', spec: 'seed "The database file"', handling: 'isGadb/parseGadb accept a bare GADB whatever its root name.' },
  { id: 'H-WRAPPER-GENERIC', statement: 'A wrapper other than LTFX has the same shape: 4-byte magic, u32 version, then one database to end of file.', status: 'inferred', spec: 'gadb.md §2', handling: 'Accepted when GADB v17 follows at +8; magic and version preserved.' },
  // Header
  { id: 'H-HDR-10', statement: 'Header +0x10 counts secondaries only, not primaries.', status: 'inferred', spec: 'gadb.md §3.2; seed "Loading" (arena sized by primaries and secondaries separately)', handling: 'Written verbatim; verify reports when it equals neither the secondary total nor the record total.' },
  { id: 'H-HDR-14', statement: 'Header +0x14 is the total primary count.', status: 'unknown', spec: 'gadb.md §3.2, §7.2', handling: 'Written verbatim; verify reports (info) whether it equals the primary total.' },
  { id: 'H-HDR-20', statement: 'Header +0x20 (0xABF244DF in the sample) is an opaque 32-bit value, perhaps a build tag.', status: 'unknown', spec: 'gadb.md §3.2, §7.2; seed "Other copies and the patch database"', handling: 'Written verbatim.' },
  { id: 'H-HDR-24', statement: 'Header +0x24 is the pair-table count.', status: 'unknown', spec: 'gadb.md §3.2, §7.2', handling: 'Written verbatim; verify reports (info) whether it equals the pair count.' },
  { id: 'H-HDR-28', statement: 'Header +0x28 is the offset of the u16 that follows the header; bytes between 0x2C and it belong to the header.', status: 'inferred', spec: 'gadb.md §3.2', handling: 'Extra bytes kept in Gadb.headerExtra; values below 0x2C are refused.' },
  { id: 'H-HDR-2C', statement: 'The u16 at GADB+0x2C is the length of an inline string that precedes the string block, which starts after it.', status: 'inferred', spec: 'gadb.md §3.2', handling: 'The bytes are kept in Gadb.headerString; sb+0 = GADB + headerSize + 2 + length.' },
  // String block, descriptors, cells
  { id: 'H-SB-ROOT', statement: 'sb+0 holds the root type name (GameDatabase, FXDB, BlendDB), NUL-padded like any text item, and nothing references it.', status: 'inferred', spec: 'gadb.md §3.3; seed "The database file"', handling: 'Item 0 is always kept first; verify reports a reference-free root as normal.' },
  { id: 'H-DESC-ORDINAL', statement: 'Descriptor +0x08 is the editor property slot of the field (it also counts group markers), so it strictly increases within a run, with gaps.', status: 'inferred', spec: 'gadb.md §3.4; seed "Schema objects and field registration"', handling: 'Verify checks only that it strictly increases (runs.ordinal).' },
  { id: 'H-CELL-BASE', statement: 'A record\'s cells are the next cellCount cells of the pool, records back to back in file order.', status: 'inferred', spec: 'gadb.md §3.5 (total verified); seed "The database in memory"', handling: 'buildGadbIndex().recordCellStart; the reader stores cells in that order.' },
  // Value section
  { id: 'H-VAL-00', statement: 'The value section starts with a u32 that is always 0.', status: 'unknown', spec: 'gadb.md §3.5', handling: 'Kept as Gadb.valueSectionUnk00; verify warns when non-zero.' },
  { id: 'H-CAT-04', statement: 'Category +0x04 is a string offset naming the record type (equal to the category name in FXDB).', status: 'inferred', spec: 'gadb.md §3.5', handling: 'Treated as a string-block reference (first-use traversal includes it).' },
  { id: 'H-CAT-08', statement: 'Category +0x08 is a string offset of unknown meaning ("" in the sample).', status: 'unknown', spec: 'gadb.md §3.5, §7.3', handling: 'Treated as a string-block reference.' },
  { id: 'H-CAT-0C', statement: 'Category +0x0C is the number of primary records, stored before the secondaries.', status: 'inferred', spec: 'gadb.md §3.5; seed "The database file"', handling: 'That many primaries are read before the secondaries.' },
  { id: 'H-PRIM-HDR', statement: 'A primary record in the file is the secondary header without the name: u16 cell count, u8 descriptor count, u24 first descriptor, u8 +0x0A, u8 flags (8 bytes), then its cells.', status: 'inferred', spec: 'gadb.md §3.5, §7.5; seed "Records"', handling: 'GADB_RECORD_HEADER in parse.ts is the one table the reader, writer and verifier take the layout from.' },
  { id: 'H-PRIM-FIRST', statement: 'A RecordLink index counts the category\'s primaries first, then its secondaries; an index past both is null.', status: 'inferred', spec: 'seed "RecordLinks" (verified in memory, inferred for the file)', handling: 'resolveGadbLink; verify reports links past both as errors.' },
  { id: 'H-LINK-SIDE', statement: 'Links to primaries target _Structures* categories only, links to secondaries target other categories.', status: 'inferred', spec: 'seed "RecordLinks"', handling: 'verify reports (warning) a link that crosses sides.' },
  { id: 'H-REC-0A', statement: 'Record header byte +0x0A is unknown (0 in every sample record).', status: 'unknown', spec: 'gadb.md §3.5, §7.4', handling: 'Written verbatim.' },
  { id: 'H-REC-FLAGS', statement: 'Record header byte +0x0B holds record flags (0x08 in every sample record; engine bits 0x01 own-sorted run, 0x10 native structure).', status: 'unknown', spec: 'gadb.md §3.5; seed "Native-structure records"', handling: 'Written verbatim; records with 0x10 get slot-rule findings as info only.' },
  { id: 'H-REC-FIRST-U24', statement: 'The first-descriptor index is a u24 at record +0x07 (only the low 16 bits are exercised).', status: 'inferred', spec: 'gadb.md §3.5, §7.4', handling: 'Read and written as u24.' },
  { id: 'H-ZERO-FIELD', statement: 'A zero-field record has descriptor count 0, no cells and points at descriptor 0.', status: 'inferred', spec: 'seed "Records"', handling: 'Parsed like any record; verify warns when its first descriptor is not 0.' },
  { id: 'H-RUN-SHAPE', statement: 'Every record of a category declares the same fields in the same order (element counts and links may differ per record).', status: 'inferred', spec: 'seed "Descriptors and the slot rule"', handling: 'verify warns when records of a category declare different hash sequences.' },
  // Types
  { id: 'H-TYPE-6', statement: 'Type 6 is a 64-bit integer stored as an 8-byte string-block item.', status: 'inferred', spec: 'seed "The database file", "Loading"', handling: 'type-codes.ts row 6.' },
  { id: 'H-TYPE-7', statement: 'Type 7 is a float pair (two f32) stored as an 8-byte string-block item.', status: 'inferred', spec: 'seed "A float pair is a pointer"', handling: 'type-codes.ts row 7.' },
  { id: 'H-TYPE-9', statement: 'Type 9 cells are string-block offsets (the loader rebases types 4..9); the item\'s content and size are unknown.', status: 'unknown', spec: 'seed "Loading"', handling: 'type-codes.ts row 9: an opaque item whose extent comes from the tiling.' },
  { id: 'H-TYPE-11', statement: 'Type 11 is a second RecordLink kind with the same cell encoding as 10.', status: 'inferred', spec: 'seed "Loading"', handling: 'type-codes.ts row 11.' },
  { id: 'H-TYPE-14', statement: 'Type 14 is a curve whose keys are f32 time + 8 bytes of unknown kind (Vector2 or int64).', status: 'unknown', spec: 'gadb.md §3.7', handling: 'Decoded as time + two raw u32 words.' },
  { id: 'H-COLOR-ORDER', statement: 'A ColorCurve colour is a u32 whose byte order (RGBA vs BGRA) is unknown.', status: 'unknown', spec: 'gadb.md §3.7', handling: 'Decoded as the raw u32.' },
  { id: 'H-FLAG-40', statement: 'The type byte\'s low 6 bits are the type; 0x40 marks a resource-path String (0x44) and occurs on Strings only.', status: 'inferred', spec: 'seed "Value types"; gadb.md §3.4', handling: 'gadbTypeInfo masks 0x3F; verify warns on a flag elsewhere.' },
  { id: 'H-SLOT-FLAGGED', statement: 'In the slot rule a flagged code (0x44) sorts by its full type byte (after 16), not by its low 6 bits.', status: 'unknown', spec: 'gadb.md §3.6', handling: 'gadbSlotOrderKey(); verify accepts either order and reports which one a file uses.' },
  { id: 'H-SLOT-NOBOOL', statement: 'A run without Bools has no bool word: non-Bool slots start at cell 0.', status: 'inferred', spec: 'gadb.md §3.6', handling: 'expectedLinks() in slots.ts.' },
  { id: 'H-BOOL-ARRAY', statement: 'A Bool with element count n > 1 occupies n consecutive bit indexes.', status: 'unknown', spec: 'seed "Bools are bits" (every loaded Bool has count 1)', handling: 'expectedLinks() assigns n bits; verify warns on such a field.' },
  { id: 'H-SB-TEXT-POOL', statement: 'String, StringEnum, resource-path and name texts share one pool: equal texts are one item.', status: 'inferred', spec: 'gadb.md §3.3', handling: 'GadbItemKind.Text for all of them.' },
  { id: 'H-PAIRS', statement: 'The trailer is a u32 count then that many (u32, u32) pairs of unknown meaning.', status: 'unknown', spec: 'gadb.md §3.8; seed "The database file"', handling: 'Kept in Gadb.pairs and written verbatim.' },
];

const byId = new Map(GADB_HYPOTHESES.map((h) => [h.id, h]));

/** The hypothesis with this id; throws (a bug) for an unknown id. */
export function gadbHypothesis(id: string): GadbHypothesis {
  const h = byId.get(id);
  if (!h) throw new Error(`unknown GADB hypothesis ${id}`);
  return h;
}
