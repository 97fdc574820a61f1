/**
 * The bytes verifier: `verifyGadb`'s rules checked while the file's bytes are read, in one pass over the value
 * section (categories, record headers, names, block and link cells) and one over the string block's words, with no
 * model built first (no record columns, no copy of the value section, no item index). It answers one question:
 * does the file have **no finding** beyond the observations every clean file may carry (the header's open
 * questions and the flagged-order tally)? When it does, those observations are the whole report
 * (`GadbCleanFile`); at the first sign of anything else it gives up (`undefined`) and `verifyGadb` parses the file
 * and runs the model verifier, which names every finding. So it never has to say *where* something is wrong,
 * only decide exactly that nothing is: each check below is the model verifier's rule (or the parser's refusal)
 * restated over the bytes, and the equivalence suite (`test/formats/gadb/verify-bytes.test.ts`) holds the two to
 * the same findings on mutated files.
 *
 * What the bytes give for free, used below (all from `parse.ts`): the string block's items are the distinct
 * 4-aligned in-block offsets that names and block-type cells reference, plus the root at 0, each running to the
 * next; so a block cell is an item key exactly when it is 4-aligned and inside the block, and the first-use rule
 * holds exactly when, in traversal order, every reference is to an item met before or to one above every item met
 * so far. Links are checked through the least and greatest index they name per target category, compared with the
 * category's counts once the pass has read them all.
 */
import { DEFAULT_P919_TABLE } from '../../hash/p919.ts';
import { grow } from '../../binary/grow.ts';
import { GADB_CATEGORY_SIZE, GADB_DESCRIPTOR_SIZE, GADB_HEADER_SIZE, GADB_RECORD_HEADER, GADB_VERSION, GADB_WRAPPER_SIZE, readGadbDescriptorRows } from './parse.ts';
import { gadbSortedRunSlotsHold, type GadbFlaggedOrder } from './slots.ts';
import { GADB_ITEM_KIND_BY_TYPE_BYTE, GADB_STORAGE_BY_TYPE_BYTE, GADB_TYPE_CODES, GADB_TYPE_MASK, GadbStorageCode, gadbTypeInfo, isGadbResourcePath } from './type-codes.ts';
import { GadbItemKind, type Gadb, type GadbDescriptors, type GadbHeader } from './types.ts';

/** Which reading of H-SLOT-FLAGGED a run fits. */
export type GadbRunOrder = GadbFlaggedOrder | 'either';

/** What a file with no finding beyond the clean file's observations says (the input of those findings). */
export interface GadbCleanFile {
  header: GadbHeader;
  /** File offset of the `GADB` magic. */
  gadbOffset: number;
  /** File offset of the value section and of the trailer. */
  valueSectionOffset: number;
  trailerOffset: number;
  primaries: number;
  secondaries: number;
  pairCount: number;
  headerExtraLength: number;
  headerStringLength: number;
  /** Distinct runs with flagged type codes per order they fit, in the order first met (`slots.flaggedOrder`). */
  flaggedOrders: Map<GadbRunOrder, number>;
}

/** Record flag of native-structure records (seed "Native-structure records"; H-REC-FLAGS). */
export const FLAG_NATIVE_STRUCTURE = 0x10;

const P919_END = 0x1000;
const P919_UNUSABLE = 0x2000;

/** Per byte: 1 when the default P919 table has a usable value for it (what `canHashP919` accepts). */
export const HASHABLE: Uint8Array = (() => {
  const t = new Uint8Array(256);
  for (let b = 0; b < 256; b++) {
    const s = DEFAULT_P919_TABLE.status[b];
    t[b] = s === 'unknown' || s === 'inferred' ? 0 : 1;
  }
  return t;
})();

/** Per byte: its P919 table value (-128..127), `P919_END` for NUL, `P919_UNUSABLE` for a byte `HASHABLE` refuses. */
const P919_STEP: Int32Array = (() => {
  const t = new Int32Array(256);
  for (let b = 0; b < 256; b++) t[b] = b === 0 ? P919_END : HASHABLE[b] === 0 ? P919_UNUSABLE : DEFAULT_P919_TABLE.values[b]!;
  return t;
})();

/** A type code of each item kind (for the kind's size rule). */
export const TYPE_OF_KIND: Map<number, number> = (() => {
  const m = new Map<number, number>();
  for (const t of GADB_TYPE_CODES) if (t.itemKind !== GadbItemKind.Unreferenced && !m.has(t.itemKind)) m.set(t.itemKind, t.code);
  return m;
})();

/** Per item kind: the fixed size of its values (-1: none), and the key size of a curve kind (0: not a curve). */
const KIND_FIXED_SIZE = new Int32Array(256).fill(-1);
const KIND_CURVE_KEY_SIZE = new Int32Array(256);
for (const [kind, t] of TYPE_OF_KIND) {
  const dec = gadbTypeInfo(t)?.decoding;
  if (dec?.kind === 'fixed') KIND_FIXED_SIZE[kind] = dec.size;
  else if (dec?.kind === 'curve') KIND_CURVE_KEY_SIZE[kind] = dec.keySize;
}

/** Per type byte: 1 when `checkRun` has a finding for the type byte alone (unknown code, flag rules, H-FLAG-40). */
const TYPE_BYTE_SUSPECT: Uint8Array = (() => {
  const t = new Uint8Array(256);
  for (let b = 0; b < 256; b++) {
    if (!gadbTypeInfo(b)) t[b] = 1;
    else if ((b & ~GADB_TYPE_MASK & 0xff) !== 0 && (!isGadbResourcePath(b) || (b & 0x80) !== 0 || (b & GADB_TYPE_MASK) !== 4)) t[b] = 1;
  }
  return t;
})();

