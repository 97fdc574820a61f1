/**
 * GADB at the real game's scale: a `game.gamedb`-shaped file from the generator (2,742 categories, 694,632
 * records, 8,544,670 cells, 56,759,100 bytes; cached under `out/bench/`), then open + index, full verify, decode
 * every cell through the `Database`, rebuild unchanged, and peak memory, each against a floor measured in the same
 * run. The targets use the issue's floor, "read the file and sum every u32", against the same work from disk (what
 * `scry db info|verify|rebuild` do); a second table compares in-memory work with summing bytes already in memory,
 * a stricter floor that allocates nothing. Peak memory is measured in child processes (one per task) so the
 * parent's allocations do not pollute it; it is reported against the file size.
 *
 * Decode every cell is measured through the `Database`'s cursor (`db.cursor()`, what a reader who wants speed uses)
 * a record at a time (`readRecord`, the row of the target) and a field at a time (`value(e)`, `linkTarget(e)`), and,
 * beside them, through the object API (`DbRecord.fields()`, `Field.value`); the three are checked to decode the same
 * values (a digest of every element) before they are timed. Times are wall and CPU (the median
 * of each; CPU time is the one to trust on a loaded machine). Each step, floors included, is timed after three
 * untimed calls and a full garbage collection (`step`): its steady state, not the garbage of the step before.
 *
 * Rebuild is also compared with a second floor, "allocate a file-sized buffer and copy the file into it": the cost
 * of producing a new file of this size (fresh pages faulted in, the bytes moved), which summing does not pay.
 *
 * Targets (issue 16, against the in-memory floor): open + index ≤ 3×, verify ≤ 8×, decode ≤ 10×, rebuild ≤ 4×;
 * peak memory (less the runtime's own) ≤ 1.5 / 2 / 2 / 2.5 × the file for open / verify / decode / parse + rebuild.
 *
 * `node --import tsx bench/gadb.bench.ts --child TASK FILE` runs one memory task and prints its peak RSS.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { collectGarbage, measure, peakRss, report, sumU32, type Measurement } from './harness.ts';
import { parseGadb, verifyGadb, writeGadb } from '../src/formats/gadb/index.ts';
import { Database, DbRecord } from '../src/gamedb/database.ts';
import { generateGadb, GADB_GENERATOR_VERSION } from '../src/gamedb/generate/index.ts';

const SEED = 1;
/** Fraction of the game's size (1 for the recorded results; smaller for a quick look). */
const SCALE = Number(process.env['SCRY_GADB_BENCH_SCALE'] ?? 1);
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cacheDir = join(root, 'out', 'bench');
const cachePath = join(cacheDir, `gadb-game-seed${SEED}-scale${SCALE}-v${GADB_GENERATOR_VERSION}.gamedb`);

/**
 * Decodes every element of every field of every record the way a reader who wants speed does: through the
 * `Database`'s cursor, a record at a time (`readRecord`: the record's elements into the cursor's `numbers` and
 * `objects`, decoded by a plan of its descriptor run); returns how many elements.
 */
function decodeAll(db: Database): number {
  let n = 0;
  const cur = db.cursor();
  for (let r = 0, end = db.recordCount; r < end; r++) n += cur.seek(r).readRecord();
  return n;
}

/**
 * The same through the cursor field by field (one reusable view, no object per record, field or link: `value(e)`,
 * links by `linkTarget(e)`); returns how many elements.
 */
function decodeAllFields(db: Database): number {
  let n = 0;
  const cur = db.cursor();
  for (let r = 0, end = db.recordCount; r < end; r++) {
    cur.seek(r);
    while (cur.nextField()) {
      const k = cur.count;
      // Links as their target's index (-1: null), the allocation-free read; everything else as its value.
      if (cur.isLink) for (let e = 0; e < k; e++) n += cur.linkTarget(e) >= -1 ? 1 : 0;
      else for (let e = 0; e < k; e++) if (cur.value(e) !== undefined) n++;
    }
  }
  return n;
}

/** The same through the object API (a `DbRecord` per record, a `Field` per field); returns how many elements. */
function decodeAllObjects(db: Database): number {
  let n = 0;
  for (const c of db.categories) {
    const first = c.firstRecord;
    for (let i = 0; i < c.recordCount; i++) {
      for (const f of new DbRecord(db, first + i).fields()) {
        const k = f.count;
        for (let e = 0; e < k; e++) if (f.value(e) !== undefined) n++;
      }
    }
  }
  return n;
}

