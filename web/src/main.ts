/**
 * The workbench page: a top bar (file, search, hash tool, edit mode), the category list of the current file, and
 * the view of the current URL. Navigation is `history.pushState`; every view renders from its URL alone.
 */
import type { EditList, FileInfo, SessionInfo } from '../../src/server/api-types.ts';
import { get } from './api.ts';
import { categoriesOf, link, type App } from './app.ts';
import { h, mount } from './dom.ts';
import { VIEW_EXTENSIONS, formatRoute, parseRoute, type ExtensionView, type Route } from './routes.ts';
import { CategoryView } from './views/category.ts';
import { editsView, hashView, homeView, overviewView, searchView } from './views/pages.ts';
import { Sd2TableView, sd2Overview, sd2OverviewView, sd2SearchView } from './views/sd2.ts';
import { archEntryView, archOverview, archOverviewView, archSearchView, archTree } from './views/arch.ts';
import { ScriptListingView, scriptOverviewView, scriptSearchView } from './views/script.ts';
import { changesOverviewView } from './views/conflicts.ts';
import type { ArchTreeRow } from '../../src/server/api-types.ts';
import { VirtualTable } from './virtual-table.ts';
import { SideList, type SideItem } from './side-list.ts';

const root = document.getElementById('app')!;

/** What the search box searches, by the kind of the file on screen. */
const SEARCH_PLACEHOLDER: Record<string, string> = {
  gadb: 'Search names, 0x… hashes, numbers, text values   /',
  sd2: 'Search tables, columns, ids, values   /',
  arch06: 'Search entry paths   /',
  hks: 'Search the listing   /',
};

class Workbench implements App {
  session!: SessionInfo;
  editMode = sessionStorage.getItem('scry.editMode') === '1';
  private route: Route = { view: 'home' };
  private readonly fileSelect = h('select', { class: 'file-select', 'aria-label': 'file' });
  private readonly search = h('input', { class: 'search', type: 'search', placeholder: 'Search', spellcheck: 'false', 'aria-label': 'search' });
  private readonly editToggle = h('button', { class: 'toggle', title: 'Edit mode: typed editors in the record view' }, 'Edit');
  private readonly editsBadge = h('a', { class: 'edits-badge', href: '#' }, '');
  private readonly side = h('aside', { class: 'side', 'aria-label': 'side panel' });
  /** Shows or hides the side panel: docked in a wide window (remembered), over the view in a narrow one. */
  private readonly sideToggle = h('button', { class: 'icon side-toggle', title: 'Side panel ([)', 'aria-label': 'side panel', 'aria-expanded': 'true' }, '☰');
  private readonly main = h('main', { class: 'main' });
  private readonly toastHost = h('div', { class: 'toasts', 'aria-live': 'polite' });
  private sideFile: string | undefined;
  private sideList: SideList | undefined;
  private categoryView: CategoryView | undefined;
  private sd2View: Sd2TableView | undefined;
  private listingView: ScriptListingView | undefined;
  private archSide: { file: string; tree: VirtualTable<ArchTreeRow> } | undefined;
  /** The extension view on screen, released when another view replaces it. */
  private extView: ExtensionView | undefined;
  /** Tabs of the current file (built-in views of its kind and extension views). */
  private readonly fileTabs = h('nav', { class: 'file-tabs', 'aria-label': 'views of this file' });
  private renderToken = 0;

