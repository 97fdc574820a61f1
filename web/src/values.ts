/** How typed values look: compact in table cells, in full in the record view (vectors, arrays, curve plots). */
import type { RecordRef, TypedValue } from '../../src/server/api-types.ts';
import { formatF32 } from '../../src/binary/text.ts';
import { keyValueText, valueText } from '../../src/server/value-text.ts';
import { h, svg } from './dom.ts';

export { valueText };

/** Shortest text that reads back as the same f32 (the file stores f32, JSON carries f64): the library's formatter. */
export const f32Text = formatF32;

function colorCss(c: number): string {
  // Byte order of the colour is unknown (H-COLOR-ORDER); shown as 0xAARRGGBB read from the u32.
  const a = (c >>> 24) & 255;
  const r = (c >>> 16) & 255;
  const g = (c >>> 8) & 255;
  const b = c & 255;
  return `rgba(${r}, ${g}, ${b}, ${(a / 255).toFixed(3)})`;
}

/**
 * Makes the link element of a RecordLink value: a real `<a href>` to the record's view (so the address can be
 * copied and Ctrl+click opens a tab), navigating in the page on a plain click.
 */
export type LinkMaker = (ref: RecordRef, ...children: (Node | string)[]) => HTMLAnchorElement;

/** A compact cell: text with a type class; links made by `linkTo`. */
export function compactValue(v: TypedValue, linkTo: LinkMaker): Node | string {
  if (v.t === 'link' && v.target) {
    const a = linkTo(v.target, v.target.label);
    a.classList.add('v-link');
    // a click on the link follows it; it does not also select the row
    a.addEventListener('click', (e) => e.stopPropagation());
    return a;
  }
  if (v.t === 'link') return h('span', { class: v.raw === 0xffffffff ? 'v-null' : 'v-broken' }, valueText(v));
  if (v.t === 'none') return h('span', { class: 'v-null' }, '—');
  if (v.t === 'bool') return h('span', { class: v.v ? 'v-bool on' : 'v-bool' }, v.v ? '✓' : '·');
  if (v.t === 'curve') return h('span', { class: 'v-curve' }, miniPlot(v, 56, 16), ` ${v.keys.length}`);
  return valueText(v);
}

/** The full value for the record view. */
export function fullValue(v: TypedValue, linkTo: LinkMaker): Node {
  switch (v.t) {
    case 'vec':
      return h('span', { class: 'v-vec' }, v.v.map((x, i) => h('span', { class: 'v-comp' }, h('i', null, 'xyzw'[i] ?? String(i)), f32Text(x))));
    case 'curve':
      return h('div', { class: 'v-curve-full' }, plot(v), curveTable(v));
    case 'array':
      return h(
        'ol',
        { class: 'v-array', start: 0 },
        v.items.map((item) => h('li', null, fullValue(item, linkTo))),
      );
    case 'link':
      if (v.target) {
        const t = v.target;
        const a = linkTo(t, h('span', { class: 'v-link-cat' }, t.category, ' / '), t.label);
        a.classList.add('v-link');
        if (t.file !== undefined) a.title = `in ${t.file} (this is a patch: its links point into the database it applies to)`;
        return a;
      }
      return h('span', { class: v.raw === 0xffffffff ? 'v-null' : 'v-broken' }, valueText(v));
    case 'string':
      return h('span', { class: v.resourcePath ? 'v-string v-path' : 'v-string' }, v.v === '' ? h('span', { class: 'v-empty' }, '""') : v.v);
    case 'enum':
      return h('span', { class: 'v-enum', title: v.hash ? `P919 ${v.hash}` : undefined }, v.v);
    case 'bool':
      return h('span', { class: v.v ? 'v-bool on' : 'v-bool' }, v.v ? 'true' : 'false');
    case 'none':
      return h('span', { class: 'v-empty' }, 'no value stored (count 0)');
    default:
      return h('span', { class: `v-${v.t}` }, valueText(v));
  }
}

