/**
 * Building `.arch06` archives (spec §3.9, the writer checklist): folders in depth-first pre-order with sorted
 * children, files grouped by folder and sorted by name, a deduplicated string table in the retail order
 * (hypothesis `arch06.stringOrder`), 6 × fileCount zero bytes, then the data in record order. Output depends only
 * on the input paths, bytes and options: packing the same folder twice gives the same bytes.
 */
import { ConsistencyError, type Issue } from '../../binary/errors.ts';
import type { P919Table } from '../../hash/p919.ts';
import { APL_FILE_NAME, buildArchivePathIndex, writeArchivePathIndex } from '../apl/apl.ts';
import { ARCH06_FORMAT, writeArch06Index, type Arch06FileRecord, type Arch06FolderRecord, type Arch06Index, type Arch06String } from './arch06.ts';
import { asciiLower, normalizeArchivePath } from './archive.ts';
import { encodeArch06Chunks, type Arch06Storage } from './chunks.ts';

export interface Arch06Layout {
  strings: Arch06String[];
  folders: Array<Pick<Arch06FolderRecord, 'name' | 'nameOffset' | 'firstChild' | 'nextSibling' | 'fileCount' | 'firstFile' | 'parent'>>;
  /** File records in record order, with the index of the input path each comes from. */
  files: Array<{ input: number; path: string; name: string; nameOffset: number; folder: number }>;
}

function parentOf(folder: string): string {
  const cut = folder.lastIndexOf('\\');
  return cut < 0 ? '' : folder.slice(0, cut);
}

/**
 * The table layout of an archive holding `paths` (already normalised: `\` separators, no leading separator).
 * Throws a ConsistencyError for empty, duplicate (case-insensitive) or unsafe paths.
 */
export function layoutArch06(paths: readonly string[]): Arch06Layout {
  const issues: Issue[] = [];
  const seen = new Map<string, number>();
  // ASCII-folded keys, computed once: `<` on them is the order of compareArchiveNames
  const lower = paths.map(asciiLower);
  const byKey = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
  paths.forEach((p, i) => {
    const key = lower[i]!;
    if (p === '' || p.split('\\').some((s) => s === '' || s === '.' || s === '..')) issues.push({ rule: 'pack.path', message: `invalid entry path ${JSON.stringify(p)}`, path: `/entries/${i}`, severity: 'error' });
    else if (seen.has(key)) issues.push({ rule: 'pack.duplicate', message: `${JSON.stringify(p)} duplicates entry ${seen.get(key)} (paths are case-insensitive)`, path: `/entries/${i}`, severity: 'error' });
    else seen.set(key, i);
  });
  if (issues.length > 0) throw new ConsistencyError(ARCH06_FORMAT, issues);

  // Folder set and children.
  const children = new Map<string, string[]>([['', []]]);
  const filesOf = new Map<string, number[]>([['', []]]);
  const addFolder = (f: string): void => {
    if (children.has(f)) return;
    const parent = parentOf(f);
    addFolder(parent);
    children.set(f, []);
    filesOf.set(f, []);
    children.get(parent)!.push(f);
  };
  paths.forEach((p, i) => {
    const folder = parentOf(p);
    addFolder(folder);
    filesOf.get(folder)!.push(i);
  });
  for (const list of children.values()) if (list.length > 1) list.sort((a, b) => byKey(asciiLower(a), asciiLower(b)));
  const nameOf = (i: number): string => paths[i]!.slice(paths[i]!.lastIndexOf('\\') + 1);
  const lowerName = (i: number): string => lower[i]!.slice(lower[i]!.lastIndexOf('\\') + 1);
  for (const list of filesOf.values()) if (list.length > 1) list.sort((a, b) => byKey(lowerName(a), lowerName(b)));

  // Depth-first pre-order.
  const order: string[] = [];
  const stack = [''];
  while (stack.length > 0) {
    const f = stack.pop()!;
    order.push(f);
    const kids = children.get(f)!;
    for (let k = kids.length - 1; k >= 0; k--) stack.push(kids[k]!);
  }
  const folderIndex = new Map(order.map((f, i) => [f, i]));

  // String table in the retail order: per file (root files first, then by full path) its name, then new ancestors.
  const strings: Arch06String[] = [{ offset: 0, text: '' }];
  const offsetOf = new Map<string, number>([['', 0]]);
  let size = 1;
  const intern = (s: string): void => {
    if (offsetOf.has(s)) return;
    offsetOf.set(s, size);
    strings.push({ offset: size, text: s });
    size += s.length + 1;
  };
  const inRoot = paths.map((p) => !p.includes('\\'));
  const byPath = paths.map((_, i) => i).sort((a, b) => (inRoot[a] === inRoot[b] ? byKey(lower[a]!, lower[b]!) : inRoot[a] ? -1 : 1));
  for (const i of byPath) {
    intern(nameOf(i));
    const ancestors: string[] = [];
    for (let f = parentOf(paths[i]!); f !== ''; f = parentOf(f)) ancestors.push(f);
    for (let k = ancestors.length - 1; k >= 0; k--) intern(ancestors[k]!);
  }

  const folders: Arch06Layout['folders'] = [];
  const files: Arch06Layout['files'] = [];
  const nextOf = new Map<string, string>();
  for (const kids of children.values()) for (let k = 0; k + 1 < kids.length; k++) nextOf.set(kids[k]!, kids[k + 1]!);
  for (const f of order) {
    const kids = children.get(f)!;
    const own = filesOf.get(f)!;
    const parent = f === '' ? -1 : folderIndex.get(parentOf(f))!;
    const next = nextOf.get(f);
    folders.push({
      name: f,
      nameOffset: offsetOf.get(f)!,
      firstChild: kids.length > 0 ? folderIndex.get(kids[0]!)! : -1,
      nextSibling: next === undefined ? -1 : folderIndex.get(next)!,
      fileCount: own.length,
      firstFile: files.length,
      parent,
    });
    for (const i of own) files.push({ input: i, path: paths[i]!, name: nameOf(i), nameOffset: offsetOf.get(nameOf(i))!, folder: folders.length - 1 });
  }
  return { strings, folders, files };
}

