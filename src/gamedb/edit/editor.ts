/**
 * `GadbEditor`: safe edits of a GADB model, keeping every invariant the engine relies on.
 *
 * - Values: a scalar or one array element within the field's count; a Bool as its single bit (the other 31 bits
 *   of its word untouched); texts, enums, 64-bit integers, float pairs, vectors and curves by value, interned in
 *   the string block so no other cell that shared the old value changes (seed "Shared values").
 * - RecordLinks accept any record, but warn when the target's category is not one the field points into
 *   elsewhere (the file stores no declared target; it is learnt from the data).
 * - Element counts: the record gets its own run with the new count and links recomputed by the slot rule; the
 *   run is shared with other records of the category that already have that layout.
 * - Records: add (cloned from a template record, sorted by P919 of the name), remove (links to it become null),
 *   rename (moved to its new sorted place); every RecordLink in the database is renumbered.
 * - Categories: add one of an existing type at its sorted place; category ordinals in every link are renumbered.
 *
 * The editor works on a copy of the model unless `inPlace` is set. It never prints; it returns changes, warnings
 * and the seed's field notes for the caller to show.
 */
import { NotFoundError, ToolkitError, UsageError } from '../../binary/errors.ts';
import { GADB_STORAGE_BY_TYPE_BYTE, StorageCode } from '../../formats/gadb/type-codes.ts';
import { GadbItemKind, type Gadb } from '../../formats/gadb/types.ts';
import { coerceElement, coerceField } from './coerce.ts';
import { StringInterner } from './interner.ts';
import {
  NULL_LINK,
  baseType,
  blockText,
  categoryName,
  cloneGadb,
  ownGadb,
  encodeLink,
  fieldHashOf,
  fieldLabel,
  findCategoryByName,
  findField,
  findRecordByName,
  indexModel,
  p919Hasher,
  recordFields,
  recordLabel,
  type FieldNamer,
  type ModelIndex,
  type NameHasher,
  type RecordAddress,
  type RecordField,
} from './model.ts';
import { KIND_NOTES, notesFor } from './notes.ts';

/** Base type code of StringEnum (type table: 5). */
const STRING_ENUM = 5;
import { decodeLink, defaultElement, elementsEqual, encodeBlockValue, f32Bits, readElement, readField, type ElementValue, type LinkValue } from './values.ts';

export interface EditorOptions {
  /** Hash for names (record, category and field names); default P919 with the built-in table. */
  hasher?: NameHasher;
  /** Field names for messages. */
  namer?: FieldNamer;
  /** Edit the given model itself instead of a copy (default false). */
  inPlace?: boolean;
}

/** A warning or a field note produced by an edit. */
export interface EditMessage {
  severity: 'warning' | 'note';
  /** `Category/Record.Field` (or `Category/Record`). */
  target: string;
  message: string;
}

/** One applied change, for reports. Values are shown as the user would type them. */
export interface EditChange {
  op: 'set' | 'count' | 'add' | 'remove' | 'rename' | 'add-category';
  target: string;
  field?: string;
  index?: number;
  old?: unknown;
  new?: unknown;
}

/** Builds a user-facing form of a value (links as `Category/Record`). */
export type ValueFormatter = (v: ElementValue | ElementValue[]) => unknown;

type TypedArray = Uint8Array | Uint16Array | Uint32Array;

function splice<T extends TypedArray>(arr: T, start: number, del: number, insert: ArrayLike<number>): T {
  const out = new (arr.constructor as new (n: number) => T)(arr.length - del + insert.length);
  out.set(arr.subarray(0, start));
  out.set(insert, start);
  out.set(arr.subarray(start + del), start + insert.length);
  return out;
}

/** One descriptor row as values (for building runs). */
/** A record's layout and cells, as moved between databases. */
export interface RecordContent {
  rows: Row[];
  cells: Uint32Array;
  flags: number;
  unk0A: number;
}

export interface Row {
  declaredHash: number;
  sortedHash: number;
  schemaOrdinal: number;
  sortedToDeclared: number;
  typeCode: number;
  elementCount: number;
  link: number;
}

export class GadbEditor {
  readonly gadb: Gadb;
  readonly hasher: NameHasher;
  readonly namer: FieldNamer | undefined;
  /** Changes applied so far, in order. */
  readonly changes: EditChange[] = [];
  /** Warnings and field notes produced so far, in order. */
  readonly messages: EditMessage[] = [];
  #ix: ModelIndex | undefined;
  #interner: StringInterner;
  #linkTargets = new Map<string, Map<number, number>>();
  #linkFieldsByRun = new Map<number, Uint32Array>();
  #enumValues = new Map<number, Map<string, number>>();

  constructor(g: Gadb, options: EditorOptions = {}) {
    if (options.inPlace) ownGadb(g);
    this.gadb = options.inPlace ? g : cloneGadb(g);
    this.hasher = options.hasher ?? p919Hasher();
    this.namer = options.namer;
    this.#interner = new StringInterner(this.gadb);
  }

  /** Positions of records and categories (rebuilt after structural edits). */
  get index(): ModelIndex {
    return (this.#ix ??= indexModel(this.gadb));
  }

  #structural(): void {
    this.#ix = undefined;
    this.#linkTargets.clear();
    this.#linkFieldsByRun.clear();
  }

  /** The model with its string block compacted; the editor stays usable. */
  finish(): Gadb {
    this.#interner.compact();
    return this.gadb;
  }

  // ---------------------------------------------------------------- addressing

  /** Resolves `category` / `record` (a name, or `#i` for the i-th record, primaries first). */
  record(category: string, record: string): RecordAddress {
    const c = findCategoryByName(this.gadb, category);
    if (c < 0) throw new NotFoundError(`no category named ${JSON.stringify(category)}`);
    const i = findRecordByName(this.gadb, this.index, c, record);
    if (i < 0) throw new NotFoundError(`no record ${JSON.stringify(record)} in category ${JSON.stringify(category)}`);
    return { category: c, index: i, record: this.index.categoryFirstRecord[c]! + i };
  }

