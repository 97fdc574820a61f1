/**
 * Reading a command's input file. The format registry decides what the file is: a file that is plainly another
 * format (by its magic) is refused with a message naming what it is and which command group reads it, instead of
 * the parser's "expected magic …"; a folder or a missing file gets a sentence, not a bare EISDIR/ENOENT.
 */
import { statSync } from 'node:fs';
import { FormatError, VfsError } from '../binary/errors.ts';
import { FORMAT_HEAD_SIZE, formatById, formatOfBytes, type FormatId } from '../formats/registry.ts';
import { lockFile, readBytes, readHead } from '../node/fs.ts';
import type { CommandContext } from './command.ts';
import { readGadbFile } from '../node/gamedb.ts';

/** Command groups that read each format, for the hint. */
const COMMAND_OF: Partial<Record<FormatId, string>> = {
  gadb: 'scry db …',
  sd2: 'scry sd2 …',
  hks: 'scry script …',
  arch06: 'scry arch …',
  bndl: 'scry arch bndl',
  embb: 'scry arch embb',
  strdb: 'scry arch strdb',
  apl: 'scry arch index',
};

/** Throws unless `path` is a regular file (a folder or a missing path is named in plain words). */
export function checkInputFile(path: string, shown = path): void {
  let st;
  try {
    st = statSync(path);
  } catch (e) {
    if ((e as { code?: string }).code === 'ENOENT') throw new VfsError('ENOENT', path, `${shown}: no such file`);
    throw e;
  }
  if (st.isDirectory()) throw new VfsError('EISDIR', path, `${shown} is a folder; give the path of a file inside it`);
  if (!st.isFile()) throw new VfsError('ENOTFILE', path, `${shown} is not a regular file`);
}

/** Refuses `head` when the registry recognises it as a format other than `expected`. */
export function checkInputFormat(head: Uint8Array, expected: FormatId, shown: string): void {
  const found = formatOfBytes(head);
  if (!found || found.id === expected) return;
  const want = formatById(expected);
  const use = COMMAND_OF[found.id];
  throw new FormatError(expected, 0, '/magic', `${shown} is a ${found.title}, not a ${want.title}${use ? `: read it with ${use}` : ''}`);
}

/** Reads a whole input file of the `expected` format (see `checkInputFormat`). */
export function readInputFile(path: string, expected: FormatId, shown = path): Uint8Array {
  checkInputFile(path, shown);
  // GADB files are placed so that the value section is 4-aligned: the parsed model then views the cells.
  const bytes = expected === 'gadb' ? readGadbFile(path) : readBytes(path);
  checkInputFormat(bytes.subarray(0, FORMAT_HEAD_SIZE), expected, shown);
  return bytes;
}

/** Checks a file that a command reads lazily (an archive): a regular file, not plainly another format. */
export function checkLazyInput(path: string, expected: FormatId, shown = path): void {
  checkInputFile(path, shown);
  checkInputFormat(readHead(path, FORMAT_HEAD_SIZE), expected, shown);
}

/**
 * Takes the exclusive lock of a file the command will update in place (read, edit, write back), held until the
 * command ends: a second writer waits for it, then is refused, so no edit is lost.
 */
export function lockForUpdate(ctx: CommandContext, path: string): void {
  const lock = lockFile(path);
  ctx.onDone(() => lock.release());
}
