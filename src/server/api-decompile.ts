/**
 * The decompiled source of a script (`GET /api/files/:file/script/source`): `decompileHks` with the proof, as
 * `scry script decompile --verify --json` gives it, computed once per opened file. The script view shows it beside
 * the listing, function by function with its proof status.
 */
import { UsageError } from '../binary/errors.ts';
import type { HksFile } from '../formats/hks/index.ts';
import { decompileHks } from '../script/decompile/index.ts';
import type { ApiContext } from './api.ts';
import type { Router } from './router.ts';

/** `GET /api/files/:file/script/source`: the decompiled source and the proof of every function. */
export interface ScriptSourceAnswer {
  /** Lua source (unmatched functions carry a comment saying how they differ). */
  source: string;
  /** Strip level and number type the source was recompiled with. */
  strip: string;
  numbers: string;
  proven: number;
  total: number;
  /** Set when the source did not compile (then no function is proven). */
  compileError: string | null;
  /** Header or structure-section facts the recompiled chunk does not share (each a sentence). */
  chunkDifferences: string[];
  /** Every function in prototype-tree order (`main`, `main/0`, …). */
  functions: { path: string; name: string | null; proven: boolean; difference?: string; failure?: string }[];
  ms: number;
}

const answers = new WeakMap<object, ScriptSourceAnswer>();

/** Registers the decompiled-source route (the script opener of `api-script.ts` gives the parsed file). */
export function registerDecompileApi(router: Router<ApiContext>): void {
  router.add({
    method: 'GET',
    pattern: '/api/files/:file/script/source',
    summary: 'the decompiled source of a bytecode script, with the proof of every function (recompiled and compared)',
    handler: (req, c): ScriptSourceAnswer => {
      const s = c.workspace.open<{ file: HksFile }>(req.params['file']!, 'hks');
      const file = s.file;
      if (file.kind === 'scri-source') throw new UsageError('this script is source text already (SCRI flag 1): nothing to decompile');
      let a = answers.get(s);
      if (!a) {
        const t0 = performance.now();
        const r = decompileHks(file.chunk, { verify: true });
        const p = r.proof!;
        a = {
          source: r.source,
          strip: p.strip,
          numbers: p.numbers,
          proven: p.matched,
          total: p.total,
          compileError: p.compileError ?? null,
          chunkDifferences: p.chunkDifferences,
          functions: r.functions.map((f) => ({
            path: f.path,
            name: f.name,
            proven: f.proof?.matched === true,
            ...(f.proof?.difference !== undefined ? { difference: f.proof.difference } : {}),
            ...(f.failure !== undefined ? { failure: f.failure } : {}),
          })),
          ms: 0,
        };
        a.ms = Math.round(performance.now() - t0);
        answers.set(s, a);
      }
      return a;
    },
  });
}
