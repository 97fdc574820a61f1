/**
 * Compiler throughput at the scale of Shadow of War's largest script (desert.scripts: 2,227 functions, 184,681
 * instructions), on a source built by concatenating corpus programs (each wrapped as a function, so their locals
 * and returns stay legal) around the real source head, and against `luac5.1 -o /dev/null` (Debian's lua5.1) on
 * the plain-Lua part of that source in the same run. Floor: summing the source bytes as u32.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { cpuMs, measure, peakRss, report, sumU32, type Measurement } from './harness.ts';
import { analyzeHksChunk, writeHksChunk } from '../src/formats/hks/index.ts';
import { compileLua, parseLua } from '../src/script/compile/index.ts';
import { concatBytes } from '../test/support/chunks.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const DESERT = { functions: 2227, instructions: 184681 };

function luacAvailable(): boolean {
  return spawnSync('luac5.1', ['-v'], { encoding: 'utf8' }).status === 0;
}

/** Corpus programs luac5.1 accepts (plain Lua 5.1), each wrapped as `program_N = function (...) … end`. */
export function plainPrograms(): Uint8Array[] {
  const out: Uint8Array[] = [];
  const useLuac = luacAvailable();
  for (const dir of ['test/fixtures/lua51-tests', 'test/fixtures/hks/hksc-tests', 'test/fixtures/hks/generated']) {
    for (const f of readdirSync(join(root, dir)).sort()) {
      if (!f.endsWith('.lua') || f === 'bigsetlist.lua') continue;
      const path = join(root, dir, f);
      if (useLuac && spawnSync('luac5.1', ['-p', path]).status !== 0) continue;
      let text = new Uint8Array(readFileSync(path));
      if (!useLuac && /hstructure|hmake|0x[0-9a-f]+h[il]/i.test(new TextDecoder('latin1').decode(text))) continue;
      // A first `#` line is the loader's business (skipped for a file); inside the wrapper it must go.
      if (text[0] === 0x23) text = text.subarray(Math.max(0, text.indexOf(0x0a)));
      out.push(text);
    }
  }
  return out;
}

const enc = new TextEncoder();

/** Wraps programs (repeating the list) until the compiled source reaches the desert's size. */
export function buildSource(head: Uint8Array | null, programs: Uint8Array[], target: typeof DESERT): { source: Uint8Array; functions: number; instructions: number } {
  const parts: Uint8Array[] = [];
  if (head) parts.push(enc.encode('do\n'), head, enc.encode('\nend\n'));
  let n = 0;
  for (;;) {
    // Grow in steps, then measure with the compiler itself.
    for (let i = 0; i < programs.length; i++, n++) parts.push(enc.encode(`program_${n} = function (...)\n`), programs[i]!, enc.encode('\nend\n'));
    const source = concatBytes(parts);
    const s = analyzeHksChunk(compileLua(source, { name: 'bench.lua', strip: 'all' })).summary;
    if (s.functions >= target.functions && s.instructions >= target.instructions) return { source, functions: s.functions, instructions: s.instructions };
  }
}

/** Median wall time of `luac5.1 -o /dev/null FILE`, minus the median for an empty file (process start). */
function timeLuac(file: string, empty: string, runs: number): { ms: number; startMs: number } {
  const time = (f: string): number => {
    const t: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      const r = spawnSync('luac5.1', ['-o', '/dev/null', f]);
      t.push(performance.now() - t0);
      if (r.status !== 0) throw new Error(`luac5.1 failed on ${f}: ${r.stderr}`);
    }
    t.sort((a, b) => a - b);
    return t[Math.floor(t.length / 2)]!;
  };
  const startMs = time(empty);
  return { ms: time(file) - startMs, startMs };
}

/** CPU time (user + system) of `runs` runs of `luac5.1 -o /dev/null FILE`, per run, from bash's `time`. */
function luacCpuMs(file: string, runs: number): number | null {
  const script = `TIMEFORMAT='%3U %3S'; time (for i in $(seq ${runs}); do luac5.1 -o /dev/null '${file.replace(/'/g, "'\\''")}'; done)`;
  const r = spawnSync('bash', ['-c', script], { encoding: 'utf8' });
  const m = /([\d.]+) ([\d.]+)\s*$/.exec(r.stderr ?? '');
  return r.status === 0 && m ? ((Number(m[1]) + Number(m[2])) * 1000) / runs : null;
}

