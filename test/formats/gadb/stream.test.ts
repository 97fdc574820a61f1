/**
 * The streaming writer (`writeGadbTo`, and `writeGadbFile` its file sink) gives the bytes of `writeGadb` in every
 * layout case (string block kept, items moved or dropped by the first-use rule, the model's order, either host
 * byte order), never more than a chunk buffer at a time, and writes nothing for a model `validateGadb` refuses.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConsistencyError } from '../../../src/binary/errors.ts';
import { parseGadb, writeGadb, writeGadbTo, type Gadb, type WriteGadbOptions } from '../../../src/formats/gadb/index.ts';
import { writeGadbToOnHost } from '../../../src/formats/gadb/write.ts';
import { generateGadb } from '../../../src/gamedb/generate/index.ts';
import { writeGadbFile } from '../../../src/node/gamedb.ts';
import { loadFixture } from '../../support/fixtures.ts';
import { SYNTHETIC } from './synthetic.ts';

const landmine = loadFixture('gadb', 'landmine_curse.fxp');
/** Over 1 MB, records with more than 16 cells: many chunks at 4 KiB. */
const generated = writeGadb(generateGadb({ seed: 3, scale: 0.02 }).gadb);

/** The stream's chunks, each copied as it arrives (the writer reuses its buffers). */
function collect(g: Gadb, options: WriteGadbOptions & { chunkSize?: number } = {}, littleEndianHost = true): { bytes: Buffer; chunks: number[]; returned: number } {
  const parts: Buffer[] = [];
  const returned = writeGadbToOnHost(g, { write: (c) => void parts.push(Buffer.from(c)) }, options, littleEndianHost);
  return { bytes: Buffer.concat(parts), chunks: parts.map((p) => p.byteLength), returned };
}

/** The first secondary's name swapped with the last record's: items out of first-use order (the writer moves them). */
function outOfOrder(bytes: Uint8Array): Gadb {
  const h = parseGadb(bytes, { owned: true });
  const first = h.categories[0]!.primaryCount;
  const last = h.records.count - 1;
  const a = h.records.nameKey[first]!;
  h.records.nameKey[first] = h.records.nameKey[last]!;
  h.records.nameKey[last] = a;
  return h;
}

/** Record 7 renamed to record 12's name: the old name's item is reached by nothing and dropped. */
function withUnusedItem(bytes: Uint8Array): Gadb {
  const g = parseGadb(bytes, { owned: true });
  g.records.nameKey[7] = g.records.nameKey[12]!;
  return g;
}

const models: [string, () => Gadb][] = [
  ['landmine_curse.fxp', () => parseGadb(landmine)],
  ['synthetic', () => parseGadb(SYNTHETIC)],
  ['generated (seed 3, scale 0.02)', () => parseGadb(generated)],
  ['generated, built (no cellStart)', () => generateGadb({ seed: 3, scale: 0.005 }).gadb],
  ['landmine, items out of first-use order', () => outOfOrder(landmine)],
  ['generated, items out of first-use order', () => outOfOrder(generated)],
  ['landmine, an unreferenced item', () => withUnusedItem(landmine)],
];

describe('writeGadbTo', () => {
  for (const [name, make] of models) {
    it(`${name}: the same bytes as writeGadb, in both string orders, both host byte orders, any chunk size`, () => {
      const g = make();
      for (const stringOrder of ['first-use', 'model'] as const) {
        const expected = Buffer.from(writeGadb(g, { stringOrder }));
        for (const [chunkSize, le] of [[4096, true], [5000, false], [undefined, true]] as const) {
          const got = collect(g, { stringOrder, chunkSize }, le);
          expect(got.bytes.equals(expected), `${stringOrder}, chunk ${chunkSize}, ${le ? 'LE' : 'BE'}`).toBe(true);
          expect(got.returned).toBe(expected.byteLength);
        }
      }
    });
  }

  it('the written files are the originals where the rule keeps them (the inputs are real layouts)', () => {
    expect(collect(parseGadb(landmine)).bytes.equals(Buffer.from(landmine))).toBe(true);
    expect(collect(parseGadb(generated), { chunkSize: 4096 }).bytes.equals(Buffer.from(generated))).toBe(true);
    // ...and the moved case really moves items (else the test above would not cover the planned layout).
    expect(Buffer.from(writeGadb(outOfOrder(generated))).equals(Buffer.from(generated))).toBe(false);
  });

  it('holds one chunk at a time: beside the string block (the model’s own bytes), no chunk exceeds the chunk size or the largest record', () => {
    const g = parseGadb(generated);
    const largest = Math.max(...g.records.cellCount) * 4 + 12;
    const { chunks } = collect(g, { chunkSize: 4096 });
    const block = g.header.stringBlockSize;
    expect(chunks).toContain(block);
    const others = chunks.filter((n, i) => !(n === block && i === chunks.indexOf(block)));
    expect(others.length).toBeGreaterThan(generated.byteLength / 4096 / 2);
    for (const n of others) expect(n).toBeLessThanOrEqual(Math.max(4096, largest));
  });

  it('writes nothing for a model validateGadb refuses', () => {
    const g = parseGadb(landmine, { owned: true });
    g.records.firstDescriptor[0] = g.descriptors.count + 5;
    let calls = 0;
    expect(() => writeGadbTo(g, { write: () => void calls++ })).toThrow(ConsistencyError);
    expect(calls).toBe(0);
  });

  it('never mutates its argument', () => {
    const g = outOfOrder(landmine);
    const before = JSON.stringify(g, (_k, v: unknown) => (ArrayBuffer.isView(v) ? Array.from(v as Uint8Array) : v));
    collect(g, { chunkSize: 4096 });
    expect(JSON.stringify(g, (_k, v: unknown) => (ArrayBuffer.isView(v) ? Array.from(v as Uint8Array) : v))).toBe(before);
  });
});

describe('writeGadbFile', () => {
  const dir = mkdtempSync(join(tmpdir(), 'scry-gadb-stream-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes the file writeGadb would, refuses to replace one unless asked, then keeps a .bak', () => {
    const path = join(dir, 'out.gamedb');
    const g = parseGadb(generated);
    expect(writeGadbFile(path, g, { chunkSize: 4096 })).toBe(generated.byteLength);
    expect(readFileSync(path).equals(Buffer.from(generated))).toBe(true);
    expect(() => writeGadbFile(path, parseGadb(landmine))).toThrow(/refusing to overwrite/);
    expect(readFileSync(path).equals(Buffer.from(generated))).toBe(true);
    writeGadbFile(path, parseGadb(landmine), { overwrite: true });
    expect(readFileSync(path).equals(Buffer.from(landmine))).toBe(true);
    expect(readFileSync(path + '.bak').equals(Buffer.from(generated))).toBe(true);
  });

  it('a refused model leaves the target as it was and no temporary file behind', () => {
    const path = join(dir, 'kept.fxp');
    writeFileSync(path, landmine);
    const g = parseGadb(landmine, { owned: true });
    g.records.firstDescriptor[0] = g.descriptors.count + 5;
    expect(() => writeGadbFile(path, g, { overwrite: true })).toThrow(ConsistencyError);
    expect(readFileSync(path).equals(Buffer.from(landmine))).toBe(true);
    expect(existsSync(path + '.bak')).toBe(false);
    expect(readdirSync(dir).filter((n) => n.startsWith('.scry-tmp-'))).toEqual([]);
  });
});
