/**
 * The engine's script commands: `scry script needs LAYER [--db GAMEDB]` (what a layer's script asks of the
 * engine, read statically, checked against the natives table and a GameDB) and the engine mode of
 * `scry script run` (`engineRunLayer` decides the mode, `runLayerCommand` runs; `script-run.ts` delegates to
 * them). Thin over `src/engine`.
 */
import { FormatError, NotFoundError, UsageError } from '../../binary/errors.ts';
import { Database } from '../../gamedb/database.ts';
import { isWorldLayer, layerAst, layerNameOf, openLayer, type Layer } from '../../engine/layer.ts';
import { needsReport, usageFromChunk, type NeedsReport, type UsageSite } from '../../engine/needs.ts';
import { usageFromAst } from '../../engine/needs-ast.ts';
import { DEFAULT_SCRIPT_BUDGET, ScriptHost } from '../../engine/host.ts';
import { DEFAULT_FRAME_MS, runLayer, runLayerStreaming, runPlan } from '../../engine/run.ts';
import { closestNames } from '../../engine/closest.ts';
import { worldNames } from '../../resources/bundles/world-data.ts';
import { createStreamingWorld } from '../../resources/streaming/scenarios.ts';
import { openStreamingInputs } from '../../node/streaming.ts';
import { formatTraceEntry, formatTraceSummary, traceJson } from '../../engine/trace.ts';
import { checkInputFile, readInputFile } from '../input.ts';
import { readBytes } from '../../node/fs.ts';
import { ExitCode, type Command, type CommandContext, type OptionSpec } from '../command.ts';
import { resolveLut } from './hash.ts';
import { commandNames } from './db.ts';

/** `--db GAMEDB` and `--kind DBX=Category`, shared by `needs` and `run`. */
export const engineDbOptions: Record<string, OptionSpec> = {
  db: { type: 'string', valueName: 'GAMEDB', description: 'the GameDB that DB<Kind>.Name lookups search (game.gamedb or any GADB file)' },
  kind: { type: 'string', multiple: true, valueName: 'DBKIND=CATEGORY', description: 'read DB<Kind> from this category (overrides the table and the rule); repeatable' },
};

/** Opens the layer named by the first argument (a `.scripts` SCRI file, a bare chunk or Lua source text). */
export function openLayerArg(ctx: CommandContext): Layer {
  const shown = ctx.args[0]!;
  const path = ctx.resolvePath(shown);
  checkInputFile(path, shown);
  const layer = openLayer(readBytes(path), layerNameOf(path));
  if (layer.kind === 'source' && layer.truncatedBy > 0) {
    throw new FormatError('scri', 9, '/bodyLength', `the source body is cut short by ${layer.truncatedBy} byte(s) (the head of a .scripts entry?), so it cannot compile; close it at its last complete entry (docs/engine.md, "Running a layer")`);
  }
  return layer;
}

/** Opens `--db` (with the command's P919 table and names), if given. */
export function openEngineDb(ctx: CommandContext): Database | undefined {
  const file = ctx.options['db'];
  if (file === undefined) return undefined;
  if (typeof file !== 'string') throw new UsageError('--db takes one file');
  const path = ctx.resolvePath(file);
  const bytes = readInputFile(path, 'gadb', file);
  const table = resolveLut(ctx);
  return Database.open(bytes, { table, names: commandNames(ctx, table) });
}

/** `--kind DBX=Category` overrides. */
export function kindOverrides(ctx: CommandContext): Map<string, string> {
  const out = new Map<string, string>();
  const v = ctx.options['kind'];
  for (const item of Array.isArray(v) ? v : []) {
    const m = /^(DB[A-Za-z0-9_]+)=(.+)$/.exec(item);
    if (!m) throw new UsageError(`--kind takes DBKIND=CATEGORY (e.g. DBDOGStateType=DynamicObjectGroup/StateTypes), got ${JSON.stringify(item)}`);
    out.set(m[1]!, m[2]!);
  }
  return out;
}

const where = (s: UsageSite | undefined) => (s?.line !== undefined ? `line ${s.line}` : s?.function ? s.function : '');

