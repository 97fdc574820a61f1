import { describe, expect, it } from 'vitest';
import { APL_FILE_NAME, Arch06Archive, ArchiveTreeSource, buildArchivePathIndex, p919, writeArchivePathIndex, BundleContractError, MountVector, Streamer, bndlNamesSize, bndlTotalSize, buildBndl, parseBndl, packArch06, splitBundleContent, writeBndl } from '../../../src/index.ts';
import { worldBundleContent, worldBundleFiles } from '../../../src/gamedb/generate/world/index.ts';
import { loadFixture } from '../../support/fixtures.ts';
import { memoryVfs } from './world.ts';

const REAL_BNDL = ['island', 'mtnpass', 'snowmtn', 'volcano'].map((region) => ({
  region,
  path: `worlds\\retail\\${region}\\sectionsandlayers\\fortwallgameplay.bndl`,
  bytes: loadFixture('bndl', `fortwallgameplay_${region}.bndl`),
}));

/** A bundle (manifest + generated content) under `path`. */
function bundleFiles(path: string, resources: Array<{ path: string; size: number }>): Record<string, Uint8Array> {
  const manifest = buildBndl(resources);
  const manifestBytes = writeBndl(manifest);
  const contentSize = bndlTotalSize(manifest) + bndlNamesSize(manifest) + 24;
  const files = worldBundleContent({ manifestPath: path, contentPath: path.replace(/\.bndl$/, '.embb'), manifest, manifestBytes, contentSize });
  return { [path]: manifestBytes, [path.replace(/\.bndl$/, '.embb')]: files };
}

async function streamer(files: Record<string, Uint8Array>): Promise<Streamer> {
  return new Streamer({ vfs: await memoryVfs(files) });
}

