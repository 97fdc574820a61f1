/**
 * GADB v17 writer: rebuilds the file from the model, in the reader's field order. The string block is laid out
 * again (`layout.ts`) and every reference rewritten; sizes and counts the bytes determine are recomputed; unknown
 * fields, padding and the pair table come from the model. The argument is never modified.
 */
import { ConsistencyError } from '../../binary/errors.ts';
import { grow } from '../../binary/grow.ts';
import { latin1Constant, latin1Encode } from '../../binary/text.ts';
import { GADB_STORAGE_BY_TYPE_BYTE, GadbStorageCode } from './type-codes.ts';
import { GADB_RECENT_RUN_SHIFT, GADB_RECENT_RUN_SLOTS, GadbFirstUseCheck, gadbItemStartBits, gadbRunSlot, gadbSpanWalk, gadbCellTotal, gadbItemIndex, gadbRecordCellStarts, gadbTiledBlockSize, planGadbStringBlockWithItems, type GadbItemIndex, type GadbSpanWalk, type GadbStringOrder, type GadbStringPlan } from './layout.ts';
import { GADB_CATEGORY_SIZE, GADB_DESCRIPTOR_SIZE, GADB_FORMAT, GADB_HEADER_SIZE, GADB_PRIMARY_HEADER_SIZE, GADB_RECORD_HEADER, GADB_SECONDARY_HEADER_SIZE, GADB_WRAPPER_SIZE, HOST_LITTLE_ENDIAN, encodeGadbRecordTail, gadbRecordTailWord0, gadbRecordTailWord1, gadbUnderivedItemStarts } from './parse.ts';
import { gadbModelValidButItems, gadbWholeModelValid, validateGadbWithItems } from './validate.ts';
import type { Gadb, GadbCategory } from './types.ts';


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
  const order = options.stringOrder ?? 'first-use';
  // The common case (a file written by the first-use rule, or by scry, unchanged): when the items tile the block
  // in key order, the file is laid out as if the first-use rule kept every item at its key, and both the rule and
  // the record-level rules of `validateGadb` are confirmed while the record headers are written (the block cells
  // are read beside them, in the output). Anything else — a model the rule would change, or one the checks
  // refuse — is validated in full (its errors thrown), planned and laid out again.
  if (order === 'first-use') {
    // A parsed model whose items are not derived yet: they tile the block in key order by construction, and the
    // fast path reads where they start without deriving their columns.
    const underived = gadbUnderivedItemStarts(g.strings);
    if (underived && g.strings.data.byteLength > 0 && gadbModelValidButItems(g)) {
      const out = layOut(g, { plan: undefined, itemStarts: underived, underived: true }, g.strings.data.byteLength, littleEndianHost);
      if (out) return out;
    } else if (!underived && gadbWholeModelValid(g)) {
      const size = gadbTiledBlockSize(g.strings.itemKeys, g.strings.itemSizes);
      if (size >= 0) {
        const out = layOut(g, { plan: undefined, itemStarts: gadbItemStartBits(g.strings.itemKeys, g.strings.data.byteLength), underived: false }, size, littleEndianHost);
        if (out) return out;
      }
    }
  }
  const items = validatedItems(g);
  const plan = planGadbStringBlockWithItems(g, order, items);
  return layOut(g, { plan, items }, plan.size, littleEndianHost)!;
}

/**
 * Where `writeGadbTo` sends a file: its bytes in order, one chunk per call. A chunk is valid only during the call
 * (the writer reuses its buffers, and some chunks are views of the model's own arrays): a sink copies what it keeps
 * and never writes into a chunk.
 */
export interface GadbSink {
  write(chunk: Uint8Array): void;
}

/** Options of `writeGadbTo`. */
export interface WriteGadbToOptions extends WriteGadbOptions {
  /** Size of the writer's chunk buffer in bytes (default 1 MiB, at least 4 KiB; the largest record is buffered whole). */
  chunkSize?: number;
}

/**
 * Writes `g` to `sink` as `writeGadb` would, byte for byte, without holding the file: the string block goes out as
 * the model's own bytes (when its items keep their keys), the descriptors and the value section through one
 * reusable chunk buffer (`chunkSize`), so the memory beside the model is the string plan and that buffer. Returns
 * the number of bytes written. Throws a `ConsistencyError` when `validateGadb` finds errors, before anything is
 * written. (`writeGadbFile` in `src/node` is the file sink: a temporary file, locked, fsynced, renamed.)
 */
export function writeGadbTo(g: Gadb, sink: GadbSink, options: WriteGadbToOptions = {}): number {
  return writeGadbToOnHost(g, sink, options, HOST_LITTLE_ENDIAN);
}