  async start(): Promise<void> {
    this.session = await get<SessionInfo>(['session']);
    this.fillFileSelect();
    this.fileSelect.addEventListener('change', () => {
      if (this.fileSelect.value !== '') this.navigate({ view: 'file', file: this.fileSelect.value });
    });
    // The history entries this tab made inside the workbench: ← goes back through them, never out of the app.
    if (typeof history.state?.depth !== 'number') history.replaceState({ depth: 0 }, '');
    this.search.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') {
        // The box searches the file on screen, whatever its kind; with no file there is nothing to search.
        const file = this.currentFile();
        if (file !== undefined && this.search.value.trim() !== '') this.navigate({ view: 'search', file, q: this.search.value });
      }
      if (e.key === 'Escape') this.search.blur();
      // from the box to the results: ↓ focuses the first hit (↑/↓ move between hits, Enter opens one)
      if (e.key === 'ArrowDown') {
        const first = document.querySelector<HTMLAnchorElement>('.search .hits a');
        if (first) {
          e.preventDefault();
          first.focus();
        }
      }
    });
    this.editToggle.addEventListener('click', () => {
      this.editMode = !this.editMode;
      sessionStorage.setItem('scry.editMode', this.editMode ? '1' : '0');
      this.syncChrome();
      void this.render(true);
    });
    this.editsBadge.addEventListener('click', (e) => {
      e.preventDefault();
      const file = this.currentFile();
      if (file) this.navigate({ view: 'edits', file });
    });
    this.sideToggle.addEventListener('click', () => this.toggleSide());
    document.body.classList.toggle('side-hidden', localStorage.getItem('scry.sideHidden') === '1');
    this.side.addEventListener('click', (e) => {
      // in a narrow window the panel covers the view: choosing something in it closes it
      if ((e.target as HTMLElement).closest('a') && window.innerWidth < 1280) this.toggleSide(false);
    });
    document.addEventListener('keydown', (e) => {
      const target = e.target as HTMLElement;
      const typing = target.tagName === 'INPUT' || target.tagName === 'TEXTAREA' || target.tagName === 'SELECT';
      if (e.key === '/' && !typing) {
        e.preventDefault();
        this.search.focus();
        this.search.select();
      }
      if (e.key === '[' && !typing) {
        e.preventDefault();
        this.toggleSide();
      }
      // e: edit mode on or off (GameDB files)
      if (e.key === 'e' && !typing && !e.ctrlKey && !e.metaKey && !e.altKey && !this.editToggle.hidden) {
        e.preventDefault();
        this.editToggle.click();
      }
      // Ctrl+S: to the staged edits, the file name ready (Enter saves)
      if (e.key === 's' && (e.ctrlKey || e.metaKey) && !e.altKey && !this.editToggle.hidden) {
        const file = this.currentFile();
        if (file !== undefined) {
          e.preventDefault();
          this.navigate({ view: 'edits', file });
        }
      }
    });
    window.addEventListener('popstate', () => void this.render());
    mount(
      root,
      h(
        'header',
        { class: 'top' },
        this.sideToggle,
        link(this, { view: 'home' }, h('img', { src: '/assets/icon.svg', alt: '', width: 22, height: 22 }), h('span', null, 'scry')),
        this.fileSelect,
        this.fileTabs,
        this.search,
        link(this, { view: 'hash' }, '#', h('span', null, ' Hash')),
        VIEW_EXTENSIONS.filter((x) => x.scope === 'global').map((x) => link(this, { view: 'ext', segment: x.segment, rest: [], query: '' }, x.label)),
        this.editsBadge,
        this.editToggle,
      ),
      h('div', { class: 'shell' }, this.side, this.main),
      this.toastHost,
    );
    root.classList.remove('boot');
    await this.render();
  }

  navigate(route: Route, options: { replace?: boolean; silent?: boolean } = {}): void {
    const url = formatRoute(route);
    if (url !== location.pathname + location.search) {
      const depth = typeof history.state?.depth === 'number' ? (history.state.depth as number) : 0;
      if (options.replace) history.replaceState({ depth }, '', url);
      else history.pushState({ depth: depth + 1 }, '', url);
    }
    if (!options.silent) void this.render();
  }

  back(fallback: Route): void {
    // The first page of this tab (a link opened from elsewhere): back would leave the workbench.
    if (typeof history.state?.depth === 'number' && history.state.depth > 0) history.back();
    else this.navigate(fallback, { replace: true });
  }

  editsChanged(file: string): void {
    void this.refreshEdits(file);
    if (this.route.view === 'edits') void this.render(true);
  }

  addFile(file: FileInfo): void {
    this.session.files.push(file);
    this.fillFileSelect();
    this.fileSelect.value = this.currentFile() ?? '';
  }

  /** The file menu: a prompt when no file is open, then every file, labelled so no two read the same. */
  private fillFileSelect(): void {
    const label = (f: FileInfo): string => {
      const from = f.savedFrom !== undefined ? this.session.files.find((x) => x.id === f.savedFrom)?.name : undefined;
      if (f.origin === 'extracted' && from !== undefined) return `${f.name} (from ${from})`;
      if (f.patchOf !== undefined) return `${f.name} (patch)`;
      return f.name;
    };
    const labels = this.session.files.map(label);
    mount(
      this.fileSelect,
      h('option', { value: '', disabled: true }, 'Choose a file…'),
      this.session.files.map((f, i) => h('option', { value: f.id }, labels.indexOf(labels[i]!) !== i || labels.lastIndexOf(labels[i]!) !== i ? `${labels[i]} [${f.id}]` : labels[i]!)),
    );
  }

  toast(message: string, kind: 'info' | 'error' = 'info'): void {
    // The same message twice (Enter, then the field losing focus) is one toast, shown a little longer.
    const same = Array.from(this.toastHost.children).find((t) => t.textContent === message && t.classList.contains(kind)) as (HTMLElement & { timer?: ReturnType<typeof setTimeout> }) | undefined;
    const el = same ?? (h('div', { class: `toast ${kind}`, role: kind === 'error' ? 'alert' : 'status' }, message) as HTMLElement & { timer?: ReturnType<typeof setTimeout> });
    if (!same) this.toastHost.appendChild(el);
    while (this.toastHost.children.length > 3) this.toastHost.firstElementChild!.remove();
    if (el.timer !== undefined) clearTimeout(el.timer);
    el.timer = setTimeout(() => el.remove(), kind === 'error' ? 6000 : 2500);
  }

  private currentFile(): string | undefined {
    return 'file' in this.route ? this.route.file : undefined;
  }

  private syncChrome(): void {
    this.editToggle.classList.toggle('on', this.editMode);
    this.editToggle.setAttribute('aria-pressed', String(this.editMode));
    document.body.classList.toggle('editing', this.editMode);
  }

  private async refreshEdits(file: string): Promise<void> {
    try {
      const list = await get<EditList>(['files', file, 'edits']);
      this.editsBadge.textContent = list.edits.length > 0 ? `${list.edits.length} staged` : '';
      this.editsBadge.classList.toggle('visible', list.edits.length > 0);
    } catch {
      this.editsBadge.classList.remove('visible');
    }
  }

  private async render(force = false): Promise<void> {
    const token = ++this.renderToken;
    const route = parseRoute(location.pathname, location.search);
    const previous = this.route;
    this.route = route;
    this.syncChrome();
    const file = this.currentFile();
    this.fileSelect.value = file ?? '';
    if (route.view === 'search') this.search.value = route.q;
    const info = file !== undefined ? this.session.files.find((f) => f.id === file) : undefined;
    const kind = info?.kind;
    if (file !== undefined && kind === 'gadb') {
      if (file !== this.sideFile || force) void this.refreshEdits(file);
      void this.renderSide(file, route.view === 'category' ? route.category : undefined);
    } else if (file !== undefined && kind === 'sd2') {
      this.editsBadge.classList.remove('visible');
      void this.renderSd2Side(file, route.view === 'sd2table' ? route.table : undefined);
    } else if (file !== undefined && kind === 'arch06') {
      this.editsBadge.classList.remove('visible');
      void this.renderArchSide(file);
    } else {
      this.sideFile = undefined;
      this.editsBadge.classList.remove('visible');
      mount(this.side);
    }
    if (kind !== 'arch06' || file === undefined) {
      this.archSide?.tree.destroy();
      this.archSide = undefined;
    }
    document.body.classList.toggle('with-side', file !== undefined && (kind === 'gadb' || kind === 'sd2' || kind === 'arch06'));
    // Editing is for GameDB files; other kinds are read-only here, and with no file there is nothing to edit.
    this.editToggle.hidden = kind !== 'gadb';
    this.search.disabled = file === undefined;
    this.search.placeholder = file === undefined ? 'Open a file to search it' : SEARCH_PLACEHOLDER[kind ?? ''] ?? 'Search';
    if (route.view !== 'sd2table') {
      this.sd2View?.destroy();
      this.sd2View = undefined;
    }
    if (route.view !== 'listing') {
      this.listingView?.destroy();
      this.listingView = undefined;
    }
    this.extView?.destroy();
    this.extView = undefined;
    this.renderFileTabs(route, kind);
    try {
      if (route.view === 'listing') {
        if (!force && this.listingView && this.listingView.file === route.file) {
          this.listingView.select(route.line);
          return;
        }
        this.listingView?.destroy();
        this.categoryView?.destroy();
        this.categoryView = undefined;
        const view = new ScriptListingView(this, route.file);
        this.listingView = view;
        mount(this.main, view.element);
        document.title = `listing · ${route.file} · scry`;
        await view.load(route.line);
        return;
      }
      if (route.view === 'sd2table') {
        if (!force && this.sd2View && this.sd2View.file === route.file && this.sd2View.table === route.table) {
          this.sd2View.select(route.row);
          return;
        }
        this.sd2View?.destroy();
        this.categoryView?.destroy();
        this.categoryView = undefined;
        const view = new Sd2TableView(this, route.file, route.table);
        this.sd2View = view;
        mount(this.main, view.element);
        document.title = `${route.table} · ${route.file} · scry`;
        await view.load(route.row);
        return;
      }
      if (route.view === 'category') {
        const reuse = !force && previous.view === 'category' && this.categoryView && this.categoryView.file === route.file && this.categoryView.category === route.category;
        if (!reuse) {
          this.categoryView?.destroy();
          const view = new CategoryView(this, route.file, route.category);
          this.categoryView = view;
          mount(this.main, view.element);
          await view.load(route.table ?? {});
        }
        if (token !== this.renderToken) return;
        document.title = `${route.record !== undefined ? route.record + ' · ' : ''}${route.category} · scry`;
        await this.categoryView!.show(route);
        return;
      }
      this.categoryView?.destroy();
      this.categoryView = undefined;
      let view: HTMLElement;
      switch (route.view) {
        case 'home':
          view = homeView(this);
          document.title = 'scry workbench';
          break;
        case 'file':
          view = kind === 'sd2' ? await sd2OverviewView(this, route.file) : kind === 'arch06' ? await archOverviewView(this, route.file) : kind === 'hks' ? await scriptOverviewView(this, route.file) : kind === 'changes' ? await changesOverviewView(this, route.file) : await overviewView(this, route.file);
          document.title = `${route.file} · scry`;
          break;
        case 'search':
          view =
            kind === 'sd2'
              ? await sd2SearchView(this, route.file, route.q)
              : kind === 'arch06'
                ? await archSearchView(this, route.file, route.q)
                : kind === 'hks'
                  ? await scriptSearchView(this, route.file, route.q)
                  : await searchView(this, route.file, route.q);
          document.title = `${route.q} · search · scry`;
          break;
        case 'entry': {
          const shown = await archEntryView(this, route.file, route.entry);
          view = shown.element;
          document.title = `${route.entry} · ${route.file} · scry`;
          if (token === this.renderToken && this.archSide?.file === route.file && shown.treeRow >= 0) this.archSide.tree.select(shown.treeRow);
          break;
        }
        case 'edits':
          view = await editsView(this, route.file);
          document.title = `edits · ${route.file} · scry`;
          break;
        case 'hash':
          view = hashView(this, route.text, route.hash);
          document.title = 'hash · scry';
          break;
        case 'ext': {
          const ext = VIEW_EXTENSIONS.find((x) => x.segment === route.segment && (x.scope === 'file') === (route.file !== undefined));
          if (!ext) throw new Error(`no view ${route.segment}`);
          const shown = await (await ext.load()).render(this, route);
          view = shown instanceof HTMLElement ? shown : shown.element;
          if (token !== this.renderToken) {
            if (!(shown instanceof HTMLElement)) shown.destroy();
            return;
          }
          if (!(shown instanceof HTMLElement)) this.extView = shown;
          document.title = `${ext.label}${route.file !== undefined ? ` · ${route.file}` : ''} · scry`;
          break;
        }
        case 'missing':
          view = h('div', { class: 'page' }, h('h2', null, 'No such view'), h('p', { class: 'mono' }, route.path));
          break;
      }
      if (token === this.renderToken) mount(this.main, view);
    } catch (e) {
      if (token === this.renderToken) mount(this.main, h('div', { class: 'page' }, h('div', { class: 'error' }, (e as Error).message)));
    }
  }

  private async renderSide(file: string, category: string | undefined): Promise<void> {
    if (this.sideFile !== file || !this.sideList) {
      this.sideFile = file;
      this.sideList?.destroy();
      this.sideList = undefined;
      mount(this.side, h('div', { class: 'muted pad' }, 'Loading categories…'));
      const all = await categoriesOf(file);
      if (this.sideFile !== file) return;
      const items = all.map((c) => ({ name: c.name, count: c.recordCount, ordinal: c.ordinal }));
      this.mountSideList(file, items, 'categories', (c) => ({ view: 'category', file, category: c.name }), this.currentCategory());
      return;
    }
    this.sideList.select(category);
  }

  /** The sidebar of an sd2 file: its tables, filterable. */
  private async renderSd2Side(file: string, table: string | undefined): Promise<void> {
    if (this.sideFile === file && this.sideList) {
      this.sideList.select(table);
      return;
    }
    this.sideFile = file;
    this.sideList?.destroy();
    this.sideList = undefined;
    mount(this.side, h('div', { class: 'muted pad' }, 'Loading tables…'));
    const o = await sd2Overview(file);
    if (this.sideFile !== file) return;
    const items = o.tables.map((t) => ({ name: t.label, count: t.rowCount, ordinal: t.index }));
    this.mountSideList(file, items, 'tables', (c) => ({ view: 'sd2table', file, table: c.name }), this.route.view === 'sd2table' ? this.route.table : undefined);
  }

  /** Mounts the sidebar's Overview link and the sorted, grouped, filterable list of `items`. */
  private mountSideList(file: string, items: SideItem[], noun: string, routeOf: (c: SideItem) => Route, current: string | undefined): void {
    const overview = link(this, { view: 'file', file }, 'Overview');
    overview.className = 'side-overview';
    const list = new SideList(this, items, { noun, routeOf, storageKey: file, ...(current !== undefined ? { current } : {}) });
    this.sideList = list;
    mount(this.side, overview, list.element);
  }

  /** The sidebar of an archive: its folder tree, paged from the server. */
  private async renderArchSide(file: string): Promise<void> {
    if (this.sideFile === file && this.archSide?.file === file) return;
    this.sideFile = file;
    this.sideList?.destroy();
    this.sideList = undefined;
    this.archSide?.tree.destroy();
    this.archSide = undefined;
    mount(this.side, h('div', { class: 'muted pad' }, 'Loading the tree…'));
    const o = await archOverview(file);
    if (this.sideFile !== file) return;
    const tree = archTree(this, file, o.treeRows);
    this.archSide = { file, tree };
    const overview = link(this, { view: 'file', file }, 'Overview');
    overview.className = 'side-overview';
    mount(this.side, overview, h('div', { class: 'side-list arch-tree' }, tree.element));
  }

  /** Shows (`true`), hides (`false`) or flips the side panel. */
  private toggleSide(show?: boolean): void {
    const narrow = window.innerWidth < 1280;
    const body = document.body;
    if (narrow) body.classList.toggle('side-shown', show ?? !body.classList.contains('side-shown'));
    else {
      body.classList.toggle('side-hidden', show === undefined ? undefined : !show);
      localStorage.setItem('scry.sideHidden', body.classList.contains('side-hidden') ? '1' : '0');
    }
    const visible = narrow ? body.classList.contains('side-shown') : !body.classList.contains('side-hidden');
    this.sideToggle.setAttribute('aria-expanded', String(visible));
    if (visible) (this.side.querySelector('input.filter') as HTMLInputElement | null)?.focus();
  }

  /** The current file's tabs: its overview, the built-in views of its kind, and extension views for its kind. */
  private renderFileTabs(route: Route, kind: string | undefined): void {
    const file = this.currentFile();
    if (file === undefined || kind === undefined) {
      mount(this.fileTabs);
      return;
    }
    const tabs: { route: Route; label: string; current: boolean }[] = [{ route: { view: 'file', file }, label: 'Overview', current: route.view === 'file' }];
    if (kind === 'hks') tabs.push({ route: { view: 'listing', file }, label: 'Listing', current: route.view === 'listing' });
    if (kind === 'gadb') tabs.push({ route: { view: 'edits', file }, label: 'Edits', current: route.view === 'edits' });
    for (const x of VIEW_EXTENSIONS) {
      if (x.scope !== 'file' || (x.kinds !== undefined && !x.kinds.includes(kind))) continue;
      tabs.push({ route: { view: 'ext', segment: x.segment, file, rest: [], query: '' }, label: x.label, current: route.view === 'ext' && route.segment === x.segment });
    }
    mount(
      this.fileTabs,
      tabs.map((t) => {
        const a = link(this, t.route, t.label);
        if (t.current) a.setAttribute('aria-current', 'page');
        return a;
      }),
    );
  }

  private currentCategory(): string | undefined {
    return this.route.view === 'category' ? this.route.category : undefined;
  }
}

void new Workbench().start().catch((e: unknown) => mount(root, h('div', { class: 'error' }, `The workbench could not start: ${(e as Error).message}`)));
