/**
 * GADB v17 writer: rebuilds the file from the model, in the reader's field order. The string block is laid out
 * again (`layout.ts`) and every reference rewritten; sizes and counts the bytes determine are recomputed; unknown
 * fields, padding and the pair table come from the model. The argument is never modified.
 */
import { ConsistencyError } from '../../binary/errors.ts';
import { latin1Bytes } from '../../binary/reader.ts';
import { planGadbStringBlock, remapBlockCells, itemOf, type GadbStringOrder } from './layout.ts';
import { GADB_CATEGORY_SIZE, GADB_DESCRIPTOR_SIZE, GADB_FORMAT, GADB_HEADER_SIZE, GADB_PRIMARY_HEADER_SIZE, GADB_RECORD_HEADER, GADB_SECONDARY_HEADER_SIZE, GADB_WRAPPER_SIZE } from './parse.ts';
import { validateGadb } from './validate.ts';
import type { Gadb } from './types.ts';

const HOST_LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Options of `writeGadb`. */
export interface WriteGadbOptions {
  /** String-block order (default `first-use`, the spec's rule). */
  stringOrder?: GadbStringOrder;
}

/** Writes `g` as a GADB v17 file (with its wrapper, if any). Throws a `ConsistencyError` when `validateGadb` finds errors. */
export function writeGadb(g: Gadb, options: WriteGadbOptions = {}): Uint8Array<ArrayBuffer> {
  const errors = validateGadb(g).filter((i) => i.severity === 'error');
  if (errors.length > 0) throw new ConsistencyError(GADB_FORMAT, errors);

  const plan = planGadbStringBlock(g, options.stringOrder ?? 'first-use');
  const remap = (key: number): number => {
    const i = itemOf(plan.itemIndexByWord, key);
    return i >= 0 ? plan.newOffset[i]! : key;
  };
  // Cells with string-block references rewritten; everything else as in the model.
  const cells = g.cells.slice();
  remapBlockCells(g, plan, cells);

  const { header, descriptors: d, records, categories } = g;
  const wrapper = g.container.kind === 'wrapped' ? GADB_WRAPPER_SIZE : 0;
  let recordBytes = 0;
  for (const c of categories) recordBytes += c.primaryCount * GADB_PRIMARY_HEADER_SIZE + c.secondaryCount * GADB_SECONDARY_HEADER_SIZE;
  const total =
    wrapper + GADB_HEADER_SIZE + g.headerExtra.byteLength + 2 + g.headerString.byteLength + plan.size + d.count * GADB_DESCRIPTOR_SIZE + 8 +
    categories.length * GADB_CATEGORY_SIZE + recordBytes + cells.length * 4 + 4 + g.pairs.length * 4;
  // The size is known exactly, so the file is filled in place (no growth, no final copy).
  const w = new FileCursor(total);

  if (g.container.kind === 'wrapped') {
    w.bytes(latin1Bytes(g.container.magic.padEnd(4, '\0').slice(0, 4)));
    w.u32(g.container.version);
  }
  // Header (11 x u32).
  w.bytes(latin1Bytes('GADB'));
  w.u32(header.version);
  w.u32(plan.size);
  w.u32(categories.length);
  w.u32(header.recordCount);
  w.u32(header.unk14);
  w.u32(cells.length);
  w.u32(d.count);
  w.u32(header.unk20);
  w.u32(header.unk24);
  w.u32(GADB_HEADER_SIZE + g.headerExtra.byteLength);
  w.bytes(g.headerExtra);
  w.u16(g.headerString.byteLength);
  w.bytes(g.headerString);

  // String block.
  const { data, itemKeys, itemSizes } = g.strings;
  for (let j = 0; j < plan.order.length; j++) {
    const i = plan.order[j]!;
    w.copy(data, itemKeys[i]!, itemSizes[i]!);
  }

  // Descriptors, 15 bytes a row.
  for (let i = 0; i < d.count; i++) {
    w.u32(d.declaredHash[i]!);
    w.u32(d.sortedHash[i]!);
    w.u8(d.schemaOrdinal[i]!);
    w.u8(d.sortedToDeclared[i]!);
    w.u8(d.typeCode[i]!);
    w.u16(d.elementCount[i]!);
    w.u16(d.link[i]!);
  }

  // Value section.
  w.u32(g.valueSectionUnk00);
  w.u32(categories.length);
  const cellBytes = HOST_LITTLE_ENDIAN ? new Uint8Array(cells.buffer, cells.byteOffset, cells.byteLength) : undefined;
  let rec = 0;
  let cell = 0;
  for (const cat of categories) {
    w.u32(remap(cat.nameKey));
    w.u32(remap(cat.typeNameKey));
    w.u32(remap(cat.unk08Key));
    w.u32(cat.primaryCount);
    w.u32(cat.secondaryCount);
    w.u32(cat.sortKey);
    const n = cat.primaryCount + cat.secondaryCount;
    for (let i = 0; i < n; i++, rec++) {
      const primary = i < cat.primaryCount;
      writeRecordHeader(w, g, rec, primary, primary ? 0 : remap(records.nameKey[rec]!));
      const count = records.cellCount[rec]!;
      if (cellBytes && count > 32) w.bytes(cellBytes.subarray(cell * 4, (cell + count) * 4));
      else for (let k = 0; k < count; k++) w.u32(cells[cell + k]!);
      cell += count;
    }
  }

  // Trailer.
  w.u32(g.pairs.length >>> 1);
  for (let i = 0; i < g.pairs.length; i++) w.u32(g.pairs[i]!);
  return w.finish();
}

