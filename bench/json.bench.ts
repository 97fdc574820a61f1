/**
 * Lossless JSON at the real game's scale: the generated `game.gamedb`-shaped file (seed 1, scale 1: 56,759,100
 * bytes, cached under `out/bench/` by this bench or `gadb.bench.ts`) exported to JSON on disk the way `scry db
 * export` does (chunks written to a file as produced), imported back the way `scry db import` does (the file read
 * 1 MiB at a time into a model) and written as a GADB file again (streamed, `writeGadbFile`: the file never exists
 * whole in memory), which must equal the input byte for byte.
 *
 * Each step is timed wall and CPU (`process.cpuUsage`; the one to trust on a loaded machine). The floor in the same
 * run: read the file and sum every u32, for the GADB file and for the JSON. The peer: `JSON.parse` of the export's
 * text (read as one string) and `JSON.stringify` of the parsed tree, the platform's native JSON on the same
 * document. Peak memory is measured in child processes, one per task (`--child TASK`), as VmHWM, with the runtime's
 * own footprint (a child that only reads and sums the GADB file, less the file) subtracted.
 *
 * Target (issue 16): export + import (+ write) ≤ 10 s, import peak memory ≤ 3 × the GADB file.
 *
 * `SCRY_GADB_BENCH_SCALE` (default 1), `SCRY_JSON_BENCH_RUNS` (default 3; the median is reported) and
 * `SCRY_JSON_BENCH_QUICK=1` (no peers and no import-only memory child: for a loaded machine).
 */
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';
import { measure, sumU32, type Measurement } from './harness.ts';
import { readFileChunks } from '../src/node/fs.ts';
import { parseGadb, writeGadb } from '../src/formats/gadb/index.ts';
import type { Gadb } from '../src/formats/gadb/types.ts';
import { generateGadb, GADB_GENERATOR_VERSION } from '../src/gamedb/generate/index.ts';
import { writeGadbFile } from '../src/node/gamedb.ts';
import { exportGadbJsonBytes, readGadbJson } from '../src/gamedb/edit/json.ts';

const SEED = 1;
const SCALE = Number(process.env['SCRY_GADB_BENCH_SCALE'] ?? 1);
const RUNS = Number(process.env['SCRY_JSON_BENCH_RUNS'] ?? 3);
/** Quick mode (for a loaded machine): no peers, no import-only memory child. */
const QUICK = process.env['SCRY_JSON_BENCH_QUICK'] === '1';
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cacheDir = join(root, 'out', 'bench');
const gadbPath = join(cacheDir, `gadb-game-seed${SEED}-scale${SCALE}-v${GADB_GENERATOR_VERSION}.gamedb`);
const jsonPath = join(cacheDir, `json-bench-${process.pid}.json`);
const outPath = join(cacheDir, `json-bench-${process.pid}.gamedb`);

/** Exports `g` to `path` as `scry db export` does: each chunk written to the file as it is produced. */
function exportToFile(g: Gadb, path: string): number {
  const fd = openSync(path, 'w');
  let n = 0;
  try {
    for (const b of exportGadbJsonBytes(g)) {
      for (let at = 0; at < b.length; ) at += writeSync(fd, b, at, b.length - at);
      n += b.length;
    }
  } finally {
    closeSync(fd);
  }
  return n;
}


function readFresh(path: string): Uint8Array {
  const b = readFileSync(path);
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}

/** Sums every u32 of a file read 1 MiB at a time (the floor of a streaming reader). */
function sumFileChunks(path: string): number {
  let s = 0;
  for (const c of readFileChunks(path)) s = (s + sumU32(c)) | 0;
  return s;
}

/** Wall and CPU of `fn`, the median of `runs` (no warm-up: each run is seconds long). */
function time(name: string, fn: () => unknown, runs = RUNS, bytes?: number): Measurement {
  return measure(name, fn, bytes === undefined ? { runs, warmup: false } : { runs, warmup: false, bytes });
}

/** Memory tasks, one per child process (each reads its input first, as the CLI does). */
const TASKS: Record<string, (gadb: string, json: string) => unknown> = {
  baseline: (gadb) => sumU32(readFresh(gadb)),
  export: (gadb, json) => exportToFile(parseGadb(readFresh(gadb)), json),
  import: (_gadb, json) => readGadbJson(readFileChunks(json)).records.count,
  importWrite: (_gadb, json) => writeGadbFile(`${json}.gamedb`, readGadbJson(readFileChunks(json)), { overwrite: true, backup: false }),
};

function childPeak(task: string, json: string): number {
  const script = fileURLToPath(import.meta.url);
  const r = spawnSync(process.execPath, ['--import', 'tsx', script, '--child', task, gadbPath, json], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 20 });
  if (r.status !== 0) throw new Error(`memory child ${task} failed: ${r.stderr}`);
  return (JSON.parse(r.stdout.trim().split('\n').pop()!) as { peak: number }).peak;
}

function ownPeak(): number {
  const m = /^VmHWM:\s+(\d+)\s+kB/m.exec(readFileSync('/proc/self/status', 'utf8'));
  return m ? Number(m[1]) * 1024 : process.resourceUsage().maxRSS * 1024;
}

const mb = (x: number): string => (x / 1e6).toFixed(1);
const s = (ms: number): string => (ms / 1000).toFixed(2);

