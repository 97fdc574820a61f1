/**
 * Structure-aware mutation of fuzz inputs.
 *
 * Field maps come from watching the format's own reader open each seed: every `ByteReader` and `DataView` read
 * on the seed's bytes is a field (offset, size). Every 4-aligned offset also counts as a u32 field, so readers
 * that index typed-array views directly (the GameDB value section) are covered too.
 *
 * A campaign is a numbered sequence of cases; case `i` is a pure function of (seeds, maps, campaign seed, i), so
 * the watchdog can rebuild the input of a case that hung. Even cases walk the deterministic strategies, in order:
 * truncate at every field boundary, set each u32 to 0 / 1 / 0x7FFFFFFF / 0xFFFFFFFF, inflate each u32 (+1, +2,
 * ×2+1, +input length, <<8), set each u16 to 0 / 0xFFFF / +1. Odd cases (and every case once those are done) are
 * random stacks of one to three mutations: byte flips and overwrites (`mutateBytes`), a random field strategy,
 * a splice of two seeds at field boundaries, a word inserted or deleted at a boundary.
 */
import { ByteReader } from '../src/binary/reader.ts';
import { mutateBytes, xorshift32 } from './support.ts';

/** The fields of one seed: sorted distinct (offset, size) pairs, and the boundaries (every offset and end). */
export interface FieldMap {
  u32: Int32Array;
  u16: Int32Array;
  boundaries: Int32Array;
}

const READ_SIZES: Record<string, number> = {
  u8: 1, i8: 1, u16: 2, i16: 2, u32: 4, i32: 4, f32: 4, u64: 8, i64: 8, f64: 8,
  u8At: 1, u16At: 2, u32At: 4, i32At: 4, f32At: 4,
};
const DATAVIEW_SIZES: Record<string, number> = {
  getUint8: 1, getInt8: 1, getUint16: 2, getInt16: 2, getUint32: 4, getInt32: 4, getFloat32: 4, getFloat64: 8, getBigUint64: 8, getBigInt64: 8,
};

/**
 * Runs `open(seed)` while recording every field read on the seed's bytes, and returns the field map (traced
 * fields plus every aligned u32). Errors of `open` are ignored: a partial trace is still a trace.
 */
export async function traceFields(seed: Uint8Array, open: (b: Uint8Array) => unknown): Promise<FieldMap> {
  const reads = new Map<number, number>();
  const note = (buffer: ArrayBufferLike, abs: number, size: number): void => {
    if (buffer !== seed.buffer) return;
    const off = abs - seed.byteOffset;
    if (off < 0 || off + size > seed.length) return;
    reads.set(off * 16 + size, 1);
  };
  const rp = ByteReader.prototype as unknown as Record<string, (...a: unknown[]) => unknown>;
  const dp = DataView.prototype as unknown as Record<string, (...a: unknown[]) => unknown>;
  const savedR = new Map<string, (...a: unknown[]) => unknown>();
  const savedD = new Map<string, (...a: unknown[]) => unknown>();
  for (const [name, size] of Object.entries(READ_SIZES)) {
    const orig = rp[name]!;
    savedR.set(name, orig);
    rp[name] = function (this: ByteReader, ...args: unknown[]) {
      const at = name.endsWith('At') ? (args[0] as number) : this.pos;
      note(this.data.buffer, this.data.byteOffset + at, size);
      return orig.apply(this, args);
    };
  }
  const origBytes = rp['bytes']!;
  savedR.set('bytes', origBytes);
  rp['bytes'] = function (this: ByteReader, ...args: unknown[]) {
    const n = args[0] as number;
    note(this.data.buffer, this.data.byteOffset + this.pos, 0);
    if (Number.isInteger(n) && n > 0) note(this.data.buffer, this.data.byteOffset + this.pos + n, 0);
    return origBytes.apply(this, args);
  };
  for (const [name, size] of Object.entries(DATAVIEW_SIZES)) {
    const orig = dp[name]!;
    savedD.set(name, orig);
    dp[name] = function (this: DataView, ...args: unknown[]) {
      note(this.buffer, this.byteOffset + (args[0] as number), size);
      return orig.apply(this, args);
    };
  }
  try {
    await open(seed);
  } catch {
    /* a partial trace is enough */
  } finally {
    for (const [k, f] of savedR) rp[k] = f;
    for (const [k, f] of savedD) dp[k] = f;
  }
  const u32 = new Set<number>();
  const u16 = new Set<number>();
  const bounds = new Set<number>([0, seed.length]);
  for (let off = 0; off + 4 <= seed.length; off += 4) u32.add(off);
  for (const key of reads.keys()) {
    const off = Math.floor(key / 16);
    const size = key % 16;
    bounds.add(off);
    bounds.add(off + size);
    if (size === 4 || size === 8) u32.add(off);
    if (size === 8) u32.add(off + 4);
    if (size === 2) u16.add(off);
  }
  const sorted = (s: Set<number>) => Int32Array.from([...s].sort((a, b) => a - b));
  return { u32: sorted(u32), u16: sorted(u16), boundaries: sorted(bounds) };
}

