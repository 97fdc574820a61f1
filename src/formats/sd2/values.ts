/**
 * Cell values: decoding inline cells from row bytes and pool payloads from entry bytes, and the reverse. One
 * switch over `Sd2TypeInfo.kind` (the type table in `types.ts` is the only per-id data).
 *
 * Values: integers up to 32 bits are numbers, 64-bit integers bigints; Float/Double/Half numbers; vectors number
 * arrays; Matrix4x4 four rows of 4; HalfMatrix4x3 four rows of 3; Box3 `{min, max}`; AsciiChar a one-character
 * string holding the raw byte (Latin-1, reversible); String a JS string without its one terminating NUL; Blob and
 * ByteArray bytes; the numeric arrays number arrays (vector arrays: arrays of components).
 */
import { SD2_TYPES, type Sd2TypeInfo } from './types.ts';
import { utf8Decode, utf8Encode, utf8Issue } from '../../binary/text.ts';

/** A decoded cell. */
export type Sd2Value = null | number | bigint | string | Uint8Array | number[] | number[][] | { min: number[]; max: number[] };

// ---------- half precision ----------

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** IEEE binary16 bits → number. */
export function sd2HalfToNumber(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >>> 10) & 0x1f;
  const frac = h & 0x3ff;
  if (exp === 0) return sign * frac * 2 ** -24;
  if (exp === 0x1f) return frac ? NaN : sign * Infinity;
  return sign * (1 + frac / 1024) * 2 ** (exp - 15);
}

/** number → IEEE binary16 bits, round to nearest even (exact for every value read from a file). */
export function sd2NumberToHalf(value: number): number {
  f32[0] = value;
  const x = u32[0]!;
  const sign = (x >>> 16) & 0x8000;
  const exp = (x >>> 23) & 0xff;
  let mant = x & 0x7fffff;
  if (exp === 0xff) return sign | 0x7c00 | (mant ? 0x200 | (mant >>> 13) : 0);
  let e = exp - 127 + 15;
  if (e >= 0x1f) return sign | 0x7c00;
  if (e <= 0) {
    if (e < -10) return sign;
    mant |= 0x800000;
    const shift = 14 - e;
    let half = mant >>> shift;
    const rem = mant & ((1 << shift) - 1);
    const mid = 1 << (shift - 1);
    if (rem > mid || (rem === mid && half & 1)) half++;
    return sign | half;
  }
  let half = (e << 10) | (mant >>> 13);
  const rem = mant & 0x1fff;
  if (rem > 0x1000 || (rem === 0x1000 && half & 1)) half++;
  return sign | half;
}

// ---------- inline cells ----------

function f32s(dv: DataView, off: number, n: number): number[] {
  const out = new Array<number>(n);
  for (let i = 0; i < n; i++) out[i] = dv.getFloat32(off + 4 * i, true);
  return out;
}

function rows(flat: number[], width: number): number[][] {
  const out: number[][] = [];
  for (let i = 0; i < flat.length; i += width) out.push(flat.slice(i, i + width));
  return out;
}

/** Decodes the inline cell of a non-pool type at `off`. The caller has checked the bounds. */
export function sd2DecodeInline(info: Sd2TypeInfo, dv: DataView, off: number): Sd2Value {
  switch (info.kind) {
    case 'none':
      return null;
    case 'u8':
      return dv.getUint8(off);
    case 'u16':
      return dv.getUint16(off, true);
    case 'u32':
      return dv.getUint32(off, true);
    case 'u64':
      return dv.getBigUint64(off, true);
    case 'i8':
      return dv.getInt8(off);
    case 'i16':
      return dv.getInt16(off, true);
    case 'i32':
      return dv.getInt32(off, true);
    case 'i64':
      return dv.getBigInt64(off, true);
    case 'f32':
      return dv.getFloat32(off, true);
    case 'f64':
      return dv.getFloat64(off, true);
    case 'half':
      return sd2HalfToNumber(dv.getUint16(off, true));
    case 'char':
      return String.fromCharCode(dv.getUint8(off));
    case 'f32x': {
      const flat = f32s(dv, off, info.components);
      if (info.id === 15) return rows(flat, 4);
      if (info.id === 17) return { min: flat.slice(0, 3), max: flat.slice(3, 6) };
      return flat;
    }
    case 'halfx': {
      const flat = new Array<number>(12);
      for (let i = 0; i < 12; i++) flat[i] = sd2HalfToNumber(dv.getUint16(off + 2 * i, true));
      return rows(flat, 3);
    }
    default:
      throw new Error(`sd2DecodeInline: ${info.name} is a pool type`);
  }
}

