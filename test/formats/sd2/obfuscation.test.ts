import { describe, expect, it } from 'vitest';
import { ffnv32, ffnv32Bytes, sd2Keystream, Sd2Mt19937, sd2XorKeystream } from '../../../src/index.ts';

const hexOf = (b: Uint8Array): string => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join(' ');

describe('FFnv32 (spec §3 test vectors)', () => {
  it.each([
    ['', 0x5902879e],
    ['a', 0xd94aa0cf],
    ['id', 0x05f38d1e],
    ['name', 0x2108ba1b],
    ['dbzonemetadata::ZoneRecord', 0x69ce585d],
    ['dbitems::Weapons', 0xfee52e3d],
    ['beta-1869', 0x4417839f],
    ['prod-1962', 0xc0a433a5],
    ['beta-1460', 0x91374e7d],
    ['beta-1297', 0xf9cd5aeb],
  ])('FFnv32(%j) = %i', (text, hash) => {
    expect(ffnv32(text)).toBe(hash);
    expect(ffnv32Bytes(new TextEncoder().encode(text))).toBe(hash);
  });

  it('hashes non-ASCII characters as "?" like .NET ASCII encoding', () => {
    expect(ffnv32('caf\u00e9')).toBe(ffnv32('caf?'));
  });
});

describe('MT19937', () => {
  it('matches the reference outputs for seed 5489 (#0-3, #623, #624, #999)', () => {
    const mt = new Sd2Mt19937(5489);
    const out: number[] = [];
    for (let i = 0; i < 1000; i++) out.push(mt.next());
    expect(out.slice(0, 4)).toEqual([0xd091bb5c, 0x22ae9ef6, 0xe7e1faee, 0xd5c31f79]);
    expect([out[623], out[624], out[999]]).toEqual([0xefa14dff, 0xf914dc58, 0x4fee4f80]);
  });

  it('matches seeds 1234 and FFnv32("beta-1869")', () => {
    const a = new Sd2Mt19937(1234);
    expect([a.next(), a.next(), a.next()]).toEqual([0x31076b2f, 0x7f66e2d3, 0x9f428526]);
    const b = new Sd2Mt19937(0x4417839f);
    expect([b.next(), b.next(), b.next()]).toEqual([0x68b36bf7, 0xa4c3c5c2, 0xd5daffa3]);
  });
});

describe('keystream (whole LE words, then one output per leftover byte)', () => {
  it.each([
    [0x4417839f, 8, 'f7 6b b3 68 c2 c5 c3 a4'],
    [0x4417839f, 7, 'f7 6b b3 68 c2 a3 08'],
    [0xc0a433a5, 8, '3a f5 98 54 5b 75 86 4a'],
    [1, 6, '25 f4 c1 6a eb 8c'],
    [0xc9, 8, '00 da 28 1d 29 c6 8f 87'],
  ])('seed 0x%s, %i bytes', (seed, length, expected) => {
    expect(hexOf(sd2Keystream(seed, length))).toBe(expected);
  });

  it('the short-output path equals the full generator at every length up to 1200 bytes', () => {
    for (const length of [0, 1, 3, 4, 5, 226 * 4, 227 * 4 + 3, 228 * 4, 907, 908, 909, 1200]) {
      const mt = new Sd2Mt19937(0xdeadbeef);
      const expected = new Uint8Array(length);
      const words = length >> 2;
      for (let i = 0; i < words; i++) {
        const k = mt.next();
        expected.set([k & 255, (k >>> 8) & 255, (k >>> 16) & 255, k >>> 24], i * 4);
      }
      for (let i = words * 4; i < length; i++) expected[i] = mt.next() & 255;
      expect(sd2Keystream(0xdeadbeef, length), `length ${length}`).toEqual(expected);
    }
  });

  it('XOR is an involution and honours a sub-range on unaligned views', () => {
    const data = new Uint8Array(3000).map((_, i) => i * 7);
    const view = data.subarray(1, 2999);
    const before = view.slice();
    sd2XorKeystream(view, 42, 10, 2500);
    expect(view.subarray(0, 10)).toEqual(before.subarray(0, 10));
    expect(view.subarray(10, 2500)).not.toEqual(before.subarray(10, 2500));
    sd2XorKeystream(view, 42, 10, 2500);
    expect(view).toEqual(before);
  });
});
