/** Worker thread body of `analyseInWorker`: reads, opens and analyses one database file, posts the `Analysis`. */
import { parentPort, workerData } from 'node:worker_threads';
import { Database } from '../gamedb/database.ts';
import { readGadbFile } from '../node/gamedb.ts';
import { analyseInline } from './analysis.ts';

const { path } = workerData as { path: string };
const t0 = performance.now();
const analysis = analyseInline(Database.open(readGadbFile(path)));
parentPort!.postMessage({ ...analysis, ms: performance.now() - t0, worker: true });
