/**
 * GADB v17 reader: container sniffing, header, string block, descriptors, value section, trailer.
 *
 * Opening costs one walk over the value section (counting records and checking every size against the bytes
 * that remain) and one fill of the typed-array columns; values are decoded on access (`decode.ts`). Every count
 * read from the file is guarded before anything is allocated from it, and every failure is a `FormatError`
 * naming the byte offset and the field path.
 *
 * The string block's items are derived from the references to it (category names, record names and every cell of
 * a block type, see `type-codes.ts`): each distinct referenced offset starts an item that extends to the next one
 * (the spec's exact tiling [V]); so an item's extent never depends on knowing its type's size (type 9). A viewing
 * model derives them on first use of `strings.itemKeys` / `itemSizes` (a second pass over the records' block
 * cells, about half of what opening would cost with it: a reader that only follows names and numbers never pays
 * it); the owned model derives them at once. The derivation can fail on nothing: the walk checked every name and
 * every run, and a block-type cell that is not a valid offset is simply not a reference.
 */
import { ByteReader } from '../../binary/reader.ts';
import { latin1Constant } from '../../binary/text.ts';
import { FormatError, UnsupportedError } from '../../binary/errors.ts';
import { gadbCompactCells } from './layout.ts';
import { GADB_STORAGE_BY_TYPE_BYTE, GadbStorageCode } from './type-codes.ts';
import type { Gadb, GadbCategory, GadbContainer, GadbDescriptors, GadbHeader, GadbLayout, GadbRecords, GadbStringBlock } from './types.ts';

/** Format id used in errors and findings. */
export const GADB_FORMAT = 'gadb';
/** Size of the fixed header (11 u32). */
export const GADB_HEADER_SIZE = 0x2c;
/** The only version scry (and the engine's loader) reads. */
export const GADB_VERSION = 17;
/** Size of a file descriptor row. */
export const GADB_DESCRIPTOR_SIZE = 15;
/** Size of a category entry. */
export const GADB_CATEGORY_SIZE = 24;
/**
 * Record header layouts: where the name and the 8-byte tail (u16 cell count, u8 descriptor count, u24 first
 * descriptor, u8 +0x0A, u8 flags) lie. Secondary [V]; primary = the tail alone (H-PRIM-HDR). The reader, the
 * writer and the verifier's offsets all take the layout from here, so H-PRIM-HDR lives in this one table.
 */
export const GADB_RECORD_HEADER = {
  primary: { size: 8, nameAt: -1, tailAt: 0 },
  secondary: { size: 12, nameAt: 0, tailAt: 4 },
} as const;
/**
 * Reads a record tail (its two u32 words, little-endian values) into the record columns at `rec`: u16 cell
 * count, u8 descriptor count, u24 first descriptor (H-REC-FIRST-U24), u8 +0x0A, u8 flags. Mirror:
 * `encodeGadbRecordTail`.
 */
export function decodeGadbRecordTail(records: GadbRecords, rec: number, t0: number, t1: number): void {
  records.cellCount[rec] = t0 & 0xffff;
  records.descriptorCount[rec] = (t0 >>> 16) & 0xff;
  records.firstDescriptor[rec] = (t0 >>> 24) | ((t1 & 0xffff) << 8);
  records.unk0A[rec] = (t1 >>> 16) & 0xff;
  records.flags[rec] = t1 >>> 24;
}

/** Writes record `rec`'s tail as two u32 words into `out[at]`, `out[at + 1]`: the mirror of `decodeGadbRecordTail`. */
export function encodeGadbRecordTail(records: GadbRecords, rec: number, out: Uint32Array, at: number): void {
  const first = records.firstDescriptor[rec]!;
  out[at] = gadbRecordTailWord0(records.cellCount[rec]!, records.descriptorCount[rec]!, first);
  out[at + 1] = gadbRecordTailWord1(first, records.unk0A[rec]!, records.flags[rec]!);
}

/** A record tail's first u32: the u16 cell count, the u8 descriptor count, the low byte of the u24 first descriptor. */
export function gadbRecordTailWord0(cellCount: number, descriptorCount: number, first: number): number {
  return (cellCount | (descriptorCount << 16) | ((first & 0xff) << 24)) >>> 0;
}

/** A record tail's second u32: the upper 16 bits of the u24 first descriptor, the u8 at +0x0A, the u8 flags. */
export function gadbRecordTailWord1(first: number, unk0A: number, flags: number): number {
  return (((first >>> 8) & 0xffff) | (unk0A << 16) | (flags << 24)) >>> 0;
}

/** Size of a secondary record header. */
export const GADB_SECONDARY_HEADER_SIZE = GADB_RECORD_HEADER.secondary.size;
/** Size of a primary record header (H-PRIM-HDR). */
export const GADB_PRIMARY_HEADER_SIZE = GADB_RECORD_HEADER.primary.size;
/** Size of the wrapper header of `.fxp` (`LTFX`, u32 version). */
export const GADB_WRAPPER_SIZE = 8;

