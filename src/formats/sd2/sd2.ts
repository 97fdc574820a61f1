/**
 * Firefall static database (`clientdb.sd2`), file versions 7, 11, 12 and memory versions 1000, 1002.
 * Little-endian throughout. Layout and confidence: `README.md` here and the project spec `sd2.md`.
 *
 *   Header (128 bytes) ‖ Payload
 *   Payload  --XOR sd2Keystream(FFnv32(patch)) if flags & 1-->  [u32 inflatedSize, u32 unk04] (absent in v7)
 *            ‖ zlib header (2 bytes) ‖ raw deflate ‖ [Adler-32, optional]     (flags & 4; else the image raw)
 *   Image    = u32 memoryVersion ‖ u16 T ‖ TableInfo[T] ‖ FieldInfo[ΣF] ‖ RowInfo[T] ‖ u32 poolOffset
 *              ‖ 33 reserved bytes ‖ row blocks ‖ pool
 *
 * The model keeps each table's rows as raw bytes (a view into the inflated image: zero-copy) and the pool as raw
 * stored (still obfuscated) bytes; `src/staticdb` decodes cells lazily. `parseSd2` therefore decodes only the
 * header, the compression and the info section.
 *
 * Error offsets: header and payload errors give file offsets; memory image errors give offsets inside the
 * inflated image and paths starting with `/image`.
 */
import { Inflate, inflateSync, deflateSync } from 'fflate';
import { ByteReader } from '../../binary/reader.ts';
import { latin1Decode, latin1EncodeInto, latin1Issue } from '../../binary/text.ts';
import { ConsistencyError, FormatError, UnsupportedError, type Issue } from '../../binary/errors.ts';
import { ffnv32, sd2XorKeystream } from './obfuscation.ts';
import { SD2_TYPES, sd2CellWidth } from './types.ts';
import { sd2LocatePoolEntry } from './pool.ts';
import { SD2_HYPOTHESES } from './hypotheses.ts';

/** `5E BA 7A DA`, "DATABASE" in leetspeak. */
export const SD2_MAGIC = 0xda7aba5e;
export const SD2_HEADER_SIZE = 128;
export const SD2_PATCH_SIZE = 104;

/** Header flag bits (FauFau names; §2 says what each actually does). */
export const Sd2Flags = {
  /** Misnamed: the whole payload is XORed with sd2Keystream(FFnv32(patch)). */
  ObfuscatedPool: 1,
  /** Never handled by any tool; refused. */
  BigEndian: 2,
  /** The payload is deflated. */
  Compressed: 4,
  /** Every pool entry (memory version 1002) is XORed with sd2Keystream(its key). */
  Client: 8,
  /** No known effect. */
  Server: 16,
} as const;

export const SD2_FILE_VERSIONS = [7, 8, 9, 10, 11, 12] as const;
export const SD2_MEMORY_VERSIONS = [1000, 1002] as const;

export interface Sd2Header {
  /** 7 (beta-1297, no compression header), 11, 12 (latest). */
  fileVersion: number;
  /** Bit set of `Sd2Flags`; real client files use 13. */
  flags: number;
  /** Microseconds since the Unix epoch (UTC). */
  timestamp: bigint;
  /** Patch name, e.g. `beta-1869`: the bytes before the first NUL, one char per byte. */
  patch: string;
  /** The bytes after the patch terminator when they are not all zero (else absent). */
  patchTail?: Uint8Array;
}

export interface Sd2Compression {
  /** Whether the payload is deflated (false only with the Compressed flag clear and a raw image, §sd2.uncompressed-flag). */
  compressed: boolean;
  /** The u32 after inflatedSize (0 in all known files; absent in file version 7). */
  unk04: number;
  /** The two zlib header bytes as a big-endian u16 (`0x7801` in FauFau files). */
  zlibHeader: number;
  /** Whether the deflate stream is followed by a big-endian Adler-32 of the image. */
  adler32: boolean;
}

export interface Sd2Field {
  /** FFnv32 of the column name. */
  id: number;
  /** Byte offset of the cell inside the row. */
  start: number;
  /** Bit number in the row's null bitfield; 255 = not nullable. */
  nullableIndex: number;
  /** Type id (`SD2_TYPES`). */
  type: number;
}

export interface Sd2Table {
  /** FFnv32 of `namespace::Table`. */
  id: number;
  /** Row stride. */
  numBytes: number;
  /** Bytes of cell data; the null bitfield starts here. */
  numUsedBytes: number;
  /** Bytes of null bits (`nullableBitfields`). */
  nullableBytes: number;
  fields: Sd2Field[];
  rowCount: number;
  /** `rowCount × numBytes` raw row bytes (pool cells hold keys). */
  rows: Uint8Array;
}

/** Where things were in a parsed image, so an unedited model re-emits the same image. */
export interface Sd2Layout {
  /** Size of the info section the layout was recorded with. */
  headerSize: number;
  /** RowInfo.rowOffset of every table. */
  rowOffsets: number[];
  /** Row block length of every table when recorded (`rowCount × numBytes`). */
  blockLengths: number[];
  /** poolOffset − headerSize. */
  rowRegionSize: number;
  /** Non-zero bytes between and after the row blocks, relative to headerSize. */
  filler: { offset: number; bytes: Uint8Array }[];
}

