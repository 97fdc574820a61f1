/**
 * The math library of Lua 5.1 (`lmathlib.c`), including the 5.0 compatibility `math.mod`. `math.random` draws from a
 * re-implementation of glibc's `rand()` (the additive feedback generator `srand` seeds), so a seeded script prints
 * the same numbers as Debian's lua5.1. In float mode every result is rounded when it is stored.
 */
import type { LuaTable } from '../table.ts';
import type { LuaVM } from '../vm.ts';
import { HostFunction } from '../value.ts';
import { argError, checkInt, checkNumber, libError, newLib } from './aux.ts';

/** glibc `random()` / `rand()` (TYPE_3: degree 31, separation 3). */
export class GlibcRandom {
  private r = new Int32Array(34);
  private f = 3;
  private b = 0;
  constructor(seed = 1) {
    this.seed(seed);
  }
  seed(seed: number): void {
    const r = new Int32Array(31);
    let s = seed >>> 0 === 0 ? 1 : seed | 0;
    r[0] = s;
    for (let i = 1; i < 31; i++) {
      // 16807 * s mod (2^31 - 1), Schrage's method, on the signed value as glibc does
      const hi = Math.trunc(s / 127773);
      const lo = s % 127773;
      let word = 16807 * lo - 2836 * hi;
      if (word < 0) word += 2147483647;
      s = word;
      r[i] = s;
    }
    this.r = new Int32Array(31);
    this.r.set(r);
    this.f = 3;
    this.b = 0;
    for (let i = 0; i < 310; i++) this.next();
  }
  /** Next value in 0 .. 2^31-1. */
  next(): number {
    const r = this.r;
    r[this.f] = (r[this.f]! + r[this.b]!) | 0;
    const result = (r[this.f]! >>> 1) & 0x7fffffff;
    if (++this.f >= 31) this.f = 0;
    if (++this.b >= 31) this.b = 0;
    return result;
  }
}

const RAND_MAX = 2147483647;

export function openMath(vm: LuaVM): LuaTable {
  const rng = new GlibcRandom(1);
  const one = (f: (x: number) => number) => (L: Parameters<Parameters<typeof newLib>[2][string]>[0], ra: number, nargs: number): number => {
    L.set(ra, f(checkNumber(L, ra, nargs, 1)));
    return 1;
  };
  // the functions of one number: the JavaScript tier calls them in place (HostFunction.numeric)
  const unary: Record<string, (x: number) => number> = {
    abs: Math.abs,
    acos: Math.acos,
    asin: Math.asin,
    atan: Math.atan,
    ceil: Math.ceil,
    cos: Math.cos,
    cosh: Math.cosh,
    exp: Math.exp,
    floor: Math.floor,
    log: Math.log,
    log10: Math.log10,
    sin: Math.sin,
    sinh: Math.sinh,
    sqrt: Math.sqrt,
    tan: Math.tan,
    tanh: Math.tanh,
    deg: (x) => x * (180 / Math.PI),
    rad: (x) => x * (Math.PI / 180),
  };
  const t = newLib(vm, 'math', {
    ...Object.fromEntries(Object.entries(unary).map(([name, f]) => [name, one(f)])),
    atan2(L, ra, nargs) {
      L.set(ra, Math.atan2(checkNumber(L, ra, nargs, 1), checkNumber(L, ra, nargs, 2)));
      return 1;
    },
    fmod(L, ra, nargs) {
      L.set(ra, checkNumber(L, ra, nargs, 1) % checkNumber(L, ra, nargs, 2));
      return 1;
    },
    mod(L, ra, nargs) {
      L.set(ra, checkNumber(L, ra, nargs, 1) % checkNumber(L, ra, nargs, 2));
      return 1;
    },
    pow(L, ra, nargs) {
      L.set(ra, Math.pow(checkNumber(L, ra, nargs, 1), checkNumber(L, ra, nargs, 2)));
      return 1;
    },
    modf(L, ra, nargs) {
      const x = checkNumber(L, ra, nargs, 1);
      const ip = x >= 0 ? Math.floor(x) : Math.ceil(x);
      L.set(ra, ip);
      L.set(ra + 1, Number.isFinite(x) ? x - ip : Number.isNaN(x) ? x : 0);
      return 2;
    },
    frexp(L, ra, nargs) {
      const x = checkNumber(L, ra, nargs, 1);
      const [m, e] = frexp(x);
      L.set(ra, m);
      L.set(ra + 1, e);
      return 2;
    },
    ldexp(L, ra, nargs) {
      const m = checkNumber(L, ra, nargs, 1);
      const e = checkInt(L, ra, nargs, 2);
      L.set(ra, ldexp(m, e));
      return 1;
    },
    max(L, ra, nargs) {
      let dmax = checkNumber(L, ra, nargs, 1);
      for (let i = 2; i <= nargs; i++) {
        const d = checkNumber(L, ra, nargs, i);
        if (d > dmax) dmax = d;
      }
      L.set(ra, dmax);
      return 1;
    },
    min(L, ra, nargs) {
      let dmin = checkNumber(L, ra, nargs, 1);
      for (let i = 2; i <= nargs; i++) {
        const d = checkNumber(L, ra, nargs, i);
        if (d < dmin) dmin = d;
      }
      L.set(ra, dmin);
      return 1;
    },
    random(L, ra, nargs) {
      const r = (rng.next() % RAND_MAX) / RAND_MAX;
      if (nargs === 0) L.set(ra, r);
      else if (nargs === 1) {
        const u = checkInt(L, ra, nargs, 1);
        if (!(1 <= u)) argError(L, 1, 'interval is empty');
        L.set(ra, Math.floor(r * u) + 1);
      } else if (nargs === 2) {
        const l = checkInt(L, ra, nargs, 1);
        const u = checkInt(L, ra, nargs, 2);
        if (!(l <= u)) argError(L, 2, 'interval is empty');
        L.set(ra, Math.floor(r * (u - l + 1)) + l);
      } else libError(L, 'wrong number of arguments');
      return 1;
    },
    randomseed(L, ra, nargs) {
      rng.seed(checkInt(L, ra, nargs, 1));
      return 0;
    },
  });
  for (const [name, f] of Object.entries(unary)) {
    const h = t.getStr(name);
    if (h instanceof HostFunction) h.numeric = f;
  }
  t.setStr('pi', Math.PI);
  t.setStr('huge', Infinity);
  return t;
}

/** C `frexp`: x = m * 2^e with 0.5 <= |m| < 1 (m = x, e = 0 for 0, inf, nan). */
export function frexp(x: number): [number, number] {
  if (x === 0 || !Number.isFinite(x)) return [x, 0];
  const a = Math.abs(x);
  let e = Math.max(-1073, Math.floor(Math.log2(a)) + 1);
  let m = a * 2 ** -e;
  while (m < 0.5) {
    m *= 2;
    e--;
  }
  while (m >= 1) {
    m /= 2;
    e++;
  }
  return [x < 0 ? -m : m, e];
}

/** C `ldexp` without intermediate overflow. */
export function ldexp(m: number, e: number): number {
  if (e > 1023) {
    m *= 2 ** 1023;
    e -= 1023;
    if (e > 1023) {
      m *= 2 ** 1023;
      e -= 1023;
      if (e > 1023) e = 1023;
    }
  } else if (e < -1022) {
    m *= 2 ** -1022;
    e += 1022;
    if (e < -1022) {
      m *= 2 ** -1022;
      e += 1022;
      if (e < -1022) e = -1022;
    }
  }
  return m * 2 ** e;
}
