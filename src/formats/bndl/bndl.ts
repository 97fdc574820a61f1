/**
 * `.bndl`: a bundle manifest, version 6 (spec `archives.md` §7; verified on four real files). Little-endian.
 *
 *     0     char[4] "BNDL"
 *     4     u32 version = 6
 *     8     u32 namesSize            byte length of the name block
 *     12    u32 offsetTableOffset    relative to the name block (namesSize + 4 in every sample)
 *     16    u32 count
 *     20    u32[count] sizes         size of each resource in bytes
 *     20+4n name block               NUL-terminated full paths, each zero-padded to a 4-byte boundary
 *     …     bytes up to offsetTableOffset (4 zero bytes in every sample; ImHex reads an empty "bundle type" string)
 *     …     u32[count] name offsets  relative to the name block
 *
 * Entry i = (sizes[i], path at offsets[i]); entries are sorted by P919 of the path. The bundle's content is the
 * companion `.embb` (see `../embb`).
 */
import { FormatError, UnsupportedError, type Issue } from '../../binary/errors.ts';
import { ByteReader } from '../../binary/reader.ts';
import { ByteWriter } from '../../binary/writer.ts';
import { cstringEncode, latin1Decode, latin1Issue } from '../../binary/text.ts';
import { p919, type P919Table } from '../../hash/p919.ts';

export const BNDL_FORMAT = 'bndl';

export interface BndlName {
  /** Offset in the name block. */
  offset: number;
  text: string;
  /** Zero bytes after the NUL that pad the name to 4 bytes (kept for byte-exact writes). */
  padding: number;
}

export interface BndlEntry {
  /** Resource size in bytes. */
  size: number;
  /** Offset of the path in the name block. */
  nameOffset: number;
  /** The path (derived from `nameOffset`). */
  path: string;
}

export interface Bndl {
  version: number;
  /** The name block in stored order. */
  names: BndlName[];
  /** Bytes between the name block and the offset table (4 zeros in every sample). */
  afterNames: Uint8Array;
  entries: BndlEntry[];
}

export function isBndl(bytes: Uint8Array): boolean {
  return bytes.length >= 8 && bytes[0] === 0x42 && bytes[1] === 0x4e && bytes[2] === 0x44 && bytes[3] === 0x4c;
}

export function parseBndl(bytes: Uint8Array): Bndl {
  const r = new ByteReader(bytes, { format: BNDL_FORMAT });
  r.expectBytes('BNDL', '/magic');
  const versionAt = r.pos;
  const version = r.u32('/version');
  if (version !== 6) throw new UnsupportedError(BNDL_FORMAT, versionAt, '/version', `BNDL version ${version}`, `BNDL version ${version} is not supported (6 expected)`);
  const namesSize = r.u32('/namesSize');
  const tableAt = r.pos;
  const offsetTableOffset = r.u32('/offsetTableOffset');
  const countAt = r.pos;
  const count = r.u32('/count');
  if (count === 0 && offsetTableOffset !== 0) {
    throw new UnsupportedError(BNDL_FORMAT, countAt, '/count', 'embedded BNDL', 'count 0: the embedded-data form QuickBMS describes (never seen in Shadow of War data)');
  }
  r.guardCount(count, 8, '/count');
  const sizes: number[] = new Array(count);
  for (let i = 0; i < count; i++) sizes[i] = r.u32(`/sizes/${i}`);
  const blockAt = r.pos;
  r.need(namesSize, '/namesSize');
  if (offsetTableOffset < namesSize) throw new FormatError(BNDL_FORMAT, tableAt, '/offsetTableOffset', `offset table at +${offsetTableOffset} lies inside the ${namesSize}-byte name block`, { actual: offsetTableOffset });
  const block = r.bytes(namesSize, '/names');
  const names: BndlName[] = [];
  const byOffset = new Map<number, string>();
  let pos = 0;
  while (pos < block.length) {
    let end = pos;
    while (end < block.length && block[end] !== 0) end++;
    if (end >= block.length) throw new FormatError(BNDL_FORMAT, blockAt + pos, `/names/${names.length}`, 'unterminated name');
    const text = latin1Decode(block.subarray(pos, end));
    let next = end + 1;
    while (next < block.length && next % 4 !== 0 && block[next] === 0) next++;
    names.push({ offset: pos, text, padding: next - end - 1 });
    byOffset.set(pos, text);
    pos = next;
  }
  const afterNames = r.copyBytes(offsetTableOffset - namesSize, '/afterNames');
  const entries: BndlEntry[] = new Array(count);
  for (let i = 0; i < count; i++) {
    const at = r.pos;
    const nameOffset = r.u32(`/nameOffsets/${i}`);
    const path = byOffset.get(nameOffset);
    if (path === undefined) throw new FormatError(BNDL_FORMAT, at, `/nameOffsets/${i}`, `offset ${nameOffset} is not the start of a name`, { actual: nameOffset });
    entries[i] = { size: sizes[i]!, nameOffset, path };
  }
  r.end('/');
  return { version, names, afterNames, entries };
}

