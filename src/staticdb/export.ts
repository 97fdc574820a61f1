/**
 * Exports: JSON (whole database, importable again by `importSd2Json`), CSV per table (every raw column), and SQL
 * into any SQLite-like database object (`exec` + `prepare().run`), e.g. better-sqlite3 in Node or sql.js in the
 * browser — this module imports neither.
 *
 * JSON value encoding: 64-bit integers as decimal strings; bytes as `{ "hex": "…" }`; NaN, ±Infinity and -0 as
 * the strings `"NaN"`, `"Infinity"`, `"-Infinity"`, `"-0"`; strings without their terminating NUL. Given the
 * column's type, f32 and half numbers (Float, vectors, matrices, boxes, Half) are written in their shortest form
 * (`shortestF32`: `0.001`, not `0.0010000000474974513`), which reads back to the same bits.
 */
import { ConsistencyError } from '../binary/errors.ts';
import { Sd2Flags } from '../formats/sd2/sd2.ts';
import { SD2_TYPES } from '../formats/sd2/types.ts';
import type { Sd2Value } from '../formats/sd2/values.ts';
import { StaticDb, type StaticDbTable } from './database.ts';
import { bytesToHex as hexOf, hex32, shortestF32 } from '../binary/text.ts';

export type Sd2JsonCell = null | number | string | Sd2JsonCell[] | { [k: string]: Sd2JsonCell };


function jsonNumber(n: number): number | string {
  if (Number.isNaN(n)) return 'NaN';
  if (n === Infinity) return 'Infinity';
  if (n === -Infinity) return '-Infinity';
  if (Object.is(n, -0)) return '-0';
  return n;
}

/** Value kinds whose numbers are f32 (or half, which f32 holds exactly). */
const F32_KINDS = new Set(['f32', 'f32x', 'vecs', 'half', 'halfx']);

/** Whether the numbers of a column of `typeId` are f32 (shown and exported in their shortest form). */
export function sd2IsF32Type(typeId: number): boolean {
  const info = SD2_TYPES[typeId];
  return info !== undefined && F32_KINDS.has(info.kind);
}

/**
 * A cell value as JSON data (see the module comment for the encoding); `typeId`, the column's type, makes f32
 * numbers shortest.
 */
export function sd2JsonValue(v: Sd2Value, typeId?: number): Sd2JsonCell {
  const num = typeId !== undefined && sd2IsF32Type(typeId) ? (x: number) => jsonNumber(shortestF32(x)) : jsonNumber;
  if (v === null) return null;
  if (typeof v === 'number') return num(v);
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'string') return v;
  if (v instanceof Uint8Array) return { hex: hexOf(v) };
  if (Array.isArray(v)) return (v as unknown[]).map((x) => (Array.isArray(x) ? (x as number[]).map(num) : num(x as number)));
  return { min: v.min.map(num), max: v.max.map(num) };
}

function fromJsonNumber(x: unknown): unknown {
  if (x === 'NaN') return NaN;
  if (x === 'Infinity') return Infinity;
  if (x === '-Infinity') return -Infinity;
  if (x === '-0') return -0;
  return x;
}

/** The inverse of `sd2JsonValue` for a column type (value ready for `setCell`/`addRow`). */
export function sd2ValueFromJson(typeId: number, x: unknown): unknown {
  if (x === null || x === undefined) return null;
  const info = SD2_TYPES[typeId]!;
  if (info.kind === 'u64' || info.kind === 'i64') return BigInt(x as string);
  if (info.kind === 'bytes' || (x && typeof x === 'object' && 'hex' in (x as object))) {
    const h = (x as { hex: string }).hex;
    return Uint8Array.from(h.match(/../g) ?? [], (p) => parseInt(p, 16));
  }
  if (Array.isArray(x)) return x.map((e) => (Array.isArray(e) ? e.map(fromJsonNumber) : fromJsonNumber(e)));
  if (x && typeof x === 'object' && 'min' in (x as object)) {
    const b = x as { min: unknown[]; max: unknown[] };
    return { min: b.min.map(fromJsonNumber), max: b.max.map(fromJsonNumber) };
  }
  return fromJsonNumber(x);
}

export interface Sd2JsonExportOptions {
  /** Only these tables. */
  tables?: (string | number)[];
  /** Rows per table (default all). */
  limit?: number;
}


function tableSchema(t: StaticDbTable): Record<string, unknown> {
  return {
    id: hex32(t.id),
    name: t.name ?? null,
    rowCount: t.rowCount,
    numBytes: t.raw.numBytes,
    numUsedBytes: t.raw.numUsedBytes,
    nullableBytes: t.raw.nullableBytes,
    columns: t.columns.map((c) => ({ id: hex32(c.id), name: c.name ?? null, type: c.type.name, typeId: c.typeId, start: c.start, nullableIndex: c.nullable ? c.nullableIndex : null })),
  };
}