/** Problems found while encoding a value: a message, or undefined when fine. */
export type Sd2EncodeProblem = string | undefined;

function flatNumbers(value: unknown, count: number, what: string): number[] | string {
  let flat: unknown[];
  if (Array.isArray(value)) flat = value.flat(2) as unknown[];
  else if (value && typeof value === 'object' && 'min' in value && 'max' in value) flat = [...(value as { min: unknown[] }).min, ...(value as { max: unknown[] }).max];
  else return `${what} needs ${count} numbers`;
  if (flat.length !== count || flat.some((x) => typeof x !== 'number')) return `${what} needs ${count} numbers, got ${JSON.stringify(value)}`;
  return flat as number[];
}

function intRange(value: unknown, min: number, max: number, name: string): number | string {
  if (typeof value === 'bigint') value = Number(value);
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) return `${name} needs an integer in ${min}…${max}, got ${String(value)}`;
  return value;
}

/** Encodes a value of a non-pool type into `dv` at `off`. Returns a problem message instead of throwing. */
export function sd2EncodeInline(info: Sd2TypeInfo, value: unknown, dv: DataView, off: number): Sd2EncodeProblem {
  const n = (min: number, max: number): number | string => intRange(value, min, max, info.name);
  switch (info.kind) {
    case 'none':
      return undefined;
    case 'u8':
    case 'i8':
    case 'u16':
    case 'i16':
    case 'u32':
    case 'i32': {
      const range: Record<string, [number, number]> = { u8: [0, 255], i8: [-128, 127], u16: [0, 65535], i16: [-32768, 32767], u32: [0, 4294967295], i32: [-2147483648, 2147483647] };
      const [min, max] = range[info.kind]!;
      const v = n(min, max);
      if (typeof v === 'string') return v;
      if (info.kind === 'u8' || info.kind === 'i8') dv.setUint8(off, v & 0xff);
      else if (info.kind === 'u16' || info.kind === 'i16') dv.setUint16(off, v & 0xffff, true);
      else dv.setUint32(off, v >>> 0, true);
      return undefined;
    }
    case 'u64':
    case 'i64': {
      let b: bigint;
      if (typeof value === 'bigint') b = value;
      else if (typeof value === 'number' && Number.isSafeInteger(value)) b = BigInt(value);
      else if (typeof value === 'string' && /^-?\d+$/.test(value.trim())) b = BigInt(value.trim());
      else return `${info.name} needs an integer, got ${String(value)}`;
      const ok = info.kind === 'u64' ? b >= 0n && b < 1n << 64n : b >= -(1n << 63n) && b < 1n << 63n;
      if (!ok) return `${info.name} out of range: ${b}`;
      dv.setBigUint64(off, BigInt.asUintN(64, b), true);
      return undefined;
    }
    case 'f32':
    case 'f64':
    case 'half': {
      if (typeof value !== 'number') return `${info.name} needs a number, got ${String(value)}`;
      if (info.kind === 'f32') dv.setFloat32(off, value, true);
      else if (info.kind === 'f64') dv.setFloat64(off, value, true);
      else dv.setUint16(off, sd2NumberToHalf(value), true);
      return undefined;
    }
    case 'char': {
      if (typeof value === 'number') {
        const v = n(0, 255);
        if (typeof v === 'string') return v;
        dv.setUint8(off, v);
        return undefined;
      }
      if (typeof value !== 'string' || value.length !== 1 || value.charCodeAt(0) > 255) return `AsciiChar needs one character (or a byte value), got ${JSON.stringify(value)}`;
      dv.setUint8(off, value.charCodeAt(0));
      return undefined;
    }
    case 'f32x': {
      const flat = flatNumbers(value, info.components, info.name);
      if (typeof flat === 'string') return flat;
      for (let i = 0; i < flat.length; i++) dv.setFloat32(off + 4 * i, flat[i]!, true);
      return undefined;
    }
    case 'halfx': {
      const flat = flatNumbers(value, 12, info.name);
      if (typeof flat === 'string') return flat;
      for (let i = 0; i < 12; i++) dv.setUint16(off + 2 * i, sd2NumberToHalf(flat[i]!), true);
      return undefined;
    }
    default:
      return `${info.name} is stored in the pool`;
  }
}

