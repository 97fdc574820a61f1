/**
 * The conflict view (`/f/BASE/conflicts?src=A&src=B&only=conflicts`), xEdit's for GameDB: change files and patch
 * databases loaded over a base in the URL's order (the last wins), one row per record field any of them changes,
 * a column per source, the winner marked and disagreements highlighted; reorder, add or drop sources, and save the
 * merged result as a new database. Also the overview of a change file (`/f/FILE` of kind `changes`).
 */
import type { ChangesOverview, ConflictAnswer, ConflictRowView, SaveResult } from '../../../src/server/api-types.ts';
import { ApiFailure, get, send } from '../api.ts';
import { link, type App } from '../app.ts';
import { h, mount, num } from '../dom.ts';
import type { ExtensionRoute, Route } from '../routes.ts';

const STATUS_LABEL: Record<ConflictRowView['status'], string> = {
  conflict: 'conflict',
  agree: 'agree',
  override: 'override',
  interaction: 'interaction',
};

function conflictsRoute(file: string, sources: readonly string[], only: boolean): Route {
  const q = new URLSearchParams();
  for (const s of sources) q.append('src', s);
  if (only) q.set('only', 'conflicts');
  const qs = q.toString();
  return { view: 'ext', segment: 'conflicts', file, rest: [], query: qs ? `?${qs}` : '' };
}

function loadOrder(app: App, file: string, a: ConflictAnswer, ids: string[], only: boolean): HTMLElement {
  const go = (next: string[]) => app.navigate(conflictsRoute(file, next, only));
  const move = (i: number, by: number) => {
    const next = ids.slice();
    const [x] = next.splice(i, 1);
    next.splice(i + by, 0, x!);
    go(next);
  };
  const loaded = h(
    'ol',
    { class: 'load-order', 'aria-label': 'load order (the last wins)' },
    h('li', { class: 'base' }, h('span', { class: 'kind kind-gadb' }, 'base'), ' ', h('b', null, a.base.name)),
    a.sources.map((s, i) =>
      h(
        'li',
        { 'data-source': s.id },
        h('span', { class: `kind kind-${s.kind === 'patch' ? 'gadb' : 'changes'}` }, s.kind === 'patch' ? 'patch' : 'changes'),
        ' ',
        h('b', null, s.name),
        i === a.sources.length - 1 ? h('span', { class: 'muted small' }, ' wins last') : null,
        h('span', { class: 'order-buttons' },
          h('button', { class: 'icon small', title: `load ${s.name} earlier`, 'aria-label': `load ${s.name} earlier`, disabled: i === 0, onclick: () => move(i, -1) }, '↑'),
          h('button', { class: 'icon small', title: `load ${s.name} later`, 'aria-label': `load ${s.name} later`, disabled: i === a.sources.length - 1, onclick: () => move(i, 1) }, '↓'),
          h('button', { class: 'icon small', title: `unload ${s.name}`, 'aria-label': `unload ${s.name}`, onclick: () => go(ids.filter((x) => x !== s.id)) }, '✕'),
        ),
      ),
    ),
  );
  const rest = a.candidates.filter((c) => !ids.includes(c.id));
  const add = rest.length === 0
    ? h('p', { class: 'muted small' }, a.candidates.length === 0 ? 'No change file or patch of this database is served: give them to scry serve (a.yaml b.yaml base.gamedbgamedb_patch), or save staged edits as a change file.' : 'Every source is loaded.')
    : h('p', { class: 'add-sources' }, 'Load: ', rest.map((c) => h('button', { class: 'secondary', disabled: c.problem !== undefined, title: c.problem ?? `load ${c.name} last`, onclick: () => go([...ids, c.id]) }, `+ ${c.name}`)));
  return h('section', { class: 'sources' }, h('h3', null, 'Load order'), loaded, add);
}

function rowView(app: App, file: string, r: ConflictRowView, sourceCount: number): HTMLElement {
  const cells: HTMLElement[] = [];
  for (let i = 0; i < sourceCount; i++) {
    const v = r.values[i] ?? null;
    const cls = v === null ? 'untouched' : i === r.winner ? 'win' : r.status === 'conflict' && v !== r.merged ? 'lost' : 'same';
    cells.push(h('td', { class: `mono ${cls}`, title: v === null ? 'not touched by this source' : i === r.winner ? 'wins' : cls === 'lost' ? 'overridden' : '' }, v ?? '—'));
  }
  const field = `${r.field}${r.index !== undefined ? `[${r.index}]` : ''}`;
  const record = r.ref ? link(app, { view: 'category', file, category: r.ref.category, record: r.ref.label, ...(r.hash ? { field: r.hash } : {}) }, r.record) : h('span', null, r.record);
  return h(
    'tr',
    { class: `status-${r.status}` },
    h('td', { class: 'rec' }, record),
    h('td', { class: 'mono', title: r.hash ?? '' }, field),
    h('td', { class: 'mono base' }, r.base),
    cells,
    h('td', { class: 'mono merged' }, r.merged),
    h('td', null, h('span', { class: `status status-${r.status}` }, STATUS_LABEL[r.status])),
  );
}