export interface Sd2Image {
  /** 1002 (u32 pool keys) or 1000 (u64 pool keys). */
  memoryVersion: number;
  tables: Sd2Table[];
  /** The 33 bytes after poolOffset (zero in FauFau files; meaning unknown). */
  reserved: Uint8Array;
  /** The pool as stored (entries still XORed when the file says so); addresses are relative to its start. */
  pool: Uint8Array;
  /** The recorded layout; absent for models built from scratch (the writer then uses the canonical layout). */
  layout?: Sd2Layout;
}

/** What the model was parsed from, so an unedited image re-emits the original compressed stream. */
export interface Sd2Source {
  image: Uint8Array;
  /** The de-obfuscated payload. */
  payload: Uint8Array;
}

export interface Sd2File {
  header: Sd2Header;
  compression: Sd2Compression;
  image: Sd2Image;
  /** Bytes after the payload (FauFau's writer leaves old bytes at the end of a shorter output). */
  trailing?: Uint8Array;
  source?: Sd2Source;
}

/** A raw-deflate decompressor: `size` is the expected output length when the file records it. */
/**
 * A raw-deflate decompressor: `size` is the declared image size (undefined for file version 7, which has none);
 * the output must never exceed `maxSize` bytes: stop and throw `Sd2InflateLimitError` instead.
 */
export type Sd2Inflate = (deflated: Uint8Array, size: number | undefined, maxSize: number) => Uint8Array;

/** Thrown by an `Sd2Inflate` whose output would exceed its `maxSize`. */
export class Sd2InflateLimitError extends Error {
  override name = 'Sd2InflateLimitError';
}

/**
 * How large an inflated image may be by default: `base + ratio × payload bytes`. Real files inflate by 1.7×
 * (prod-1962: 32 MB → 54 MB), so the default leaves a wide margin for sparse tables while refusing a stream
 * (or a declared size) that would inflate a small file to gigabytes. `ParseSd2Options.maxImageBytes` (CLI:
 * `--max-image MiB`) raises it for an unusual file.
 */
export const SD2_DEFAULT_IMAGE_LIMIT = { base: 4 * 2 ** 20, ratio: 16 } as const;

/** The default image limit for a payload of `payloadBytes`. */
export function sd2ImageLimit(payloadBytes: number): number {
  return SD2_DEFAULT_IMAGE_LIMIT.base + SD2_DEFAULT_IMAGE_LIMIT.ratio * payloadBytes;
}
/** A raw-deflate compressor. */
export type Sd2Deflate = (data: Uint8Array, level: number) => Uint8Array;

/** fflate, the default: pure JS, runs in the browser. */
export const sd2FflateInflate: Sd2Inflate = (deflated, size, maxSize) => {
  if (size !== undefined) {
    if (size > maxSize) throw new Sd2InflateLimitError(`declared size ${size} exceeds ${maxSize}`);
    return inflateSync(deflated, { out: new Uint8Array(size) });
  }
  // No declared size: inflate incrementally and stop at the limit.
  const chunks: Uint8Array[] = [];
  let total = 0;
  const inflater = new Inflate((chunk) => {
    total += chunk.length;
    if (total > maxSize) throw new Sd2InflateLimitError(`output exceeds ${maxSize} bytes`);
    chunks.push(chunk);
  });
  for (let at = 0; at < deflated.length; at += INFLATE_STEP) inflater.push(deflated.subarray(at, Math.min(deflated.length, at + INFLATE_STEP)), at + INFLATE_STEP >= deflated.length);
  if (deflated.length === 0) inflater.push(deflated, true);
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
};

/** Deflated bytes handed to the incremental inflater at a time. */
const INFLATE_STEP = 64 * 1024;

/**
 * The first `n` inflated bytes of a raw-deflate stream (fewer if it holds fewer), inflating no more of it than
 * that takes: the image header is checked before the whole stream is inflated. Throws what fflate throws on a
 * damaged stream.
 */
function inflateHead(deflated: Uint8Array, n: number): Uint8Array {
  const head = new Uint8Array(n);
  let got = 0;
  const stop = new Error('enough');
  const inflater = new Inflate((chunk) => {
    const take = Math.min(n - got, chunk.length);
    head.set(chunk.subarray(0, take), got);
    got += take;
    if (got >= n) throw stop;
  });
  try {
    for (let at = 0; at < deflated.length && got < n; at += 1024) inflater.push(deflated.subarray(at, Math.min(deflated.length, at + 1024)), at + 1024 >= deflated.length);
  } catch (e) {
    if (e !== stop) throw e;
  }
  return head.subarray(0, got);
}
export const sd2FflateDeflate: Sd2Deflate = (data, level) => deflateSync(data, { level: level as 1 });

export interface ParseSd2Options {
  /** Use this patch name for the payload keystream instead of the header's. */
  patch?: string;
  /** Raw inflate to use (default fflate; the CLI passes node:zlib, which is faster). */
  inflate?: Sd2Inflate;
  /** Largest inflated image accepted (default `sd2ImageLimit(payload bytes)`, see `SD2_DEFAULT_IMAGE_LIMIT`). */
  maxImageBytes?: number;
}

/** True when the bytes start with the sd2 magic. */
export function isSd2(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x5e && bytes[1] === 0xba && bytes[2] === 0x7a && bytes[3] === 0xda;
}

