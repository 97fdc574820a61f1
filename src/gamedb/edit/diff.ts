/**
 * Semantic diff of two GADB databases: categories and records added or removed, and per-field changes of the
 * records both hold, with values decoded and links shown as `Category/Record`.
 *
 * Identity: a category by its name; a secondary by category + name (a name identifies a record only together
 * with its category); a primary by category + index (`#i`, primaries are unnamed). Values are compared by what
 * they mean, not by their cells: string-block references by the bytes they point at (the two files' blocks may be
 * laid out differently), links by the identity of their targets, Bools bit by bit, floats by their bits.
 */
import type { Gadb } from '../../formats/gadb/types.ts';
import type { GadbDecoding } from '../../formats/gadb/type-codes.ts';
import { shortestF32 } from '../../binary/text.ts';
import { NULL_LINK, blockTextBytes, bytesEqual, categoryName, fieldLabel, hashText, indexModel, itemBytes, recordFields, recordName, type FieldNamer, type ModelIndex, type RecordField } from './model.ts';
import { decodeLink, readElement, readField, type ElementValue } from './values.ts';

/** One changed field (or element) of a record present in both databases. */
export interface FieldChange {
  /** Field name when known, else `0x%08X`. */
  field: string;
  hash: number;
  /** Element index, for arrays compared element by element. */
  index?: number;
  /** Decoded values (a link as `{ link: "Category/Record" }`, null when null; `undefined` when the field is absent on that side). */
  old: unknown;
  new: unknown;
}

export interface RecordChange {
  /** `Category/Record`. */
  record: string;
  changes: FieldChange[];
}

/** The differences between database `a` (old) and `b` (new). */
export interface GadbDiff {
  categoriesAdded: string[];
  categoriesRemoved: string[];
  /** Categories present in both whose entry differs (type name, +0x08 string). */
  categoriesChanged: Array<{ category: string; what: string; old: unknown; new: unknown }>;
  recordsAdded: string[];
  recordsRemoved: string[];
  recordsChanged: RecordChange[];
  /** Header and container fields that differ (unknown fields, build tag, root name). */
  header: Array<{ field: string; old: unknown; new: unknown }>;
}

export interface DiffOptions {
  namer?: FieldNamer;
}

/** Total number of reported differences (every line of the text form). */
export function diffCount(d: GadbDiff): number {
  let n = d.categoriesAdded.length + d.categoriesRemoved.length + d.categoriesChanged.length + d.recordsAdded.length + d.recordsRemoved.length + d.header.length;
  for (const r of d.recordsChanged) n += r.changes.length;
  return n;
}

function nameKeyOf(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 4096) s += String.fromCharCode.apply(null, Array.from(bytes.subarray(i, i + 4096)));
  return s;
}

class Side {
  readonly g: Gadb;
  readonly ix: ModelIndex;
  readonly catByName = new Map<string, number>();
  #runs = new Map<number, RecordField[]>();
  #recMaps = new Map<number, Map<string, number>>();
  constructor(g: Gadb) {
    this.g = g;
    this.ix = indexModel(g);
    for (let c = 0; c < g.categories.length; c++) this.catByName.set(nameKeyOf(blockTextBytes(g, g.categories[c]!.nameKey)), c);
  }
  fields(r: number): RecordField[] {
    const key = this.g.records.firstDescriptor[r]! * 256 + this.g.records.descriptorCount[r]!;
    let f = this.#runs.get(key);
    if (!f) {
      f = recordFields(this.g, r);
      this.#runs.set(key, f);
    }
    return f;
  }
  /** Record name key → index within category c (secondaries by name, primaries as `#i`). */
  records(c: number): Map<string, number> {
    let m = this.#recMaps.get(c);
    if (m) return m;
    m = new Map();
    const cat = this.g.categories[c]!;
    const base = this.ix.categoryFirstRecord[c]!;
    for (let i = 0; i < cat.primaryCount; i++) m.set(`#${i}`, i);
    for (let i = cat.primaryCount; i < cat.primaryCount + cat.secondaryCount; i++) {
      const k = nameKeyOf(blockTextBytes(this.g, this.g.records.nameKey[base + i]!));
      if (!m.has(k)) m.set(k, i);
    }
    this.#recMaps.set(c, m);
    return m;
  }
  label(c: number, i: number): string {
    return `${categoryName(this.g, c)}/${recordName(this.g, this.ix, c, i)}`;
  }
}