export async function run(): Promise<string> {
  const log = (text: string): void => void writeSync(2, `json bench: ${text}\n`);
  if (!existsSync(gadbPath)) {
    log('generating the game-scale file (once; cached)');
    mkdirSync(cacheDir, { recursive: true });
    writeFileSync(gadbPath, writeGadb(generateGadb({ seed: SEED, scale: SCALE }).gadb));
  }
  const bytes = readFresh(gadbPath);
  const size = bytes.byteLength;
  const model = parseGadb(bytes);
  try {
    let jsonSize = 0;
    const exp = time('export (parsed model → JSON file, as `db export`)', () => (jsonSize = exportToFile(model, jsonPath)));
    log(`export ${s(exp.cpuMs!)} s CPU, ${mb(jsonSize)} MB`);
    let back: Gadb | undefined;
    const imp = time('import (JSON file read 1 MiB at a time → model, as `db import`)', () => (back = readGadbJson(readFileChunks(jsonPath))));
    log(`import ${s(imp.cpuMs!)} s CPU`);
    const wr = time('write (imported model → GADB file, streamed)', () => writeGadbFile(outPath, back!, { overwrite: true, backup: false }));
    const identical = Buffer.compare(readFileSync(outPath), Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)) === 0;
    back = undefined;
    if (!identical) throw new Error('the round trip export → import → write is not byte-identical');
    const floorGadb = time('floor: read the GADB file + sum u32', () => sumU32(readFresh(gadbPath)), 5, size);
    const floorJson = time('floor: read the JSON file 1 MiB at a time + sum u32', () => sumFileChunks(jsonPath), 3, jsonSize);
    // The peer: the platform's native JSON on the same document (one string, one object tree).
    let tree: unknown;
    const peers: Measurement[] = [];
    if (!QUICK) {
      peers.push(time('peer: JSON.parse of the export (read as one string)', () => (tree = JSON.parse(readFileSync(jsonPath, 'utf8'))), 1, jsonSize));
      peers.push(time('peer: JSON.stringify of that tree', () => JSON.stringify(tree).length, 1, jsonSize));
      tree = undefined;
    }
    log('timings done; peak memory children');
    const peaks: Record<string, number> = {};
    const tasks = Object.keys(TASKS).filter((t) => !QUICK || t !== 'import');
    for (const t of tasks) peaks[t] = childPeak(t, jsonPath);
    if (existsSync(`${jsonPath}.gamedb`)) unlinkSync(`${jsonPath}.gamedb`);
    const runtime = peaks['baseline']! - size;
    const own = (t: string): number => peaks[t]! - runtime;

    const total = { ms: exp.ms + imp.ms + wr.ms, cpu: exp.cpuMs! + imp.cpuMs! + wr.cpuMs! };
    const rows = [exp, imp, wr];
    const lines = [
      `### Lossless JSON at game scale (generated, seed ${SEED}, scale ${SCALE}: ${size.toLocaleString('en-US')}-byte GADB → ${jsonSize.toLocaleString('en-US')}-byte JSON; median of ${RUNS})`,
      '',
      '| step | wall s | CPU s | × JSON floor (CPU) | MB/s of JSON (wall) |',
      '|---|---:|---:|---:|---:|',
      ...[...rows, { name: '**export + import + write**', ms: total.ms, cpuMs: total.cpu, runs: RUNS }, floorJson, floorGadb, ...peers].map(
        (m) => `| ${m.name} | ${s(m.ms)} | ${s(m.cpuMs!)} | ${(m.cpuMs! / floorJson.cpuMs!).toFixed(1)} | ${(jsonSize / 1e6 / (m.ms / 1000)).toFixed(0)} |`,
      ),
      '',
      '| peak memory (child process, VmHWM) | RSS MB | without the runtime, MB | × GADB file |',
      '|---|---:|---:|---:|',
      ...tasks.map((t) => `| ${t} | ${mb(peaks[t]!)} | ${t === 'baseline' ? mb(size) : mb(own(t))} | ${((t === 'baseline' ? size : own(t)) / size).toFixed(2)} |`),
      '',
      `Runtime (Node + tsx, baseline child less the file it read): ${mb(runtime)} MB. Round trip export → import → write: ${identical ? 'byte-identical' : 'DIFFERS'}.`,
      `Target (issue 16): export + import ≤ 10 s: ${total.cpu <= 10000 ? 'yes' : 'no'} (CPU ${s(total.cpu)} s), ${total.ms <= 10000 ? 'yes' : 'no'} (wall ${s(total.ms)} s); import + write peak ≤ 3 × file: ${own('importWrite') <= 3 * size ? 'yes' : 'no'} (${(own('importWrite') / size).toFixed(2)} ×).`,
    ];
    return lines.join('\n');
  } finally {
    for (const p of [jsonPath, outPath, `${jsonPath}.gamedb`]) if (existsSync(p)) unlinkSync(p);
  }
}

// Child mode: one memory task.
if (process.argv[2] === '--child' && import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const task = TASKS[process.argv[3] ?? ''];
  if (!task) throw new Error(`unknown task ${process.argv[3]}`);
  void task(process.argv[4]!, process.argv[5]!);
  process.stdout.write(JSON.stringify({ peak: ownPeak() }) + '\n');
}
