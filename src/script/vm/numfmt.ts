/**
 * Numbers to text and back the way Lua 5.1 on glibc does it: `%.14g` for `tostring` (`LUAI_NUMFFORMAT`), the
 * C printf conversions of `string.format` (correct rounding of the exact binary value, ties to even, as glibc), and
 * `strtod` / `strtoul` parsing for `tonumber` and string coercions (decimal, hexadecimal integers and floats, `inf`,
 * `nan`, surrounding white space).
 *
 * JavaScript's `toPrecision` / `toFixed` / `toExponential` are exact but break ties away from zero; a tie can only
 * happen when the next digit is exactly 5, which one more digit of precision reveals, and then the exact decimal
 * expansion (BigInt) decides.
 */

const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);
const LITTLE = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;

/** True when the sign bit of `x` is set (NaN and -0 included). */
export function signBit(x: number): boolean {
  f64[0] = x;
  return (u32[LITTLE ? 1 : 0]! & 0x80000000) !== 0;
}

/** Exact decimal digits of a positive finite double: value = 0.`digits` × 10^`exp` (digits without trailing zeros). */
function exactDecimal(x: number): { digits: string; exp: number } {
  f64[0] = x;
  const hi = u32[LITTLE ? 1 : 0]!;
  const lo = u32[LITTLE ? 0 : 1]!;
  const bexp = (hi >>> 20) & 0x7ff;
  let mant = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let e: number;
  if (bexp === 0) e = -1074;
  else {
    mant |= 1n << 52n;
    e = bexp - 1075;
  }
  let s: string;
  let pointPos: number;
  if (e >= 0) {
    s = (mant << BigInt(e)).toString();
    pointPos = s.length;
  } else {
    s = (mant * 5n ** BigInt(-e)).toString();
    pointPos = s.length + e;
  }
  let end = s.length;
  while (end > 1 && s.charCodeAt(end - 1) === 48) end--;
  let start = 0;
  while (start < end - 1 && s.charCodeAt(start) === 48) {
    start++;
    pointPos--;
  }
  return { digits: s.slice(start, end), exp: pointPos };
}

/** Rounds a digit string to `n` digits (n >= 0), half to even on the exact tail. Returns digits and a carry flag. */
function roundDigits(digits: string, n: number): { digits: string; carry: boolean } {
  if (digits.length <= n) return { digits: digits.padEnd(n, '0'), carry: false };
  const head = digits.slice(0, n);
  const next = digits.charCodeAt(n) - 48;
  const rest = digits.length > n + 1; // any nonzero digit after (trailing zeros were stripped)
  let up = next > 5 || (next === 5 && (rest || (n > 0 && (head.charCodeAt(n - 1) - 48) % 2 === 1)));
  if (next === 5 && !rest && n === 0) up = false; // 0.5 -> 0 (even)
  if (!up) return { digits: head, carry: false };
  // increment
  const arr = head.split('');
  let i = n - 1;
  while (i >= 0) {
    if (arr[i] === '9') {
      arr[i] = '0';
      i--;
    } else {
      arr[i] = String.fromCharCode(arr[i]!.charCodeAt(0) + 1);
      break;
    }
  }
  if (i < 0) return { digits: '1' + arr.join(''), carry: true };
  return { digits: arr.join(''), carry: false };
}

/** `p` significant digits of positive finite x, correctly rounded (ties to even): digits and decimal exponent of the first digit. */
function significant(x: number, p: number): { digits: string; exp10: number } {
  // fast path: JS rounds correctly except on exact ties, which show as a trailing 5 at one more digit
  if (p <= 99) {
    const probe = x.toExponential(Math.min(p, 100));
    const mant = probe.slice(0, probe.indexOf('e'));
    if (mant.charCodeAt(mant.length - 1) !== 53 /* '5' */) {
      const s = x.toExponential(p - 1);
      const ei = s.indexOf('e');
      return { digits: s.slice(0, ei).replace('.', ''), exp10: Number(s.slice(ei + 1)) };
    }
  }
  const { digits, exp } = exactDecimal(x);
  const r = roundDigits(digits, p);
  return r.carry ? { digits: r.digits.slice(0, p), exp10: exp } : { digits: r.digits, exp10: exp - 1 };
}

