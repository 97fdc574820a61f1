import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  ARCH06_HYPOTHESES,
  Arch06Archive,
  EofError,
  FormatError,
  ToolkitError,
  UnsupportedError,
  isArch06,
  layoutArch06,
  packArch06,
  parseArch06Index,
  parseArchivePathIndex,
  scanArch06Chunks,
  validateArch06Index,
  writeArch06Index,
  encodeArch06Chunks,
} from '../../../src/index.ts';
import { hex, loadFixture, loadJsonFixture, propertySeed } from '../../support/fixtures.ts';

interface Meta {
  header: { version: number; stringTableSize: number; folderCount: number; fileCount: number; isRetail: number; isDownloadable: number; hasCRC: number };
  stringTable: string[];
  files: Array<{ nameOffset: number; name: string; fullPath: string; dataOffset: number; storedSize: number; size: number; isCompressed: number; compressionLevel: number }>;
  folders: Array<{ nameOffset: number; name: string; firstChild: number; nextSibling: number; fileCount: number }>;
  archiveSize: number;
  firstChunkOfEachFile: Array<[number, number, string?]>;
}

const archives = [
  { name: 'Patch_13_LC', head: loadFixture('arch06', 'Patch_13_LC.arch06.head2700.bin'), meta: loadJsonFixture<Meta>('arch06', 'Patch_13_LC.arch06.metadata.json') },
  { name: 'Patch_00', head: loadFixture('arch06', 'Patch_00.arch06.head1080.bin'), meta: loadJsonFixture<Meta>('arch06', 'Patch_00.arch06.metadata.json') },
];

describe('arch06 index: the two real archive heads', () => {
  it.each(archives)('$name parses to exactly the metadata of the fixture JSON', ({ head, meta }) => {
    expect(isArch06(head)).toBe(true);
    const ix = parseArch06Index(head);
    const { magic: _m, guid: _g, ...header } = ix.header;
    const { magic: _mm, guid: _gg, ...expectedHeader } = meta.header as Meta['header'] & { magic: string; guid: string };
    expect(header).toEqual(expectedHeader);
    expect(ix.header.guid.every((b) => b === 0)).toBe(true);
    expect(ix.strings.map((s) => s.text)).toEqual(meta.stringTable);
    // (the Patch_13_LC export gives full paths for some files only)
    expect(ix.files.map((f, i) => ({ nameOffset: f.nameOffset, name: f.name, ...('fullPath' in meta.files[i]! ? { fullPath: f.path } : {}), dataOffset: f.dataOffset, storedSize: f.storedSize, size: f.rawSize, isCompressed: f.isCompressed, compressionLevel: f.compressionLevel }))).toEqual(meta.files);
    expect(ix.folders.map((d) => ({ nameOffset: d.nameOffset, name: d.name, firstChild: d.firstChild, nextSibling: d.nextSibling, fileCount: d.fileCount }))).toEqual(meta.folders);
    expect(ix.gapLength).toBe(6 * meta.header.fileCount);
    expect(ix.files[0]!.dataOffset).toBe(ix.tablesEnd + 6 * meta.header.fileCount);
  });

  it.each(archives)('$name: every table invariant holds (no issues, archive size from the metadata)', ({ head, meta }) => {
    expect(validateArch06Index(parseArch06Index(head), meta.archiveSize)).toEqual([]);
  });

  it.each(archives)('$name: writeArch06Index rebuilds the header, tables and gap byte for byte', ({ head }) => {
    const ix = parseArch06Index(head);
    const out = writeArch06Index(ix);
    expect(out.length).toBe(ix.files[0]!.dataOffset);
    expect(Buffer.from(out).equals(Buffer.from(head.subarray(0, out.length)))).toBe(true);
  });

  it.each(archives)('$name: the layout rule (pre-order tree, sorted names, string order) rebuilds the real tables', ({ head }) => {
    const ix = parseArch06Index(head);
    const layout = layoutArch06(ix.files.map((f) => f.path));
    expect(layout.strings).toEqual(ix.strings);
    expect(layout.folders.map((f) => [f.name, f.nameOffset, f.firstChild, f.nextSibling, f.fileCount])).toEqual(ix.folders.map((f) => [f.name, f.nameOffset, f.firstChild, f.nextSibling, f.fileCount]));
    expect(layout.files.map((f) => [f.path, f.nameOffset])).toEqual(ix.files.map((f) => [f.path, f.nameOffset]));
    expect(ARCH06_HYPOTHESES.stringOrder.status).toBe('inferred');
  });

  it.each(archives)('$name: the columns agree with the metadata, and edits to the records rebuild from the model', ({ head, meta }) => {
    const ix = parseArch06Index(head);
    const c = ix.columns;
    expect(c.length).toBe(meta.header.fileCount);
    for (let i = 0; i < c.length; i++) {
      const m = meta.files[i]!;
      expect([c.name(i), c.nameOffset[i], c.dataOffset[i], c.storedSize[i], c.rawSize[i], c.isCompressed[i], c.compressionLevel[i]]).toEqual([m.name, m.nameOffset, m.dataOffset, m.storedSize, m.size, m.isCompressed, m.compressionLevel]);
      if ('fullPath' in m) expect(c.path(i)).toBe((m as { fullPath: string }).fullPath);
    }
    expect(Object.keys(ix)).not.toContain('columns');
    // the record list is built once, then edited like any model; the columns keep the parsed tables
    expect(ix.files).toBe(ix.files);
    ix.files[0]!.compressionLevel = 3;
    expect(writeArch06Index(ix)[48 + ix.header.stringTableSize + 29]).toBe(3);
    expect(c.compressionLevel[0]).toBe(meta.files[0]!.compressionLevel);
    ix.files = ix.files.slice(1);
    expect(ix.files.length).toBe(meta.header.fileCount - 1);
  });

  it('reads the first chunk header of every file where the head holds it', () => {
    const { head, meta } = archives[0]!;
    const ix = parseArch06Index(head);
    const f0 = ix.files[0]!;
    const chunks = scanArch06Chunks(head.subarray(f0.dataOffset, f0.dataOffset + f0.storedSize), f0.rawSize, f0.dataOffset);
    expect(chunks).toEqual([{ offset: 0, storedSize: meta.firstChunkOfEachFile[0]![0], rawSize: meta.firstChunkOfEachFile[0]![1], padding: 1, paddingIsX: true, kind: 'Kraken' }]);
  });
});