/** Fields of a checked run in `ValueWalk.runInfo` (a stride of 8, so one cache line holds a run's facts). */
const RUN_STRIDE = 8;
const RUN_N = 0;
const RUN_CELLS = 1;
const RUN_SHAPE = 2;
const RUN_LIST = 3;
const RUN_LINKS = 4;
const RUN_END = 5;

/** Bytes of `_Structures`, the prefix of the categories whose links address primaries (H-LINK-SIDE). */
const STRUCTURES_PREFIX = [0x5f, 0x53, 0x74, 0x72, 0x75, 0x63, 0x74, 0x75, 0x72, 0x65, 0x73];

/**
 * The clean file's observations when `bytes` (a bare or wrapped GADB v17 file) has no other finding; `undefined`
 * when it may have one, or when the parser would refuse it (the caller then parses it and names what is wrong).
 */
export function verifyGadbBytesClean(bytes: Uint8Array): GadbCleanFile | undefined {
  const size = bytes.byteLength;
  const dv = new DataView(bytes.buffer, bytes.byteOffset, size);
  const start = isMagic(bytes, 0) ? 0 : isMagic(bytes, GADB_WRAPPER_SIZE) ? GADB_WRAPPER_SIZE : -1;
  if (start < 0 || size < start + GADB_HEADER_SIZE + 2) return undefined;
  const u32 = (at: number): number => dv.getUint32(at, true);
  const header: GadbHeader = {
    version: u32(start + 4),
    stringBlockSize: u32(start + 8),
    categoryCount: u32(start + 0x0c),
    recordCount: u32(start + 0x10),
    unk14: u32(start + 0x14),
    cellCount: u32(start + 0x18),
    descriptorCount: u32(start + 0x1c),
    unk20: u32(start + 0x20),
    unk24: u32(start + 0x24),
    headerSize: u32(start + 0x28),
    headerStringLength: 0,
  };
  if (header.version !== GADB_VERSION || header.headerSize < GADB_HEADER_SIZE || header.headerSize > size - start - 2) return undefined;
  const stringLengthAt = start + header.headerSize;
  header.headerStringLength = dv.getUint16(stringLengthAt, true);
  const blockAt = stringLengthAt + 2 + header.headerStringLength;
  const blockSize = header.stringBlockSize;
  // An empty block has no root item; a block that does not end on a word has an unaligned last item.
  if (blockSize === 0 || (blockSize & 3) !== 0 || blockAt > size || blockSize > size - blockAt) return undefined;
  const descriptorsAt = blockAt + blockSize;
  const dc = header.descriptorCount;
  if (dc > Math.floor((size - descriptorsAt) / GADB_DESCRIPTOR_SIZE)) return undefined;
  const valuesAt = descriptorsAt + dc * GADB_DESCRIPTOR_SIZE;
  // The value section and the trailer are whole words to the end of the file.
  if (valuesAt + 8 > size || ((size - valuesAt) & 3) !== 0) return undefined;
  if (u32(valuesAt) !== 0) return undefined; // values.unk00 (H-VAL-00)
  const nc = u32(valuesAt + 4);
  if (nc !== header.categoryCount || nc > Math.floor((size - valuesAt - 8) / GADB_CATEGORY_SIZE) || nc >= 4096) return undefined;

  const d = readGadbDescriptorRows(bytes, dv, descriptorsAt, dc);
  const walk = new ValueWalk(bytes, dv, blockAt, blockSize, d, nc);
  const end = walk.read(valuesAt + 8);
  if (end < 0 || !walk.linksClean()) return undefined;
  // Trailer: the pair count, the pairs, the end of the file.
  if (end + 4 > size) return undefined;
  const pairCount = u32(end);
  if (pairCount > Math.floor((size - end - 4) / 8) || end + 4 + pairCount * 8 !== size) return undefined;
  if (header.cellCount !== walk.cellTotal || header.recordCount !== walk.secondaries) return undefined;
  if (!walk.descriptorsAllUsed()) return undefined;
  if (!walk.blockClean() || !walk.namesClean()) return undefined;
  return {
    header,
    gadbOffset: start,
    valueSectionOffset: valuesAt,
    trailerOffset: end,
    primaries: walk.primaries,
    secondaries: walk.secondaries,
    pairCount,
    headerExtraLength: header.headerSize - GADB_HEADER_SIZE,
    headerStringLength: header.headerStringLength,
    flaggedOrders: walk.flaggedOrders,
  };
}

function isMagic(bytes: Uint8Array, at: number): boolean {
  return bytes.byteLength >= at + 4 && bytes[at] === 0x47 && bytes[at + 1] === 0x41 && bytes[at + 2] === 0x44 && bytes[at + 3] === 0x42;
}

/**
 * The pass over the value section. Per distinct run (first descriptor, count), checked once: its cell count, its
 * shape, the byte offsets (in the record's cells) of its block cells in ascending field-hash order with their item
 * kinds, and of its link cells, in growing typed arrays; a record then costs a run lookup and one load per block or
 * link cell.
 */
