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

/** A slot table (pairs: hash, id + 1; 0 is empty) of twice the size, with every entry of `old` placed again. */
function doubleSlots(old: Uint32Array): Uint32Array {
  const slots = new Uint32Array(old.length * 2);
  const mask = (slots.length >>> 1) - 1;
  for (let o = 0; o < old.length; o += 2) {
    const id1 = old[o + 1]!;
    if (id1 === 0) continue;
    const h = old[o]!;
    for (let s = h & mask; ; s = (s + 1) & mask) {
      if (slots[2 * s + 1] === 0) {
        slots[2 * s] = h;
        slots[2 * s + 1] = id1;
        break;
      }
    }
  }
  return slots;
}

function growU32(a: Uint32Array, n: number): Uint32Array<ArrayBuffer> {
  const b = new Uint32Array(n);
  b.set(a);
  return b;
}

/**
 * A string block built item by item: each distinct (kind, item bytes) stored once, as `StringInterner` does for a
 * model (texts are their bytes, a NUL, zero padding to 4). Item 0 is the root name, never shared.
 *
 * Layout for random lookups at game scale (a million cells, tables far larger than the caches): a slot holds the
 * item's hash beside its id, so a probe past another item reads no other memory, and an item's key, size and
 * kind are one 12-byte entry.
 */
export class BlockItems {
  data: Uint8Array;
  /** `data` as words (items start at multiples of 4: hashed and compared a word at a time); set wherever `data` is. */
  private words: Int32Array;
  len: number;
  count = 1;
  /** Per item: key, size, kind. */
  private entries: Uint32Array;
  /** Per slot: hash, item id + 1 (0: empty). */
  private slots: Uint32Array;

  /**
   * `records`: how many records the document holds, when known (the header's count), to size the block and the
   * tables for it at once — a block grown by doubling leaves every smaller copy for the collector, and at game
   * scale those are still resident when the model is written. A block allocated larger than it is filled costs
   * only the pages written.
   */
  constructor(root: Uint8Array, records = 0) {
    this.data = new Uint8Array(Math.max(1 << 16, root.length * 2, records * BLOCK_BYTES_PER_RECORD));
    this.words = new Int32Array(this.data.buffer, 0, this.data.length >>> 2);
    this.data.set(root);
    this.len = root.length;
    const items = Math.max(1024, Math.ceil(records * ITEMS_PER_RECORD));
    this.entries = new Uint32Array(3 * items);
    // Slots for that many items at most 3/4 full (the load `commit` doubles at).
    let slots = 2048;
    while (slots * 3 < items * 4) slots *= 2;
    this.slots = new Uint32Array(2 * slots);
    this.entries[1] = root.length;
  }

  private ensure(end: number): void {
    if (end <= this.data.length) return;
    // Doubling: fewer copies left for the collector (the spare room is never written, so costs no memory).
    const next = new Uint8Array(Math.max(end, this.data.length * 2));
    next.set(this.data.subarray(0, this.len));
    this.data = next;
    this.words = new Int32Array(next.buffer, 0, next.length >>> 2);
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
    const words = this.words;
    const nw = size >>> 2;
    const w0 = key >>> 2;
    // Keys are multiples of 4: whole words hashed (murmur3's mixing), the last bytes of an odd size one by one.
    let h = (FNV_SEED ^ kind) | 0;
    for (let i = 0; i < nw; i++) {
      let k = Math.imul(words[w0 + i]!, 0xcc9e2d51);
      k = Math.imul((k << 15) | (k >>> 17), 0x1b873593);
      h ^= k;
      h = (Math.imul((h << 13) | (h >>> 19), 5) + 0xe6546b64) | 0;
    }
    for (let i = nw * 4; i < size; i++) h = Math.imul(h ^ data[key + i]!, 0x01000193);
    h ^= size;
    h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
    h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
    h = (h ^ (h >>> 16)) >>> 0;
    let slots = this.slots;
    const entries = this.entries;
    let mask = (slots.length >>> 1) - 1;
    for (let s = h & mask; ; s = (s + 1) & mask) {
      const id1 = slots[2 * s + 1]!;
      if (id1 === 0) break;
      if (slots[2 * s] !== h) continue;
      const e = 3 * (id1 - 1);
      if (entries[e + 1] !== size || entries[e + 2] !== kind) continue;
      const other = entries[e]!;
      const o0 = other >>> 2;
      let same = true;
      for (let i = 0; i < nw; i++) {
        if (words[o0 + i] !== words[w0 + i]) {
          same = false;
          break;
        }
      }
      for (let i = nw * 4; same && i < size; i++) if (data[other + i] !== data[key + i]) same = false;
      if (same) return other;
    }
    const id = this.count++;
    if (3 * id >= this.entries.length) this.entries = growU32(this.entries, this.entries.length * 2);
    const e = 3 * id;
    this.entries[e] = key;
    this.entries[e + 1] = size;
    this.entries[e + 2] = kind;
    this.len = key + size;
    if (this.count * 8 > slots.length * 3) slots = this.slots = doubleSlots(slots);
    mask = (slots.length >>> 1) - 1;
    for (let s = h & mask; ; s = (s + 1) & mask) {
      if (slots[2 * s + 1] === 0) {
        slots[2 * s] = h;
        slots[2 * s + 1] = id + 1;
        break;
      }
    }
    return key;
  }

