/**
 * Compact tables of the lossless JSON import, keyed by bytes rather than strings: the string block built from
 * nothing (items interned by kind and bytes) and the record labels (`Category/Record`) that links name. Open
 * addressing over typed arrays; no JavaScript string or object per item or label.
 */

/** FNV-1a seed. */
export const FNV_SEED = 0x811c9dc5;

/** FNV-1a over `b[start..end)`, continuing from `h`. */
export function fnv(h: number, b: Uint8Array, start: number, end: number): number {
  for (let i = start; i < end; i++) h = Math.imul(h ^ b[i]!, 0x01000193);
  return h >>> 0;
}

/** FNV-1a of `#` and the decimal digits of `i`, continuing from `h` (a primary's record part, `#12`). */
export function fnvPrimary(h: number, i: number): number {
  h = Math.imul(h ^ 0x23, 0x01000193);
  let div = 1;
  while (div * 10 <= i) div *= 10;
  for (; div >= 1; div = Math.floor(div / 10)) h = Math.imul(h ^ (0x30 + (Math.floor(i / div) % 10)), 0x01000193);
  return h >>> 0;
}

function growU32(a: Uint32Array, n: number): Uint32Array<ArrayBuffer> {
  const b = new Uint32Array(n);
  b.set(a);
  return b;
}

/**
 * A string block built item by item: each distinct (kind, item bytes) stored once, as `StringInterner` does for a
 * model (texts are their bytes, a NUL, zero padding to 4). Item 0 is the root name, never shared.
 */
export class BlockItems {
  data: Uint8Array;
  len: number;
  keys = new Uint32Array(1024);
  sizes = new Uint32Array(1024);
  count = 1;
  private kinds = new Uint8Array(1024);
  private hashes = new Uint32Array(1024);
  private slots = new Int32Array(2048);

  constructor(root: Uint8Array) {
    this.data = new Uint8Array(Math.max(1 << 16, root.length * 2));
    this.data.set(root);
    this.len = root.length;
    this.sizes[0] = root.length;
  }

  private ensure(end: number): void {
    if (end <= this.data.length) return;
    const next = new Uint8Array(Math.max(end, Math.floor(this.data.length * 1.5)));
    next.set(this.data.subarray(0, this.len));
    this.data = next;
  }

  /**
   * The key of the text item of `kind` holding `src[start..end)` (found, or appended): the bytes, a NUL, zeros to
   * a multiple of 4 — or, without `terminated`, the bytes padded to 4 only (a value of whole words).
   */
  text(kind: number, src: Uint8Array, start: number, end: number, terminated = true): number {
    const n = end - start;
    const size = terminated ? (n + 4) & ~3 : (n + 3) & ~3;
    const key = (this.len + 3) & ~3;
    this.ensure(key + size);
    const data = this.data;
    for (let i = 0; i < n; i++) data[key + i] = src[start + i]!;
    for (let i = n; i < size; i++) data[key + i] = 0;
    return this.commit(kind, key, size);
  }

  /** The key of the item of `kind` with exactly `bytes` (payload and padding). */
  item(kind: number, bytes: Uint8Array): number {
    const key = (this.len + 3) & ~3;
    this.ensure(key + bytes.length);
    this.data.set(bytes, key);
    return this.commit(kind, key, bytes.length);
  }

