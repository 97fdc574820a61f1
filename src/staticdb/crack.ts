/**
 * A name cracker for unnamed table and column ids (what Brutus does, in-process): candidates are hashed with
 * FFnv32 and kept when they hit an unnamed id. Sources of candidates:
 *
 * 1. dictionary words as given and in lower, UPPER, Pascal, camel and snake forms;
 * 2. token permutations (tried last): 2…maxTokens tokens (from the words, split on `_`, `::` and camel humps) joined as
 *    snake (`a_b`), camel (`aB`), Pascal (`AB`) and plain lower (`ab`);
 * 3. `namespace::Table` for every namespace (from known table names, or given) and Pascal token combinations
 *    (tried before the generic permutations: they only have to name tables);
 * 4. words harvested from the database's own strings (split on `< > = " \ / . - _ NUL`, whitespace and humps).
 *
 * Prefixes are hashed once (FNV-1a is sequential), so a combination costs only its last token. Hits are
 * verified, not proven: a 32-bit hash collides (Brutus lists 13 such pairs), so every hit says how it was made.
 */
import type { StaticDb } from './database.ts';
import type { Sd2Names } from './names.ts';

const FNV_OFFSET = 0x811c9dc5;

function fnvUpdate(h: number, text: string): number {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h = Math.imul(h ^ (c > 0x7f ? 0x3f : c), 0x01000193);
  }
  return h;
}

function fnvFinish(h: number): number {
  const a = Math.imul(h, 8193);
  h = Math.imul(9, a ^ (a >>> 7));
  return Math.imul(33, h ^ (h >>> 17)) >>> 0;
}

/** Splits a name into lower-case tokens: `dbitems::WeaponStats_v2` → dbitems, weapon, stats, v2. */
export function sd2Tokens(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter((t) => t.length > 0)
    .map((t) => t.toLowerCase());
}

const cap = (t: string): string => (t.length ? t[0]!.toUpperCase() + t.slice(1) : t);

