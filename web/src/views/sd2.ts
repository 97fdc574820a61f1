/** Firefall static database (`.sd2`) views: overview, a virtual table per sd2 table with NULL cells, search hits. */
import type { Sd2Cell, Sd2Overview, Sd2RowPage, Sd2SearchAnswer, Sd2TableDetail } from '../../../src/server/api-types.ts';
import { apiPath, get } from '../api.ts';
import { link, onNamesChanged, type App } from '../app.ts';
import { bytes, h, num } from '../dom.ts';
import { VirtualTable, type Column } from '../virtual-table.ts';
import { namesSection } from './names.ts';

const overviews = new Map<string, Promise<Sd2Overview>>();
onNamesChanged(() => overviews.clear());

/** The overview of an sd2 file (fetched once per page load; the sidebar lists its tables). */
export function sd2Overview(file: string): Promise<Sd2Overview> {
  let p = overviews.get(file);
  if (!p) {
    p = get<Sd2Overview>(['files', file, 'sd2']);
    p.catch(() => overviews.delete(file));
    overviews.set(file, p);
  }
  return p;
}

/** One-line text of a cell; `undefined` for NULL. */
export function sd2CellText(c: Sd2Cell): string | undefined {
  if (c === null) return undefined;
  if (typeof c === 'number' || typeof c === 'string') return String(c);
  if (Array.isArray(c)) return JSON.stringify(c);
  if ('hex' in c && typeof c['hex'] === 'string') return c['hex'];
  return JSON.stringify(c);
}

/** A cell (the server sends f32 numbers in their shortest form); NULL marked as such. */
function cellNode(c: Sd2Cell): Node | string {
  const t = sd2CellText(c);
  return t === undefined ? h('span', { class: 'v-null' }, 'NULL') : t;
}

export async function sd2OverviewView(app: App, file: string): Promise<HTMLElement> {
  const o = await sd2Overview(file);
  const rows = o.tables.reduce((n, t) => n + t.rowCount, 0);
  return h(
    'div',
    { class: 'page overview' },
    h('h1', null, o.file.name, ' ', h('span', { class: 'kind kind-sd2' }, 'Static DB')),
    h('p', { class: 'muted' }, `Firefall static database · ${bytes(o.file.size)}`),
    sd2ExportLinks(file),
    h(
      'div',
      { class: 'counts' },
      [
        ['tables', o.tables.length],
        ['rows', rows],
        ['named tables', o.named.tables],
        ['named columns', o.named.columns],
        ['column slots', o.named.columnSlots],
      ].map(([label, value]) => h('div', { class: 'count' }, h('b', null, num(value as number)), h('span', null, label as string))),
    ),
    h('section', null, h('h3', null, 'Header'), h('table', { class: 'kv' }, o.header.map((f) => h('tr', null, h('th', null, f.name), h('td', { class: 'mono' }, f.value))))),
    namesSection(app, file, () => app.navigate({ view: 'file', file }, { replace: true })),
    h(
      'section',
      null,
      h('h3', null, 'Largest tables'),
      h(
        'ul',
        null,
        [...o.tables]
          .sort((a, b) => b.rowCount - a.rowCount)
          .slice(0, 10)
          .map((t) => h('li', null, link(app, { view: 'sd2table', file, table: t.label }, t.label), h('span', { class: 'muted' }, ` · ${num(t.rowCount)} rows · ${t.columnCount} columns`))),
      ),
    ),
  );
}

const WIDTH: Record<string, number> = { String: 220, Bool: 70, Byte: 70 };

export class Sd2TableView {
  readonly element: HTMLElement;
  readonly file: string;
  readonly table: string;
  private vt: VirtualTable<{ row: number; cells: Sd2Cell[] }> | undefined;
  private readonly app: App;

  constructor(app: App, file: string, table: string) {
    this.app = app;
    this.file = file;
    this.table = table;
    this.element = h('div', { class: 'table-host' }, h('div', { class: 'empty' }, 'Loading…'));
  }

