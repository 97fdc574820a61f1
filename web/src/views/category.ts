/**
 * The record table of one category (virtual-scrolled, paged from the server) with the record inspector beside
 * it: typed values, curve plots, links to follow, referenced-by, and typed editors in edit mode.
 */
import type { FieldColumn, RecordPage, RecordRow, RecordView, ReferencedBy, TypedValue, StagedEdit } from '../../../src/server/api-types.ts';
import { get, send, ApiFailure } from '../api.ts';
import { categoryDetail, link, type App } from '../app.ts';
import { h, mount, num } from '../dom.ts';
import { recordRoute, type Route } from '../routes.ts';
import { compactValue, f32Text, fullValue, valueText, type LinkMaker } from '../values.ts';
import { VirtualTable, type Column, type TableQueryState } from '../virtual-table.ts';

type CategoryRoute = Extract<Route, { view: 'category' }>;

const WIDTH_BY_TYPE: Record<string, number> = {
  Bool: 64,
  Float: 96,
  Int: 96,
  String: 220,
  StringEnum: 150,
  Vector3: 190,
  RecordLink: 200,
  RecordLink11: 200,
  Int64: 150,
  FloatPair: 150,
};

function fieldLabel(f: { hex: string; name?: string }): string {
  return f.name ?? f.hex;
}

/** Column widths are scaled down in a narrow window, so at least four data columns fit beside the record view. */
function widthScale(): number {
  return window.innerWidth < 1280 ? 0.8 : 1;
}

/** The table query of a route as the virtual table's state. */
function queryState(table: Record<string, string> | undefined): TableQueryState {
  const out: TableQueryState = { filters: {} };
  for (const [k, v] of Object.entries(table ?? {})) if (k.startsWith('filter.')) out.filters[k.slice(7)] = v;
  if (table?.['sort']) out.sort = { key: table['sort'], desc: table['dir'] === 'desc' };
  return out;
}

/** The virtual table's state as route (and API) parameters. */
function queryParams(q: TableQueryState): Record<string, string> {
  const out: Record<string, string> = {};
  if (q.sort) {
    out['sort'] = q.sort.key;
    if (q.sort.desc) out['dir'] = 'desc';
  }
  for (const [k, v] of Object.entries(q.filters)) if (v.trim() !== '') out[`filter.${k}`] = v;
  return out;
}

/** The table state kept across route changes inside one category. */
export class CategoryView {
  readonly file: string;
  readonly category: string;
  readonly element: HTMLElement;
  private table: VirtualTable<RecordRow> | undefined;
  private readonly tableHost: HTMLElement;
  private readonly inspector: HTMLElement;
  private readonly app: App;
  private recordToken = 0;
  /** The sort and filters the table was loaded with (route parameters). */
  private tableParams: Record<string, string> = {};
  /** The record on show (for Escape and for keeping the table's parameters when following a row). */
  private currentRecord: RecordView | undefined;
  private loadToken = 0;

  constructor(app: App, file: string, category: string) {
    this.app = app;
    this.file = file;
    this.category = category;
    this.tableHost = h('div', { class: 'table-host' }, h('div', { class: 'empty' }, 'Loading…'));
    this.inspector = h('section', { class: 'inspector', 'aria-label': 'record' });
    this.element = h('div', { class: 'category-view' }, this.tableHost, this.inspector);
  }

  /** The route of a record of this category, keeping the table's sort and filters. */
  private routeOf(label: string, field?: string): Route {
    return recordRoute(this.file, { category: this.category, label }, field, this.tableParams);
  }