  /** The block, exactly sized. */
  finish(): { data: Uint8Array; itemKeys: Uint32Array; itemSizes: Uint32Array } {
    const n = this.count;
    const itemKeys = new Uint32Array(n);
    const itemSizes = new Uint32Array(n);
    for (let i = 0; i < n; i++) {
      itemKeys[i] = this.entries[3 * i]!;
      itemSizes[i] = this.entries[3 * i + 1]!;
    }
    // A block that fills a quarter of its buffer or more is kept as a view (no second copy of a game-scale block
    // beside the first; the room never written costs no memory).
    const data = this.data.length <= 4 * this.len ? this.data.subarray(0, this.len) : this.data.slice(0, this.len);
    return { data, itemKeys, itemSizes };
  }
}

/**
 * First sizes per record of the document (a game-scale document: 15 block bytes and 0.5 items per record): room
 * for twice that, so that a block like the game's is never copied to grow.
 */
const BLOCK_BYTES_PER_RECORD = 32;
const ITEMS_PER_RECORD = 0.55;

const DEFINED = 1;
const REFERENCED = 2;
const AMBIGUOUS = 4;

/** Bytes per forward-reference arena chunk (the offset part of an arena key). */
const ARENA_CHUNK = 1 << 20;

/** Entry fields (4 words per entry). */
const E_LINK = 0;
const E_KEY = 1;
const E_LEN = 2;
const E_STATE = 3;

/**
 * Record labels (`Category/Record`, as UTF-8) of a document being read, and the links that name them: a label is
 * an entry when a record defines it or a link names it first (a forward reference, its bytes kept in an arena
 * until the record comes). A defined entry stores no bytes: it is compared through its category's label and the
 * record's name item.
 *
 * Layout for random lookups (five million links into tables far larger than the caches): a slot holds the
 * label's hash beside the entry id, so a probe past another label reads no other memory, and an entry is one
 * 16-byte record (link, name key or arena offset, length, state).
 */
