/** Worker thread body of `analyseInWorker`: reads, opens and analyses one database file (a patch with its base), posts the `Analysis`. */
import { parentPort, workerData } from 'node:worker_threads';
import { Database } from '../gamedb/database.ts';
import { applyGadbPatch } from '../gamedb/edit/patch.ts';
import { readGadbFile } from '../node/gamedb.ts';
import { analyseInline } from './analysis.ts';

const { path, basePath } = workerData as { path: string; basePath?: string };
const t0 = performance.now();
try {
  const db = Database.open(readGadbFile(path));
  const merged = basePath !== undefined ? new Database(applyGadbPatch(Database.open(readGadbFile(basePath)).model, db.model).merged) : undefined;
  const analysis = analyseInline(db, merged);
  parentPort!.postMessage({ ...analysis, ms: performance.now() - t0, worker: true });
} catch (e) {
  parentPort!.postMessage({ error: (e as Error).message });
}
