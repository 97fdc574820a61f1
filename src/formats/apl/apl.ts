/**
 * `archivepatchloosefiles.txt`: the path index an archive may carry in its root (binary despite the name).
 * Little-endian. Spec: shared `specs/archives.md` §6 (verified on 2 real files + 1 export).
 *
 *     0      u32 version = 1
 *     4      u32 stringTableSize
 *     8      char[stringTableSize]   NUL-terminated full paths (`\`, lower case), in hash order
 *     8+S    u32 count
 *     12+S   {u32 hash, u32 offset} × count   P919 of the path; offset into the string table; sorted by hash
 *
 * The engine merges every mounted archive's index into one hash → path table (seed 001).
 */
import { FormatError, type Issue } from '../../binary/errors.ts';
import { ByteReader } from '../../binary/reader.ts';
import { ByteWriter } from '../../binary/writer.ts';
import { cstringEncode, latin1Decode, latin1Issue } from '../../binary/text.ts';
import { p919, type P919Table } from '../../hash/p919.ts';

export const APL_FORMAT = 'archivepatchloosefiles';
/** The file name the index has inside an archive. */
export const APL_FILE_NAME = 'archivepatchloosefiles.txt';

export interface AplString {
  offset: number;
  text: string;
}

export interface AplEntry {
  hash: number;
  /** Offset of the path in the string table. */
  offset: number;
  /** The path at `offset` (derived). */
  path: string;
}

export interface ArchivePathIndex {
  version: number;
  strings: AplString[];
  /** Bytes after the last NUL of the string table (none in real files). */
  stringTableTail: Uint8Array;
  entries: AplEntry[];
}

/** Whether `bytes` look like a path index (version 1 and a consistent total size). */
export function isArchivePathIndex(bytes: Uint8Array): boolean {
  if (bytes.length < 12) return false;
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const s = dv.getUint32(4, true);
  if (dv.getUint32(0, true) !== 1 || s > bytes.length - 12) return false;
  return 12 + s + 8 * dv.getUint32(8 + s, true) === bytes.length;
}

/**
 * The entries of a parsed path index as columns: the hashes and offsets as typed arrays over the parsed records,
 * the string table kept as bytes, paths decoded only when asked for. The mount vector merges these without building
 * a string per path; `ArchivePathIndex.entries` and `.strings` are materialised from them on first access. The
 * columns describe the bytes as parsed: edits to `entries` do not change them.
 */
export class AplColumns {
  /** Number of entries. */
  readonly length: number;
  /** P919 of each path, as stored. */
  readonly hash: Uint32Array;
  /** Offset of each path in `stringTable` (checked to be the start of a NUL-terminated string). */
  readonly offset: Uint32Array;
  /**
   * The string table, tail included: a copy of the parsed bytes, or a view of them when parsed with
   * `{ view: true }`.
   */
  readonly stringTable: Uint8Array;

  constructor(hash: Uint32Array, offset: Uint32Array, stringTable: Uint8Array) {
    this.length = hash.length;
    this.hash = hash;
    this.offset = offset;
    this.stringTable = stringTable;
  }

  /** The path of entry `i` (Latin-1, up to its NUL). */
  path(i: number): string {
    const table = this.stringTable;
    const at = this.offset[i]!;
    return latin1Decode(table.subarray(at, table.indexOf(0, at)));
  }
}

/** A path index as `parseArchivePathIndex` returns it: the model, plus its entries as columns. */
export interface ParsedArchivePathIndex extends ArchivePathIndex {
  /** The entries as parsed, as typed arrays (not enumerable; not written). */
  readonly columns: AplColumns;
}

/** Parsed indexes whose `entries` have not been read or replaced yet: their columns are the whole truth. */
const untouched = new WeakSet<ArchivePathIndex>();

/**
 * The columns of a parsed index, as long as nobody has read or replaced its `entries` (which may have been edited
 * since); otherwise undefined, and `entries` is the model to use.
 */
export function untouchedPathIndexColumns(index: ArchivePathIndex): AplColumns | undefined {
  return untouched.has(index) ? (index as ParsedArchivePathIndex).columns : undefined;
}

/** The NUL-terminated strings of a string table in order (the bytes after the last NUL are not a string). */
function splitAplStrings(table: Uint8Array): AplString[] {
  const all = latin1Decode(table);
  const strings: AplString[] = [];
  let start = 0;
  for (let nul = all.indexOf('\0'); nul >= 0; nul = all.indexOf('\0', start)) {
    strings.push({ offset: start, text: all.slice(start, nul) });
    start = nul + 1;
  }
  return strings;
}

export interface ParseArchivePathIndexOptions {
  /**
   * Keep the string table as a view of `bytes` instead of a copy (the mount vector's way: the archive's own bytes,
   * which the archive already reads from). `bytes` must then not change while the index is used.
   */
  view?: boolean;
}

/**
 * Parses a path index. The entries are read into columns (`columns`); `entries` and `strings` are built from them
 * the first time they are read (a path string per entry is what the columns avoid at mount time).
 */
