/** Search in the workbench: one index per file, built in a worker thread for a large file, never blocking other requests. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database } from '../../src/gamedb/database.ts';
import { generateGadbBytes } from '../../src/gamedb/generate/index.ts';
import { SearchIndex } from '../../src/gamedb/search.ts';
import { searchAnswer } from '../../src/server/search-service.ts';
import { startWorkbench, type Workbench } from '../../src/server/server.ts';
import type { SearchResult, SearchStatus, SessionInfo } from '../../src/server/api-types.ts';
import { api, TOKEN } from './harness.ts';

describe('search of a large file', () => {
  let wb: Workbench;
  let bytes: Uint8Array;
  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'scry-search-'));
    // A fiftieth of the game's database, served as a large file would be (worker threshold 0; 4 MiB by default).
    bytes = generateGadbBytes({ seed: 919, scale: 0.02 }).bytes;
    writeFileSync(join(dir, 'big.gamedb'), bytes);
    wb = await startWorkbench({ files: [{ path: join(dir, 'big.gamedb'), origin: 'argument' }], port: 0, token: TOKEN, sampleOutDir: join(dir, 'out'), workerThreshold: 0 });
  });
  afterAll(async () => {
    await wb.close();
  });

  it('builds the index in a worker with progress, answers other requests meanwhile, and gives the library\'s hits', async () => {
    const F = '/api/files/big.gamedb';
    const first = await api<SearchStatus>(wb, `${F}/search/status`);
    expect(first.worker).toBe(true);
    expect(['building', 'ready']).toContain(first.state);
    const order: string[] = [];
    const searches = ['0.5', 'orc', '1', 'Captain', '0x00000000'].map((q) => api<SearchResult>(wb, `${F}/search?q=${encodeURIComponent(q)}&limit=50`).then((r) => (order.push(`search ${q}`), r)));
    // Requests made after the searches are answered before them: the server's thread does no search work.
    const session = api<SessionInfo>(wb, '/api/session').then((s) => (order.push('session'), s));
    const categories = api<unknown[]>(wb, `${F}/categories`).then((c) => (order.push('categories'), c));
    await Promise.all([session, categories]);
    expect(order.slice(0, 2).sort()).toEqual(['categories', 'session']);
    const results = await Promise.all(searches);
    const done = await api<SearchStatus>(wb, `${F}/search/status`);
    expect(done).toMatchObject({ state: 'ready', worker: true });
    expect(done.done).toBe(done.total);
    // the worker's answers are the library's (same index code, same file)
    const index = new SearchIndex(Database.open(bytes));
    expect(results[0]).toEqual(searchAnswer('0.5', index.search('0.5', { limit: 50 })));
    expect(results[1]!.total).toBe(index.search('orc', { limit: 50 }).total);
    expect(results[0]!.total).toBeGreaterThan(0);
  });
});
