import { describe, expect, it } from 'vitest';
import { SD2_TYPES, StaticDb, sd2HalfToNumber, sd2NumberToHalf, renderSd2LocalizedText, sd2CellWidth } from '../../../src/index.ts';

describe('sd2 values', () => {
  it('binary16: every non-NaN bit pattern survives decode → encode; rounding is to nearest even', () => {
    const wrong: number[] = [];
    for (let h = 0; h < 0x10000; h++) {
      const v = sd2HalfToNumber(h);
      if (!Number.isNaN(v) && sd2NumberToHalf(v) !== h) wrong.push(h);
    }
    expect(wrong).toEqual([]);
    expect(sd2HalfToNumber(0x3c00)).toBe(1);
    expect(sd2HalfToNumber(0x7bff)).toBe(65504);
    expect(sd2HalfToNumber(0x0001)).toBe(2 ** -24);
    expect(sd2NumberToHalf(1 + 2 ** -11)).toBe(0x3c00); // tie → even
    expect(sd2NumberToHalf(1 + 3 * 2 ** -11)).toBe(0x3c02);
    expect(sd2NumberToHalf(1e6)).toBe(0x7c00);
  });

  it('type table: 27 ids, pool keys 4 bytes in 1002 and 8 in 1000', () => {
    expect(SD2_TYPES.map((t) => t.id)).toEqual(Array.from({ length: 27 }, (_, i) => i));
    expect(SD2_TYPES.filter((t) => t.pool).map((t) => t.name)).toEqual(['String', 'Blob', 'Vector2Array', 'Vector3Array', 'Vector4Array', 'ByteArray', 'UShortArray', 'UIntArray']);
    expect([sd2CellWidth(11, 1002), sd2CellWidth(11, 1000), sd2CellWidth(15, 1000), sd2CellWidth(25, 1002)]).toEqual([4, 8, 64, 24]);
  });

  it('strings keep embedded NUL bytes (localized text parameter headers) and lose exactly one terminator', () => {
    const db = StaticDb.create();
    const t = db.addTable('dblocalization::LocalizedText', [
      { name: 'id', type: 'UInt' },
      { name: 'text', type: 'String' },
    ]);
    const withHeader = '\u0003\u0000\u0000\u0005Hello {0}!';
    db.addRow(t, [1, withHeader]);
    db.addRow(t, [2, 'trailing\0']);
    db.addRow(t, [3, '']);
    const back = StaticDb.open(db.write()).tableAt(0);
    expect(back.cell(0, 1)).toBe(withHeader);
    expect(back.cell(1, 1)).toBe('trailing\0');
    expect(Array.from(back.entryBytes(1, 1)!).slice(-2)).toEqual([0, 0]);
    expect(back.cell(2, 1)).toBe('');
  });

  it('renders a localized-text parameter header as {index} (hypothesis sd2.localized-text-header)', () => {
    const enc = new TextEncoder();
    const body = enc.encode('Deal  damage to é ');
    const entry = new Uint8Array([6, 0, 0, 5, 1, 0, 19, ...body, 0]);
    expect(renderSd2LocalizedText(entry)).toEqual({ rendered: 'Deal {0} damage to é {1}', text: 'Deal  damage to é ', parameters: [{ index: 0, offset: 5 }, { index: 1, offset: 19 }] });
    expect(renderSd2LocalizedText(enc.encode('plain text\0'))).toBeUndefined();
    expect(renderSd2LocalizedText(new Uint8Array([3, 0, 0, 99, 65]))).toBeUndefined();
  });

  it('AsciiChar keeps bytes ≥ 0x80 (FauFau reads them as "?")', () => {
    const db = StaticDb.create();
    const t = db.addTable('t::Chars', [{ name: 'c', type: 'AsciiChar' }]);
    db.addRow(t, ['\u00e9']);
    db.addRow(t, [0xff]);
    const back = StaticDb.open(db.write()).tableAt(0);
    expect([back.cell(0, 0), back.cell(1, 0)]).toEqual(['\u00e9', '\u00ff']);
  });
});
