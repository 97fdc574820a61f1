/**
 * `GadbRunSpans`: the block-storage fields of each distinct run `[first, first + n)`, with one id per run. Runs
 * that share a first descriptor but not a count, and runs whose first lies past the table, are distinct runs with
 * spans of their own (the parser's item derivation and the writer's string plan read them record by record).
 */
import { describe, expect, it } from 'vitest';
import { GadbRunSpans } from '../../../src/formats/gadb/layout.ts';
import { newGadbDescriptors } from '../../../src/formats/gadb/parse.ts';
import { GadbStorageCode } from '../../../src/formats/gadb/type-codes.ts';

/** Rows 0..5: String (4) link 0 ×1, Int (3) link 1, Vector3 (8) link 2 ×2, Float (2), String link 5 ×0, StringEnum (5) link 6 ×3. */
function table() {
  const rows: [typeCode: number, link: number, count: number][] = [[4, 0, 1], [3, 1, 1], [8, 2, 2], [2, 4, 1], [4, 5, 0], [5, 6, 3]];
  const d = newGadbDescriptors(rows.length);
  rows.forEach(([t, link, count], k) => {
    d.typeCode[k] = t;
    d.link[k] = link;
    d.elementCount[k] = count;
    d.sortedToDeclared[k] = 0;
  });
  return { descriptors: d };
}

/** The (link, elementCount, typeByte) triples of run `id`. */
function spansOf(s: GadbRunSpans, id: number): number[][] {
  const out: number[][] = [];
  for (let q = s.start[id]!; q < s.start[id + 1]!; q++) out.push([s.spans[3 * q]!, s.spans[3 * q + 1]!, s.spans[3 * q + 2]!]);
  return out;
}

describe('GadbRunSpans', () => {
  it('gives runs with one first descriptor and different counts ids and spans of their own', () => {
    const s = new GadbRunSpans(table(), 'declared', GadbStorageCode.Block);
    const a = s.run(0, 2);
    const b = s.run(0, 6);
    const c = s.run(2, 1);
    const d = s.run(0, 3);
    expect(new Set([a, b, c, d]).size).toBe(4);
    // Asked again, in another order: the same ids.
    expect([s.run(0, 3), s.run(2, 1), s.run(0, 6), s.run(0, 2)]).toEqual([d, c, b, a]);
    // Block storage only (String, Vector3, StringEnum); a field with no elements owns no cells and is left out.
    expect(spansOf(s, a)).toEqual([[0, 1, 4]]);
    expect(spansOf(s, b)).toEqual([[0, 1, 4], [2, 2, 8], [6, 3, 5]]);
    expect(spansOf(s, c)).toEqual([[2, 2, 8]]);
    expect(spansOf(s, d)).toEqual([[0, 1, 4], [2, 2, 8]]);
  });

  it('keeps a run whose first descriptor lies past the table (rows past it are left out)', () => {
    const s = new GadbRunSpans(table(), 'declared', GadbStorageCode.Block);
    const inside = s.run(5, 1);
    const past = s.run(9, 2);
    const past2 = s.run(9, 3);
    expect(new Set([inside, past, past2]).size).toBe(3);
    expect([s.run(9, 2), s.run(9, 3), s.run(5, 1)]).toEqual([past, past2, inside]);
    expect(spansOf(s, past)).toEqual([]);
    expect(spansOf(s, inside)).toEqual([[6, 3, 5]]);
  });
});