export function parseArchivePathIndex(bytes: Uint8Array, options: ParseArchivePathIndexOptions = {}): ParsedArchivePathIndex {
  const r = new ByteReader(bytes, { format: APL_FORMAT });
  const version = r.expectU32(1, '/version');
  const size = r.u32('/stringTableSize');
  r.need(size, '/stringTableSize');
  const viewed = r.bytes(size, '/strings');
  const table = options.view ? viewed : viewed.slice();
  // strings are the NUL-terminated runs; the bytes after the last NUL are the tail
  const tailStart = table.lastIndexOf(0) + 1;
  const tail = table.slice(tailStart);
  const count = r.guardCount(r.u32('/count'), 8, '/count');
  const entriesAt = r.pos;
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const hashCol = new Uint32Array(count);
  const offsetCol = new Uint32Array(count);
  for (let i = 0, at = entriesAt; i < count; i++, at += 8) {
    const offset = dv.getUint32(at + 4, true);
    // the start of a string: before the tail, at the table's start or just after a NUL
    if (offset >= tailStart || (offset > 0 && table[offset - 1] !== 0)) throw new FormatError(APL_FORMAT, at + 4, `/entries/${i}/offset`, `offset ${offset} is not the start of a string in the ${size}-byte table`, { actual: offset });
    hashCol[i] = dv.getUint32(at, true);
    offsetCol[i] = offset;
  }
  r.seek(entriesAt + 8 * count);
  r.end('/');
  const columns = new AplColumns(hashCol, offsetCol, table);
  const index = { version, stringTableTail: tail } as unknown as ParsedArchivePathIndex;
  let strings: AplString[] | undefined;
  let entries: AplEntry[] | undefined;
  const stringsOf = (): AplString[] => (strings ??= splitAplStrings(table));
  Object.defineProperties(index, {
    columns: { value: columns, enumerable: false },
    strings: {
      enumerable: true,
      get: stringsOf,
      set: (v: AplString[]) => {
        strings = v;
      },
    },
    entries: {
      enumerable: true,
      get: (): AplEntry[] => {
        untouched.delete(index);
        if (!entries) {
          const all = splitAplStrings(table);
          entries = new Array(count);
          // entries usually follow the string order (both are in hash order): try the next string before searching
          let next = 0;
          for (let i = 0; i < count; i++) {
            const offset = offsetCol[i]!;
            const k = next < all.length && all[next]!.offset === offset ? next : stringAtOffset(all, offset);
            entries[i] = { hash: hashCol[i]!, offset, path: all[k]!.text };
            next = k + 1;
          }
        }
        return entries;
      },
      set: (v: AplEntry[]) => {
        untouched.delete(index);
        entries = v;
      },
    },
  });
  untouched.add(index);
  return index;
}

/** Index of the string starting at `offset` (strings are in offset order), or -1. */
function stringAtOffset(strings: readonly AplString[], offset: number): number {
  let lo = 0;
  let hi = strings.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const o = strings[mid]!.offset;
    if (o === offset) return mid;
    if (o < offset) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

export function writeArchivePathIndex(index: ArchivePathIndex): Uint8Array {
  const w = new ByteWriter({ format: APL_FORMAT });
  w.u32(index.version);
  const size = w.reserveU32('stringTableSize');
  const start = w.pos;
  index.strings.forEach((s, k) => w.bytes(cstringEncode(s.text, { format: APL_FORMAT, path: `/strings/${k}/text` })));
  w.bytes(index.stringTableTail);
  size.fill(w.pos - start);
  w.u32(index.entries.length);
  for (const e of index.entries) {
    w.u32(e.hash);
    w.u32(e.offset);
  }
  return w.finish();
}

/**
 * Builds the index of `paths` the way real archives carry it: `\` separators, lower case, sorted by P919 hash
 * (ties by path), strings in the same order, duplicates listed once. Throws a HashError for a path holding a
 * character whose P919 value is unknown (pass a calibrated `table`).
 */
export function buildArchivePathIndex(paths: Iterable<string>, table?: P919Table): ArchivePathIndex {
  const unique = new Map<string, number>();
  for (const p of paths) {
    const norm = p.replace(/\//g, '\\').toLowerCase();
    if (!unique.has(norm)) unique.set(norm, table ? p919(norm, { table }) : p919(norm));
  }
  const rows = [...unique].sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const strings: AplString[] = [];
  const entries: AplEntry[] = [];
  let offset = 0;
  for (const [text, hash] of rows) {
    strings.push({ offset, text });
    entries.push({ hash, offset, path: text });
    offset += text.length + 1;
  }
  return { version: 1, strings, stringTableTail: new Uint8Array(0), entries };
}

/** Checks sort order and every hash against P919 of its path (paths with unhashable characters are reported). */
export function validateArchivePathIndex(index: ArchivePathIndex, table?: P919Table): Issue[] {
  const issues: Issue[] = [];
  index.strings.forEach((s, k) => {
    const bad = latin1Issue(s.text, `/strings/${k}/text`, { nul: true });
    if (bad) issues.push(bad);
  });
  index.entries.forEach((e, i) => {
    if (i > 0 && index.entries[i - 1]!.hash > e.hash) issues.push({ rule: 'apl.sorted', message: `entry ${i} hash ${e.hash} is below the previous one`, path: `/entries/${i}`, severity: 'error' });
    if (i > 0 && index.entries[i - 1]!.offset > e.offset) issues.push({ rule: 'apl.stringOrder', message: `entry ${i} string comes before the previous entry's`, path: `/entries/${i}`, severity: 'warning' });
    try {
      const h = table ? p919(e.path, { table }) : p919(e.path);
      if (h !== e.hash) issues.push({ rule: 'apl.hash', message: `hash 0x${e.hash.toString(16)} ≠ P919(${JSON.stringify(e.path)}) = 0x${h.toString(16)}`, path: `/entries/${i}/hash`, severity: 'error' });
    } catch (err) {
      issues.push({ rule: 'apl.hashable', message: (err as Error).message, path: `/entries/${i}`, severity: 'info' });
    }
  });
  return issues;
}