export interface Arch06PackEntry {
  /** Path inside the archive (`/` or `\`). */
  path: string;
  data: Uint8Array;
}

export interface Arch06PackOptions {
  /** `stored` (isCompressed 0, like the published community mod; default), `raw-chunks`, or `lzb16`. */
  storage?: Arch06Storage;
  /** Header word @20 (default 0, as in the community mod). */
  isRetail?: number;
  /** Add an `archivepatchloosefiles.txt` listing every other entry when the input has none (default true). */
  pathIndex?: boolean;
  /** Lower-case every path, as retail archives are (default true). */
  lowercase?: boolean;
  /** P919 table for the path index (default: the built-in one). */
  p919Table?: P919Table;
}

export interface Arch06PackResult {
  bytes: Uint8Array;
  index: Arch06Index;
  /** Whether a path index was generated. */
  generatedPathIndex: boolean;
}

/** Builds an archive from entries. Deterministic; never mutates `entries`. */
export function packArch06(entries: readonly Arch06PackEntry[], options: Arch06PackOptions = {}): Arch06PackResult {
  const storage = options.storage ?? 'stored';
  const lower = options.lowercase ?? true;
  const items = entries.map((e) => ({ path: normalizeArchivePath(lower ? e.path.toLowerCase() : e.path), data: e.data }));
  let generatedPathIndex = false;
  if ((options.pathIndex ?? true) && !items.some((e) => e.path.toLowerCase() === APL_FILE_NAME)) {
    const index = buildArchivePathIndex(items.map((e) => e.path), options.p919Table);
    items.push({ path: APL_FILE_NAME, data: writeArchivePathIndex(index) });
    generatedPathIndex = true;
  }
  const layout = layoutArch06(items.map((e) => e.path));
  const stringTableSize = layout.strings.reduce((a, s) => a + s.text.length + 1, 0);
  const tablesEnd = 48 + stringTableSize + 30 * layout.files.length + 16 * layout.folders.length;
  const gapLength = 6 * layout.files.length;
  let offset = tablesEnd + gapLength;
  const blobs: Uint8Array[] = [];
  const files: Arch06FileRecord[] = layout.files.map((f) => {
    const data = items[f.input]!.data;
    const stored = storage === 'stored' ? data : encodeArch06Chunks(data, storage, offset);
    blobs.push(stored);
    const record: Arch06FileRecord = {
      nameOffset: f.nameOffset,
      dataOffset: offset,
      storedSize: stored.length,
      rawSize: data.length,
      isCompressed: storage === 'stored' ? 0 : 1,
      compressionLevel: storage === 'stored' ? 0 : 9,
      name: f.name,
      folder: f.folder,
      path: f.path,
    };
    offset += stored.length;
    return record;
  });
  const index: Arch06Index = {
    header: { magic: 'LTAR', version: 4, stringTableSize, folderCount: layout.folders.length, fileCount: files.length, isRetail: options.isRetail ?? 0, isDownloadable: 0, hasCRC: 0, guid: new Uint8Array(16) },
    strings: layout.strings,
    stringTableTail: new Uint8Array(0),
    files,
    folders: layout.folders.map((f) => ({ ...f })),
    tablesEnd,
    gap: new Uint8Array(gapLength),
    gapLength,
  };
  return { bytes: writeArch06(index, blobs), index, generatedPathIndex };
}

/**
 * Writes a whole archive: the index, then each entry's stored bytes at its `dataOffset` (bytes between entries,
 * if any, are zero). `stored[i]` must be exactly `files[i].storedSize` bytes.
 */
export function writeArch06(index: Arch06Index, stored: readonly Uint8Array[]): Uint8Array {
  const issues: Issue[] = [];
  if (stored.length !== index.files.length) issues.push({ rule: 'write.data', message: `${stored.length} data blob(s) for ${index.files.length} record(s)`, severity: 'error' });
  const head = writeArch06Index(index);
  let size = head.length;
  index.files.forEach((f, i) => {
    const blob = stored[i];
    if (blob && blob.length !== f.storedSize) issues.push({ rule: 'write.storedSize', message: `blob of ${blob.length} byte(s), record says ${f.storedSize}`, path: `/files/${i}`, severity: 'error' });
    if (f.storedSize > 0 && f.dataOffset < head.length) issues.push({ rule: 'write.dataOffset', message: `data offset ${f.dataOffset} is inside the tables and gap (${head.length})`, path: `/files/${i}/dataOffset`, severity: 'error' });
    size = Math.max(size, f.dataOffset + f.storedSize);
  });
  if (issues.length > 0) throw new ConsistencyError(ARCH06_FORMAT, issues);
  const out = new Uint8Array(size);
  out.set(head, 0);
  index.files.forEach((f, i) => out.set(stored[i]!, f.dataOffset));
  return out;
}
