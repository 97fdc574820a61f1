/**
 * The codec's bulk paths (the value section read as u32 words through a 4-aligned window, records and cells
 * copied word for word) give the same model whatever the host byte order and whatever the input's alignment.
 */
import { describe, expect, it } from 'vitest';
import { GADB_STORAGE_BY_TYPE_BYTE, GadbStorageCode, parseGadb, parseGadbWithLayout, writeGadb, writeGadbTo, type Gadb } from '../../../src/formats/gadb/index.ts';
import { gadbUnderivedItemStarts, parseGadbOnHost } from '../../../src/formats/gadb/parse.ts';
import { writeGadbOnHost } from '../../../src/formats/gadb/write.ts';
import { generateGadb } from '../../../src/gamedb/generate/index.ts';
import { loadFixture } from '../../support/fixtures.ts';
import { SYNTHETIC } from './synthetic.ts';

/** A generated file over 1 MB: records cross the reader's 512 KB window, many have more than 16 cells. */
const generated = writeGadb(generateGadb({ seed: 3, scale: 0.02 }).gadb);
const inputs: [string, Uint8Array][] = [
  ['landmine_curse.fxp', loadFixture('gadb', 'landmine_curse.fxp')],
  ['synthetic', SYNTHETIC],
  ['generated (seed 3, scale 0.02)', generated],
];

/** `bytes` copied into a larger buffer at `shift`, as a subarray (odd `byteOffset`). */
function shifted(bytes: Uint8Array, shift: number): Uint8Array {
  const big = new Uint8Array(bytes.byteLength + 8).fill(0xa5);
  big.set(bytes, shift);
  return big.subarray(shift, shift + bytes.byteLength);
}

/** Deep equality that compares typed arrays as bytes (fast on megabyte models); throws naming the first difference. */
function expectSame(actual: unknown, expected: unknown, path = ''): void {
  if (ArrayBuffer.isView(expected)) {
    expect(ArrayBuffer.isView(actual), path).toBe(true);
    const a = actual as Uint8Array;
    const e = expected as Uint8Array;
    expect(a.constructor.name, path).toBe(e.constructor.name);
    expect(Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(e.buffer, e.byteOffset, e.byteLength)), path).toBe(true);
    return;
  }
  if (typeof expected === 'object' && expected !== null) {
    expect(typeof actual, path).toBe('object');
    const keys = Object.keys(expected);
    expect(Object.keys(actual as object).sort(), path).toEqual(keys.sort());
    for (const k of keys) expectSame((actual as Record<string, unknown>)[k], (expected as Record<string, unknown>)[k], `${path}/${k}`);
    return;
  }
  expect(actual, path).toBe(expected);
}

