/**
 * `.arch06`: LithTech Firebird `LTAR` version 4 archives (Middle-earth: Shadow of War), little-endian.
 * Spec: shared `specs/archives.md` §3 (layout verified on three real archives).
 *
 *     0      header (48 bytes)
 *     48     string table: NUL-terminated names (file names bare, folder names full `\` paths)
 *     …      file records, 30 bytes each      {u32 nameOffset, u64 dataOffset, u64 storedSize, u64 rawSize, u8 isCompressed, u8 level}
 *     …      folder records, 16 bytes each    {u32 nameOffset, s32 firstChild, s32 nextSibling, u32 fileCount}
 *     …      gap (retail: 6 × fileCount zero bytes; never assumed: data is found by dataOffset)
 *     …      file data
 *
 * This file holds the index (everything before the data): `parseArch06Index` / `writeArch06Index`, mirrored in
 * field order, and `validateArch06Index`. Entry data is read lazily by `archive.ts`.
 */
import { FormatError, UnsupportedError, type Issue } from '../../binary/errors.ts';
import { ByteReader } from '../../binary/reader.ts';
import { latin1Decode, latin1EncodeInto, latin1Issue } from '../../binary/text.ts';
import { ByteWriter } from '../../binary/writer.ts';
import { ARCH06_HYPOTHESES as H } from './hypotheses.ts';

export const ARCH06_FORMAT = 'arch06';
export const ARCH06_HEADER_SIZE = 48;
export const ARCH06_FILE_RECORD_SIZE = 30;
export const ARCH06_FOLDER_RECORD_SIZE = 16;
/** Raw bytes per chunk of a compressed entry. */
export const ARCH06_CHUNK_SIZE = 0x10000;

export interface Arch06Header {
  /** `LTAR` (little-endian). The console `RATL` variant is refused. */
  magic: 'LTAR';
  version: number;
  stringTableSize: number;
  folderCount: number;
  fileCount: number;
  /** @20: 1 in retail patches, 0 in a community mod (ImHex name; semantics unverified). */
  isRetail: number;
  /** @24: 0 in every sample. */
  isDownloadable: number;
  /** @28: 0 in every sample; no CRC trailer was ever seen. */
  hasCRC: number;
  /** @32: 16 bytes, zero in every sample. */
  guid: Uint8Array;
}

/** One NUL-terminated string of the string table, at its byte offset (relative to the table). */
export interface Arch06String {
  offset: number;
  /** Latin-1 text (one char per byte: reversible). */
  text: string;
}

export interface Arch06FileRecord {
  nameOffset: number;
  /** Absolute file offset of the stored data. */
  dataOffset: number;
  /** Bytes occupied in the archive (chunk headers and padding included). */
  storedSize: number;
  /** Size after decoding. */
  rawSize: number;
  /** 1: chunked (every retail record); 0: the bytes are the file itself. */
  isCompressed: number;
  /** 9 in retail, 0 in a mod; does not select the codec. */
  compressionLevel: number;
  // Derived (not written): where the record sits in the tree.
  /** The bare file name at `nameOffset`. */
  name: string;
  /** Index of the folder that owns the record. */
  folder: number;
  /** Full path, `\` separators, as stored (`folder\name`, or `name` in the root). */
  path: string;
}

export interface Arch06FolderRecord {
  nameOffset: number;
  /** Folder index of the first sub-folder, -1 if none. */
  firstChild: number;
  /** Next folder with the same parent, -1 if last. */
  nextSibling: number;
  /** Files directly in this folder. */
  fileCount: number;
  // Derived (not written).
  /** Full folder path (`""` for the root). */
  name: string;
  /** Index of the first file record the folder owns. */
  firstFile: number;
  /** Parent folder index (-1 for the root or an unreachable folder). */
  parent: number;
}