export async function run(): Promise<string> {
  const head = new Uint8Array(readFileSync(join(root, 'test/fixtures/scripts/island_fortassault_fagameplay.closed.lua')));
  const programs = plainPrograms();
  const desert = buildSource(head, programs, DESERT);
  const plain = buildSource(null, programs, DESERT);
  const floor = measure('floor: sum u32 of the desert-scale source', () => sumU32(desert.source), { bytes: desert.source.length, runs: 9 });
  // The JIT needs a few compiles of a source this size before the code is optimized: warm up first.
  for (let i = 0; i < 4; i++) writeHksChunk(compileLua(desert.source, { name: 'bench.lua' }));
  const runs = 9;
  const ms: Measurement[] = [
    measure('compileLua (no AST) + writeHksChunk, strip none', () => writeHksChunk(compileLua(desert.source, { name: 'bench.lua' })), { bytes: desert.source.length, runs }),
    measure('compileLua + writeHksChunk, strip all', () => writeHksChunk(compileLua(desert.source, { name: 'bench.lua', strip: 'all' })), { bytes: desert.source.length, runs }),
    measure('compileLua alone (chunk model), strip none', () => compileLua(desert.source, { name: 'bench.lua' }), { bytes: desert.source.length, runs }),
    measure('parseLua (AST and code generation)', () => parseLua(desert.source, { chunkName: '@bench.lua' }), { bytes: desert.source.length, runs }),
  ];
  const plainOurs = measure('plain-Lua source: compileLua + writeHksChunk, strip none', () => writeHksChunk(compileLua(plain.source, { name: 'bench.lua' })), { bytes: plain.source.length, runs });
  ms.push(plainOurs);
  const lines = [
    report('compile (HavokScript source → bytecode)', ms, floor),
    '',
    `Desert-scale source: ${(desert.source.length / 1e6).toFixed(2)} MB, ${desert.functions} functions, ${desert.instructions} instructions (desert.scripts: ${DESERT.functions}, ${DESERT.instructions}); ${programs.length} plain-Lua corpus programs repeated around the real source head.`,
    `Compile throughput (compileLua + write, strip none): ${((desert.instructions / ms[0]!.ms) * 1000 / 1e6).toFixed(2)} M instructions/s.`,
  ];
  if (luacAvailable()) {
    const dir = mkdtempSync(join(tmpdir(), 'scry-compile-bench-'));
    const file = join(dir, 'plain.lua');
    const empty = join(dir, 'empty.lua');
    writeFileSync(file, plain.source);
    writeFileSync(empty, '');
    const luac = timeLuac(file, empty, 9);
    const luacCpu = luacCpuMs(file, 9);
    const luacStartCpu = luacCpuMs(empty, 9) ?? 0;
    const oursCpu = cpuMs(() => writeHksChunk(compileLua(plain.source, { name: 'bench.lua' })), runs, false);
    lines.push(
      `Plain-Lua source (${(plain.source.length / 1e6).toFixed(2)} MB, ${plain.instructions} instructions): luac5.1 -o /dev/null ${luac.ms.toFixed(1)} ms wall (after subtracting ${luac.startMs.toFixed(1)} ms process start), scry ${plainOurs.ms.toFixed(1)} ms: **${(plainOurs.ms / luac.ms).toFixed(2)}× luac5.1** (target ≤ 5×).`,
    );
    if (luacCpu !== null) {
      const l = luacCpu - luacStartCpu;
      lines.push(`CPU time (user + system, median): luac5.1 ${l.toFixed(1)} ms (process start ${luacStartCpu.toFixed(1)} ms subtracted), scry ${oursCpu.toFixed(1)} ms: **${(oursCpu / l).toFixed(2)}× luac5.1**.`);
    }
  } else lines.push('luac5.1 is not installed: no peer comparison in this run.');
  lines.push(`Peak RSS ${(peakRss() / 2 ** 20).toFixed(0)} MiB.`);
  return lines.join('\n');
}
