/**
 * Semantic diff of two databases (the emulator community diffs builds): tables added and removed, column
 * changes, rows added and removed, changed cells. Rows are matched by their first column when it is a unique key
 * in both tables, else by index. Values are compared decoded, so re-encoding (pool order, key forms, deflate)
 * is not a difference.
 */
import { sd2JsonValue } from './export.ts';
import type { StaticDb, StaticDbTable } from './database.ts';
import type { Sd2Value } from '../formats/sd2/values.ts';

export interface Sd2CellChange {
  /** Row key (first-column value) or `#index`. */
  row: string;
  column: string;
  before: unknown;
  after: unknown;
}

export interface Sd2TableDiff {
  table: string;
  id: number;
  columnsAdded: string[];
  columnsRemoved: string[];
  /** Columns whose type changed: `label: Before → After`. */
  columnsRetyped: string[];
  rowsAdded: string[];
  rowsRemoved: string[];
  cellsChanged: Sd2CellChange[];
  /** True when a limit cut the lists short. */
  truncated: boolean;
}

export interface Sd2Diff {
  tablesAdded: string[];
  tablesRemoved: string[];
  tables: Sd2TableDiff[];
  /** True when anything differs. */
  different: boolean;
}

const same = (a: Sd2Value, b: Sd2Value): boolean => JSON.stringify(sd2JsonValue(a)) === JSON.stringify(sd2JsonValue(b));

function rowKeys(t: StaticDbTable): string[] | undefined {
  if (t.columns.length === 0) return undefined;
  const keys: string[] = [];
  const seen = new Set<string>();
  for (let r = 0; r < t.rowCount; r++) {
    const v = t.cell(r, 0);
    if (v === null) return undefined;
    const k = JSON.stringify(sd2JsonValue(v));
    if (seen.has(k)) return undefined;
    seen.add(k);
    keys.push(k);
  }
  return keys;
}

function diffTable(a: StaticDbTable, b: StaticDbTable, limit: number): Sd2TableDiff {
  const out: Sd2TableDiff = { table: b.label, id: b.id, columnsAdded: [], columnsRemoved: [], columnsRetyped: [], rowsAdded: [], rowsRemoved: [], cellsChanged: [], truncated: false };
  const aCols = new Map(a.columns.map((c) => [c.id, c]));
  const bCols = new Map(b.columns.map((c) => [c.id, c]));
  for (const c of b.columns) if (!aCols.has(c.id)) out.columnsAdded.push(c.label);
  for (const c of a.columns) if (!bCols.has(c.id)) out.columnsRemoved.push(c.label);
  const shared = b.columns.filter((c) => aCols.has(c.id)).map((c) => ({ b: c, a: aCols.get(c.id)! }));
  for (const { a: ca, b: cb } of shared) if (ca.typeId !== cb.typeId) out.columnsRetyped.push(`${cb.label}: ${ca.type.name} → ${cb.type.name}`);
  const keyed = a.columns[0]?.id === b.columns[0]?.id;
  const aKeys = keyed ? rowKeys(a) : undefined;
  const bKeys = keyed && aKeys ? rowKeys(b) : undefined;
  const pairs: [number, number, string][] = [];
  if (aKeys && bKeys) {
    const aIndex = new Map(aKeys.map((k, i) => [k, i]));
    const bSet = new Set(bKeys);
    bKeys.forEach((k, i) => (aIndex.has(k) ? pairs.push([aIndex.get(k)!, i, k]) : out.rowsAdded.push(k)));
    aKeys.forEach((k) => !bSet.has(k) && out.rowsRemoved.push(k));
  } else {
    const n = Math.min(a.rowCount, b.rowCount);
    for (let i = 0; i < n; i++) pairs.push([i, i, `#${i}`]);
    for (let i = n; i < b.rowCount; i++) out.rowsAdded.push(`#${i}`);
    for (let i = n; i < a.rowCount; i++) out.rowsRemoved.push(`#${i}`);
  }
  for (const [ra, rb, key] of pairs) {
    for (const { a: ca, b: cb } of shared) {
      const va = a.cell(ra, ca.index);
      const vb = b.cell(rb, cb.index);
      if (same(va, vb)) continue;
      if (out.cellsChanged.length >= limit) {
        out.truncated = true;
        break;
      }
      out.cellsChanged.push({ row: key, column: cb.label, before: sd2JsonValue(va), after: sd2JsonValue(vb) });
    }
  }
  if (out.rowsAdded.length > limit || out.rowsRemoved.length > limit) out.truncated = true;
  out.rowsAdded = out.rowsAdded.slice(0, limit);
  out.rowsRemoved = out.rowsRemoved.slice(0, limit);
  return out;
}

/** Compares two databases table by table (tables matched by id). `limit` caps each list per table (default 1000). */
export function diffSd2(a: StaticDb, b: StaticDb, options: { limit?: number } = {}): Sd2Diff {
  const limit = options.limit ?? 1000;
  const aTables = new Map(a.tables().map((t) => [t.id, t]));
  const bIds = new Set(b.tables().map((t) => t.id));
  const result: Sd2Diff = { tablesAdded: [], tablesRemoved: [], tables: [], different: false };
  for (const t of b.tables()) {
    const old = aTables.get(t.id);
    if (!old) {
      result.tablesAdded.push(t.label);
      continue;
    }
    const d = diffTable(old, t, limit);
    if (d.columnsAdded.length || d.columnsRemoved.length || d.columnsRetyped.length || d.rowsAdded.length || d.rowsRemoved.length || d.cellsChanged.length) result.tables.push(d);
  }
  for (const t of a.tables()) if (!bIds.has(t.id)) result.tablesRemoved.push(t.label);
  result.different = result.tablesAdded.length > 0 || result.tablesRemoved.length > 0 || result.tables.length > 0;
  return result;
}
