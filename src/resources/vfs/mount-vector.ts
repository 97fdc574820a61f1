/**
 * The engine's file system (seed 001): one priority vector of sources. Entry 0 is consulted first; the first
 * source that has a path serves it, whole (a directory hit stops the archive search; copies in later sources are
 * shadowed, never merged). `mount(source, index)` inserts at a position; the engine has no unmount (scry's
 * `unmount` is marked as a non-engine convenience). Mounting an archive merges its path index into the global
 * hash → path table, kept sorted by hash, as the engine's Mount does.
 *
 * Runs in the browser: sources are injected (archive trees over any byte source, in-memory sources); the Node
 * directory source lives in `src/node/dir-source.ts`.
 */
import { NotFoundError, VfsError } from '../../binary/errors.ts';
import { DEFAULT_P919_TABLE, canHashP919, nameBytes, p919Unchecked, type P919Table } from '../../hash/p919.ts';
import { untouchedPathIndexColumns, type ArchivePathIndex } from '../../formats/apl/apl.ts';
import { latin1Decode } from '../../binary/text.ts';
import { normalizeVfsPath, vfsKey, type VfsSource } from './source.ts';

/** One row of the hash → path table, as the engine lays it out: {u32 hash, u32 0, char* path}. */
export interface PathTableRow {
  hash: number;
  /** 0 in the engine's global table (the per-bundle name arrays carry 1; meaning unknown). */
  zero: number;
  path: string;
}

export interface Resolution {
  path: string;
  /** Position in the vector of the source that serves the path. */
  index: number;
  source: VfsSource;
}

export interface WhichResult {
  path: string;
  /** The source that serves it, if any. */
  winner: Resolution | undefined;
  /** Every later source that also has it (shadowed by search order). */
  shadowed: Resolution[];
}

export interface Conflict {
  path: string;
  winner: Resolution;
  shadowed: Resolution[];
}

export interface MountVectorOptions {
  /** P919 table for hashing paths (default: the built-in one). */
  table?: P919Table;
}

/**
 * Where the paths of one merged path index live: the parsed string table (paths decoded on demand) or, for an
 * index built in memory, its path strings.
 */
interface PathSegment {
  table: Uint8Array | undefined;
  paths: readonly string[] | undefined;
}

/** Rows to merge: hashes, and per row where its path is in `segment` (a table offset or an index into `paths`). */
interface PathRows {
  hash: Uint32Array;
  at: Uint32Array;
  segment: number;
}

export class MountVector {
  private readonly vector: VfsSource[] = [];
  /**
   * The merged hash → path table as columns, sorted by hash then path: the hash, the segment holding the path and
   * the path's place in it. Paths are decoded when asked for.
   */
  private hashes: Uint32Array = new Uint32Array(0);
  private rowSegment: Uint32Array = new Uint32Array(0);
  private rowAt: Uint32Array = new Uint32Array(0);
  private segments: PathSegment[] = [];
  /** `pathTable` as row objects, built on first read after a change. */
  private rows: PathTableRow[] | undefined;
  private readonly table: P919Table;

  constructor(options: MountVectorOptions = {}) {
    this.table = options.table ?? DEFAULT_P919_TABLE;
  }

  /** The sources in priority order (entry 0 first). */
  get sources(): readonly VfsSource[] {
    return this.vector;
  }

  /**
   * Inserts a source at `index` (default: the end, i.e. lowest priority) and merges its path index into the
   * hash → path table. Returns the position it took.
   */
  async mount(source: VfsSource, index = this.vector.length): Promise<number> {
    if (!Number.isInteger(index) || index < 0 || index > this.vector.length) {
      throw new VfsError('E_VFS', source.name, `mount position ${index} is outside 0..${this.vector.length}`);
    }
    const pathIndex = source.pathIndex ? await source.pathIndex() : undefined;
    this.vector.splice(index, 0, source);
    if (pathIndex) this.mergeIndex(pathIndex);
    return index;
  }

  /**
   * NOT AN ENGINE OPERATION: the engine cannot unmount (seed 001). Removes a source and rebuilds the path table
   * from the remaining sources, for tools that explore several mount orders.
   */
  async unmount(source: VfsSource): Promise<void> {
    const i = this.vector.indexOf(source);
    if (i < 0) throw new VfsError('E_VFS', source.name, `${source.name} is not mounted`);
    this.vector.splice(i, 1);
    this.hashes = new Uint32Array(0);
    this.rowSegment = new Uint32Array(0);
    this.rowAt = new Uint32Array(0);
    this.segments = [];
    this.rows = undefined;
    for (const s of this.vector) {
      const ix = s.pathIndex ? await s.pathIndex() : undefined;
      if (ix) this.mergeIndex(ix);
    }
  }

