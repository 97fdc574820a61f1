/**
 * GADB v17 writer: rebuilds the file from the model, in the reader's field order. The string block is laid out
 * again (`layout.ts`) and every reference rewritten; sizes and counts the bytes determine are recomputed; unknown
 * fields, padding and the pair table come from the model. The argument is never modified.
 */
import { ConsistencyError } from '../../binary/errors.ts';
import { latin1Constant, latin1Encode } from '../../binary/text.ts';
import { gadbSpanWalk, itemIndexByWord, itemOf, planGadbStringBlockWithItems, type GadbStringOrder } from './layout.ts';
import { GADB_CATEGORY_SIZE, GADB_DESCRIPTOR_SIZE, GADB_FORMAT, GADB_HEADER_SIZE, GADB_PRIMARY_HEADER_SIZE, GADB_RECORD_HEADER, GADB_SECONDARY_HEADER_SIZE, GADB_WRAPPER_SIZE, HOST_LITTLE_ENDIAN } from './parse.ts';
import { validateGadbWithItems } from './validate.ts';
import type { Gadb } from './types.ts';


/** Options of `writeGadb`. */
export interface WriteGadbOptions {
  /** String-block order (default `first-use`, the spec's rule). */
  stringOrder?: GadbStringOrder;
}

/** Writes `g` as a GADB v17 file (with its wrapper, if any). Throws a `ConsistencyError` when `validateGadb` finds errors. */
export function writeGadb(g: Gadb, options: WriteGadbOptions = {}): Uint8Array<ArrayBuffer> {
  return writeGadbOnHost(g, options, HOST_LITTLE_ENDIAN);
}