/** Digits of positive finite x with `f` digits after the point, correctly rounded: integer part and fraction. */
function fixedDigits(x: number, f: number): string {
  if (x < 1e21 && f <= 99) {
    const probe = x.toFixed(f + 1);
    if (probe.charCodeAt(probe.length - 1) !== 53) return x.toFixed(f);
  }
  const { digits, exp } = exactDecimal(x);
  // digits placed so that value = 0.digits x 10^exp; keep exp + f digits
  const keep = exp + f;
  let intDigits: string;
  if (keep < 0) intDigits = '0';
  else {
    const r = roundDigits(digits, keep);
    intDigits = r.digits === '' ? '0' : r.digits;
  }
  // intDigits now is the value x 10^f as an integer string
  const padded = intDigits.padStart(f + 1, '0');
  const ip = padded.slice(0, padded.length - f);
  const fp = padded.slice(padded.length - f);
  return f > 0 ? `${ip}.${fp}` : ip;
}

export interface PrintfSpec {
  /** Flags among `-+ #0`. */
  flags: string;
  width: number;
  /** -1 when absent. */
  precision: number;
  /** The conversion letter: e E f g G (floats), d i u x X o c (integers). */
  conv: string;
}

function pad(body: string, sign: string, spec: PrintfSpec, numeric: boolean): string {
  const total = sign.length + body.length;
  if (total >= spec.width) return sign + body;
  const fill = spec.width - total;
  if (spec.flags.includes('-')) return sign + body + ' '.repeat(fill);
  if (numeric && spec.flags.includes('0')) return sign + '0'.repeat(fill) + body;
  return ' '.repeat(fill) + sign + body;
}

function signOf(neg: boolean, spec: PrintfSpec): string {
  if (neg) return '-';
  if (spec.flags.includes('+')) return '+';
  if (spec.flags.includes(' ')) return ' ';
  return '';
}

function expText(e: number): string {
  const a = Math.abs(e);
  return (e < 0 ? '-' : '+') + (a < 10 ? '0' : '') + a;
}

/** Formats a double with a floating conversion (`e E f F g G`), as glibc's printf. */
export function formatFloat(x: number, spec: PrintfSpec): string {
  const neg = signBit(x);
  const upper = spec.conv === 'E' || spec.conv === 'G' || spec.conv === 'F';
  const sign = signOf(neg, spec);
  if (!Number.isFinite(x)) {
    const t = Number.isNaN(x) ? 'nan' : 'inf';
    return pad(upper ? t.toUpperCase() : t, sign, spec, false);
  }
  const a = Math.abs(x);
  const alt = spec.flags.includes('#');
  let p = spec.precision < 0 ? 6 : spec.precision;
  let body: string;
  const c = spec.conv.toLowerCase();
  if (c === 'f') {
    body = fixedDigits(a, p);
    if (alt && p === 0) body += '.';
  } else if (c === 'e') {
    body = expForm(a, p, alt);
  } else {
    // %g: precision 0 means 1; style e when exp < -4 or exp >= P
    if (p === 0) p = 1;
    if (a === 0) {
      body = alt ? '0.' + '0'.repeat(p - 1) : '0';
    } else {
      const sig = significant(a, p);
      const X = sig.exp10;
      if (X < -4 || X >= p) {
        let m = sig.digits;
        let frac = m.slice(1);
        if (!alt) frac = frac.replace(/0+$/, '');
        m = m[0]! + (frac.length > 0 || alt ? '.' + frac : '');
        body = m + 'e' + expText(X);
      } else {
        const f = p - 1 - X;
        body = fixedDigits(a, f);
        if (!alt && body.includes('.')) body = body.replace(/0+$/, '').replace(/\.$/, '');
        else if (alt && !body.includes('.')) body += '.';
      }
    }
  }
  if (upper) body = body.toUpperCase();
  return pad(body, sign, spec, true);
}

function expForm(a: number, p: number, alt: boolean): string {
  if (a === 0) return '0' + (p > 0 ? '.' + '0'.repeat(p) : alt ? '.' : '') + 'e+00';
  const sig = significant(a, p + 1);
  const m = sig.digits;
  return m[0]! + (p > 0 ? '.' + m.slice(1) : alt ? '.' : '') + 'e' + expText(sig.exp10);
}