/** `writeGadbTo` with the host's byte order given (internal, as `writeGadbOnHost`). */
export function writeGadbToOnHost(g: Gadb, sink: GadbSink, options: WriteGadbToOptions, littleEndianHost: boolean): number {
  const items = validatedItems(g);
  // The plan is made before the first byte goes out (its key-order walk confirms the common case without moving
  // anything), so the stream never has to start again; the in-memory writer checks during the fill instead.
  const plan = planGadbStringBlockWithItems(g, options.stringOrder ?? 'first-use', items);
  const geometry = fileGeometry(g, plan.size);
  const chunkBytes = Math.max(4096, Math.floor(options.chunkSize ?? 1 << 20)) & ~3;
  let written = 0;
  const emit = (chunk: Uint8Array): void => {
    if (chunk.byteLength === 0) return;
    sink.write(chunk);
    written += chunk.byteLength;
  };

  // Header, then the string block: the model's bytes as they are when every item keeps its key, else item by
  // item through the chunk buffer.
  const head = new FileCursor(geometry.valueSectionAt - plan.size - g.descriptors.count * GADB_DESCRIPTOR_SIZE, 0);
  writeHeader(head, g, plan.size, geometry.cellTotal);
  emit(head.finish());
  const { data, itemKeys, itemSizes } = g.strings;
  const chunk = new FileCursor(chunkBytes, 0);
  const flush = (): void => {
    emit(chunk.out.subarray(0, chunk.pos));
    chunk.pos = 0;
  };
  if (plan.identity) {
    emit(data.subarray(0, plan.size));
  } else {
    for (let j = 0; j < plan.order.length; j++) {
      const i = plan.order[j]!;
      const n = itemSizes[i]!;
      if (chunk.pos + n > chunkBytes) flush();
      if (n > chunkBytes) emit(data.subarray(itemKeys[i]!, itemKeys[i]! + n));
      else chunk.copy(data, itemKeys[i]!, n);
    }
    flush();
  }

  // Descriptors, as many rows a chunk as fit.
  const d = g.descriptors;
  const rowsPerChunk = Math.floor(chunkBytes / GADB_DESCRIPTOR_SIZE);
  for (let row = 0; row < d.count; row += rowsPerChunk) {
    writeDescriptors(chunk, d, row, Math.min(d.count, row + rowsPerChunk), littleEndianHost);
    flush();
  }

  // Value section, as u32 words in a scratch buffer that holds at least the largest record (header and cells),
  // flushed before the next piece would not fit; on a big-endian host each flush is stored little-endian first.
  let largest = 0;
  for (let r = 0, counts = g.records.cellCount; r < g.records.count; r++) if (counts[r]! > largest) largest = counts[r]!;
  const capacity = Math.max(chunkBytes >>> 2, (GADB_SECONDARY_HEADER_SIZE >> 2) + largest);
  const scratch = new Uint32Array(capacity);
  const scratchBytes = littleEndianHost ? new Uint8Array(scratch.buffer) : new Uint8Array(capacity * 4);
  const scratchView = new DataView(scratchBytes.buffer);
  let fill = 0; // words in the scratch buffer
  let o = 0; // value-section word of scratch[fill]
  const flushWords = (): void => {
    if (!littleEndianHost) for (let i = 0; i < fill; i++) scratchView.setUint32(i * 4, scratch[i]!, true);
    emit(scratchBytes.subarray(0, fill * 4));
    fill = 0;
  };
  const fillState = new ValueSectionFill(g, plan, items);
  scratch[fill++] = g.valueSectionUnk00;
  scratch[fill++] = g.categories.length;
  o = 2;
  const { cellCount } = g.records;
  const PH = GADB_RECORD_HEADER.primary.size >> 2;
  const SH = GADB_RECORD_HEADER.secondary.size >> 2;
  let rec = 0;
  for (let c = 0; c < g.categories.length; c++) {
    const cat = g.categories[c]!;
    if (fill + (GADB_CATEGORY_SIZE >> 2) > capacity) flushWords();
    fillState.category(cat, scratch, fill);
    fill += GADB_CATEGORY_SIZE >> 2;
    o += GADB_CATEGORY_SIZE >> 2;
    const primaryEnd = rec + cat.primaryCount;
    const end = primaryEnd + cat.secondaryCount;
    while (rec < end) {
      // As many of the category's next records as fit in the room left (at least one after a flush).
      let stop = rec;
      let need = 0;
      for (; stop < end; stop++) {
        const size = (stop < primaryEnd ? PH : SH) + cellCount[stop]!;
        if (fill + need + size > capacity) break;
        need += size;
      }
      if (stop === rec) {
        flushWords();
        continue;
      }
      const after = fillState.records(scratch, o - fill, o, rec, stop, primaryEnd);
      fill += after - o;
      o = after;
      rec = stop;
    }
  }
  // Trailer: the pair count, then the pairs.
  if (fill + 1 > capacity) flushWords();
  scratch[fill++] = g.pairs.length >>> 1;
  for (let i = 0; i < g.pairs.length; ) {
    if (fill === capacity) flushWords();
    const n = Math.min(capacity - fill, g.pairs.length - i);
    scratch.set(g.pairs.subarray(i, i + n), fill);
    fill += n;
    i += n;
  }
  flushWords();
  if (written !== geometry.total) throw new Error(`gadb writer: wrote ${written} bytes, planned ${geometry.total}`);
  return written;
}

