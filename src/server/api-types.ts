/**
 * The JSON contract between the workbench server and its page. Types only (no runtime code, no `node:*`), so the
 * page imports them with `import type` and both sides are checked against one definition.
 *
 * Values travel as `TypedValue`: a small tagged union that keeps the type the file declares (a Float stays a
 * float even when it holds 1, a StringEnum says it is an enum), so the page can pick the right editor.
 */
import type { FileInfo } from './workspace.ts';

export type { FileInfo };

/** `GET /api/session`. */
export interface SessionInfo {
  version: string;
  files: FileInfo[];
}

/** An error answer (status 4xx/5xx). */
export interface ApiError {
  error: string;
  code?: string;
  message: string;
  format?: string;
  offset?: number;
  path?: string;
}

/** One finding of `verify`, as the library reports it. */
export interface Finding {
  rule: string;
  message: string;
  severity: 'error' | 'warning' | 'info';
  offset?: number;
  path?: string;
  hypothesis?: string;
}

/** `GET /api/files/:file` for a GADB file: what the model tells at once. */
export interface GadbOverview {
  file: FileInfo;
  kind: 'gadb';
  /** `bare GADB`, or the wrapper's magic and version (`LTFX v8 wrapper` for `.fxp`). */
  container: string;
  rootName: string;
  /** Header fields by name, as stored. */
  header: { name: string; value: number; hex: string; note?: string }[];
  counts: { label: string; value: number }[];
  /** Milliseconds the server took to parse and index the file (first open only). */
  openMs: number;
  /** For a patch database: the base it is opened against, and the build tags. */
  patch?: { base: string; buildTag: string; baseBuildTag: string; records: number; problem?: string };
}

/** `GET /api/files/:file/analysis`: the whole-file figures and verify findings (slow at game scale). */
export interface GadbAnalysis {
  counts: { label: string; value: number }[];
  /** Descriptor rows per type name. */
  descriptorTypes: { type: string; count: number }[];
  largestCategories: { name: string; records: number }[];
  findings: Finding[];
  ms: number;
  /** Whether it ran in a worker thread (large files). */
  worker: boolean;
  /** For a patch database: what the findings are of (the base with the patch applied). */
  findingsOf?: string;
}

/** One category in the category list. */
export interface CategorySummary {
  ordinal: number;
  name: string;
  recordCount: number;
  primaryCount: number;
  secondaryCount: number;
  fieldCount: number;
}

/** A field (column) of a category's records. */
export interface FieldColumn {
  /** P919 of the field name, as the file stores it. */
  hash: number;
  hex: string;
  /** The known name, or `undefined` (shown as the hash). */
  name?: string;
  /** Type name (`Float`, `String|ResourcePath`, …) and the raw type byte. */
  type: string;
  typeCode: number;
  /** Element count: 1 for scalars, n for arrays, 0 = no value stored. */
  count: number;
  /** Declaration index in the record layout. */
  index: number;
  /** An engine note for the field (e.g. it is read once at load, so an edit needs a reload). */
  note?: string;
  /** Whether the workbench can edit values of this type. */
  editable: boolean;
}

/** `GET /api/files/:file/categories/:category`. */
export interface CategoryDetail extends CategorySummary {
  fields: FieldColumn[];
}

/** A value decoded with its declared type. */
export type TypedValue =
  | { t: 'bool'; v: boolean }
  | { t: 'float'; v: number }
  | { t: 'int'; v: number }
  | { t: 'string'; v: string; resourcePath?: boolean }
  | { t: 'enum'; v: string; hash?: string }
  | { t: 'int64'; v: string }
  | { t: 'vec'; v: number[] }
  /** `more`: keys left out of a compact (table) value. */
  | { t: 'curve'; curve: string; keys: { time: number; value: number | number[] }[]; more?: number }
  | { t: 'link'; raw: number; target: RecordRef | null; broken?: boolean }
  /** Bytes or a cell shown as hex: an unknown type, Type9, or a cell that does not decode (`error`). */
  | { t: 'raw'; hex: string; error?: string }
  | { t: 'array'; items: TypedValue[] }
  | { t: 'none' };