/** Everything before the file data. */
export interface Arch06Index {
  header: Arch06Header;
  /** The string table in order. */
  strings: Arch06String[];
  /** Bytes after the last NUL of the string table (empty in every real file). */
  stringTableTail: Uint8Array;
  files: Arch06FileRecord[];
  folders: Arch06FolderRecord[];
  /** Offset of the end of the folder table. */
  tablesEnd: number;
  /**
   * Bytes between the end of the tables and the lowest data offset, as far as the parsed bytes reach
   * (`gapLength` is the full length). Retail: 6 × fileCount zeros.
   */
  gap: Uint8Array;
  gapLength: number;
}

/**
 * The file records of a parsed index as columns: typed arrays filled in one pass over the 30-byte records, the
 * string table kept as bytes, names and paths decoded only when asked for. This is what the archive reader, its
 * lookups and the mount vector use; `Arch06Index.files` materialises one `Arch06FileRecord` per entry from it on
 * first access. The columns describe the tables as parsed: edits to `files` (for `writeArch06Index`) do not
 * change them.
 */
export class Arch06FileColumns {
  /** Number of file records. */
  readonly length: number;
  readonly nameOffset: Uint32Array;
  readonly dataOffset: Float64Array;
  readonly storedSize: Float64Array;
  readonly rawSize: Float64Array;
  readonly isCompressed: Uint8Array;
  readonly compressionLevel: Uint8Array;
  /** Index of the owning folder per file (-1 when no folder claims it). */
  readonly folder: Int32Array;
  /** The string table (a copy of the parsed bytes). */
  readonly stringTable: Uint8Array;
  /** Full path of each folder (`""` for the root), as in `Arch06FolderRecord.name`. */
  readonly folderNames: readonly string[];

  constructor(length: number, stringTable: Uint8Array, folderNames: readonly string[], folder: Int32Array) {
    this.length = length;
    this.nameOffset = new Uint32Array(length);
    this.dataOffset = new Float64Array(length);
    this.storedSize = new Float64Array(length);
    this.rawSize = new Float64Array(length);
    this.isCompressed = new Uint8Array(length);
    this.compressionLevel = new Uint8Array(length);
    this.folder = folder;
    this.stringTable = stringTable;
    this.folderNames = folderNames;
  }

  /** The bare file name of entry `i` (Latin-1, up to its NUL or the end of the table). */
  name(i: number): string {
    return tableString(this.stringTable, this.nameOffset[i]!);
  }

  /** Full path of entry `i`, `\` separators, as stored (`folder\name`, or `name` in the root). */
  path(i: number): string {
    return this.joinPath(this.folder[i]!, this.name(i));
  }

  private joinPath(folder: number, name: string): string {
    const prefix = folder < 0 ? '' : this.folderNames[folder]!;
    return prefix === '' ? name : `${prefix}\\${name}`;
  }

  /** A new `Arch06FileRecord` for entry `i`. */
  record(i: number): Arch06FileRecord {
    const name = this.name(i);
    const folder = this.folder[i]!;
    return {
      nameOffset: this.nameOffset[i]!,
      dataOffset: this.dataOffset[i]!,
      storedSize: this.storedSize[i]!,
      rawSize: this.rawSize[i]!,
      isCompressed: this.isCompressed[i]!,
      compressionLevel: this.compressionLevel[i]!,
      name,
      folder,
      path: this.joinPath(folder, name),
    };
  }
}

/** The text at `offset` of a string table, up to its NUL (or the end of the table). */
function tableString(table: Uint8Array, offset: number): string {
  let end = table.indexOf(0, offset);
  if (end < 0) end = table.length;
  return latin1Decode(table.subarray(offset, end));
}

/** An index as `parseArch06Index` returns it: the model, plus its file records as columns. */
export interface ParsedArch06Index extends Arch06Index {
  /** The file records as parsed, as typed arrays (not enumerable; not written). */
  readonly columns: Arch06FileColumns;
}

export interface ParseArch06Options {
  /** File offset of `bytes[0]` (default 0). */
  baseOffset?: number;
}