/** `%.14g`: Lua 5.1's number-to-string conversion (`tostring`, concatenation, `print`). */
export function numberToString(x: number): string {
  if (Number.isInteger(x) && Math.abs(x) < 1e14) return x === 0 && signBit(x) ? '-0' : String(x);
  if (x !== x) return signBit(x) ? '-nan' : 'nan';
  if (x === Infinity) return 'inf';
  if (x === -Infinity) return '-inf';
  return formatFloat(x, G14);
}
const G14: PrintfSpec = { flags: '', width: 0, precision: 14, conv: 'g' };

/** Formats an integer (a BigInt already truncated as C's cast does) with `d i u x X o` conversions. */
export function formatInteger(v: bigint, spec: PrintfSpec): string {
  const conv = spec.conv;
  const neg = v < 0n;
  let body: string;
  let prefix = '';
  if (conv === 'd' || conv === 'i') body = (neg ? -v : v).toString();
  else {
    const u = BigInt.asUintN(64, v);
    if (conv === 'u') body = u.toString();
    else if (conv === 'o') {
      body = u.toString(8);
      if (spec.flags.includes('#') && body[0] !== '0') body = '0' + body;
    } else {
      body = u.toString(16);
      if (conv === 'X') body = body.toUpperCase();
      if (spec.flags.includes('#') && u !== 0n) prefix = conv === 'X' ? '0X' : '0x';
    }
  }
  if (spec.precision >= 0) {
    if (spec.precision === 0 && v === 0n) body = '';
    body = body.padStart(spec.precision, '0');
  }
  const sign = conv === 'd' || conv === 'i' ? signOf(neg, spec) : '';
  const s = { ...spec, flags: spec.precision >= 0 ? spec.flags.replace('0', '') : spec.flags };
  return pad(prefix + body, sign, s, true);
}

/** C's `(long)x` on x86-64: truncation, and the "integer indefinite" value 0x8000000000000000 when out of range. */
export function doubleToLong(x: number): bigint {
  if (!Number.isFinite(x) || x >= 9223372036854775808 || x < -9223372036854775808) return -9223372036854775808n;
  return BigInt(Math.trunc(x));
}

/**
 * C's `(unsigned long)x` as gcc compiles it for x86-64 (what Debian's lua5.1 does for `%o %u %x %X`; verified
 * against its output): below 2^63 (and NaN) the signed conversion, wrapped to 64 bits; from 2^63 on, the signed
 * conversion of `x - 2^63` with the top bit flipped, so 2^64 and above (and +inf) give 0.
 */
export function doubleToUnsignedLong(x: number): bigint {
  if (!(x >= 9223372036854775808)) return BigInt.asUintN(64, doubleToLong(x));
  return BigInt.asUintN(64, doubleToLong(x - 9223372036854775808) ^ -9223372036854775808n);
}

/** C's `(int)x` on x86-64 (`%c`): truncation, and 0x80000000 when out of range. */
export function doubleToInt(x: number): number {
  return x > -2147483649 && x < 2147483648 ? Math.trunc(x) : -2147483648;
}

// ------------------------------------------------------------------------------------------------------------------
// Parsing

const isSpace = (c: number): boolean => c === 32 || (c >= 9 && c <= 13);

/**
 * `luaO_str2d`: the whole string (surrounding white space allowed) must be a C `strtod` number, or a hexadecimal
 * integer `0x…` (which `strtod` also reads). Returns undefined when it is not.
 */
export function stringToNumber(s: string): number | undefined {
  let i = 0;
  const n = s.length;
  while (i < n && isSpace(s.charCodeAt(i))) i++;
  const r = strtod(s, i);
  if (r === null) return undefined;
  let j = r.end;
  while (j < n && isSpace(s.charCodeAt(j))) j++;
  return j === n ? r.value : undefined;
}

