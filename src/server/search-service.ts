/**
 * One search index per GameDB file (`SearchIndex` of `src/gamedb/search.ts`). For a large file it is built and
 * queried in a worker thread that opened the file itself, so a search never holds up other requests (the server
 * thread only passes messages); the build reports its progress. A small file is indexed in the server's thread, in
 * milliseconds.
 */
import type { Worker } from 'node:worker_threads';
import type { Database } from '../gamedb/database.ts';
import { SearchIndex, type SearchResult as LibrarySearchResult } from '../gamedb/search.ts';
import { formatF32 } from '../binary/text.ts';
import { formatHash } from '../gamedb/names.ts';
import type { SearchResult, SearchStatus } from './api-types.ts';
import { searchHit } from './gadb-view.ts';
import { typeScriptWorker } from './workers.ts';

/** The page's answer to a query, from the library's. */
export function searchAnswer(q: string, r: LibrarySearchResult): SearchResult {
  const modes: string[] = [];
  if (r.number) modes.push(`number ${r.number.integer ? r.number.value : formatF32(r.number.value)}${r.number.tolerance > 0 ? ` ± ${Number(r.number.tolerance.toPrecision(2))}` : ''}`);
  if (/^0x[0-9a-f]{1,8}$/i.test(q.trim())) modes.push('hash');
  else {
    modes.push('text');
    if (r.hash !== undefined) modes.push(`P919 ${formatHash(r.hash)}`);
  }
  return { query: q, mode: modes.join(', '), hits: r.hits.map(searchHit), total: r.total, truncated: r.total > r.hits.length };
}

/** Messages between the service and its worker (`search-worker.ts`). */
export type SearchWorkerMessage =
  | { type: 'progress'; done: number; total: number }
  | { type: 'ready'; ms: number }
  | { type: 'result'; id: number; result: SearchResult }
  | { type: 'error'; id?: number; message: string };

export type SearchWorkerRequest = { type: 'query'; id: number; q: string; limit: number } | { type: 'names'; text: string };

export class SearchService {
  readonly #path: string;
  readonly #db: Database;
  readonly #useWorker: boolean;
  readonly #namesText: () => string;
  #status: SearchStatus;
  #index: SearchIndex | undefined;
  #worker: Worker | undefined;
  #ready: Promise<void> | undefined;
  #nextId = 1;
  readonly #pending = new Map<number, { resolve: (r: SearchResult) => void; reject: (e: Error) => void }>();

  /** `namesText`: the run's names as a list, handed to a worker when it starts. */
  constructor(options: { path: string; db: Database; worker: boolean; namesText: () => string }) {
    this.#path = options.path;
    this.#db = options.db;
    this.#useWorker = options.worker;
    this.#namesText = options.namesText;
    this.#status = { state: 'idle', done: 0, total: options.db.recordCount, worker: options.worker };
  }

  status(): SearchStatus {
    return { ...this.#status };
  }

  /** Starts building the index (once); resolves when it is ready. */
  ready(): Promise<void> {
    this.#ready ??= this.#useWorker ? this.#startWorker() : this.#buildInline();
    return this.#ready;
  }

  async #buildInline(): Promise<void> {
    const t0 = performance.now();
    this.#status.state = 'building';
    this.#index = new SearchIndex(this.#db, { onProgress: (done, total) => Object.assign(this.#status, { done, total }) });
    this.#status = { ...this.#status, state: 'ready', done: this.#status.total, ms: performance.now() - t0 };
  }

  #startWorker(): Promise<void> {
    this.#status.state = 'building';
    return new Promise((resolve, reject) => {
      const worker = typeScriptWorker(new URL('./search-worker.ts', import.meta.url), { path: this.#path, names: this.#namesText() });
      this.#worker = worker;
      const fail = (e: Error) => {
        this.#status = { ...this.#status, state: 'failed', error: e.message };
        for (const p of this.#pending.values()) p.reject(e);
        this.#pending.clear();
        this.#worker = undefined;
        this.#ready = undefined;
        reject(e);
      };
      worker.on('message', (m: SearchWorkerMessage) => {
        if (m.type === 'progress') Object.assign(this.#status, { done: m.done, total: m.total });
        else if (m.type === 'ready') {
          this.#status = { ...this.#status, state: 'ready', done: this.#status.total, ms: m.ms };
          resolve();
        } else if (m.type === 'result') {
          this.#pending.get(m.id)?.resolve(m.result);
          this.#pending.delete(m.id);
        } else if (m.id !== undefined) {
          this.#pending.get(m.id)?.reject(new Error(m.message));
          this.#pending.delete(m.id);
        } else fail(new Error(m.message));
      });
      worker.once('error', fail);
      worker.once('exit', (code) => {
        if (code !== 0 && this.#worker === worker) fail(new Error(`search worker exited with code ${code}`));
      });
      worker.unref();
    });
  }

  /** Runs a query once the index is ready. */
  async query(q: string, limit: number): Promise<SearchResult> {
    await this.ready();
    if (this.#index) return searchAnswer(q, this.#index.search(q, { limit }));
    const worker = this.#worker;
    if (!worker) throw new Error('the search index is not available');
    const id = this.#nextId++;
    return new Promise<SearchResult>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      worker.postMessage({ type: 'query', id, q, limit } satisfies SearchWorkerRequest);
    });
  }

  /** Names were added to the run: a worker learns them too (an inline index reads the shared dictionary). */
  namesAdded(text: string): void {
    this.#worker?.postMessage({ type: 'names', text } satisfies SearchWorkerRequest);
  }

  async close(): Promise<void> {
    const w = this.#worker;
    this.#worker = undefined;
    if (w) await w.terminate();
  }
}
