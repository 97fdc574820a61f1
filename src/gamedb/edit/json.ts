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
import { NULL_LINK, blockTextBytes, encodeLink, fieldLabel, fromHex, hashText, indexModel, parseHash, recordFields, toHex, type FieldNamer, type NameHasher, p919Hasher } from './model.ts';
import { decodeBlockValue, encodeBlockValue, f32Bits, f32FromBits, type ElementValue } from './values.ts';
import { isUtf8 } from '../../binary/text.ts';

export const GADB_JSON_FORMAT = 'scry.gadb.json';

const utf8 = new TextDecoder();

function textJson(b: Uint8Array): unknown {
  return isUtf8(b) ? utf8.decode(b) : { hex: toHex(b) };
}
function textFromJson(v: unknown, where: string): Uint8Array {
  if (typeof v === 'string') return new TextEncoder().encode(v);
  if (v && typeof v === 'object' && 'hex' in v && typeof (v as { hex: unknown }).hex === 'string') return fromHex((v as { hex: string }).hex);
  throw new FormatError('gadb-json', 0, where, `expected text, got ${JSON.stringify(v)}`);
}
function floatJson(x: number): unknown {
  return Number.isFinite(x) && !Object.is(x, -0) ? x : { f32: hashText(f32Bits(x)) };
}
function floatFromJson(v: unknown, where: string): number {
  if (typeof v === 'number') return v;
  if (v && typeof v === 'object' && 'f32' in v) return f32FromBits(parseInt(String((v as { f32: string }).f32).slice(2), 16) >>> 0);
  throw new FormatError('gadb-json', 0, where, `expected a number, got ${JSON.stringify(v)}`);
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
function blockFromJson(d: GadbDecoding, v: unknown, where: string): ElementValue {
  if (d.kind === 'fixed') {
    if (d.element === 'i64') return BigInt(String(v));
    if (!Array.isArray(v)) throw new FormatError('gadb-json', 0, where, 'expected an array');
    return v.map((x) => floatFromJson(x, where));
  }
  if (d.kind === 'curve') {
    if (!Array.isArray(v)) throw new FormatError('gadb-json', 0, where, 'expected a list of keys');
    return v.map((k) => (k as unknown[]).map((x) => floatFromJson(x, where)));
  }
  if (d.kind === 'opaque') return fromHex(String((v as { hex: string }).hex));
  throw new Error('unreachable');
}

export interface ExportJsonOptions {
  namer?: FieldNamer;
}

/**
 * The lossless JSON of `g`, as text chunks (concatenate them; one category or record per line). Streaming keeps
 * a game-scale export out of one giant string.
 */
export function* exportGadbJson(g: Gadb, options: ExportJsonOptions = {}): Generator<string> {
  const ix = indexModel(g);
  const namer = options.namer;
  // Labels of every record, to write links as Category/Record; ambiguous labels fall back to raw cells.
  const catNames = g.categories.map((c) => utf8.decode(blockTextBytes(g, c.nameKey)));
  const labelCount = new Map<string, number>();
  const labelOf = (c: number, i: number): string => {
    const cat = g.categories[c]!;
    return `${catNames[c]}/${i < cat.primaryCount ? `#${i}` : utf8.decode(blockTextBytes(g, g.records.nameKey[ix.categoryFirstRecord[c]! + i]!))}`;
  };
  for (let c = 0; c < g.categories.length; c++) {
    const cat = g.categories[c]!;
    for (let i = 0; i < cat.primaryCount + cat.secondaryCount; i++) {
      const l = labelOf(c, i);
      labelCount.set(l, (labelCount.get(l) ?? 0) + 1);
    }
  }
  const linkJson = (cell: number): unknown => {
    if (cell === NULL_LINK) return null;
    const c = cell >>> 20;
    const i = cell & 0xfffff;
    const cat = g.categories[c];
    if (!cat || i >= cat.primaryCount + cat.secondaryCount) return { raw: cell };
    const l = labelOf(c, i);
    return labelCount.get(l) === 1 ? l : { raw: cell };
  };
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
  const headText = JSON.stringify(head);
  yield headText.slice(0, -1) + ',\n"descriptors": [\n';
  const d = g.descriptors;
  const rowsOut: string[] = [];
  for (let k = 0; k < d.count; k++) {
    rowsOut.push(`[${d.declaredHash[k]},${d.sortedHash[k]},${d.schemaOrdinal[k]},${d.sortedToDeclared[k]},${d.typeCode[k]},${d.elementCount[k]},${d.link[k]}]`);
    if (rowsOut.length === 4096) {
      yield rowsOut.join(',\n') + (k + 1 < d.count ? ',\n' : '');
      rowsOut.length = 0;
    }
  }
  if (rowsOut.length > 0) yield rowsOut.join(',\n');
  yield '\n],\n"categories": [\n';
  const runs = new Map<number, { fields: ReturnType<typeof recordFields>; labels: string[] }>();
  const linkText = new Map<number, string>();
  const blockText = new Map<number, string>();
  let reconBuf = new Uint32Array(1024);
  let batch = '';
  let r = 0;
  for (let c = 0; c < g.categories.length; c++) {
    const cat = g.categories[c]!;
    const catHead = { name: textJson(blockTextBytes(g, cat.nameKey)), typeName: textJson(blockTextBytes(g, cat.typeNameKey)), unk08: textJson(blockTextBytes(g, cat.unk08Key)), sortKey: cat.sortKey, primaryCount: cat.primaryCount };
    yield (c > 0 ? ',\n' : '') + JSON.stringify(catHead).slice(0, -1) + ', "records": [\n';
    const total = cat.primaryCount + cat.secondaryCount;
    for (let i = 0; i < total; i++, r++) {
      const base = ix.recordCellStart[r]!;
      const cc = g.records.cellCount[r]!;
      // Built as text directly: a game-scale export has millions of fields.
      let line = '{';
      if (i >= cat.primaryCount) line += `"name":${JSON.stringify(textJson(blockTextBytes(g, g.records.nameKey[r]!)))},`;
      line += `"first":${g.records.firstDescriptor[r]},"fields":${g.records.descriptorCount[r]},"cells":${cc},"flags":${g.records.flags[r]},"unk0A":${g.records.unk0A[r]},"values":{`;
      const recon = cc <= reconBuf.length ? reconBuf.fill(0, 0, cc) : (reconBuf = new Uint32Array(cc * 2));
      const runKey = g.records.firstDescriptor[r]! * 256 + g.records.descriptorCount[r]!;
      let run = runs.get(runKey);
      if (!run) {
        const fields = recordFields(g, r);
        run = { fields, labels: fields.map((f, fi) => (fi > 0 ? ',' : '') + JSON.stringify(fieldLabel(f.hash, namer)) + ':') };
        runs.set(runKey, run);
      }
      for (let fi = 0; fi < run.fields.length; fi++) {
        const f = run.fields[fi]!;
        line += run.labels[fi]!;
        const info = f.info;
        // A scalar (count 1) is written bare, anything else as a list; an element whose cell lies past the
        // record is left out (the residual keeps such records exact).
        const bare = f.count === 1 && (info?.decoding.kind === 'bool' ? f.link >>> 5 < cc : f.link < cc);
        if (!bare) line += '[';
        let n = 0;
        for (let e = 0; e < f.count; e++) {
          const k = f.link + e;
          let t: string;
          if (!info) {
            if (k >= cc) continue;
            t = String(g.cells[base + k]);
            recon[k] = g.cells[base + k]!;
          } else {
            const dd = info.decoding;
            if (dd.kind === 'bool') {
              if (k >>> 5 >= cc) continue;
              const v = (g.cells[base + (k >>> 5)]! >>> (k & 31)) & 1;
              recon[k >>> 5] = (recon[k >>> 5]! | (v << (k & 31))) >>> 0;
              t = v === 1 ? 'true' : 'false';
            } else {
              if (k >= cc) continue;
              const cell = g.cells[base + k]!;
              recon[k] = cell;
              if (dd.kind === 'f32') {
                const x = f32FromBits(cell);
                t = Number.isFinite(x) && !Object.is(x, -0) ? String(x) : JSON.stringify(floatJson(x));
              } else if (dd.kind === 'i32') t = String(cell | 0);
              else if (dd.kind === 'link') {
                let lt = linkText.get(cell);
                if (lt === undefined) linkText.set(cell, (lt = JSON.stringify(linkJson(cell))));
                t = lt;
              } else {
                const ck = info.itemKind * 0x100000000 + cell;
                let bt = blockText.get(ck);
                if (bt === undefined) {
                  bt = JSON.stringify(dd.kind === 'text' ? textJson(blockTextBytes(g, cell)) : blockJson(dd, decodeBlockValue(g, dd, cell)));
                  blockText.set(ck, bt);
                }
                t = bt;
              }
            }
          }
          line += n++ > 0 ? ',' + t : t;
        }
        if (!bare) line += ']';
      }
      line += '}';
      let residual = '';
      for (let k = 0; k < cc; k++) {
        const x = (g.cells[base + k]! ^ recon[k]!) >>> 0;
        if (x !== 0) residual += `${residual ? ',' : ''}"${k}":${x}`;
      }
      if (residual) line += `,"residual":{${residual}}`;
      batch += (i > 0 ? ',\n' : '') + line + '}';
      if (batch.length > 1 << 20) {
        yield batch;
        batch = '';
      }
    }
    if (batch) yield batch;
    batch = '';
    yield '\n]}';
  }
  yield '\n]}\n';
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
interface JsonCategory {
  name: unknown;
  typeName: unknown;
  unk08: unknown;
  sortKey: number;
  primaryCount: number;
  records: JsonRecord[];
}
interface JsonDoc {
  format: string;
  version: number;
  container: Gadb['container'];
  header: { version: number; recordCount: number; unk14: number; unk20: number; unk24: number };
  headerExtra: string;
  headerString: string;
  root: string;
  valueSectionUnk00: number;
  pairs: number[];
  descriptors: number[][];
  categories: JsonCategory[];
}

/** Rebuilds a model from `exportGadbJson`'s document (already `JSON.parse`d). Field names are hashed with `hasher`. */
export function importGadbJson(doc: unknown, options: { hasher?: NameHasher } = {}): Gadb {
  const hasher = options.hasher ?? p919Hasher();
  const j = doc as JsonDoc;
  if (!j || typeof j !== 'object' || j.format !== GADB_JSON_FORMAT || j.version !== 1) {
    throw new FormatError('gadb-json', 0, '/format', `not a ${GADB_JSON_FORMAT} version 1 document`);
  }
  const root = fromHex(j.root);
  const nRows = j.descriptors.length;
  const descriptors: Gadb['descriptors'] = {
    count: nRows,
    declaredHash: new Uint32Array(nRows),
    sortedHash: new Uint32Array(nRows),
    schemaOrdinal: new Uint8Array(nRows),
    sortedToDeclared: new Uint8Array(nRows),
    typeCode: new Uint8Array(nRows),
    elementCount: new Uint16Array(nRows),
    link: new Uint16Array(nRows),
  };
  for (let k = 0; k < nRows; k++) {
    const row = j.descriptors[k]!;
    descriptors.declaredHash[k] = row[0]!;
    descriptors.sortedHash[k] = row[1]!;
    descriptors.schemaOrdinal[k] = row[2]!;
    descriptors.sortedToDeclared[k] = row[3]!;
    descriptors.typeCode[k] = row[4]!;
    descriptors.elementCount[k] = row[5]!;
    descriptors.link[k] = row[6]!;
  }
  let nRecords = 0;
  let nCells = 0;
  for (const c of j.categories) for (const r of c.records) {
    nRecords++;
    nCells += r.cells;
  }
  const g: Gadb = {
    container: j.container,
    header: { version: j.header.version, stringBlockSize: 0, categoryCount: j.categories.length, recordCount: j.header.recordCount, unk14: j.header.unk14, cellCount: nCells, descriptorCount: nRows, unk20: j.header.unk20, unk24: j.header.unk24, headerSize: 0x2c, headerStringLength: 0 },
    headerExtra: fromHex(j.headerExtra),
    headerString: fromHex(j.headerString),
    strings: { data: root.slice(), itemKeys: Uint32Array.of(0), itemSizes: Uint32Array.of(root.length) },
    descriptors,
    valueSectionUnk00: j.valueSectionUnk00,
    categories: [],
    records: { count: nRecords, nameKey: new Uint32Array(nRecords), cellCount: new Uint16Array(nRecords), descriptorCount: new Uint8Array(nRecords), firstDescriptor: new Uint32Array(nRecords), unk0A: new Uint8Array(nRecords), flags: new Uint8Array(nRecords) },
    cells: new Uint32Array(nCells),
    pairs: Uint32Array.from(j.pairs),
  };
  g.header.headerSize = 0x2c + g.headerExtra.length;
  g.header.headerStringLength = g.headerString.length;
  const interner = new StringInterner(g);
  const text = (v: unknown, where: string): number => {
    const b = textFromJson(v, where);
    const item = new Uint8Array((b.length + 1 + 3) & ~3);
    item.set(b);
    return interner.intern(GadbItemKind.Text, item);
  };
  // Link labels.
  const labels = new Map<string, number>();
  j.categories.forEach((c, ci) => {
    const cname = typeof c.name === 'string' ? c.name : utf8.decode(textFromJson(c.name, '/categories'));
    c.records.forEach((r, ri) => {
      const rname = ri < c.primaryCount ? `#${ri}` : typeof r.name === 'string' ? r.name : utf8.decode(textFromJson(r.name, '/records'));
      labels.set(`${cname}/${rname}`, encodeLink(ci, ri));
    });
  });
  const fieldHashes = new Map<string, number>();
  const hashOfLabel = (label: string): number => {
    let h = fieldHashes.get(label);
    if (h === undefined) {
      h = parseHash(label) ?? hasher(label) >>> 0;
      fieldHashes.set(label, h);
    }
    return h;
  };
  let r = 0;
  let base = 0;
  for (let ci = 0; ci < j.categories.length; ci++) {
    const c = j.categories[ci]!;
    const where = `/categories/${ci}`;
    const cat: GadbCategory = { nameKey: text(c.name, where), typeNameKey: text(c.typeName, where), unk08Key: text(c.unk08, where), primaryCount: c.primaryCount, secondaryCount: c.records.length - c.primaryCount, sortKey: c.sortKey };
    g.categories.push(cat);
    for (let ri = 0; ri < c.records.length; ri++, r++) {
      const jr = c.records[ri]!;
      const rw = `${where}/records/${ri}`;
      if (ri >= c.primaryCount) g.records.nameKey[r] = text(jr.name, rw);
      g.records.firstDescriptor[r] = jr.first;
      g.records.descriptorCount[r] = jr.fields;
      g.records.cellCount[r] = jr.cells;
      g.records.flags[r] = jr.flags;
      g.records.unk0A[r] = jr.unk0A;
      const cc = jr.cells;
      const values = jr.values;
      const byHash = new Map<number, unknown>();
      for (const [k, v] of Object.entries(values)) byHash.set(hashOfLabel(k), v);
      for (const f of recordFields(g, r)) {
        const raw = byHash.get(f.hash);
        const elems = f.count === 1 && !(Array.isArray(raw) && raw.length === 0 && f.info?.decoding.kind !== 'curve' && f.info?.decoding.kind !== 'fixed') ? [raw] : (raw as unknown[]);
        const fw = `${rw}/values/${fieldLabel(f.hash)}`;
        if (!Array.isArray(elems)) throw new FormatError('gadb-json', 0, fw, 'expected an array of elements');
        const info = f.info ?? gadbTypeInfo(f.typeByte);
        for (let e = 0; e < elems.length; e++) {
          const v = elems[e];
          if (!info) {
            g.cells[base + f.link + e] = Number(v) >>> 0;
            continue;
          }
          const d = info.decoding;
          if (d.kind === 'bool') {
            const bit = f.link + e;
            if (v === true) g.cells[base + (bit >>> 5)] = (g.cells[base + (bit >>> 5)]! | (1 << (bit & 31))) >>> 0;
            continue;
          }
          const k = base + f.link + e;
          if (d.kind === 'f32') g.cells[k] = f32Bits(floatFromJson(v, fw));
          else if (d.kind === 'i32') g.cells[k] = Number(v) >>> 0;
          else if (d.kind === 'link') {
            if (v === null) g.cells[k] = NULL_LINK;
            else if (typeof v === 'string') {
              const l = labels.get(v);
              if (l === undefined) throw new FormatError('gadb-json', 0, fw, `link target ${JSON.stringify(v)} is not a record of the document`);
              g.cells[k] = l;
            } else g.cells[k] = Number((v as { raw: number }).raw) >>> 0;
          } else if (d.kind === 'text') {
            const b = textFromJson(v, fw);
            const item = new Uint8Array((b.length + 1 + 3) & ~3);
            item.set(b);
            g.cells[k] = interner.intern(info.itemKind, item);
          } else g.cells[k] = interner.intern(info.itemKind, encodeBlockValue(d, blockFromJson(d, v, fw), fw));
        }
      }
      if (jr.residual) for (const [k, x] of Object.entries(jr.residual)) g.cells[base + Number(k)] = (g.cells[base + Number(k)]! ^ x) >>> 0;
      base += cc;
    }
  }
  interner.compact();
  return g;
}