export class LabelTable {
  /** Per entry: E_LINK (defined: the encoded link), E_KEY/E_LEN (defined secondary: name key and length in
   * `items`; forward reference: offset and length in `arena`), E_STATE. */
  private entries: Uint32Array;
  private n = 0;
  /** Per slot: hash, entry id + 1 (0: empty). */
  private slots: Uint32Array;
  /**
   * Forward references' bytes, in chunks that are never copied (a game-scale document names ~10 MB of labels
   * before their records): an arena key is the chunk index << 20 | the offset in it.
   */
  private readonly arenas: Uint8Array[] = [new Uint8Array(1 << 16)];
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
    this.entries = new Uint32Array(4 * cap);
    // Load up to 3/4: with the hash in the slot a probe costs a compare in memory already read.
    let slots = 2048;
    while (slots * 3 < cap * 4) slots *= 2;
    this.slots = new Uint32Array(2 * slots);
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
    const slots = this.slots;
    const mask = (slots.length >>> 1) - 1;
    let probe: Uint8Array | undefined;
    let probeLen = 0;
    for (let s = h & mask; ; s = (s + 1) & mask) {
      const id = slots[2 * s + 1]! - 1;
      if (id < 0) {
        const e = this.add(h, s);
        this.entries[4 * e + E_STATE] = DEFINED;
        this.setDefinition(e, c, index, nameKey, nameLen, lossy);
        return true;
      }
      if (slots[2 * s] !== h) continue;
      const st = this.entries[4 * id + E_STATE]!;
      if ((st & DEFINED) === 0) {
        if (!this.forwardIs(id, c, index, nameKey, nameLen, lossy)) continue;
      } else {
        if (!probe) {
          probe = this.labelOf(c, index, nameKey, nameLen, lossy);
          probeLen = this.scratchLen;
        }
        if (!this.equals(id, probe, 0, probeLen)) continue;
      }
      if (st & DEFINED) {
        this.entries[4 * id + E_STATE] = st | AMBIGUOUS;
        return (st & REFERENCED) === 0;
      }
      this.entries[4 * id + E_STATE] = st | DEFINED;
      this.setDefinition(id, c, index, nameKey, nameLen, lossy);
      return true;
    }
  }

  /** The entry of the label `src[start..end)` (a forward reference when no record defined it yet). */
  ref(src: Uint8Array, start: number, end: number): number {
    const h = fnv(FNV_SEED, src, start, end);
    const slots = this.slots;
    const mask = (slots.length >>> 1) - 1;
    for (let s = h & mask; ; s = (s + 1) & mask) {
      const id = slots[2 * s + 1]! - 1;
      if (id < 0) {
        const e = this.add(h, s);
        const n = end - start;
        let chunk = this.arenas[this.arenas.length - 1]!;
        if (this.arenaLen + n > chunk.length) {
          // A label longer than a chunk gets one of its own (at offset 0, so the key's offset stays < 2^20).
          this.arenas.push((chunk = new Uint8Array(Math.max(ARENA_CHUNK, n))));
          this.arenaLen = 0;
        }
        const at = this.arenaLen;
        for (let i = 0; i < n; i++) chunk[at + i] = src[start + i]!;
        const en = this.entries;
        en[4 * e + E_KEY] = ((this.arenas.length - 1) * ARENA_CHUNK + at) >>> 0;
        en[4 * e + E_LEN] = n;
        en[4 * e + E_STATE] = REFERENCED;
        this.arenaLen += n;
        return e;
      }
      if (slots[2 * s] === h && this.equals(id, src, start, end)) {
        this.entries[4 * id + E_STATE] = this.entries[4 * id + E_STATE]! | REFERENCED;
        return id;
      }
    }
  }

  /** The label of entry `e` as text (for messages). */
  text(e: number): string {
    const en = this.entries;
    if ((en[4 * e + E_STATE]! & DEFINED) === 0) {
      const at = en[4 * e + E_KEY]! & (ARENA_CHUNK - 1);
      return new TextDecoder().decode(this.arenas[en[4 * e + E_KEY]! >>> 20]!.subarray(at, at + en[4 * e + E_LEN]!));
    }
    const link = en[4 * e + E_LINK]!;
    const c = link >>> 20;
    const index = link & 0xfffff;
    this.labelOf(c, index, en[4 * e + E_KEY]!, en[4 * e + E_LEN]!, this.lossy.get(e));
    return new TextDecoder().decode(this.scratch.subarray(0, this.scratchLen));
  }

  /** The link value of entry `e` when exactly one record defines its label, else -1 (none yet) or -2 (several). */
  target(e: number): number {
    const st = this.entries[4 * e + E_STATE]!;
    if (st & AMBIGUOUS) return -2;
    return st & DEFINED ? this.entries[4 * e + E_LINK]! : -1;
  }

  private setDefinition(e: number, c: number, index: number, nameKey: number, nameLen: number, lossy?: Uint8Array): void {
    const en = this.entries;
    en[4 * e + E_LINK] = ((c << 20) | index) >>> 0;
    en[4 * e + E_KEY] = nameKey;
    en[4 * e + E_LEN] = nameLen;
    if (lossy) this.lossy.set(e, lossy);
  }

  private add(h: number, slot: number): number {
    const e = this.n++;
    if (4 * e >= this.entries.length) this.entries = growU32(this.entries, this.entries.length * 2);
    this.slots[2 * slot] = h;
    this.slots[2 * slot + 1] = e + 1;
    if (this.n * 8 > this.slots.length * 3) this.slots = doubleSlots(this.slots);
    return e;
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
    const a = this.arenas[this.entries[4 * e + E_KEY]! >>> 20]!;
    const at = this.entries[4 * e + E_KEY]! & (ARENA_CHUNK - 1);
    const end = at + this.entries[4 * e + E_LEN]!;
    return lossy
      ? this.labelIs(a, at, end, c, index, lossy, 0, lossy.length)
      : this.labelIs(a, at, end, c, index, this.items.data, nameKey, nameLen);
  }

  /**
   * Whether `src[start..end)` is the label of record `index` of category `c` — the category's label, `/`, then the
   * primary's index digits or the record's name `name[nameAt..nameAt + nameLen)`.
   */
  private labelIs(src: Uint8Array, start: number, end: number, c: number, index: number, name: Uint8Array, nameAt: number, nameLen: number): boolean {
    const cl = this.catLabel[c]!;
    if (end - start < cl.length + 1) return false;
    for (let i = 0; i < cl.length; i++) if (cl[i] !== src[start + i]) return false;
    let p = start + cl.length;
    if (src[p++] !== 0x2f) return false;
    if (index < this.primaryCount[c]!) return primaryIs(src, p, end, index);
    if (end - p !== nameLen) return false;
    for (let i = 0; i < nameLen; i++) if (name[nameAt + i] !== src[p + i]) return false;
    return true;
  }

  /** Whether entry `e`'s label is `src[start..end)`. */
  private equals(e: number, src: Uint8Array, start: number, end: number): boolean {
    const en = this.entries;
    const st = en[4 * e + E_STATE]!;
    if ((st & DEFINED) === 0) {
      const n = en[4 * e + E_LEN]!;
      if (n !== end - start) return false;
      const a = this.arenas[en[4 * e + E_KEY]! >>> 20]!;
      const at = en[4 * e + E_KEY]! & (ARENA_CHUNK - 1);
      for (let i = 0; i < n; i++) if (a[at + i] !== src[start + i]) return false;
      return true;
    }
    const link = en[4 * e + E_LINK]!;
    const c = link >>> 20;
    const index = link & 0xfffff;
    const lossy = this.lossy.size > 0 ? this.lossy.get(e) : undefined;
    return lossy
      ? this.labelIs(src, start, end, c, index, lossy, 0, lossy.length)
      : this.labelIs(src, start, end, c, index, this.items.data, en[4 * e + E_KEY]!, en[4 * e + E_LEN]!);
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