/** The payload keystream seed for a patch name. */
export function sd2PatchSeed(patch: string): number {
  return ffnv32(patch);
}

// ---------------------------------------------------------------- header

function readHeader(r: ByteReader): { header: Sd2Header; payloadSize: number } {
  r.need(SD2_HEADER_SIZE, '/header');
  r.expectU32(SD2_MAGIC, '/header/magic');
  const versionAt = r.pos;
  const fileVersion = r.u32('/header/fileVersion');
  if (!(SD2_FILE_VERSIONS as readonly number[]).includes(fileVersion)) {
    throw new UnsupportedError('sd2', r.fileOffset(versionAt), '/header/fileVersion', `file version ${fileVersion}`, `unsupported file version ${fileVersion} (known: 7, 11, 12)`);
  }
  const payloadSize = r.u32('/header/payloadSize');
  const flagsAt = r.pos;
  const flags = r.u32('/header/flags');
  if (flags & Sd2Flags.BigEndian) throw new UnsupportedError('sd2', r.fileOffset(flagsAt), '/header/flags', 'BigEndian flag', 'the BigEndian flag (2) is set; no big-endian sd2 has ever been seen');
  const timestamp = r.u64('/header/timestamp');
  const patchBytes = r.bytes(SD2_PATCH_SIZE, '/header/patch');
  let end = patchBytes.indexOf(0);
  if (end < 0) end = SD2_PATCH_SIZE;
  const patch = latin1Decode(patchBytes.subarray(0, end));
  const header: Sd2Header = { fileVersion, flags, timestamp, patch };
  const tail = patchBytes.subarray(Math.min(end + 1, SD2_PATCH_SIZE));
  if (tail.some((b) => b !== 0)) header.patchTail = tail.slice();
  return { header, payloadSize };
}

function writeHeader(out: Uint8Array, header: Sd2Header, payloadSize: number): void {
  const dv = new DataView(out.buffer, out.byteOffset, SD2_HEADER_SIZE);
  dv.setUint32(0, SD2_MAGIC, true);
  dv.setUint32(4, header.fileVersion, true);
  dv.setUint32(8, payloadSize, true);
  dv.setUint32(12, header.flags >>> 0, true);
  dv.setBigUint64(16, BigInt.asUintN(64, header.timestamp), true);
  latin1EncodeInto(header.patch, out, 24, { format: 'sd2', path: '/header/patch' }, { nul: true });
  if (header.patchTail) out.set(header.patchTail, 24 + SD2_PATCH_SIZE - header.patchTail.length);
}

// ---------------------------------------------------------------- compression

/** Adler-32 of `data`. */
export function sd2Adler32(data: Uint8Array): number {
  let a = 1;
  let b = 0;
  const n = data.length;
  let i = 0;
  while (i < n) {
    const end = Math.min(n, i + 5552);
    for (; i < end; i++) {
      a += data[i]!;
      b += a;
    }
    a %= 65521;
    b %= 65521;
  }
  return ((b << 16) | a) >>> 0;
}

/** Whether two bytes at `at` form a zlib header: deflate method, check bits, no preset dictionary. */
function isZlibHeader(b: Uint8Array, at: number): boolean {
  if (at + 2 > b.length) return false;
  const h = (b[at]! << 8) | b[at + 1]!;
  return (b[at]! & 0x0f) === 8 && h % 31 === 0 && (b[at + 1]! & 0x20) === 0;
}

