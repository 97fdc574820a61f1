/**
 * Lazy `.arch06` reader: the index is read once (header + tables, a few bytes per entry); entry data is read by
 * `dataOffset` only when asked for. Works over any random-access byte source (a Node file handle, a browser
 * `Blob`, a buffer already in memory).
 */
import { ConsistencyError, FormatError, NotFoundError, type Issue } from '../../binary/errors.ts';
import { ChunkDecoder, type ChunkDecoderOptions } from '../../compress/codecs.ts';
import { APL_FILE_NAME, parseArchivePathIndex, validateArchivePathIndex } from '../apl/apl.ts';
import { ARCH06_FORMAT, ARCH06_HEADER_SIZE, arch06TablesSize, isArch06, parseArch06Index, validateArch06Index, type Arch06FileColumns, type Arch06FileRecord, type ParsedArch06Index } from './arch06.ts';
import { checkArch06Chunks, decodeArch06Chunks, scanArch06Chunks, type Arch06Chunk } from './chunks.ts';

/** Random access to the bytes of a file. `read` may return fewer bytes only at the end of the file. */
export interface RandomAccess {
  readonly size: number;
  read(offset: number, length: number): Promise<Uint8Array>;
  close?(): Promise<void>;
}

/** A `RandomAccess` over bytes in memory (views, no copies). */
export function bytesRandomAccess(bytes: Uint8Array): RandomAccess {
  return {
    size: bytes.length,
    read: async (offset, length) => bytes.subarray(Math.min(offset, bytes.length), Math.min(bytes.length, offset + length)),
  };
}

/** Largest gap (bytes) read into the index model; longer gaps are measured but not loaded. */
const MAX_GAP_READ = 1 << 20;

/** Lower-cases ASCII letters only (the engine's hash folds A–Z, nothing else). */
export function asciiLower(s: string): string {
  return /[A-Z]/.test(s) ? s.replace(/[A-Z]+/g, (m) => m.toLowerCase()) : s;
}

