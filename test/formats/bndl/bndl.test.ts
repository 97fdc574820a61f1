import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ToolkitError, UnsupportedError, buildBndl, bndlNamesSize, bndlTotalSize, p919, parseBndl, validateBndl, writeBndl } from '../../../src/index.ts';
import { hex, loadFixture, propertySeed } from '../../support/fixtures.ts';

const regions = ['island', 'mtnpass', 'snowmtn', 'volcano'] as const;
const files = regions.map((r) => ({ region: r, bytes: loadFixture('bndl', `fortwallgameplay_${r}.bndl`) }));

describe('.bndl on the four real manifests', () => {
  it('island parses to the values the fixture README lists', () => {
    const b = parseBndl(files[0]!.bytes);
    expect(b.version).toBe(6);
    expect(bndlNamesSize(b)).toBe(636);
    expect(b.afterNames).toEqual(new Uint8Array(4));
    expect(b.entries.map((e) => e.size)).toEqual([76, 117, 12, 245, 36298, 1093, 0, 163908, 96, 13544]);
    expect(b.entries.map((e) => e.path.slice(e.path.lastIndexOf('.')))).toEqual(['.inst', '.veggrid', '.terrain', '.uiwd', '.objres', '.uis', '.wldmsh', '.scripts', '.wldclnt', '.hkai']);
    expect(b.entries.every((e) => e.path.startsWith('worlds\\retail\\island\\sectionsandlayers\\fortwallgameplay.'))).toBe(true);
    expect(bndlTotalSize(b)).toBe(215389);
  });

  it.each(files)('$region: entries are in P919 order, write(parse(x)) = x, and buildBndl rebuilds the same bytes', ({ bytes }) => {
    const b = parseBndl(bytes);
    const hashes = b.entries.map((e) => p919(e.path));
    expect([...hashes].sort((x, y) => x - y)).toEqual(hashes);
    expect(validateBndl(b)).toEqual([]);
    expect(Buffer.from(writeBndl(b)).equals(Buffer.from(bytes))).toBe(true);
    expect(Buffer.from(writeBndl(buildBndl(b.entries.map((e) => ({ path: e.path, size: e.size }))))).equals(Buffer.from(bytes))).toBe(true);
  });

  it('a hand-made manifest (hex literal) parses', () => {
    // one resource "a.b" (size 7): name "a.b\0" needs no padding; 4 zero bytes; offset table at +8
    const b = parseBndl(hex`42 4E 44 4C 06000000 04000000 08000000 01000000 07000000 612E6200 00000000 00000000`);
    expect(b.entries).toEqual([{ size: 7, nameOffset: 0, path: 'a.b' }]);
  });

  it('refuses other versions and the embedded form with UnsupportedError', () => {
    expect(() => parseBndl(hex`42 4E 44 4C 05000000 00000000 04000000 00000000 00000000`)).toThrow(UnsupportedError);
    expect(() => parseBndl(hex`42 4E 44 4C 06000000 00000000 04000000 00000000 00000000`)).toThrow(/embedded/);
  });

  it('mutated manifests parse or fail with a ToolkitError', () => {
    const seed = propertySeed();
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 3 }), fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 4 }), (k, flips) => {
        const m = files[k]!.bytes.slice();
        for (const [at, v] of flips) m[at % m.length] = v;
        try {
          parseBndl(m);
        } catch (e) {
          expect(e).toBeInstanceOf(ToolkitError);
        }
      }),
      { seed, numRuns: 300 },
    );
  });
});
