/**
 * The one-line text of a typed value (`TypedValue`): what a table cell, a diff and a tooltip show, and what the
 * table's column filters and sorts compare. Shared by the server and the page (no `node:*`).
 */
import { formatF32 as f32Text, hex32 } from '../binary/text.ts';
import type { TypedValue } from './api-types.ts';

/** A curve key's value as text (colours as 0xAARRGGBB, integer curves as integers, the rest as f32). */
export function keyValueText(v: number | number[], curve: string): string {
  if (Array.isArray(v)) return curve === 'Curve14' ? v.map((x) => '0x' + (x >>> 0).toString(16).toUpperCase()).join(' ') : `(${v.map(f32Text).join(', ')})`;
  if (curve === 'ColorCurve') return hex32(v);
  return curve === 'IntCurve' ? String(v) : f32Text(v);
}

/** One-line text of a value, for table cells, diffs and tooltips. */
export function valueText(v: TypedValue): string {
  switch (v.t) {
    case 'bool':
      return v.v ? 'true' : 'false';
    case 'float':
      return f32Text(v.v);
    case 'int':
      return String(v.v);
    case 'string':
      return v.v;
    case 'enum':
      return v.v;
    case 'int64':
      return v.v;
    case 'vec':
      return `(${v.v.map(f32Text).join(', ')})`;
    case 'curve':
      return `${v.keys.length} key${v.keys.length === 1 ? '' : 's'}: ${v.keys
        .slice(0, 3)
        .map((k) => `${f32Text(k.time)}→${keyValueText(k.value, v.curve)}`)
        .join('  ')}${v.keys.length > 3 ? ' …' : ''}`;
    case 'link':
      return v.target ? `${v.target.category} / ${v.target.label}` : v.raw === 0xffffffff ? 'null' : `broken 0x${v.raw.toString(16).toUpperCase()}`;
    case 'raw':
      return v.hex;
    case 'array':
      return `[${v.items.map(valueText).join(', ')}]`;
    case 'none':
      return '—';
  }
}

