/**
 * Golden comparison of the real sample (`landmine_curse.fxp`) with its reviewed decoded view, made with an
 * independent parser (`landmine_curse.expected.json`): header, string block, all 514 descriptors, every category
 * and record, every cell, every decoded field value and link.
 */
import { describe, expect, it } from 'vitest';
import {
  GadbItemKind,
  buildGadbIndex,
  decodeGadbElement,
  decodeGadbText,
  gadbTypeName,
  parseGadbWithLayout,
  resolveGadbLink,
  verifyGadb,
  type GadbLink,
} from '../../../src/formats/gadb/index.ts';
import { loadFixture, loadJsonFixture } from '../../support/fixtures.ts';

interface ExpectedField {
  decl: number;
  hash: number;
  type: number;
  typeName: string;
  count: number;
  link: number;
  name?: string;
  value?: boolean;
  values?: unknown[];
}
interface ExpectedRecord {
  fileOffset: number;
  name: string;
  nameOffset: number;
  cellCount: number;
  descriptorCount: number;
  firstDescriptor: number;
  bytes10_11: [number, number];
  cells: number[];
  fields: ExpectedField[];
}
interface ExpectedCategory {
  fileOffset: number;
  name: string;
  nameOffset: number;
  field04: number;
  field08: number;
  primaryCount: number;
  secondaryCount: number;
  sortKey: number;
  records: ExpectedRecord[];
}
interface Expected {
  wrapper: { magic: string; version: number; gadbFileOffset: number };
  header: Record<string, number | string>;
  stringBlock: { fileOffset: number; size: number; rootName: string };
  descriptors: number[][];
  categories: ExpectedCategory[];
  pairTableCount: number;
  fileSize: number;
}

const bytes = loadFixture('gadb', 'landmine_curse.fxp');
const expected = loadJsonFixture<Expected>('gadb', 'landmine_curse.expected.json');
const { gadb, layout } = parseGadbWithLayout(bytes);
const index = buildGadbIndex(gadb);