  /** The rows of a path index as a new segment: the parsed columns when untouched, else its `entries`. */
  private segmentRows(index: ArchivePathIndex): PathRows {
    const segment = this.segments.length;
    const columns = untouchedPathIndexColumns(index);
    if (columns) {
      this.segments.push({ table: columns.stringTable, paths: undefined });
      return { hash: columns.hash, at: columns.offset, segment };
    }
    const entries = index.entries;
    const hash = new Uint32Array(entries.length);
    const at = new Uint32Array(entries.length);
    const paths: string[] = new Array(entries.length);
    for (let i = 0; i < entries.length; i++) {
      hash[i] = entries[i]!.hash;
      at[i] = i;
      paths[i] = entries[i]!.path;
    }
    this.segments.push({ table: undefined, paths });
    return { hash, at, segment };
  }

  /** The path at `at` of a segment. */
  private pathOf(segment: number, at: number): string {
    const s = this.segments[segment]!;
    if (s.paths) return s.paths[at]!;
    const table = s.table!;
    return latin1Decode(table.subarray(at, table.indexOf(0, at)));
  }

  /** Order of two paths (as JavaScript orders their Latin-1 strings): bytes when both are in tables. */
  private comparePaths(segA: number, atA: number, segB: number, atB: number): number {
    const ta = this.segments[segA]!.table;
    const tb = this.segments[segB]!.table;
    if (ta && tb) {
      for (;;) {
        const a = ta[atA++]!;
        const b = tb[atB++]!;
        if (a !== b) return a - b;
        if (a === 0) return 0;
      }
    }
    const a = this.pathOf(segA, atA);
    const b = this.pathOf(segB, atB);
    return a < b ? -1 : a > b ? 1 : 0;
  }

  /**
   * Merges a path index into the sorted table in one linear pass over typed columns (identical rows kept once:
   * `vfs.pathTableDuplicates`); paths are compared only between rows of equal hash.
   */
  private mergeIndex(index: ArchivePathIndex): void {
    const add = this.segmentRows(index);
    const seg = add.segment;
    const m = add.hash.length;
    let bh = add.hash;
    let bat = add.at;
    let sorted = true;
    for (let i = 1; i < m && sorted; i++) {
      const d = bh[i - 1]! - bh[i]!;
      if (d > 0 || (d === 0 && this.comparePaths(seg, bat[i - 1]!, seg, bat[i]!) > 0)) sorted = false;
    }
    if (!sorted) {
      const order = Array.from({ length: m }, (_, i) => i).sort((x, y) => bh[x]! - bh[y]! || this.comparePaths(seg, bat[x]!, seg, bat[y]!));
      const h2 = new Uint32Array(m);
      const a2 = new Uint32Array(m);
      for (let i = 0; i < m; i++) {
        h2[i] = bh[order[i]!]!;
        a2[i] = bat[order[i]!]!;
      }
      bh = h2;
      bat = a2;
    }
    const ah = this.hashes;
    const aseg = this.rowSegment;
    const aat = this.rowAt;
    const n = ah.length;
    const hashes = new Uint32Array(n + m);
    const rowSegment = new Uint32Array(n + m);
    const rowAt = new Uint32Array(n + m);
    let i = 0;
    let j = 0;
    let o = 0;
    while (i < n || j < m) {
      let hash: number;
      let s: number;
      let at: number;
      // the existing row first on a tie (equal hash and path)
      const takeOld = j >= m || (i < n && (ah[i]! < bh[j]! || (ah[i] === bh[j] && this.comparePaths(aseg[i]!, aat[i]!, seg, bat[j]!) <= 0)));
      if (takeOld) {
        hash = ah[i]!;
        s = aseg[i]!;
        at = aat[i++]!;
      } else {
        hash = bh[j]!;
        s = seg;
        at = bat[j++]!;
      }
      if (o > 0 && hashes[o - 1] === hash && this.comparePaths(rowSegment[o - 1]!, rowAt[o - 1]!, s, at) === 0) continue;
      hashes[o] = hash;
      rowSegment[o] = s;
      rowAt[o++] = at;
    }
    this.hashes = o === n + m ? hashes : hashes.slice(0, o);
    this.rowSegment = o === n + m ? rowSegment : rowSegment.slice(0, o);
    this.rowAt = o === n + m ? rowAt : rowAt.slice(0, o);
    this.rows = undefined;
  }