/** `writeGadb` with the host's byte order given (internal: tests run the big-endian host's path on any machine). */
export function writeGadbOnHost(g: Gadb, options: WriteGadbOptions, littleEndianHost: boolean): Uint8Array<ArrayBuffer> {
  const map = itemIndexByWord(g);
  const errors = validateGadbWithItems(g, map).filter((i) => i.severity === 'error');
  if (errors.length > 0) throw new ConsistencyError(GADB_FORMAT, errors);

  const plan = planGadbStringBlockWithItems(g, options.stringOrder ?? 'first-use', map);
  const remap = (key: number): number => {
    const i = itemOf(plan.itemIndexByWord, key);
    return i >= 0 ? plan.newOffset[i]! : key;
  };
  const cells = g.cells;

  const { header, descriptors: d, records, categories } = g;
  const wrapper = g.container.kind === 'wrapped' ? GADB_WRAPPER_SIZE : 0;
  let recordBytes = 0;
  for (const c of categories) recordBytes += c.primaryCount * GADB_PRIMARY_HEADER_SIZE + c.secondaryCount * GADB_SECONDARY_HEADER_SIZE;
  const total =
    wrapper + GADB_HEADER_SIZE + g.headerExtra.byteLength + 2 + g.headerString.byteLength + plan.size + d.count * GADB_DESCRIPTOR_SIZE + 8 +
    categories.length * GADB_CATEGORY_SIZE + recordBytes + cells.length * 4 + 4 + g.pairs.length * 4;
  // The size is known exactly, so the file is filled in place (no growth, no final copy).
  const w = new FileCursor(total);

  if (g.container.kind === 'wrapped') {
    w.bytes(latin1Encode(g.container.magic.padEnd(4, '\0').slice(0, 4), { format: GADB_FORMAT, path: '/container/magic' }));
    w.u32(g.container.version);
  }
  // Header (11 x u32).
  w.bytes(latin1Constant('GADB'));
  w.u32(header.version);
  w.u32(plan.size);
  w.u32(categories.length);
  w.u32(header.recordCount);
  w.u32(header.unk14);
  w.u32(cells.length);
  w.u32(d.count);
  w.u32(header.unk20);
  w.u32(header.unk24);
  w.u32(GADB_HEADER_SIZE + g.headerExtra.byteLength);
  w.bytes(g.headerExtra);
  w.u16(g.headerString.byteLength);
  w.bytes(g.headerString);

  // String block.
  const { data, itemKeys, itemSizes } = g.strings;
  for (let j = 0; j < plan.order.length; j++) {
    const i = plan.order[j]!;
    w.copy(data, itemKeys[i]!, itemSizes[i]!);
  }

  // Descriptors, 15 bytes a row.
  for (let i = 0; i < d.count; i++) {
    w.u32(d.declaredHash[i]!);
    w.u32(d.sortedHash[i]!);
    w.u8(d.schemaOrdinal[i]!);
    w.u8(d.sortedToDeclared[i]!);
    w.u8(d.typeCode[i]!);
    w.u16(d.elementCount[i]!);
    w.u16(d.link[i]!);
  }

  // Value section.
  w.u32(g.valueSectionUnk00);
  w.u32(categories.length);
  // Categories, record headers and cells are assembled as u32 words in a 4-aligned window and flushed in bulk;
  // string-block references in cells are rewritten in the window (the model's cells are never copied whole).
  const out = new GadbWordSink(w, littleEndianHost);
  const walk = gadbSpanWalk(g);
  const itemByWord = plan.itemIndexByWord;
  const newOffset = plan.newOffset;
  const { nameKey, cellCount, descriptorCount, firstDescriptor, unk0A, flags } = records;
  const PH = GADB_RECORD_HEADER.primary;
  const SH = GADB_RECORD_HEADER.secondary;
  let rec = 0;
  let cell = 0;
  for (const cat of categories) {
    let s = out.room(GADB_CATEGORY_SIZE >> 2);
    let o = out.used;
    s[o] = remap(cat.nameKey);
    s[o + 1] = remap(cat.typeNameKey);
    s[o + 2] = remap(cat.unk08Key);
    s[o + 3] = cat.primaryCount;
    s[o + 4] = cat.secondaryCount;
    s[o + 5] = cat.sortKey;
    out.used = o + 6;
    const n = cat.primaryCount + cat.secondaryCount;
    for (let i = 0; i < n; i++, rec++) {
      const h = i < cat.primaryCount ? PH : SH;
      const count = cellCount[rec]!;
      s = out.room((h.size >> 2) + count);
      o = out.used;
      if (h.nameAt >= 0) s[o + (h.nameAt >> 2)] = remap(nameKey[rec]!);
      // Tail: u16 cell count, u8 descriptor count, u24 first descriptor (H-REC-FIRST-U24), u8 +0x0A, u8 flags.
      const first = firstDescriptor[rec]!;
      const t = o + (h.tailAt >> 2);
      s[t] = (count | (descriptorCount[rec]! << 16) | ((first & 0xff) << 24)) >>> 0;
      s[t + 1] = (((first >>> 8) & 0xffff) | (unk0A[rec]! << 16) | (flags[rec]! << 24)) >>> 0;
      const c0 = o + (h.size >> 2);
      if (count > 16) s.set(cells.subarray(cell, cell + count), c0);
      else for (let k = 0; k < count; k++) s[c0 + k] = cells[cell + k]!;
      // The walk indexes the window: the record's cells start at c0 there.
      walk.enter(rec, c0);
      while (walk.nextInRecord()) {
        for (let e = walk.begin; e < walk.end; e++) {
          const v = s[e]!;
          if ((v & 3) !== 0 || v >>> 2 >= itemByWord.length) continue;
          const it = itemByWord[v >>> 2]!;
          if (it >= 0) s[e] = newOffset[it]!;
        }
      }
      out.used = c0 + count;
      cell += count;
    }
  }
  out.flush();

  // Trailer.
  w.u32(g.pairs.length >>> 1);
  for (let i = 0; i < g.pairs.length; i++) w.u32(g.pairs[i]!);
  return w.finish();
}

