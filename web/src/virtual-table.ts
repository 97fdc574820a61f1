/**
 * A virtual-scrolled table over rows the server pages out: only the rows in view (plus a small margin) exist in
 * the DOM, and only the pages they fall in are fetched. Rows have one fixed height, so the row under any scroll
 * position is a division away; the body is a spacer of `total × rowHeight` pixels.
 *
 * Rows are keyed by index and kept while in view, so scrolling builds only the rows that enter. Columns are
 * virtual too: a row holds cells only for the columns in view (plus sticky ones), placed on the grid by column
 * number, so a 117-field category costs a dozen cells per row, not 117. Pages that leave the view before they
 * arrive are aborted; a bounded cache keeps recently seen pages.
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
}

export interface VirtualTableOptions<R> {
  columns: Column<R>[];
  total: number;
  rowHeight?: number;
  pageSize?: number;
  load(offset: number, limit: number, signal: AbortSignal): Promise<R[]>;
  /** A row was clicked (`key` false) or reached with the arrow keys (`key` true). */
  onActivate?(row: R, index: number, key: boolean): void;
  /** Highlighted row index. */
  selected?: number;
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

  constructor(options: VirtualTableOptions<R>) {
    this.opts = { rowHeight: 26, pageSize: 100, ...options };
    this.selectedIndex = options.selected ?? -1;
    const template = this.opts.columns.map((c) => (c.width > 0 ? `${c.width}px` : 'minmax(0, 1fr)')).join(' ');
    const head = h(
      'div',
      { class: 'vt-head', role: 'row' },
      this.opts.columns.map((c) => h('div', { class: `vt-cell vt-hcell ${c.className ?? ''}`, title: c.title, role: 'columnheader' }, c.head)),
    );
    this.body = h('div', { class: 'vt-body', role: 'rowgroup' });
    this.body.style.height = `${this.opts.total * this.opts.rowHeight}px`;
    this.element = h('div', { class: 'vt', role: 'grid', 'aria-rowcount': this.opts.total, tabindex: 0 }, head, this.body);
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

  /** Scrolls so that row `index` is in view (centred when it was far away) and selects it. */
  select(index: number, scroll = true): void {
    const prev = this.rows.get(this.selectedIndex);
    prev?.el.classList.remove('selected');
    this.selectedIndex = index;
    this.rows.get(index)?.el.classList.add('selected');
    if (!scroll || index < 0) return;
    const rh = this.opts.rowHeight;
    const top = index * rh;
    const view = this.element.clientHeight - rh; // minus the sticky header
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
      const cell = h('div', { class: `vt-cell ${c.className ?? ''}`, role: 'gridcell' });
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
    el.addEventListener('click', () => this.opts.onActivate?.(row, index, false));
    return el;
  }

  private placeholder(index: number): HTMLDivElement {
    const el = h('div', { class: 'vt-row loading', role: 'row' }, h('div', { class: 'vt-cell' }, h('span', { class: 'shimmer' })));
    this.position(el, index);
    return el;
  }

  private onKey(e: KeyboardEvent): void {
    const step = e.key === 'ArrowDown' ? 1 : e.key === 'ArrowUp' ? -1 : e.key === 'PageDown' ? 20 : e.key === 'PageUp' ? -20 : 0;
    if (step !== 0) {
      e.preventDefault();
      const next = Math.max(0, Math.min(this.opts.total - 1, (this.selectedIndex < 0 ? 0 : this.selectedIndex) + step));
      this.select(next);
      const page = this.pages.get(Math.floor(next / this.opts.pageSize));
      const row = page?.[next % this.opts.pageSize];
      if (row !== undefined) this.opts.onActivate?.(row, next, true);
    }
  }
}
