/**
 * SQLite export: a table per category with typed columns (REAL for floats, INTEGER for ints and Bools, TEXT for
 * texts and `Category/Record` links, JSON text for arrays, vectors and curves), plus generic tables so nothing is
 * lost for queries: `categories`, `records`, `cells` (one row per field element) and `links` (one row per non-null
 * link element, source and target record ids).
 *
 * The library takes any object with better-sqlite3's `exec` / `prepare(sql).run(...)` shape, so it imports no
 * Node module; the CLI passes a better-sqlite3 12.11.1 `Database`.
 */
import type { Gadb } from '../../formats/gadb/types.ts';
import { gadbTypeInfo, gadbTypeName } from '../../formats/gadb/type-codes.ts';
import { blockTextBytes, fieldLabel, recordFields, type FieldNamer, type RecordField } from './model.ts';
import { RecordView } from './tables.ts';
import { readElement } from './values.ts';
import { latin1Decode } from '../../binary/text.ts';

/** The part of better-sqlite3's `Database` the export uses. */
export interface SqlDatabase {
  exec(sql: string): unknown;
  prepare(sql: string): { run(...params: unknown[]): unknown };
}

function ident(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

function columnType(typeByte: number, count: number): string {
  const d = gadbTypeInfo(typeByte)?.decoding;
  if (count !== 1 || !d) return 'TEXT';
  if (d.kind === 'f32') return 'REAL';
  if (d.kind === 'i32' || d.kind === 'bool') return 'INTEGER';
  return 'TEXT';
}

function sqlValue(v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'number' || typeof v === 'string') return v;
  return JSON.stringify(v);
}

/** Fills `db` (empty) with the database's tables. */
export function exportSqlite(g: Gadb, db: SqlDatabase, options: { namer?: FieldNamer } = {}): void {
  const v = new RecordView(g, options.namer);
  db.exec('PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;');
  db.exec(`CREATE TABLE categories (ordinal INTEGER PRIMARY KEY, name TEXT NOT NULL, type_name TEXT, sort_key INTEGER, primary_count INTEGER, secondary_count INTEGER);
CREATE TABLE records (id INTEGER PRIMARY KEY, category INTEGER NOT NULL, idx INTEGER NOT NULL, name TEXT NOT NULL, label TEXT NOT NULL, flags INTEGER, cell_count INTEGER);
CREATE TABLE cells (record_id INTEGER NOT NULL, field TEXT NOT NULL, hash INTEGER NOT NULL, type TEXT NOT NULL, element INTEGER NOT NULL, value);
CREATE TABLE links (record_id INTEGER NOT NULL, field TEXT NOT NULL, element INTEGER NOT NULL, target_id INTEGER NOT NULL);`);
  db.exec('BEGIN');
  const insCat = db.prepare('INSERT INTO categories VALUES (?, ?, ?, ?, ?, ?)');
  const insRec = db.prepare('INSERT INTO records VALUES (?, ?, ?, ?, ?, ?, ?)');
  const insCell = db.prepare('INSERT INTO cells VALUES (?, ?, ?, ?, ?, ?)');
  const insLink = db.prepare('INSERT INTO links VALUES (?, ?, ?, ?)');
  const usedTables = new Set(['categories', 'records', 'cells', 'links'].map((x) => x.toLowerCase()));
  // Per run: fields, labels and type names (runs are shared by many records).
  const runs = new Map<number, { fields: RecordField[]; labels: string[]; types: string[] }>();
  const runOf = (r: number) => {
    const key = g.records.firstDescriptor[r]! * 256 + g.records.descriptorCount[r]!;
    let run = runs.get(key);
    if (!run) {
      const fields = recordFields(g, r);
      run = { fields, labels: fields.map((f) => fieldLabel(f.hash, options.namer)), types: fields.map((f) => gadbTypeName(f.typeByte)) };
      runs.set(key, run);
    }
    return run;
  };
  for (let c = 0; c < g.categories.length; c++) {
    const cat = g.categories[c]!;
    insCat.run(c, v.categoryNames[c], latin1Decode(blockTextBytes(g, cat.typeNameKey)), cat.sortKey, cat.primaryCount, cat.secondaryCount);
    const first = v.ix.categoryFirstRecord[c]!;
    const total = cat.primaryCount + cat.secondaryCount;
    // Per-category table: union of the fields of its records, in declaration order.
    const cols = new Map<string, string>();
    for (let i = 0; i < total; i++) {
      const run = runOf(first + i);
      run.fields.forEach((f, k) => {
        if (!cols.has(run.labels[k]!)) cols.set(run.labels[k]!, columnType(f.typeByte, f.count));
      });
    }
    let table = v.categoryNames[c]!;
    for (let k = 2; usedTables.has(table.toLowerCase()); k++) table = `${v.categoryNames[c]}~${k}`;
    usedTables.add(table.toLowerCase());
    const colNames = [...cols.keys()];
    db.exec(`CREATE TABLE ${ident(table)} (id INTEGER PRIMARY KEY, record TEXT NOT NULL${colNames.map((n) => `, ${ident(n)} ${cols.get(n)}`).join('')})`);
    const ins = db.prepare(`INSERT INTO ${ident(table)} VALUES (?, ?${colNames.map(() => ', ?').join('')})`);
    for (let i = 0; i < total; i++) {
      const r = first + i;
      insRec.run(r, c, i, v.recordName(c, i), v.label(c, i), g.records.flags[r], g.records.cellCount[r]);
      const vals = new Map<string, unknown>();
      const base = v.ix.recordCellStart[r]!;
      const run = runOf(r);
      for (let k = 0; k < run.fields.length; k++) {
        const f = run.fields[k]!;
        const label = run.labels[k]!;
        const type = run.types[k]!;
        const elems: unknown[] = [];
        for (let e = 0; e < f.count; e++) {
          const raw = f.info ? readElement(g, f, base, e) : g.cells[base + f.link + e]!;
          const pv = v.plain(raw as never);
          elems.push(pv);
          insCell.run(r, label, f.hash, type, e, sqlValue(pv));
          if (raw && typeof raw === 'object' && 'category' in raw) insLink.run(r, label, e, v.ix.categoryFirstRecord[raw.category]! + raw.index);
        }
        vals.set(label, sqlValue(f.count === 1 ? elems[0] : elems));
      }
      ins.run(r, v.recordName(c, i), ...colNames.map((n) => vals.get(n) ?? null));
    }
  }
  db.exec('COMMIT');
  db.exec('CREATE INDEX links_target ON links (target_id); CREATE INDEX cells_record ON cells (record_id); CREATE INDEX records_label ON records (label);');
}
