/**
 * A virtual-scrolled table over rows the server pages out: only the rows in view (plus a small margin) exist in
 * the DOM, and only the pages they fall in are fetched. Rows have one fixed height, so the row under any scroll
 * position is a division away; the body is a spacer of `total × rowHeight` pixels.
 *
 * Rows are keyed by index and kept while in view, so scrolling builds only the rows that enter. Columns are
 * virtual too: a row holds cells only for the columns in view (plus sticky ones), placed on the grid by column
 * number, so a 117-field category costs a dozen cells per row, not 117. Pages that leave the view before they
 * arrive are aborted; a bounded cache keeps recently seen pages.
 *
 * Columns can be sorted (click the header; again for descending, a third time for none) and filtered (the inputs
 * under the headers); the owner re-queries with `onQuery`. Keyboard: ↑ ↓ PageUp PageDown Home End move the row,
 * ← → the cell cursor, Enter opens the row, Space (or a double click) shows the whole cell, Escape closes what is
 * open. The grid shows its focus and the cursor cell.
 */
import { h } from './dom.ts';

export interface Column<R> {
  /** Header content. */
  head: Node | string;
  /** Tooltip of the header. */
  title?: string;
  /** Width in pixels; 0 takes the remaining width. */
  width: number;
  cell(row: R, index: number): Node | string;
  /** Extra class for the column's cells (`num`, `mono`). */
  className?: string;
  /** The column's key for sorting and filtering (`onQuery`); columns without one do neither. */
  key?: string;
  /** Placeholder of the filter box (e.g. `>0.5`, `text`). */
  filterHint?: string;
}

/** A sort and filters over column keys. */
export interface TableQueryState {
  sort?: { key: string; desc: boolean };
  filters: Record<string, string>;
}

export interface VirtualTableOptions<R> {
  columns: Column<R>[];
  total: number;
  rowHeight?: number;
  pageSize?: number;
  load(offset: number, limit: number, signal: AbortSignal): Promise<R[]>;
  /** The first page, when the owner fetched it already (to learn the total). */
  initial?: R[];
  /** A row was clicked (`key` false) or reached with the arrow keys (`key` true). */
  onActivate?(row: R, index: number, key: boolean): void;
  /** Highlighted row index. */
  selected?: number;
  /** The sort and filters the rows were loaded with (shown in the headers). */
  query?: TableQueryState;
  /** The user changed the sort or a filter: load the rows again. */
  onQuery?(query: TableQueryState): void;
  /** Space or a double click on a cell: show its whole value. */
  onCellView?(row: R, index: number, column: number): void;
  /** Escape on the grid (nothing of its own open). */
  onEscape?(): void;
}

const OVERSCAN = 8;
/** Extra pixels of columns built on each side of the view. */
const COLUMN_OVERSCAN = 300;
const MAX_CACHED_PAGES = 64;
/**
 * Page requests in flight at once. An aborted fetch still costs the server its work, so a fling across thousands
 * of rows must not queue a request per page passed: the next request goes out only when one returns, and only
 * for a page that is still in view.
 */
const MAX_IN_FLIGHT = 2;

export class VirtualTable<R> {
  readonly element: HTMLDivElement;
  private readonly body: HTMLDivElement;
  private readonly opts: Required<Pick<VirtualTableOptions<R>, 'rowHeight' | 'pageSize'>> & VirtualTableOptions<R>;
  private readonly pages = new Map<number, R[]>();
  private readonly pending = new Map<number, AbortController>();
  private readonly rows = new Map<number, { el: HTMLDivElement; loaded: boolean }>();
  private frame = 0;
  private selectedIndex: number;
  /** Left edge of each column, and whether columns can be virtual (all widths fixed). */
  private readonly columnLeft: number[] = [];
  private readonly virtualColumns: boolean;
  /** Columns the current rows were built with, as `first:last`. */
  private columnWindow = '';
  private destroyed = false;
  /** Number of page requests made (for tests and the status line). */
  requests = 0;
  private visibleCols: number[] = [];
  /** The cell cursor's column (← →), and a row to activate once its page arrives (End on an unloaded page). */
  private cursorColumn = -1;
  private pendingActivate = -1;