describe('GADB golden: landmine_curse.fxp', () => {
  it('reads the LTFX wrapper and the header', () => {
    expect(gadb.container).toEqual({ kind: 'wrapped', magic: expected.wrapper.magic, version: expected.wrapper.version });
    expect(layout.gadbOffset).toBe(expected.wrapper.gadbFileOffset);
    const h = expected.header;
    expect(gadb.header).toEqual({
      version: h['version'],
      stringBlockSize: h['stringBlockSize'],
      categoryCount: h['categoryCount'],
      recordCount: h['recordCount'],
      unk14: h['field14'],
      cellCount: h['cellCount'],
      descriptorCount: h['descriptorCount'],
      unk20: h['field20'],
      unk24: h['field24'],
      headerSize: h['headerSize'],
      headerStringLength: h['u16AfterHeader'],
    });
    expect(gadb.header.unk20).toBe(0xabf244df);
    expect(gadb.headerExtra.byteLength).toBe(0);
    expect(gadb.headerString.byteLength).toBe(0);
    expect(layout.fileSize).toBe(expected.fileSize);
    expect(gadb.pairs.length / 2).toBe(expected.pairTableCount);
    expect(layout.trailerOffset).toBe(0x38b8);
  });

  it('reads the string block: root name, 151 shared items tiling 0xE4C bytes', () => {
    expect(layout.stringBlockOffset).toBe(expected.stringBlock.fileOffset);
    expect(gadb.strings.data.byteLength).toBe(expected.stringBlock.size);
    expect(decodeGadbText(gadb.strings, 0)).toBe(expected.stringBlock.rootName);
    expect(gadb.strings.itemKeys.length).toBe(152);
    let end = 0;
    for (let i = 0; i < gadb.strings.itemKeys.length; i++) {
      expect(gadb.strings.itemKeys[i]).toBe(end);
      end += gadb.strings.itemSizes[i]!;
    }
    expect(end).toBe(0xe4c);
    // Sharing per kind: three byte-identical curves of different kinds stay three items.
    const kindAt = (key: number) => index.itemKinds[gadb.strings.itemKeys.indexOf(key)];
    expect([kindAt(0xa8), kindAt(0x550), kindAt(0x714)]).toEqual([GadbItemKind.FloatCurve, GadbItemKind.ColorCurve, GadbItemKind.IntCurve]);
    // `""` at sb+0x18 serves category entries and dozens of string fields.
    expect(decodeGadbText(gadb.strings, 0x18)).toBe('');
    expect(index.itemRefCounts[gadb.strings.itemKeys.indexOf(0x18)]).toBeGreaterThan(30);
  });

  it('reads all 514 descriptors column by column', () => {
    const d = gadb.descriptors;
    expect(d.count).toBe(expected.descriptors.length);
    expect(layout.descriptorsOffset).toBe(0xe82);
    const actual = Array.from({ length: d.count }, (_, i) => [d.declaredHash[i], d.sortedHash[i], d.schemaOrdinal[i], d.sortedToDeclared[i], d.typeCode[i], d.elementCount[i], d.link[i]]);
    expect(actual).toEqual(expected.descriptors);
  });

  it('reads every category and record header, and every cell', () => {
    expect(gadb.categories.length).toBe(expected.categories.length);
    let r = 0;
    gadb.categories.forEach((cat, c) => {
      const e = expected.categories[c]!;
      expect(layout.categoryOffsets[c]).toBe(e.fileOffset);
      expect(decodeGadbText(gadb.strings, cat.nameKey)).toBe(e.name);
      expect([cat.nameKey, cat.typeNameKey, cat.unk08Key, cat.primaryCount, cat.secondaryCount, cat.sortKey]).toEqual([e.nameOffset, e.field04, e.field08, e.primaryCount, e.secondaryCount, e.sortKey]);
      for (const er of e.records) {
        const rec = gadb.records;
        expect(layout.recordOffsets[r]).toBe(er.fileOffset);
        expect(decodeGadbText(gadb.strings, rec.nameKey[r]!)).toBe(er.name);
        expect([rec.nameKey[r], rec.cellCount[r], rec.descriptorCount[r], rec.firstDescriptor[r], rec.unk0A[r], rec.flags[r]]).toEqual([
          er.nameOffset,
          er.cellCount,
          er.descriptorCount,
          er.firstDescriptor,
          er.bytes10_11[0],
          er.bytes10_11[1],
        ]);
        expect(Array.from(gadb.cells.subarray(index.recordCellStart[r], index.recordCellStart[r]! + rec.cellCount[r]!))).toEqual(er.cells);
        r++;
      }
    });
    expect(r).toBe(gadb.records.count);
  });

  it('decodes every field of every record by the slot rule, links included', () => {
    let r = 0;
    let checked = 0;
    for (const e of expected.categories) {
      for (const er of e.records) {
        const first = gadb.records.firstDescriptor[r]!;
        for (const f of er.fields) {
          const k = first + f.decl;
          expect(gadb.descriptors.declaredHash[k]).toBe(f.hash);
          expect(gadb.descriptors.typeCode[k]).toBe(f.type);
          const ours = gadbTypeName(f.type);
          expect(ours === f.typeName || (f.type === 14 && ours === 'Curve14')).toBe(true);
          if (f.type === 1) {
            expect(decodeGadbElement(gadb, index, r, k, 0)).toBe(f.value);
          } else {
            const values = Array.from({ length: f.count }, (_, i) => decodeGadbElement(gadb, index, r, k, i));
            expect(values.map((v, i) => shape(v, f, i, r, k))).toEqual(f.values);
          }
          expect(decodeGadbElement(gadb, index, r, k, f.count)).toBeUndefined();
          checked++;
        }
        r++;
      }
    }
    expect(checked).toBe(700); // 16 records × their runs (records of one category share a run)
  });

  it('resolves the FxGlobalProps table of contents to the elements 0..14 in order', () => {
    const targets: string[] = [];
    for (let i = 0; i < 15; i++) {
      const link = decodeGadbElement(gadb, index, 0, 2, i) as GadbLink;
      const t = resolveGadbLink(gadb, index, link.raw);
      expect(t.kind).toBe('secondary');
      if (t.kind === 'secondary') targets.push(decodeGadbText(gadb.strings, gadb.records.nameKey[t.record]!));
    }
    expect(targets).toEqual(Array.from({ length: 15 }, (_, i) => String(i)));
  });

  it('verifies without a single finding', () => {
    expect(verifyGadb(bytes)).toEqual([]);
  });
});

/** Our decoded element in the golden file's shape. */
function shape(v: unknown, f: ExpectedField, i: number, r: number, k: number): unknown {
  const raw = gadb.cells[index.recordCellStart[r]! + gadb.descriptors.link[k]! + i]!;
  switch (f.type & 0x3f) {
    case 2:
    case 3:
      return v;
    case 10: {
      const link = v as GadbLink;
      const t = resolveGadbLink(gadb, index, link.raw);
      const target = t.kind === 'secondary' ? `${decodeGadbText(gadb.strings, gadb.categories[t.categoryOrdinal]!.nameKey)}/${decodeGadbText(gadb.strings, gadb.records.nameKey[t.record]!)}` : '?';
      return { raw: link.raw, category: link.categoryOrdinal, index: link.index, target };
    }
    case 4:
    case 5:
      return { offset: raw, text: v };
    default:
      return { offset: raw, data: v };
  }
}
