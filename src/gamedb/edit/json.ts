/**
 * Lossless JSON of a whole GADB database, readable and editable, that `importGadbJson` turns back into a model
 * which `writeGadb` writes byte-identical to the original (for every file whose string block follows the
 * first-use rule, which the writer always produces).
 *
 * Shape (`format: "scry.gadb.json"`, version 1), one category or record per line so text tools and diffs work:
 *   header unknowns, container, root name item, pair table, the descriptor table as rows
 *   `[declaredHash, sortedHash, schemaOrdinal, sortedToDeclared, type, count, link]`, then each category with its
 *   records: `{ name, first, fields, cells, flags, unk0A, values: { Field: value, … }, residual? }`.
 * Values: Bool true/false; Float a number (`{ "f32": "0x…" }` for NaN, ±Infinity and -0, which JSON cannot hold);
 * Int a number; texts strings (`{ "hex": "…" }` when not UTF-8); Int64 a decimal string; pairs, vectors and curve
 * keys arrays; links `"Category/Record"` (`"Category/#i"` for a primary, null, `{ "raw": n }` when the cell
 * names no record or the label is ambiguous); arrays of elements for count ≠ 1. `residual` holds cell bits no
 * field claims (XOR over the rebuilt cells), so nothing is lost.
 */
import { FormatError } from '../../binary/errors.ts';
import type { Gadb, GadbCategory } from '../../formats/gadb/types.ts';
import { newGadbDescriptors } from '../../formats/gadb/parse.ts';
import { gadbRecordCellStarts } from '../../formats/gadb/layout.ts';
import { gadbTypeInfo, type GadbDecoding, type GadbTypeInfo } from '../../formats/gadb/type-codes.ts';
import { GadbItemKind } from '../../formats/gadb/types.ts';
import { BlockItems, LabelTable, fnv, fnvPrimary, FNV_SEED } from './json-tables.ts';
import { NULL_LINK, blockTextBytes, bytesEqual, fieldLabel, fromHex, hashText, indexModel, parseHash, toHex, type FieldNamer, type ModelIndex, type NameHasher, p919Hasher } from './model.ts';
import { decodeBlockValue, encodeBlockValue, f32Bits, f32FromBits, type ElementValue } from './values.ts';
import { isUtf8 } from '../../binary/text.ts';
import { JsonReader, JsonSyntaxError, quotedKey, type QuotedKey } from '../../binary/json-reader.ts';
import { TextWriter, littleEndianWords } from '../../binary/text-writer.ts';

export const GADB_JSON_FORMAT = 'scry.gadb.json';

const utf8 = new TextDecoder();

function textJson(b: Uint8Array): unknown {
  return isUtf8(b) ? utf8.decode(b) : { hex: toHex(b) };
}
const utf8Encoder = new TextEncoder();
function textFromJson(v: unknown, where: () => string): Uint8Array {
  if (typeof v === 'string') return utf8Encoder.encode(v);
  if (v && typeof v === 'object' && 'hex' in v && typeof (v as { hex: unknown }).hex === 'string') return fromHex((v as { hex: string }).hex);
  throw new FormatError('gadb-json', 0, where(), `expected text, got ${JSON.stringify(v)}`);
}
function floatJson(x: number): unknown {
  return Number.isFinite(x) && !Object.is(x, -0) ? x : { f32: hashText(f32Bits(x)) };
}
function floatFromJson(v: unknown, where: () => string): number {
  if (typeof v === 'number') return v;
  if (v && typeof v === 'object' && 'f32' in v) return f32FromBits(parseInt(String((v as { f32: string }).f32).slice(2), 16) >>> 0);
  throw new FormatError('gadb-json', 0, where(), `expected a number, got ${JSON.stringify(v)}`);
}

function blockJson(d: GadbDecoding, v: ElementValue): unknown {
  if (d.kind === 'fixed') return d.element === 'i64' ? String(v) : (v as number[]).map(floatJson);
  if (d.kind === 'curve') {
    const intValue = d.value === 'u32' || d.value === 'i32' || d.value === 'raw8';
    return (v as number[][]).map((k) => k.map((x, i) => (i === 0 || !intValue ? floatJson(x) : x)));
  }
  if (d.kind === 'opaque') return { hex: toHex(v as Uint8Array) };
  return v;
}
function blockFromJson(d: GadbDecoding, v: unknown, where: () => string): ElementValue {
  if (d.kind === 'fixed') {
    if (d.element === 'i64') return BigInt(String(v));
    if (!Array.isArray(v)) throw new FormatError('gadb-json', 0, where(), 'expected an array');
    return v.map((x) => floatFromJson(x, where));
  }
  if (d.kind === 'curve') {
    if (!Array.isArray(v)) throw new FormatError('gadb-json', 0, where(), 'expected a list of keys');
    return v.map((k) => (k as unknown[]).map((x) => floatFromJson(x, where)));
  }
  if (d.kind === 'opaque') return fromHex(String((v as { hex: string }).hex));
  throw new Error('unreachable');
}

export interface ExportJsonOptions {
  namer?: FieldNamer;
}

/**
 * The lossless JSON of `g`, as text chunks (concatenate them; one category or record per line): the UTF-8 chunks
 * of `exportGadbJsonBytes`, decoded. Streaming keeps a game-scale export out of one giant string.
 */
export function* exportGadbJson(g: Gadb, options: ExportJsonOptions = {}): Generator<string> {
  const dec = new TextDecoder();
  for (const chunk of exportGadbJsonBytes(g, options)) {
    const t = dec.decode(chunk, { stream: true });
    if (t) yield t;
  }
  const rest = dec.decode();
  if (rest) yield rest;
}

/** Field decoding as a small integer, per descriptor row of a run (what the exporter and the reader switch on). */
export const FIELD_UNKNOWN = 0;
export const FIELD_BOOL = 1;
export const FIELD_F32 = 2;
export const FIELD_I32 = 3;
export const FIELD_LINK = 4;
export const FIELD_TEXT = 5;
/** Any other string-block value (Int64, pairs, vectors, curves, Type9): read and written through its JSON value. */
export const FIELD_BLOCK = 6;
const FIELD_CODE: Record<GadbDecoding['kind'], number> = { bool: FIELD_BOOL, f32: FIELD_F32, i32: FIELD_I32, link: FIELD_LINK, text: FIELD_TEXT, fixed: FIELD_BLOCK, curve: FIELD_BLOCK, opaque: FIELD_BLOCK };

/**
 * What the exporter needs of each descriptor row, compiled once for the whole table (typed columns, no object per
 * field: a game-scale table has 362,000 rows): its decoding code and its key as UTF-8 (`"label":`; one array per
 * distinct field name, shared by every row that declares it).
 */
interface ExportRows {
  code: Uint8Array;
  key: Piece[];
}

/** A constant piece of the export's text, written four bytes at a time (`TextWriter.words`). */
interface Piece {
  words: Int32Array;
  n: number;
}
function piece(b: Uint8Array): Piece {
  return { words: littleEndianWords(b), n: b.length };
}

function exportRows(g: Gadb, namer: FieldNamer | undefined): ExportRows {
  const d = g.descriptors;
  const code = new Uint8Array(d.count);
  const key = new Array<Piece>(d.count);
  const byHash = new Map<number, Piece>();
  for (let row = 0; row < d.count; row++) {
    const info = TYPE_INFO[d.typeCode[row]!];
    code[row] = info ? FIELD_CODE[info.decoding.kind] : FIELD_UNKNOWN;
    const h = d.declaredHash[row]!;
    let k = byHash.get(h);
    if (!k) byHash.set(h, (k = piece(utf8Encoder.encode(JSON.stringify(fieldLabel(h, namer)) + ':'))));
    key[row] = k;
  }
  return { code, key };
}

/** True when `b[start..end)` is valid UTF-8 (an ASCII scan first: nearly every game text is ASCII). */
function validUtf8(b: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (b[i]! >= 0x80) return isUtf8(b.subarray(start, end));
  return true;
}

/** Module-local copies of imported constants read in hot loops. */
const NULL = NULL_LINK;

const f32View = new Float32Array(1);
const u32View = new Uint32Array(f32View.buffer);

/**
 * Labels of every record (`Category/Record`, `Category/#i` for a primary; names read as UTF-8, invalid bytes as
 * U+FFFD) and which of them name exactly one record: a link is written as its target's label only then.
 */
class RecordLabels {
  /** Per category: `"` + its name's label bytes, JSON-escaped, + `/`. */
  readonly prefix: Piece[] = [];
  /** Per record: 1 when its label is unique in the document. */
  readonly unique: Uint8Array;
  private readonly catBytes: Uint8Array[] = [];
  /** Label bytes of secondaries whose name is not valid UTF-8 (their U+FFFD form). */
  readonly lossy = new Map<number, Uint8Array>();

