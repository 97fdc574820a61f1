import { describe, expect, it } from 'vitest';
import { ConsistencyError, HashError } from '../../../src/binary/errors.ts';
import { p919 } from '../../../src/hash/p919.ts';
import { ByteReader } from '../../../src/binary/reader.ts';
import { cstringEncode, hex32, jsonReplacer, latin1Decode, latin1DecodeRange, latin1Encode, latin1Issue, utf8Encode } from '../../../src/binary/text.ts';
import { parseArch06Index, validateArch06Index, writeArch06Index } from '../../../src/formats/arch06/index.ts';
import { parseBndl, validateBndl, writeBndl } from '../../../src/formats/bndl/bndl.ts';
import { parseArchivePathIndex, validateArchivePathIndex, writeArchivePathIndex } from '../../../src/formats/apl/apl.ts';
import { parseSd2, validateSd2, writeSd2 } from '../../../src/formats/sd2/sd2.ts';
import { openHksFile, writeHksFile } from '../../../src/formats/hks/index.ts';
import { buildStrdb } from '../../../src/formats/strdb/strdb.ts';
import { loadFixture } from '../../support/fixtures.ts';

const field = { format: 'test', path: '/name' };

describe('text: Latin-1, C strings, UTF-8 and hex, refusing what a format cannot hold', () => {
  it('decodes every byte to the char of the same code and back', () => {
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    const text = latin1Decode(all);
    expect(text.length).toBe(256);
    expect([...text].map((c) => c.charCodeAt(0))).toEqual([...all]);
    // 0x80–0x9F are C1 controls in Latin-1, not windows-1252's € ‚ ƒ …
    expect(latin1Decode(Uint8Array.from([0x80, 0x9f, ...new Uint8Array(40)]))[0]).toBe('\u0080');
    expect(latin1Encode(text, field)).toEqual(all);
  });

  it('refuses a char above U+00FF instead of masking it to 8 bits', () => {
    expect(() => latin1Encode('€.txt', field)).toThrow(ConsistencyError);
    expect(() => latin1Encode('€.txt', field)).toThrow(/U\+20AC.*index 0/);
    expect(latin1Issue('a€', '/x')).toMatchObject({ rule: 'text.latin1', path: '/x', severity: 'error' });
    expect(latin1Issue('é', '/x')).toBeUndefined();
  });

  it('C strings refuse a NUL inside the text and end with one', () => {
    expect(cstringEncode('ab', field)).toEqual(Uint8Array.from([0x61, 0x62, 0]));
    expect(() => cstringEncode('a\0b', field)).toThrow(/NUL/);
  });

  it('UTF-8 refuses a lone surrogate rather than writing U+FFFD', () => {
    expect(utf8Encode('é😀', field)).toEqual(Uint8Array.from([0xc3, 0xa9, 0xf0, 0x9f, 0x98, 0x80]));
    expect(() => utf8Encode('a\ud800b', field)).toThrow(/lone surrogate/);
  });

  it('hex32 is 0x%08X and the JSON replacer shows bytes as hex, bigint as decimal', () => {
    expect(hex32(0xab)).toBe('0x000000AB');
    expect(hex32(-1)).toBe('0xFFFFFFFF');
    expect(JSON.stringify({ b: Uint8Array.from([1, 0xfe]), n: 12n, x: NaN }, jsonReplacer)).toBe('{"b":"01fe","n":"12","x":"NaN"}');
  });

  it("the reader's Latin-1 path does not take € for ¬ (0xAC)", () => {
    expect(() => new ByteReader(Uint8Array.of(0xac)).expectBytes('€')).toThrow(/not Latin-1/);
    expect(new ByteReader(Uint8Array.of(0xe9, 0x80)).latin1(2)).toBe('\u00e9\u0080');
  });
});

