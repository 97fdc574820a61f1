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
 * (the spec's exact tiling [V]); so an item's extent never depends on knowing its type's size (type 9).
 */
import { ByteReader } from '../../binary/reader.ts';
import { latin1Constant } from '../../binary/text.ts';
import { FormatError, UnsupportedError } from '../../binary/errors.ts';
import { gadbSpanWalk } from './layout.ts';
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
/** Size of a secondary record header. */
export const GADB_SECONDARY_HEADER_SIZE = GADB_RECORD_HEADER.secondary.size;
/** Size of a primary record header (H-PRIM-HDR). */
export const GADB_PRIMARY_HEADER_SIZE = GADB_RECORD_HEADER.primary.size;
/** Size of the wrapper header of `.fxp` (`LTFX`, u32 version). */
export const GADB_WRAPPER_SIZE = 8;

const MAGIC_GADB = latin1Constant('GADB');
/** True on little-endian hosts (all current ones): a `Uint32Array` over file bytes then reads the file's u32s. */
export const HOST_LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
/** Largest cell count of a record (its u16). */
const GADB_MAX_CELLS = 0xffff;
/** Bytes of the value section held at once by `GadbWordWindow` (at least one largest record: 12 + 4 * 0xFFFF). */
const WORD_WINDOW_BYTES = 1 << 19;

/**
 * The little-endian u32 words of `src[start, end)` (a range whose length is a multiple of 4), a window at a time,
 * in a 4-aligned buffer: on a little-endian host one bulk copy per window, elsewhere a DataView read per word.
 * Every position asked for must be congruent to `start` mod 4.
 */
export class GadbWordWindow {
  private readonly src: Uint8Array;
  private readonly dv: DataView;
  private readonly end: number;
  private readonly littleEndianHost: boolean;
  private readonly words: Uint32Array;
  private readonly wordBytes: Uint8Array;
  /** Source position of `words[0]`. */
  private winStart = 0;
  /** Source position just past the window's last word (`winStart` when empty). */
  private winEnd = 0;
  constructor(src: Uint8Array, start: number, end: number, littleEndianHost: boolean) {
    this.src = src;
    this.dv = new DataView(src.buffer, src.byteOffset, src.byteLength);
    this.end = end;
    this.littleEndianHost = littleEndianHost;
    const size = Math.min(WORD_WINDOW_BYTES, end - start);
    this.words = new Uint32Array(size >>> 2);
    this.wordBytes = new Uint8Array(this.words.buffer);
    this.winStart = start;
    this.winEnd = start;
  }
  /** The window's words, holding `[pos, pos + want)` (clipped to the range's end); index them with `index(pos)`. */
  at(pos: number, want: number): Uint32Array {
    if (pos + want > this.winEnd && this.winEnd < this.end) this.fill(pos);
    return this.words;
  }
  /** Index in the window of the word at source position `pos`. */
  index(pos: number): number {
    return (pos - this.winStart) >> 2;
  }
  private fill(pos: number): void {
    const end = Math.min(this.end, pos + this.words.byteLength);
    const n = (end - pos) & ~3;
    if (this.littleEndianHost) {
      this.wordBytes.set(this.src.subarray(pos, pos + n));
    } else {
      const { dv, words } = this;
      for (let i = 0, q = pos; q < pos + n; i++, q += 4) words[i] = dv.getUint32(q, true);
    }
    this.winStart = pos;
    this.winEnd = pos + n;
  }
}

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
}

/** Parses a GADB v17 database (bare, `.fxp` or `.bvr`) into a model that owns its bytes. */
export function parseGadb(bytes: Uint8Array, options: ParseGadbOptions = {}): Gadb {
  return parseGadbWithLayout(bytes, options).gadb;
}

/** `parseGadb`, plus where each part lay in the file (for findings with offsets and for tools). */
export function parseGadbWithLayout(bytes: Uint8Array, options: ParseGadbOptions = {}): { gadb: Gadb; layout: GadbLayout } {
  return parseGadbOnHost(bytes, options, HOST_LITTLE_ENDIAN);
}

/**
 * `parseGadbWithLayout` with the host's byte order given (internal: tests run the big-endian host's path on a
 * little-endian machine).
 */
