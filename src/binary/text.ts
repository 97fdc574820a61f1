/**
 * The one text module: how scry turns bytes into strings and back for every format, and how it prints 32-bit
 * values. Formats store text in three ways:
 *
 * - **Latin-1** (one char per byte, so any byte sequence decodes and re-encodes exactly): archive and bundle
 *   names, sd2 patch names, HavokScript strings, GameDB text items. A string holding a char above U+00FF cannot
 *   be written in Latin-1; writers **refuse** it (a `ConsistencyError`) and validators report it, rather than
 *   masking the char to 8 bits (`€` → `¬`).
 * - **C strings**: Latin-1 followed by a NUL, so a NUL inside the text cannot be written either.
 * - **UTF-8** (sd2 string cells, SCRI source): a string with a lone surrogate has no UTF-8 form and is refused.
 *
 * Decoders never fail on text (Latin-1 takes every byte); encoders check and say which char at which index of
 * which field cannot be held, so a modder can rename it.
 */
import { ConsistencyError, type Issue } from './errors.ts';

/** Where a text lives, for the message of a refusal: the format id and the field path. */
export interface TextField {
  format: string;
  path: string;
}

// TextDecoder's 'latin1' label is windows-1252, which equals Latin-1 only below 0x80: it decodes ASCII fast.
const asciiDecoder = new TextDecoder('latin1');
const utf8Decoder = new TextDecoder('utf-8');
const utf8Encoder = new TextEncoder();
/** Chars per `String.fromCharCode` call: well under the engine's argument limit. */
const CHUNK = 8192;

function isAscii(bytes: Uint8Array): boolean {
  const n = bytes.length;
  // four bytes per step over the aligned middle (tables of paths run to megabytes)
  let i = Math.min(n, (4 - (bytes.byteOffset & 3)) & 3);
  for (let k = 0; k < i; k++) if (bytes[k]! >= 0x80) return false;
  const words = (n - i) >> 2;
  if (words > 0) {
    const w = new Uint32Array(bytes.buffer, bytes.byteOffset + i, words);
    for (let k = 0; k < words; k++) if ((w[k]! & 0x80808080) !== 0) return false;
    i += words * 4;
  }
  for (; i < n; i++) if (bytes[i]! >= 0x80) return false;
  return true;
}

/** Latin-1 text of `bytes`: one char per byte, U+0000–U+00FF, reversible with `latin1Encode`. */
export function latin1Decode(bytes: Uint8Array): string {
  // One flat string: `+=` one character at a time past 12 characters builds a rope (a ConsString per character,
  // ~20 bytes each) that a cache of decoded names then keeps.
  if (bytes.length < 32) return String.fromCharCode.apply(null, bytes as unknown as number[]);
  if (isAscii(bytes)) return asciiDecoder.decode(bytes);
  let s = '';
  for (let i = 0; i < bytes.length; i += CHUNK) s += String.fromCharCode.apply(null, bytes.subarray(i, Math.min(bytes.length, i + CHUNK)) as unknown as number[]);
  return s;
}

/** Longest text `latin1DecodeRange` decodes through a scratch code array (longer ones through a view). */
const RANGE_CODES_MAX = 256;
/**
 * Scratch code arrays for `latin1DecodeRange`, one per length up to `RANGE_CODES_MAX`, made on first use (reused:
 * `apply` copies them; at most 33 K numbers in all).
 */
const RANGE_CODES: Array<number[] | undefined> = new Array<number[] | undefined>(RANGE_CODES_MAX + 1).fill(undefined);

/**
 * `latin1Decode(bytes.subarray(start, end))` without making a view for a text of up to 256 bytes: a reader decoding
 * hundreds of thousands of texts would otherwise leave typed-array objects behind for each (the view, and the
 * word view `isAscii` makes: 17 MB of garbage for the game database's texts, which grows V8's young generation).
 */
export function latin1DecodeRange(bytes: Uint8Array, start: number, end: number): string {
  const n = end - start;
  if (n > RANGE_CODES_MAX || n < 0) return latin1Decode(bytes.subarray(start, end));
  const codes = (RANGE_CODES[n] ??= new Array<number>(n).fill(0));
  for (let i = 0; i < n; i++) codes[i] = bytes[start + i]!;
  return String.fromCharCode.apply(null, codes);
}

/** Index of the first char of `text` above U+00FF (or, with `nul`, a NUL), or -1 when Latin-1 holds it all. */
export function findNonLatin1(text: string, options: { nul?: boolean } = {}): number {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 0xff || (options.nul === true && c === 0)) return i;
  }
  return -1;
}

/** The code point at `index` as `U+XXXX` (a surrogate pair as one code point). */
function describeCodePoint(text: string, index: number): string {
  const cp = text.codePointAt(index) ?? 0;
  const shown = cp >= 0x20 && cp !== 0x7f && !(cp >= 0xd800 && cp <= 0xdfff) ? ` ${JSON.stringify(String.fromCodePoint(cp))}` : '';
  return `U+${cp.toString(16).toUpperCase().padStart(4, '0')}${shown}`;
}

/** Short form of a text for messages (long texts are cut, with the length). */
function shortText(text: string): string {
  return text.length <= 80 ? JSON.stringify(text) : `${JSON.stringify(text.slice(0, 77))}… (${text.length} chars)`;
}

/**
 * The issue a validator reports for a text that Latin-1 (or, with `nul`, a C string) cannot hold, or undefined.
 * Rule `text.latin1`; the same issue is what `latin1Encode` refuses with.
 */
