/**
 * The GADB field type codes as one table: what a cell holds and how it decodes. Every layer (parser, writer,
 * verifier, the `Database` getters, the generator) reads this table; nothing else switches on type codes.
 *
 * A descriptor's type byte: low 6 bits = the type (the engine's by-name getters compare `type & 0x3F`), bit 0x40
 * = resource-path String (only as 0x44), bit 0x80 unused (H-FLAG-40). Evidence: spec §3.7, seed "Value types".
 */
import { GadbItemKind } from './types.ts';

/** Where a field's value lives. */
export const GadbStorage = {
  /** One bit of a 32-bit bool word: bit `link & 31` of cell `link >> 5` (the link is a bit index). */
  Bit: 'bit',
  /** The 4-byte cell holds the value itself. */
  Cell: 'cell',
  /** The cell holds a string-block item key (file: sb offset; the engine rebases it to a pointer). */
  Block: 'block',
  /** The cell holds an encoded RecordLink `(categoryOrdinal << 20) | index`, 0xFFFFFFFF = null. */
  Link: 'link',
} as const;
export type GadbStorage = (typeof GadbStorage)[keyof typeof GadbStorage];

/** How a cell or string-block item decodes. */
export type GadbDecoding =
  | { kind: 'bool' }
  | { kind: 'f32' }
  | { kind: 'i32' }
  /** NUL-terminated text, padded with NULs to a multiple of 4. */
  | { kind: 'text' }
  /** A fixed-size block item of `count` elements of `element`. */
  | { kind: 'fixed'; size: number; element: 'f32' | 'i64'; count: number }
  /** A block item whose size and content are unknown (its extent comes from the block's tiling). */
  | { kind: 'opaque' }
  /**
   * A curve: u32 key count n, then n keys of `keySize` bytes: f32 time, then the value (`u32` a packed colour,
   * `f32` / `i32` a number, `vec3` three f32, `raw8` 8 bytes of unknown kind).
   */
  | { kind: 'curve'; keySize: number; value: 'u32' | 'f32' | 'i32' | 'vec3' | 'raw8' }
  | { kind: 'link' };

/** One row of the type table. */
export interface GadbTypeInfo {
  /** The type (low 6 bits of the descriptor's type byte). */
  readonly code: number;
  /** Name used by scry (the engine's names are not in the file). */
  readonly name: string;
  readonly storage: GadbStorage;
  /** Cells one element occupies: 1 for every type (a Bool element occupies one bit of a shared word instead). */
  readonly cellsPerElement: number;
  readonly decoding: GadbDecoding;
  /** Item kind of the string-block items this type references (sharing is per kind); `Unreferenced` for inline types. */
  readonly itemKind: GadbItemKind;
  /** `verified` on the real sample, or `inferred` from the seed note only. */
  readonly status: 'verified' | 'inferred';
  /** The hypothesis (`hypotheses.ts`) this row rests on, when inferred. */
  readonly hypothesis?: string;
  /** Where the evidence is. */
  readonly spec: string;
}

/** The type byte's low 6 bits. */
export const GADB_TYPE_MASK = 0x3f;
/** Flag on a String type byte (0x44) that marks a resource path (H-FLAG-40). */
export const GADB_TYPE_FLAG_RESOURCE_PATH = 0x40;

