import { describe, expect, it } from 'vitest';
import { LayerCache, layerNameOf, openLayer } from '../../src/engine/layer.ts';
import { compileLua } from '../../src/script/compile/index.ts';
import { writeHksChunk } from '../../src/formats/hks/chunk.ts';
import { writeScri } from '../../src/formats/scri/scri.ts';
import { loadFixture } from '../support/fixtures.ts';

const SRC = 'local section_1 = { _a_SC_Script_1 = function (self, threadId, scriptId) end }\n_G.loadedresource = section_1\n';
const bytes = (s: string) => new TextEncoder().encode(s);

describe('layers', () => {
  it('opens a SCRI source body, a SCRI bytecode body, a bare chunk and plain text', () => {
    const chunk = writeHksChunk(compileLua(SRC, { name: 'x.lua' }));
    expect(openLayer(writeScri({ version: 1, flag: 1, body: bytes(SRC), trailing: new Uint8Array(0) }), 'x')).toMatchObject({ kind: 'source', container: 'scri', truncatedBy: 0 });
    expect(openLayer(writeScri({ version: 1, flag: 0, body: chunk, trailing: new Uint8Array(0) }), 'x')).toMatchObject({ kind: 'bytecode', container: 'scri' });
    expect(openLayer(chunk, 'x')).toMatchObject({ kind: 'bytecode', container: 'chunk' });
    expect(openLayer(bytes('SO = 1\n'), 'x')).toMatchObject({ kind: 'source', container: 'text' });
    expect(() => openLayer(new Uint8Array([1, 0, 2]), 'x')).toThrow(/NUL byte/);
  });

  it('says how much of a .scripts head is missing', () => {
    const l = openLayer(loadFixture('scripts', 'island_fortassault_fagameplay.scripts.first65536.bin'), 'fagameplay');
    expect(l).toMatchObject({ kind: 'source', container: 'scri', truncatedBy: 819379 - 65536 });
  });

  it('names a layer by its file', () => {
    expect(layerNameOf('worlds/retail/island/fagameplay.scripts')).toBe('fagameplay');
    expect(layerNameOf('C:\\x\\y.lua')).toBe('y');
  });

  it('compiles a layer once per cache (the reinstall table), then reuses it', () => {
    const cache = new LayerCache();
    const layer = openLayer(bytes(SRC), 'x');
    const a = cache.get(layer);
    const b = cache.get(layer);
    expect([a.compiled, b.compiled]).toEqual([true, false]);
    expect(b.entry.chunk).toBe(a.entry.chunk);
    expect(cache.compiles).toBe(1);
    expect(b.entry.uses).toBe(2);
    const bc = openLayer(writeHksChunk(compileLua(SRC)), 'y');
    cache.get(bc);
    expect(cache.compiles).toBe(1); // bytecode is loaded, not compiled
    expect(cache.size).toBe(2);
  });
});

describe('entry origins', () => {
  it('reads the prefab of every entry from the comment before it', async () => {
    const { readFileSync } = await import('node:fs');
    const { fixturePath } = await import('../support/fixtures.ts');
    const { entryOrigins, entryPrefab } = await import('../../src/engine/layer.ts');
    const src = new Uint8Array(readFileSync(fixturePath('scripts', 'island_fortassault_fagameplay.closed.lua')));
    const o = entryOrigins(src);
    expect(o.size).toBe(13);
    expect(o.get('_assaultarcherdrumtowertopfull_scWD_Script_696a2498')).toEqual({
      object: 'scWD',
      script: 'Script',
      prefabPath: 'prefabs\\gameplay\\fort\\assault\\assaultarcherdrumtowertopfull.prefab06c',
      prefab: 'assaultarcherdrumtowertopfull',
    });
    expect(o.get('_ammo_large_timed_DISABLE_Script1_6bc20555')).toMatchObject({ object: 'DISABLE', script: 'Script1', prefab: 'ammo_large_timed' });
    // Without comments (bytecode), the shared prefix gives the same prefab for every entry here.
    const entries = [...o.keys()];
    for (const [entry, origin] of o) expect(entryPrefab(entry, entries), entry).toBe(origin.prefab);
  });
});