  private readonly g: Gadb;
  private readonly ix: ModelIndex;

  constructor(g: Gadb, ix: ModelIndex) {
    this.g = g;
    this.ix = ix;
    const w = new TextWriter({ chunkSize: 256 });
    for (const c of g.categories) {
      const b = labelBytes(blockTextBytes(g, c.nameKey));
      this.catBytes.push(b);
      w.jsonString(b, 0, b.length);
      // `"name"` becomes `"name/`: the record part continues the string.
      const pre = w.take().slice();
      pre[pre.length - 1] = 0x2f;
      this.prefix.push(piece(pre));
    }
    const n = g.records.count;
    this.unique = new Uint8Array(n).fill(1);
    const hashes = new Uint32Array(n);
    let cap = 1024;
    while (cap < n * 2) cap *= 2;
    const slots = new Int32Array(cap).fill(-1);
    const mask = cap - 1;
    const data = g.strings.data;
    for (let c = 0, r = 0; c < g.categories.length; c++) {
      const cat = g.categories[c]!;
      const hc = fnv(fnv(FNV_SEED, this.catBytes[c]!, 0, this.catBytes[c]!.length), SLASH, 0, 1);
      for (let i = 0; i < cat.primaryCount + cat.secondaryCount; i++, r++) {
        let h: number;
        if (i < cat.primaryCount) h = fnvPrimary(hc, i);
        else {
          const key = g.records.nameKey[r]!;
          const t = blockTextBytes(g, key);
          if (validUtf8(data, t.byteOffset - data.byteOffset, t.byteOffset - data.byteOffset + t.length)) h = fnv(hc, t, 0, t.length);
          else {
            const lb = labelBytes(t);
            this.lossy.set(r, lb);
            h = fnv(hc, lb, 0, lb.length);
          }
        }
        hashes[r] = h;
        for (let s = h & mask; ; s = (s + 1) & mask) {
          const o = slots[s]!;
          if (o < 0) {
            slots[s] = r;
            break;
          }
          if (hashes[o] === h && bytesEqual(this.label(o, c), this.label(r, c))) {
            this.unique[o] = 0;
            this.unique[r] = 0;
            break;
          }
        }
      }
    }
  }

  /** The record part of record `r`'s label (bytes after the `/`). */
  recordPart(r: number, c: number): Uint8Array {
    const i = r - this.ix.categoryFirstRecord[c]!;
    if (i < this.g.categories[c]!.primaryCount) return utf8Encoder.encode(`#${i}`);
    return this.lossy.get(r) ?? blockTextBytes(this.g, this.g.records.nameKey[r]!);
  }

  /** The whole label of record `r` as bytes (only for comparing labels whose hashes are equal). */
  private label(r: number, cHint: number): Uint8Array {
    const c = this.ix.recordCategory[r] ?? cHint;
    const a = this.catBytes[c]!;
    const b = this.recordPart(r, c);
    const out = new Uint8Array(a.length + 1 + b.length);
    out.set(a);
    out[a.length] = SLASH[0]!;
    out.set(b, a.length + 1);
    return out;
  }
}

const SLASH = Uint8Array.of(0x2f);

const pieceOf = (text: string): Piece => piece(utf8Encoder.encode(text));
/** The constant pieces of a record line. */
const B_TRUE = pieceOf('true');
const B_NULL = pieceOf('null');
const B_FALSE = pieceOf('false');
const B_NEXT_RECORD = pieceOf(',\n');
const B_NAME = pieceOf('{"name":');
const B_FIRST = pieceOf(',"first":');
const B_OPEN_FIRST = pieceOf('{"first":');
const B_FIELDS = pieceOf(',"fields":');
const B_CELLS = pieceOf(',"cells":');
const B_FLAGS = pieceOf(',"flags":');
const B_UNK0A = pieceOf(',"unk0A":');
const B_VALUES = pieceOf(',"values":{');

/** UTF-8 of a name read as UTF-8 (bytes that are not UTF-8 become U+FFFD): the bytes of its label. */
function labelBytes(b: Uint8Array): Uint8Array {
  return validUtf8(b, 0, b.length) ? b : utf8Encoder.encode(utf8.decode(b));
}

/**
 * The lossless JSON of `g` as UTF-8 chunks of about 1 MiB, written straight into one reused byte buffer: each
 * chunk is a view valid until the next is requested (copy it to keep it). Numbers, labels and texts are written
 * as bytes (texts escaped from the string block's bytes); the text is exactly what `JSON.stringify` of the same
 * values gives.
 */