  async load(row: number | undefined): Promise<void> {
    const d = await get<Sd2TableDetail>(['files', this.file, 'sd2', 'tables', this.table]);
    const columns: Column<{ row: number; cells: Sd2Cell[] }>[] = [
      { head: 'row', width: 80, className: 'sticky num', cell: (r) => String(r.row) },
      ...d.columns.map(
        (c): Column<{ row: number; cells: Sd2Cell[] }> => ({
          head: h('span', { class: 'col-head' }, h('b', { class: c.named ? '' : 'hash' }, c.label), h('small', null, `${c.type}${c.nullable ? ' · nullable' : ''}`)),
          title: `${c.label}  ${c.id}  ${c.type}${c.pool ? ' (pool)' : ''}${c.nullable ? ' nullable' : ''}`,
          width: WIDTH[c.type] ?? (c.pool ? 200 : 110),
          className: c.pool ? '' : 'num',
          cell: (r) => cellNode(r.cells[c.index] ?? null),
        }),
      ),
    ];
    this.vt?.destroy();
    this.vt = new VirtualTable({
      columns,
      total: d.rowCount,
      pageSize: Math.max(25, Math.min(100, Math.floor(3000 / Math.max(1, d.columns.length)))),
      load: async (offset, limit, signal) => (await get<Sd2RowPage>(['files', this.file, 'sd2', 'tables', this.table, 'rows'], { offset, limit }, signal)).rows,
      onActivate: (r) => this.app.navigate({ view: 'sd2table', file: this.file, table: this.table, row: r.row }, { replace: true, silent: true }),
      ...(row !== undefined ? { selected: row } : {}),
    });
    this.element.replaceChildren(
      h('div', { class: 'table-title' }, h('h2', null, d.label), h('span', { class: 'muted' }, `${num(d.rowCount)} rows · ${d.columns.length} columns · ${d.id}`), sd2ExportLinks(this.file, d.label)),
      this.vt.element,
    );
    if (row !== undefined) this.vt.select(row);
  }

  select(row: number | undefined): void {
    if (row !== undefined) this.vt?.select(row);
  }

  destroy(): void {
    this.vt?.destroy();
  }
}

export async function sd2SearchView(app: App, file: string, q: string): Promise<HTMLElement> {
  const r = await get<Sd2SearchAnswer>(['files', file, 'sd2', 'search'], { q, limit: 500 });
  const BY = { name: 'name', id: 'id', hash: 'FFnv32 of the query' } as const;
  return h(
    'div',
    { class: 'page search' },
    h('h2', null, `${r.hits.length}${r.truncated ? '+' : ''} result${r.hits.length === 1 ? '' : 's'} for `, h('q', null, r.query)),
    h('p', { class: 'muted' }, 'tables and columns by name, 0x… id or the FFnv32 of the text; then cells by typed value'),
    h(
      'ol',
      { class: 'hits' },
      r.hits.map((hit) => {
        if (hit.kind === 'table') {
          return h('li', { class: 'hit hit-table' }, h('span', { class: 'hit-kind' }, 'table'), link(app, { view: 'sd2table', file, table: hit.table }, hit.table), h('span', { class: 'hit-field' }, ` · ${hit.id} · by ${BY[hit.by]}`), h('span', { class: 'hit-text' }, `${num(hit.rowCount)} rows`));
        }
        if (hit.kind === 'column') {
          return h('li', { class: 'hit hit-column' }, h('span', { class: 'hit-kind' }, 'column'), link(app, { view: 'sd2table', file, table: hit.table }, `${hit.table} · ${hit.column}`), h('span', { class: 'hit-field' }, ` · ${hit.id} · by ${BY[hit.by]}`), h('span', { class: 'hit-text' }, hit.type));
        }
        return h(
          'li',
          { class: 'hit hit-value' },
          h('span', { class: 'hit-kind' }, 'cell'),
          link(app, { view: 'sd2table', file, table: hit.table, row: hit.row }, `${hit.table}:${hit.row}`),
          h('span', { class: 'hit-field' }, ' · ', hit.column),
          h('span', { class: 'hit-text' }, sd2CellText(hit.value) ?? 'NULL'),
        );
      }),
    ),
  );
}

/** Links that download an export (GET requests: they only read). */
export function sd2ExportLinks(file: string, table?: string): HTMLElement {
  const a = (label: string, query: Record<string, string>) => h('a', { class: 'button secondary', href: apiPath(['files', file, 'sd2', 'export'], query), download: '' }, label);
  return table === undefined
    ? h('div', { class: 'exports' }, 'Export ', a('JSON', { format: 'json' }), a('SQLite', { format: 'sqlite' }))
    : h('div', { class: 'exports' }, a('CSV', { format: 'csv', table }), a('JSON', { format: 'json', table }));
}
