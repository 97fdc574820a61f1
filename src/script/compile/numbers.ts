/**
 * Number text → value, as hksc reads numerals: `strtod` of the C library (glibc: decimal and hexadecimal forms,
 * correctly rounded to double), and `strtoull(…, 16)` for the `0x…hi` / `0x…hl` int literals. hksc then stores the
 * double in its lua_Number, so a float32 build rounds it a second time (`Math.fround`), exactly like the C cast.
 */

const HEX = /^[0-9a-fA-F]$/;

function hexValue(c: string): number {
  const v = parseInt(c, 16);
  return Number.isNaN(v) ? -1 : v;
}

/**
 * The value of a Lua numeral as hksc's `luaO_str2d` reads it (the whole text must be consumed), or `undefined`
 * when it is malformed. `text` is the numeral up to its first NUL byte.
 */
export function readLuaNumeral(text: string): number | undefined {
  if (text.length === 0) return undefined;
  if ((text[0] === '0' && (text[1] === 'x' || text[1] === 'X')) && text.length > 2 && (HEX.test(text[2]!) || (text[2] === '.' && text.length > 3 && HEX.test(text[3]!)))) {
    return readHexFloat(text);
  }
  // Decimal: digits [. digits] [e [+-] digits]; at least one mantissa digit.
  const m = /^(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$/.exec(text);
  if (!m) return undefined;
  return Number(text);
}

/** glibc's hexadecimal strtod: `0x` hexdigits [`.` hexdigits] [`p` [+-] digits], correctly rounded. */
function readHexFloat(text: string): number | undefined {
  const m = /^0[xX]([0-9a-fA-F]*)(?:\.([0-9a-fA-F]*))?(?:[pP]([+-]?[0-9]+))?$/.exec(text);
  if (!m) return undefined;
  const intDigits = m[1] ?? '';
  const fracDigits = m[2] ?? '';
  if (intDigits.length + fracDigits.length === 0) return undefined;
  let mantissa = 0n;
  for (const c of intDigits + fracDigits) mantissa = (mantissa << 4n) | BigInt(hexValue(c));
  let exponent = -4 * fracDigits.length + (m[3] !== undefined ? Number(m[3]) : 0);
  if (mantissa === 0n) return 0;
  return scaleBinary(mantissa, exponent);
}

/** `mantissa × 2^exponent` rounded to the nearest double (ties to even). */
function scaleBinary(mantissa: bigint, exponent: number): number {
  const bits = mantissa.toString(2).length;
  if (bits > 53) {
    const shift = BigInt(bits - 53);
    let q = mantissa >> shift;
    const rem = mantissa & ((1n << shift) - 1n);
    const half = 1n << (shift - 1n);
    if (rem > half || (rem === half && (q & 1n) === 1n)) q += 1n;
    mantissa = q;
    exponent += bits - 53;
  }
  let value = Number(mantissa);
  // Exact power-of-two scaling in steps that stay in range.
  while (exponent > 0) {
    const step = Math.min(exponent, 1000);
    value *= 2 ** step;
    exponent -= step;
    if (!Number.isFinite(value)) return value;
  }
  while (exponent < 0) {
    const step = Math.min(-exponent, 1000);
    value /= 2 ** step;
    exponent += step;
  }
  return value;
}

/** Largest value `strtoull` returns (it saturates on overflow). */
const U64_MAX = (1n << 64n) - 1n;

/**
 * The digits of an int literal between `0x` and its `hi` / `hl` suffix, read as `strtoull(s, &end, 16)` must read
 * them all: an optional second `0x` prefix, then hex digits; overflow saturates at 2^64 − 1. `undefined` when the
 * text is not entirely consumed.
 */
export function readIntLiteralDigits(digits: string): bigint | undefined {
  let s = digits;
  if ((s.startsWith('0x') || s.startsWith('0X')) && s.length > 2 && HEX.test(s[2]!)) s = s.slice(2);
  if (s.length === 0 || !/^[0-9a-fA-F]+$/.test(s)) return undefined;
  const v = BigInt('0x' + s);
  return v > U64_MAX ? U64_MAX : v;
}