function decodePayload(bytes: Uint8Array, header: Sd2Header, payloadSize: number, patchForSeed: string, inflate: Sd2Inflate, maxImage: number | undefined): { compression: Sd2Compression; image: Uint8Array; payload: Uint8Array } {
  const base = SD2_HEADER_SIZE;
  const obfuscated = (header.flags & Sd2Flags.ObfuscatedPool) !== 0;
  // Zero-copy unless the payload must be de-obfuscated.
  const payload = obfuscated ? bytes.slice(base, base + payloadSize) : bytes.subarray(base, base + payloadSize);
  if (obfuscated) sd2XorKeystream(payload, sd2PatchSeed(patchForSeed));
  const dv = new DataView(payload.buffer, payload.byteOffset, payload.byteLength);
  const maxImageBytes = maxImage ?? sd2ImageLimit(payload.length);
  const why = obfuscated ? `payload does not decrypt with patch name ${JSON.stringify(patchForSeed)}` : 'payload is not a zlib stream';
  const fail = (offset: number, path: string, reason: string, cause?: unknown): FormatError =>
    new FormatError('sd2', base + offset, path, `inflate failed: ${reason}`, cause === undefined ? {} : { cause });

  // §sd2.uncompressed-flag: with Compressed clear, a payload that starts with a memory version is the raw image.
  if (!(header.flags & Sd2Flags.Compressed) && payload.length >= 4 && (dv.getUint32(0, true) === 1000 || dv.getUint32(0, true) === 1002)) {
    return { compression: { compressed: false, unk04: 0, zlibHeader: 0x7801, adler32: false }, image: payload, payload };
  }
  const hasSizeHeader = header.fileVersion !== 7;
  const zlibAt = hasSizeHeader ? 8 : 0;
  if (payload.length < zlibAt + 2) throw fail(0, '/payload', `${why} (only ${payload.length} bytes)`);
  const inflatedSize = hasSizeHeader ? dv.getUint32(0, true) : -1;
  const unk04 = hasSizeHeader ? dv.getUint32(4, true) : 0;
  const zlibHeader = (payload[zlibAt]! << 8) | payload[zlibAt + 1]!;
  if (!isZlibHeader(payload, zlibAt)) {
    // A version-7 file whose payload starts with the size header of 11 and 12 decrypts fine: say that.
    if (!hasSizeHeader && isZlibHeader(payload, 8)) {
      throw new FormatError('sd2', base, '/header/fileVersion', `this version-7 file carries the 8-byte size header of versions 11 and 12 (inflated size ${dv.getUint32(0, true)}) before its zlib stream, which version 7 has not: the file version is probably wrong (rewrite it with scry sd2 pack --file-version 12)`);
    }
    throw fail(zlibAt, '/payload/zlibHeader', `${why} (zlib header ${zlibHeader.toString(16).padStart(4, '0')})`);
  }
  const deflated = payload.subarray(zlibAt + 2);
  const raise = 'pass maxImageBytes (CLI: --max-image MiB) to accept a larger image';
  if (hasSizeHeader && inflatedSize > maxImageBytes) {
    throw new FormatError('sd2', base, '/payload/inflatedSize', `the payload declares an image of ${inflatedSize} bytes, over the ${maxImageBytes}-byte limit for a ${payload.length}-byte payload (real files inflate 1.7×); ${raise}`, { actual: inflatedSize });
  }
  // Deflate cannot expand by more than 1032:1; a larger inflatedSize is garbage, not a reason to allocate.
  if (hasSizeHeader && inflatedSize > deflated.length * 1032 + 1024) throw fail(0, '/payload/inflatedSize', `${why} (inflatedSize ${inflatedSize} for ${deflated.length} deflated bytes)`);
  // The image header first: a stream that does not start with a memory version is refused before the rest of it
  // is inflated.
  let head: Uint8Array;
  try {
    head = inflateHead(deflated, 4);
  } catch (e) {
    throw fail(zlibAt + 2, '/payload/deflate', `${why} (${(e as Error).message})`, e);
  }
  if (head.length === 4) {
    const v = head[0]! | (head[1]! << 8) | (head[2]! << 16) | (head[3]! << 24);
    if (v !== 1000 && v !== 1002) {
      const decrypt = obfuscated ? `; or the payload does not decrypt with patch name ${JSON.stringify(patchForSeed)}` : '';
      throw new UnsupportedError('sd2', 0, '/image/memoryVersion', `memory version ${v >>> 0}`, `unsupported memory version ${v >>> 0} (known: 1000, 1002): the inflated image starts with u32 0x${(v >>> 0).toString(16).toUpperCase().padStart(8, '0')}${decrypt}`);
    }
  }
  let image: Uint8Array;
  try {
    image = inflate(deflated, hasSizeHeader ? inflatedSize : undefined, maxImageBytes);
  } catch (e) {
    if (e instanceof Sd2InflateLimitError) throw new FormatError('sd2', base + zlibAt + 2, '/payload/deflate', `the deflate stream inflates past the ${maxImageBytes}-byte limit for a ${payload.length}-byte payload (real files inflate 1.7×); ${raise}`, { cause: e });
    throw fail(zlibAt + 2, '/payload/deflate', `${why} (${(e as Error).message})`, e);
  }
  if (image.length > maxImageBytes) throw new FormatError('sd2', base + zlibAt + 2, '/payload/deflate', `the deflate stream inflates past the ${maxImageBytes}-byte limit for a ${payload.length}-byte payload; ${raise}`);
  if (hasSizeHeader && image.length !== inflatedSize) throw fail(0, '/payload/inflatedSize', `${why} (inflated ${image.length} bytes, header says ${inflatedSize})`);
  // §sd2.adler-trailer: recorded when the last four payload bytes are the image's Adler-32.
  const n = payload.length;
  const adler = n >= zlibAt + 6 && dv.getUint32(n - 4, false) === sd2Adler32(image);
  return { compression: { compressed: true, unk04, zlibHeader, adler32: adler }, image, payload };
}

// ---------------------------------------------------------------- memory image

/** Size of the info section for T tables with F fields in total. */
export function sd2InfoSize(tableCount: number, fieldCount: number): number {
  return 6 + 11 * tableCount + 8 * fieldCount + 8 * tableCount + 37;
}

