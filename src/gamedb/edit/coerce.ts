/**
 * Turning what a user typed (command-line text, or a JSON/YAML value from a change file) into a field element of
 * the right shape, per the type table's decoding. Errors are `UsageError`s naming the field and what was expected.
 */
import { UsageError } from '../../binary/errors.ts';
import type { GadbTypeInfo } from '../../formats/gadb/type-codes.ts';
import { fromHex } from './model.ts';
import { describe, f32Bits, f32FromBits, type CurveKey, type ElementValue, type LinkValue } from './values.ts';

/** Resolves a `Category/Record` text to a link target. */
export type LinkResolver = (text: string) => LinkValue;

function parseNumber(text: string): number | undefined {
  const t = text.trim();
  if (/^[-+]?0x[0-9a-f]+$/i.test(t)) return Number(t.startsWith('-') ? -parseInt(t.slice(3), 16) : parseInt(t.replace(/^\+/, '').slice(2), 16));
  if (/^[-+]?(inf|infinity)$/i.test(t)) return t.startsWith('-') ? -Infinity : Infinity;
  if (/^nan$/i.test(t)) return NaN;
  if (t === '' || !/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(t)) return undefined;
  return Number(t);
}

function parseStructured(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The largest finite f32. */
const F32_MAX = 3.4028234663852886e38;

/**
 * `n` as an f32, refusing a finite number that f32 cannot hold (it would round to ±Infinity): an infinity is
 * stored only when asked for by name (`inf`, `-inf`, `Infinity`, YAML `.inf`).
 */
function toF32(n: number, where: string, typeName: string): number {
  const f = f32FromBits(f32Bits(n));
  if (Number.isFinite(n) && !Number.isFinite(f)) {
    throw new UsageError(`${where}: ${n} is outside the range of a ${typeName} (f32, ±${F32_MAX}): type inf or -inf to store an infinity`);
  }
  return f;
}

/**
 * Coerces `input` to an element of the type `info`. `input` may be a JS value (from JSON or YAML) or a string typed
 * on the command line, which is parsed per type (`true`, `1.5`, `0x40`, `1,2,3`, `[[0,1],[1,2]]`, `Cat/Rec`, `null`).
 */
export function coerceElement(info: GadbTypeInfo | undefined, input: unknown, where: string, resolveLink: LinkResolver): ElementValue {
  if (!info) throw new UsageError(`${where}: the field's type code is unknown to scry; it cannot be edited`);
  const d = info.decoding;
  const fail = (expected: string): never => {
    throw new UsageError(`${where}: expected ${expected} for a ${info.name} field, got ${describe(input)}`);
  };
  switch (d.kind) {
    case 'bool': {
      if (typeof input === 'boolean') return input;
      if (input === 1 || input === 0) return input === 1;
      if (typeof input === 'string') {
        const t = input.trim().toLowerCase();
        if (t === 'true' || t === '1') return true;
        if (t === 'false' || t === '0') return false;
      }
      return fail('true or false');
    }
    case 'f32': {
      if (typeof input === 'number') return toF32(input, where, info.name);
      if (typeof input === 'string') {
        const n = parseNumber(input);
        if (n !== undefined) return toF32(n, where, info.name);
      }
      return fail('a number');
    }
    case 'i32': {
      let n: number | undefined;
      if (typeof input === 'number') n = input;
      else if (typeof input === 'string') n = parseNumber(input);
      if (n === undefined || !Number.isInteger(n) || n < -0x80000000 || n > 0xffffffff) return fail('a 32-bit integer');
      return n | 0;
    }
    case 'text': {
      if (typeof input === 'string') return input;
      if (typeof input === 'number' || typeof input === 'boolean') return String(input);
      return fail('text');
    }
    case 'fixed': {
      if (d.element === 'i64') {
        if (typeof input === 'bigint') return BigInt.asIntN(64, input);
        if (typeof input === 'number' && Number.isSafeInteger(input)) return BigInt(input);
        if (typeof input === 'string' && /^[-+]?(\d+|0x[0-9a-f]+)$/i.test(input.trim())) {
          const t = input.trim();
          const neg = t.startsWith('-');
          const body = t.replace(/^[-+]/, '');
          const v = BigInt(body);
          return BigInt.asIntN(64, neg ? -v : v);
        }
        return fail('a 64-bit integer');
      }
      let arr: unknown = input;
      if (typeof input === 'string') {
        const s = parseStructured(input);
        arr = Array.isArray(s) ? s : input.split(/[\s,]+/).filter((x) => x.length > 0).map((x) => parseNumber(x) ?? x);
      }
      if (!Array.isArray(arr) || arr.length !== d.count) return fail(`${d.count} numbers`);
      return arr.map((x) => {
        const n = typeof x === 'number' ? x : typeof x === 'string' ? parseNumber(x) : undefined;
        if (n === undefined) return fail(`${d.count} numbers`);
        return toF32(n, where, info.name);
      });
    }
    case 'curve': {
      let arr: unknown = input;
      if (typeof input === 'string') arr = parseStructured(input);
      if (!Array.isArray(arr)) return fail('a JSON list of keys [[time, value…], …]');
      return arr.map((k) => {
        if (!Array.isArray(k)) return fail('a list of keys [[time, value…], …]');
        return k.map((x, i) => {
          const n = typeof x === 'number' ? x : typeof x === 'string' ? parseNumber(x) : undefined;
          if (n === undefined) return fail('numeric curve keys');
          // the time, and the value of float and vector curves, are f32
          return i === 0 || d.value === 'f32' || d.value === 'vec3' ? toF32(n, where, info.name) : n;
        });
      }) as CurveKey[];
    }
    case 'link': {
      if (input === null || input === undefined) return null;
      if (typeof input === 'string') {
        const t = input.trim();
        if (t === '' || t.toLowerCase() === 'null' || t === '-') return null;
        return resolveLink(t);
      }
      if (typeof input === 'object' && input !== null && 'category' in input && 'index' in input) {
        const l = input as { category: unknown; index: unknown };
        if (typeof l.category === 'number' && typeof l.index === 'number') return { category: l.category, index: l.index };
      }
      return fail('"Category/Record" or null');
    }
    case 'opaque': {
      if (input instanceof Uint8Array) return input;
      if (typeof input === 'string') return fromHex(input.replace(/\s+/g, ''));
      return fail('hex bytes');
    }
  }
}

/** Splits `value` into elements for a field of `count` elements, or checks an array's length. */
export function coerceField(info: GadbTypeInfo | undefined, count: number, input: unknown, where: string, resolveLink: LinkResolver): ElementValue[] {
  if (count === 1) return [coerceElement(info, input, where, resolveLink)];
  let arr = input;
  if (typeof input === 'string') {
    try {
      arr = JSON.parse(input);
    } catch {
      arr = undefined;
    }
  }
  if (!Array.isArray(arr)) throw new UsageError(`${where}: the field has ${count} elements; give a JSON list or use --index`);
  if (arr.length !== count) throw new UsageError(`${where}: the field has ${count} elements, the value has ${arr.length} (change the count first)`);
  return arr.map((x, i) => coerceElement(info, x, `${where}[${i}]`, resolveLink));
}