  constructor(options: VirtualTableOptions<R>) {
    this.opts = { rowHeight: 26, pageSize: 100, ...options };
    this.selectedIndex = options.selected ?? -1;
    if (options.initial) this.pages.set(0, options.initial);
    const template = this.opts.columns.map((c) => (c.width > 0 ? `${c.width}px` : 'minmax(0, 1fr)')).join(' ');
    const query = this.opts.query ?? { filters: {} };
    const filterable = this.opts.onQuery !== undefined && this.opts.columns.some((c) => c.key !== undefined);
    const head = h(
      'div',
      { class: `vt-head${filterable ? ' with-filters' : ''}`, role: 'row' },
      this.opts.columns.map((c) => this.headerCell(c, query, filterable)),
    );
    this.body = h('div', { class: 'vt-body', role: 'rowgroup' });
    this.body.style.height = `${this.opts.total * this.opts.rowHeight}px`;
    this.element = h('div', { class: 'vt', role: 'grid', 'aria-rowcount': this.opts.total, tabindex: 0 }, head, this.body);
    if (filterable) this.element.style.setProperty('--vt-head', '58px');
    this.element.style.setProperty('--vt-columns', template);
    this.element.style.setProperty('--vt-row', `${this.opts.rowHeight}px`);
    let left = 0;
    for (const c of this.opts.columns) {
      this.columnLeft.push(left);
      left += c.width;
    }
    this.virtualColumns = this.opts.columns.every((c) => c.width > 0) && this.opts.columns.length > 12;
    this.element.addEventListener('scroll', () => this.schedule(), { passive: true });
    this.element.addEventListener('keydown', (e) => this.onKey(e));
    new ResizeObserver(() => this.schedule()).observe(this.element);
    this.schedule();
  }

  private headerCell(c: Column<R>, query: TableQueryState, filterable: boolean): HTMLElement {
    const sorted = c.key !== undefined && query.sort?.key === c.key ? (query.sort.desc ? 'descending' : 'ascending') : undefined;
    const cell = h('div', { class: `vt-cell vt-hcell ${c.className ?? ''}${sorted ? ' sorted' : ''}`, title: c.title, role: 'columnheader', 'aria-sort': sorted ?? (c.key !== undefined ? 'none' : undefined) });
    const label = h('div', { class: 'vt-hlabel' }, c.head, sorted ? h('span', { class: 'vt-sort' }, sorted === 'ascending' ? ' ▲' : ' ▼') : null);
    cell.appendChild(label);
    if (c.key !== undefined && this.opts.onQuery) {
      const key = c.key;
      label.classList.add('sortable');
      label.addEventListener('click', () => {
        // none → ascending → descending → none
        const next: TableQueryState = { filters: { ...query.filters } };
        if (!sorted) next.sort = { key, desc: false };
        else if (sorted === 'ascending') next.sort = { key, desc: true };
        this.opts.onQuery!(next);
      });
    }
    if (filterable) {
      if (c.key === undefined) cell.appendChild(h('div', { class: 'vt-filter-space' }));
      else {
        const key = c.key;
        const input = h('input', { class: 'vt-filter', type: 'search', value: query.filters[key] ?? '', placeholder: c.filterHint ?? 'filter', spellcheck: 'false', 'aria-label': `filter ${typeof c.head === 'string' ? c.head : (c.title ?? key)}` });
        let timer: ReturnType<typeof setTimeout> | undefined;
        const apply = () => {
          const filters = { ...query.filters, [key]: input.value };
          if (input.value.trim() === '') delete filters[key];
          const next: TableQueryState = { filters };
          if (query.sort) next.sort = query.sort;
          this.opts.onQuery!(next);
        };
        input.addEventListener('input', () => {
          if (timer !== undefined) clearTimeout(timer);
          timer = setTimeout(apply, 350);
        });
        input.addEventListener('keydown', (e) => {
          e.stopPropagation();
          if (e.key === 'Enter') {
            if (timer !== undefined) clearTimeout(timer);
            apply();
          }
          if (e.key === 'Escape') this.element.focus();
        });
        cell.appendChild(input);
      }
    }
    return cell;
  }

  /** The selected row's index (-1: none). */
  get selectedRow(): number {
    return this.selectedIndex;
  }

  /** Drops every filter and the sort. */
  clearQuery(): void {
    this.opts.onQuery?.({ filters: {} });
  }

  /** The index of the first loaded row that `test` accepts, or -1. */
  findLoaded(test: (row: R) => boolean): number {
    for (const [page, rows] of this.pages) {
      const i = rows.findIndex(test);
      if (i >= 0) return page * this.opts.pageSize + i;
    }
    return -1;
  }

  /** Focuses the filter box of column `key` (after a re-query the table is new; the user keeps typing). */
  focusFilter(key: string, caret: number): void {
    const i = this.opts.columns.findIndex((c) => c.key === key);
    const input = this.element.querySelectorAll<HTMLInputElement>('.vt-head .vt-hcell')[i]?.querySelector('input');
    if (!input) return;
    input.focus();
    input.setSelectionRange(caret, caret);
  }

