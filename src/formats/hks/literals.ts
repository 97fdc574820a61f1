/**
 * Literal syntax shared by the disassembler and the assembler: byte strings, numbers (shortest text that reads
 * back to the same float32 / float64, NaN payloads as raw bits) and constants.
 */
import type { HksConstant, HksHeader } from './chunk.ts';

/** `"…"` with `\\ \" \n \r \t` and `\xHH` for every other byte outside printable ASCII; `null` for a null string. */
export function quoteHksString(s: string | null): string {
  if (s === null) return 'null';
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x5c) out += '\\\\';
    else if (c === 0x22) out += '\\"';
    else if (c === 0x0a) out += '\\n';
    else if (c === 0x0d) out += '\\r';
    else if (c === 0x09) out += '\\t';
    else if (c < 0x20 || c >= 0x7f) out += '\\x' + c.toString(16).padStart(2, '0');
    else out += s[i];
  }
  return out + '"';
}

/** Shortest decimal text that reads back to exactly `value` at the given width (4 = float32). */
export function formatHksNumber(value: number, numberSize: number, integral: boolean): string {
  if (integral) return String(value);
  if (Object.is(value, -0)) return '-0';
  if (value === Infinity) return 'inf';
  if (value === -Infinity) return '-inf';
  if (numberSize === 4) {
    for (let p = 1; p <= 9; p++) {
      const t = Number(value.toPrecision(p));
      if (Math.fround(t) === value) return String(t);
    }
  }
  return String(value);
}

/** Listing text of a constant. */
export function formatHksConstant(k: HksConstant, h: HksHeader): string {
  switch (k.type) {
    case 'nil':
      return 'nil';
    case 'boolean':
      return k.value === 0 ? 'false' : k.value === 1 ? 'true' : `bool:${k.value}`;
    case 'lightuserdata':
      return `lud:0x${k.value.toString(16)}`;
    case 'ui64':
      return `ui64:0x${k.value.toString(16)}`;
    case 'string':
      return quoteHksString(k.value);
    case 'number':
      if (k.nanBits !== undefined && Number.isNaN(k.value)) return `nan:0x${k.nanBits.toString(16)}`;
      if (Number.isNaN(k.value)) return h.numberSize === 4 ? 'nan:0x7fc00000' : 'nan:0x7ff8000000000000';
      return formatHksNumber(k.value, h.numberSize, h.integralNumbers !== 0);
  }
}

/** Two constants are the same value, bit for bit (for symbolic `K(…)` lookups). */
export function sameHksConstant(a: HksConstant, b: HksConstant): boolean {
  if (a.type !== b.type) return false;
  switch (a.type) {
    case 'nil':
      return true;
    case 'number': {
      const bn = b as typeof a;
      if (Number.isNaN(a.value) || Number.isNaN(bn.value)) return Number.isNaN(a.value) && Number.isNaN(bn.value) && a.nanBits === bn.nanBits;
      return Object.is(a.value, bn.value);
    }
    default:
      return a.value === (b as typeof a).value;
  }
}