describe('latin1DecodeRange', () => {
  it('decodes every range of every length to 40 as latin1Decode of the subarray (reused scratch never leaks between texts)', () => {
    const bytes = new Uint8Array(300);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 167 + 13) & 0xff; // every byte value, high ones included
    for (let n = 0; n <= 40; n++) {
      for (const start of [0, 1, 3, 255 - n, 300 - n]) {
        const want = String.fromCharCode(...bytes.subarray(start, start + n));
        expect(latin1DecodeRange(bytes, start, start + n)).toBe(want);
        expect(latin1Decode(bytes.subarray(start, start + n))).toBe(want);
      }
    }
    expect(latin1DecodeRange(bytes, 5, 5)).toBe('');
  });

  it('decodes ranges of every length to 300 (the scratch arrays to 256, a view past them), ASCII and not, as fromCharCode does', () => {
    const mixed = new Uint8Array(700);
    for (let i = 0; i < mixed.length; i++) mixed[i] = (i * 167 + 13) & 0xff;
    const ascii = mixed.map((b) => 0x20 + (b % 0x5f));
    for (const bytes of [mixed, ascii]) {
      for (let n = 0; n <= 300; n++) {
        for (const start of [0, 1, 3, 700 - n]) {
          const want = String.fromCharCode(...bytes.subarray(start, start + n));
          expect(latin1DecodeRange(bytes, start, start + n)).toBe(want);
        }
      }
    }
  });
});

describe('P919 hashes the bytes a name is stored as (Latin-1), not its UTF-8', () => {
  it('é hashes as the one byte 0xE9; a char above U+00FF cannot be hashed', () => {
    expect(p919('\u00e9x', { allowInferred: true })).toBe(p919(Uint8Array.of(0xe9, 0x78), { allowInferred: true }));
    expect(() => p919('€', { allowInferred: true })).toThrow(HashError);
  });
});

describe('writers refuse a name Latin-1 cannot hold, and validators report it', () => {
  it('.arch06', () => {
    const ix = parseArch06Index(loadFixture('arch06', 'Patch_13_LC.arch06.head2700.bin'));
    const k = ix.strings.findIndex((s) => s.text.endsWith('.bndl'));
    const edited = { ...ix, strings: ix.strings.map((s, i) => (i === k ? { ...s, text: s.text.replace(/[^\\]+$/, '€.txt') } : s)) };
    expect(() => writeArch06Index(edited)).toThrow(ConsistencyError);
    expect(validateArch06Index(edited).map((i) => i.rule)).toContain('text.latin1');
  });

  it('.bndl', () => {
    const b = parseBndl(loadFixture('bndl', 'fortwallgameplay_island.bndl'));
    const edited = { ...b, names: b.names.map((n, i) => (i === 0 ? { ...n, text: '€' + n.text.slice(1) } : n)) };
    expect(() => writeBndl(edited)).toThrow(ConsistencyError);
    expect(validateBndl(edited).map((i) => i.rule)).toContain('text.latin1');
  });

  it('archivepatchloosefiles', () => {
    const a = parseArchivePathIndex(loadFixture('archivepatchloosefiles', 'Patch_13_LC.archivepatchloosefiles.txt'));
    const edited = { ...a, strings: a.strings.map((s, i) => (i === 0 ? { ...s, text: '€' + s.text.slice(1) } : s)) };
    expect(() => writeArchivePathIndex(edited)).toThrow(ConsistencyError);
    expect(validateArchivePathIndex(edited).map((i) => i.rule)).toContain('text.latin1');
  });

  it('.sd2 patch name', () => {
    const f = parseSd2(loadFixture('sd2', 'faufau-1.5.0-generated', 'sample-beta-1869.sd2'));
    const edited = { ...f, header: { ...f.header, patch: '€' } };
    expect(() => writeSd2(edited)).toThrow(ConsistencyError);
    expect(validateSd2(edited).map((i) => i.rule)).toContain('text.latin1');
  });

  it('HavokScript string constants', () => {
    const file = openHksFile(loadFixture('hks', 'generated', 'constants.debug.luac'));
    if (file.kind === 'scri-source') throw new Error('expected bytecode');
    const fn = file.chunk.main;
    const k = fn.constants.findIndex((c) => c.type === 'string');
    const constants = fn.constants.map((c, i) => (i === k ? { ...c, value: '€' } : c));
    const edited = { ...file, chunk: { ...file.chunk, main: { ...fn, constants } } };
    expect(() => writeHksFile(edited as typeof file)).toThrow(ConsistencyError);
  });

  it('.strdb refuses a NUL inside a string (it would cut the string)', () => {
    expect(() => buildStrdb([{ id: 1, text: 'a\0b' }])).toThrow(ConsistencyError);
  });
});
