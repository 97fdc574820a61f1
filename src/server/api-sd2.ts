/**
 * Static-database routes (Firefall `.sd2`): tables, columns, paged rows with NULL cells, typed search. Each
 * handler maps its arguments to `StaticDb` and `searchSd2` of `src/staticdb`.
 */
import { inflateRawSync } from 'node:zlib';
import { UsageError } from '../binary/errors.ts';
import { StaticDb, type StaticDbTable } from '../staticdb/database.ts';
import { searchSd2 } from '../staticdb/query.ts';
import { exportSd2Csv, exportSd2Json, exportSd2Sql, sd2JsonValue } from '../staticdb/export.ts';
import Sqlite from 'better-sqlite3';
import { ffnv32 } from '../formats/sd2/obfuscation.ts';
import { sqliteSink } from '../node/sqlite.ts';
import type { ApiContext } from './api.ts';
import type { Sd2Overview, Sd2RowPage, Sd2SearchAnswer, Sd2SearchHit, Sd2TableDetail, Sd2TableSummary, Sd2Cell } from './api-types.ts';
import { Download, intParam, type Router } from './router.ts';
import { hex32 as hex } from '../binary/text.ts';


/** node:zlib inflates several times faster than the library's browser default (fflate). */
const inflate = (deflated: Uint8Array, size: number | undefined): Uint8Array => {
  const out = inflateRawSync(deflated, size === undefined ? {} : { maxOutputLength: Math.max(1, size) });
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
};

function summary(t: StaticDbTable): Sd2TableSummary {
  return { index: t.index, id: hex(t.id), label: t.label, named: t.name !== undefined, rowCount: t.rowCount, columnCount: t.columns.length };
}

function db(c: ApiContext, file: string): StaticDb {
  return c.workspace.open<StaticDb>(file, 'sd2');
}

function table(d: StaticDb, ref: string): StaticDbTable {
  return d.table(/^\d+$/.test(ref) ? `#${ref}` : ref);
}