/** 32-bit mix of two numbers (for per-case PRNG seeds). */
function mix(a: number, b: number): number {
  let h = (a ^ Math.imul(b, 0x9e3779b1)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b) >>> 0;
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0;
  return (h ^ (h >>> 16)) >>> 0 || 1;
}

const U32_VALUES = [0, 1, 0x7fffffff, 0xffffffff];
const U32_STRATEGIES = 4 + 5; // the four values, then five inflations
const U16_STRATEGIES = 3;

function setU32(b: Uint8Array, at: number, v: number): void {
  if (at + 4 > b.length) return;
  new DataView(b.buffer, b.byteOffset, b.byteLength).setUint32(at, v >>> 0, true);
}
function getU32(b: Uint8Array, at: number): number {
  return at + 4 <= b.length ? new DataView(b.buffer, b.byteOffset, b.byteLength).getUint32(at, true) : 0;
}
function inflate(v: number, k: number, length: number): number {
  switch (k) {
    case 0:
      return v + 1;
    case 1:
      return v + 2;
    case 2:
      return v * 2 + 1;
    case 3:
      return v + length;
    default:
      return v * 256 + 0xff;
  }
}

/** Builds the input of every case of a campaign. */
export class CaseGenerator {
  readonly seeds: readonly Uint8Array[];
  readonly maps: readonly FieldMap[];
  readonly campaignSeed: number;
  /** Cumulative count of deterministic cases per seed. */
  private readonly detEnd: number[] = [];
  readonly deterministicCases: number;

  constructor(seeds: readonly Uint8Array[], maps: readonly FieldMap[], campaignSeed: number) {
    this.seeds = seeds;
    this.maps = maps;
    this.campaignSeed = campaignSeed >>> 0;
    let total = 0;
    for (const m of maps) {
      total += m.boundaries.length + m.u32.length * U32_STRATEGIES + m.u16.length * U16_STRATEGIES;
      this.detEnd.push(total);
    }
    this.deterministicCases = total;
  }

  /** What case `i` does, for reports. */
  describe(i: number): string {
    const d = this.deterministicIndex(i);
    if (d < 0) return `random stack (case ${i})`;
    const { seed, kind, at, k } = this.locate(d);
    return `seed ${seed}: ${kind} at 0x${at.toString(16)}${kind === 'truncate' ? '' : ` strategy ${k}`}`;
  }

  /** Even cases take the deterministic strategies in order while any are left; the rest are random. */
  private deterministicIndex(i: number): number {
    return i % 2 === 0 && i / 2 < this.deterministicCases ? i / 2 : -1;
  }

