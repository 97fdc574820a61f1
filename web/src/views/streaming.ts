/**
 * The Streaming page (`/f/FILE/streaming?world=…&equip=…&budget=…&mount=…`): a simulated region visit over the open
 * database — the bundle table (state, reference and prefetch counts, cost, priority, requesters), the gear budget as
 * a bar (used / budget / required if unlimited), the stage queues' depths over time, and the event timeline.
 * Every parameter is in the URL, so a what-if run can be bookmarked and shared.
 */
import type { StreamingSetup, StreamingVisit } from '../../../src/server/api-streaming.ts';
import { get } from '../api.ts';
import type { App } from '../app.ts';
import { bytes, h, mount, num, svg } from '../dom.ts';
import type { ExtensionRoute } from '../routes.ts';

const ms = (t: number | undefined | null): string => (t === undefined || t === null ? '—' : `${t.toFixed(1)} ms`);

/** The budget as a bar: used, the budget, and what an unlimited budget would hold. */
function budgetBar(b: StreamingVisit['budget']): HTMLElement {
  const W = 640;
  const H = 26;
  const top = Math.max(b.budget, b.required, 1e-9);
  const x = (v: number): number => Math.max(0, Math.min(W, (v / top) * W));
  const bar = svg(
    'svg',
    { viewBox: `0 0 ${W} ${H + 16}`, width: W, height: H + 16, role: 'img', 'aria-label': `gear budget: ${b.used.toFixed(2)} used of ${b.budget}, ${b.required.toFixed(2)} required` },
    svg('rect', { x: 0, y: 0, width: W, height: H, fill: '#1d2230', stroke: '#2a3040' }),
    svg('rect', { x: 0, y: 0, width: x(b.required), height: H, fill: '#5b3b1f' }),
    svg('rect', { x: 0, y: 0, width: x(b.used), height: H, fill: '#e8a33d' }),
    svg('line', { x1: x(b.budget), y1: 0, x2: x(b.budget), y2: H + 4, stroke: '#e6e6e6', 'stroke-width': 2 }),
  );
  return h(
    'div',
    null,
    bar,
    h('p', { class: 'muted small' }, `used ${b.used.toFixed(2)} MB of the ${num(b.budget)} MB budget · required if unlimited ${b.required.toFixed(2)} MB · costs are Bundles/Types estimates until a load finishes and latches the real size`),
  );
}

const SERIES = [
  { label: 'open queue 0', color: '#e8a33d', pick: (d: NonNullable<StreamingVisit['depths']>) => d.open[0] },
  { label: 'open queue 1', color: '#b9a2e8', pick: (d: NonNullable<StreamingVisit['depths']>) => d.open[1] },
  { label: 'load queue 0', color: '#5fb3a1', pick: (d: NonNullable<StreamingVisit['depths']>) => d.load[0] },
  { label: 'load queue 1', color: '#7aa2f7', pick: (d: NonNullable<StreamingVisit['depths']>) => d.load[1] },
];

/** Queue depths over time, one step line per queue. */
function depthChart(v: StreamingVisit): HTMLElement {
  const d = v.depths;
  if (!d) return h('p', { class: 'muted' }, 'no depth samples (real mode)');
  const W = 720;
  const H = 200;
  const end = Math.max(v.stream.timeMs, 1);
  let peak = 1;
  for (const s of SERIES) for (const x of s.pick(d)?.[1] ?? []) peak = Math.max(peak, x);
  const px = (t: number): number => (t / end) * W;
  const py = (depth: number): number => H - (depth / peak) * H;
  const lines = SERIES.map((s) => {
    const [ts, ds] = s.pick(d) ?? [[], []];
    let path = `M0,${H}`;
    let last = 0;
    for (let i = 0; i < ts.length; i++) {
      path += ` L${px(ts[i]!).toFixed(1)},${py(last).toFixed(1)} L${px(ts[i]!).toFixed(1)},${py(ds[i]!).toFixed(1)}`;
      last = ds[i]!;
    }
    path += ` L${W},${py(last).toFixed(1)}`;
    return svg('path', { d: path, fill: 'none', stroke: s.color, 'stroke-width': 1.5 });
  });
  const chart = svg('svg', { viewBox: `0 0 ${W} ${H + 18}`, width: W, height: H + 18, role: 'img', 'aria-label': 'stage queue depths over time' }, svg('rect', { x: 0, y: 0, width: W, height: H, fill: '#151923', stroke: '#2a3040' }), ...lines);
  const hw = v.stream.highWater;
  return h(
    'div',
    null,
    chart,
    h('p', { class: 'small' }, SERIES.map((s) => h('span', { class: 'mono' }, h('b', { style: `color:${s.color}` }, '■ '), s.label, '   '))),
    h('p', { class: 'muted small' }, `peak ${num(peak)} over ${ms(end)} · high-water: open ${hw.open[0]} / ${hw.open[1]}, load ${hw.load[0]} / ${hw.load[1]} (the load queues are bounded by the 32 open-file slots)`),
  );
}

