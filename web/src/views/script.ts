/** Script views (HavokScript chunk, SCRI container, `.scripts`): info with verify, strings and calls; the listing. */
import type { ScriptAnalysis, ScriptLinePage, ScriptOverview, ScriptSearchAnswer } from '../../../src/server/api-types.ts';
import type { ScriptSourceAnswer } from '../../../src/server/api-decompile.ts';
import { get } from '../api.ts';
import { link, type App } from '../app.ts';
import { bytes, h, mount, num } from '../dom.ts';
import { VirtualTable } from '../virtual-table.ts';
import { findingsList } from './arch.ts';

const overviews = new Map<string, Promise<ScriptOverview>>();

export function scriptOverview(file: string): Promise<ScriptOverview> {
  let p = overviews.get(file);
  if (!p) {
    p = get<ScriptOverview>(['files', file, 'script']);
    p.catch(() => overviews.delete(file));
    overviews.set(file, p);
  }
  return p;
}

export async function scriptOverviewView(app: App, file: string): Promise<HTMLElement> {
  const o = await scriptOverview(file);
  const verify = h('section', { class: 'verify' }, h('h3', null, 'Verify ', h('span', { class: 'badge' }, 'running…')));
  const strings = h('section', null);
  const calls = h('section', null);
  void loadAnalysis(file, o, verify, strings, calls);
  return h(
    'div',
    { class: 'page overview' },
    h('h1', null, o.file.name, ' ', h('span', { class: 'kind kind-hks' }, 'Script')),
    h('p', { class: 'muted' }, `${o.container} · ${bytes(o.file.size)}${o.truncatedBy > 0 ? ` · truncated: ${num(o.truncatedBy)} bytes of the body missing` : ''} · `, link(app, { view: 'listing', file }, o.body === 'lua-source' ? `source text (${num(o.lines)} lines)` : `listing (${num(o.lines)} lines)`)),
    h('div', { class: 'counts' }, o.counts.map((c) => h('div', { class: 'count' }, h('b', null, num(c.value)), h('span', null, c.label)))),
    h('div', { class: 'two-col' }, h('section', null, h('h3', null, 'Header'), h('table', { class: 'kv' }, o.header.map((f) => h('tr', null, h('th', null, f.name), h('td', { class: 'mono' }, f.value))))), verify),
    o.opcodes.length > 0 ? h('section', null, h('h3', null, 'Opcodes'), h('div', { class: 'type-bars' }, o.opcodes.map((op) => h('div', { class: 'type-bar' }, h('span', { class: 'mono' }, op.name), h('b', null, num(op.count)))))) : null,
    calls,
    strings,
  );
}

async function loadAnalysis(file: string, o: ScriptOverview, verify: HTMLElement, strings: HTMLElement, calls: HTMLElement): Promise<void> {
  let a: ScriptAnalysis;
  try {
    a = await get<ScriptAnalysis>(['files', file, 'script', 'analysis']);
  } catch (e) {
    mount(verify, h('h3', null, 'Verify'), h('div', { class: 'error' }, (e as Error).message));
    return;
  }
  const bad = a.counts.error + a.counts.warning;
  mount(
    verify,
    h('h3', null, 'Verify ', h('span', { class: a.counts.error ? 'badge bad' : bad ? 'badge' : 'badge good' }, `${a.counts.error} errors · ${a.counts.warning} warnings · ${a.counts.info} notes`)),
    h('p', { class: 'muted small' }, `round trip: write ${a.roundTrip.write === null ? 'not applicable (truncated)' : a.roundTrip.write ? 'identical' : 'DIFFERS'}${a.roundTrip.listing === null ? '' : `, listing ${a.roundTrip.listing ? 'identical' : 'DIFFERS'}`}`),
    a.findings.length === 0 ? h('p', { class: 'muted' }, 'Every rule the verifier knows holds for this file.') : findingsList(a.findings),
  );
  if (o.body === 'lua-source') return;
  mount(
    calls,
    h('h3', null, 'Calls and names'),
    h(
      'div',
      { class: 'two-col' },
      a.calls
        .filter((s) => s.names.length > 0)
        .map((s) => h('div', null, h('h4', null, s.section, h('span', { class: 'muted small' }, ` ${num(s.names.length)}`)), h('table', { class: 'kv' }, s.names.slice(0, 100).map((n) => h('tr', null, h('td', { class: 'mono num' }, num(n.count)), h('td', { class: 'mono' }, n.name)))))),
    ),
  );
  mount(
    strings,
    h('h3', null, 'Strings ', h('span', { class: 'muted small' }, `${num(a.strings.length)} distinct`)),
    h('table', { class: 'kv script-strings' }, h('tr', null, h('th', null, 'functions'), h('th', null, 'value')), a.strings.slice(0, 500).map((s) => h('tr', null, h('td', { class: 'mono num' }, num(s.functions)), h('td', { class: 'mono v-string' }, JSON.stringify(s.value))))),
  );
}

/** The listing (or source text) as a virtual list of lines paged from the server; `?line=N` selects a line. */
export class ScriptListingView {
  readonly element: HTMLElement;
  readonly file: string;
  private vt: VirtualTable<{ n: number; text: string }> | undefined;
  private readonly app: App;