export function* exportGadbJsonBytes(g: Gadb, options: ExportJsonOptions = {}): Generator<Uint8Array> {
  const ix = indexModel(g);
  const namer = options.namer;
  const labels = new RecordLabels(g, ix);
  const root = g.strings.data.subarray(0, g.strings.itemKeys.length > 0 ? g.strings.itemSizes[0]! : 0);
  const head = {
    format: GADB_JSON_FORMAT,
    version: 1,
    container: g.container,
    header: { version: g.header.version, recordCount: g.header.recordCount, unk14: g.header.unk14, unk20: g.header.unk20, unk24: g.header.unk24 },
    headerExtra: toHex(g.headerExtra),
    headerString: toHex(g.headerString),
    root: toHex(root),
    valueSectionUnk00: g.valueSectionUnk00,
    pairs: Array.from(g.pairs),
  };
  const CHUNK = 1 << 20;
  const w = new TextWriter({ chunkSize: CHUNK + (1 << 16) });
  w.utf8Text(JSON.stringify(head).slice(0, -1) + ',\n"descriptors": [\n');
  const d = g.descriptors;
  const rowColumns = [d.declaredHash, d.sortedHash, d.schemaOrdinal, d.sortedToDeclared, d.typeCode, d.elementCount, d.link];
  for (let k = 0; k < d.count; k++) {
    if (k > 0) w.latin1(',\n');
    for (let i = 0; i < 7; i++) {
      w.byte(i === 0 ? 0x5b : 0x2c);
      w.uint(rowColumns[i]![k]!);
    }
    w.byte(0x5d);
    if (w.pos >= CHUNK) yield w.take();
  }
  w.latin1('\n],\n"categories": [\n');
  const { code: rowCode, key: rowKey } = exportRows(g, namer);
  const elementCount = d.elementCount;
  const fieldLink = d.link;
  const blockText = new Map<number, string>();
  const data = g.strings.data;
  const rec = g.records;
  const dataView = new DataView(data.buffer, data.byteOffset, data.byteLength);
  /**
   * Length of the text at `key`, times 2, + 1 when it is not UTF-8 (then written as hex). An ASCII text (nearly
   * every one) is measured a word at a time up to its NUL — the bytes the copy reads next, so in the cache.
   */
  const textShape = (key: number): number => {
    let i = key;
    if (key <= data.length) {
      for (; i + 4 <= data.length; i += 4) {
        const x = dataView.getInt32(i, true);
        if ((x | ((x - 0x01010101) & ~x)) & 0x80808080) break;
      }
      for (; i < data.length; i++) {
        const c = data[i]!;
        if (c === 0) return (i - key) << 1;
        if (c >= 0x80) break;
      }
      if (i === data.length) return (i - key) << 1;
    }
    const t = blockTextBytes(g, key);
    const at = t.byteOffset - data.byteOffset;
    return (t.length << 1) | (validUtf8(data, at, at + t.length) ? 0 : 1);
  };
  const writeText = (key: number): void => {
    const shape = textShape(key);
    const len = shape >>> 1;
    if ((shape & 1) === 0) w.jsonString(data, key, key + len);
    else w.latin1(`{"hex":"${toHex(data.subarray(key, key + len))}"}`);
  };
  const writeLink = (cell: number): void => {
    const c = cell >>> 20;
    const i = cell & 0xfffff;
    const cat = g.categories[c];
    const r = cat ? ix.categoryFirstRecord[c]! + i : 0;
    if (cell === NULL) w.words(B_NULL.words, B_NULL.n, true);
    else if (!cat || i >= cat.primaryCount + cat.secondaryCount || labels.unique[r] !== 1) {
      w.latin1('{"raw":');
      w.uint(cell);
      w.byte(0x7d);
    } else {
      // The prefix opens the label's string (`"Category/`); the record part closes it.
      const prefix = labels.prefix[c]!;
      w.words(prefix.words, prefix.n);
      if (i < cat.primaryCount) {
        w.byte(0x23);
        w.uint(i);
        w.byte(0x22);
      } else {
        const key = rec.nameKey[r]!;
        const shape = textShape(key);
        if ((shape & 1) === 0) w.jsonString(data, key, key + (shape >>> 1), false);
        else {
          const part = labels.lossy.get(r)!;
          w.jsonString(part, 0, part.length, false);
        }
      }
    }
  };
  let reconBuf = new Uint32Array(1024);
  const cells = g.cells;
  let r = 0;
  for (let c = 0; c < g.categories.length; c++) {
    const cat = g.categories[c]!;
    const catHead = { name: textJson(blockTextBytes(g, cat.nameKey)), typeName: textJson(blockTextBytes(g, cat.typeNameKey)), unk08: textJson(blockTextBytes(g, cat.unk08Key)), sortKey: cat.sortKey, primaryCount: cat.primaryCount };
    w.utf8Text((c > 0 ? ',\n' : '') + JSON.stringify(catHead).slice(0, -1) + ', "records": [\n');
    const total = cat.primaryCount + cat.secondaryCount;
    for (let i = 0; i < total; i++, r++) {
      const base = ix.recordCellStart[r]!;
      const cc = rec.cellCount[r]!;
      if (i > 0) w.words(B_NEXT_RECORD.words, B_NEXT_RECORD.n, true);
      if (i >= cat.primaryCount) {
        w.words(B_NAME.words, B_NAME.n, true);
        writeText(rec.nameKey[r]!);
        w.words(B_FIRST.words, B_FIRST.n, true);
      } else w.words(B_OPEN_FIRST.words, B_OPEN_FIRST.n, true);
      w.uint(rec.firstDescriptor[r]!);
      w.words(B_FIELDS.words, B_FIELDS.n, true);
      w.uint(rec.descriptorCount[r]!);
      w.words(B_CELLS.words, B_CELLS.n, true);
      w.uint(cc);
      w.words(B_FLAGS.words, B_FLAGS.n, true);
      w.uint(rec.flags[r]!);
      w.words(B_UNK0A.words, B_UNK0A.n, true);
      w.uint(rec.unk0A[r]!);
      w.words(B_VALUES.words, B_VALUES.n, true);
      const recon = cc <= reconBuf.length ? reconBuf.fill(0, 0, cc) : (reconBuf = new Uint32Array(cc * 2));
      const first = rec.firstDescriptor[r]!;
      const end = first + rec.descriptorCount[r]!;
      for (let row = first; row < end; row++) {
        const code = rowCode[row]!;
        const count = elementCount[row]!;
        const link = fieldLink[row]!;
        if (row > first) w.byte(0x2c);
        const key = rowKey[row]!;
        w.words(key.words, key.n);
        // A scalar (count 1) is written bare, anything else as a list; an element whose cell lies past the
        // record is left out (the residual keeps such records exact).
        const bare = count === 1 && (code === FIELD_BOOL ? link >>> 5 < cc : link < cc);
        if (!bare) w.byte(0x5b);
        let n = 0;
        for (let e = 0; e < count; e++) {
          const k = link + e;
          if (code === FIELD_BOOL) {
            if (k >>> 5 >= cc) continue;
            if (n++ > 0) w.byte(0x2c);
            const v = (cells[base + (k >>> 5)]! >>> (k & 31)) & 1;
            recon[k >>> 5] = (recon[k >>> 5]! | (v << (k & 31))) >>> 0;
            const b = v === 1 ? B_TRUE : B_FALSE;
            w.words(b.words, b.n, true);
            continue;
          }
          if (k >= cc) continue;
          if (n++ > 0) w.byte(0x2c);
          const cell = cells[base + k]!;
          recon[k] = cell;
          switch (code) {
            case FIELD_F32: {
              u32View[0] = cell;
              const x = f32View[0]!;
              if (x - x !== 0 || cell === 0x80000000) w.latin1(`{"f32":"${hashText(cell)}"}`);
              else if (Number.isInteger(x) && x < 1e15 && x > -1e15) w.int(x);
              else w.latin1(String(x));
              break;
            }
            case FIELD_I32:
              w.int(cell | 0);
              break;
            case FIELD_LINK:
              writeLink(cell);
              break;
            case FIELD_TEXT:
              writeText(cell);
              break;
            case FIELD_BLOCK: {
              const info = TYPE_INFO[g.descriptors.typeCode[row]!]!;
              const dd = info.decoding;
              const ck = info.itemKind * 0x100000000 + cell;
              let bt = blockText.get(ck);
              if (bt === undefined) blockText.set(ck, (bt = JSON.stringify(blockJson(dd, decodeBlockValue(g, dd, cell)))));
              w.utf8Text(bt);
              break;
            }
            default:
              w.uint(cell);
          }
        }
        if (!bare) w.byte(0x5d);
      }
      w.byte(0x7d);
      let noResidual = true;
      for (let k = 0; k < cc; k++) {
        const x = (cells[base + k]! ^ recon[k]!) >>> 0;
        if (x === 0) continue;
        w.latin1(noResidual ? ',"residual":{"' : ',"');
        noResidual = false;
        w.uint(k);
        w.latin1('":');
        w.uint(x);
      }
      if (!noResidual) w.byte(0x7d);
      w.byte(0x7d);
      if (w.pos >= CHUNK) yield w.take();
    }
    w.latin1('\n]}');
  }
  w.latin1('\n]}\n');
  yield w.take();
}

interface JsonRecord {
  name?: unknown;
  first: number;
  fields: number;
  cells: number;
  flags: number;
  unk0A: number;
  values: Record<string, unknown>;
  residual?: Record<string, number>;
}
interface JsonCategoryHead {
  name: unknown;
  typeName: unknown;
  unk08: unknown;
  sortKey: number;
  primaryCount: number;
}
interface JsonCategory extends JsonCategoryHead {
  records: JsonRecord[];
}
interface JsonHead {
  format: string;
  version: number;
  container: Gadb['container'];
  header: { version: number; recordCount: number; unk14: number; unk20: number; unk24: number };
  headerExtra: string;
  headerString: string;
  root: string;
  valueSectionUnk00: number;
  pairs: number[];
}
interface JsonDoc extends JsonHead {
  descriptors: number[][];
  categories: JsonCategory[];
}

export interface ImportJsonOptions {
  hasher?: NameHasher;
}

/** Rebuilds a model from `exportGadbJson`'s document (already `JSON.parse`d). Field names are hashed with `hasher`. */
export function importGadbJson(doc: unknown, options: ImportJsonOptions = {}): Gadb {
  const j = doc as JsonDoc;
  const b = new GadbJsonBuilder(j, options);
  if (!Array.isArray(j.descriptors)) throw new FormatError('gadb-json', 0, '/descriptors', 'expected an array of rows');
  if (!Array.isArray(j.categories)) throw new FormatError('gadb-json', 0, '/categories', 'expected an array of categories');
  j.descriptors.forEach((row, k) => b.descriptor(row, k));
  b.endDescriptors();
  j.categories.forEach((c, ci) => {
    if (!c || typeof c !== 'object' || !Array.isArray(c.records)) throw new FormatError('gadb-json', 0, `/categories/${ci}`, 'expected a category with "records"');
    b.category(c, ci);
    c.records.forEach((r, ri) => b.record(r, ri));
  });
  return b.finish();
}

/**
 * Reads the lossless JSON straight from its UTF-8 bytes — one buffer or a stream of chunks (a file read piece by
 * piece) — into a model, without the document ever existing as one string or one object tree: records in the
 * exporter's member order are read token by token into the model's columns (no JavaScript value per record, field
 * or cell); a record whose members come in another order is read as a value. The same model as
 * `importGadbJson(JSON.parse(text))`. The document must have the exporter's order where it matters (`descriptors`
 * before `categories`, a category's `records` last); malformed JSON is a `JsonSyntaxError` (offset, line, column,
 * and where in the document), a well-formed document of the wrong shape a `FormatError`.
 */