  /** Loads the table for the sort and filters of `table` (route parameters); `focus`: the filter being typed in. */
  async load(table: Record<string, string> = {}, focus?: { key: string; caret: number }): Promise<void> {
    const token = ++this.loadToken;
    this.tableParams = { ...table };
    const detail = await categoryDetail(this.file, this.category);
    const query = queryState(table);
    const pageSize = Math.max(25, Math.min(100, Math.floor(3000 / Math.max(1, detail.fields.length))));
    const fetchPage = (offset: number, limit: number, signal?: AbortSignal) => get<RecordPage>(['files', this.file, 'categories', this.category, 'records'], { offset, limit, ...table }, signal);
    let first: RecordPage;
    try {
      first = await fetchPage(0, pageSize);
    } catch (e) {
      if (token === this.loadToken) mount(this.tableHost, h('div', { class: 'error' }, (e as Error).message));
      return;
    }
    if (token !== this.loadToken) return;
    const onLink = this.linkTo;
    const scale = widthScale();
    const columns: Column<RecordRow>[] = [
      {
        head: h('span', null, 'record ', h('small', null, `${num(detail.recordCount)}`)),
        width: scale < 1 ? 170 : 220,
        className: 'sticky name',
        key: 'record',
        filterHint: 'name',
        cell: (row) => h('span', null, h('small', { class: 'idx' }, String(row.index)), row.primary ? h('i', null, row.label) : row.label),
      },
      ...detail.fields.map((f, i): Column<RecordRow> => ({
        head: h('span', { class: 'col-head' }, h('b', { class: f.name ? '' : 'hash' }, fieldLabel(f)), h('small', null, f.count > 1 ? `${f.type}[${f.count}]` : f.type)),
        title: `${f.name ?? '(name unknown)'}  ${f.hex}  ${f.type}${f.count !== 1 ? ` × ${f.count}` : ''}${f.note ? `\n${f.note}` : ''}`,
        // narrow windows scale columns down, but never a number below 84 px (its header stays readable)
        width: Math.max(Math.min(84, WIDTH_BY_TYPE[f.type.split('|')[0]!] ?? 130), Math.round((f.count > 1 ? 220 : (WIDTH_BY_TYPE[f.type.split('|')[0]!] ?? 130)) * scale)),
        className: f.type === 'Float' || f.type === 'Int' ? 'num' : '',
        key: f.hex,
        filterHint: f.type === 'Float' || f.type === 'Int' ? '>0, =1…' : 'text, !text',
        cell: (row) => {
          const v = row.values[i];
          return v === undefined ? '' : compactValue(v, onLink);
        },
      })),
    ];
    // a new sort or filter keeps the columns the user scrolled to
    const scrollLeft = this.table?.element.scrollLeft ?? 0;
    this.table?.destroy();
    const vt = new VirtualTable<RecordRow>({
      columns,
      total: first.total,
      // About 3,000 values per page: 100 rows of a narrow category, 25 of a 117-field one.
      pageSize,
      initial: first.rows,
      load: async (offset, limit, signal) => (await fetchPage(offset, limit, signal)).rows,
      // Arrow keys replace the history entry: back returns to the record you came from, not to each row passed.
      onActivate: (row, _i, key) => this.app.navigate(this.routeOf(row.label), { replace: key }),
      query,
      onQuery: (next) => {
        const active = document.activeElement as HTMLInputElement | null;
        const key = active?.classList.contains('vt-filter') ? columns[Array.from(vt.element.querySelectorAll('.vt-hcell')).findIndex((c) => c.contains(active))]?.key : undefined;
        const params = queryParams(next);
        const route: Route = this.currentRecord ? this.routeOf(this.currentRecord.ref.label) : { view: 'category', file: this.file, category: this.category };
        if (route.view === 'category') {
          if (Object.keys(params).length > 0) route.table = params;
          else delete route.table;
        }
        this.app.navigate(route, { replace: true, silent: true });
        void this.load(params, key !== undefined && active ? { key, caret: active.selectionStart ?? active.value.length } : undefined);
      },
      onCellView: (row, _i, column) => void this.cellView(row, column, columns),
      onEscape: () => {
        if (this.currentRecord) this.app.navigate({ view: 'category', file: this.file, category: this.category, ...(Object.keys(this.tableParams).length ? { table: this.tableParams } : {}) });
      },
    });
    this.table = vt;
    const filtered = first.total !== detail.recordCount;
    mount(
      this.tableHost,
      h(
        'div',
        { class: 'table-title' },
        h('h2', null, this.category),
        h(
          'span',
          { class: 'muted' },
          filtered ? `${num(first.total)} of ${num(detail.recordCount)} records` : `${num(detail.recordCount)} records`,
          ` · ${detail.fields.length} fields`,
          detail.primaryCount > 0 ? ` · ${num(detail.primaryCount)} primaries` : '',
        ),
        Object.keys(table).length > 0 ? h('button', { class: 'icon small', title: 'Clear the sort and filters', onclick: () => vt.clearQuery() }, 'clear filters') : null,
      ),
      vt.element,
    );
    vt.element.scrollLeft = scrollLeft;
    if (focus) vt.focusFilter(focus.key, focus.caret);
    if (this.currentRecord) this.selectRecord(this.currentRecord);
  }