/** True when `bytes` start with the little-endian `LTAR` magic and version 4. */
export function isArch06(bytes: Uint8Array): boolean {
  return bytes.length >= 8 && bytes[0] === 0x4c && bytes[1] === 0x54 && bytes[2] === 0x41 && bytes[3] === 0x52 && bytes[4] === 4 && bytes[5] === 0 && bytes[6] === 0 && bytes[7] === 0;
}

/** Size in bytes of the header and tables a header announces (the bytes `parseArch06Index` needs). */
export function arch06TablesSize(header: Pick<Arch06Header, 'stringTableSize' | 'fileCount' | 'folderCount'>): number {
  return ARCH06_HEADER_SIZE + header.stringTableSize + ARCH06_FILE_RECORD_SIZE * header.fileCount + ARCH06_FOLDER_RECORD_SIZE * header.folderCount;
}

function writeU64(w: ByteWriter, v: number): void {
  w.u32(v % 0x100000000);
  w.u32(Math.floor(v / 0x100000000));
}

function readHeader(r: ByteReader): Arch06Header {
  const magicAt = r.pos;
  const magic = r.latin1(4, '/header/magic');
  if (magic === 'RATL') throw new UnsupportedError(ARCH06_FORMAT, r.fileOffset(magicAt), '/header/magic', 'big-endian RATL', 'big-endian (console) RATL archives are not supported');
  if (magic !== 'LTAR') throw r.error(`expected magic "LTAR", got ${JSON.stringify(magic)}`, '/header/magic', magicAt, { expected: 'LTAR', actual: magic });
  const versionAt = r.pos;
  const version = r.u32('/header/version');
  if (version !== 4) throw new UnsupportedError(ARCH06_FORMAT, r.fileOffset(versionAt), '/header/version', `LTAR version ${version}`, `LTAR version ${version} is not supported (4 = .arch06; 3 = .arch05)`);
  return {
    magic: 'LTAR',
    version,
    stringTableSize: r.u32('/header/stringTableSize'),
    folderCount: r.u32('/header/folderCount'),
    fileCount: r.u32('/header/fileCount'),
    isRetail: r.u32('/header/isRetail'),
    isDownloadable: r.u32('/header/isDownloadable'),
    hasCRC: r.u32('/header/hasCRC'),
    guid: r.copyBytes(16, '/header/guid'),
  };
}

function writeHeader(w: ByteWriter, h: Arch06Header, counts: { stringTableSize: number; folderCount: number; fileCount: number }): void {
  w.bytes(new Uint8Array([0x4c, 0x54, 0x41, 0x52]));
  w.u32(h.version);
  w.u32(counts.stringTableSize);
  w.u32(counts.folderCount);
  w.u32(counts.fileCount);
  w.u32(h.isRetail);
  w.u32(h.isDownloadable);
  w.u32(h.hasCRC);
  w.bytes(h.guid);
}

/** The strings of a string table in order, and the bytes after its last NUL. */
function splitStrings(table: Uint8Array): { strings: Arch06String[]; tail: Uint8Array } {
  const text = latin1Decode(table);
  const strings: Arch06String[] = [];
  let start = 0;
  for (let nul = text.indexOf('\0'); nul >= 0; nul = text.indexOf('\0', start)) {
    strings.push({ offset: start, text: text.slice(start, nul) });
    start = nul + 1;
  }
  return { strings, tail: table.slice(start) };
}

function writeStrings(w: ByteWriter, strings: readonly Arch06String[], tail: Uint8Array): void {
  let size = tail.length;
  for (const s of strings) size += s.text.length + 1;
  const out = new Uint8Array(size);
  let at = 0;
  for (let k = 0; k < strings.length; k++) {
    at = latin1EncodeInto(strings[k]!.text, out, at, { format: ARCH06_FORMAT, path: `/strings/${k}/text` }, { nul: true });
    out[at++] = 0;
  }
  out.set(tail, at);
  w.bytes(out);
}

/**
 * Parses the header and tables of an `.arch06`. `bytes` must hold at least the tables; entries whose data lies
 * beyond `bytes` are still listed (read them through an `Arch06Archive` over the whole file). The file records are
 * read into columns (`columns`); `files` and `strings` are built from them the first time they are read.
 */