function readImage(imageBytes: Uint8Array): Sd2Image {
  const r = new ByteReader(imageBytes, { format: 'sd2' });
  const versionAt = r.pos;
  const memoryVersion = r.u32('/image/memoryVersion');
  if (memoryVersion !== 1000 && memoryVersion !== 1002) {
    throw new UnsupportedError('sd2', versionAt, '/image/memoryVersion', `memory version ${memoryVersion}`, `unsupported memory version ${memoryVersion} (known: 1000, 1002)`);
  }
  const tableCount = r.u16('/image/tableCount');
  r.guardCount(tableCount, 11 + 8, '/image/tableCount');
  const infos: { id: number; numBytes: number; numFields: number; numUsedBytes: number; nullableBytes: number }[] = [];
  for (let i = 0; i < tableCount; i++) {
    const p = `/image/tables[${i}]`;
    infos.push({ id: r.u32(p + '/id'), numBytes: r.u16(p + '/numBytes'), numFields: r.u16(p + '/numFields'), numUsedBytes: r.u16(p + '/numUsedBytes'), nullableBytes: r.u8(p + '/nullableBytes') });
  }
  const tables: Sd2Table[] = [];
  const dv = r.dv;
  for (let i = 0; i < tableCount; i++) {
    const info = infos[i]!;
    const p = `/image/tables[${i}]`;
    r.guardCount(info.numFields, 8, p + '/numFields');
    if (info.numUsedBytes + info.nullableBytes > info.numBytes) {
      throw new FormatError('sd2', 6 + 11 * i + 4, p + '/numBytes', `row stride ${info.numBytes} is smaller than numUsedBytes ${info.numUsedBytes} + nullableBytes ${info.nullableBytes}`);
    }
    const fields: Sd2Field[] = new Array(info.numFields);
    for (let f = 0; f < info.numFields; f++) {
      const at = r.pos;
      r.need(8, `${p}/fields[${f}]`);
      const field: Sd2Field = { id: dv.getUint32(at, true), start: dv.getUint16(at + 4, true), nullableIndex: imageBytes[at + 6]!, type: imageBytes[at + 7]! };
      r.pos += 8;
      const type = SD2_TYPES[field.type];
      if (!type) throw new UnsupportedError('sd2', at + 7, `${p}/fields[${f}]/type`, `type id ${field.type}`, `unknown type id ${field.type} (known: 0…26)`);
      const width = sd2CellWidth(field.type, memoryVersion);
      if (field.start + width > info.numBytes) {
        throw new FormatError('sd2', at + 4, `${p}/fields[${f}]/start`, `${type.name} cell at ${field.start} (+${width}) runs past the row stride ${info.numBytes}`);
      }
      if (field.nullableIndex !== 255 && field.nullableIndex >= info.nullableBytes * 8) {
        throw new FormatError('sd2', at + 6, `${p}/fields[${f}]/nullableIndex`, `null bit ${field.nullableIndex} outside the table's ${info.nullableBytes} null byte(s)`);
      }
      fields[f] = field;
    }
    tables.push({ id: info.id, numBytes: info.numBytes, numUsedBytes: info.numUsedBytes, nullableBytes: info.nullableBytes, fields, rowCount: 0, rows: imageBytes.subarray(0, 0) });
  }
  const rowOffsets: number[] = [];
  for (let i = 0; i < tableCount; i++) {
    const p = `/image/rowInfos[${i}]`;
    rowOffsets.push(r.u32(p + '/rowOffset'));
    tables[i]!.rowCount = r.u32(p + '/rowCount');
  }
  const poolAt = r.pos;
  const poolOffset = r.u32('/image/poolOffset');
  const reserved = r.copyBytes(33, '/image/reserved');
  const headerSize = r.pos;
  if (poolOffset < headerSize || poolOffset > imageBytes.length) {
    throw new FormatError('sd2', poolAt, '/image/poolOffset', `poolOffset ${poolOffset} outside ${headerSize}…${imageBytes.length}`);
  }
  let inRegion = true;
  const blocks: { start: number; end: number }[] = [];
  for (let i = 0; i < tableCount; i++) {
    const t = tables[i]!;
    const p = `/image/rowInfos[${i}]`;
    const off = rowOffsets[i]!;
    if (t.rowCount === 0) continue;
    if (t.numBytes === 0) throw new FormatError('sd2', 6 + 11 * i + 4, `/image/tables[${i}]/numBytes`, `${t.rowCount} rows of 0 bytes`);
    const length = t.rowCount * t.numBytes;
    if (off > imageBytes.length || length > imageBytes.length - off) {
      throw new FormatError('sd2', headerSize - 37 - 8 * (tableCount - i), p, `${t.rowCount} rows of ${t.numBytes} bytes at ${off} run past the image end ${imageBytes.length}`);
    }
    t.rows = imageBytes.subarray(off, off + length);
    if (off < headerSize || off + length > poolOffset) inRegion = false;
    else blocks.push({ start: off, end: off + length });
  }
  const image: Sd2Image = { memoryVersion, tables, reserved, pool: imageBytes.subarray(poolOffset) };
  if (inRegion) {
    blocks.sort((a, b) => a.start - b.start);
    const filler: Sd2Layout['filler'] = [];
    let pos = headerSize;
    const scan = (from: number, to: number): void => {
      let i = from;
      while (i < to) {
        if (imageBytes[i] === 0) {
          i++;
          continue;
        }
        let j = i;
        while (j < to && imageBytes[j] !== 0) j++;
        filler.push({ offset: i - headerSize, bytes: imageBytes.slice(i, j) });
        i = j;
      }
    };
    for (const b of blocks) {
      if (b.start > pos) scan(pos, b.start);
      pos = Math.max(pos, b.end);
    }
    scan(pos, poolOffset);
    image.layout = { headerSize, rowOffsets, blockLengths: tables.map((t) => t.rowCount * t.numBytes), rowRegionSize: poolOffset - headerSize, filler };
  }
  return image;
}

