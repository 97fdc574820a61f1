/**
 * The pool: variable-length values (strings, blobs, arrays) referenced by keys stored in the row cells
 * (spec sd2.md §8). Addresses are relative to poolOffset.
 *
 * Memory version 1002, u32 key:
 *   low bit 1 (long form):  address = key >> 1, u16 length at address, data at address + 2
 *   low bit 0 (short form): address = (key >> 1) & 0x7FFFFF, length = key >> 24, data at address
 *   data XORed with sd2Keystream(key) when the Client flag (8) is set.
 * Memory version 1000, u64 key: address = low 32 bits, length = high 32 bits, data at address, always XORed
 *   with sd2Keystream(row index) (§sd2.v1000-pool-always-xor, §sd2.v1000-pool-relative).
 * Key 0 and length 0 mean "no value".
 */
import { FormatError, ConsistencyError } from '../../binary/errors.ts';
import { sd2XorKeystream } from './obfuscation.ts';
import { Sd2Flags } from './sd2.ts';
import { latin1Decode } from '../../binary/text.ts';

/** Where a key's data lies in the pool. */
export interface Sd2PoolLocation {
  /** Offset of the data (after any length prefix), relative to the pool start. */
  dataOffset: number;
  length: number;
  /** Keystream seed, or -1 when the entry is stored plain. */
  seed: number;
  /** Short (inline length) or long (u16 prefix) form; `wide` for memory version 1000. */
  form: 'short' | 'long' | 'wide';
}

/** Whether pool entries are XORed for this memory version and flag set. */
export function sd2PoolEncrypted(memoryVersion: number, flags: number): boolean {
  return memoryVersion === 1000 || (flags & Sd2Flags.Client) !== 0;
}

/**
 * Locates a key's entry. `keyLow`/`keyHigh` are the two u32 halves of the cell (keyHigh is 0 in 1002). Returns
 * null for "no value". Throws a FormatError (offset = pool-relative address) when the entry lies outside the pool.
 */
export function sd2LocatePoolEntry(pool: Uint8Array, memoryVersion: number, flags: number, keyLow: number, keyHigh: number, rowIndex: number, path: string): Sd2PoolLocation | null {
  const encrypted = sd2PoolEncrypted(memoryVersion, flags);
  let loc: Sd2PoolLocation;
  if (memoryVersion === 1000) {
    if (keyHigh === 0) return null;
    loc = { dataOffset: keyLow, length: keyHigh, seed: encrypted ? rowIndex >>> 0 : -1, form: 'wide' };
  } else if (keyLow & 1) {
    const address = keyLow >>> 1;
    if (address + 2 > pool.length) throw new FormatError('sd2', address, path, `pool key 0x${keyLow.toString(16)}: length prefix at ${address} outside the ${pool.length}-byte pool`);
    const length = pool[address]! | (pool[address + 1]! << 8);
    if (length === 0) return null;
    loc = { dataOffset: address + 2, length, seed: encrypted ? keyLow : -1, form: 'long' };
  } else {
    const length = keyLow >>> 24;
    if (length === 0) return null;
    loc = { dataOffset: (keyLow >>> 1) & 0x7fffff, length, seed: encrypted ? keyLow : -1, form: 'short' };
  }
  if (loc.dataOffset + loc.length > pool.length) {
    throw new FormatError('sd2', loc.dataOffset, path, `pool entry of ${loc.length} bytes at ${loc.dataOffset} runs past the ${pool.length}-byte pool`);
  }
  return loc;
}

/** The plain bytes of an entry: a view when stored plain, else a de-obfuscated copy. */
export function sd2ReadPoolEntry(pool: Uint8Array, loc: Sd2PoolLocation): Uint8Array {
  const stored = pool.subarray(loc.dataOffset, loc.dataOffset + loc.length);
  if (loc.seed < 0) return stored;
  const plain = stored.slice();
  sd2XorKeystream(plain, loc.seed);
  return plain;
}


export interface Sd2PoolBuilderOptions {
  memoryVersion: number;
  flags: number;
  /** Existing stored pool bytes to append to (copied, never mutated). */
  base?: Uint8Array;
  /** Use the 4-byte-shorter short form for entries of ≤255 bytes below 8 MiB (1002 only; FauFau never does). */
  shortKeys?: boolean;
}

