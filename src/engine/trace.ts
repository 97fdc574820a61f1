/**
 * The engine's trace: one entry per thing a script asked of the engine, in order, stamped with the world time.
 * Printed as JSON lines by `scry script run --json` (one object per line, each with `t` in world ms, `kind` and
 * `name`), then a summary line. Nothing in it depends on the host's wall clock, so a run is reproducible.
 */

/** What an entry records. */
export const TRACE_KINDS = [
  'load', // the layer's chunk ran (name = the layer)
  'thread-start', // a script thread started (name = the entry)
  'sleep', // LithThreadSleep (seconds, wakeAt)
  'wake', // a sleeping thread resumed
  'end', // a thread or handler returned (name = the entry)
  'native', // a native call (args, result; unknown = not in the table)
  'db', // a DB<Kind>.Name lookup (record, or unresolved with closest names)
  'event-add', // WBEventSystem:Add (sender, event, hash)
  'event-remove', // WBEventSystem:Remove
  'fire', // an event fired by the run (CLI --fire, a timer)
  'dispatch', // a handler called through __eventmap (stack = running-script stack)
  'assert', // a native asserted as the engine would (the game would fault)
  'fault', // something the game would fault on that the engine does not check (wrong argument shape, stack overflow)
  'log', // what a script printed (print, io.write)
  'pause', // pause / resume, slow motion
  'bundle', // the streaming layer's creature bundles: a region change, an update, a bundle loaded / unloaded
  'error', // a script error or a budget ran out; the thread ends, the host goes on
] as const;
export type TraceKind = (typeof TRACE_KINDS)[number];

/** A value in a trace: Lua scalars as themselves, objects, records, tables and functions by a label. */
export type TraceValue = null | boolean | number | string | { ref: string };

/** One trace entry. `t` = world time in ms; other fields depend on `kind`. */
export interface TraceEntry {
  t: number;
  /** Run time (the real-time clock) in ms: differs from `t` once the game was paused. */
  rt?: number;
  kind: TraceKind;
  name: string;
  /** A method's receiver (`ST`, `WD.DOG`). */
  self?: string;
  /** The engine hypothesis the entry depends on, when it depends on one. */
  hypothesis?: string;
  /** The script thread (or dispatch) that caused it. */
  thread?: number;
  /** Running-script stack names at the time, bottom first (the static depth-0 entry is left out). */
  stack?: string[];
  args?: unknown[];
  result?: unknown;
  message?: string;
  /** Native not in the natives table: it returned a recorded stand-in. */
  unknown?: boolean;
  /** A `db` entry: the record path, or undefined when unresolved. */
  record?: string;
  closest?: string[];
  /** Event hash (`0x%08X`), sender and event name. */
  hash?: string;
  sender?: string;
  event?: string;
  handler?: string;
  seconds?: number;
  wakeAt?: number;
  /** A `bundle` entry: what happened, the bundle path, and why it is held (CharacterBundleMgr's owners). */
  change?: 'region' | 'update' | 'loaded' | 'unloaded';
  bundle?: string;
  owners?: string[];
  traceback?: string;
}

/** Totals at the end of a run. */
export interface TraceSummary {
  worldMs: number;
  realMs: number;
  entries: number;
  truncated: number;
  natives: { calls: number; distinct: Record<string, number>; unknown: string[] };
  db: { resolved: string[]; unresolved: { name: string; message: string; closest: string[] }[] };
  events: { registered: number; removed: number; fired: number; dispatched: number; undelivered: number };
  threads: { started: number; ended: number; errored: number; sleeping: { name: string; thread: number; wakeAt: number }[] };
  /** The streaming layer's creature bundles (all 0 when the run had none). */
  bundles: { regionChanges: number; loaded: string[]; unloaded: string[] };
  asserts: number;
  faults: number;
  errors: number;
}

/** Default cap on entries kept (a runaway script is stopped by its budget long before; the cap bounds memory). */
export const DEFAULT_TRACE_LIMIT = 200_000;

export class Trace {
  readonly entries: TraceEntry[] = [];
  readonly limit: number;
  /** Entries dropped past the limit (counted, by kind, in the summary). */
  truncated = 0;
  readonly #now: () => number;
  readonly #realNow: (() => number) | undefined;
  readonly #listeners: ((e: TraceEntry) => void)[] = [];