describe('GADB fast paths', () => {
  it('the generated input exercises the window and the bulk cell copy', () => {
    expect(generated.byteLength).toBeGreaterThan(1 << 20);
    const g = parseGadb(generated);
    expect(g.records.cellCount.some((n) => n > 16)).toBe(true);
    expect(g.records.cellCount.some((n) => n > 0 && n <= 16)).toBe(true);
  });

  for (const [name, bytes] of inputs) {
    it(`${name}: the big-endian host path reads the same model and layout`, () => {
      const le = parseGadbOnHost(bytes, {}, true);
      const be = parseGadbOnHost(bytes, {}, false);
      expectSame(be, le);
      expectSame(le, parseGadbWithLayout(bytes));
    });

    it(`${name}: the big-endian host path writes the same bytes, in both string orders`, () => {
      const g = parseGadb(bytes);
      expect(Buffer.from(writeGadbOnHost(g, {}, false)).equals(Buffer.from(bytes))).toBe(true);
      expect(Buffer.from(writeGadbOnHost(g, { stringOrder: 'model' }, false)).equals(Buffer.from(writeGadbOnHost(g, { stringOrder: 'model' }, true)))).toBe(true);
    });

    it(`${name}: subarray inputs at every byteOffset mod 4 parse alike and rebuild byte for byte`, () => {
      const reference = parseGadbWithLayout(bytes);
      for (const shift of [1, 2, 3, 4]) {
        const input = shifted(bytes, shift);
        expect(input.byteOffset % 4).toBe(shift % 4);
        const got = parseGadbWithLayout(input);
        expectSame(got, reference);
        expectSame(parseGadbOnHost(input, {}, false), reference);
        expect(Buffer.from(writeGadb(got.gadb)).equals(Buffer.from(bytes))).toBe(true);
      }
    });
  }

  // A viewing model derives its items on first use; the writer's fast path reads where they start (the same bits
  // the columns are made of) and derives no column. It must write what the model whose columns were read first
  // writes, unchanged (the file) or with two names swapped (items out of first-use order: the planner moves them).
  for (const [name, bytes] of inputs) {
    it(`${name}: writing a viewing model derives none of its item columns, and writes as the model that derived them`, () => {
      for (const swapNames of [false, true]) {
        const edit = (g: Gadb): Gadb => {
          if (swapNames) {
            const a = g.categories[0]!.primaryCount;
            const b = g.records.count - 1;
            [g.records.nameKey[a], g.records.nameKey[b]] = [g.records.nameKey[b]!, g.records.nameKey[a]!];
          }
          return g;
        };
        const lazy = edit(parseGadb(bytes.slice()));
        const derived = edit(parseGadb(bytes.slice()));
        void derived.strings.itemKeys;
        expect(gadbUnderivedItemStarts(derived.strings)).toBeUndefined();
        const out = writeGadb(lazy);
        // (The planner, which the swap calls for, reads the columns.)
        if (!swapNames) expect(gadbUnderivedItemStarts(lazy.strings), 'still underived').toBeDefined();
        expect(Buffer.from(out).equals(Buffer.from(writeGadb(derived))), `names swapped: ${swapNames}`).toBe(true);
        if (!swapNames) expect(Buffer.from(out).equals(Buffer.from(bytes))).toBe(true);
        // Read afterwards, the columns are the file's (the bits the writer read, made into items).
        expect(Array.from(lazy.strings.itemKeys)).toEqual(Array.from(parseGadb(bytes, { owned: true }).strings.itemKeys));
        expect(gadbUnderivedItemStarts(lazy.strings)).toBeUndefined();
      }
    });
  }

  // The in-memory writer checks the first-use rule over a list of block-cell slots per run, clipped to a record's
  // own cells when the run's fields reach past them, and hands a run whose list would pass its cap to the planner;
  // the stream always plans. A block field grown past its records' cells (elements over other fields' cells, read as
  // references) must come out of both alike, below the cap and past it.
  it('a block field grown past its records writes as the stream plans it (clipped slot lists, and past their cap)', () => {
    for (const count of [3, 40, 5000]) {
      const g = parseGadb(generated.slice());
      const d = g.descriptors;
      let k = 0;
      while (k < d.count && (GADB_STORAGE_BY_TYPE_BYTE[d.typeCode[k]!] !== GadbStorageCode.Block || d.elementCount[k] === 0)) k++;
      expect(k).toBeLessThan(d.count);
      d.elementCount[k] = count;
      const parts: Buffer[] = [];
      writeGadbTo(g, { write: (c) => void parts.push(Buffer.from(c)) });
      const out = writeGadb(g);
      expect(Buffer.from(out).equals(Buffer.concat(parts)), `element count ${count}`).toBe(true);
    }
  });

  it('the header counts only size the record columns: wrong ones (too small, too large) read the same model', () => {
    const reference = parseGadbWithLayout(generated);
    for (const [secondaries, primaries] of [[0, 0], [1, 2], [0x7fffffff, 0x7fffffff], [reference.gadb.records.count * 3, 0]] as const) {
      const patched = generated.slice();
      const dv = new DataView(patched.buffer, patched.byteOffset, patched.byteLength);
      dv.setUint32(0x10, secondaries, true);
      dv.setUint32(0x14, primaries, true);
      const got = parseGadbWithLayout(patched);
      expect(got.gadb.header.recordCount).toBe(secondaries);
      got.gadb.header.recordCount = reference.gadb.header.recordCount;
      got.gadb.header.unk14 = reference.gadb.header.unk14;
      expectSame(got, reference);
    }
  });
});