/** The type codes, in code order. */
export const GADB_TYPE_CODES: readonly GadbTypeInfo[] = [
  { code: 1, name: 'Bool', storage: 'bit', cellsPerElement: 1, decoding: { kind: 'bool' }, itemKind: GadbItemKind.Unreferenced, status: 'verified', spec: 'gadb.md §3.6, §3.7' },
  { code: 2, name: 'Float', storage: 'cell', cellsPerElement: 1, decoding: { kind: 'f32' }, itemKind: GadbItemKind.Unreferenced, status: 'verified', spec: 'gadb.md §3.7' },
  { code: 3, name: 'Int', storage: 'cell', cellsPerElement: 1, decoding: { kind: 'i32' }, itemKind: GadbItemKind.Unreferenced, status: 'verified', spec: 'gadb.md §3.7' },
  { code: 4, name: 'String', storage: 'block', cellsPerElement: 1, decoding: { kind: 'text' }, itemKind: GadbItemKind.Text, status: 'verified', spec: 'gadb.md §3.7' },
  { code: 5, name: 'StringEnum', storage: 'block', cellsPerElement: 1, decoding: { kind: 'text' }, itemKind: GadbItemKind.Text, status: 'verified', spec: 'gadb.md §3.7 (the loader replaces the offset by P919 of the text)' },
  { code: 6, name: 'Int64', storage: 'block', cellsPerElement: 1, decoding: { kind: 'fixed', size: 8, element: 'i64', count: 1 }, itemKind: GadbItemKind.Int64, status: 'inferred', hypothesis: 'H-TYPE-6', spec: 'seed "The database file", "Shared values"' },
  { code: 7, name: 'FloatPair', storage: 'block', cellsPerElement: 1, decoding: { kind: 'fixed', size: 8, element: 'f32', count: 2 }, itemKind: GadbItemKind.FloatPair, status: 'inferred', hypothesis: 'H-TYPE-7', spec: 'seed "A float pair is a pointer"' },
  { code: 8, name: 'Vector3', storage: 'block', cellsPerElement: 1, decoding: { kind: 'fixed', size: 12, element: 'f32', count: 3 }, itemKind: GadbItemKind.Vector3, status: 'verified', spec: 'gadb.md §3.7' },
  { code: 9, name: 'Type9', storage: 'block', cellsPerElement: 1, decoding: { kind: 'opaque' }, itemKind: GadbItemKind.Type9, status: 'inferred', hypothesis: 'H-TYPE-9', spec: 'seed "Loading" (types 4 to 9 are rebased offsets)' },
  { code: 10, name: 'RecordLink', storage: 'link', cellsPerElement: 1, decoding: { kind: 'link' }, itemKind: GadbItemKind.Unreferenced, status: 'verified', spec: 'gadb.md §3.7; seed "RecordLinks"' },
  { code: 11, name: 'RecordLink11', storage: 'link', cellsPerElement: 1, decoding: { kind: 'link' }, itemKind: GadbItemKind.Unreferenced, status: 'inferred', hypothesis: 'H-TYPE-11', spec: 'seed "Loading" (the loader rewrites 11 to 10)' },
  { code: 12, name: 'ColorCurve', storage: 'block', cellsPerElement: 1, decoding: { kind: 'curve', keySize: 8, value: 'u32' }, itemKind: GadbItemKind.ColorCurve, status: 'verified', spec: 'gadb.md §3.7 (colour byte order unknown, H-COLOR-ORDER)' },
  { code: 13, name: 'FloatCurve', storage: 'block', cellsPerElement: 1, decoding: { kind: 'curve', keySize: 8, value: 'f32' }, itemKind: GadbItemKind.FloatCurve, status: 'verified', spec: 'gadb.md §3.7' },
  { code: 14, name: 'Curve14', storage: 'block', cellsPerElement: 1, decoding: { kind: 'curve', keySize: 12, value: 'raw8' }, itemKind: GadbItemKind.Curve14, status: 'verified', hypothesis: 'H-TYPE-14', spec: 'gadb.md §3.7 (key size verified, value kind unknown)' },
  { code: 15, name: 'IntCurve', storage: 'block', cellsPerElement: 1, decoding: { kind: 'curve', keySize: 8, value: 'i32' }, itemKind: GadbItemKind.IntCurve, status: 'verified', spec: 'gadb.md §3.7' },
  { code: 16, name: 'Vector3Curve', storage: 'block', cellsPerElement: 1, decoding: { kind: 'curve', keySize: 16, value: 'vec3' }, itemKind: GadbItemKind.Vector3Curve, status: 'verified', spec: 'gadb.md §3.7' },
];

const byCode: (GadbTypeInfo | undefined)[] = new Array<GadbTypeInfo | undefined>(64).fill(undefined);
for (const t of GADB_TYPE_CODES) byCode[t.code] = t;

/** The row for a descriptor's type byte (flags ignored), or `undefined` for a code scry does not know. */
export function gadbTypeInfo(typeByte: number): GadbTypeInfo | undefined {
  return byCode[typeByte & GADB_TYPE_MASK];
}

/** The type byte's base type (low 6 bits). */
export function gadbBaseType(typeByte: number): number {
  return typeByte & GADB_TYPE_MASK;
}

/** True when the type byte carries the resource-path flag 0x40 (H-FLAG-40). */
export function isGadbResourcePath(typeByte: number): boolean {
  return (typeByte & GADB_TYPE_FLAG_RESOURCE_PATH) !== 0;
}

/** Display name of a type byte: `String`, `String|ResourcePath` for 0x44, `Type0x2A` for an unknown code. */
export function gadbTypeName(typeByte: number): string {
  const info = gadbTypeInfo(typeByte);
  const base = info ? info.name : `Type0x${(typeByte & GADB_TYPE_MASK).toString(16).toUpperCase()}`;
  const flags = typeByte & ~GADB_TYPE_MASK & 0xff;
  if (flags === 0) return base;
  if (flags === GADB_TYPE_FLAG_RESOURCE_PATH) return `${base}|ResourcePath`;
  return `${base}|0x${flags.toString(16).toUpperCase()}`;
}

/**
 * Per type byte (0..255): 0 inline/unknown, 1 bit, 2 block reference, 3 link. A flat lookup for hot loops over
 * millions of descriptors; built from `GADB_TYPE_CODES`.
 */
export const GADB_STORAGE_BY_TYPE_BYTE: Uint8Array = (() => {
  const t = new Uint8Array(256);
  for (let b = 0; b < 256; b++) {
    const info = gadbTypeInfo(b);
    if (!info) continue;
    t[b] = info.storage === 'bit' ? 1 : info.storage === 'block' ? 2 : info.storage === 'link' ? 3 : 0;
  }
  return t;
})();

/** Storage codes of `GADB_STORAGE_BY_TYPE_BYTE`. */
export const GadbStorageCode = { Inline: 0, Bit: 1, Block: 2, Link: 3 } as const;

/** Per type byte: the `GadbItemKind` of the items it references (0 when it references none). */
export const GADB_ITEM_KIND_BY_TYPE_BYTE: Uint8Array = (() => {
  const t = new Uint8Array(256);
  for (let b = 0; b < 256; b++) t[b] = gadbTypeInfo(b)?.itemKind ?? 0;
  return t;
})();

/** Alias of `GadbStorageCode` (first published name; kept for the layers that import it). */
export const StorageCode = GadbStorageCode;

/** Alias of `isGadbResourcePath` (first published name; kept for the layers that import it). */
export const isResourcePathType: (typeByte: number) => boolean = isGadbResourcePath;