function formatNeeds(layer: Layer, r: NeedsReport, withDb: boolean): string[] {
  const lines: string[] = [];
  lines.push(`${layer.name}: ${layer.kind} (${layer.container}), read from the ${r.reader === 'ast' ? 'AST' : 'bytecode'}`);
  if (r.reader === 'ast') lines.push(`entries: ${r.entries.total}, StartupCommands ${r.entries.startupCommands.length}${r.entries.startupCommands.length ? ` (${r.entries.startupCommands.join(', ')})` : ''}`);
  lines.push(`natives: ${r.natives.length} called, ${r.unknownNatives.length} not in the natives table`);
  const nw = Math.max(0, ...r.natives.map((n) => n.name.length));
  for (const n of r.natives) {
    const shape = n.spec ? `${n.spec.effect}${n.spec.context === 'asserts' ? ', needs script context' : ''}  (${n.spec.args.join(', ')}) -> ${n.spec.returns}` : 'unknown: a run gives it a stand-in';
    lines.push(`  ${n.known ? ' ' : '?'} ${n.name.padEnd(nw)}  ${String(n.count).padStart(3)}  ${shape}`);
    for (const f of n.faults) lines.push(`      would fault in game (${where(f.site)}): ${f.message}`);
  }
  lines.push(`records: ${r.records.length} DB<Kind>.Name in ${r.kinds.length} kinds${withDb ? `; ${r.missing!.records} missing from the database` : ' (give --db GAMEDB to check them)'}`);
  const rw = Math.max(0, ...r.records.map((x) => x.name.length));
  for (const x of r.records) {
    const status = x.resolved === undefined ? '' : x.resolved ? `-> ${x.path ?? x.message}` : `MISSING: ${x.message}`;
    lines.push(`    ${x.name.padEnd(rw)}  ${String(x.count).padStart(3)}  ${status}`.trimEnd());
  }
  for (const k of r.kinds) {
    const how = k.resolved === undefined ? '' : k.resolved ? `-> ${k.category} (${k.match})${k.warnings?.length ? `; ${k.warnings.join('; ')}` : ''}` : `UNRESOLVED: ${k.message}`;
    lines.push(`  kind ${k.kind}${k.dynamic ? ' (also chosen at run time by a property)' : ''} ${how}`.trimEnd());
  }
  if (r.eventMaps.length) lines.push(`event handlers: ${r.eventMaps.length} in __eventmap tables`);
  lines.push(`would fault in game: ${r.faults}`);
  return lines;
}

const needs: Command = {
  path: ['script', 'needs'],
  summary: "what a layer's script asks of the engine: natives (and their argument shapes) and DB<Kind>.Name records, and which of them a GameDB lacks",
  usage: 'LAYER.scripts [--db GAMEDB]',
  minArgs: 1,
  maxArgs: 1,
  options: engineDbOptions,
  details:
    'Reads the AST of a source body (or the analysis of a bytecode body). Exit 1 when the database lacks a record or a kind the script names, or a call passes an argument the natives table does not expect (would fault in game).',
  run(ctx) {
    const layer = openLayerArg(ctx);
    const db = openEngineDb(ctx);
    const usage = layer.kind === 'source' ? usageFromAst(layerAst(layer)) : usageFromChunk(layer.chunk!);
    const report = needsReport(usage, db, { kindOverrides: kindOverrides(ctx) });
    if (ctx.json) ctx.printJson({ layer: layer.name, kind: layer.kind, ...report });
    else for (const l of formatNeeds(layer, report, db !== undefined)) ctx.out(l);
    const findings = report.faults + (report.missing ? report.missing.records + report.missing.kinds : 0);
    return findings > 0 ? ExitCode.Findings : ExitCode.Ok;
  },
};

export const scriptEngineCommands: Command[] = [needs];

// ------------------------------------------------------------------ script run (engine mode)

/**
 * The options of the engine mode of `scry script run` (the VM's `script-run.ts` spreads them into its own). Its
 * `--budget N` is shared: in engine mode it is the instruction budget of each slice of script work.
 */