/**
 * The database as JSON text, produced in pieces so a retail-size export never builds one giant string
 * (join or write the pieces in order).
 */
export function* sd2JsonChunks(db: StaticDb, options: Sd2JsonExportOptions = {}): Generator<string> {
  const f = db.toFile();
  const head = {
    format: 'scry-sd2-json',
    version: 1,
    fileVersion: f.header.fileVersion,
    flags: f.header.flags,
    timestamp: f.header.timestamp.toString(),
    patch: f.header.patch,
    memoryVersion: f.image.memoryVersion,
    compression: { compressed: f.compression.compressed, unk04: f.compression.unk04, zlibHeader: f.compression.zlibHeader, adler32: f.compression.adler32 },
    reserved: hexOf(f.image.reserved),
  };
  const headText = JSON.stringify(head, null, 2);
  yield headText.slice(0, -2) + ',\n  "tables": [';
  const tables = options.tables ? options.tables.map((r) => db.table(r)) : db.tables();
  for (const [i, t] of tables.entries()) {
    const schema = JSON.stringify(tableSchema(t));
    yield (i ? ',' : '') + '\n    ' + schema.slice(0, -1) + ', "rows": [';
    const n = Math.min(t.rowCount, options.limit ?? Infinity);
    for (let r = 0; r < n; r++) yield (r ? ',' : '') + '\n      ' + JSON.stringify(t.row(r).map((v, c) => sd2JsonValue(v, t.columns[c]!.typeId)));
    yield (n ? '\n    ' : '') + ']}';
  }
  yield '\n  ]\n}\n';
}

/** The database as one JSON string (small databases; use `sd2JsonChunks` for big ones). */
export function exportSd2Json(db: StaticDb, options: Sd2JsonExportOptions = {}): string {
  return [...sd2JsonChunks(db, options)].join('');
}

interface JsonTable {
  id: string;
  name: string | null;
  numBytes: number;
  numUsedBytes: number;
  nullableBytes: number;
  columns: { id: string; name: string | null; typeId: number; start: number; nullableIndex: number | null }[];
  rows: unknown[][];
}

/**
 * Builds a database from `sd2JsonChunks` output: the same tables, schemas (starts, strides, null bits) and values,
 * with a freshly built pool. String cells are re-encoded as UTF-8 plus one NUL.
 */
export function importSd2Json(text: string): StaticDb {
  const data = JSON.parse(text) as { format?: string; fileVersion: number; flags: number; timestamp: string; patch: string; memoryVersion: 1000 | 1002; compression?: { compressed: boolean; unk04: number; zlibHeader: number; adler32: boolean }; reserved?: string; tables: JsonTable[] };
  if (data.format !== 'scry-sd2-json') throw new ConsistencyError('sd2', [{ rule: 'sd2.json', message: 'not a scry sd2 JSON export (format "scry-sd2-json")', severity: 'error' }]);
  const db = StaticDb.create({ fileVersion: data.fileVersion, memoryVersion: data.memoryVersion, flags: data.flags, patch: data.patch, timestamp: BigInt(data.timestamp) });
  const file = db.toFile();
  if (data.compression) file.compression = { ...data.compression };
  else file.compression.compressed = (data.flags & Sd2Flags.Compressed) !== 0;
  if (data.reserved) file.image.reserved = Uint8Array.from(data.reserved.match(/../g) ?? [], (p) => parseInt(p, 16));
  for (const jt of data.tables) {
    const id = parseInt(jt.id, 16) >>> 0;
    if (jt.name) db.names.add(jt.name, 'json');
    for (const c of jt.columns) if (c.name) db.names.add(c.name, 'json');
    file.image.tables.push({
      id,
      numBytes: jt.numBytes,
      numUsedBytes: jt.numUsedBytes,
      nullableBytes: jt.nullableBytes,
      fields: jt.columns.map((c) => ({ id: parseInt(c.id, 16) >>> 0, start: c.start, nullableIndex: c.nullableIndex ?? 255, type: c.typeId })),
      rowCount: 0,
      rows: new Uint8Array(0),
    });
    const table = db.tableAt(file.image.tables.length - 1);
    for (const row of jt.rows) db.addRow(table, row.map((x, i) => (x === null ? undefined : sd2ValueFromJson(jt.columns[i]!.typeId, x))));
  }
  return db;
}

// ---------------------------------------------------------------- CSV

