/**
 * The hypotheses the real sample cannot exercise, on an independent hand-written file (hex literal, not made by
 * scry's writer): a bare GADB with a primary record (H-PRIM-HDR, H-CAT-0C, H-PRIM-FIRST), types 6, 7, 9, 11 and
 * the 0x44 resource-path String (H-TYPE-6/7/9/11, H-FLAG-40, H-SLOT-FLAGGED), a run without Bools
 * (H-SLOT-NOBOOL), a zero-field record (H-ZERO-FIELD), non-zero header +0x14/+0x20/+0x24 and a pair table.
 */
import { describe, expect, it } from 'vitest';
import {
  GADB_HYPOTHESES,
  GADB_TYPE_CODES,
  assignGadbSlots,
  buildGadbIndex,
  decodeGadbElement,
  decodeGadbText,
  gadbHypothesis,
  gadbTypeInfo,
  gadbTypeName,
  buildGadb,
  isGadb,
  isGadbResourcePath,
  parseGadb,
  parseGadbWithLayout,
  resolveGadbLink,
  verifyGadb,
  writeGadb,
} from '../../../src/formats/gadb/index.ts';
import { describeDifference } from '../../../src/binary/hexdump.ts';
import { SYNTHETIC } from './synthetic.ts';
import { p919 } from '../../../src/hash/p919.ts';