class ValueWalk {
  primaries = 0;
  secondaries = 0;
  cellTotal = 0;
  readonly flaggedOrders = new Map<GadbRunOrder, number>();
  private readonly bytes: Uint8Array;
  private readonly dv: DataView;
  private readonly blockAt: number;
  private readonly blockSize: number;
  private readonly d: GadbDescriptors;
  private readonly nc: number;
  private readonly size: number;
  private readonly descriptorCount: number;
  /**
   * Per 4-byte word w of the string block, in the nibble `(kinds[w >> 1] >> 4 * (w & 1)) & 15`: the kind of the
   * item starting there (0: none; kinds fit 4 bits). Half the size of a byte table, so that the random lookups of
   * shared values stay in cache far more often.
   */
  private readonly kinds: Uint8Array;
  /**
   * One bit per 4-byte word of the string block (bit `w & 31` of `textStarts[w >>> 5]`): a Text item starts there.
   * Nearly every reference is to a Text item (98 % of the game-scale file's items are texts), and this table is a
   * quarter of `kinds`: most lookups of a text met before stay in the core's own cache. Other references, and
   * every first use, go through `kinds`.
   */
  private readonly textStarts: Uint32Array;
  /** The item keys met so far, in the order met: ascending (first-use rule), the root first; the last of them. */
  private keys: Uint32Array<ArrayBuffer>;
  private keyCount = 1;
  private lastKey = 0;
  /** Per category: records, primaries, whether it is a _Structures* category. */
  private readonly catTotal: Int32Array;
  private readonly catPrimary: Int32Array;
  private readonly structures: Uint8Array;
  /**
   * Per target category of a link (its top 12 bits): the least and greatest record index linked, widened to the
   * category's whole valid range once its header is read (`allowLinks`), so that a valid link to a category
   * already read never changes them (a change costs far more than a comparison: half of the game-scale file's
   * links point back). Category 4095 starts as the null link's index.
   */
  private readonly linkMin = new Int32Array(4096).fill(0x7fffffff);
  private readonly linkMax = new Int32Array(4096).fill(-1);
  // Runs: run u's facts at runInfo[8u ..] (RUN_* fields); its cells' entries in `cellList`, contiguous (one or two
  // cache lines for a record to load): block cells (byte offset | item kind << 24), then link cell ranges (pairs of
  // byte offsets: from, to).
  private readonly runByFirst: Int32Array;
  private readonly otherRuns = new Map<number, number>();
  private runCount = 0;
  private runInfo = new Int32Array(256 * RUN_STRIDE);
  private cellList = new Int32Array(8192);
  private listEnd = 0;
  private readonly used: Uint8Array;
  private readonly shapes = new Map<number, number[]>();
  private shapeCount = 0;
  private seen = new Uint8Array(256);
  /** The secondaries' name keys in traversal order, checked after the item pass (`namesClean`). */
  private names: Uint32Array<ArrayBuffer> = new Uint32Array(1024);
  private nameCount = 0;
  /** One bit per 4-byte word of the string block: a secondary's name starts there (`GadbNameItems.starts`). */
  private readonly nameStarts: Uint32Array;
  /** P919 of each distinct name, in key order (filled by the item pass: `GadbNameItems.hashes`); -1: unhashable. */
  private nameHashes: Float64Array = new Float64Array(0);

  constructor(bytes: Uint8Array, dv: DataView, blockAt: number, blockSize: number, d: GadbDescriptors, nc: number) {
    this.bytes = bytes;
    this.dv = dv;
    this.blockAt = blockAt;
    this.blockSize = blockSize;
    this.d = d;
    this.nc = nc;
    this.size = bytes.byteLength;
    this.descriptorCount = d.count;
    this.kinds = new Uint8Array((blockSize >>> 3) + 1);
    this.kinds[0] = GadbItemKind.Root;
    this.textStarts = new Uint32Array((blockSize >>> 7) + 1);
    this.linkMin[4095] = 0xfffff;
    this.linkMax[4095] = 0xfffff;
    this.keys = new Uint32Array(Math.min(blockSize >>> 2, 1 << 16));
    this.catTotal = new Int32Array(nc);
    this.catPrimary = new Int32Array(nc);
    this.structures = new Uint8Array(nc);
    this.runByFirst = new Int32Array(d.count + 1);
    this.used = new Uint8Array(d.count);
    this.nameStarts = new Uint32Array((blockSize >>> 7) + 1);
  }

  /** A name or block reference `key` of `kind` in traversal order: false when it is no item key, of a second kind, or out of first-use order. */
  private reference(key: number, kind: number): boolean {
    if (key >= this.blockSize || (key & 3) !== 0) return false;
    if (kind === GadbItemKind.Text && (this.textStarts[key >>> 7]! & (1 << ((key >>> 2) & 31))) !== 0) return true;
    return this.otherReference(key, kind);
  }

  /** `reference` for an aligned in-block `key` that is not a text met before: through `kinds`, and its first use. */
  private otherReference(key: number, kind: number): boolean {
    const at = key >>> 3;
    const shift = key & 4;
    const was = (this.kinds[at]! >>> shift) & 15;
    if (was === kind) return true;
    if (was !== 0 || key < this.lastKey) return false;
    this.kinds[at] = this.kinds[at]! | (kind << shift);
    if (kind === GadbItemKind.Text) this.textStarts[key >>> 7] = this.textStarts[key >>> 7]! | (1 << ((key >>> 2) & 31));
    this.addKey(key);
    return true;
  }

  private addKey(key: number): void {
    if (this.keyCount === this.keys.length) {
      const next = new Uint32Array(Math.min(this.blockSize >>> 2, this.keys.length * 2));
      next.set(this.keys);
      this.keys = next;
    }
    this.keys[this.keyCount++] = key;
    this.lastKey = key;
  }

  /** P919 of the NUL-terminated text at sb+`key` (checked to be an item key), or -1 (an unhashable byte, no NUL in the block). */
  private textHash(key: number): number {
    const bytes = this.bytes;
    const step = P919_STEP;
    let h = 0;
    for (let p = this.blockAt + key, end = this.blockAt + this.blockSize; p < end; p++) {
      const v = step[bytes[p]!]!;
      if (v > 127) return v === P919_END ? h >>> 0 : -1;
      h = (Math.imul(h, 919) + v) | 0;
    }
    return -1;
  }

