/**
 * sd2 at the scale of the last retail build (prod-1962: 575 tables, ~1.5 M rows, a 175,293-row
 * `dblocalization::LocalizedText`, ~32 MB on disk), generated with scry's own writer (deterministic PRNG; the file
 * is cached in the OS temp folder between runs).
 *
 * Floor (measured in the same run): node:zlib inflate of the same de-obfuscated payload + reading every byte.
 * Steps: open (de-obfuscate + inflate + info; fflate, and node:zlib as the CLI injects it), lazy access (open + 1000 random LocalizedText rows), full decode of
 * every cell, write (unedited: reuses the stream; edited: re-deflate), CSV export of LocalizedText.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateRawSync, deflateRawSync } from 'node:zlib';
import { StaticDb, parseSd2, exportSd2Csv, type StaticDbNewColumn } from '../src/index.ts';
import { measure, report, sumU32, peakRss } from './harness.ts';

function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const WORDS = 'the of and to in is you that it he was for on are as with his they at be this have from or one had by word but not what all were we when your can said there use an each which she do how their if will up other about out many then them these so some her would make like him into time has look two more write go see number no way could people my than first water been call who oil its now find long down day did get come made may part'.split(' ');

const TYPE_MIX: (string | number)[] = ['UInt', 'Int', 'Float', 'Byte', 'UShort', 'UInt', 'Float', 'String', 'Vector3', 'Int', 'Half', 'UIntArray', 'ULong', 'Short', 'AsciiChar', 'Double'];

/** Generates the synthetic retail-scale database. */
export function generateRetailSd2(options: { tables?: number; rows?: number; localizedRows?: number; seed?: number } = {}): Uint8Array {
  const tables = options.tables ?? 575;
  const totalRows = options.rows ?? 1_523_277;
  const locRows = options.localizedRows ?? 175_293;
  const rnd = prng(options.seed ?? 1962);
  const int = (n: number): number => Math.floor(rnd() * n);
  const sentence = (): string => Array.from({ length: 4 + int(18) }, () => WORDS[int(WORDS.length)]!).join(' ');
  const db = StaticDb.create({ fileVersion: 12, memoryVersion: 1002, flags: 13, patch: 'prod-1962', timestamp: 1462422114000000n });
  const loc = db.addTable('dblocalization::LocalizedText', [
    { name: 'id', type: 'UInt' },
    { name: 'text', type: 'String' },
  ]);
  for (let r = 0; r < locRows; r++) db.addRow(loc, [r + 1, sentence()]);
  // The other tables share the remaining rows with a skewed (Zipf-like) distribution.
  const weights = Array.from({ length: tables - 1 }, (_, i) => 1 / (i + 1) ** 0.9);
  const wsum = weights.reduce((a, b) => a + b, 0);
  const rest = totalRows - locRows;
  let assigned = 0;
  for (let t = 0; t < tables - 1; t++) {
    const rows = t === tables - 2 ? rest - assigned : Math.floor((rest * weights[t]!) / wsum);
    assigned += rows;
    const ncols = 2 + int(9);
    const columns: StaticDbNewColumn[] = [{ name: 'id', type: 'UInt' }];
    for (let c = 1; c < ncols; c++) columns.push({ name: `field_${c}`, type: TYPE_MIX[int(TYPE_MIX.length)]!, nullable: rnd() < 0.2 });
    const table = db.addTable(`dbsynthetic::Table${t}`, columns, { nativeOrder: true });
    const cols = table.columns;
    const values = new Array<unknown>(cols.length);
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols.length; c++) {
        const col = cols[c]!;
        if (col.nullable && rnd() < 0.3) {
          values[c] = undefined;
          continue;
        }
        switch (col.type.name) {
          case 'UInt':
            values[c] = col.label === 'id' ? r + 1 : int(2000);
            break;
          case 'Int':
          case 'Short':
            values[c] = int(2000) - 1000;
            break;
          case 'Float':
          case 'Double':
          case 'Half':
            values[c] = int(64) / 8;
            break;
          case 'Byte':
            values[c] = int(8);
            break;
          case 'UShort':
            values[c] = int(5000);
            break;
          case 'ULong':
            values[c] = BigInt(int(1 << 30)) * 4096n;
            break;
          case 'AsciiChar':
            values[c] = String.fromCharCode(97 + int(26));
            break;
          case 'String':
            values[c] = `${WORDS[int(WORDS.length)]}_${int(5000)}`;
            break;
          case 'Vector3':
            values[c] = [int(100), int(100), int(10)];
            break;
          case 'UIntArray':
            values[c] = Array.from({ length: int(4) }, () => int(1000));
            break;
          default:
            values[c] = undefined;
        }
      }
      db.addRow(table, values);
    }
  }
  return db.write({ level: 1 });
}