  /** Selects the row of record `view` when it is in the table as loaded (position order, or a loaded page). */
  private selectRecord(view: RecordView): void {
    if (!this.table) return;
    if (Object.keys(this.tableParams).length === 0) this.table.select(view.position);
    else this.table.select(this.table.findLoaded((r) => r.index === view.ref.index));
  }

  /** The whole value of one cell, in a dialog (Escape closes it; the text can be selected and copied). */
  private async cellView(row: RecordRow, column: number, columns: Column<RecordRow>[]): Promise<void> {
    const key = columns[column]?.key;
    const dialog = h('dialog', { class: 'cell-view', 'aria-label': 'cell' });
    const close = () => {
      dialog.close();
      dialog.remove();
      this.table?.element.focus();
    };
    document.body.appendChild(dialog);
    dialog.addEventListener('close', () => {
      dialog.remove();
      this.table?.element.focus();
    });
    let title = row.label;
    let text = row.label;
    let body: Node = h('pre', null, row.label);
    if (key !== undefined && key !== 'record') {
      const view = await get<RecordView>(['files', this.file, 'records', row.index]);
      const f = view.fields.find((x) => x.hex === key);
      title = `${row.label} · ${f ? fieldLabel(f) : key}`;
      text = f ? valueText(f.value) : '(no such field in this record)';
      body = h('div', null, f ? fullValue(f.value, this.linkTo) : null, h('pre', null, text));
    }
    const copy = h('button', { class: 'secondary', onclick: () => void navigator.clipboard?.writeText(text).then(() => this.app.toast('Copied')) }, 'Copy');
    mount(dialog, h('h3', null, title), h('p', { class: 'muted small' }, `${this.category} · ${columns[column]?.title?.split('\n')[0] ?? ''}`), body, h('div', { class: 'actions' }, copy, h('button', { class: 'primary', onclick: close }, 'Close')));
    dialog.showModal();
  }

  /** Shows the record of the route (or none) in the inspector and selects its row; reloads the table when its sort or filters changed. */
  async show(route: CategoryRoute): Promise<void> {
    const token = ++this.recordToken;
    if (JSON.stringify(route.table ?? {}) !== JSON.stringify(this.tableParams)) await this.load(route.table ?? {});
    if (!route.record) {
      this.currentRecord = undefined;
      this.inspector.classList.remove('open');
      mount(this.inspector);
      this.table?.select(-1, false);
      return;
    }
    this.inspector.classList.add('open');
    const path = ['files', this.file, 'categories', this.category, 'records', route.record];
    let view: RecordView;
    try {
      view = await get<RecordView>(path);
    } catch (e) {
      if (token !== this.recordToken) return;
      mount(this.inspector, h('div', { class: 'error' }, (e as Error).message));
      return;
    }
    if (token !== this.recordToken) return;
    this.currentRecord = view;
    this.selectRecord(view);
    this.renderRecord(view, route.field);
  }

  private renderRecord(view: RecordView, field: string | undefined): void {
    const onLink = this.linkTo;
    const refsHost = h('div', { class: 'refs' }, h('div', { class: 'muted' }, 'Looking for references…'));
    const fieldRows = view.fields.map((f) => this.fieldRow(view, f, f.hex === field || (field !== undefined && f.name === field), onLink));
    mount(
      this.inspector,
      h(
        'header',
        { class: 'rec-head' },
        h('div', { class: 'nav-buttons' }, h('button', { class: 'icon', title: 'Back (Alt+←)', onclick: () => this.app.back({ view: 'category', file: this.file, category: this.category }) }, '←'), h('button', { class: 'icon', title: 'Forward (Alt+→)', onclick: () => history.forward() }, '→')),
        h('div', { class: 'rec-title' }, h('div', { class: 'crumb' }, view.ref.category), h('h3', null, view.ref.label, view.ref.primary ? h('small', { class: 'muted' }, ' primary') : null)),
        h('button', { class: 'icon', title: 'Close', onclick: () => this.app.navigate({ view: 'category', file: this.file, category: this.category }) }, '×'),
      ),
      h('div', { class: 'rec-meta muted' }, `record ${num(view.ref.index)} · ${num(view.position)} in category · ${view.fields.length} fields`),
      this.app.editMode ? h('div', { class: 'edit-hint' }, 'Edit mode: change a value and press Enter to stage it. Staged edits are saved as a new file from ', link(this.app, { view: 'edits', file: this.file }, 'Edits'), '.') : null,
      h('div', { class: 'fields' }, fieldRows),
      h('h4', null, 'Referenced by'),
      refsHost,
    );
    const target = this.inspector.querySelector('.field.highlight');
    if (target) target.scrollIntoView({ block: 'center' });
    // In edit mode the highlighted field's editor takes the focus when nothing else holds it (the grid, the search
    // box keep theirs): a field reached by a search hit or a link is edited without the mouse.
    const editor = target?.querySelector<HTMLElement>('.editor');
    const active = document.activeElement;
    if (editor && this.app.editMode && (active === null || active === document.body || !active.isConnected || active.closest('.top .toggle') !== null)) {
      editor.focus();
      if (editor instanceof HTMLInputElement && editor.type !== 'checkbox') editor.select();
    }
    void this.loadRefs(view, refsHost);
  }

