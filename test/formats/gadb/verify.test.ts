/** verifyGadb: each invariant, broken on purpose in the real sample, is reported by its rule, with offsets for bytes. */
import { describe, expect, it } from 'vitest';
import type { Issue } from '../../../src/binary/errors.ts';
import { parseGadb, verifyGadb, writeGadb, type Gadb } from '../../../src/formats/gadb/index.ts';
import { loadFixture } from '../../support/fixtures.ts';

const original = loadFixture('gadb', 'landmine_curse.fxp');

function issuesAfter(edit: (g: Gadb) => void): Issue[] {
  const g = parseGadb(original, { owned: true });
  edit(g);
  return verifyGadb(g);
}
function rules(issues: Issue[], severity: Issue['severity'] = 'error'): string[] {
  return [...new Set(issues.filter((i) => i.severity === severity).map((i) => i.rule))].sort();
}
function patchedBytes(off: number, v: number): Uint8Array {
  const b = original.slice();
  new DataView(b.buffer).setUint32(off, v, true);
  return b;
}

describe('verifyGadb', () => {
  it('reports a category out of sort order and a key that is not P919 of the name', () => {
    const issues = issuesAfter((g) => {
      g.categories[1]!.sortKey = 1;
    });
    expect(rules(issues)).toEqual(['categories.sortKey', 'categories.sorted']);
    expect(issues.find((i) => i.rule === 'categories.sorted')!.path).toBe('/categories[1]/sortKey');
  });

  it('reports secondaries out of P919(name) order (Sprite holds "1" and "8")', () => {
    const issues = issuesAfter((g) => {
      const a = g.records.nameKey[12]!;
      g.records.nameKey[12] = g.records.nameKey[13]!;
      g.records.nameKey[13] = a;
    });
    expect(rules(issues)).toContain('records.sorted');
  });

  it('reports a broken permutation column and a non-ascending sorted column', () => {
    expect(rules(issuesAfter((g) => void (g.descriptors.sortedToDeclared[0] = 2)))).toContain('runs.permutation');
    const issues = issuesAfter((g) => {
      const s = g.descriptors.sortedHash;
      const a = s[0]!;
      s[0] = s[1]!;
      s[1] = a;
    });
    expect(rules(issues)).toContain('runs.sorted');
  });

  it('reports a schema ordinal that does not increase', () => {
    expect(rules(issuesAfter((g) => void (g.descriptors.schemaOrdinal[1] = 0)))).toEqual(['runs.ordinal']);
  });

  it('reports a link that breaks the slot rule (bools, then type, then hash)', () => {
    // FxGlobalProps: Int -> cell 2, Float -> cell 1; swapping them breaks "ascending type code".
    const issues = issuesAfter((g) => {
      g.descriptors.link[1] = 1;
      g.descriptors.link[3] = 2;
    });
    expect(rules(issues)).toEqual(['slots.rule']);
    expect(issues[0]!.message).toContain('slot rule gives');
  });

  it('reports a field whose cells lie outside its record', () => {
    expect(rules(issuesAfter((g) => void (g.descriptors.elementCount[2] = 16)))).toContain('slots.range');
  });

  it('reports a link to a record that does not exist, with its file offset', () => {
    const issues = verifyGadb(patchedBytes(0x2cdc, (13 << 20) | 0));
    expect(rules(issues)).toEqual(['links.range']);
    expect(issues[0]).toMatchObject({ path: '/records[0]/cells[4]', offset: 0x2cdc, hypothesis: 'H-PRIM-FIRST' });
    const idx = verifyGadb(patchedBytes(0x2cdc, (6 << 20) | 5));
    expect(idx[0]!.message).toContain('the category has 1 records');
  });

  it('reports an unreferenced item, a duplicated value and bad padding in the string block', () => {
    // Record "0" renamed to "1"'s item: the "0" item is no longer referenced.
    const unref = issuesAfter((g) => void (g.records.nameKey[7] = g.records.nameKey[12]!));
    expect(rules(unref)).toContain('strings.unreferenced');
    // Item of "2" overwritten with "1": the same text stored twice.
    const dup = issuesAfter((g) => {
      const k2 = g.records.nameKey[14]!;
      expect(String.fromCharCode(g.strings.data[k2]!)).toBe('2');
      g.strings.data[k2] = 0x31;
    });
    expect(rules(dup)).toContain('strings.duplicate');
    // "FXDB\0\0\0\0": a padding byte made non-zero.
    const pad = verifyGadb(((b) => ((b[0x36 + 6] = 0x41), b))(original.slice()));
    expect(pad.map((i) => [i.rule, i.offset])).toEqual([['strings.padding', 0x36 + 6]]);
  });

  it("decides a text item by where its first NUL lies: only in the last word, followed by NULs only", () => {
    // The root item "FXDB\0\0\0\0" at file offset 0x36 (8 bytes), rewritten in place.
    const at = (text: string): Issue[] => verifyGadb(((b) => (b.set([...text].map((c) => c.charCodeAt(0)), 0x36), b))(original.slice()));
    expect(rules(at('FXDBABC\0'))).toEqual([]);
    expect(at('FXD\0\0\0\0\0').map((i) => i.rule)).toContain('strings.tiling');
    expect(at('FXDBA\0B\0').map((i) => [i.rule, i.offset])).toEqual([['strings.padding', 0x36 + 6]]);
    expect(rules(at('FXDBABCD'))).toContain('strings.text');
    // Record "2"'s name item ("2\0\0\0"): a byte after its NUL.
    const pad = issuesAfter((g) => void (g.strings.data[g.records.nameKey[14]! + 2] = 0x33));
    expect(rules(pad)).toEqual(['strings.padding']);
  });

  it('reports items that are not in first-use order', () => {
    // Swap the bytes of two same-size items ("0" and "1") and every reference to them: same content, other order.
    const g = parseGadb(original, { owned: true });
    const k0 = g.records.nameKey[7]!;
    const k1 = g.records.nameKey[12]!;
    const a = g.strings.data.slice(k0, k0 + 4);
    g.strings.data.copyWithin(k0, k1, k1 + 4);
    g.strings.data.set(a, k1);
    g.records.nameKey[7] = k1;
    g.records.nameKey[12] = k0;
    const issues = verifyGadb(g);
    expect(rules(issues)).toEqual(['strings.firstUse']);
    // The default writer restores the first-use order; 'model' keeps this file's.
    expect(verifyGadb(writeGadb(g))).toEqual([]);
    expect(rules(verifyGadb(writeGadb(g, { stringOrder: 'model' })))).toEqual(['strings.firstUse']);
  });

  it('reports a block cell that is not an item key, and a text item without NUL', () => {
    expect(rules(issuesAfter((g) => void (g.cells[3] = 0xfffffff0)))).toContain('cells.blockReference');
    const issues = issuesAfter((g) => g.strings.data.fill(0x41, 0x1c, 0x1c + 44));
    expect(rules(issues)).toContain('strings.text');
  });

  it('reports header counts that disagree with the content', () => {
    expect(rules(issuesAfter((g) => void (g.header.recordCount = 99)))).toEqual(['header.recordCount']);
    expect(rules(verifyGadb(patchedBytes(8 + 0x18, 651)))).toEqual(['header.cellCount']);
    expect(rules(verifyGadb(patchedBytes(8 + 0x0c, 11)))).toEqual(['header.categoryCount']);
  });

  it('warns about hypotheses: a non-zero value-section word, a flag on a non-String, unknown type codes', () => {
    expect(issuesAfter((g) => void (g.valueSectionUnk00 = 5)).find((i) => i.rule === 'values.unk00')).toMatchObject({ severity: 'warning', hypothesis: 'H-VAL-00' });
    const flagged = issuesAfter((g) => void (g.descriptors.typeCode[3] = 0x42));
    expect(flagged.find((i) => i.rule === 'descriptors.flag')).toMatchObject({ severity: 'warning', hypothesis: 'H-FLAG-40' });
    const unknown = issuesAfter((g) => void (g.descriptors.typeCode[3] = 0x21));
    expect(rules(unknown, 'warning')).toContain('descriptors.type');
  });

  it('limits the findings of one rule and says how many were left out', () => {
    const issues = issuesAfter((g) => {
      for (let i = 0; i < g.categories.length; i++) g.categories[i]!.sortKey = 0;
    });
    const sorted = issues.filter((i) => i.rule === 'categories.sortKey');
    expect(sorted.length).toBe(12);
    const g = parseGadb(original, { owned: true });
    g.cells.fill(0xfffffff0);
    const many = verifyGadb(g).filter((i) => i.rule === 'cells.blockReference');
    expect(many.length).toBe(21);
    expect(many[20]!.message).toMatch(/more finding\(s\)/);
  });
});