/**
 * Appends pool entries and hands out keys. In 1002 identical plain bytes share one entry (exact comparison, not
 * FauFau's 32-bit hash, so distinct entries with colliding hashes stay distinct). In 1000 the keystream depends
 * on the row index, so an entry is shared only by cells of the same row index.
 */
export class Sd2PoolBuilder {
  private buf: Uint8Array;
  private len: number;
  private readonly memoryVersion: number;
  private readonly encrypted: boolean;
  private readonly shortKeys: boolean;
  private readonly dedup = new Map<string, bigint>();

  constructor(options: Sd2PoolBuilderOptions) {
    this.memoryVersion = options.memoryVersion;
    this.encrypted = sd2PoolEncrypted(options.memoryVersion, options.flags);
    this.shortKeys = options.shortKeys === true && options.memoryVersion === 1002;
    const base = options.base ?? new Uint8Array(0);
    this.buf = new Uint8Array(Math.max(1024, base.length * 2));
    this.buf.set(base);
    this.len = base.length;
  }

  private ensure(extra: number): void {
    if (this.len + extra <= this.buf.length) return;
    let cap = this.buf.length * 2;
    while (cap < this.len + extra) cap *= 2;
    const next = new Uint8Array(cap);
    next.set(this.buf.subarray(0, this.len));
    this.buf = next;
  }

  get size(): number {
    return this.len;
  }

  /**
   * Adds plain entry bytes and returns the key (as a bigint: u32 in 1002, u64 in 1000). Empty bytes give key 0
   * (no value, the cell reads back as null).
   */
  add(plain: Uint8Array, rowIndex: number): bigint {
    if (plain.length === 0) return 0n;
    const dedupKey = (this.memoryVersion === 1000 ? rowIndex + ':' : '') + latin1Decode(plain);
    const known = this.dedup.get(dedupKey);
    if (known !== undefined) return known;
    const at = this.len;
    let key: bigint;
    if (this.memoryVersion === 1000) {
      if (at > 0xffffffff) throw new ConsistencyError('sd2', [{ rule: 'sd2.pool.size', message: `pool exceeds 4 GiB`, severity: 'error' }]);
      key = BigInt(at) | (BigInt(plain.length) << 32n);
      this.ensure(plain.length);
      this.buf.set(plain, at);
      if (this.encrypted) sd2XorKeystream(this.buf, rowIndex >>> 0, at, at + plain.length);
      this.len += plain.length;
    } else if (this.shortKeys && plain.length <= 255 && at <= 0x7fffff) {
      const k = ((plain.length << 24) | (at << 1)) >>> 0;
      key = BigInt(k);
      this.ensure(plain.length);
      this.buf.set(plain, at);
      if (this.encrypted) sd2XorKeystream(this.buf, k, at, at + plain.length);
      this.len += plain.length;
    } else {
      if (plain.length > 0xffff) throw new ConsistencyError('sd2', [{ rule: 'sd2.pool.entry-size', message: `pool entry of ${plain.length} bytes exceeds the long form's 65535`, severity: 'error' }]);
      if (at > 0x7fffffff) throw new ConsistencyError('sd2', [{ rule: 'sd2.pool.size', message: 'pool exceeds 2 GiB (31-bit addresses)', severity: 'error' }]);
      const k = ((at << 1) | 1) >>> 0;
      key = BigInt(k);
      this.ensure(2 + plain.length);
      this.buf[at] = plain.length & 0xff;
      this.buf[at + 1] = plain.length >>> 8;
      this.buf.set(plain, at + 2);
      if (this.encrypted) sd2XorKeystream(this.buf, k, at + 2, at + 2 + plain.length);
      this.len += 2 + plain.length;
    }
    this.dedup.set(dedupKey, key);
    return key;
  }

  /** The stored pool bytes so far (a view, valid until the next add). */
  view(): Uint8Array {
    return this.buf.subarray(0, this.len);
  }

  /** The stored pool bytes (a copy sized exactly). */
  finish(): Uint8Array {
    return this.buf.slice(0, this.len);
  }
}
