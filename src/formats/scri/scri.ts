/**
 * `SCRI`: the container of one world layer's script (a standalone `<layer>.scripts` archive entry, or a section of
 * the layer's container). Layout (little-endian, `specs/hks.md` §1; fan document, confirmed by the community ImHex
 * pattern):
 *
 *   "SCRI" | u32 version (1) | u8 flag (1 = Lua source text, 0 = HavokScript bytecode) | u32 body length | body
 *
 * The body starts at offset 13 (not 4-aligned): a bytecode body's padding is relative to the chunk, not the file.
 * Bytes after the body are not expected; they are kept verbatim (`trailing`) and reported.
 */
import { FormatError } from '../../binary/errors.ts';
import { ByteReader } from '../../binary/reader.ts';
import { ByteWriter } from '../../binary/writer.ts';
import { utf8Decode } from '../../binary/text.ts';

const FMT = 'scri';
/** `"SCRI"`. */
export const SCRI_MAGIC = Uint8Array.of(0x53, 0x43, 0x52, 0x49);
/** Size of the fixed header; the body starts here. */
export const SCRI_HEADER_SIZE = 13;

/** What the flag byte says the body is. */
export const ScriBodyKind = {
  bytecode: 0,
  source: 1,
} as const;

export interface Scri {
  /** u32 at 4; 1 in every known file. */
  version: number;
  /** u8 at 8: 1 = Lua source text, 0 = bytecode chunk; other values kept as read. */
  flag: number;
  /** The body (length at offset 9 is its size). A view into the input when parsed. */
  body: Uint8Array;
  /** Bytes after the body; none known. */
  trailing: Uint8Array;
}

export interface ScriParseOptions {
  /**
   * Accept a file that ends before the declared body length (e.g. the first archive block of a large entry):
   * `body` is then what is there and `truncated` says how many bytes are missing. Default false (EofError).
   */
  allowTruncated?: boolean;
}

export interface ScriParseResult extends Scri {
  /** Bytes the declared body length promised beyond the end of the input (only with `allowTruncated`). */
  truncatedBy: number;
}

/** True when the bytes start with `"SCRI"`. */
export function isScri(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x53 && bytes[1] === 0x43 && bytes[2] === 0x52 && bytes[3] === 0x49;
}

/** Parses a SCRI container; `body` and `trailing` are views into `bytes`. */
export function parseScri(bytes: Uint8Array, options: ScriParseOptions = {}): ScriParseResult {
  const r = new ByteReader(bytes, { format: FMT });
  r.expectBytes(SCRI_MAGIC, '/magic');
  const version = r.u32('/version');
  const flag = r.u8('/flag');
  const lengthAt = r.pos;
  const length = r.u32('/bodyLength');
  if (length > r.remaining && !options.allowTruncated) {
    throw new FormatError(FMT, lengthAt, '/bodyLength', `body length ${length} exceeds the ${r.remaining} byte(s) after the header`, { actual: length });
  }
  const available = Math.min(length, r.remaining);
  const body = r.bytes(available, '/body');
  const trailing = r.bytes(r.remaining, '/trailing');
  return { version, flag, body, trailing, truncatedBy: length - available };
}

/** Writes a SCRI container (the body length is the body's size). */
export function writeScri(scri: Scri): Uint8Array {
  const w = new ByteWriter({ format: FMT, capacity: SCRI_HEADER_SIZE + scri.body.length + scri.trailing.length });
  w.bytes(SCRI_MAGIC).u32(scri.version).u8(scri.flag).u32(scri.body.length).bytes(scri.body).bytes(scri.trailing);
  return w.finish();
}

/** A body's text when the flag says source (bytes decoded as UTF-8, invalid sequences replaced). */
export function scriSourceText(scri: Scri): string {
  return utf8Decode(scri.body);
}