/** A path as the archive stores it: `/` → `\`, no leading or doubled separators. Case is kept. */
export function normalizeArchivePath(path: string): string {
  return path.replace(/\//g, '\\').replace(/\\{2,}/g, '\\').replace(/^\\+|\\+$/g, '');
}

export interface OpenArch06Options extends ChunkDecoderOptions {
  /** Shared decoder (keeps ooz loaded across archives). */
  decoder?: ChunkDecoder;
  /** A name for messages (usually the file path). */
  name?: string;
}

export interface Arch06EntryCheck {
  index: number;
  path: string;
  ok: boolean;
  /** Chunks of the entry, and how many of them decoded (fewer when one fails). */
  chunks: number;
  decodedChunks: number;
  kinds: string[];
  issues: Issue[];
}

/** An opened `.arch06`: its index and lazy access to its entries. */
export class Arch06Archive {
  /** The parsed index; `index.files` builds one record object per entry when first read (see `columns`). */
  readonly index: ParsedArch06Index;
  readonly source: RandomAccess;
  readonly decoder: ChunkDecoder;
  readonly name: string;
  private byPath: Map<string, number> | undefined;
  private recordIndex: Map<Arch06FileRecord, number> | undefined;

  private constructor(index: ParsedArch06Index, source: RandomAccess, decoder: ChunkDecoder, name: string) {
    this.index = index;
    this.source = source;
    this.decoder = decoder;
    this.name = name;
  }

  /** Reads the header and tables from `source`. */
  static async open(source: RandomAccess, options: OpenArch06Options = {}): Promise<Arch06Archive> {
    const head = await source.read(0, ARCH06_HEADER_SIZE);
    // a short header, a bad magic or version: let the parser name the field
    if (head.length < ARCH06_HEADER_SIZE || !isArch06(head)) parseArch06Index(head);
    const dv = new DataView(head.buffer, head.byteOffset, head.byteLength);
    const sizes = { stringTableSize: dv.getUint32(8, true), folderCount: dv.getUint32(12, true), fileCount: dv.getUint32(16, true) };
    const tablesSize = arch06TablesSize(sizes);
    // tables longer than the file: parse what there is, which fails on the first field that runs out
    if (tablesSize > source.size) parseArch06Index(await source.read(0, source.size));
    const index = parseArch06Index(await source.read(0, tablesSize));
    // the gap's length is known only once the records are read: its bytes are read after (not parsed again)
    if (index.gapLength > 0 && index.gap.length < index.gapLength) index.gap = (await source.read(index.tablesEnd, Math.min(index.gapLength, MAX_GAP_READ))).slice();
    return new Arch06Archive(index, source, options.decoder ?? new ChunkDecoder(options), options.name ?? 'archive');
  }

  /** Opens an archive held in memory. */
  static async fromBytes(bytes: Uint8Array, options: OpenArch06Options = {}): Promise<Arch06Archive> {
    return Arch06Archive.open(bytesRandomAccess(bytes), options);
  }

  get files(): readonly Arch06FileRecord[] {
    return this.index.files;
  }

  /** The file records as typed-array columns, names and paths decoded on demand (no object per entry). */
  get columns(): Arch06FileColumns {
    return this.index.columns;
  }

  /** Number of entries. */
  get entryCount(): number {
    return this.index.columns.length;
  }

  /** The file record for a path (case-insensitive, `/` or `\`), or undefined. */
  find(path: string): Arch06FileRecord | undefined {
    if (!this.byPath) {
      this.byPath = new Map();
      const columns = this.index.columns;
      for (let i = 0; i < columns.length; i++) {
        const key = asciiLower(columns.path(i));
        if (!this.byPath.has(key)) this.byPath.set(key, i);
      }
    }
    const i = this.byPath.get(asciiLower(normalizeArchivePath(path)));
    return i === undefined ? undefined : this.index.files[i];
  }

  /** Like `find`, but throws a NotFoundError naming the archive. */
  get(path: string): Arch06FileRecord {
    const f = this.find(path);
    if (!f) throw new NotFoundError(`${this.name}: no entry ${JSON.stringify(path)}`);
    return f;
  }

  /** The stored bytes of an entry (chunk headers and padding included). */
  async readStored(file: Arch06FileRecord): Promise<Uint8Array> {
    return this.readStoredAt(file, undefined);
  }

  /** `/files/N` of a record, for messages (`at` when the caller knows it). */
  private recordPath(file: Arch06FileRecord, at: number | undefined): string {
    if (at === undefined) {
      if (!this.recordIndex) {
        this.recordIndex = new Map();
        this.index.files.forEach((f, i) => this.recordIndex!.set(f, i));
      }
      at = this.recordIndex.get(file) ?? -1;
    }
    return `/files/${at}`;
  }

  private async readStoredAt(file: Arch06FileRecord, at: number | undefined): Promise<Uint8Array> {
    if (file.dataOffset + file.storedSize > this.source.size) {
      throw new FormatError(ARCH06_FORMAT, Math.min(file.dataOffset, this.source.size), `${this.recordPath(file, at)}/dataOffset`, `data [${file.dataOffset}, ${file.dataOffset + file.storedSize}) of ${JSON.stringify(file.path)} runs past the end of the archive (${this.source.size} bytes)`);
    }
    const bytes = await this.source.read(file.dataOffset, file.storedSize);
    if (bytes.length !== file.storedSize) throw new FormatError(ARCH06_FORMAT, file.dataOffset + bytes.length, this.recordPath(file, at), `short read: ${bytes.length} of ${file.storedSize} byte(s)`);
    return bytes;
  }

  /**
   * The decoded content of an entry (a path or a record). A stored entry of an in-memory archive comes back as a
   * view of the archive's bytes: copy it before changing it.
   */
  async read(entry: Arch06FileRecord | string): Promise<Uint8Array> {
    return this.readAt(typeof entry === 'string' ? this.get(entry) : entry, undefined);
  }

  /** The decoded content of entry `i` (as `read`, without building the record list). */
  async readEntry(i: number): Promise<Uint8Array> {
    if (!Number.isInteger(i) || i < 0 || i >= this.index.columns.length) throw new NotFoundError(`${this.name}: no entry #${i}`);
    return this.readAt(this.index.columns.record(i), i);
  }

  private async readAt(file: Arch06FileRecord, at: number | undefined): Promise<Uint8Array> {
    const stored = await this.readStoredAt(file, at);
    if (file.isCompressed === 0) {
      if (file.storedSize !== file.rawSize) throw new FormatError(ARCH06_FORMAT, file.dataOffset, `${this.recordPath(file, at)}/rawSize`, `stored entry with storedSize ${file.storedSize} ≠ rawSize ${file.rawSize}`);
      return stored;
    }
    return decodeArch06Chunks(stored, file.rawSize, this.decoder, file.dataOffset, this.recordPath(file, at));
  }

  /** The chunk layout of a compressed entry (empty for a stored entry). */
  async chunks(file: Arch06FileRecord): Promise<Arch06Chunk[]> {
    if (file.isCompressed === 0) return [];
    return scanArch06Chunks(await this.readStored(file), file.rawSize, file.dataOffset, `/files/${this.index.files.indexOf(file)}`);
  }

  /** Checks one entry: its data lies inside the archive, its chunks add up and each decodes to its declared size. */
  async checkEntry(i: number): Promise<Arch06EntryCheck> {
    const file = this.index.files[i]!;
    const path = `/files/${i}`;
    const result: Arch06EntryCheck = { index: i, path: file.path, ok: true, chunks: 0, decodedChunks: 0, kinds: [], issues: [] };
    const progress = { decoded: 0 };
    try {
      const stored = await this.readStored(file);
      if (file.isCompressed !== 0) {
        const chunks = scanArch06Chunks(stored, file.rawSize, file.dataOffset, path);
        result.chunks = chunks.length;
        result.kinds = [...new Set(chunks.map((c) => c.kind))];
        result.issues.push(...checkArch06Chunks(chunks, file.storedSize, path, file.dataOffset));
        const out = await decodeArch06Chunks(stored, file.rawSize, this.decoder, file.dataOffset, path, progress);
        if (out.length !== file.rawSize) result.issues.push({ rule: 'entry.rawSize', message: `decoded ${out.length} byte(s), ${file.rawSize} declared`, path, severity: 'error' });
      }
    } catch (e) {
      const err = e as Error & { offset?: number };
      const issue: Issue = { rule: 'entry.decode', message: err.message, path, severity: 'error' };
      if (typeof err.offset === 'number') issue.offset = err.offset;
      result.issues.push(issue);
    }
    result.decodedChunks = progress.decoded;
    result.ok = !result.issues.some((x) => x.severity === 'error');
    return result;
  }

  /** Every table invariant plus every entry (`onProgress` is called after each entry). */
  async verify(onProgress?: (done: number, total: number) => void): Promise<{ issues: Issue[]; entries: Arch06EntryCheck[] }> {
    const issues = validateArch06Index(this.index, this.source.size);
    const entries: Arch06EntryCheck[] = [];
    for (let i = 0; i < this.index.files.length; i++) {
      const f = this.index.files[i]!;
      if (f.dataOffset + f.storedSize > this.source.size) {
        // already reported by the table checks (files.range); nothing to decode
        entries.push({ index: i, path: f.path, ok: false, chunks: 0, decodedChunks: 0, kinds: [], issues: [] });
        onProgress?.(i + 1, this.index.files.length);
        continue;
      }
      const check = await this.checkEntry(i);
      entries.push(check);
      issues.push(...check.issues);
      onProgress?.(i + 1, this.index.files.length);
    }
    issues.push(...(await this.checkPathIndex()));
    return { issues, entries };
  }

  /**
   * Checks the archive's own path index when it carries one: it parses, its hashes are P919 of its paths, and it
   * lists every other entry (retail indexes also list files of sibling archives, so extra paths are fine).
   */
  async checkPathIndex(): Promise<Issue[]> {
    const file = this.find(APL_FILE_NAME);
    if (!file) return [];
    const path = `/files/${this.index.files.indexOf(file)}`;
    let index;
    try {
      index = parseArchivePathIndex(await this.read(file));
    } catch (e) {
      return [{ rule: 'pathIndex.parse', message: `${APL_FILE_NAME}: ${(e as Error).message}`, path, severity: 'error' }];
    }
    const issues: Issue[] = validateArchivePathIndex(index)
      .filter((i) => i.severity !== 'info')
      .map((i) => ({ ...i, rule: `pathIndex.${i.rule.replace(/^apl\./, '')}`, path: `${path}${i.path ?? ''}` }));
    const listed = new Set(index.entries.map((e) => asciiLower(e.path)));
    for (const f of this.index.files) {
      if (f !== file && !listed.has(asciiLower(f.path))) issues.push({ rule: 'pathIndex.unlisted', message: `${JSON.stringify(f.path)} is not in ${APL_FILE_NAME}`, path, severity: 'warning' });
    }
    return issues;
  }

  async close(): Promise<void> {
    await this.source.close?.();
  }
}

/** Throws a ConsistencyError when `issues` hold an error. */
export function throwOnErrors(issues: Issue[]): void {
  const errors = issues.filter((i) => i.severity === 'error');
  if (errors.length > 0) throw new ConsistencyError(ARCH06_FORMAT, errors);
}
