/**
 * The slow whole-file answers of the overview: `summarizeDatabase` (links, shared values, layouts) and
 * `verifyGadb` (every spec and seed invariant). On the real game's 56.8 MB database they take seconds, so for a
 * large file they run in a worker thread over the file's bytes and the server keeps answering table pages and
 * records meanwhile. Small files are analysed inline.
 */
import { verifyGadb, writeGadb } from '../formats/gadb/index.ts';
import { NULL_LINK, type Database } from '../gamedb/database.ts';
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

/**
 * Analyses an opened database in this thread. For a patch database, `merged` is its base with it applied: the
 * findings are those of `merged` (a patch alone has links numbered in the merged database, H-EDIT-PATCH-LINKS), and
 * its link figures count its links as they resolve there.
 */
export function analyseInline(db: Database, merged?: Database): Analysis {
  const t0 = performance.now();
  const summary = summarizeDatabase(db);
  if (merged) {
    const links = { cells: 0, null: 0, toPrimary: 0, toSecondary: 0, unresolved: 0 };
    for (let r = 0; r < db.recordCount; r++) {
      for (const l of db.record(r).links()) {
        links.cells++;
        if (l.raw === NULL_LINK) {
          links.null++;
          continue;
        }
        const t = merged.linkTarget(l.raw);
        if (t < 0) links.unresolved++;
        else if (merged.record(t).isPrimary) links.toPrimary++;
        else links.toSecondary++;
      }
    }
    summary.links = links;
  }
  const findings = findingsOf(verifyGadb(merged ? writeGadb(merged.model) : db.model));
  return { summary, findings, ms: performance.now() - t0, worker: false };
}

/** Analyses the file at `path` in a worker thread (it reads and parses the file itself; a patch with its base). */
export function analyseInWorker(path: string, basePath?: string): Promise<Analysis> {
  return runWorker<Analysis>(new URL('./analysis-worker.ts', import.meta.url), { path, basePath });
}
