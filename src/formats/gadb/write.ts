/**
 * GADB v17 writer: rebuilds the file from the model, in the reader's field order. The string block is laid out
 * again (`layout.ts`) and every reference rewritten; sizes and counts the bytes determine are recomputed; unknown
 * fields, padding and the pair table come from the model. The argument is never modified.
 */
import { ConsistencyError } from '../../binary/errors.ts';
import { latin1Constant, latin1Encode } from '../../binary/text.ts';
import { GadbFirstUseCheck, gadbSpanWalk, gadbCellTotal, gadbItemIndex, gadbRecordCellStarts, gadbTiledBlockSize, planGadbStringBlockWithItems, type GadbItemIndex, type GadbStringOrder, type GadbStringPlan } from './layout.ts';
import { GADB_CATEGORY_SIZE, GADB_DESCRIPTOR_SIZE, GADB_FORMAT, GADB_HEADER_SIZE, GADB_PRIMARY_HEADER_SIZE, GADB_RECORD_HEADER, GADB_SECONDARY_HEADER_SIZE, GADB_WRAPPER_SIZE, HOST_LITTLE_ENDIAN, encodeGadbRecordTail } from './parse.ts';
import { validateGadbWithItems } from './validate.ts';
import type { Gadb } from './types.ts';


/** Options of `writeGadb`. */
export interface WriteGadbOptions {
  /** String-block order (default `first-use`, the spec's rule). */
  stringOrder?: GadbStringOrder;
}

/**
 * Writes `g` as a GADB v17 file (with its wrapper, if any). Throws a `ConsistencyError` when `validateGadb` finds
 * errors. The result lies in its buffer so that its value section is 4-aligned (its `byteOffset` may be 1 to 3):
 * parsing it again views the cells instead of copying them.
 */
export function writeGadb(g: Gadb, options: WriteGadbOptions = {}): Uint8Array<ArrayBuffer> {
  return writeGadbOnHost(g, options, HOST_LITTLE_ENDIAN);
}

/** `writeGadb` with the host's byte order given (internal: tests run the big-endian host's path on any machine). */
export function writeGadbOnHost(g: Gadb, options: WriteGadbOptions, littleEndianHost: boolean): Uint8Array<ArrayBuffer> {
  const items = gadbItemIndex(g);
  const errors = validateGadbWithItems(g, items).filter((i) => i.severity === 'error');
  if (errors.length > 0) throw new ConsistencyError(GADB_FORMAT, errors);
  const order = options.stringOrder ?? 'first-use';
  // The common case (a file written by the first-use rule, or by scry, unchanged): when the items tile the block
  // in key order, the file is laid out as if the first-use rule kept every item at its key, and the rule is
  // confirmed while the record headers are written (the block cells are read beside them, in the output); only a
  // model the rule would change is planned and laid out again.
  if (order === 'first-use') {
    const size = gadbTiledBlockSize(g.strings.itemKeys, g.strings.itemSizes);
    if (size >= 0) {
      const out = layOut(g, items, undefined, size, littleEndianHost);
      if (out) return out;
    }
  }
  const plan = planGadbStringBlockWithItems(g, order, items);
  return layOut(g, items, plan, plan.size, littleEndianHost)!;
}

/**
 * The file of `g` with its string block planned by `plan`, or, without a plan, with every item at its key (`size`:
 * the block's size) provided the first-use rule agrees, else undefined.
 */
