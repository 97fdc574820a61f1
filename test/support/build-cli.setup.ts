/**
 * Vitest global setup: builds the CLI bundle (dist/, as `npm install` does) before any test runs, so that every
 * test spawning `bin/scry.js` runs the built CLI, as users do, and never a build older than the sources.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export default function setup(): void {
  const script = fileURLToPath(new URL('../../scripts/build-cli.js', import.meta.url));
  const r = spawnSync(process.execPath, [script], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`the CLI build failed (node scripts/build-cli.js):\n${r.stderr}`);
}
