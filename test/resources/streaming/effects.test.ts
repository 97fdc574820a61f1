import { describe, expect, it } from 'vitest';
import { EffectSystem, EofError, Streamer, bndlNamesSize, bndlTotalSize, buildBndl, isMissingPairCount, parseGadb, writeBndl } from '../../../src/index.ts';
import { generatedEffectBytes, worldBundleContent } from '../../../src/gamedb/generate/world/index.ts';
import { loadFixture } from '../../support/fixtures.ts';
import { memoryVfs, worldVfs } from './world.ts';

/** A bundle holding the given effects (and one mesh), content in the generated layout. */
function effectBundle(path: string, effects: Record<string, Uint8Array>): Record<string, Uint8Array> {
  const manifest = buildBndl([{ path: path.replace('.bndl', '.mesh'), size: 64 }, ...Object.entries(effects).map(([p, b]) => ({ path: p, size: b.length }))]);
  const contentSize = bndlTotalSize(manifest) + bndlNamesSize(manifest) + 24;
  const content = worldBundleContent({ manifestPath: path, contentPath: '', manifest, manifestBytes: writeBndl(manifest), contentSize });
  // put the effects' own bytes where the layout places them
  let at = 24 + bndlNamesSize(manifest);
  for (const e of manifest.entries) {
    if (effects[e.path]) content.set(effects[e.path]!, at);
    at += e.size;
  }
  return { [path]: writeBndl(manifest), [path.replace('.bndl', '.embb')]: content };
}

const real = loadFixture('gadb', 'landmine_curse.fxp');
const truncated = real.subarray(0, real.length - 4);

describe('effects load only through bundles (seed 001)', () => {
  it('an effect reference never loads anything; a bundle makes the effect resident and findable by name', async () => {
    const s = new Streamer({ vfs: await worldVfs() });
    const fx = new EffectSystem(s.table);
    expect(fx.reference('characters\\npcbundles\\goblin_blood.fxp')).toEqual({ path: 'characters\\npcbundles\\goblin_blood.fxp', resident: false });
    await s.run();
    expect(s.report().requests.submitted).toBe(0);
    const b = s.bundles.acquire(s.bundles.get('characters\\npcbundles\\goblin.bndl'));
    s.bundles.prefetch(b);
    await s.run();
    const found = fx.find('goblin_blood');
    expect(found?.path).toBe('characters\\npcbundles\\goblin_blood.fxp');
    expect(fx.reference('Characters/NPCBundles/Goblin_Blood.fxp').resident).toBe(true);
    expect(fx.resident()).toEqual(['characters\\npcbundles\\goblin_blood.fxp']);
    expect(parseGadb(generatedEffectBytes()).pairs).toHaveLength(0); // a real effect database with an empty pair table
  });

  it('a bundled .fxp without its pair-table count stalls the loader, and every later load waits behind it', async () => {
    expect(() => parseGadb(truncated)).toThrow(EofError);
    try {
      parseGadb(truncated);
    } catch (e) {
      expect(isMissingPairCount(e)).toBe(true);
    }
    const files = {
      ...effectBundle('fx\\bad.bndl', { 'fx\\landmine_curse.fxp': truncated }),
      ...effectBundle('fx\\good.bndl', { 'fx\\landmine_ok.fxp': real }),
      'later.bin': new Uint8Array(100),
    };
    for (const mode of ['simulation', 'real'] as const) {
      const s = new Streamer({ vfs: await memoryVfs(files), mode });
      const bad = s.bundles.acquire(s.bundles.get('fx\\bad.bndl'));
      s.bundles.prefetch(bad);
      await s.run();
      expect(bad.state).toBe('stalled');
      const good = s.bundles.acquire(s.bundles.get('fx\\good.bndl'));
      s.bundles.prefetch(good);
      const later = s.load('later.bin');
      await s.run(); // returns: the loader is stalled, not the run
      const r = s.report();
      expect(r.stalls).toHaveLength(1);
      expect(r.stalls[0]).toMatchObject({ path: 'fx\\bad.embb', stage: 'load' });
      expect(r.stalls[0]!.reason).toMatch(/pair-table count/);
      expect(r.threads.find((t) => t.name === 'load')!.state).toBe('stalled');
      // the manifests open and read, but their parse never comes: nothing after the stall finishes
      expect(good.state).not.toBe('resident');
      expect(later.resident).toBe(false);
      expect(r.stalls[0]!.waitingBehind).toBeGreaterThan(0);
    }
  });

  it('a loose malformed .fxp stalls the parse stage; a missing one is harmless', async () => {
    const s = new Streamer({ vfs: await memoryVfs({ 'startup\\bad.fxp': truncated, 'startup\\ok.fxp': real, 'x.bin': new Uint8Array(8) }) });
    s.load('startup\\missing.fxp');
    s.load('startup\\ok.fxp');
    await s.run();
    expect(s.report().stalls).toEqual([]);
    expect(s.table.find('startup\\ok.fxp')!.resident).toBe(true);
    s.load('startup\\bad.fxp');
    s.load('x.bin');
    await s.run();
    const r = s.report();
    expect(r.stalls.map((x) => [x.path, x.stage])).toEqual([['startup\\bad.fxp', 'parse']]);
    expect(s.table.find('x.bin')!.resident).toBe(false);
    expect(r.requests.missing).toBe(1);
  });
});