/**
 * A digest of every decoded element in file order (field hash, element index and value), so that the three ways
 * of decoding are compared value for value, not only counted. A Bool digests as 1 / 0 and a link as its target's
 * index (-1: null), which is how `readRecord` gives them.
 */
class ValueDigest {
  #h = 0x811c9dc5;
  readonly #f64 = new Float64Array(1);
  readonly #u32 = new Uint32Array(this.#f64.buffer);
  count = 0;

  get value(): string {
    return `${this.count}:${(this.#h >>> 0).toString(16)}`;
  }

  #word(w: number): void {
    this.#h = Math.imul(this.#h ^ w, 0x01000193);
  }

  #number(x: number): void {
    this.#f64[0] = x;
    this.#word(this.#u32[0]!);
    this.#word(this.#u32[1]!);
  }

  #text(s: string): void {
    this.#word(s.length);
    for (let i = 0; i < s.length; i++) this.#word(s.charCodeAt(i));
  }

  #any(v: unknown): void {
    if (typeof v === 'number') this.#number(v);
    else if (typeof v === 'boolean') this.#number(v ? 1 : 0);
    else if (typeof v === 'string') this.#text(v);
    else if (typeof v === 'bigint') this.#text(v.toString());
    else if (v === null) this.#number(-1);
    else if (v instanceof DbRecord) this.#number(v.index);
    else if (v instanceof Uint8Array) for (const b of v) this.#word(b);
    else if (Array.isArray(v)) for (const x of v) this.#any(x);
    else if (typeof v === 'object') for (const [k, x] of Object.entries(v as object)) {
      this.#text(k);
      this.#any(x);
    }
    else throw new Error(`digest: unexpected value ${String(v)}`);
  }

  add(hash: number, element: number, v: unknown): void {
    this.#word(hash);
    this.#word(element);
    this.#any(v);
    this.count++;
  }
}

/** `ValueDigest` of every element as `readRecord` decodes it, its outputs read field by field (`numeric`, `elementIndex`). */
function digestRecords(db: Database): string {
  const d = new ValueDigest();
  const cur = db.cursor();
  for (let r = 0; r < db.recordCount; r++) {
    cur.seek(r);
    cur.readRecord();
    const { numbers, objects } = cur;
    while (cur.nextField()) {
      const at = cur.elementIndex;
      for (let e = 0; e < cur.count; e++) d.add(cur.hash, e, cur.numeric ? numbers[at + e] : objects[at + e]);
    }
  }
  return d.value;
}

/** `ValueDigest` of every element through the cursor field by field. */
function digestFields(db: Database): string {
  const d = new ValueDigest();
  const cur = db.cursor();
  for (let r = 0; r < db.recordCount; r++) {
    cur.seek(r);
    while (cur.nextField()) for (let e = 0; e < cur.count; e++) d.add(cur.hash, e, cur.isLink ? cur.linkTarget(e) : cur.value(e));
  }
  return d.value;
}

/** `ValueDigest` of every element through the object API (records in file order: categories hold them in order). */
function digestObjects(db: Database): string {
  const d = new ValueDigest();
  for (let r = 0; r < db.recordCount; r++) {
    for (const f of db.record(r).fields()) for (let e = 0; e < f.count; e++) d.add(f.hash, e, f.value(e));
  }
  return d.value;
}

/**
 * `measure` after `WARMUP_CALLS` untimed calls and a full garbage collection outside the timing, so that a step is
 * measured in its steady state and not billed for the garbage the steps before it left (the object-API decode
 * leaves hundreds of MB of records and fields). A step's own garbage is still collected during its own runs. In
 * the quiet run of 03:43 (one warm-up, no collection) open + index read 3.9 × the floor and parse 2.0 ×, although
 * open is parse + < 4 ms (the Database's own tables, measured alone).
 */
function step(name: string, fn: () => unknown, options: { runs?: number; bytes?: number }): Measurement {
  for (let i = 0; i < WARMUP_CALLS; i++) fn();
  collectGarbage();
  return measure(name, fn, { ...options, warmup: false });
}

/**
 * Like `step` for several steps at once, their timed runs alternating (the order rotating each round), so that
 * each sees the same machine and heap state; one measurement each (medians of `runs` calls).
 */