function layOut(g: Gadb, items: GadbItemIndex, plan: GadbStringPlan | undefined, blockSize: number, littleEndianHost: boolean): Uint8Array<ArrayBuffer> | undefined {
  const remap = (key: number): number => {
    if (!plan) return key;
    const i = items.of(key);
    return i >= 0 ? plan.newOffset[i]! : key;
  };

  const { header, descriptors: d, categories } = g;
  const cellTotal = gadbCellTotal(g);
  const wrapper = g.container.kind === 'wrapped' ? GADB_WRAPPER_SIZE : 0;
  let recordBytes = 0;
  for (const c of categories) recordBytes += c.primaryCount * GADB_PRIMARY_HEADER_SIZE + c.secondaryCount * GADB_SECONDARY_HEADER_SIZE;
  const valueSectionAt = wrapper + GADB_HEADER_SIZE + g.headerExtra.byteLength + 2 + g.headerString.byteLength + blockSize + d.count * GADB_DESCRIPTOR_SIZE;
  const valueWords = 2 + (categories.length * GADB_CATEGORY_SIZE + recordBytes) / 4 + cellTotal + 1 + g.pairs.length;
  const total = valueSectionAt + valueWords * 4;
  // The size is known exactly, so the file is filled in place (no growth, no final copy); it is placed in its
  // buffer so that the value section is 4-aligned and can be filled as u32 words.
  const w = new FileCursor(total, (4 - (valueSectionAt & 3)) & 3);

  if (g.container.kind === 'wrapped') {
    w.bytes(latin1Encode(g.container.magic.padEnd(4, '\0').slice(0, 4), { format: GADB_FORMAT, path: '/container/magic' }));
    w.u32(g.container.version);
  }
  // Header (11 x u32).
  w.bytes(latin1Constant('GADB'));
  w.u32(header.version);
  w.u32(blockSize);
  w.u32(categories.length);
  w.u32(header.recordCount);
  w.u32(header.unk14);
  w.u32(cellTotal);
  w.u32(d.count);
  w.u32(header.unk20);
  w.u32(header.unk24);
  w.u32(GADB_HEADER_SIZE + g.headerExtra.byteLength);
  w.bytes(g.headerExtra);
  w.u16(g.headerString.byteLength);
  w.bytes(g.headerString);

  // String block: the model's bytes as they are when every item keeps its key, else item by item.
  const { data, itemKeys, itemSizes } = g.strings;
  if (!plan || plan.identity) {
    w.bytes(data.subarray(0, blockSize));
  } else {
    for (let j = 0; j < plan.order.length; j++) {
      const i = plan.order[j]!;
      w.copy(data, itemKeys[i]!, itemSizes[i]!);
    }
  }

  // Descriptors, 15 bytes a row.
  writeDescriptors(w, d);

  // Value section, filled as u32 words (in place on a little-endian host, else in a scratch pool then stored
  // little-endian).
  if (w.pos !== valueSectionAt) throw new Error(`gadb writer: value section at ${w.pos}, planned ${valueSectionAt}`);
  const words = littleEndianHost ? new Uint32Array(w.out.buffer, w.out.byteOffset + valueSectionAt, valueWords) : new Uint32Array(valueWords);
  if (!fillValueSection(g, words, plan, remap)) return undefined;
  if (!littleEndianHost) for (let i = 0; i < valueWords; i++) w.dv.setUint32(valueSectionAt + i * 4, words[i]!, true);
  w.pos = total;
  return w.finish();
}

/** The descriptor table: 15 bytes a row (u32 declared hash, u32 sorted hash, u8, u8, u8, u16, u16). */
function writeDescriptors(w: FileCursor, d: Gadb['descriptors']): void {
  const dv = w.dv;
  const { declaredHash, sortedHash, schemaOrdinal, sortedToDeclared, typeCode, elementCount, link } = d;
  let p = w.pos;
  // Five little-endian stores a row (unaligned: rows are 15 bytes): hashes, the three u8 and the low byte of the
  // element count, its high byte, the link.
  for (let i = 0, n = d.count; i < n; i++, p += GADB_DESCRIPTOR_SIZE) {
    const e = elementCount[i]!;
    dv.setUint32(p, declaredHash[i]!, true);
    dv.setUint32(p + 4, sortedHash[i]!, true);
    dv.setUint32(p + 8, (schemaOrdinal[i]! | (sortedToDeclared[i]! << 8) | (typeCode[i]! << 16) | ((e & 0xff) << 24)) >>> 0, true);
    dv.setUint8(p + 12, e >>> 8);
    dv.setUint16(p + 13, link[i]!, true);
  }
  w.pos = p;
}

/**
 * The value section as u32 words: leading word, category count, each category's entry followed by its records
 * (header, then cells), the trailer. Cells are copied from the model's pool in runs: consecutive records whose
 * cells lie in the pool exactly as they will lie in the file (a parsed model, records unchanged) are one bulk
 * copy, words between them included; headers and category entries are then written over those words from the
 * model's columns, and string-block references rewritten where the plan moves items.
 */