export function writeBndl(bndl: Bndl): Uint8Array {
  const w = new ByteWriter({ format: BNDL_FORMAT });
  w.bytes(new Uint8Array([0x42, 0x4e, 0x44, 0x4c]));
  w.u32(bndl.version);
  const namesSize = w.reserveU32('namesSize');
  const tableOffset = w.reserveU32('offsetTableOffset');
  w.u32(bndl.entries.length);
  for (const e of bndl.entries) w.u32(e.size);
  const blockAt = w.pos;
  bndl.names.forEach((n, k) => {
    w.bytes(cstringEncode(n.text, { format: BNDL_FORMAT, path: `/names/${k}/text` }));
    w.fill(0, n.padding);
  });
  namesSize.fill(w.pos - blockAt);
  w.bytes(bndl.afterNames);
  tableOffset.fill(w.pos - blockAt);
  for (const e of bndl.entries) w.u32(e.nameOffset);
  return w.finish();
}

/** A manifest for resources (path, size): names in P919 order, each padded to 4, 4 zero bytes, as the game's. */
export function buildBndl(resources: ReadonlyArray<{ path: string; size: number }>, table?: P919Table): Bndl {
  const rows = resources.map((r) => ({ ...r, hash: table ? p919(r.path, { table }) : p919(r.path) })).sort((a, b) => a.hash - b.hash);
  const names: BndlName[] = [];
  const entries: BndlEntry[] = [];
  let offset = 0;
  for (const r of rows) {
    const padding = (4 - ((r.path.length + 1) % 4)) % 4;
    names.push({ offset, text: r.path, padding });
    entries.push({ size: r.size, nameOffset: offset, path: r.path });
    offset += r.path.length + 1 + padding;
  }
  return { version: 6, names, afterNames: new Uint8Array(4), entries };
}

/** Checks the P919 order of entries, name padding and the zero bytes after the names. */
export function validateBndl(bndl: Bndl, table?: P919Table): Issue[] {
  const issues: Issue[] = [];
  let prev = -1;
  bndl.entries.forEach((e, i) => {
    try {
      const h = table ? p919(e.path, { table }) : p919(e.path);
      if (h < prev) issues.push({ rule: 'bndl.sorted', message: `entry ${i} (${e.path}) is out of P919 order`, path: `/entries/${i}`, severity: 'error' });
      prev = h;
    } catch (err) {
      issues.push({ rule: 'bndl.hashable', message: (err as Error).message, path: `/entries/${i}`, severity: 'info' });
    }
  });
  bndl.names.forEach((n, i) => {
    const bad = latin1Issue(n.text, `/names/${i}/text`, { nul: true });
    if (bad) issues.push(bad);
    if ((n.offset + n.text.length + 1 + n.padding) % 4 !== 0) issues.push({ rule: 'bndl.namePadding', message: `name ${i} does not end on a 4-byte boundary`, path: `/names/${i}`, severity: 'warning' });
  });
  if (bndl.afterNames.some((b) => b !== 0) || bndl.afterNames.length !== 4) issues.push({ rule: 'bndl.afterNames', message: `${bndl.afterNames.length} byte(s) after the names, not 4 zeros`, path: '/afterNames', severity: 'info' });
  return issues;
}

/** Sum of the resource sizes. */
export function bndlTotalSize(bndl: Bndl): number {
  return bndl.entries.reduce((s, e) => s + e.size, 0);
}

/** Byte length of the name block (as the header's namesSize). */
export function bndlNamesSize(bndl: Bndl): number {
  return bndl.names.reduce((s, n) => s + n.text.length + 1 + n.padding, 0);
}
