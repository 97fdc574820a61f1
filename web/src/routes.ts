/**
 * Every view has a URL, so any view can be bookmarked, shared and reloaded:
 *
 *   /                                          the served files
 *   /f/FILE                                    overview (header, counts, verify findings)
 *   /f/FILE/c/CATEGORY                         record table
 *   /f/FILE/c/CATEGORY/r/RECORD?field=0x…      record in its table (by name; `#N` for the N-th, primaries
 *                                              first), field highlighted
 *   …/c/CATEGORY?sort=0x…&dir=desc&filter.0x…=>0.5   the table sorted and filtered (any view of the category)
 *   /f/FILE/t/TABLE?row=N                      an sd2 table (by name, 0x id or index), row selected
 *   /f/FILE/e/FOLDER/…/NAME                    an archive entry (its path, `/`-separated), tree beside it
 *   /f/FILE/e?path=…                           an entry whose path has a `.` or `..` segment
 *   /f/FILE/listing?line=N                     a script's listing (or source text), line selected
 *   /f/FILE/search?q=…                         search results
 *   /f/FILE/edits                              staged edits as a diff, and save
 *   /hash?text=… | ?hash=0x…                   hash tool
 *   /f/FILE/SEGMENT/…?…  |  /SEGMENT/…?…      a view another area adds (`VIEW_EXTENSIONS` below)
 *
 * Segments are percent-encoded (category names contain `/`).
 */
import type { App } from './app.ts';

/** What an extension view is given to render: its URL, already split. */
export interface ExtensionRoute {
  view: 'ext';
  /** The extension's `segment`. */
  segment: string;
  /** The file, for a file view (`/f/FILE/SEGMENT/…`). */
  file?: string;
  /** Path segments after the extension's own, percent-decoded. */
  rest: string[];
  /** The query string (`?a=1`), or `''`. */
  query: string;
}

/** What an extension view's module exports: a render function (and, optionally, cleanup when the view is left). */
export interface ExtensionModule {
  render(app: App, route: ExtensionRoute): Promise<HTMLElement | ExtensionView> | HTMLElement | ExtensionView;
}

/** A rendered extension view that holds resources (timers, workers, virtual tables) to release when left. */
export interface ExtensionView {
  element: HTMLElement;
  destroy(): void;
}

/**
 * A view added by another area of scry (the engine's Run tab, the Streaming page…): its own file under `views/`,
 * registered with one line in `VIEW_EXTENSIONS`. A file view is a tab of the files of its kinds
 * (`/f/FILE/SEGMENT`); a global view is a link in the top bar (`/SEGMENT`). The module is loaded on first use
 * (`load: () => import('./views/x.ts')`), which also keeps import cycles out of this file.
 */
export interface ViewExtension {
  /** URL segment; must not be one of the built-in segments (c, t, e, listing, search, edits, hash, f). */
  segment: string;
  scope: 'file' | 'global';
  /** Tab or link text. */
  label: string;
  /** File kinds the tab is shown for (file views; every kind when absent). */
  kinds?: readonly string[];
  load(): Promise<ExtensionModule>;
}

/** Every extension view: one line each, e.g.
 *  `{ segment: 'run', scope: 'file', kinds: ['hks'], label: 'Run', load: () => import('./views/run.ts') },` */
export const VIEW_EXTENSIONS: readonly ViewExtension[] = [
  { segment: 'streaming', scope: 'file', kinds: ['gadb'], label: 'Streaming', load: () => import('./views/streaming.ts') },
  { segment: 'run', scope: 'file', kinds: ['hks'], label: 'Run', load: () => import('./views/run.ts') },
  { segment: 'conflicts', scope: 'file', kinds: ['gadb'], label: 'Conflicts', load: () => import('./views/conflicts.ts') },
];

const BUILTIN_FILE_SEGMENTS = new Set(['c', 't', 'e', 'listing', 'search', 'edits']);
const BUILTIN_GLOBAL_SEGMENTS = new Set(['f', 'hash', 'api', 'assets']);

/** The extension registered for a URL segment and scope, if any. */
export function findExtension(scope: 'file' | 'global', segment: string): ViewExtension | undefined {
  const builtin = scope === 'file' ? BUILTIN_FILE_SEGMENTS : BUILTIN_GLOBAL_SEGMENTS;
  if (builtin.has(segment)) return undefined;
  return VIEW_EXTENSIONS.find((x) => x.scope === scope && x.segment === segment);
}

export type Route =
  | { view: 'home' }
  | { view: 'hash'; text?: string; hash?: string }
  | { view: 'file'; file: string }
  /** `table`: the record table's sort and filters (`sort`, `dir`, `filter.COLUMN` query parameters). */
  | { view: 'category'; file: string; category: string; record?: string; field?: string; table?: Record<string, string> }
  | { view: 'sd2table'; file: string; table: string; row?: number }
  | { view: 'entry'; file: string; entry: string }
  | { view: 'listing'; file: string; line?: number }
  | { view: 'search'; file: string; q: string }
  | { view: 'edits'; file: string }
  | ExtensionRoute
  | { view: 'missing'; path: string };

const enc = encodeURIComponent;

