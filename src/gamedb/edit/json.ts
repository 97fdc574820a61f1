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
import { gadbTypeInfo, type GadbDecoding } from '../../formats/gadb/type-codes.ts';
import { GadbItemKind } from '../../formats/gadb/types.ts';
import { StringInterner } from './interner.ts';
import { fnv, fnvPrimary, FNV_SEED } from './json-tables.ts';
import { NULL_LINK, blockTextBytes, bytesEqual, encodeLink, fieldLabel, fromHex, hashText, indexModel, parseHash, recordFields, toHex, type FieldNamer, type ModelIndex, type NameHasher, type RecordField, p919Hasher } from './model.ts';
import { decodeBlockValue, encodeBlockValue, f32Bits, f32FromBits, type ElementValue } from './values.ts';
import { isUtf8 } from '../../binary/text.ts';
import { JsonReader } from '../../binary/json-reader.ts';
import { TextWriter } from '../../binary/text-writer.ts';

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

/** One record run (first descriptor, field count) compiled once: per field its decoding code, cells and type. */
export interface JsonRun {
  fields: RecordField[];
  code: Uint8Array;
  /** Export: `"label":` (with the `,` before every field but the first), as UTF-8. */
  labels: Uint8Array[];
}

/**
 * Compiles record `r`'s run. `labelCache` (per field hash: `,"label":`) is shared by the runs of one export, so
 * each distinct field name is formatted once.
 */