export function readGadbJson(input: Iterable<Uint8Array> | Uint8Array, options: ImportJsonOptions = {}): Gadb {
  const r = new JsonReader(input, { format: 'gadb-json' });
  r.enterObject();
  const head: Record<string, unknown> = {};
  let b: GadbJsonBuilder | null = null;
  let descriptorsDone = false;
  let categoriesDone = false;
  for (let key = r.nextKey(); key !== null; key = r.nextKey()) {
    if (key === 'descriptors') {
      if (b || descriptorsDone) throw r.error('"descriptors" given twice');
      b = new GadbJsonBuilder(head as unknown as JsonHead, options);
      r.enterArray();
      for (let k = 0; r.nextElement(); k++) b.readDescriptor(r, k);
      b.endDescriptors();
      descriptorsDone = true;
    } else if (key === 'categories') {
      if (!b) throw r.error('"categories" before "descriptors" (the streaming reader needs the exporter\'s order)');
      if (categoriesDone) throw r.error('"categories" given twice');
      r.enterArray();
      for (let ci = 0; r.nextElement(); ci++) {
        r.enterObject();
        const c: Record<string, unknown> = {};
        let hadRecords = false;
        for (let ck = r.nextKey(); ck !== null; ck = r.nextKey()) {
          if (ck !== 'records') {
            if (hadRecords) throw r.error(`category member "${ck}" after "records" (the streaming reader needs "records" last)`);
            c[ck] = r.value();
            continue;
          }
          if (hadRecords) throw r.error('"records" given twice');
          hadRecords = true;
          b.category(c as unknown as JsonCategoryHead, ci);
          r.enterArray();
          for (let ri = 0; r.nextElement(); ri++) b.readRecord(r, ri);
        }
        if (!hadRecords) throw new FormatError('gadb-json', r.offset, `/categories/${ci}`, 'a category without "records"');
      }
      categoriesDone = true;
    } else {
      if (b) throw r.error(`top-level member "${key}" after "descriptors" (the streaming reader needs the exporter's order)`);
      head[key] = r.value();
    }
  }
  r.finish();
  // A document that is not this format says so before saying what it lacks.
  if (!b) new GadbJsonBuilder(head as unknown as JsonHead, options);
  if (!b || !categoriesDone) throw new FormatError('gadb-json', r.offset, '/', 'missing "descriptors" or "categories"');
  return b.finish();
}

type Column = Uint32Array | Uint16Array | Uint8Array;
const DESCRIPTOR_COLUMNS = ['declaredHash', 'sortedHash', 'schemaOrdinal', 'sortedToDeclared', 'typeCode', 'elementCount', 'link'] as const;
const RECORD_COLUMNS = ['nameKey', 'cellCount', 'descriptorCount', 'firstDescriptor', 'unk0A', 'flags'] as const;

/** Replaces each listed column of `t` by `f` of it (grown, or cut to size: the same kind of array back). */
function eachColumn<K extends string>(t: { [k in K]: Column }, keys: readonly K[], f: (a: Column) => Column): void {
  for (const k of keys) t[k] = f(t[k]);
}

/** The first `n` elements of column `a`: itself when it holds exactly `n`, else a copy of them. */
function exact<T extends Uint32Array | Uint16Array | Uint8Array>(a: T, n: number): T {
  return a.length === n ? a : (a.slice(0, n) as T);
}

/** Growable column (by a quarter: a game-scale cell column is 40 MB). */
function grow<T extends Uint32Array | Uint16Array | Uint8Array>(a: T, need: number): T {
  if (need <= a.length) return a;
  const next = new (a.constructor as new (n: number) => T)(Math.max(need, Math.floor(a.length * 1.25), 1024));
  next.set(a);
  return next;
}

/**
 * A run compiled for reading (its fields are descriptor rows `first … first + n - 1`): per field its decoding
 * code and its key as last seen, quoted with its `:` (`quotedKey`; the exporter repeats it, so the next field's
 * key is matched as bytes with `nextKeyIs`).
 */
interface ImportRun {
  first: number;
  n: number;
  /**
   * Where its fields start in the builder's `runFields` (two words per field: code | item kind << 8 | count << 16,
   * then link — copied from its descriptor row, one table for every run: the run is read by every record that has
   * it, its rows are not, and 13,600 runs of small typed arrays would cost the heap more than the rows).
   */
  at: number;
  keyBytes: (QuotedKey | undefined)[];
}


/** Type info per type byte (a table instead of a lookup per element). */
const TYPE_INFO: (GadbTypeInfo | undefined)[] = Array.from({ length: 256 }, (_, b) => gadbTypeInfo(b));

const KEY = (s: string): Uint8Array => utf8Encoder.encode(s);
const K_NAME = KEY('name');
const K_FIRST = KEY('first');
const K_FIELDS = KEY('fields');
const K_CELLS = KEY('cells');
const K_FLAGS = KEY('flags');
const K_UNK0A = KEY('unk0A');
const K_VALUES = KEY('values');
const K_RESIDUAL = KEY('residual');
const M_VALUES = 0;
const M_NAME = 1;
const M_FIRST = 2;
const M_FIELDS = 3;
const M_CELLS = 4;
const M_FLAGS = 5;
const M_UNK0A = 6;
const M_RESIDUAL = 7;
const M_OTHER = 8;
/** Per member code: its key as the exporter writes it (`"first":`), and the member the exporter writes after it. */
const MEMBER_KEY = [K_VALUES, K_NAME, K_FIRST, K_FIELDS, K_CELLS, K_FLAGS, K_UNK0A, K_RESIDUAL].map((k) => quotedKey(k, 0, k.length)!);
const MEMBER_NEXT = Uint8Array.of(M_RESIDUAL, M_FIRST, M_FIELDS, M_CELLS, M_FLAGS, M_UNK0A, M_VALUES, M_OTHER);

function spanIs(r: JsonReader, k: Uint8Array): boolean {
  const n = k.length;
  if (r.spanEnd - r.spanStart !== n) return false;
  const b = r.spanBuf;
  const s = r.spanStart;
  for (let i = 0; i < n; i++) if (b[s + i] !== k[i]) return false;
  return true;
}

/** Whether `quoted` (from `quotedKey`) is the key in `r`'s span. */
function quotedIs(key: QuotedKey, r: JsonReader): boolean {
  const quoted = key.bytes;
  const n = r.spanEnd - r.spanStart;
  if (quoted.length !== n + 3) return false;
  const b = r.spanBuf;
  const s = r.spanStart;
  for (let i = 0; i < n; i++) if (b[s + i] !== quoted[i + 1]) return false;
  return true;
}

function isUint(v: unknown, max: number): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= max;
}

/** The container as the export writes it: `{ kind: 'bare' }` or `{ kind: 'wrapped', magic, version }`. */
function isContainer(v: unknown): v is Gadb['container'] {
  if (!v || typeof v !== 'object') return false;
  const c = v as Record<string, unknown>;
  if (c['kind'] === 'bare') return true;
  return c['kind'] === 'wrapped' && typeof c['magic'] === 'string' && c['magic'].length === 4 && isUint(c['version'], 0xffffffff);
}

/** Builds the model from the document's parts, in document order (shared by the parsed and the streaming import). */
class GadbJsonBuilder {
  readonly g: Gadb;
  private readonly hasher: NameHasher;
  private readonly items: BlockItems;
  private readonly labels: LabelTable;
  private nRows = 0;
  private nRecords = 0;
  private nCells = 0;
  private ci = -1;
  private primaryCount = 0;
  private readonly fieldHashes = new Map<string, number>();
  private readonly runs = new Map<number, ImportRun>();
  private runFields = new Uint32Array(1024);
  private nRunFields = 0;
  private readonly keyOfHash = new Map<number, QuotedKey | undefined>();
  /** Cells holding a label entry, to be resolved when every record is known (links to later records). */
  private deferred = new Uint32Array(0);
  private seen = new Uint8Array(256);
  /** The field being read (for error paths): record index in its category and field index in its run. */
  private curRecord = 0;
  private curField = -1;
  private curRun: ImportRun | null = null;

