import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ToolkitError, buildStrdb, parseStrdb, strdbGet, validateStrdb, writeStrdb } from '../../../src/index.ts';
import { hex, propertySeed } from '../../support/fixtures.ts';

describe('.strdb (SKDB v9)', () => {
  // Two ids sharing one text (as ids 217159/217160 share "Boom?" in the real file) and the empty string at 0.
  const bytes = hex`
    534B4442 09000000 1C000000 03000000 00000000 07000000 00000000
    05000000 00000000  47500300 01000000  48500300 01000000
    0000 4200 6F00 6F00 6D00 3F00 0000`;

  it('parses a hand-made file and looks strings up by id', () => {
    const db = parseStrdb(bytes);
    expect(db.entries.map((e) => e.id)).toEqual([5, 217159, 217160]);
    expect(strdbGet(db, 217159)).toBe('Boom?');
    expect(strdbGet(db, 217160)).toBe('Boom?');
    expect(strdbGet(db, 5)).toBe('');
    expect(strdbGet(db, 6)).toBeUndefined();
    expect(validateStrdb(db)).toEqual([]);
    expect(Buffer.from(writeStrdb(db)).equals(Buffer.from(bytes))).toBe(true);
  });

  it('buildStrdb shares identical texts and keeps non-ASCII UTF-16', () => {
    const db = buildStrdb([
      { id: 217160, text: 'Boom?' },
      { id: 5, text: '' },
      { id: 217159, text: 'Boom?' },
    ]);
    expect(Buffer.from(writeStrdb(db)).equals(Buffer.from(bytes))).toBe(true);
    const uni = parseStrdb(writeStrdb(buildStrdb([{ id: 1, text: 'Palantír …' }])));
    expect(strdbGet(uni, 1)).toBe('Palantír …');
  });

  it('corrupted files give typed errors', () => {
    const seed = propertySeed();
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 4 }), fc.nat(8), (flips, cut) => {
        const m = bytes.slice(0, bytes.length - cut);
        for (const [at, v] of flips) m[at % m.length] = v;
        try {
          parseStrdb(m);
        } catch (e) {
          expect(e).toBeInstanceOf(ToolkitError);
        }
      }),
      { seed, numRuns: 300 },
    );
  });
});