function curveTable(v: Extract<TypedValue, { t: 'curve' }>): HTMLElement {
  return h(
    'table',
    { class: 'v-keys' },
    h('tr', null, h('th', null, 'time'), h('th', null, 'value')),
    v.keys.map((k) =>
      h(
        'tr',
        null,
        h('td', null, f32Text(k.time)),
        h('td', null, v.curve === 'ColorCurve' && typeof k.value === 'number' ? h('span', { class: 'swatch', style: `background:${colorCss(k.value)}` }) : null, keyValueText(k.value, v.curve)),
      ),
    ),
  );
}

/** The numeric series of a curve: one per component (colour curves plot their four bytes). */
function series(v: Extract<TypedValue, { t: 'curve' }>): { name: string; color: string; points: [number, number][] }[] {
  const palette = ['#e8a33d', '#5fb3f0', '#8ad17a', '#d27be0'];
  const first = v.keys[0]?.value;
  if (v.curve === 'ColorCurve') {
    return ['a', 'r', 'g', 'b'].map((name, c) => ({
      name,
      color: ['#bbbbbb', '#f06b6b', '#6bd06b', '#6b9ff0'][c]!,
      points: v.keys.map((k) => [k.time, (((k.value as number) >>> (24 - c * 8)) & 255) / 255] as [number, number]),
    }));
  }
  if (Array.isArray(first)) {
    return first.map((_, c) => ({ name: 'xyz'[c] ?? String(c), color: palette[c % 4]!, points: v.keys.map((k) => [k.time, (k.value as number[])[c] ?? 0] as [number, number]) }));
  }
  return [{ name: 'v', color: palette[0]!, points: v.keys.map((k) => [k.time, k.value as number] as [number, number]) }];
}

function plotInto(v: Extract<TypedValue, { t: 'curve' }>, width: number, height: number, pad: number, withAxes: boolean): SVGElement {
  const s = series(v);
  const all = s.flatMap((x) => x.points);
  const t0 = Math.min(...all.map((p) => p[0]), 0);
  const t1 = Math.max(...all.map((p) => p[0]), t0 + 1e-9);
  let y0 = Math.min(...all.map((p) => p[1]));
  let y1 = Math.max(...all.map((p) => p[1]));
  if (!(y1 > y0)) {
    y0 -= 1;
    y1 += 1;
  }
  const X = (t: number) => pad + ((t - t0) / (t1 - t0)) * (width - 2 * pad);
  const Y = (y: number) => height - pad - ((y - y0) / (y1 - y0)) * (height - 2 * pad);
  const root = svg('svg', { viewBox: `0 0 ${width} ${height}`, width, height, class: 'plot' });
  if (withAxes) {
    root.appendChild(svg('rect', { x: pad, y: pad, width: width - 2 * pad, height: height - 2 * pad, class: 'plot-frame' }));
    const label = (x: number, y: number, text: string, anchor: string) => {
      const t = svg('text', { x, y, 'text-anchor': anchor, class: 'plot-label' });
      t.textContent = text;
      root.appendChild(t);
    };
    label(pad - 4, pad + 4, f32Text(y1), 'end');
    label(pad - 4, height - pad, f32Text(y0), 'end');
    label(pad, height - pad + 12, f32Text(t0), 'start');
    label(width - pad, height - pad + 12, f32Text(t1), 'end');
  }
  for (const line of s) {
    if (line.points.length === 0) continue;
    const pts = line.points.length === 1 ? [line.points[0]!, [t1, line.points[0]![1]] as [number, number]] : line.points;
    root.appendChild(svg('polyline', { points: pts.map(([t, y]) => `${X(t).toFixed(1)},${Y(y).toFixed(1)}`).join(' '), stroke: line.color, class: 'plot-line' }));
    if (withAxes) for (const [t, y] of line.points) root.appendChild(svg('circle', { cx: X(t).toFixed(1), cy: Y(y).toFixed(1), r: 2.5, fill: line.color }));
  }
  return root;
}

/** A small plot with axes for the record view. */
export function plot(v: Extract<TypedValue, { t: 'curve' }>): SVGElement {
  return plotInto(v, 260, 110, 28, true);
}

/** A sparkline for table cells. */
export function miniPlot(v: Extract<TypedValue, { t: 'curve' }>, width: number, height: number): SVGElement {
  return plotInto(v, width, height, 2, false);
}