const MAGIC_GADB = latin1Constant('GADB');
/** True on little-endian hosts (all current ones): a `Uint32Array` over file bytes then reads the file's u32s. */
export const HOST_LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
function hasMagicAt(bytes: Uint8Array, at: number): boolean {
  if (bytes.byteLength < at + 4) return false;
  for (let i = 0; i < 4; i++) if (bytes[at + i] !== MAGIC_GADB[i]) return false;
  return true;
}

/** Where the database starts: 0 for a bare GADB, 8 behind a wrapper; -1 when neither. */
function gadbStart(bytes: Uint8Array): number {
  if (hasMagicAt(bytes, 0)) return 0;
  if (hasMagicAt(bytes, GADB_WRAPPER_SIZE)) return GADB_WRAPPER_SIZE;
  return -1;
}

/**
 * True when `bytes` look like a GADB v17 database: bare (`GADB`, version 17) or behind an 8-byte wrapper such
 * as `.fxp`'s `LTFX`. Checks only the magic and the version; `parseGadb` checks the rest.
 */
export function isGadb(bytes: Uint8Array): boolean {
  const at = gadbStart(bytes);
  if (at < 0 || bytes.byteLength < at + 8) return false;
  const v = bytes[at + 4]! | (bytes[at + 5]! << 8) | (bytes[at + 6]! << 16) | (bytes[at + 7]! << 24);
  return v === GADB_VERSION;
}

/** Options of `parseGadb`. */
export interface ParseGadbOptions {
  /** Format id used in error messages (default `gadb`). */
  format?: string;
  /**
   * Copy everything the model holds out of the input, records' cells back to back (no `records.cellStart`), as
   * the model was before views (default false). Without it the model **views** the input where it can: the
   * string block always, and the value section (`cells`, with `records.cellStart`) when it lies 4-aligned in
   * memory on a little-endian host (`readGadbFile` in `src/node` reads files that way), else one bulk copy of it.
   * A viewing model reads the input's bytes on every access: it must not outlive changes to the input, and
   * writing into its arrays writes into the input (the editor copies before it changes anything). Its string
   * block's `itemKeys` / `itemSizes` are derived on their first use, from the arrays parsed.
   */
  owned?: boolean;
}

/** Parses a GADB v17 database (bare, `.fxp` or `.bvr`) into a model (a view of `bytes` unless `owned`). */
export function parseGadb(bytes: Uint8Array, options: ParseGadbOptions = {}): Gadb {
  return parseGadbOnHost(bytes, options, HOST_LITTLE_ENDIAN, false).gadb;
}

/** `parseGadb`, plus where each part lay in the file (for findings with offsets and for tools). */
export function parseGadbWithLayout(bytes: Uint8Array, options: ParseGadbOptions = {}): { gadb: Gadb; layout: GadbLayout } {
  return parseGadbOnHost(bytes, options, HOST_LITTLE_ENDIAN);
}

/**
 * File offset of the value section of the GADB database in `head` (the file's first bytes: wrapper, header, the
 * u16 after it), or -1 when `head` is too short or not a GADB header. A reader that places the file so that this
 * offset is 4-aligned in memory lets `parseGadb` view the cells instead of copying them.
 */
export function gadbValueSectionOffset(head: Uint8Array): number {
  const at = gadbStart(head);
  if (at < 0 || head.byteLength < at + GADB_HEADER_SIZE) return -1;
  const u32 = (o: number): number => (head[o]! | (head[o + 1]! << 8) | (head[o + 2]! << 16) | (head[o + 3]! << 24)) >>> 0;
  const headerSize = u32(at + 0x28);
  if (headerSize < GADB_HEADER_SIZE || head.byteLength < at + headerSize + 2) return -1;
  const stringLength = head[at + headerSize]! | (head[at + headerSize + 1]! << 8);
  return at + headerSize + 2 + stringLength + u32(at + 8) + GADB_DESCRIPTOR_SIZE * u32(at + 0x1c);
}

/**
 * `parseGadbWithLayout` with the host's byte order given (internal: tests run the big-endian host's path on a
 * little-endian machine). `withRecordOffsets` false leaves `layout.recordOffsets` empty (`parseGadb` has no use
 * for them).
 */
