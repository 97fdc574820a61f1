/**
 * GameDB routes: overview, categories, record pages, record view, referenced-by, search, edits and save. Each
 * handler maps its arguments to the `Database` of `src/gamedb`.
 */
import type { Router } from './router.ts';
import type { ApiContext } from './api.ts';

/** Registers the GameDB routes. */
export function registerGadbApi(_router: Router<ApiContext>, _context: ApiContext): void {}

/** Names equal to `hash` in the opened GameDB files and the name dictionary. */
export function gadbNamesForHash(_context: ApiContext, _hash: number): { name: string; source: string }[] {
  return [];
}