  constructor(j: JsonHead, options: ImportJsonOptions) {
    this.hasher = options.hasher ?? p919Hasher();
    if (!j || typeof j !== 'object' || j.format !== GADB_JSON_FORMAT || j.version !== 1) {
      throw new FormatError('gadb-json', 0, '/format', `not a ${GADB_JSON_FORMAT} version 1 document`);
    }
    for (const k of ['root', 'headerExtra', 'headerString'] as const) if (typeof j[k] !== 'string') throw new FormatError('gadb-json', 0, `/${k}`, 'expected a hex string');
    if (!j.header || typeof j.header !== 'object') throw new FormatError('gadb-json', 0, '/header', 'expected the header object');
    for (const k of ['version', 'recordCount', 'unk14', 'unk20', 'unk24'] as const) if (!isUint(j.header[k], 0xffffffff)) throw new FormatError('gadb-json', 0, `/header/${k}`, 'expected an unsigned 32-bit integer');
    if (!isContainer(j.container)) throw new FormatError('gadb-json', 0, '/container', 'expected {"kind":"bare"} or {"kind":"wrapped","magic":4 characters,"version":u32}');
    if (!isUint(j.valueSectionUnk00, 0xffffffff)) throw new FormatError('gadb-json', 0, '/valueSectionUnk00', 'expected an unsigned 32-bit integer');
    if (!Array.isArray(j.pairs) || !j.pairs.every((x) => isUint(x, 0xffffffff))) throw new FormatError('gadb-json', 0, '/pairs', 'expected an array of unsigned 32-bit integers');
    const hexOf = (k: 'root' | 'headerExtra' | 'headerString'): Uint8Array => {
      try {
        return fromHex(j[k]);
      } catch {
        throw new FormatError('gadb-json', 0, `/${k}`, 'expected a hex string');
      }
    };
    const root = hexOf('root');
    // The records a file holds are the header's recordCount + unk14 (as parseGadb reads them): the columns' and
    // the label table's size when the header is right, only a first size otherwise (they grow).
    const hint = Math.max(16, Math.min(j.header.recordCount + j.header.unk14, 1 << 22));
    const g: Gadb = {
      container: j.container,
      header: { version: j.header.version, stringBlockSize: 0, categoryCount: 0, recordCount: j.header.recordCount, unk14: j.header.unk14, cellCount: 0, descriptorCount: 0, unk20: j.header.unk20, unk24: j.header.unk24, headerSize: 0x2c, headerStringLength: 0 },
      headerExtra: hexOf('headerExtra'),
      headerString: hexOf('headerString'),
      strings: { data: root.slice(), itemKeys: Uint32Array.of(0), itemSizes: Uint32Array.of(root.length) },
      // Rows of capacity, none used yet: a document holds about half a row per record (the game: 362,000 for 694,632).
      descriptors: { ...newGadbDescriptors(Math.max(1024, hint)), count: 0 },
      valueSectionUnk00: j.valueSectionUnk00,
      categories: [],
      records: { count: 0, nameKey: new Uint32Array(hint), cellCount: new Uint16Array(hint), descriptorCount: new Uint8Array(hint), firstDescriptor: new Uint32Array(hint), unk0A: new Uint8Array(hint), flags: new Uint8Array(hint) },
      cells: new Uint32Array(hint * 15),
      pairs: Uint32Array.from(j.pairs),
    };
    g.header.headerSize = 0x2c + g.headerExtra.length;
    g.header.headerStringLength = g.headerString.length;
    this.g = g;
    this.items = new BlockItems(root, hint);
    this.labels = new LabelTable(this.items, hint);
  }

  private row(k: number): number {
    const d = this.g.descriptors;
    if (k !== this.nRows) throw new Error('descriptor rows out of order');
    this.nRows++;
    if (k >= d.declaredHash.length) {
      const n = k + 1;
      eachColumn(d, DESCRIPTOR_COLUMNS, (a) => grow(a, n));
    }
    return k;
  }

  private setRow(k: number, v: ArrayLike<number>, row: number, at: number): void {
    for (let i = 0; i < 7; i++) {
      if (!isUint(v[i], ROW_MAX[i]!)) throw new FormatError('gadb-json', at, `/descriptors/${row}`, `row element ${i} must be an integer 0..${ROW_MAX[i]}, got ${JSON.stringify(v[i])}`);
    }
    const d = this.g.descriptors;
    d.declaredHash[k] = v[0]!;
    d.sortedHash[k] = v[1]!;
    d.schemaOrdinal[k] = v[2]!;
    d.sortedToDeclared[k] = v[3]!;
    d.typeCode[k] = v[4]!;
    d.elementCount[k] = v[5]!;
    d.link[k] = v[6]!;
  }

  descriptor(row: unknown, k: number): void {
    const where = (): string => `/descriptors/${k}`;
    if (!Array.isArray(row) || row.length !== 7) throw new FormatError('gadb-json', 0, where(), 'expected a row of 7 integers');
    this.setRow(this.row(k), row as number[], k, 0);
  }

  private readonly rowScratch = new Float64Array(7);

  /** A descriptor row read token by token: `[a,b,c,d,e,f,g]`. */
  readDescriptor(r: JsonReader, k: number): void {
    const at = r.offset;
    try {
      r.expectByte(0x5b, 'a row [ … ]');
      const v = this.rowScratch;
      for (let i = 0; i < 7; i++) {
        if (i > 0) r.expectByte(0x2c, ', (a row has 7 integers)');
        v[i] = r.numberValue();
      }
      r.expectByte(0x5d, '] (a row has 7 integers)');
      this.setRow(this.row(k), v, k, at);
    } catch (e) {
      throw e instanceof JsonSyntaxError && !e.path ? e.at(`/descriptors/${k}`) : e;
    }
  }

  endDescriptors(): void {
    const d = this.g.descriptors;
    const n = this.nRows;
    d.count = n;
    // Views of the columns when they fill a quarter of them or more (the room never written costs no memory).
    eachColumn(d, DESCRIPTOR_COLUMNS, (a) => (a.length <= 4 * n ? a.subarray(0, n) : a.slice(0, n)));
    this.g.header.descriptorCount = n;
  }

  /** The key of the text item (of `kind`) a document value names: a string, or `{ "hex": … }`. */
  private text(v: unknown, where: () => string, kind: number = GadbItemKind.Text): number {
    const b = textFromJson(v, where);
    return this.items.text(kind, b, 0, b.length);
  }

  category(c: JsonCategoryHead, ci: number): void {
    const where = (): string => `/categories/${ci}`;
    if (!c || typeof c !== 'object') throw new FormatError('gadb-json', 0, where(), 'expected a category object');
    if (!isUint(c.primaryCount, 0xfffff)) throw new FormatError('gadb-json', 0, `${where()}/primaryCount`, 'expected an integer 0..1048575');
    if (!isUint(c.sortKey, 0xffffffff)) throw new FormatError('gadb-json', 0, `${where()}/sortKey`, 'expected an unsigned 32-bit integer');
    if (ci > 0xfff) throw new FormatError('gadb-json', 0, where(), 'more than 4096 categories (a link cannot name them)');
    this.ci = ci;
    this.primaryCount = c.primaryCount;
    const nameBytes = textFromJson(c.name, () => `${where()}/name`);
    this.labels.addCategory(labelBytes(nameBytes), c.primaryCount);
    // secondaryCount grows with each record (primaryCount + secondaryCount = the records given).
    const cat: GadbCategory = { nameKey: this.items.text(GadbItemKind.Text, nameBytes, 0, nameBytes.length), typeNameKey: this.text(c.typeName, () => `${where()}/typeName`), unk08Key: this.text(c.unk08, () => `${where()}/unk08`), primaryCount: c.primaryCount, secondaryCount: -c.primaryCount, sortKey: c.sortKey };
    this.g.categories.push(cat);
  }

  private recordPathOf(ri: number): string {
    return `/categories/${this.ci}/records/${ri}`;
  }

