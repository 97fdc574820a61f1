/**
 * The one rule for file names the user gives the workbench (save dialog): a plain name that every operating
 * system the workbench runs on can hold and that displays as what it is. Refusals say which rule a name breaks.
 */
import { UsageError } from '../binary/errors.ts';

/** Longest name accepted (NTFS and ext4 allow 255 bytes; a margin for `~2` suffixes, `.bak` and temp names). */
export const MAX_FILE_NAME = 200;

/** Device names Windows reserves, with any extension (`nul.fxp` opens the null device there). */
const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])$/i;

/** Characters that change how text displays without being seen: bidi controls, zero-width characters, BOM. */
const INVISIBLE = /[\u061C\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/;

const codePoint = (c: string) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

/** Returns `name` when it is a plain file name; otherwise throws a `UsageError` saying why not. */
export function checkPlainFileName(name: string): string {
  const shown = JSON.stringify(name.length > 60 ? name.slice(0, 57) + '…' : name);
  if (name.length === 0) throw new UsageError('give a file name');
  const control = /[\u0000-\u001F\u007F-\u009F]/.exec(name);
  if (control) throw new UsageError(`${shown} contains a control character (${codePoint(control[0])} at ${control.index}): names are one line of visible text`);
  const invisible = INVISIBLE.exec(name);
  if (invisible) throw new UsageError(`${shown} contains ${codePoint(invisible[0])} at ${invisible.index}, an invisible character that makes a name display differently from what it is`);
  const separator = /[/\\:*?"<>|]/.exec(name);
  if (separator) throw new UsageError(`not a plain file name: ${shown} contains ${JSON.stringify(separator[0])} (a folder separator or a character Windows refuses)`);
  if (name.startsWith('.')) throw new UsageError(`${shown} starts with a dot (a hidden file on Linux and macOS)`);
  if (/^\s/.test(name)) throw new UsageError(`${shown} starts with a space`);
  if (/[. ]$/.test(name)) throw new UsageError(`${shown} ends with a dot or a space, which Windows drops`);
  const stem = name.split('.')[0]!;
  if (WINDOWS_RESERVED.test(stem)) throw new UsageError(`${shown}: ${stem.toUpperCase()} is reserved on Windows (a device name, with any extension)`);
  if (name.length > MAX_FILE_NAME) throw new UsageError(`a file name has at most ${MAX_FILE_NAME} characters (this one has ${name.length})`);
  return name;
}
