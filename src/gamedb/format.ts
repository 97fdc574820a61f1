/**
 * Presentation of decoded values, shared by the CLI and the workbench: a one-line text form and a JSON form.
 * Floats are f32 in the file; both forms print the shortest decimal that reads back to the same f32, so a value
 * shown is a value that round-trips.
 */
import { formatF32, shortestF32 } from '../binary/text.ts';
import { formatHash } from './names.ts';

export { formatF32, shortestF32 };
import { DbRecord, type FieldValue } from './database.ts';
import type { CurveKey, EnumValue } from './values.ts';
import type { GadbTypeInfo } from '../formats/gadb/type-codes.ts';

/** True when the numbers of a value of this type are f32 (Float, vectors, pairs; float and vector curves). */
function numbersAreF32(type: GadbTypeInfo | undefined): boolean {
  const d = type?.decoding;
  if (!d) return false;
  if (d.kind === 'f32') return true;
  if (d.kind === 'fixed') return d.element === 'f32';
  if (d.kind === 'curve') return d.value === 'f32' || d.value === 'vec3';
  return false;
}

/**
 * A text value in double quotes for display: quotes and control characters escaped, backslashes kept as they are
 * (resource paths such as `fx\weapons\x.fxp` stay readable; `--json` output is exact JSON).
 */
export function quoteText(text: string): string {
  return '"' + text.replace(/["\u0000-\u001f\u007f]/g, (c) => (c === '"' ? '\\"' : `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`)) + '"';
}

function isEnum(v: unknown): v is EnumValue {
  return typeof v === 'object' && v !== null && 'text' in v && 'hash' in v;
}

function isCurve(v: unknown): v is readonly CurveKey[] {
  return Array.isArray(v) && (v.length === 0 || (typeof v[0] === 'object' && v[0] !== null && 'time' in v[0]));
}

/** A record as JSON: enough to find it again (`category`, `record`) plus its link word. */
export function recordRef(r: DbRecord): { category: string; record: string; link: string } {
  return { category: r.category.name, record: r.label, link: formatHash(r.linkValue) };
}

/** One-line text of a decoded element of a field of `type` (which tells f32 numbers from integers). */
export function formatValue(v: FieldValue | undefined, type?: GadbTypeInfo, maxKeys = 4): string {
  const isFloat = numbersAreF32(type);
  const num = (x: number) => (isFloat ? formatF32(x) : String(x));
  if (v === undefined) return '(no value)';
  if (v === null) return 'null';
  if (v instanceof DbRecord) return `-> ${v.path}`;
  if (typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  if (typeof v === 'number') return isFloat ? formatF32(v) : String(v);
  if (typeof v === 'string') return quoteText(v);
  if (v instanceof Uint8Array) return `<${Array.from(v, (b) => b.toString(16).padStart(2, '0')).join(' ')}>`;
  if (isEnum(v)) return `${v.text} (${v.hash === undefined ? 'hash unknown' : formatHash(v.hash)})`;
  if (isCurve(v)) {
    const keys = v.slice(0, maxKeys).map((k) => `${formatF32(k.time)}: ${Array.isArray(k.value) ? `(${(k.value as number[]).map(num).join(', ')})` : num(k.value as number)}`);
    return `curve[${v.length}] {${keys.join('; ')}${v.length > maxKeys ? '; …' : ''}}`;
  }
  return `(${(v as readonly number[]).map(num).join(', ')})`;
}

/** JSON form of a decoded element of a field of `type`. Int64 is a decimal string; a record is `recordRef`; no value is `null`. */
export function valueToJson(v: FieldValue | undefined, type?: GadbTypeInfo): unknown {
  const isFloat = numbersAreF32(type);
  const num = (x: number) => (isFloat ? shortestF32(x) : x);
  if (v === undefined || v === null) return null;
  if (v instanceof DbRecord) return recordRef(v);
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'number') return isFloat ? shortestF32(v) : v;
  if (typeof v === 'boolean' || typeof v === 'string') return v;
  if (v instanceof Uint8Array) return Array.from(v, (b) => b.toString(16).padStart(2, '0')).join('');
  if (isEnum(v)) return { text: v.text, hash: v.hash ?? null };
  if (isCurve(v)) return v.map((k) => ({ time: shortestF32(k.time), value: Array.isArray(k.value) ? (k.value as number[]).map(num) : num(k.value as number) }));
  return (v as readonly number[]).map(num);
}
