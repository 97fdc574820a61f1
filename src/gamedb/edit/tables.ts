/**
 * Tabular exports for other tools: JSONL (one record per line) and CSV (one file per category), with links
 * resolved to `Category/Record`. These are views for reading, filtering and diffing in other tools; the lossless
 * form is `exportGadbJson`.
 */
import type { Gadb } from '../../formats/gadb/types.ts';
import { blockTextBytes, fieldLabel, indexModel, recordFields, type FieldNamer, type ModelIndex } from './model.ts';
import { readField, type ElementValue } from './values.ts';
import { latin1Decode } from '../../binary/text.ts';


/** Decoded values of every record, with labels; shared by the JSONL, CSV and SQLite exports. */
export class RecordView {
  readonly g: Gadb;
  readonly ix: ModelIndex;
  readonly namer: FieldNamer | undefined;
  readonly categoryNames: string[];
  constructor(g: Gadb, namer?: FieldNamer) {
    this.g = g;
    this.ix = indexModel(g);
    this.namer = namer;
    this.categoryNames = g.categories.map((c) => latin1Decode(blockTextBytes(g, c.nameKey)));
  }
  recordName(c: number, i: number): string {
    const cat = this.g.categories[c]!;
    return i < cat.primaryCount ? `#${i}` : latin1Decode(blockTextBytes(this.g, this.g.records.nameKey[this.ix.categoryFirstRecord[c]! + i]!));
  }
  label(c: number, i: number): string {
    return `${this.categoryNames[c]}/${this.recordName(c, i)}`;
  }
  /** A value as plain JSON: links as `Category/Record`, bigints as text, bytes as hex. */
  plain(v: ElementValue | ElementValue[]): unknown {
    if (v === null) return null;
    if (Array.isArray(v)) return (v as unknown[]).map((x) => this.plain(x as ElementValue));
    if (typeof v === 'bigint') return v.toString();
    if (v instanceof Uint8Array) return Array.from(v, (b) => b.toString(16).padStart(2, '0')).join('');
    if (typeof v === 'object') return 'raw' in v ? { raw: v.raw } : this.label(v.category, v.index);
    if (typeof v === 'number' && !Number.isFinite(v)) return String(v);
    return v;
  }
  /** Field label → plain value for record `r` (absolute). */
  values(r: number): Array<{ label: string; hash: number; typeByte: number; count: number; value: unknown }> {
    const base = this.ix.recordCellStart[r]!;
    return recordFields(this.g, r).map((f) => ({ label: fieldLabel(f.hash, this.namer), hash: f.hash, typeByte: f.typeByte, count: f.count, value: this.plain(readField(this.g, f, base)) }));
  }
}

/** JSONL: one line per record `{category, record, index, values}`. */
export function* exportJsonl(g: Gadb, options: { namer?: FieldNamer } = {}): Generator<string> {
  const v = new RecordView(g, options.namer);
  let r = 0;
  for (let c = 0; c < g.categories.length; c++) {
    const cat = g.categories[c]!;
    const lines: string[] = [];
    for (let i = 0; i < cat.primaryCount + cat.secondaryCount; i++, r++) {
      const values: Record<string, unknown> = {};
      for (const f of v.values(r)) values[f.label] = f.value;
      lines.push(JSON.stringify({ category: v.categoryNames[c], record: v.recordName(c, i), index: i, values }));
    }
    if (lines.length > 0) yield lines.join('\n') + '\n';
  }
}

/** RFC 4180 quoting. */
export function csvCell(x: unknown): string {
  const s = x === null || x === undefined ? '' : typeof x === 'string' ? x : JSON.stringify(x);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** A file name for a category (path separators and reserved characters replaced). */
export function categoryFileName(name: string): string {
  return name.replace(/[\\/:*?"<>|\x00-\x1f]/g, '_') || '_';
}

/** CSV per category: a `record` column, then one column per field (links as `Category/Record`, arrays as JSON). */
export function exportCsv(g: Gadb, options: { namer?: FieldNamer } = {}): Array<{ name: string; text: string }> {
  const v = new RecordView(g, options.namer);
  const out: Array<{ name: string; text: string }> = [];
  const used = new Set<string>();
  for (let c = 0; c < g.categories.length; c++) {
    const cat = g.categories[c]!;
    const first = v.ix.categoryFirstRecord[c]!;
    const total = cat.primaryCount + cat.secondaryCount;
    const cols: string[] = [];
    const colSet = new Set<string>();
    const rows: Array<Map<string, unknown>> = [];
    for (let i = 0; i < total; i++) {
      const m = new Map<string, unknown>();
      for (const f of v.values(first + i)) {
        if (!colSet.has(f.label)) {
          colSet.add(f.label);
          cols.push(f.label);
        }
        m.set(f.label, f.value);
      }
      rows.push(m);
    }
    const lines = [['record', ...cols].map(csvCell).join(',')];
    rows.forEach((m, i) => lines.push([v.recordName(c, i), ...cols.map((k) => m.get(k))].map(csvCell).join(',')));
    let name = categoryFileName(v.categoryNames[c]!) + '.csv';
    for (let k = 2; used.has(name.toLowerCase()); k++) name = `${categoryFileName(v.categoryNames[c]!)}~${k}.csv`;
    used.add(name.toLowerCase());
    out.push({ name, text: lines.join('\r\n') + '\r\n' });
  }
  return out;
}
