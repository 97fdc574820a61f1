/**
 * Name lists from files: the user's `--names FILE` lists and the user config folder, for GameDB field hashes
 * (P919) and sd2 table and column ids (FFnv32).
 *
 * The config folder is `$SCRY_CONFIG`, else `$XDG_CONFIG_HOME/scry`, else `$HOME/.config/scry`, else
 * `%APPDATA%\scry`; every `*.txt` file in its `names/` subfolder is a name list for both kinds (a line names
 * whatever hash it matches), `*.json` files (Brutus or hash→name JSON) are sd2 lists. Names added in the workbench
 * are written to `names/workbench.txt` there, so the CLI sees them too. Only the environment decides the folder:
 * with none of those variables set there is no config folder (tests run that way).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { UsageError } from '../binary/errors.ts';
import type { P919Table } from '../hash/p919.ts';
import { formatHash, type NameDictionary, type NamesLoadReport } from '../gamedb/names.ts';
import type { Sd2Names } from '../staticdb/names.ts';
import { loadBuiltinNames } from './gamedb.ts';

/** The user config folder, or `undefined` when the environment names none. */
export function userConfigDir(env: Record<string, string | undefined>): string | undefined {
  if (env['SCRY_CONFIG']) return env['SCRY_CONFIG'];
  if (env['XDG_CONFIG_HOME']) return join(env['XDG_CONFIG_HOME'], 'scry');
  if (env['HOME']) return join(env['HOME'], '.config', 'scry');
  if (env['APPDATA']) return join(env['APPDATA'], 'scry');
  return undefined;
}

/** The list the workbench writes names added in the page to: `<config>/names/workbench.txt`. */
export function workbenchNamesFile(configDir: string): string {
  return join(configDir, 'names', 'workbench.txt');
}

/** The name lists in the names folder of config folder `configDir`, sorted by file name (none when it does not exist). */
export function userNameFiles(configDir: string | undefined): string[] {
  const dir = configDir === undefined ? undefined : join(configDir, 'names');
  if (dir === undefined || !existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => /\.(txt|json)$/i.test(f))
    .sort()
    .map((f) => join(dir, f));
}

function isJsonText(text: string): boolean {
  const t = text.replace(/^\uFEFF/, '').trimStart();
  return t.startsWith('{') || t.startsWith('[');
}

/** What loading one list file did. */
export interface NameFileReport {
  file: string;
  report: NamesLoadReport;
}

export interface GadbNamesOptions {
  table?: P919Table;
  /** Lists given by the user (`--names FILE`), loaded after the config folder's. */
  files?: string[];
  /** The user config folder (`userConfigDir(env)`; omit for none). */
  configDir?: string | undefined;
}

/**
 * A field-name dictionary: the shipped names, then the config folder's `*.txt` lists, then `files`. A JSON file
 * given in `files` is refused (JSON lists are sd2 lists); in the config folder it is skipped.
 */
export function loadGadbNames(options: GadbNamesOptions = {}): { names: NameDictionary; reports: NameFileReport[] } {
  const names = loadBuiltinNames(options.table);
  const reports: NameFileReport[] = [];
  const configured = userNameFiles(options.configDir);
  for (const file of [...configured, ...(options.files ?? [])]) {
    const text = readFileSync(file, 'utf8');
    if (isJsonText(text)) {
      if (configured.includes(file)) continue;
      throw new UsageError(`${file}: a JSON name list is an sd2 list; GameDB field names are plain text (one name, or 0xHASH<TAB>name, per line)`);
    }
    reports.push({ file, report: names.addText(text) });
  }
  return { names, reports };
}

/** Adds the config folder's lists, then `files` (any of the three sd2 formats), to `names`. */
export function loadSd2NameFiles(names: Sd2Names, files: string[], configDir?: string | undefined): void {
  for (const file of [...userNameFiles(configDir), ...files]) names.load(readFileSync(file, 'utf8'), basename(file));
}

/** Lines telling what a report skipped, for stderr (`file:line: …`). */
export function nameReportWarnings(r: NameFileReport): string[] {
  const out: string[] = [];
  const at = (line: number) => `${basename(r.file)}:${line}`;
  for (const u of r.report.unhashable) out.push(`${at(u.line)}: skipped ${JSON.stringify(u.name)}: ${u.reason}`);
  for (const m of r.report.mismatches) out.push(`${at(m.line)}: skipped ${JSON.stringify(m.name)}: its P919 is ${formatHash(m.hash)}, not the listed ${formatHash(m.listed)}`);
  return out;
}
