/**
 * The Run tab of a script (`/f/FILE/run?for=…&db=…&fire=…&start=…&pause=…`): the layer run headless by the engine
 * (`src/engine`, the same plan `scry script run` takes), its trace as a timeline over run time with a time slider,
 * and the registered events and entries to fire or start next. Every parameter is in the URL, so a run can be
 * bookmarked, shared and repeated: the same URL gives the same trace.
 */
import type { RunAnswer, RunSetup } from '../../../src/server/api-engine.ts';
import type { TraceEntry } from '../../../src/engine/trace.ts';
import { get } from '../api.ts';
import type { App } from '../app.ts';
import { h, mount, num, svg } from '../dom.ts';
import type { ExtensionRoute } from '../routes.ts';

/** Timeline rows: which kinds share a row, and its colour. */
const ROWS: { label: string; kinds: TraceEntry['kind'][]; color: string }[] = [
  { label: 'threads', kinds: ['thread-start', 'sleep', 'wake', 'end'], color: '#7aa2f7' },
  { label: 'events', kinds: ['event-add', 'event-remove', 'fire', 'dispatch'], color: '#e8a33d' },
  { label: 'natives', kinds: ['native', 'log'], color: '#5fb3a1' },
  { label: 'GameDB', kinds: ['db'], color: '#b9a2e8' },
  { label: 'game', kinds: ['load', 'pause'], color: '#9aa5b1' },
  { label: 'problems', kinds: ['assert', 'fault', 'error'], color: '#ef6b6b' },
];

const secs = (ms: number): string => `${(ms / 1000).toFixed(3)} s`;

function valueText(v: unknown): string {
  if (v === null || v === undefined) return 'nil';
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'object' && 'ref' in (v as object)) return String((v as { ref: unknown }).ref);
  return String(v);
}

/** One trace entry as a table row. */
function entryRow(e: TraceEntry, index: number): HTMLElement {
  const problem = e.kind === 'error' || e.kind === 'fault' || e.kind === 'assert' || (e.kind === 'db' && !e.record);
  const detail: string[] = [];
  if (e.self) detail.push(`on ${e.self}`);
  if (e.args) detail.push(`(${e.args.map(valueText).join(', ')})`);
  if (e.result !== undefined) detail.push(`→ ${valueText(e.result)}`);
  if (e.record) detail.push(`→ ${e.record}`);
  if (e.sender) detail.push(`${e.sender}.${e.event ?? ''} ${e.hash ?? ''}`);
  if (e.handler) detail.push(`→ ${e.handler}`);
  if (e.wakeAt !== undefined) detail.push(`until ${secs(e.wakeAt)}`);
  if (e.stack) detail.push(`[stack: ${e.stack.length ? e.stack.join(' › ') : 'depth 0'}]`);
  if (e.unknown) detail.push('(unknown native: stand-in)');
  if (e.message) detail.push(e.message);
  if (e.closest?.length) detail.push(`(closest: ${e.closest.join(', ')})`);
  return h(
    'tr',
    { class: problem ? 'run-problem' : undefined, 'data-index': index, title: e.hypothesis ? `rests on ${e.hypothesis}` : undefined },
    h('td', { class: 'mono num' }, secs(e.t)),
    h('td', { class: 'mono num muted' }, e.rt !== undefined && e.rt !== e.t ? secs(e.rt) : ''),
    h('td', null, e.kind),
    h('td', { class: 'mono' }, e.name, e.thread !== undefined ? h('span', { class: 'muted' }, ` #${e.thread}`) : null),
    h('td', { class: problem ? 'mono error-text' : 'mono' }, detail.join(' ')),
  );
}

/** The trace as ticks on one row per kind group over run time; a cursor at the slider's time. */
function timeline(r: RunAnswer, onPick: (index: number) => void): { element: SVGElement; setCursor: (ms: number) => void } {
  const W = 900;
  const rowH = 18;
  const left = 80;
  const H = ROWS.length * rowH + 20;
  const end = Math.max(r.forMs, 1);
  const x = (ms: number): number => left + (Math.min(ms, end) / end) * (W - left - 10);
  const marks: SVGElement[] = [];
  ROWS.forEach((row, i) => {
    marks.push(svg('text', { x: 4, y: i * rowH + 13, fill: '#9aa5b1', 'font-size': 11 }, document.createTextNode(row.label)));
    marks.push(svg('line', { x1: left, y1: i * rowH + 9, x2: W - 10, y2: i * rowH + 9, stroke: '#2a3040' }));
  });
  r.trace.forEach((e, index) => {
    const row = ROWS.findIndex((g) => g.kinds.includes(e.kind));
    if (row < 0) return;
    const t = e.rt ?? e.t;
    const tick = svg('rect', { x: x(t) - 1.5, y: row * rowH + 2, width: 3, height: rowH - 4, fill: ROWS[row]!.color, cursor: 'pointer' }, svg('title', {}, document.createTextNode(`${secs(t)} ${e.kind} ${e.name}`)));
    tick.addEventListener('click', () => onPick(index));
    marks.push(tick);
  });
  for (let s = 0; s <= end; s += Math.max(1000, Math.ceil(end / 10000) * 1000)) {
    marks.push(svg('text', { x: x(s), y: H - 4, fill: '#6b7480', 'font-size': 10, 'text-anchor': 'middle' }, document.createTextNode(`${s / 1000}s`)));
  }
  const cursor = svg('line', { x1: x(end), y1: 0, x2: x(end), y2: H - 14, stroke: '#e6e6e6', 'stroke-width': 1 });
  const element = svg('svg', { viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: 'img', 'aria-label': 'trace timeline over run time', class: 'run-timeline' }, ...marks, cursor);
  return {
    element,
    setCursor: (ms) => {
      cursor.setAttribute('x1', String(x(ms)));
      cursor.setAttribute('x2', String(x(ms)));
    },
  };
}

