/** fast-check models of sd2 databases: random schemas and rows for every type, file version and memory version. */
import fc from 'fast-check';
import { SD2_TYPES, StaticDb, sd2HalfToNumber, type StaticDbNewColumn } from '../../src/index.ts';

const f32 = fc.float({ noDefaultInfinity: false }).map(Math.fround);
const half = fc.integer({ min: 0, max: 0xffff }).map(sd2HalfToNumber);
const vec = (n: number): fc.Arbitrary<number[]> => fc.array(f32, { minLength: n, maxLength: n });

/** A value arbitrary per type id (pool arrays may be empty: they then read back as null). */
export function valueArb(typeId: number): fc.Arbitrary<unknown> {
  switch (SD2_TYPES[typeId]!.name) {
    case 'Unknown':
      return fc.constant(null);
    case 'Byte':
      return fc.integer({ min: 0, max: 255 });
    case 'UShort':
      return fc.integer({ min: 0, max: 0xffff });
    case 'UInt':
      return fc.integer({ min: 0, max: 0xffffffff });
    case 'ULong':
      return fc.bigInt({ min: 0n, max: (1n << 64n) - 1n });
    case 'SByte':
      return fc.integer({ min: -128, max: 127 });
    case 'Short':
      return fc.integer({ min: -32768, max: 32767 });
    case 'Int':
      return fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 });
    case 'Long':
      return fc.bigInt({ min: -(1n << 63n), max: (1n << 63n) - 1n });
    case 'Float':
      return f32;
    case 'Double':
      return fc.double();
    case 'Half':
      return half;
    case 'AsciiChar':
      return fc.integer({ min: 0, max: 255 }).map((c) => String.fromCharCode(c));
    case 'Vector2':
      return vec(2);
    case 'Vector3':
      return vec(3);
    case 'Vector4':
      return vec(4);
    case 'Matrix4x4':
      return fc.array(vec(4), { minLength: 4, maxLength: 4 });
    case 'Box3':
      return fc.record({ min: vec(3), max: vec(3) });
    case 'HalfMatrix4x3':
      return fc.array(fc.array(half, { minLength: 3, maxLength: 3 }), { minLength: 4, maxLength: 4 });
    case 'String':
      return fc.string({ unit: 'grapheme', maxLength: 12 });
    case 'Blob':
    case 'ByteArray':
      return fc.uint8Array({ maxLength: 12 });
    case 'UShortArray':
      return fc.array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 5 });
    case 'UIntArray':
      return fc.array(fc.integer({ min: 0, max: 0xffffffff }), { maxLength: 5 });
    case 'Vector2Array':
      return fc.array(vec(2), { maxLength: 3 });
    case 'Vector3Array':
      return fc.array(vec(3), { maxLength: 3 });
    case 'Vector4Array':
      return fc.array(vec(4), { maxLength: 3 });
    default:
      throw new Error(`no arbitrary for type ${typeId}`);
  }
}

export interface TableModel {
  name: string;
  columns: StaticDbNewColumn[];
  rows: unknown[][];
  nativeOrder: boolean;
}

export interface DbModel {
  fileVersion: number;
  memoryVersion: 1000 | 1002;
  flags: number;
  patch: string;
  tables: TableModel[];
}

const tableArb = (index: number): fc.Arbitrary<TableModel> =>
  fc
    .array(fc.record({ type: fc.integer({ min: 0, max: 26 }), nullable: fc.boolean() }), { minLength: 1, maxLength: 8 })
    .chain((cols) => {
      const columns: StaticDbNewColumn[] = cols.map((c, i) => ({ name: `col_${i}`, type: c.type, nullable: c.nullable }));
      const cell = (c: StaticDbNewColumn): fc.Arbitrary<unknown> => {
        const v = valueArb(c.type as number);
        return c.nullable || SD2_TYPES[c.type as number]!.pool ? fc.option(v, { nil: null, freq: 4 }) : v;
      };
      return fc.record({
        name: fc.constant(`test::Table${index}`),
        columns: fc.constant(columns),
        rows: fc.array(fc.tuple(...columns.map(cell)), { maxLength: 6 }) as fc.Arbitrary<unknown[][]>,
        nativeOrder: fc.boolean(),
      });
    });

export const dbModelArb: fc.Arbitrary<DbModel> = fc.record({
  fileVersion: fc.constantFrom(7, 11, 12),
  memoryVersion: fc.constantFrom(1000 as const, 1002 as const),
  flags: fc.constantFrom(0, 1, 4, 5, 8, 9, 12, 13, 29),
  patch: fc.constantFrom('beta-1297', 'beta-1869', 'prod-1962', ''),
  tables: fc.integer({ min: 0, max: 3 }).chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => tableArb(i)))),
});

/** Builds the model with the StaticDb editing API. */
export function buildDb(m: DbModel): StaticDb {
  const db = StaticDb.create({ fileVersion: m.fileVersion, memoryVersion: m.memoryVersion, flags: m.flags, patch: m.patch, timestamp: 1462422114000000n });
  for (const t of m.tables) {
    const table = db.addTable(t.name, t.columns, { nativeOrder: t.nativeOrder });
    for (const row of t.rows) {
      const byName: Record<string, unknown> = {};
      t.columns.forEach((c, i) => {
        if (row[i] !== null) byName[c.name as string] = row[i];
      });
      db.addRow(table, byName);
    }
  }
  return db;
}

/** What a cell reads back as: empty pool values and Unknown cells are null. */
export function expectedCell(typeId: number, v: unknown): unknown {
  const info = SD2_TYPES[typeId]!;
  if (info.kind === 'none') return null;
  if (v === null) return null;
  if (info.pool && ((v instanceof Uint8Array && v.length === 0) || (Array.isArray(v) && v.length === 0))) return null;
  return v;
}
