/**
 * Node helpers for the gamedb layer: open a database from a path, and load the shipped names dictionary
 * (`src/gamedb/names/fields.txt`) or a user's plain-text list. The library itself never touches the file system:
 * a `.gamedb` normally lives inside an archive, so `Database.open(bytes)` is the general entry.
 */
import { readFileSync } from 'node:fs';
import { Database, type DatabaseOptions } from '../gamedb/database.ts';
import { NameDictionary, type NamesLoadReport } from '../gamedb/names.ts';
import type { P919Table } from '../hash/p919.ts';
import { readBytes } from './fs.ts';

/** Where the shipped field-name list lives. */
export const BUILTIN_NAMES_URL = new URL('../gamedb/names/fields.txt', import.meta.url);

/** A dictionary holding the shipped names (33 field names confirmed on the real sample). */
export function loadBuiltinNames(table?: P919Table): NameDictionary {
  const names = new NameDictionary(table);
  names.addText(readFileSync(BUILTIN_NAMES_URL, 'utf8'));
  return names;
}

/** Adds the names of a plain-text list file to `names`. */
export function addNamesFile(names: NameDictionary, path: string): NamesLoadReport {
  return names.addText(readFileSync(path, 'utf8'));
}

/** Opens the database in the file at `path` (`.gamedb`, `.fxp`, `.bvr`), with the shipped names unless given. */
export function openDatabaseFile(path: string, options: DatabaseOptions = {}): Database {
  const names = options.names ?? loadBuiltinNames(options.table);
  return Database.open(readBytes(path), { ...options, names });
}
