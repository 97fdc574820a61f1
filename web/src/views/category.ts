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
import { VirtualTable, type Column } from '../virtual-table.ts';

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

  constructor(app: App, file: string, category: string) {
    this.app = app;
    this.file = file;
    this.category = category;
    this.tableHost = h('div', { class: 'table-host' }, h('div', { class: 'empty' }, 'Loading…'));
    this.inspector = h('section', { class: 'inspector', 'aria-label': 'record' });
    this.element = h('div', { class: 'category-view' }, this.tableHost, this.inspector);
  }

  async load(): Promise<void> {
    const detail = await categoryDetail(this.file, this.category);
    const onLink = this.linkTo;
    const columns: Column<RecordRow>[] = [
      {
        head: h('span', null, 'record ', h('small', null, `${num(detail.recordCount)}`)),
        width: 260,
        className: 'sticky name',
        cell: (row) => h('span', null, h('small', { class: 'idx' }, String(row.index)), row.primary ? h('i', null, row.label) : row.label),
      },
      ...detail.fields.map((f, i): Column<RecordRow> => ({
        head: h('span', { class: 'col-head' }, h('b', { class: f.name ? '' : 'hash' }, fieldLabel(f)), h('small', null, f.count > 1 ? `${f.type}[${f.count}]` : f.type)),
        title: `${f.name ?? '(name unknown)'}  ${f.hex}  ${f.type}${f.count !== 1 ? ` × ${f.count}` : ''}${f.note ? `\n${f.note}` : ''}`,
        width: f.count > 1 ? 220 : (WIDTH_BY_TYPE[f.type.split('|')[0]!] ?? 130),
        className: f.type === 'Float' || f.type === 'Int' ? 'num' : '',
        cell: (row) => {
          const v = row.values[i];
          return v === undefined ? '' : compactValue(v, onLink);
        },
      })),
    ];
    this.table?.destroy();
    this.table = new VirtualTable<RecordRow>({
      columns,
      total: detail.recordCount,
      // About 3,000 values per page: 100 rows of a narrow category, 25 of a 117-field one.
      pageSize: Math.max(25, Math.min(100, Math.floor(3000 / Math.max(1, detail.fields.length)))),
      load: async (offset, limit, signal) => (await get<RecordPage>(['files', this.file, 'categories', this.category, 'records'], { offset, limit }, signal)).rows,
      // Arrow keys replace the history entry: back returns to the record you came from, not to each row passed.
      onActivate: (row, _i, key) => this.app.navigate(recordRoute(this.file, { category: this.category, label: row.label }), { replace: key }),
    });
    mount(
      this.tableHost,
      h(
        'div',
        { class: 'table-title' },
        h('h2', null, this.category),
        h('span', { class: 'muted' }, `${num(detail.recordCount)} records · ${detail.fields.length} fields`, detail.primaryCount > 0 ? ` · ${num(detail.primaryCount)} primaries` : ''),
      ),
      this.table.element,
    );
  }

  /** Shows the record of the route (or none) in the inspector and selects its row. */
  async show(route: CategoryRoute): Promise<void> {
    const token = ++this.recordToken;
    if (!route.record) {
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
    this.table?.select(view.position);
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
    void this.loadRefs(view, refsHost);
  }

  private async loadRefs(view: RecordView, host: HTMLElement): Promise<void> {
    try {
      const refs = await get<ReferencedBy>(['files', this.file, 'records', view.ref.index, 'referenced-by'], { limit: 200 });
      if (refs.total === 0) return mount(host, h('div', { class: 'muted' }, 'No record links to this record.'));
      mount(
        host,
        h(
          'ul',
          { class: 'ref-list' },
          refs.refs.map((r) =>
            h(
              'li',
              null,
              link(this.app, recordRoute(this.file, r.from, r.fieldHex), h('span', { class: 'v-link-cat' }, r.from.category, ' / '), r.from.label),
              h('span', { class: 'muted' }, ` · ${r.field}${r.element !== undefined ? `[${r.element}]` : ''}`),
            ),
          ),
        ),
        refs.total > refs.refs.length ? h('div', { class: 'muted' }, `and ${num(refs.total - refs.refs.length)} more`) : null,
      );
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
