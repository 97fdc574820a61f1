import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readdirSync } from 'node:fs';
import { ChunkDecoder, CodecError, COMPRESS_HYPOTHESES, FormatError, ToolkitError, UnsupportedError, decodeLzb16, decodeLzb16Into, encodeLzb16, readOodleBlockHeader } from '../../../src/index.ts';
import { LZB16_WASM_INPUT, LZB16_WASM_INPUT_MAX, lzb16Wasm, lzb16WasmBytes } from '../../../src/compress/lzb16-wasm.ts';
import { fixturePath, hex, loadFixture, propertySeed } from '../../support/fixtures.ts';

const regions = ['island', 'mtnpass', 'snowmtn', 'volcano'] as const;
/** Both decoders: `auto` runs the WebAssembly one (and the JavaScript one on what it leaves), `js` the latter alone. */
const ENGINES = ['auto', 'js'] as const;
const realChunks = regions.map((region) => {
  const file = readdirSync(fixturePath('oodle')).find((f) => f.startsWith(`lzb16.Patch_00.fortwallgameplay_${region}.`))!;
  return { region, payload: loadFixture('oodle', file), expected: loadFixture('bndl', `fortwallgameplay_${region}.bndl`) };
});

describe('LZB16 on the four real chunks', () => {
  it.each(realChunks)('decodes the $region .bndl chunk to the expected bytes', ({ payload, expected }) => {
    const out = decodeLzb16(payload, expected.length);
    expect(out.length).toBe(expected.length);
    expect(Buffer.from(out).equals(Buffer.from(expected))).toBe(true);
    expect(String.fromCharCode(...out.subarray(0, 4))).toBe('BNDL');
  });

  it('reads the block and quantum headers as the spec traces them', () => {
    const island = realChunks[0]!.payload;
    expect(readOodleBlockHeader(island)).toMatchObject({ streamId: 2, restart: true, uncompressed: false, checksums: false });
    expect(readOodleBlockHeader(island).codec?.name).toBe('LZB16');
    // 8C 02 | 00 F2: 0xF2 + 1 = 243 bytes of quantum input = 247 - 4
    expect(((island[2]! << 8) | island[3]!) + 1).toBe(island.length - 4);
  });

  it('refuses a raw size that disagrees with the stream', () => {
    const { payload, expected } = realChunks[0]!;
    expect(() => decodeLzb16(payload, expected.length - 1)).toThrow(FormatError);
    expect(() => decodeLzb16(payload, expected.length + 1)).toThrow(FormatError);
  });
});