function csvField(v: Sd2Value): string {
  let s: string;
  if (v === null) return '';
  if (typeof v === 'number') s = Number.isNaN(v) ? 'NaN' : Object.is(v, -0) ? '-0' : String(v);
  else if (typeof v === 'bigint') s = v.toString();
  else if (typeof v === 'string') s = v;
  else if (v instanceof Uint8Array) s = hexOf(v);
  else s = JSON.stringify(sd2JsonValue(v));
  return /[",\r\n]/.test(s) || /^\s|\s$/.test(s) ? '"' + s.replace(/"/g, '""') + '"' : s;
}

/** One table as CSV (RFC 4180): a header of column labels, then every raw column of every row. */
export function* sd2CsvChunks(table: StaticDbTable): Generator<string> {
  yield table.columns.map((c) => csvField(c.label)).join(',') + '\r\n';
  const rows: string[] = [];
  for (let r = 0; r < table.rowCount; r++) {
    rows.push(table.row(r).map(csvField).join(','));
    if (rows.length === 4096) {
      yield rows.join('\r\n') + '\r\n';
      rows.length = 0;
    }
  }
  if (rows.length) yield rows.join('\r\n') + '\r\n';
}

export function exportSd2Csv(table: StaticDbTable): string {
  return [...sd2CsvChunks(table)].join('');
}

// ---------------------------------------------------------------- SQL

/** The part of a SQLite binding the exporter needs (better-sqlite3 and sql.js both fit). */
export interface Sd2SqlDatabase {
  exec(sql: string): unknown;
  prepare(sql: string): { run(...params: unknown[]): unknown };
}

/** Quotes an SQL identifier. */
export function sd2SqlIdent(name: string): string {
  return '"' + name.replace(/"/g, '""') + '"';
}

const I64_MAX = (1n << 63n) - 1n;

/** A cell as an SQL parameter: INTEGER/REAL/TEXT/BLOB, JSON text for vectors and arrays, NULL for null. */
export function sd2SqlValue(v: Sd2Value): number | bigint | string | Uint8Array | null {
  if (v === null) return null;
  if (typeof v === 'number') return Number.isNaN(v) ? null : v;
  if (typeof v === 'bigint') return v > I64_MAX ? v.toString() : v;
  if (typeof v === 'string' || v instanceof Uint8Array) return v;
  return JSON.stringify(sd2JsonValue(v));
}

export interface Sd2SqlExportOptions {
  tables?: (string | number)[];
  /** Called after each table. */
  onTable?: (table: StaticDbTable, index: number, count: number) => void;
}

/**
 * Writes tables into an SQL database: one SQL table per sd2 table (named by label, `_row` = row index, one typed
 * column per sd2 column), plus `_sd2_tables` and `_sd2_columns` describing ids, names and types.
 */
export function exportSd2Sql(db: StaticDb, sql: Sd2SqlDatabase, options: Sd2SqlExportOptions = {}): void {
  const tables = options.tables ? options.tables.map((r) => db.table(r)) : db.tables();
  sql.exec('BEGIN');
  try {
    sql.exec('CREATE TABLE IF NOT EXISTS _sd2_tables (id INTEGER PRIMARY KEY, hex TEXT, name TEXT, label TEXT, row_count INTEGER, num_bytes INTEGER)');
    sql.exec('CREATE TABLE IF NOT EXISTS _sd2_columns (table_id INTEGER, position INTEGER, id INTEGER, hex TEXT, name TEXT, label TEXT, type TEXT, type_id INTEGER, start INTEGER, nullable_index INTEGER, PRIMARY KEY (table_id, position))');
    const insTable = sql.prepare('INSERT INTO _sd2_tables VALUES (?, ?, ?, ?, ?, ?)');
    const insColumn = sql.prepare('INSERT INTO _sd2_columns VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
    tables.forEach((t, ti) => {
      insTable.run(t.id, hex32(t.id), t.name ?? null, t.label, t.rowCount, t.raw.numBytes);
      const cols = t.columns;
      cols.forEach((c) => insColumn.run(t.id, c.index, c.id, hex32(c.id), c.name ?? null, c.label, c.type.name, c.typeId, c.start, c.nullable ? c.nullableIndex : null));
      const defs = ['"_row" INTEGER PRIMARY KEY', ...cols.map((c) => `${sd2SqlIdent(c.label)} ${c.type.sql}`.trimEnd())];
      sql.exec(`CREATE TABLE ${sd2SqlIdent(t.label)} (${defs.join(', ')})`);
      const ins = sql.prepare(`INSERT INTO ${sd2SqlIdent(t.label)} VALUES (${new Array(cols.length + 1).fill('?').join(', ')})`);
      const n = cols.length;
      const params = new Array<unknown>(n + 1);
      for (let r = 0; r < t.rowCount; r++) {
        params[0] = r;
        for (let c = 0; c < n; c++) params[c + 1] = sd2SqlValue(t.cell(r, c));
        ins.run(...params);
      }
      options.onTable?.(t, ti, tables.length);
    });
    sql.exec('COMMIT');
  } catch (e) {
    sql.exec('ROLLBACK');
    throw e;
  }
}