export function parseGadbOnHost(bytes: Uint8Array, options: ParseGadbOptions, littleEndianHost: boolean, withRecordOffsets = true): { gadb: Gadb; layout: GadbLayout } {
  const format = options.format ?? GADB_FORMAT;
  const owned = options.owned === true;
  const file = new ByteReader(bytes, { format });
  const start = gadbStart(bytes);
  let container: GadbContainer;
  if (start === 0) {
    container = { kind: 'bare' };
  } else if (start === GADB_WRAPPER_SIZE) {
    // LTFX version 8 is verified (.fxp); any other 8-byte wrapper rests on H-WRAPPER-GENERIC.
    const magic = file.latin1(4, '/wrapper/magic');
    const version = file.u32('/wrapper/version');
    container = { kind: 'wrapped', magic, version };
  } else {
    const got = bytes.subarray(0, 4);
    throw new FormatError(format, 0, '/magic', `not a GADB database: expected "GADB" at 0x0 or after an 8-byte wrapper (LTFX), got ${JSON.stringify(String.fromCharCode(...got))}`);
  }

  const r = file.sub(start, bytes.byteLength - start, '/gadb');
  r.expectBytes(MAGIC_GADB, '/header/magic');
  const versionAt = r.pos;
  const version = r.u32('/header/version');
  if (version !== GADB_VERSION) {
    throw new UnsupportedError(format, r.fileOffset(versionAt), '/header/version', `version ${version}`, `unsupported GADB version ${version} (only 17 is known)`);
  }
  const header: GadbHeader = {
    version,
    stringBlockSize: r.u32('/header/stringBlockSize'),
    categoryCount: r.u32('/header/categoryCount'),
    recordCount: r.u32('/header/recordCount'),
    unk14: r.u32('/header/unk14'),
    cellCount: r.u32('/header/cellCount'),
    descriptorCount: r.u32('/header/descriptorCount'),
    unk20: r.u32('/header/unk20'),
    unk24: r.u32('/header/unk24'),
    headerSize: r.u32('/header/headerSize'),
    headerStringLength: 0,
  };
  // H-HDR-28: the header size locates the u16; extra header bytes are kept verbatim.
  if (header.headerSize < GADB_HEADER_SIZE) {
    throw new FormatError(format, r.fileOffset(0x28), '/header/headerSize', `header size ${header.headerSize} is below 0x2C`, { actual: header.headerSize });
  }
  r.checkRange(GADB_HEADER_SIZE, header.headerSize - GADB_HEADER_SIZE, '/headerExtra');
  const headerExtra = r.copyBytes(header.headerSize - GADB_HEADER_SIZE, '/headerExtra');
  // H-HDR-2C: a u16 length, then that many bytes of an inline string, then the string block.
  header.headerStringLength = r.u16('/headerStringLength');
  const headerString = r.copyBytes(header.headerStringLength, '/headerString');

  const stringBlockPos = r.pos;
  r.checkRange(stringBlockPos, header.stringBlockSize, '/strings');
  const blockSize = header.stringBlockSize;
  const data = owned ? r.copyBytes(blockSize, '/strings') : r.bytes(blockSize, '/strings');

  const descriptorsPos = r.pos;
  const descriptors = readDescriptors(r, header.descriptorCount, littleEndianHost);

  // Value section: from here on everything (u32s, 24-byte categories, 8/12-byte record headers, 4-byte cells,
  // the trailer) keeps one alignment mod 4, so the section is read as u32 words: a view of the input when it lies
  // 4-aligned on a little-endian host, otherwise one bulk copy into a 4-aligned pool.
  const valueSectionPos = r.pos;
  const src = r.data;
  const words = readWords(src, valueSectionPos, littleEndianHost, owned);
  const valueSectionUnk00 = r.u32('/values/unk00');
  const categoryCount = r.u32('/values/categoryCount');
  r.guardCount(categoryCount, GADB_CATEGORY_SIZE, '/values/categoryCount');

  // One walk over categories and records: every size is checked against the words that remain before it is
  // used, names and runs against the string block and the descriptor table, and the columns filled as it goes.
  // Their capacity starts at the header's counts (+0x10 secondaries, +0x14 primaries by H-HDR-10/14; a hint only).
  const valueSectionOffset = r.fileOffset(valueSectionPos);
  const reader = new ValueSectionReader(r, words, valueSectionPos, valueSectionOffset, blockSize, descriptors, format, withRecordOffsets);
  reader.read(categoryCount, header.recordCount + header.unk14);
  const { categories, categoryOffsets, records, recordOffsets } = reader;
  const trailerWord = reader.w;
  const trailerPos = valueSectionPos + trailerWord * 4;
  // Trailer: u32 pair count, then the pairs (H-PAIRS).
  r.pos = trailerPos;
  const pairCount = r.u32('/trailer/pairCount');
  r.guardCount(pairCount, 8, '/trailer/pairCount');
  const pairs = new Uint32Array(pairCount * 2);
  for (let i = 0; i < pairs.length; i++) pairs[i] = r.u32(`/trailer/pairs[${i >> 1}]`);
  r.end('/trailer');

  const gadb: Gadb = {
    container,
    header,
    headerExtra,
    headerString,
    strings: { data, itemKeys: new Uint32Array(0), itemSizes: new Uint32Array(0) },
    descriptors,
    valueSectionUnk00,
    categories,
    records,
    cells: words.subarray(0, trailerWord),
    pairs,
  };
  const layout: GadbLayout = {
    gadbOffset: start,
    stringBlockOffset: r.fileOffset(stringBlockPos),
    descriptorsOffset: r.fileOffset(descriptorsPos),
    valueSectionOffset,
    categoryOffsets,
    recordOffsets,
    trailerOffset: r.fileOffset(trailerPos),
    fileSize: bytes.byteLength,
  };
  if (owned) {
    // Today's owned model: items derived now (from the file's cells, before they move), cells back to back,
    // nothing shared with the input.
    gadb.strings = { data, ...itemsFromStarts(data, deriveItemStarts(data, categories, records, gadb.cells, descriptors)) };
    gadb.cells = gadbCompactCells(gadb);
    delete gadb.records.cellStart;
  } else {
    // The derivation holds the parsed arrays themselves (shallow copies of the lists that hold them), so that a
    // model whose properties are replaced before the first use (the editor's copy on write moves the cells and
    // drops `cellStart`) still derives the file's items.
    const parsed = { categories: categories.slice(), records: { ...records }, cells: gadb.cells };
    gadb.strings = stringBlockItemsOnUse(data, () => deriveItemStarts(data, parsed.categories, parsed.records, parsed.cells, descriptors));
  }
  return { gadb, layout };
}

