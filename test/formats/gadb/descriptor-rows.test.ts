/**
 * Descriptor rows as the writer lays them out: 15 bytes a row (u32 declared hash, u32 sorted hash, u8 schema
 * ordinal, u8 sorted → declared, u8 type, u16 element count, u16 link; all little-endian), whatever the row count's
 * residue mod 4 (the in-memory writer stores four rows at a time as u32 words from the first 4-aligned row on) and
 * whatever the stream writer's chunk size. The rows are read back here byte by byte, not by the reader. And the
 * reader's side: hand-made rows read into columns at every alignment in memory, through both host paths (the
 * little-endian host reads four rows at a time as u32 words).
 */
import { describe, expect, it } from 'vitest';
import { buildGadb, parseGadbWithLayout, writeGadb, writeGadbTo, type Gadb } from '../../../src/formats/gadb/index.ts';
import { writeGadbOnHost } from '../../../src/formats/gadb/write.ts';
import { readGadbDescriptorRows } from '../../../src/formats/gadb/parse.ts';

/**
 * `categories` categories of one record of `n` Int fields each (hashes spread over every byte); field 1 holds 300
 * elements (a u16 count over 255).
 */
function model(n: number, categories = 1): Gadb {
  return buildGadb({
    rootName: 'Root',
    categories: Array.from({ length: categories }, (_, c) => {
      const fields = Array.from({ length: n }, (_, k) => ({ hash: (Math.imul(c * n + k + 1, 0x9e3779b1) ^ 0x01800000) >>> 0, type: 3 }));
      const values = fields.map((_, k) => (k === 1 ? Array.from({ length: 300 }, (_, e) => e) : [k * 7]));
      return { name: `Cat${c}`, sortKey: c + 1, fields, records: [{ name: `r${c}`, values }] };
    }),
  });
}

/** The rows at `at`, decoded by the layout above. */
function rowsAt(bytes: Uint8Array, at: number, count: number): number[][] {
  const b = (i: number): number => bytes[i]!;
  const u16 = (i: number): number => b(i) | (b(i + 1) << 8);
  const u32 = (i: number): number => (u16(i) | (u16(i + 2) << 16)) >>> 0;
  return Array.from({ length: count }, (_, r) => {
    const p = at + 15 * r;
    return [u32(p), u32(p + 4), b(p + 8), b(p + 9), b(p + 10), u16(p + 11), u16(p + 13)];
  });
}

function modelRows(g: Gadb): number[][] {
  const d = g.descriptors;
  return Array.from({ length: d.count }, (_, i) => [d.declaredHash[i]!, d.sortedHash[i]!, d.schemaOrdinal[i]!, d.sortedToDeclared[i]!, d.typeCode[i]!, d.elementCount[i]!, d.link[i]!]);
}

describe('descriptor rows', () => {
  for (let n = 1; n <= 13; n++) {
    it(`${n} rows: every field at its place, in memory and streamed`, () => {
      const g = model(n);
      expect(g.descriptors.count).toBe(n);
      const bytes = writeGadb(g);
      const { layout } = parseGadbWithLayout(bytes);
      const expected = modelRows(g);
      expect(rowsAt(bytes, layout.descriptorsOffset, n)).toEqual(expected);
      if (n > 1) expect(expected[1]![5]).toBe(300);
      // The row-by-row path (a big-endian host's) and the stream, whose chunks hold 273 rows, give the same bytes.
      expect(Buffer.from(writeGadbOnHost(g, {}, false)).equals(Buffer.from(bytes))).toBe(true);
      const chunks: Uint8Array[] = [];
      writeGadbTo(g, { write: (c) => void chunks.push(c.slice()) }, { chunkSize: 4096 });
      expect(Buffer.concat(chunks).equals(Buffer.from(bytes))).toBe(true);
    });
  }

  it('a table of more rows than a stream chunk holds, cut at chunks of every residue', () => {
    const g = model(100, 3);
    expect(g.descriptors.count).toBe(300);
    const bytes = writeGadb(g);
    const { layout } = parseGadbWithLayout(bytes);
    expect(rowsAt(bytes, layout.descriptorsOffset, 300)).toEqual(modelRows(g));
    for (const chunkSize of [4096, 4096 + 4, 4096 + 8, 4096 + 12]) {
      const chunks: Uint8Array[] = [];
      writeGadbTo(g, { write: (c) => void chunks.push(c.slice()) }, { chunkSize });
      expect(Buffer.concat(chunks).equals(Buffer.from(bytes))).toBe(true);
    }
  });
});

/** Row i (hand-made): declared hash 0xD1C2B3A0 + i, sorted hash 0x5E6F7081 + (i << 8), ordinal 0x10 + i, sorted-to-declared 0x20 + i, type 0x30 + i, element count 0x4140 + i, link 0x5150 + i. */
function row(i: number): number[] {
  const dh = (0xd1c2b3a0 + i) >>> 0;
  const sh = (0x5e6f7081 + (i << 8)) >>> 0;
  const ec = 0x4140 + i;
  const ln = 0x5150 + i;
  const le32 = (v: number) => [v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, v >>> 24];
  return [...le32(dh), ...le32(sh), 0x10 + i, 0x20 + i, 0x30 + i, ec & 0xff, ec >>> 8, ln & 0xff, ln >>> 8];
}

describe('descriptor rows read', () => {
  it('reads every field of every row at every alignment, on both host paths', () => {
    const count = 11;
    const table = Uint8Array.from(Array.from({ length: count }, (_, i) => row(i)).flat());
    expect(table.length).toBe(15 * count);
    for (let shift = 0; shift < 4; shift++) {
      for (const littleEndianHost of [true, false]) {
        const buf = new Uint8Array(table.length + 8);
        buf.set(table, shift + 1);
        // `at` 1 inside a view that starts at `shift`: the rows' memory alignment is (shift + 1) mod 4.
        const bytes = buf.subarray(shift);
        const d = readGadbDescriptorRows(bytes, new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), 1, count, littleEndianHost);
        expect(d.count).toBe(count);
        for (let i = 0; i < count; i++) {
          expect([d.declaredHash[i], d.sortedHash[i], d.schemaOrdinal[i], d.sortedToDeclared[i], d.typeCode[i], d.elementCount[i], d.link[i]]).toEqual([
            (0xd1c2b3a0 + i) >>> 0,
            (0x5e6f7081 + (i << 8)) >>> 0,
            0x10 + i,
            0x20 + i,
            0x30 + i,
            0x4140 + i,
            0x5150 + i,
          ]);
        }
      }
    }
  });
});
