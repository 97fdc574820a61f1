/**
 * The workbench JSON API: one route per view, each mapping its arguments to library calls. Kind-specific routes
 * live beside this file (`api-gadb.ts`, …) and register themselves here.
 */
import { HashError, UsageError } from '../binary/errors.ts';
import { p919 } from '../hash/p919.ts';
import { hex32 } from '../binary/text.ts';
import type { Router } from './router.ts';
import type { Workspace } from './workspace.ts';
import type { HashAnswer, SessionInfo } from './api-types.ts';
import { registerGadbApi, gadbNamesForHash } from './api-gadb.ts';
import { registerSd2Api } from './api-sd2.ts';
import { registerArchApi } from './api-arch.ts';
import { registerScriptApi } from './api-script.ts';
import { registerDecompileApi } from './api-decompile.ts';
import { registerStreamingApi } from './api-streaming.ts';
import { registerEngineApi } from './api-engine.ts';
import { registerNamesApi } from './api-names.ts';
import { registerConflictsApi } from './api-conflicts.ts';
import type { WorkbenchNames } from './names.ts';
import type { WorkbenchState } from './state.ts';

/** What every handler can reach. */
export interface ApiContext {
  workspace: Workspace;
  /** Folder for every saved file (`scry serve --out`); when undefined, a file is saved beside its source. */
  outDir: string | undefined;
  /** Folder for files saved from the bundled samples (the cache folder), which are not saved beside the repo's fixtures. */
  sampleOutDir: string;
  /** The names of this run: GameDB field names and sd2 names, shared by every served file. */
  names: WorkbenchNames;
  /** Files at least this large are analysed, indexed and cracked in worker threads (`WORKER_THRESHOLD`). */
  workerThreshold: number;
  /** What the run keeps in its work folder (saved files, staged edits). */
  state: WorkbenchState;
}

export const WORKBENCH_VERSION = '0.1.0';

/** Registers every route on `router` and the openers on the workspace. */
export function registerApi(router: Router<ApiContext>, context: ApiContext): Router<ApiContext> {
  router.add({ method: 'GET', pattern: '/api', summary: 'this listing', handler: () => ({ routes: router.list() }) });
  router.add({
    method: 'GET',
    pattern: '/api/session',
    summary: 'version and served files',
    handler: (_req, c): SessionInfo => ({ version: WORKBENCH_VERSION, files: c.workspace.list() }),
  });
  router.add({ method: 'GET', pattern: '/api/files', summary: 'served files', handler: (_req, c) => c.workspace.list() });
  router.add({
    method: 'GET',
    pattern: '/api/hash',
    summary: 'P919 of ?text=, or the names known for ?hash=0x…',
    handler: (req, c) => hashAnswer(req.query, c),
  });
  registerGadbApi(router, context);
  registerSd2Api(router, context);
  registerNamesApi(router, context);
  registerConflictsApi(router, context);
  registerArchApi(router, context);
  registerScriptApi(router, context);
  registerDecompileApi(router);
  registerStreamingApi(router);
  registerEngineApi(router);
  return router;
}

function hashAnswer(query: URLSearchParams, c: ApiContext): HashAnswer {
  const text = query.get('text');
  const hashText = query.get('hash');
  if (text !== null) {
    try {
      const hash = p919(text);
      return { text, hash, hex: hex32(hash), names: gadbNamesForHash(c, hash) };
    } catch (e) {
      if (e instanceof HashError) return { text, error: e.message, names: [] };
      throw e;
    }
  }
  if (hashText !== null) {
    const m = /^(?:0x)?([0-9a-fA-F]{1,8})$/.exec(hashText.trim());
    if (!m) throw new UsageError(`hash must be 1 to 8 hex digits (0x… optional), got ${JSON.stringify(hashText)}`);
    const hash = parseInt(m[1]!, 16) >>> 0;
    return { hash, hex: hex32(hash), names: gadbNamesForHash(c, hash) };
  }
  throw new UsageError('give ?text= or ?hash=');
}