/**
 * The u32 words of `src` from `pos` to its end (the value section and the trailer): a view when `src` holds them
 * 4-aligned on a little-endian host and the caller allows views, otherwise an owned copy (one bulk copy on a
 * little-endian host, a DataView read per word elsewhere).
 */
function readWords(src: Uint8Array, pos: number, littleEndianHost: boolean, owned: boolean): Uint32Array {
  const n = Math.max(0, (src.byteLength - pos) >> 2);
  if (!owned && littleEndianHost && (src.byteOffset + pos) % 4 === 0) return new Uint32Array(src.buffer, src.byteOffset + pos, n);
  const words = new Uint32Array(n);
  if (littleEndianHost) {
    new Uint8Array(words.buffer).set(src.subarray(pos, pos + n * 4));
  } else {
    const dv = new DataView(src.buffer, src.byteOffset, src.byteLength);
    for (let i = 0; i < n; i++) words[i] = dv.getUint32(pos + i * 4, true);
  }
  return words;
}

/**
 * The value section's walk (categories, then each category's primaries and secondaries), filling the record
 * columns. Each record costs one bounds check, two header words read and one column write per field; errors
 * name the offset and the field path, built only when thrown.
 */
class ValueSectionReader {
  categories: GadbCategory[] = [];
  categoryOffsets = new Uint32Array(0);
  records: GadbRecords = allocRecords(0);
  recordOffsets = new Uint32Array(0);
  /** The next word to read. */
  w = 2;
  private count = 0;
  private readonly r: ByteReader;
  private readonly words: Uint32Array;
  private readonly pos: number;
  private readonly offset: number;
  private readonly blockSize: number;
  private readonly descriptorTotal: number;
  private readonly format: string;
  private readonly withRecordOffsets: boolean;

  constructor(r: ByteReader, words: Uint32Array, valueSectionPos: number, valueSectionOffset: number, blockSize: number, descriptors: GadbDescriptors, format: string, withRecordOffsets: boolean) {
    this.r = r;
    this.words = words;
    this.pos = valueSectionPos;
    this.offset = valueSectionOffset;
    this.blockSize = blockSize;
    this.descriptorTotal = descriptors.count;
    this.format = format;
    this.withRecordOffsets = withRecordOffsets;
  }

  read(categoryCount: number, recordHint: number): void {
    const { r, words } = this;
    const capacity = Math.min(Math.max(0, recordHint) || 0, words.length >>> 2);
    this.grow(capacity);
    this.categories = new Array<GadbCategory>(categoryCount);
    this.categoryOffsets = new Uint32Array(categoryCount);
    for (let c = 0; c < categoryCount; c++) {
      const w = this.w;
      if (w + 6 > words.length) {
        r.pos = this.pos + w * 4;
        r.need(GADB_CATEGORY_SIZE, `/categories[${c}]`);
      }
      const cat: GadbCategory = {
        nameKey: words[w]!,
        typeNameKey: words[w + 1]!,
        unk08Key: words[w + 2]!,
        primaryCount: words[w + 3]!,
        secondaryCount: words[w + 4]!,
        sortKey: words[w + 5]!,
      };
      this.categories[c] = cat;
      this.categoryOffsets[c] = this.offset + w * 4;
      this.checkName(cat.nameKey, this.offset + w * 4, () => `/categories[${c}]/name`);
      this.checkName(cat.typeNameKey, this.offset + w * 4 + 4, () => `/categories[${c}]/typeName`);
      this.checkName(cat.unk08Key, this.offset + w * 4 + 8, () => `/categories[${c}]/unk08`);
      this.w = w + 6;
      // H-CAT-0C: primaries first, each at least a header.
      r.pos = this.pos + this.w * 4;
      r.guardCount(cat.primaryCount, GADB_PRIMARY_HEADER_SIZE, `/categories[${c}]/primaryCount`);
      this.side(c, cat.primaryCount, GADB_RECORD_HEADER.primary, 'primaries');
      r.pos = this.pos + this.w * 4;
      r.guardCount(cat.secondaryCount, GADB_SECONDARY_HEADER_SIZE, `/categories[${c}]/secondaryCount`);
      this.side(c, cat.secondaryCount, GADB_RECORD_HEADER.secondary, 'records');
    }
    const n = this.count;
    const rec = this.records;
    rec.cellStart![n] = this.w;
    // The final columns, exactly sized (a hint that was too large leaves spare rows to cut).
    const cut = <T extends Uint8Array | Uint16Array | Uint32Array>(a: T, length: number): T => (a.length === length ? a : (a.slice(0, length) as T));
    this.records = {
      count: n,
      nameKey: cut(rec.nameKey, n),
      cellCount: cut(rec.cellCount, n),
      descriptorCount: cut(rec.descriptorCount, n),
      firstDescriptor: cut(rec.firstDescriptor, n),
      unk0A: cut(rec.unk0A, n),
      flags: cut(rec.flags, n),
      cellStart: cut(rec.cellStart!, n + 1),
    };
    if (this.withRecordOffsets) this.recordOffsets = cut(this.recordOffsets, n);
  }

