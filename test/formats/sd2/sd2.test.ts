import { describe, expect, it } from 'vitest';
import {
  EofError,
  FormatError,
  StaticDb,
  UnsupportedError,
  ConsistencyError,
  ffnv32,
  sd2Keystream,
  parseSd2,
  verifySd2,
  writeSd2,
  writeSd2Image,
  sd2XorKeystream,
  isSd2,
  sd2Adler32,
} from '../../../src/index.ts';
import { hex } from '../../support/fixtures.ts';
import { fixtureBytes } from '../../staticdb/dump.ts';

// ----------------------------------------------------------------------------------------------------------------
// Independent fixtures: memory images written by hand as hex, wrapped by hand (stored deflate block, keystream
// XOR from the spec-verified primitive). Nothing here comes from writeSd2.

/** Memory version 1002: one table (UInt `id`, nullable String `name`), 3 rows, a short-form and a long-form key. */
const IMAGE_1002 = hex`
  ea 03 00 00  01 00
  44 33 22 11  0c 00  02 00  08 00  01
  aa aa aa aa  00 00  ff  03
  bb bb bb bb  04 00  00  0b
  4e 00 00 00  03 00 00 00
  72 00 00 00
  00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
  07 00 00 00  00 00 00 03  00  00 00 00
  08 00 00 00  07 00 00 00  00  00 00 00
  09 00 00 00  00 00 00 00  01  00 00 00
  68 69 00  04 00 79 6f 21 00`;

/** Memory version 1000: the same table with 8-byte keys (address | length << 32), entries XORed with the row index. */
function image1000(): Uint8Array {
  const image = hex`
    e8 03 00 00  01 00
    44 33 22 11  10 00  02 00  0c 00  01
    aa aa aa aa  00 00  ff  03
    bb bb bb bb  04 00  00  0b
    4e 00 00 00  02 00 00 00
    6e 00 00 00
    00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
    07 00 00 00  00 00 00 00 03 00 00 00  00  00 00 00
    08 00 00 00  03 00 00 00 04 00 00 00  00  00 00 00
    68 69 00  5c 9b e0 6a`; // row 1: "yo!\0" XOR sd2Keystream(1) = 25 f4 c1 6a (spec §3 vector)
  sd2XorKeystream(image, 0, image.length - 7, image.length - 4); // row 0: "hi\0" XOR sd2Keystream(0, 3)
  return image;
}

/** A zlib stream with one stored deflate block (BFINAL=1, BTYPE=00), written by hand. */
function storedZlib(image: Uint8Array): Uint8Array {
  const n = image.length;
  return new Uint8Array([0x78, 0x01, 0x01, n & 255, n >> 8, ~n & 255, (~n >> 8) & 255, ...image]);
}

function handFile(image: Uint8Array, options: { fileVersion?: number; flags: number; patch?: string; adler?: boolean }): Uint8Array {
  const { fileVersion = 12, flags, patch = 'beta-1869' } = options;
  let payload: Uint8Array;
  if (flags & 4) {
    const z = storedZlib(image);
    const trailer = options.adler ? 4 : 0;
    const head = fileVersion === 7 ? 0 : 8;
    payload = new Uint8Array(head + z.length + trailer);
    if (head) new DataView(payload.buffer).setUint32(0, image.length, true);
    payload.set(z, head);
    if (trailer) new DataView(payload.buffer).setUint32(payload.length - 4, sd2Adler32(image), false);
  } else payload = image.slice();
  if (flags & 1) sd2XorKeystream(payload, ffnv32(patch));
  const out = new Uint8Array(128 + payload.length);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, 0xda7aba5e, true);
  dv.setUint32(4, fileVersion, true);
  dv.setUint32(8, payload.length, true);
  dv.setUint32(12, flags, true);
  dv.setBigUint64(16, 1462422114000000n, true);
  out.set(new TextEncoder().encode(patch), 24);
  out.set(payload, 128);
  return out;
}

/** The 1002 image with its two pool entries XORed by their keys (Client flag set). */
function clientImage1002(): Uint8Array {
  const image = IMAGE_1002.slice();
  const pool = 0x72;
  sd2XorKeystream(image, 0x03000000, pool, pool + 3);
  sd2XorKeystream(image, 7, pool + 5, pool + 9);
  return image;
}

function values(bytes: Uint8Array): unknown[][] {
  const t = StaticDb.open(bytes).tableAt(0);
  return Array.from({ length: t.rowCount }, (_, r) => t.row(r));
}