export function parseArch06Index(bytes: Uint8Array, options: ParseArch06Options = {}): ParsedArch06Index {
  const r = new ByteReader(bytes, { format: ARCH06_FORMAT, baseOffset: options.baseOffset ?? 0 });
  const header = readHeader(r);
  r.need(header.stringTableSize, '/header/stringTableSize');
  const table = r.bytes(header.stringTableSize, '/strings').slice();
  const tail = table.subarray(table.lastIndexOf(0) + 1).slice();
  r.guardCount(header.fileCount, ARCH06_FILE_RECORD_SIZE, '/header/fileCount');
  const count = header.fileCount;
  const filesAt = r.pos;
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // Folder names are filled in below, once the records are checked (in file order, as the fields are read).
  const folderNames: string[] = [];
  const columns = new Arch06FileColumns(count, table, folderNames, new Int32Array(count).fill(-1));
  const { nameOffset: nameCol, dataOffset: dataCol, storedSize: storedCol, rawSize: rawCol, isCompressed: compressedCol, compressionLevel: levelCol } = columns;
  const size = table.length;
  // where the tables end if the folder table is whole (checked below); data offsets below it are not data
  const tablesEndIfWhole = r.fileOffset(filesAt + count * ARCH06_FILE_RECORD_SIZE + header.folderCount * ARCH06_FOLDER_RECORD_SIZE);
  let lowest = Infinity;
  for (let i = 0, at = filesAt; i < count; i++, at += ARCH06_FILE_RECORD_SIZE) {
    const nameOffset = dv.getUint32(at, true);
    const dataHi = dv.getUint32(at + 8, true);
    const storedHi = dv.getUint32(at + 16, true);
    const rawHi = dv.getUint32(at + 24, true);
    if ((dataHi | storedHi | rawHi) >>> 0 > 0x1fffff) throw u64Error(r, dv, at, dataHi > 0x1fffff ? 4 : storedHi > 0x1fffff ? 12 : 20);
    if (nameOffset >= size) throw r.error(`name offset ${nameOffset} is outside the ${header.stringTableSize}-byte string table`, `/files/${i}/nameOffset`, at);
    const dataOffset = dataHi * 0x100000000 + dv.getUint32(at + 4, true);
    const storedSize = storedHi * 0x100000000 + dv.getUint32(at + 12, true);
    nameCol[i] = nameOffset;
    dataCol[i] = dataOffset;
    storedCol[i] = storedSize;
    rawCol[i] = rawHi * 0x100000000 + dv.getUint32(at + 20, true);
    compressedCol[i] = bytes[at + 28]!;
    levelCol[i] = bytes[at + 29]!;
    // the gap ends at the lowest data offset of an entry with data, or of an empty one past the tables
    if (dataOffset < lowest && (storedSize > 0 || dataOffset >= tablesEndIfWhole)) lowest = dataOffset;
  }
  r.seek(filesAt + count * ARCH06_FILE_RECORD_SIZE, '/files');
  r.guardCount(header.folderCount, ARCH06_FOLDER_RECORD_SIZE, '/header/folderCount');
  const folders: Arch06FolderRecord[] = new Array(header.folderCount);
  let firstFile = 0;
  for (let i = 0; i < header.folderCount; i++) {
    const at = r.pos;
    const nameOffset = r.u32('/folders/nameOffset');
    const firstChild = r.i32('/folders/firstChild');
    const nextSibling = r.i32('/folders/nextSibling');
    const fileCount = r.u32('/folders/fileCount');
    if (nameOffset >= size) throw r.error(`name offset ${nameOffset} is outside the ${header.stringTableSize}-byte string table`, `/folders/${i}/nameOffset`, at);
    const name = tableString(table, nameOffset);
    if (fileCount > header.fileCount - Math.min(firstFile, header.fileCount)) {
      throw r.error(`folder ${i} claims ${fileCount} file(s) but only ${Math.max(0, header.fileCount - firstFile)} record(s) remain`, `/folders/${i}/fileCount`, at + 12);
    }
    folderNames.push(name);
    folders[i] = { nameOffset, firstChild, nextSibling, fileCount, name, firstFile, parent: -1 };
    columns.folder.fill(i, firstFile, firstFile + fileCount);
    firstFile += fileCount;
  }
  linkParents(folders);
  const tablesEnd = r.fileOffset();
  const gapLength = lowest === Infinity || lowest < tablesEnd ? 0 : lowest - tablesEnd;
  const gap = bytes.slice(r.pos, Math.min(bytes.length, r.pos + gapLength));
  const index = { header, stringTableTail: tail, folders, tablesEnd, gap, gapLength } as unknown as ParsedArch06Index;
  let files: Arch06FileRecord[] | undefined;
  let strings: Arch06String[] | undefined;
  Object.defineProperties(index, {
    columns: { value: columns, enumerable: false },
    files: {
      enumerable: true,
      get: (): Arch06FileRecord[] => {
        if (!files) {
          files = new Array(count);
          for (let i = 0; i < count; i++) files[i] = columns.record(i);
        }
        return files;
      },
      set: (v: Arch06FileRecord[]) => {
        files = v;
      },
    },
    strings: {
      enumerable: true,
      get: (): Arch06String[] => (strings ??= splitStrings(table).strings),
      set: (v: Arch06String[]) => {
        strings = v;
      },
    },
  });
  return index;
}