  /** Walks categories and records from `at`; returns the trailer's offset, or -1 at the first sign of a finding. */
  read(at: number): number {
    const { dv, nc, catTotal, catPrimary } = this;
    const end = this.bytes.byteLength;
    let prevKey = -1;
    for (let c = 0; c < nc; c++) {
      if (at + GADB_CATEGORY_SIZE > end) return -1;
      const nameKey = dv.getUint32(at, true);
      const primaries = dv.getUint32(at + 12, true);
      const secondaries = dv.getUint32(at + 16, true);
      const sortKey = dv.getUint32(at + 20, true);
      if (!this.reference(nameKey, GadbItemKind.Text) || !this.reference(dv.getUint32(at + 4, true), GadbItemKind.Text) || !this.reference(dv.getUint32(at + 8, true), GadbItemKind.Text)) return -1;
      if (sortKey <= prevKey || this.textHash(nameKey) !== sortKey) return -1;
      prevKey = sortKey;
      if (primaries > 0xfffff || secondaries > 0xfffff) return -1;
      catTotal[c] = primaries + secondaries;
      catPrimary[c] = primaries;
      this.structures[c] = this.isStructures(nameKey) ? 1 : 0;
      this.allowLinks(c);
      this.primaries += primaries;
      this.secondaries += secondaries;
      at = this.categoryRecords(at + GADB_CATEGORY_SIZE, primaries, secondaries);
      if (at < 0) return -1;
    }
    return at;
  }

  /**
   * Widens category c's least and greatest linked index to the indexes a link to it may have (`linksClean`:
   * its primaries in a _Structures* category, its secondaries in any other); a link outside them, before or
   * after, still leaves its index beyond.
   */
  private allowLinks(c: number): void {
    const { linkMin, linkMax } = this;
    const from = this.structures[c] === 1 ? 0 : this.catPrimary[c]!;
    const last = (this.structures[c] === 1 ? this.catPrimary[c]! : this.catTotal[c]!) - 1;
    if (from < linkMin[c]!) linkMin[c] = from;
    if (last > linkMax[c]!) linkMax[c] = last;
  }

  private isStructures(key: number): boolean {
    const p = this.blockAt + key;
    if (key + 11 > this.blockSize) return false;
    for (let i = 0; i < 11; i++) if (this.bytes[p + i] !== STRUCTURES_PREFIX[i]) return false;
    return true;
  }

  /**
   * The `primaries` then `secondaries` records of one category from `at` (a primary: its 8-byte tail alone,
   * H-PRIM-HDR; a secondary: its name, then the tail), each with its run, cell count, shape, block and link
   * cells: the offset after them, or -1. One loop with the walk's state in locals; a record costs its run lookup
   * and one load per block cell and per link cell.
   *
   * A tail is u16 cells, u8 fields, u24 first descriptor, u8 +0x0A, u8 flags. Block cells are references in
   * first-use order (`cellList[RUN_LIST, RUN_LINKS)`: byte offset | item kind << 24); link cells are read range by
   * range (`[RUN_LINKS, RUN_END)`: pairs of byte offsets, one pair for a run whose links are adjacent). A null link
   * (0xFFFFFFFF) is counted as category 4095, index 0xFFFFF like any other (no branch on it): `linksClean` tells
   * them apart.
   */
  private categoryRecords(at: number, primaries: number, secondaries: number): number {
    const { dv, textStarts, runByFirst, linkMin, linkMax, blockSize, size, descriptorCount } = this;
    let runInfo = this.runInfo;
    let cellList = this.cellList;
    let shape = -1;
    let cellTotal = 0;
    for (let r = 0, count = primaries + secondaries; r < count; r++) {
      let tail = at;
      if (r >= primaries) {
        if (at + GADB_RECORD_HEADER.secondary.size > size) return -1;
        const key = dv.getUint32(at, true);
        if (!this.reference(key, GadbItemKind.Text)) return -1;
        this.addName(key);
        tail = at + 4;
      } else if (at + GADB_RECORD_HEADER.primary.size > size) return -1;
      const t0 = dv.getUint32(tail, true);
      const t1 = dv.getUint32(tail + 4, true);
      at = tail + 8;
      const own = t0 & 0xffff;
      const n = (t0 >>> 16) & 0xff;
      const first = (t0 >>> 24) | ((t1 & 0xffff) << 8);
      if (own > (size - at) >>> 2 || first + n > descriptorCount) return -1;
      cellTotal += own;
      if (n === 0) {
        if (first !== 0 || own !== 0) return -1;
        continue;
      }
      let run = runByFirst[first]! - 1;
      if (run < 0 || runInfo[run * RUN_STRIDE + RUN_N] !== n) {
        run = this.runOf(first, n);
        if (run < 0) return -1;
        runInfo = this.runInfo;
        cellList = this.cellList;
      }
      const u = run * RUN_STRIDE;
      if (own !== runInfo[u + RUN_CELLS]) return -1;
      const runShape = runInfo[u + RUN_SHAPE]!;
      if (shape < 0) shape = runShape;
      else if (runShape !== shape) return -1;
      const links = runInfo[u + RUN_LINKS]!;
      for (let q = runInfo[u + RUN_LIST]!; q < links; q++) {
        const entry = cellList[q]!;
        const v = dv.getUint32(at + (entry & 0xffffff), true);
        if (v >= blockSize || (v & 3) !== 0) return -1;
        const kind = entry >>> 24;
        if (kind === GadbItemKind.Text && (textStarts[v >>> 7]! & (1 << ((v >>> 2) & 31))) !== 0) continue;
        if (!this.otherReference(v, kind)) return -1;
      }
      for (let q = links, end = runInfo[u + RUN_END]!; q < end; q += 2) {
        for (let p = at + cellList[q]!, last = at + cellList[q + 1]!; p < last; p += 4) {
          const raw = dv.getUint32(p, true);
          const tc = raw >>> 20;
          const idx = raw & 0xfffff;
          if (idx < linkMin[tc]!) linkMin[tc] = idx;
          if (idx > linkMax[tc]!) linkMax[tc] = idx;
        }
      }
      at += own * 4;
    }
    this.cellTotal += cellTotal;
    return at;
  }

