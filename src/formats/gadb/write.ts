/**
 * GADB v17 writer: rebuilds the file from the model, in the reader's field order. The string block is laid out
 * again (`layout.ts`) and every reference rewritten; sizes and counts the bytes determine are recomputed; unknown
 * fields, padding and the pair table come from the model. The argument is never modified.
 */
import { ConsistencyError } from '../../binary/errors.ts';
import { grow } from '../../binary/grow.ts';
import { latin1Constant, latin1Encode } from '../../binary/text.ts';
import { GADB_RECENT_RUN_SHIFT, GADB_RECENT_RUN_SLOTS, GadbFirstUseCheck, gadbRunSlot, gadbSpanWalk, gadbCellTotal, gadbItemIndex, gadbRecordCellStarts, gadbTiledBlockSize, planGadbStringBlockWithItems, type GadbItemIndex, type GadbSpanWalk, type GadbStringOrder, type GadbStringPlan } from './layout.ts';
import { GADB_CATEGORY_SIZE, GADB_DESCRIPTOR_SIZE, GADB_FORMAT, GADB_HEADER_SIZE, GADB_PRIMARY_HEADER_SIZE, GADB_RECORD_HEADER, GADB_SECONDARY_HEADER_SIZE, GADB_WRAPPER_SIZE, HOST_LITTLE_ENDIAN, encodeGadbRecordTail } from './parse.ts';
import { gadbWholeModelValid, validateGadbWithItems } from './validate.ts';
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
  if (order === 'first-use' && gadbWholeModelValid(g)) {
    const size = gadbTiledBlockSize(g.strings.itemKeys, g.strings.itemSizes);
    if (size >= 0) {
      const items = gadbItemIndex(g);
      const out = layOut(g, items, undefined, size, littleEndianHost);
      if (out) return out;
    }
  }
  const items = validatedItems(g);
  const plan = planGadbStringBlockWithItems(g, order, items);
  return layOut(g, items, plan, plan.size, littleEndianHost)!;
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
 * The file of `g` with its string block planned by `plan`, or, without a plan, with every item at its key (`size`:
 * the block's size) provided the first-use rule agrees, else undefined.
 */
function layOut(g: Gadb, items: GadbItemIndex, plan: GadbStringPlan | undefined, blockSize: number, littleEndianHost: boolean): Uint8Array<ArrayBuffer> | undefined {
  const { valueSectionAt, valueWords, total, cellTotal } = fileGeometry(g, blockSize);
  // The size is known exactly, so the file is filled in place (no growth, no final copy); it is placed in its
  // buffer so that the value section is 4-aligned and can be filled as u32 words.
  const w = new FileCursor(total, (4 - (valueSectionAt & 3)) & 3);
  writeHeader(w, g, blockSize, cellTotal);

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

  writeDescriptors(w, g.descriptors, 0, g.descriptors.count, littleEndianHost);

  // Value section, filled as u32 words (in place on a little-endian host, else in a scratch pool then stored
  // little-endian).
  if (w.pos !== valueSectionAt) throw new Error(`gadb writer: value section at ${w.pos}, planned ${valueSectionAt}`);
  const words = littleEndianHost ? new Uint32Array(w.out.buffer, w.out.byteOffset + valueSectionAt, valueWords) : new Uint32Array(valueWords);
  if (!fillValueSection(g, words, plan, items)) return undefined;
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
function fillValueSection(g: Gadb, words: Uint32Array, plan: GadbStringPlan | undefined, items: GadbItemIndex): boolean {
  const { categories } = g;
  words[0] = g.valueSectionUnk00;
  words[1] = categories.length;
  let o = 2;
  if (!plan) {
    o = fillFirstUse(g, words, items);
    if (o < 0) return false;
  } else {
    const fill = new ValueSectionFill(g, plan, items);
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
 * 24-bit, its permutation column inside the run; every name an item key) and the first-use rule over the names and
 * block cells in traversal order (`GadbFirstUseCheck`). Returns the
 * word after the last record, or -1 as soon as any check fails (the caller then validates in full and plans).
 */
function fillFirstUse(g: Gadb, words: Uint32Array, items: GadbItemIndex): number {
  const { categories, records, cells, descriptors: d } = g;
  const { nameKey, cellCount, descriptorCount, firstDescriptor } = records;
  const starts = gadbRecordCellStarts(g);
  const pool = cells.length;
  const bits = items.bits;
  const descriptorTotal = d.count;
  const sortedToDeclared = d.sortedToDeclared;
  const firstUse = new GadbFirstUseCheck(g);
  const runs = firstUse.runs;
  // Runs whose permutation column passed (the rule depends on the run alone), by run id; and the last such run
  // met in each slot (`gadbRunSlot`) with its block spans (records of a category alternate between a few).
  let checked = new Uint8Array(1024);
  const recentFirst = new Int32Array(GADB_RECENT_RUN_SLOTS).fill(-1);
  const recentCount = new Uint8Array(GADB_RECENT_RUN_SLOTS);
  const recentFrom = new Int32Array(GADB_RECENT_RUN_SLOTS);
  const recentTo = new Int32Array(GADB_RECENT_RUN_SLOTS);
  const PH = GADB_RECORD_HEADER.primary;
  const SH = GADB_RECORD_HEADER.secondary;
  let cellsEnd = 0; // the previous record's cells end in the pool
  let o = 2;
  let rec = 0;
  for (let c = 0; c < categories.length; c++) {
    const cat = categories[c]!;
    // The entry's three names, in traversal order.
    for (let j = 0; j < 3; j++) {
      const key = j === 0 ? cat.nameKey : j === 1 ? cat.typeNameKey : cat.unk08Key;
      if (!isItemStart(bits, key) || !firstUse.key(key)) return -1;
    }
    words[o] = cat.nameKey;
    words[o + 1] = cat.typeNameKey;
    words[o + 2] = cat.unk08Key;
    words[o + 3] = cat.primaryCount;
    words[o + 4] = cat.secondaryCount;
    words[o + 5] = cat.sortKey;
    o += GADB_CATEGORY_SIZE >> 2;
    const primaryEnd = rec + cat.primaryCount;
    const end = primaryEnd + cat.secondaryCount;
    while (rec < end) {
      // A slice of the category's records: their cells in runs, then their headers over them.
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
        p += (stop < primaryEnd ? PH.size : SH.size) >> 2;
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
      for (; rec < stop; rec++) {
        const h = rec < primaryEnd ? PH : SH;
        if (h.nameAt >= 0) {
          const key = nameKey[rec]!;
          if (!isItemStart(bits, key) || !firstUse.key(key)) return -1;
          words[o + (h.nameAt >> 2)] = key;
        }
        encodeGadbRecordTail(records, rec, words, o + (h.tailAt >> 2));
        o += h.size >> 2;
        const first = firstDescriptor[rec]!;
        const fields = descriptorCount[rec]!;
        const own = cellCount[rec]!;
        if (first > 0xffffff || first + fields > descriptorTotal) return -1;
        if (fields > 0) {
          const c = gadbRunSlot(first, fields, GADB_RECENT_RUN_SHIFT);
          if (recentFirst[c] !== first || recentCount[c] !== fields) {
            const u = runs.run(first, fields);
            if (u >= checked.length) checked = grow(checked, u + 1);
            if (checked[u] === 0) {
              for (let j = 0; j < fields; j++) if (sortedToDeclared[first + j]! >= fields) return -1;
              checked[u] = 1;
            }
            recentFirst[c] = first;
            recentCount[c] = fields;
            recentFrom[c] = runs.start[u]! * 3;
            recentTo[c] = runs.start[u + 1]! * 3;
          }
          const from = recentFrom[c]!;
          const to = recentTo[c]!;
          if (from < to && !firstUse.spanCells(from, to, own, words, o)) return -1;
        }
        o += own;
      }
    }
  }
  return firstUse.done() ? o : -1;
}

/** Whether an item of the block (bit index `items.bits`) starts at `key`. */
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