describe('LZB16 branches on synthetic data (hex literals)', () => {
  // 8C 02 | quantum header (size - 1, BE) | tokens
  it('decodes literals only, with and without the 15 + E extension', () => {
    expect(Array.from(decodeLzb16(hex`8C 02 00 03 03 61 62 63`, 3))).toEqual([0x61, 0x62, 0x63]);
    const lits = Array.from({ length: 17 }, (_, i) => i + 1);
    const stream = new Uint8Array([0x8c, 0x02, 0x00, 18, 0x0f, 0x02, ...lits]);
    expect(Array.from(decodeLzb16(stream, 17))).toEqual(lits);
  });

  it('near match: M < 15 means length M + 4 and a u16 offset (overlapping copy)', () => {
    // 'ab' then match len 5 (M=1) at offset 2 -> ababababa? no: len 5 -> 'ababa'; then 1 literal 'z'
    const out = decodeLzb16(hex`8C 02 00 06 | 12 61 62 02 00 | 01 7A`, 8);
    expect(String.fromCharCode(...out)).toBe('abababaz');
  });

  it('long match: M = 15, E < 0x80 means length E + 19', () => {
    // 1 literal 'x', then E = 0x01 -> length 20 at offset 1, then 'y'
    const out = decodeLzb16(hex`8C 02 00 06 | F1 78 01 01 00 | 01 79`, 22);
    expect(String.fromCharCode(...out)).toBe('x'.repeat(21) + 'y');
  });

  it('short match: E >= 0x80 means length ((E >> 3) & 15) + 4 at offset E & 7 (offsets 2..7 inferred)', () => {
    // 'abc' then E = 0b1_0001_011 = 0x8B -> length 1 + 4 = 5, offset 3 -> 'abcab', then 1 literal
    const out = decodeLzb16(hex`8C 02 00 06 | F3 61 62 63 8B | 01 21`, 9);
    expect(String.fromCharCode(...out)).toBe('abcabcab!');
    expect(COMPRESS_HYPOTHESES.shortMatch.status).toBe('inferred');
  });

  it('refuses offset 0, offsets before the chunk start and overflowing matches with typed errors', () => {
    expect(() => decodeLzb16(hex`8C 02 00 04 | 11 61 00 00 | 00`, 6)).toThrow(/offset 0/);
    expect(() => decodeLzb16(hex`8C 02 00 04 | 11 61 05 00 | 00`, 6)).toThrow(/before the start/);
    expect(() => decodeLzb16(hex`8C 02 00 04 | F1 61 7E 01 00`, 10)).toThrow(/overflows the declared raw size/);
    expect(() => decodeLzb16(hex`8C 02 00 03 03 61 62 63 FF`, 3)).toThrow(/trailing/);
    expect(() => decodeLzb16(hex`8C 02 00 09 03 61 62 63`, 3)).toThrow(/runs past the payload/);
    expect(() => decodeLzb16(hex`8C 06 00 03 03 61 62 63`, 3)).toThrow(/not LZB16/);
  });

  it('strict mode refuses the open hypotheses, naming them; lax mode decodes them', () => {
    const lits = new Uint8Array(270 + 1).fill(0x41);
    // literal extension 0xFF then 0x01: chain reading = 15 + 255 + 1 = 271 literals
    // quantum input: token + 2 extension bytes + 271 literals = 274 bytes -> header 273
    const chained = new Uint8Array([0x8c, 0x02, 273 >> 8, 273 & 0xff, 0x0f, 0xff, 0x01, ...lits]);
    let err: unknown;
    try {
      decodeLzb16(chained, 271);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(UnsupportedError);
    expect((err as UnsupportedError).variant).toBe(COMPRESS_HYPOTHESES.literalChain.id);
    expect(decodeLzb16(chained, 271, { strict: false }).length).toBe(271);

    const long = hex`8C 02 00 04 | F1 78 7F 01 00`;
    expect(() => decodeLzb16(long, 147)).toThrow(/lzb16.longMatch/);
    expect(decodeLzb16(long, 147, { strict: false }).every((b) => b === 0x78)).toBe(true);

    expect(() => decodeLzb16(hex`8C 02 40 00 00`, 1)).toThrow(/lzb16.quantumFlags/);
    expect(() => decodeLzb16(hex`8C 02 00 00 00`, 0x4001)).toThrow(/lzb16.multiQuantum/);
  });

  it('lax mode reads a two-quantum chunk under the multi-quantum hypothesis', () => {
    const a = encodeLzb16(new Uint8Array(0x4000).fill(7))!;
    const b = encodeLzb16(new Uint8Array(16).fill(7))!;
    const stream = new Uint8Array([...a, ...b.subarray(2)]);
    const out = decodeLzb16(stream, 0x4010, { strict: false });
    expect(out.length).toBe(0x4010);
    expect(out.every((x) => x === 7)).toBe(true);
  });
});

describe('LZB16 encoder and decoder agree (property)', () => {
  it('decode(encode(x)) = x for repetitive data', () => {
    const seed = propertySeed();
    const chunk = fc.array(fc.constantFrom(...'the quick brown fox \\worlds\\retail\\'.split('')), { minLength: 1, maxLength: 40 }).map((a) => a.join(''));
    fc.assert(
      fc.property(fc.array(chunk, { minLength: 1, maxLength: 60 }), (parts) => {
        const data = new TextEncoder().encode(parts.join(parts[0]!));
        if (data.length > 0x4000) return;
        const enc = encodeLzb16(data);
        if (enc === undefined) return;
        expect(Buffer.from(decodeLzb16(enc, data.length)).equals(Buffer.from(data))).toBe(true);
      }),
      { seed, numRuns: 200 },
    );
  });

  it.each(ENGINES)('mutated real chunks give typed errors or bounded output, never a crash (engine %s)', (engine) => {
    const seed = propertySeed();
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 3 }), fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 4 }), fc.integer({ min: -4, max: 4 }), (which, flips, sizeDelta) => {
        const { payload, expected } = realChunks[which]!;
        const m = payload.slice();
        for (const [at, v] of flips) m[at % m.length] = v;
        const raw = Math.max(0, expected.length + sizeDelta);
        try {
          const out = decodeLzb16(m, raw, { engine });
          expect(out.length).toBe(raw);
        } catch (e) {
          expect(e).toBeInstanceOf(ToolkitError);
        }
      }),
      { seed, numRuns: 400 },
    );
  });
});