/** Words from the database's string cells (Brutus's "generate" idea), lower-cased, 2…32 characters. */
export function harvestSd2Words(db: StaticDb, options: { maxStrings?: number } = {}): string[] {
  const words = new Set<string>();
  let budget = options.maxStrings ?? 200_000;
  for (const t of db.tables()) {
    const cols = t.columns.filter((c) => c.type.kind === 'string');
    for (let r = 0; r < t.rowCount && budget > 0; r++) {
      for (const c of cols) {
        const v = t.cell(r, c.index);
        if (typeof v !== 'string') continue;
        budget--;
        for (const piece of v.split(/[<>="\\/.\-_\0\s,;:()[\]{}'!?]+/)) {
          if (piece.length < 2 || piece.length > 48) continue;
          words.add(piece);
          for (const tok of sd2Tokens(piece)) if (tok.length >= 2 && tok.length <= 32) words.add(tok);
        }
      }
    }
  }
  return [...words];
}

/** Table and column ids of a database that the names do not resolve. */
export function unnamedSd2Ids(db: StaticDb, names: Sd2Names): { tables: number[]; columns: number[] } {
  const tables = new Set<number>();
  const columns = new Set<number>();
  for (const t of db.tables()) {
    if (!names.has(t.id)) tables.add(t.id);
    for (const c of t.columns) if (!names.has(c.id)) columns.add(c.id);
  }
  return { tables: [...tables], columns: [...columns] };
}

export interface Sd2CrackOptions {
  /** Ids to find names for. */
  targets: Iterable<number>;
  /** Dictionary words (names, fragments, harvested strings). */
  words: Iterable<string>;
  /** Namespaces for `namespace::Table` (default: those of the words containing `::`; given ones replace them). */
  namespaces?: Iterable<string>;
  /** Longest token combination (default 2; 3 multiplies the work by the vocabulary size). */
  maxTokens?: number;
  /** Largest vocabulary used for combinations (most frequent tokens first; default 3000). */
  maxVocabulary?: number;
  /** Stop after this many hashes (default 50 million). */
  budget?: number;
}

export interface Sd2CrackHit {
  id: number;
  name: string;
  /** How the candidate was built: `word`, `tokens`, `namespace`. */
  method: string;
}

export interface Sd2CrackResult {
  hits: Sd2CrackHit[];
  /** Hashes computed. */
  tried: number;
  /** False when the budget stopped the search early. */
  complete: boolean;
  vocabulary: number;
  /**
   * Hits expected by chance alone: tried × targets / 2³². FFnv32 is 32 bits, so a long search against many ids
   * finds accidental collisions; hits are candidates to review, not proof.
   */
  expectedFalseHits: number;
}

/** Proposes names for the target ids. */
export function crackSd2Names(options: Sd2CrackOptions): Sd2CrackResult {
  const targets = new Set<number>([...options.targets].map((t) => t >>> 0));
  const budget = options.budget ?? 50_000_000;
  const maxTokens = Math.max(1, options.maxTokens ?? 2);
  const hits: Sd2CrackHit[] = [];
  const seen = new Set<string>();
  let tried = 0;
  const check = (h: number, make: () => string, method: string): void => {
    tried++;
    const id = fnvFinish(h);
    if (!targets.has(id)) return;
    const name = make();
    if (seen.has(name)) return;
    seen.add(name);
    hits.push({ id, name, method });
  };
  const words = [...new Set(options.words)];
  // Given namespaces replace the ones harvested from names containing `::`.
  const harvestNamespaces = options.namespaces === undefined;
  const namespaces = new Set<string>(options.namespaces ?? []);
  const tokenCount = new Map<string, number>();
  for (const w of words) {
    if (harvestNamespaces && w.includes('::')) namespaces.add(w.split('::')[0]!);
    for (const t of sd2Tokens(w)) tokenCount.set(t, (tokenCount.get(t) ?? 0) + 1);
  }
  // 1. words in their usual forms
  for (const w of words) {
    const toks = sd2Tokens(w);
    const forms = new Set([w, w.toLowerCase(), w.toUpperCase(), toks.map(cap).join(''), toks[0] ? toks[0] + toks.slice(1).map(cap).join('') : '', toks.join('_'), toks.join('_').toUpperCase()]);
    for (const f of forms) if (f) check(fnvUpdate(FNV_OFFSET, f), () => f, 'word');
  }
  const vocab = [...tokenCount.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, options.maxVocabulary ?? 3000).map(([t]) => t);
  const pascal = vocab.map(cap);
  const done = (): boolean => tried >= budget;
  // 2. token permutations, depth-first with hashed prefixes.
  const styles: { sep: string; first: string[]; rest: string[] }[] = [
    { sep: '_', first: vocab, rest: vocab },
    { sep: '', first: vocab, rest: pascal },
    { sep: '', first: pascal, rest: pascal },
    { sep: '', first: vocab, rest: vocab },
  ];
  const expand = (h: number, parts: string[], depth: number, style: (typeof styles)[number], method: string): void => {
    if (done()) return;
    const list = style.rest;
    for (let i = 0; i < list.length && !done(); i++) {
      const hp = fnvUpdate(style.sep ? fnvUpdate(h, style.sep) : h, list[i]!);
      check(hp, () => parts.join(style.sep) + style.sep + list[i]!, method);
      if (depth + 1 < maxTokens) expand(hp, [...parts, list[i]!], depth + 1, style, method);
    }
  };
  // 2. namespace::Table — every namespace with one token first (cheap), then deeper combinations.
  const pstyle = { sep: '', first: pascal, rest: pascal };
  for (const ns of namespaces) {
    const h0 = fnvUpdate(FNV_OFFSET, ns + '::');
    for (let i = 0; i < pascal.length && !done(); i++) check(fnvUpdate(h0, pascal[i]!), () => `${ns}::${pascal[i]!}`, 'namespace');
    for (const w of words) if (!done() && /^[A-Z]/.test(w) && !w.includes('::')) check(fnvUpdate(h0, w), () => `${ns}::${w}`, 'namespace');
  }
  if (maxTokens >= 2) {
    for (const ns of namespaces) {
      const h0 = fnvUpdate(FNV_OFFSET, ns + '::');
      for (let i = 0; i < pascal.length && !done(); i++) expand(fnvUpdate(h0, pascal[i]!), [`${ns}::${pascal[i]!}`], 1, pstyle, 'namespace');
    }
    // 3. token permutations in snake, camel, Pascal and plain lower case.
    for (const style of styles) {
      for (let i = 0; i < style.first.length && !done(); i++) expand(fnvUpdate(FNV_OFFSET, style.first[i]!), [style.first[i]!], 1, style, 'tokens');
    }
  }
  return { hits, tried, complete: !done(), vocabulary: vocab.length, expectedFalseHits: (tried * targets.size) / 2 ** 32 };
}
