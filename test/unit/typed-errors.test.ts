/**
 * Bad input gets a typed error that says where and what a modder can do (issue 15 item 9): Kraken failures name
 * the chunk's offset and field, `arch verify` counts only the chunks that decoded, an entry's output is not
 * allocated at its declared size before its chunks decode, and the generator's bad scale is a usage error.
 */
import { describe, expect, it } from 'vitest';
import { FormatError, UsageError } from '../../src/binary/errors.ts';
import { ChunkDecoder } from '../../src/compress/codecs.ts';
import { Arch06Archive, decodeArch06Chunks, packArch06 } from '../../src/formats/arch06/index.ts';
import { generateGadb } from '../../src/gamedb/generate/generate.ts';

/** A decoder whose Kraken backend fails the way ooz-wasm does on a damaged chunk. */
const failingOoz = new ChunkDecoder({ oozLoader: async () => ({ decompress: () => { throw new Error('Failed to decode'); } }) });

describe('Kraken failures are FormatErrors with the chunk offset and field path', () => {
  it('a chunk ooz cannot decode', async () => {
    const payload = Uint8Array.of(0x8c, 0x06, 1, 2, 3, 4);
    const e = await failingOoz.decode(payload, 100, 0x1234).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(FormatError);
    expect(e).toMatchObject({ offset: 0x1234, path: '/chunk' });
    expect((e as Error).message).toMatch(/Kraken chunk does not decode.*damaged.*re-extract/);
  });

  it('a chunk that decodes to another size', async () => {
    const short = new ChunkDecoder({ oozLoader: async () => ({ decompress: () => new Uint8Array(3) }) });
    const e = await short.decode(Uint8Array.of(0x8c, 0x06, 0, 0), 100, 0x40).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(FormatError);
    expect((e as Error).message).toMatch(/decoded to 3 bytes, 100 declared/);
  });
});

describe('a Kraken chunk claiming more than one chunk can hold', () => {
  it('is refused before ooz allocates the claim in its heap', async () => {
    let calls = 0;
    const counting = new ChunkDecoder({ oozLoader: async () => ({ decompress: (_d, n) => (calls++, new Uint8Array(n)) }) });
    const e = await counting.decode(Uint8Array.of(0x8c, 0x06, 0, 0), 67_110_540, 0x80).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(FormatError);
    expect(e).toMatchObject({ offset: 0x80, path: '/chunk/rawSize' });
    expect((e as Error).message).toMatch(/declares 67110540 raw bytes; one chunk holds at most 262144/);
    expect(calls).toBe(0);
    // a chunk at the bound decodes
    expect((await counting.decode(Uint8Array.of(0x8c, 0x06, 0, 0), 0x40000)).length).toBe(0x40000);
  });
});

/** Chunk stream of `n` chunks each claiming 65536 raw bytes from an 8-byte LZB16 stub. */
function hugeClaim(n: number): Uint8Array {
  const out = new Uint8Array(n * 16);
  const dv = new DataView(out.buffer);
  for (let i = 0; i < n; i++) {
    dv.setUint32(i * 16, 8, true);
    dv.setUint32(i * 16 + 4, 65536, true);
    out.set([0x8c, 0x02, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff], i * 16 + 8);
  }
  return out;
}

describe('an entry is not allocated at its declared size before its chunks decode', () => {
  it('4096 chunk headers claiming 256 MiB allocate nothing near that before the first chunk fails', async () => {
    const stored = hugeClaim(4096);
    const before = process.memoryUsage().arrayBuffers;
    let atFirstChunk = -1;
    const spy = new ChunkDecoder();
    const real = spy.decodeSync.bind(spy);
    spy.decodeSync = (payload, rawSize, offset, format) => {
      if (atFirstChunk < 0) atFirstChunk = process.memoryUsage().arrayBuffers;
      return real(payload, rawSize, offset, format);
    };
    await expect(decodeArch06Chunks(stored, 4096 * 65536, spy)).rejects.toThrow(FormatError);
    expect(atFirstChunk - before).toBeLessThan(32 * 2 ** 20);
  });
});

describe('arch verify counts only the chunks that decoded', () => {
  it('an entry whose first chunk is damaged reports 0 of 2 chunks decoded', async () => {
    const data = new Uint8Array(70000).map((_, i) => (i * 7) & 0xff);
    const { bytes, index } = packArch06([{ path: 'a.bin', data }], { storage: 'raw-chunks' });
    const file = index.files[0]!;
    const broken = bytes.slice();
    // turn the first (raw) chunk into a Kraken stream header that cannot decode
    const at = file.dataOffset + 8;
    new DataView(broken.buffer).setUint32(file.dataOffset, 65535, true);
    broken[at] = 0x8c;
    broken[at + 1] = 0x06;
    const a = await Arch06Archive.fromBytes(broken, { decoder: failingOoz });
    const { entries } = await a.verify();
    expect(entries[0]).toMatchObject({ chunks: 2, decodedChunks: 0, ok: false });
  });
});

describe('the generator refuses a bad scale with a usage error', () => {
  it.each([0, 2, Number.NaN])('scale %s', (scale) => {
    expect(() => generateGadb({ seed: 1, scale })).toThrow(UsageError);
  });
});
