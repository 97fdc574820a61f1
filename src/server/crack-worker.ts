/** Worker thread body of the name finder for large GameDB files: opens the file, cracks, posts a `CrackRun`. */
import { parentPort, workerData } from 'node:worker_threads';
import { Database } from '../gamedb/database.ts';
import { NameDictionary } from '../gamedb/names.ts';
import { readGadbFile } from '../node/gamedb.ts';
import { crackInline, type CrackRequest } from './names.ts';

const { path, names, maxWords } = workerData as CrackRequest;
try {
  const dictionary = new NameDictionary();
  dictionary.addText(names);
  parentPort!.postMessage(crackInline(Database.open(readGadbFile(path), { names: dictionary }), maxWords));
} catch (e) {
  parentPort!.postMessage({ error: (e as Error).message });
}
