/** Byte round-trip of the real sample, with checks that the writer rebuilds rather than copies, and never mutates. */
import { describe, expect, it } from 'vitest';
import { parseGadb, verifyGadb, writeGadb, type Gadb } from '../../../src/formats/gadb/index.ts';
import { describeDifference } from '../../../src/binary/hexdump.ts';
import { loadFixture } from '../../support/fixtures.ts';

const original = loadFixture('gadb', 'landmine_curse.fxp');

function expectSameBytes(actual: Uint8Array, expected: Uint8Array): void {
  const diff = describeDifference(actual, expected);
  expect(diff, diff).toBe('');
}

/** A deep snapshot of a model (typed arrays as plain arrays) to detect mutation. */
function snapshot(g: Gadb): string {
  return JSON.stringify(g, (_k, v: unknown) => (ArrayBuffer.isView(v) ? Array.from(v as Uint8Array) : v));
}

describe('GADB byte round-trip', () => {
  it('write(parse(x)) equals x for landmine_curse.fxp', () => {
    expectSameBytes(writeGadb(parseGadb(original)), original);
  });

  it('writes the same bytes after the input buffer is zeroed (the model owns its data)', () => {
    const input = original.slice();
    const model = parseGadb(input, { owned: true });
    input.fill(0);
    expectSameBytes(writeGadb(model), original);
  });

  it('writes the same bytes from a structuredClone of the model', () => {
    const model = structuredClone(parseGadb(original));
    expectSameBytes(writeGadb(model), original);
  });

  it('rebuilds the string block: items given in scrambled key order are laid out again by first use', () => {
    // Move every item (except the root) to a new key in reverse order and rewrite the references; the writer must
    // still produce the original file, because the layout comes from the first-use rule, not from the keys.
    const g = parseGadb(original, { owned: true });
    const { itemKeys, itemSizes, data } = g.strings;
    const n = itemKeys.length;
    const newKey = new Map<number, number>([[0, 0]]);
    let at = itemSizes[0]!;
    for (let i = n - 1; i >= 1; i--) {
      newKey.set(itemKeys[i]!, at);
      at += itemSizes[i]!;
    }
    const scrambled = new Uint8Array(at);
    const keys: number[] = [];
    for (const [oldKey, k] of newKey) {
      const i = itemKeys.indexOf(oldKey);
      scrambled.set(data.subarray(oldKey, oldKey + itemSizes[i]!), k);
      keys.push(k);
    }
    const order = keys.map((k, j) => [k, j] as const).sort((a, b) => a[0] - b[0]);
    const sizes = [...newKey.keys()].map((oldKey) => itemSizes[itemKeys.indexOf(oldKey)]!);
    g.strings = { data: scrambled, itemKeys: Uint32Array.from(order.map(([k]) => k)), itemSizes: Uint32Array.from(order.map(([, j]) => sizes[j]!)) };
    const remap = (k: number) => newKey.get(k) ?? k;
    for (const c of g.categories) {
      c.nameKey = remap(c.nameKey);
      c.typeNameKey = remap(c.typeNameKey);
      c.unk08Key = remap(c.unk08Key);
    }
    g.records.nameKey = g.records.nameKey.map(remap);
    // Block cells, found from the descriptors independently of the library's own walk.
    const blockCells = blockCellIndexes(parseGadb(original, { owned: true }));
    for (const k of blockCells) g.cells[k] = remap(g.cells[k]!);
    expectSameBytes(writeGadb(g), original);
    expectSameBytes(writeGadb(g, { stringOrder: 'model' }).subarray(0, 0x36), original.subarray(0, 0x36));
  });

  it('drops an item no name or cell references, and moves items first used out of key order', () => {
    const names = (m: Gadb): string[] => Array.from(m.records.nameKey, (k) => String.fromCharCode(...m.strings.data.subarray(k, m.strings.data.indexOf(0, k))));
    // Record "0" renamed to "1"'s item: the block still tiles in key order, but the "0" item is reached by nothing.
    const g = parseGadb(original, { owned: true });
    const k0 = g.records.nameKey[7]!;
    const size0 = g.strings.itemSizes[g.strings.itemKeys.indexOf(k0)]!;
    g.records.nameKey[7] = g.records.nameKey[12]!;
    const dropped = parseGadb(writeGadb(g));
    expect(dropped.strings.data.byteLength).toBe(g.strings.data.byteLength - size0);
    expect(names(dropped)).toEqual(names(g));
    expect(verifyGadb(dropped).filter((i) => i.severity === 'error')).toEqual([]);
    // The first secondary's name swapped with the last record's: items out of first-use order, the block tiled.
    const h = parseGadb(original, { owned: true });
    const last = h.records.count - 1;
    const first = h.categories[0]!.primaryCount;
    const a = h.records.nameKey[first]!;
    h.records.nameKey[first] = h.records.nameKey[last]!;
    h.records.nameKey[last] = a;
    expect(verifyGadb(h).map((i) => i.rule)).toContain('strings.firstUse');
    const moved = parseGadb(writeGadb(h));
    expect(names(moved)).toEqual(names(h));
    expect(verifyGadb(moved).filter((i) => i.severity === 'error')).toEqual([]);
    expect(writeGadb(h, { stringOrder: 'model' })).not.toEqual(writeGadb(h));
  });

  it('never mutates its argument', () => {
    const g = parseGadb(original, { owned: true });
    const before = snapshot(g);
    writeGadb(g);
    writeGadb(g, { stringOrder: 'model' });
    expect(snapshot(g)).toBe(before);
  });

  it('is idempotent: parse(write(m)) writes the same bytes again', () => {
    const once = writeGadb(parseGadb(original));
    expectSameBytes(writeGadb(parseGadb(once)), once);
  });
});

/** Indexes of the cells that hold string-block references, found from descriptors independently of the writer. */
function blockCellIndexes(g: Gadb): number[] {
  const out: number[] = [];
  const blockTypes = new Set([4, 5, 6, 7, 8, 9, 12, 13, 14, 15, 16]);
  let start = 0;
  for (let r = 0; r < g.records.count; r++) {
    const first = g.records.firstDescriptor[r]!;
    for (let k = first; k < first + g.records.descriptorCount[r]!; k++) {
      if (!blockTypes.has(g.descriptors.typeCode[k]! & 0x3f)) continue;
      for (let e = 0; e < g.descriptors.elementCount[k]!; e++) out.push(start + g.descriptors.link[k]! + e);
    }
    start += g.records.cellCount[r]!;
  }
  return out;
}