/**
 * A little-endian cursor over a buffer of exactly the file's size. (`ByteWriter` grows and copies; at the real
 * game's 57 MB the exact-size fill is measurably faster.) `finish` checks the size was right.
 */
class FileCursor {
  readonly out: Uint8Array<ArrayBuffer>;
  private readonly dv: DataView;
  pos = 0;
  constructor(size: number) {
    this.out = new Uint8Array(size);
    this.dv = new DataView(this.out.buffer);
  }
  u8(v: number): void {
    this.out[this.pos++] = v;
  }
  u16(v: number): void {
    this.dv.setUint16(this.pos, v, true);
    this.pos += 2;
  }
  u32(v: number): void {
    this.dv.setUint32(this.pos, v >>> 0, true);
    this.pos += 4;
  }
  bytes(b: Uint8Array): void {
    this.out.set(b, this.pos);
    this.pos += b.byteLength;
  }
  /** `n` bytes of `src` from `from` (a byte loop for short runs: cheaper than a subarray and a set). */
  copy(src: Uint8Array, from: number, n: number): void {
    if (n > 64) {
      this.out.set(src.subarray(from, from + n), this.pos);
    } else {
      const out = this.out;
      for (let i = 0; i < n; i++) out[this.pos + i] = src[from + i]!;
    }
    this.pos += n;
  }
  finish(): Uint8Array<ArrayBuffer> {
    if (this.pos !== this.out.byteLength) throw new Error(`gadb writer: wrote ${this.pos} bytes, planned ${this.out.byteLength}`);
    return this.out;
  }
}

/** A record header, mirror of the reader: name (secondaries), then the 8-byte tail, as `GADB_RECORD_HEADER` lays them out. */
function writeRecordHeader(w: FileCursor, g: Gadb, rec: number, primary: boolean, nameOffset: number): void {
  const h = primary ? GADB_RECORD_HEADER.primary : GADB_RECORD_HEADER.secondary;
  const start = w.pos;
  if (h.nameAt >= 0) {
    w.pos = start + h.nameAt;
    w.u32(nameOffset);
  }
  w.pos = start + h.tailAt;
  const r = g.records;
  const first = r.firstDescriptor[rec]!;
  w.u16(r.cellCount[rec]!);
  w.u8(r.descriptorCount[rec]!);
  w.u8(first & 0xff); // u24 first descriptor (H-REC-FIRST-U24)
  w.u16((first >>> 8) & 0xffff);
  w.u8(r.unk0A[rec]!);
  w.u8(r.flags[rec]!);
  w.pos = start + h.size;
}
