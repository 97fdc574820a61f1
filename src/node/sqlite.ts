/** better-sqlite3 as the SQL sink of the library's exporters (which import no SQLite binding themselves). */
import type Database from 'better-sqlite3';
import type { Sd2SqlDatabase } from '../staticdb/export.ts';

/** Wraps better-sqlite3 so Uint8Array parameters bind as BLOBs. */
export function sqliteSink(sqlite: Database.Database): Sd2SqlDatabase {
  return {
    exec: (sql) => sqlite.exec(sql),
    prepare: (sql) => {
      const stmt = sqlite.prepare(sql);
      return { run: (...params: unknown[]) => stmt.run(...params.map((p) => (p instanceof Uint8Array && !Buffer.isBuffer(p) ? Buffer.from(p.buffer, p.byteOffset, p.byteLength) : p))) };
    },
  };
}