export function parseGadbOnHost(bytes: Uint8Array, options: ParseGadbOptions, littleEndianHost: boolean): { gadb: Gadb; layout: GadbLayout } {
  const format = options.format ?? GADB_FORMAT;
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
  const data = r.copyBytes(blockSize, '/strings');

  const descriptorsPos = r.pos;
  const descriptors = readDescriptors(r, header.descriptorCount);

  // Value section.
  const valueSectionPos = r.pos;
  const valueSectionUnk00 = r.u32('/values/unk00');
  const categoryCountPos = r.pos;
  const categoryCount = r.u32('/values/categoryCount');
  r.guardCount(categoryCount, GADB_CATEGORY_SIZE, '/values/categoryCount');

  // Pass 1: walk categories and record headers, checking every size against the remaining bytes. (Field paths
  // are built only when a check fails: at game scale this loop visits 694,632 records.)
  const categories: GadbCategory[] = new Array<GadbCategory>(categoryCount);
  const categoryOffsets = new Uint32Array(categoryCount);
  let recordTotal = 0;
  let cellTotal = 0;
  const walkStart = r.pos;
  const src = r.data;
  const srcLength = src.byteLength;
  const PH = GADB_RECORD_HEADER.primary;
  const SH = GADB_RECORD_HEADER.secondary;
  for (let c = 0; c < categoryCount; c++) {
    const at = r.pos;
    const path = `/categories[${c}]`;
    categoryOffsets[c] = r.fileOffset(at);
    r.need(GADB_CATEGORY_SIZE, path);
    const cat: GadbCategory = {
      nameKey: r.u32(),
      typeNameKey: r.u32(),
      unk08Key: r.u32(),
      primaryCount: r.u32(),
      secondaryCount: r.u32(),
      sortKey: r.u32(),
    };
    categories[c] = cat;
    // H-CAT-0C: primaries first, each at least a header.
    r.guardCount(cat.primaryCount, GADB_PRIMARY_HEADER_SIZE, `${path}/primaryCount`);
    let p = r.pos;
    for (let i = 0; i < cat.primaryCount; i++) {
      if (srcLength - p < PH.size) {
        r.pos = p;
        r.need(PH.size, `${path}/primaries[${i}]`);
      }
      const n = src[p + PH.tailAt]! | (src[p + PH.tailAt + 1]! << 8);
      p += PH.size;
      if (n * 4 > srcLength - p) {
        r.pos = p;
        r.skip(n * 4, `${path}/primaries[${i}]/cells`);
      }
      p += n * 4;
      cellTotal += n;
    }
    r.pos = p;
    r.guardCount(cat.secondaryCount, GADB_SECONDARY_HEADER_SIZE, `${path}/secondaryCount`);
    for (let i = 0; i < cat.secondaryCount; i++) {
      if (srcLength - p < SH.size) {
        r.pos = p;
        r.need(SH.size, `${path}/records[${i}]`);
      }
      const n = src[p + SH.tailAt]! | (src[p + SH.tailAt + 1]! << 8);
      p += SH.size;
      if (n * 4 > srcLength - p) {
        r.pos = p;
        r.skip(n * 4, `${path}/records[${i}]/cells`);
      }
      p += n * 4;
      cellTotal += n;
    }
    r.pos = p;
    recordTotal += cat.primaryCount + cat.secondaryCount;
  }
  const trailerPos = r.pos;

  // Pass 2: fill the columns (sizes are now known and justified by the bytes walked). Everything from the value
  // section on (u32s, 24-byte categories, 8/12-byte record headers, 4-byte cells) keeps one alignment mod 4, so
  // the section is read through a window of u32 words (bulk-copied into a 4-aligned buffer) and cells are copied
  // word for word, whatever the alignment of the input.
  const records = allocRecords(recordTotal);
  const recordOffsets = new Uint32Array(recordTotal);
  const cells = new Uint32Array(cellTotal);
  fillRecords(src, walkStart, trailerPos, littleEndianHost, r.fileOffset(0), categories, records, recordOffsets, cells);
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
    cells,
    pairs,
  };
  const layout: GadbLayout = {
    gadbOffset: start,
    stringBlockOffset: r.fileOffset(stringBlockPos),
    descriptorsOffset: r.fileOffset(descriptorsPos),
    valueSectionOffset: r.fileOffset(valueSectionPos),
    categoryOffsets,
    recordOffsets,
    trailerOffset: r.fileOffset(trailerPos),
    fileSize: bytes.byteLength,
  };
  void categoryCountPos;
  gadb.strings = deriveItems(gadb, layout, format);
  return { gadb, layout };
}

/** Pass 2 of the reader: the record columns, record offsets and cells (every size already checked by pass 1). */
function fillRecords(src: Uint8Array, walkStart: number, trailerPos: number, littleEndianHost: boolean, baseOffset: number, categories: GadbCategory[], records: GadbRecords, recordOffsets: Uint32Array, cells: Uint32Array): void {
  const PH = GADB_RECORD_HEADER.primary;
  const SH = GADB_RECORD_HEADER.secondary;
  const words = new GadbWordWindow(src, walkStart, trailerPos, littleEndianHost);
  const { nameKey, cellCount, descriptorCount, firstDescriptor, unk0A, flags } = records;
  let rec = 0;
  let cell = 0;
  let p = walkStart;
  for (let c = 0; c < categories.length; c++) {
    const cat = categories[c]!;
    p += GADB_CATEGORY_SIZE;
    const total = cat.primaryCount + cat.secondaryCount;
    for (let i = 0; i < total; i++, rec++) {
      recordOffsets[rec] = baseOffset + p;
      const h = i < cat.primaryCount ? PH : SH;
      const s = words.at(p, h.size + GADB_MAX_CELLS * 4);
      const w = words.index(p);
      nameKey[rec] = h.nameAt < 0 ? 0 : s[w + (h.nameAt >> 2)]!;
      const t0 = s[w + (h.tailAt >> 2)]!;
      const t1 = s[w + (h.tailAt >> 2) + 1]!;
      const n = t0 & 0xffff;
      cellCount[rec] = n;
      descriptorCount[rec] = (t0 >>> 16) & 0xff;
      firstDescriptor[rec] = (t0 >>> 24) | ((t1 & 0xffff) << 8); // u24, H-REC-FIRST-U24
      unk0A[rec] = (t1 >>> 16) & 0xff;
      flags[rec] = t1 >>> 24;
      const from = w + (h.size >> 2);
      if (n > 16) cells.set(s.subarray(from, from + n), cell);
      else for (let k = 0; k < n; k++) cells[cell + k] = s[from + k]!;
      cell += n;
      p += h.size + n * 4;
    }
  }

}