/** The error the old field-by-field reader gave for a 64-bit field above 2^53 (`field` = its offset in the record). */
function u64Error(r: ByteReader, dv: DataView, at: number, field: number): FormatError {
  const path = field === 4 ? '/files/dataOffset' : field === 12 ? '/files/storedSize' : '/files/rawSize';
  const lo = dv.getUint32(at + field, true);
  const hi = dv.getUint32(at + field + 4, true);
  return r.error(`64-bit value 0x${hi.toString(16)}${lo.toString(16).padStart(8, '0')} exceeds 2^53`, path, at + field);
}

/** Sets each folder's `parent` by walking the first-child / next-sibling links from the root (cycles are cut). */
function linkParents(folders: Arch06FolderRecord[]): void {
  if (folders.length === 0) return;
  const seen = new Uint8Array(folders.length);
  const stack: number[] = [0];
  seen[0] = 1;
  while (stack.length > 0) {
    const p = stack.pop()!;
    let c = folders[p]!.firstChild;
    while (c >= 0 && c < folders.length && !seen[c]) {
      seen[c] = 1;
      folders[c]!.parent = p;
      stack.push(c);
      c = folders[c]!.nextSibling;
    }
  }
}

/**
 * Writes the header, tables and gap of an index (the bytes before the first data offset). Counts come from the
 * model's arrays; `gap` is written as stored, padded with zeros up to `gapLength`.
 */
export function writeArch06Index(index: Arch06Index): Uint8Array {
  let stringTableSize = index.stringTableTail.length;
  for (const s of index.strings) stringTableSize += s.text.length + 1;
  const w = new ByteWriter({ format: ARCH06_FORMAT, capacity: arch06TablesSize({ stringTableSize, fileCount: index.files.length, folderCount: index.folders.length }) + index.gapLength });
  writeHeader(w, index.header, { stringTableSize, folderCount: index.folders.length, fileCount: index.files.length });
  writeStrings(w, index.strings, index.stringTableTail);
  for (const f of index.files) {
    w.u32(f.nameOffset);
    writeU64(w, f.dataOffset);
    writeU64(w, f.storedSize);
    writeU64(w, f.rawSize);
    w.u8(f.isCompressed);
    w.u8(f.compressionLevel);
  }
  for (const d of index.folders) {
    w.u32(d.nameOffset);
    w.i32(d.firstChild);
    w.i32(d.nextSibling);
    w.u32(d.fileCount);
  }
  w.bytes(index.gap.subarray(0, index.gapLength));
  if (index.gap.length < index.gapLength) w.fill(0, index.gapLength - index.gap.length);
  return w.finish();
}

