/**
 * The 27 sd2 column type ids (spec sd2.md §7, [verified]) as one table of data. Width is the inline cell size;
 * pool types hold a key into the pool (4 bytes in memory version 1002, 8 in 1000), and `element` is the size of
 * one item of a pool array (0 for byte-like payloads).
 *
 * The legacy `.sdb` list differs (a `Char` at 17 shifts the rest); it is not this table.
 */

/** How a type's value is laid out. */
export type Sd2ValueKind = 'none' | 'u8' | 'u16' | 'u32' | 'u64' | 'i8' | 'i16' | 'i32' | 'i64' | 'f32' | 'f64' | 'f32x' | 'half' | 'halfx' | 'char' | 'string' | 'bytes' | 'u16s' | 'u32s' | 'vecs';

export interface Sd2TypeInfo {
  readonly id: number;
  readonly name: string;
  /** Inline width in bytes (for pool types: the key width in memory version 1002). */
  readonly width: number;
  readonly pool: boolean;
  readonly kind: Sd2ValueKind;
  /** Components: f32 count for vectors/matrices/boxes, half count for HalfMatrix4x3, f32 count per element of vector arrays. */
  readonly components: number;
  /**
   * Declared SQL column type used by exports. ULong has none (BLOB affinity) so values above 2^63−1, stored as
   * decimal TEXT, are not turned into REAL by SQLite.
   */
  readonly sql: 'INTEGER' | 'REAL' | 'TEXT' | 'BLOB' | '';
}

const t = (id: number, name: string, width: number, pool: boolean, kind: Sd2ValueKind, components: number, sql: Sd2TypeInfo['sql']): Sd2TypeInfo => ({ id, name, width, pool, kind, components, sql });

/** Every type id, indexed by id. */
export const SD2_TYPES: readonly Sd2TypeInfo[] = [
  t(0, 'Unknown', 0, false, 'none', 0, 'BLOB'), // never seen; FauFau returns null
  t(1, 'Byte', 1, false, 'u8', 1, 'INTEGER'),
  t(2, 'UShort', 2, false, 'u16', 1, 'INTEGER'),
  t(3, 'UInt', 4, false, 'u32', 1, 'INTEGER'),
  t(4, 'ULong', 8, false, 'u64', 1, ''),
  t(5, 'SByte', 1, false, 'i8', 1, 'INTEGER'),
  t(6, 'Short', 2, false, 'i16', 1, 'INTEGER'),
  t(7, 'Int', 4, false, 'i32', 1, 'INTEGER'),
  t(8, 'Long', 8, false, 'i64', 1, 'INTEGER'),
  t(9, 'Float', 4, false, 'f32', 1, 'REAL'),
  t(10, 'Double', 8, false, 'f64', 1, 'REAL'),
  t(11, 'String', 4, true, 'string', 0, 'TEXT'), // UTF-8 + one terminating NUL
  t(12, 'Vector2', 8, false, 'f32x', 2, 'TEXT'),
  t(13, 'Vector3', 12, false, 'f32x', 3, 'TEXT'),
  t(14, 'Vector4', 16, false, 'f32x', 4, 'TEXT'),
  t(15, 'Matrix4x4', 64, false, 'f32x', 16, 'TEXT'), // four Vector4 rows
  t(16, 'Blob', 4, true, 'bytes', 0, 'BLOB'),
  t(17, 'Box3', 24, false, 'f32x', 6, 'TEXT'), // min xyz, max xyz
  t(18, 'Vector2Array', 4, true, 'vecs', 2, 'TEXT'),
  t(19, 'Vector3Array', 4, true, 'vecs', 3, 'TEXT'),
  t(20, 'Vector4Array', 4, true, 'vecs', 4, 'TEXT'),
  t(21, 'AsciiChar', 1, false, 'char', 1, 'TEXT'), // the raw byte is kept (FauFau reads ≥0x80 as '?')
  t(22, 'ByteArray', 4, true, 'bytes', 0, 'BLOB'),
  t(23, 'UShortArray', 4, true, 'u16s', 0, 'TEXT'),
  t(24, 'UIntArray', 4, true, 'u32s', 0, 'TEXT'),
  t(25, 'HalfMatrix4x3', 24, false, 'halfx', 12, 'TEXT'), // four rows of 3 binary16
  t(26, 'Half', 2, false, 'half', 1, 'REAL'),
];

/** Type ids by name (`String` → 11). */
export const SD2_TYPE_IDS: Readonly<Record<string, number>> = Object.fromEntries(SD2_TYPES.map((x) => [x.name, x.id]));

/** The width of a cell of `typeId` in `memoryVersion` (pool keys are 8 bytes in 1000). */
export function sd2CellWidth(typeId: number, memoryVersion: number): number {
  const info = SD2_TYPES[typeId];
  if (!info) return 0;
  return info.pool ? sd2PoolKeyWidth(memoryVersion) : info.width;
}

/** Bytes of one pool key in a memory version. */
export function sd2PoolKeyWidth(memoryVersion: number): number {
  return memoryVersion === 1000 ? 8 : 4;
}