function readDescriptors(r: ByteReader, count: number): GadbDescriptors {
  r.guardCount(count, GADB_DESCRIPTOR_SIZE, '/header/descriptorCount');
  r.need(count * GADB_DESCRIPTOR_SIZE, '/descriptors');
  const d: GadbDescriptors = {
    count,
    declaredHash: new Uint32Array(count),
    sortedHash: new Uint32Array(count),
    schemaOrdinal: new Uint8Array(count),
    sortedToDeclared: new Uint8Array(count),
    typeCode: new Uint8Array(count),
    elementCount: new Uint16Array(count),
    link: new Uint16Array(count),
  };
  const b = r.data;
  let p = r.pos;
  for (let i = 0; i < count; i++, p += GADB_DESCRIPTOR_SIZE) {
    d.declaredHash[i] = (b[p]! | (b[p + 1]! << 8) | (b[p + 2]! << 16) | (b[p + 3]! << 24)) >>> 0;
    d.sortedHash[i] = (b[p + 4]! | (b[p + 5]! << 8) | (b[p + 6]! << 16) | (b[p + 7]! << 24)) >>> 0;
    d.schemaOrdinal[i] = b[p + 8]!;
    d.sortedToDeclared[i] = b[p + 9]!;
    d.typeCode[i] = b[p + 10]!;
    d.elementCount[i] = b[p + 11]! | (b[p + 12]! << 8);
    d.link[i] = b[p + 13]! | (b[p + 14]! << 8);
  }
  r.pos = p;
  return d;
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
  };
}

/**
 * Finds the string block's items from the references to it (every reference must be a 4-aligned offset inside
 * the block; names that are not are a `FormatError`). A block-type cell that is not a valid offset is not a
 * reference: it stays as it is and `verifyGadb` reports it.
 */
function deriveItems(g: Gadb, layout: GadbLayout, format: string): GadbStringBlock {
  const size = g.strings.data.byteLength;
  const words = (size + 3) >>> 2;
  const starts = new Uint8Array(words + 1);
  starts[0] = 1;
  const refName = (key: number, fileOffset: number, path: string): void => {
    if (key >= size || (key & 3) !== 0) {
      throw new FormatError(format, fileOffset, path, `string-block offset ${key} is ${key >= size ? `outside the block (size ${size})` : 'not 4-aligned'}`, { actual: key });
    }
    starts[key >>> 2] = 1;
  };
  const { categories, records, cells, descriptors: d } = g;
  let rec = 0;
  for (let c = 0; c < categories.length; c++) {
    const cat = categories[c]!;
    const at = layout.categoryOffsets[c]!;
    refName(cat.nameKey, at, `/categories[${c}]/name`);
    refName(cat.typeNameKey, at + 4, `/categories[${c}]/typeName`);
    refName(cat.unk08Key, at + 8, `/categories[${c}]/unk08`);
    rec += cat.primaryCount;
    for (let i = 0; i < cat.secondaryCount; i++, rec++) refName(records.nameKey[rec]!, layout.recordOffsets[rec]!, `/records[${rec}]/name`);
  }
  // Runs must lie inside the descriptor table.
  for (let r = 0; r < records.count; r++) {
    const first = records.firstDescriptor[r]!;
    const count = records.descriptorCount[r]!;
    if (first + count > d.count) {
      throw new FormatError(format, layout.recordOffsets[r]!, `/records[${r}]/firstDescriptor`, `descriptor run [${first}, ${first + count}) is outside the ${d.count} descriptors`, { actual: first });
    }
  }
  // Cells of block types, through each record's own run.
  for (const s = gadbSpanWalk(g); s.next(); ) {
    for (let k = s.begin; k < s.end; k++) {
      const v = cells[k]!;
      if (v < size && (v & 3) === 0) starts[v >>> 2] = 1;
    }
  }
  let itemCount = 0;
  for (let w = 0; w < words; w++) itemCount += starts[w]!;
  const itemKeys = new Uint32Array(itemCount);
  const itemSizes = new Uint32Array(itemCount);
  let i = 0;
  for (let w = 0; w < words; w++) if (starts[w]) itemKeys[i++] = w << 2;
  for (let j = 0; j < itemCount; j++) itemSizes[j] = (j + 1 < itemCount ? itemKeys[j + 1]! : size) - itemKeys[j]!;
  if (size === 0) return { data: g.strings.data, itemKeys: new Uint32Array(0), itemSizes: new Uint32Array(0) };
  return { data: g.strings.data, itemKeys, itemSizes };
}
