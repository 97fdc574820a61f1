/** Worker thread body of `SearchService`: opens one GameDB file, builds its `SearchIndex` (with progress) and answers queries. */
import { parentPort, workerData } from 'node:worker_threads';
import { Database } from '../gamedb/database.ts';
import { NameDictionary } from '../gamedb/names.ts';
import { SearchIndex } from '../gamedb/search.ts';
import { readGadbFile } from '../node/gamedb.ts';
import { searchAnswer, type SearchWorkerMessage, type SearchWorkerRequest } from './search-service.ts';

const { path, names } = workerData as { path: string; names: string };
const port = parentPort!;
const post = (m: SearchWorkerMessage) => port.postMessage(m);
try {
  const t0 = performance.now();
  const dictionary = new NameDictionary();
  dictionary.addText(names);
  const db = Database.open(readGadbFile(path), { names: dictionary });
  let last = 0;
  const index = new SearchIndex(db, {
    onProgress: (done, total) => {
      const now = performance.now();
      if (now - last > 100 || done === total) {
        last = now;
        post({ type: 'progress', done, total });
      }
    },
  });
  post({ type: 'ready', ms: performance.now() - t0 });
  port.on('message', (m: SearchWorkerRequest) => {
    if (m.type === 'names') {
      dictionary.addText(m.text);
      return;
    }
    try {
      post({ type: 'result', id: m.id, result: searchAnswer(m.q, index.search(m.q, { limit: m.limit })) });
    } catch (e) {
      post({ type: 'error', id: m.id, message: (e as Error).message });
    }
  });
} catch (e) {
  post({ type: 'error', message: (e as Error).message });
}
