/**
 * The HavokScript VM on classic programs (`npm run bench -- vm`): each program of `bench/lua/` is run under scry's
 * interpreter (double mode, compiled by `compileLua`), under scry with the JavaScript tier (`jit: true`), under
 * Debian's `lua5.1` (its start-up of a few milliseconds is counted) and under fengari (the best-known Lua VM written
 * in JavaScript; it implements Lua 5.3, so the programs are written for both and print through `string.format`).
 * Every run is a process of its own (scry and fengari: a child `node` with this process's flags running
 * `bench/vm-run.ts`, which times the run inside it), so no runtime inherits V8's state (the interpreter loop's type
 * feedback and optimized code, the heap) from the one before; the runs of a program alternate lua5.1, interpreter and
 * tier. Every runtime's output is checked against lua5.1's before its time counts: a benchmark that computes wrong is
 * worthless.
 *
 * The floor of this benchmark is lua5.1 itself (the C interpreter the targets are set against): ratios are to its
 * time in the same run. `VM_BENCH_SCALE=small` runs every program at a tenth-ish of its size (a quick check of the
 * harness, not figures to record); `VM_BENCH_ONLY=fib,n-body` runs a subset; `VM_BENCH_FENGARI=0` leaves fengari out;
 * `VM_BENCH_RUNS=1` times each runtime once.
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import type { VmRunTiming as Timing, VmRuntime } from './vm-run.ts';

interface Program {
  name: string;
  /**
   * The argument giving its size: a second or more under lua5.1 (issue 11: "at sizes of a second or more"; measured
   * 2026-12-02 quiet: 1.2–4.2 s), except fannkuch 9 at ~0.7 s, whose next size (10) takes ten times as long.
   */
  size: number;
  small: number;
}

const PROGRAMS: Program[] = [
  { name: 'fib', size: 35, small: 24 },
  { name: 'binary-trees', size: 15, small: 9 },
  { name: 'n-body', size: 200_000, small: 10_000 },
  { name: 'spectral-norm', size: 600, small: 80 },
  { name: 'fannkuch', size: 9, small: 7 },
  { name: 'mandelbrot', size: 800, small: 100 },
  { name: 'strings', size: 1_200_000, small: 10_000 },
  { name: 'coroutines', size: 3_600_000, small: 20_000 },
];

const luaDir = fileURLToPath(new URL('./lua/', import.meta.url));

/** Median of `runs` timings (each run checked by the caller). */
function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

const hasTime = spawnSync('/usr/bin/time', ['-f', '%U', 'true'], { encoding: 'latin1' }).status === 0;

function runLua51(file: string, size: number): Timing | null {
  const t0 = performance.now();
  // /usr/bin/time -f '%U %S' gives the child's CPU time (on its stderr, after the program's)
  const r = hasTime
    ? spawnSync('/usr/bin/time', ['-f', '%U %S', 'lua5.1', file, String(size)], { encoding: 'latin1' })
    : spawnSync('lua5.1', [file, String(size)], { encoding: 'latin1' });
  const ms = performance.now() - t0;
  if (r.error !== undefined || r.status !== 0) return null;
  const times = hasTime ? r.stderr.trim().split('\n').pop()!.split(' ').map(Number) : [NaN, NaN];
  return { ms, cpu: (times[0]! + times[1]!) * 1000, out: r.stdout };
}

const childScript = fileURLToPath(new URL('./vm-run.ts', import.meta.url));

/** One run of `file` under scry or fengari in a child `node` with this process's flags (a failed child throws). */
function runChild(runtime: VmRuntime, file: string, size: number): Timing {
  const r = spawnSync(process.execPath, [...process.execArgv, childScript, runtime, file, String(size)], {
    encoding: 'latin1',
    maxBuffer: 1 << 28,
  });
  if (r.error !== undefined || r.status !== 0) {
    throw new Error(`vm bench: ${runtime} ${file} ${size}: ${r.error?.message ?? `exit ${r.status}`}\n${r.stderr.slice(-2000)}`);
  }
  return JSON.parse(r.stdout) as Timing;
}

function hasFengari(): boolean {
  try {
    createRequire(import.meta.url).resolve('fengari');
    return true;
  } catch {
    return false;
  }
}

/** Wall and CPU milliseconds (medians) of one runtime on one program. */
interface Time {
  ms: number;
  cpu: number;
}

interface Row {
  name: string;
  size: number;
  lua51: Time;
  scry: Time;
  scryJit: Time;
  fengari: Time | null;
}

const geomean = (xs: number[]): number => Math.exp(xs.reduce((s, x) => s + Math.log(x), 0) / xs.length);
const medians = (ts: Timing[]): Time => ({ ms: median(ts.map((t) => t.ms)), cpu: median(ts.map((t) => t.cpu)) });

