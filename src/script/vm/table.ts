/**
 * Lua 5.1 tables: an array part for the keys 1..n and a hash part, sized by Lua 5.1's own rules (`ltable.c`:
 * constructors preallocate, a full hash part triggers a rehash that counts integer keys and picks the largest
 * array size more than half full), so `#` (the border search of `luaH_getn`) gives the same answer as Lua 5.1 for
 * every table, holes included.
 *
 * The hash part keeps keys in insertion order: key / value arrays sized to the Lua node count, searched linearly
 * while the part is small (up to {@link SMALL_HASH} entries, the common object-like table: no Map allocated) and
 * through a Map from key to entry index beyond that. Key equality is `===` in both forms (the Map's SameValueZero
 * differs from it only on NaN, never a key). A key assigned nil stays as a dead entry until the next rehash, as
 * Lua's dead nodes do, so `next` accepts it while a traversal clears fields. Traversal order is array part, then hash part in insertion order (hksc's FromSoftware
 * builds also order hash tables by insertion; Lua 5.1's order depends on hashing and is unspecified).
 *
 * Values are kept in native form (see `value.ts`). A table never reaches `maxEntries` slots: the VM's table size
 * budget is enforced where the parts grow.
 */
import { instanceTest, type LuaValue } from './value.ts';

/**
 * Hash parts with at most this many entries are searched linearly (no Map): a 3-field table built by a
 * constructor costs its object and two 4-slot arrays instead of a Map's hash table besides.
 */
export const SMALL_HASH = 8;

/** Lua 5.1 `MAXBITS` (26 on 32-bit ints): array parts never exceed 2^26 slots. */
const MAXBITS = 26;
const MAXASIZE = 1 << MAXBITS;

/** Thrown (and turned into a Lua error by the VM) when a table would exceed its size budget. */
export class TableOverflow {
  readonly size: number;
  constructor(size: number) {
    this.size = size;
  }
}

/** `luaO_fb2int`: the "floating byte" encoding of NEWTABLE sizes. */
export function floatingByteToInt(x: number): number {
  const e = (x >>> 3) & 31;
  return e === 0 ? x : ((x & 7) + 8) * 2 ** (e - 1);
}

function ceilLog2(x: number): number {
  // smallest l with 2^l >= x, for x >= 1
  let l = 0;
  let p = 1;
  while (p < x) {
    p *= 2;
    l++;
  }
  return l;
}

/**
 * Smallest power of two >= x (x >= 1). Shifts, not `2 ** n`: V8 gives `**` a double result, and storing one in
 * `hcap` would turn that field of every table from small-integer to double (every table access compiled before
 * then deoptimizes once).
 */
function ceilPow2(x: number): number {
  let p = 1;
  while (p < x) p = p < 0x40000000 ? p << 1 : p * 2;
  return p;
}

/** An integer key suitable for the array part, or 0. */
function arrayIndexOf(k: LuaValue): number {
  if (typeof k === 'number') {
    const i = k | 0;
    if (i === k && i > 0 && i <= MAXASIZE) return i;
  }
  return 0;
}

export class LuaTable {
  /** Array part: `arr[i - 1]` holds key i; its length is the Lua array size. */
  arr: LuaValue[];
  /** Hash part: key -> entry index, created once the part holds more than {@link SMALL_HASH} entries. */
  hmap: Map<LuaValue, number> | null = null;
  hk: LuaValue[] = EMPTY;
  hv: LuaValue[] = EMPTY;
  /** Entries used since the last rehash (dead ones included). */
  hused = 0;
  /** Lua node count of the hash part (a power of two, 0 = Lua's dummy node). */
  hcap = 0;
  metatable: LuaTable | null = null;
  /** Largest slot count (array + hash) this table may reach; the VM's table budget. */
  maxEntries: number;

  constructor(narray = 0, nhash = 0, maxEntries = MAXASIZE * 2) {
    this.maxEntries = maxEntries;
    if (narray + nhash > maxEntries) throw new TableOverflow(narray + nhash);
    this.arr = narray > 0 ? new Array<LuaValue>(narray).fill(undefined) : [];
    if (nhash > 0) this.hcap = ceilPow2(nhash);
  }

  // ---------------------------------------------------------------- reads

  /** Raw get of any key. */
  get(key: LuaValue): LuaValue {
    if (typeof key === 'string') return this.getStr(key);
    if (typeof key === 'number') return this.getNum(key);
    if (key === undefined) return undefined;
    const i = this.entryOf(key);
    return i < 0 ? undefined : this.hv[i];
  }

  getStr(key: string): LuaValue {
    const i = this.entryOf(key);
    return i < 0 ? undefined : this.hv[i];
  }