function controls(app: App, route: ExtensionRoute, setup: RunSetup, q: URLSearchParams): HTMLElement {
  const forInput = h('input', { type: 'number', min: 1, max: 3600, step: 1, size: 6, value: q.get('for') ?? '30', name: 'for' }) as HTMLInputElement;
  const db = h('select', { name: 'db' }, h('option', { value: '' }, '(no GameDB: every lookup unresolved)'), setup.databases.map((d) => h('option', { value: d.id, selected: d.id === q.get('db') }, d.name))) as HTMLSelectElement;
  const fires = h('textarea', { rows: 3, cols: 60, class: 'mono', name: 'fire', placeholder: 'OBJECT.EVENT@SECONDS, one a line (e.g. ST.OnComplete@12)' }, q.getAll('fire').join('\n')) as HTMLTextAreaElement;
  const starts = h('textarea', { rows: 2, cols: 60, class: 'mono', name: 'start', placeholder: 'ENTRY@SECONDS, one a line' }, q.getAll('start').join('\n')) as HTMLTextAreaElement;
  const pauses = h('input', { class: 'mono', size: 20, name: 'pause', value: q.getAll('pause').join(' '), placeholder: 'AT:FOR …' }) as HTMLInputElement;
  const timers = h('select', { name: 'timers' }, ['auto', 'manual'].map((t) => h('option', { value: t, selected: t === (q.get('timers') ?? 'auto') }, t))) as HTMLSelectElement;
  const submit = (): void => {
    const next = new URLSearchParams();
    next.set('for', forInput.value || '30');
    if (db.value) next.set('db', db.value);
    for (const l of fires.value.split('\n').map((s) => s.trim()).filter(Boolean)) next.append('fire', l);
    for (const l of starts.value.split('\n').map((s) => s.trim()).filter(Boolean)) next.append('start', l);
    for (const p of pauses.value.split(/\s+/).filter(Boolean)) next.append('pause', p);
    if (timers.value !== 'auto') next.set('timers', timers.value);
    app.navigate({ ...route, query: `?${next.toString()}` });
  };
  return h(
    'form',
    { class: 'run-controls', onsubmit: (e: Event) => (e.preventDefault(), submit()) },
    h('div', null, h('label', null, 'run for ', forInput, ' s'), '  ', h('label', null, 'GameDB ', db), '  ', h('label', null, 'timers ', timers), '  ', h('label', null, 'pause ', pauses)),
    h('div', { class: 'two-col' }, h('label', null, h('div', { class: 'muted small' }, 'events to fire'), fires), h('label', null, h('div', { class: 'muted small' }, 'entries to start (StartupCommands start by themselves)'), starts)),
    h('button', { class: 'primary', type: 'submit' }, 'Run'),
  );
}

/** Adds a spec to the URL and runs again. */
function rerunWith(app: App, route: ExtensionRoute, key: 'fire' | 'start', spec: string): void {
  const next = new URLSearchParams(route.query);
  next.append(key, spec);
  if (!next.has('for')) next.set('for', '30');
  app.navigate({ ...route, query: `?${next.toString()}` });
}

