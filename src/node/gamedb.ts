/**
 * Node helpers for the gamedb layer: open a database from a path, write a model to a file without holding the
 * file in memory, and load the shipped names dictionary
 * (`src/gamedb/names/fields.txt`) or a user's plain-text list. The library itself never touches the file system:
 * a `.gamedb` normally lives inside an archive, so `Database.open(bytes)` is the general entry.
 */
import { closeSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { gadbValueSectionOffset } from '../formats/gadb/parse.ts';
import { writeGadbTo, type WriteGadbToOptions } from '../formats/gadb/write.ts';
import type { Gadb } from '../formats/gadb/types.ts';
import { Database, type DatabaseOptions } from '../gamedb/database.ts';
import { NameDictionary, type NamesLoadReport } from '../gamedb/names.ts';
import type { P919Table } from '../hash/p919.ts';
import { writeFileAtomicStream, type AtomicWriteOptions } from './fs.ts';

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
  return Database.open(readGadbFile(path), { ...options, names });
}

/**
 * Reads a whole GADB file (`.gamedb`, `.fxp`, `.bvr`; any other file is read as it is) into a buffer placed so
 * that the database's value section is 4-aligned in memory: `parseGadb` then views the cells instead of copying
 * them. The result is a `Uint8Array` whose `byteOffset` may be 1 to 3.
 */
export function readGadbFile(path: string): Uint8Array {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const head = new Uint8Array(Math.min(size, 4096));
    const got = readSync(fd, head, 0, head.length, 0);
    const at = gadbValueSectionOffset(head.subarray(0, got));
    const shift = at < 0 ? 0 : (4 - (at & 3)) & 3;
    const out = new Uint8Array(new ArrayBuffer(size + shift), shift, size);
    let done = 0;
    while (done < size) {
      const n = readSync(fd, out, done, size - done, done);
      if (n === 0) break;
      done += n;
    }
    return done < size ? out.subarray(0, done) : out;
  } finally {
    closeSync(fd);
  }
}

/**
 * Writes `g` to the file at `path` as `writeGadb` would, byte for byte, streamed through `writeGadbTo` (the file
 * never exists whole in memory: at most the writer's chunk buffer beside the model) and atomically as every scry
 * write (`writeFileAtomicStream`: a locked temporary file, fsynced, renamed; an existing file is replaced only with
 * `overwrite`, keeping a `.bak`). A model `validateGadb` refuses throws its `ConsistencyError` and leaves the
 * target as it was. Returns the number of bytes written.
 */
export function writeGadbFile(path: string, g: Gadb, options: WriteGadbToOptions & AtomicWriteOptions = {}): number {
  let size = 0;
  writeFileAtomicStream(path, (write) => {
    size = writeGadbTo(g, { write }, options);
  }, options);
  return size;
}