  /** Looks up the tentative item at `key` (past the end); keeps it only when no equal item exists. */
  private commit(kind: number, key: number, size: number): number {
    const data = this.data;
    const h = fnv((FNV_SEED ^ kind) >>> 0, data, key, key + size);
    let mask = this.slots.length - 1;
    for (let s = h & mask; ; s = (s + 1) & mask) {
      const id = this.slots[s]! - 1;
      if (id < 0) break;
      if (this.hashes[id] !== h || this.kinds[id] !== kind || this.sizes[id] !== size) continue;
      const other = this.keys[id]!;
      let same = true;
      for (let i = 0; i < size; i++) {
        if (data[other + i] !== data[key + i]) {
          same = false;
          break;
        }
      }
      if (same) return other;
    }
    const id = this.count++;
    if (id >= this.keys.length) {
      const n = this.keys.length * 2;
      this.keys = growU32(this.keys, n);
      this.sizes = growU32(this.sizes, n);
      this.hashes = growU32(this.hashes, n);
      const k = new Uint8Array(n);
      k.set(this.kinds);
      this.kinds = k;
    }
    this.keys[id] = key;
    this.sizes[id] = size;
    this.kinds[id] = kind;
    this.hashes[id] = h;
    this.len = key + size;
    if (this.count * 2 > this.slots.length) this.rehash();
    mask = this.slots.length - 1;
    for (let s = h & mask; ; s = (s + 1) & mask) {
      if (this.slots[s] === 0) {
        this.slots[s] = id + 1;
        break;
      }
    }
    return key;
  }

  private rehash(): void {
    const slots = new Int32Array(this.slots.length * 2);
    const mask = slots.length - 1;
    for (let id = 1; id < this.count - 1; id++) {
      for (let s = this.hashes[id]! & mask; ; s = (s + 1) & mask) {
        if (slots[s] === 0) {
          slots[s] = id + 1;
          break;
        }
      }
    }
    this.slots = slots;
  }

  /** The block, exactly sized. */
  finish(): { data: Uint8Array; itemKeys: Uint32Array; itemSizes: Uint32Array } {
    return { data: this.data.slice(0, this.len), itemKeys: this.keys.slice(0, this.count), itemSizes: this.sizes.slice(0, this.count) };
  }
}

const DEFINED = 1;
const REFERENCED = 2;
const AMBIGUOUS = 4;

/**
 * Record labels (`Category/Record`, as UTF-8) of a document being read, and the links that name them: a label is
 * an entry when a record defines it or a link names it first (a forward reference, its bytes kept in an arena
 * until the record comes). A defined entry stores no bytes: it is compared through its category's label and the
 * record's name item.
 */
export class LabelTable {
  private hash: Uint32Array;
  /** Defined: the encoded link. */
  private link: Uint32Array;
  /** Defined secondary: name key and length in `items`; forward reference: offset and length in `arena`. */
  private key: Uint32Array;
  private len: Uint32Array;
  private state: Uint8Array;
  private n = 0;
  private slots: Int32Array;
  private arena = new Uint8Array(1 << 16);
  private arenaLen = 0;
  private scratch = new Uint8Array(256);
  /** Per category: its label bytes, the hash of them and `/`, its primary count. */
  private readonly catLabel: Uint8Array[] = [];
  private readonly catHash: number[] = [];
  private readonly primaryCount: number[] = [];
  /** Defined entries whose record name is not UTF-8: the label bytes after the `/` (U+FFFD for bad bytes). */
  private readonly lossy = new Map<number, Uint8Array>();
  private readonly items: BlockItems;

  constructor(items: BlockItems, records: number) {
    this.items = items;
    const cap = Math.max(1024, records);
    this.hash = new Uint32Array(cap);
    this.link = new Uint32Array(cap);
    this.key = new Uint32Array(cap);
    this.len = new Uint32Array(cap);
    this.state = new Uint8Array(cap);
    let slots = 2048;
    while (slots < cap * 2) slots *= 2;
    this.slots = new Int32Array(slots);
  }

  /** Starts category `c` (its label bytes: the name as UTF-8). */
  addCategory(label: Uint8Array, primaryCount: number): void {
    this.catLabel.push(label);
    this.catHash.push(fnv(fnv(FNV_SEED, label, 0, label.length), SLASH, 0, 1));
    this.primaryCount.push(primaryCount);
  }

