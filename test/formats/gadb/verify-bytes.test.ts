/**
 * The bytes verifier (`verifyGadbBytesClean`, what `verifyGadb(bytes)` runs first) against the model verifier
 * (`verifyGadbThroughModel`: parse, then verify the model, as `verifyGadb` did before): the same findings — rule ids,
 * severities, messages, offsets, paths, order — or the same thrown error, on the fixtures, on a generated file and
 * on mutated copies of them: one targeted mutation per rule (each checked to raise its rule, so the comparison is
 * not vacuous) and fast-check byte and word mutations (printed seed).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Issue } from '../../../src/binary/errors.ts';
import { GADB_STORAGE_BY_TYPE_BYTE, GadbStorageCode, parseGadb, parseGadbWithLayout, verifyGadb, writeGadb, type Gadb, type GadbLayout } from '../../../src/formats/gadb/index.ts';
import { newGadbDescriptors } from '../../../src/formats/gadb/parse.ts';
import { verifyGadbThroughModel } from '../../../src/formats/gadb/verify.ts';
import { gadbItemsClean, verifyGadbBytesClean } from '../../../src/formats/gadb/verify-bytes.ts';
import { GadbItemKind } from '../../../src/formats/gadb/types.ts';
import { generateGadb } from '../../../src/gamedb/generate/index.ts';
import { loadFixture, propertySeed } from '../../support/fixtures.ts';
import { SYNTHETIC } from './synthetic.ts';

const seed = propertySeed();
const fixture = loadFixture('gadb', 'landmine_curse.fxp');
/** A generated game-like file (113 KB: 2,000+ records, every type code, primaries, links both ways). */
const generated = writeGadb(generateGadb({ seed: 3, scale: 0.002 }).gadb);

type Outcome = { issues: Issue[] } | { error: string; offset?: number | undefined };
function outcome(verify: () => Issue[]): Outcome {
  try {
    return { issues: verify() };
  } catch (e) {
    return { error: `${(e as Error).constructor.name}: ${(e as Error).message}`, offset: (e as { offset?: number }).offset };
  }
}
/** `verifyGadb(bytes)` and the model verifier agree exactly; returns the model verifier's outcome. */
function expectSameFindings(bytes: Uint8Array): Outcome {
  const reference = outcome(() => verifyGadbThroughModel(bytes));
  expect(outcome(() => verifyGadb(bytes))).toEqual(reference);
  return reference;
}
const rulesOf = (o: Outcome): string[] => ('issues' in o ? o.issues.map((i) => i.rule) : [o.error]);

