import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readBytes } from '../../../src/node/fs.ts';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Arch06Archive, MountVector, Streamer, packArch06, parseBndl, writeBndl, writeGadb, type Gadb } from '../../../src/index.ts';
import { mountPath, openArch06File } from '../../../src/node/index.ts';
import { SAMPLE_ARCHIVE_ENTRIES } from '../../../src/server/generate.ts';
import { loadFixture } from '../../support/fixtures.ts';

let dir: string;
let samplePath: string;
let bndlPath: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'scry-stream-'));
  // the workbench's packed sample archive, packed the same way (LZB16 where it shrinks, raw chunks otherwise)
  const entries = SAMPLE_ARCHIVE_ENTRIES.map(([path, file]) => ({ path, data: loadFixture(...file.replace(/^test\/fixtures\//, '').split('/')) }));
  samplePath = join(dir, 'sample.arch06');
  writeFileSync(samplePath, packArch06(entries, { storage: 'lzb16' }).bytes);
  const bndl = ['island', 'mtnpass', 'snowmtn', 'volcano'].map((r) => ({ path: `worlds\\retail\\${r}\\sectionsandlayers\\fortwallgameplay.bndl`, data: loadFixture('bndl', `fortwallgameplay_${r}.bndl`) }));
  bndlPath = join(dir, 'bndl.arch06');
  writeFileSync(bndlPath, packArch06(bndl, { storage: 'lzb16' }).bytes);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Every entry of an archive through the streamer; returns each resource's data and the order of completion. */
async function streamAll(path: string, mode: 'simulation' | 'real'): Promise<{ order: string[]; data: Map<string, unknown>; sizes: Map<string, number> }> {
  const vfs = new MountVector();
  await mountPath(vfs, path);
  const archive = await openArch06File(path);
  const s = new Streamer({ vfs, mode });
  for (const f of archive.files) s.load(f.path);
  await archive.close();
  await s.run();
  const data = new Map<string, unknown>();
  const sizes = new Map<string, number>();
  for (const c of s.completions) {
    expect(c.status).toBe('done');
    data.set(c.path, s.table.find(c.path)!.data);
    sizes.set(c.path, c.bytes);
  }
  await vfs.close();
  return { order: s.completions.map((c) => c.path), data, sizes };
}

describe('the real loader and the simulation over real archives', () => {
  it('streams the packed sample archive with real async I/O: every entry identical to direct extraction', async () => {
    const archive = await Arch06Archive.fromBytes(readBytes(samplePath));
    const real = await streamAll(samplePath, 'real');
    expect(real.order).toHaveLength(archive.files.length);
    for (const f of archive.files) {
      const direct = await archive.read(f);
      const got = real.data.get(f.path);
      expect(real.sizes.get(f.path)).toBe(f.rawSize);
      // typed resources are parsed; the codec's writer gives their bytes back exactly
      if (f.path.endsWith('.fxp')) expect(writeGadb(got as Gadb)).toEqual(direct);
      else expect(got).toEqual(direct);
    }
  });

  it('streams it through the simulation: the same data, and the same order of completion on every run', async () => {
    const real = await streamAll(samplePath, 'real');
    const a = await streamAll(samplePath, 'simulation');
    const b = await streamAll(samplePath, 'simulation');
    expect(b.order).toEqual(a.order);
    expect([...a.order].sort()).toEqual([...real.order].sort());
    for (const [p, d] of a.data) expect(d).toEqual(real.data.get(p));
  });

  it('streams the real .bndl fixtures as bundle manifests in both modes, byte-exact', async () => {
    for (const mode of ['real', 'simulation'] as const) {
      const vfs = new MountVector();
      await mountPath(vfs, bndlPath);
      const s = new Streamer({ vfs, mode });
      const bundles = ['island', 'mtnpass', 'snowmtn', 'volcano'].map((r) => s.bundles.acquire(s.bundles.get(`worlds\\retail\\${r}\\sectionsandlayers\\fortwallgameplay`)));
      for (const b of bundles) s.bundles.prefetch(b);
      await s.run();
      bundles.forEach((b, i) => {
        const fixture = loadFixture('bndl', `fortwallgameplay_${['island', 'mtnpass', 'snowmtn', 'volcano'][i]}.bndl`);
        expect(b.manifestData).toEqual(parseBndl(fixture));
        expect(writeBndl(b.manifestData!)).toEqual(fixture);
      });
      expect(s.completions.filter((c) => c.kind === 'resource').map((c) => c.status)).toEqual(['done', 'done', 'done', 'done']);
      await vfs.close();
    }
  });
});