  /**
   * Record `index` of category `c` defines its label: a primary `#index`, a secondary the name item at `nameKey`
   * (`nameLen` bytes), or `lossy` bytes when the name is not UTF-8. Returns false when the label was already
   * defined and a link has named it (ambiguous).
   */
  define(c: number, index: number, nameKey: number, nameLen: number, lossy?: Uint8Array): boolean {
    const primary = index < this.primaryCount[c]!;
    const h = primary ? fnvPrimary(this.catHash[c]!, index) : lossy ? fnv(this.catHash[c]!, lossy, 0, lossy.length) : fnv(this.catHash[c]!, this.items.data, nameKey, nameKey + nameLen);
    const mask = this.slots.length - 1;
    let probe: Uint8Array | undefined;
    let probeLen = 0;
    for (let s = h & mask; ; s = (s + 1) & mask) {
      const id = this.slots[s]! - 1;
      if (id < 0) {
        const e = this.add(h, s);
        this.state[e] = DEFINED;
        this.setDefinition(e, c, index, nameKey, nameLen, lossy);
        return true;
      }
      if (this.hash[id] !== h) continue;
      if ((this.state[id]! & DEFINED) === 0) {
        if (!this.forwardIs(id, c, index, nameKey, nameLen, lossy)) continue;
      } else {
        if (!probe) {
          probe = this.labelOf(c, index, nameKey, nameLen, lossy);
          probeLen = this.scratchLen;
        }
        if (!this.equals(id, probe, 0, probeLen)) continue;
      }
      const st = this.state[id]!;
      if (st & DEFINED) {
        this.state[id] = st | AMBIGUOUS;
        return (st & REFERENCED) === 0;
      }
      this.state[id] = st | DEFINED;
      this.setDefinition(id, c, index, nameKey, nameLen, lossy);
      return true;
    }
  }

  /** The entry of the label `src[start..end)` (a forward reference when no record defined it yet). */
  ref(src: Uint8Array, start: number, end: number): number {
    const h = fnv(FNV_SEED, src, start, end);
    const mask = this.slots.length - 1;
    for (let s = h & mask; ; s = (s + 1) & mask) {
      const id = this.slots[s]! - 1;
      if (id < 0) {
        const e = this.add(h, s);
        const n = end - start;
        if (this.arenaLen + n > this.arena.length) {
          const next = new Uint8Array(Math.max(this.arenaLen + n, this.arena.length * 2));
          next.set(this.arena.subarray(0, this.arenaLen));
          this.arena = next;
        }
        this.arena.set(src.subarray(start, end), this.arenaLen);
        this.key[e] = this.arenaLen;
        this.len[e] = n;
        this.arenaLen += n;
        this.state[e] = REFERENCED;
        return e;
      }
      if (this.hash[id] === h && this.equals(id, src, start, end)) {
        this.state[id] = this.state[id]! | REFERENCED;
        return id;
      }
    }
  }

  /** The label of entry `e` as text (for messages). */
  text(e: number): string {
    if ((this.state[e]! & DEFINED) === 0) return new TextDecoder().decode(this.arena.subarray(this.key[e]!, this.key[e]! + this.len[e]!));
    const link = this.link[e]!;
    const c = link >>> 20;
    const index = link & 0xfffff;
    this.labelOf(c, index, this.key[e]!, this.len[e]!, this.lossy.get(e));
    return new TextDecoder().decode(this.scratch.subarray(0, this.scratchLen));
  }

  /** The link value of entry `e` when exactly one record defines its label, else -1 (none yet) or -2 (several). */
  target(e: number): number {
    const st = this.state[e]!;
    if (st & AMBIGUOUS) return -2;
    return st & DEFINED ? this.link[e]! : -1;
  }

  private setDefinition(e: number, c: number, index: number, nameKey: number, nameLen: number, lossy?: Uint8Array): void {
    this.link[e] = ((c << 20) | index) >>> 0;
    this.key[e] = nameKey;
    this.len[e] = nameLen;
    if (lossy) this.lossy.set(e, lossy);
  }

  private add(h: number, slot: number): number {
    const e = this.n++;
    if (e >= this.hash.length) {
      const n = this.hash.length * 2;
      this.hash = growU32(this.hash, n);
      this.link = growU32(this.link, n);
      this.key = growU32(this.key, n);
      this.len = growU32(this.len, n);
      const st = new Uint8Array(n);
      st.set(this.state);
      this.state = st;
    }
    this.hash[e] = h;
    this.slots[slot] = e + 1;
    if (this.n * 2 > this.slots.length) this.rehash();
    return e;
  }