/** Bytes a block reference points at, per the type's decoding (texts without the NUL). */
function blockValueBytes(g: Gadb, d: GadbDecoding, key: number): Uint8Array | undefined {
  const data = g.strings.data;
  switch (d.kind) {
    case 'text':
      return blockTextBytes(g, key);
    case 'fixed':
      return key + d.size <= data.length ? data.subarray(key, key + d.size) : undefined;
    case 'curve': {
      if (key + 4 > data.length) return undefined;
      const n = data[key]! | (data[key + 1]! << 8) | (data[key + 2]! << 16) | (data[key + 3]! << 24);
      const end = key + 4 + (n >>> 0) * d.keySize;
      return end <= data.length ? data.subarray(key, end) : undefined;
    }
    default:
      return itemBytes(g, key);
  }
}

/**
 * A decoded value with its f32 numbers in their shortest form (`shortestF32`), so a diff shows values as
 * `db show` does (1e11, not 99999997952); the bits compared are the file's, this is presentation only.
 */
function f32Shown(v: unknown, d: GadbDecoding | undefined): unknown {
  if (d === undefined) return v;
  const short = (x: unknown) => (typeof x === 'number' ? shortestF32(x) : x);
  if (d.kind === 'f32') return Array.isArray(v) ? v.map(short) : short(v);
  if (d.kind === 'fixed' && d.element === 'f32') return Array.isArray(v) && Array.isArray(v[0]) ? v.map((e) => (e as unknown[]).map(short)) : Array.isArray(v) ? v.map(short) : v;
  if (d.kind === 'curve') {
    const valueIsF32 = d.value === 'f32' || d.value === 'vec3';
    // one curve is a list of keys [time, value…]; an array field of curves is a list of those
    const key = (k: unknown) => (Array.isArray(k) ? k.map((x, i) => (i === 0 || valueIsF32 ? short(x) : x)) : k);
    const curve = (c: unknown) => (Array.isArray(c) ? c.map(key) : c);
    return Array.isArray(v) && Array.isArray(v[0]) && Array.isArray(v[0][0]) ? v.map(curve) : curve(v);
  }
  return v;
}