  /** A secondary's name `key` (an item key of kind Text): listed in traversal order, its word marked. */
  private addName(key: number): void {
    if (this.nameCount === this.names.length) this.names = grow(this.names, this.nameCount + 1);
    this.names[this.nameCount++] = key;
    this.nameStarts[key >>> 7] = this.nameStarts[key >>> 7]! | (1 << ((key >>> 2) & 31));
  }

  /**
   * Every secondary's name is hashable, and a category's secondaries are in ascending name-hash order. Each
   * distinct name is hashed once, by the item pass (`blockClean`), which reads every item's words anyway: a third
   * of the game-scale file's secondaries reuse a name met earlier, and a name's text lies anywhere in the block.
   * Here each name finds its hash by its rank among the marked words: the marks before its word's 32-word group
   * (`groupRank`, a running count) plus those below it in the group. Called after `blockClean`.
   */
  namesClean(): boolean {
    const { names, catTotal, catPrimary, nameStarts, nameHashes } = this;
    const groupRank = new Int32Array(nameStarts.length);
    for (let i = 1; i < nameStarts.length; i++) groupRank[i] = groupRank[i - 1]! + popcount32(nameStarts[i - 1]!);
    let q = 0;
    for (let c = 0; c < this.nc; c++) {
      let prev = -1;
      for (const end = q + catTotal[c]! - catPrimary[c]!; q < end; q++) {
        const w = names[q]! >>> 2;
        const hash = nameHashes[groupRank[w >>> 5]! + popcount32(nameStarts[w >>> 5]! & ~(-1 << (w & 31)))]!;
        if (hash < 0 || hash <= prev) return false;
        prev = hash;
      }
    }
    return true;
  }

  /** Every link resolves, to a primary exactly in a _Structures* category (links.range, links.side). */
  linksClean(): boolean {
    const { linkMin, linkMax, catTotal, catPrimary, structures } = this;
    // Category 4095 holds the null links (index 0xFFFFF) and, below that index, links to a category that does not
    // exist (a file with 4096 categories is left to the model verifier).
    if (linkMin[4095]! < 0xfffff) return false;
    for (let tc = 0; tc < 4095; tc++) {
      const max = linkMax[tc]!;
      if (max < 0) continue;
      if (tc >= this.nc || max >= catTotal[tc]!) return false;
      if (structures[tc] === 1 ? max >= catPrimary[tc]! : linkMin[tc]! < catPrimary[tc]!) return false;
    }
    return true;
  }

  descriptorsAllUsed(): boolean {
    return this.used.indexOf(0) < 0;
  }

  /** The id of run `(first, n)` when it is not the first run met with that first descriptor, checked on first use; -1 when it has a finding. */
  private runOf(first: number, n: number): number {
    const at = this.runByFirst[first]!;
    const key = first * 256 + n;
    const other = this.otherRuns.get(key);
    if (other !== undefined) return other;
    const id = this.newRun(first, n);
    if (id < 0) return -1;
    if (at === 0) this.runByFirst[first] = id + 1;
    else this.otherRuns.set(key, id);
    return id;
  }

  /**
   * `Verifier.checkRun`'s rules without findings, then the run's cells; the new run's id or -1. One pass over the
   * fields in ascending hash order checks the sorted column, each field's type and extent, and lists the block
   * cells (the first-use order); the slot rule is then checked off the links (`gadbSortedRunSlotsHold`), by the
   * whole type byte and, for a run with flagged codes, also by the low 6 bits (H-SLOT-FLAGGED).
   */
  private newRun(first: number, n: number): number {
    const d = this.d;
    const { sortedHash, declaredHash, schemaOrdinal, sortedToDeclared, typeCode, elementCount, link } = d;
    const storage = GADB_STORAGE_BY_TYPE_BYTE;
    if (this.seen.length < n) this.seen = new Uint8Array(n);
    const seen = this.seen;
    seen.fill(0, 0, n);
    let flagged = false;
    let maxEnd = 0;
    // The link cells' least and greatest cell and their number: one range when they are adjacent.
    let linkFrom = 0x7fffffff;
    let linkTo = 0;
    let links = 0;
    let list = this.cellList;
    let w = this.listEnd;
    for (let j = 0; j < n; j++) {
      const i = first + j;
      if (j > 0 && (sortedHash[i]! <= sortedHash[i - 1]! || schemaOrdinal[i]! <= schemaOrdinal[i - 1]!)) return -1;
      const p = sortedToDeclared[i]!;
      if (p >= n || seen[p] === 1) return -1;
      seen[p] = 1;
      const k = first + p;
      if (declaredHash[k] !== sortedHash[i]) return -1;
      const t = typeCode[k]!;
      if (TYPE_BYTE_SUSPECT[t] === 1) return -1;
      if ((t & ~GADB_TYPE_MASK & 0xff) !== 0) flagged = true;
      const count = elementCount[k]!;
      const cell = link[k]!;
      const s = storage[t]!;
      if (s === GadbStorageCode.Bit && count !== 1) return -1;
      const e = s === GadbStorageCode.Bit ? (cell + count + 31) >>> 5 : cell + count;
      if (count > 0 && e > maxEnd) maxEnd = e;
      if (s === GadbStorageCode.Block) {
        const kind = GADB_ITEM_KIND_BY_TYPE_BYTE[t]!;
        if (kind === GadbItemKind.Unreferenced || kind > 15) return -1;
        if (w + count > list.length) list = this.cellList = grow(list, w + count);
        for (let c = 0; c < count; c++) list[w++] = ((cell + c) * 4) | (kind << 24);
      } else if (s === GadbStorageCode.Link && count > 0) {
        if (cell < linkFrom) linkFrom = cell;
        if (cell + count > linkTo) linkTo = cell + count;
        links += count;
      }
    }
    const fullCells = gadbSortedRunSlotsHold(d, first, n, 'full');
    const baseCells = flagged ? gadbSortedRunSlotsHold(d, first, n, 'base') : -1;
    const cellCount = baseCells >= 0 ? baseCells : fullCells;
    if (cellCount < 0 || maxEnd > cellCount) return -1;
    this.used.fill(1, first, first + n);
    if (flagged) {
      const o: GadbRunOrder = fullCells >= 0 && baseCells >= 0 ? 'either' : fullCells >= 0 ? 'full' : 'base';
      this.flaggedOrders.set(o, (this.flaggedOrders.get(o) ?? 0) + 1);
    }
    // The link ranges (the slot rule holds: fields do not overlap): the one range, or one per link field.
    const linksAt = w;
    const adjacent = linkTo - linkFrom === links;
    if (w + (adjacent ? 2 : 2 * n) > list.length) list = this.cellList = grow(list, w + (adjacent ? 2 : 2 * n));
    if (links > 0 && adjacent) {
      list[w++] = linkFrom * 4;
      list[w++] = linkTo * 4;
    } else if (links > 0) {
      for (let k = first; k < first + n; k++) {
        if (storage[typeCode[k]!] !== GadbStorageCode.Link || elementCount[k] === 0) continue;
        list[w++] = link[k]! * 4;
        list[w++] = (link[k]! + elementCount[k]!) * 4;
      }
    }
    const id = this.runCount++;
    if ((id + 1) * RUN_STRIDE > this.runInfo.length) this.runInfo = grow(this.runInfo, (id + 1) * RUN_STRIDE);
    const info = this.runInfo;
    const u = id * RUN_STRIDE;
    info[u + RUN_N] = n;
    info[u + RUN_CELLS] = cellCount;
    info[u + RUN_SHAPE] = gadbRunShape(d, first, n, this.shapes, () => this.shapeCount++);
    info[u + RUN_LIST] = this.listEnd;
    info[u + RUN_LINKS] = linksAt;
    info[u + RUN_END] = w;
    this.listEnd = w;
    return id;
  }