/** Case-insensitive (ASCII) comparison used for the sort-order rules. */
export function compareArchiveNames(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x >= 65 && x <= 90) x += 32;
    if (y >= 65 && y <= 90) y += 32;
    if (x !== y) return x - y;
  }
  return a.length - b.length;
}

/**
 * Checks every table invariant of an index (not the data): name offsets, the folder tree (pre-order, reachability,
 * full-path names, sorted siblings), file ownership, data ranges, and the inferred gap rule.
 * `archiveSize`, when known, bounds the data ranges.
 */
export function validateArch06Index(index: Arch06Index, archiveSize?: number): Issue[] {
  const issues: Issue[] = [];
  const add = (rule: string, message: string, path: string, severity: Issue['severity'] = 'error', hypothesis?: string): void => {
    const issue: Issue = { rule, message, path, severity };
    if (hypothesis) issue.hypothesis = hypothesis;
    issues.push(issue);
  };
  const { header, files, folders } = index;
  const starts = new Set(index.strings.map((s) => s.offset));
  index.strings.forEach((s, k) => {
    const bad = latin1Issue(s.text, `/strings/${k}/text`, { nul: true });
    if (bad) issues.push(bad);
  });
  if (index.stringTableTail.length > 0) add('strings.terminated', `${index.stringTableTail.length} byte(s) after the last NUL of the string table`, '/strings');
  if (header.isRetail > 1 || header.isDownloadable > 1 || header.hasCRC > 1) add('header.flags', `header flags ${header.isRetail}/${header.isDownloadable}/${header.hasCRC} are not 0/1`, '/header', 'warning', H.headerFlags.id);
  if (header.hasCRC !== 0) add('header.hasCRC', 'hasCRC is set: CRC trailers were never seen and are not checked', '/header/hasCRC', 'warning', H.headerFlags.id);
  if (header.guid.some((b) => b !== 0)) add('header.guid', 'GUID is not zero (zero in every sample)', '/header/guid', 'info', H.headerFlags.id);
  // Folder tree.
  if (folders.length === 0 && files.length > 0) add('folders.root', 'files but no root folder', '/folders');
  if (folders.length > 0 && folders[0]!.name !== '') add('folders.root', `folder 0 is ${JSON.stringify(folders[0]!.name)}, not the root ""`, '/folders/0/name');
  const order: number[] = [];
  const visited = new Uint8Array(folders.length);
  const walk: number[] = folders.length > 0 ? [0] : [];
  if (folders.length > 0) visited[0] = 1;
  while (walk.length > 0) {
    const p = walk.pop()!;
    order.push(p);
    const kids: number[] = [];
    let c = folders[p]!.firstChild;
    while (c !== -1) {
      if (c < 0 || c >= folders.length) {
        add('folders.link', `link to folder ${c} out of range`, `/folders/${kids.length ? kids[kids.length - 1] : p}`);
        break;
      }
      if (visited[c]) {
        add('folders.link', `folder ${c} is reached twice (cycle or shared child)`, `/folders/${c}`);
        break;
      }
      visited[c] = 1;
      kids.push(c);
      c = folders[c]!.nextSibling;
    }
    const parentName = folders[p]!.name;
    for (let k = 0; k < kids.length; k++) {
      const child = folders[kids[k]!]!;
      const prefix = parentName === '' ? '' : parentName + '\\';
      if (!child.name.startsWith(prefix) || child.name.length <= prefix.length || child.name.slice(prefix.length).includes('\\')) {
        add('folders.fullPath', `folder ${kids[k]} ${JSON.stringify(child.name)} is not a direct child path of ${JSON.stringify(parentName)}`, `/folders/${kids[k]}/name`);
      }
      if (k > 0 && compareArchiveNames(folders[kids[k - 1]!]!.name, child.name) >= 0) {
        add('folders.sorted', `sibling folders ${kids[k - 1]} and ${kids[k]} are not in ascending name order`, `/folders/${kids[k]}`, 'warning', H.sortedNames.id);
      }
    }
    for (let k = kids.length - 1; k >= 0; k--) walk.push(kids[k]!);
  }
  for (let i = 0; i < folders.length; i++) if (!visited[i]) add('folders.reachable', `folder ${i} is not reachable from the root`, `/folders/${i}`);
  if (order.length === folders.length && order.some((f, i) => f !== i)) add('folders.preorder', 'folders are not stored in depth-first pre-order', '/folders', 'warning');
  const owned = folders.reduce((a, f) => a + f.fileCount, 0);
  if (owned !== files.length) add('folders.fileCount', `folders own ${owned} file(s), the header declares ${files.length}`, '/folders');
  // Files.
  for (let i = 0; i < files.length; i++) {
    const f = files[i]!;
    const p = `/files/${i}`;
    if (!starts.has(f.nameOffset)) add('files.nameOffset', `name offset ${f.nameOffset} is not the start of a string`, `${p}/nameOffset`);
    if (f.name === '' || f.name.includes('\\')) add('files.name', `file name ${JSON.stringify(f.name)} is empty or contains a separator`, `${p}/name`);
    if (f.isCompressed > 1) add('files.isCompressed', `isCompressed is ${f.isCompressed}`, `${p}/isCompressed`);
    if (f.isCompressed === 0 && f.storedSize !== f.rawSize) add('files.storedSize', `stored entry with storedSize ${f.storedSize} ≠ rawSize ${f.rawSize}`, `${p}/storedSize`);
    if (f.dataOffset < index.tablesEnd && f.storedSize > 0) add('files.dataOffset', `data offset ${f.dataOffset} lies inside the tables (end ${index.tablesEnd})`, `${p}/dataOffset`);
    if (archiveSize !== undefined && f.dataOffset + f.storedSize > archiveSize) add('files.range', `data [${f.dataOffset}, ${f.dataOffset + f.storedSize}) runs past the end of the archive (${archiveSize})`, `${p}/dataOffset`);
    if (i > 0 && files[i - 1]!.folder === f.folder && compareArchiveNames(files[i - 1]!.name, f.name) >= 0) {
      add('files.sorted', `files ${i - 1} and ${i} of folder ${f.folder} are not in ascending name order`, p, 'warning', H.sortedNames.id);
    }
  }
  for (const d of folders) if (!starts.has(d.nameOffset)) add('folders.nameOffset', `name offset ${d.nameOffset} is not the start of a string`, `/folders/${folders.indexOf(d)}/nameOffset`);
  const sorted = files.map((_f, i) => i).filter((i) => files[i]!.storedSize > 0).sort((a, b) => files[a]!.dataOffset - files[b]!.dataOffset);
  for (let k = 1; k < sorted.length; k++) {
    const prev = files[sorted[k - 1]!]!;
    const cur = files[sorted[k]!]!;
    if (prev.dataOffset + prev.storedSize > cur.dataOffset) add('files.overlap', `data of files ${sorted[k - 1]} and ${sorted[k]} overlap`, `/files/${sorted[k]}/dataOffset`);
  }
  // Gap.
  if (files.length > 0 && index.gapLength !== 6 * files.length) {
    add('gap.size', `gap of ${index.gapLength} byte(s) before the data; retail archives leave 6 × ${files.length} = ${6 * files.length}`, '/gap', 'info', H.gap.id);
  }
  if (index.gap.some((b) => b !== 0)) add('gap.zero', 'gap bytes are not all zero', '/gap', 'warning', H.gap.id);
  return issues;
}

/** Throws the first error-severity issue of `validateArch06Index` as a FormatError (used by strict openers). */
export function assertArch06Index(index: Arch06Index, archiveSize?: number): void {
  const bad = validateArch06Index(index, archiveSize).find((i) => i.severity === 'error');
  if (bad) throw new FormatError(ARCH06_FORMAT, 0, bad.path ?? '/', `${bad.rule}: ${bad.message}`);
}