describe('GADB hypotheses on a hand-written file', () => {
  const { gadb: g, layout } = parseGadbWithLayout(SYNTHETIC);
  const index = buildGadbIndex(g);

  it('is a bare GADB; header unknowns and the pair table are kept', () => {
    expect(isGadb(SYNTHETIC)).toBe(true);
    expect(g.container).toEqual({ kind: 'bare' });
    expect([g.header.unk14, g.header.unk20, g.header.unk24]).toEqual([1, 0x12345678, 1]);
    expect(Array.from(g.pairs)).toEqual([0xaabbccdd, 0x11223344]);
    expect(layout.stringBlockOffset).toBe(0x2e);
    expect(decodeGadbText(g.strings, 0)).toBe('TDB');
  });

  it('reads the primary before the secondary, with its 8-byte header (H-PRIM-HDR, H-CAT-0C)', () => {
    expect(g.records.count).toBe(4);
    expect(layout.recordOffsets[0]).toBe(0xec);
    expect(layout.recordOffsets[1]).toBe(0x104);
    expect([g.records.cellCount[0], g.records.descriptorCount[0], g.records.firstDescriptor[0], g.records.flags[0]]).toEqual([4, 4, 0, 8]);
    expect(decodeGadbText(g.strings, g.records.nameKey[1]!)).toBe('x');
  });

  it('decodes types 6, 7, 0x44, 9 and 11 (H-TYPE-6/7/9/11, H-FLAG-40)', () => {
    expect(decodeGadbElement(g, index, 0, 3)).toBe(true);
    expect(decodeGadbElement(g, index, 0, 0)).toBe(0x100000002n);
    expect(decodeGadbElement(g, index, 1, 0)).toBe(-1n);
    expect(decodeGadbElement(g, index, 0, 1)).toEqual([1, 2]);
    expect(decodeGadbElement(g, index, 0, 2)).toBe('a.tex');
    expect(isGadbResourcePath(g.descriptors.typeCode[2]!)).toBe(true);
    expect(gadbTypeName(0x44)).toBe('String|ResourcePath');
    expect(gadbTypeInfo(0x44)?.name).toBe('String');
    expect(Array.from(decodeGadbElement(g, index, 2, 5) as Uint8Array)).toEqual([0xef, 0xbe, 0xad, 0xde, 4, 3, 2, 1]);
    // The shared float pair: one item, two cells.
    expect(index.itemRefCounts[g.strings.itemKeys.indexOf(0x14)]).toBe(2);
  });

  it('resolves links primaries first: 0 is category 0 primary 0, 1 is its first secondary (H-PRIM-FIRST)', () => {
    expect(decodeGadbElement(g, index, 2, 4, 0)).toEqual({ raw: 0, categoryOrdinal: 0, index: 0 });
    expect(resolveGadbLink(g, index, 0)).toEqual({ kind: 'primary', categoryOrdinal: 0, index: 0, sideIndex: 0, record: 0 });
    expect(resolveGadbLink(g, index, 1)).toEqual({ kind: 'secondary', categoryOrdinal: 0, index: 1, sideIndex: 0, record: 1 });
    expect(resolveGadbLink(g, index, 2)).toEqual({ kind: 'dangling', categoryOrdinal: 0, index: 2 });
    expect(resolveGadbLink(g, index, 0xffffffff)).toEqual({ kind: 'null' });
  });

  it('round-trips byte-exact', () => {
    const out = writeGadb(g);
    expect(describeDifference(out, SYNTHETIC)).toBe('');
  });

  it('verifies with findings only about the open questions', () => {
    const issues = verifyGadb(SYNTHETIC);
    expect(issues.filter((i) => i.severity === 'error')).toEqual([]);
    const byRule = Object.fromEntries(issues.map((i) => [i.rule, i]));
    expect(byRule['header.unk14']).toMatchObject({ severity: 'info', hypothesis: 'H-HDR-14', offset: 0x14 });
    expect(byRule['header.unk14']!.message).toContain('equal');
    expect(byRule['header.unk24']).toMatchObject({ severity: 'info', hypothesis: 'H-HDR-24' });
    expect(byRule['trailer.pairs']).toMatchObject({ severity: 'info', hypothesis: 'H-PAIRS' });
    expect(byRule['slots.flaggedOrder']!.message).toContain('"full"');
    // "A" is not a _Structures* category, so a link to its primary crosses sides.
    expect(byRule['links.side']).toMatchObject({ severity: 'warning', hypothesis: 'H-LINK-SIDE', path: '/records[2]/cells[1]', offset: 0x148 });
    expect(issues.length).toBe(5);
  });

  it('recognises the other reading of H-SLOT-FLAGGED (0x44 grouped with String)', () => {
    const m = parseGadb(SYNTHETIC, { owned: true });
    // base order: String(0x44 -> 4) cell 1, Int64 cell 2, FloatPair cell 3.
    m.descriptors.link.set([2, 3, 1], 0);
    for (const start of [0, 4]) {
      const [b, i64, pair, s] = m.cells.subarray(start, start + 4);
      m.cells.set([b!, s!, i64!, pair!], start);
    }
    const issues = verifyGadb(m);
    expect(issues.filter((i) => i.severity === 'error')).toEqual([]);
    expect(issues.find((i) => i.rule === 'slots.flaggedOrder')?.message).toContain('"base"');
    const again = parseGadb(writeGadb(m));
    expect(decodeGadbElement(again, buildGadbIndex(again), 0, 2)).toBe('a.tex');
  });

  it('reports a zero-field record that does not point at descriptor 0 (H-ZERO-FIELD)', () => {
    const m = parseGadb(SYNTHETIC, { owned: true });
    m.records.firstDescriptor[3] = 4;
    expect(verifyGadb(m).find((i) => i.rule === 'records.zeroField')).toMatchObject({ severity: 'warning', hypothesis: 'H-ZERO-FIELD' });
  });

  it('flags a count that includes primaries as H-HDR-10, not as an error', () => {
    const m = parseGadb(SYNTHETIC, { owned: true });
    m.header.recordCount = 4;
    expect(verifyGadb(m).find((i) => i.rule === 'header.recordCount')).toMatchObject({ severity: 'warning', hypothesis: 'H-HDR-10' });
    m.header.recordCount = 9;
    expect(verifyGadb(m).find((i) => i.rule === 'header.recordCount')).toMatchObject({ severity: 'error' });
  });

  it('keeps extra header bytes and an inline header string (H-HDR-28, H-HDR-2C)', () => {
    const m = parseGadb(SYNTHETIC, { owned: true });
    m.headerExtra = Uint8Array.of(1, 2, 3, 4);
    m.headerString = Uint8Array.of(0x68, 0x69);
    const out = writeGadb(m);
    const back = parseGadbWithLayout(out);
    expect(Array.from(back.gadb.headerExtra)).toEqual([1, 2, 3, 4]);
    expect(Array.from(back.gadb.headerString)).toEqual([0x68, 0x69]);
    expect(back.gadb.header.headerSize).toBe(0x30);
    expect(back.layout.stringBlockOffset).toBe(0x2e + 4 + 2);
    expect(decodeGadbElement(back.gadb, buildGadbIndex(back.gadb), 0, 2)).toBe('a.tex');
  });

  it('a Bool array takes consecutive bits and a run without Bools starts at cell 0 (H-BOOL-ARRAY, H-SLOT-NOBOOL)', () => {
    const a = assignGadbSlots([
      { hash: 9, typeByte: 1, count: 2 },
      { hash: 3, typeByte: 1, count: 1 },
      { hash: 1, typeByte: 2, count: 1 },
    ]);
    expect(a).toEqual({ links: [1, 0, 1], boolBits: 3, cellCount: 2 });
    expect(assignGadbSlots([{ hash: 1, typeByte: 3, count: 1 }]).links).toEqual([0]);
  });

  it('every hypothesis named by the type table exists, and ids are unique', () => {
    const ids = GADB_HYPOTHESES.map((h) => h.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const t of GADB_TYPE_CODES) if (t.hypothesis) expect(gadbHypothesis(t.hypothesis).id).toBe(t.hypothesis);
    expect(() => gadbHypothesis('H-NOPE')).toThrow();
  });

  it('reads a bare BlendDB database (H-BVR-BARE) and any 8-byte wrapper (H-WRAPPER-GENERIC)', () => {
    const bvr = buildGadb({ rootName: 'BlendDB', categories: [{ name: 'Node', sortKey: p919('Node'), fields: [{ hash: 7, type: 2 }], records: [{ name: 'a', values: [[1.5]] }] }] });
    const bytes = writeGadb(bvr);
    expect(isGadb(bytes)).toBe(true);
    expect(parseGadb(bytes).container).toEqual({ kind: 'bare' });
    expect(decodeGadbText(parseGadb(bytes).strings, 0)).toBe('BlendDB');
    expect(verifyGadb(bytes)).toEqual([]);
    const wrapped = new Uint8Array(bytes.length + 8);
    wrapped.set([0x41, 0x42, 0x43, 0x44, 3, 0, 0, 0]);
    wrapped.set(bytes, 8);
    const g = parseGadb(wrapped);
    expect(g.container).toEqual({ kind: 'wrapped', magic: 'ABCD', version: 3 });
    expect(describeDifference(writeGadb(g), wrapped)).toBe('');
  });
});
