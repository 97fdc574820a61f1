/**
 * Names for hashes. The file stores field names only as P919 hashes (spec §3.4: "field-name strings themselves
 * are not stored"); category and record names are stored as text. A `NameDictionary` maps hashes back to the
 * names a user or a research note knows, from plain text: one name per line, `#` starts a comment, blank lines
 * are ignored. A line is hashed with P919 and resolves every hash equal to it.
 *
 * A line may also be `0xHASH<TAB>name` (the form community lists and `scry db crack` write). The name is checked:
 * when P919 of it differs from HASH the line is refused (`mismatches`); when it cannot be hashed (a character of
 * unknown table value, such as `/`) it is taken on the list's word for HASH and reported as `unverified`.
 *
 * scry ships the 33 field names confirmed on the real sample (`names/fields.txt`); the Node helper
 * `loadBuiltinNames` (src/node/gamedb.ts) reads that file, a browser build can fetch it.
 */
import { HashError } from '../binary/errors.ts';
import { DEFAULT_P919_TABLE, canHashP919, p919, type P919Table } from '../hash/p919.ts';

/** Formats a hash with no known name: `0x%08X`. */
export function formatHash(hash: number): string {
  return '0x' + (hash >>> 0).toString(16).toUpperCase().padStart(8, '0');
}

/** Parses `0x1234ABCD` (1 to 8 hex digits) as a hash; `undefined` when the text is not one. */
export function parseHashLiteral(text: string): number | undefined {
  const m = /^0x([0-9a-fA-F]{1,8})$/.exec(text.trim());
  return m ? parseInt(m[1]!, 16) >>> 0 : undefined;
}

/** What adding names to a dictionary did. */
export interface NamesLoadReport {
  /** Names added (new hashes). */
  added: number;
  /** Lines whose hash already had a different name (both kept; the first is displayed). */
  collisions: Array<{ name: string; existing: string; hash: number }>;
  /** Lines that cannot be hashed with the table (a character of unknown P919 value). */
  unhashable: Array<{ line: number; name: string; reason: string }>;
  /** `0xHASH<TAB>name` lines whose name hashes to something else: refused. */
  mismatches: Array<{ line: number; name: string; listed: number; hash: number }>;
  /** `0xHASH<TAB>name` lines whose name cannot be hashed: kept for HASH on the list's word. */
  unverified: Array<{ line: number; name: string; hash: number }>;
}

/** `0xHASH<TAB>name` (tab or spaces between; 1 to 8 hex digits). */
const PAIR_LINE = /^0x([0-9a-fA-F]{1,8})[\t ]+(\S.*)$/;

/** Hash → name(s), built from plain-text lists. Hashing uses the table given at construction. */
export class NameDictionary {
  readonly table: P919Table;
  readonly #byHash = new Map<number, string[]>();

  constructor(table: P919Table = DEFAULT_P919_TABLE) {
    this.table = table;
  }

  /** Number of distinct hashes with a name. */
  get size(): number {
    return this.#byHash.size;
  }

  /** Adds one name; returns its hash, or throws a `HashError` when it contains a character of unknown value. */
  add(name: string): number {
    const hash = p919(name, { table: this.table });
    const list = this.#byHash.get(hash);
    if (!list) this.#byHash.set(hash, [name]);
    else if (!list.includes(name)) list.push(name);
    return hash;
  }

  /** Adds `name` under `hash` without hashing it (a name the table cannot hash, listed for that hash). */
  #addUnverified(hash: number, name: string): boolean {
    const list = this.#byHash.get(hash >>> 0);
    if (!list) this.#byHash.set(hash >>> 0, [name]);
    else if (!list.includes(name)) list.push(name);
    return !list;
  }

  /**
   * Adds every name of a plain-text list (one per line, `#` comments, `0xHASH<TAB>name` pairs checked as the
   * module comment says). Never throws for a bad line.
   */
  addText(text: string): NamesLoadReport {
    const report: NamesLoadReport = { added: 0, collisions: [], unhashable: [], mismatches: [], unverified: [] };
    const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
    for (let i = 0; i < lines.length; i++) {
      const hashAt = lines[i]!.indexOf('#');
      const line = (hashAt >= 0 ? lines[i]!.slice(0, hashAt) : lines[i]!).trim();
      if (line.length === 0) continue;
      const pair = PAIR_LINE.exec(line);
      const name = pair ? pair[2]!.trim() : line;
      if (pair) {
        const listed = parseInt(pair[1]!, 16) >>> 0;
        if (!canHashP919(name, { table: this.table })) {
          if (this.#addUnverified(listed, name)) report.added++;
          report.unverified.push({ line: i + 1, name, hash: listed });
          continue;
        }
        const hash = p919(name, { table: this.table });
        if (hash !== listed) {
          report.mismatches.push({ line: i + 1, name, listed, hash });
          continue;
        }
      }
      try {
        const before = this.#byHash.get(p919(name, { table: this.table }))?.[0];
        const hash = this.add(name);
        if (before === undefined) report.added++;
        else if (before.toLowerCase() !== name.toLowerCase()) report.collisions.push({ name, existing: before, hash });
      } catch (e) {
        if (!(e instanceof HashError)) throw e;
        report.unhashable.push({ line: i + 1, name, reason: e.message });
      }
    }
    return report;
  }

  /** Whether some name is known for `hash`. */
  has(hash: number): boolean {
    return this.#byHash.has(hash >>> 0);
  }

  /** The first name known for `hash`, or `undefined`. */
  get(hash: number): string | undefined {
    return this.#byHash.get(hash >>> 0)?.[0];
  }

  /** Every name known for `hash` (several when names collide). */
  all(hash: number): readonly string[] {
    return this.#byHash.get(hash >>> 0) ?? [];
  }

  /** The name of `hash`, or `0x%08X` when none is known. */
  format(hash: number): string {
    return this.get(hash) ?? formatHash(hash);
  }

  /** Every (hash, name) pair, hashes ascending. */
  entries(): Array<{ hash: number; name: string }> {
    return [...this.#byHash].sort((a, b) => a[0] - b[0]).map(([hash, names]) => ({ hash, name: names[0]! }));
  }
}