export function compileRun(g: Gadb, r: number, namer?: FieldNamer, labelCache?: Map<number, Uint8Array>, withLabels = true): JsonRun {
  const fields = recordFields(g, r);
  const code = new Uint8Array(fields.length);
  const labels: Uint8Array[] = [];
  fields.forEach((f, fi) => {
    code[fi] = f.info ? FIELD_CODE[f.info.decoding.kind] : FIELD_UNKNOWN;
    if (!withLabels) return;
    let l = labelCache?.get(f.hash);
    if (!l) {
      l = utf8Encoder.encode(',' + JSON.stringify(fieldLabel(f.hash, namer)) + ':');
      labelCache?.set(f.hash, l);
    }
    labels.push(fi > 0 ? l : l.subarray(1));
  });
  return { fields, code, labels };
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
  readonly prefix: Uint8Array[] = [];
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
      this.prefix.push(pre);
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
  for (let k = 0; k < d.count; k++) {
    if (k > 0) w.latin1(',\n');
    w.byte(0x5b);
    w.uint(d.declaredHash[k]!);
    w.byte(0x2c);
    w.uint(d.sortedHash[k]!);
    w.byte(0x2c);
    w.uint(d.schemaOrdinal[k]!);
    w.byte(0x2c);
    w.uint(d.sortedToDeclared[k]!);
    w.byte(0x2c);
    w.uint(d.typeCode[k]!);
    w.byte(0x2c);
    w.uint(d.elementCount[k]!);
    w.byte(0x2c);
    w.uint(d.link[k]!);
    w.byte(0x5d);
    if (w.pos >= CHUNK) yield w.take();
  }
  w.latin1('\n],\n"categories": [\n');
  const runs = new Map<number, JsonRun>();
  const labelCache = new Map<number, Uint8Array>();
  const blockText = new Map<number, string>();
  const data = g.strings.data;
  const rec = g.records;
  /** Per 4-aligned text key: its `textShape` + 2; 0: not seen yet. */
  const textInfo = new Int32Array((data.length >>> 2) + 1);
  /** Length of the text at `key`, times 2, + 1 when it is not UTF-8 (then written as hex); cached per aligned key. */
  const textShape = (key: number): number => {
    const slot = (key & 3) === 0 && key <= data.length ? key >>> 2 : -1;
    const info = slot >= 0 ? textInfo[slot]! : 0;
    if (info !== 0) return info - 2;
    const t = blockTextBytes(g, key);
    const at = t.byteOffset - data.byteOffset;
    const shape = (t.length << 1) | (validUtf8(data, at, at + t.length) ? 0 : 1);
    if (slot >= 0) textInfo[slot] = shape + 2;
    return shape;
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
    if (cell === NULL) w.latin1('null');
    else if (!cat || i >= cat.primaryCount + cat.secondaryCount || labels.unique[r] !== 1) {
      w.latin1('{"raw":');
      w.uint(cell);
      w.byte(0x7d);
    } else {
      // The prefix opens the label's string (`"Category/`); the record part closes it.
      w.bytes(labels.prefix[c]!);
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
      if (i > 0) w.latin1(',\n');
      w.byte(0x7b);
      if (i >= cat.primaryCount) {
        w.latin1('"name":');
        writeText(rec.nameKey[r]!);
        w.byte(0x2c);
      }
      w.latin1('"first":');
      w.uint(rec.firstDescriptor[r]!);
      w.latin1(',"fields":');
      w.uint(rec.descriptorCount[r]!);
      w.latin1(',"cells":');
      w.uint(cc);
      w.latin1(',"flags":');
      w.uint(rec.flags[r]!);
      w.latin1(',"unk0A":');
      w.uint(rec.unk0A[r]!);
      w.latin1(',"values":{');
      const recon = cc <= reconBuf.length ? reconBuf.fill(0, 0, cc) : (reconBuf = new Uint32Array(cc * 2));
      const runKey = rec.firstDescriptor[r]! * 256 + rec.descriptorCount[r]!;
      let run = runs.get(runKey);
      if (!run) runs.set(runKey, (run = compileRun(g, r, namer, labelCache)));
      const fields = run.fields;
      for (let fi = 0; fi < fields.length; fi++) {
        const f = fields[fi]!;
        const code = run.code[fi]!;
        w.bytes(run.labels[fi]!);
        // A scalar (count 1) is written bare, anything else as a list; an element whose cell lies past the
        // record is left out (the residual keeps such records exact).
        const bare = f.count === 1 && (code === FIELD_BOOL ? f.link >>> 5 < cc : f.link < cc);
        if (!bare) w.byte(0x5b);
        let n = 0;
        for (let e = 0; e < f.count; e++) {
          const k = f.link + e;
          if (code === FIELD_BOOL) {
            if (k >>> 5 >= cc) continue;
            if (n++ > 0) w.byte(0x2c);
            const v = (cells[base + (k >>> 5)]! >>> (k & 31)) & 1;
            recon[k >>> 5] = (recon[k >>> 5]! | (v << (k & 31))) >>> 0;
            w.latin1(v === 1 ? 'true' : 'false');
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
              const info = f.info!;
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
      let first = true;
      for (let k = 0; k < cc; k++) {
        const x = (cells[base + k]! ^ recon[k]!) >>> 0;
        if (x === 0) continue;
        w.latin1(first ? ',"residual":{"' : ',"');
        first = false;
        w.uint(k);
        w.latin1('":');
        w.uint(x);
      }
      if (!first) w.byte(0x7d);
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
  for (const row of j.descriptors) b.descriptor(row);
  b.endDescriptors();
  j.categories.forEach((c, ci) => {
    b.category(c, ci);
    c.records.forEach((r, ri) => b.record(r, ri));
  });
  return b.finish();
}

/**
 * Reads the lossless JSON straight from its UTF-8 bytes — one buffer or a stream of chunks (a file read piece by
 * piece) — into a model, without the document ever existing as one string or one object tree: one record is a
 * JavaScript value at a time. The same model as `importGadbJson(JSON.parse(text))`. The document must have the
 * exporter's member order where it matters (`descriptors` before `categories`, a category's `records` last);
 * malformed JSON is a `JsonSyntaxError` (offset, line, column), a well-formed document of the wrong shape a
 * `FormatError`.
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
      while (r.nextElement()) b.descriptor(r.smallValue() as number[]);
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
          hadRecords = true;
          b.category(c as unknown as JsonCategoryHead, ci);
          r.enterArray();
          for (let ri = 0; r.nextElement(); ri++) b.record(r.value() as JsonRecord, ri);
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

/** Growable u32 column. */
function grow<T extends Uint32Array | Uint16Array | Uint8Array>(a: T, need: number): T {
  if (need <= a.length) return a;
  const next = new (a.constructor as new (n: number) => T)(Math.max(need, a.length * 2, 1024));
  next.set(a);
  return next;
}

/** Builds the model from the document's parts, in document order (shared by the parsed and the streaming import). */
class GadbJsonBuilder {
  readonly g: Gadb;
  private readonly hasher: NameHasher;
  private readonly interner: StringInterner;
  private nRows = 0;
  private nRecords = 0;
  private nCells = 0;
  private ci = -1;
  private cname = '';
  private primaryCount = 0;
  private readonly labels = new Map<string, number>();
  private readonly fieldHashes = new Map<string, number>();
  private readonly textKeys = new Map<number, Map<string, number>>();
  private readonly runs = new Map<number, ReturnType<typeof recordFields>>();
  private readonly byHash = new Map<number, unknown>();
  /** Links written as labels, resolved when every record is known: cell, label id, record. */
  private linkCells = new Uint32Array(1024);
  private linkLabels = new Uint32Array(1024);
  private linkRecords = new Uint32Array(1024);
  private nLinks = 0;
  private readonly linkLabelIds = new Map<string, number>();
  private readonly linkLabelNames: string[] = [];

  constructor(j: JsonHead, options: ImportJsonOptions) {
    this.hasher = options.hasher ?? p919Hasher();
    if (!j || typeof j !== 'object' || j.format !== GADB_JSON_FORMAT || j.version !== 1) {
      throw new FormatError('gadb-json', 0, '/format', `not a ${GADB_JSON_FORMAT} version 1 document`);
    }
    for (const k of ['root', 'headerExtra', 'headerString'] as const) if (typeof j[k] !== 'string') throw new FormatError('gadb-json', 0, `/${k}`, 'expected a hex string');
    if (!j.header || typeof j.header !== 'object') throw new FormatError('gadb-json', 0, '/header', 'expected the header object');
    if (!Array.isArray(j.pairs)) throw new FormatError('gadb-json', 0, '/pairs', 'expected an array');
    const root = fromHex(j.root);
    const hint = Math.max(16, Math.min(j.header.recordCount >>> 0, 1 << 24));
    const g: Gadb = {
      container: j.container,
      header: { version: j.header.version, stringBlockSize: 0, categoryCount: 0, recordCount: j.header.recordCount, unk14: j.header.unk14, cellCount: 0, descriptorCount: 0, unk20: j.header.unk20, unk24: j.header.unk24, headerSize: 0x2c, headerStringLength: 0 },
      headerExtra: fromHex(j.headerExtra),
      headerString: fromHex(j.headerString),
      strings: { data: root.slice(), itemKeys: Uint32Array.of(0), itemSizes: Uint32Array.of(root.length) },
      descriptors: { count: 0, declaredHash: new Uint32Array(1024), sortedHash: new Uint32Array(1024), schemaOrdinal: new Uint8Array(1024), sortedToDeclared: new Uint8Array(1024), typeCode: new Uint8Array(1024), elementCount: new Uint16Array(1024), link: new Uint16Array(1024) },
      valueSectionUnk00: j.valueSectionUnk00,
      categories: [],
      records: { count: 0, nameKey: new Uint32Array(hint), cellCount: new Uint16Array(hint), descriptorCount: new Uint8Array(hint), firstDescriptor: new Uint32Array(hint), unk0A: new Uint8Array(hint), flags: new Uint8Array(hint) },
      cells: new Uint32Array(hint * 12),
      pairs: Uint32Array.from(j.pairs),
    };
    g.header.headerSize = 0x2c + g.headerExtra.length;
    g.header.headerStringLength = g.headerString.length;
    this.g = g;
    this.interner = new StringInterner(g);
  }

  descriptor(row: number[]): void {
    const d = this.g.descriptors;
    const k = this.nRows++;
    if (k >= d.declaredHash.length) {
      const n = k + 1;
      d.declaredHash = grow(d.declaredHash, n);
      d.sortedHash = grow(d.sortedHash, n);
      d.schemaOrdinal = grow(d.schemaOrdinal, n);
      d.sortedToDeclared = grow(d.sortedToDeclared, n);
      d.typeCode = grow(d.typeCode, n);
      d.elementCount = grow(d.elementCount, n);
      d.link = grow(d.link, n);
    }
    d.declaredHash[k] = row[0]!;
    d.sortedHash[k] = row[1]!;
    d.schemaOrdinal[k] = row[2]!;
    d.sortedToDeclared[k] = row[3]!;
    d.typeCode[k] = row[4]!;
    d.elementCount[k] = row[5]!;
    d.link[k] = row[6]!;
  }

  endDescriptors(): void {
    const d = this.g.descriptors;
    const n = this.nRows;
    d.count = n;
    d.declaredHash = d.declaredHash.slice(0, n);
    d.sortedHash = d.sortedHash.slice(0, n);
    d.schemaOrdinal = d.schemaOrdinal.slice(0, n);
    d.sortedToDeclared = d.sortedToDeclared.slice(0, n);
    d.typeCode = d.typeCode.slice(0, n);
    d.elementCount = d.elementCount.slice(0, n);
    d.link = d.link.slice(0, n);
    this.g.header.descriptorCount = n;
  }

  private text(v: unknown, where: () => string, kind: number = GadbItemKind.Text): number {
    let cache = this.textKeys.get(kind);
    if (!cache) this.textKeys.set(kind, (cache = new Map()));
    if (typeof v === 'string') {
      const hit = cache.get(v);
      if (hit !== undefined) return hit;
    }
    const b = textFromJson(v, where);
    const item = new Uint8Array((b.length + 1 + 3) & ~3);
    item.set(b);
    const key = this.interner.intern(kind, item);
    if (typeof v === 'string') cache.set(v, key);
    return key;
  }

  category(c: JsonCategoryHead, ci: number): void {
    const where = (): string => `/categories/${ci}`;
    this.ci = ci;
    this.cname = typeof c.name === 'string' ? c.name : utf8.decode(textFromJson(c.name, where));
    this.primaryCount = c.primaryCount;
    // secondaryCount grows with each record (primaryCount + secondaryCount = the records given).
    const cat: GadbCategory = { nameKey: this.text(c.name, where), typeNameKey: this.text(c.typeName, where), unk08Key: this.text(c.unk08, where), primaryCount: c.primaryCount, secondaryCount: -c.primaryCount, sortKey: c.sortKey };
    this.g.categories.push(cat);
  }

  record(jr: JsonRecord, ri: number): void {
    const g = this.g;
    const ci = this.ci;
    const rw = (): string => `/categories/${ci}/records/${ri}`;
    if (!jr || typeof jr !== 'object') throw new FormatError('gadb-json', 0, rw(), 'expected a record object');
    const r = this.nRecords++;
    const rec = g.records;
    if (r >= rec.nameKey.length) {
      const n = r + 1;
      rec.nameKey = grow(rec.nameKey, n);
      rec.cellCount = grow(rec.cellCount, n);
      rec.descriptorCount = grow(rec.descriptorCount, n);
      rec.firstDescriptor = grow(rec.firstDescriptor, n);
      rec.unk0A = grow(rec.unk0A, n);
      rec.flags = grow(rec.flags, n);
    }
    g.categories[ci]!.secondaryCount = ri + 1 - this.primaryCount;
    const rname = ri < this.primaryCount ? `#${ri}` : typeof jr.name === 'string' ? jr.name : utf8.decode(textFromJson(jr.name, rw));
    this.labels.set(`${this.cname}/${rname}`, encodeLink(ci, ri));
    if (ri >= this.primaryCount) rec.nameKey[r] = this.text(jr.name, rw);
    rec.firstDescriptor[r] = jr.first;
    rec.descriptorCount[r] = jr.fields;
    rec.cellCount[r] = jr.cells;
    rec.flags[r] = jr.flags;
    rec.unk0A[r] = jr.unk0A;
    const cc = jr.cells;
    const base = this.nCells;
    this.nCells += cc;
    if (this.nCells > g.cells.length) g.cells = grow(g.cells, this.nCells);
    const cells = g.cells;
    const byHash = this.byHash;
    byHash.clear();
    const values = jr.values;
    for (const k in values) byHash.set(this.hashOfLabel(k), values[k]);
    const runKey = jr.first * 256 + jr.fields;
    let fields = this.runs.get(runKey);
    if (!fields) this.runs.set(runKey, (fields = recordFields(g, r)));
    for (const f of fields) {
      const raw = byHash.get(f.hash);
      const elems = f.count === 1 && !(Array.isArray(raw) && raw.length === 0 && f.info?.decoding.kind !== 'curve' && f.info?.decoding.kind !== 'fixed') ? [raw] : (raw as unknown[]);
      const fw = (): string => `${rw()}/values/${fieldLabel(f.hash)}`;
      if (!Array.isArray(elems)) throw new FormatError('gadb-json', 0, fw(), 'expected an array of elements');
      const info = f.info ?? gadbTypeInfo(f.typeByte);
      for (let e = 0; e < elems.length; e++) {
        const v = elems[e];
        if (!info) {
          cells[base + f.link + e] = Number(v) >>> 0;
          continue;
        }
        const d = info.decoding;
        if (d.kind === 'bool') {
          const bit = f.link + e;
          if (v === true) cells[base + (bit >>> 5)] = (cells[base + (bit >>> 5)]! | (1 << (bit & 31))) >>> 0;
          continue;
        }
        const k = base + f.link + e;
        if (d.kind === 'f32') cells[k] = typeof v === 'number' ? f32Bits(v) : f32Bits(floatFromJson(v, fw));
        else if (d.kind === 'i32') cells[k] = Number(v) >>> 0;
        else if (d.kind === 'link') {
          if (v === null) cells[k] = NULL_LINK;
          else if (typeof v === 'string') this.deferLink(k, v, r);
          else cells[k] = Number((v as { raw: number }).raw) >>> 0;
        } else if (d.kind === 'text') cells[k] = this.text(v, fw, info.itemKind);
        else cells[k] = this.interner.intern(info.itemKind, encodeBlockValue(d, blockFromJson(d, v, fw), fw()));
      }
    }
    if (jr.residual) for (const [k, x] of Object.entries(jr.residual)) cells[base + Number(k)] = (cells[base + Number(k)]! ^ x) >>> 0;
  }

  private hashOfLabel(label: string): number {
    let h = this.fieldHashes.get(label);
    if (h === undefined) {
      h = parseHash(label) ?? this.hasher(label) >>> 0;
      this.fieldHashes.set(label, h);
    }
    return h;
  }

  private deferLink(cell: number, label: string, r: number): void {
    let id = this.linkLabelIds.get(label);
    if (id === undefined) {
      id = this.linkLabelNames.length;
      this.linkLabelIds.set(label, id);
      this.linkLabelNames.push(label);
    }
    const n = this.nLinks++;
    if (n >= this.linkCells.length) {
      this.linkCells = grow(this.linkCells, n + 1);
      this.linkLabels = grow(this.linkLabels, n + 1);
      this.linkRecords = grow(this.linkRecords, n + 1);
    }
    this.linkCells[n] = cell;
    this.linkLabels[n] = id;
    this.linkRecords[n] = r;
  }

  finish(): Gadb {
    const g = this.g;
    // Links by label, now that every record's label is known (a later record with the same label wins, as in a
    // document read whole).
    const targets = this.linkLabelNames.map((l) => this.labels.get(l));
    for (let n = 0; n < this.nLinks; n++) {
      const t = targets[this.linkLabels[n]!];
      if (t === undefined) throw new FormatError('gadb-json', 0, this.recordPath(this.linkRecords[n]!), `link target ${JSON.stringify(this.linkLabelNames[this.linkLabels[n]!])} is not a record of the document`);
      g.cells[this.linkCells[n]!] = t;
    }
    const rec = g.records;
    const n = this.nRecords;
    rec.count = n;
    rec.nameKey = rec.nameKey.slice(0, n);
    rec.cellCount = rec.cellCount.slice(0, n);
    rec.descriptorCount = rec.descriptorCount.slice(0, n);
    rec.firstDescriptor = rec.firstDescriptor.slice(0, n);
    rec.unk0A = rec.unk0A.slice(0, n);
    rec.flags = rec.flags.slice(0, n);
    g.cells = g.cells.slice(0, this.nCells);
    g.header.cellCount = this.nCells;
    g.header.categoryCount = g.categories.length;
    this.interner.compact();
    return g;
  }

  private recordPath(r: number): string {
    let first = 0;
    for (let c = 0; c < this.g.categories.length; c++) {
      const cat = this.g.categories[c]!;
      const total = cat.primaryCount + cat.secondaryCount;
      if (r < first + total) return `/categories/${c}/records/${r - first}`;
      first += total;
    }
    return '/categories';
  }
}