export async function run(): Promise<string> {
  const small = process.env['VM_BENCH_SCALE'] === 'small';
  const only = process.env['VM_BENCH_ONLY']?.split(',');
  const withFengari = process.env['VM_BENCH_FENGARI'] !== '0' && hasFengari();
  const runs = small ? 1 : Number(process.env['VM_BENCH_RUNS'] ?? 3);
  const rows: Row[] = [];
  const problems: string[] = [];
  for (const p of PROGRAMS) {
    if (only !== undefined && !only.includes(p.name)) continue;
    const size = small ? p.small : p.size;
    const file = `${luaDir}${p.name}.lua`;
    const lua51: Timing[] = [];
    const scry: Timing[] = [];
    const scryJit: Timing[] = [];
    const check = (label: string, t: Timing): void => {
      const ref = lua51[0]!.out;
      if (t.out !== ref) problems.push(`${label} ${p.name}: output differs from lua5.1 (${JSON.stringify(t.out.slice(0, 200))} vs ${JSON.stringify(ref.slice(0, 200))})`);
    };
    // lua5.1, the interpreter and the tier alternate, each run a process of its own
    for (let i = 0; i < runs; i++) {
      const ref = runLua51(file, size);
      if (ref === null) return '### vm\n\nlua5.1 is not installed or failed: nothing to compare with.';
      lua51.push(ref);
      check('lua5.1 (again)', ref);
      for (const [runtime, into, label] of [['scry', scry, 'scry'], ['scry-jit', scryJit, 'scry --jit']] as const) {
        const t = runChild(runtime, file, size);
        check(label, t);
        into.push(t);
      }
    }
    let fengari: Time | null = null;
    if (withFengari) {
      // one timed run: fengari is slow enough that the warm-up is a small part of the run
      const t = runChild('fengari', file, size);
      check('fengari', t);
      fengari = { ms: t.ms, cpu: t.cpu };
    }
    const row: Row = { name: p.name, size, lua51: medians(lua51), scry: medians(scry), scryJit: medians(scryJit), fengari };
    rows.push(row);
    // progress on stderr (a long run on a loaded machine)
    const show = (t: Time | null): string => (t === null ? '-' : `${t.ms.toFixed(0)} (cpu ${t.cpu.toFixed(0)})`);
    process.stderr.write(`vm bench: ${p.name} lua5.1 ${show(row.lua51)} ms, scry ${show(row.scry)}, --jit ${show(row.scryJit)}, fengari ${show(fengari)}\n`);
  }
  const lines = [
    '### vm: classic programs (double mode), scry against lua5.1 and fengari',
    '',
    `median of ${runs} runs for lua5.1 and scry (lua5.1, interpreter and --jit alternating), one run for fengari (it is the slowest by far), every run a process of its own; scry's and fengari's ms are timed inside their process and include compiling the source and creating the state, not Node's start-up; the second table is CPU time (user + system; lua5.1's from /usr/bin/time), far less sensitive to a loaded machine`,
  ];
  for (const key of ['ms', 'cpu'] as const) {
    lines.push(
      '',
      `| program | size | lua5.1 ${key} | scry ${key} | × lua5.1 | scry --jit ${key} | × lua5.1 | fengari ${key} | × lua5.1 | fengari / scry |`,
      '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    );
    for (const r of rows) {
      const f = r.fengari === null ? null : r.fengari[key];
      const l = r.lua51[key];
      lines.push(`| ${r.name} | ${r.size} | ${l.toFixed(0)} | ${r.scry[key].toFixed(0)} | ${(r.scry[key] / l).toFixed(2)} | ${r.scryJit[key].toFixed(0)} | ${(r.scryJit[key] / l).toFixed(2)} | ${f === null ? '' : f.toFixed(0)} | ${f === null ? '' : (f / l).toFixed(2)} | ${f === null ? '' : (f / r.scry[key]).toFixed(2)} |`);
    }
    const gScry = geomean(rows.map((r) => r.scry[key] / r.lua51[key]));
    const gJit = geomean(rows.map((r) => r.scryJit[key] / r.lua51[key]));
    lines.push('', `geometric mean (${key === 'ms' ? 'wall' : 'CPU'} time): scry ${gScry.toFixed(2)}× lua5.1, scry --jit ${gJit.toFixed(2)}× lua5.1`);
    if (rows.every((r) => r.fengari !== null)) {
      const gF = geomean(rows.map((r) => r.fengari![key] / r.lua51[key]));
      lines[lines.length - 1] += `; fengari ${gF.toFixed(2)}× lua5.1; scry ${(gF / gScry).toFixed(2)}× faster than fengari`;
    }
  }
  if (problems.length > 0) lines.push('', '**wrong output (these timings do not count):**', '', ...problems.map((s) => `- ${s}`));
  return lines.join('\n');
}