  /**
   * Resolves `Category/Record` where both names may contain `/`: every split whose category exists and holds the
   * record; the longest category name wins.
   */
  resolveRecordPath(path: string): RecordAddress {
    let best: RecordAddress | undefined;
    let bestLen = -1;
    for (let i = path.indexOf('/'); i >= 0; i = path.indexOf('/', i + 1)) {
      const c = findCategoryByName(this.gadb, path.slice(0, i));
      if (c < 0) continue;
      const r = findRecordByName(this.gadb, this.index, c, path.slice(i + 1));
      if (r < 0) continue;
      if (i > bestLen) {
        best = { category: c, index: r, record: this.index.categoryFirstRecord[c]! + r };
        bestLen = i;
      }
    }
    if (!best) throw new NotFoundError(`no record ${JSON.stringify(path)} (expected Category/Record)`);
    return best;
  }

  /** Resolves `Category/Record.Field` or `Category/Record.Field[i]` (the field is after the last `.`). */
  resolveFieldPath(path: string): { address: RecordAddress; field: string; index?: number } {
    const m = /^(.*)\.([^./[\]]+)(?:\[(\d+)\])?$/.exec(path);
    if (!m) throw new UsageError(`expected Category/Record.Field, got ${JSON.stringify(path)}`);
    const out: { address: RecordAddress; field: string; index?: number } = { address: this.resolveRecordPath(m[1]!), field: m[2]! };
    if (m[3] !== undefined) out.index = Number(m[3]);
    return out;
  }

  /** `Category/Record` of an address. */
  label(a: RecordAddress): string {
    return recordLabel(this.gadb, this.index, a.category, a.index);
  }

