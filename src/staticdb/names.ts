/**
 * Name lists for sd2 table and column ids (FFnv32 hashes). Three public formats are read:
 *
 * - Brutus JSON: `{ "<decimal hash>": { "BestGuess": name, "Matches": [names…] } }` (several matches = a true
 *   collision, e.g. `GrowIntoPfxId` / `AngularDurationTemplate`);
 * - simple JSON: `{ "<hash>": "name" }` or `["name", …]`;
 * - plain text: one name per line (`sdb_names.txt`, SDBrowser's `fields.txt`); `#` comments and blanks skipped;
 *   a line may be `0xHASH<TAB>name`, whose name must hash to HASH.
 *
 * Every name is re-hashed: a list entry whose name does not hash to its key is kept out and reported.
 */
import { ffnv32 } from '../formats/sd2/obfuscation.ts';
import { hex32 } from '../binary/text.ts';

export interface Sd2NameEntry {
  hash: number;
  /** Candidate names, best first. */
  names: string[];
  /** Where the names came from (list labels). */
  sources: string[];
}

export interface Sd2NameMismatch {
  source: string;
  key: string;
  name: string;
  hash: number;
}

/** A hash → names dictionary assembled from one or more lists. */
export class Sd2Names {
  private readonly byHash = new Map<number, Sd2NameEntry>();
  /** Entries whose name does not hash to the key they were listed under. */
  readonly mismatches: Sd2NameMismatch[] = [];

  /** Adds one name (hashed with FFnv32). Returns its hash. */
  add(name: string, source = 'user'): number {
    const hash = ffnv32(name);
    let entry = this.byHash.get(hash);
    if (!entry) {
      entry = { hash, names: [], sources: [] };
      this.byHash.set(hash, entry);
    }
    if (!entry.names.includes(name)) entry.names.push(name);
    if (!entry.sources.includes(source)) entry.sources.push(source);
    return hash;
  }

  /** Loads a name list in any of the three formats. Returns the number of names accepted. */
  load(text: string, source = 'list'): number {
    const trimmed = text.replace(/^\uFEFF/, '').trimStart();
    let count = 0;
    if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
      const data = JSON.parse(trimmed) as unknown;
      if (Array.isArray(data)) {
        for (const n of data) if (typeof n === 'string' && n.length > 0) (this.add(n, source), count++);
        return count;
      }
      for (const [key, value] of Object.entries(data as Record<string, unknown>)) {
        const expected = /^0x[0-9a-f]+$/i.test(key) ? parseInt(key, 16) : Number(key);
        let names: string[] = [];
        if (typeof value === 'string') names = [value];
        else if (value && typeof value === 'object') {
          const v = value as { BestGuess?: unknown; Matches?: unknown };
          if (typeof v.BestGuess === 'string') names.push(v.BestGuess);
          if (Array.isArray(v.Matches)) for (const m of v.Matches) if (typeof m === 'string' && !names.includes(m)) names.push(m);
        }
        for (const name of names) {
          const hash = ffnv32(name);
          if (Number.isFinite(expected) && hash !== expected >>> 0) {
            this.mismatches.push({ source, key, name, hash });
            continue;
          }
          this.add(name, source);
          count++;
        }
      }
      return count;
    }
    for (const line of text.split(/\r?\n/)) {
      const t = line.trim();
      if (t.length === 0 || t.startsWith('#')) continue;
      const pair = /^0x([0-9a-fA-F]{1,8})[\t ]+(\S.*)$/.exec(t);
      const name = pair ? pair[2]!.trim() : t;
      if (pair && ffnv32(name) !== parseInt(pair[1]!, 16) >>> 0) {
        this.mismatches.push({ source, key: `0x${pair[1]!}`, name, hash: ffnv32(name) });
        continue;
      }
      this.add(name, source);
      count++;
    }
    return count;
  }

  /** The best name for a hash. */
  get(hash: number): string | undefined {
    return this.byHash.get(hash >>> 0)?.names[0];
  }

  entry(hash: number): Sd2NameEntry | undefined {
    return this.byHash.get(hash >>> 0);
  }

  has(hash: number): boolean {
    return this.byHash.has(hash >>> 0);
  }

  get size(): number {
    return this.byHash.size;
  }

  /** Hashes that carry several candidate names. */
  collisions(): Sd2NameEntry[] {
    return [...this.byHash.values()].filter((e) => e.names.length > 1);
  }

  entries(): IterableIterator<Sd2NameEntry> {
    return this.byHash.values();
  }

  /** Plain-text list (one name per line, every candidate), sorted for stable diffs. */
  toText(): string {
    const names = [...this.byHash.values()].flatMap((e) => e.names).sort();
    return names.join('\n') + (names.length ? '\n' : '');
  }
}

/** A display label for an id: its name, else `0x%08X`. */
export function sd2Label(id: number, names?: Sd2Names): string {
  return names?.get(id) ?? hex32(id);
}

/**
 * Parses a table or column reference: `0x1234ABCD`, a decimal id, or a name (hashed with FFnv32).
 * Returns the id.
 */
export function sd2ParseRef(ref: string | number): number {
  if (typeof ref === 'number') return ref >>> 0;
  if (/^0x[0-9a-f]{1,8}$/i.test(ref)) return parseInt(ref, 16) >>> 0;
  if (/^\d{1,10}$/.test(ref) && Number(ref) <= 0xffffffff) return Number(ref) >>> 0;
  return ffnv32(ref);
}
