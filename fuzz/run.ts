/**
 * `npm run fuzz [-- NAME…] [--runs N] [--seed S]`: long mutation-fuzz campaigns. Each `fuzz/*.fuzz.ts` exports
 * `fuzz(options): Promise<string>`; it must throw on a finding (a non-ToolkitError exception, a hang, or a
 * write/parse mismatch) and save the crashing input under `fuzz/crashers/`.
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

export interface FuzzOptions {
  runs: number;
  seed: number;
}

const { values, positionals } = parseArgs({ options: { runs: { type: 'string' }, seed: { type: 'string' } }, allowPositionals: true });
const options: FuzzOptions = { runs: Number(values.runs ?? 20000), seed: Number(values.seed ?? Date.now() % 2 ** 31) };
const dir = fileURLToPath(new URL('.', import.meta.url));
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.fuzz.ts'))
  .filter((f) => positionals.length === 0 || positionals.some((w) => f.startsWith(w)))
  .sort();
console.log(`fuzz seed ${options.seed}, ${options.runs} runs per target`);
for (const f of files) {
  const mod = (await import(pathToFileURL(join(dir, f)).href)) as { fuzz(o: FuzzOptions): Promise<string> };
  console.log(`${f}: ${await mod.fuzz(options)}`);
}
