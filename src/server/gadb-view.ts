/**
 * How GameDB answers become the page's JSON: typed values (`TypedValue`), columns, rows, record views, search
 * hits, verify findings. Presentation only; every fact comes from `src/gamedb` and the codec's type table.
 */
import { ToolkitError, type Issue } from '../binary/errors.ts';
import { GADB_TYPE_MASK } from '../formats/gadb/type-codes.ts';
import { NULL_LINK, type Category, type Database, type DbRecord, type Field } from '../gamedb/database.ts';
import { formatHash } from '../gamedb/names.ts';
import { shortestF32 } from '../gamedb/format.ts';
import type { SearchHit as LibrarySearchHit } from '../gamedb/search.ts';
import type { CurveKey, EnumValue } from '../gamedb/values.ts';
import { notesFor } from '../gamedb/edit/notes.ts';
import type { FieldColumn, Finding, RecordRef, RecordRow, RecordView, SearchHit, TypedValue } from './api-types.ts';
import type { Staging } from './staging.ts';

const STRING_ENUM = 5;
/** Array elements and curve keys sent in a compact (table) value; the record view sends all. */
const COMPACT_ITEMS = 8;
const COMPACT_KEYS = 16;

/** A record as the page names it (`file`: the served file it is in, when not the one being viewed). */
export function recordRef(r: DbRecord, file?: string): RecordRef {
  const ref: RecordRef = { index: r.index, category: r.category.name, label: r.label, primary: r.isPrimary };
  if (file !== undefined) ref.file = file;
  return ref;
}

/**
 * Where the links of a database resolve when not in itself: a patch database's links are numbered in the
 * database it applies to, merged with it (H-EDIT-PATCH-LINKS), so they are decoded in `db` (base + patch) and
 * point at records of the served file `file` (the base).
 */
export interface LinkContext {
  db: Database;
  file: string;
}

const linkContexts = new WeakMap<Database, LinkContext>();

/** Makes the links of `db` resolve in `context` (see `LinkContext`). */
export function setLinkContext(db: Database, context: LinkContext): void {
  linkContexts.set(db, context);
}

function hexBytes(b: Uint8Array): string {
  return Array.from(b, (x) => x.toString(16).padStart(2, '0')).join(' ');
}

/** Element `e` of field `f`, typed as the descriptor declares it. */
export function elementValue(f: Field, e: number, compact = false): TypedValue {
  const info = f.type;
  const raw = f.raw(e);
  if (raw === undefined) return { t: 'none' };
  if (!info) return { t: 'raw', hex: formatHash(raw) };
  const dec = info.decoding;
  try {
    switch (dec.kind) {
      case 'bool':
        return { t: 'bool', v: f.value(e) === true };
      case 'f32':
        return { t: 'float', v: shortestF32(f.value(e) as number) };
      case 'i32':
        return { t: 'int', v: f.value(e) as number };
      case 'text': {
        const v = f.value(e);
        if ((f.typeByte & GADB_TYPE_MASK) === STRING_ENUM) {
          const en = v as EnumValue;
          const out: TypedValue = { t: 'enum', v: en.text };
          if (en.hash !== undefined) out.hash = formatHash(en.hash);
          return out;
        }
        return f.isResourcePath ? { t: 'string', v: v as string, resourcePath: true } : { t: 'string', v: v as string };
      }
      case 'fixed': {
        const v = f.value(e);
        return typeof v === 'bigint' ? { t: 'int64', v: v.toString() } : { t: 'vec', v: (v as readonly number[]).map(shortestF32) };
      }
      case 'opaque':
        return { t: 'raw', hex: hexBytes(f.value(e) as Uint8Array) };
      case 'curve': {
        const keys = f.value(e) as readonly CurveKey[];
        const shown = compact ? keys.slice(0, COMPACT_KEYS) : keys;
        // Times are f32; values are f32 for float and vector curves, integers (colour, int, raw words) otherwise.
        const f32 = dec.value === 'f32' || dec.value === 'vec3';
        const num = (x: number) => (f32 ? shortestF32(x) : x);
        const out: TypedValue = { t: 'curve', curve: info.name, keys: shown.map((k) => ({ time: shortestF32(k.time), value: typeof k.value === 'number' ? num(k.value) : k.value.map(num) })) };
        if (shown.length < keys.length) out.more = keys.length - shown.length;
        return out;
      }
      case 'link': {
        const context = linkContexts.get(f.record.db);
        const db = context?.db ?? f.record.db;
        const link = db.decodeLink(raw);
        if (link.target !== undefined) return { t: 'link', raw, target: recordRef(db.record(link.target), context?.file) };
        return raw === NULL_LINK ? { t: 'link', raw, target: null } : { t: 'link', raw, target: null, broken: true };
      }
    }
  } catch (err) {
    if (err instanceof ToolkitError) return { t: 'raw', hex: formatHash(raw), error: err.message };
    throw err;
  }
}

/** The whole field: its one element, an array of its elements, or `none` for count 0. */
export function fieldValue(f: Field, compact = false): TypedValue {
  const n = f.count;
  if (n === 0) return { t: 'none' };
  if (n === 1) return elementValue(f, 0, compact);
  const shown = compact ? Math.min(n, COMPACT_ITEMS) : n;
  const items: TypedValue[] = [];
  for (let i = 0; i < shown; i++) items.push(elementValue(f, i, compact));
  return { t: 'array', items };
}