/**
 * The grammar of the module comment read one byte at a time, with none of the decoder's word copies or fast
 * path (lax: every hypothesis accepted, single quantum). Used only to check the decoder against it.
 */
function referenceDecode(p: Uint8Array, rawSize: number): Uint8Array | 'error' {
  const out = new Uint8Array(rawSize);
  if (p.length < 4 || p[0] !== 0x8c || p[1] !== 0x02 || p[2]! >> 6 !== 0) return 'error';
  const qEnd = 4 + (((p[2]! << 8) | p[3]!) & 0x3fff) + 1;
  if (qEnd !== p.length || rawSize > 0x4000) return 'error';
  let pos = 4;
  let op = 0;
  const byte = (): number => (pos < qEnd ? p[pos++]! : -1);
  while (op < rawSize) {
    const t = byte();
    if (t < 0) return 'error';
    let lit = t & 15;
    if (lit === 15) {
      let e;
      do {
        e = byte();
        if (e < 0) return 'error';
        lit += e;
      } while (e === 0xff);
    }
    for (let k = 0; k < lit; k++) {
      const b = byte();
      if (b < 0 || op >= rawSize) return 'error';
      out[op++] = b;
    }
    if (op === rawSize) break;
    let len = (t >> 4) + 4;
    let dist;
    if (t >> 4 === 15) {
      const e = byte();
      if (e < 0) return 'error';
      if (e < 0x80) len = e + 19;
      else {
        len = ((e >> 3) & 15) + 4;
        dist = e & 7;
      }
    }
    if (dist === undefined) {
      const lo = byte();
      const hi = byte();
      if (lo < 0 || hi < 0) return 'error';
      dist = lo | (hi << 8);
    }
    if (dist === 0 || dist > op || len > rawSize - op) return 'error';
    for (let k = 0; k < len; k++, op++) out[op] = out[op - dist]!;
  }
  return pos === qEnd ? out : 'error';
}

