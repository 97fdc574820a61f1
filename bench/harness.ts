/**
 * Minimal benchmark harness. Every benchmark measures its floor in the same run (e.g. reading the file and
 * summing every u32) and reports the ratio, so results stay comparable across machines.
 *
 *   const floor = measure('floor: sum u32', () => sumU32(bytes));
 *   const open = measure('open + index', () => parseGadb(bytes));
 *   report([...], floor);
 */
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export interface Measurement {
  name: string;
  /** Wall time of the runs in milliseconds: the median (`measure`) or the minimum (`measureMin`). */
  ms: number;
  runs: number;
  /** Bytes processed per run, for MB/s. */
  bytes?: number;
  /** CPU time (user + system) of the runs in milliseconds, median or minimum as `ms`: far less sensitive to a loaded machine. */
  cpuMs?: number;
}

/** Runs `fn` `runs` times (after one warm-up unless `warmup` is false) and returns the median time. */
export function measure(name: string, fn: () => unknown, options: { runs?: number; warmup?: boolean; bytes?: number } = {}): Measurement {
  const runs = options.runs ?? 5;
  if (options.warmup !== false) fn();
  const times: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    fn();
    times.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  times.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  const m: Measurement = { name, ms: times[Math.floor(times.length / 2)]!, runs, cpuMs: cpu[Math.floor(cpu.length / 2)]! };
  if (options.bytes !== undefined) m.bytes = options.bytes;
  return m;
}

let collect: ((options: { type: 'major'; execution: 'sync' }) => void) | undefined;

/**
 * A full (major) garbage collection, now: V8's `gc`, exposed at the first call without restarting Node. Called as
 * `gc({ type: 'major' })`: a bare `gc()` is the memory-reducing collection, which also throws away compiled code,
 * so the next call runs interpreted (the HKS disassembler 3× slower).
 */
export function collectGarbage(): void {
  if (!collect) {
    setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as typeof collect;
  }
  collect!({ type: 'major', execution: 'sync' });
}

/**
 * The steady cost of `fn`: after one warm-up, `runs` calls (default 15), each after a full garbage collection that
 * is outside its timing, and the **minimum** wall and CPU time. Garbage from earlier work (including the previous
 * call's) is not billed to the call, and the minimum drops the calls a loaded machine slowed down: the figure moves
 * far less between processes than a median of calls that pay for collections at random. Use the same method for a
 * floor and the rows compared with it.
 */
export function measureMin(name: string, fn: () => unknown, options: { runs?: number; bytes?: number } = {}): Measurement {
  const runs = options.runs ?? 15;
  fn();
  let ms = Infinity;
  let cpu = Infinity;
  for (let i = 0; i < runs; i++) {
    collectGarbage();
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    fn();
    ms = Math.min(ms, performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu = Math.min(cpu, (c.user + c.system) / 1000);
  }
  const m: Measurement = { name, ms, runs, cpuMs: cpu };
  if (options.bytes !== undefined) m.bytes = options.bytes;
  return m;
}

/** `measure` for async work: one warm-up, then the median of `runs` (default 3). */
export async function measureAsync(name: string, fn: () => Promise<unknown>, options: { runs?: number; bytes?: number } = {}): Promise<Measurement> {
  const runs = options.runs ?? 3;
  await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const m: Measurement = { name, ms: times[Math.floor(times.length / 2)]!, runs };
  if (options.bytes !== undefined) m.bytes = options.bytes;
  return m;
}

/**
 * CPU milliseconds (user + system, this process) of one call of `fn`: the median of `runs` calls, after one
 * warm-up call unless `warmup` is false.
 */
export function cpuMs(fn: () => unknown, runs = 5, warmup = true): number {
  if (warmup) fn();
  const t: number[] = [];
  for (let i = 0; i < runs; i++) {
    const c0 = process.cpuUsage();
    fn();
    const c = process.cpuUsage(c0);
    t.push((c.user + c.system) / 1000);
  }
  return t.sort((a, b) => a - b)[runs >> 1]!;
}

/** {@link cpuMs} of an asynchronous `fn` (one warm-up call, then the median of `runs`). */
export async function cpuMsAsync(fn: () => Promise<unknown>, runs = 3): Promise<number> {
  await fn();
  const t: number[] = [];
  for (let i = 0; i < runs; i++) {
    const c0 = process.cpuUsage();
    await fn();
    const c = process.cpuUsage(c0);
    t.push((c.user + c.system) / 1000);
  }
  return t.sort((a, b) => a - b)[runs >> 1]!;
}

/** The floor used by most benchmarks: touch every byte of the input by summing it as u32 words. */
export function sumU32(bytes: Uint8Array): number {
  const words = Math.floor(bytes.byteLength / 4);
  const view = bytes.byteOffset % 4 === 0 ? new Uint32Array(bytes.buffer, bytes.byteOffset, words) : new Uint32Array(bytes.slice(0, words * 4).buffer);
  let sum = 0;
  for (let i = 0; i < view.length; i++) sum = (sum + view[i]!) | 0;
  return sum;
}

/** Peak resident set size so far, in bytes (Node's maxRSS is in KiB). */
export function peakRss(): number {
  return process.resourceUsage().maxRSS * 1024;
}

/**
 * Formats measurements as a Markdown table with ratios to `floor`; with `cpu`, also the median CPU time and the
 * ratio of CPU times (what to read on a loaded machine).
 */
export function report(title: string, measurements: Measurement[], floor: Measurement, options: { cpu?: boolean } = {}): string {
  const cpu = options.cpu === true;
  const lines = [`### ${title}`, '', cpu ? '| step | median ms | × floor | CPU ms | × floor (CPU) | MB/s |' : '| step | median ms | × floor | MB/s |', cpu ? '|---|---:|---:|---:|---:|---:|' : '|---|---:|---:|---:|'];
  for (const m of [floor, ...measurements]) {
    const mbs = m.bytes !== undefined ? ((m.bytes / 1e6) / (m.ms / 1e3)).toFixed(0) : '';
    const cpuCols = cpu ? ` ${m.cpuMs?.toFixed(1) ?? ''} | ${m.cpuMs !== undefined && floor.cpuMs ? (m.cpuMs / floor.cpuMs).toFixed(2) : ''} |` : '';
    lines.push(`| ${m.name} | ${m.ms.toFixed(1)} | ${(m.ms / floor.ms).toFixed(2)} |${cpuCols} ${mbs} |`);
  }
  return lines.join('\n');
}
