/**
 * Per-column filters and sorting of a category's record table (xEdit-style), computed on the server over every
 * record of the category, then paged like the plain table. A filter is matched against the text the page shows
 * for the value (`valueText`), case-insensitively:
 *
 *   text      the value contains it            =text   the value is exactly it
 *   !text     the value does not contain it    >N >=N <N <=N   a number compared (Float, Int, Bool as 0/1)
 *
 * Sorting compares numbers as numbers, texts as texts (case-insensitive), and puts records without the field
 * last. The record column (`record`) filters and sorts by the record's label.
 */
import { UsageError } from '../binary/errors.ts';
import type { Category, DbRecord } from '../gamedb/database.ts';
import type { FieldColumn, TypedValue } from './api-types.ts';
import { fieldValue } from './gadb-view.ts';
import { valueText } from './value-text.ts';

/** `record` (the label) or the index of a field column. */
type ColumnRef = 'record' | number;

export interface TableQuery {
  sort?: { column: ColumnRef; desc: boolean };
  filters: { column: ColumnRef; test: (text: string, value: number) => boolean; source: string }[];
}

function columnRef(name: string, columns: FieldColumn[]): ColumnRef {
  if (name === 'record') return 'record';
  const i = columns.findIndex((c) => c.hex.toLowerCase() === name.toLowerCase() || (c.name !== undefined && c.name === name));
  if (i < 0) throw new UsageError(`no column ${JSON.stringify(name)} in this category`);
  return i;
}

/** A filter's test: over the value's text (lower-cased) and its number (NaN when not numeric). */
export function filterTest(filter: string): (text: string, value: number) => boolean {
  const f = filter.trim();
  const cmp = /^(>=|<=|>|<)\s*(-?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?)$/i.exec(f);
  if (cmp) {
    const n = Number(cmp[2]);
    switch (cmp[1]) {
      case '>':
        return (_t, v) => v > n;
      case '>=':
        return (_t, v) => v >= n;
      case '<':
        return (_t, v) => v < n;
      default:
        return (_t, v) => v <= n;
    }
  }
  if (f.startsWith('=')) {
    const want = f.slice(1).trim().toLowerCase();
    const n = want !== '' && Number.isFinite(Number(want)) ? Number(want) : NaN;
    return (t, v) => t === want || (!Number.isNaN(n) && v === n);
  }
  if (f.startsWith('!')) {
    const not = f.slice(1).trim().toLowerCase();
    return (t) => !t.includes(not);
  }
  const needle = f.toLowerCase();
  return (t) => t.includes(needle);
}

/** Reads `?sort=COLUMN&dir=desc&filter.COLUMN=TEXT…` (COLUMN: `record`, a field's `0x…` hash or its name). */
export function parseTableQuery(query: URLSearchParams, columns: FieldColumn[]): TableQuery {
  const out: TableQuery = { filters: [] };
  const sort = query.get('sort');
  if (sort) out.sort = { column: columnRef(sort, columns), desc: query.get('dir') === 'desc' };
  for (const [key, value] of query) {
    if (!key.startsWith('filter.') || value.trim() === '') continue;
    out.filters.push({ column: columnRef(key.slice('filter.'.length), columns), test: filterTest(value), source: `${key.slice(7)}=${value}` });
  }
  return out;
}

/** A cache key for a query (the same filters in any order give the same key). */
export function tableQueryKey(query: URLSearchParams): string {
  const parts = [`sort=${query.get('sort') ?? ''}`, `dir=${query.get('dir') ?? ''}`];
  for (const [k, v] of [...query].filter(([k, v]) => k.startsWith('filter.') && v.trim() !== '').sort((a, b) => (a[0] < b[0] ? -1 : 1))) parts.push(`${k}=${v.trim()}`);
  return parts.join('&');
}

function numberOf(v: TypedValue): number {
  if (v.t === 'float' || v.t === 'int') return v.v;
  if (v.t === 'bool') return v.v ? 1 : 0;
  if (v.t === 'int64') return Number(v.v);
  return NaN;
}

/** Positions (within the category) of the records the query keeps, in its order. */
export function queryRecords(cat: Category, columns: FieldColumn[], q: TableQuery): Uint32Array {
  const n = cat.recordCount;
  const cell = (r: DbRecord, column: ColumnRef): { text: string; value: number; none: boolean } => {
    if (column === 'record') return { text: r.label.toLowerCase(), value: Number(r.label), none: false };
    const f = r.field(columns[column]!.hash);
    const v: TypedValue = f ? fieldValue(f) : { t: 'none' };
    return { text: valueText(v).toLowerCase(), value: numberOf(v), none: v.t === 'none' };
  };
  const kept: number[] = [];
  for (let i = 0; i < n; i++) {
    const r = cat.at(i)!;
    if (q.filters.every((flt) => {
      const c = cell(r, flt.column);
      return flt.test(c.text, c.value);
    })) kept.push(i);
  }
  if (q.sort) {
    const { column, desc } = q.sort;
    const keys = new Map<number, { text: string; value: number; none: boolean }>();
    for (const i of kept) keys.set(i, cell(cat.at(i)!, column));
    const numeric = [...keys.values()].every((k) => k.none || !Number.isNaN(k.value));
    kept.sort((a, b) => {
      const x = keys.get(a)!;
      const y = keys.get(b)!;
      if (x.none !== y.none) return x.none ? 1 : -1;
      const c = numeric ? x.value - y.value : x.text < y.text ? -1 : x.text > y.text ? 1 : 0;
      return (desc ? -c : c) || a - b;
    });
  }
  return Uint32Array.from(kept);
}