function bundleTable(v: StreamingVisit): HTMLElement {
  const order = { world: 0, skin: 1, gear: 2, direct: 3, layer: 4 } as Record<string, number>;
  const rows = [...v.bundles].sort((a, b) => (order[a.role] ?? 9) - (order[b.role] ?? 9) || (b.priority ?? 0) - (a.priority ?? 0) || (a.residentAt ?? Infinity) - (b.residentAt ?? Infinity));
  return h(
    'table',
    { class: 'kv streaming-bundles' },
    h('tr', null, ['bundle', 'role', 'state', 'refs', 'prefetch', 'content', 'cost', 'priority', 'requesters', 'resident at'].map((c) => h('th', null, c))),
    rows.map((b) =>
      h(
        'tr',
        { class: `state-${b.state}` },
        h('td', { class: 'mono', title: b.path }, b.name),
        h('td', null, b.role),
        h('td', null, b.state),
        h('td', { class: 'mono' }, num(b.references)),
        h('td', { class: 'mono' }, num(b.prefetches)),
        h('td', { class: 'mono' }, b.contentBytes ? bytes(b.contentBytes) : '—'),
        h('td', { class: 'mono' }, b.cost === undefined ? '' : `${b.cost.toFixed(3)}${b.estimate !== undefined && b.cost === b.estimate ? ' (est.)' : ''}`),
        h('td', { class: 'mono' }, b.priority === undefined ? '' : num(b.priority)),
        h('td', { class: 'mono' }, b.requesters === undefined ? '' : num(b.requesters)),
        h('td', { class: 'mono' }, ms(b.residentAt)),
      ),
    ),
  );
}

function timeline(v: StreamingVisit): HTMLElement {
  const interesting = v.events.filter((e) => !e.kind.startsWith('request.'));
  const shown = (interesting.length > 0 ? interesting : v.events).slice(0, 600);
  return h(
    'div',
    null,
    h('p', { class: 'muted small' }, `${num(v.eventsTotal)} events in all; showing ${num(shown.length)} (bundle, gear, creature-set and spawn events; request events are counted below)`),
    h('table', { class: 'kv streaming-events' }, shown.map((e) => h('tr', null, h('td', { class: 'mono' }, ms(e.t)), h('td', null, e.kind), h('td', { class: 'mono' }, e.path ?? (e.detail ? JSON.stringify(e.detail) : ''))))),
  );
}

function controls(app: App, route: ExtensionRoute, setup: StreamingSetup): HTMLElement {
  const q = new URLSearchParams(route.query);
  const world = h('select', null, setup.worlds.map((w) => h('option', { value: w, selected: w === (q.get('world') ?? setup.worlds[0]) }, w)));
  const equip = h('input', { class: 'mono', size: 60, value: q.get('equip') ?? setup.loadout.map((e) => `${e.item}${e.owner && e.owner !== 'player' ? '@' + e.owner : ''}${e.score !== undefined ? ':' + e.score : ''}`).join(','), placeholder: 'ITEM[@OWNER][:SCORE],…' });
  const budget = h('input', { class: 'mono', size: 8, value: q.get('budget') ?? '', placeholder: '3200' });
  const mounts = new Set((q.get('mount') ?? '').split(',').filter(Boolean));
  const boxes = setup.archives.map((a) => h('label', null, h('input', { type: 'checkbox', value: a.id, checked: mounts.has(a.id) }), ' ', a.name, ' '));
  const layers = h('input', { type: 'checkbox', checked: q.get('layers') !== '0' });
  const run = (): void => {
    const next = new URLSearchParams();
    next.set('world', (world as HTMLSelectElement).value);
    next.set('equip', (equip as HTMLInputElement).value);
    if ((budget as HTMLInputElement).value.trim() !== '') next.set('budget', (budget as HTMLInputElement).value.trim());
    const m = boxes.map((b) => b.querySelector('input')!).filter((i) => i.checked).map((i) => i.value);
    if (m.length > 0) next.set('mount', m.join(','));
    if (!(layers as HTMLInputElement).checked) next.set('layers', '0');
    app.navigate({ ...route, query: `?${next.toString()}` });
  };
  return h(
    'form',
    { class: 'streaming-controls', onsubmit: (e: Event) => (e.preventDefault(), run()) },
    h('label', null, 'region ', world),
    ' ',
    h('label', null, 'gear ', equip),
    ' ',
    h('label', null, 'budget ', budget),
    ' ',
    h('label', null, layers, ' layer bundles'),
    setup.archives.length > 0 ? h('div', { class: 'small' }, 'mount: ', boxes, h('span', { class: 'muted' }, '(none: the generated world the database describes)')) : null,
    h('button', { class: 'primary', type: 'submit' }, 'Simulate'),
  );
}