describe('LZB16 decoder against a byte-at-a-time reading of the grammar (property)', () => {
  // text-like data: a few words repeated at every distance, literal runs of every length, runs of one byte
  const data = fc
    .array(
      fc.oneof(
        fc.constantFrom('worlds\\retail\\', 'sectionsandlayers', '.bndl', ' end\n', 'local ', 'x'),
        fc.uint8Array({ minLength: 1, maxLength: 300 }).map((b) => String.fromCharCode(...b)),
        fc.tuple(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 1, max: 200 })).map(([c, n]) => String.fromCharCode(c).repeat(n)),
      ),
      { minLength: 1, maxLength: 120 },
    )
    .map((parts) => Uint8Array.from(parts.join(''), (c) => c.charCodeAt(0) & 0xff).subarray(0, 0x4000));

  it.each(ENGINES)('gives the same bytes on encoder output (engine %s)', (engine) => {
    fc.assert(
      fc.property(data, (raw) => {
        const enc = encodeLzb16(raw);
        if (enc === undefined) return;
        const out = decodeLzb16(enc, raw.length, { strict: false, engine });
        expect(Buffer.from(out).equals(Buffer.from(raw))).toBe(true);
        expect(Buffer.from(referenceDecode(enc, raw.length) as Uint8Array).equals(Buffer.from(raw))).toBe(true);
      }),
      { seed: propertySeed(), numRuns: 150 },
    );
  });

  it.each(ENGINES)('accepts and rejects the same mutated streams, with the same bytes when it accepts (engine %s)', (engine) => {
    fc.assert(
      fc.property(data, fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 6 }), fc.integer({ min: -40, max: 40 }), (raw, flips, sizeDelta) => {
        const enc = encodeLzb16(raw);
        if (enc === undefined) return;
        const m = enc.slice();
        for (const [at, v] of flips) m[4 + (at % (m.length - 4))] = v;
        const rawSize = Math.min(0x4000, Math.max(0, raw.length + sizeDelta));
        const expected = referenceDecode(m, rawSize);
        let actual: Uint8Array | 'error';
        try {
          actual = decodeLzb16(m, rawSize, { strict: false, engine });
        } catch (e) {
          expect(e).toBeInstanceOf(FormatError);
          actual = 'error';
        }
        if (expected === 'error' || actual === 'error') expect(actual).toBe(expected);
        else expect(Buffer.from(actual).equals(Buffer.from(expected))).toBe(true);
      }),
      { seed: propertySeed(), numRuns: 300 },
    );
  });

  it('decodes into a range of a larger buffer and never writes outside it, even when the stream is damaged', () => {
    const raw = new TextEncoder().encode('sectionsandlayers\\fortwallgameplay.bndl '.repeat(60));
    const enc = encodeLzb16(raw)!;
    const target = new Uint8Array(raw.length + 200).fill(0xee);
    decodeLzb16Into(enc, target, 100, raw.length);
    expect(Buffer.from(target.subarray(100, 100 + raw.length)).equals(Buffer.from(raw))).toBe(true);
    expect(target.subarray(0, 100).every((b) => b === 0xee) && target.subarray(100 + raw.length).every((b) => b === 0xee)).toBe(true);
    // a match reaching before the range is refused even though the buffer has bytes there
    const before = new Uint8Array(300).fill(0xee);
    expect(() => decodeLzb16Into(hex`8C 02 00 04 | 11 61 05 00 | 00`, before, 100, 6)).toThrow(/before the start/);
    // a stream that would run past the range stops at its end with a typed error
    const short = new Uint8Array(raw.length + 100).fill(0xee);
    expect(() => decodeLzb16Into(enc, short, 100, raw.length - 50)).toThrow(FormatError);
    expect(short.subarray(100 + raw.length - 50).every((b) => b === 0xee)).toBe(true);
    expect(() => decodeLzb16Into(enc, short, 200, raw.length)).toThrow(/do not fit/);
  });
});