  /** Referenced-by, 200 at a time: "Show more" fetches the next 200 (a record can be named by thousands of links). */
  private async loadRefs(view: RecordView, host: HTMLElement): Promise<void> {
    const list = h('ul', { class: 'ref-list' });
    const more = h('div', { class: 'refs-more' });
    const page = async (offset: number) => {
      const refs = await get<ReferencedBy>(['files', this.file, 'records', view.ref.index, 'referenced-by'], { offset, limit: 200 });
      if (refs.total === 0) return mount(host, h('div', { class: 'muted' }, 'No record links to this record.'));
      if (offset === 0) mount(host, h('div', { class: 'muted small' }, `${num(refs.total)} link${refs.total === 1 ? '' : 's'}`), list, more);
      for (const r of refs.refs) {
        list.appendChild(
          h(
            'li',
            null,
            link(this.app, recordRoute(this.file, r.from, r.fieldHex), h('span', { class: 'v-link-cat' }, r.from.category, ' / '), r.from.label),
            h('span', { class: 'muted' }, ` · ${r.field}${r.element !== undefined ? `[${r.element}]` : ''}`),
          ),
        );
      }
      const next = refs.offset + refs.refs.length;
      const left = refs.total - next;
      mount(
        more,
        left > 0
          ? h(
              'button',
              {
                class: 'secondary',
                onclick: (e: Event) => {
                  (e.target as HTMLButtonElement).disabled = true;
                  void page(next).catch((err: unknown) => mount(more, h('div', { class: 'error' }, (err as Error).message)));
                },
              },
              `Show ${num(Math.min(200, left))} more (${num(left)} left)`,
            )
          : null,
      );
    };
    try {
      await page(0);
    } catch (e) {
      mount(host, h('div', { class: 'error' }, (e as Error).message));
    }
  }

  /** A link to a record (of this file, or of the file a patch's link points into). */
  private readonly linkTo: LinkMaker = (ref, ...children) => link(this.app, recordRoute(ref.file ?? this.file, ref), ...children);

  private fieldRow(view: RecordView, f: RecordView['fields'][number], highlight: boolean, onLink: LinkMaker): HTMLElement {
    const name = h('div', { class: 'f-name', title: `${f.hex} · declared #${f.index}${f.note ? `\n${f.note}` : ''}` }, f.name ?? h('span', { class: 'hash' }, f.hex), f.name ? h('small', { class: 'hash' }, f.hex) : null);
    const type = h('div', { class: 'f-type' }, f.count > 1 ? `${f.type}[${f.count}]` : f.type);
    const shown = f.staged ?? f.value;
    let value: Node;
    if (this.app.editMode && f.editable && shown.t === 'array') {
      // One editor per element; each stages `field[i]`.
      value = h('ol', { class: 'v-array', start: 0 }, shown.items.map((item, i) => h('li', null, this.editor(view, f, item, i))));
    } else if (this.app.editMode && f.editable) value = this.editor(view, f, shown);
    else value = fullValue(shown, onLink);
    return h(
      'div',
      { class: `field${highlight ? ' highlight' : ''}${f.staged ? ' staged' : ''}`, 'data-field': f.hex },
      name,
      type,
      h('div', { class: 'f-value' }, value, f.staged ? h('div', { class: 'was' }, 'was ', valueText(f.value)) : null, f.note ? h('div', { class: 'note' }, '⚠ ', f.note) : null),
    );
  }