  /** `n` records of category `c` with header layout `h` (`what`: the path's word for them). */
  private side(c: number, n: number, h: (typeof GADB_RECORD_HEADER)['primary' | 'secondary'], what: string): void {
    if (this.count + n > this.records.nameKey.length) this.grow(Math.max(this.count + n, this.records.nameKey.length * 2));
    const end = fillRecords(this.words, this.w, this.count, n, h.size >> 2, h.nameAt >> 2, h.tailAt >> 2, this.records, this.blockSize, this.descriptorTotal, this.withRecordOffsets ? this.recordOffsets : undefined, this.offset);
    if (end < 0) this.fail(c, n, h, what);
    this.w = end;
    this.count += n;
  }

  /** Re-walks the side that `fillRecords` refused, to throw the error of its first bad record. */
  private fail(c: number, n: number, h: (typeof GADB_RECORD_HEADER)['primary' | 'secondary'], what: string): never {
    const { r, words } = this;
    const size = h.size >> 2;
    let w = this.w;
    for (let i = 0; i < n; i++) {
      const rec = this.count + i;
      const path = `/categories[${c}]/${what}[${i}]`;
      if (w + size > words.length) {
        r.pos = this.pos + w * 4;
        r.need(h.size, path);
      }
      const rows = this.records;
      decodeGadbRecordTail(rows, rec, words[w + (h.tailAt >> 2)]!, words[w + (h.tailAt >> 2) + 1]!);
      const cells = rows.cellCount[rec]!;
      if (cells > words.length - w - size) {
        r.pos = this.pos + (w + size) * 4;
        r.skip(cells * 4, `${path}/cells`);
      }
      if (h.nameAt >= 0) this.checkName(words[w + (h.nameAt >> 2)]!, this.offset + w * 4, () => `/records[${rec}]/name`);
      const runLength = rows.descriptorCount[rec]!;
      const first = rows.firstDescriptor[rec]!;
      if (first + runLength > this.descriptorTotal) {
        throw new FormatError(this.format, this.offset + w * 4, `/records[${rec}]/firstDescriptor`, `descriptor run [${first}, ${first + runLength}) is outside the ${this.descriptorTotal} descriptors`, { actual: first });
      }
      w += size + cells;
    }
    throw new Error('gadb reader: a refused record passed every check');
  }

  /** Names must be 4-aligned offsets inside the string block. */
  private checkName(key: number, at: number, path: () => string): void {
    if (key < this.blockSize && (key & 3) === 0) return;
    throw new FormatError(this.format, at, path(), `string-block offset ${key} is ${key >= this.blockSize ? `outside the block (size ${this.blockSize})` : 'not 4-aligned'}`, { actual: key });
  }

  private grow(capacity: number): void {
    const old = this.records;
    const next = allocRecords(capacity);
    next.nameKey.set(old.nameKey.subarray(0, this.count));
    next.cellCount.set(old.cellCount.subarray(0, this.count));
    next.descriptorCount.set(old.descriptorCount.subarray(0, this.count));
    next.firstDescriptor.set(old.firstDescriptor.subarray(0, this.count));
    next.unk0A.set(old.unk0A.subarray(0, this.count));
    next.flags.set(old.flags.subarray(0, this.count));
    next.cellStart!.set(old.cellStart!.subarray(0, this.count));
    this.records = next;
    if (this.withRecordOffsets) {
      const offsets = new Uint32Array(capacity);
      offsets.set(this.recordOffsets.subarray(0, this.count));
      this.recordOffsets = offsets;
    }
  }
}

/**
 * Fills the columns of `n` records whose headers (`size` words; name at word `nameAt`, -1 for none; tail at
 * `tailAt`) start at word `w`, from column row `rec`; returns the word after them, or -1 when a record does not
 * fit, names a bad string-block offset or a run outside the descriptor table (the caller finds which).
 */
