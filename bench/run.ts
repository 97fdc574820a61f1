/**
 * `npm run bench [-- NAME…]`: runs every `bench/*.bench.ts` (or the named ones) in turn. Each benchmark module
 * exports `run(): Promise<string>` returning a Markdown section; results are printed for BENCHMARKS.md.
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { cpus, totalmem } from 'node:os';

const dir = fileURLToPath(new URL('.', import.meta.url));
const wanted = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => wanted.length === 0 || wanted.some((w) => f.startsWith(w)))
  .sort();
console.log(`# scry benchmarks ${new Date().toISOString().slice(0, 10)} — ${cpus()[0]?.model ?? 'cpu'} × ${cpus().length}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}\n`);
for (const f of files) {
  const mod = (await import(pathToFileURL(join(dir, f)).href)) as { run(): Promise<string> };
  console.log(await mod.run());
  console.log();
}