describe('arch06 entries through the lazy reader', () => {
  it('reads Patch_13_LC entry 0 (one Kraken chunk + X) as the real path index', async () => {
    const a = await Arch06Archive.fromBytes(archives[0]!.head);
    const out = await a.read('ArchivePatchLooseFiles.TXT');
    expect(Buffer.from(out).equals(Buffer.from(loadFixture('archivepatchloosefiles', 'Patch_13_LC.archivepatchloosefiles.txt')))).toBe(true);
    expect(parseArchivePathIndex(out).entries.length).toBe(54);
    expect(await a.checkPathIndex()).toEqual([]); // hashes verify; all 11 other entries are listed
  });

  it('reads all four LZB16 .bndl entries of Patch_00 from a sparse rebuild of the archive', async () => {
    const { head, meta } = archives[1]!;
    const sparse = new Uint8Array(meta.archiveSize);
    sparse.set(head, 0);
    const regions = ['island', 'mtnpass', 'snowmtn', 'volcano'];
    regions.forEach((r, k) => sparse.set(loadFixture('arch06', `Patch_00.fortwallgameplay_${r}.bndl.entry.bin`), meta.files[2 * k]!.dataOffset));
    const a = await Arch06Archive.fromBytes(sparse);
    for (const [k, r] of regions.entries()) {
      const entry = a.get(`worlds/retail/${r}/sectionsandlayers/fortwallgameplay.bndl`);
      expect(a.files.indexOf(entry)).toBe(2 * k);
      expect(Buffer.from(await a.read(entry)).equals(Buffer.from(loadFixture('bndl', `fortwallgameplay_${r}.bndl`)))).toBe(true);
      const chunks = await a.chunks(entry);
      expect(chunks.map((c) => [c.storedSize, c.rawSize, c.kind])).toEqual([meta.firstChunkOfEachFile[2 * k]!.slice(0, 2).concat('LZB16')]);
    }
    // the .embb data is absent (zeros): verify says so for exactly those four entries
    const { entries } = await a.verify();
    expect(entries.filter((e) => !e.ok).map((e) => e.index)).toEqual([1, 3, 5, 7]);
  });

  it('truncated archives list every entry but refuse to read data past the end', async () => {
    const a = await Arch06Archive.fromBytes(archives[0]!.head);
    expect(a.files.length).toBe(12);
    await expect(a.read(a.files[5]!)).rejects.toThrow(/runs past the end of the archive/);
    await expect(a.read('no\\such\\file')).rejects.toThrow(/no entry/);
  });
});