  /** The hash-part entry of key `key` (dead entries included), or -1: the interpreter's inline caches. */
  entryOf(key: LuaValue): number {
    const m = this.hmap;
    if (m === null) {
      const hk = this.hk;
      const n = this.hused;
      for (let i = 0; i < n; i++) if (hk[i] === key) return i;
      return -1;
    }
    const i = m.get(key);
    return i === undefined ? -1 : i;
  }

  getNum(key: number): LuaValue {
    const a = this.arr;
    const i = key - 1;
    if (i >= 0 && i < a.length && (i | 0) === i) return a[i];
    if (this.hused === 0) return undefined;
    const e = this.entryOf(key);
    return e < 0 ? undefined : this.hv[e];
  }

  /** Integer key fast path (the caller knows `key` is an integer). */
  getInt(key: number): LuaValue {
    const a = this.arr;
    if (key >= 1 && key <= a.length) return a[key - 1];
    if (this.hused === 0) return undefined;
    const e = this.entryOf(key);
    return e < 0 ? undefined : this.hv[e];
  }

  // ---------------------------------------------------------------- writes

  /**
   * Raw set. The caller has rejected nil and NaN keys. Like `luaH_set`, a new key is inserted even when the value
   * is nil (it becomes a dead entry at once).
   */
  set(key: LuaValue, v: LuaValue): void {
    if (typeof key === 'number') {
      const a = this.arr;
      const i = key - 1;
      if (i >= 0 && i < a.length && (i | 0) === i) {
        a[i] = v;
        return;
      }
    }
    this.setHash(key, v);
  }

  setStr(key: string, v: LuaValue): void {
    const i = this.entryOf(key);
    if (i >= 0) this.hv[i] = v;
    else this.insertNew(key, v);
  }

  setInt(key: number, v: LuaValue): void {
    const a = this.arr;
    if (key >= 1 && key <= a.length) {
      a[key - 1] = v;
      return;
    }
    this.setHash(key, v);
  }

  private setHash(key: LuaValue, v: LuaValue): void {
    const i = this.entryOf(key);
    if (i >= 0) this.hv[i] = v;
    else this.insertNew(key, v);
  }

  private insertNew(key: LuaValue, v: LuaValue): void {
    if (this.hused >= this.hcap) {
      this.rehash(key);
      // the key may now belong to the array part
      const ai = arrayIndexOf(key);
      if (ai > 0 && ai <= this.arr.length) {
        this.arr[ai - 1] = v;
        return;
      }
    }
    this.appendHash(key, v);
  }

  /** Appends a new entry to the hash part (the caller knows there is room). */
  private appendHash(key: LuaValue, v: LuaValue): void {
    if (this.hk === EMPTY) {
      // arrays of the node count (filled: packed arrays, as every table's are)
      this.hk = new Array<LuaValue>(this.hcap).fill(undefined);
      this.hv = new Array<LuaValue>(this.hcap).fill(undefined);
    }
    const i = this.hused++;
    this.hk[i] = key;
    this.hv[i] = v;
    const m = this.hmap;
    if (m !== null) m.set(key, i);
    else if (i === SMALL_HASH) {
      // past the linear-search size: index every entry
      const map = new Map<LuaValue, number>();
      const hk = this.hk;
      for (let e = 0; e <= i; e++) map.set(hk[e], e);
      this.hmap = map;
    }
  }

  // ---------------------------------------------------------------- Lua 5.1 sizing

  private rehash(extraKey: LuaValue): void {
    const nums = new Array<number>(MAXBITS + 1).fill(0);
    // keys in the array part, by power-of-two slice
    const a = this.arr;
    let nasize = 0;
    for (let lg = 0, ttlg = 1, i = 1; lg <= MAXBITS; lg++, ttlg *= 2) {
      let lim = ttlg;
      if (lim > a.length) {
        lim = a.length;
        if (i > lim) break;
      }
      let lc = 0;
      for (; i <= lim; i++) if (a[i - 1] !== undefined) lc++;
      nums[lg]! += lc;
      nasize += lc;
    }
    let totaluse = nasize;
    // live keys of the hash part
    for (let i = 0; i < this.hused; i++) {
      if (this.hv[i] === undefined) continue;
      const ai = arrayIndexOf(this.hk[i]);
      if (ai > 0) {
        nums[ceilLog2(ai)]!++;
        nasize++;
      }
      totaluse++;
    }
    const ek = arrayIndexOf(extraKey);
    if (ek > 0) {
      nums[ceilLog2(ek)]!++;
      nasize++;
    }
    totaluse++;
    // computesizes
    let acc = 0;
    let na = 0;
    let n = 0;
    for (let i = 0, twotoi = 1; twotoi / 2 < nasize; i++, twotoi *= 2) {
      if (nums[i]! > 0) {
        acc += nums[i]!;
        if (acc > twotoi / 2) {
          n = twotoi;
          na = acc;
        }
      }
      if (acc === nasize) break;
    }
    this.resize(n, totaluse - na);
  }