describe('LZB16 decoder on token streams of every near shape (property)', () => {
  // Streams written token by token: 0–14 literals, near matches of 4–18 bytes at any offset (1–7 overlap their own
  // output), now and then a long match; decoded into the middle of a buffer, compared with the byte-at-a-time reading.
  const tokens = fc.array(
    fc.record({ lit: fc.integer({ min: 0, max: 14 }), len: fc.oneof(fc.integer({ min: 4, max: 18 }), fc.integer({ min: 19, max: 60 })), dist: fc.integer({ min: 1, max: 400 }), byte: fc.integer({ min: 0, max: 255 }) }),
    { minLength: 1, maxLength: 300 },
  );
  it.each(ENGINES)('gives the bytes of the reference and writes nothing outside its range (engine %s)', (engine) => {
    fc.assert(
      fc.property(tokens, (list) => {
        const body: number[] = [];
        let produced = 0;
        for (const t of list) {
          const lit = produced === 0 ? Math.max(1, t.lit) : t.lit;
          const dist = Math.min(t.dist, produced + lit);
          if (produced + lit + t.len > 0x4000) break;
          body.push((lit & 15) | ((t.len <= 18 ? t.len - 4 : 15) << 4));
          for (let k = 0; k < lit; k++) body.push((t.byte + k * 37) & 0xff);
          if (t.len > 18) body.push(t.len - 19);
          body.push(dist & 0xff, dist >> 8);
          produced += lit + t.len;
        }
        const stream = Uint8Array.from([0x8c, 0x02, (body.length - 1) >> 8, (body.length - 1) & 0xff, ...body]);
        const expected = referenceDecode(stream, produced) as Uint8Array;
        const target = new Uint8Array(produced + 64).fill(0xee);
        decodeLzb16Into(stream, target, 32, produced, { engine });
        // a valid stream of the verified grammar: the WebAssembly module takes it itself (no fallback hides its bugs)
        if (engine === 'auto') expect(runWasm(stream, produced)).toEqual({ status: 0, out: expected });
        expect(Buffer.from(target.subarray(32, 32 + produced)).equals(Buffer.from(expected))).toBe(true);
        expect(target.subarray(0, 32).every((b) => b === 0xee) && target.subarray(32 + produced).every((b) => b === 0xee)).toBe(true);
      }),
      { seed: propertySeed(), numRuns: 200 },
    );
  });
});

describe('LZB16 decoder on long and overlapping matches up to the quantum end (property)', () => {
  // The WebAssembly fast loop's own paths: matches at offsets 1–9 (1–7 build their repeating pattern in a register),
  // long matches of 19–145 bytes at every offset (copied as 32 bytes, then in words), literal runs of 0–14, and the
  // last tokens of the quantum, where the loop hands over to the careful one.
  const tokens = fc.array(
    fc.record({
      lit: fc.integer({ min: 0, max: 14 }),
      len: fc.oneof(fc.integer({ min: 4, max: 18 }), fc.integer({ min: 19, max: 145 }), fc.constantFrom(19, 32, 33, 40, 41, 145)),
      dist: fc.oneof(fc.integer({ min: 1, max: 9 }), fc.integer({ min: 1, max: 64 }), fc.integer({ min: 1, max: 0x4000 })),
      byte: fc.integer({ min: 0, max: 255 }),
    }),
    { minLength: 1, maxLength: 400 },
  );
  it.each(ENGINES)('gives the bytes of the reference; the WebAssembly module takes every such stream (engine %s)', (engine) => {
    fc.assert(
      fc.property(tokens, fc.integer({ min: 0, max: 14 }), (list, tail) => {
        const body: number[] = [];
        let produced = 0;
        for (const t of list) {
          const lit = produced === 0 ? Math.max(1, t.lit) : t.lit;
          const dist = Math.min(t.dist, produced + lit);
          if (produced + lit + t.len + tail > 0x4000) break;
          body.push((lit & 15) | ((t.len <= 18 ? t.len - 4 : 15) << 4));
          for (let k = 0; k < lit; k++) body.push((t.byte + k * 37) & 0xff);
          if (t.len > 18) body.push(t.len - 19);
          body.push(dist & 0xff, dist >> 8);
          produced += lit + t.len;
        }
        // the last token: literals only
        body.push(tail);
        for (let k = 0; k < tail; k++) body.push((k * 11) & 0xff);
        produced += tail;
        const stream = Uint8Array.from([0x8c, 0x02, (body.length - 1) >> 8, (body.length - 1) & 0xff, ...body]);
        const expected = referenceDecode(stream, produced);
        if (expected === 'error') return; // a stream whose only token is its 0-literal tail
        if (engine === 'auto') expect(runWasm(stream, produced)).toEqual({ status: 0, out: expected });
        expect(Buffer.from(decodeLzb16(stream, produced, { engine })).equals(Buffer.from(expected))).toBe(true);
      }),
      { seed: propertySeed(), numRuns: 200 },
    );
  });
});

