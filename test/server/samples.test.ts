/**
 * The bundled samples of `npm start` (`scry serve` with no file): the generated game-scale database comes with the
 * name list of its own fields, which the workbench loads and labels as a stand-in for a community list; the list
 * names most fields but not all (the rest are what the name finder works on), and every name in it is a field of
 * the database.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Database } from '../../src/gamedb/database.ts';
import { p919 } from '../../src/hash/p919.ts';
import type { GadbNamesInfo } from '../../src/server/api-types.ts';
import { generateSampleDatabase, sampleNamesPath } from '../../src/server/generate.ts';
import { prepareSamples } from '../../src/server/samples.ts';
import { startWorkbench, type Workbench } from '../../src/server/server.ts';
import { api } from './harness.ts';

describe('the bundled samples', () => {
  let wb: Workbench | undefined;
  afterAll(async () => wb?.close());

  it('serve the generated database with its community-style name list, loaded and labelled', async () => {
    const cache = mkdtempSync(join(tmpdir(), 'scry-samples-'));
    // a small fraction of the game's scale keeps the test fast; the list is made the same way at any scale
    const samples = await prepareSamples(cache, (path) => generateSampleDatabase(path, 0.002), undefined, sampleNamesPath);
    const dbPath = join(cache, 'game-scale.gamedb');
    expect(samples.files.map((f) => f.path)).toContain(dbPath);
    expect(samples.nameFiles).toEqual([join(cache, 'game-scale.names.txt')]);
    const text = readFileSync(samples.nameFiles[0]!, 'utf8');
    expect(text.split('\n')[0]).toMatch(/^# A stand-in for a community name list/);
    const names = text.split('\n').filter((l) => l !== '' && !l.startsWith('#'));
    // every listed name is the name of a field hash the database uses
    const db = Database.open(new Uint8Array(readFileSync(dbPath)));
    const fieldHashes = new Set<number>();
    for (const cat of db.categories) for (const r of cat.records(0, 50)) for (const f of r.fields()) fieldHashes.add(f.hash);
    expect(names.length).toBeGreaterThan(10);
    expect(names.filter((n) => fieldHashes.has(p919(n))).length).toBeGreaterThan(names.length * 0.9);

    wb = await startWorkbench({ files: samples.files, port: 0, sampleOutDir: join(cache, 'out'), nameFiles: samples.nameFiles });
    const id = wb.workspace.list().find((f) => f.name === 'game-scale.gamedb')!.id;
    const info = await api<GadbNamesInfo>(wb, `/api/files/${id}/names`);
    expect(info.lists).toEqual([expect.objectContaining({ name: basename(samples.nameFiles[0]!), about: expect.stringMatching(/stand-in for a community name list/) })]);
    expect(info.named).toBeGreaterThan(0);
    expect(info.named).toBeLessThan(info.fields);
  });
});