  private locate(d: number): { seed: number; kind: 'truncate' | 'u32' | 'u16'; at: number; k: number } {
    let s = 0;
    while (d >= this.detEnd[s]!) s++;
    let r = d - (s > 0 ? this.detEnd[s - 1]! : 0);
    const m = this.maps[s]!;
    if (r < m.boundaries.length) return { seed: s, kind: 'truncate', at: m.boundaries[r]!, k: 0 };
    r -= m.boundaries.length;
    if (r < m.u32.length * U32_STRATEGIES) return { seed: s, kind: 'u32', at: m.u32[Math.floor(r / U32_STRATEGIES)]!, k: r % U32_STRATEGIES };
    r -= m.u32.length * U32_STRATEGIES;
    return { seed: s, kind: 'u16', at: m.u16[Math.floor(r / U16_STRATEGIES)]!, k: r % U16_STRATEGIES };
  }

  /** The input of case `i` (a fresh copy; the seeds are never modified). */
  input(i: number): Uint8Array {
    const d = this.deterministicIndex(i);
    if (d >= 0) {
      const { seed, kind, at, k } = this.locate(d);
      const src = this.seeds[seed]!;
      if (kind === 'truncate') return src.slice(0, at);
      const b = src.slice();
      if (kind === 'u32') setU32(b, at, k < 4 ? U32_VALUES[k]! : inflate(getU32(b, at), k - 4, b.length));
      else {
        const v = b[at]! | (b[at + 1]! << 8);
        const nv = k === 0 ? 0 : k === 1 ? 0xffff : v + 1;
        b[at] = nv & 0xff;
        b[at + 1] = (nv >>> 8) & 0xff;
      }
      return b;
    }
    return this.randomInput(i);
  }

  private randomInput(i: number): Uint8Array {
    const next = xorshift32(mix(this.campaignSeed, i));
    const s = next() % this.seeds.length;
    let b: Uint8Array = this.seeds[s]!.slice();
    let map = this.maps[s]!;
    const ops = 1 + (next() % 3);
    for (let o = 0; o < ops; o++) {
      const kind = next() % 8;
      if (kind <= 2) b = mutateBytes(b, next);
      else if (kind === 3 && map.u32.length > 0) {
        const at = map.u32[next() % map.u32.length]!;
        const k = next() % U32_STRATEGIES;
        setU32(b, at, k < 4 ? U32_VALUES[k]! : inflate(getU32(b, at), k - 4, b.length));
      } else if (kind === 4 && map.boundaries.length > 0) {
        b = b.slice(0, Math.min(b.length, map.boundaries[next() % map.boundaries.length]!));
      } else if (kind === 5) {
        // splice: a prefix of this input up to a boundary, then a suffix of a seed from one of its boundaries
        const t = next() % this.seeds.length;
        const other = this.seeds[t]!;
        const om = this.maps[t]!;
        const cut = Math.min(b.length, map.boundaries[next() % map.boundaries.length] ?? 0);
        const from = om.boundaries[next() % om.boundaries.length] ?? 0;
        const out = new Uint8Array(cut + other.length - from);
        out.set(b.subarray(0, cut));
        out.set(other.subarray(from), cut);
        b = out;
        map = om;
      } else if (kind === 6 && map.boundaries.length > 0) {
        // a word inserted at a boundary (shifts every later field)
        const at = Math.min(b.length, map.boundaries[next() % map.boundaries.length]!);
        const out = new Uint8Array(b.length + 4);
        out.set(b.subarray(0, at));
        setU32(out, at, (next() & 1) === 0 ? next() : next() % 64);
        out.set(b.subarray(at), at + 4);
        b = out;
      } else if (map.boundaries.length > 0) {
        // a word deleted at a boundary
        const at = Math.min(b.length, map.boundaries[next() % map.boundaries.length]!);
        const out = new Uint8Array(Math.max(0, b.length - 4));
        out.set(b.subarray(0, at).subarray(0, out.length));
        if (at + 4 < b.length) out.set(b.subarray(at + 4), at);
        b = out;
      }
    }
    return b;
  }
}
