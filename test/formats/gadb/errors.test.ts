/** Bad input: every failure is a typed error naming the byte offset and the field path. */
import { describe, expect, it } from 'vitest';
import { EofError, FormatError, UnsupportedError, ConsistencyError } from '../../../src/binary/errors.ts';
import { decodeGadbCurve, decodeGadbFloats, decodeGadbText, encodeGadbLink, isGadb, parseGadb, writeGadb } from '../../../src/formats/gadb/index.ts';
import { loadFixture } from '../../support/fixtures.ts';

const original = loadFixture('gadb', 'landmine_curse.fxp');
const G = 8; // GADB offset in the .fxp

function patched(edits: [offset: number, u32: number][]): Uint8Array {
  const b = original.slice();
  const dv = new DataView(b.buffer);
  for (const [off, v] of edits) dv.setUint32(off, v, true);
  return b;
}

function parseError(bytes: Uint8Array): FormatError {
  try {
    parseGadb(bytes);
  } catch (e) {
    expect(e).toBeInstanceOf(FormatError);
    return e as FormatError;
  }
  throw new Error('expected a FormatError');
}

describe('GADB bad input', () => {
  it('rejects a file that is not GADB, naming the magic', () => {
    const e = parseError(new TextEncoder().encode('hello world, not a database'));
    expect(e.offset).toBe(0);
    expect(e.path).toBe('/magic');
    expect(isGadb(new Uint8Array(3))).toBe(false);
  });

  it('refuses another version with an UnsupportedError', () => {
    const e = parseError(patched([[G + 4, 18]]));
    expect(e).toBeInstanceOf(UnsupportedError);
    expect([e.offset, e.path]).toEqual([G + 4, '/header/version']);
    expect(isGadb(patched([[G + 4, 18]]))).toBe(false);
  });

  it('names the field when the file is truncated in each section', () => {
    const cases: [length: number, path: RegExp, eof: boolean][] = [
      [G + 0x20, /^\/header\//, true],
      [0x100, /^\/strings$/, true],
      [0x1000, /^\/header\/descriptorCount$/, false], // the count is refused before any row is read
      [0x2cb0, /^\/values\/categoryCount$/, false], // likewise: 12 entries cannot fit
      [0x3000, /^\/categories\[\d+\](\/records\[\d+\](\/cells)?)?$/, true],
      [0x38ba, /^\/trailer\/pairCount$/, true],
    ];
    for (const [length, path, eof] of cases) {
      const e = parseError(original.subarray(0, length));
      expect(e instanceof EofError, `truncated at ${length}: ${e.message}`).toBe(eof);
      expect(e.path, `truncated at ${length}`).toMatch(path);
      expect(e.offset).toBeLessThanOrEqual(length);
    }
  });

  it('refuses absurd counts before allocating anything', () => {
    let e = parseError(patched([[G + 0x1c, 0xffffffff]]));
    expect([e.path, e.offset]).toEqual(['/header/descriptorCount', 0xe82]);
    e = parseError(patched([[0x2ca4, 0x7fffffff]]));
    expect(e.path).toBe('/values/categoryCount');
    expect(e.message).toContain('count 2147483647');
    e = parseError(patched([[0x2cb8, 0x10000000]]));
    expect(e.path).toBe('/categories[0]/secondaryCount');
    e = parseError(patched([[0x2cb4, 0x10000000]]));
    expect(e.path).toBe('/categories[0]/primaryCount');
  });

  it('refuses a string block larger than the file', () => {
    const e = parseError(patched([[G + 8, 0x100000]]));
    expect(e).toBeInstanceOf(EofError);
    expect(e.path).toBe('/strings');
  });

  it('refuses name offsets outside the string block or not 4-aligned', () => {
    let e = parseError(patched([[0x2ca8, 0x10000]]));
    expect([e.path, e.offset]).toEqual(['/categories[0]/name', 0x2ca8]);
    expect(e.message).toContain('outside the block');
    e = parseError(patched([[0x2cc0, 0x0a]]));
    expect([e.path, e.offset]).toEqual(['/records[0]/name', 0x2cc0]);
    expect(e.message).toContain('not 4-aligned');
  });

  it('refuses a descriptor run outside the descriptor table', () => {
    const b = original.slice();
    b[0x2cc7] = 0xff;
    b[0x2cc8] = 0xff;
    const e = parseError(b);
    expect([e.path, e.offset]).toEqual(['/records[0]/firstDescriptor', 0x2cc0]);
  });

  it('refuses trailing bytes after the trailer and a header size below 0x2C', () => {
    const longer = new Uint8Array(original.length + 4);
    longer.set(original);
    expect(parseError(longer).path).toBe('/trailer');
    expect(parseError(patched([[G + 0x28, 0x10]])).path).toBe('/header/headerSize');
  });

  it('writeGadb refuses an inconsistent model with a ConsistencyError listing the issues', () => {
    const g = parseGadb(original, { owned: true });
    g.categories[0]!.secondaryCount = 5;
    expect(() => writeGadb(g)).toThrow(ConsistencyError);
    try {
      writeGadb(g);
    } catch (e) {
      expect((e as ConsistencyError).issues.map((i) => i.rule)).toContain('model.recordCount');
    }
    const h = parseGadb(original, { owned: true });
    h.records.nameKey[0] = 0x9;
    expect(() => writeGadb(h)).toThrow(/not an item key/);
  });

  it('decoders raise typed errors for malformed items, never a RangeError', () => {
    const g = parseGadb(original, { owned: true });
    // Not an item key.
    expect(() => decodeGadbText(g.strings, 0x1e)).toThrow(FormatError);
    // A text item whose NUL was overwritten: its extent ends before a terminator.
    const t = parseGadb(original, { owned: true });
    t.strings.data.fill(0x41, 0x08, 0x18);
    expect(() => decodeGadbText(t.strings, 0x08)).toThrow(/no NUL terminator/);
    // A curve whose key count runs past its item (FloatCurve at sb+0xA8).
    const c = parseGadb(original, { owned: true });
    new DataView(c.strings.data.buffer).setUint32(0xa8, 0x7fffffff, true);
    expect(() => decodeGadbCurve(c.strings, 0xa8, 13)).toThrow(FormatError);
    expect(() => decodeGadbCurve(c.strings, 0xa8, 13)).toThrow(/runs past/);
    // Vector3 read from a 4-byte item.
    expect(() => decodeGadbFloats(g.strings, 0x18, 3)).toThrow(/needs 12 bytes/);
    expect(() => encodeGadbLink(4096, 0)).toThrow(ConsistencyError);
  });
});
