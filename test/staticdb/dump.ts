/** Helpers comparing StaticDb values with the FauFau full dump of the fixture. */
import { loadFixture, loadJsonFixture } from '../support/fixtures.ts';

export interface DumpColumn {
  id: string;
  name: string;
  type: string;
  typeId: number;
  padding: number;
  nullableIndex: number | null;
}
export interface DumpTable {
  id: string;
  name: string;
  rowCount: number;
  columns: DumpColumn[];
  rows: unknown[][];
}
export interface Dump {
  magic: string;
  fileVersion: number;
  payloadSize: number;
  flags: number;
  timestampMicros: string;
  timestamp: string;
  patch: string;
  memoryVersion: number;
  tableCount: number;
  tables: DumpTable[];
}

export const FIXTURE = ['sd2', 'faufau-1.5.0-generated', 'sample-beta-1869.sd2'] as const;
export const fixtureBytes = (): Uint8Array => loadFixture(...FIXTURE);
export const dump = (): Dump => loadJsonFixture<Dump>('sd2', 'faufau-1.5.0-generated', 'sample-beta-1869.dump.json');
export const sampleNames = (): string => new TextDecoder().decode(loadFixture('sd2', 'faufau-1.5.0-generated', 'sample-names.txt'));

const FLOATISH = new Set(['Float', 'Vector2', 'Vector3', 'Vector4', 'Matrix4x4', 'Box3', 'Vector2Array', 'Vector3Array', 'Vector4Array']);

function fround(v: unknown): unknown {
  if (typeof v === 'number') return Math.fround(v);
  if (Array.isArray(v)) return v.map(fround);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fround(x)]));
  return v;
}

/**
 * The dump's value in scry's value model: strings without their one trailing NUL (FauFau 1.5.0 keeps it),
 * 64-bit integers as bigint, f32 components rounded to f32 (the dump prints them as decimals), hex blobs as bytes.
 */
export function expectedValue(type: string, v: unknown): unknown {
  if (v === null) return null;
  if (type === 'String') return (v as string).endsWith('\u0000') ? (v as string).slice(0, -1) : v;
  if (type === 'ULong' || type === 'Long') return BigInt(v as string);
  if (type === 'Blob' || type === 'ByteArray') return Uint8Array.from(((v as { hex: string }).hex.match(/../g) ?? []).map((h) => parseInt(h, 16)));
  if (FLOATISH.has(type)) return fround(v);
  return v;
}
