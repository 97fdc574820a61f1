import { describe, expect, it } from 'vitest';
import { ByteReader, ByteWriter, ConsistencyError, EofError, FormatError, guardCount } from '../../../src/binary/index.ts';
import { hex } from '../../support/fixtures.ts';

describe('ByteReader', () => {
  it('reads little- and big-endian values at the right offsets', () => {
    const r = new ByteReader(hex`01 02 03 04 05 06 07 08 00 00 80 3f`);
    expect(r.u16()).toBe(0x0201);
    r.littleEndian = false;
    expect(r.u16()).toBe(0x0304);
    r.littleEndian = true;
    expect(r.u32()).toBe(0x08070605);
    expect(r.f32()).toBe(1);
    expect(r.remaining).toBe(0);
  });

  it('raises an EofError naming format, file offset and field path', () => {
    const r = new ByteReader(hex`aa bb cc`, { format: 'gadb', baseOffset: 0x100 });
    r.u16();
    try {
      r.u32('/header/version');
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(EofError);
      const err = e as EofError;
      expect(err.offset).toBe(0x102);
      expect(err.path).toBe('/header/version');
      expect(err.message).toBe('gadb: unexpected end of data: needs 4 byte(s), 1 left at 0x0102 (/header/version)');
    }
  });

  it('returns views, not copies, from bytes()', () => {
    const data = hex`01 02 03 04`;
    const view = new ByteReader(data).bytes(2);
    data[0] = 9;
    expect(view[0]).toBe(9);
  });

  it('expectU32 reports expected and actual values', () => {
    const r = new ByteReader(hex`12 00 00 00`, { format: 'gadb' });
    expect(() => r.expectU32(0x11, '/header/version')).toThrow('gadb: expected u32 0x11, got 0x12 at 0x0000 (/header/version)');
  });

  it('guardCount refuses counts the remaining bytes cannot justify', () => {
    expect(guardCount('x', 0, 10, 4, 40)).toBe(10);
    expect(() => guardCount('x', 8, 11, 4, 40, '/count')).toThrow(FormatError);
    expect(() => guardCount('x', 8, -1, 4, 40)).toThrow(FormatError);
    expect(() => guardCount('x', 8, 0x7fffffff, 1, 40)).toThrow(/only 40 available/);
  });

  it('at() restores the position even when the callback throws', () => {
    const r = new ByteReader(hex`01 02 03 04`);
    r.u8();
    expect(() => r.at(3, (x) => x.u32())).toThrow(EofError);
    expect(r.pos).toBe(1);
  });

  it('seek outside the data is a FormatError, not a RangeError', () => {
    const r = new ByteReader(hex`01`);
    expect(() => r.seek(5)).toThrow(FormatError);
    expect(() => r.sub(0, 9)).toThrow(EofError);
  });
});

describe('ByteWriter', () => {
  it('writes both endiannesses and grows past its initial capacity', () => {
    const w = new ByteWriter({ capacity: 16 });
    for (let i = 0; i < 100; i++) w.u32(i);
    w.littleEndian = false;
    w.u16(0x0102);
    const out = w.finish();
    expect(out.length).toBe(402);
    expect(new DataView(out.buffer).getUint32(396, true)).toBe(99);
    expect([...out.subarray(400)]).toEqual([1, 2]);
  });

  it('reservations must be filled before finish()', () => {
    const w = new ByteWriter({ format: 'gadb' });
    const size = w.reserveU32('fileSize');
    w.u32(7);
    expect(() => w.finish()).toThrow(ConsistencyError);
    size.fill(w.pos);
    expect([...w.finish()]).toEqual([8, 0, 0, 0, 7, 0, 0, 0]);
  });

  it('align pads with the given byte relative to an origin', () => {
    const w = new ByteWriter();
    w.u8(1).align(4, 0x5f).u8(2).align(4, 0, 2);
    expect([...w.finish()]).toEqual([1, 0x5f, 0x5f, 0x5f, 2, 0]);
  });
});