  /**
   * Starts record `ri` of the current category: checks its header members, allocates its row and cells, defines
   * its label. Returns its compiled run.
   */
  private beginRecord(ri: number, first: unknown, fields: unknown, cells: unknown, flags: unknown, unk0A: unknown, nameKey: number, nameLen: number, lossy: Uint8Array | undefined, at: number): ImportRun {
    if (!isUint(fields, 255)) throw new FormatError('gadb-json', at, `${this.recordPathOf(ri)}/fields`, 'expected an integer 0..255');
    if (!isUint(first, 0xffffffff) || first + fields > this.nRows) throw new FormatError('gadb-json', at, `${this.recordPathOf(ri)}/first`, `expected a descriptor row (${this.nRows} rows) with "fields" rows after it`);
    if (!isUint(cells, 0xffff)) throw new FormatError('gadb-json', at, `${this.recordPathOf(ri)}/cells`, 'expected an integer 0..65535');
    if (!isUint(flags, 255)) throw new FormatError('gadb-json', at, `${this.recordPathOf(ri)}/flags`, 'expected an integer 0..255');
    if (!isUint(unk0A, 255)) throw new FormatError('gadb-json', at, `${this.recordPathOf(ri)}/unk0A`, 'expected an integer 0..255');
    if (ri > 0xfffff) throw new FormatError('gadb-json', at, this.recordPathOf(ri), 'more than 1048576 records in a category (a link cannot name them)');
    const g = this.g;
    const r = this.nRecords++;
    const rec = g.records;
    if (r >= rec.nameKey.length) {
      const n = r + 1;
      eachColumn(rec, RECORD_COLUMNS, (a) => grow(a, n));
    }
    g.categories[this.ci]!.secondaryCount = ri + 1 - this.primaryCount;
    if (!this.labels.define(this.ci, ri, nameKey, nameLen, lossy)) throw new FormatError('gadb-json', at, this.recordPathOf(ri), 'a second record with the label of a record a link names (the link is ambiguous)');
    rec.nameKey[r] = nameKey;
    rec.firstDescriptor[r] = first;
    rec.descriptorCount[r] = fields;
    rec.cellCount[r] = cells;
    rec.flags[r] = flags;
    rec.unk0A[r] = unk0A;
    this.nCells += cells;
    if (this.nCells > g.cells.length) g.cells = grow(g.cells, this.nCells);
    const runKey = first * 256 + fields;
    let run = this.runs.get(runKey);
    if (!run) {
      const at = this.nRunFields;
      this.nRunFields += 2 * fields;
      if (this.nRunFields > this.runFields.length) this.runFields = grow(this.runFields, this.nRunFields);
      const words = this.runFields;
      const d = g.descriptors;
      for (let fi = 0; fi < fields; fi++) {
        const row = first + fi;
        const info = TYPE_INFO[d.typeCode[row]!];
        const code = info ? FIELD_CODE[info.decoding.kind] : FIELD_UNKNOWN;
        words[at + 2 * fi] = (code | ((info?.itemKind ?? 0) << 8) | (d.elementCount[row]! << 16)) >>> 0;
        words[at + 2 * fi + 1] = d.link[row]!;
      }
      run = { first, n: fields, at, keyBytes: new Array<QuotedKey | undefined>(fields).fill(undefined) };
      // Keys already met under another run: a field's key is known from its hash (13,613 runs share the game's
      // fields), so its first record here matches it as bytes instead of decoding and hashing the label. Only a
      // hash's first field in the run (the one `fieldOfHash` finds), as when the key is read.
      for (let fi = 0; fi < fields; fi++) {
        const kb = this.keyOfHash.get(d.declaredHash[first + fi]!);
        if (kb && this.fieldOfHash(run, d.declaredHash[first + fi]!) === fi) run.keyBytes[fi] = kb;
      }
      this.runs.set(runKey, run);
    }
    return run;
  }

  /** The field of `run` with hash `h` (its first, as the engine's lookup finds), or -1. */
  private fieldOfHash(run: ImportRun, h: number): number {
    const hashes = this.g.descriptors.declaredHash;
    for (let fi = 0; fi < run.n; fi++) if (hashes[run.first + fi] === h) return fi;
    return -1;
  }

  /** Record `jr` (a parsed value) as record `ri` of the current category. */
  record(jr: JsonRecord, ri: number): void {
    const rw = (): string => this.recordPathOf(ri);
    if (!jr || typeof jr !== 'object' || !jr.values || typeof jr.values !== 'object') throw new FormatError('gadb-json', 0, rw(), 'expected a record object with "values"');
    let nameKey = 0;
    let nameLen = 0;
    let lossy: Uint8Array | undefined;
    if (ri >= this.primaryCount) {
      const b = textFromJson(jr.name, () => `${rw()}/name`);
      nameKey = this.items.text(GadbItemKind.Text, b, 0, b.length);
      nameLen = b.length;
      const lb = labelBytes(b);
      if (lb !== b) lossy = lb;
    }
    const run = this.beginRecord(ri, jr.first, jr.fields, jr.cells, jr.flags, jr.unk0A, nameKey, nameLen, lossy, 0);
    const cc = jr.cells;
    const base = this.nCells - cc;
    const values = jr.values;
    const seen = this.seen.fill(0, 0, run.n);
    const D = this.g.descriptors;
    for (const label in values) {
      const fi = this.fieldOfHash(run, this.hashOfLabel(label, ri));
      if (fi < 0) throw new FormatError('gadb-json', 0, `${rw()}/values/${label}`, 'not a field of this record\'s descriptor run');
      seen[fi] = 1;
      const code = this.runFields[run.at + 2 * fi]! & 0xff;
      const raw = values[label];
      const fw = (): string => `${rw()}/values/${label}`;
      const f = { count: D.elementCount[run.first + fi]!, link: D.link[run.first + fi]! };
      const bare = f.count === 1 && (code === FIELD_BOOL ? f.link >>> 5 < cc : f.link < cc);
      const elems = bare && !(Array.isArray(raw) && code !== FIELD_BLOCK) ? [raw] : raw;
      if (!Array.isArray(elems)) throw new FormatError('gadb-json', 0, fw(), 'expected an array of elements');
      if (elems.length > f.count) throw new FormatError('gadb-json', 0, fw(), `more than the field's ${f.count} element(s)`);
      for (let e = 0; e < elems.length; e++) this.setElement(run, fi, e, base, cc, elems[e], fw);
    }
    this.checkSeen(run, ri, 0);
    if (jr.residual !== undefined) {
      if (!jr.residual || typeof jr.residual !== 'object') throw new FormatError('gadb-json', 0, `${rw()}/residual`, 'expected an object of cell: bits');
      for (const [k, x] of Object.entries(jr.residual)) this.residual(base, cc, k, x, () => `${rw()}/residual/${k}`, 0);
    }
  }

  private checkSeen(run: ImportRun, ri: number, at: number): void {
    for (let fi = 0; fi < run.n; fi++) {
      if (this.seen[fi] === 0) throw new FormatError('gadb-json', at, `${this.recordPathOf(ri)}/values`, `missing field ${fieldLabel(this.g.descriptors.declaredHash[run.first + fi]!)}`);
    }
  }

  private residual(base: number, cc: number, k: string, x: unknown, where: () => string, at: number): void {
    const cell = /^(0|[1-9]\d{0,4})$/.test(k) ? Number(k) : -1;
    if (cell < 0 || cell >= cc) throw new FormatError('gadb-json', at, where(), `not a cell of this record (it has ${cc})`);
    if (!isUint(x, 0xffffffff)) throw new FormatError('gadb-json', at, where(), 'expected an unsigned 32-bit integer');
    this.g.cells[base + cell] = (this.g.cells[base + cell]! ^ x) >>> 0;
  }

  /** Element `e` of field `fi` from a parsed value. */
  private setElement(run: ImportRun, fi: number, e: number, base: number, cc: number, v: unknown, fw: () => string): void {
    const code = this.runFields[run.at + 2 * fi]! & 0xff;
    const row = run.first + fi;
    const info = TYPE_INFO[this.g.descriptors.typeCode[row]!];
    const k = this.g.descriptors.link[row]! + e;
    const cells = this.g.cells;
    if (code === FIELD_BOOL) {
      if (k >>> 5 >= cc) throw new FormatError('gadb-json', 0, fw(), `element ${e} lies past the record's ${cc} cell(s)`);
      if (typeof v !== 'boolean') throw new FormatError('gadb-json', 0, fw(), `expected true or false, got ${describeValue(v)}`);
      const w = base + (k >>> 5);
      cells[w] = v ? (cells[w]! | (1 << (k & 31))) >>> 0 : (cells[w]! & ~(1 << (k & 31))) >>> 0;
      return;
    }
    if (k >= cc) throw new FormatError('gadb-json', 0, fw(), `element ${e} lies past the record's ${cc} cell(s)`);
    const at = base + k;
    switch (code) {
      case FIELD_F32:
        cells[at] = f32Bits(floatFromJson(v, fw));
        return;
      case FIELD_I32:
      case FIELD_UNKNOWN:
        if (typeof v !== 'number') throw new FormatError('gadb-json', 0, fw(), `expected a number, got ${describeValue(v)}`);
        cells[at] = v >>> 0;
        return;
      case FIELD_LINK:
        if (v === null) cells[at] = NULL;
        else if (typeof v === 'string') {
          const b = utf8Encoder.encode(v);
          this.setLink(at, this.labels.ref(b, 0, b.length), 0);
        } else if (v && typeof v === 'object' && isUint((v as { raw: unknown }).raw, 0xffffffff)) cells[at] = (v as { raw: number }).raw;
        else throw new FormatError('gadb-json', 0, fw(), `expected a link ("Category/Record", null or { "raw": n }), got ${describeValue(v)}`);
        return;
      case FIELD_TEXT:
        cells[at] = this.text(v, fw, info!.itemKind);
        return;
      default: {
        const d = info!.decoding;
        let bytes: Uint8Array;
        try {
          bytes = encodeBlockValue(d, blockFromJson(d, v, fw), fw());
        } catch (err) {
          if (err instanceof FormatError) throw err;
          throw new FormatError('gadb-json', 0, fw(), `bad value ${describeValue(v)}: ${err instanceof Error ? err.message : String(err)}`);
        }
        cells[at] = this.items.item(info!.itemKind, bytes);
      }
    }
  }