/** Parses an sd2 file: header, payload, and the memory image's info section. Rows and pool stay raw. */
export function parseSd2(bytes: Uint8Array, options: ParseSd2Options = {}): Sd2File {
  const r = new ByteReader(bytes, { format: 'sd2' });
  const { header, payloadSize } = readHeader(r);
  r.need(payloadSize, '/payload');
  const { compression, image, payload } = decodePayload(bytes, header, payloadSize, options.patch ?? header.patch, options.inflate ?? sd2FflateInflate, options.maxImageBytes);
  const file: Sd2File = { header, compression, image: readImage(image), source: { image, payload } };
  if (bytes.length > SD2_HEADER_SIZE + payloadSize) file.trailing = bytes.slice(SD2_HEADER_SIZE + payloadSize);
  return file;
}

/** Parses only the memory image (an inflated payload), e.g. one produced by another tool. */
export function parseSd2Image(imageBytes: Uint8Array): Sd2Image {
  return readImage(imageBytes);
}

/**
 * Pool array entries (UShortArray, UIntArray, Vector*Array) whose length is not a multiple of the element size:
 * the reader drops the partial element (FauFau too); the bytes stay in the pool and are written back as they are.
 */
function poolArrayIssues(file: Sd2File): Issue[] {
  const issues: Issue[] = [];
  const { image, header } = file;
  image.tables.forEach((t, ti) => {
    t.fields.forEach((f) => {
      const info = SD2_TYPES[f.type]!;
      const size = info.kind === 'u16s' ? 2 : info.kind === 'u32s' ? 4 : info.kind === 'vecs' ? 4 * info.components : 0;
      if (size === 0) return;
      const dv = new DataView(t.rows.buffer, t.rows.byteOffset, t.rows.byteLength);
      for (let r = 0; r < t.rowCount && issues.length < 100; r++) {
        const row = r * t.numBytes;
        if (f.nullableIndex !== 255 && ((t.rows[row + t.numUsedBytes + (f.nullableIndex >>> 3)]! >>> (f.nullableIndex & 7)) & 1) === 1) continue;
        const keyLow = dv.getUint32(row + f.start, true);
        const keyHigh = image.memoryVersion === 1000 ? dv.getUint32(row + f.start + 4, true) : 0;
        let loc;
        try {
          loc = sd2LocatePoolEntry(image.pool, image.memoryVersion, header.flags, keyLow, keyHigh, r, `/image/tables[${ti}]/rows[${r}]`);
        } catch {
          continue; // reported when the cell is read
        }
        if (loc && loc.length % size !== 0) {
          issues.push({ rule: 'sd2.pool.partialElement', path: `/image/tables[${ti}]/rows[${r}]`, severity: 'warning', message: `table ${ti} row ${r}: a ${loc.length}-byte ${info.name} entry is not a multiple of ${size} bytes; the last ${loc.length % size} byte(s) are not an element (read as ${Math.floor(loc.length / size)} elements; the bytes are kept)` });
        }
      }
    });
  });
  return issues;
}

// ---------------------------------------------------------------- validation

/** Problems that would make the model unwritable (empty when fine). */
export function validateSd2(file: Sd2File): Issue[] {
  const issues: Issue[] = [];
  const add = (path: string, message: string): void => void issues.push({ rule: 'sd2.model', path, message, severity: 'error' });
  const { header, image } = file;
  if (!(SD2_FILE_VERSIONS as readonly number[]).includes(header.fileVersion)) add('/header/fileVersion', `unsupported file version ${header.fileVersion}`);
  if (header.flags & Sd2Flags.BigEndian) add('/header/flags', 'the BigEndian flag cannot be written');
  const patchBytes = header.patch.length + (header.patchTail ? header.patchTail.length + 1 : 0);
  if (patchBytes > SD2_PATCH_SIZE) add('/header/patch', `patch name must be at most ${SD2_PATCH_SIZE} Latin-1 bytes without NUL`);
  const patchText = latin1Issue(header.patch, '/header/patch', { nul: true });
  if (patchText) issues.push(patchText);
  if (!file.compression.compressed && header.flags & Sd2Flags.Compressed) add('/compression/compressed', 'an uncompressed payload needs the Compressed flag clear');
  if (image.memoryVersion !== 1000 && image.memoryVersion !== 1002) add('/image/memoryVersion', `unsupported memory version ${image.memoryVersion}`);
  if (image.tables.length > 0xffff) add('/image/tables', `${image.tables.length} tables (at most 65535)`);
  if (image.reserved.length !== 33) add('/image/reserved', `reserved must be 33 bytes, has ${image.reserved.length}`);
  image.tables.forEach((t, i) => {
    const p = `/image/tables[${i}]`;
    if (t.numBytes > 0xffff || t.numUsedBytes > 0xffff || t.nullableBytes > 0xff || t.fields.length > 0xffff) add(p, 'numBytes/numUsedBytes/fields exceed their field widths');
    if (t.numUsedBytes + t.nullableBytes > t.numBytes) add(p + '/numBytes', `row stride ${t.numBytes} < numUsedBytes ${t.numUsedBytes} + nullableBytes ${t.nullableBytes}`);
    if (t.rows.length !== t.rowCount * t.numBytes) add(p + '/rows', `rows hold ${t.rows.length} bytes, rowCount × numBytes = ${t.rowCount * t.numBytes}`);
    if (t.numBytes === 0 && t.rowCount > 0) add(p + '/numBytes', 'rows of 0 bytes cannot be read back');
    t.fields.forEach((f, k) => {
      const type = SD2_TYPES[f.type];
      if (!type) return add(`${p}/fields[${k}]/type`, `unknown type id ${f.type}`);
      if (f.start + sd2CellWidth(f.type, image.memoryVersion) > t.numBytes) add(`${p}/fields[${k}]/start`, 'cell runs past the row stride');
      if (f.nullableIndex !== 255 && f.nullableIndex >= t.nullableBytes * 8) add(`${p}/fields[${k}]/nullableIndex`, `null bit ${f.nullableIndex} outside ${t.nullableBytes} null byte(s)`);
    });
  });
  return issues;
}