function fillRecords(words: Uint32Array, w: number, rec: number, n: number, size: number, nameAt: number, tailAt: number, records: GadbRecords, blockSize: number, descriptorTotal: number, recordOffsets: Uint32Array | undefined, offset: number): number {
  const { nameKey, cellCount, descriptorCount, firstDescriptor } = records;
  const cellStart = records.cellStart!;
  const end = words.length;
  const lastWord = end - 1;
  let ahead = 0;
  for (let i = 0; i < n; i++, rec++) {
    if (w + size > end) return -1;
    // The walk is a chain of dependent loads: the next record's place is known only once this one's cell count
    // is read. A load WALK_AHEAD_WORDS ahead, which nothing waits for, starts fetching the next lines meanwhile.
    ahead ^= words[Math.min(w + WALK_AHEAD_WORDS, lastWord)]!;
    decodeGadbRecordTail(records, rec, words[w + tailAt]!, words[w + tailAt + 1]!);
    const count = cellCount[rec]!;
    if (count > end - w - size) return -1;
    const first = firstDescriptor[rec]!;
    const fields = descriptorCount[rec]!;
    if (first + fields > descriptorTotal) return -1;
    if (nameAt >= 0) {
      const key = words[w + nameAt]!;
      if (key >= blockSize || (key & 3) !== 0) return -1;
      nameKey[rec] = key;
    }
    if (recordOffsets) recordOffsets[rec] = offset + w * 4;
    w += size;
    cellStart[rec] = w;
    w += count;
  }
  // Kept, so that the compiler keeps the loads.
  walkAheadSink[0] = ahead;
  return w;
}

/**
 * How far ahead of the record being read the walk touches the value section: 32 words, two 64-byte cache lines.
 * Measured on the game-scale file (AMD EPYC, Zen 4): 24 to 40 words gain alike, 64 less, none 0.
 */
const WALK_AHEAD_WORDS = 32;
/** Where `fillRecords` leaves the xor of its look-ahead loads (read by nothing). */
const walkAheadSink = new Uint32Array(1);

/** A descriptor table of `count` rows, every column zero (the columns' types are the 15-byte row's fields). */
export function newGadbDescriptors(count: number): GadbDescriptors {
  return {
    count,
    declaredHash: new Uint32Array(count),
    sortedHash: new Uint32Array(count),
    schemaOrdinal: new Uint8Array(count),
    sortedToDeclared: new Uint8Array(count),
    typeCode: new Uint8Array(count),
    elementCount: new Uint16Array(count),
    link: new Uint16Array(count),
  };
}

function readDescriptors(r: ByteReader, count: number, littleEndianHost: boolean): GadbDescriptors {
  r.guardCount(count, GADB_DESCRIPTOR_SIZE, '/header/descriptorCount');
  r.need(count * GADB_DESCRIPTOR_SIZE, '/descriptors');
  const d = readGadbDescriptorRows(r.data, r.dv, r.pos, count, littleEndianHost);
  r.pos += count * GADB_DESCRIPTOR_SIZE;
  return d;
}

/**
 * @internal The `count` 15-byte descriptor rows at `bytes[at]` (`dv` a view of the same bytes; the caller checked
 * that they lie inside) as the model's columns. On a little-endian host, after the rows before the first one that
 * starts 4-aligned in memory, four rows at a time as 15 u32 words (`readDescriptorGroups`; 4 × 15 = 60 bytes);
 * the mirror of the writer's `writeDescriptors`.
 */
export function readGadbDescriptorRows(bytes: Uint8Array, dv: DataView, at: number, count: number, littleEndianHost = HOST_LITTLE_ENDIAN): GadbDescriptors {
  const d = newGadbDescriptors(count);
  let row = 0;
  if (littleEndianHost) {
    // Row i starts at at + 15 i, and 15 = -1 mod 4: the row `(address of row 0) mod 4` is the first aligned one.
    const lead = Math.min(count, (bytes.byteOffset + at) & 3);
    readDescriptorRows(bytes, dv, at, d, 0, lead);
    row = lead;
    const groups = Math.floor((count - row) / 4);
    if (groups > 0) {
      readDescriptorGroups(new Uint32Array(bytes.buffer, bytes.byteOffset + at + row * GADB_DESCRIPTOR_SIZE, groups * 15), d, row, groups);
      row += groups * 4;
    }
  }
  readDescriptorRows(bytes, dv, at + row * GADB_DESCRIPTOR_SIZE, d, row, count);
  return d;
}

/** Rows `[from, to)` of `d` from the bytes at `bytes[at]`, one by one. */
function readDescriptorRows(bytes: Uint8Array, dv: DataView, at: number, d: GadbDescriptors, from: number, to: number): void {
  const { declaredHash, sortedHash, schemaOrdinal, sortedToDeclared, typeCode, elementCount, link } = d;
  let p = at;
  for (let i = from; i < to; i++, p += GADB_DESCRIPTOR_SIZE) {
    declaredHash[i] = dv.getUint32(p, true);
    sortedHash[i] = dv.getUint32(p + 4, true);
    schemaOrdinal[i] = bytes[p + 8]!;
    sortedToDeclared[i] = bytes[p + 9]!;
    typeCode[i] = bytes[p + 10]!;
    elementCount[i] = dv.getUint16(p + 11, true);
    link[i] = dv.getUint16(p + 13, true);
  }
}

/**
 * `groups` groups of four rows of `d` from `from` on, each group 15 little-endian u32 words of `words`: rows a, b,
 * c, e start at bytes 0, 15, 30, 45 of the group (the row: declared hash u32, sorted hash u32, schema ordinal u8,
 * sorted-to-declared u8, type u8, element count u16, link u16).
 */
