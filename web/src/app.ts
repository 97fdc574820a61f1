/** What every view can reach: navigation, the session, edit mode and small shared caches. */
import type { CategoryDetail, CategorySummary, FileInfo, SessionInfo } from '../../src/server/api-types.ts';
import { get } from './api.ts';
import { formatRoute, type Route } from './routes.ts';

export interface App {
  session: SessionInfo;
  /** Goes to a route (a new history entry unless `replace`). */
  navigate(route: Route, options?: { replace?: boolean; silent?: boolean }): void;
  /** Goes back through this tab's workbench history; on its first page, to `fallback` instead of leaving the app. */
  back(fallback: Route): void;
  /** Whether edit mode is on (typed editors in the record view). */
  editMode: boolean;
  /** Called after edits change, to refresh the badge and the views. */
  editsChanged(file: string): void;
  /** Adds a file the server now serves (saved or extracted) to the session and the file menu. */
  addFile(file: FileInfo): void;
  /** Shows a short message at the bottom of the window. */
  toast(message: string, kind?: 'info' | 'error'): void;
}

/** Click handler for an in-app link: plain clicks navigate, modified clicks open the URL normally. */
export function link(app: App, route: Route, ...children: (Node | string)[]): HTMLAnchorElement {
  const a = document.createElement('a');
  a.href = formatRoute(route);
  a.append(...children);
  a.addEventListener('click', (e) => {
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    app.navigate(route);
  });
  return a;
}

const categoryLists = new Map<string, Promise<CategorySummary[]>>();
const categoryDetails = new Map<string, Promise<CategoryDetail>>();

/** The categories of a file (fetched once per page load: a few thousand small entries). */
export function categoriesOf(file: string): Promise<CategorySummary[]> {
  let p = categoryLists.get(file);
  if (!p) {
    p = get<CategorySummary[]>(['files', file, 'categories']);
    p.catch(() => categoryLists.delete(file));
    categoryLists.set(file, p);
  }
  return p;
}

/** Listeners told when names were added (views that cache labels drop them). */
const namesListeners: (() => void)[] = [];

/** Registers a cache to clear when names are added. */
export function onNamesChanged(listener: () => void): void {
  namesListeners.push(listener);
}

/** Names were added: every cached label (category columns, sd2 tables) is stale. */
export function namesChanged(): void {
  categoryDetails.clear();
  for (const l of namesListeners) l();
}

/** A category's columns. */
export function categoryDetail(file: string, category: string): Promise<CategoryDetail> {
  const key = `${file}\u0000${category}`;
  let p = categoryDetails.get(key);
  if (!p) {
    p = get<CategoryDetail>(['files', file, 'categories', category]);
    p.catch(() => categoryDetails.delete(key));
    categoryDetails.set(key, p);
  }
  return p;
}
