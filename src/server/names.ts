/**
 * The names a workbench run knows: one field-name dictionary (P919) shared by every GameDB file it serves, and one
 * sd2 dictionary (FFnv32) shared by every static database. Both start from the shipped list, the user config
 * folder's lists and `--names FILE` (`src/node/names.ts`); names added in the page join both and are appended to
 * the config folder's `names/workbench.txt`, so the next run and the CLI know them too.
 *
 * Views that cache names (column headers) key their caches on `NameDictionary.size`, which grows with every newly
 * named hash.
 */
import { existsSync, readFileSync } from 'node:fs';
import { formatHash, type NameDictionary, type NamesLoadReport } from '../gamedb/names.ts';
import type { Database } from '../gamedb/database.ts';
import { crackGadbFieldNames, gadbVocabulary, unnamedFieldHashes } from '../gamedb/crack.ts';
import type { CrackAnswer } from './api-types.ts';
import { Sd2Names } from '../staticdb/names.ts';
import { writeFileAtomic } from '../node/fs.ts';
import { loadGadbNames, loadSd2NameFiles, workbenchNamesFile, type NameFileReport } from '../node/names.ts';

export interface WorkbenchNamesOptions {
  /** `--names FILE` lists (plain text for both kinds; JSON lists are sd2 lists). */
  files?: string[];
  /** sd2-only lists (`$SCRY_SD2_NAMES`, the sd2 sample's list). */
  sd2Files?: string[];
  /** The user config folder; `undefined`: names added in the page last for this run only. */
  configDir?: string | undefined;
}

/** What adding names did. */
export interface AddNamesResult {
  gadb: NamesLoadReport;
  /** Names the sd2 dictionary accepted. */
  sd2: number;
  /** Whether the names were appended to the config folder's `names/workbench.txt`. */
  saved: boolean;
}

export class WorkbenchNames {
  readonly gadb: NameDictionary;
  readonly sd2 = new Sd2Names();
  readonly reports: NameFileReport[];
  readonly configDir: string | undefined;

  constructor(options: WorkbenchNamesOptions = {}) {
    this.configDir = options.configDir;
    const files = options.files ?? [];
    const isJson = (f: string) => /^\uFEFF?\s*[[{]/.test(readFileSync(f, 'utf8').slice(0, 64));
    const loaded = loadGadbNames({ files: files.filter((f) => !isJson(f)), configDir: this.configDir });
    this.gadb = loaded.names;
    this.reports = loaded.reports;
    loadSd2NameFiles(this.sd2, [...(options.sd2Files ?? []), ...files], this.configDir);
  }

  /**
   * Adds a list (one name or `0xHASH<TAB>name` per line) to both dictionaries and, when there is a config folder,
   * appends the lines that named something to `names/workbench.txt` there.
   */
  add(text: string): AddNamesResult {
    const gadb = this.gadb.addText(text);
    const sd2Before = this.sd2.size;
    this.sd2.load(text.split(/\r?\n/).filter((l) => !/^\s*#/.test(l)).join('\n'), 'workbench');
    const sd2 = this.sd2.size - sd2Before;
    let saved = false;
    const refused = new Set([...gadb.mismatches.map((m) => m.line), ...gadb.unhashable.map((u) => u.line)]);
    const keep = text
      .split(/\r?\n/)
      .map((l, i) => ({ l: l.trim(), line: i + 1 }))
      .filter((x) => x.l.length > 0 && !x.l.startsWith('#') && !refused.has(x.line))
      .map((x) => x.l);
    if (this.configDir !== undefined && keep.length > 0) {
      const file = workbenchNamesFile(this.configDir);
      const before = existsSync(file) ? readFileSync(file, 'utf8') : '# names added in the scry workbench (one name, or 0xHASH<TAB>name, per line)\n';
      writeFileAtomic(file, before + (before.endsWith('\n') ? '' : '\n') + keep.join('\n') + '\n', { overwrite: true, backup: false });
      saved = true;
    }
    return { gadb, sd2, saved };
  }
}

/** What the name finder's worker is given: the file, the run's names as a list, the most words per candidate. */
export interface CrackRequest {
  path: string;
  /** `0xHASH<TAB>name` lines of the run's dictionary. */
  names: string;
  maxWords: number;
}

/** One run of the GameDB name finder, as the page receives it (less `ms` and `worker`). */
export type CrackRun = Omit<CrackAnswer, 'ms' | 'worker'>;

/** Runs the GameDB field-name cracker over `db` (its own words and its dictionary's names). */
export function crackInline(db: Database, maxWords: number): CrackRun {
  const r = crackGadbFieldNames({ targets: unnamedFieldHashes(db), vocabulary: gadbVocabulary(db), maxWords, table: db.table });
  return {
    hits: r.hits.map((h) => ({ hex: formatHash(h.hash), name: h.name, how: `${h.words} word${h.words === 1 ? '' : 's'}` })),
    collisions: r.collisions.map((c) => ({ hex: formatHash(c.hash), names: c.names })),
    tried: r.tried,
    complete: r.complete,
    vocabulary: r.vocabulary,
    expectedFalseHits: r.expectedFalseHits,
  };
}

/** The dictionary as `0xHASH<TAB>name` lines (every name of every hash), for a worker. */
export function dictionaryText(names: NameDictionary): string {
  const lines: string[] = [];
  for (const e of names.entries()) for (const n of names.all(e.hash)) lines.push(`${formatHash(e.hash)}\t${n}`);
  return lines.join('\n');
}