function readDescriptorGroups(words: Uint32Array, d: GadbDescriptors, from: number, groups: number): void {
  const { declaredHash: dh, sortedHash: sh, schemaOrdinal: so, sortedToDeclared: sd, typeCode: tc, elementCount: ec, link: ln } = d;
  for (let g = 0, a = from, o = 0; g < groups; g++, a += 4, o += 15) {
    const x2 = words[o + 2]!;
    const x3 = words[o + 3]!;
    const x4 = words[o + 4]!;
    const x5 = words[o + 5]!;
    const x6 = words[o + 6]!;
    const x7 = words[o + 7]!;
    const x8 = words[o + 8]!;
    const x9 = words[o + 9]!;
    const x10 = words[o + 10]!;
    const x11 = words[o + 11]!;
    const x12 = words[o + 12]!;
    const x13 = words[o + 13]!;
    const x14 = words[o + 14]!;
    // Row a: bytes 0-14.
    dh[a] = words[o]!;
    sh[a] = words[o + 1]!;
    so[a] = x2;
    sd[a] = x2 >>> 8;
    tc[a] = x2 >>> 16;
    ec[a] = (x2 >>> 24) | (x3 << 8);
    ln[a] = x3 >>> 8;
    // Row b: bytes 15-29.
    const b = a + 1;
    dh[b] = (x3 >>> 24) | (x4 << 8);
    sh[b] = (x4 >>> 24) | (x5 << 8);
    so[b] = x5 >>> 24;
    sd[b] = x6;
    tc[b] = x6 >>> 8;
    ec[b] = x6 >>> 16;
    ln[b] = x7;
    // Row c: bytes 30-44.
    const c = a + 2;
    dh[c] = (x7 >>> 16) | (x8 << 16);
    sh[c] = (x8 >>> 16) | (x9 << 16);
    so[c] = x9 >>> 16;
    sd[c] = x9 >>> 24;
    tc[c] = x10;
    ec[c] = x10 >>> 8;
    ln[c] = (x10 >>> 24) | (x11 << 8);
    // Row e: bytes 45-59.
    const e = a + 3;
    dh[e] = (x11 >>> 8) | (x12 << 24);
    sh[e] = (x12 >>> 8) | (x13 << 24);
    so[e] = x13 >>> 8;
    sd[e] = x13 >>> 16;
    tc[e] = x13 >>> 24;
    ec[e] = x14;
    ln[e] = x14 >>> 16;
  }
}

function allocRecords(count: number): GadbRecords {
  return {
    count,
    nameKey: new Uint32Array(count),
    cellCount: new Uint16Array(count),
    descriptorCount: new Uint8Array(count),
    firstDescriptor: new Uint32Array(count),
    unk0A: new Uint8Array(count),
    flags: new Uint8Array(count),
    cellStart: new Uint32Array(count + 1),
  };
}

/** A string block's item columns. */
type GadbItems = Pick<GadbStringBlock, 'itemKeys' | 'itemSizes'>;

/**
 * The string block `data` whose `itemKeys` and `itemSizes` are derived from `starts()` (the item-start bits) on
 * the first read or write of either (a write replaces the derived column, as on a plain object). Own enumerable
 * accessors, so that spreading, `structuredClone` and `JSON.stringify` see the columns as data. Until then the
 * block also answers `gadbUnderivedItemStarts` (a non-enumerable symbol-keyed function: copies do not carry it).
 * The bits are computed once, at the first of either use, and the columns made of those same bits: the items are
 * fixed when first used, whichever way.
 */
function stringBlockItemsOnUse(data: Uint8Array, starts: () => Uint32Array): GadbStringBlock {
  let items: GadbItems | undefined;
  let bits: Uint32Array | undefined;
  const derive = (): GadbItems => {
    const derived = itemsFromStarts(data, (bits ??= starts()));
    bits = undefined;
    return derived;
  };
  const block = { data } as GadbStringBlock;
  const column = (name: keyof GadbItems): PropertyDescriptor => ({
    get: () => (items ??= derive())[name],
    set: (value: Uint32Array) => void ((items ??= derive())[name] = value),
    enumerable: true,
    configurable: true,
  });
  Object.defineProperties(block, {
    itemKeys: column('itemKeys'),
    itemSizes: column('itemSizes'),
    [UNDERIVED_ITEM_STARTS]: { value: (): Uint32Array | undefined => (items || block.data !== data ? undefined : (bits ??= starts())), enumerable: false },
  });
  return block;
}

const UNDERIVED_ITEM_STARTS = Symbol('gadb.underivedItemStarts');

/**
 * @internal For a viewing model's string block whose items are not derived yet: the item-start bits their
 * derivation reads them from (bit `w & 31` of word `w >> 5`: an item starts at key `4w`, and runs to the next start
 * or the block's end), computed at the first call and kept (the columns are made of them later); undefined for any
 * other block. The writer lays such a block out as it is (its items tile it in key order by construction) and
 * checks the first-use rule off the bits, so that parse + write never holds the item columns (2.7 MB for the game
 * file; the bits are 0.3 MB). Callers never write into them.
 */
