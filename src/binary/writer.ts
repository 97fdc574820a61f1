/**
 * Growable little/big-endian writer. Offsets and sizes that are known only later are reserved as handles
 * (`const size = w.reserveU32('fileSize'); … size.fill(n)`); `finish()` refuses to return bytes while a handle is
 * unfilled. Padding takes its byte explicitly, since original files are not always zero-padded.
 */
import { ConsistencyError, type Issue } from './errors.ts';

export interface WriterOptions {
  littleEndian?: boolean;
  /** Initial capacity in bytes; the buffer doubles when it grows. */
  capacity?: number;
  /** Format id used in consistency errors. */
  format?: string;
}

/** A reserved slot to be filled once its value is known. */
export interface Reservation {
  readonly offset: number;
  readonly size: 1 | 2 | 4 | 8;
  readonly what: string;
  readonly filled: boolean;
  fill(value: number | bigint): void;
}

export class ByteWriter {
  private buf: Uint8Array;
  private dv: DataView;
  private len = 0;
  private readonly pending = new Set<ReservationImpl>();
  readonly format: string;
  littleEndian: boolean;

  constructor(options: WriterOptions = {}) {
    this.buf = new Uint8Array(Math.max(16, options.capacity ?? 1024));
    this.dv = new DataView(this.buf.buffer);
    this.littleEndian = options.littleEndian ?? true;
    this.format = options.format ?? 'binary';
  }

  /** Bytes written so far (the write position). */
  get pos(): number {
    return this.len;
  }

  private ensure(extra: number): void {
    const needed = this.len + extra;
    if (needed <= this.buf.byteLength) return;
    let cap = this.buf.byteLength * 2;
    while (cap < needed) cap *= 2;
    const next = new Uint8Array(cap);
    next.set(this.buf.subarray(0, this.len));
    this.buf = next;
    this.dv = new DataView(next.buffer);
  }

  u8(v: number): this {
    this.ensure(1);
    this.buf[this.len++] = v & 0xff;
    return this;
  }
  i8(v: number): this {
    return this.u8(v);
  }
  u16(v: number): this {
    this.ensure(2);
    this.dv.setUint16(this.len, v, this.littleEndian);
    this.len += 2;
    return this;
  }
  i16(v: number): this {
    this.ensure(2);
    this.dv.setInt16(this.len, v, this.littleEndian);
    this.len += 2;
    return this;
  }
  u32(v: number): this {
    this.ensure(4);
    this.dv.setUint32(this.len, v >>> 0, this.littleEndian);
    this.len += 4;
    return this;
  }
  i32(v: number): this {
    this.ensure(4);
    this.dv.setInt32(this.len, v | 0, this.littleEndian);
    this.len += 4;
    return this;
  }
  u64(v: bigint): this {
    this.ensure(8);
    this.dv.setBigUint64(this.len, BigInt.asUintN(64, v), this.littleEndian);
    this.len += 8;
    return this;
  }
  i64(v: bigint): this {
    this.ensure(8);
    this.dv.setBigInt64(this.len, BigInt.asIntN(64, v), this.littleEndian);
    this.len += 8;
    return this;
  }
  f32(v: number): this {
    this.ensure(4);
    this.dv.setFloat32(this.len, v, this.littleEndian);
    this.len += 4;
    return this;
  }
  f64(v: number): this {
    this.ensure(8);
    this.dv.setFloat64(this.len, v, this.littleEndian);
    this.len += 8;
    return this;
  }
  bytes(b: Uint8Array): this {
    this.ensure(b.byteLength);
    this.buf.set(b, this.len);
    this.len += b.byteLength;
    return this;
  }
  /** Writes `n` copies of `byte`. */
  fill(byte: number, n: number): this {
    this.ensure(n);
    this.buf.fill(byte & 0xff, this.len, this.len + n);
    this.len += n;
    return this;
  }
  /** Pads with `padByte` until the position is a multiple of `n` (relative to `origin`). */
  align(n: number, padByte: number, origin = 0): this {
    const rem = (this.len - origin) % n;
    if (rem !== 0) this.fill(padByte, n - rem);
    return this;
  }

  /** Overwrites a u32 at an absolute position already written. */
  patchU32(offset: number, v: number): void {
    if (offset < 0 || offset + 4 > this.len) throw new Error(`patchU32 at ${offset} outside the written data (${this.len})`);
    this.dv.setUint32(offset, v >>> 0, this.littleEndian);
  }

  private reserve(size: 1 | 2 | 4 | 8, what: string): Reservation {
    const r = new ReservationImpl(this, this.len, size, what);
    this.fill(0, size);
    this.pending.add(r);
    return r;
  }
  reserveU8(what: string): Reservation {
    return this.reserve(1, what);
  }
  reserveU16(what: string): Reservation {
    return this.reserve(2, what);
  }
  reserveU32(what: string): Reservation {
    return this.reserve(4, what);
  }
  reserveU64(what: string): Reservation {
    return this.reserve(8, what);
  }

  /** @internal */
  fillReservation(r: ReservationImpl, value: number | bigint): void {
    if (!this.pending.has(r)) throw new Error(`reservation ${r.what} filled twice`);
    const le = this.littleEndian;
    switch (r.size) {
      case 1:
        this.buf[r.offset] = Number(value) & 0xff;
        break;
      case 2:
        this.dv.setUint16(r.offset, Number(value), le);
        break;
      case 4:
        this.dv.setUint32(r.offset, Number(value) >>> 0, le);
        break;
      case 8:
        this.dv.setBigUint64(r.offset, BigInt.asUintN(64, BigInt(value)), le);
        break;
    }
    this.pending.delete(r);
  }

  /** The written bytes (a copy sized exactly). Throws a ConsistencyError listing unfilled reservations. */
  finish(): Uint8Array {
    if (this.pending.size > 0) {
      const issues: Issue[] = [...this.pending].map((r) => ({
        rule: 'writer.reservation',
        message: `reservation ${r.what} at 0x${r.offset.toString(16)} was never filled`,
        severity: 'error' as const,
      }));
      throw new ConsistencyError(this.format, issues);
    }
    return this.buf.slice(0, this.len);
  }
}

class ReservationImpl implements Reservation {
  private readonly writer: ByteWriter;
  readonly offset: number;
  readonly size: 1 | 2 | 4 | 8;
  readonly what: string;
  private done = false;
  constructor(writer: ByteWriter, offset: number, size: 1 | 2 | 4 | 8, what: string) {
    this.writer = writer;
    this.offset = offset;
    this.size = size;
    this.what = what;
  }
  get filled(): boolean {
    return this.done;
  }
  fill(value: number | bigint): void {
    this.writer.fillReservation(this, value);
    this.done = true;
  }
}
