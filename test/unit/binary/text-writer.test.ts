import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { TextWriter, littleEndianWords } from '../../../src/binary/text-writer.ts';
import { propertySeed } from '../../support/fixtures.ts';

const text = (b: Uint8Array): string => new TextDecoder().decode(b);

describe('TextWriter', () => {
  it('jsonString writes JSON.stringify of the text from any offset, whatever byte of a word needs an escape (fast-check)', () => {
    const seed = propertySeed();
    // Texts rich in what needs an escape (controls, quote, backslash) and in multi-byte UTF-8, at every alignment.
    const unit = fc.oneof(fc.constantFrom('"', '\\', '\n', '\u0000', '\u001f', ' ', '~', '\u007f', 'é', '\u2028', '😀'), fc.string({ maxLength: 6 }));
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 12 }), fc.nat(7), fc.boolean(), (parts, pad, blank) => {
        const t = parts.join('');
        const src = new Uint8Array(pad + 3 * t.length + 8).fill(0x22);
        const { written } = new TextEncoder().encodeInto(t, src.subarray(pad));
        const w = new TextWriter({ chunkSize: 16, blankSpaces: blank });
        w.latin1('x');
        w.jsonString(src, pad, pad + written!);
        w.jsonString(src, pad, pad + written!, false);
        expect(text(w.finish())).toBe('x' + JSON.stringify(t) + JSON.stringify(t).slice(1));
      }),
      { seed, numRuns: 400 },
    );
  });

  it('words writes the bytes its littleEndianWords hold, of every length, through growth and streaming', () => {
    const pieces = ['', 'a', 'ab', 'abc', 'abcd', '"0x4D0AAD9A":', ',"values":{', 'é"ü'].map((p) => new TextEncoder().encode(p));
    for (const chunkSize of [1, 5, 64]) {
      const got: Uint8Array[] = [];
      const streaming = new TextWriter({ chunkSize, onChunk: (c) => void got.push(c.slice()) });
      const collecting = new TextWriter({ chunkSize });
      const blank = new TextWriter({ chunkSize, blankSpaces: true });
      let expected = '';
      for (let r = 0; r < 3; r++) {
        for (const p of pieces) {
          for (const w of [streaming, collecting, blank]) {
            w.words(littleEndianWords(p), p.length);
            w.spaces(1);
          }
          expected += new TextDecoder().decode(p) + ' ';
        }
      }
      streaming.finish();
      expect(text(Buffer.concat(got))).toBe(expected);
      expect(text(collecting.finish())).toBe(expected);
      expect(text(blank.finish())).toBe(expected);
    }
  });

  it('writes numbers, hex, padding and lines like the string methods they replace', () => {
    const w = new TextWriter({ chunkSize: 4 });
    w.latin1('  pc');
    w.padTo(8);
    w.uint(0);
    w.byte(0x20);
    w.uint(4294967295);
    w.byte(0x20);
    w.int(-120);
    w.spaces(2);
    w.hex(0xdeadbeef, 8);
    w.byte(0x20);
    w.hex(10, 2);
    w.newline();
    w.latin1('x');
    w.padTo(4);
    w.latin1('; longer than the column');
    w.padTo(3);
    w.newline();
    expect(text(w.finish())).toBe(`${'  pc'.padEnd(8)}0 4294967295 -120  deadbeef 0a\n${'x'.padEnd(4)}; longer than the column\n`);
  });

  it('uint and int print every integer as String() does (fast-check)', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.integer({ min: -(2 ** 31), max: 2 ** 32 }), fc.maxSafeInteger().map((v) => Math.abs(v)), fc.constantFrom(0, 9, 10, 99, 100, 2 ** 53 - 1))), (values) => {
        const w = new TextWriter({ chunkSize: 8 });
        for (const v of values) {
          w.int(v);
          w.byte(0x2c);
        }
        expect(text(w.finish())).toBe(values.map((v) => String(v) + ',').join(''));
      }),
      { numRuns: 300 },
    );
  });

  it('writes Latin-1 one byte per character and UTF-8 as TextEncoder does; a character above U+00FF in Latin-1 text is escaped, not cut', () => {
    const w = new TextWriter();
    w.latin1('caf\u00e9');
    expect(w.asciiOnly).toBe(false);
    expect(Array.from(w.finish())).toEqual([0x63, 0x61, 0x66, 0xe9]);
    const u = new TextWriter({ chunkSize: 2 });
    u.utf8Text('a\u00e9\u4e2d\ud83d\ude00');
    expect(text(u.finish())).toBe('a\u00e9\u4e2d\ud83d\ude00');
    const e = new TextWriter();
    e.latin1('a\u4e2db');
    expect(text(e.finish())).toBe('a\\u{4e2d}b');
    const ascii = new TextWriter();
    ascii.latin1('plain');
    ascii.bytes(new Uint8Array([0x41]), true);
    expect(ascii.asciiOnly).toBe(true);
  });

  it('streams: chunks are handed over as they fill, the concatenation is the text, columns survive a flush', () => {
    const chunks: number[][] = [];
    const w = new TextWriter({ chunkSize: 16, onChunk: (c) => chunks.push(Array.from(c)) });
    let expected = '';
    for (let i = 0; i < 100; i++) {
      w.latin1('line ');
      w.uint(i);
      w.padTo(12);
      w.latin1('|');
      w.newline();
      expected += `${`line ${i}`.padEnd(12)}|\n`;
    }
    w.utf8Text('\u00e9'.repeat(40));
    expected += '\u00e9'.repeat(40);
    expect(w.finish().length).toBe(0);
    expect(chunks.every((c) => c.length <= 16 * 8)).toBe(true);
    expect(chunks.length).toBeGreaterThan(10);
    expect(text(new Uint8Array(chunks.flat()))).toBe(expected);
    expect(w.length).toBe(new TextEncoder().encode(expected).length);
  });

  it('blankSpaces: skipped spaces read as spaces, collecting (through growth) and streaming (through reuse of the chunk)', () => {
    const write = (w: TextWriter): void => {
      for (let i = 0; i < 60; i++) {
        w.latin1(`x${i}`);
        w.padTo(10 + (i % 7));
        w.latin1(i % 2 ? '|' : 'a long piece of text past the column');
        w.spaces(i % 5);
        w.newline();
      }
    };
    const plain = new TextWriter({ chunkSize: 8 });
    write(plain);
    const expected = text(plain.finish());
    const blank = new TextWriter({ chunkSize: 8, blankSpaces: true });
    write(blank);
    expect(text(blank.finish())).toBe(expected);
    const chunks: number[][] = [];
    const streamed = new TextWriter({ chunkSize: 16, blankSpaces: true, onChunk: (c) => chunks.push(Array.from(c)) });
    write(streamed);
    streamed.finish();
    expect(text(new Uint8Array(chunks.flat()))).toBe(expected);
  });

  it('blankSpaces in a large first buffer: spaces are filled a stretch ahead as the text grows, a caller writing into buf after reserve finds them', () => {
    // ~140 KiB of lines, most of each line skipped (spaces), into a 600 KiB buffer filled on demand
    const w = new TextWriter({ chunkSize: 600 << 10, blankSpaces: true });
    let expected = '';
    for (let i = 0; i < 3000; i++) {
      const skip = (i * 37) % 90;
      w.reserve(skip + 12);
      expect(w.end).toBeGreaterThanOrEqual(w.pos + skip + 12);
      let p = w.pos + skip;
      w.buf[p++] = 0x41 + (i % 26);
      w.buf[p++] = 0x0a;
      w.pos = p;
      w.lineStart = p;
      expected += `${' '.repeat(skip)}${String.fromCharCode(0x41 + (i % 26))}\n`;
    }
    expect(w.end).toBeLessThan(w.buf.length);
    expect(text(w.finish())).toBe(expected);
  });
});
