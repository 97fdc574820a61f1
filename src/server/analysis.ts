/**
 * The slow whole-file answers of the overview: `summarizeDatabase` (links, shared values, layouts) and
 * `verifyGadb` (every spec and seed invariant). On the real game's 56.8 MB database they take seconds, so for a
 * large file they run in a worker thread over the file's bytes and the server keeps answering table pages and
 * records meanwhile. Small files are analysed inline.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { verifyGadb } from '../formats/gadb/index.ts';
import { Database } from '../gamedb/database.ts';
import { summarizeDatabase, type DatabaseSummary } from '../gamedb/summary.ts';
import type { Finding } from './api-types.ts';
import { findingsOf } from './gadb-view.ts';

export interface Analysis {
  summary: DatabaseSummary;
  findings: Finding[];
  /** Wall time of the analysis, in milliseconds. */
  ms: number;
  /** Whether it ran in a worker thread. */
  worker: boolean;
}

/** Files at least this large are analysed in a worker thread. */
export const WORKER_THRESHOLD = 4 << 20;

/** Analyses an opened database in this thread. */
export function analyseInline(db: Database): Analysis {
  const t0 = performance.now();
  const summary = summarizeDatabase(db);
  const findings = findingsOf(verifyGadb(db.model));
  return { summary, findings, ms: performance.now() - t0, worker: false };
}

/**
 * A worker over a TypeScript module: a tiny ES module (a `data:` URL) registers tsx's loader inside the worker,
 * then imports the module, so the worker runs the same sources as the server without a build step.
 */
function typeScriptWorker(module: URL, workerData: unknown): Worker {
  const tsxApi = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api')).href.replace(/\.cjs$/, '.mjs');
  const source = `const { register } = await import(${JSON.stringify(tsxApi)}); register(); await import(${JSON.stringify(module.href)});`;
  return new Worker(new URL(`data:text/javascript,${encodeURIComponent(source)}`), { workerData });
}

/** Analyses the file at `path` in a worker thread (it reads and parses the file itself). */
export function analyseInWorker(path: string): Promise<Analysis> {
  return new Promise((resolve, reject) => {
    const worker = typeScriptWorker(new URL('./analysis-worker.ts', import.meta.url), { path });
    worker.once('message', (m: Analysis) => resolve(m));
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`analysis worker exited with code ${code}`));
    });
  });
}