/** A record named well enough to show and link to. */
export interface RecordRef {
  /** Index of the record in the file (file order). */
  index: number;
  category: string;
  /** The record name, or `#N` (N = position in the category) for a primary, which has no name. */
  label: string;
  primary: boolean;
  /** The served file the record is in, when not the file viewed (a patch database's links point into its base). */
  file?: string;
}

/** A row of the record table: the record and one compact value per column. */
export interface RecordRow {
  index: number;
  /** Position in the category (the row of an unfiltered table). */
  position: number;
  label: string;
  primary: boolean;
  values: TypedValue[];
}

/** `GET /api/files/:file/categories/:category/records?offset&limit`. */
export interface RecordPage {
  total: number;
  offset: number;
  rows: RecordRow[];
}

/** One field of a record view. */
export interface RecordField extends FieldColumn {
  value: TypedValue;
  /** The staged value of this field, when an edit is staged. */
  staged?: TypedValue;
  /** For values stored once and shared (texts, vectors, curves): how many cells use this value. */
  shared?: number;
}

/** `GET /api/files/:file/records/:record`. */
export interface RecordView {
  ref: RecordRef;
  categoryOrdinal: number;
  /** Position of the record inside its category (for the table's scroll position). */
  position: number;
  /** The link word other records use to name this one. */
  linkHex: string;
  fields: RecordField[];
  /** How many link cells name this record. */
  referenceCount: number;
}

/** `GET /api/files/:file/records/:record/referenced-by`. */
export interface ReferencedBy {
  total: number;
  /** Index in the whole list of the first reference given. */
  offset: number;
  refs: { from: RecordRef; field: string; fieldHex: string; element?: number }[];
}

/** One search hit: where, and what matched. */
export interface SearchHit {
  kind: 'category' | 'record' | 'field' | 'value' | 'hash';
  record?: RecordRef;
  category?: string;
  /** The field, for field and value hits. */
  field?: { hex: string; name?: string };
  element?: number;
  /** The text that matched, for display. */
  text: string;
}

/** `GET /api/files/:file/search?q=`. */
export interface SearchResult {
  query: string;
  /** How the query was read: `text`, `P919 0x…`, `hash` (a `0x…` literal), `number 0.5 ± 5e-7`. */
  mode: string;
  hits: SearchHit[];
  /** Every hit, including those past the limit. */
  total: number;
  /** True when the hit list was cut at the limit. */
  truncated: boolean;
}

/** `GET /api/files/:file/search/status`: the file's search index (built on first use; a worker thread for large files). */
export interface SearchStatus {
  state: 'idle' | 'building' | 'ready' | 'failed';
  /** Records scanned so far, of `total`. */
  done: number;
  total: number;
  worker: boolean;
  /** Build time, once ready. */
  ms?: number;
  error?: string;
}

/** `GET /api/hash?text=` or `?hash=`. */
export interface HashAnswer {
  text?: string;
  hash?: number;
  hex?: string;
  /** Why the text cannot be hashed faithfully (a character of unknown P919 value). */
  error?: string;
  /** Names known for the hash: from the name dictionary and from the served files. */
  names: { name: string; source: string }[];
}

/** One staged edit. */
export interface StagedEdit {
  id: number;
  record: RecordRef;
  field: { hex: string; name?: string; type: string };
  element?: number;
  before: TypedValue;
  after: TypedValue;
  /** Warnings and engine notes the editor gave for this edit (e.g. the field is read at load: needs a reload). */
  messages: { severity: 'warning' | 'note'; message: string }[];
}

/** `GET /api/files/:file/edits`. */
export interface EditList {
  edits: StagedEdit[];
  /** Edits kept from an earlier run that could not be staged again (the file changed), with why. */
  notRestored: string[];
  /** Whether staged edits are kept in the work folder (they survive a restart). */
  persistent: boolean;
  /** Formats the edits can be saved as (`as` of the save request), each with a suggested file name. */
  saveAs: { id: SaveFormat; label: string; extension: string; suggestedName: string }[];
  /** The suggested file name for a save. */
  suggestedName: string;
}