describe('the bundle registry and its reference contract (seed 001 "Bundles")', () => {
  const files = bundleFiles('chars\\goblin.bndl', [
    { path: 'chars\\goblin.mesh', size: 4000 },
    { path: 'chars\\goblin_d.tex', size: 9000 },
  ]);

  it('gets or creates a row by hash, forcing the .bndl extension; a row holds no reference', async () => {
    const s = await streamer(files);
    const b = s.bundles.get('chars\\goblin');
    expect(b.path).toBe('chars\\goblin.bndl');
    expect(s.bundles.get('CHARS/GOBLIN.embb')).toBe(b);
    expect(s.bundles.getRaw('chars\\goblin.bndl')).toBe(b);
    expect(b.references).toBe(0);
    expect(s.bundles.size).toBe(1);
    expect(s.report().requests.submitted).toBe(0);
  });

  it('prefetch 0 → 1 references the manifest, requests it, then queues the content; a second prefetch requests nothing', async () => {
    const s = await streamer(files);
    const b = s.bundles.acquire(s.bundles.get('chars\\goblin.bndl'));
    s.bundles.prefetch(b);
    expect(b.manifest!.refCount).toBe(1);
    expect(s.completions).toHaveLength(0);
    expect(b.state).toBe('manifest');
    await s.run();
    expect(s.completions.map((c) => [c.kind, c.path])).toEqual([
      ['resource', 'chars\\goblin.bndl'],
      ['bundle-content', 'chars\\goblin.embb'],
    ]);
    expect(b.state).toBe('resident');
    // in the manifest's order: ascending P919 of the path
    expect(p919('chars\\goblin_d.tex')).toBeLessThan(p919('chars\\goblin.mesh'));
    expect(b.resources.map((r) => [r.path, r.bytes, r.refCount])).toEqual([
      ['chars\\goblin_d.tex', 9000, 1],
      ['chars\\goblin.mesh', 4000, 1],
    ]);
    s.bundles.prefetch(b);
    await s.run();
    expect(s.report().requests.submitted).toBe(2);
    expect(b.prefetches).toBe(2);
  });

  it('asserts when a discard would drop the final reference, and lets a holder go by discarding then releasing', async () => {
    const s = await streamer(files);
    const b = s.bundles.get('chars\\goblin.bndl');
    s.bundles.prefetch(b); // no handle held
    await s.run();
    expect(() => s.bundles.discard(b)).toThrow(BundleContractError);
    try {
      s.bundles.discard(b);
    } catch (e) {
      expect((e as BundleContractError).rule).toBe('discard-final-reference');
    }
    s.bundles.acquire(b);
    // release first is the wrong order: the engine detours
    expect(() => s.bundles.release(b)).toThrow(/discard first, release second/);
    const resources = [...b.resources];
    s.bundles.discard(b);
    expect(b.prefetches).toBe(0);
    expect(resources.every((r) => r.refCount === 0 && s.table.unused.has(r))).toBe(true);
    // released is not gone: the data stays until the table is trimmed
    expect(resources.every((r) => r.resident)).toBe(true);
    s.bundles.release(b);
    expect(s.bundles.size).toBe(0);
    expect(s.bundles.destroyed).toBe(1);
    expect(() => s.bundles.discard(b)).toThrow(/no prefetch/);
  });

  it('reuses resident content without I/O when a bundle comes back', async () => {
    const s = await streamer(files);
    let b = s.bundles.acquire(s.bundles.get('chars\\goblin.bndl'));
    s.bundles.prefetch(b);
    await s.run();
    s.bundles.discard(b);
    s.bundles.release(b);
    b = s.bundles.acquire(s.bundles.get('chars\\goblin.bndl'));
    s.bundles.prefetch(b);
    await s.run();
    expect(b.state).toBe('resident');
    expect(s.report().requests.submitted).toBe(2);
    expect(s.counts['bundle.reused']).toBe(1);
  });

  it('registers nothing for content that arrives after its prefetch was discarded', async () => {
    const s = await streamer(files);
    const b = s.bundles.acquire(s.bundles.get('chars\\goblin.bndl'));
    s.bundles.prefetch(b);
    // run until the manifest is in and the content request queued, but not read
    while (b.state !== 'content') await s.run(s.now() + 0.05);
    s.bundles.discard(b);
    s.bundles.release(b);
    await s.run();
    expect(s.completions.map((c) => [c.kind, c.status])).toEqual([
      ['resource', 'done'],
      ['bundle-content', 'done'],
    ]);
    expect([...s.table.nodes()].filter((n) => n.refCount > 0)).toEqual([]);
    expect(s.table.find('chars\\goblin.mesh')).toBeUndefined();
  });

  it('treats a missing path as benign: the row stays, its manifest has no data', async () => {
    const s = await streamer(files);
    const b = s.bundles.acquire(s.bundles.get('chars\\nothing_here.bndl'));
    s.bundles.prefetch(b);
    await s.run();
    expect(b.state).toBe('missing');
    expect(b.manifest!.resident).toBe(false);
    expect(s.bundles.missingRows()).toEqual([b]);
    expect(s.bundles.size).toBe(1);
    s.bundles.discard(b);
    s.bundles.release(b);
  });

  it('splits content by the verified size rule and names resources through the path table', async () => {
    const path = 'chars\\warg.bndl';
    const f = bundleFiles(path, [
      { path: 'chars\\warg.mesh', size: 100 },
      { path: 'chars\\warg.skel', size: 7 },
    ]);
    const manifest = parseBndl(f[path]!);
    const content = f['chars\\warg.embb']!;
    const { layout, slices } = splitBundleContent(manifest, content.length);
    expect(layout).toBe('size-rule');
    // each generated resource starts with its own path
    for (const sl of slices) expect(new TextDecoder().decode(content.subarray(sl.offset, sl.offset + Math.min(sl.size, sl.path.length)))).toBe(sl.path.slice(0, sl.size));
    expect(splitBundleContent(manifest, content.length + 4).layout).toBe('opaque');
    // through an archive whose path index lists the bundled resources: the path table names both
    const listed = [path, 'chars\\warg.embb', 'chars\\warg.mesh', 'chars\\warg.skel'];
    const load = async (index: string[]) => {
      const entries = Object.entries(f).map(([p, data]) => ({ path: p, data }));
      entries.push({ path: APL_FILE_NAME, data: writeArchivePathIndex(buildArchivePathIndex(index)) });
      const vfs = new MountVector();
      await vfs.mount(new ArchiveTreeSource(await Arch06Archive.fromBytes(packArch06(entries).bytes)));
      const s = new Streamer({ vfs });
      const b = s.bundles.acquire(s.bundles.get(path));
      s.bundles.prefetch(b);
      await s.run();
      return b;
    };
    const named = await load(listed);
    expect(named.layout).toBe('size-rule');
    expect([named.pathTableHits, named.pathTableMisses]).toEqual([2, 0]);
    const unnamed = await load(listed.slice(0, 2));
    expect([unnamed.pathTableHits, unnamed.pathTableMisses]).toEqual([0, 2]);
    expect(unnamed.resources.map((r) => r.path).sort()).toEqual(['chars\\warg.mesh', 'chars\\warg.skel']);
  });

  it('streams the four real .bndl manifests: parsed as the codec parses them, their missing content benign', async () => {
    const files: Record<string, Uint8Array> = {};
    for (const r of REAL_BNDL) files[r.path] = r.bytes;
    for (const mode of ['simulation', 'real'] as const) {
      const s = new Streamer({ vfs: await memoryVfs(files), mode });
      const bundles = REAL_BNDL.map((r) => s.bundles.acquire(s.bundles.get(r.path)));
      for (const b of bundles) s.bundles.prefetch(b);
      await s.run();
      bundles.forEach((b, i) => {
        expect(b.manifestData).toEqual(parseBndl(REAL_BNDL[i]!.bytes));
        expect(b.state).toBe('missing'); // no .embb shipped with the fixtures
      });
      expect(bundles[0]!.manifestData!.entries.map((e) => e.size)).toEqual([76, 117, 12, 245, 36298, 1093, 0, 163908, 96, 13544]);
    }
  });

  it('loads a layer bundle (the real island fortwall manifest) resident without placing anything', async () => {
    const island = REAL_BNDL[0]!;
    const manifest = parseBndl(island.bytes);
    const contentSize = bndlTotalSize(manifest) + bndlNamesSize(manifest) + 24;
    expect(contentSize).toBe(216049); // the real .embb's raw size (spec archives.md §7)
    const content = worldBundleContent({ manifestPath: island.path, contentPath: '', manifest, manifestBytes: island.bytes, contentSize });
    const s = await streamer({ [island.path]: island.bytes, [island.path.replace('.bndl', '.embb')]: content });
    const before = s.counts['world.place'] ?? 0;
    const b = s.bundles.acquire(s.bundles.get(island.path));
    s.bundles.prefetch(b);
    await s.run();
    expect(b.state).toBe('resident');
    expect(b.resources).toHaveLength(10);
    expect(b.resources.every((r) => r.resident)).toBe(true);
    expect(s.counts['world.place'] ?? 0).toBe(before);
    expect(Object.keys(s.counts).filter((k) => k.startsWith('world.'))).toEqual([]);
    expect(worldBundleFiles({ path: island.path, kind: 'layer' }).manifestBytes).toEqual(island.bytes);
  });
});
