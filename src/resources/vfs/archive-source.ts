/** An archive tree source: one mounted `.arch06`, looked up by P919 hash of the path, then by case-insensitive name. */
import { NotFoundError } from '../../binary/errors.ts';
import { APL_FILE_NAME, parseArchivePathIndex, type ArchivePathIndex } from '../../formats/apl/apl.ts';
import { asciiLower, type Arch06Archive } from '../../formats/arch06/archive.ts';
import { DEFAULT_P919_TABLE, type P919Table } from '../../hash/p919.ts';
import { normalizeVfsPath, vfsKey, type VfsSource } from './source.ts';

export class ArchiveTreeSource implements VfsSource {
  readonly kind = 'archive' as const;
  readonly name: string;
  readonly archive: Arch06Archive;
  private readonly table: P919Table;
  /** First entry index per path hash; further entries with the same hash chain through `sameHash`. */
  private byHash: Map<number, number> | undefined;
  private sameHash: Int32Array | undefined;
  /** Entries whose path cannot be hashed with the table (unknown characters): found by name only. */
  private unhashable: Map<string, number> | undefined;
  private index: Promise<ArchivePathIndex | undefined> | undefined;

  constructor(archive: Arch06Archive, options: { name?: string; table?: P919Table } = {}) {
    this.archive = archive;
    this.name = options.name ?? archive.name;
    this.table = options.table ?? DEFAULT_P919_TABLE;
  }

  private usable: Uint8Array | undefined;

  /** P919 of a (Latin-1) path string, or -1 when a character has no usable table value. */
  private hashKey(key: string): number {
    if (!this.usable) {
      this.usable = new Uint8Array(256);
      for (let c = 0; c < 256; c++) this.usable[c] = this.table.status[c] === 'verified' || this.table.status[c] === 'calibrated' ? 1 : 0;
    }
    const values = this.table.values;
    const usable = this.usable;
    let h = 0;
    for (let i = 0; i < key.length; i++) {
      const c = key.charCodeAt(i);
      if (c > 255 || usable[c] === 0) return -1;
      h = (Math.imul(h, 919) + values[c]!) | 0;
    }
    return h >>> 0;
  }

  /**
   * Hashes every entry's path from the string table bytes (folder prefix hashed once per folder), without building
   * the path strings.
   */
  private build(): void {
    this.byHash = new Map();
    this.unhashable = new Map();
    const columns = this.archive.columns;
    const n = columns.length;
    const chain = new Int32Array(n).fill(-1);
    this.sameHash = chain;
    this.hashKey('');
    const usable = this.usable!;
    const values = this.table.values;
    const table = columns.stringTable;
    // P919 state after each folder's `name\` prefix (-1: a character without a usable value)
    const prefix = new Float64Array(columns.folderNames.length);
    for (let f = 0; f < prefix.length; f++) {
      const name = columns.folderNames[f]!;
      prefix[f] = name === '' ? 0 : this.hashKey(name + '\\');
    }
    for (let i = 0; i < n; i++) {
      const folder = columns.folder[i]!;
      const start = folder < 0 ? 0 : prefix[folder]!;
      let ok = start >= 0;
      let h = start | 0;
      for (let k = columns.nameOffset[i]!; ok && k < table.length; k++) {
        const c = table[k]!;
        if (c === 0) break;
        if (usable[c] === 0) ok = false;
        else h = (Math.imul(h, 919) + values[c]!) | 0;
      }
      if (!ok) {
        const key = vfsKey(columns.path(i));
        if (!this.unhashable.has(key)) this.unhashable.set(key, i);
        continue;
      }
      const hash = h >>> 0;
      const first = this.byHash.get(hash);
      if (first === undefined) this.byHash.set(hash, i);
      else {
        let k = first;
        while (chain[k]! >= 0) k = chain[k]!;
        chain[k] = i;
      }
    }
  }

  /** The entry index for a path: by P919 hash (case folds), then comparing names without case (collisions). */
  find(path: string): number | undefined {
    if (!this.byHash) this.build();
    const key = vfsKey(path);
    const h = this.hashKey(key);
    if (h >= 0) {
      for (let i = this.byHash!.get(h) ?? -1; i >= 0; i = this.sameHash![i]!) if (asciiLower(this.archive.columns.path(i)) === key) return i;
      return undefined;
    }
    return this.unhashable!.get(key);
  }

  /**
   * The first entry in the root whose name is `name` (lower case, no separator) without case: what `find` answers
   * for such a path, without building the hash index (mounting needs only the path index file).
   */
  private rootEntry(name: string): number | undefined {
    const columns = this.archive.columns;
    const table = columns.stringTable;
    for (let i = 0; i < columns.length; i++) {
      const folder = columns.folder[i]!;
      if (folder >= 0 && columns.folderNames[folder] !== '') continue;
      let k = columns.nameOffset[i]!;
      let j = 0;
      for (; j < name.length && k < table.length; j++, k++) {
        let c = table[k]!;
        if (c >= 65 && c <= 90) c += 32;
        if (c !== name.charCodeAt(j)) break;
      }
      if (j === name.length && (k === table.length || table[k] === 0)) return i;
    }
    return undefined;
  }

  async has(path: string): Promise<boolean> {
    return this.find(path) !== undefined;
  }

  async read(path: string): Promise<Uint8Array> {
    const i = this.find(path);
    if (i === undefined) throw new NotFoundError(`${this.name}: no entry ${JSON.stringify(normalizeVfsPath(path))}`);
    return this.archive.readEntry(i);
  }

  async list(): Promise<string[]> {
    const columns = this.archive.columns;
    const out: string[] = new Array(columns.length);
    for (let i = 0; i < columns.length; i++) out[i] = columns.path(i);
    return out;
  }

  async pathsForHash(hash: number): Promise<string[]> {
    if (!this.byHash) this.build();
    const out: string[] = [];
    for (let i = this.byHash!.get(hash >>> 0) ?? -1; i >= 0; i = this.sameHash![i]!) out.push(this.archive.columns.path(i));
    return out;
  }

  pathIndex(): Promise<ArchivePathIndex | undefined> {
    this.index ??= (async () => {
      const i = this.rootEntry(APL_FILE_NAME);
      if (i === undefined) return undefined;
      // a view of the entry's bytes: the archive's own (in memory) or a buffer read for this index alone
      return parseArchivePathIndex(await this.archive.readEntry(i), { view: true });
    })();
    return this.index;
  }

  async close(): Promise<void> {
    await this.archive.close();
  }
}