/** What the WebAssembly module answers for a payload: 0 and its bytes when it takes the chunk, 1 when it leaves it. */
function runWasm(payload: Uint8Array, rawSize: number): { status: number; out: Uint8Array } {
  const wasm = lzb16Wasm()!;
  wasm.memory.set(payload, LZB16_WASM_INPUT);
  const status = wasm.decode(LZB16_WASM_INPUT + 2, LZB16_WASM_INPUT + payload.length, rawSize);
  return { status, out: wasm.memory.slice(0, rawSize) };
}

describe('LZB16 WebAssembly decoder', () => {
  const run = runWasm;
  const wasm = lzb16Wasm();
  it('is built and instantiated on Node (a module that failed to validate would silently leave everything to JavaScript)', () => {
    expect(WebAssembly.validate(lzb16WasmBytes())).toBe(true);
    expect(wasm).not.toBeNull();
  });

  it('takes the four real chunks itself and gives their bytes', () => {
    for (const { payload, expected } of realChunks) {
      const { status, out } = run(payload, expected.length);
      expect(status).toBe(0);
      expect(Buffer.from(out).equals(Buffer.from(expected))).toBe(true);
    }
  });

  it('takes every verified shape itself: literal extension, long and short matches, overlapping copies, two quanta', () => {
    const lits = Array.from({ length: 17 }, (_, i) => i + 1);
    expect(run(new Uint8Array([0x8c, 0x02, 0x00, 18, 0x0f, 0x02, ...lits]), 17)).toEqual({ status: 0, out: Uint8Array.from(lits) });
    expect(String.fromCharCode(...run(hex`8C 02 00 06 | 12 61 62 02 00 | 01 7A`, 8).out)).toBe('abababaz');
    expect(String.fromCharCode(...run(hex`8C 02 00 06 | F1 78 01 01 00 | 01 79`, 22).out)).toBe('x'.repeat(21) + 'y');
    expect(run(hex`8C 02 00 06 | F3 61 62 63 8B | 01 21`, 9)).toEqual({ status: 0, out: new TextEncoder().encode('abcabcab!') });
    const a = encodeLzb16(new Uint8Array(0x4000).fill(7))!;
    const b = encodeLzb16(new Uint8Array(16).fill(7))!;
    const two = run(new Uint8Array([...a, ...b.subarray(2)]), 0x4010);
    expect(two.status).toBe(0);
    expect(two.out.every((x) => x === 7)).toBe(true);
  });

  it('leaves the open hypotheses and malformed input to the JavaScript decoder', () => {
    const chained = new Uint8Array([0x8c, 0x02, 273 >> 8, 273 & 0xff, 0x0f, 0xff, 0x01, ...new Uint8Array(271).fill(0x41)]);
    expect(run(chained, 271).status).toBe(1);
    expect(run(hex`8C 02 00 04 | F1 78 7F 01 00`, 147).status).toBe(1);
    expect(run(hex`8C 02 40 00 00`, 1).status).toBe(1);
    expect(run(hex`8C 02 00 04 | 11 61 00 00 | 00`, 6).status).toBe(1);
    expect(run(hex`8C 02 00 04 | 11 61 05 00 | 00`, 6).status).toBe(1);
    expect(run(hex`8C 02 00 04 | F1 61 7E 01 00`, 10).status).toBe(1);
    expect(run(hex`8C 02 00 03 03 61 62 63 FF`, 3).status).toBe(1);
    expect(run(hex`8C 02 00 09 03 61 62 63`, 3).status).toBe(1);
    const { payload, expected } = realChunks[1]!;
    expect(run(payload, expected.length - 1).status).toBe(1);
    expect(run(payload, expected.length + 1).status).toBe(1);
  });

  it('reads nothing outside its memory on the largest payload it takes, whatever the bytes (a trap would escape as a RuntimeError)', () => {
    // a quantum that ends at the payload's end, the payload as large as the module takes: the fast loop and the
    // step table read past that end
    for (const fill of [0x00, 0x0e, 0x41, 0xef, 0xff]) {
      const payload = new Uint8Array(LZB16_WASM_INPUT_MAX).fill(fill);
      payload.set([0x8c, 0x02]);
      const at = LZB16_WASM_INPUT_MAX - 0x4000 - 2;
      payload.set([0x3f, 0xff], at);
      const wasm = lzb16Wasm()!;
      wasm.memory.set(payload, LZB16_WASM_INPUT);
      expect([0, 1]).toContain(wasm.decode(LZB16_WASM_INPUT + at, LZB16_WASM_INPUT + payload.length, 0x4000));
      expect(() => decodeLzb16(payload, 0x4000, { strict: false })).toThrow(FormatError);
    }
  });
});

