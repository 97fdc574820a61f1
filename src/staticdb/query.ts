/**
 * Typed search across tables (SDBrowser's search, without the Windows UI): string, integer or float values,
 * results as `table:row:column`.
 */
import { UsageError } from '../binary/errors.ts';
import type { Sd2Value } from '../formats/sd2/values.ts';
import type { StaticDb, StaticDbTable } from './database.ts';

export type Sd2SearchKind = 'auto' | 'string' | 'int' | 'float';

export interface Sd2SearchQuery {
  /** The value as typed by the user. */
  value: string;
  /** `auto` (default): integers search int and float columns, decimals float columns, anything else strings. */
  kind?: Sd2SearchKind;
  /** Restrict to these tables (name, id, `#index`). */
  tables?: (string | number)[];
  /** Strings: whole-value match instead of substring. */
  exact?: boolean;
  /** Strings: case-sensitive (default false). */
  caseSensitive?: boolean;
  /** Floats: relative tolerance (default 1e-6, enough for f32 values typed as decimals). */
  tolerance?: number;
  /** Stop after this many hits (default 1000). */
  limit?: number;
}

export interface Sd2SearchHit {
  table: string;
  tableIndex: number;
  row: number;
  column: string;
  columnIndex: number;
  value: Sd2Value;
  /** `table:row:column`. */
  ref: string;
}

export interface Sd2SearchResult {
  hits: Sd2SearchHit[];
  /** True when the limit cut the search short. */
  truncated: boolean;
}

const INT_KINDS = new Set(['u8', 'u16', 'u32', 'u64', 'i8', 'i16', 'i32', 'i64', 'u16s', 'u32s']);
const FLOAT_KINDS = new Set(['f32', 'f64', 'half', 'f32x', 'halfx', 'vecs']);

function numbersOf(v: Sd2Value): (number | bigint)[] {
  if (v === null) return [];
  if (typeof v === 'number' || typeof v === 'bigint') return [v];
  if (Array.isArray(v)) return (v as unknown[]).flat(2) as number[];
  if (typeof v === 'object' && 'min' in v) return [...v.min, ...v.max];
  return [];
}

/** Searches every (or the chosen) table for a typed value. */
export function searchSd2(db: StaticDb, query: Sd2SearchQuery): Sd2SearchResult {
  const kind = query.kind ?? 'auto';
  const text = query.value;
  const limit = query.limit ?? 1000;
  const wantInt = kind === 'int' || (kind === 'auto' && /^[-+]?(\d+|0x[0-9a-f]+)$/i.test(text.trim()));
  const wantFloat = kind === 'float' || (kind === 'auto' && /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(text.trim()));
  const wantString = kind === 'string' || (kind === 'auto' && !wantInt && !wantFloat);
  let intValue: bigint | undefined;
  if (wantInt) {
    try {
      const t = text.trim();
      intValue = t.startsWith('-') ? -BigInt(t.slice(1)) : BigInt(t.replace(/^\+/, ''));
    } catch {
      throw new UsageError(`not an integer: ${JSON.stringify(text)}`);
    }
  }
  const floatValue = wantFloat ? Number(text) : NaN;
  if (wantFloat && Number.isNaN(floatValue)) throw new UsageError(`not a number: ${JSON.stringify(text)}`);
  const tolerance = query.tolerance ?? 1e-6;
  const needle = query.caseSensitive ? text : text.toLowerCase();
  const tables: StaticDbTable[] = query.tables ? query.tables.map((t) => db.table(t)) : db.tables();
  const hits: Sd2SearchHit[] = [];
  for (const table of tables) {
    const cols = table.columns.filter((c) => (wantString && (c.type.kind === 'string' || c.type.kind === 'char')) || (wantInt && INT_KINDS.has(c.type.kind)) || (wantFloat && FLOAT_KINDS.has(c.type.kind)));
    if (cols.length === 0) continue;
    for (let r = 0; r < table.rowCount; r++) {
      for (const c of cols) {
        const v = table.cell(r, c.index);
        if (v === null) continue;
        let match = false;
        if (typeof v === 'string') {
          const hay = query.caseSensitive ? v : v.toLowerCase();
          match = query.exact ? hay === needle : hay.includes(needle);
        } else if (INT_KINDS.has(c.type.kind)) {
          match = intValue !== undefined && numbersOf(v).some((x) => BigInt(x) === intValue);
        } else {
          match = numbersOf(v).some((x) => Math.abs(Number(x) - floatValue) <= tolerance * Math.max(1, Math.abs(floatValue)));
        }
        if (!match) continue;
        if (hits.length >= limit) return { hits, truncated: true };
        hits.push({ table: table.label, tableIndex: table.index, row: r, column: c.label, columnIndex: c.index, value: v, ref: `${table.label}:${r}:${c.label}` });
      }
    }
  }
  return { hits, truncated: false };
}

export interface Sd2Coverage {
  tables: { total: number; named: number; unnamed: number[] };
  /** Column slots across all tables (a column id used by several tables counts each time). */
  columns: { total: number; named: number; unnamedIds: number[] };
  /** Ids of this database that several names hash to. */
  collisions: { id: number; names: string[]; kind: 'table' | 'column' }[];
}

/** Named and unnamed tables and columns of a database, and the ids whose name is ambiguous. */
export function sd2NameCoverage(db: StaticDb): Sd2Coverage {
  const names = db.names;
  const out: Sd2Coverage = { tables: { total: 0, named: 0, unnamed: [] }, columns: { total: 0, named: 0, unnamedIds: [] }, collisions: [] };
  const unnamedColumns = new Set<number>();
  const seenCollision = new Set<number>();
  const collision = (id: number, kind: 'table' | 'column'): void => {
    const e = names.entry(id);
    if (e && e.names.length > 1 && !seenCollision.has(id)) {
      seenCollision.add(id);
      out.collisions.push({ id, names: [...e.names], kind });
    }
  };
  for (const t of db.tables()) {
    out.tables.total++;
    if (names.has(t.id)) out.tables.named++;
    else out.tables.unnamed.push(t.id);
    collision(t.id, 'table');
    for (const c of t.columns) {
      out.columns.total++;
      if (names.has(c.id)) out.columns.named++;
      else unnamedColumns.add(c.id);
      collision(c.id, 'column');
    }
  }
  out.columns.unnamedIds = [...unnamedColumns];
  return out;
}