/** Compares `a` (old) with `b` (new). */
export function diffGadb(a: Gadb, b: Gadb, options: DiffOptions = {}): GadbDiff {
  const A = new Side(a);
  const B = new Side(b);
  const out: GadbDiff = { categoriesAdded: [], categoriesRemoved: [], categoriesChanged: [], recordsAdded: [], recordsRemoved: [], recordsChanged: [], header: [] };

  const hdr = (field: string, x: unknown, y: unknown): void => {
    if (x !== y) out.header.push({ field, old: x, new: y });
  };
  hdr('container', a.container.kind === 'wrapped' ? `${a.container.magic} v${a.container.version}` : 'bare', b.container.kind === 'wrapped' ? `${b.container.magic} v${b.container.version}` : 'bare');
  hdr('rootName', new TextDecoder().decode(blockTextBytes(a, 0)), new TextDecoder().decode(blockTextBytes(b, 0)));
  for (const k of ['version', 'unk14', 'unk20', 'unk24'] as const) hdr(k, a.header[k], b.header[k]);
  hdr('valueSectionUnk00', a.valueSectionUnk00, b.valueSectionUnk00);
  hdr('pairs', Array.from(a.pairs).join(','), Array.from(b.pairs).join(','));

  // Category correspondence.
  const catMap = new Int32Array(a.categories.length).fill(-1);
  for (const [name, ca] of A.catByName) {
    const cb = B.catByName.get(name);
    if (cb === undefined) out.categoriesRemoved.push(categoryName(a, ca));
    else catMap[ca] = cb;
  }
  for (const [name, cb] of B.catByName) if (!A.catByName.has(name)) out.categoriesAdded.push(categoryName(b, cb));

  // Record correspondence per category (lazy), used by link comparison too.
  const recMaps = new Map<number, Int32Array>();
  const recMap = (ca: number): Int32Array => {
    let m = recMaps.get(ca);
    if (m) return m;
    const cat = a.categories[ca]!;
    m = new Int32Array(cat.primaryCount + cat.secondaryCount).fill(-1);
    const cb = catMap[ca]!;
    if (cb >= 0) {
      const bm = B.records(cb);
      for (const [k, ia] of A.records(ca)) {
        const ib = bm.get(k);
        if (ib !== undefined) m[ia] = ib;
      }
    }
    recMaps.set(ca, m);
    return m;
  };
  const linkSame = (la: number, lb: number): boolean => {
    if (la === NULL_LINK || lb === NULL_LINK) return la === lb;
    const da = decodeLink(a, la);
    const db = decodeLink(b, lb);
    if (!da || !db || 'raw' in da || 'raw' in db) return la === lb;
    return catMap[da.category] === db.category && recMap(da.category)[da.index] === db.index;
  };
  const show = (g: Gadb, side: Side, v: ElementValue | ElementValue[]): unknown => {
    if (Array.isArray(v) && v.some((x) => x === null || (typeof x === 'object' && !Array.isArray(x) && !(x instanceof Uint8Array)))) return v.map((x) => show(g, side, x as ElementValue));
    if (v === null) return null;
    if (typeof v === 'bigint') return v.toString();
    if (v instanceof Uint8Array) return Array.from(v, (x) => x.toString(16).padStart(2, '0')).join('');
    if (typeof v === 'object' && !Array.isArray(v)) return 'raw' in v ? { invalidLink: hashText(v.raw) } : { link: side.label(v.category, v.index) };
    return v;
  };

  for (let ca = 0; ca < a.categories.length; ca++) {
    const cb = catMap[ca]!;
    const catA = a.categories[ca]!;
    if (cb < 0) {
      for (let i = 0; i < catA.primaryCount + catA.secondaryCount; i++) out.recordsRemoved.push(A.label(ca, i));
      continue;
    }
    const catB = b.categories[cb]!;
    const cname = categoryName(a, ca);
    const tA = nameKeyOf(blockTextBytes(a, catA.typeNameKey));
    const tB = nameKeyOf(blockTextBytes(b, catB.typeNameKey));
    if (tA !== tB) out.categoriesChanged.push({ category: cname, what: 'typeName', old: new TextDecoder().decode(blockTextBytes(a, catA.typeNameKey)), new: new TextDecoder().decode(blockTextBytes(b, catB.typeNameKey)) });
    const uA = blockTextBytes(a, catA.unk08Key);
    const uB = blockTextBytes(b, catB.unk08Key);
    if (!bytesEqual(uA, uB)) out.categoriesChanged.push({ category: cname, what: 'unk08', old: new TextDecoder().decode(uA), new: new TextDecoder().decode(uB) });
    const m = recMap(ca);
    const seenB = new Uint8Array(catB.primaryCount + catB.secondaryCount);
    for (let ia = 0; ia < m.length; ia++) {
      const ib = m[ia]!;
      if (ib < 0) {
        out.recordsRemoved.push(A.label(ca, ia));
        continue;
      }
      seenB[ib] = 1;
      const ra = A.ix.categoryFirstRecord[ca]! + ia;
      const rb = B.ix.categoryFirstRecord[cb]! + ib;
      const changes = diffRecord(A, B, ra, rb, linkSame, show, options.namer);
      if (a.records.flags[ra] !== b.records.flags[rb]) changes.push({ field: '(record flags)', hash: 0, old: a.records.flags[ra], new: b.records.flags[rb] });
      if (a.records.unk0A[ra] !== b.records.unk0A[rb]) changes.push({ field: '(record +0x0A)', hash: 0, old: a.records.unk0A[ra], new: b.records.unk0A[rb] });
      if (changes.length > 0) out.recordsChanged.push({ record: A.label(ca, ia), changes });
    }
    for (let ib = 0; ib < seenB.length; ib++) if (!seenB[ib]) out.recordsAdded.push(B.label(cb, ib));
  }
  for (let cb = 0; cb < b.categories.length; cb++) {
    const name = nameKeyOf(blockTextBytes(b, b.categories[cb]!.nameKey));
    if (A.catByName.has(name)) continue;
    const cat = b.categories[cb]!;
    for (let i = 0; i < cat.primaryCount + cat.secondaryCount; i++) out.recordsAdded.push(B.label(cb, i));
  }
  return out;
}