export function gadbUnderivedItemStarts(block: GadbStringBlock): Uint32Array | undefined {
  const starts = (block as { [UNDERIVED_ITEM_STARTS]?: () => Uint32Array | undefined })[UNDERIVED_ITEM_STARTS];
  return starts ? starts() : undefined;
}

/**
 * Where the string block's items start, from the references to it: the root at 0, the category and record names
 * (checked by the walk) and every aligned in-block value of a block-type cell (`markBlockCells`). A block-type
 * cell that is not a valid offset is not a reference: it stays as it is and `verifyGadb` reports it. Item starts
 * are a bit per 4-byte word of the block; `itemsFromStarts` makes the item columns of them.
 */
function deriveItemStarts(data: Uint8Array, categories: GadbCategory[], records: GadbRecords, cells: Uint32Array, descriptors: GadbDescriptors): Uint32Array {
  const size = data.byteLength;
  const words = (size + 3) >>> 2;
  const starts = new Uint32Array((words >>> 5) + 1);
  if (size === 0) return starts;
  starts[0] = starts[0]! | 1;
  markBlockCells(records, cells, descriptors, size, starts);
  markNames(categories, records, starts);
  return starts;
}

function markBlockCells(records: GadbRecords, cells: Uint32Array, descriptors: GadbDescriptors, blockSize: number, starts: Uint32Array): void {
  const { cellCount, descriptorCount, firstDescriptor } = records;
  const cellStart = records.cellStart!;
  const { link, elementCount } = descriptors;
  const next = nextBlockRow(descriptors);
  for (let rec = 0; rec < records.count; rec++) {
    const first = firstDescriptor[rec]!;
    const stopRow = first + descriptorCount[rec]!;
    const w = cellStart[rec]!;
    const count = cellCount[rec]!;
    for (let j = next[first]!; j < stopRow; j = next[j + 1]!) {
      const at = link[j]!;
      const stop = w + Math.min(count, at + elementCount[j]!);
      for (let k = w + at; k < stop; k++) {
        const v = cells[k]!;
        if (v < blockSize && (v & 3) === 0) starts[v >>> 7] = starts[v >>> 7]! | (1 << ((v >>> 2) & 31));
      }
    }
  }
}

/**
 * Per descriptor row j (and j = count), the first row at or after j whose type is stored in the block and which
 * declares elements (`count` when none): a record's block fields, in declaration order, without a run table.
 */
function nextBlockRow(d: GadbDescriptors): Int32Array {
  const { count, typeCode, elementCount } = d;
  const next = new Int32Array(count + 1);
  next[count] = count;
  for (let j = count - 1; j >= 0; j--) {
    next[j] = GADB_STORAGE_BY_TYPE_BYTE[typeCode[j]!] === GadbStorageCode.Block && elementCount[j] !== 0 ? j : next[j + 1]!;
  }
  return next;
}

/** Sets the start bit of every category and record name (keys already checked to be aligned and in the block). */
function markNames(categories: GadbCategory[], records: GadbRecords, starts: Uint32Array): void {
  const { nameKey } = records;
  let rec = 0;
  for (let c = 0; c < categories.length; c++) {
    const cat = categories[c]!;
    for (const key of [cat.nameKey, cat.typeNameKey, cat.unk08Key]) starts[key >>> 7] = starts[key >>> 7]! | (1 << ((key >>> 2) & 31));
    rec += cat.primaryCount;
    for (let end = rec + cat.secondaryCount; rec < end; rec++) {
      const w = nameKey[rec]! >>> 2;
      starts[w >>> 5] = starts[w >>> 5]! | (1 << (w & 31));
    }
  }
}

/** Item keys and sizes from the start bits: each item runs to the next start (or the block's end). */
function itemsFromStarts(data: Uint8Array, starts: Uint32Array): GadbItems {
  const words = (data.byteLength + 3) >>> 2;
  let itemCount = 0;
  for (let i = 0; i < starts.length; i++) {
    let x = starts[i]!;
    x -= (x >>> 1) & 0x55555555;
    x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
    itemCount += (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24);
  }
  const itemKeys = new Uint32Array(itemCount);
  const itemSizes = new Uint32Array(itemCount);
  let n = 0;
  for (let i = 0; i < starts.length; i++) {
    let x = starts[i]!;
    while (x !== 0) {
      const bit = 31 - Math.clz32(x & -x);
      x &= x - 1;
      const w = (i << 5) + bit;
      if (w >= words) break;
      itemKeys[n++] = w << 2;
    }
  }
  for (let j = 0; j + 1 < n; j++) itemSizes[j] = itemKeys[j + 1]! - itemKeys[j]!;
  if (n > 0) itemSizes[n - 1] = data.byteLength - itemKeys[n - 1]!;
  return { itemKeys: n === itemCount ? itemKeys : itemKeys.slice(0, n), itemSizes: n === itemCount ? itemSizes : itemSizes.slice(0, n) };
}