/**
 * What staged edits are saved as: `gadb` the whole edited database; `patch` a patch database (the records the
 * edits change, with the base's build tag); `changes` a YAML change file (`scry db apply`).
 */
export type SaveFormat = 'gadb' | 'patch' | 'changes';

/** `POST /api/files/:file/save` answer. */
export interface SaveResult {
  format: SaveFormat;
  /** The file name written (in the output folder). */
  name: string;
  /** The saved file, now served (a database, a patch database or a change file). */
  saved?: FileInfo;
  bytes: number;
  /**
   * Verify findings: of the written file re-read from disk (`gadb`); of the base with the patch applied (`patch`:
   * a patch alone has links numbered in the merged database, H-EDIT-PATCH-LINKS); of the base with the change
   * file applied (`changes`).
   */
  findings: Finding[];
  /** What was checked before answering, e.g. that applying the patch to the base gives the staged result. */
  checked?: string;
}

/** `GET /api/files/:file/sd2`: a Firefall static database. */
export interface Sd2Overview {
  file: FileInfo;
  kind: 'sd2';
  header: { name: string; value: string }[];
  tables: Sd2TableSummary[];
  /** Tables and columns whose names are known, of all. */
  named: { tables: number; columns: number; columnSlots: number };
}

export interface Sd2TableSummary {
  index: number;
  id: string;
  label: string;
  named: boolean;
  rowCount: number;
  columnCount: number;
}

export interface Sd2Column {
  index: number;
  id: string;
  label: string;
  named: boolean;
  type: string;
  nullable: boolean;
  pool: boolean;
}

/** `GET /api/files/:file/sd2/tables/:table`. */
export interface Sd2TableDetail extends Sd2TableSummary {
  columns: Sd2Column[];
}

/** A cell as JSON (`sd2JsonValue`): null for NULL, numbers, text, arrays, `{hex}` for bytes, `{min, max}` for boxes. */
export type Sd2Cell = null | number | string | Sd2Cell[] | { [k: string]: Sd2Cell };

/** `GET /api/files/:file/sd2/tables/:table/rows?offset&limit`. */
export interface Sd2RowPage {
  total: number;
  offset: number;
  rows: { row: number; cells: Sd2Cell[] }[];
}

/**
 * `GET /api/files/:file/sd2/search?q=`: tables and columns by name or id (`by`: their name contains the query,
 * the query is their `0x…` id, or the FFnv32 of the query is their id), then cells by typed value.
 */
export interface Sd2SearchAnswer {
  query: string;
  hits: Sd2SearchHit[];
  truncated: boolean;
}

export type Sd2SearchHit =
  | { kind: 'table'; table: string; tableIndex: number; id: string; by: 'name' | 'id' | 'hash'; rowCount: number }
  | { kind: 'column'; table: string; tableIndex: number; column: string; columnIndex: number; id: string; by: 'name' | 'id' | 'hash'; type: string }
  | { kind: 'cell'; table: string; tableIndex: number; row: number; column: string; columnIndex: number; value: Sd2Cell };

/** `GET /api/files/:file/arch`: an `.arch06` archive's header and what its index tells without reading data. */
export interface ArchOverview {
  file: FileInfo;
  kind: 'arch06';
  header: { name: string; value: string; note?: string }[];
  counts: { label: string; value: number }[];
  /** Entries by how they are stored (`stored`, or `chunked`: the codecs are named per entry and by verify). */
  storage: { storage: string; entries: number; rawSize: number; storedSize: number }[];
  /** Rows of the folder tree (folders and files), for the paged tree route. */
  treeRows: number;
}

/** One row of the folder tree: a folder (with its own files' totals) or a file. */
export type ArchTreeRow =
  | { kind: 'folder'; folder: number; name: string; path: string; depth: number; files: number; rawSize: number; storedSize: number }
  | { kind: 'file'; index: number; name: string; path: string; depth: number; rawSize: number; storedSize: number; storage: 'stored' | 'chunked' };