/** The model's item index, after `validateGadb` found no error (else a `ConsistencyError`). */
function validatedItems(g: Gadb): GadbItemIndex {
  const items = gadbItemIndex(g);
  const errors = validateGadbWithItems(g, items).filter((i) => i.severity === 'error');
  if (errors.length > 0) throw new ConsistencyError(GADB_FORMAT, errors);
  return items;
}

/** Where the value section starts, its size in words, the file's size and the cell total, for a block of `blockSize` bytes. */
function fileGeometry(g: Gadb, blockSize: number): { cellTotal: number; valueSectionAt: number; valueWords: number; total: number } {
  const { descriptors: d, categories } = g;
  const cellTotal = gadbCellTotal(g);
  const wrapper = g.container.kind === 'wrapped' ? GADB_WRAPPER_SIZE : 0;
  let recordBytes = 0;
  for (const c of categories) recordBytes += c.primaryCount * GADB_PRIMARY_HEADER_SIZE + c.secondaryCount * GADB_SECONDARY_HEADER_SIZE;
  const valueSectionAt = wrapper + GADB_HEADER_SIZE + g.headerExtra.byteLength + 2 + g.headerString.byteLength + blockSize + d.count * GADB_DESCRIPTOR_SIZE;
  const valueWords = 2 + (categories.length * GADB_CATEGORY_SIZE + recordBytes) / 4 + cellTotal + 1 + g.pairs.length;
  return { cellTotal, valueSectionAt, valueWords, total: valueSectionAt + valueWords * 4 };
}

/** The wrapper (if any), the 11-word header, the header's extra bytes and the inline string with its u16 length. */
function writeHeader(w: FileCursor, g: Gadb, blockSize: number, cellTotal: number): void {
  const { header } = g;
  if (g.container.kind === 'wrapped') {
    w.bytes(latin1Encode(g.container.magic.padEnd(4, '\0').slice(0, 4), { format: GADB_FORMAT, path: '/container/magic' }));
    w.u32(g.container.version);
  }
  w.bytes(latin1Constant('GADB'));
  w.u32(header.version);
  w.u32(blockSize);
  w.u32(g.categories.length);
  w.u32(header.recordCount);
  w.u32(header.unk14);
  w.u32(cellTotal);
  w.u32(g.descriptors.count);
  w.u32(header.unk20);
  w.u32(header.unk24);
  w.u32(GADB_HEADER_SIZE + g.headerExtra.byteLength);
  w.bytes(g.headerExtra);
  w.u16(g.headerString.byteLength);
  w.bytes(g.headerString);
}

/**
 * How `layOut` lays out the string block: by a plan (with the model's item index), or every item at its key
 * provided the first-use rule agrees (the fast path, `fillFirstUse`, which needs only where items start).
 */
type BlockLayout = { plan: GadbStringPlan; items: GadbItemIndex } | { plan: undefined; itemStarts: Uint32Array; underived: boolean };

/**
 * The file of `g` with its string block laid out by `block` (`blockSize`: the block's size); undefined when the
 * fast path's checks fail.
 */
