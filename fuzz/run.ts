/**
 * `npm run fuzz [-- NAME…] [--runs N] [--seconds T] [--seed S]`: long fuzz campaigns, one after the other
 * (`--seconds`: a time budget per campaign; the result says how many cases ran). Each
 * `fuzz/*.fuzz.ts` exports `fuzz(options): Promise<string>` and throws on a finding (an exception that is not a
 * ToolkitError, a broken round trip, a case over the time or memory bound); the format campaigns run on the
 * harness of `harness.ts` and save findings' inputs under `fuzz/crashers/`. Every campaign runs even when an
 * earlier one found something; the exit status is 1 when any did.
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

export interface FuzzOptions {
  runs: number;
  seed: number;
  /** Time budget per campaign in seconds (0: none). */
  seconds: number;
}

const { values, positionals } = parseArgs({ options: { runs: { type: 'string' }, seed: { type: 'string' }, seconds: { type: 'string' } }, allowPositionals: true });
const options: FuzzOptions = { runs: Number(values.runs ?? 20000), seed: Number(values.seed ?? Date.now() % 2 ** 31), seconds: Number(values.seconds ?? 0) };
const dir = fileURLToPath(new URL('.', import.meta.url));
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.fuzz.ts'))
  .filter((f) => positionals.length === 0 || positionals.some((w) => f === `${w}.fuzz.ts` || f.startsWith(w)))
  .sort();
console.log(`fuzz seed ${options.seed}, ${options.runs} runs per target${options.seconds > 0 ? `, at most ${options.seconds} s each` : ''}`);
let failed = 0;
for (const f of files) {
  const mod = (await import(pathToFileURL(join(dir, f)).href)) as { fuzz(o: FuzzOptions): Promise<string> };
  try {
    console.log(`${f}: ${await mod.fuzz(options)}`);
  } catch (e) {
    failed++;
    console.log(`${f}: FAILED: ${(e as Error).message}`);
  }
}
if (failed > 0) process.exitCode = 1;
