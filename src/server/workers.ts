/**
 * Worker threads over TypeScript modules, so slow whole-file work (analysis, search indexes, the name finder) runs
 * beside the server and never holds up other requests. A tiny ES module (a `data:` URL) registers tsx's loader
 * inside the worker, then imports the module, so the worker runs the same sources as the server without a build
 * step.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

/** Starts a worker running the TypeScript module at `module` with `workerData`. */
export function typeScriptWorker(module: URL, workerData: unknown): Worker {
  const tsxApi = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api')).href.replace(/\.cjs$/, '.mjs');
  const source = `const { register } = await import(${JSON.stringify(tsxApi)}); register(); await import(${JSON.stringify(module.href)});`;
  return new Worker(new URL(`data:text/javascript,${encodeURIComponent(source)}`), { workerData });
}

/**
 * Runs a worker that posts one answer and exits: resolves with the answer, rejects with the worker's error (a
 * message `{ error }` posted by the module, an uncaught exception, or a non-zero exit).
 */
export function runWorker<T>(module: URL, workerData: unknown): Promise<T> {
  return new Promise((resolve, reject) => {
    const worker = typeScriptWorker(module, workerData);
    worker.once('message', (m: T | { error: string }) => {
      if (m !== null && typeof m === 'object' && 'error' in m && typeof m.error === 'string') reject(new Error(m.error));
      else resolve(m as T);
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`worker ${module.pathname.split('/').pop()} exited with code ${code}`));
    });
  });
}