/** glibc `strtod` from position i (no leading white space skipping): value and end, or null when nothing parses. */
function strtod(s: string, i: number): { value: number; end: number } | null {
  const n = s.length;
  let neg = false;
  let j = i;
  const c0 = s.charCodeAt(j);
  if (c0 === 43 || c0 === 45) {
    neg = c0 === 45;
    j++;
  }
  // inf / infinity / nan / nan(chars)
  const rest = s.slice(j, j + 8).toLowerCase();
  if (rest.startsWith('inf')) {
    const end = rest.startsWith('infinity') ? j + 8 : j + 3;
    return { value: neg ? -Infinity : Infinity, end };
  }
  if (rest.startsWith('nan')) {
    let end = j + 3;
    if (s.charCodeAt(end) === 40) {
      let k = end + 1;
      while (k < n && /[0-9A-Za-z_]/.test(s[k]!)) k++;
      if (s.charCodeAt(k) === 41) end = k + 1;
    }
    return { value: neg ? -NaN : NaN, end };
  }
  // hexadecimal
  if (s.charCodeAt(j) === 48 && (s.charCodeAt(j + 1) | 32) === 120) {
    let k = j + 2;
    let mant = 0;
    let any = false;
    let scale = 0;
    while (k < n && hexVal(s.charCodeAt(k)) >= 0) {
      mant = mant * 16 + hexVal(s.charCodeAt(k));
      k++;
      any = true;
    }
    if (s.charCodeAt(k) === 46) {
      k++;
      while (k < n && hexVal(s.charCodeAt(k)) >= 0) {
        mant = mant * 16 + hexVal(s.charCodeAt(k));
        scale -= 4;
        k++;
        any = true;
      }
    }
    if (!any) return { value: neg ? -0 : 0, end: j + 1 }; // "0x" parses as 0, ending at the x
    if ((s.charCodeAt(k) | 32) === 112) {
      let m = k + 1;
      let eneg = false;
      if (s.charCodeAt(m) === 43 || s.charCodeAt(m) === 45) {
        eneg = s.charCodeAt(m) === 45;
        m++;
      }
      if (m < n && isDigit(s.charCodeAt(m))) {
        let e = 0;
        while (m < n && isDigit(s.charCodeAt(m))) {
          e = Math.min(e * 10 + (s.charCodeAt(m) - 48), 100000);
          m++;
        }
        scale += eneg ? -e : e;
        k = m;
      }
    }
    const v = mant * 2 ** scale;
    return { value: neg ? -v : v, end: k };
  }
  // decimal
  let k = j;
  let digits = 0;
  while (k < n && isDigit(s.charCodeAt(k))) {
    k++;
    digits++;
  }
  if (s.charCodeAt(k) === 46) {
    k++;
    while (k < n && isDigit(s.charCodeAt(k))) {
      k++;
      digits++;
    }
  }
  if (digits === 0) return null;
  let end = k;
  if ((s.charCodeAt(k) | 32) === 101) {
    let m = k + 1;
    if (s.charCodeAt(m) === 43 || s.charCodeAt(m) === 45) m++;
    if (m < n && isDigit(s.charCodeAt(m))) {
      while (m < n && isDigit(s.charCodeAt(m))) m++;
      end = m;
    }
  }
  const v = Number(s.slice(j, end));
  return { value: neg ? -v : v, end };
}

const isDigit = (c: number): boolean => c >= 48 && c <= 57;
function hexVal(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  const l = c | 32;
  if (l >= 97 && l <= 102) return l - 87;
  return -1;
}

/**
 * `tonumber(s, base)` for bases 2..36: C `strtoul` (white space, optional sign, a `0x` prefix in base 16, digits);
 * the rest may only be white space. A negative number wraps as `unsigned long` does. Undefined when it does not parse.
 */
export function stringToNumberBase(s: string, base: number): number | undefined {
  let i = 0;
  const n = s.length;
  while (i < n && isSpace(s.charCodeAt(i))) i++;
  let neg = false;
  if (s.charCodeAt(i) === 43 || s.charCodeAt(i) === 45) {
    neg = s.charCodeAt(i) === 45;
    i++;
  }
  if (base === 16 && s.charCodeAt(i) === 48 && (s.charCodeAt(i + 1) | 32) === 120 && digitVal(s.charCodeAt(i + 2)) < 16 && digitVal(s.charCodeAt(i + 2)) >= 0) i += 2;
  let v = 0n;
  const big = BigInt(base);
  let any = false;
  let overflow = false;
  while (i < n) {
    const d = digitVal(s.charCodeAt(i));
    if (d < 0 || d >= base) break;
    v = v * big + BigInt(d);
    if (v > 0xffffffffffffffffn) overflow = true;
    any = true;
    i++;
  }
  if (!any) return undefined;
  while (i < n && isSpace(s.charCodeAt(i))) i++;
  if (i !== n) return undefined;
  if (overflow) return 18446744073709551615;
  if (neg) v = BigInt.asUintN(64, -v);
  return Number(v);
}

function digitVal(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  const l = c | 32;
  if (l >= 97 && l <= 122) return l - 87;
  return -1;
}