describe('sd2 codec on hand-made fixtures', () => {
  const expected1002 = [
    [7, 'hi'],
    [8, 'yo!'],
    [9, null],
  ];

  const combos: { name: string; flags: number; fileVersion: number; client: boolean }[] = [];
  for (const fileVersion of [7, 11, 12]) for (const flags of [0, 1, 4, 5, 8, 9, 12, 13, 29]) combos.push({ name: `v${fileVersion} flags ${flags}`, flags, fileVersion, client: (flags & 8) !== 0 });

  it.each(combos)('memory 1002, $name: values, byte-exact rewrite, re-deflated rewrite', ({ flags, fileVersion, client }) => {
    const bytes = handFile(client ? clientImage1002() : IMAGE_1002, { flags, fileVersion });
    expect(isSd2(bytes)).toBe(true);
    const file = parseSd2(bytes);
    expect(file.header.fileVersion).toBe(fileVersion);
    expect(file.compression.compressed).toBe((flags & 4) !== 0);
    expect(values(bytes)).toEqual(expected1002);
    expect(writeSd2(file)).toEqual(bytes);
    const redeflated = writeSd2(file, { reuseCompressed: false });
    expect(parseSd2(redeflated).source!.image).toEqual(file.source!.image);
    expect(writeSd2(parseSd2(redeflated))).toEqual(redeflated);
  });

  it.each([7, 11, 12])('memory 1000 in file version %i: 8-byte keys, entries seeded with the row index', (fileVersion) => {
    const bytes = handFile(image1000(), { flags: 13, fileVersion });
    const file = parseSd2(bytes);
    expect(file.image.memoryVersion).toBe(1000);
    expect(values(bytes)).toEqual([
      [7, 'hi'],
      [8, 'yo!'],
    ]);
    expect(writeSd2(file)).toEqual(bytes);
  });

  it('keeps an Adler-32 trailer when the stream has one', () => {
    const bytes = handFile(IMAGE_1002, { flags: 4, adler: true });
    const file = parseSd2(bytes);
    expect(file.compression.adler32).toBe(true);
    const rewritten = writeSd2(file, { reuseCompressed: false });
    const payloadEnd = rewritten.slice(-4);
    expect(new DataView(payloadEnd.buffer).getUint32(0, false)).toBe(sd2Adler32(file.source!.image));
    expect(parseSd2(rewritten).compression.adler32).toBe(true);
  });

  it('records the hand-made layout (no 128 padding) and re-emits it; canonical layout pads blocks to 128', () => {
    const file = parseSd2(handFile(IMAGE_1002, { flags: 13 }));
    expect(file.image.layout).toMatchObject({ headerSize: 0x4e, rowOffsets: [0x4e], rowRegionSize: 36 });
    expect(writeSd2Image(file.image)).toEqual(IMAGE_1002);
    const canonical = writeSd2Image(file.image, { layout: 'canonical' });
    expect(canonical.length).toBe(0x4e + 128 + 9);
    expect(new DataView(canonical.buffer).getUint32(0x4e - 37, true)).toBe(0x4e + 128);
  });

  it('keeps non-zero filler bytes between blocks and trailing bytes after the payload', () => {
    const image = new Uint8Array(IMAGE_1002.length + 4);
    image.set(IMAGE_1002.subarray(0, 0x72));
    image.set([0xde, 0xad, 0xbe, 0xef], 0x72);
    image.set(IMAGE_1002.subarray(0x72), 0x76);
    new DataView(image.buffer).setUint32(0x4e - 37, 0x76, true);
    const bytes = new Uint8Array([...handFile(image, { flags: 13 }), 1, 2, 3]);
    const file = parseSd2(bytes);
    expect(file.image.layout!.filler).toEqual([{ offset: 36, bytes: new Uint8Array([0xde, 0xad, 0xbe, 0xef]) }]);
    expect(file.trailing).toEqual(new Uint8Array([1, 2, 3]));
    expect(writeSd2(file, { reuseCompressed: false }).slice(-3)).toEqual(new Uint8Array([1, 2, 3]));
    expect(writeSd2Image(file.image)).toEqual(image);
    expect(verifySd2(file).map((i) => i.path)).toContain('/trailing');
  });
});