  /** `now` gives the world time in ms for each entry, `realNow` (optional) the run time. */
  constructor(now: () => number, limit = DEFAULT_TRACE_LIMIT, realNow?: () => number) {
    this.#now = now;
    this.limit = limit;
    this.#realNow = realNow;
  }

  add(kind: TraceKind, name: string, details: Omit<TraceEntry, 't' | 'rt' | 'kind' | 'name'> = {}): TraceEntry {
    const e: TraceEntry = this.#realNow ? { t: this.#now(), rt: this.#realNow(), kind, name, ...details } : { t: this.#now(), kind, name, ...details };
    if (this.entries.length < this.limit) this.entries.push(e);
    else this.truncated++;
    for (const l of this.#listeners) l(e);
    return e;
  }

  /** Sees every entry as it is added (kept or not). */
  onEntry(listener: (e: TraceEntry) => void): void {
    this.#listeners.push(listener);
  }

  count(kind: TraceKind): number {
    let n = 0;
    for (const e of this.entries) if (e.kind === kind) n++;
    return n;
  }
}

/** JSON for a trace value: light userdata and hashes as `0x%08X`, functions and host objects by label. */
export function traceJson(entry: TraceEntry | TraceSummary | Record<string, unknown>): string {
  return JSON.stringify(entry, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : typeof v === 'number' && !Number.isFinite(v) ? String(v) : v));
}

/** A readable line: world seconds, kind, name and the details that matter for the kind. */
export function formatTraceEntry(e: TraceEntry): string {
  const t = (e.t / 1000).toFixed(3).padStart(9);
  const parts: string[] = [];
  if (e.args) parts.push(`(${e.args.map(formatTraceValue).join(', ')})`);
  if (e.result !== undefined) parts.push(`-> ${formatTraceValue(e.result)}`);
  if (e.record) parts.push(`-> ${e.record}`);
  if (e.kind === 'db' && !e.record) parts.push('unresolved');
  if (e.self) parts.push(`on ${e.self}`);
  if (e.sender || e.event) parts.push(`${e.sender ?? '?'}.${e.event ?? '?'}`);
  if (e.hash) parts.push(e.hash);
  if (e.handler) parts.push(`-> ${e.handler}`);
  if (e.kind === 'bundle' && (e.change === 'loaded' || e.change === 'unloaded')) parts.push(e.change);
  if (e.bundle) parts.push(e.bundle);
  if (e.owners?.length) parts.push(`(${e.owners.join(', ')})`);
  if (e.seconds !== undefined) parts.push(`${e.seconds} s`);
  if (e.wakeAt !== undefined) parts.push(`until ${(e.wakeAt / 1000).toFixed(3)} s`);
  if (e.stack) parts.push(`[stack: ${e.stack.length ? e.stack.join(' > ') : 'depth 0'}]`);
  if (e.unknown) parts.push('(unknown native: stand-in)');
  if (e.message) parts.push(`: ${e.message}`);
  if (e.closest?.length) parts.push(`(closest: ${e.closest.join(', ')})`);
  const thread = e.thread !== undefined ? ` #${e.thread}` : '';
  // run time only once it parts from world time (after a pause or in slow motion)
  const run = e.rt !== undefined && e.rt !== e.t ? ` (run ${(e.rt / 1000).toFixed(3)}s)` : '';
  return `${t}s${run}  ${e.kind.padEnd(12)} ${e.name}${thread} ${parts.join(' ')}`.trimEnd();
}