describe('arch06 independent hex fixture', () => {
  // A hand-written archive: root with one stored file "a.txt" ("hi") and folder "d" with one chunked file "d\\b.bin"
  // (one raw chunk {2, 2} "ok" + 1 X). Strings "", "a.txt", "b.bin", "d" (15 bytes); tables end at
  // 48 + 15 + 60 + 32 = 155; gap 12 -> data at 167 (0xA7); b.bin at 169 (0xA9): 169 + 8 + 2 = 179 -> one X.
  const bytes = hex`
    4C544152 04000000 0F000000 02000000 02000000 00000000 00000000 00000000 00000000000000000000000000000000
    00 612E74787400 622E62696E00 6400
    01000000 A700000000000000 0200000000000000 0200000000000000 00 00
    07000000 A900000000000000 0B00000000000000 0200000000000000 01 09
    00000000 01000000 FFFFFFFF 01000000
    0D000000 FFFFFFFF FFFFFFFF 01000000
    000000000000000000000000
    6869
    02000000 02000000 6F6B 58`;

  it('parses the tree and reads both storage forms', async () => {
    const ix = parseArch06Index(bytes);
    expect(ix.files.map((f) => f.path)).toEqual(['a.txt', 'd\\b.bin']);
    expect(ix.tablesEnd).toBe(155);
    expect(ix.gapLength).toBe(12);
    const a = await Arch06Archive.fromBytes(bytes);
    expect(new TextDecoder().decode(await a.read('A.TXT'))).toBe('hi');
    expect(new TextDecoder().decode(await a.read('d/b.bin'))).toBe('ok');
    // chunk padding is relative to dataOffset: 169 + 10 = 179 -> one X
    expect((await a.chunks(a.get('d\\b.bin')))[0]).toMatchObject({ padding: 1, paddingIsX: true, kind: 'raw' });
    expect(validateArch06Index(ix, bytes.length)).toEqual([]);
    expect(Buffer.from(writeArch06Index(ix)).equals(Buffer.from(bytes.subarray(0, 167)))).toBe(true);
  });

  it('pack writes this same archive from the same two files', () => {
    const { bytes: packed } = packArch06(
      [
        { path: 'd/b.bin', data: new TextEncoder().encode('ok') },
        { path: 'a.txt', data: new TextEncoder().encode('hi') },
      ],
      { pathIndex: false, storage: 'stored' },
    );
    // stored mode writes isCompressed 0 for both; compare the tables up to the records' storage bytes
    const ix = parseArch06Index(packed);
    expect(ix.strings).toEqual(parseArch06Index(bytes).strings);
    expect(ix.folders.map((f) => [f.firstChild, f.nextSibling, f.fileCount])).toEqual([[1, -1, 1], [-1, -1, 1]]);
  });

  it('gives typed errors naming the field for bad headers and tables', () => {
    const bad = bytes.slice();
    bad[4] = 3;
    expect(() => parseArch06Index(bad)).toThrow(UnsupportedError);
    const ratl = bytes.slice();
    ratl.set([0x52, 0x41, 0x54, 0x4c], 0);
    expect(() => parseArch06Index(ratl)).toThrow(/big-endian/);
    const huge = bytes.slice();
    new DataView(huge.buffer).setUint32(16, 0x7fffffff, true);
    expect(() => parseArch06Index(huge)).toThrow(/fileCount/);
    expect(() => parseArch06Index(bytes.subarray(0, 100))).toThrow(/fileCount/);
    expect(() => parseArch06Index(bytes.subarray(0, 40))).toThrow(EofError);
    const badName = bytes.slice();
    new DataView(badName.buffer).setUint32(63, 500, true);
    expect(() => parseArch06Index(badName)).toThrow(/files\/0\/nameOffset/);
  });

  it('verify reports broken links, unsorted names and a non-retail gap', () => {
    const ix = parseArch06Index(bytes);
    ix.folders[0]!.firstChild = 7;
    const issues = validateArch06Index(ix, bytes.length);
    expect(issues.map((i) => i.rule)).toContain('folders.link');
    expect(issues.map((i) => i.rule)).toContain('folders.reachable');
  });
});

describe('arch06 chunks', () => {
  it('encodes raw chunks of 64 KiB with X padding relative to the data offset', () => {
    const data = new Uint8Array(65536 + 5).map((_, i) => i & 0xff);
    const enc = encodeArch06Chunks(data, 'raw-chunks', 2);
    const chunks = scanArch06Chunks(enc, data.length, 2);
    expect(chunks.map((c) => [c.storedSize, c.rawSize, c.padding])).toEqual([
      [65536, 65536, 2],
      [5, 5, 3],
    ]);
    expect(enc.length).toBe(8 + 65536 + 2 + 8 + 5 + 3);
  });

  it('refuses chunk headers that would produce more than the declared size', () => {
    expect(() => scanArch06Chunks(hex`05000000 05000000 0102030405 585858`, 4)).toThrow(/overflows the entry/);
    expect(() => scanArch06Chunks(hex`05000000 00000200 01`, 0x40000)).toThrow(/outside 1..65536/);
    expect(() => scanArch06Chunks(hex`05000000 05000000 01`, 5)).toThrow(/runs past the stored data/);
    expect(() => scanArch06Chunks(hex`05000000`, 5)).toThrow(FormatError);
  });
});