function stepsAlternating(steps: [name: string, fn: () => unknown][], options: { runs: number; bytes?: number }): Measurement[] {
  for (let i = 0; i < WARMUP_CALLS; i++) for (const [, fn] of steps) fn();
  collectGarbage();
  const times = steps.map(() => ({ ms: [] as number[], cpu: [] as number[] }));
  for (let r = 0; r < options.runs; r++) {
    for (let j = 0; j < steps.length; j++) {
      const k = (j + r) % steps.length;
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      steps[k]![1]();
      times[k]!.ms.push(performance.now() - t0);
      const c = process.cpuUsage(c0);
      times[k]!.cpu.push((c.user + c.system) / 1000);
    }
  }
  const median = (a: number[]): number => a.sort((x, y) => x - y)[Math.floor(a.length / 2)]!;
  return steps.map(([name], k) => {
    const m: Measurement = { name, ms: median(times[k]!.ms), runs: options.runs, cpuMs: median(times[k]!.cpu) };
    if (options.bytes !== undefined) m.bytes = options.bytes;
    return m;
  });
}

/**
 * Calls of a step before its timed runs. V8 reaches the parser's optimized code only after a few calls of it
 * (`--trace-opt`: fillRecords, readGadbDescriptorRows and itemsFromStarts are compiled on stack replacement, then
 * again whole, itemsFromStarts after two deoptimizations for missing feedback; the first calls of Database.open in
 * a fresh process take 2-4 × the later ones). With one warm-up, open + index, measured first, read 2 × parse.
 */
const WARMUP_CALLS = 3;

/** The memory tasks a child process runs (each reads the file first). */
const TASKS: Record<string, (bytes: Uint8Array) => unknown> = {
  baseline: (bytes) => sumU32(bytes),
  open: (bytes) => Database.open(bytes),
  verify: (bytes) => verifyGadb(bytes),
  decode: (bytes) => decodeAll(Database.open(bytes)),
  decodeFields: (bytes) => decodeAllFields(Database.open(bytes)),
  decodeObjects: (bytes) => decodeAllObjects(Database.open(bytes)),
  rebuild: (bytes) => writeGadb(parseGadb(bytes)),
};

function childPeak(task: string, file: string): number {
  const script = fileURLToPath(import.meta.url);
  const r = spawnSync(process.execPath, ['--import', 'tsx', script, '--child', task, file], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 20 });
  if (r.status !== 0) throw new Error(`memory child ${task} failed: ${r.stderr}`);
  return (JSON.parse(r.stdout.trim().split('\n').pop()!) as { peak: number }).peak;
}

const mb = (x: number): string => (x / 1e6).toFixed(1);

/** Reads the whole file into a new buffer (what every CLI command does first). */
function readFresh(path: string): Uint8Array {
  const b = readFileSync(path);
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}

