/**
 * The engine's file system (seed 001): one priority vector of sources. Entry 0 is consulted first; the first
 * source that has a path serves it, whole (a directory hit stops the archive search; copies in later sources are
 * shadowed, never merged). `mount(source, index)` inserts at a position; the engine has no unmount (scry's
 * `unmount` is marked as a non-engine convenience). Mounting an archive merges its path index into the global
 * hash → path table, kept sorted by hash, as the engine's Mount does (scry merges the indexes mounted since the
 * table was last read in one pass when it is next read: the table seen is the same).
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

/**
 * Rows of the hash → path table as columns, sorted by hash then path, no row twice: the hash, the segment holding
 * the path and the path's place in it (a table offset or an index into `paths`).
 */
interface PathRun {
  hash: Uint32Array;
  segment: Uint32Array;
  at: Uint32Array;
}

const EMPTY_RUN: PathRun = { hash: new Uint32Array(0), segment: new Uint32Array(0), at: new Uint32Array(0) };

export class MountVector {
  private readonly vector: VfsSource[] = [];
  /**
   * The merged hash → path table as columns, sorted by hash then path: the hash, the segment holding the path and
   * the path's place in it. Paths are decoded when asked for.
   */
  private merged: PathRun = EMPTY_RUN;
  /**
   * Runs of the indexes mounted since the table was last read, in mount order: merged into `merged` in one k-way
   * pass when the table is next read.
   */
  private pending: PathRun[] = [];
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
    this.merged = EMPTY_RUN;
    this.pending = [];
    this.segments = [];
    this.rows = undefined;
    for (const s of this.vector) {
      const ix = s.pathIndex ? await s.pathIndex() : undefined;
      if (ix) this.mergeIndex(ix);
    }
  }

  /** The rows of a path index as a new segment: the parsed columns when untouched, else its `entries`. */
  private segmentRows(index: ArchivePathIndex): { hash: Uint32Array; at: Uint32Array; segment: number } {
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
   * A mounted path index as a run: sorted by hash then path (an index out of order is sorted), identical rows kept
   * once (`vfs.pathTableDuplicates`).
   */
  private indexRun(index: ArchivePathIndex): PathRun {
    const add = this.segmentRows(index);
    const seg = add.segment;
    const m = add.hash.length;
    let hash = add.hash;
    let at = add.at;
    let sorted = true;
    let unique = true;
    for (let i = 1; i < m && sorted; i++) {
      const d = hash[i - 1]! - hash[i]!;
      if (d > 0) sorted = false;
      else if (d === 0) {
        const c = this.comparePaths(seg, at[i - 1]!, seg, at[i]!);
        if (c > 0) sorted = false;
        else if (c === 0) unique = false;
      }
    }
    if (!sorted) {
      const order = Array.from({ length: m }, (_, i) => i).sort((x, y) => hash[x]! - hash[y]! || this.comparePaths(seg, at[x]!, seg, at[y]!));
      const h2 = new Uint32Array(m);
      const a2 = new Uint32Array(m);
      for (let i = 0; i < m; i++) {
        h2[i] = hash[order[i]!]!;
        a2[i] = at[order[i]!]!;
      }
      hash = h2;
      at = a2;
      unique = false;
    }
    if (!unique) {
      let o = 0;
      const h2 = new Uint32Array(m);
      const a2 = new Uint32Array(m);
      for (let i = 0; i < m; i++) {
        if (o > 0 && h2[o - 1] === hash[i] && this.comparePaths(seg, a2[o - 1]!, seg, at[i]!) === 0) continue;
        h2[o] = hash[i]!;
        a2[o++] = at[i]!;
      }
      hash = h2.subarray(0, o);
      at = a2.subarray(0, o);
    }
    return { hash, segment: new Uint32Array(hash.length).fill(seg), at };
  }

  /** Queues a path index for the next merge (the table is merged when it is next read). */
  private mergeIndex(index: ArchivePathIndex): void {
    this.pending.push(this.indexRun(index));
    this.rows = undefined;
  }

  /**
   * Order of row `p` of run `r` and row `q` of run `t` on equal hash: by path, then the earlier run first (the row
   * already in the table, then the indexes in mount order).
   */
  private compareRows(runs: readonly PathRun[], r: number, p: number, t: number, q: number): number {
    const a = runs[r]!;
    const b = runs[t]!;
    return this.comparePaths(a.segment[p]!, a.at[p]!, b.segment[q]!, b.at[q]!) || r - t;
  }

  /**
   * The runs as one, in one k-way pass (a binary heap of the runs' next rows, keyed by hash): sorted by hash then
   * path, identical rows kept once (the earliest run's); paths are compared only between rows of equal hash.
   */
  private mergeRuns(all: readonly PathRun[]): PathRun {
    const runs = all.filter((r) => r.hash.length > 0);
    if (runs.length === 0) return EMPTY_RUN;
    if (runs.length === 1) return runs[0]!;
    let total = 0;
    for (const r of runs) total += r.hash.length;
    const hash = new Uint32Array(total);
    const segment = new Uint32Array(total);
    const at = new Uint32Array(total);
    const k = runs.length;
    // heap[slot] = run, key[slot] = the hash of that run's next row; pos[run] = its next row
    const heap = new Int32Array(k);
    const key = new Float64Array(k);
    const pos = new Int32Array(k);
    const less = (i: number, j: number): boolean => key[i]! < key[j]! || (key[i] === key[j] && this.compareRows(runs, heap[i]!, pos[heap[i]!]!, heap[j]!, pos[heap[j]!]!) < 0);
    let size = 0;
    const siftDown = (from: number): void => {
      let i = from;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= size) return;
        const c = l + 1 < size && less(l + 1, l) ? l + 1 : l;
        if (!less(c, i)) return;
        const hr = heap[i]!;
        const hk = key[i]!;
        heap[i] = heap[c]!;
        key[i] = key[c]!;
        heap[c] = hr;
        key[c] = hk;
        i = c;
      }
    };
    for (let r = 0; r < k; r++) {
      heap[size] = r;
      key[size++] = runs[r]!.hash[0]!;
    }
    for (let i = (size >> 1) - 1; i >= 0; i--) siftDown(i);
    let o = 0;
    let last = -1;
    while (size > 1) {
      const r = heap[0]!;
      const run = runs[r]!;
      const p = pos[r]!;
      const h = key[0]!;
      // a row equal to the last one written came from an earlier run (a run holds a row once)
      if (h !== last || this.comparePaths(segment[o - 1]!, at[o - 1]!, run.segment[p]!, run.at[p]!) !== 0) {
        hash[o] = last = h;
        segment[o] = run.segment[p]!;
        at[o++] = run.at[p]!;
      }
      if (p + 1 < run.hash.length) {
        pos[r] = p + 1;
        key[0] = run.hash[p + 1]!;
      } else {
        size--;
        heap[0] = heap[size]!;
        key[0] = key[size]!;
      }
      siftDown(0);
    }
    // the rest of the last run: only its next row can equal the last row written
    const rest = runs[heap[0]!]!;
    let p = pos[heap[0]!]!;
    const end = rest.hash.length;
    if (rest.hash[p] === last && this.comparePaths(segment[o - 1]!, at[o - 1]!, rest.segment[p]!, rest.at[p]!) === 0) p++;
    hash.set(rest.hash.subarray(p, end), o);
    segment.set(rest.segment.subarray(p, end), o);
    at.set(rest.at.subarray(p, end), o);
    o += end - p;
    return o === total ? { hash, segment, at } : { hash: hash.subarray(0, o), segment: segment.subarray(0, o), at: at.subarray(0, o) };
  }

  /** The merged table, after merging the runs mounted since it was last read. */
  private mergedTable(): PathRun {
    if (this.pending.length > 0) {
      this.merged = this.mergeRuns([this.merged, ...this.pending]);
      this.pending = [];
    }
    return this.merged;
  }

  /** The merged hash → path table, sorted by hash (row objects are built on first read after a mount). */
  get pathTable(): readonly PathTableRow[] {
    if (!this.rows) {
      const t = this.mergedTable();
      const rows: PathTableRow[] = new Array(t.hash.length);
      for (let i = 0; i < rows.length; i++) rows[i] = { hash: t.hash[i]!, zero: 0, path: this.pathOf(t.segment[i]!, t.at[i]!) };
      this.rows = rows;
    }
    return this.rows;
  }

  /** Number of rows of the merged path table (without building `pathTable`). */
  get pathTableSize(): number {
    return this.mergedTable().hash.length;
  }

  /** P919 of a virtual path with this vector's table (undefined when it holds an unknown character). */
  hashPath(path: string): number | undefined {
    const bytes = nameBytes(vfsKey(path));
    return canHashP919(bytes, { table: this.table }) ? p919Unchecked(bytes, this.table.values) : undefined;
  }

  /** Paths the table knows for a hash (binary search; usually one). */
  pathsForHash(hash: number): string[] {
    const h = hash >>> 0;
    const t = this.mergedTable();
    const hashes = t.hash;
    let lo = 0;
    let hi = hashes.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (hashes[mid]! < h) lo = mid + 1;
      else hi = mid;
    }
    const out: string[] = [];
    for (let i = lo; i < hashes.length && hashes[i] === h; i++) out.push(this.pathOf(t.segment[i]!, t.at[i]!));
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
