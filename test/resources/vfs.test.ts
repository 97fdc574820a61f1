import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Arch06Archive, ArchiveTreeSource, Database, MemorySource, MountVector, NotFoundError, VFS_RULES, VfsError, bundleManifestPath, openBundle, p919, packArch06, parseArchivePathIndex } from '../../src/index.ts';
import { DirectorySource, mountPath } from '../../src/node/index.ts';
import { loadFixture } from '../support/fixtures.ts';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
const dec = (b: Uint8Array): string => new TextDecoder().decode(b);
const hexToBytes = (h: string): number[] => (h.replace(/\s+/g, '').match(/../g) ?? []).map((x) => parseInt(x, 16));

async function archiveSource(name: string, files: Record<string, string>, pathIndex = true): Promise<ArchiveTreeSource> {
  const { bytes } = packArch06(Object.entries(files).map(([path, text]) => ({ path, data: enc(text) })), { pathIndex });
  return new ArchiveTreeSource(await Arch06Archive.fromBytes(bytes, { name }), { name });
}

describe('the mount vector (seed 001 rules)', () => {
  it('entry 0 is consulted first: the first source that has a path serves it', async () => {
    const vfs = new MountVector();
    await vfs.mount(await archiveSource('patch_01', { 'game.gamedb': 'patch 1' }));
    await vfs.mount(await archiveSource('patch_00', { 'game.gamedb': 'patch 0', 'only\\here.txt': 'x' }));
    expect(dec(await vfs.readFile('GAME.GAMEDB'))).toBe('patch 1');
    expect(dec(await vfs.readFile('only/here.txt'))).toBe('x');
    expect((await vfs.resolve('game.gamedb'))!.index).toBe(0);
    expect(VFS_RULES.order.source).toBe('engine');
  });

  it('mount(source, index) inserts at a position and changes the winner; bad positions are refused', async () => {
    const vfs = new MountVector();
    await vfs.mount(await archiveSource('a', { 'x.txt': 'a' }));
    await vfs.mount(await archiveSource('b', { 'x.txt': 'b' }));
    expect(await vfs.mount(await archiveSource('dlc', { 'x.txt': 'dlc' }), 0)).toBe(0);
    expect(vfs.sources.map((s) => s.name)).toEqual(['dlc', 'a', 'b']);
    expect(dec(await vfs.readFile('x.txt'))).toBe('dlc');
    await vfs.mount(new MemorySource('mid', { 'x.txt': enc('mid') }), 1);
    expect(vfs.sources.map((s) => s.name)).toEqual(['dlc', 'mid', 'a', 'b']);
    await expect(vfs.mount(new MemorySource('bad'), 9)).rejects.toBeInstanceOf(VfsError);
  });

  it('a directory source answers by path and a hit stops the archive search; mounted last (like Game\\) it only fills gaps', async () => {
    const loose = new MemorySource('Game\\', { 'movies\\intro.vib': enc('loose movie'), 'x.txt': enc('loose x') });
    const vfs = new MountVector();
    await vfs.mount(await archiveSource('patch', { 'x.txt': 'archived x' }));
    await vfs.mount(loose);
    expect(dec(await vfs.readFile('x.txt'))).toBe('archived x');
    expect(dec(await vfs.readFile('movies\\intro.vib'))).toBe('loose movie');
    await vfs.mount(new MemorySource('override', { 'x.txt': enc('override x') }), 0);
    expect(dec(await vfs.readFile('x.txt'))).toBe('override x');
  });

  it('nine copies of game.gamedb: the first wins whole, the rest are shadowed, nothing is merged', async () => {
    const vfs = new MountVector();
    for (let i = 0; i < 9; i++) await vfs.mount(await archiveSource(`arch${i}`, { 'game.gamedb': `copy ${i}`, [`own${i}.txt`]: 'o' }));
    const w = await vfs.which('Game.GameDB');
    expect(w.winner!.source.name).toBe('arch0');
    expect(w.shadowed.map((s) => s.source.name)).toEqual(['arch1', 'arch2', 'arch3', 'arch4', 'arch5', 'arch6', 'arch7', 'arch8']);
    expect(dec(await vfs.readFile('game.gamedb'))).toBe('copy 0');
    const conflicts = await vfs.conflicts();
    expect(conflicts.map((c) => [c.path, c.winner.index, c.shadowed.length])).toEqual([
      ['archivepatchloosefiles.txt', 0, 8],
      ['game.gamedb', 0, 8],
    ]);
  });

  it('GameDB opens its database from the mount vector as from a path', async () => {
    const fxp = loadFixture('gadb', 'landmine_curse.fxp');
    const vfs = new MountVector();
    await vfs.mount(new MemorySource('mem', { 'effects\\landmine_curse.fxp': fxp }));
    const fromVfs = Database.open(await vfs.readFile('Effects/Landmine_Curse.fxp'));
    const fromPath = Database.open(fxp);
    expect(fromVfs.categories.length).toBe(fromPath.categories.length);
  });

  it('the engine has no unmount: scry\'s unmount is marked as non-engine and rebuilds the path table', async () => {
    expect(VFS_RULES.noUnmount.statement).toMatch(/non-engine/);
    const vfs = new MountVector();
    const a = await archiveSource('a', { 'x.txt': 'a' });
    await vfs.mount(a);
    expect(vfs.pathTable.length).toBe(1);
    await vfs.unmount(a);
    expect(vfs.pathTable.length).toBe(0);
    await expect(vfs.readFile('x.txt')).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('hashes and the path table', () => {
  it('merges every mounted archive\'s path index into one table sorted by hash, rows {hash, 0, path}', async () => {
    const vfs = new MountVector();
    await vfs.mount(await archiveSource('a', { 'z\\one.txt': '1', 'a\\two.txt': '2' }));
    await vfs.mount(await archiveSource('b', { 'm\\three.txt': '3', 'a\\two.txt': 'dup' }));
    await vfs.mount(await archiveSource('noindex', { 'n\\four.txt': '4' }, false));
    const rows = vfs.pathTable;
    expect(rows.map((r) => r.path).sort()).toEqual(['a\\two.txt', 'm\\three.txt', 'z\\one.txt']);
    expect(rows.every((r, i) => r.zero === 0 && (i === 0 || rows[i - 1]!.hash <= r.hash))).toBe(true);
    for (const r of rows) expect(r.hash).toBe(p919(r.path));
  });

  it('resolves by hash through the table, and falls back to archive entry hashes (scry convenience)', async () => {
    const vfs = new MountVector();
    await vfs.mount(await archiveSource('a', { 'x\\y.txt': 'xy' }));
    await vfs.mount(await archiveSource('b', { 'q.txt': 'q' }, false));
    const r = await vfs.resolveHash(p919('x\\y.txt'));
    expect(r!.source.name).toBe('a');
    expect(dec(await r!.source.read(r!.path))).toBe('xy');
    expect((await vfs.resolveHash(p919('q.txt')))!.source.name).toBe('b');
    expect(await vfs.resolveHash(12345)).toBeUndefined();
    expect(VFS_RULES.hashFallback.source).toBe('scry');
  });

  it('the table merged from parsed columns equals the one merged from entry objects (duplicates, equal hashes, an unsorted index)', async () => {
    const pathsA = ['z\\one.txt', 'a\\two.txt', 'shared\\x.bin'];
    const pathsB = ['m\\three.txt', 'shared\\x.bin', 'a\\two.txt'];
    const hexU32 = (v: number): string => [0, 8, 16, 24].map((k) => ((v >>> k) & 0xff).toString(16).padStart(2, '0')).join('');
    // a hand-made index whose rows are not in (hash, path) order (the mount sorts them); two rows share hash 7
    const rows: Array<[number, string]> = [[p919('q\\b.txt'), 'q\\b.txt'], [7, 'k\\two'], [7, 'k\\one']];
    let table = '';
    const offsets: number[] = [];
    for (const [, p] of rows) {
      offsets.push(table.length);
      table += `${p}\0`;
    }
    const unsorted = new Uint8Array([...hexToBytes(`01000000 ${hexU32(table.length)}`), ...enc(table), ...hexToBytes(`${hexU32(rows.length)} ${rows.map(([h], i) => `${hexU32(h)} ${hexU32(offsets[i]!)}`).join(' ')}`)]);
    const indexes = async (): Promise<Array<ReturnType<typeof parseArchivePathIndex>>> => [
      ...(await Promise.all([pathsA, pathsB].map(async (paths) => (await (await archiveSource('x', Object.fromEntries(paths.map((p) => [p, p])))).pathIndex())!))),
      parseArchivePathIndex(unsorted),
    ] as Array<ReturnType<typeof parseArchivePathIndex>>;
    const sourceOf = (ix: ReturnType<typeof parseArchivePathIndex>): MemorySource => Object.assign(new MemorySource('m', {}), { pathIndex: async () => ix });
    const columnar = new MountVector();
    for (const ix of await indexes()) await columnar.mount(sourceOf(ix));
    const objects = new MountVector();
    for (const ix of await indexes()) {
      void ix.entries; // read: the mount then uses the entry objects
      await objects.mount(sourceOf(ix));
    }
    const expected = [...new Set([...pathsA, ...pathsB, 'q\\b.txt'])].map((p) => ({ hash: p919(p), zero: 0, path: p }));
    expected.push({ hash: 7, zero: 0, path: 'k\\one' }, { hash: 7, zero: 0, path: 'k\\two' });
    expected.sort((a, b) => a.hash - b.hash || (a.path < b.path ? -1 : 1));
    expect(columnar.pathTable).toEqual(expected);
    expect(objects.pathTable).toEqual(expected);
    expect(columnar.pathTableSize).toBe(7);
    expect(columnar.pathsForHash(7)).toEqual(['k\\one', 'k\\two']);
  });

  it('the k-way merge of many indexes equals sorting every row by (hash, path) and keeping each once (fast-check; reads between mounts)', async () => {
    const hexU32 = (v: number): string => [0, 8, 16, 24].map((k) => ((v >>> k) & 0xff).toString(16).padStart(2, '0')).join('');
    // a hand-made path index holding `rows` in the order given (hashes chosen, not computed: collisions on purpose)
    const indexBytes = (rows: ReadonlyArray<readonly [number, string]>): Uint8Array => {
      let table = '';
      const offsets: number[] = [];
      for (const [, p] of rows) {
        offsets.push(table.length);
        table += `${p}\0`;
      }
      return new Uint8Array([...hexToBytes(`01000000 ${hexU32(table.length)}`), ...enc(table), ...hexToBytes(`${hexU32(rows.length)} ${rows.map(([h], i) => `${hexU32(h)} ${hexU32(offsets[i]!)}`).join(' ')}`)]);
    };
    const row = fc.tuple(fc.constantFrom(0, 1, 7, 0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff), fc.constantFrom('a', 'b', 'a\\b', 'ab', 'z\\q.txt', 'Z'));
    const mounts = fc.array(fc.record({ rows: fc.array(row, { maxLength: 12 }), readAfter: fc.boolean(), objects: fc.boolean() }), { minLength: 1, maxLength: 10 });
    await fc.assert(
      fc.asyncProperty(mounts, async (plan) => {
        const vfs = new MountVector();
        const seen: Array<readonly [number, string]> = [];
        for (const m of plan) {
          const ix = parseArchivePathIndex(indexBytes(m.rows));
          if (m.objects) void ix.entries; // read: merged from the entry objects instead of the columns
          await vfs.mount(Object.assign(new MemorySource('m', {}), { pathIndex: async () => ix }));
          seen.push(...m.rows);
          if (m.readAfter || m === plan[plan.length - 1]) {
            const expected = [...new Map(seen.map(([h, p]) => [`${h} ${p}`, { hash: h, zero: 0, path: p }])).values()].sort((a, b) => a.hash - b.hash || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
            expect(vfs.pathTable).toEqual(expected);
            expect(vfs.pathTableSize).toBe(expected.length);
            for (const h of [0, 7, 0xffffffff]) expect(vfs.pathsForHash(h)).toEqual(expected.filter((r) => r.hash === h).map((r) => r.path));
          }
        }
      }),
      { numRuns: 100 },
    );
  });

  it('mounts the real Patch_13_LC head: 54 rows from its real path index, all resolvable by hash', async () => {
    const head = loadFixture('arch06', 'Patch_13_LC.arch06.head2700.bin');
    const vfs = new MountVector();
    await vfs.mount(new ArchiveTreeSource(await Arch06Archive.fromBytes(head, { name: 'Patch_13_LC' })));
    expect(vfs.pathTable.length).toBe(54);
    const real = parseArchivePathIndex(loadFixture('archivepatchloosefiles', 'Patch_13_LC.archivepatchloosefiles.txt'));
    expect(vfs.pathTable.map((r) => r.hash)).toEqual(real.entries.map((e) => e.hash));
    const scripts = 'worlds\\retail\\island\\sectionsandlayers\\fortassault\\fagameplay.scripts';
    expect(vfs.pathsForHash(p919(scripts))).toEqual([scripts]);
    expect((await vfs.which('WORLDS/retail/island/SectionsAndLayers/FortAssault/fagameplay.scripts')).winner!.source.name).toBe('Patch_13_LC');
  });
});

describe('bundles through the vector', () => {
  it('forces the .bndl extension, parses the manifest, locates the .embb; a missing bundle is benign', async () => {
    const vfs = new MountVector();
    const island = loadFixture('bndl', 'fortwallgameplay_island.bndl');
    await vfs.mount(new MemorySource('m', { 'worlds\\retail\\island\\sectionsandlayers\\fortwallgameplay.bndl': island }));
    expect(bundleManifestPath('a\\b.embb')).toBe('a\\b.bndl');
    const b = await openBundle(vfs, 'worlds/retail/island/sectionsandlayers/fortwallgameplay');
    expect(b.manifest!.entries.length).toBe(10);
    expect(b.contentSource).toBeUndefined();
    const missing = await openBundle(vfs, 'nowhere\\x.bndl');
    expect(missing.manifest).toBeUndefined();
  });
});

describe('the Node directory source', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'scry-vfs-'));
    mkdirSync(join(dir, 'Game', 'Movies'), { recursive: true });
    writeFileSync(join(dir, 'Game', 'Movies', 'Intro.vib'), 'movie');
    writeFileSync(join(dir, 'secret.txt'), 'outside');
    const { bytes } = packArch06([{ path: 'movies/intro.vib', data: enc('archived') }]);
    writeFileSync(join(dir, 'p.arch06'), bytes);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('answers by path without case, lists with \\ separators, never leaves its folder', async () => {
    const src = new DirectorySource(join(dir, 'Game'));
    expect(await src.has('movies\\intro.VIB')).toBe(true);
    expect(dec(await src.read('MOVIES/INTRO.vib'))).toBe('movie');
    expect(await src.list()).toEqual(['Movies\\Intro.vib']);
    expect(await src.has('..\\secret.txt')).toBe(false);
    expect(await src.has('/etc/passwd')).toBe(false);
  });

  it('mountPath mounts folders as directory sources and files as archive trees, at a position', async () => {
    const vfs = new MountVector();
    await mountPath(vfs, join(dir, 'p.arch06'));
    await mountPath(vfs, join(dir, 'Game'));
    expect(dec(await vfs.readFile('movies\\intro.vib'))).toBe('archived');
    await mountPath(vfs, join(dir, 'Game'), 0);
    expect(dec(await vfs.readFile('movies\\intro.vib'))).toBe('movie');
    expect(vfs.sources.map((s) => s.kind)).toEqual(['directory', 'archive', 'directory']);
    await vfs.close();
  });
});