  /** A link cell naming label entry `id`: its target now, or later (a record further on) — or an ambiguity. */
  private setLink(at: number, id: number, offset: number): void {
    const t = this.labels.target(id);
    if (t >= 0) {
      this.g.cells[at] = t;
      return;
    }
    if (t === -2) throw new FormatError('gadb-json', offset, this.curPath(), `link target ${JSON.stringify(this.labels.text(id))} names more than one record`);
    this.g.cells[at] = id;
    // One bit per cell (an eighth of a list of cell indexes: a game-scale document has 0.94 M such links).
    const w = at >>> 5;
    if (w >= this.deferred.length) this.deferred = grow(this.deferred, Math.max(w + 1, (this.g.cells.length >>> 5) + 1));
    this.deferred[w] = this.deferred[w]! | (1 << (at & 31));
  }

  private hashOfLabel(label: string, ri: number): number {
    let h = this.fieldHashes.get(label);
    if (h === undefined) {
      try {
        h = parseHash(label) ?? this.hasher(label) >>> 0;
      } catch (e) {
        throw new FormatError('gadb-json', 0, `${this.recordPathOf(ri)}/values/${label}`, `field name cannot be hashed: ${(e as Error).message}`);
      }
      this.fieldHashes.set(label, h);
    }
    return h;
  }

  /**
   * Record `ri` read token by token straight into the columns: members in the exporter's order (`name`, `first`,
   * `fields`, `cells`, `flags`, `unk0A`, then `values` and `residual`); a record that gives `values` before
   * `first`, `fields` and `cells` is read as a value instead.
   */
  readRecord(r: JsonReader, ri: number): void {
    this.curRecord = ri;
    this.curField = -1;
    this.curRun = null;
    try {
      this.readRecordTokens(r, ri);
    } catch (e) {
      if (e instanceof JsonSyntaxError && !e.path) throw e.at(this.curPath());
      throw e;
    }
  }

  /**
   * `curPath` as a thunk made once: the readers of every element pass it for their error paths, and an arrow
   * function written there would make each call allocate a context for `this` on entry (8.5 M elements at game
   * scale: ~400 MB of garbage), whether the error path runs or not.
   */
  private readonly curPathOf = (): string => this.curPath();

  private curPath(): string {
    const p = this.recordPathOf(this.curRecord);
    if (this.curField < 0 || !this.curRun) return p;
    return `${p}/values/${fieldLabel(this.g.descriptors.declaredHash[this.curRun.first + this.curField]!)}`;
  }

  private readRecordTokens(r: JsonReader, ri: number): void {
    const at = r.offset;
    r.expectByte(0x7b, 'a record object');
    let first: unknown;
    let fields: unknown;
    let cells: unknown;
    // Every header member is required, as by importGadbJson: a misspelt one is missing, never a silent 0.
    let flags: unknown;
    let unk0A: unknown;
    let nameKey = 0;
    let nameLen = 0;
    let nameValue: unknown;
    let lossy: Uint8Array | undefined;
    let run: ImportRun | null = null;
    let base = 0;
    let cc = 0;
    let sawResidual = false;
    // The member the exporter writes next (a primary has no name), matched as bytes before any other is tried.
    let expected = ri < this.primaryCount ? M_FIRST : M_NAME;
    for (let m = 0; ; m++) {
      const k = r.nextKeyIs(m === 0, expected < M_OTHER ? MEMBER_KEY[expected] : undefined);
      if (k < 0) break;
      let member = expected;
      if (k === 0) {
        r.stringBytes();
        // Which member, decided before reading on (the span is valid until the next read).
        member = spanIs(r, K_VALUES) ? M_VALUES : spanIs(r, K_NAME) ? M_NAME : spanIs(r, K_FIRST) ? M_FIRST : spanIs(r, K_FIELDS) ? M_FIELDS : spanIs(r, K_CELLS) ? M_CELLS : spanIs(r, K_FLAGS) ? M_FLAGS : spanIs(r, K_UNK0A) ? M_UNK0A : spanIs(r, K_RESIDUAL) ? M_RESIDUAL : M_OTHER;
        r.expectByte(0x3a, ':');
      }
      if (member !== M_OTHER) expected = MEMBER_NEXT[member]!;
      if (member === M_VALUES) {
        if (run) throw r.error('"values" given twice');
        if (first === undefined || fields === undefined || cells === undefined) {
          // Not the exporter's order: the rest of the record as a value.
          const jr: Record<string, unknown> = { first, fields, cells, flags, unk0A, values: r.value() };
          if (nameValue !== undefined) jr['name'] = nameValue === NAME_IN_ITEMS ? utf8.decode(this.items.data.subarray(nameKey, nameKey + nameLen)) : nameValue;
          this.finishAsValue(r, jr, ri);
          return;
        }
        // A secondary's name is required, as by importGadbJson (a misspelt key would import an empty name).
        if (nameValue === undefined && ri >= this.primaryCount) throw new FormatError('gadb-json', at, `${this.recordPathOf(ri)}/name`, 'a record without "name"');
        run = this.beginRecord(ri, first, fields, cells, flags, unk0A, nameKey, nameLen, lossy, at);
        cc = cells as number;
        base = this.nCells - cc;
        this.readValues(r, run, base, cc);
      } else if (member === M_NAME) {
        if (ri < this.primaryCount) {
          nameValue = r.value(); // a primary has no name (the exporter writes none); kept for the value path
          continue;
        }
        if (r.peekByte() === 0x22) {
          r.stringBytes();
          nameLen = r.spanEnd - r.spanStart;
          nameKey = this.items.text(GadbItemKind.Text, r.spanBuf, r.spanStart, r.spanEnd);
          nameValue = NAME_IN_ITEMS;
        } else {
          nameValue = r.value();
          const b = textFromJson(nameValue, () => `${this.recordPathOf(ri)}/name`);
          nameKey = this.items.text(GadbItemKind.Text, b, 0, b.length);
          nameLen = b.length;
          const lb = labelBytes(b);
          if (lb !== b) lossy = lb;
        }
      } else if (member === M_FIRST) first = this.headerNumber(r, run);
      else if (member === M_FIELDS) fields = this.headerNumber(r, run);
      else if (member === M_CELLS) cells = this.headerNumber(r, run);
      else if (member === M_FLAGS) flags = this.headerNumber(r, run);
      else if (member === M_UNK0A) unk0A = this.headerNumber(r, run);
      else if (member === M_RESIDUAL) {
        if (!run) throw r.error('"residual" before "values"');
        if (sawResidual) throw r.error('"residual" given twice');
        sawResidual = true;
        this.readResidual(r, base, cc);
      } else r.value(); // a member this format does not have: ignored, as by JSON.parse + importGadbJson
    }
    if (!run) {
      if (first === undefined && fields === undefined && cells === undefined && nameValue === undefined) throw r.error('expected a record with "values"');
      throw new FormatError('gadb-json', at, this.recordPathOf(ri), 'a record without "values"');
    }
  }

  private headerNumber(r: JsonReader, run: ImportRun | null): unknown {
    if (run) throw r.error('record header member after "values" (the exporter writes it before)');
    return r.peekByte() === 0x2d || (r.peekByte() >= 0x30 && r.peekByte() <= 0x39) ? r.numberValue() : r.value();
  }

  /** The rest of a record whose members are not in the exporter's order, read as a value. */
  private finishAsValue(r: JsonReader, jr: Record<string, unknown>, ri: number): void {
    while (r.nextKeyBytes(false)) {
      const key = utf8.decode(r.spanBuf.subarray(r.spanStart, r.spanEnd));
      r.expectByte(0x3a, ':');
      const v = r.value();
      if (key !== '__proto__') jr[key] = v;
    }
    this.record(jr as unknown as JsonRecord, ri);
  }

  private readValues(r: JsonReader, run: ImportRun, base: number, cc: number): void {
    const ri = this.curRecord;
    r.expectByte(0x7b, 'the values object');
    const n = run.n;
    const seen = this.seen.fill(0, 0, n);
    this.curRun = run;
    let expected = 0;
    for (let m = 0; ; m++) {
      // The field after the last one read, as the exporter orders them: its key is matched as bytes.
      const k = r.nextKeyIs(m === 0, expected < n ? run.keyBytes[expected] : undefined);
      if (k < 0) break;
      let fi = expected;
      if (k === 0) {
        r.stringBytes();
        const label = utf8.decode(r.spanBuf.subarray(r.spanStart, r.spanEnd));
        const h = this.hashOfLabel(label, ri);
        fi = this.fieldOfHash(run, h);
        if (fi < 0) throw r.error(`${JSON.stringify(label)} is not a field of this record's descriptor run`, r.offset, `${this.recordPathOf(ri)}/values/${label}`);
        // One copy of the key bytes per field hash, shared by every run that declares it.
        let kb = this.keyOfHash.get(h);
        if (!kb || !quotedIs(kb, r)) this.keyOfHash.set(h, (kb = quotedKey(r.spanBuf, r.spanStart, r.spanEnd)));
        run.keyBytes[fi] = kb;
        r.expectByte(0x3a, ':');
      }
      this.curField = fi;
      this.readField(r, run, fi, base, cc);
      seen[fi] = 1;
      expected = fi + 1;
    }
    this.curField = -1;
    this.checkSeen(run, ri, r.offset);
  }