function layOut(g: Gadb, block: BlockLayout, blockSize: number, littleEndianHost: boolean): Uint8Array<ArrayBuffer> | undefined {
  const plan = block.plan;
  const { valueSectionAt, valueWords, total, cellTotal } = fileGeometry(g, blockSize);
  // The size is known exactly, so the file is filled in place (no growth, no final copy); it is placed in its
  // buffer so that the value section is 4-aligned and can be filled as u32 words.
  const w = new FileCursor(total, (4 - (valueSectionAt & 3)) & 3);
  writeHeader(w, g, blockSize, cellTotal);

  // String block: the model's bytes as they are when every item keeps its key, else item by item.
  const { data } = g.strings;
  if (!plan || plan.identity) {
    w.bytes(data.subarray(0, blockSize));
  } else {
    const { itemKeys, itemSizes } = g.strings;
    for (let j = 0; j < plan.order.length; j++) {
      const i = plan.order[j]!;
      w.copy(data, itemKeys[i]!, itemSizes[i]!);
    }
  }

  writeDescriptors(w, g.descriptors, 0, g.descriptors.count, littleEndianHost);

  // Value section, filled as u32 words (in place on a little-endian host, else in a scratch pool then stored
  // little-endian).
  if (w.pos !== valueSectionAt) throw new Error(`gadb writer: value section at ${w.pos}, planned ${valueSectionAt}`);
  const words = littleEndianHost ? new Uint32Array(w.out.buffer, w.out.byteOffset + valueSectionAt, valueWords) : new Uint32Array(valueWords);
  if (!fillValueSection(g, words, block)) return undefined;
  if (!littleEndianHost) for (let i = 0; i < valueWords; i++) w.dv.setUint32(valueSectionAt + i * 4, words[i]!, true);
  w.pos = total;
  return w.finish();
}

/**
 * Descriptor rows `[from, to)`: 15 bytes a row (u32 declared hash, u32 sorted hash, u8, u8, u8, u16, u16). On a
 * little-endian host, every fourth row starts 4-aligned in the buffer: from the first such row on, four rows (60
 * bytes) go out as 15 u32 words; the rows before and after it one by one.
 */
function writeDescriptors(w: FileCursor, d: Gadb['descriptors'], from: number, to: number, littleEndianHost: boolean): void {
  let row = from;
  if (littleEndianHost) {
    // Rows until one starts 4-aligned (row i starts at pos + 15 (i - from), and 15 = -1 mod 4).
    const misaligned = (w.out.byteOffset + w.pos) & 3;
    const lead = Math.min(to - row, misaligned);
    writeDescriptorRows(w, d, row, row + lead);
    row += lead;
    const groups = Math.floor((to - row) / 4);
    if (groups > 0) {
      const words = new Uint32Array(w.out.buffer, w.out.byteOffset + w.pos, groups * 15);
      writeDescriptorGroups(words, d, row, groups);
      row += groups * 4;
      w.pos += groups * 60;
    }
  }
  writeDescriptorRows(w, d, row, to);
}