// ---------- pool payloads ----------


/**
 * Decodes a plain (de-obfuscated) pool entry. Strings drop exactly one trailing NUL and nothing else (localized
 * text can hold zero bytes before it); arrays shorter than one element read as empty (a real-data quirk, §8).
 */
export function sd2DecodePoolPayload(info: Sd2TypeInfo, bytes: Uint8Array): Sd2Value {
  switch (info.kind) {
    case 'string': {
      const end = bytes.length > 0 && bytes[bytes.length - 1] === 0 ? bytes.length - 1 : bytes.length;
      return utf8Decode(bytes.subarray(0, end));
    }
    case 'bytes':
      return bytes;
    case 'u16s':
    case 'u32s':
    case 'vecs': {
      const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      const size = info.kind === 'u16s' ? 2 : info.kind === 'u32s' ? 4 : 4 * info.components;
      const count = Math.floor(bytes.length / size);
      if (info.kind === 'vecs') {
        const out: number[][] = new Array(count);
        for (let i = 0; i < count; i++) out[i] = f32s(dv, i * size, info.components);
        return out;
      }
      const out = new Array<number>(count);
      for (let i = 0; i < count; i++) out[i] = info.kind === 'u16s' ? dv.getUint16(i * 2, true) : dv.getUint32(i * 4, true);
      return out;
    }
    default:
      throw new Error(`sd2DecodePoolPayload: ${info.name} is an inline type`);
  }
}

/** Encodes a pool value to its plain entry bytes (strings get one NUL appended). Returns a message on bad input. */
export function sd2EncodePoolPayload(info: Sd2TypeInfo, value: unknown): Uint8Array | string {
  // Raw entry bytes are taken as they are, for every pool type (exact copies of existing entries).
  if (value instanceof Uint8Array) return value;
  switch (info.kind) {
    case 'string': {
      if (value instanceof Uint8Array) return value;
      if (typeof value !== 'string') return `String needs a string, got ${String(value)}`;
      const bad = utf8Issue(value, '/');
      if (bad) return bad.message;
      const body = utf8Encode(value, { format: 'sd2', path: '/' });
      const out = new Uint8Array(body.length + 1);
      out.set(body);
      return out;
    }
    case 'bytes':
      if (value instanceof Uint8Array) return value;
      if (Array.isArray(value) && value.every((x) => Number.isInteger(x) && x >= 0 && x <= 255)) return Uint8Array.from(value as number[]);
      return `${info.name} needs bytes`;
    case 'u16s':
    case 'u32s': {
      if (!Array.isArray(value)) return `${info.name} needs an array of integers`;
      const size = info.kind === 'u16s' ? 2 : 4;
      const max = info.kind === 'u16s' ? 0xffff : 0xffffffff;
      const out = new Uint8Array(value.length * size);
      const dv = new DataView(out.buffer);
      for (let i = 0; i < value.length; i++) {
        const v = value[i] as unknown;
        if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > max) return `${info.name} element ${i} out of range: ${String(v)}`;
        if (size === 2) dv.setUint16(i * 2, v, true);
        else dv.setUint32(i * 4, v, true);
      }
      return out;
    }
    case 'vecs': {
      if (!Array.isArray(value)) return `${info.name} needs an array of vectors`;
      const c = info.components;
      const out = new Uint8Array(value.length * 4 * c);
      const dv = new DataView(out.buffer);
      for (let i = 0; i < value.length; i++) {
        const v = value[i] as unknown;
        if (!Array.isArray(v) || v.length !== c || v.some((x) => typeof x !== 'number')) return `${info.name} element ${i} needs ${c} numbers`;
        for (let k = 0; k < c; k++) dv.setFloat32((i * c + k) * 4, v[k] as number, true);
      }
      return out;
    }
    default:
      return `${info.name} is an inline type`;
  }
}

/** The type table entry for an id (undefined for ids above 26). */
export function sd2Type(typeId: number): Sd2TypeInfo | undefined {
  return SD2_TYPES[typeId];
}
