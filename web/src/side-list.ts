/**
 * The side panel's list of a file's categories (or sd2 tables): filterable (every typed word must occur), sorted
 * (by name, by record count, or in file order) and grouped by the name's first part (`ClientFX.Sprite` under
 * `ClientFX`, `AI/Templates` under `AI`) into groups that fold. A virtual list, so 2,742 categories cost a screen
 * of rows; the arrow keys move, Enter opens a category or folds a group.
 */
import { link, type App } from './app.ts';
import { h, mount, num } from './dom.ts';
import type { Route } from './routes.ts';
import { VirtualTable } from './virtual-table.ts';

export interface SideItem {
  name: string;
  count: number;
  /** Position in the file. */
  ordinal: number;
}

type Row = { kind: 'group'; name: string; items: number; open: boolean } | { kind: 'item'; item: SideItem; depth: number };

export type SideOrder = 'name' | 'size' | 'file';

const ORDER_LABEL: Record<SideOrder, string> = { name: 'A–Z', size: 'largest', file: 'file order' };

/** The group of a name: the part before its first `.` or `/` (none when the name has neither). */
export function groupOf(name: string): string | undefined {
  const m = /^(.+?)[./]/.exec(name);
  return m ? m[1] : undefined;
}

export class SideList {
  readonly element: HTMLElement;
  readonly #app: App;
  readonly #items: SideItem[];
  readonly #routeOf: (item: SideItem) => Route;
  readonly #noun: string;
  readonly #store: string;
  readonly #filter: HTMLInputElement;
  readonly #host: HTMLElement;
  readonly #closed: Set<string>;
  #order: SideOrder;
  #rows: Row[] = [];
  #table: VirtualTable<Row> | undefined;
  #current: string | undefined;

