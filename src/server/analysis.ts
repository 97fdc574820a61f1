/**
 * The slow whole-file answers of the overview: `summarizeDatabase` (links, shared values, layouts) and
 * `verifyGadb` (every spec and seed invariant). On the real game's 56.8 MB database they take seconds, so for a
 * large file they run in a worker thread over the file's bytes and the server keeps answering table pages and
 * records meanwhile. Small files are analysed inline.
 */
import { verifyGadb } from '../formats/gadb/index.ts';
import { Database } from '../gamedb/database.ts';
import { summarizeDatabase, type DatabaseSummary } from '../gamedb/summary.ts';
import type { Finding } from './api-types.ts';
import { findingsOf } from './gadb-view.ts';
import { runWorker } from './workers.ts';

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

/** Analyses the file at `path` in a worker thread (it reads and parses the file itself). */
export function analyseInWorker(path: string): Promise<Analysis> {
  return runWorker<Analysis>(new URL('./analysis-worker.ts', import.meta.url), { path });
}