describe('sd2 errors', () => {
  const good = handFile(clientImage1002(), { flags: 13 });

  it('a wrong patch name says the payload does not decrypt with it', () => {
    expect(() => parseSd2(fixtureBytes(), { patch: 'beta-1868' })).toThrow(/inflate failed: payload does not decrypt with patch name "beta-1868"/);
    const renamed = fixtureBytes().slice();
    renamed.set(new TextEncoder().encode('beta-1870'), 24);
    expect(() => parseSd2(renamed)).toThrow(FormatError);
  });

  it('a corrupted deflate stream is a FormatError, never garbage', () => {
    const bytes = fixtureBytes().slice();
    for (let i = 200; i < 260; i++) bytes[i] = bytes[i]! ^ 0x5a;
    expect(() => parseSd2(bytes)).toThrow(/inflate failed/);
  });

  it('truncation, bad magic, unknown versions, BigEndian and type ids are typed errors with offsets', () => {
    expect(() => parseSd2(good.subarray(0, 100))).toThrow(EofError);
    expect(() => parseSd2(good.subarray(0, good.length - 1))).toThrow(EofError);
    const badMagic = good.slice();
    badMagic[0] = 0;
    expect(() => parseSd2(badMagic)).toThrow(/expected u32 0xDA7ABA5E, got 0xDA7ABA00 at 0x0000 \(\/header\/magic\)/);
    const v13 = good.slice();
    v13[4] = 13;
    expect(() => parseSd2(v13)).toThrow(UnsupportedError);
    const be = good.slice();
    be[12] = 13 | 2;
    expect(() => parseSd2(be)).toThrow(/BigEndian/);
    const badType = IMAGE_1002.slice();
    badType[6 + 11 + 15] = 27;
    expect(() => parseSd2(handFile(badType, { flags: 12 }))).toThrow(/unknown type id 27 .* \(\/image\/tables\[0\]\/fields\[1\]\/type\)/);
    const badVersion = IMAGE_1002.slice();
    badVersion[0] = 0xeb;
    expect(() => parseSd2(handFile(badVersion, { flags: 12 }))).toThrow(/memory version 1003/);
  });

  it('a pool key pointing outside the pool fails on access with the table, row and column', () => {
    const image = IMAGE_1002.slice();
    image.set([0xff, 0x00, 0x00, 0x00], 0x4e + 12 + 4); // row 1 long-form key → address 127
    const db = StaticDb.open(handFile(image, { flags: 4 }));
    expect(db.tableAt(0).cell(0, 1)).toBe('hi');
    expect(() => db.tableAt(0).cell(1, 1)).toThrow(/length prefix at 127 outside the 9-byte pool .*row 1/);
  });

  it('refuses to write an inconsistent model', () => {
    const file = parseSd2(good);
    const broken = { ...file, image: { ...file.image, tables: [{ ...file.image.tables[0]!, rowCount: 5 }] } };
    expect(() => writeSd2(broken)).toThrow(ConsistencyError);
    expect(() => writeSd2Image(broken.image, { layout: 'preserve' })).toThrow(/layout no longer fits/);
  });
});

describe('sd2 fixture (FauFau 1.5.0)', () => {
  it('round-trips byte-exact, and the worked example bytes of spec §9 hold', () => {
    const bytes = fixtureBytes();
    const file = parseSd2(bytes);
    expect(writeSd2(file)).toEqual(bytes);
    expect(Array.from(bytes.subarray(0, 24))).toEqual(Array.from(hex`5e ba 7a da 0c 00 00 00 54 06 00 00 0d 00 00 00 80 dc 9d ae 10 32 05 00`));
    const payload = bytes.slice(128, 140);
    expect(payload).toEqual(hex`f2 60 b3 68 c2 c5 c3 a4 db fe 6f 43`);
    sd2XorKeystream(payload, ffnv32('beta-1869'));
    expect(payload.subarray(0, 10)).toEqual(hex`05 0b 00 00 00 00 00 00 78 01`);
    expect(file.image.layout!.rowOffsets).toEqual([439, 1463, 1719, 2359]);
    expect(file.image.tables[0]!.fields[0]).toEqual({ id: 0xfbc35fb8, start: 0, nullableIndex: 255, type: 1 });
    expect(verifySd2(file)).toEqual([]);
    expect(sd2Keystream(1, 6)).toEqual(hex`25 f4 c1 6a eb 8c`);
  });

  it('rebuilding the pool canonically reproduces FauFau\'s memory image byte for byte', () => {
    const bytes = fixtureBytes();
    const original = parseSd2(bytes).source!.image;
    const rebuilt = StaticDb.open(bytes).compact();
    expect(writeSd2Image(rebuilt.toFile().image, { layout: 'canonical' })).toEqual(original);
  });
});