// ---------------------------------------------------------------- writing

export interface WriteSd2Options {
  /**
   * Row block placement: `preserve` the recorded layout (error if it no longer fits), `canonical` (blocks right
   * after the info section, each padded to 128 bytes from its start, §sd2.block-padding-128), or `auto`
   * (default: preserve when the recorded layout still fits, else canonical).
   */
  layout?: 'auto' | 'preserve' | 'canonical';
  /** Deflate level 0–9 (default 1: the zlib header `78 01` declares the fastest level). */
  level?: number;
  /** Re-emit the original compressed stream when the image is unchanged (default true). */
  reuseCompressed?: boolean;
  /** Raw deflate to use (default fflate). */
  deflate?: Sd2Deflate;
}

function layoutFits(image: Sd2Image, headerSize: number): boolean {
  const layout = image.layout;
  if (!layout || layout.headerSize !== headerSize || layout.rowOffsets.length !== image.tables.length) return false;
  return image.tables.every((t, i) => t.rowCount * t.numBytes === layout.blockLengths[i] && t.rows.length === layout.blockLengths[i]);
}

/** Builds the memory image of a model. Never mutates the model. */
export function writeSd2Image(image: Sd2Image, options: WriteSd2Options = {}): Uint8Array {
  const fieldCount = image.tables.reduce((n, t) => n + t.fields.length, 0);
  const headerSize = sd2InfoSize(image.tables.length, fieldCount);
  const mode = options.layout ?? 'auto';
  const preserve = mode !== 'canonical' && layoutFits(image, headerSize);
  if (mode === 'preserve' && !preserve) {
    throw new ConsistencyError('sd2', [{ rule: 'sd2.layout', path: '/image/layout', message: 'the recorded layout no longer fits the tables (rows or fields changed); write with layout "canonical" or "auto"', severity: 'error' }]);
  }
  let rowOffsets: number[];
  let poolOffset: number;
  if (preserve) {
    const layout = image.layout!;
    rowOffsets = layout.rowOffsets;
    poolOffset = headerSize + layout.rowRegionSize;
  } else {
    rowOffsets = [];
    let pos = headerSize;
    for (const t of image.tables) {
      rowOffsets.push(pos);
      if (t.rows.length > 0) pos += Math.ceil(t.rows.length / 128) * 128;
    }
    poolOffset = pos;
  }
  const out = new Uint8Array(poolOffset + image.pool.length);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, image.memoryVersion, true);
  dv.setUint16(4, image.tables.length, true);
  let p = 6;
  for (const t of image.tables) {
    dv.setUint32(p, t.id, true);
    dv.setUint16(p + 4, t.numBytes, true);
    dv.setUint16(p + 6, t.fields.length, true);
    dv.setUint16(p + 8, t.numUsedBytes, true);
    out[p + 10] = t.nullableBytes;
    p += 11;
  }
  for (const t of image.tables) {
    for (const f of t.fields) {
      dv.setUint32(p, f.id, true);
      dv.setUint16(p + 4, f.start, true);
      out[p + 6] = f.nullableIndex;
      out[p + 7] = f.type;
      p += 8;
    }
  }
  image.tables.forEach((t, i) => {
    dv.setUint32(p, rowOffsets[i]!, true);
    dv.setUint32(p + 4, t.rowCount, true);
    p += 8;
  });
  dv.setUint32(p, poolOffset, true);
  out.set(image.reserved.subarray(0, 33), p + 4);
  if (preserve) for (const f of image.layout!.filler) out.set(f.bytes, headerSize + f.offset);
  // An empty table's offset is written as recorded (it may lie anywhere: nothing reads it) and holds no bytes.
  image.tables.forEach((t, i) => {
    if (t.rows.length > 0) out.set(t.rows, rowOffsets[i]!);
  });
  out.set(image.pool, poolOffset);
  return out;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  const n = a.length;
  if (a.byteOffset % 4 === 0 && b.byteOffset % 4 === 0) {
    const w = n >>> 2;
    const a32 = new Uint32Array(a.buffer, a.byteOffset, w);
    const b32 = new Uint32Array(b.buffer, b.byteOffset, w);
    for (let i = 0; i < w; i++) if (a32[i] !== b32[i]) return false;
    for (let i = w * 4; i < n; i++) if (a[i] !== b[i]) return false;
    return true;
  }
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The de-obfuscated payload for an image (compression header, zlib header, deflate, optional Adler-32). */
function encodePayload(file: Sd2File, image: Uint8Array, options: WriteSd2Options): Uint8Array {
  const c = file.compression;
  if (!c.compressed) return image.slice();
  const src = file.source;
  const hasSizeHeader = file.header.fileVersion !== 7;
  if (options.reuseCompressed !== false && src && sameBytes(src.image, image)) {
    // The original stream inflates to this exact image; reuse it if its framing still matches the model.
    const zlibAt = hasSizeHeader ? 8 : 0;
    const pdv = new DataView(src.payload.buffer, src.payload.byteOffset, src.payload.byteLength);
    const framingOk =
      src.payload.length >= zlibAt + 2 &&
      ((src.payload[zlibAt]! << 8) | src.payload[zlibAt + 1]!) === c.zlibHeader &&
      (!hasSizeHeader || (pdv.getUint32(0, true) === image.length && pdv.getUint32(4, true) === c.unk04));
    if (framingOk) return src.payload.slice();
  }
  const deflated = (options.deflate ?? sd2FflateDeflate)(image, options.level ?? 1);
  const head = hasSizeHeader ? 10 : 2;
  const out = new Uint8Array(head + deflated.length + (c.adler32 ? 4 : 0));
  const dv = new DataView(out.buffer);
  if (hasSizeHeader) {
    dv.setUint32(0, image.length, true);
    dv.setUint32(4, c.unk04, true);
  }
  out[head - 2] = c.zlibHeader >>> 8;
  out[head - 1] = c.zlibHeader & 0xff;
  out.set(deflated, head);
  if (c.adler32) dv.setUint32(out.length - 4, sd2Adler32(image), false);
  return out;
}