function fillValueSection(g: Gadb, words: Uint32Array, plan: GadbStringPlan | undefined, remap: (key: number) => number): boolean {
  const { records, categories, cells } = g;
  const starts = gadbRecordCellStarts(g);
  const { nameKey, cellCount } = records;
  const PH = GADB_RECORD_HEADER.primary;
  const SH = GADB_RECORD_HEADER.secondary;
  words[0] = g.valueSectionUnk00;
  words[1] = categories.length;
  // Category by category (its words still in cache for the second step): first the cells, in runs of records that
  // keep their distance to their place in the pool; then the entry and the record headers over them from the
  // columns (without a plan, the first-use check beside them).
  const check = plan ? undefined : new GadbFirstUseCheck(g);
  const keepNames = !plan || plan.identity;
  let o = 2;
  let rec = 0;
  for (const cat of categories) {
    const n = cat.primaryCount + cat.secondaryCount;
    let p = o + (GADB_CATEGORY_SIZE >> 2);
    let runFrom = 0; // output word where the current run starts
    let runDelta = 0; // pool index - output index within the run
    let runEnd = 0; // output word just past the run
    for (let i = 0; i < n; i++) {
      p += (i < cat.primaryCount ? PH.size : SH.size) >> 2;
      const delta = starts[rec + i]! - p;
      if (delta !== runDelta || i === 0) {
        if (runEnd > runFrom) copyCells(words, cells, runFrom, runEnd, runDelta);
        runDelta = delta;
        runFrom = p;
      }
      p += cellCount[rec + i]!;
      runEnd = p;
    }
    if (runEnd > runFrom) copyCells(words, cells, runFrom, runEnd, runDelta);
    if (check && !(check.key(cat.nameKey) && check.key(cat.typeNameKey) && check.key(cat.unk08Key))) return false;
    words[o] = remap(cat.nameKey);
    words[o + 1] = remap(cat.typeNameKey);
    words[o + 2] = remap(cat.unk08Key);
    words[o + 3] = cat.primaryCount;
    words[o + 4] = cat.secondaryCount;
    words[o + 5] = cat.sortKey;
    o += GADB_CATEGORY_SIZE >> 2;
    for (let i = 0; i < n; i++, rec++) {
      const h = i < cat.primaryCount ? PH : SH;
      const count = cellCount[rec]!;
      if (h.nameAt >= 0) words[o + (h.nameAt >> 2)] = keepNames ? nameKey[rec]! : remap(nameKey[rec]!);
      encodeGadbRecordTail(records, rec, words, o + (h.tailAt >> 2));
      if (check && !check.record(rec, h.nameAt >= 0, words, o + (h.size >> 2))) return false;
      o += (h.size >> 2) + count;
    }
  }
  if (check && !check.done()) return false;
  // Trailer.
  words[o] = g.pairs.length >>> 1;
  words.set(g.pairs, o + 1);
  if (!plan || plan.identity) return true;
  // Pass 3: string-block references in the cells, where the plan moved items.
  const outStart = new Uint32Array(records.count);
  o = 2;
  rec = 0;
  for (const cat of categories) {
    o += GADB_CATEGORY_SIZE >> 2;
    const n = cat.primaryCount + cat.secondaryCount;
    for (let i = 0; i < n; i++, rec++) {
      o += (i < cat.primaryCount ? PH.size : SH.size) >> 2;
      outStart[rec] = o;
      o += cellCount[rec]!;
    }
  }
  const { items, newOffset } = plan;
  for (const s = gadbSpanWalk(g); s.next(); ) {
    const shift = outStart[s.record]! - s.recordCellStart;
    for (let k = s.begin; k < s.end; k++) {
      const it = items.of(cells[k]!);
      if (it >= 0) words[k + shift] = newOffset[it]!;
    }
  }
  return true;
}

/** `words[from, to)` = `cells[from + delta, to + delta)` (a loop for short runs: cheaper than a subarray and a set). */
function copyCells(words: Uint32Array, cells: Uint32Array, from: number, to: number, delta: number): void {
  if (to - from > 32) words.set(cells.subarray(from + delta, to + delta), from);
  else for (let k = from; k < to; k++) words[k] = cells[k + delta]!;
}

/**
 * A little-endian cursor over a buffer of exactly the file's size, placed `shift` bytes into its ArrayBuffer.
 * (`ByteWriter` grows and copies; at the real game's 57 MB the exact-size fill is measurably faster.) `finish`
 * checks the size was right.
 */
class FileCursor {
  readonly out: Uint8Array<ArrayBuffer>;
  readonly dv: DataView;
  pos = 0;
  constructor(size: number, shift: number) {
    this.out = new Uint8Array(new ArrayBuffer(size + shift), shift, size);
    this.dv = new DataView(this.out.buffer, shift, size);
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