/** A parsed copy of `bytes` to locate things in, and patch helpers over a fresh copy. */
class Patcher {
  readonly g: Gadb;
  readonly layout: GadbLayout;
  readonly b: Uint8Array;
  readonly dv: DataView;
  constructor(bytes: Uint8Array) {
    ({ gadb: this.g, layout: this.layout } = parseGadbWithLayout(bytes));
    this.b = bytes.slice();
    this.dv = new DataView(this.b.buffer);
  }
  u32(at: number): number {
    return this.dv.getUint32(at, true);
  }
  set32(at: number, v: number): this {
    this.dv.setUint32(at, v >>> 0, true);
    return this;
  }
  set8(at: number, v: number): this {
    this.b[at] = v;
    return this;
  }
  set16(at: number, v: number): this {
    this.dv.setUint16(at, v, true);
    return this;
  }
  /** Category of record `r` and whether it is a primary. */
  side(r: number): { c: number; primary: boolean } {
    let first = 0;
    for (let c = 0; c < this.g.categories.length; c++) {
      const cat = this.g.categories[c]!;
      if (r < first + cat.primaryCount + cat.secondaryCount) return { c, primary: r - first < cat.primaryCount };
      first += cat.primaryCount + cat.secondaryCount;
    }
    throw new Error(`no record ${r}`);
  }
  /** File offset of record `r`'s tail (u16 cells, u8 fields, u24 first, u8 +0x0A, u8 flags) and of its cell `k`. */
  tail(r: number): number {
    return this.layout.recordOffsets[r]! + (this.side(r).primary ? 0 : 4);
  }
  cell(r: number, k: number): number {
    return this.layout.recordOffsets[r]! + (this.side(r).primary ? 8 : 12) + 4 * k;
  }
  descriptor(i: number): number {
    return this.layout.descriptorsOffset + 15 * i;
  }
  item(key: number): number {
    return this.layout.stringBlockOffset + key;
  }
  /** The first record (from `from`) with a field of `storage` and elements, with that field's first cell and descriptor. */
  field(storage: number, from = 0, pick: (r: number, k: number, cell: number) => boolean = () => true): { r: number; k: number; cell: number } {
    const { records, descriptors: d } = this.g;
    for (let r = from; r < records.count; r++) {
      for (let j = 0; j < records.descriptorCount[r]!; j++) {
        const k = records.firstDescriptor[r]! + j;
        if (GADB_STORAGE_BY_TYPE_BYTE[d.typeCode[k]!] !== storage || d.elementCount[k] === 0) continue;
        const cell = this.u32(this.cell(r, d.link[k]!));
        if (pick(r, k, cell)) return { r, k, cell };
      }
    }
    throw new Error('no such field');
  }
  /** First category with at least `n` secondaries, and its first record. */
  categoryWith(n: number): { c: number; first: number } {
    let first = 0;
    for (let c = 0; c < this.g.categories.length; c++) {
      const cat = this.g.categories[c]!;
      if (cat.secondaryCount >= n) return { c, first: first + cat.primaryCount };
      first += cat.primaryCount + cat.secondaryCount;
    }
    throw new Error('no such category');
  }
}

