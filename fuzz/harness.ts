/**
 * The campaign harness of `npm run fuzz`: one format at a time, its cases run in a worker thread watched by the
 * main thread.
 *
 * - **Outcome of a case**: the target's `check` returns `accepted` or `rejected` (the pipeline refused the input
 *   with a `ToolkitError`). Anything else it throws is a finding: an untyped exception (RangeError, TypeError…)
 *   or a broken promise (`Finding`: a rewrite that differs, a decoded size other than the declared one…).
 * - **Time**: every case is timed; a case over `timeLimitMs` (2 s) is a finding. A case that runs past
 *   `hangMs` is a hang: the watchdog terminates the worker, rebuilds the case's input (cases are a pure function
 *   of their number, see `mutate.ts`), saves it, and starts a new worker at the next case.
 * - **Memory**: the peak resident-set growth of each case (Linux VmHWM, reset before the case, minus the RSS
 *   before it) must stay within `64 × input length + memConstant`; a case over it is a finding. The growth
 *   misses what fits in memory the process already holds (its heap's free pages), which is what the constant
 *   covers; the worst growth per format is reported with its input length.
 *
 * Findings' inputs are saved under `fuzz/crashers/` (the first 20 per campaign) with a log line each.
 */
import { appendFileSync, closeSync, mkdirSync, openSync, readSync, writeFileSync, writeSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { ToolkitError } from '../src/binary/errors.ts';
import { CaseGenerator, traceFields } from './mutate.ts';

export type Outcome = 'accepted' | 'rejected';

/** A broken promise found by a check (not an exception of the code under test). */
export class Finding extends Error {
  override name = 'Finding';
}

/** One format's campaign: its seeds, how its reader opens a seed (for the field map), and the whole check. */
export interface FuzzTarget {
  id: string;
  /** Real and synthetic inputs the mutations start from. */
  seeds(): Uint8Array[] | Promise<Uint8Array[]>;
  /** Opens an input the way the format's reader does (traced to find the fields). Default: `check`. */
  open?(input: Uint8Array): unknown;
  /** Runs the whole pipeline on one input. Throw `Finding` for a broken promise; let other errors escape. */
  check(input: Uint8Array): Outcome | Promise<Outcome>;
  /** Runs once in the worker before the cases (e.g. loading the real Kraken decoder). */
  setup?(): Promise<void>;
}

/** `fn()`, with a ToolkitError turned into `rejected`. */
export function typed(fn: () => void): Outcome {
  try {
    fn();
    return 'accepted';
  } catch (e) {
    if (e instanceof ToolkitError) return 'rejected';
    throw e;
  }
}

/** Async `typed`. */
export async function typedAsync(fn: () => Promise<void>): Promise<Outcome> {
  try {
    await fn();
    return 'accepted';
  } catch (e) {
    if (e instanceof ToolkitError) return 'rejected';
    throw e;
  }
}

export interface CampaignOptions {
  runs: number;
  seed: number;
  /** A case slower than this is a finding (default 2000 ms). */
  timeLimitMs?: number;
  /** A case running longer than this is killed as a hang (default 10 s). */
  hangMs?: number;
  /** Memory growth allowed besides 64 bytes per input byte (default 16 MiB). */
  memConstant?: number;
  /** A time budget: stop after this many seconds (the result counts the cases actually run); 0 = none. */
  seconds?: number;
}

export interface CampaignResult {
  id: string;
  seed: number;
  cases: number;
  accepted: number;
  rejected: number;
  /** Untyped exceptions and broken promises. */
  findings: number;
  /** Cases over the time limit (hangs included). */
  slow: number;
  hangs: number;
  slowestMs: number;
  /** Worst peak RSS growth of a case, and that case's input length. */
  worstGrowth: number;
  worstGrowthLength: number;
  /** Worst growth beyond 64 × input length (≤ memConstant to meet the bar). */
  worstExcess: number;
  memConstant: number;
  deterministicCases: number;
  seconds: number;
  casesPerSecond: number;
}

// Slots of the shared stats array.
const S = { current: 0, started: 1, accepted: 2, rejected: 3, findings: 4, slowest: 5, worstGrowth: 6, worstGrowthLen: 7, worstExcess: 8, slow: 9, done: 10, finished: 11, saved: 12, stop: 13 } as const;
const SLOTS = 14;

const crasherDir = fileURLToPath(new URL('crashers/', import.meta.url));
const resultDir = fileURLToPath(new URL('results/', import.meta.url));

/** Builds the case generator of a target: its seeds and their traced field maps. */
export async function buildGenerator(target: FuzzTarget, seed: number): Promise<CaseGenerator> {
  const seeds = await target.seeds();
  if (seeds.length === 0) throw new Error(`${target.id}: no seed inputs`);
  const open = target.open ?? ((b: Uint8Array) => target.check(b));
  const maps = [];
  for (const s of seeds) maps.push(await traceFields(s, open));
  return new CaseGenerator(seeds, maps, seed);
}

function record(stats: Float64Array, id: string, seed: number, i: number, input: Uint8Array, what: string): void {
  stats[S.findings]!++;
  mkdirSync(crasherDir, { recursive: true });
  let saved = '';
  if (stats[S.saved]! < 20) {
    stats[S.saved]!++;
    saved = join(crasherDir, `${id}-${seed}-${i}.bin`);
    writeFileSync(saved, input);
  }
  appendFileSync(join(crasherDir, `${id}-${seed}.log`), `case ${i} (${input.length} bytes)${saved ? ` ${saved}` : ''}: ${what.replace(/\s+/g, ' ').slice(0, 600)}\n`);
}

/** Peak-RSS probe: resets VmHWM, reads it back. Linux only; elsewhere growth reads as 0. */
class MemoryProbe {
  private readonly clear: number;
  private readonly status: number;
  private readonly buf = Buffer.alloc(8192);
  readonly available: boolean;
  constructor() {
    let clear = -1;
    let status = -1;
    try {
      clear = openSync('/proc/self/clear_refs', 'w');
      status = openSync('/proc/self/status', 'r');
    } catch {
      /* not Linux */
    }
    this.clear = clear;
    this.status = status;
    this.available = clear >= 0 && status >= 0;
  }
  reset(): void {
    if (this.available) writeSync(this.clear, '5');
  }
  peak(): number {
    if (!this.available) return 0;
    const n = readSync(this.status, this.buf, 0, this.buf.length, 0);
    const text = this.buf.toString('latin1', 0, n);
    const at = text.indexOf('VmHWM:');
    return at < 0 ? 0 : parseInt(text.slice(at + 6), 10) * 1024;
  }
  close(): void {
    if (this.clear >= 0) closeSync(this.clear);
    if (this.status >= 0) closeSync(this.status);
  }
}

/** Worker side: runs cases [start, end) of a campaign, updating the shared stats. */
export async function runCases(target: FuzzTarget, options: Required<CampaignOptions>, start: number, end: number, stats: Float64Array): Promise<void> {
  await target.setup?.();
  const gen = await buildGenerator(target, options.seed);
  const probe = new MemoryProbe();
  const now = () => performance.timeOrigin + performance.now();
  for (let i = start; i < end && stats[S.stop] === 0; i++) {
    const input = gen.input(i);
    stats[S.current] = i;
    const rssBefore = process.memoryUsage.rss();
    probe.reset();
    const t0 = now();
    stats[S.started] = t0;
    let problem: string | undefined;
    try {
      const r = target.check(input);
      const outcome = r instanceof Promise ? await r : r;
      stats[outcome === 'accepted' ? S.accepted : S.rejected]!++;
    } catch (e) {
      const err = e as Error;
      problem = e instanceof Finding ? `finding: ${err.message}` : `untyped ${err?.name ?? typeof e}: ${err?.message ?? String(e)} ${(err?.stack ?? '').split('\n').slice(1, 4).join(' | ')}`;
    }
    const ms = now() - t0;
    stats[S.started] = 0;
    const growth = Math.max(0, probe.peak() - rssBefore);
    if (ms > stats[S.slowest]!) stats[S.slowest] = ms;
    if (growth > stats[S.worstGrowth]!) {
      stats[S.worstGrowth] = growth;
      stats[S.worstGrowthLen] = input.length;
    }
    const excess = growth - 64 * input.length;
    if (excess > stats[S.worstExcess]!) stats[S.worstExcess] = excess;
    if (!problem && ms > options.timeLimitMs) {
      stats[S.slow]!++;
      problem = `slow: ${ms.toFixed(0)} ms (${gen.describe(i)})`;
    }
    if (!problem && excess > options.memConstant) problem = `memory: peak growth ${(growth / 2 ** 20).toFixed(1)} MiB for ${input.length} input bytes (${gen.describe(i)})`;
    if (problem) record(stats, target.id, options.seed, i, input, problem);
    stats[S.finished] = i + 1;
  }
  probe.close();
}

/** Main side: runs a whole campaign of `target` (defined in `modulePath`) under the watchdog. */
export async function runCampaign(modulePath: string, target: FuzzTarget, opts: CampaignOptions): Promise<CampaignResult> {
  const options: Required<CampaignOptions> = { timeLimitMs: 2000, hangMs: 10_000, memConstant: 16 * 2 ** 20, seconds: 0, ...opts };
  const stats = new Float64Array(new SharedArrayBuffer(SLOTS * 8));
  const gen = await buildGenerator(target, options.seed);
  const t0 = Date.now();
  let hangs = 0;
  let next = 0;
  let lastReport = Date.now();
  const budget = options.seconds > 0 ? setTimeout(() => (stats[S.stop] = 1), options.seconds * 1000) : undefined;
  while (next < options.runs && stats[S.stop] === 0) {
    stats[S.current] = -1;
    const worker = new Worker(new URL('./worker-boot.mjs', import.meta.url), {
      workerData: { modulePath, options, start: next, end: options.runs, stats },
      resourceLimits: { maxOldGenerationSizeMb: 2048 },
    });
    const exit = new Promise<{ code: number; error?: Error }>((resolve) => {
      let error: Error | undefined;
      worker.on('error', (e) => (error = e));
      worker.on('exit', (code) => resolve(error ? { code, error } : { code }));
    });
    let killed = false;
    const watch = setInterval(() => {
      const started = stats[S.started]!;
      if (started > 0 && performance.timeOrigin + performance.now() - started > options.hangMs) {
        killed = true;
        void worker.terminate();
      }
      if (Date.now() - lastReport > 60_000) {
        lastReport = Date.now();
        const done = stats[S.finished]!;
        console.log(`  ${target.id}: ${done} / ${options.runs} cases, ${stats[S.findings]} finding(s), ${(done / ((Date.now() - t0) / 1000)).toFixed(0)} cases/s`);
      }
    }, 200);
    const { error } = await exit;
    clearInterval(watch);
    const at = stats[S.current]!;
    if (stats[S.finished]! >= options.runs || (stats[S.stop] === 1 && !killed && !error)) break;
    if (at < next) throw new Error(`${target.id}: the worker stopped before its first case: ${error?.stack ?? error?.message ?? 'no error'}`);
    // A hang, a crash of the worker (out of memory) or an error outside a case: record the current case, go on.
    if (killed) {
      hangs++;
      stats[S.slow]!++;
    }
    record(stats, target.id, options.seed, at, gen.input(at), killed ? `hang: over ${options.hangMs} ms (${gen.describe(at)})` : `worker died: ${error?.message ?? 'exit'} (${gen.describe(at)})`);
    stats[S.started] = 0;
    next = at + 1;
    stats[S.finished] = next;
  }
  clearTimeout(budget);
  const seconds = (Date.now() - t0) / 1000;
  const cases = stats[S.finished]!;
  const result: CampaignResult = {
    id: target.id,
    seed: options.seed,
    cases,
    accepted: stats[S.accepted]!,
    rejected: stats[S.rejected]!,
    findings: stats[S.findings]!,
    slow: stats[S.slow]!,
    hangs,
    slowestMs: Math.round(stats[S.slowest]! * 10) / 10,
    worstGrowth: stats[S.worstGrowth]!,
    worstGrowthLength: stats[S.worstGrowthLen]!,
    worstExcess: Math.max(0, stats[S.worstExcess]!),
    memConstant: options.memConstant,
    deterministicCases: gen.deterministicCases,
    seconds: Math.round(seconds),
    casesPerSecond: Math.round(cases / Math.max(seconds, 0.001)),
  };
  mkdirSync(resultDir, { recursive: true });
  writeFileSync(join(resultDir, `${target.id}-${options.seed}-${cases}.json`), JSON.stringify(result, null, 2) + '\n');
  return result;
}

/** One line for the console and BENCHMARKS.md. */
export function describeResult(r: CampaignResult): string {
  const mib = (n: number) => `${(n / 2 ** 20).toFixed(1)} MiB`;
  return `${r.cases} cases (${r.deterministicCases} structured strategies + random stacks) in ${r.seconds} s (${r.casesPerSecond}/s): ${r.accepted} accepted, ${r.rejected} rejected with a typed error, ${r.findings} finding(s), ${r.slow} over the time limit (${r.hangs} hangs), slowest ${r.slowestMs} ms, worst peak growth ${mib(r.worstGrowth)} for a ${r.worstGrowthLength}-byte input (worst excess over 64× input: ${mib(r.worstExcess)}, allowed ${mib(r.memConstant)})`;
}

/** The `fuzz(options)` export of a format's `*.fuzz.ts`: runs the campaign and throws when it found anything. */
export function formatCampaign(moduleUrl: string, target: FuzzTarget): (o: { runs: number; seed: number; seconds?: number }) => Promise<string> {
  return async (o) => {
    const r = await runCampaign(moduleUrl, target, o);
    const line = describeResult(r);
    if (r.findings > 0) throw new Error(`${target.id}: ${line}; see fuzz/crashers/${target.id}-${o.seed}.log`);
    return line;
  };
}