  private readField(r: JsonReader, run: ImportRun, fi: number, base: number, cc: number): void {
    const word = this.runFields[run.at + 2 * fi]!;
    const code = word & 0xff;
    const count = word >>> 16;
    const link = this.runFields[run.at + 2 * fi + 1]!;
    const bare = count === 1 && (code === FIELD_BOOL ? link >>> 5 < cc : link < cc);
    if (bare && !(code !== FIELD_BLOCK && r.peekByte() === 0x5b)) {
      this.readElement(r, run, fi, 0, base, cc);
      return;
    }
    r.expectByte(0x5b, 'a list of the field\'s elements');
    for (let e = 0; ; e++) {
      const c = r.peekByte();
      if (c === 0x5d) {
        r.skipByte();
        return;
      }
      if (e > 0) r.expectByte(0x2c, ', or ]');
      if (e >= count) throw r.error(`more than the field's ${count} element(s)`);
      this.readElement(r, run, fi, e, base, cc);
    }
  }

  private readElement(r: JsonReader, run: ImportRun, fi: number, e: number, base: number, cc: number): void {
    const word = this.runFields[run.at + 2 * fi]!;
    const code = word & 0xff;
    const k = this.runFields[run.at + 2 * fi + 1]! + e;
    const cells = this.g.cells;
    const c = r.peekByte();
    if (code === FIELD_BOOL) {
      if (k >>> 5 >= cc) throw r.error(`element ${e} lies past the record's ${cc} cell(s)`);
      const v = r.booleanValue();
      if (v < 0) throw r.error('expected true or false');
      const w = base + (k >>> 5);
      cells[w] = v === 1 ? (cells[w]! | (1 << (k & 31))) >>> 0 : (cells[w]! & ~(1 << (k & 31))) >>> 0;
      return;
    }
    if (k >= cc) throw r.error(`element ${e} lies past the record's ${cc} cell(s)`);
    const at = base + k;
    const isNumber = c === 0x2d || (c >= 0x30 && c <= 0x39);
    switch (code) {
      case FIELD_F32:
        cells[at] = isNumber ? r.numberF32Bits() : f32Bits(floatFromJson(r.smallValue(), this.curPathOf));
        return;
      case FIELD_I32:
      case FIELD_UNKNOWN:
        if (!isNumber) throw r.error('expected a number');
        cells[at] = r.numberValue() >>> 0;
        return;
      case FIELD_LINK:
        if (c === 0x22) {
          r.stringBytes();
          this.setLink(at, this.labels.ref(r.spanBuf, r.spanStart, r.spanEnd), r.offset);
        } else if (c === 0x6e && r.nullValue()) cells[at] = NULL;
        else this.setElement(run, fi, e, base, cc, r.smallValue(), this.curPathOf);
        return;
      case FIELD_TEXT:
        if (c === 0x22) {
          r.stringBytes();
          cells[at] = this.items.text((word >>> 8) & 0xff, r.spanBuf, r.spanStart, r.spanEnd);
        } else this.setElement(run, fi, e, base, cc, r.smallValue(), this.curPathOf);
        return;
      default: {
        const info = TYPE_INFO[this.g.descriptors.typeCode[run.first + fi]!]!;
        const d = info.decoding;
        if (c === 0x5b && d.kind === 'fixed' && d.element === 'f32') {
          cells[at] = this.readFloatVector(r, info.itemKind, d.count);
          return;
        }
        this.setElement(run, fi, e, base, cc, r.smallValue(), this.curPathOf);
      }
    }
  }

  private readonly vector = new Uint32Array(4);
  private readonly vectorBytes = new Uint8Array(this.vector.buffer);

  /** A pair or vector of f32 (`[x, y, z]`) straight into its item bytes (little-endian words). */
  private readFloatVector(r: JsonReader, kind: number, count: number): number {
    r.expectByte(0x5b, 'a list of numbers');
    const v = this.vector;
    for (let i = 0; i < count; i++) {
      if (i > 0) r.expectByte(0x2c, ', (a vector of numbers)');
      const c = r.peekByte();
      v[i] = c === 0x2d || (c >= 0x30 && c <= 0x39) ? r.numberF32Bits() : f32Bits(floatFromJson(r.smallValue(), this.curPathOf));
    }
    r.expectByte(0x5d, '] (a vector of numbers)');
    if (!LITTLE_ENDIAN) for (let i = 0; i < count; i++) v[i] = ((v[i]! >>> 24) | ((v[i]! >>> 8) & 0xff00) | ((v[i]! << 8) & 0xff0000) | (v[i]! << 24)) >>> 0;
    return this.items.text(kind, this.vectorBytes, 0, count * 4, false);
  }

  private readResidual(r: JsonReader, base: number, cc: number): void {
    r.expectByte(0x7b, 'the residual object');
    for (let m = 0; r.nextKeyBytes(m === 0); m++) {
      const k = utf8.decode(r.spanBuf.subarray(r.spanStart, r.spanEnd));
      r.expectByte(0x3a, ':');
      const at = r.offset;
      const x = r.peekByte() === 0x22 ? r.value() : r.numberValue();
      this.residual(base, cc, k, x, () => `${this.recordPathOf(this.curRecord)}/residual/${k}`, at);
    }
  }

  finish(): Gadb {
    const g = this.g;
    // Links to records further on, now that every record's label is known.
    const deferred = this.deferred;
    for (let w = 0; w < deferred.length; w++) {
      for (let bits = deferred[w]!; bits !== 0; bits &= bits - 1) {
        const at = w * 32 + 31 - Math.clz32(bits & -bits);
        const id = g.cells[at]!;
        const t = this.labels.target(id);
        if (t < 0) throw new FormatError('gadb-json', 0, this.cellPath(at), t === -2 ? `link target ${JSON.stringify(this.labels.text(id))} names more than one record` : `link target ${JSON.stringify(this.labels.text(id))} is not a record of the document`);
        g.cells[at] = t;
      }
    }
    const rec = g.records;
    const n = this.nRecords;
    rec.count = n;
    // Columns sized from the header's record count are exact: kept, not copied.
    eachColumn(rec, RECORD_COLUMNS, (a) => exact(a, n));
    // Where each record's cells start (back to back), kept in the model: every pass of the writer over records
    // would otherwise build this column again (four times at game scale, 2.8 MB each, beside the model).
    rec.cellStart = gadbRecordCellStarts(g);
    // A cell column with little spare room is kept as a view (no second 40 MB copy at game scale).
    g.cells = g.cells.length - this.nCells <= this.nCells >>> 2 ? g.cells.subarray(0, this.nCells) : g.cells.slice(0, this.nCells);
    g.header.cellCount = this.nCells;
    g.header.categoryCount = g.categories.length;
    g.strings = this.items.finish();
    return g;
  }

  /** Where the cell at `at` (index in the cell column) is: its record's path. */
  private cellPath(at: number): string {
    let cell = 0;
    let r = 0;
    for (let c = 0; c < this.g.categories.length; c++) {
      const cat = this.g.categories[c]!;
      const total = cat.primaryCount + cat.secondaryCount;
      for (let i = 0; i < total; i++, r++) {
        cell += this.g.records.cellCount[r]!;
        if (at < cell) return `/categories/${c}/records/${i}`;
      }
    }
    return '/categories';
  }
}

const LITTLE_ENDIAN = new Uint8Array(Uint32Array.of(1).buffer)[0] === 1;
/** Marks a record name already interned (its text is decoded only if the record must be read as a value). */
const NAME_IN_ITEMS = Symbol('name in items');

/** Largest value of each descriptor row element (declared hash, sorted hash, ordinal, permutation, type, count, link). */
const ROW_MAX = [0xffffffff, 0xffffffff, 0xff, 0xff, 0xff, 0xffff, 0xffff];

function describeValue(v: unknown): string {
  const t = JSON.stringify(v);
  return t === undefined ? String(v) : t.length > 40 ? `${t.slice(0, 40)}…` : t;
}
