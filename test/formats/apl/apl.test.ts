import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ToolkitError, buildArchivePathIndex, isArchivePathIndex, p919, parseArchivePathIndex, validateArchivePathIndex, writeArchivePathIndex } from '../../../src/index.ts';
import { hex, loadFixture, propertySeed } from '../../support/fixtures.ts';

const retail = loadFixture('archivepatchloosefiles', 'Patch_13_LC.archivepatchloosefiles.txt');
const mod = loadFixture('archivepatchloosefiles', 'Eltariel_BlackNumT2_Wraith_UHD.archivepatchloosefiles.txt');

describe('archivepatchloosefiles', () => {
  it('the retail index: 54 entries sorted by hash, every hash P919 of its path, 3749 = 12 + S + 8n', () => {
    expect(isArchivePathIndex(retail)).toBe(true);
    const ix = parseArchivePathIndex(retail);
    expect(ix.entries.length).toBe(54);
    expect(12 + ix.strings.reduce((s, x) => s + x.text.length + 1, 0) + 8 * 54).toBe(3749);
    expect(validateArchivePathIndex(ix).filter((i) => i.severity !== 'info')).toEqual([]);
    expect(Buffer.from(writeArchivePathIndex(ix)).equals(Buffer.from(retail))).toBe(true);
  });

  it('the mod index: one entry, hash 0x3E81711F; buildArchivePathIndex writes the same 106 bytes', () => {
    const ix = parseArchivePathIndex(mod);
    expect(ix.entries).toEqual([{ hash: 0x3e81711f, offset: 0, path: 'characters\\modelcharacters\\player\\bodies\\body_eltariel\\grafteltariel_wraith_body.mesh' }]);
    expect(Buffer.from(writeArchivePathIndex(buildArchivePathIndex(['Characters/ModelCharacters/Player/Bodies/Body_Eltariel/GraftEltariel_Wraith_Body.mesh']))).equals(Buffer.from(mod))).toBe(true);
  });

  it('buildArchivePathIndex rebuilds the retail file from its paths', () => {
    const paths = parseArchivePathIndex(retail).entries.map((e) => e.path);
    const rebuilt = writeArchivePathIndex(buildArchivePathIndex([...paths].reverse()));
    expect(Buffer.from(rebuilt).equals(Buffer.from(retail))).toBe(true);
  });

  it('hex literal: version 1, two paths in hash order', () => {
    const a = p919('a');
    const b = p919('b');
    const bytes = hex`01000000 04000000 6100 6200 02000000 ${a.toString(16).padStart(8, '0').match(/../g)!.reverse().join('')} 00000000 ${b.toString(16).padStart(8, '0').match(/../g)!.reverse().join('')} 02000000`;
    expect(parseArchivePathIndex(bytes).entries.map((e) => e.path)).toEqual(['a', 'b']);
    expect(validateArchivePathIndex(parseArchivePathIndex(bytes))).toEqual([]);
  });

  it('columns: hashes and offsets as parsed, paths decoded on demand; an offset inside a string or in the tail is refused at its byte', () => {
    const ix = parseArchivePathIndex(retail);
    expect(ix.columns.length).toBe(54);
    for (let i = 0; i < 54; i++) {
      expect(ix.columns.hash[i]).toBe(ix.entries[i]!.hash);
      expect(ix.columns.offset[i]).toBe(ix.entries[i]!.offset);
      expect(ix.columns.path(i)).toBe(ix.entries[i]!.path);
    }
    expect(Object.keys(ix)).not.toContain('columns');
    // table "ab\0c\0" + tail "d": offset 1 is inside "ab", offset 5 is the tail, offset 3 ("c") is a string start
    const withOffset = (o: number): Uint8Array => hex`01000000 06000000 61620063 0064 01000000 00000000 0${o}000000`;
    expect(parseArchivePathIndex(withOffset(3)).entries).toEqual([{ hash: 0, offset: 3, path: 'c' }]);
    for (const o of [1, 5]) {
      try {
        parseArchivePathIndex(withOffset(o));
        expect.unreachable();
      } catch (e) {
        expect(e).toBeInstanceOf(ToolkitError);
        expect((e as ToolkitError & { offset: number }).offset).toBe(22);
      }
    }
  });

  it('{ view: true } keeps the string table as a view of the input (same model); the default copies it', () => {
    const bytes = retail.slice();
    const viewed = parseArchivePathIndex(bytes, { view: true });
    const copied = parseArchivePathIndex(bytes);
    expect(viewed.entries).toEqual(copied.entries);
    expect(viewed.strings).toEqual(copied.strings);
    expect(writeArchivePathIndex(viewed)).toEqual(retail);
    expect(viewed.columns.stringTable.buffer).toBe(bytes.buffer);
    expect(copied.columns.stringTable.buffer).not.toBe(bytes.buffer);
    const first = viewed.columns.path(0);
    bytes[8 + viewed.columns.offset[0]!]! ^= 0x20; // the documented contract: a viewed input must not change
    expect(viewed.columns.path(0)).not.toBe(first);
    expect(copied.columns.path(0)).toBe(first);
  });

  it('mutations give typed errors', () => {
    const seed = propertySeed();
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 4 }), (flips) => {
        const m = retail.slice();
        for (const [at, v] of flips) m[at % m.length] = v;
        try {
          parseArchivePathIndex(m);
        } catch (e) {
          expect(e).toBeInstanceOf(ToolkitError);
        }
      }),
      { seed, numRuns: 200 },
    );
  });
});