describe('Kraken through ooz-wasm (optional)', () => {
  it('decodes the two real Kraken chunks', async () => {
    const decoder = new ChunkDecoder();
    const apl = await decoder.decode(loadFixture('oodle', 'kraken.Patch_13_LC.archivepatchloosefiles.1243.bin'), 3749);
    expect(Buffer.from(apl).equals(Buffer.from(loadFixture('archivepatchloosefiles', 'Patch_13_LC.archivepatchloosefiles.txt')))).toBe(true);
    const scripts = await decoder.decode(loadFixture('oodle', 'kraken.Patch_13_LC.fagameplay.scripts.chunk0.10982.bin'), 65536);
    expect(Buffer.from(scripts).equals(Buffer.from(loadFixture('scripts', 'island_fortassault_fagameplay.scripts.first65536.bin')))).toBe(true);
  });

  it('names the package when it is absent, and loads it only when a Kraken chunk is met', async () => {
    let calls = 0;
    const missing = new ChunkDecoder({
      oozLoader: async () => {
        calls++;
        const e = new Error("Cannot find package 'ooz-wasm'") as Error & { code: string };
        e.code = 'ERR_MODULE_NOT_FOUND';
        throw new CodecError(`Kraken-family Oodle chunks need the optional npm package 'ooz-wasm'`, { cause: e });
      },
    });
    const lzb = realChunks[0]!;
    expect((await missing.decode(lzb.payload, lzb.expected.length)).length).toBe(740);
    expect(calls).toBe(0);
    await expect(missing.decode(loadFixture('oodle', 'kraken.Patch_13_LC.archivepatchloosefiles.1243.bin'), 3749)).rejects.toThrow(/ooz-wasm/);
    expect(calls).toBe(1);
  });

  it('wraps a failing decode in a FormatError (code E_CODEC, the chunk offset) and checks the decoded size', async () => {
    const bad = new ChunkDecoder({ oozLoader: async () => ({ decompress: () => new Uint8Array(3) }) });
    await expect(bad.decode(loadFixture('oodle', 'kraken.Patch_13_LC.archivepatchloosefiles.1243.bin'), 3749)).rejects.toThrow(/decoded to 3 bytes, 3749 declared/);
    const real = new ChunkDecoder();
    const k = loadFixture('oodle', 'kraken.Patch_13_LC.archivepatchloosefiles.1243.bin').slice();
    k.fill(0xaa, 20, 200);
    await expect(real.decode(k, 3749, 0x80)).rejects.toMatchObject({ name: 'FormatError', code: 'E_CODEC', offset: 0x80, path: '/chunk' });
  });

  it('reports unsupported codecs by name', () => {
    expect(() => new ChunkDecoder().decodeSync(hex`8C 1F 00 00`, 10)).toThrow(UnsupportedError);
    expect(ChunkDecoder.kindOf(hex`8C 06 00`, 100)).toBe('Kraken');
    expect(ChunkDecoder.kindOf(hex`8C 02 00`, 100)).toBe('LZB16');
    expect(ChunkDecoder.kindOf(hex`01 02 03`, 3)).toBe('raw');
  });
});