export function latin1Issue(text: string, path: string, options: { nul?: boolean } = {}): Issue | undefined {
  const at = findNonLatin1(text, options);
  if (at < 0) return undefined;
  const what = text.charCodeAt(at) === 0 ? 'a NUL, which ends a C string' : `${describeCodePoint(text, at)}, which Latin-1 (one byte per char) cannot hold`;
  return { rule: 'text.latin1', message: `${shortText(text)} has ${what} at index ${at}; rename it with chars U+0001–U+00FF`, path, severity: 'error' };
}

/** Latin-1 bytes of `text`; refuses (ConsistencyError naming the field) a char above U+00FF. */
export function latin1Encode(text: string, field: TextField): Uint8Array {
  const out = new Uint8Array(text.length);
  latin1EncodeInto(text, out, 0, field);
  return out;
}

/** Writes the Latin-1 bytes of `text` into `out` at `at` and returns the end; refuses a char above U+00FF. */
export function latin1EncodeInto(text: string, out: Uint8Array, at: number, field: TextField, options: { nul?: boolean } = {}): number {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 0xff || (options.nul === true && c === 0)) throw new ConsistencyError(field.format, [latin1Issue(text, field.path, options)!]);
    out[at++] = c;
  }
  return at;
}

/** Latin-1 bytes of `text` followed by a NUL; refuses a char above U+00FF or a NUL inside the text. */
export function cstringEncode(text: string, field: TextField): Uint8Array {
  const out = new Uint8Array(text.length + 1);
  latin1EncodeInto(text, out, 0, field, { nul: true });
  return out;
}

/** Index of the NUL that ends the C string starting at `start` (searching below `end`), or -1. */
export function cstringEnd(bytes: Uint8Array, start = 0, end = bytes.length): number {
  const at = bytes.subarray(start, end).indexOf(0);
  return at < 0 ? -1 : start + at;
}

/** Latin-1 bytes of a constant of the toolkit (a magic, a known name): must be Latin-1, else a bug. */
export function latin1Constant(text: string): Uint8Array {
  const at = findNonLatin1(text);
  if (at >= 0) throw new Error(`constant ${JSON.stringify(text)} is not Latin-1 (index ${at})`);
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
  return out;
}

/** UTF-8 text of `bytes`; malformed sequences become U+FFFD (keep the bytes where the model must round-trip). */
export function utf8Decode(bytes: Uint8Array): string {
  return utf8Decoder.decode(bytes);
}

/** True when `bytes` is well-formed UTF-8 (so `utf8Decode` is reversible). */
export function isUtf8(bytes: Uint8Array): boolean {
  try {
    strictUtf8Decoder.decode(bytes);
    return true;
  } catch {
    return false;
  }
}
const strictUtf8Decoder = new TextDecoder('utf-8', { fatal: true });

/** Index of the first lone surrogate of `text` (which UTF-8 cannot hold), or -1. */
export function findLoneSurrogate(text: string): number {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        i++;
        continue;
      }
      return i;
    }
    if (c >= 0xdc00 && c <= 0xdfff) return i;
  }
  return -1;
}

/** The issue a validator reports for a text that UTF-8 cannot hold (a lone surrogate), or undefined. */
export function utf8Issue(text: string, path: string): Issue | undefined {
  const at = findLoneSurrogate(text);
  if (at < 0) return undefined;
  return { rule: 'text.utf8', message: `${shortText(text)} has a lone surrogate ${describeCodePoint(text, at)} at index ${at}, which UTF-8 cannot hold`, path, severity: 'error' };
}

/** UTF-8 bytes of `text`; refuses a lone surrogate (TextEncoder would write U+FFFD in its place). */
export function utf8Encode(text: string, field: TextField): Uint8Array {
  const issue = utf8Issue(text, field.path);
  if (issue) throw new ConsistencyError(field.format, [issue]);
  return utf8Encoder.encode(text);
}

/**
 * The shortest decimal text that reads back as the same f32 (`Math.fround`): how every f32 value is shown, so a
 * value on screen is a value that round-trips (0.001, not 0.0010000000474974513; 1e11 as 100000000000, not
 * 99999997952). NaN and infinities print as JavaScript does; -0 as `-0`.
 */
export function formatF32(x: number): string {
  if (!Number.isFinite(x)) return String(x);
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  const f = Math.fround(x);
  for (let p = 1; p <= 9; p++) {
    const candidate = parseFloat(f.toPrecision(p));
    if (Math.fround(candidate) === f) return String(candidate);
  }
  return String(f);
}

/** The number `formatF32` prints: the shortest decimal with the same f32 (for JSON; NaN and infinities unchanged). */
export function shortestF32(x: number): number {
  return Number.isFinite(x) ? Number(formatF32(x)) : x;
}

/** A 32-bit value the way every listing prints hashes and ids: `0x%08X`. */
export function hex32(value: number): string {
  return '0x' + (value >>> 0).toString(16).toUpperCase().padStart(8, '0');
}

/** Bytes as lowercase hex without separators (`de ad` → `dead`). */
export function bytesToHex(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i++) s += (bytes[i]! < 16 ? '0' : '') + bytes[i]!.toString(16);
  return s;
}

/**
 * The JSON.stringify replacer of every JSON scry emits (CLI and server): bigint as a decimal string, bytes as hex,
 * Map as an object, Set as an array, NaN/±Infinity as their names.
 */
export function jsonReplacer(_key: string, value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Uint8Array) return bytesToHex(value);
  if (value instanceof Map) return Object.fromEntries(value);
  if (value instanceof Set) return [...value];
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  return value;
}