function diffRecord(
  A: Side,
  B: Side,
  ra: number,
  rb: number,
  linkSame: (x: number, y: number) => boolean,
  show: (g: Gadb, side: Side, v: ElementValue | ElementValue[]) => unknown,
  namer: FieldNamer | undefined,
): FieldChange[] {
  const a = A.g;
  const b = B.g;
  const fa = A.fields(ra);
  const fb = B.fields(rb);
  const baseA = A.ix.recordCellStart[ra]!;
  const baseB = B.ix.recordCellStart[rb]!;
  const out: FieldChange[] = [];
  // Same run on both sides (the common case): fields correspond by position.
  const sameShape = fa.length === fb.length && fa.every((x, i) => x.hash === fb[i]!.hash);
  let byHashB: Map<number, RecordField> | undefined;
  if (!sameShape) {
    byHashB = new Map();
    for (const f of fb) byHashB.set(f.hash, f);
  }
  const matched = sameShape ? undefined : new Set<number>();
  for (let xi = 0; xi < fa.length; xi++) {
    const x = fa[xi]!;
    const y = sameShape ? fb[xi] : byHashB!.get(x.hash);
    if (!y) {
      out.push({ field: fieldLabel(x.hash, namer), hash: x.hash, old: f32Shown(show(a, A, readField(a, x, baseA)), x.info?.decoding), new: undefined });
      continue;
    }
    matched?.add(y.hash);
    if ((x.typeByte !== y.typeByte || x.count !== y.count) || !x.info) {
      const va = x.info ? readField(a, x, baseA) : undefined;
      const vb = y.info ? readField(b, y, baseB) : undefined;
      if (!x.info || !y.info || x.typeByte !== y.typeByte || x.count !== y.count) {
        out.push({ field: fieldLabel(x.hash, namer), hash: x.hash, old: va === undefined ? undefined : f32Shown(show(a, A, va), x.info?.decoding), new: vb === undefined ? undefined : f32Shown(show(b, B, vb), y.info?.decoding) });
      }
      continue;
    }
    const d = x.info.decoding;
    for (let i = 0; i < x.count; i++) {
      let same: boolean;
      if (d.kind === 'bool') {
        const bitA = x.link + i;
        const bitB = y.link + i;
        same = ((a.cells[baseA + (bitA >>> 5)]! >>> (bitA & 31)) & 1) === ((b.cells[baseB + (bitB >>> 5)]! >>> (bitB & 31)) & 1);
      } else {
        const ca = a.cells[baseA + x.link + i]!;
        const cb = b.cells[baseB + y.link + i]!;
        if (d.kind === 'f32' || d.kind === 'i32') same = ca === cb;
        else if (d.kind === 'link') same = linkSame(ca, cb);
        else {
          const ba = blockValueBytes(a, d, ca);
          const bb = blockValueBytes(b, d, cb);
          same = ba !== undefined && bb !== undefined ? bytesEqual(ba, bb) : ca === cb;
        }
      }
      if (!same) {
        const ch: FieldChange = { field: fieldLabel(x.hash, namer), hash: x.hash, old: f32Shown(show(a, A, readElement(a, x, baseA, i)), d), new: f32Shown(show(b, B, readElement(b, y, baseB, i)), d) };
        if (x.count !== 1) ch.index = i;
        out.push(ch);
      }
    }
  }
  if (matched) for (const y of fb) if (!matched.has(y.hash)) out.push({ field: fieldLabel(y.hash, namer), hash: y.hash, old: undefined, new: f32Shown(show(b, B, readField(b, y, baseB)), y.info?.decoding) });
  return out;
}

/** A value as the text diff shows it: links bare as `Category/Record`, texts quoted, the rest as JSON. */
export function showValue(v: unknown): string {
  if (v === undefined) return '(absent)';
  if (Array.isArray(v)) return '[' + v.map(showValue).join(', ') + ']';
  if (v !== null && typeof v === 'object' && 'link' in v) return String((v as { link: string }).link);
  if (v !== null && typeof v === 'object' && 'invalidLink' in v) return `<invalid link ${(v as { invalidLink: string }).invalidLink}>`;
  if (typeof v === 'number' && !Number.isFinite(v)) return String(v);
  return JSON.stringify(v);
}

/** The diff as text lines: `+`/`-` categories and records, `~` changed values as `old → new`. Empty when equal. */
export function formatDiffText(d: GadbDiff): string[] {
  const lines: string[] = [];
  for (const h of d.header) lines.push(`~ header ${h.field}: ${showValue(h.old)} → ${showValue(h.new)}`);
  for (const c of d.categoriesRemoved) lines.push(`- category ${c}`);
  for (const c of d.categoriesAdded) lines.push(`+ category ${c}`);
  for (const c of d.categoriesChanged) lines.push(`~ category ${c.category} ${c.what}: ${showValue(c.old)} → ${showValue(c.new)}`);
  for (const r of d.recordsRemoved) lines.push(`- record ${r}`);
  for (const r of d.recordsAdded) lines.push(`+ record ${r}`);
  for (const r of d.recordsChanged) {
    for (const c of r.changes) lines.push(`~ ${r.record}.${c.field}${c.index !== undefined ? `[${c.index}]` : ''}: ${showValue(c.old)} → ${showValue(c.new)}`);
  }
  return lines;
}