/** `GET /api/files/:file/arch/tree?offset=&limit=`. */
export interface ArchTreePage {
  total: number;
  offset: number;
  rows: ArchTreeRow[];
}

/** `GET /api/files/:file/arch/entries/:entry`: one entry, its storage and a preview of its decoded bytes. */
export interface ArchEntryDetail {
  index: number;
  path: string;
  name: string;
  rawSize: number;
  storedSize: number;
  /** `stored` (isCompressed 0) or `chunked`. */
  storage: 'stored' | 'chunked';
  compressionLevel: number;
  /** Codecs of its chunks (`raw`, `LZB16`, `Kraken`); empty for a stored entry. */
  codecs: string[];
  chunks: number;
  /** What the decoded bytes look like. */
  content: 'text' | 'binary';
  /** The magic (first four bytes as text) when printable, e.g. `GADB`, `SCRI`. */
  magic?: string;
  /** A preview: the text (first 64 KiB) or a hex dump (first 4 KiB). */
  preview: string;
  previewTruncated: boolean;
  /** The entry's row in the folder tree (`/arch/tree`), for the side panel's selection. */
  treeRow: number;
  /** Whether the bytes are a GameDB (GADB) or a script the workbench could open. */
  opensAs?: 'gadb' | 'hks';
}

/** `POST /api/files/:file/arch/entries/:entry/open`: the served file made from the entry. */
export interface ArchOpenResult {
  opened: FileInfo;
  /** False when a file with exactly these bytes was there already (it is served as is). */
  extracted: boolean;
}

/** `GET /api/files/:file/arch/verify`: table checks and every entry decoded. */
export interface ArchVerify {
  ok: boolean;
  entries: number;
  chunks: number;
  /** Entries per codec found in their chunks. */
  codecs: { codec: string; entries: number }[];
  findings: Finding[];
  ms: number;
}

/** `GET /api/files/:file/script`: a HavokScript file (bare chunk or SCRI container). */
export interface ScriptOverview {
  file: FileInfo;
  kind: 'hks';
  /** `bare chunk`, `SCRI v1, bytecode body` or `SCRI v1, Lua source body`. */
  container: string;
  body: 'bytecode' | 'lua-source';
  header: { name: string; value: string }[];
  counts: { label: string; value: number }[];
  /** Listing lines (disassembly, or the source text's lines). */
  lines: number;
  /** Bytes missing from a truncated SCRI source body (0 when whole). */
  truncatedBy: number;
  opcodes: { name: string; count: number }[];
}

/** `GET /api/files/:file/script/lines?offset=&limit=`: a page of the listing (or source) lines. */
export interface ScriptLinePage {
  total: number;
  offset: number;
  lines: string[];
}

/** `GET /api/files/:file/script/analysis`: verify findings, round trips, strings and calls. */
export interface ScriptAnalysis {
  counts: { error: number; warning: number; info: number };
  /** `null`: not applicable (listing: a source body; write: a truncated head). */
  roundTrip: { write: boolean | null; listing: boolean | null };
  findings: Finding[];
  strings: { value: string; functions: number }[];
  /** Named sections (`natives`, `calls`, `records`, `globalsRead`, …), each most used first. */
  calls: { section: string; names: { name: string; count: number }[] }[];
}

/** `GET /api/files/:file/names` for a GameDB file: how many of its field hashes have a name. */
export interface GadbNamesInfo {
  kind: 'gadb';
  /** Distinct field hashes of the file, and how many of them are named. */
  fields: number;
  named: number;
  /** Hashes the run's dictionary names (all files, all lists). */
  dictionary: number;
  /** Unnamed field hashes, most used first (at most 500): descriptor rows, categories, type. */
  unnamed: { hex: string; rows: number; categories: number; type: string }[];
  /** Lists loaded at start (base names only) and what each added; `about`: the list's own first `#` line. */
  lists: { name: string; added: number; skipped: number; about?: string }[];
  /** Whether names added in the page are kept (in the user config folder). */
  persistent: boolean;
}

