/**
 * P919: the engine's 32-bit name hash (category, record and field names; resource paths).
 *
 *     h = seed (0 for names and paths)
 *     for each byte c:  h = (h * 919 + int8(LUT[c])) mod 2^32
 *
 * No length, no terminator, no final mixing. The table folds case. Spec: shared/specs/gadb.md §1.
 *
 * How sure we are, per table entry (`P919Table.status`):
 * - `verified`: letters, digits, space, `_ - + \ .` reproduce 11,500 real (string, hash) pairs [V];
 * - `unknown`: the 27 other printable characters (`/` among them). Their values are very probably the 27 unused
 *   values {41, 43..54, 56..69} in an unknown order. Hashing a string that contains one raises a `HashError`
 *   naming the character, never a silent 0. `calibrateP919` derives them from real pairs;
 * - `inferred`: bytes 0x00..0x1F and 0x7F..0xFF are 0 by the fan document's "95 non-zero entries" [I];
 *   refused unless `allowInferred` is set;
 * - `calibrated`: derived by `calibrateP919` from pairs the user supplied (e.g. a real database's category keys).
 */
import { HashError } from '../binary/errors.ts';
import { findNonLatin1, latin1Encode } from '../binary/text.ts';

export type LutStatus = 'verified' | 'inferred' | 'unknown' | 'calibrated';

/** A P919 lookup table with the provenance of each of its 256 entries. */
export interface P919Table {
  /** The 256 table values (int8 semantics: values are kept in -128..127). */
  readonly values: Int8Array;
  /** Provenance of each entry. */
  readonly status: readonly LutStatus[];
  /** Where calibrated entries came from (free text), when any. */
  readonly calibrationSource?: string;
}

/** Verified table entries (spec §1.2): byte → value. All other printable bytes are unknown. */
const VERIFIED_ENTRIES: ReadonlyArray<readonly [string, number]> = [
  [' ', 37],
  ['+', 40],
  ['-', 39],
  ['.', 55],
  ['\\', 42],
  ['_', 38],
  ...Array.from('0123456789', (c, i) => [c, 27 + i] as const),
  ...Array.from('abcdefghijklmnopqrstuvwxyz', (c, i) => [c, 1 + i] as const),
  ...Array.from('ABCDEFGHIJKLMNOPQRSTUVWXYZ', (c, i) => [c, 1 + i] as const),
];

/** The 27 printable characters whose values no public data pins. */
export const P919_UNKNOWN_CHARACTERS = '!"#$%&\'()*,/:;<=>?@[]^`{|}~';

/** The table values not used by any verified entry: the probable values of the 27 unknown characters [I]. */
export const P919_UNUSED_VALUES: readonly number[] = [41, ...Array.from({ length: 12 }, (_, i) => 43 + i), ...Array.from({ length: 14 }, (_, i) => 56 + i)];

function buildDefaultTable(): P919Table {
  const values = new Int8Array(256);
  const status: LutStatus[] = new Array<LutStatus>(256).fill('inferred');
  for (const c of P919_UNKNOWN_CHARACTERS) status[c.charCodeAt(0)] = 'unknown';
  for (const [c, v] of VERIFIED_ENTRIES) {
    values[c.charCodeAt(0)] = v;
    status[c.charCodeAt(0)] = 'verified';
  }
  return { values, status };
}

/** The recovered table: verified entries, unknown punctuation, inferred zeros. */
export const DEFAULT_P919_TABLE: P919Table = buildDefaultTable();

export interface P919Options {
  table?: P919Table;
  /** Initial value (0 for names and paths). */
  seed?: number;
  /** Hash bytes whose table value is only inferred (0x00..0x1F, 0x7F..0xFF) as 0 instead of refusing. */
  allowInferred?: boolean;
}

/**
 * The bytes the engine hashes for a name: the bytes stored in the file, which every format reads as Latin-1
 * (identical to ASCII for every known name). A char above U+00FF cannot be stored, so it cannot be hashed either.
 */
export function nameBytes(text: string): Uint8Array {
  const at = findNonLatin1(text);
  if (at >= 0) throw new HashError(`cannot hash ${JSON.stringify(text)}: character U+${text.charCodeAt(at).toString(16).toUpperCase().padStart(4, '0')} at position ${at} is above U+00FF, which no name can hold (names are Latin-1 bytes)`, text[at]!, at);
  return latin1Encode(text, { format: 'p919', path: '/' });
}

function describeChar(byte: number): string {
  return byte >= 0x20 && byte < 0x7f ? `'${String.fromCharCode(byte)}' (0x${byte.toString(16).padStart(2, '0')})` : `byte 0x${byte.toString(16).padStart(2, '0')}`;
}

/**
 * P919 of a string or byte sequence, as an unsigned 32-bit number. Throws a `HashError` when the input contains a
 * character whose table value is unknown (or only inferred, unless `allowInferred`).
 */
export function p919(input: string | Uint8Array, options: P919Options = {}): number {
  const table = options.table ?? DEFAULT_P919_TABLE;
  const bytes = typeof input === 'string' ? nameBytes(input) : input;
  const { values, status } = table;
  let h = options.seed ?? 0;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i]!;
    const s = status[c];
    if (s === 'unknown' || (s === 'inferred' && !options.allowInferred)) {
      const shown = typeof input === 'string' ? JSON.stringify(input) : `${bytes.length} bytes`;
      const why =
        s === 'unknown'
          ? `its P919 table value is unknown (calibrate the table from a real database: scry hash calibrate FILE)`
          : `its P919 table value is only inferred as 0 (pass allowInferred / --allow-inferred to hash it as 0)`;
      throw new HashError(`cannot hash ${shown}: character ${describeChar(c)} at position ${i}: ${why}`, String.fromCharCode(c), i);
    }
    h = (Math.imul(h, 919) + values[c]!) | 0;
  }
  return h >>> 0;
}

/** P919 without checks, for hot paths over names already known to be hashable (no table statuses consulted). */
export function p919Unchecked(bytes: Uint8Array, values: Int8Array = DEFAULT_P919_TABLE.values, seed = 0): number {
  let h = seed;
  for (let i = 0; i < bytes.length; i++) h = (Math.imul(h, 919) + values[bytes[i]!]!) | 0;
  return h >>> 0;
}

/** Whether every byte of `text` has a usable table value. */
export function canHashP919(input: string | Uint8Array, options: P919Options = {}): boolean {
  const table = options.table ?? DEFAULT_P919_TABLE;
  const bytes = typeof input === 'string' ? nameBytes(input) : input;
  for (const c of bytes) {
    const s = table.status[c];
    if (s === 'unknown' || (s === 'inferred' && !options.allowInferred)) return false;
  }
  return true;
}
