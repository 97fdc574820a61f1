/**
 * The generator's only source of randomness: sfc32 (Chris Doty-Humphrey's small fast counter generator), seeded
 * through splitmix32 so that neighbouring seeds give unrelated streams. Deterministic on every platform: 32-bit
 * integer arithmetic only (`Math.imul`, `>>>`), no `Math.random`.
 */

/** A seeded pseudo-random stream. */
export class Prng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  /** `seed` is any safe integer; its low and high 32 bits both count. */
  constructor(seed: number) {
    const lo = seed >>> 0;
    const hi = Math.floor(seed / 0x1_0000_0000) >>> 0;
    let s = (lo ^ Math.imul(hi, 0x9e3779b9)) >>> 0;
    const mix = (): number => {
      s = (s + 0x9e3779b9) | 0;
      let z = s;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.a = mix();
    this.b = mix();
    this.c = mix();
    this.d = mix();
    for (let i = 0; i < 12; i++) this.u32();
  }

  /** A uniform unsigned 32-bit integer. */
  u32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** A uniform float in [0, 1). */
  float(): number {
    return this.u32() / 0x1_0000_0000;
  }

  /** A uniform integer in [0, n) (n ≥ 1, below 2^32). */
  int(n: number): number {
    return Math.floor(this.float() * n);
  }

  /** A uniform integer in [lo, hi] inclusive. */
  range(lo: number, hi: number): number {
    return lo + this.int(hi - lo + 1);
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.float() < p;
  }

  /** One element of a non-empty array. */
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }

  /** An index in [0, n) skewed towards 0: `floor(n · u^power)` (power 1 is uniform; 2 and 3 avoid `Math.pow`). */
  skewed(n: number, power: number): number {
    const u = this.float();
    const x = power === 2 ? u * u : power === 3 ? u * u * u : Math.pow(u, power);
    return Math.min(n - 1, Math.floor(n * x));
  }

  /** Shuffles in place (Fisher–Yates) and returns the array. */
  shuffle<T extends { length: number; [i: number]: unknown }>(items: T): T {
    for (let i = items.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      const t = items[i];
      items[i] = items[j];
      items[j] = t;
    }
    return items;
  }

  /** An independent stream derived from this one (so one part's draws never shift another's). */
  fork(): Prng {
    return new Prng(this.u32() + this.u32() * 0x20_0000);
  }
}

/**
 * Splits `total` into `weights.length` non-negative integers proportional to `weights`, each at least `min`, summing
 * exactly to `total` (largest remainders). Requires `total >= min · weights.length`.
 */
export function apportion(total: number, weights: ArrayLike<number>, min = 0, max = Infinity): number[] {
  const n = weights.length;
  if (n === 0) return [];
  if (total < min * n) throw new Error(`apportion: ${total} cannot give ${n} parts at least ${min}`);
  if (total > max * n) throw new Error(`apportion: ${total} cannot fit ${n} parts at most ${max}`);
  const out = new Array<number>(n).fill(min);
  let rest = total - min * n;
  // Repeat: proportional share of the rest among parts still below max.
  while (rest > 0) {
    let wsum = 0;
    for (let i = 0; i < n; i++) if (out[i]! < max) wsum += weights[i]!;
    if (wsum <= 0) {
      for (let i = 0; i < n && rest > 0; i++) if (out[i]! < max) (out[i] = out[i]! + 1), rest--;
      continue;
    }
    const fracs: { i: number; f: number }[] = [];
    let given = 0;
    for (let i = 0; i < n; i++) {
      if (out[i]! >= max) continue;
      const exact = (rest * weights[i]!) / wsum;
      const whole = Math.min(Math.floor(exact), max - out[i]!);
      out[i] = out[i]! + whole;
      given += whole;
      if (out[i]! < max) fracs.push({ i, f: exact - Math.floor(exact) });
    }
    rest -= given;
    fracs.sort((x, y) => y.f - x.f || x.i - y.i);
    for (const { i } of fracs) {
      if (rest === 0) break;
      out[i] = out[i]! + 1;
      rest--;
    }
  }
  return out;
}