export async function render(app: App, route: ExtensionRoute): Promise<HTMLElement> {
  const file = route.file!;
  const q = new URLSearchParams(route.query);
  const setup = await get<RunSetup>(['files', file, 'run', 'setup']);
  const page = h('div', { class: 'page run' }, h('h1', null, 'Run ', h('span', { class: 'mono' }, setup.layer), h('span', { class: 'badge' }, 'headless engine')));
  if (setup.problem) {
    page.append(h('div', { class: 'error' }, setup.problem));
    return page;
  }
  const body = h('div', null, h('p', { class: 'muted' }, 'running…'));
  page.append(controls(app, route, setup, q), body);
  // The page's URL repeats list keys; the API takes a list as one value with an item per line.
  const query: Record<string, string> = { for: q.get('for') ?? '30' };
  for (const k of ['db', 'timers', 'seed']) if (q.get(k) !== null) query[k] = q.get(k)!;
  for (const k of ['fire', 'start', 'pause', 'slowmo', 'prop']) if (q.getAll(k).length) query[k] = q.getAll(k).join('\n');
  let r: RunAnswer;
  try {
    r = await get<RunAnswer>(['files', file, 'run'], query);
  } catch (e) {
    mount(body, h('div', { class: 'error' }, (e as Error).message));
    return page;
  }
  const s = r.summary;
  const tbody = h('tbody', null);
  const table = h('table', { class: 'kv run-trace' }, h('thead', null, h('tr', null, ['world', 'run', 'kind', 'name', 'detail'].map((c) => h('th', null, c)))), tbody);
  const slider = h('input', { type: 'range', min: 0, max: r.forMs, step: 20, value: r.forMs, style: 'width: 820px', 'aria-label': 'time' }) as HTMLInputElement;
  const sliderText = h('span', { class: 'mono' }, secs(r.forMs));
  const tl = timeline(r, (index) => {
    const row = tbody.querySelector(`tr[data-index="${index}"]`);
    row?.scrollIntoView({ block: 'center' });
    row?.classList.add('selected');
  });
  const showUpTo = (ms: number): void => {
    tl.setCursor(ms);
    sliderText.textContent = secs(ms);
    const rows: HTMLElement[] = [];
    r.trace.forEach((e, i) => {
      if ((e.rt ?? e.t) <= ms) rows.push(entryRow(e, i));
    });
    mount(tbody, rows.slice(0, 3000));
  };
  slider.addEventListener('input', () => showUpTo(Number(slider.value)));
  showUpTo(r.forMs);
  const fireAt = (): string => (Number(slider.value) / 1000).toFixed(2).replace(/\.?0+$/, '');
  mount(
    body,
    h('p', { class: 'muted' }, `${r.layer}${r.database ? ` against ${r.database}` : ' with no GameDB'} · ${secs(r.forMs)} of run time, world ${secs(s.worldMs)} · ${num(s.entries)} trace entries${s.entries > r.trace.length ? ` (first ${num(r.trace.length)} shown)` : ''} · ${num(r.wallMs)} ms of wall time`),
    h(
      'div',
      { class: 'counts' },
      [
        ['threads started', s.threads.started],
        ['still sleeping', s.threads.sleeping.length],
        ['native calls', s.natives.calls],
        ['unknown natives', s.natives.unknown.length],
        ['DB lookups resolved', s.db.resolved.length],
        ['unresolved', s.db.unresolved.length],
        ['events registered', s.events.registered],
        ['dispatched', s.events.dispatched],
        ['asserts', s.asserts],
        ['would fault', s.faults],
        ['errors', s.errors],
      ].map(([label, value]) => h('div', { class: 'count' }, h('b', null, num(value as number)), h('span', null, label as string))),
    ),
    s.db.unresolved.length ? h('div', { class: 'error' }, s.db.unresolved.map((u) => h('div', null, `${u.name}: ${u.message}`))) : null,
    s.natives.unknown.length ? h('p', { class: 'small' }, 'unknown natives (stand-ins): ', h('span', { class: 'mono' }, s.natives.unknown.join(', '))) : null,
    h('section', null, h('h3', null, 'Timeline'), tl.element, h('div', null, slider, ' ', sliderText), h('p', { class: 'muted small' }, ROWS.map((g) => h('span', { class: 'mono' }, h('b', { style: `color:${g.color}` }, '■ '), g.label, '   ')))),
    h(
      'div',
      { class: 'two-col' },
      h(
        'section',
        null,
        h('h3', null, 'Registered events'),
        r.registrations.length === 0
          ? h('p', { class: 'muted' }, 'nothing is registered at the end of the run')
          : h(
              'table',
              { class: 'kv' },
              r.registrations.map((g) =>
                h('tr', null, h('td', { class: 'mono' }, `${g.sender}.${g.event}`), h('td', { class: 'mono muted' }, g.hash), h('td', { class: 'mono' }, g.handler ?? g.problem ?? ''), h('td', null, h('button', { type: 'button', style: 'white-space: nowrap', onclick: () => rerunWith(app, route, 'fire', `${g.sender}.${g.event}@${fireAt()}`) }, 'fire at slider'))),
              ),
            ),
      ),
      h(
        'section',
        null,
        h('h3', null, 'Entries'),
        h(
          'table',
          { class: 'kv' },
          setup.entries.map((e) => h('tr', null, h('td', { class: 'mono' }, e.name), h('td', { class: 'muted small' }, e.startupCommand ? 'StartupCommands: starts on load' : (e.object ?? '')), h('td', null, e.startupCommand ? null : h('button', { type: 'button', style: 'white-space: nowrap', onclick: () => rerunWith(app, route, 'start', `${e.name}@${fireAt()}`) }, 'start at slider')))),
        ),
      ),
    ),
    h('section', null, h('h3', null, 'Trace'), table),
  );
  return page;
}