export function parseRoute(pathname: string, search: string): Route {
  const q = new URLSearchParams(search);
  let parts: string[];
  try {
    parts = pathname.split('/').filter((s) => s.length > 0).map(decodeURIComponent);
  } catch {
    return { view: 'missing', path: pathname };
  }
  if (parts.length === 0) return { view: 'home' };
  if (parts[0] === 'hash' && parts.length === 1) {
    const r: Route = { view: 'hash' };
    const text = q.get('text');
    const hash = q.get('hash');
    if (text !== null) r.text = text;
    if (hash !== null) r.hash = hash;
    return r;
  }
  const globalExt = findExtension('global', parts[0]!);
  if (globalExt) return { view: 'ext', segment: globalExt.segment, rest: parts.slice(1), query: search === '?' ? '' : search };
  if (parts[0] === 'f' && parts.length >= 2) {
    const file = parts[1]!;
    if (parts.length === 2) return { view: 'file', file };
    const fileExt = findExtension('file', parts[2]!);
    if (fileExt) return { view: 'ext', segment: fileExt.segment, file, rest: parts.slice(3), query: search === '?' ? '' : search };
    if (parts[2] === 'search' && parts.length === 3) return { view: 'search', file, q: q.get('q') ?? '' };
    if (parts[2] === 'edits' && parts.length === 3) return { view: 'edits', file };
    if (parts[2] === 'e' && parts.length >= 4) return { view: 'entry', file, entry: parts.slice(3).join('/') };
    // an entry path with a `.` or `..` segment travels in the query (a browser would resolve it in the path)
    if (parts[2] === 'e' && parts.length === 3 && q.get('path') !== null) return { view: 'entry', file, entry: q.get('path')! };
    if (parts[2] === 'listing' && parts.length === 3) {
      const r: Route = { view: 'listing', file };
      const line = q.get('line');
      if (line !== null && /^\d+$/.test(line)) r.line = Number(line);
      return r;
    }
    if (parts[2] === 't' && parts.length === 4) {
      const r: Route = { view: 'sd2table', file, table: parts[3]! };
      const row = q.get('row');
      if (row !== null && /^\d+$/.test(row)) r.row = Number(row);
      return r;
    }
    if (parts[2] === 'c' && parts.length >= 4) {
      const r: Route = { view: 'category', file, category: parts[3]! };
      if (parts.length === 6 && parts[4] === 'r') r.record = parts[5]!;
      else if (parts.length !== 4) return { view: 'missing', path: pathname };
      const field = q.get('field');
      if (field !== null) r.field = field;
      const table: Record<string, string> = {};
      for (const [k, v] of q) if (k === 'sort' || k === 'dir' || k.startsWith('filter.')) table[k] = v;
      if (Object.keys(table).length > 0) r.table = table;
      return r;
    }
  }
  return { view: 'missing', path: pathname };
}

export function formatRoute(r: Route): string {
  switch (r.view) {
    case 'home':
      return '/';
    case 'hash': {
      const q = new URLSearchParams();
      if (r.text !== undefined) q.set('text', r.text);
      else if (r.hash !== undefined) q.set('hash', r.hash);
      const s = q.toString();
      return s ? `/hash?${s}` : '/hash';
    }
    case 'file':
      return `/f/${enc(r.file)}`;
    case 'search':
      return `/f/${enc(r.file)}/search?q=${enc(r.q)}`;
    case 'edits':
      return `/f/${enc(r.file)}/edits`;
    case 'entry': {
      const segments = r.entry.split(/[\\/]/);
      // Browsers resolve `.` and `..` segments (percent-encoded too) before the page sees the URL.
      if (segments.some((x) => x === '.' || x === '..' || x === '')) return `/f/${enc(r.file)}/e?path=${enc(r.entry)}`;
      return `/f/${enc(r.file)}/e/${segments.map(enc).join('/')}`;
    }
    case 'listing':
      return `/f/${enc(r.file)}/listing${r.line !== undefined ? `?line=${r.line}` : ''}`;
    case 'sd2table':
      return `/f/${enc(r.file)}/t/${enc(r.table)}${r.row !== undefined ? `?row=${r.row}` : ''}`;
    case 'category': {
      let s = `/f/${enc(r.file)}/c/${enc(r.category)}`;
      if (r.record !== undefined) s += `/r/${enc(r.record)}`;
      const q = new URLSearchParams();
      if (r.field !== undefined) q.set('field', r.field);
      for (const [k, v] of Object.entries(r.table ?? {})) q.set(k, v);
      const qs = q.toString().replace(/\+/g, '%20');
      return qs ? `${s}?${qs}` : s;
    }
    case 'ext': {
      const tail = [r.segment, ...r.rest].map(enc).join('/');
      return `${r.file !== undefined ? `/f/${enc(r.file)}/` : '/'}${tail}${r.query}`;
    }
    case 'missing':
      return r.path;
  }
}

/** The route of a record reference. */
export function recordRoute(file: string, ref: { category: string; label: string }, field?: string, table?: Record<string, string>): Route {
  const r: Route = { view: 'category', file, category: ref.category, record: ref.label };
  if (field !== undefined) r.field = field;
  if (table !== undefined && Object.keys(table).length > 0) r.table = table;
  return r;
}
