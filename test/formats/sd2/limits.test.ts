/**
 * sd2 inflation is bounded (issue 15 item 4): the image header is checked on the first inflated bytes, a declared
 * size beyond what the payload can justify is refused before anything is allocated, and a stream without a size
 * header (file version 7) stops at the limit instead of inflating to whatever it holds.
 */
import { zlibSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { FormatError } from '../../../src/binary/errors.ts';
import { SD2_DEFAULT_IMAGE_LIMIT, parseSd2, sd2ImageLimit, verifySd2, writeSd2, type Sd2Inflate } from '../../../src/formats/sd2/sd2.ts';
import { StaticDb } from '../../../src/staticdb/database.ts';

/** An sd2 file with the Compressed flag and this zlib payload (version 7: no size header; else `declared`). */
function file(zlib: Uint8Array, fileVersion: 7 | 12, declared = 0): Uint8Array {
  const head = fileVersion === 7 ? 0 : 8;
  const out = new Uint8Array(128 + head + zlib.length);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, 0xda7aba5e, true);
  dv.setUint32(4, fileVersion, true);
  dv.setUint32(8, head + zlib.length, true);
  dv.setUint32(12, 4, true);
  if (head) dv.setUint32(128, declared, true);
  out.set(zlib, 128 + head);
  return out;
}

/** An image that starts like a real one (memory version 1002, no tables) and then runs on in zeros. */
function imageOf(size: number): Uint8Array {
  const image = new Uint8Array(size);
  new DataView(image.buffer).setUint32(0, 1002, true);
  return image;
}

describe('sd2 inflation is bounded by what the payload can justify', () => {
  it('documents its default limit: 4 MiB + 16 × the payload (a real 32 MB file inflates to 54 MB)', () => {
    expect(SD2_DEFAULT_IMAGE_LIMIT).toEqual({ base: 4 * 2 ** 20, ratio: 16 });
    expect(sd2ImageLimit(32e6)).toBe(4 * 2 ** 20 + 16 * 32e6);
  });

  it('a version-7 stream that inflates past the limit is stopped there, with the limit and how to raise it', () => {
    const zlib = zlibSync(imageOf(512 * 1024), { level: 1 });
    expect(() => parseSd2(file(zlib, 7), { maxImageBytes: 128 * 1024 })).toThrow(FormatError);
    expect(() => parseSd2(file(zlib, 7), { maxImageBytes: 128 * 1024 })).toThrow(/inflates past the 131072-byte limit.*maxImageBytes \(CLI: --max-image MiB\)/);
    // raised, the same file goes on to its image (which then fails for its own reason, not the limit)
    expect(() => parseSd2(file(zlib, 7), { maxImageBytes: 2 ** 20 })).toThrow(/poolOffset/);
  });

  it('a version-12 declared size the payload cannot justify is refused before inflating anything', () => {
    const zlib = zlibSync(imageOf(4096));
    let called = 0;
    const inflate: Sd2Inflate = () => {
      called++;
      return new Uint8Array(0);
    };
    const declared = 1000 * zlib.length + 8 * 2 ** 20;
    expect(() => parseSd2(file(zlib, 12, declared), { inflate })).toThrow(/declares an image of \d+ bytes, over the \d+-byte limit/);
    expect(called).toBe(0);
  });

  it('a stream whose first inflated bytes are not a memory image is refused before the rest is inflated', () => {
    const garbage = new Uint8Array(256 * 1024).fill(0x41);
    let called = 0;
    const inflate: Sd2Inflate = () => {
      called++;
      return new Uint8Array(0);
    };
    expect(() => parseSd2(file(zlibSync(garbage), 7), { inflate })).toThrow(/unsupported memory version 1094795585 \(known: 1000, 1002\): the inflated image starts with u32 0x41414141/);
    expect(called).toBe(0);
  });
});

/**
 * An uncompressed sd2 (flags 0) holding two tables, the second with 0 rows whose rowOffset is set to `rowOffset`
 * (FauFau and the game never read the rows of an empty table).
 */
function emptyTableFile(rowOffset: number): Uint8Array {
  const db = StaticDb.create({ fileVersion: 12, memoryVersion: 1002, flags: 0, patch: 'beta-1869' });
  const a = db.addTable('dbitems::Weapons', [{ name: 'id', type: 'UInt' }]);
  db.addRow(a, { id: 7 });
  db.addTable('dbitems::Empty', [{ name: 'id', type: 'UInt' }]);
  const bytes = db.write();
  const image = bytes.subarray(128);
  const dv = new DataView(image.buffer, image.byteOffset, image.byteLength);
  // rowInfos follow the 2 table infos (11 bytes each) and the 2 field entries (8 bytes each)
  const rowInfos = 6 + 2 * 11 + 2 * 8;
  const t = StaticDb.open(bytes).tables().findIndex((x) => x.rowCount === 0);
  dv.setUint32(rowInfos + 8 * t, rowOffset, true);
  return bytes;
}

describe('a table with 0 rows whose row offset lies past the image (issue 15 item 5)', () => {
  it('is reported by verify, and written back byte for byte instead of a RangeError', () => {
    const bytes = emptyTableFile(0x7fffff00);
    const file = parseSd2(bytes);
    expect(verifySd2(file).map((i) => i.rule)).toContain('sd2.rowOffset');
    expect(writeSd2(file)).toEqual(bytes);
  });

  it('survives an edit of another table (sd2 set) and keeps the offset', () => {
    const db = StaticDb.open(emptyTableFile(0x7fffff00));
    const weapons = db.tables().find((x) => x.rowCount === 1)!;
    db.setCell(weapons, 0, 0, 9);
    const again = StaticDb.open(db.write());
    expect(again.tables().find((x) => x.rowCount === 1)!.cell(0, 0)).toBe(9);
  });
});