describe('arch06 mutation fuzz', () => {
  it('mutated heads parse or fail with a ToolkitError; reads stay bounded', async () => {
    const seed = propertySeed();
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 1 }), fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 6 }), fc.nat(), async (which, flips, cut) => {
        const src = archives[which]!.head;
        const m = src.slice(0, src.length - (cut % 64));
        for (const [at, v] of flips) m[at % m.length] = v;
        try {
          const a = await Arch06Archive.fromBytes(m);
          validateArch06Index(a.index, m.length);
          const out = await a.read(a.files[0]!).catch((e: unknown) => {
            expect(e).toBeInstanceOf(ToolkitError);
            return undefined;
          });
          if (out) expect(out.length).toBe(a.files[0]!.rawSize);
        } catch (e) {
          expect(e).toBeInstanceOf(ToolkitError);
        }
      }),
      { seed, numRuns: 300 },
    );
  });
});

describe('arch06 paths against the archive\'s own path index', () => {
  it('every Patch_13_LC path except the index itself is listed in its archivepatchloosefiles.txt', () => {
    const ix = parseArch06Index(archives[0]!.head);
    const listed = new Set(parseArchivePathIndex(loadFixture('archivepatchloosefiles', 'Patch_13_LC.archivepatchloosefiles.txt')).entries.map((e) => e.path));
    const paths = ix.files.map((f) => f.path).filter((p) => p !== 'archivepatchloosefiles.txt');
    expect(paths.length).toBe(11);
    for (const p of paths) expect(listed.has(p), p).toBe(true);
  });
});

describe('pack properties', () => {
  const segment = fc.stringMatching(/^[a-z0-9_]{1,8}$/);
  const tree = fc.uniqueArray(fc.tuple(fc.array(segment, { minLength: 0, maxLength: 3 }), segment, fc.uint8Array({ maxLength: 300 })), {
    minLength: 1,
    maxLength: 25,
    selector: ([dirs, name]) => [...dirs, name].join('\\'),
  });

  it('whatever pack writes reads back identically, validates cleanly, and does not depend on input order', async () => {
    const seed = propertySeed();
    await fc.assert(
      fc.asyncProperty(tree, fc.constantFrom('stored', 'raw-chunks', 'lzb16') as fc.Arbitrary<'stored' | 'raw-chunks' | 'lzb16'>, async (files, storage) => {
        const entries = files.map(([dirs, name, data]) => ({ path: [...dirs, `${name}.bin`].join('/'), data }));
        const paths = new Set(entries.map((e) => e.path.toLowerCase()));
        // a folder and a file may not share a path
        if (entries.some((e) => [...paths].some((p) => p.startsWith(e.path.toLowerCase() + '/')))) return;
        const { bytes } = packArch06(entries, { storage });
        const again = packArch06([...entries].reverse(), { storage }).bytes;
        expect(Buffer.from(again).equals(Buffer.from(bytes))).toBe(true);
        const a = await Arch06Archive.fromBytes(bytes);
        expect(validateArch06Index(a.index, bytes.length).filter((i) => i.severity !== 'info')).toEqual([]);
        for (const e of entries) expect(Buffer.from(await a.read(e.path)).equals(Buffer.from(e.data))).toBe(true);
        expect(a.files.length).toBe(entries.length + 1);
        const { issues } = await a.verify();
        expect(issues.filter((i) => i.severity === 'error')).toEqual([]);
      }),
      { seed, numRuns: 150 },
    );
  });
});

describe('verify checks the archive\'s own path index', () => {
  it('reports an entry the index does not list, and a wrong hash', async () => {
    const { bytes } = packArch06([{ path: 'a/x.txt', data: new Uint8Array([1]) }]);
    const a = await Arch06Archive.fromBytes(bytes);
    expect(await a.checkPathIndex()).toEqual([]);
    // pack with an index that lists a different file
    const stale = packArch06([
      { path: 'a/x.txt', data: new Uint8Array([1]) },
      { path: 'archivepatchloosefiles.txt', data: await a.read('archivepatchloosefiles.txt') },
      { path: 'b/new.txt', data: new Uint8Array([2]) },
    ]).bytes;
    const b = await Arch06Archive.fromBytes(stale);
    expect((await b.checkPathIndex()).map((i) => [i.rule, i.message])).toEqual([['pathIndex.unlisted', '"b\\\\new.txt" is not in archivepatchloosefiles.txt']]);
    const broken = bytes.slice();
    const apl = a.get('archivepatchloosefiles.txt');
    const at = apl.dataOffset + apl.storedSize - 8; // the entry's hash
    broken[at] = broken[at]! ^ 1;
    expect((await (await Arch06Archive.fromBytes(broken)).checkPathIndex()).map((i) => i.rule)).toEqual(['pathIndex.hash']);
  });
});