/** `GET /api/files/:file/names` for an sd2 file. */
export interface Sd2NamesInfo {
  kind: 'sd2';
  tables: { total: number; named: number };
  columns: { total: number; named: number };
  dictionary: number;
  /** Unnamed ids (at most 500 of each). */
  unnamedTables: string[];
  unnamedColumns: string[];
  /** Ids several names hash to. */
  collisions: { id: string; names: string[]; kind: 'table' | 'column' }[];
  persistent: boolean;
}

/** `POST /api/names` `{ text, file? }`: what adding a list did (and `file`'s coverage after it). */
export interface AddNamesAnswer {
  /** Newly named GameDB field hashes (in any file). */
  added: number;
  /** `0xHASH<TAB>name` lines refused because the name hashes elsewhere. */
  mismatches: { line: number; name: string; listed: string; hash: string }[];
  /** Lines that cannot be hashed (a character of unknown P919 value). */
  unhashable: { line: number; name: string; reason: string }[];
  /** Whether the names were written to the user config folder (`names/workbench.txt`). */
  saved: boolean;
  coverage?: GadbNamesInfo | Sd2NamesInfo;
}

/** `GET /api/files/:file/names/crack?words=N`: names found for unnamed hashes (not yet added). */
export interface CrackAnswer {
  hits: { hex: string; name: string; how: string }[];
  /** Hashes with several candidates: none is proposed. */
  collisions: { hex: string; names: string[] }[];
  tried: number;
  complete: boolean;
  vocabulary: number;
  expectedFalseHits: number;
  ms: number;
  worker: boolean;
}

/** `GET /api/files/:file/arch/search?q=`: entries whose path holds every word of the query. */
export interface ArchSearchAnswer {
  query: string;
  hits: { index: number; path: string; rawSize: number; storedSize: number }[];
  total: number;
}

/** `GET /api/files/:file/script/search?q=`: listing (or source) lines that hold the query. */
export interface ScriptSearchAnswer {
  query: string;
  /** Line numbers from 1. */
  hits: { line: number; text: string }[];
  total: number;
}

/** A source a conflict view can load over a base: a change file, or a patch database of the base. */
export interface ConflictCandidate {
  id: string;
  name: string;
  kind: 'changes' | 'patch';
  /** Why it cannot be loaded (a change file that does not parse). */
  problem?: string;
}

/** One row of the conflict view: each value as one line of text; `null` where a source does not touch the row. */
export interface ConflictRowView {
  record: string;
  /** The record's category and label, for a link (absent for a record only a source adds). */
  ref?: { category: string; label: string };
  field: string;
  /** `0x%08X` of the field (absent for a record row). */
  hash?: string;
  index?: number;
  base: string;
  values: (string | null)[];
  /** Index of the winning source, -1 when the merged result holds a value no source gives (`interaction`). */
  winner: number;
  merged: string;
  status: 'override' | 'agree' | 'conflict' | 'interaction';
}

/** `GET /api/files/:file/conflicts?src=ID&src=ID…`: the sources in load order and every row they change. */
export interface ConflictAnswer {
  base: FileInfo;
  /** Every served source that could be loaded over this base. */
  candidates: ConflictCandidate[];
  /** The loaded sources, in load order (the last one wins). */
  sources: { id: string; name: string; kind: 'changes' | 'patch' }[];
  rows: ConflictRowView[];
  /** Rows in all (the answer holds at most `ROW_LIMIT`). */
  total: number;
  counts: Record<ConflictRowView['status'], number>;
  ms: number;
}

/** `GET /api/files/:file/changes`: a change file's operations and the databases it may apply to. */
export interface ChangesOverview {
  file: FileInfo;
  kind: 'changes';
  operations: number;
  /** Its text (the first 64 kB). */
  text: string;
  problem?: string;
  databases: FileInfo[];
}