export const engineRunOptions: Record<string, OptionSpec> = {
  ...engineDbOptions,
  fire: { type: 'string', multiple: true, valueName: 'OBJECT.EVENT[@S][:F=V,…]', description: 'fire an event on an object at run second S (default 0), with argument fields (F=1, F=true, F=text, F=DBKind.Name); repeatable' },
  start: { type: 'string', multiple: true, valueName: 'ENTRY[@S]', description: "start an entry of the layer's table as a thread (what a relay or trigger would do); repeatable" },
  for: { type: 'string', valueName: 'SECONDS', description: 'run time to simulate (default 10)' },
  pause: { type: 'string', multiple: true, valueName: 'AT:FOR', description: 'pause the game at run second AT for FOR seconds (world time stops, real time goes on); repeatable' },
  slowmo: { type: 'string', multiple: true, valueName: 'AT:FOR:SCALE', description: 'slow motion on the five channel clocks; repeatable' },
  prop: { type: 'string', multiple: true, valueName: '[PREFAB.]NAME=VALUE', description: 'a script property value (WBScriptProp*); repeatable' },
  frame: { type: 'string', valueName: 'MS', description: 'real milliseconds per frame (default 20)' },
  seed: { type: 'string', valueName: 'N', description: 'seed of Math:GetRandomInt (default 1)' },
  timers: { type: 'string', valueName: 'auto|manual', description: 'auto (default): a started ScriptTimer fires OnComplete by itself; manual: only --fire' },
  region: { type: 'string', valueName: 'WORLD', description: "load the layer in this region (a WorldInfo record of --db) with the streaming layer: the region change resets CharacterBundleMgr, the NPC bundle list natives set its lists, bundles stream in simulated time and their loads are traced" },
  mount: { type: 'string', multiple: true, valueName: 'ARCHIVE', description: 'with --region: an .arch06 or a folder the bundles stream from, in priority order (default: the generated world the database describes)' },
};

/** `--vm`: the plain VM mode even for a world layer (`script-run.ts` adds it to its options). */
export const vmModeOption: Record<string, OptionSpec> = {
  vm: { type: 'boolean', description: 'run FILE as a plain chunk on the VM even when it is a world layer (no engine)' },
};

/** The VM-mode options that have no meaning in engine mode (the engine compiles layers with float numbers, as the game). */
const VM_ONLY_OPTIONS = ['numbers', 'checked'] as const;

/**
 * The mode of `scry script run FILE`: the engine when an engine option is given (`--db`, `--fire`, `--for` …) or
 * FILE is a world layer (a chunk that sets `_G.loadedresource`: every `.scripts` layer the game ships); the plain
 * VM otherwise, or with `--vm`. Returns the opened layer in engine mode. Mixing the modes' options is a usage error.
 */
export function engineRunLayer(ctx: CommandContext): Layer | undefined {
  const engineOptions = Object.keys(engineRunOptions).filter((k) => ctx.options[k] !== undefined);
  if (ctx.options['vm'] === true) {
    if (engineOptions.length) throw new UsageError(`--vm runs the plain VM; --${engineOptions[0]} belongs to the engine mode`);
    return undefined;
  }
  let layer: Layer;
  try {
    layer = openLayerArg(ctx);
  } catch (e) {
    // without an engine option, what is not a layer is the VM's to run (and to report)
    if (!engineOptions.length && e instanceof FormatError) return undefined;
    throw e;
  }
  if (!engineOptions.length && !isWorldLayer(layer)) return undefined;
  const vmOnly = VM_ONLY_OPTIONS.find((k) => ctx.options[k] !== undefined);
  if (vmOnly) throw new UsageError(`--${vmOnly} belongs to the plain VM mode (give --vm); the engine compiles a layer with float numbers, as the game does`);
  if (ctx.args.length > 1) throw new UsageError(`the engine mode takes no script arguments (got ${JSON.stringify(ctx.args[1])}); give --vm to run FILE as a plain chunk with arguments`);
  return layer;
}

function list(ctx: CommandContext, name: string): string[] {
  const v = ctx.options[name];
  return Array.isArray(v) ? v : typeof v === 'string' ? [v] : [];
}

function intOpt(ctx: CommandContext, name: string, fallback: number, min: number, max: number): number {
  const v = ctx.options[name];
  if (v === undefined) return fallback;
  const x = Number(v);
  if (typeof v !== 'string' || !/^\d+$/.test(v) || x < min || x > max) throw new UsageError(`--${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(v)}`);
  return x;
}