  /**
   * The string block's items (the keys met, each running to the next) pass the strings rules (`gadbItemsClean`);
   * the distinct names' hashes are taken on the way (`nameHashes`).
   */
  blockClean(): boolean {
    const n = this.keyCount;
    const keys = this.keys.subarray(0, n);
    const sizes = new Uint32Array(n);
    const itemKinds = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      sizes[i] = (i + 1 < n ? keys[i + 1]! : this.blockSize) - keys[i]!;
      itemKinds[i] = (this.kinds[keys[i]! >>> 3]! >>> (keys[i]! & 4)) & 15;
    }
    let distinct = 0;
    for (let i = 0; i < this.nameStarts.length; i++) distinct += popcount32(this.nameStarts[i]!);
    this.nameHashes = new Float64Array(distinct);
    return gadbItemsClean(this.bytes.subarray(this.blockAt, this.blockAt + this.blockSize), keys, sizes, itemKinds, { starts: this.nameStarts, hashes: this.nameHashes });
  }
}

/** The number of set bits of a 32-bit word. */
function popcount32(x: number): number {
  x = x - ((x >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}



/** @internal The cell (Bool: the bool word) just past field row `k`'s elements, by the slot rule. */
export function fieldEnd(d: Gadb['descriptors'], k: number): number {
  return GADB_STORAGE_BY_TYPE_BYTE[d.typeCode[k]!] === GadbStorageCode.Bit ? (d.link[k]! + d.elementCount[k]! + 31) >>> 5 : d.link[k]! + d.elementCount[k]!;
}

/**
 * @internal The shape id of the run `[first, first + n)`: runs declaring the same field hashes in the same order
 * share it. `shapes` maps a hash of the declared column to (first descriptor, count, id) of each distinct shape
 * with that hash; `next` numbers a new shape.
 */
export function gadbRunShape(d: Gadb['descriptors'], first: number, n: number, shapes: Map<number, number[]>, next: () => number): number {
  const hashes = d.declaredHash;
  let h = n;
  for (let k = first; k < first + n; k++) h = Math.imul(h ^ hashes[k]!, 0x01000193);
  let list = shapes.get(h);
  if (!list) shapes.set(h, (list = []));
  for (let i = 0; i < list.length; i += 3) {
    const other = list[i]!;
    if (list[i + 1] !== n) continue;
    let same = true;
    for (let j = 0; same && j < n; j++) same = hashes[other + j] === hashes[first + j];
    if (same) return list[i + 2]!;
  }
  const id = next();
  list.push(first, n, id);
  return id;
}

/**
 * @internal True when no item of the block has a finding of `Verifier.strings`' item loop (alignment, references,
 * kinds, texts, tiling, padding, one item per value per kind): the same rules, decided without building any
 * finding, in one pass over each item's words. An item that passes them is its payload and NUL padding to a
 * multiple of 4, so two clean items hold the same value exactly when kind, size and all their words agree: the
 * words are hashed while a text's terminator is found (the first zero byte must lie in the last word, every byte
 * after it zero), then sorted by hash, and only items of equal hash are compared.
 */
export function gadbItemsClean(data: Uint8Array, itemKeys: Uint32Array, itemSizes: Uint32Array, kinds: Uint8Array, names?: GadbNameItems): boolean {
  const n = itemKeys.length;
  const hashes = new Uint32Array(n);
  const which = new Uint32Array(n);
  const dv = new DataView(data.buffer, data.byteOffset, data.byteLength);
  // Each phase is a function of its own: V8 optimizes each loop with its own feedback (one function holding them
  // all is entered once per call and deoptimized at every phase it reaches for the first time).
  const m = itemHashes(dv, itemKeys, itemSizes, kinds, hashes, which, names?.starts ?? NO_NAMES, names?.hashes ?? NO_NAME_HASHES);
  return m >= 0 && !hasDuplicate(dv, itemKeys, itemSizes, kinds, hashes, which, m);
}

/**
 * The names whose P919 `gadbItemsClean` takes while it reads the items: `starts` has a bit per 4-byte word of the
 * block (bit `w & 31` of `starts[w >>> 5]`) set where a name item starts; `hashes` receives the P919 of those
 * items in key order (-1 for one with a byte the default table cannot hash).
 */
export interface GadbNameItems {
  starts: Uint32Array;
  hashes: Float64Array;
}

const NO_NAMES = new Uint32Array(0);
const NO_NAME_HASHES = new Float64Array(0);
const NO_NAME_PAIRS = new Int32Array(0);

/** 919^2 and 919^4 mod 2^32: P919 over two bytes is h·919^2 + (v0·919 + v1), over four h·919^4 + pair0·919^2 + pair1. */
const P919_2 = 919 * 919;
const P919_4 = Math.imul(P919_2, P919_2);

/** `P919_PAIRS` entries: v0·919 + v1 plus this (so that every usable pair is positive), or the unusable mark. */
const P919_PAIR_OFFSET = 1 << 17;
const P919_PAIR_UNUSABLE = 1 << 30;

/**
 * Per two bytes (the first in the low byte): `v0·919 + v1 + P919_PAIR_OFFSET` from the default table's values,
 * or `P919_PAIR_UNUSABLE` when either byte is one `HASHABLE` refuses or NUL. Built at the first name hashed
 * (256 KiB; not at import).
 */
let P919_PAIRS: Int32Array | undefined;

function p919Pairs(): Int32Array {
  if (P919_PAIRS) return P919_PAIRS;
  const t = new Int32Array(65536);
  for (let x = 0; x < 65536; x++) {
    const v0 = P919_STEP[x & 0xff]!;
    const v1 = P919_STEP[x >>> 8]!;
    t[x] = v0 > 127 || v1 > 127 ? P919_PAIR_UNUSABLE : v0 * 919 + v1 + P919_PAIR_OFFSET;
  }
  return (P919_PAIRS = t);
}

/**
 * P919 of the text item at `key` whose last word is `last` (checked by `itemHashes`: every byte before the last
 * word non-zero, the terminator in the last word), or -1 when a byte is not hashable by the default table (what
 * `textHash` gives). Four bytes a step through two pair lookups: one multiply-add per word is the chain.
 */
function nameItemHash(dv: DataView, key: number, last: number, pairs: Int32Array): number {
  const offset = Math.imul(P919_PAIR_OFFSET, P919_2 + 1); // both pairs' offsets, as the word's step adds them
  let h = 0;
  let unusable = 0;
  for (let p = key; p < last; p += 4) {
    const w = dv.getUint32(p, true);
    const low = pairs[w & 0xffff]!;
    const high = pairs[w >>> 16]!;
    unusable |= low | high;
    h = (Math.imul(h, P919_4) + Math.imul(low, P919_2) + high - offset) | 0;
  }
  if ((unusable & P919_PAIR_UNUSABLE) !== 0) return -1;
  for (let w = dv.getUint32(last, true); (w & 0xff) !== 0; w >>>= 8) {
    const v = P919_STEP[w & 0xff]!;
    if (v > 127) return -1;
    h = (Math.imul(h, 919) + v) | 0;
  }
  return h >>> 0;
}

/**
 * The item rules of `gadbItemsClean`, item by item; the hash of each item but the root into `hashes[0, m)` (item
 * index in `which`); returns m, or -1 at the first item that breaks a rule.
 */
function itemHashes(dv: DataView, itemKeys: Uint32Array, itemSizes: Uint32Array, kinds: Uint8Array, hashes: Uint32Array, which: Uint32Array, nameStarts: Uint32Array, nameHashes: Float64Array): number {
  const n = itemKeys.length;
  const size = dv.byteLength;
  let m = 0;
  let names = 0;
  const pairs = nameStarts.length > 0 ? p919Pairs() : NO_NAME_PAIRS;
  for (let i = 0; i < n; i++) {
    const key = itemKeys[i]!;
    const span = itemSizes[i]!;
    const kind = kinds[i]!;
    if ((span & 3) !== 0 || span === 0 || key + span > size || kind === GadbItemKind.Unreferenced || kind === GadbItemKind.Mixed) return -1;
    const last = key + span - 4;
    let h = (0x811c9dc5 ^ kind ^ (span << 8)) | 0;
    if (kind === GadbItemKind.Text || kind === GadbItemKind.Root) {
      // Every word before the last free of zero bytes (a zero byte sets its high bit in `zero`, tested once after
      // the loop); the last holds the terminator, then only zero bytes: its top byte is zero and its non-zero
      // bytes (`nonZero`: each one's high bit) are a prefix, which `prefix` (0xFF per non-zero byte) is exactly
      // when it is one less than a power of two.
      let zero = 0;
      for (let p = key; p < last; p += 4) {
        const w = dv.getUint32(p, true);
        zero |= (w - 0x01010101) & ~w;
        h = Math.imul(h ^ w, 0x01000193);
      }
      const w = dv.getUint32(last, true);
      const nonZero = (((w & 0x7f7f7f7f) + 0x7f7f7f7f) | w) & 0x80808080;
      const prefix = Math.imul(nonZero >>> 7, 0xff);
      if ((zero & 0x80808080) !== 0 || w >>> 24 !== 0 || (prefix & (prefix + 1)) !== 0) return -1;
      h = Math.imul(h ^ w, 0x01000193);
      if (kind === GadbItemKind.Root) continue;
      if ((key >>> 7) < nameStarts.length && (nameStarts[key >>> 7]! & (1 << ((key >>> 2) & 31))) !== 0) nameHashes[names++] = nameItemHash(dv, key, last, pairs);
    } else {
      const fixed = KIND_FIXED_SIZE[kind]!;
      const keySize = KIND_CURVE_KEY_SIZE[kind]!;
      const want = fixed >= 0 ? fixed : keySize > 0 ? 4 + dv.getUint32(key, true) * keySize : -1;
      if (want >= 0 && want !== span) return -1;
      for (let p = key; p <= last; p += 4) h = Math.imul(h ^ dv.getUint32(p, true), 0x01000193);
    }
    h = Math.imul(h ^ (h >>> 16), 0x45d9f3b);
    hashes[m] = h ^ (h >>> 16);
    which[m++] = i;
  }
  return m;
}

/**
 * Whether two of the hashed items hold the same value. Equal values have equal hashes. A filter of 8 to 16 bits
 * per item (one bit per value of the hash's top bits, at most 512 KiB; with twice that, the two passes over it
 * missed the core's cache more than the fewer items gathered saved) first finds the bits that two or more items
 * fall on (`filterRepeats`: a few percent of the items, most of them by chance); only the items on those bits are
 * gathered (`gatherRepeats`) and compared, bucketed by the top bits of their hash (a counting pass and a scatter
 * of each hash with its item, a few items per bucket): only items of equal hash within a bucket are compared.
 */
function hasDuplicate(dv: DataView, itemKeys: Uint32Array, itemSizes: Uint32Array, kinds: Uint8Array, hashes: Uint32Array, which: Uint32Array, m: number): boolean {
  const filterBits = Math.max(5, Math.min(22, 35 - Math.clz32(m)));
  const filterShift = 32 - filterBits;
  const seen = new Int32Array(1 << (filterBits - 5));
  const again = new Int32Array(1 << (filterBits - 5));
  const repeats = filterRepeats(hashes, m, filterShift, seen, again);
  if (repeats === 0) return false;
  // Each bit set in `again` holds its first item and at least one of the `repeats`: at most 2 × repeats items.
  const repeatHash = new Uint32Array(2 * repeats);
  const repeatItem = new Uint32Array(2 * repeats);
  const r = gatherRepeats(hashes, which, m, filterShift, again, repeatHash, repeatItem);
  const bits = Math.max(1, Math.min(16, 30 - Math.clz32(r)));
  const shift = 32 - bits;
  const start = new Int32Array((1 << bits) + 1);
  countBuckets(repeatHash, r, shift, start);
  const bucketHash = new Uint32Array(r);
  const bucketItem = new Uint32Array(r);
  scatter(repeatHash, repeatItem, r, shift, start.slice(0, start.length - 1), bucketHash, bucketItem);
  const buckets = 1 << bits;
  for (let b = 0; b < buckets; b++) {
    for (let x = start[b]!, end = start[b + 1]!; x < end; x++) {
      const hx = bucketHash[x]!;
      for (let y = x + 1; y < end; y++) {
        if (bucketHash[y] === hx && sameItem(dv, itemKeys, itemSizes, kinds, bucketItem[x]!, bucketItem[y]!)) return true;
      }
    }
  }
  return false;
}

/** Sets each hash's filter bit (its top bits) in `seen`, and in `again` when an earlier hash set it; how many did. */
function filterRepeats(hashes: Uint32Array, m: number, shift: number, seen: Int32Array, again: Int32Array): number {
  let repeats = 0;
  for (let x = 0; x < m; x++) {
    const bit = hashes[x]! >>> shift;
    const w = bit >>> 5;
    const mask = 1 << (bit & 31);
    const s = seen[w]!;
    if ((s & mask) === 0) seen[w] = s | mask;
    else {
      again[w] = again[w]! | mask;
      repeats++;
    }
  }
  return repeats;
}

/** The hashes (and their items) whose filter bit is set in `again`, in order, into `outHash` / `outItem`; their number. */
function gatherRepeats(hashes: Uint32Array, which: Uint32Array, m: number, shift: number, again: Int32Array, outHash: Uint32Array, outItem: Uint32Array): number {
  let r = 0;
  for (let x = 0; x < m; x++) {
    const h = hashes[x]!;
    const bit = h >>> shift;
    if ((again[bit >>> 5]! & (1 << (bit & 31))) === 0) continue;
    outHash[r] = h;
    outItem[r++] = which[x]!;
  }
  return r;
}

/** Bucket sizes into `start[b + 1]`, then their running sums: `start[b]` is where bucket b begins. */
function countBuckets(hashes: Uint32Array, m: number, shift: number, start: Int32Array): void {
  for (let x = 0; x < m; x++) start[(hashes[x]! >>> shift) + 1]!++;
  for (let b = 1; b < start.length; b++) start[b] = start[b]! + start[b - 1]!;
}

/** Each hash x and its item `which[x]` to the next place of its bucket (`fill[b]`: where bucket b's next goes). */
function scatter(hashes: Uint32Array, which: Uint32Array, m: number, shift: number, fill: Int32Array, bucketHash: Uint32Array, bucketItem: Uint32Array): void {
  for (let x = 0; x < m; x++) {
    const h = hashes[x]!;
    const at = fill[h >>> shift]!++;
    bucketHash[at] = h;
    bucketItem[at] = which[x]!;
  }
}

/** Whether items `i` and `j` have the same kind, size and words. */
function sameItem(dv: DataView, itemKeys: Uint32Array, itemSizes: Uint32Array, kinds: Uint8Array, i: number, j: number): boolean {
  const span = itemSizes[i]!;
  if (kinds[i] !== kinds[j] || itemSizes[j] !== span) return false;
  const a = itemKeys[i]!;
  const b = itemKeys[j]!;
  for (let q = 0; q < span; q += 4) if (dv.getUint32(a + q, true) !== dv.getUint32(b + q, true)) return false;
  return true;
}