/** Registers the sd2 routes; every static database shares the run's sd2 names (`context.names.sd2`). */
export function registerSd2Api(router: Router<ApiContext>, context: ApiContext): void {
  context.workspace.registerOpener('sd2', (bytes) => StaticDb.open(bytes, { names: context.names.sd2, inflate }));

  router.add({
    method: 'GET',
    pattern: '/api/files/:file/sd2',
    summary: 'sd2 overview: header and tables',
    handler: (req, c): Sd2Overview => {
      const info = c.workspace.info(req.params['file']!);
      const d = db(c, info.id);
      const tables = d.tables();
      const h = d.file.header;
      let namedColumns = 0;
      let columnSlots = 0;
      for (const t of tables) {
        for (const col of t.columns) {
          columnSlots++;
          if (col.name !== undefined) namedColumns++;
        }
      }
      return {
        file: info,
        kind: 'sd2',
        header: [
          { name: 'patch', value: h.patch },
          { name: 'file version', value: String(h.fileVersion) },
          { name: 'memory version', value: String(d.memoryVersion) },
          { name: 'flags', value: hex(h.flags) },
          { name: 'timestamp', value: String(h.timestamp) },
        ],
        tables: tables.map(summary),
        named: { tables: tables.filter((t) => t.name !== undefined).length, columns: namedColumns, columnSlots },
      };
    },
  });

  router.add({
    method: 'GET',
    pattern: '/api/files/:file/sd2/tables/:table',
    summary: 'an sd2 table and its columns (by name, 0x id or index)',
    handler: (req, c): Sd2TableDetail => {
      const t = table(db(c, req.params['file']!), req.params['table']!);
      return {
        ...summary(t),
        columns: t.columns.map((col) => ({ index: col.index, id: hex(col.id), label: col.label, named: col.name !== undefined, type: col.type.name, nullable: col.nullable, pool: col.type.pool })),
      };
    },
  });

  router.add({
    method: 'GET',
    pattern: '/api/files/:file/sd2/tables/:table/rows',
    summary: 'a page of rows, cells as JSON, NULL as null (?offset=&limit= at most 500)',
    handler: (req, c): Sd2RowPage => {
      const t = table(db(c, req.params['file']!), req.params['table']!);
      const offset = intParam(req.query, 'offset', 0, 0, t.rowCount);
      const limit = intParam(req.query, 'limit', 100, 1, 500);
      const rows: Sd2RowPage['rows'] = [];
      for (let r = offset; r < Math.min(t.rowCount, offset + limit); r++) rows.push({ row: r, cells: t.row(r).map((v, c) => sd2JsonValue(v, t.columns[c]!.typeId) as Sd2Cell) });
      return { total: t.rowCount, offset, rows };
    },
  });

  router.add({
    method: 'GET',
    pattern: '/api/files/:file/sd2/search',
    summary: 'tables and columns by name, 0x id or FFnv32 of ?q=, then typed cell values (integers match int and float columns, decimals float columns, else text)',
    handler: (req, c): Sd2SearchAnswer => {
      const q = (req.query.get('q') ?? '').trim();
      if (q === '') throw new UsageError('give ?q=');
      const limit = intParam(req.query, 'limit', 500, 1, 5000);
      const d = db(c, req.params['file']!);
      const hits: Sd2SearchHit[] = [];
      const needle = q.toLowerCase();
      const literal = /^0x[0-9a-f]{1,8}$/i.test(q) ? parseInt(q.slice(2), 16) >>> 0 : undefined;
      const hashed = ffnv32(q);
      const by = (label: string, named: boolean, id: number): 'name' | 'id' | 'hash' | undefined =>
        literal === id ? 'id' : named && label.toLowerCase().includes(needle) ? 'name' : literal === undefined && hashed === id ? 'hash' : undefined;
      for (const t of d.tables()) {
        const how = by(t.label, t.name !== undefined, t.id);
        if (how) hits.push({ kind: 'table', table: t.label, tableIndex: t.index, id: hex(t.id), by: how, rowCount: t.rowCount });
      }
      for (const t of d.tables()) {
        for (const col of t.columns) {
          const how = by(col.label, col.name !== undefined, col.id);
          if (how && hits.length < limit) hits.push({ kind: 'column', table: t.label, tableIndex: t.index, column: col.label, columnIndex: col.index, id: hex(col.id), by: how, type: col.type.name });
        }
      }
      const r = searchSd2(d, { value: q, limit: Math.max(1, limit - hits.length) });
      for (const h of r.hits) hits.push({ kind: 'cell', table: h.table, tableIndex: h.tableIndex, row: h.row, column: h.column, columnIndex: h.columnIndex, value: sd2JsonValue(h.value, d.tableAt(h.tableIndex).columns[h.columnIndex]!.typeId) as Sd2Cell });
      return { query: q, hits: hits.slice(0, limit), truncated: r.truncated || hits.length > limit };
    },
  });

  router.add({
    method: 'GET',
    pattern: '/api/files/:file/sd2/export',
    summary: 'download: ?format=json (the database, or ?table=), csv (?table= required) or sqlite (the database), as the CLI exports them',
    handler: (req, c): Download => {
      const info = c.workspace.info(req.params['file']!);
      const d = db(c, info.id);
      const format = req.query.get('format') ?? 'json';
      const tableRef = req.query.get('table');
      const stem = info.name.replace(/\.sd2$/i, '');
      const fileOf = (label: string) => label.replace(/::/g, '.').replace(/[^A-Za-z0-9._-]/g, '_');
      if (format === 'json') {
        const t = tableRef !== null ? table(d, tableRef) : undefined;
        const text = exportSd2Json(d, t ? { tables: [`#${t.index}`] } : {});
        return new Download(t ? `${fileOf(t.label)}.json` : `${stem}.json`, new TextEncoder().encode(text));
      }
      if (format === 'csv') {
        if (tableRef === null) throw new UsageError('a CSV export is one table: give ?table=');
        const t = table(d, tableRef);
        return new Download(`${fileOf(t.label)}.csv`, new TextEncoder().encode(exportSd2Csv(t)));
      }
      if (format === 'sqlite') {
        const sqlite = new Sqlite(':memory:');
        try {
          exportSd2Sql(d, sqliteSink(sqlite));
          const bytes = sqlite.serialize();
          return new Download(`${stem}.sqlite`, new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
        } finally {
          sqlite.close();
        }
      }
      throw new UsageError(`format must be json, csv or sqlite, got ${JSON.stringify(format)}`);
    },
  });
}
