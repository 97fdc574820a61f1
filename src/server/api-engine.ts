/**
 * The Run tab's routes: a layer script run headless by the engine (`src/engine`), with the same plan the CLI takes
 * (`scry script run … --fire … --start … --pause … --for …`) given as query parameters, against a GameDB the
 * workbench serves. A run writes nothing, so it is a GET; the same URL gives the same trace.
 */
import { UsageError } from '../binary/errors.ts';
import { ScriptHost } from '../engine/host.ts';
import { entryOrigins, layerAst, layerNameOf, openLayer } from '../engine/layer.ts';
import { needsReport, usageFromChunk } from '../engine/needs.ts';
import { usageFromAst } from '../engine/needs-ast.ts';
import { runLayer, runPlan } from '../engine/run.ts';
import type { TraceEntry, TraceSummary } from '../engine/trace.ts';
import type { ApiContext } from './api.ts';
import type { GadbDoc } from './api-gadb.ts';
import { intParam, type Router } from './router.ts';

/** What the tab shows before a run: the layer's entries and the databases it could run against. */
export interface RunSetup {
  layer: string;
  kind: 'source' | 'bytecode';
  /** Why the layer cannot run (a truncated source body), when it cannot. */
  problem?: string;
  entries: { name: string; prefab?: string; object?: string; startupCommand: boolean }[];
  /** Handlers the script objects map (`__eventmap`), read statically. */
  eventMaps: { entry: string; hash: string; handler: string }[];
  databases: { id: string; name: string }[];
}

/** A finished run. */
export interface RunAnswer {
  layer: string;
  database?: string;
  forMs: number;
  /** Trace entries (at most `limit`; `summary.entries` says how many there were). */
  trace: TraceEntry[];
  summary: TraceSummary;
  /** Live registrations at the end: what can be fired next. */
  registrations: ReturnType<ScriptHost['registrations']>;
  wallMs: number;
}

/** The most trace entries one answer carries. */
export const RUN_TRACE_LIMIT = 20_000;
/** The longest run the workbench simulates. */
export const RUN_MAX_SECONDS = 3600;

function layerOf(c: ApiContext, file: string) {
  const info = c.workspace.info(file);
  const opened = c.workspace.open<{ bytes: Uint8Array }>(file, 'hks');
  return openLayer(opened.bytes, layerNameOf(info.name));
}

export function registerEngineApi(router: Router<ApiContext>): void {
  router.add({
    method: 'GET',
    pattern: '/api/files/:file/run/setup',
    summary: "Run tab setup: the layer's entries (StartupCommands marked), its __eventmap handlers, the GameDBs to run against",
    handler: (req, c): RunSetup => {
      const layer = layerOf(c, req.params['file']!);
      const databases = c.workspace
        .list()
        .filter((f) => f.kind === 'gadb')
        .map((f) => ({ id: f.id, name: f.name }));
      const setup: RunSetup = { layer: layer.name, kind: layer.kind, entries: [], eventMaps: [], databases };
      if (layer.kind === 'source' && layer.truncatedBy > 0) {
        setup.problem = `the source body is cut short by ${layer.truncatedBy} bytes (the head of a .scripts entry): it cannot compile`;
        return setup;
      }
      try {
        const usage = layer.kind === 'source' ? usageFromAst(layerAst(layer)) : usageFromChunk(layer.chunk!);
        const origins = layer.source ? entryOrigins(layer.source) : new Map();
        const report = needsReport(usage);
        const sc = new Set(report.entries.startupCommands);
        setup.entries = usage.entries.map((name) => {
          const o = origins.get(name);
          return { name, ...(o ? { prefab: o.prefab, object: o.object } : {}), startupCommand: sc.has(name) };
        });
        setup.eventMaps = usage.eventMaps;
      } catch (e) {
        setup.problem = e instanceof Error ? e.message : String(e);
      }
      return setup;
    },
  });

  router.add({
    method: 'GET',
    pattern: '/api/files/:file/run',
    summary: 'run the layer headless: ?for=S &fire=OBJECT.EVENT@S &start=ENTRY@S &pause=AT:FOR &slowmo=AT:FOR:SCALE &prop=NAME=VALUE (lists: repeated, or one per line) &db=FILE &seed=N &timers=auto|manual &limit=N',
    handler: (req, c): RunAnswer => {
      const q = req.query;
      const layer = layerOf(c, req.params['file']!);
      const forSeconds = q.get('for') ?? undefined;
      if (forSeconds !== undefined && Number(forSeconds) > RUN_MAX_SECONDS) throw new UsageError(`the workbench runs at most ${RUN_MAX_SECONDS} s (the CLI runs longer)`);
      // A list is repeated keys, or one key whose lines are the items (how the page sends them).
      const all = (k: string) => q.getAll(k).flatMap((v) => v.split('\n')).map((v) => v.trim()).filter((v) => v !== '');
      const plan = runPlan({ fire: all('fire'), start: all('start'), pause: all('pause'), slowmo: all('slowmo'), ...(forSeconds !== undefined ? { forSeconds } : {}), frameMs: intParam(q, 'frame', 20, 1, 1000) });
      const dbId = q.get('db');
      const db = dbId ? c.workspace.open<GadbDoc>(dbId, 'gadb').db : undefined;
      const props = new Map<string, string>();
      for (const p of all('prop')) {
        const eq = p.indexOf('=');
        if (eq <= 0) throw new UsageError(`prop takes [PREFAB.]NAME=VALUE, got ${JSON.stringify(p)}`);
        props.set(p.slice(0, eq), p.slice(eq + 1));
      }
      const timers = q.get('timers') ?? 'auto';
      if (timers !== 'auto' && timers !== 'manual') throw new UsageError('timers is auto or manual');
      const limit = intParam(q, 'limit', 5000, 1, RUN_TRACE_LIMIT);
      const started = performance.now();
      const host = new ScriptHost({ ...(db ? { db } : {}), props, seed: intParam(q, 'seed', 1, 0, 0x7fffffff), timers, traceLimit: RUN_TRACE_LIMIT });
      const summary = runLayer(host, layer, plan);
      return {
        layer: layer.name,
        ...(dbId ? { database: c.workspace.info(dbId).name } : {}),
        forMs: plan.forMs,
        trace: host.trace.entries.slice(0, limit),
        summary,
        registrations: host.registrations(),
        wallMs: Math.round(performance.now() - started),
      };
    },
  });
}