  /** `luaH_resize`: new array size and hash slot count (rounded up to a power of two). */
  resize(nasize: number, nhsize: number): void {
    const hcap = nhsize > 0 ? ceilPow2(nhsize) : 0;
    if (nasize + hcap > this.maxEntries) throw new TableOverflow(nasize + hcap);
    const oldArr = this.arr;
    const oldK = this.hk;
    const oldV = this.hv;
    const oldUsed = this.hused;
    let arr = oldArr;
    if (nasize > oldArr.length) {
      arr = oldArr;
      for (let i = oldArr.length; i < nasize; i++) arr.push(undefined);
    } else if (nasize < oldArr.length) {
      arr = oldArr.slice(0, nasize);
    }
    this.arr = arr;
    this.hcap = hcap;
    this.hused = 0;
    this.hmap = null;
    this.hk = EMPTY;
    this.hv = EMPTY;
    // elements of a vanishing array slice move to the hash part
    for (let i = nasize; i < oldArr.length; i++) {
      const v = oldArr[i];
      if (v !== undefined) this.reinsert(i + 1, v);
    }
    for (let i = 0; i < oldUsed; i++) {
      const v = oldV[i];
      if (v !== undefined) this.reinsert(oldK[i], v);
    }
  }

  /** Insert during a resize (sizes are already right). */
  private reinsert(key: LuaValue, v: LuaValue): void {
    const ai = arrayIndexOf(key);
    if (ai > 0 && ai <= this.arr.length) {
      this.arr[ai - 1] = v;
      return;
    }
    this.appendHash(key, v);
  }

  /** `luaH_resizearray` (SETLIST growing a constructor's array part). */
  resizeArray(nasize: number): void {
    this.resize(nasize, this.hcap);
  }

  // ---------------------------------------------------------------- length and traversal

  /** `#t` for a table: Lua 5.1's border (`luaH_getn`). */
  length(): number {
    const a = this.arr;
    let j = a.length;
    if (j > 0 && a[j - 1] === undefined) {
      let i = 0;
      while (j - i > 1) {
        const m = Math.floor((i + j) / 2);
        if (a[m - 1] === undefined) j = m;
        else i = m;
      }
      return i;
    }
    if (this.hcap === 0) return j;
    // unbound search in the hash part
    let i = j;
    j++;
    while (this.getNum(j) !== undefined) {
      i = j;
      j *= 2;
      if (j > 0x7ffffffd) {
        // pathological table: linear search
        i = 1;
        while (this.getNum(i) !== undefined) i++;
        return i - 1;
      }
    }
    while (j - i > 1) {
      const m = Math.floor((i + j) / 2);
      if (this.getNum(m) === undefined) j = m;
      else i = m;
    }
    return i;
  }

  /**
   * The traversal step of `next`: writes the key and value after `key` into `out` and returns true, or returns
   * false at the end. Returns undefined when `key` is not in the table (Lua's "invalid key to 'next'").
   */
  next(key: LuaValue, out: { k: LuaValue; v: LuaValue }): boolean | undefined {
    const a = this.arr;
    let i: number;
    if (key === undefined) i = 0;
    else {
      const ai = arrayIndexOf(key);
      if (ai > 0 && ai <= a.length) i = ai;
      else {
        const e = this.entryOf(key);
        if (e < 0) return undefined;
        return this.nextInHash(e + 1, out);
      }
    }
    for (; i < a.length; i++) {
      const v = a[i];
      if (v !== undefined) {
        out.k = i + 1;
        out.v = v;
        return true;
      }
    }
    return this.nextInHash(0, out);
  }

  private nextInHash(from: number, out: { k: LuaValue; v: LuaValue }): boolean {
    const hv = this.hv;
    for (let e = from; e < this.hused; e++) {
      const v = hv[e];
      if (v !== undefined) {
        out.k = this.hk[e];
        out.v = v;
        return true;
      }
    }
    return false;
  }

  /** Number of slots (array size + hash node count), for budgets and `collectgarbage('count')`. */
  get slotCount(): number {
    return this.arr.length + this.hcap;
  }
}

const EMPTY: LuaValue[] = [];

/** The `instanceof` stand-in of {@link LuaTable} (see `instanceTest` in value.ts). */
export const IsLuaTable = instanceTest(LuaTable);