const EDITABLE = new Set(['bool', 'f32', 'i32', 'text', 'fixed', 'link']);

/** The column of field `f` (shared by every record of its category). */
export function columnOf(f: Field, categoryName: string): FieldColumn {
  const col: FieldColumn = {
    hash: f.hash,
    hex: formatHash(f.hash),
    type: f.typeName,
    typeCode: f.typeByte,
    count: f.count,
    index: f.declIndex,
    editable: f.type !== undefined && EDITABLE.has(f.type.decoding.kind) && f.count > 0,
  };
  if (f.name !== undefined) col.name = f.name;
  const notes = notesFor(categoryName, f.hash);
  if (notes.length > 0) col.note = notes.map((n) => n.note + (n.match === 'category' ? ' (matched by category name)' : '')).join('; ');
  return col;
}

/** Columns per category, with the dictionary size they were named with (a name added since makes them stale). */
const columnCache = new WeakMap<Category, { names: number; columns: FieldColumn[] }>();

/** The columns of a category: the fields of its first record with fields (every record shares the layout, H-RUN-SHAPE). */
export function columnsOf(cat: Category): FieldColumn[] {
  const names = cat.db.names.size;
  let cached = columnCache.get(cat);
  if (!cached || cached.names !== names) {
    cached = { names, columns: cat.firstRecordWithFields()?.fields().map((f) => columnOf(f, cat.name)) ?? [] };
    columnCache.set(cat, cached);
  }
  return cached.columns;
}

/** One table row: a compact value per column, looked up by hash (a record with its own layout still lines up). */
export function rowOf(r: DbRecord, columns: FieldColumn[]): RecordRow {
  return {
    index: r.index,
    position: r.indexInCategory,
    label: r.label,
    primary: r.isPrimary,
    values: columns.map((c) => {
      const f = r.field(c.hash);
      return f ? fieldValue(f, true) : { t: 'none' };
    }),
  };
}

/** The record view: every field with its full value, shared counts and staged value. */
export function recordView(r: DbRecord, staging: Staging): RecordView {
  const cat = r.category;
  return {
    ref: recordRef(r),
    categoryOrdinal: cat.ordinal,
    position: r.indexInCategory,
    linkHex: formatHash(r.linkValue),
    referenceCount: r.db.referenceCount(r),
    fields: r.fields().map((f) => {
      const out: RecordView['fields'][number] = { ...columnOf(f, cat.name), value: fieldValue(f) };
      const staged = staging.stagedValue(r.index, f.hash);
      if (staged) out.staged = staged;
      const shared = f.count === 1 ? f.sharedCount(0) : undefined;
      if (shared !== undefined && shared > 1) out.shared = shared;
      return out;
    }),
  };
}

/** What the page sends as a new value, turned into what `GadbEditor.set` accepts. */
export function editInput(v: unknown): unknown {
  if (typeof v !== 'object' || v === null || !('t' in v)) return v;
  const tv = v as TypedValue;
  switch (tv.t) {
    case 'bool':
    case 'float':
    case 'int':
    case 'string':
    case 'enum':
    case 'int64':
    case 'vec':
      return tv.v;
    case 'link':
      return tv.target === null ? null : `${tv.target.category}/${tv.target.label}`;
    case 'curve':
      return tv.keys.map((k) => [k.time, ...(Array.isArray(k.value) ? k.value : [k.value])]);
    case 'raw':
      return tv.hex;
    default:
      return v;
  }
}

/** The page's form of a search hit. */
export function searchHit(hit: LibrarySearchHit): SearchHit {
  switch (hit.kind) {
    case 'category':
      return { kind: 'category', category: hit.category.name, text: hit.by === 'hash' ? `P919 ${formatHash(hit.category.sortKey)}` : hit.category.name };
    case 'record':
      return { kind: 'record', record: recordRef(hit.record), text: hit.by === 'hash' ? `P919 of the name` : hit.record.label };
    case 'field': {
      const out: SearchHit = { kind: 'field', category: hit.category.name, field: { hex: formatHash(hit.hash) }, text: hit.name ?? formatHash(hit.hash) };
      if (hit.name !== undefined) out.field!.name = hit.name;
      const probe = hit.category.firstRecordWithFields();
      if (probe) out.record = recordRef(probe);
      return out;
    }
    case 'value': {
      const out: SearchHit = { kind: 'value', record: recordRef(hit.record), field: { hex: formatHash(hit.field.hash) }, text: hit.text };
      if (hit.field.name !== undefined) out.field!.name = hit.field.name;
      if (hit.field.count > 1) out.element = hit.element;
      return out;
    }
  }
}

/** Verify issues as findings. */
export function findingsOf(issues: Issue[]): Finding[] {
  return issues.map((i) => {
    const f: Finding = { rule: i.rule, message: i.message, severity: i.severity };
    if (i.offset !== undefined) f.offset = i.offset;
    if (i.path !== undefined) f.path = i.path;
    if (i.hypothesis !== undefined) f.hypothesis = i.hypothesis;
    return f;
  });
}
