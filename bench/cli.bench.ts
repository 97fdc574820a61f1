/**
 * CLI cold start, as a user feels it: a new `node bin/scry.js …` process per run, from `node -e 0` (the floor, the
 * same run) to the command's output. Rows: the prebuilt bundle (dist/, what `npm install` builds), and the same
 * commands from the sources through tsx (what every start cost before the build step). Target (issue 16): ≤ 3×
 * `node -e 0`.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import type { Measurement } from './harness.ts';
import { report } from './harness.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const fixture = fileURLToPath(new URL('../test/fixtures/gadb/landmine_curse.fxp', import.meta.url));

/** Median wall time of `runs` fresh processes `node ARGS` (after one warm-up run). */
function coldStart(name: string, args: string[], env: Record<string, string>, runs: number): Measurement {
  const once = (): number => {
    const t0 = performance.now();
    const r = spawnSync(process.execPath, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    const ms = performance.now() - t0;
    if (r.status !== 0) throw new Error(`${name}: exit ${r.status}: ${r.stderr}`);
    return ms;
  };
  once();
  const times = Array.from({ length: runs }, once).sort((a, b) => a - b);
  return { name, ms: times[runs >> 1]!, runs };
}

export async function run(): Promise<string> {
  const build = spawnSync(process.execPath, ['scripts/build-cli.js'], { cwd: root, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`build failed: ${build.stderr}`);
  const runs = 15;
  // The floor is measured before and after the rows (the load of a shared machine changes); the smaller is taken.
  const floorA = coldStart('floor: node -e 0', ['-e', '0'], {}, runs);
  const rows = [
    coldStart('scry hash abc (built)', ['bin/scry.js', 'hash', 'abc'], { SCRY_CLI: 'dist' }, runs),
    coldStart('scry db info landmine_curse.fxp (built)', ['bin/scry.js', 'db', 'info', fixture], { SCRY_CLI: 'dist' }, runs),
    coldStart('scry --help (built)', ['bin/scry.js', '--help'], { SCRY_CLI: 'dist' }, runs),
    coldStart('scry hash abc (sources through tsx)', ['bin/scry.js', 'hash', 'abc'], { SCRY_CLI: 'sources' }, 5),
    coldStart('scry db info landmine_curse.fxp (sources through tsx)', ['bin/scry.js', 'db', 'info', fixture], { SCRY_CLI: 'sources' }, 5),
  ];
  const floorB = coldStart('floor: node -e 0 (again)', ['-e', '0'], {}, runs);
  const floor = floorA.ms <= floorB.ms ? floorA : floorB;
  const lines = [report('CLI cold start (a new process per run, median wall time)', rows, floor)];
  lines.push('', `Floor runs: ${floorA.ms.toFixed(1)} ms before, ${floorB.ms.toFixed(1)} ms after (the smaller is the floor). Target: built rows ≤ 3× the floor.`);
  return lines.join('\n');
}