/** A value as the trace shows it in text: strings quoted, references (`{ ref }`) by their label. */
export function formatTraceValue(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (v === null || v === undefined) return 'nil';
  if (typeof v === 'object' && 'ref' in v && typeof (v as { ref: unknown }).ref === 'string') return (v as { ref: string }).ref;
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

/** The summary of a finished run, from its entries. */
export function summarizeTrace(trace: Trace, extra: { worldMs: number; realMs: number; sleeping: TraceSummary['threads']['sleeping'] }): TraceSummary {
  const distinct: Record<string, number> = {};
  const unknown = new Set<string>();
  const resolved = new Set<string>();
  const unresolved = new Map<string, { name: string; message: string; closest: string[] }>();
  const s: TraceSummary = {
    worldMs: extra.worldMs,
    realMs: extra.realMs,
    entries: trace.entries.length,
    truncated: trace.truncated,
    natives: { calls: 0, distinct, unknown: [] },
    db: { resolved: [], unresolved: [] },
    events: { registered: 0, removed: 0, fired: 0, dispatched: 0, undelivered: 0 },
    threads: { started: 0, ended: 0, errored: 0, sleeping: extra.sleeping },
    bundles: { regionChanges: 0, loaded: [], unloaded: [] },
    asserts: 0,
    faults: 0,
    errors: 0,
  };
  for (const e of trace.entries) {
    switch (e.kind) {
      case 'native':
        s.natives.calls++;
        distinct[e.name] = (distinct[e.name] ?? 0) + 1;
        if (e.unknown) unknown.add(e.name);
        break;
      case 'db':
        if (e.record) resolved.add(`${e.name} -> ${e.record}`);
        else if (!unresolved.has(e.name)) unresolved.set(e.name, { name: e.name, message: e.message ?? '', closest: e.closest ?? [] });
        break;
      case 'event-add':
        s.events.registered++;
        break;
      case 'event-remove':
        s.events.removed++;
        break;
      case 'fire':
        s.events.fired++;
        if (e.result === 0) s.events.undelivered++;
        break;
      case 'dispatch':
        s.events.dispatched++;
        break;
      case 'thread-start':
        s.threads.started++;
        break;
      case 'end':
        if (e.thread !== undefined && e.handler === undefined) s.threads.ended++;
        break;
      case 'assert':
        s.asserts++;
        break;
      case 'bundle':
        if (e.change === 'region') s.bundles.regionChanges++;
        else if (e.change === 'loaded' || e.change === 'unloaded') s.bundles[e.change].push(e.name);
        break;
      case 'fault':
        s.faults++;
        break;
      case 'error':
        s.errors++;
        if (e.thread !== undefined) s.threads.errored++;
        break;
      default:
        break;
    }
  }
  s.natives.unknown = [...unknown].sort();
  s.db.resolved = [...resolved].sort();
  s.db.unresolved = [...unresolved.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return s;
}

/** The summary as text lines. */
export function formatTraceSummary(s: TraceSummary): string[] {
  const lines = [
    `world time ${(s.worldMs / 1000).toFixed(3)} s (real ${(s.realMs / 1000).toFixed(3)} s), ${s.entries} trace entries${s.truncated ? ` (${s.truncated} more not kept)` : ''}`,
    `threads: ${s.threads.started} started, ${s.threads.ended} ended, ${s.threads.errored} ended by an error, ${s.threads.sleeping.length} still sleeping`,
    `natives: ${s.natives.calls} calls to ${Object.keys(s.natives.distinct).length} natives, ${s.natives.unknown.length} unknown${s.natives.unknown.length ? ` (${s.natives.unknown.join(', ')})` : ''}`,
    `DB lookups: ${s.db.resolved.length} resolved, ${s.db.unresolved.length} unresolved`,
    ...s.db.unresolved.map((u) => `  unresolved ${u.name}: ${u.message}`),
    `events: ${s.events.registered} registered, ${s.events.removed} removed, ${s.events.fired} fired (${s.events.undelivered} to nobody), ${s.events.dispatched} dispatched`,
    `asserts ${s.asserts}, would-fault ${s.faults}, errors ${s.errors}`,
  ];
  const b = s.bundles;
  if (b.regionChanges || b.loaded.length || b.unloaded.length) lines.push(`creature bundles: ${b.regionChanges} region change(s), ${b.loaded.length} loaded${b.loaded.length ? ` (${b.loaded.join(', ')})` : ''}, ${b.unloaded.length} unloaded${b.unloaded.length ? ` (${b.unloaded.join(', ')})` : ''}`);
  for (const t of s.threads.sleeping) lines.push(`  sleeping: ${t.name} #${t.thread} until ${(t.wakeAt / 1000).toFixed(3)} s`);
  return lines;
}