/** Bytes of the word window of `GadbWordSink` (at least one largest record: 12 + 4 * 0xFFFF). */
const WORD_SINK_BYTES = 1 << 19;

/**
 * Little-endian u32 words appended to a `FileCursor` through a 4-aligned window: `room(n)` makes room for `n`
 * words at `used` (flushing the window when full), `flush` copies the window to the file (one bulk copy on a
 * little-endian host, a DataView write per word elsewhere).
 */
class GadbWordSink {
  private readonly w: FileCursor;
  private readonly littleEndianHost: boolean;
  private readonly words = new Uint32Array(WORD_SINK_BYTES >> 2);
  private readonly wordBytes = new Uint8Array(this.words.buffer);
  used = 0;
  constructor(w: FileCursor, littleEndianHost: boolean) {
    this.w = w;
    this.littleEndianHost = littleEndianHost;
  }
  room(n: number): Uint32Array {
    if (this.used + n > this.words.length) this.flush();
    return this.words;
  }
  flush(): void {
    const n = this.used;
    if (this.littleEndianHost) {
      this.w.bytes(this.wordBytes.subarray(0, n * 4));
    } else {
      for (let i = 0; i < n; i++) this.w.u32(this.words[i]!);
    }
    this.used = 0;
  }
}

/**
 * A little-endian cursor over a buffer of exactly the file's size. (`ByteWriter` grows and copies; at the real
 * game's 57 MB the exact-size fill is measurably faster.) `finish` checks the size was right.
 */
class FileCursor {
  readonly out: Uint8Array<ArrayBuffer>;
  private readonly dv: DataView;
  pos = 0;
  constructor(size: number) {
    this.out = new Uint8Array(size);
    this.dv = new DataView(this.out.buffer);
  }
  u8(v: number): void {
    this.out[this.pos++] = v;
  }
  u16(v: number): void {
    this.dv.setUint16(this.pos, v, true);
    this.pos += 2;
  }
  u32(v: number): void {
    this.dv.setUint32(this.pos, v >>> 0, true);
    this.pos += 4;
  }
  bytes(b: Uint8Array): void {
    this.out.set(b, this.pos);
    this.pos += b.byteLength;
  }
  /** `n` bytes of `src` from `from` (a byte loop for short runs: cheaper than a subarray and a set). */
  copy(src: Uint8Array, from: number, n: number): void {
    if (n > 64) {
      this.out.set(src.subarray(from, from + n), this.pos);
    } else {
      const out = this.out;
      for (let i = 0; i < n; i++) out[this.pos + i] = src[from + i]!;
    }
    this.pos += n;
  }
  finish(): Uint8Array<ArrayBuffer> {
    if (this.pos !== this.out.byteLength) throw new Error(`gadb writer: wrote ${this.pos} bytes, planned ${this.out.byteLength}`);
    return this.out;
  }
}

/** A record header, mirror of the reader: name (secondaries), then the 8-byte tail, as `GADB_RECORD_HEADER` lays them out. */
function writeRecordHeader(w: FileCursor, g: Gadb, rec: number, primary: boolean, nameOffset: number): void {
  const h = primary ? GADB_RECORD_HEADER.primary : GADB_RECORD_HEADER.secondary;
  const start = w.pos;
  if (h.nameAt >= 0) {
    w.pos = start + h.nameAt;
    w.u32(nameOffset);
  }
  w.pos = start + h.tailAt;
  const r = g.records;
  const first = r.firstDescriptor[rec]!;
  w.u16(r.cellCount[rec]!);
  w.u8(r.descriptorCount[rec]!);
  w.u8(first & 0xff); // u24 first descriptor (H-REC-FIRST-U24)
  w.u16((first >>> 8) & 0xffff);
  w.u8(r.unk0A[rec]!);
  w.u8(r.flags[rec]!);
  w.pos = start + h.size;
}