/**
 * Writes a model to sd2 bytes. Never mutates the model. A model parsed from a file and left unedited is written
 * byte-identical (same image, and the original compressed stream is reused); anything else is re-deflated.
 */
export function writeSd2(file: Sd2File, options: WriteSd2Options = {}): Uint8Array {
  const issues = validateSd2(file);
  if (issues.length > 0) throw new ConsistencyError('sd2', issues);
  const image = writeSd2Image(file.image, options);
  const payload = encodePayload(file, image, options);
  if (file.header.flags & Sd2Flags.ObfuscatedPool) sd2XorKeystream(payload, sd2PatchSeed(file.header.patch));
  const trailing = file.trailing ?? new Uint8Array(0);
  const out = new Uint8Array(SD2_HEADER_SIZE + payload.length + trailing.length);
  writeHeader(out, file.header, payload.length);
  out.set(payload, SD2_HEADER_SIZE);
  out.set(trailing, SD2_HEADER_SIZE + payload.length);
  return out;
}

/** Findings about a parsed file: contradicted hypotheses and oddities (never errors that stop parsing). */
export function verifySd2(file: Sd2File): Issue[] {
  const issues: Issue[] = [];
  const h = SD2_HYPOTHESES;
  const note = (hyp: { id: string } | undefined, path: string, message: string, severity: Issue['severity'] = 'warning'): void =>
    void issues.push({ rule: hyp?.id ?? 'sd2.verify', path, message, severity, ...(hyp ? { hypothesis: hyp.id } : {}) });
  if (file.compression.compressed && file.header.fileVersion !== 7 && file.compression.unk04 !== 0) note(h.compressionReserved, '/compression/unk04', `u32 after inflatedSize is ${file.compression.unk04}, not 0`);
  if (file.compression.adler32) note(h.adlerTrailer, '/compression/adler32', 'the deflate stream carries an Adler-32 trailer (FauFau writes none)', 'info');
  if (!file.compression.compressed) note(h.uncompressedFlag, '/compression/compressed', 'payload read as a raw memory image (Compressed flag clear)', 'info');
  if (file.header.fileVersion >= 8 && file.header.fileVersion <= 10) note(h.fileVersions8to10, '/header/fileVersion', `file version ${file.header.fileVersion} was never seen; read like 11/12`);
  if (file.image.reserved.some((b) => b !== 0)) note(h.reserved33, '/image/reserved', 'the 33 bytes after poolOffset are not all zero');
  if (!file.image.layout) note(h.blockPadding, '/image/layout', 'row blocks lie outside the region between the info section and the pool', 'info');
  if (file.trailing) note(undefined, '/trailing', `${file.trailing.length} byte(s) after the payload (FauFau's writer leaves stale bytes when it overwrites a longer file)`);
  const unknownFlags = file.header.flags & ~0x1f;
  if (unknownFlags) note(undefined, '/header/flags', `unknown flag bits 0x${unknownFlags.toString(16)}`);
  issues.push(...poolArrayIssues(file));
  const layout = file.image.layout;
  const imageEnd = file.source?.image.length;
  file.image.tables.forEach((t, i) => {
    const off = layout?.rowOffsets[i];
    if (t.rowCount === 0 && off !== undefined && imageEnd !== undefined && off > imageEnd) {
      issues.push({ rule: 'sd2.rowOffset', path: `/image/rowInfos[${i}]/rowOffset`, message: `table ${i} has 0 rows at offset ${off}, past the image end ${imageEnd} (nothing reads it; kept as it is)`, severity: 'warning' });
    }
  });
  file.image.tables.forEach((t, i) => {
    const indexes = t.fields.filter((f) => f.nullableIndex !== 255).map((f) => f.nullableIndex).sort((a, b) => a - b);
    if (indexes.some((v, k) => v !== k)) note(h.denseNullableIndex, `/image/tables[${i}]`, `nullable indexes are not dense 0…${indexes.length - 1}: ${indexes.join(',')}`);
    if (t.fields.some((f) => f.type === 0)) note(undefined, `/image/tables[${i}]`, 'a column of type 0 (Unknown) was never seen in real files');
  });
  return issues;
}
