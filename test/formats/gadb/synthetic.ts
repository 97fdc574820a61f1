/**
 * An independent hand-assembled GADB v17 file (not made by scry's writer) exercising what the real sample lacks:
 * a primary record, types 6, 7, 9, 11 and 0x44, a run without Bools, a zero-field record, non-zero header
 * +0x14/+0x20/+0x24 and a pair table. Used by `hypotheses.test.ts` and `fuzz/gadb.fuzz.ts`.
 */
import { hex } from '../../support/fixtures.ts';

/** Hex with a `| comment` after the bytes of each line. */
function annotatedHex(text: string): Uint8Array {
  const clean = text.split('\n').map((line) => line.split('|')[0]).join(' ');
  return hex`${clean}`;
}

/** Hand-assembled; offsets in the comments are file offsets. */
export const SYNTHETIC = annotatedHex(`
  47 41 44 42  11 00 00 00  44 00 00 00  02 00 00 00    | 0x00 GADB v17, string block 0x44, 2 categories
  03 00 00 00  01 00 00 00  0b 00 00 00  06 00 00 00    | 0x10 3 secondaries, +0x14 = 1, 11 cells, 6 descriptors
  78 56 34 12  01 00 00 00  2c 00 00 00  00 00          | 0x20 +0x20 = 0x12345678, +0x24 = 1, header size 0x2C, u16 0
  54 44 42 00                                           | sb+00 "TDB" (root)
  41 00 00 00                                           | sb+04 "A"
  00 00 00 00                                           | sb+08 ""
  02 00 00 00 01 00 00 00                               | sb+0C int64 0x100000002
  00 00 80 3f 00 00 00 40                               | sb+14 float pair (1, 2)
  61 2e 74 65 78 00 00 00                               | sb+1C "a.tex"
  78 00 00 00                                           | sb+24 "x"
  ff ff ff ff ff ff ff ff                               | sb+28 int64 -1
  42 00 00 00                                           | sb+30 "B"
  71 00 00 00                                           | sb+34 "q"
  ef be ad de 04 03 02 01                               | sb+38 type-9 value (opaque)
  72 00 00 00                                           | sb+40 "r"
  10 00 00 00  05 00 00 00  00 03 06 01 00 01 00        | run 0 decl 0: 0x10 Int64 -> cell 1     | sorted 0x05 -> decl 3
  20 00 00 00  10 00 00 00  01 00 07 01 00 02 00        |       decl 1: 0x20 FloatPair -> cell 2 | sorted 0x10 -> decl 0
  30 00 00 00  20 00 00 00  02 01 44 01 00 03 00        |       decl 2: 0x30 String|0x40 -> 3    | sorted 0x20 -> decl 1
  05 00 00 00  30 00 00 00  04 02 01 01 00 00 00        |       decl 3: 0x05 Bool -> bit 0       | sorted 0x30 -> decl 2
  40 00 00 00  40 00 00 00  00 00 0b 02 00 01 00        | run 1 decl 0: 0x40 RecordLink11[2] -> cells 1..2
  50 00 00 00  50 00 00 00  01 01 09 01 00 00 00        |       decl 1: 0x50 Type9 -> cell 0 (no bool word)
  00 00 00 00  02 00 00 00                              | value section: u32 0, 2 categories
  04 00 00 00  04 00 00 00  08 00 00 00  01 00 00 00  01 00 00 00  01 00 00 00   | cat 0 "A": 1 primary, 1 secondary, key P919("A") = 1
  04 00 04 00 00 00 00 08                               | primary: 4 cells, 4 descriptors from 0, +0x0A 0, flags 8
  01 00 00 00  0c 00 00 00  14 00 00 00  1c 00 00 00    |   true, int64 @0C, pair @14, "a.tex"
  24 00 00 00  04 00 04 00 00 00 00 08                  | secondary "x"
  00 00 00 00  28 00 00 00  14 00 00 00  08 00 00 00    |   false, int64 @28, pair @14 (shared), ""
  30 00 00 00  30 00 00 00  08 00 00 00  00 00 00 00  02 00 00 00  02 00 00 00   | cat 1 "B": 2 secondaries, key 2
  34 00 00 00  03 00 02 04 00 00 00 08                  | "q": 3 cells, 2 descriptors from 4
  38 00 00 00  00 00 00 00  01 00 00 00                 |   type-9 @38, links: A primary 0, A record 1 ("x")
  40 00 00 00  00 00 00 00 00 00 00 08                  | "r": zero-field record (no cells, descriptor 0)
  01 00 00 00  dd cc bb aa  44 33 22 11                 | trailer: 1 pair
`);