  private rehash(): void {
    const slots = new Int32Array(this.slots.length * 2);
    const mask = slots.length - 1;
    for (let e = 0; e < this.n; e++) {
      for (let s = this.hash[e]! & mask; ; s = (s + 1) & mask) {
        if (slots[s] === 0) {
          slots[s] = e + 1;
          break;
        }
      }
    }
    this.slots = slots;
  }

  private scratchLen = 0;

  /** The whole label of a definition, in the scratch buffer (length in `scratchLen`). */
  private labelOf(c: number, index: number, nameKey: number, nameLen: number, lossy?: Uint8Array): Uint8Array {
    const cl = this.catLabel[c]!;
    const rest = index < this.primaryCount[c]! ? new TextEncoder().encode(`#${index}`) : lossy ?? this.items.data.subarray(nameKey, nameKey + nameLen);
    const n = cl.length + 1 + rest.length;
    if (this.scratch.length < n) this.scratch = new Uint8Array(n * 2);
    this.scratch.set(cl);
    this.scratch[cl.length] = 0x2f;
    this.scratch.set(rest, cl.length + 1);
    this.scratchLen = n;
    return this.scratch;
  }

  /** Whether the forward reference `e` names the label of the definition (category `c`, record `index`, …). */
  private forwardIs(e: number, c: number, index: number, nameKey: number, nameLen: number, lossy?: Uint8Array): boolean {
    const a = this.arena;
    const at = this.key[e]!;
    const end = at + this.len[e]!;
    const cl = this.catLabel[c]!;
    if (end - at < cl.length + 1) return false;
    for (let i = 0; i < cl.length; i++) if (cl[i] !== a[at + i]) return false;
    let p = at + cl.length;
    if (a[p++] !== 0x2f) return false;
    if (index < this.primaryCount[c]!) return primaryIs(a, p, end, index);
    const src = lossy ?? this.items.data;
    const s = lossy ? 0 : nameKey;
    const n = lossy ? lossy.length : nameLen;
    if (end - p !== n) return false;
    for (let i = 0; i < n; i++) if (src[s + i] !== a[p + i]) return false;
    return true;
  }

  /** Whether entry `e`'s label is `src[start..end)`. */
  private equals(e: number, src: Uint8Array, start: number, end: number): boolean {
    const st = this.state[e]!;
    if ((st & DEFINED) === 0) {
      const at = this.key[e]!;
      const n = this.len[e]!;
      if (n !== end - start) return false;
      const a = this.arena;
      for (let i = 0; i < n; i++) if (a[at + i] !== src[start + i]) return false;
      return true;
    }
    const link = this.link[e]!;
    const c = link >>> 20;
    const index = link & 0xfffff;
    const cl = this.catLabel[c]!;
    if (end - start < cl.length + 1) return false;
    for (let i = 0; i < cl.length; i++) if (cl[i] !== src[start + i]) return false;
    let p = start + cl.length;
    if (src[p++] !== 0x2f) return false;
    if (index < this.primaryCount[c]!) return primaryIs(src, p, end, index);
    const lossy = this.lossy.get(e);
    const a = lossy ?? this.items.data;
    const at = lossy ? 0 : this.key[e]!;
    const n = lossy ? lossy.length : this.len[e]!;
    if (end - p !== n) return false;
    for (let i = 0; i < n; i++) if (a[at + i] !== src[p + i]) return false;
    return true;
  }
}

const SLASH = Uint8Array.of(0x2f);

/** Whether `src[p..end)` is `#` and the decimal digits of `index` (no leading zeros). */
function primaryIs(src: Uint8Array, p: number, end: number, index: number): boolean {
  if (src[p++] !== 0x23) return false;
  if (p >= end || (src[p] === 0x30 && end - p > 1)) return false;
  let v = 0;
  for (; p < end; p++) {
    const d = src[p]! - 0x30;
    if (d < 0 || d > 9 || v > 0xfffff) return false;
    v = v * 10 + d;
  }
  return v === index;
}