export async function render(app: App, route: ExtensionRoute): Promise<HTMLElement> {
  const file = route.file!;
  const setup = await get<StreamingSetup>(['files', file, 'streaming']);
  const page = h('div', { class: 'page streaming' }, h('h1', null, 'Streaming ', h('span', { class: 'badge' }, 'simulation')));
  if (!setup.available) {
    mount(page, h('h1', null, 'Streaming'), h('p', { class: 'muted' }, setup.reason ?? 'not available'));
    return page;
  }
  const q = new URLSearchParams(route.query);
  const body = h('div', null, h('p', { class: 'muted' }, 'simulating…'));
  page.append(controls(app, route, setup), body);
  const query: Record<string, string> = {};
  for (const k of ['world', 'equip', 'budget', 'mount', 'layers']) {
    const v = q.get(k);
    if (v !== null) query[k] = v;
  }
  if (!('equip' in query)) query['equip'] = setup.loadout.map((e) => `${e.item}${e.owner && e.owner !== 'player' ? '@' + e.owner : ''}${e.score !== undefined ? ':' + e.score : ''}`).join(',');
  try {
    const v = await get<StreamingVisit>(['files', file, 'streaming', 'visit'], query);
    const t = v.timeToResident;
    const requests = v.gear.filter((g) => g.status !== 'loaded');
    mount(
      body,
      h('p', { class: 'muted' }, `${v.world}${v.isTestWorld ? ' (test world)' : ''} · mounted: ${v.mounted.join(', ')} · simulated ${ms(v.stream.timeMs)} in ${num(v.ms)} ms of wall time`),
      h(
        'div',
        { class: 'counts' },
        [
          ['bundles in the registry', num(v.stream.bundles.rows)],
          ['resident', num(v.stream.bundles.resident)],
          ['missing (benign)', num(v.stream.bundles.missing)],
          ['skins resident at', ms(t.skins)],
          ['world set resident at', ms(t.worldSet)],
          ['everything at', ms(t.all)],
          ['requests', num(v.stream.requests.submitted)],
          ['stalled loaders', num(v.stream.stalls.length)],
        ].map(([label, value]) => h('div', { class: 'count' }, h('b', null, value!), h('span', null, label!))),
      ),
      v.stream.stalls.map((s) => h('div', { class: 'error' }, `stalled in ${s.stage} at ${ms(s.at)}: ${s.reason}`)),
      h('section', null, h('h3', null, 'Gear budget'), budgetBar(v.budget), requests.length > 0 ? h('ul', null, requests.map((r) => h('li', null, h('span', { class: 'mono' }, `${r.owner} ${r.item}`), ` ${r.status}`, r.backup ? ` → backup ${r.backup}` : '', r.over.length ? h('span', { class: 'muted' }, ` (over budget: ${r.over.join(', ')})`) : null))) : h('p', { class: 'muted small' }, `all ${v.gear.length} gear requests loaded`)),
      h('section', null, h('h3', null, 'Queue depths'), depthChart(v)),
      h('section', null, h('h3', null, `Bundles (${num(v.bundles.length)})`), bundleTable(v)),
      h('section', null, h('h3', null, 'Timeline'), timeline(v)),
    );
  } catch (e) {
    mount(body, h('div', { class: 'error' }, (e as Error).message));
  }
  return page;
}
