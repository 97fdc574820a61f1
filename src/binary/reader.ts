/**
 * Bounds-checked little/big-endian reader over a `Uint8Array` view. Every read checks the remaining bytes and
 * throws an `EofError` naming the format, offset and field path; nothing here can raise a RangeError.
 *
 * `bytes(n)` returns a view (no copy); `copyBytes(n)` when the caller must own the data. `guardCount` must be
 * called before any allocation whose size comes from the file.
 */
import { EofError, FormatError, describeValue } from './errors.ts';
import { latin1Constant, latin1Decode } from './text.ts';

export interface ReaderOptions {
  /** Little-endian (default true). */
  littleEndian?: boolean;
  /** Format id used in error messages (`gadb`, `sd2`, …). */
  format?: string;
  /** Absolute offset of `bytes[0]` in the original file, so errors report file offsets. */
  baseOffset?: number;
}

export class ByteReader {
  readonly data: Uint8Array;
  readonly dv: DataView;
  readonly format: string;
  readonly baseOffset: number;
  littleEndian: boolean;
  /** Position relative to the start of `u8`. */
  pos = 0;

  constructor(bytes: Uint8Array, options: ReaderOptions = {}) {
    this.data = bytes;
    this.dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.format = options.format ?? 'binary';
    this.littleEndian = options.littleEndian ?? true;
    this.baseOffset = options.baseOffset ?? 0;
  }

  get length(): number {
    return this.data.byteLength;
  }

  get remaining(): number {
    return this.data.byteLength - this.pos;
  }

  /** Absolute file offset of a position in this reader (default: the current one). */
  fileOffset(pos = this.pos): number {
    return this.baseOffset + pos;
  }

  /** A sub-reader over `[start, start + length)` sharing the same bytes, with file offsets preserved. */
  sub(start: number, length: number, path = ''): ByteReader {
    this.checkRange(start, length, path);
    return new ByteReader(this.data.subarray(start, start + length), {
      littleEndian: this.littleEndian,
      format: this.format,
      baseOffset: this.baseOffset + start,
    });
  }

  /** Throws an EofError unless `[start, start + length)` lies inside the data. */
  checkRange(start: number, length: number, path = ''): void {
    if (!Number.isInteger(start) || !Number.isInteger(length) || start < 0 || length < 0) {
      throw new FormatError(this.format, this.fileOffset(Math.max(0, Math.min(start, this.length))), path, `invalid range start ${start} length ${length}`);
    }
    if (start + length > this.data.byteLength) {
      throw new EofError(this.format, this.fileOffset(Math.min(start, this.length)), path, length, Math.max(0, this.data.byteLength - start));
    }
  }

  /** Throws unless `n` more bytes are available at the current position. */
  need(n: number, path = ''): void {
    if (n > this.data.byteLength - this.pos || n < 0) {
      throw new EofError(this.format, this.fileOffset(), path, n, this.remaining);
    }
  }

  seek(pos: number, path = ''): void {
    if (!Number.isInteger(pos) || pos < 0 || pos > this.data.byteLength) {
      throw new FormatError(this.format, this.fileOffset(Math.min(Math.max(pos, 0), this.length)), path, `seek to ${describeValue(pos)} outside the data (length ${this.length})`);
    }
    this.pos = pos;
  }

  skip(n: number, path = ''): void {
    this.need(n, path);
    this.pos += n;
  }

  /** Moves to `pos`, runs `fn`, and restores the position whatever happens. */
  at<T>(pos: number, fn: (r: this) => T, path = ''): T {
    const saved = this.pos;
    this.seek(pos, path);
    try {
      return fn(this);
    } finally {
      this.pos = saved;
    }
  }

  u8At(off: number, path = ''): number {
    this.checkRange(off, 1, path);
    return this.data[off]!;
  }
  u16At(off: number, path = ''): number {
    this.checkRange(off, 2, path);
    return this.dv.getUint16(off, this.littleEndian);
  }
  u32At(off: number, path = ''): number {
    this.checkRange(off, 4, path);
    return this.dv.getUint32(off, this.littleEndian);
  }
  i32At(off: number, path = ''): number {
    this.checkRange(off, 4, path);
    return this.dv.getInt32(off, this.littleEndian);
  }
  f32At(off: number, path = ''): number {
    this.checkRange(off, 4, path);
    return this.dv.getFloat32(off, this.littleEndian);
  }

