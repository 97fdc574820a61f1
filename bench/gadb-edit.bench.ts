/**
 * GameDB editing at the real game's scale (the generator's `game.gamedb`-shaped file, 56,759,100 bytes, shared
 * with `gadb.bench.ts` through `out/bench/`): 10,000 edits then write; diff of two game-scale files (the original
 * and the edited copy); export to SQLite; lossless JSON export and import (rebuilt byte-identical). Every step is
 * reported against a floor measured in the same run: summing the file's bytes as u32 (`sumU32`).
 *
 * `SCRY_GADB_BENCH_SCALE=0.02 npm run bench -- gadb-edit` for a quick look.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type BetterSqlite3 from 'better-sqlite3';
import { measure, report, sumU32 } from './harness.ts';
import { gadbCellTotal, parseGadb, writeGadb } from '../src/formats/gadb/index.ts';
import type { Gadb } from '../src/formats/gadb/types.ts';
import { generateGadb, GADB_GENERATOR_VERSION } from '../src/gamedb/generate/index.ts';
import { GadbEditor } from '../src/gamedb/edit/editor.ts';
import { diffCount, diffGadb } from '../src/gamedb/edit/diff.ts';
import { exportGadbJson, readGadbJson } from '../src/gamedb/edit/json.ts';
import { exportSqlite } from '../src/gamedb/edit/sqlite.ts';
import { recordFields, type RecordAddress } from '../src/gamedb/edit/model.ts';

const SEED = 1;
const SCALE = Number(process.env['SCRY_GADB_BENCH_SCALE'] ?? 1);
const EDITS = 10_000;
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cachePath = join(root, 'out', 'bench', `gadb-game-seed${SEED}-scale${SCALE}-v${GADB_GENERATOR_VERSION}.gamedb`);

function gameFile(): Uint8Array {
  if (existsSync(cachePath)) return new Uint8Array(readFileSync(cachePath));
  const bytes = writeGadb(generateGadb({ seed: SEED, scale: SCALE }).gadb);
  mkdirSync(dirname(cachePath), { recursive: true });
  writeFileSync(cachePath, bytes);
  return bytes;
}

/** A deterministic PRNG (xorshift32). */
function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 0x100000000;
  };
}

interface Target {
  a: RecordAddress;
  field: string;
  type: string;
  index: number;
}

/** `EDITS` edit targets spread over the database: Int, Float, Bool, String and element-of-array edits. */
function pickTargets(g: Gadb): Target[] {
  const e = new GadbEditor(g, { inPlace: true });
  const ix = e.index;
  const rand = rng(12345);
  const out: Target[] = [];
  const wanted = new Set(['Int', 'Float', 'Bool', 'String', 'StringEnum', 'Vector3', 'FloatPair']);
  let guard = 0;
  while (out.length < EDITS && guard++ < EDITS * 50) {
    const r = Math.floor(rand() * g.records.count);
    const c = ix.recordCategory[r]!;
    const a = { category: c, index: r - ix.categoryFirstRecord[c]!, record: r };
    const fields = recordFields(g, r).filter((f) => f.count > 0 && wanted.has(f.info?.name ?? ''));
    if (fields.length === 0) continue;
    const f = fields[Math.floor(rand() * fields.length)]!;
    out.push({ a, field: '0x' + f.hash.toString(16), type: f.info!.name, index: Math.floor(rand() * f.count) });
  }
  return out;
}

function applyEdits(g: Gadb, targets: Target[]): Gadb {
  const e = new GadbEditor(g);
  let k = 0;
  for (const t of targets) {
    k++;
    const v =
      t.type === 'Int' ? k : t.type === 'Float' ? k / 8 : t.type === 'Bool' ? k % 2 === 0 : t.type === 'Vector3' ? [k, 0, 1] : t.type === 'FloatPair' ? [k, k + 1] : `edited value ${k % 997}`;
    e.set(t.a, t.field, v, { index: t.index });
  }
  return e.finish();
}

export async function run(): Promise<string> {
  const bytes = gameFile();
  const floor = measure('floor: sum u32 of the file', () => sumU32(bytes), { bytes: bytes.length });
  const base = parseGadb(bytes);
  const targets = pickTargets(base);

  let editedBytes: Uint8Array = new Uint8Array(0);
  const edits = measure(`${targets.length.toLocaleString('en-US')} edits + writeGadb`, () => (editedBytes = writeGadb(applyEdits(base, targets))), { runs: 3, warmup: false, bytes: bytes.length });
  const edited = parseGadb(editedBytes);

  let differences = 0;
  const diff = measure('diff of two game-scale databases (models)', () => (differences = diffCount(diffGadb(base, edited))), { runs: 3, warmup: false, bytes: bytes.length });

  let jsonBytes = 0;
  let chunks: string[] = [];
  const jsonExport = measure('lossless JSON export (text chunks)', () => {
    chunks = [...exportGadbJson(base)];
    jsonBytes = chunks.reduce((n, c) => n + c.length, 0);
  }, { runs: 1, warmup: false, bytes: bytes.length });
  let identical = false;
  const jsonUtf8 = chunks.map((c) => new TextEncoder().encode(c));
  const jsonImport = measure('lossless JSON import (readGadbJson over the UTF-8 chunks + writeGadb)', () => {
    const back = writeGadb(readGadbJson(jsonUtf8));
    identical = Buffer.from(back).equals(Buffer.from(bytes));
  }, { runs: 1, warmup: false, bytes: bytes.length });
  chunks = [];

  const require = createRequire(import.meta.url);
  const Sqlite = require('better-sqlite3') as typeof BetterSqlite3;
  const dir = mkdtempSync(join(tmpdir(), 'scry-bench-sql-'));
  let sqliteSize = 0;
  const sqlite = measure('export to SQLite (better-sqlite3, typed + generic tables)', () => {
    const path = join(dir, `x${Date.now()}.sqlite`);
    const db = new Sqlite(path);
    exportSqlite(base, db);
    db.close();
    sqliteSize = readFileSync(path).length;
    rmSync(path);
  }, { runs: 1, warmup: false, bytes: bytes.length });
  rmSync(dir, { recursive: true, force: true });

  return [
    report(`GameDB editing at game scale (generated, seed ${SEED}, scale ${SCALE}: ${bytes.length.toLocaleString('en-US')} bytes, ${base.records.count.toLocaleString('en-US')} records, ${gadbCellTotal(base).toLocaleString('en-US')} cells)`, [edits, diff, jsonExport, jsonImport, sqlite], floor),
    '',
    `Diff found ${differences.toLocaleString('en-US')} differences for ${targets.length.toLocaleString('en-US')} edits (edits that rewrite a value already there, or the same cell twice, are not differences). ` +
      `JSON: ${(jsonBytes / 1e6).toFixed(0)} MB of text, import byte-identical: ${identical}. SQLite file: ${(sqliteSize / 1e6).toFixed(0)} MB.`,
  ].join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) console.log(await run());