function cachedRetail(): Uint8Array {
  const path = join(tmpdir(), 'scry-sd2-retail-synthetic-v1.sd2');
  if (existsSync(path)) return new Uint8Array(readFileSync(path));
  const bytes = generateRetailSd2();
  writeFileSync(path, bytes);
  return bytes;
}

export async function run(): Promise<string> {
  const t0 = performance.now();
  const bytes = cachedRetail();
  const genMs = performance.now() - t0;
  const file = parseSd2(bytes);
  const image = file.source!.image;
  const floor = measure('floor: node:zlib inflate of the payload + read every byte', () => {
    const out = inflateRawSync(file.source!.payload.subarray(10));
    return sumU32(out);
  }, { runs: 3, bytes: bytes.length });
  const open = measure('open (de-obfuscate, inflate, info)', () => StaticDb.open(bytes), { runs: 3, bytes: bytes.length });
  const zlibInflate = (d: Uint8Array, size: number | undefined): Uint8Array => new Uint8Array(inflateRawSync(d, size === undefined ? {} : { maxOutputLength: Math.max(1, size) }));
  const openZlib = measure('open with node:zlib injected (as the CLI does)', () => StaticDb.open(bytes, { inflate: zlibInflate }), { runs: 3, bytes: bytes.length });
  const lazy = measure('open + 1000 random LocalizedText rows', () => {
    const db = StaticDb.open(bytes);
    const t = db.table('dblocalization::LocalizedText');
    let n = 0;
    for (let i = 0; i < 1000; i++) n += (t.cell((i * 7919) % t.rowCount, 1) as string).length;
    return n;
  }, { runs: 3 });
  const db = StaticDb.open(bytes);
  let cells = 0;
  const full = measure('full decode of every cell (after open)', () => {
    cells = 0;
    for (const t of db.tables()) for (let r = 0; r < t.rowCount; r++) cells += t.row(r).length;
  }, { runs: 1, bytes: image.length });
  const writeSame = measure('write, unedited (original stream reused)', () => db.write(), { runs: 3, bytes: bytes.length });
  const edited = StaticDb.open(bytes);
  edited.setCell('dblocalization::LocalizedText', 0, 'text', 'edited');
  const writeEdited = measure('write, edited (fflate re-deflate, level 1)', () => edited.write(), { runs: 1, bytes: bytes.length });
  const writeEditedZlib = measure('write, edited (node:zlib re-deflate, level 1, as the CLI does)', () => edited.write({ deflate: (d, level) => new Uint8Array(deflateRawSync(d, { level })) }), { runs: 1, bytes: bytes.length });
  const csv = measure('CSV export of LocalizedText', () => exportSd2Csv(db.table('dblocalization::LocalizedText')).length, { runs: 1 });
  const rows = db.tables().reduce((n, t) => n + t.rowCount, 0);
  const head = [
    `Synthetic retail-scale file: ${db.tableCount} tables, ${rows.toLocaleString('en')} rows, ${cells.toLocaleString('en')} cells, ${(bytes.length / 1e6).toFixed(1)} MB on disk, image ${(image.length / 1e6).toFixed(1)} MB, pool ${(file.image.pool.length / 1e6).toFixed(1)} MB (generated or loaded in ${(genMs / 1000).toFixed(1)} s). Peak RSS ${(peakRss() / 2 ** 20).toFixed(0)} MiB.`,
    '',
  ];
  return head.join('\n') + report('sd2 (retail scale)', [open, openZlib, lazy, full, writeSame, writeEdited, writeEditedZlib, csv], floor);
}