  constructor(app: App, file: string) {
    this.app = app;
    this.file = file;
    this.element = h('div', { class: 'table-host' }, h('div', { class: 'empty' }, 'Loading…'));
  }

  async load(line: number | undefined): Promise<void> {
    const o = await scriptOverview(this.file);
    this.vt = new VirtualTable({
      columns: [
        { head: 'line', width: 70, className: 'num muted', cell: (r) => String(r.n + 1) },
        { head: o.body === 'lua-source' ? 'source' : 'listing', width: 0, className: 'mono listing-line', cell: (r) => r.text },
      ],
      total: o.lines,
      rowHeight: 20,
      pageSize: 500,
      load: async (offset, limit, signal) => (await get<ScriptLinePage>(['files', this.file, 'script', 'lines'], { offset, limit }, signal)).lines.map((text, i) => ({ n: offset + i, text })),
      onActivate: (r) => this.app.navigate({ view: 'listing', file: this.file, line: r.n + 1 }, { replace: true, silent: true }),
      ...(line !== undefined ? { selected: line - 1 } : {}),
    });
    const title = h('div', { class: 'table-title' }, h('h2', null, o.body === 'lua-source' ? 'Source' : 'Listing'), h('span', { class: 'muted' }, `${num(o.lines)} lines · ${o.container}`), link(this.app, { view: 'file', file: this.file }, 'Info'));
    if (o.body === 'lua-source') this.element.replaceChildren(title, this.vt.element);
    else {
      // Bytecode: the decompiled source beside the listing, with the proof of every function.
      const pane = h('section', { class: 'source-pane', 'aria-label': 'Decompiled source' }, h('div', { class: 'empty' }, 'Decompiling and proving…'));
      this.element.replaceChildren(title, h('div', { class: 'script-split' }, h('div', { class: 'table-host' }, this.vt.element), pane));
      void this.loadSource(pane);
    }
    if (line !== undefined) this.vt.select(line - 1);
  }

  private async loadSource(pane: HTMLElement): Promise<void> {
    let r: ScriptSourceAnswer;
    try {
      r = await get<ScriptSourceAnswer>(['files', this.file, 'script', 'source']);
    } catch (e) {
      mount(pane, h('div', { class: 'error' }, (e as Error).message));
      return;
    }
    const all = r.proven === r.total && r.chunkDifferences.length === 0;
    mount(
      pane,
      h('h3', null, 'Decompiled source ', h('span', { class: all ? 'badge good' : 'badge bad' }, `${num(r.proven)}/${num(r.total)} functions proven`)),
      h('p', { class: 'muted small' }, `recompiled at strip ${r.strip}, ${r.numbers} numbers, and compared function by function (${num(r.ms)} ms)`),
      r.compileError ? h('div', { class: 'error' }, `the source does not compile: ${r.compileError}`) : null,
      r.chunkDifferences.length > 0 ? h('ul', { class: 'muted small' }, r.chunkDifferences.map((d) => h('li', null, d))) : null,
      h(
        'table',
        { class: 'kv proof-table' },
        r.functions.map((f) =>
          h(
            'tr',
            { class: f.proven ? 'proven' : 'unmatched' },
            h('td', null, h('span', { class: f.proven ? 'badge good' : 'badge bad' }, f.proven ? 'proven' : 'unmatched')),
            h('td', { class: 'mono' }, h('a', { href: '#', title: 'show in the listing', onclick: (ev: Event) => {
                  ev.preventDefault();
                  void this.showFunction(f.path);
                } }, f.path)),
            h('td', { class: 'mono' }, f.name ?? ''),
            h('td', { class: 'muted small' }, f.failure !== undefined ? `not decompiled: ${f.failure}` : (f.difference ?? '')),
          ),
        ),
      ),
      h('pre', { class: 'decompiled' }, r.source),
    );
  }

  /** Selects the `.function` line of a function in the listing. */
  private async showFunction(path: string): Promise<void> {
    const hits = await get<ScriptSearchAnswer>(['files', this.file, 'script', 'search'], { q: `; ${path} lines`, limit: 1 });
    const hit = hits.hits[0];
    if (hit) this.vt?.select(hit.line - 1);
  }

  select(line: number | undefined): void {
    if (line !== undefined) this.vt?.select(line - 1);
  }

  destroy(): void {
    this.vt?.destroy();
  }
}

/** Search results of a script: listing (or source) lines holding the query, each linking to its line. */
export async function scriptSearchView(app: App, file: string, q: string): Promise<HTMLElement> {
  const r = await get<ScriptSearchAnswer>(['files', file, 'script', 'search'], { q });
  return h(
    'div',
    { class: 'page search' },
    h('h2', null, `${num(r.total)} line${r.total === 1 ? '' : 's'} for `, h('q', null, r.query)),
    h('p', { class: 'muted' }, 'lines of the listing', r.total > r.hits.length ? ` · the first ${num(r.hits.length)} shown` : ''),
    h(
      'ol',
      { class: 'hits' },
      r.hits.map((hit) => h('li', { class: 'hit hit-line' }, h('span', { class: 'hit-kind' }, 'line'), link(app, { view: 'listing', file, line: hit.line }, `line ${hit.line}`), h('span', { class: 'hit-text mono' }, hit.text.trim()))),
    ),
  );
}