  constructor(app: App, items: SideItem[], options: { noun: string; routeOf: (item: SideItem) => Route; current?: string; storageKey: string }) {
    this.#app = app;
    this.#items = items;
    this.#routeOf = options.routeOf;
    this.#noun = options.noun;
    this.#store = options.storageKey;
    this.#current = options.current;
    this.#order = (localStorage.getItem('scry.sideOrder') as SideOrder | null) ?? 'name';
    this.#closed = new Set(JSON.parse(sessionStorage.getItem(`scry.closed.${this.#store}`) ?? '[]') as string[]);
    this.#filter = h('input', { class: 'filter', type: 'search', placeholder: `Filter ${num(items.length)} ${options.noun}`, spellcheck: 'false', 'aria-label': `filter ${options.noun}` });
    this.#filter.addEventListener('input', () => this.#build());
    this.#filter.addEventListener('keydown', (e) => {
      if (e.key === 'ArrowDown') {
        e.preventDefault();
        this.#table?.element.focus();
      }
    });
    const order = h('select', { class: 'side-order', 'aria-label': `order of the ${options.noun}` }, (Object.keys(ORDER_LABEL) as SideOrder[]).map((o) => h('option', { value: o, selected: o === this.#order }, ORDER_LABEL[o])));
    order.addEventListener('change', () => {
      this.#order = order.value as SideOrder;
      localStorage.setItem('scry.sideOrder', this.#order);
      this.#build();
    });
    const fold = h('button', { class: 'icon small', title: 'Fold every group', onclick: () => this.#foldAll() }, '⊟');
    this.#host = h('div', { class: 'side-list' });
    this.element = h('div', { class: 'side-body' }, h('div', { class: 'side-tools' }, this.#filter, order, fold), this.#host);
    this.#build();
  }

  /** Selects (and unfolds the group of) the item named `name`. */
  select(name: string | undefined): void {
    this.#current = name;
    if (name === undefined) return;
    const g = groupOf(name);
    if (g !== undefined && this.#closed.has(g) && this.#filter.value === '') {
      this.#closed.delete(g);
      this.#build();
      return;
    }
    const i = this.#rows.findIndex((r) => r.kind === 'item' && r.item.name === name);
    if (i >= 0) this.#table?.select(i);
  }

  destroy(): void {
    this.#table?.destroy();
  }

  #sorted(items: SideItem[]): SideItem[] {
    const by = this.#order;
    return [...items].sort((a, b) => (by === 'size' ? b.count - a.count : 0) || (by === 'file' ? a.ordinal - b.ordinal : 0) || a.name.localeCompare(b.name, 'en', { sensitivity: 'base' }));
  }

  #foldAll(): void {
    for (const r of this.#rows) if (r.kind === 'group') this.#closed.add(r.name);
    this.#save();
    this.#build();
  }

  #toggle(group: string): void {
    if (this.#closed.has(group)) this.#closed.delete(group);
    else this.#closed.add(group);
    this.#save();
    const at = this.#rows.findIndex((r) => r.kind === 'group' && r.name === group);
    this.#build(at);
  }

  #save(): void {
    sessionStorage.setItem(`scry.closed.${this.#store}`, JSON.stringify([...this.#closed]));
  }

  /** Lays the rows out again; `keep`: the row index to select afterwards. */
  #build(keep?: number): void {
    const words = this.#filter.value.toLowerCase().split(/\s+/).filter((w) => w.length > 0);
    const shown = words.length === 0 ? this.#items : this.#items.filter((c) => words.every((w) => c.name.toLowerCase().includes(w)));
    // Groups of two or more; a filter shows every match (its groups open).
    const groups = new Map<string, SideItem[]>();
    for (const it of shown) {
      const g = groupOf(it.name);
      if (g !== undefined) groups.set(g, [...(groups.get(g) ?? []), it]);
    }
    type Entry = { key: SideItem; group?: string; items?: SideItem[] };
    const top: Entry[] = [];
    const placed = new Set<string>();
    for (const it of this.#sorted(shown)) {
      const g = groupOf(it.name);
      const members = g !== undefined ? groups.get(g)! : undefined;
      if (g !== undefined && members!.length >= 2) {
        if (placed.has(g)) continue;
        placed.add(g);
        top.push({ key: it, group: g, items: this.#sorted(members!) });
      } else top.push({ key: it });
    }
    const rows: Row[] = [];
    for (const e of top) {
      if (e.group === undefined) {
        rows.push({ kind: 'item', item: e.key, depth: 0 });
        continue;
      }
      const open = words.length > 0 || !this.#closed.has(e.group);
      rows.push({ kind: 'group', name: e.group, items: e.items!.length, open });
      if (open) for (const it of e.items!) rows.push({ kind: 'item', item: it, depth: 1 });
    }
    this.#rows = rows;
    const hadFocus = this.#table !== undefined && document.activeElement === this.#table.element;
    this.#table?.destroy();
    this.#table = new VirtualTable<Row>({
      columns: [
        {
          head: `${num(shown.length)} ${this.#noun}`,
          width: 0,
          cell: (r) => {
            if (r.kind === 'group') {
              return h('div', { class: 'side-group', title: `${r.name}: ${r.items} ${this.#noun}` }, h('span', { class: 'fold' }, r.open ? '▾' : '▸'), h('span', { class: 'cat-name' }, r.name), h('span', { class: 'cat-count' }, num(r.items)));
            }
            const label = r.depth > 0 ? r.item.name.slice(groupOf(r.item.name)!.length) : r.item.name;
            const a = link(this.#app, this.#routeOf(r.item), h('span', { class: 'cat-name' }, label), h('span', { class: 'cat-count' }, num(r.item.count)));
            a.className = `cat${r.depth > 0 ? ' in-group' : ''}`;
            a.title = r.item.name;
            return a;
          },
        },
      ],
      total: rows.length,
      rowHeight: 24,
      pageSize: 500,
      load: async (offset, limit) => rows.slice(offset, offset + limit),
      onActivate: (r, i, key) => {
        if (r.kind === 'group') {
          if (!key) this.#toggle(r.name);
          else this.#table?.select(i);
        } else if (!key) this.#app.navigate(this.#routeOf(r.item));
      },
    });
    this.#table.element.addEventListener('keydown', (e) => {
      const i = this.#table!.selectedRow;
      const r = this.#rows[i];
      if (!r) return;
      if (e.key === 'Enter') {
        e.preventDefault();
        e.stopImmediatePropagation();
        if (r.kind === 'group') this.#toggle(r.name);
        else this.#app.navigate(this.#routeOf(r.item));
      } else if ((e.key === 'ArrowLeft' && r.kind === 'group' && r.open) || (e.key === 'ArrowRight' && r.kind === 'group' && !r.open)) {
        e.preventDefault();
        e.stopImmediatePropagation();
        this.#toggle(r.name);
      }
    }, { capture: true });
    mount(this.#host, this.#table.element);
    const sel = keep ?? rows.findIndex((r) => r.kind === 'item' && r.item.name === this.#current);
    if (sel >= 0) this.#table.select(sel);
    if (hadFocus) this.#table.element.focus();
  }
}