  #cellBase(a: RecordAddress): number {
    return this.index.recordCellStart[a.record]!;
  }

  #field(a: RecordAddress, fieldSpec: string): RecordField {
    const hash = fieldHashOf(fieldSpec, this.hasher);
    const f = findField(this.gadb, a.record, hash);
    if (!f) throw new NotFoundError(`${this.label(a)} has no field ${fieldSpec}${fieldSpec.startsWith('0x') ? '' : ` (${fieldLabel(hash)})`}`);
    return f;
  }

  /** Formats a value for reports: links as `Category/Record`, bigints as text. */
  format(v: ElementValue | ElementValue[]): unknown {
    if (Array.isArray(v) && v.length > 0 && v.every((x) => x === null || (typeof x === 'object' && !Array.isArray(x) && !(x instanceof Uint8Array)))) {
      return (v as ElementValue[]).map((x) => this.format(x));
    }
    if (v === null) return null;
    if (typeof v === 'bigint') return v.toString();
    if (typeof v === 'object' && !Array.isArray(v) && !(v instanceof Uint8Array)) {
      if ('raw' in v) return { raw: v.raw };
      return recordLabel(this.gadb, this.index, v.category, v.index);
    }
    return v;
  }

  /** A value for change reports: links as `{ link: "Category/Record" }` (so they cannot be mistaken for texts). */
  #reportValue(v: ElementValue | ElementValue[]): unknown {
    if (Array.isArray(v) && v.some((x) => x === null || (typeof x === 'object' && !Array.isArray(x) && !(x instanceof Uint8Array)))) return (v as ElementValue[]).map((x) => this.#reportValue(x));
    if (v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Uint8Array) && 'category' in v) return { link: this.format(v) };
    return this.format(v);
  }

  // ---------------------------------------------------------------- values

  /** The decoded value of a field (an array when its count is not 1), or one element with `index`. */
  get(a: RecordAddress, fieldSpec: string, index?: number): ElementValue | ElementValue[] {
    const f = this.#field(a, fieldSpec);
    const base = this.#cellBase(a);
    if (index === undefined) return readField(this.gadb, f, base);
    if (index < 0 || index >= f.count) throw new UsageError(`${this.label(a)}.${fieldSpec}: index ${index} is outside the field's ${f.count} element(s)`);
    return readElement(this.gadb, f, base, index);
  }

  #linkResolver = (text: string): LinkValue => {
    const a = this.resolveLinkText(text);
    return { category: a.category, index: a.index };
  };

  /**
   * Resolves a link target as the tools print one: `Category/Record` (change files, the server's messages),
   * `Category / Record` (the workbench), `Category:Record` and `-> Category:Record` (`scry db show`).
   */
  resolveLinkText(text: string): RecordAddress {
    const t = text.trim().replace(/^->\s*/, '');
    const forms = [t, t.replace(/\s+\/\s+/g, '/')];
    const colon = t.lastIndexOf(':');
    if (colon > 0) forms.push(`${t.slice(0, colon)}/${t.slice(colon + 1)}`);
    for (const form of forms) {
      try {
        return this.resolveRecordPath(form);
      } catch (e) {
        if (!(e instanceof NotFoundError)) throw e;
      }
    }
    throw new NotFoundError(`no record ${JSON.stringify(text)} (expected Category/Record, Category / Record or Category:Record)`);
  }

  /** Texts the database uses for StringEnum field `hash`, with their counts, as the editor first saw them. */
  #enumValuesOf(hash: number): Map<string, number> {
    let m = this.#enumValues.get(hash);
    if (m) return m;
    m = new Map();
    const g = this.gadb;
    const ix = this.index;
    for (let r = 0; r < g.records.count; r++) {
      const f = findField(g, r, hash);
      if (!f || baseType(f) !== STRING_ENUM) continue;
      for (let e = 0; e < f.count; e++) {
        const v = readElement(g, f, ix.recordCellStart[r]!, e);
        if (typeof v === 'string') m.set(v, (m.get(v) ?? 0) + 1);
      }
    }
    this.#enumValues.set(hash, m);
    return m;
  }

  /** A warning for each StringEnum text in `elements` that the database never uses for this field. */
  #enumWarnings(f: RecordField, elements: ElementValue[], target: string): EditMessage[] {
    if (baseType(f) !== STRING_ENUM) return [];
    const used = this.#enumValuesOf(f.hash);
    if (used.size === 0) return [];
    const known = [...used].sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1)).map(([v]) => v);
    const shown = known.slice(0, 12).map((v) => JSON.stringify(v)).join(', ') + (known.length > 12 ? `, … ${known.length - 12} more` : '');
    const out: EditMessage[] = [];
    for (const v of new Set(elements)) {
      if (typeof v !== 'string' || used.has(v)) continue;
      out.push({ severity: 'warning', target, message: `${JSON.stringify(v)} is not a value this database uses for ${fieldLabel(f.hash, this.namer)} (it uses: ${shown}); the engine may not know it` });
    }
    return out;
  }

  /**
   * Sets a field (every element, from an array when the count is not 1) or one element (`index`). `value` may be
   * a JS value or command-line text. Returns the messages this edit produced (warnings, field notes).
   */
  set(a: RecordAddress, fieldSpec: string, value: unknown, options: { index?: number } = {}): EditMessage[] {
    const f = this.#field(a, fieldSpec);
    const target = `${this.label(a)}.${fieldLabel(f.hash, this.namer)}`;
    const { index } = options;
    const base = this.#cellBase(a);
    let elements: ElementValue[];
    let first = 0;
    if (index !== undefined) {
      if (!Number.isInteger(index) || index < 0 || index >= f.count) {
        throw new UsageError(`${target}: index ${index} is outside the field's ${f.count} element(s) (cells past a field's count belong to other fields; change the count first)`);
      }
      elements = [coerceElement(f.info, value, target, this.#linkResolver)];
      first = index;
    } else {
      if (f.count === 0) throw new UsageError(`${target}: the field has no element in this record (count 0); change its count first`);
      elements = coerceField(f.info, f.count, value, target, this.#linkResolver);
    }
    const before = index !== undefined ? readElement(this.gadb, f, base, index) : readField(this.gadb, f, base);
    const out: EditMessage[] = this.#enumWarnings(f, elements, target);
    for (let i = 0; i < elements.length; i++) out.push(...this.#writeElement(a, f, base, first + i, elements[i]!, target));
    const after = index !== undefined ? readElement(this.gadb, f, base, index) : readField(this.gadb, f, base);
    const change: EditChange = { op: 'set', target: this.label(a), field: fieldLabel(f.hash, this.namer), old: this.#reportValue(before), new: this.#reportValue(after) };
    if (index !== undefined) change.index = index;
    this.changes.push(change);
    for (const n of notesFor(categoryName(this.gadb, a.category), f.hash)) out.push({ severity: 'note', target, message: n.note + (n.match === 'category' ? ' (matched by category name)' : '') });
    const kind = f.info?.decoding;
    if (kind && (kind.kind === 'link' || (kind.kind === 'fixed' && kind.element === 'f32'))) out.push({ severity: 'note', target, message: KIND_NOTES.pointer });
    this.messages.push(...out);
    return out;
  }

  #writeElement(a: RecordAddress, f: RecordField, base: number, i: number, v: ElementValue, target: string): EditMessage[] {
    const g = this.gadb;
    const info = f.info!;
    const d = info.decoding;
    switch (d.kind) {
      case 'bool': {
        const bit = f.link + i;
        const cell = base + (bit >>> 5);
        const mask = (1 << (bit & 31)) >>> 0;
        g.cells[cell] = v ? (g.cells[cell]! | mask) >>> 0 : (g.cells[cell]! & ~mask) >>> 0;
        return [];
      }
      case 'f32':
        g.cells[base + f.link + i] = f32Bits(v as number);
        return [];
      case 'i32':
        g.cells[base + f.link + i] = (v as number) >>> 0;
        return [];
      case 'link': {
        const l = v as LinkValue | null;
        if (l === null) {
          g.cells[base + f.link + i] = NULL_LINK;
          return [];
        }
        const cat = g.categories[l.category];
        if (!cat || l.index >= cat.primaryCount + cat.secondaryCount) throw new UsageError(`${target}: link target ${l.category}/${l.index} does not exist`);
        // What the field points into elsewhere, learnt before this cell changes.
        const seen = this.#linkTargetsOf(a.category, f.hash);
        g.cells[base + f.link + i] = encodeLink(l.category, l.index);
        if (seen.size > 0 && !seen.has(l.category)) {
          const where = [...seen.entries()].sort((x, y) => y[1] - x[1]).map(([c, n]) => `${categoryName(g, c)} (${n})`).join(', ');
          return [
            {
              severity: 'warning',
              target,
              message: `links to ${recordLabel(g, this.index, l.category, l.index)}, but this field points into ${where} elsewhere; the engine reads a link target with the declared type's layout`,
            },
          ];
        }
        return [];
      }
      default: {
        const bytes = encodeBlockValue(d, v, target);
        g.cells[base + f.link + i] = this.#interner.intern(info.itemKind, bytes);
        return [];
      }
    }
  }

  /** Target categories (with cell counts) of field `hash` in records of category `c`; else in the whole database. */
  #linkTargetsOf(c: number, hash: number): Map<number, number> {
    const key = `${c}:${hash}`;
    let m = this.#linkTargets.get(key);
    if (m) return m;
    m = this.#scanLinkTargets(hash, c);
    if (m.size === 0) m = this.#scanLinkTargets(hash, -1);
    this.#linkTargets.set(key, m);
    return m;
  }

  #scanLinkTargets(hash: number, onlyCategory: number): Map<number, number> {
    const g = this.gadb;
    const ix = this.index;
    const m = new Map<number, number>();
    const from = onlyCategory >= 0 ? ix.categoryFirstRecord[onlyCategory]! : 0;
    const to = onlyCategory >= 0 ? ix.categoryFirstRecord[onlyCategory + 1]! : g.records.count;
    for (let r = from; r < to; r++) {
      const f = findField(g, r, hash);
      if (!f || GADB_STORAGE_BY_TYPE_BYTE[f.typeByte] !== StorageCode.Link) continue;
      const base = ix.recordCellStart[r]!;
      for (let e = 0; e < f.count; e++) {
        const l = decodeLink(g, g.cells[base + f.link + e]!);
        if (l && !('raw' in l)) m.set(l.category, (m.get(l.category) ?? 0) + 1);
      }
    }
    return m;
  }

  // ---------------------------------------------------------------- layout (element counts)

  /**
   * Changes the element count of an array field in one record. The record's cells are laid out again by the
   * slot rule (Bool words first, then fields by type code and field hash, `count` cells each), keeping the order
   * the file already uses; existing elements keep their values, new ones get the type's default (0, "", null).
   */
  setCount(a: RecordAddress, fieldSpec: string, count: number): EditMessage[] {
    const g = this.gadb;
    const f = this.#field(a, fieldSpec);
    const target = `${this.label(a)}.${fieldLabel(f.hash, this.namer)}`;
    if (!Number.isInteger(count) || count < 0 || count > 0xffff) throw new UsageError(`${target}: count must be 0..65535`);
    if (f.info?.decoding.kind === 'bool') throw new UsageError(`${target}: a Bool's element count cannot be changed (every Bool the engine loads has count 1)`);
    if (!f.info) throw new UsageError(`${target}: the field's type code is unknown to scry`);
    if (count === f.count) return [];
    const oldFields = recordFields(g, a.record);
    const base = this.#cellBase(a);
    const oldValues = oldFields.map((x) => (x.info?.decoding.kind === 'bool' ? null : Array.from({ length: x.count }, (_, i) => g.cells[base + x.link + i]!)));
    const boolWords = g.cells.subarray(base, base + boolWordCount(oldFields)).slice();

    // New links: Bools unchanged; other fields in their current slot order, re-packed.
    const counts = oldFields.map((x) => (x.decl === f.decl ? count : x.count));
    const order = oldFields
      .filter((x) => x.info?.decoding.kind !== 'bool')
      .sort((x, y) => x.link - y.link || (x.count === 0 ? 0 : 1) - (y.count === 0 ? 0 : 1) || (x.typeByte & 0xff) - (y.typeByte & 0xff) || x.hash - y.hash);
    const links = oldFields.map((x) => x.link);
    let slot = boolWords.length;
    for (const x of order) {
      links[x.decl] = slot;
      slot += counts[x.decl]!;
    }
    if (slot > 0xffff) throw new UsageError(`${target}: the record would need ${slot} cells (at most 65535)`);
    const cells = new Uint32Array(slot);
    cells.set(boolWords);
    const defaultCell = (x: RecordField): number => {
      const d = x.info?.decoding;
      if (!d || d.kind === 'f32' || d.kind === 'i32') return 0;
      if (d.kind === 'link') return NULL_LINK;
      return this.#interner.intern(x.info!.itemKind, encodeBlockValue(d, defaultElement(x.info), target));
    };
    for (const x of oldFields) {
      const vals = oldValues[x.decl];
      if (!vals) continue;
      for (let i = 0; i < counts[x.decl]!; i++) cells[links[x.decl]! + i] = i < vals.length ? vals[i]! : defaultCell(x);
    }
    const rows = this.#runRows(a.record).map((row, j) => ({ ...row, elementCount: counts[j]!, link: links[j]! }));
    this.#replaceLayout(a, rows, cells);
    const old = f.count;
    this.changes.push({ op: 'count', target: this.label(a), field: fieldLabel(f.hash, this.namer), old, new: count });
    const out: EditMessage[] = [];
    for (const n of notesFor(categoryName(g, a.category), f.hash)) out.push({ severity: 'note', target, message: n.note });
    this.messages.push(...out);
    return out;
  }

  #runRows(r: number): Row[] {
    const d = this.gadb.descriptors;
    const first = this.gadb.records.firstDescriptor[r]!;
    const n = this.gadb.records.descriptorCount[r]!;
    const rows: Row[] = [];
    for (let k = first; k < first + n; k++) {
      rows.push({
        declaredHash: d.declaredHash[k]!,
        sortedHash: d.sortedHash[k]!,
        schemaOrdinal: d.schemaOrdinal[k]!,
        sortedToDeclared: d.sortedToDeclared[k]!,
        typeCode: d.typeCode[k]!,
        elementCount: d.elementCount[k]!,
        link: d.link[k]!,
      });
    }
    return rows;
  }

  #runMatches(first: number, rows: Row[]): boolean {
    const d = this.gadb.descriptors;
    if (first + rows.length > d.count) return false;
    for (let j = 0; j < rows.length; j++) {
      const k = first + j;
      const r = rows[j]!;
      if (d.declaredHash[k] !== r.declaredHash || d.sortedHash[k] !== r.sortedHash || d.schemaOrdinal[k] !== r.schemaOrdinal || d.sortedToDeclared[k] !== r.sortedToDeclared) return false;
      if (d.typeCode[k] !== r.typeCode || d.elementCount[k] !== r.elementCount || d.link[k] !== r.link) return false;
    }
    return true;
  }

  /** Gives record `a` the run `rows` (an existing identical run of its category, or a new one) and the cells `cells`. */
  #replaceLayout(a: RecordAddress, rows: Row[], cells: Uint32Array): void {
    const g = this.gadb;
    const ix = this.index;
    const oldFirst = g.records.firstDescriptor[a.record]!;
    const oldN = g.records.descriptorCount[a.record]!;
    const n = rows.length;
    // An identical run already used by another record of this category? Else the end of the category's runs.
    let first = -1;
    let lastEnd = -1;
    const from = ix.categoryFirstRecord[a.category]!;
    const to = ix.categoryFirstRecord[a.category + 1]!;
    for (let r = from; r < to; r++) {
      const rn = g.records.descriptorCount[r]!;
      if (rn === 0 || r === a.record) continue;
      const f = g.records.firstDescriptor[r]!;
      lastEnd = Math.max(lastEnd, f + rn);
      if (first < 0 && rn === n && this.#runMatches(f, rows)) first = f;
    }
    if (lastEnd < 0) {
      // No other record of the category has a run: place it after the runs of the categories before it.
      lastEnd = 0;
      for (let r = 0; r < from; r++) if (g.records.descriptorCount[r]! > 0) lastEnd = Math.max(lastEnd, g.records.firstDescriptor[r]! + g.records.descriptorCount[r]!);
    }
    if (first < 0 && oldN === n && n > 0 && this.#runMatches(oldFirst, rows)) first = oldFirst;
    if (first < 0 && n > 0) {
      // A run of a category of the same type (as `addRecord` from such a category shares it).
      const typeName = blockText(g, g.categories[a.category]!.typeNameKey);
      for (let c = 0; c < g.categories.length && first < 0; c++) {
        if (c === a.category || blockText(g, g.categories[c]!.typeNameKey) !== typeName) continue;
        for (let r = ix.categoryFirstRecord[c]!; r < ix.categoryFirstRecord[c + 1]!; r++) {
          if (g.records.descriptorCount[r] === n && this.#runMatches(g.records.firstDescriptor[r]!, rows)) {
            first = g.records.firstDescriptor[r]!;
            break;
          }
        }
      }
    }
    // Cells.
    const start = ix.recordCellStart[a.record]!;
    const oldCount = g.records.cellCount[a.record]!;
    g.cells = splice(g.cells, start, oldCount, cells);
    g.records.cellCount[a.record] = cells.length;
    g.records.descriptorCount[a.record] = n;
    let shiftedOld = oldFirst;
    if (n > 0 && first < 0) {
      // A new run right after the category's last run, so runs stay in category order.
      g.records.firstDescriptor[a.record] = 0;
      g.records.descriptorCount[a.record] = 0;
      first = lastEnd;
      this.#insertRows(first, rows);
      g.records.descriptorCount[a.record] = n;
      if (oldFirst >= first) shiftedOld = oldFirst + n;
    }
    if (n === 0) first = 0; // a zero-field record points at descriptor 0 (H-ZERO-FIELD)
    g.records.firstDescriptor[a.record] = first;
    this.#structural();
    if (oldN > 0) this.#collectRun(shiftedOld, oldN);
  }

  #insertRows(at: number, rows: Row[]): void {
    const d = this.gadb.descriptors;
    const col = (name: keyof Row) => rows.map((r) => r[name]);
    d.declaredHash = splice(d.declaredHash, at, 0, col('declaredHash'));
    d.sortedHash = splice(d.sortedHash, at, 0, col('sortedHash'));
    d.schemaOrdinal = splice(d.schemaOrdinal, at, 0, col('schemaOrdinal'));
    d.sortedToDeclared = splice(d.sortedToDeclared, at, 0, col('sortedToDeclared'));
    d.typeCode = splice(d.typeCode, at, 0, col('typeCode'));
    d.elementCount = splice(d.elementCount, at, 0, col('elementCount'));
    d.link = splice(d.link, at, 0, col('link'));
    d.count += rows.length;
    const rec = this.gadb.records;
    for (let r = 0; r < rec.count; r++) if (rec.descriptorCount[r]! > 0 && rec.firstDescriptor[r]! >= at) rec.firstDescriptor[r] = rec.firstDescriptor[r]! + rows.length;
  }

  /** Removes the run `[first, first + n)` when no record uses it any more. */
  #collectRun(first: number, n: number): void {
    if (n === 0) return;
    const rec = this.gadb.records;
    for (let r = 0; r < rec.count; r++) if (rec.descriptorCount[r]! > 0 && rec.firstDescriptor[r]! < first + n && rec.firstDescriptor[r]! + rec.descriptorCount[r]! > first) return;
    const d = this.gadb.descriptors;
    d.declaredHash = splice(d.declaredHash, first, n, []);
    d.sortedHash = splice(d.sortedHash, first, n, []);
    d.schemaOrdinal = splice(d.schemaOrdinal, first, n, []);
    d.sortedToDeclared = splice(d.sortedToDeclared, first, n, []);
    d.typeCode = splice(d.typeCode, first, n, []);
    d.elementCount = splice(d.elementCount, first, n, []);
    d.link = splice(d.link, first, n, []);
    d.count -= n;
    for (let r = 0; r < rec.count; r++) if (rec.descriptorCount[r]! > 0 && rec.firstDescriptor[r]! > first) rec.firstDescriptor[r] = rec.firstDescriptor[r]! - n;
  }

  // ---------------------------------------------------------------- links renumbering

  /** Calls `fn(cellIndex)` for every RecordLink cell of the database. */
  forEachLinkCell(fn: (cell: number, record: number) => void): void {
    const g = this.gadb;
    const { records, descriptors: d } = g;
    let start = 0;
    for (let r = 0; r < records.count; r++) {
      const first = records.firstDescriptor[r]!;
      const n = records.descriptorCount[r]!;
      const cc = records.cellCount[r]!;
      if (n > 0) {
        const key = first * 256 + n;
        let lf = this.#linkFieldsByRun.get(key);
        if (!lf) {
          const tmp: number[] = [];
          for (let k = first; k < first + n; k++) if (GADB_STORAGE_BY_TYPE_BYTE[d.typeCode[k]!] === StorageCode.Link) tmp.push(d.link[k]!, d.elementCount[k]!);
          lf = Uint32Array.from(tmp);
          this.#linkFieldsByRun.set(key, lf);
        }
        for (let i = 0; i < lf.length; i += 2) {
          const end = Math.min(cc, lf[i]! + lf[i + 1]!);
          for (let e = lf[i]!; e < end; e++) fn(start + e, r);
        }
      }
      start += cc;
    }
  }

  /** Rewrites every link with `map(category, index)` → new `[category, index]`, or null for a removed target. */
  #renumberLinks(map: (category: number, index: number) => [number, number] | null): void {
    const cells = this.gadb.cells;
    this.forEachLinkCell((k) => {
      const v = cells[k]!;
      if (v === NULL_LINK) return;
      const m = map(v >>> 20, v & 0xfffff);
      cells[k] = m === null ? NULL_LINK : encodeLink(m[0], m[1]);
    });
  }

  // ---------------------------------------------------------------- records

  #secondaryPosition(c: number, hash: number, except = -1): number {
    const g = this.gadb;
    const cat = g.categories[c]!;
    const base = this.index.categoryFirstRecord[c]!;
    let lo = cat.primaryCount;
    let hi = cat.primaryCount + cat.secondaryCount;
    const hashOf = (i: number): number => this.hasher(blockText(g, g.records.nameKey[base + i]!)) >>> 0;
    // Binary search over the stored order (ascending P919(name)); `except` is skipped by a linear check.
    if (except < 0) {
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        const h = hashOf(mid);
        if (h === hash) throw new UsageError(`category ${categoryName(g, c)} already has a record whose name hashes to 0x${hash.toString(16).toUpperCase().padStart(8, '0')} (${blockText(g, g.records.nameKey[base + mid]!)})`);
        if (h < hash) lo = mid + 1;
        else hi = mid;
      }
      return lo;
    }
    let pos = cat.primaryCount;
    for (let i = cat.primaryCount; i < cat.primaryCount + cat.secondaryCount; i++) {
      if (i === except) continue;
      const h = hashOf(i);
      if (h === hash) throw new UsageError(`category ${categoryName(g, c)} already has a record whose name hashes to 0x${hash.toString(16).toUpperCase().padStart(8, '0')}`);
      if (h < hash) pos = i + 1;
    }
    return pos;
  }

  /**
   * Adds a secondary record named `name` to `category`, a copy of `from` (a record of the same category, or
   * `Category/Record` elsewhere); by default the category's `DEFAULT_RECORD_NAME…` placeholder, else its first
   * secondary. It is inserted at its sorted place; links are renumbered.
   */
  addRecord(category: string, name: string, options: { from?: string; content?: RecordContent } = {}): RecordAddress {
    const g = this.gadb;
    const c = findCategoryByName(g, category);
    if (c < 0) throw new NotFoundError(`no category named ${JSON.stringify(category)}`);
    if (name.length === 0 || /^#\d+$/.test(name)) throw new UsageError(`invalid record name ${JSON.stringify(name)}`);
    const hash = this.hasher(name) >>> 0;
    const template = options.content ? undefined : this.#template(c, options.from);
    const pos = this.#secondaryPosition(c, hash);
    const ix = this.index;
    const at = ix.categoryFirstRecord[c]! + pos;
    const tr = template?.record ?? -1;
    const tStart = tr >= 0 ? ix.recordCellStart[tr]! : 0;
    const tCells = tr >= 0 ? g.cells.slice(tStart, tStart + g.records.cellCount[tr]!) : new Uint32Array(0);
    const nameKey = this.#interner.intern(GadbItemKind.Text, encodeBlockValue({ kind: 'text' }, name, `${category}/${name}`));
    const rec = g.records;
    const insertAt = ix.recordCellStart[at]!;
    rec.nameKey = splice(rec.nameKey, at, 0, [nameKey]);
    rec.cellCount = splice(rec.cellCount, at, 0, [tr >= 0 ? rec.cellCount[tr]! : 0]);
    rec.descriptorCount = splice(rec.descriptorCount, at, 0, [tr >= 0 ? rec.descriptorCount[tr]! : 0]);
    rec.firstDescriptor = splice(rec.firstDescriptor, at, 0, [tr >= 0 ? rec.firstDescriptor[tr]! : 0]);
    rec.unk0A = splice(rec.unk0A, at, 0, [tr >= 0 ? rec.unk0A[tr]! : 0]);
    rec.flags = splice(rec.flags, at, 0, [tr >= 0 ? rec.flags[tr]! : 0]);
    rec.count++;
    g.cells = splice(g.cells, insertAt, 0, tCells);
    const secondariesBefore = this.#secondaryTotal();
    g.categories[c]!.secondaryCount++;
    if (g.header.recordCount === secondariesBefore) g.header.recordCount++;
    this.#structural();
    // Links into the category at or after the new place move up by one (the copied cells' links included).
    this.#renumberLinks((cc, i) => [cc, cc === c && i >= pos ? i + 1 : i]);
    const address = { category: c, index: pos, record: at };
    if (options.content) this.replaceRecordContent(address, options.content);
    const change: EditChange = { op: 'add', target: this.label(address), new: this.label(address) };
    if (template) change.old = `copy of ${recordLabel(g, this.index, template.category, template.category === c && template.index >= pos ? template.index + 1 : template.index)}`;
    this.changes.push(change);
    if (template && g.categories[template.category]!.typeNameKey !== g.categories[c]!.typeNameKey) {
      this.messages.push({ severity: 'warning', target: this.label(address), message: `the template record is of another type (${blockText(g, g.categories[template.category]!.typeNameKey)})` });
    }
    return address;
  }

  #secondaryTotal(): number {
    let n = 0;
    for (const c of this.gadb.categories) n += c.secondaryCount;
    return n;
  }

  #template(c: number, from: string | undefined): RecordAddress {
    const g = this.gadb;
    const ix = this.index;
    if (from !== undefined) {
      const local = findRecordByName(g, ix, c, from);
      if (local >= 0) return { category: c, index: local, record: ix.categoryFirstRecord[c]! + local };
      return this.resolveRecordPath(from);
    }
    const cat = g.categories[c]!;
    const base = ix.categoryFirstRecord[c]!;
    for (let i = cat.primaryCount; i < cat.primaryCount + cat.secondaryCount; i++) {
      if (blockText(g, g.records.nameKey[base + i]!).startsWith('DEFAULT_RECORD_NAME')) return { category: c, index: i, record: base + i };
    }
    if (cat.secondaryCount > 0) return { category: c, index: cat.primaryCount, record: base + cat.primaryCount };
    // An empty category: a record of another category of the same type.
    for (let o = 0; o < g.categories.length; o++) {
      const oc = g.categories[o]!;
      if (o !== c && oc.typeNameKey === cat.typeNameKey && oc.secondaryCount > 0) {
        const b = ix.categoryFirstRecord[o]! + oc.primaryCount;
        return { category: o, index: oc.primaryCount, record: b };
      }
    }
    throw new UsageError(`category ${categoryName(g, c)} has no record to copy; give one with --from Category/Record`);
  }

  /**
   * Removes a secondary record. Links to it become null (the referrers are reported as warnings); links to later
   * records of its category are renumbered.
   */
  removeRecord(a: RecordAddress): EditMessage[] {
    const g = this.gadb;
    if (a.index < g.categories[a.category]!.primaryCount) throw new UsageError(`${this.label(a)} is a primary (inline structure); only named records can be removed`);
    const label = this.label(a);
    const ix = this.index;
    // Referrers, for the report.
    const referrers = new Map<number, number>();
    const target = encodeLink(a.category, a.index);
    this.forEachLinkCell((k, r) => {
      if (g.cells[k] === target && r !== a.record) referrers.set(r, (referrers.get(r) ?? 0) + 1);
    });
    const referrerLabels = [...referrers.keys()].map((r) => {
      const c = ix.recordCategory[r]!;
      return recordLabel(g, ix, c, r - ix.categoryFirstRecord[c]!);
    });
    const start = ix.recordCellStart[a.record]!;
    const cc = g.records.cellCount[a.record]!;
    const first = g.records.firstDescriptor[a.record]!;
    const n = g.records.descriptorCount[a.record]!;
    const rec = g.records;
    const at = a.record;
    rec.nameKey = splice(rec.nameKey, at, 1, []);
    rec.cellCount = splice(rec.cellCount, at, 1, []);
    rec.descriptorCount = splice(rec.descriptorCount, at, 1, []);
    rec.firstDescriptor = splice(rec.firstDescriptor, at, 1, []);
    rec.unk0A = splice(rec.unk0A, at, 1, []);
    rec.flags = splice(rec.flags, at, 1, []);
    rec.count--;
    g.cells = splice(g.cells, start, cc, []);
    const secondariesBefore = this.#secondaryTotal();
    g.categories[a.category]!.secondaryCount--;
    if (g.header.recordCount === secondariesBefore) g.header.recordCount--;
    this.#structural();
    this.#collectRun(first, n);
    this.#renumberLinks((c, i) => (c !== a.category || i < a.index ? [c, i] : i === a.index ? null : [c, i - 1]));
    this.changes.push({ op: 'remove', target: label, old: label });
    const out: EditMessage[] = referrerLabels.map((r) => ({ severity: 'warning' as const, target: r, message: `linked to ${label}; the link is now null` }));
    this.messages.push(...out);
    return out;
  }

  /** Renames a secondary record; it moves to its new sorted place and every link follows it. */
  renameRecord(a: RecordAddress, newName: string): RecordAddress {
    const g = this.gadb;
    if (a.index < g.categories[a.category]!.primaryCount) throw new UsageError(`${this.label(a)} is a primary (inline structure) and has no name`);
    if (newName.length === 0 || /^#\d+$/.test(newName)) throw new UsageError(`invalid record name ${JSON.stringify(newName)}`);
    const oldLabel = this.label(a);
    const hash = this.hasher(newName) >>> 0;
    const posWithGap = this.#secondaryPosition(a.category, hash, a.index);
    const to = posWithGap > a.index ? posWithGap - 1 : posWithGap;
    const nameKey = this.#interner.intern(GadbItemKind.Text, encodeBlockValue({ kind: 'text' }, newName, `${oldLabel} → ${newName}`));
    g.records.nameKey[a.record] = nameKey;
    if (to !== a.index) this.#moveRecord(a, to);
    const moved = { category: a.category, index: to, record: this.index.categoryFirstRecord[a.category]! + to };
    this.changes.push({ op: 'rename', target: this.label(moved), old: oldLabel, new: this.label(moved) });
    return moved;
  }

  #moveRecord(a: RecordAddress, to: number): void {
    const g = this.gadb;
    const ix = this.index;
    const from = a.index;
    const dst = ix.categoryFirstRecord[a.category]! + to;
    const rec = g.records;
    const start = ix.recordCellStart[a.record]!;
    const cells = g.cells.slice(start, start + rec.cellCount[a.record]!);
    const take = <T extends TypedArray>(arr: T): T => {
      const v = arr[a.record]!;
      const without = splice(arr, a.record, 1, []);
      return splice(without, dst, 0, [v]);
    };
    rec.nameKey = take(rec.nameKey);
    rec.cellCount = take(rec.cellCount);
    rec.descriptorCount = take(rec.descriptorCount);
    rec.firstDescriptor = take(rec.firstDescriptor);
    rec.unk0A = take(rec.unk0A);
    rec.flags = take(rec.flags);
    const without = splice(g.cells, start, cells.length, []);
    this.#structural();
    // Cell start of `dst` in the array without the moved record.
    // rec.* already has the record at dst: the records before it in the new order own the cells before it.
    let dstStart = 0;
    for (let r = 0; r < dst; r++) dstStart += rec.cellCount[r]!;
    g.cells = splice(without, dstStart, 0, cells);
    this.#structural();
    this.#renumberLinks((c, i) => {
      if (c !== a.category) return [c, i];
      if (i === from) return [c, to];
      if (from < to && i > from && i <= to) return [c, i - 1];
      if (to < from && i >= to && i < from) return [c, i + 1];
      return [c, i];
    });
  }

  // ---------------------------------------------------------------- transfer between databases (patches)

  /**
   * The run rows and cells of record `r` of `src`, ready to be placed in this database: string-block values are
   * interned here by value, links are kept as they are (the caller decides what numbering they are in).
   */
  importRecordContent(src: Gadb, r: number, srcCellStart: number): RecordContent {
    const d = src.descriptors;
    const first = src.records.firstDescriptor[r]!;
    const n = src.records.descriptorCount[r]!;
    const rows: Row[] = [];
    for (let k = first; k < first + n; k++) {
      rows.push({ declaredHash: d.declaredHash[k]!, sortedHash: d.sortedHash[k]!, schemaOrdinal: d.schemaOrdinal[k]!, sortedToDeclared: d.sortedToDeclared[k]!, typeCode: d.typeCode[k]!, elementCount: d.elementCount[k]!, link: d.link[k]! });
    }
    const cc = src.records.cellCount[r]!;
    const cells = src.cells.slice(srcCellStart, srcCellStart + cc);
    for (const f of recordFields(src, r)) {
      const info = f.info;
      if (!info || GADB_STORAGE_BY_TYPE_BYTE[f.typeByte] !== StorageCode.Block) continue;
      for (let e = 0; e < f.count && f.link + e < cc; e++) {
        const v = readElement(src, f, srcCellStart, e);
        cells[f.link + e] = this.#interner.intern(info.itemKind, encodeBlockValue(info.decoding, v, 'import'));
      }
    }
    return { rows, cells, flags: src.records.flags[r]!, unk0A: src.records.unk0A[r]! };
  }

  /** Replaces the layout (run) and cells of record `a` with content from `importRecordContent`. */
  replaceRecordContent(a: RecordAddress, content: RecordContent): void {
    this.#replaceLayout(a, content.rows, content.cells);
    this.gadb.records.flags[a.record] = content.flags;
    this.gadb.records.unk0A[a.record] = content.unk0A;
  }

  /**
   * Adds a category with the given type name and +0x08 texts at its sorted place (links renumbered). `sortKey`
   * (P919 of the name) is taken from a source database when known, so names with characters of unknown P919 value
   * can be copied.
   */
  addCategoryNamed(name: string, typeName: string, unk08: string, sortKey?: number): number {
    const g = this.gadb;
    if (findCategoryByName(g, name) >= 0) throw new UsageError(`category ${JSON.stringify(name)} already exists`);
    const key = sortKey ?? this.hasher(name) >>> 0;
    let pos = 0;
    while (pos < g.categories.length && g.categories[pos]!.sortKey < key) pos++;
    if (pos < g.categories.length && g.categories[pos]!.sortKey === key) throw new UsageError(`category ${categoryName(g, pos)} already has the sort key 0x${key.toString(16).toUpperCase()}`);
    const text = (t: string): number => this.#interner.intern(GadbItemKind.Text, encodeBlockValue({ kind: 'text' }, t, name));
    g.categories.splice(pos, 0, { nameKey: text(name), typeNameKey: text(typeName), unk08Key: text(unk08), primaryCount: 0, secondaryCount: 0, sortKey: key });
    this.#structural();
    this.#renumberLinks((c, i) => [c >= pos ? c + 1 : c, i]);
    this.changes.push({ op: 'add-category', target: name, new: name });
    return pos;
  }

  // ---------------------------------------------------------------- categories

  /**
   * Adds an empty category `name` of the same type as `like` (its +0x04 type name and +0x08 string are copied),
   * at its place in P919 order; links into later categories are renumbered.
   */
  addCategory(name: string, like: string): number {
    const g = this.gadb;
    const t = findCategoryByName(g, like);
    if (t < 0) throw new NotFoundError(`no category named ${JSON.stringify(like)}`);
    if (findCategoryByName(g, name) >= 0) throw new UsageError(`category ${JSON.stringify(name)} already exists`);
    const key = this.hasher(name) >>> 0;
    let pos = 0;
    while (pos < g.categories.length && g.categories[pos]!.sortKey < key) pos++;
    if (pos < g.categories.length && g.categories[pos]!.sortKey === key) throw new UsageError(`category ${categoryName(g, pos)} already has the sort key 0x${key.toString(16).toUpperCase()}`);
    if (g.categories.length >= 0xfff) throw new ToolkitError('E_USAGE', 'a RecordLink has 12 bits of category ordinal: no room for another category');
    const tmpl = g.categories[t]!;
    const nameKey = this.#interner.intern(GadbItemKind.Text, encodeBlockValue({ kind: 'text' }, name, name));
    g.categories.splice(pos, 0, { nameKey, typeNameKey: tmpl.typeNameKey, unk08Key: tmpl.unk08Key, primaryCount: 0, secondaryCount: 0, sortKey: key });
    this.#structural();
    this.#renumberLinks((c, i) => [c >= pos ? c + 1 : c, i]);
    this.changes.push({ op: 'add-category', target: name, new: name, old: `type of ${like}` });
    return pos;
  }

  // ---------------------------------------------------------------- comparisons used by change files

  /** True when two values of a field are equal. */
  static equal(a: ElementValue | ElementValue[], b: ElementValue | ElementValue[]): boolean {
    return elementsEqual(a as ElementValue, b as ElementValue);
  }
}

/** Number of leading Bool words of a record's fields (0 when it has no Bool, H-SLOT-NOBOOL). */
export function boolWordCount(fields: RecordField[]): number {
  let words = 0;
  for (const f of fields) {
    if (f.info?.decoding.kind !== 'bool' || f.count === 0) continue;
    words = Math.max(words, ((f.link + f.count - 1) >>> 5) + 1);
  }
  return words;
}
