/**
 * `.strdb`: the string database (`SKDB`, version 9): localised strings by numeric id, UTF-16LE.
 * Spec `archives.md` §9 (header values verified from an export of the real `string.strdb`; the binary itself is
 * too large to be a fixture). Little-endian.
 *
 *     0    char[4] "SKDB"
 *     4    u32 version = 9
 *     8    u32 indexOffset = 28
 *     12   u32 count
 *     16   u32 0                      (unk10)
 *     20   u32 textUnits              string table length in UTF-16 code units
 *     24   u32 0                      (unk18)
 *     28   {u32 id, u32 charOffset} × count, sorted by id
 *     …    UTF-16LE text: NUL-terminated strings; string i starts at table + 2 × charOffset
 *
 * Identical texts share one offset; offset 0 is the empty string in the real file.
 */
import { ConsistencyError, FormatError, UnsupportedError, type Issue } from '../../binary/errors.ts';
import { ByteReader } from '../../binary/reader.ts';
import { ByteWriter } from '../../binary/writer.ts';

export const STRDB_FORMAT = 'strdb';

export interface StrdbEntry {
  id: number;
  /** Offset of the string in UTF-16 code units from the start of the text. */
  charOffset: number;
}

export interface Strdb {
  version: number;
  indexOffset: number;
  unk10: number;
  unk18: number;
  entries: StrdbEntry[];
  /** The text table as UTF-16 code units (kept whole: shared strings and unreferenced units survive). */
  text: Uint16Array;
}

export function isStrdb(bytes: Uint8Array): boolean {
  return bytes.length >= 8 && bytes[0] === 0x53 && bytes[1] === 0x4b && bytes[2] === 0x44 && bytes[3] === 0x42;
}

export function parseStrdb(bytes: Uint8Array): Strdb {
  const r = new ByteReader(bytes, { format: STRDB_FORMAT });
  r.expectBytes('SKDB', '/magic');
  const versionAt = r.pos;
  const version = r.u32('/version');
  if (version !== 9) throw new UnsupportedError(STRDB_FORMAT, versionAt, '/version', `SKDB version ${version}`, `SKDB version ${version} is not supported (9 expected)`);
  const indexOffset = r.expectU32(28, '/indexOffset');
  const count = r.u32('/count');
  const unk10 = r.u32('/unk10');
  const units = r.u32('/textUnits');
  const unk18 = r.u32('/unk18');
  r.guardCount(count, 8, '/count');
  const entries: StrdbEntry[] = new Array(count);
  for (let i = 0; i < count; i++) {
    const id = r.u32(`/entries/${i}/id`);
    const at = r.pos;
    const charOffset = r.u32(`/entries/${i}/charOffset`);
    if (charOffset >= units && !(charOffset === 0 && units === 0)) throw new FormatError(STRDB_FORMAT, at, `/entries/${i}/charOffset`, `offset ${charOffset} is outside the ${units}-unit text`, { actual: charOffset });
    entries[i] = { id, charOffset };
  }
  r.guardCount(units, 2, '/textUnits');
  const textAt = r.pos;
  const text = new Uint16Array(units);
  const dv = new DataView(bytes.buffer, bytes.byteOffset + textAt, units * 2);
  for (let i = 0; i < units; i++) text[i] = dv.getUint16(i * 2, true);
  r.skip(units * 2, '/text');
  r.end('/');
  return { version, indexOffset, unk10, unk18, entries, text };
}

export function writeStrdb(db: Strdb): Uint8Array {
  const w = new ByteWriter({ format: STRDB_FORMAT, capacity: 28 + 8 * db.entries.length + 2 * db.text.length });
  w.bytes(new Uint8Array([0x53, 0x4b, 0x44, 0x42]));
  w.u32(db.version).u32(db.indexOffset).u32(db.entries.length).u32(db.unk10).u32(db.text.length).u32(db.unk18);
  for (const e of db.entries) w.u32(e.id).u32(e.charOffset);
  for (let i = 0; i < db.text.length; i++) w.u16(db.text[i]!);
  return w.finish();
}

/** The string at a code-unit offset (up to its NUL). */
export function strdbTextAt(db: Strdb, charOffset: number): string {
  let end = charOffset;
  while (end < db.text.length && db.text[end] !== 0) end++;
  let s = '';
  for (let i = charOffset; i < end; i += 4096) s += String.fromCharCode(...db.text.subarray(i, Math.min(end, i + 4096)));
  return s;
}

/** The string with `id` (binary search over the sorted ids), or undefined. */
export function strdbGet(db: Strdb, id: number): string | undefined {
  let lo = 0;
  let hi = db.entries.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const e = db.entries[mid]!;
    if (e.id === id) return strdbTextAt(db, e.charOffset);
    if (e.id < id) lo = mid + 1;
    else hi = mid - 1;
  }
  return undefined;
}

/**
 * Builds a database from (id, text) pairs: ids sorted, identical texts shared, the empty string at offset 0.
 * Refuses a text holding a NUL (the terminator: the text would be cut there).
 */
export function buildStrdb(strings: ReadonlyArray<{ id: number; text: string }>): Strdb {
  const units: number[] = [0];
  const offsetOf = new Map<string, number>([['', 0]]);
  const entries: StrdbEntry[] = [...strings]
    .sort((a, b) => a.id - b.id)
    .map(({ id, text }) => {
      let off = offsetOf.get(text);
      if (off === undefined) {
        const nul = text.indexOf('\0');
        if (nul >= 0) throw new ConsistencyError(STRDB_FORMAT, [{ rule: 'strdb.text', message: `string ${id} has a NUL at index ${nul}, which would end it there`, path: `/strings/${id}`, severity: 'error' }]);
        off = units.length;
        offsetOf.set(text, off);
        for (let i = 0; i < text.length; i++) units.push(text.charCodeAt(i));
        units.push(0);
      }
      return { id, charOffset: off };
    });
  return { version: 9, indexOffset: 28, unk10: 0, unk18: 0, entries, text: Uint16Array.from(units) };
}

export function validateStrdb(db: Strdb): Issue[] {
  const issues: Issue[] = [];
  for (let i = 1; i < db.entries.length; i++) {
    if (db.entries[i - 1]!.id >= db.entries[i]!.id) issues.push({ rule: 'strdb.sorted', message: `id ${db.entries[i]!.id} at ${i} is not above the previous id`, path: `/entries/${i}`, severity: 'error' });
  }
  if (db.text.length > 0 && db.text[db.text.length - 1] !== 0) issues.push({ rule: 'strdb.terminated', message: 'the text does not end with a NUL', path: '/text', severity: 'warning' });
  if (db.unk10 !== 0 || db.unk18 !== 0) issues.push({ rule: 'strdb.unknownWords', message: `header words @16/@24 are ${db.unk10}/${db.unk18} (0 in the real file)`, path: '/', severity: 'info' });
  return issues;
}