  /**
   * A typed editor. Numbers, vectors and links go to the server as the text typed (the editor's own parser reads
   * `1e-3`, `0x40`, `inf`, `1, 2, 3`, `Category/Record`, `Category / Record`, `Category:Record`); the page only
   * checks the shape first. A value is staged once, and a refused one is reported once (not again on blur).
   */
  private editor(view: RecordView, f: FieldColumn, v: TypedValue, element?: number): Node {
    const stage = async (value: unknown, shown: string): Promise<boolean> => {
      try {
        await send<StagedEdit>('POST', ['files', this.file, 'edits'], { record: view.ref.index, field: f.hex, element, value });
        this.app.editsChanged(this.file);
        this.app.toast(`Staged ${fieldLabel(f)}${element !== undefined ? `[${element}]` : ''} = ${shown}`);
        const fresh = await get<RecordView>(['files', this.file, 'records', view.ref.index]);
        this.renderRecord(fresh, f.hex);
        return true;
      } catch (e) {
        this.app.toast(e instanceof ApiFailure ? e.message : String(e), 'error');
        return false;
      }
    };
    const input = (text: string, check: (s: string) => string | undefined, toValue: (s: string) => unknown, cls = '') => {
      const el = h('input', { class: `editor ${cls}`, value: text, spellcheck: 'false', 'aria-label': fieldLabel(f) });
      // Enter and the change event (on blur) both commit: the last text staged or refused is not sent again.
      let committed = text;
      let refused: string | undefined;
      const commit = async () => {
        const typed = el.value;
        if (typed === committed || typed === refused) return;
        const problem = check(typed);
        if (problem !== undefined) {
          el.classList.add('invalid');
          refused = typed;
          this.app.toast(problem, 'error');
          return;
        }
        const previous = committed;
        committed = typed;
        if (await stage(toValue(typed), typed.trim())) {
          el.classList.remove('invalid');
          return;
        }
        committed = previous;
        refused = typed;
        el.classList.add('invalid');
      };
      el.addEventListener('keydown', (e) => {
        if (e.key === 'Enter') void commit();
        if (e.key === 'Escape') {
          el.value = committed;
          el.classList.remove('invalid');
        }
      });
      el.addEventListener('change', () => void commit());
      return el;
    };
    const NUMBER = /^\s*[-+]?(inf|infinity|nan|(\d+\.?\d*|\.\d+)(e[-+]?\d+)?|0x[0-9a-f]+)\s*$/i;
    const text = (s: string) => s.trim();
    switch (v.t) {
      case 'bool': {
        const el = h('input', { type: 'checkbox', class: 'editor', checked: v.v, 'aria-label': fieldLabel(f) });
        el.addEventListener('change', () => void stage(el.checked, String(el.checked)));
        return h('label', { class: 'check' }, el, v.v ? 'true' : 'false');
      }
      case 'float':
        return input(f32Text(v.v), (s) => (NUMBER.test(s) ? undefined : `Not a number for ${fieldLabel(f)} (a Float): ${JSON.stringify(s)}`), text, 'num');
      case 'int':
        return input(String(v.v), (s) => (/^\s*[-+]?(\d+|0x[0-9a-f]+)\s*$/i.test(s) ? undefined : `Not an integer for ${fieldLabel(f)} (an Int): ${JSON.stringify(s)}`), text, 'num');
      case 'string':
        return input(v.v, () => undefined, (s) => ({ t: 'string', v: s }));
      case 'enum':
        return input(v.v, () => undefined, (s) => ({ t: 'enum', v: s }));
      case 'int64':
        return input(v.v, (s) => (/^\s*[-+]?(\d+|0x[0-9a-f]+)\s*$/i.test(s) ? undefined : `Not an integer for ${fieldLabel(f)} (an Int64): ${JSON.stringify(s)}`), text, 'num');
      case 'vec': {
        const parts = (s: string) => s.replace(/[()[\]]/g, ' ').split(/[\s,]+/).filter((p) => p.length > 0);
        return input(
          v.v.map(f32Text).join(', '),
          (s) => (parts(s).length === v.v.length && parts(s).every((p) => NUMBER.test(p)) ? undefined : `${fieldLabel(f)} takes ${v.v.length} numbers, e.g. ${v.v.map(f32Text).join(', ')}`),
          (s) => parts(s).join(','),
        );
      }
      case 'link':
        return input(v.target ? `${v.target.category} / ${v.target.label}` : 'null', () => undefined, text);
      default:
        return fullValue(v, this.linkTo);
    }
  }

  destroy(): void {
    this.table?.destroy();
  }
}