/** Rows `[from, to)` one by one: five little-endian stores a row (unaligned: rows are 15 bytes). */
function writeDescriptorRows(w: FileCursor, d: Gadb['descriptors'], from: number, to: number): void {
  const dv = w.dv;
  const { declaredHash, sortedHash, schemaOrdinal, sortedToDeclared, typeCode, elementCount, link } = d;
  let p = w.pos;
  // Hashes, the three u8 and the low byte of the element count, its high byte, the link.
  for (let i = from; i < to; i++, p += GADB_DESCRIPTOR_SIZE) {
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
 * `groups` runs of four rows from row `from` as 15 u32 words each (a little-endian host): the rows' fields laid
 * byte after byte as `writeDescriptorRows` lays them, cut at every fourth byte.
 */
function writeDescriptorGroups(words: Uint32Array, d: Gadb['descriptors'], from: number, groups: number): void {
  const { declaredHash: dh, sortedHash: sh, schemaOrdinal: so, sortedToDeclared: sd, typeCode: tc, elementCount: ec, link: ln } = d;
  for (let g = 0, i = from, o = 0; g < groups; g++, i += 4, o += 15) {
    const a = i;
    const b = i + 1;
    const c = i + 2;
    const e = i + 3;
    const ecA = ec[a]!;
    const dhB = dh[b]!;
    const shB = sh[b]!;
    const dhC = dh[c]!;
    const shC = sh[c]!;
    const lnC = ln[c]!;
    const dhE = dh[e]!;
    const shE = sh[e]!;
    words[o] = dh[a]!; // bytes 0-3: row a's declared hash
    words[o + 1] = sh[a]!;
    words[o + 2] = so[a]! | (sd[a]! << 8) | (tc[a]! << 16) | ((ecA & 0xff) << 24);
    words[o + 3] = (ecA >>> 8) | (ln[a]! << 8) | ((dhB & 0xff) << 24); // 12-15: row b starts at 15
    words[o + 4] = (dhB >>> 8) | ((shB & 0xff) << 24);
    words[o + 5] = (shB >>> 8) | (so[b]! << 24);
    words[o + 6] = sd[b]! | (tc[b]! << 8) | (ec[b]! << 16);
    words[o + 7] = ln[b]! | ((dhC & 0xffff) << 16); // 28-31: row c starts at 30
    words[o + 8] = (dhC >>> 16) | ((shC & 0xffff) << 16);
    words[o + 9] = (shC >>> 16) | (so[c]! << 16) | (sd[c]! << 24);
    words[o + 10] = tc[c]! | (ec[c]! << 8) | ((lnC & 0xff) << 24);
    words[o + 11] = (lnC >>> 8) | ((dhE & 0xffffff) << 8); // 44-47: row e starts at 45
    words[o + 12] = (dhE >>> 24) | (shE << 8);
    words[o + 13] = (shE >>> 24) | (so[e]! << 8) | (sd[e]! << 16) | (tc[e]! << 24);
    words[o + 14] = ec[e]! | (ln[e]! << 16);
  }
}

/**
 * The value section as u32 words: leading word, category count, each category's entry followed by its records
 * (header, then cells), the trailer; without a plan (the fast path, `fillFirstUse`), false when a check fails.
 */
function fillValueSection(g: Gadb, words: Uint32Array, block: BlockLayout): boolean {
  const { categories } = g;
  words[0] = g.valueSectionUnk00;
  words[1] = categories.length;
  let o = 2;
  if (!block.plan) {
    o = fillFirstUse(g, words, block.itemStarts, block.underived);
    if (o < 0) return false;
  } else {
    const fill = new ValueSectionFill(g, block.plan, block.items);
    let rec = 0;
    for (const cat of categories) {
      fill.category(cat, words, o);
      o += GADB_CATEGORY_SIZE >> 2;
      const end = rec + cat.primaryCount + cat.secondaryCount;
      o = fill.records(words, 0, o, rec, end, rec + cat.primaryCount);
      rec = end;
    }
  }
  // Trailer.
  words[o] = g.pairs.length >>> 1;
  words.set(g.pairs, o + 1);
  return true;
}

/** Words of a category the fast path fills at a time (cells, then the headers over them while they are in cache). */
const FILL_SLICE_WORDS = 1 << 14;

/**
 * The value section's categories and records (from word 2) for a model whose items tile the block in key order
 * and whose whole-model rules hold (`gadbWholeModelValid`), checking as it goes what `validateGadb` checks per
 * record (each record's cells inside the pool, in order; its run inside the descriptor table, its first descriptor
 * 24-bit, its permutation column inside the run, the last two once per run in `FirstUseRuns`; every name an item
 * key) and the first-use rule over the names and block cells in traversal order (`GadbFirstUseCheck`). Returns the
 * word after the last record, or -1 as soon as any check fails (the caller then validates in full and plans).
 */
function fillFirstUse(g: Gadb, words: Uint32Array, itemStarts: Uint32Array, underived: boolean): number {
  const fill = new FirstUseFill(g, words, itemStarts, underived);
  const { categories } = g;
  for (let c = 0; c < categories.length; c++) {
    const cat = categories[c]!;
    if (!fill.category(cat)) return -1;
    const primaryEnd = fill.rec + cat.primaryCount;
    const end = primaryEnd + cat.secondaryCount;
    // Slices of the category's records: their cells in runs, then their headers over them while in cache.
    while (fill.rec < end) {
      const stop = fill.copySlice(end, primaryEnd);
      if (stop < 0 || !fill.headers(stop, primaryEnd)) return -1;
    }
  }
  return fill.done() ? fill.o : -1;
}

/**
 * The state of `fillFirstUse`, its work in three methods that each keep one loop (the categories' names, a slice's
 * cells, a slice's headers and checks): V8 compiles each on its own, where one function holding every loop was
 * compiled in one piece of ~4.5 MB of compiler memory while the output already existed.
 */
class FirstUseFill {
  /** The next value-section word and record. */
  o = 2;
  rec = 0;
  /** The previous record's cells end in the pool. */
  private cellsEnd = 0;
  private readonly g: Gadb;
  private readonly words: Uint32Array;
  private readonly starts: Uint32Array;
  private readonly bits: Uint32Array;
  private readonly firstUse: GadbFirstUseCheck;
  private readonly runs: FirstUseRuns;
  /**
   * The last run met in each slot (`gadbRunSlot`) with its slot list: records of a category alternate between a
   * few runs, and these few KB stay in cache where the run table's entries, far apart, would not. Four words a
   * slot, in one cache line: the key `(first << 8 | count) >>> 0` (0: empty, as a run of no field is never looked
   * up), then the run's `from`, `to` and `extent` (`FirstUseRuns`).
   */
  private readonly recent = new Uint32Array(4 * GADB_RECENT_RUN_SLOTS);

  /** `underived`: the items are not derived yet, and `itemStarts` is where they start (each runs to the next). */
  constructor(g: Gadb, words: Uint32Array, itemStarts: Uint32Array, underived: boolean) {
    this.g = g;
    this.words = words;
    this.starts = gadbRecordCellStarts(g);
    this.bits = itemStarts;
    this.firstUse = new GadbFirstUseCheck(g, underived ? itemStarts : undefined);
    this.runs = new FirstUseRuns(g.descriptors);
  }

  /** Category `cat`'s entry at word `o`, its three names checked in traversal order. */
  category(cat: GadbCategory): boolean {
    const { words, bits, firstUse } = this;
    const o = this.o;
    for (let j = 0; j < 3; j++) {
      const key = j === 0 ? cat.nameKey : j === 1 ? cat.typeNameKey : cat.unk08Key;
      if (!isItemStart(bits, key) || !firstUse.key(key)) return false;
    }
    words[o] = cat.nameKey;
    words[o + 1] = cat.typeNameKey;
    words[o + 2] = cat.unk08Key;
    words[o + 3] = cat.primaryCount;
    words[o + 4] = cat.secondaryCount;
    words[o + 5] = cat.sortKey;
    this.o = o + (GADB_CATEGORY_SIZE >> 2);
    return true;
  }

  /**
   * The cells of the next records of the category (up to `end`; its primaries end at `primaryEnd`), about
   * `FILL_SLICE_WORDS` words of them and at least one record, copied from the pool in runs of records that keep
   * their distance to their place in the pool; returns the record after them, or -1 when a record's cells leave
   * the pool or overlap the previous record's.
   */
  copySlice(end: number, primaryEnd: number): number {
    const { words, starts } = this;
    const { cells } = this.g;
    const cellCount = this.g.records.cellCount;
    const pool = cells.length;
    const PH = GADB_RECORD_HEADER.primary.size >> 2;
    const SH = GADB_RECORD_HEADER.secondary.size >> 2;
    const o = this.o;
    const rec = this.rec;
    let cellsEnd = this.cellsEnd;
    let p = o;
    let runFrom = 0;
    let runDelta = 0;
    let runEnd = 0;
    let stop = rec;
    for (; stop < end && (stop === rec || p - o < FILL_SLICE_WORDS); stop++) {
      const s = starts[stop]!;
      const count = cellCount[stop]!;
      if (s < cellsEnd || s + count > pool) return -1;
      cellsEnd = s + count;
      p += stop < primaryEnd ? PH : SH;
      const delta = s - p;
      if (delta !== runDelta || stop === rec) {
        if (runEnd > runFrom) copyCells(words, cells, runFrom, runEnd, runDelta);
        runDelta = delta;
        runFrom = p;
      }
      p += count;
      runEnd = p;
    }
    if (runEnd > runFrom) copyCells(words, cells, runFrom, runEnd, runDelta);
    this.cellsEnd = cellsEnd;
    return stop;
  }

  /**
   * The headers of records `[rec, stop)` over their copied cells (names checked as items in traversal order), and
   * each record's run and block cells checked; false as soon as a check fails.
   */
  headers(stop: number, primaryEnd: number): boolean {
    const { words, bits, firstUse, recent } = this;
    const { nameKey, cellCount, descriptorCount, firstDescriptor, unk0A, flags } = this.g.records;
    const descriptorTotal = this.g.descriptors.count;
    const PH = GADB_RECORD_HEADER.primary;
    const SH = GADB_RECORD_HEADER.secondary;
    let slots = this.runs.slots;
    let o = this.o;
    let rec = this.rec;
    for (; rec < stop; rec++) {
      // The record's columns first, read once (the stores into the output could alias them for the compiler).
      const own = cellCount[rec]!;
      const fields = descriptorCount[rec]!;
      const first = firstDescriptor[rec]!;
      const tail0 = gadbRecordTailWord0(own, fields, first);
      const tail1 = gadbRecordTailWord1(first, unk0A[rec]!, flags[rec]!);
      if (rec >= primaryEnd) {
        const key = nameKey[rec]!;
        if (!isItemStart(bits, key) || !firstUse.key(key)) return false;
        words[o + (SH.nameAt >> 2)] = key;
        words[o + (SH.tailAt >> 2)] = tail0;
        words[o + (SH.tailAt >> 2) + 1] = tail1;
        o += SH.size >> 2;
      } else {
        words[o + (PH.tailAt >> 2)] = tail0;
        words[o + (PH.tailAt >> 2) + 1] = tail1;
        o += PH.size >> 2;
      }
      if (first > 0xffffff || first + fields > descriptorTotal) return false;
      if (fields > 0) {
        const key = ((first << 8) | fields) >>> 0;
        const slot = gadbRunSlot(first, fields, GADB_RECENT_RUN_SHIFT);
        const at = slot << 2;
        if (recent[at] !== key) {
          if (!this.meet(first, fields, slot)) return false;
          slots = this.runs.slots;
        }
        const from = recent[at + 1]!;
        const to = recent[at + 2]!;
        if (from < to && !firstUse.slotCells(slots, from, to, own < recent[at + 3]!, own, words, o)) return false;
      }
      o += own;
    }
    this.o = o;
    this.rec = rec;
    return true;
  }

  /** Puts run `[first, first + n)` in recent slot `slot`; false when the run fails its checks. */
  private meet(first: number, n: number, slot: number): boolean {
    const runs = this.runs;
    const u = runs.id(first, n);
    if (u < 0) return false;
    const at = slot << 2;
    this.recent[at] = ((first << 8) | n) >>> 0;
    this.recent[at + 1] = runs.from[u]!;
    this.recent[at + 2] = runs.from[u + 1]!;
    this.recent[at + 3] = runs.extent[u]!;
    return true;
  }

  /** True when the walk reached every item. */
  done(): boolean {
    return this.firstUse.done();
  }
}

/**
 * The runs the writer's fast path meets, each checked once (inside the descriptor table, its permutation column
 * inside the run) and given its block cells as a list of cell slots in ascending field-hash order (the first-use
 * order: declared field `sortedToDeclared[first + j]` for j = 0, 1, …; an array field's elements in order), so a
 * record's check is one load a cell with no span arithmetic. `extent` is one past the run's last block slot: a
 * record owning at least that many cells needs no clipping. A run whose list would pass `MAX_RUN_SLOTS` is refused
 * (the writer then takes the general path): real runs hold a few dozen.
 */
class FirstUseRuns {
  /** Slots of run u: `slots[from[u], from[u + 1])`. */
  slots = new Uint16Array(4096);
  from = new Int32Array(1025);
  extent = new Int32Array(1024);
  private count = 0;
  /** Run id + 1 by (first, count), open-addressed (linear probing, at most half full). */
  private table = new Int32Array(2048);
  private shift = 21;
  private keys = new Uint32Array(1024);
  private readonly d: Gadb['descriptors'];

  constructor(d: Gadb['descriptors']) {
    this.d = d;
  }

  /** The id of run `[first, first + n)` (`first` fits 24 bits), or -1 when it leaves the table or its permutation column leaves the run. */
  id(first: number, n: number): number {
    const key = ((first << 8) | n) >>> 0;
    const table = this.table;
    const mask = table.length - 1;
    let h = gadbRunSlot(first, n, this.shift);
    for (; table[h] !== 0; h = (h + 1) & mask) if (this.keys[table[h]! - 1] === key) return table[h]! - 1;
    return this.add(first, n, key, h);
  }

  private add(first: number, n: number, key: number, h: number): number {
    const d = this.d;
    if (first + n > d.count) return -1;
    const { sortedToDeclared, typeCode, elementCount, link } = d;
    const u = this.count;
    const start = this.from[u]!;
    let slots = this.slots;
    let at = start;
    let extent = 0;
    // (A run refused part way leaves slots past `from[u]` that the next run overwrites.)
    for (let j = 0; j < n; j++) {
      const declared = sortedToDeclared[first + j]!;
      if (declared >= n) return -1;
      const k = first + declared;
      const count = elementCount[k]!;
      if (count === 0 || GADB_STORAGE_BY_TYPE_BYTE[typeCode[k]!] !== GadbStorageCode.Block) continue;
      // A record owns at most 0xffff cells, so a slot from 0xffff on is never one of its cells.
      const base = link[k]!;
      const past = Math.min(base + count, 0xffff);
      const need = at + past - base;
      if (need - start > MAX_RUN_SLOTS) return -1;
      if (need > slots.length) slots = this.slots = grow(slots, need);
      for (let slot = base; slot < past; slot++) slots[at++] = slot;
      if (past > extent) extent = past;
    }
    if (u + 2 > this.from.length) {
      this.from = grow(this.from, u + 2);
      this.extent = grow(this.extent, u + 1);
      this.keys = grow(this.keys, u + 1);
    }
    this.count = u + 1;
    this.from[u + 1] = at;
    this.extent[u] = extent;
    this.keys[u] = key;
    if (2 * this.count > this.table.length) this.rehash();
    else this.table[h] = u + 1;
    return u;
  }

  /** Every run again in a table twice the size. */
  private rehash(): void {
    const table = new Int32Array(this.table.length * 2);
    const mask = table.length - 1;
    this.shift--;
    for (let u = 0; u < this.count; u++) {
      const key = this.keys[u]!;
      let h = gadbRunSlot(key >>> 8, key & 0xff, this.shift);
      while (table[h] !== 0) h = (h + 1) & mask;
      table[h] = u + 1;
    }
    this.table = table;
  }
}

/** Most block-cell slots one run may list on the writer's fast path (beyond it, the general path). */
const MAX_RUN_SLOTS = 4096;

/** Whether an item of the block starts at `key` (`bits`: `gadbItemStartBits`). */
function isItemStart(bits: Uint32Array, key: number): boolean {
  const w = key >>> 2;
  return (key & 3) === 0 && w >>> 5 < bits.length && ((bits[w >>> 5]! >>> (w & 31)) & 1) === 1;
}

/**
 * Writes category entries and records into value-section words by a string plan, for the in-memory writer (a
 * category at a time) and the stream (a chunk of records at a time). Cells are copied from the model's pool in
 * runs: consecutive records whose cells lie in the pool exactly as they will lie in the file (a parsed model,
 * records unchanged) are one bulk copy, words between them included; the record headers are then written over
 * those words from the model's columns, and string-block references rewritten where the plan moves items.
 */
class ValueSectionFill {
  private readonly g: Gadb;
  private readonly starts: Uint32Array;
  private readonly remap: ((key: number) => number) | undefined;
  private readonly cellWalk: GadbSpanWalk | undefined;
  private readonly newOffset: Int32Array | undefined;
  private readonly items: GadbItemIndex;

  constructor(g: Gadb, plan: GadbStringPlan, items: GadbItemIndex) {
    this.g = g;
    this.items = items;
    this.starts = gadbRecordCellStarts(g);
    if (!plan.identity) {
      const newOffset = plan.newOffset;
      this.newOffset = newOffset;
      this.remap = (key) => {
        const i = items.of(key);
        return i >= 0 ? newOffset[i]! : key;
      };
      this.cellWalk = gadbSpanWalk(g);
    }
  }

  /** Category `cat`'s entry at `words[at]`. */
  category(cat: GadbCategory, words: Uint32Array, at: number): void {
    const remap = this.remap;
    words[at] = remap ? remap(cat.nameKey) : cat.nameKey;
    words[at + 1] = remap ? remap(cat.typeNameKey) : cat.typeNameKey;
    words[at + 2] = remap ? remap(cat.unk08Key) : cat.unk08Key;
    words[at + 3] = cat.primaryCount;
    words[at + 4] = cat.secondaryCount;
    words[at + 5] = cat.sortKey;
  }

  /**
   * Records `[rec, end)` of one category (its primaries end at `primaryEnd`), the first header at value-section
   * word `o`, written at `words[o - shift]`; returns the value-section word after them.
   */
  records(words: Uint32Array, shift: number, o: number, rec: number, end: number, primaryEnd: number): number {
    const { records, cells } = this.g;
    const starts = this.starts;
    const { nameKey, cellCount } = records;
    const PH = GADB_RECORD_HEADER.primary;
    const SH = GADB_RECORD_HEADER.secondary;
    // First the cells, in runs of records that keep their distance to their place in the pool.
    let p = o;
    let runFrom = 0; // value-section word where the current run starts
    let runDelta = 0; // pool index - value-section word within the run
    let runEnd = 0; // value-section word just past the run
    for (let r = rec; r < end; r++) {
      p += (r < primaryEnd ? PH.size : SH.size) >> 2;
      const delta = starts[r]! - p;
      if (delta !== runDelta || r === rec) {
        if (runEnd > runFrom) copyCells(words, cells, runFrom - shift, runEnd - shift, runDelta + shift);
        runDelta = delta;
        runFrom = p;
      }
      p += cellCount[r]!;
      runEnd = p;
    }
    if (runEnd > runFrom) copyCells(words, cells, runFrom - shift, runEnd - shift, runDelta + shift);
    // Then the headers over them, and the references the plan moves in the cells just copied.
    const { remap, cellWalk, newOffset, items } = this;
    let at = o - shift;
    for (let r = rec; r < end; r++) {
      const h = r < primaryEnd ? PH : SH;
      if (h.nameAt >= 0) words[at + (h.nameAt >> 2)] = remap ? remap(nameKey[r]!) : nameKey[r]!;
      encodeGadbRecordTail(records, r, words, at + (h.tailAt >> 2));
      const cellsAt = at + (h.size >> 2);
      if (cellWalk) {
        // String-block references in the cells, where the plan moved items (read from the pool: two fields may
        // share a cell, which is rewritten once).
        const src = starts[r]! - cellsAt;
        cellWalk.enter(r, cellsAt);
        while (cellWalk.nextInRecord()) {
          for (let k = cellWalk.begin; k < cellWalk.end; k++) {
            const it = items.of(cells[k + src]!);
            if (it >= 0) words[k] = newOffset![it]!;
          }
        }
      }
      at = cellsAt + cellCount[r]!;
    }
    return at + shift;
  }
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