  u8(path = ''): number {
    this.need(1, path);
    return this.data[this.pos++]!;
  }
  i8(path = ''): number {
    this.need(1, path);
    return this.dv.getInt8(this.pos++);
  }
  u16(path = ''): number {
    this.need(2, path);
    const v = this.dv.getUint16(this.pos, this.littleEndian);
    this.pos += 2;
    return v;
  }
  i16(path = ''): number {
    this.need(2, path);
    const v = this.dv.getInt16(this.pos, this.littleEndian);
    this.pos += 2;
    return v;
  }
  u32(path = ''): number {
    this.need(4, path);
    const v = this.dv.getUint32(this.pos, this.littleEndian);
    this.pos += 4;
    return v;
  }
  i32(path = ''): number {
    this.need(4, path);
    const v = this.dv.getInt32(this.pos, this.littleEndian);
    this.pos += 4;
    return v;
  }
  u64(path = ''): bigint {
    this.need(8, path);
    const v = this.dv.getBigUint64(this.pos, this.littleEndian);
    this.pos += 8;
    return v;
  }
  i64(path = ''): bigint {
    this.need(8, path);
    const v = this.dv.getBigInt64(this.pos, this.littleEndian);
    this.pos += 8;
    return v;
  }
  f32(path = ''): number {
    this.need(4, path);
    const v = this.dv.getFloat32(this.pos, this.littleEndian);
    this.pos += 4;
    return v;
  }
  f64(path = ''): number {
    this.need(8, path);
    const v = this.dv.getFloat64(this.pos, this.littleEndian);
    this.pos += 8;
    return v;
  }

  /** A view of the next `n` bytes (no copy). */
  bytes(n: number, path = ''): Uint8Array {
    this.need(n, path);
    const v = this.data.subarray(this.pos, this.pos + n);
    this.pos += n;
    return v;
  }

  /** A copy of the next `n` bytes, for data the caller must own. */
  copyBytes(n: number, path = ''): Uint8Array {
    return this.bytes(n, path).slice();
  }

  /** Latin-1 text of exactly `n` bytes (one char per byte, reversible). */
  latin1(n: number, path = ''): string {
    return latin1Decode(this.bytes(n, path));
  }

  /** NUL-terminated bytes starting at the current position (the terminator is consumed, not returned). */
  cstringBytes(path = '', maxLength = this.remaining): Uint8Array {
    const start = this.pos;
    const limit = Math.min(this.data.byteLength, start + maxLength);
    let end = start;
    while (end < limit && this.data[end] !== 0) end++;
    if (end >= limit) {
      throw new FormatError(this.format, this.fileOffset(start), path, 'unterminated string');
    }
    this.pos = end + 1;
    return this.data.subarray(start, end);
  }

  /** Reads a u32 and checks it against the allowed value(s). */
  expectU32(allowed: number | readonly number[], path = ''): number {
    const at = this.pos;
    const v = this.u32(path);
    const ok = typeof allowed === 'number' ? v === allowed : allowed.includes(v);
    if (!ok) {
      throw new FormatError(this.format, this.fileOffset(at), path, `expected u32 ${describeAllowed(allowed)}, got ${describeValue(v)}`, { expected: allowed, actual: v });
    }
    return v;
  }

  /** Reads `magic.length` bytes and checks them. */
  expectBytes(magic: Uint8Array | string, path = ''): Uint8Array {
    const want = typeof magic === 'string' ? latin1Constant(magic) : magic;
    const at = this.pos;
    const got = this.bytes(want.length, path);
    for (let i = 0; i < want.length; i++) {
      if (got[i] !== want[i]) {
        throw new FormatError(this.format, this.fileOffset(at), path, `expected bytes ${describeValue(want)}, got ${describeValue(got)}`, { expected: want, actual: got.slice() });
      }
    }
    return got;
  }

  /**
   * Guards an allocation sized from file data: `count` elements of at least `minElemSize` bytes each must fit in
   * the bytes that remain (or in `available` when given). Returns `count`.
   */
  guardCount(count: number, minElemSize: number, path = '', available = this.remaining): number {
    return guardCount(this.format, this.fileOffset(), count, minElemSize, available, path);
  }

  /** A FormatError at the given position (default: the current one). */
  error(reason: string, path = '', pos = this.pos, details: { expected?: unknown; actual?: unknown } = {}): FormatError {
    return new FormatError(this.format, this.fileOffset(pos), path, reason, details);
  }

  /** Throws unless every byte has been read (for formats that must be consumed exactly). */
  end(path = ''): void {
    if (this.pos !== this.data.byteLength) {
      throw new FormatError(this.format, this.fileOffset(), path, `${this.remaining} trailing byte(s) after the end of the data`);
    }
  }
}

function describeAllowed(allowed: number | readonly number[]): string {
  return typeof allowed === 'number' ? describeValue(allowed) : allowed.map(describeValue).join(' or ');
}

/**
 * Checks that `count` elements of `minElemSize` bytes can be justified by `available` bytes of input. Call before
 * allocating anything sized from a count read from a file.
 */
export function guardCount(format: string, offset: number, count: number, minElemSize: number, available: number, path = ''): number {
  if (!Number.isInteger(count) || count < 0) {
    throw new FormatError(format, offset, path, `invalid count ${describeValue(count)}`, { actual: count });
  }
  if (minElemSize > 0 && count > Math.floor(available / minElemSize)) {
    throw new FormatError(format, offset, path, `count ${count} of ${minElemSize}-byte items needs ${count * minElemSize} bytes, only ${available} available`, { actual: count });
  }
  return count;
}
