/**
 * A field-name cracker for GameDB (what Brutus is for sd2): the file stores field names only as P919 hashes, so
 * names are found by guessing: candidates built from a vocabulary are hashed and kept when they equal an unnamed
 * field hash.
 *
 * - **Vocabulary**: words of the database itself (category, type and record names, String and StringEnum values,
 *   split at case changes, digits and anything not a letter or digit, `_` included), the names already known
 *   (the shipped list from the seeds and specs, and the user's lists) and a user word list; most frequent first.
 * - **Candidates**: CamelCase combinations of 1 … `maxWords` words. P919 folds case (the table gives `a` and
 *   `A` one value), so the search runs over lower-case strings, and a hit is shown in CamelCase with each word's
 *   most frequent spelling (`AI`, `Fx`).
 * - **Cost**: P919 has no final mixing, so `h(a + b) = h(a) · 919^|b| + h(b) (mod 2³²)`: a combination costs one
 *   multiply-add and one table probe, whatever its length.
 * - **Honesty**: every hit is checked again with the full `p919` of the name shown, so no name whose hash does not
 *   match is ever reported; two different candidates for one hash are a collision, listed and never picked. A
 *   32-bit hash also collides by chance: `expectedFalseHits` (tried × targets / 2³²) says how many hits chance
 *   alone would give, and single-word hits are far more likely right than three-word ones.
 */
import { DEFAULT_P919_TABLE, canHashP919, p919, type P919Table } from '../hash/p919.ts';
import { GADB_TYPE_MASK, GadbStorageCode } from '../formats/gadb/type-codes.ts';
import type { Database } from './database.ts';

/** Character classes of the word splitter. */
const CharClass = { Other: 0, Upper: 1, Lower: 2, Digit: 3 } as const;
type CharClass = (typeof CharClass)[keyof typeof CharClass];

function charClass(c: number): CharClass {
  if (c >= 65 && c <= 90) return CharClass.Upper;
  if (c >= 97 && c <= 122) return CharClass.Lower;
  if (c >= 48 && c <= 57) return CharClass.Digit;
  return CharClass.Other;
}

/**
 * Calls `visit` with each word of `text`: runs of letters and digits split at a lower→upper change, between
 * letters and digits, and before the last capital of an acronym followed by lower case (`FXName` → FX, Name).
 */
export function forEachNameWord(text: string, visit: (word: string) => void): void {
  let start = -1;
  let prev: CharClass = CharClass.Other;
  for (let i = 0; i <= text.length; i++) {
    const k: CharClass = i < text.length ? charClass(text.charCodeAt(i)) : CharClass.Other;
    let split = k === CharClass.Other;
    if (!split && start >= 0) {
      if (prev === CharClass.Lower && k === CharClass.Upper) split = true;
      else if ((prev === CharClass.Digit) !== (k === CharClass.Digit)) split = true;
      else if (prev === CharClass.Upper && k === CharClass.Lower && i - 1 > start) {
        // `FXName`: the word before ends at the capital that starts `Name`
        visit(text.slice(start, i - 1));
        start = i - 1;
      }
    }
    if (split && start >= 0) {
      visit(text.slice(start, i));
      start = -1;
    }
    if (k !== CharClass.Other && start < 0) start = i;
    prev = k;
  }
}

/** Splits a name or a text into words: `EmissionRate2` → Emission, Rate, 2; `AI_Templates` → AI, Templates. */
export function nameWords(text: string): string[] {
  const out: string[] = [];
  forEachNameWord(text, (w) => out.push(w));
  return out;
}

/** Counts words (lower-cased) and the spellings they were seen in. */
export class Vocabulary {
  readonly #count = new Map<string, number>();
  /** Times a word was seen written all in capitals (`AI`, `FX`, `UI`). */
  readonly #acronym = new Map<string, number>();

  /** Adds the words of `text` (each weighted by `weight`). Words longer than 40 characters are skipped. */
  addText(text: string, weight = 1): void {
    forEachNameWord(text, (w) => {
      if (w.length > 40) return;
      const lower = w.toLowerCase();
      this.#count.set(lower, (this.#count.get(lower) ?? 0) + weight);
      // Only acronyms need their spelling remembered (every other word is shown Capitalised).
      if (w.length > 1 && w.length <= 4 && w === w.toUpperCase() && !/[0-9]/.test(w)) this.#acronym.set(lower, (this.#acronym.get(lower) ?? 0) + weight);
    });
  }

