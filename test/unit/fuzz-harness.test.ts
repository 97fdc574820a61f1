/** The fuzz harness's case generator: structure-aware, deterministic per case number (so hangs can be replayed). */
import { describe, expect, it } from 'vitest';
import { buildStrdb, parseStrdb, writeStrdb } from '../../src/formats/strdb/strdb.ts';
import { CaseGenerator, traceFields } from '../../fuzz/mutate.ts';

const seed = writeStrdb(buildStrdb([{ id: 1, text: 'ab' }, { id: 2, text: 'c' }]));

describe('fuzz case generator', () => {
  it('traces the fields the reader reads (header u32s, entries, UTF-16 units) plus every aligned u32', async () => {
    const map = await traceFields(seed, (b) => parseStrdb(b));
    for (const off of [4, 8, 12, 16, 20, 24, 28, 32, 36, 40]) expect(map.u32).toContain(off);
    // the text is read as u16 units after the 28-byte header and 2 entries of 8 bytes
    expect(map.u16).toContain(44);
    expect(map.boundaries[0]).toBe(0);
    expect(map.boundaries[map.boundaries.length - 1]).toBe(seed.length);
  });

  it('walks truncations, then u32 values 0/1/0x7FFFFFFF/0xFFFFFFFF and inflations on even cases, random stacks on odd ones', async () => {
    const map = await traceFields(seed, (b) => parseStrdb(b));
    const gen = new CaseGenerator([seed], [map], 7);
    expect(gen.input(0)).toEqual(seed.subarray(0, map.boundaries[0]!));
    expect(gen.input(2)).toEqual(seed.subarray(0, map.boundaries[1]!));
    const firstU32 = 2 * map.boundaries.length;
    const set = (v: number) => {
      const b = seed.slice();
      new DataView(b.buffer).setUint32(map.u32[0]!, v, true);
      return b;
    };
    expect(gen.input(firstU32)).toEqual(set(0));
    expect(gen.input(firstU32 + 2)).toEqual(set(1));
    expect(gen.input(firstU32 + 4)).toEqual(set(0x7fffffff));
    expect(gen.input(firstU32 + 6)).toEqual(set(0xffffffff));
    expect(gen.input(firstU32 + 8)).toEqual(set(new DataView(seed.buffer).getUint32(map.u32[0]!, true) + 1));
    expect(gen.deterministicCases).toBe(map.boundaries.length + 9 * map.u32.length + 3 * map.u16.length);
  });

  it('builds the same input for the same case number, and never modifies the seeds', async () => {
    const copy = seed.slice();
    const map = await traceFields(seed, (b) => parseStrdb(b));
    const a = new CaseGenerator([seed], [map], 99);
    const b = new CaseGenerator([seed], [map], 99);
    for (const i of [1, 3, 101, 5001, 2 * a.deterministicCases + 17]) expect(a.input(i)).toEqual(b.input(i));
    expect(seed).toEqual(copy);
  });
});
