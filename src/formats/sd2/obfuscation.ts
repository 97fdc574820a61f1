/**
 * Firefall's obfuscation primitives (spec sd2.md §3, all [verified]):
 *
 * - **FFnv32**: FNV-1a over ASCII bytes followed by two extra mixing steps. It seeds the payload keystream (over
 *   the patch name) and it is the hash of every table and column name.
 * - **MT19937**: the stock Mersenne Twister (init multiplier 0x6C078965, twist 0x9908B0DF, standard tempering).
 * - **Keystream of length L**: `L >> 2` outputs written as 4 little-endian bytes each, then one more output per
 *   leftover byte, of which only the low byte is used. The keystream therefore depends on L: a 7-byte buffer does
 *   not use the first 7 bytes of the 8-byte keystream.
 *
 * Pool entries are short and each has its own seed, so the generator here never twists more of the state than the
 * outputs it is asked for need (a first output `i < 227` needs only initial words `0…i+397`).
 */

/** FFnv32 of raw bytes. */
export function ffnv32Bytes(bytes: Uint8Array): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  const a = Math.imul(h, 8193);
  h = Math.imul(9, a ^ (a >>> 7));
  return Math.imul(33, h ^ (h >>> 17)) >>> 0;
}

/**
 * FFnv32 of a name, hashed as .NET's ASCII encoding does: every UTF-16 code unit above 0x7F becomes `?`.
 * This is how table ids (`dbitems::Weapons`) and column ids (`localized_name_id`) are made.
 */
export function ffnv32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h = Math.imul(h ^ (c > 0x7f ? 0x3f : c), 0x01000193);
  }
  const a = Math.imul(h, 8193);
  h = Math.imul(9, a ^ (a >>> 7));
  return Math.imul(33, h ^ (h >>> 17)) >>> 0;
}

const N = 624;
const M = 397;
const MATRIX_A = 0x9908b0df;

function temper(y: number): number {
  y ^= y >>> 11;
  y ^= (y << 7) & 0x9d2c5680;
  y ^= (y << 15) & 0xefc60000;
  y ^= y >>> 18;
  return y >>> 0;
}

/** A stock MT19937 generator (same outputs as C++ `std::mt19937`). */
export class Sd2Mt19937 {
  private readonly mt = new Uint32Array(N);
  private index = N;

  constructor(seed: number) {
    const mt = this.mt;
    mt[0] = seed >>> 0;
    for (let i = 1; i < N; i++) {
      const p = mt[i - 1]!;
      mt[i] = Math.imul(0x6c078965, p ^ (p >>> 30)) + i;
    }
  }

  private twist(): void {
    const mt = this.mt;
    let i = 0;
    for (; i < N - M; i++) {
      const y = (mt[i]! & 0x80000000) | (mt[i + 1]! & 0x7fffffff);
      mt[i] = mt[i + M]! ^ (y >>> 1) ^ (y & 1 ? MATRIX_A : 0);
    }
    for (; i < N - 1; i++) {
      const y = (mt[i]! & 0x80000000) | (mt[i + 1]! & 0x7fffffff);
      mt[i] = mt[i + M - N]! ^ (y >>> 1) ^ (y & 1 ? MATRIX_A : 0);
    }
    const y = (mt[N - 1]! & 0x80000000) | (mt[0]! & 0x7fffffff);
    mt[N - 1] = mt[M - 1]! ^ (y >>> 1) ^ (y & 1 ? MATRIX_A : 0);
    this.index = 0;
  }

  /** XORs every word of `view` with the next outputs, a twisted block at a time. */
  xorWords(view: Uint32Array): void {
    const mt = this.mt;
    const n = view.length;
    let i = 0;
    while (i < n) {
      if (this.index >= N) this.twist();
      const take = Math.min(N - this.index, n - i);
      const base = this.index;
      for (let k = 0; k < take; k++) {
        let y = mt[base + k]!;
        y ^= y >>> 11;
        y ^= (y << 7) & 0x9d2c5680;
        y ^= (y << 15) & 0xefc60000;
        y ^= y >>> 18;
        view[i + k] = view[i + k]! ^ y;
      }
      this.index += take;
      i += take;
    }
  }

  /** The next 32-bit output. */
  next(): number {
    if (this.index >= N) this.twist();
    return temper(this.mt[this.index++]!);
  }
}

// Scratch state for short keystreams (pool entries): reused, never shared across calls.
const scratch = new Uint32Array(N);

/**
 * Writes the first `count` (≤ 227) outputs of MT19937(seed) into `out`, initialising and twisting only the words
 * those outputs depend on.
 */
function shortOutputs(seed: number, count: number, out: Uint32Array): void {
  const mt = scratch;
  const last = Math.min(N - 1, count + M);
  mt[0] = seed >>> 0;
  for (let i = 1; i <= last; i++) {
    const p = mt[i - 1]!;
    mt[i] = Math.imul(0x6c078965, p ^ (p >>> 30)) + i;
  }
  for (let i = 0; i < count; i++) {
    const y = (mt[i]! & 0x80000000) | (mt[i + 1]! & 0x7fffffff);
    out[i] = temper(mt[i + M]! ^ (y >>> 1) ^ (y & 1 ? MATRIX_A : 0));
  }
}

const shortOut = new Uint32Array(227);

/**
 * XORs `data[start, end)` in place with the keystream for a buffer of length `end - start` seeded with `seed`
 * (§3: whole little-endian words, then the low byte of one more output per leftover byte). Applying it twice
 * restores the input.
 */
export function sd2XorKeystream(data: Uint8Array, seed: number, start = 0, end = data.length): void {
  const length = end - start;
  const words = length >>> 2;
  const rest = length & 3;
  const outputs = words + rest;
  if (outputs <= 227) {
    shortOutputs(seed, outputs, shortOut);
    let p = start;
    for (let i = 0; i < words; i++) {
      const k = shortOut[i]!;
      data[p] = data[p]! ^ (k);
      data[p + 1] = data[p + 1]! ^ (k >>> 8);
      data[p + 2] = data[p + 2]! ^ (k >>> 16);
      data[p + 3] = data[p + 3]! ^ (k >>> 24);
      p += 4;
    }
    for (let i = 0; i < rest; i++) { data[p] = data[p]! ^ (shortOut[words + i]!); p++; }
    return;
  }
  const mt = new Sd2Mt19937(seed);
  let p = start;
  // Aligned fast path: XOR whole words through a Uint32Array view when the platform is little-endian.
  if ((data.byteOffset + p) % 4 === 0 && littleEndianHost) {
    mt.xorWords(new Uint32Array(data.buffer, data.byteOffset + p, words));
    p += words * 4;
  } else {
    for (let i = 0; i < words; i++) {
      const k = mt.next();
      data[p] = data[p]! ^ (k);
      data[p + 1] = data[p + 1]! ^ (k >>> 8);
      data[p + 2] = data[p + 2]! ^ (k >>> 16);
      data[p + 3] = data[p + 3]! ^ (k >>> 24);
      p += 4;
    }
  }
  for (let i = 0; i < rest; i++) { data[p] = data[p]! ^ (mt.next()); p++; }
}

const littleEndianHost = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** The keystream itself for a buffer of `length` bytes (for tests and tools). */
export function sd2Keystream(seed: number, length: number): Uint8Array {
  const out = new Uint8Array(length);
  sd2XorKeystream(out, seed);
  return out;
}