function propsOf(ctx: CommandContext): Map<string, string> {
  const out = new Map<string, string>();
  for (const p of list(ctx, 'prop')) {
    const eq = p.indexOf('=');
    if (eq <= 0) throw new UsageError(`--prop takes [PREFAB.]NAME=VALUE, got ${JSON.stringify(p)}`);
    out.set(p.slice(0, eq), p.slice(eq + 1));
  }
  return out;
}

/**
 * Runs a layer headless: what `scry script run LAYER --db … --fire … --for …` prints. Exit 3 when a script error
 * (a runtime error, a budget run out, a layer that does not compile) ended a thread or the load; else 1 when the
 * run found something (an engine assert, what would fault in game, an unresolved record); else 0.
 */
export async function runLayerCommand(ctx: CommandContext, layer: Layer = openLayerArg(ctx)): Promise<number> {
  const region = ctx.options['region'];
  if (region !== undefined && typeof region !== 'string') throw new UsageError('--region takes one WorldInfo record name');
  if (region === undefined && list(ctx, 'mount').length) throw new UsageError('--mount serves the streaming layer: give --region WORLD with it');
  if (region !== undefined && ctx.options['db'] === undefined) throw new UsageError('--region needs --db GAMEDB (the WorldInfo record and its bundle lists are GameDB records)');
  const timers = ctx.options['timers'] ?? 'auto';
  if (timers !== 'auto' && timers !== 'manual') throw new UsageError(`--timers is auto or manual, got ${JSON.stringify(timers)}`);
  const plan = runPlan({
    fire: list(ctx, 'fire'),
    start: list(ctx, 'start'),
    pause: list(ctx, 'pause'),
    slowmo: list(ctx, 'slowmo'),
    ...(ctx.options['for'] !== undefined ? { forSeconds: String(ctx.options['for']) } : {}),
    frameMs: intOpt(ctx, 'frame', DEFAULT_FRAME_MS, 1, 1000),
  });
  const hostOptions = {
    kindOverrides: kindOverrides(ctx),
    props: propsOf(ctx),
    seed: intOpt(ctx, 'seed', 1, 0, 0xffffffff),
    budget: { instructions: intOpt(ctx, 'budget', DEFAULT_SCRIPT_BUDGET.instructions, 1000, 1_000_000_000) },
    timers,
    jit: ctx.options['jit'] === true,
  } as const;
  let host: ScriptHost;
  let summary;
  if (region === undefined) {
    const db = openEngineDb(ctx);
    host = new ScriptHost({ ...hostOptions, ...(db ? { db } : {}) });
    summary = runLayer(host, layer, plan);
  } else {
    const mounts = list(ctx, 'mount').map((m) => ctx.resolvePath(m));
    const opened = await openStreamingInputs(ctx.resolvePath(String(ctx.options['db'])), mounts, { table: resolveLut(ctx) });
    try {
      const worlds = worldNames(opened.db);
      if (!worlds.includes(region)) {
        const near = closestNames(region, worlds);
        throw new NotFoundError(`--region ${region}: the database has no WorldInfo record of that name${near.length ? ` (closest: ${near.join(', ')})` : worlds.length ? '' : ' (it has no WorldInfo records)'}`);
      }
      const streaming = createStreamingWorld({ db: opened.db, vfs: opened.vfs, mode: 'simulation' }, { gear: false });
      host = new ScriptHost({ ...hostOptions, db: opened.db, bundles: streaming.cbm });
      summary = await runLayerStreaming(host, layer, plan, region, async (ms) => void (await streaming.streamer.run(ms)));
    } finally {
      await opened.vfs.close();
    }
  }
  // printed after the run: a native's entry gets its result once the native returns (bounded by the budgets)
  for (const e of host.trace.entries) ctx.out(ctx.json ? traceJson(e) : formatTraceEntry(e));
  if (ctx.json) ctx.out(traceJson({ kind: 'summary', ...summary }));
  else {
    ctx.out('');
    for (const l of formatTraceSummary(summary)) ctx.out(l);
  }
  if (summary.errors > 0) return ExitCode.BadInput;
  const findings = summary.faults + summary.asserts + summary.db.unresolved.length;
  return findings > 0 ? ExitCode.Findings : ExitCode.Ok;
}