export async function run(): Promise<string> {
  // Generation, once: wall and CPU time.
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const generated = generateGadb({ seed: SEED, scale: SCALE });
  const genModelMs = performance.now() - t0;
  const t1 = performance.now();
  const bytes = writeGadb(generated.gadb);
  const genWriteMs = performance.now() - t1;
  const cpu = process.cpuUsage(cpu0);
  const genCpuMs = (cpu.user + cpu.system) / 1000;
  let cache = 'written';
  if (existsSync(cachePath)) {
    const cached = readFileSync(cachePath);
    if (Buffer.compare(cached, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)) !== 0) throw new Error(`${cachePath} differs from a fresh generation with the same seed: the generator is not deterministic`);
    cache = 'reused (identical to a fresh generation)';
  } else {
    mkdirSync(cacheDir, { recursive: true });
    writeFileSync(cachePath, bytes);
  }

  // Progress on stderr, written synchronously (process.stderr may buffer until the run ends).
  const log = (text: string): void => void writeSync(2, `gadb bench: ${text}\n`);
  log(`generated ${bytes.byteLength} bytes in ${(genModelMs / 1000).toFixed(1)} + ${(genWriteMs / 1000).toFixed(1)} s; cache ${cache}`);
  // Correctness at scale, once.
  const issues = verifyGadb(bytes);
  const problems = issues.filter((i) => i.severity !== 'info');
  const rebuilt = writeGadb(parseGadb(bytes));
  const exact = Buffer.compare(Buffer.from(rebuilt), Buffer.from(bytes)) === 0;

  // Peak memory, one child process per task.
  const peaks: Record<string, number> = {};
  for (const task of Object.keys(TASKS)) peaks[task] = childPeak(task, cachePath);

  log(`peak RSS ${JSON.stringify(peaks)}`);
  // Throughput, each with the floor of the same run.
  const floor = step('floor: sum u32', () => sumU32(bytes), { runs: 9, bytes: bytes.byteLength });
  // A second floor for rebuild: what any writer of a new file pays and summing does not (a fresh file-sized buffer,
  // its pages faulted in, and the file's bytes copied into it).
  const outputFloor = step('floor: new file-sized buffer + copy the file into it', () => {
    const out = new Uint8Array(bytes.byteLength);
    out.set(bytes);
    return out;
  }, { runs: 9, bytes: bytes.byteLength });
  const model = parseGadb(bytes);
  const db = Database.open(bytes);
  const decoded = decodeAll(db);
  if (decodeAllFields(db) !== decoded || decodeAllObjects(db) !== decoded) throw new Error('the cursor (a record or a field at a time) and the object API decode different element counts');
  const digests = [digestRecords(db), digestFields(db), digestObjects(db)];
  if (digests.some((x) => x !== digests[0])) throw new Error(`the cursor (a record or a field at a time) and the object API decode different values: ${digests.join(' / ')}`);
  const steps: Measurement[] = [
    // Open is parse + the Database's own tables: the two alternate, so that neither inherits a state the other left.
    ...stepsAlternating(
      [
        ['open + index (Database.open)', () => Database.open(bytes)],
        ['parse (parseGadb)', () => parseGadb(bytes)],
      ],
      { runs: 7, bytes: bytes.byteLength },
    ),
    step('full verify (verifyGadb)', () => verifyGadb(bytes), { runs: 3, bytes: bytes.byteLength }),
    step(`decode every cell, cursor a record at a time (readRecord; ${decoded.toLocaleString('en-US')} elements)`, () => decodeAll(db), { runs: 3, bytes: bytes.byteLength }),
    step('decode every cell, cursor a field at a time (value / linkTarget)', () => decodeAllFields(db), { runs: 3, bytes: bytes.byteLength }),
    step('decode every cell, object API (DbRecord + Field objects)', () => decodeAllObjects(db), { runs: 3, bytes: bytes.byteLength }),
    step('rebuild unchanged (writeGadb of the parsed model)', () => writeGadb(model), { runs: 5, bytes: bytes.byteLength }),
    step('parse + rebuild (scry db rebuild)', () => writeGadb(parseGadb(bytes)), { runs: 3, bytes: bytes.byteLength }),
    outputFloor,
  ];
  // The issue's floor: read the file and sum every u32. A user's `scry db info|verify|rebuild` reads the file too,
  // so the targets compare the same work from disk (the OS page cache holds the file after the first read).
  const readFloor = step('floor: read the file + sum u32', () => sumU32(readFresh(cachePath)), { runs: 9, bytes: bytes.byteLength });
  const fromDisk: Measurement[] = [
    step('open + index from disk (read + Database.open)', () => Database.open(readFresh(cachePath)), { runs: 5, bytes: bytes.byteLength }),
    step('full verify from disk (read + verifyGadb)', () => verifyGadb(readFresh(cachePath)), { runs: 3, bytes: bytes.byteLength }),
    step('rebuild unchanged (writeGadb of the parsed model)', () => writeGadb(model), { runs: 5, bytes: bytes.byteLength }),
    step('parse + rebuild from disk (scry db rebuild)', () => writeGadb(parseGadb(readFresh(cachePath))), { runs: 3, bytes: bytes.byteLength }),
  ];
  const row = (name: string): Measurement => steps.find((m) => m.name.startsWith(name))!;
  const inMemory = (name: string): number => row(name).ms / floor.ms;
  const inMemoryCpu = (name: string): number => row(name).cpuMs! / floor.cpuMs!;

  const size = bytes.byteLength;
  const s = generated.stats;
  const lines = [
    report(`GADB at game scale, from disk, against the issue's floor (generated, seed ${SEED}, scale ${SCALE}: ${size.toLocaleString('en-US')} bytes, ${s.cells.toLocaleString('en-US')} cells, ${(s.primaries + s.secondaries).toLocaleString('en-US')} records)`, fromDisk, readFloor),
    '',
    report('The same work on bytes already in memory, against summing them (a stricter floor: no allocation at all)', steps, floor, { cpu: true }),
    '',
    `| target (issue 16: in-memory floor, sum u32) | measured (wall) | measured (CPU) | goal | met (wall / CPU) |`,
    `|---|---:|---:|---:|---|`,
    ...(
      [
        ['open + index (Database.open)', 'open + index', 3],
        ['full verify', 'full verify', 8],
        ['decode every cell (cursor, readRecord)', 'decode every cell, cursor a record', 10],
        ['rebuild unchanged', 'rebuild unchanged', 4],
      ] as const
    ).map(([name, key, goal]) => {
      const w = inMemory(key);
      const c = inMemoryCpu(key);
      return `| ${name} | ${w.toFixed(2)} × floor | ${c.toFixed(2)} × floor | ≤ ${goal} | ${w <= goal ? 'yes' : 'no'} / ${c <= goal ? 'yes' : 'no'} |`;
    }),
    (() => {
      const w = row('rebuild unchanged').ms / outputFloor.ms;
      const c = row('rebuild unchanged').cpuMs! / outputFloor.cpuMs!;
      return `| rebuild unchanged against the output floor (new buffer + copy: ${outputFloor.ms.toFixed(1)} ms wall, ${outputFloor.cpuMs!.toFixed(1)} ms CPU = ${(outputFloor.ms / floor.ms).toFixed(2)} / ${(outputFloor.cpuMs! / floor.cpuMs!).toFixed(2)} × the sum floor) | ${w.toFixed(2)} × | ${c.toFixed(2)} × | (no target) | |`;
    })(),
    ...(
      [
        ['open', 1.5],
        ['verify', 2],
        ['decode', 2],
        ['rebuild', 2.5],
      ] as const
    ).map(([t, goal]) => {
      // The runtime's own footprint (Node + tsx, measured by the baseline child minus the file it read) is not the codec's.
      const own = peaks[t]! - (peaks['baseline']! - size);
      const r = own / size;
      return `| peak memory, ${t === 'rebuild' ? 'parse + rebuild' : t} (${mb(peaks[t]!)} MB RSS, ${mb(own)} MB without the runtime) | ${r.toFixed(2)} × file | ≤ ${goal} | ${r <= goal ? 'yes' : 'no'} |`;
    }),
    '',
    `Baseline child (Node + tsx, the file read and summed): ${mb(peaks['baseline']!)} MB RSS, of which ${mb(size)} MB is the file; "without the runtime" subtracts the other ${mb(peaks['baseline']! - size)} MB. Raw ratios (peak RSS / file size): ${['open', 'verify', 'decode', 'rebuild'].map((t) => `${t} ${(peaks[t]! / size).toFixed(2)}`).join(', ')}. Decode through the cursor a field at a time: ${((peaks['decodeFields']! - (peaks['baseline']! - size)) / size).toFixed(2)} × file without the runtime; through the object API: ${((peaks['decodeObjects']! - (peaks['baseline']! - size)) / size).toFixed(2)}.`,
    `Generation: model ${(genModelMs / 1000).toFixed(2)} s + writeGadb ${(genWriteMs / 1000).toFixed(2)} s wall, ${(genCpuMs / 1000).toFixed(2)} s CPU (phases, ms: ${Object.entries(generated.phaseMs).map(([k, v]) => `${k} ${v}`).join(', ')}); cache ${cache}.`,
    `Correctness at scale: verify ${problems.length === 0 ? 'clean' : `${problems.length} error/warning finding(s)`} (${issues.length} info), rebuild ${exact ? 'byte-exact' : 'DIFFERS'}, file size ${size === generated.figures.fileSize ? 'equals' : 'differs from'} the game's ${generated.figures.fileSize.toLocaleString('en-US')}.`,
  ];
  return lines.join('\n');
}

/**
 * This process's own peak RSS. On Linux `getrusage` maxRSS survives `exec`, so a child forked from a big parent
 * reports the parent's size; VmHWM in /proc/self/status belongs to the new address space only.
 */
function ownPeak(): number {
  try {
    const m = /^VmHWM:\s+(\d+)\s+kB/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (m) return Number(m[1]) * 1024;
  } catch {
    /* not Linux */
  }
  return peakRss();
}

// Child mode: one memory task.
if (process.argv[2] === '--child' && import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const task = TASKS[process.argv[3] ?? ''];
  if (!task) throw new Error(`unknown task ${process.argv[3]}`);
  const b = readFileSync(process.argv[4]!);
  const result = task(new Uint8Array(b.buffer, b.byteOffset, b.byteLength));
  void result;
  process.stdout.write(JSON.stringify({ peak: ownPeak() }) + '\n');
}