  /** The merged hash → path table, sorted by hash (row objects are built on first read after a mount). */
  get pathTable(): readonly PathTableRow[] {
    if (!this.rows) {
      const rows: PathTableRow[] = new Array(this.hashes.length);
      for (let i = 0; i < rows.length; i++) rows[i] = { hash: this.hashes[i]!, zero: 0, path: this.pathOf(this.rowSegment[i]!, this.rowAt[i]!) };
      this.rows = rows;
    }
    return this.rows;
  }

  /** Number of rows of the merged path table (without building `pathTable`). */
  get pathTableSize(): number {
    return this.hashes.length;
  }

  /** P919 of a virtual path with this vector's table (undefined when it holds an unknown character). */
  hashPath(path: string): number | undefined {
    const bytes = nameBytes(vfsKey(path));
    return canHashP919(bytes, { table: this.table }) ? p919Unchecked(bytes, this.table.values) : undefined;
  }

  /** Paths the table knows for a hash (binary search; usually one). */
  pathsForHash(hash: number): string[] {
    const h = hash >>> 0;
    const hashes = this.hashes;
    let lo = 0;
    let hi = hashes.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (hashes[mid]! < h) lo = mid + 1;
      else hi = mid;
    }
    const out: string[] = [];
    for (let i = lo; i < hashes.length && hashes[i] === h; i++) out.push(this.pathOf(this.rowSegment[i]!, this.rowAt[i]!));
    return out;
  }

  /** The source that serves `path`: the first in vector order that has it. */
  async resolve(path: string): Promise<Resolution | undefined> {
    const p = normalizeVfsPath(path);
    for (let i = 0; i < this.vector.length; i++) {
      const source = this.vector[i]!;
      if (await source.has(p)) return { path: p, index: i, source };
    }
    return undefined;
  }

  /** Which source serves `path`, and which later sources it shadows. */
  async which(path: string): Promise<WhichResult> {
    const p = normalizeVfsPath(path);
    const hits: Resolution[] = [];
    for (let i = 0; i < this.vector.length; i++) if (await this.vector[i]!.has(p)) hits.push({ path: p, index: i, source: this.vector[i]! });
    return { path: p, winner: hits[0], shadowed: hits.slice(1) };
  }

  /** The bytes of `path` from the source that serves it (never merged with other copies). */
  async readFile(path: string): Promise<Uint8Array> {
    const r = await this.resolve(path);
    if (!r) throw new NotFoundError(`no mounted source has ${JSON.stringify(normalizeVfsPath(path))}`);
    return r.source.read(r.path);
  }

  async exists(path: string): Promise<boolean> {
    return (await this.resolve(path)) !== undefined;
  }

  /**
   * Resolves a hash: through the merged path table first (the engine's way); then, as a scry convenience, through
   * the archives' own entry hashes.
   */
  async resolveHash(hash: number): Promise<Resolution | undefined> {
    for (const p of this.pathsForHash(hash)) {
      const r = await this.resolve(p);
      if (r) return r;
    }
    for (let i = 0; i < this.vector.length; i++) {
      const s = this.vector[i]!;
      const paths = s.pathsForHash ? await s.pathsForHash(hash) : [];
      for (const p of paths) {
        const r = await this.resolve(p);
        if (r) return r;
      }
    }
    return undefined;
  }

  /** Every path served by the vector, with the source that wins it and the ones it shadows. */
  async listAll(): Promise<Conflict[]> {
    const byKey = new Map<string, Conflict>();
    for (let i = 0; i < this.vector.length; i++) {
      const source = this.vector[i]!;
      for (const p of await source.list()) {
        const key = vfsKey(p);
        const hit = { path: normalizeVfsPath(p), index: i, source };
        const c = byKey.get(key);
        if (!c) byKey.set(key, { path: hit.path, winner: hit, shadowed: [] });
        else if (c.winner.index !== i) c.shadowed.push(hit);
      }
    }
    return [...byKey.values()].sort((a, b) => (vfsKey(a.path) < vfsKey(b.path) ? -1 : 1));
  }

  /** Paths present in more than one source, with the winner (search order) and every shadowed copy. */
  async conflicts(): Promise<Conflict[]> {
    return (await this.listAll()).filter((c) => c.shadowed.length > 0);
  }

  async close(): Promise<void> {
    for (const s of this.vector) await s.close?.();
  }
}