  /** Scrolls so that row `index` is in view (centred when it was far away) and selects it. */
  select(index: number, scroll = true): void {
    const prev = this.rows.get(this.selectedIndex);
    prev?.el.classList.remove('selected');
    this.selectedIndex = index;
    this.rows.get(index)?.el.classList.add('selected');
    this.showCursor();
    if (!scroll || index < 0) return;
    const rh = this.opts.rowHeight;
    const top = index * rh;
    const view = this.element.clientHeight - ((this.element.firstElementChild as HTMLElement | null)?.offsetHeight ?? rh); // minus the sticky header
    if (top < this.element.scrollTop || top + rh > this.element.scrollTop + view) {
      this.element.scrollTop = Math.max(0, top - view / 2);
    }
    this.schedule();
  }

  destroy(): void {
    this.destroyed = true;
    cancelAnimationFrame(this.frame);
    for (const c of this.pending.values()) c.abort();
    this.pending.clear();
  }

  private schedule(): void {
    if (this.frame === 0) this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.render();
    });
  }

  private visibleRange(): [number, number] {
    const rh = this.opts.rowHeight;
    const first = Math.max(0, Math.floor(this.element.scrollTop / rh) - OVERSCAN);
    const last = Math.min(this.opts.total - 1, Math.ceil((this.element.scrollTop + this.element.clientHeight) / rh) + OVERSCAN);
    return [first, last];
  }

  /** The columns to build: those overlapping the view plus a margin, as indexes (sticky columns always). */
  private visibleColumns(): number[] {
    const all = this.opts.columns.map((_, i) => i);
    if (!this.virtualColumns) return all;
    const from = this.element.scrollLeft - COLUMN_OVERSCAN;
    const to = this.element.scrollLeft + this.element.clientWidth + COLUMN_OVERSCAN;
    return all.filter((i) => {
      const c = this.opts.columns[i]!;
      const l = this.columnLeft[i]!;
      return (c.className ?? '').includes('sticky') || (l + c.width >= from && l <= to);
    });
  }

  private render(): void {
    if (this.destroyed) return;
    // Each frame's work is a `scry:vt-render` performance measure, so a profiler or the benchmark can read it.
    const start = performance.now();
    this.renderRows();
    performance.measure('scry:vt-render', { start, end: performance.now() });
  }

  private renderRows(): void {
    const [first, last] = this.visibleRange();
    const columns = this.visibleColumns();
    const window = columns.length === 0 ? '' : `${columns[0]}:${columns[columns.length - 1]}`;
    if (window !== this.columnWindow) {
      // Scrolled sideways past the built columns: rebuild the rows in view with the new ones.
      this.columnWindow = window;
      this.visibleCols = columns;
      for (const row of this.rows.values()) row.el.remove();
      this.rows.clear();
    }
    for (const [i, row] of this.rows) {
      if (i < first || i > last) {
        row.el.remove();
        this.rows.delete(i);
      }
    }
    const size = this.opts.pageSize;
    const wanted = new Set<number>();
    for (let i = first; i <= last; i++) {
      const page = Math.floor(i / size);
      const data = this.pages.get(page);
      if (!data) wanted.add(page);
      const existing = this.rows.get(i);
      if (existing && (existing.loaded || !data)) continue;
      const el = data ? this.buildRow(data[i - page * size]!, i) : this.placeholder(i);
      if (existing) existing.el.replaceWith(el);
      else this.body.appendChild(el);
      this.rows.set(i, { el, loaded: data !== undefined });
    }
    for (const [page, controller] of this.pending) {
      if (!wanted.has(page)) {
        controller.abort();
        this.pending.delete(page);
      }
    }
    for (const page of wanted) {
      if (this.pending.size >= MAX_IN_FLIGHT) break;
      if (!this.pending.has(page)) this.fetchPage(page);
    }
  }

  private fetchPage(page: number): void {
    const controller = new AbortController();
    this.pending.set(page, controller);
    const size = this.opts.pageSize;
    const offset = page * size;
    this.requests++;
    this.opts
      .load(offset, Math.min(size, this.opts.total - offset), controller.signal)
      .then((rows) => {
        if (this.pending.get(page) !== controller) return;
        this.pending.delete(page);
        this.pages.set(page, rows);
        if (this.pages.size > MAX_CACHED_PAGES) this.pages.delete(this.pages.keys().next().value!);
        const waiting = this.pendingActivate;
        if (waiting >= 0 && Math.floor(waiting / size) === page && rows[waiting - offset] !== undefined) {
          this.pendingActivate = -1;
          if (this.selectedIndex === waiting) this.opts.onActivate?.(rows[waiting - offset]!, waiting, true);
        }
        this.schedule();
      })
      .catch((e: unknown) => {
        if (this.pending.get(page) === controller) this.pending.delete(page);
        if ((e as Error).name !== 'AbortError') console.error(e);
      })
      .finally(() => this.schedule());
  }

  private position(el: HTMLElement, index: number): void {
    el.style.transform = `translateY(${index * this.opts.rowHeight}px)`;
    el.setAttribute('aria-rowindex', String(index + 1));
  }

  private buildRow(row: R, index: number): HTMLDivElement {
    const el = h('div', { class: index === this.selectedIndex ? 'vt-row selected' : 'vt-row', role: 'row', 'data-index': index });
    for (const i of this.visibleCols) {
      const c = this.opts.columns[i]!;
      const cell = h('div', { class: `vt-cell ${c.className ?? ''}${i === this.cursorColumn && index === this.selectedIndex ? ' cursor' : ''}`, role: 'gridcell', 'data-col': i });
      if (this.virtualColumns) {
        cell.style.gridColumn = String(i + 1);
        cell.style.gridRow = '1';
      }
      const content = c.cell(row, index);
      if (typeof content === 'string') cell.textContent = content;
      else cell.appendChild(content);
      el.appendChild(cell);
    }
    this.position(el, index);
    el.addEventListener('click', (e) => {
      const col = (e.target as HTMLElement).closest('.vt-cell')?.getAttribute('data-col');
      if (col !== null && col !== undefined) this.cursorColumn = Number(col);
      this.opts.onActivate?.(row, index, false);
    });
    el.addEventListener('dblclick', (e) => {
      const col = (e.target as HTMLElement).closest('.vt-cell')?.getAttribute('data-col');
      if (this.opts.onCellView && col !== null && col !== undefined) this.opts.onCellView(row, index, Number(col));
    });
    return el;
  }

  private placeholder(index: number): HTMLDivElement {
    const el = h('div', { class: 'vt-row loading', role: 'row' }, h('div', { class: 'vt-cell' }, h('span', { class: 'shimmer' })));
    this.position(el, index);
    return el;
  }

  /** The loaded row at `index`, if its page has arrived. */
  private rowAt(index: number): R | undefined {
    return this.pages.get(Math.floor(index / this.opts.pageSize))?.[index % this.opts.pageSize];
  }

  /** Moves the cell cursor to column `i` (scrolled into view) on the selected row. */
  private moveCursor(i: number): void {
    this.cursorColumn = Math.max(0, Math.min(this.opts.columns.length - 1, i));
    const c = this.opts.columns[this.cursorColumn]!;
    if (!(c.className ?? '').includes('sticky') && c.width > 0) {
      const sticky = this.opts.columns.filter((x) => (x.className ?? '').includes('sticky')).reduce((n, x) => n + x.width, 0);
      const left = this.columnLeft[this.cursorColumn]!;
      if (left - sticky < this.element.scrollLeft) this.element.scrollLeft = Math.max(0, left - sticky);
      else if (left + c.width > this.element.scrollLeft + this.element.clientWidth) this.element.scrollLeft = left + c.width - this.element.clientWidth;
    }
    this.showCursor();
  }

  private showCursor(): void {
    this.body.querySelectorAll('.vt-cell.cursor').forEach((el) => el.classList.remove('cursor'));
    if (this.cursorColumn < 0) return;
    const row = this.rows.get(this.selectedIndex)?.el;
    const cell = row?.querySelector(`.vt-cell[data-col="${this.cursorColumn}"]`);
    cell?.classList.add('cursor');
  }

  private onKey(e: KeyboardEvent): void {
    const total = this.opts.total;
    const current = this.selectedIndex < 0 ? 0 : this.selectedIndex;
    let next: number | undefined;
    switch (e.key) {
      case 'ArrowDown':
        next = current + (this.selectedIndex < 0 ? 0 : 1);
        break;
      case 'ArrowUp':
        next = current - 1;
        break;
      case 'PageDown':
        next = current + 20;
        break;
      case 'PageUp':
        next = current - 20;
        break;
      case 'Home':
        next = 0;
        break;
      case 'End':
        next = total - 1;
        break;
      case 'ArrowRight':
      case 'ArrowLeft':
        e.preventDefault();
        this.moveCursor((this.cursorColumn < 0 ? 0 : this.cursorColumn) + (e.key === 'ArrowRight' ? 1 : -1));
        return;
      case 'Enter': {
        const row = this.rowAt(current);
        if (row !== undefined) {
          e.preventDefault();
          this.opts.onActivate?.(row, current, false);
        }
        return;
      }
      case ' ': {
        const row = this.rowAt(current);
        if (row !== undefined && this.opts.onCellView) {
          e.preventDefault();
          this.opts.onCellView(row, current, this.cursorColumn < 0 ? 0 : this.cursorColumn);
        }
        return;
      }
      case 'Escape':
        this.opts.onEscape?.();
        return;
      default:
        return;
    }
    if (total === 0) return;
    e.preventDefault();
    next = Math.max(0, Math.min(total - 1, next));
    this.select(next);
    const row = this.rowAt(next);
    if (row !== undefined) this.opts.onActivate?.(row, next, true);
    else this.pendingActivate = next;
  }
}