  get size(): number {
    return this.#count.size;
  }

  /** Lower-case words, most frequent first (ties alphabetical). */
  words(): string[] {
    return [...this.#count].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([w]) => w);
  }

  /**
   * How a word is shown in a CamelCase name: in capitals when it was written so at least half the times it was
   * seen (an acronym: `FXName`), else Capitalised (`Emission`).
   */
  display(lower: string): string {
    const caps = this.#acronym.get(lower) ?? 0;
    if (caps * 2 >= (this.#count.get(lower) ?? 1)) return lower.toUpperCase();
    return lower.charAt(0).toUpperCase() + lower.slice(1);
  }
}

const TEXT_TYPES = new Set([4, 5]);

/**
 * The vocabulary of a database: category, type and record names, distinct String/StringEnum values, the names
 * its dictionary knows (weighted up: they are real field names), plus `words`, and the digits 0–9 (field names
 * end in them: `Material0`, `Intensity1`).
 */
export function gadbVocabulary(db: Database, words: Iterable<string> = []): Vocabulary {
  const v = new Vocabulary();
  for (const w of words) v.addText(w, 4);
  for (const e of db.names.entries()) v.addText(e.name, 4);
  for (const c of db.categories) {
    v.addText(c.name);
    v.addText(c.typeName);
  }
  const m = db.model;
  const seen = new Set<number>();
  for (let r = 0; r < m.records.count; r++) {
    const key = m.records.nameKey[r]!;
    if (!seen.has(key)) {
      seen.add(key);
      v.addText(db.block.text(key));
    }
  }
  const d = m.descriptors;
  for (let r = 0; r < m.records.count; r++) {
    const rows = db.runRows(r, GadbStorageCode.Block);
    if (rows.length === 0) continue;
    const base = db.recordCellStart[r]!;
    const own = m.records.cellCount[r]!;
    for (const row of rows) {
      if (!TEXT_TYPES.has(d.typeCode[row]! & GADB_TYPE_MASK)) continue;
      const link = d.link[row]!;
      for (let e = 0; e < d.elementCount[row]! && link + e < own; e++) {
        const key = m.cells[base + link + e]!;
        if (seen.has(key)) continue;
        seen.add(key);
        v.addText(db.block.text(key));
      }
    }
  }
  for (let digit = 0; digit <= 9; digit++) v.addText(String(digit));
  return v;
}

/** Field hashes of the database that its dictionary does not name, ascending. */
export function unnamedFieldHashes(db: Database): number[] {
  const out = new Set<number>();
  const d = db.model.descriptors;
  for (let row = 0; row < d.count; row++) {
    const h = d.declaredHash[row]!;
    if (!db.names.has(h)) out.add(h);
  }
  return [...out].sort((a, b) => a - b);
}

/** Distinct field hashes of the database and how many of them have a name. */
export function fieldNameCoverage(db: Database): { fields: number; named: number } {
  const all = new Set<number>();
  const d = db.model.descriptors;
  for (let row = 0; row < d.count; row++) all.add(d.declaredHash[row]!);
  let named = 0;
  for (const h of all) if (db.names.has(h)) named++;
  return { fields: all.size, named };
}

export interface GadbCrackOptions {
  /** Hashes to find names for. */
  targets: Iterable<number>;
  vocabulary: Vocabulary;
  /** Most words in a candidate (default 2). */
  maxWords?: number;
  /** Most vocabulary words used (most frequent first; default 5000). */
  maxVocabulary?: number;
  /** Stop after this many candidates (default 100 million). */
  budget?: number;
  table?: P919Table;
}

export interface GadbCrackHit {
  hash: number;
  /** The name in CamelCase; its P919 equals `hash` (checked). */
  name: string;
  /** Words it is made of. */
  words: number;
}

export interface GadbCrackResult {
  /** Hashes with exactly one candidate. */
  hits: GadbCrackHit[];
  /** Hashes with several different candidates: none is picked. */
  collisions: { hash: number; names: string[] }[];
  /** Candidates hashed. */
  tried: number;
  /** False when the budget stopped the search before every combination was tried. */
  complete: boolean;
  vocabulary: number;
  /** Hits chance alone would give: tried × targets / 2³². */
  expectedFalseHits: number;
}

/** An open-addressing set of u32 targets (a probe per candidate, no allocation). */
class TargetSet {
  readonly #slots: Uint32Array;
  readonly #used: Uint8Array;
  readonly #mask: number;
  readonly size: number;
  constructor(targets: Iterable<number>) {
    const list = [...new Set([...targets].map((t) => t >>> 0))];
    let cap = 16;
    while (cap < list.length * 4) cap *= 2;
    this.#slots = new Uint32Array(cap);
    this.#used = new Uint8Array(cap);
    this.#mask = cap - 1;
    this.size = list.length;
    for (const t of list) {
      let i = Math.imul(t, 0x9e3779b1) >>> 0 & this.#mask;
      while (this.#used[i]) i = (i + 1) & this.#mask;
      this.#slots[i] = t;
      this.#used[i] = 1;
    }
  }
  has(h: number): boolean {
    let i = Math.imul(h, 0x9e3779b1) >>> 0 & this.#mask;
    while (this.#used[i]) {
      if (this.#slots[i] === h) return true;
      i = (i + 1) & this.#mask;
    }
    return false;
  }
}

/** Looks for names of the target hashes among CamelCase combinations of the vocabulary's words. */
export function crackGadbFieldNames(options: GadbCrackOptions): GadbCrackResult {
  const table = options.table ?? DEFAULT_P919_TABLE;
  const targets = new TargetSet(options.targets);
  const maxWords = Math.max(1, options.maxWords ?? 2);
  const budget = options.budget ?? 100_000_000;
  const vocab = options.vocabulary
    .words()
    .filter((w) => canHashP919(w, { table }))
    .slice(0, options.maxVocabulary ?? 5000);
  const n = vocab.length;
  // Per word: its P919 and 919^length (mod 2^32).
  const wordHash = new Uint32Array(n);
  const wordMul = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    wordHash[i] = p919(vocab[i]!, { table });
    let m = 1;
    for (let k = 0; k < vocab[i]!.length; k++) m = Math.imul(m, 919);
    wordMul[i] = m >>> 0;
  }
  const found = new Map<number, Map<string, { name: string; words: number }>>();
  let tried = 0;
  const path: number[] = [];
  const record = (h: number): void => {
    const lower = path.map((i) => vocab[i]!).join('');
    const name = path.map((i) => options.vocabulary.display(vocab[i]!)).join('');
    // The name shown must hash to the target itself (never report a name whose hash does not match).
    if (!canHashP919(name, { table }) || p919(name, { table }) !== h) return;
    let m = found.get(h);
    if (!m) found.set(h, (m = new Map()));
    const prev = m.get(lower);
    if (!prev || prev.words > path.length) m.set(lower, { name, words: path.length });
  };
  let complete = true;
  // Depth by depth (all single words, then pairs, …), each depth over the most frequent words that its share of the
  // budget allows in every position.
  for (let depth = 1; depth <= maxWords; depth++) {
    const left = budget - tried;
    if (left <= 0) {
      complete = false;
      break;
    }
    let k = n;
    if (Math.pow(n, depth) > left) {
      k = Math.max(1, Math.floor(Math.pow(left, 1 / depth)));
      complete = false;
    }
    const walk = (h: number, level: number): void => {
      for (let i = 0; i < k; i++) {
        const hi = (Math.imul(h, wordMul[i]!) + wordHash[i]!) >>> 0;
        path.push(i);
        if (level === depth) {
          tried++;
          if (targets.has(hi)) record(hi);
        } else walk(hi, level + 1);
        path.pop();
      }
    };
    walk(0, 1);
  }
  const hits: GadbCrackHit[] = [];
  const collisions: GadbCrackResult['collisions'] = [];
  for (const [hash, m] of [...found].sort((a, b) => a[0] - b[0])) {
    const candidates = [...m.values()];
    if (candidates.length === 1) hits.push({ hash, name: candidates[0]!.name, words: candidates[0]!.words });
    else collisions.push({ hash, names: candidates.map((c) => c.name).sort() });
  }
  return { hits, collisions, tried, complete, vocabulary: n, expectedFalseHits: (tried * targets.size) / 2 ** 32 };
}