function saveForm(app: App, file: string, a: ConflictAnswer, ids: string[]): HTMLElement {
  const stem = a.base.name.replace(/\.[^.]*$/, '');
  const ext = a.base.name.slice(stem.length);
  const name = h('input', { class: 'big save-name', 'aria-label': 'merged file name', value: `${stem}.merged${ext}`, spellcheck: 'false' });
  const out = h('div', { class: 'save-result', 'aria-live': 'polite' });
  const button = h('button', { class: 'primary', disabled: ids.length === 0 }, 'Save merged database') as HTMLButtonElement;
  button.addEventListener('click', async () => {
    button.disabled = true;
    try {
      const r = await send<SaveResult>('POST', ['files', file, 'conflicts', 'save'], { src: ids, name: name.value });
      if (r.saved && !app.session.files.some((f) => f.id === r.saved!.id)) app.addFile(r.saved);
      app.toast(`saved ${r.name}`);
      mount(out, h('p', null, 'Saved ', r.saved ? link(app, { view: 'file', file: r.saved.id }, r.saved.name) : r.name, ` (${num(r.bytes)} bytes): ${r.checked ?? ''}; ${r.findings.length === 0 ? 'verify: no findings' : `verify: ${r.findings.length} finding(s)`}`));
    } catch (e) {
      mount(out, h('div', { class: 'error' }, e instanceof ApiFailure ? e.message : String(e)));
    } finally {
      button.disabled = ids.length === 0;
    }
  });
  name.addEventListener('keydown', (e) => {
    if (e.key === 'Enter') button.click();
  });
  return h('section', { class: 'save-merged' }, h('h3', null, 'Merged result'), h('div', { class: 'save-row' }, name, button), out);
}

/** The conflict view of a GameDB. */
export async function render(app: App, route: ExtensionRoute): Promise<HTMLElement> {
  const file = route.file!;
  const q = new URLSearchParams(route.query);
  const ids = q.getAll('src');
  const only = q.get('only') === 'conflicts';
  const page = h('div', { class: 'page conflicts' }, h('h1', null, 'Conflicts'));
  let answer: ConflictAnswer;
  try {
    answer = await get<ConflictAnswer>(['files', file, 'conflicts'], { src: ids });
  } catch (e) {
    // a source that cannot load: say why, and offer the load order without any
    const bare = ids.length > 0 ? await get<ConflictAnswer>(['files', file, 'conflicts']).catch(() => undefined) : undefined;
    page.append(h('div', { class: 'error' }, e instanceof ApiFailure ? e.message : String(e)), bare ? loadOrder(app, file, bare, [], only) : '');
    return page;
  }
  page.querySelector('h1')!.append(' ', h('span', { class: 'muted' }, answer.base.name));
  page.append(
    h('p', { class: 'muted' }, 'Change files and patch databases loaded over the base in order: for each record field one of them changes, every source’s value; the last source that touches a field wins it (a patch database replaces its whole records).'),
    loadOrder(app, file, answer, ids, only),
  );
  if (ids.length === 0) return page;
  const shown = only ? answer.rows.filter((r) => r.status === 'conflict') : answer.rows;
  const toggle = h('label', { class: 'only-conflicts' }, h('input', { type: 'checkbox', checked: only, onchange: (e: Event) => app.navigate(conflictsRoute(file, ids, (e.target as HTMLInputElement).checked), { replace: true }) }), ' conflicts only');
  const c = answer.counts;
  page.append(
    h(
      'div',
      { class: 'conflict-summary' },
      h('span', { class: 'status status-conflict' }, `${num(c.conflict)} conflict${c.conflict === 1 ? '' : 's'}`),
      h('span', { class: 'status status-agree' }, `${num(c.agree)} agree`),
      h('span', { class: 'status status-override' }, `${num(c.override)} override${c.override === 1 ? '' : 's'}`),
      c.interaction > 0 ? h('span', { class: 'status status-interaction' }, `${num(c.interaction)} interaction${c.interaction === 1 ? '' : 's'}`) : null,
      h('span', { class: 'muted small' }, `${num(answer.total)} fields changed · ${answer.ms.toFixed(0)} ms`),
      toggle,
    ),
    h(
      'div',
      { class: 'conflict-host' },
      h(
        'table',
        { class: 'conflicts-table' },
        h('thead', null, h('tr', null, h('th', null, 'Record'), h('th', null, 'Field'), h('th', null, 'base'), answer.sources.map((s, i) => h('th', { title: `${i + 1}. ${s.name}` }, `${i + 1}. ${s.name}`)), h('th', null, 'merged'), h('th', null, ''))),
        h('tbody', null, shown.map((r) => rowView(app, file, r, answer.sources.length))),
      ),
    ),
    answer.total > answer.rows.length ? h('p', { class: 'muted small' }, `showing the first ${num(answer.rows.length)} of ${num(answer.total)} changed fields`) : '',
    saveForm(app, file, answer, ids),
  );
  return page;
}

/** The overview of a change file: its operations, its text, and the conflict view of each database it may load over. */
export async function changesOverviewView(app: App, file: string): Promise<HTMLElement> {
  const o = await get<ChangesOverview>(['files', file, 'changes']);
  return h(
    'div',
    { class: 'page overview' },
    h('h1', null, o.file.name, ' ', h('span', { class: 'kind kind-changes' }, 'Change file')),
    o.problem !== undefined ? h('div', { class: 'error' }, o.problem) : h('p', { class: 'muted' }, `${num(o.operations)} operation${o.operations === 1 ? '' : 's'} · apply with scry db apply, or load it over a database in the conflict view:`),
    h('ul', { class: 'open-in-conflicts' }, o.databases.map((d) => h('li', null, link(app, conflictsRoute(d.id, [o.file.id], false), `Conflicts of ${d.name} with ${o.file.name}`)))),
    h('pre', { class: 'changes-text mono' }, o.text),
  );
}