describe('verifyGadb on bytes: the bytes verifier against the model verifier', () => {
  it('decides the clean inputs itself and agrees with the model verifier on them', () => {
    for (const bytes of [fixture, generated]) {
      expect(verifyGadbBytesClean(bytes)).toBeDefined();
      expect(rulesOf(expectSameFindings(bytes)).every((r) => ['header.unk14', 'header.unk24', 'trailer.pairs', 'header.extra', 'header.string', 'slots.flaggedOrder'].includes(r))).toBe(true);
    }
    expect(rulesOf(expectSameFindings(generated))).toEqual(['header.unk14', 'header.string', 'slots.flaggedOrder']);
    // The synthetic file has a link-side warning: the model verifier names it.
    expect(verifyGadbBytesClean(SYNTHETIC)).toBeUndefined();
    expect(rulesOf(expectSameFindings(SYNTHETIC))).toContain('links.side');
  });

  it('holds a text item to its rule: no zero byte before its last word, the terminator in it, only zero bytes after', () => {
    // Every pattern of zero and non-zero bytes (0x41, and 0xC1 with the high bit set) over an 8-byte text item
    // after the root item, against the rule stated directly; the verifier's word tricks must decide the same.
    for (const nonZero of [0x41, 0xc1, 0xff, 0x01, 0x80]) {
      for (let pattern = 0; pattern < 256; pattern++) {
        const data = new Uint8Array(12);
        data.set([0x52, 0, 0, 0]);
        for (let b = 0; b < 8; b++) data[4 + b] = (pattern >> b) & 1 ? nonZero : 0;
        const item = data.subarray(4);
        const terminator = item.indexOf(0);
        const want = terminator >= 4 && item.subarray(terminator).every((x) => x === 0);
        const got = gadbItemsClean(data, Uint32Array.of(0, 4), Uint32Array.of(4, 8), Uint8Array.of(GadbItemKind.Root, GadbItemKind.Text));
        expect(got, `pattern ${pattern.toString(2).padStart(8, '0')} of 0x${nonZero.toString(16)}`).toBe(want);
      }
    }
  });

  it('agrees on inputs at every byteOffset mod 4 (the value section read unaligned)', () => {
    for (const shift of [1, 2, 3]) {
      const big = new Uint8Array(generated.byteLength + 4);
      big.set(generated, shift);
      const input = big.subarray(shift, shift + generated.byteLength);
      expect(verifyGadbBytesClean(input)).toBeDefined();
      expect(verifyGadb(input)).toEqual(verifyGadbThroughModel(generated));
    }
  });

  // One mutation per rule, on the generated file (p: its patcher); each must raise `rule` in the model verifier.
  const g = new Patcher(generated);
  const { records, descriptors: d, categories } = g.g;
  const secondaries = g.categoryWith(3);
  const gadb = g.layout.gadbOffset;
  const link = g.field(GadbStorageCode.Link, 0, (_r, _k, cell) => cell !== 0xffffffff);
  const block = g.field(GadbStorageCode.Block, 0, (_r, k) => d.typeCode[k] === 4);
  const vector = g.field(GadbStorageCode.Block, 0, (_r, k) => d.typeCode[k] === 8);
  const run = records.firstDescriptor[secondaries.first]!;
  const boolField = (() => {
    for (let i = 0; i < d.count; i++) if (GADB_STORAGE_BY_TYPE_BYTE[d.typeCode[i]!] === GadbStorageCode.Bit) return i;
    throw new Error('no bool');
  })();
  const intField = (() => {
    for (let i = 0; i < d.count; i++) if (d.typeCode[i] === 3) return i;
    throw new Error('no Int');
  })();
  const structuresCat = categories.findIndex((c, i) => i !== link.cell >>> 20 && c.primaryCount > 0 && c.secondaryCount > 0);
  /** The generated file's model (owned: cells back to back) edited, then written keeping its string order. */
  const rewritten = (edit: (m: Gadb) => void): Uint8Array => {
    const m = parseGadb(generated, { owned: true });
    edit(m);
    return writeGadb(m, { stringOrder: 'model' });
  };
  /** Record `r`'s cells resized by `delta` (cells added as 0 or removed at its end). */
  const resizeCells = (m: Gadb, r: number, delta: number): void => {
    let at = 0;
    for (let i = 0; i <= r; i++) at += m.records.cellCount[i]!;
    const cells = new Uint32Array(m.cells.length + delta);
    cells.set(m.cells.subarray(0, delta > 0 ? at : at + delta));
    cells.set(m.cells.subarray(at), at + delta);
    m.cells = cells;
    m.records.cellCount[r] = m.records.cellCount[r]! + delta;
    m.header.cellCount += delta;
  };
  /** The generated file with one more cell in record `r` (flags set to `flags`). */
  const withExtraCell = (r: number, flags: number): Uint8Array =>
    rewritten((m) => {
      resizeCells(m, r, 1);
      m.records.flags[r] = flags;
    });
  const lateLink = g.field(GadbStorageCode.Link, records.count - 400, (_r, _k, cell) => cell !== 0xffffffff);
  const nonStructures = categories.findIndex((c) => c.primaryCount + c.secondaryCount > 0 && !/^_Structures/.test(String.fromCharCode(...g.g.strings.data.subarray(c.nameKey, c.nameKey + 11))));
  const targeted: [string, () => Uint8Array][] = [
    ['header.recordCount', () => new Patcher(generated).set32(gadb + 0x10, 7).b],
    ['header.recordCount', () => new Patcher(generated).set32(gadb + 0x10, g.g.header.recordCount + g.g.header.unk14).b],
    ['header.cellCount', () => new Patcher(generated).set32(gadb + 0x18, g.g.header.cellCount + 1).b],
    ['header.categoryCount', () => new Patcher(generated).set32(gadb + 0x0c, categories.length - 1).b],
    ['header.unk14', () => new Patcher(generated).set32(gadb + 0x14, 0).b],
    ['header.unk24', () => new Patcher(generated).set32(gadb + 0x24, 3).b],
    ['values.unk00', () => new Patcher(generated).set32(g.layout.valueSectionOffset, 5).b],
    ['categories.sorted', () => new Patcher(generated).set32(g.layout.categoryOffsets[2]! + 20, categories[1]!.sortKey).b],
    ['categories.sortKey', () => new Patcher(generated).set32(g.layout.categoryOffsets[2]! + 20, categories[2]!.sortKey + 1).b],
    ['categories.sortKeyUnchecked', () => new Patcher(generated).set8(g.item(categories[2]!.nameKey), 0x21).b],
    ['records.sorted', () => {
      // The texts of two neighbouring secondaries' name items (same size) swapped: keys and first use unchanged.
      const p = new Patcher(generated);
      const { itemKeys, itemSizes } = g.g.strings;
      const size = (key: number): number => itemSizes[itemKeys.indexOf(key)]!;
      for (let r = secondaries.first; r + 1 < records.count; r++) {
        const a = records.nameKey[r]!;
        const b = records.nameKey[r + 1]!;
        if (g.side(r).c !== g.side(r + 1).c || g.side(r).primary || size(a) !== size(b)) continue;
        p.b.set(generated.subarray(g.item(b), g.item(b) + size(b)), g.item(a));
        p.b.set(generated.subarray(g.item(a), g.item(a) + size(a)), g.item(b));
        return p.b;
      }
      throw new Error('no neighbours of the same size');
    }],
    ['records.sortUnchecked', () => new Patcher(generated).set8(g.item(records.nameKey[secondaries.first + 1]!), 0x21).b],
    // The unhashable byte the last of the name's text (in the word of its terminator, unless the text fills words).
    ['records.sortUnchecked', () => {
      const at = g.item(records.nameKey[secondaries.first + 1]!);
      return new Patcher(generated).set8(generated.indexOf(0, at) - 1, 0x21).b;
    }],
    ['records.zeroField', () => new Patcher(generated).set8(g.tail(records.count - 1) + 2, 0).b],
    ['records.zeroField', () =>
      rewritten((m) => {
        // A record without fields or cells that still points at its descriptors (one without block fields, whose
        // items stay referenced).
        let r = m.records.count - 1;
        const blockFree = (q: number): boolean => {
          for (let j = 0; j < m.records.descriptorCount[q]!; j++) if (GADB_STORAGE_BY_TYPE_BYTE[d.typeCode[m.records.firstDescriptor[q]! + j]!] === GadbStorageCode.Block) return false;
          return true;
        };
        while (r > 0 && (m.records.firstDescriptor[r] === 0 || !blockFree(r))) r--;
        resizeCells(m, r, -m.records.cellCount[r]!);
        m.records.descriptorCount[r] = 0;
      })],
    ['runs.shape', () =>
      rewritten((m) => {
        // Record 2 of a category given a copy of its run whose field hashes are all one higher (same order, slots, cells).
        const r = secondaries.first + 1;
        const first = m.records.firstDescriptor[r]!;
        const count = m.records.descriptorCount[r]!;
        const old = m.descriptors;
        const next = newGadbDescriptors(old.count + count);
        for (const col of ['declaredHash', 'sortedHash', 'schemaOrdinal', 'sortedToDeclared', 'typeCode', 'elementCount', 'link'] as const) {
          next[col].set(old[col] as never);
          next[col].set(old[col].subarray(first, first + count) as never, old.count);
        }
        for (let j = 0; j < count; j++) {
          next.declaredHash[old.count + j]!++;
          next.sortedHash[old.count + j]!++;
        }
        m.descriptors = next;
        m.header.descriptorCount = next.count;
        m.records.firstDescriptor[r] = old.count;
      })],
    ['slots.cellCount', () => withExtraCell(secondaries.first, 0)],
    ['slots.cellCount', () => withExtraCell(secondaries.first, 0x10)],
    ['runs.sorted', () => new Patcher(generated).set32(g.descriptor(run + 1) + 4, d.sortedHash[run]!).b],
    ['runs.ordinal', () => new Patcher(generated).set8(g.descriptor(run + 1) + 8, 0).b],
    ['runs.permutation', () => new Patcher(generated).set8(g.descriptor(run + 1) + 9, d.sortedToDeclared[run]!).b],
    ['descriptors.permutationRange', () => new Patcher(generated).set8(g.descriptor(run + 1) + 9, 200).b],
    // An Int field flagged: the low-6-bit slot order still fits, so only the type byte is reported.
    ['descriptors.type', () => {
      // An unknown code (0x3f, sorting last) on an inline field that is already the last of its run's slot order.
      for (let i = 0; i < d.count; i++) {
        if (GADB_STORAGE_BY_TYPE_BYTE[d.typeCode[i]!] !== GadbStorageCode.Inline) continue;
        const b = new Patcher(generated).set8(g.descriptor(i) + 10, 0x3f).b;
        const rules = rulesOf(outcome(() => verifyGadbThroughModel(b)));
        if (rules.includes('descriptors.type') && !rules.includes('slots.rule')) return b;
      }
      throw new Error('no such field');
    }],
    ['descriptors.flag', () => new Patcher(generated).set8(g.descriptor(intField) + 10, 0x43).b],
    ['descriptors.boolCount', () => new Patcher(generated).set16(g.descriptor(boolField) + 11, 2).b],
    ['slots.rule', () => new Patcher(generated).set16(g.descriptor(link.k) + 13, d.link[link.k]! + 1).b],
    ['slots.rule', () => new Patcher(generated).set8(g.tail(link.r) + 7, 0x10).set16(g.descriptor(link.k) + 13, d.link[link.k]! + 1).b],
    ['slots.range', () => new Patcher(generated).set16(g.descriptor(link.k) + 11, 300).b],
    ['descriptors.unused', () => {
      // One more descriptor row (a copy of the last) that no run covers.
      const at = g.layout.valueSectionOffset;
      const b = new Uint8Array(generated.byteLength + 15);
      b.set(generated.subarray(0, at));
      b.set(generated.subarray(at - 15, at), at);
      b.set(generated.subarray(at), at + 15);
      new DataView(b.buffer).setUint32(gadb + 0x1c, d.count + 1, true);
      return b;
    }],
    ['links.range', () => new Patcher(generated).set32(g.cell(link.r, d.link[link.k]!), (categories.length + 1) << 20).b],
    ['links.range', () => new Patcher(generated).set32(g.cell(link.r, d.link[link.k]!), ((link.cell >>> 20) << 20) | 0xffff).b],
    ['links.range', () => new Patcher(generated).set32(g.cell(link.r, d.link[link.k]!), (nonStructures << 20) | (categories[nonStructures]!.primaryCount + categories[nonStructures]!.secondaryCount)).b],
    ['links.side', () => new Patcher(generated).set32(g.cell(link.r, d.link[link.k]!), (structuresCat << 20) | categories[structuresCat]!.primaryCount).b],
    // The same from a record late in the file: links back to categories whose headers came first.
    ['links.range', () => new Patcher(generated).set32(g.cell(lateLink.r, d.link[lateLink.k]!), (nonStructures << 20) | (categories[nonStructures]!.primaryCount + categories[nonStructures]!.secondaryCount)).b],
    ['links.side', () => new Patcher(generated).set32(g.cell(lateLink.r, d.link[lateLink.k]!), (structuresCat << 20) | categories[structuresCat]!.primaryCount).b],
    ['cells.blockReference', () => new Patcher(generated).set32(g.cell(block.r, d.link[block.k]!), 0xfffffff0).b],
    ['cells.blockReference', () => new Patcher(generated).set32(g.cell(block.r, d.link[block.k]!), block.cell + 1).b],
    ['strings.kind', () => new Patcher(generated).set32(g.cell(vector.r, d.link[vector.k]!), records.nameKey[secondaries.first]!).b],
    // The other way round: a String cell (a Text reference) on a Vector3 item.
    ['strings.kind', () => new Patcher(generated).set32(g.cell(block.r, d.link[block.k]!), vector.cell).b],
    ['strings.tiling', () => new Patcher(generated).set32(g.cell(vector.r, d.link[vector.k]!), vector.cell + 4).b],
    ['strings.padding', () => {
      // The last byte of a text item with two NULs at its end made non-zero.
      const { itemKeys, itemSizes } = g.g.strings;
      const i = records.nameKey[secondaries.first + 2]!;
      for (let j = itemKeys.indexOf(i); j < itemKeys.length; j++) {
        const end = g.item(itemKeys[j]!) + itemSizes[j]!;
        if (generated[end - 1] === 0 && generated[end - 2] === 0) return new Patcher(generated).set8(end - 1, 0x41).b;
      }
      throw new Error('no padded item');
    }],
    ['strings.text', () => {
      const p = new Patcher(generated);
      const key = records.nameKey[secondaries.first]!;
      for (let i = 0; i < 64; i++) p.set8(g.item(key) + i, 0x41);
      return p.b;
    }],
    ['strings.duplicate', () => {
      // A record's name item rewritten with the text of another name item of the same size.
      const p = new Patcher(generated);
      const keys = g.g.strings.itemKeys;
      const sizes = g.g.strings.itemSizes;
      for (let i = 1; i < keys.length; i++) {
        for (let j = i + 1; j < Math.min(keys.length, i + 50); j++) {
          if (sizes[i] !== sizes[j]) continue;
          const a = generated.subarray(g.item(keys[i]!), g.item(keys[i]!) + sizes[i]!);
          if (a.indexOf(0) < 0 || a.every((x, q) => x === generated[g.item(keys[j]!) + q])) continue;
          p.b.set(a, g.item(keys[j]!));
          return p.b;
        }
      }
      throw new Error('no same-size items');
    }],
    ['strings.firstUse', () => {
      // Two block cells of different records swapped: each item is now first used after a later one.
      const p = new Patcher(generated);
      const other = g.field(GadbStorageCode.Block, block.r + 50, (_r, k, cell) => d.typeCode[k] === 4 && cell > block.cell + 4096);
      p.set32(g.cell(block.r, d.link[block.k]!), other.cell);
      return p.set32(g.cell(other.r, d.link[other.k]!), block.cell).b;
    }],
    ['EofError', () => generated.slice(0, generated.byteLength - 3)],
    ['FormatError', () => new Patcher(generated).set32(gadb + 0x1c, 0x7fffffff).b],
    ['UnsupportedError', () => new Patcher(generated).set32(gadb + 4, 18).b],
    ['FormatError', () => new Patcher(generated).set8(g.tail(3) + 3, 0xff).set16(g.tail(3) + 4, 0xffff).b],
  ];
  for (const [rule, mutate] of targeted) {
    it(`agrees on a file with ${rule}`, () => {
      const bytes = mutate();
      const got = expectSameFindings(bytes);
      expect(rulesOf(got).some((r) => r === rule || r.startsWith(`${rule}:`)), rulesOf(got).join(" ")).toBe(true);
    });
  }

  it('agrees on byte and word mutations of the fixture, the synthetic and the generated file (fast-check)', () => {
    const inputs = [fixture, SYNTHETIC, generated];
    const edit = fc.record({
      at: fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }),
      how: fc.constantFrom('byte', 'word', 'zero', 'ones', 'plus', 'minus', 'copy'),
      value: fc.nat(0xffffffff),
      from: fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }),
    });
    let fast = 0;
    fc.assert(
      fc.property(fc.nat(inputs.length - 1), fc.array(edit, { minLength: 1, maxLength: 3 }), (which, edits) => {
        const b = inputs[which]!.slice();
        const dv = new DataView(b.buffer);
        for (const e of edits) {
          const at = Math.floor(e.at * (b.byteLength - 3));
          const old = dv.getUint32(at, true);
          if (e.how === 'byte') b[at] = e.value & 0xff;
          else if (e.how === 'word') dv.setUint32(at, e.value, true);
          else if (e.how === 'zero') dv.setUint32(at, 0, true);
          else if (e.how === 'ones') dv.setUint32(at, 0xffffffff, true);
          else if (e.how === 'plus') dv.setUint32(at, (old + 1) >>> 0, true);
          else if (e.how === 'minus') dv.setUint32(at, (old - 1) >>> 0, true);
          else dv.setUint32(at, dv.getUint32(Math.floor(e.from * (b.byteLength - 3)), true), true);
        }
        if (verifyGadbBytesClean(b)) fast++;
        expectSameFindings(b);
      }),
      { seed, numRuns: 300 },
    );
    // Many mutations (inline values, header words of open questions) leave a clean file the bytes verifier decides.
    expect(fast).toBeGreaterThan(20);
  });
});
