/**
 * A headless run of a layer, as `scry script run --db … --fire … --for …` and the workbench's Run tab ask for it:
 * the layer is loaded (its StartupCommands start), then simulated time passes frame by frame while the timed
 * actions happen at their run second (real time: a pause stops the world clock, not the run). Same plan, same
 * trace. The spec strings are the CLI's (`OBJECT.EVENT[@S][:F=V,…]`, `ENTRY[@S]`, `AT:FOR`, `AT:FOR:SCALE`).
 */
import { UsageError } from '../binary/errors.ts';
import type { FireValue, ScriptHost } from './host.ts';
import type { Layer } from './layer.ts';
import type { TraceSummary } from './trace.ts';

/** One timed action; `at` is in run ms. */
export type RunAction =
  | { at: number; kind: 'fire'; label: string; event: string; fields: Record<string, FireValue> }
  | { at: number; kind: 'start'; entry: string }
  | { at: number; kind: 'pause' | 'resume' }
  | { at: number; kind: 'slowmo'; scale: number };

export interface RunPlan {
  /** Run time to simulate, ms. */
  forMs: number;
  /** Real ms per frame. */
  frameMs: number;
  actions: RunAction[];
}

/** The longest run a plan may ask for (24 hours of run time). */
export const MAX_RUN_MS = 24 * 3600 * 1000;
export const DEFAULT_RUN_MS = 10_000;
export const DEFAULT_FRAME_MS = 20;

function seconds(text: string, what: string): number {
  const x = Number(text);
  if (text.trim() === '' || !Number.isFinite(x) || x < 0) throw new UsageError(`${what} must be a number of seconds ≥ 0, got ${JSON.stringify(text)}`);
  return x;
}

/** `OBJECT.EVENT[@S][:F=V,…]`: the event is what follows the object's last dot (`WD.DOG.OnStateChange`). */
export function parseFireSpec(text: string): Extract<RunAction, { kind: 'fire' }> {
  const m = /^(.+)\.([A-Za-z_][A-Za-z0-9_]*)(?:@([^:]+))?(?::(.*))?$/.exec(text);
  if (!m) throw new UsageError(`fire takes OBJECT.EVENT[@SECONDS][:FIELD=VALUE,…] (e.g. ST.OnComplete@12), got ${JSON.stringify(text)}`);
  const fields: Record<string, FireValue> = {};
  for (const pair of m[4] ? m[4].split(',') : []) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`fire field ${JSON.stringify(pair)}: expected FIELD=VALUE`);
    const raw = pair.slice(eq + 1);
    fields[pair.slice(0, eq)] =
      raw === 'true' ? true : raw === 'false' ? false : /^-?\d+(\.\d+)?$/.test(raw) ? Number(raw) : /^DB[A-Z][A-Za-z0-9_]*\.\S+$/.test(raw) ? { record: raw } : raw.startsWith('@') ? { object: raw.slice(1) } : raw;
  }
  return { at: m[3] !== undefined ? seconds(m[3], 'fire @SECONDS') * 1000 : 0, kind: 'fire', label: m[1]!, event: m[2]!, fields };
}

/** `ENTRY[@S]`. */
export function parseStartSpec(text: string): Extract<RunAction, { kind: 'start' }> {
  const m = /^([^@]+)(?:@(.+))?$/.exec(text);
  if (!m) throw new UsageError(`start takes ENTRY[@SECONDS], got ${JSON.stringify(text)}`);
  return { at: m[2] !== undefined ? seconds(m[2], 'start @SECONDS') * 1000 : 0, kind: 'start', entry: m[1]! };
}

/** `AT:FOR` (seconds): a pause and its end. */
export function parsePauseSpec(text: string): RunAction[] {
  const m = /^([^:]+):([^:]+)$/.exec(text);
  if (!m) throw new UsageError(`pause takes AT:FOR in seconds (e.g. 5:2), got ${JSON.stringify(text)}`);
  const at = seconds(m[1]!, 'pause AT') * 1000;
  return [
    { at, kind: 'pause' },
    { at: at + seconds(m[2]!, 'pause FOR') * 1000, kind: 'resume' },
  ];
}

/** `AT:FOR:SCALE`: slow motion and its end. */
export function parseSlowMotionSpec(text: string): RunAction[] {
  const m = /^([^:]+):([^:]+):([^:]+)$/.exec(text);
  if (!m) throw new UsageError(`slow motion takes AT:FOR:SCALE (e.g. 2:3:0.25), got ${JSON.stringify(text)}`);
  const at = seconds(m[1]!, 'slow motion AT') * 1000;
  const scale = Number(m[3]);
  if (!(scale >= 0 && scale <= 16)) throw new UsageError(`slow motion SCALE must be between 0 and 16, got ${JSON.stringify(m[3])}`);
  return [
    { at, kind: 'slowmo', scale },
    { at: at + seconds(m[2]!, 'slow motion FOR') * 1000, kind: 'slowmo', scale: 1 },
  ];
}

/** The spec lists of a run, parsed and ordered by time (then in the order given). */
export function runPlan(specs: { fire?: readonly string[]; start?: readonly string[]; pause?: readonly string[]; slowmo?: readonly string[]; forSeconds?: string; frameMs?: number }): RunPlan {
  const actions: RunAction[] = [
    ...(specs.fire ?? []).map(parseFireSpec),
    ...(specs.start ?? []).map(parseStartSpec),
    ...(specs.pause ?? []).flatMap(parsePauseSpec),
    ...(specs.slowmo ?? []).flatMap(parseSlowMotionSpec),
  ];
  const forMs = specs.forSeconds !== undefined ? seconds(specs.forSeconds, 'the run length') * 1000 : DEFAULT_RUN_MS;
  if (forMs > MAX_RUN_MS) throw new UsageError('a run is limited to 24 hours of run time');
  const frameMs = specs.frameMs ?? DEFAULT_FRAME_MS;
  if (!Number.isInteger(frameMs) || frameMs < 1 || frameMs > 1000) throw new UsageError(`the frame must be 1 to 1000 ms, got ${frameMs}`);
  return { forMs, frameMs, actions: actions.map((a, i) => ({ a, i })).sort((x, y) => x.a.at - y.a.at || x.i - y.i).map((x) => x.a) };
}

/** The run as steps: loads the layer, then yields after each frame (the run ms reached). */
function* runSteps(host: ScriptHost, layer: Layer, plan: RunPlan, region?: string): Generator<number, TraceSummary> {
  host.load(layer, region);
  let next = 0;
  const due = (now: number): void => {
    while (next < plan.actions.length && plan.actions[next]!.at <= now) {
      const a = plan.actions[next++]!;
      if (a.kind === 'fire') host.fire(a.label, a.event, a.fields);
      else if (a.kind === 'start') host.start(a.entry);
      else if (a.kind === 'pause' || a.kind === 'resume') host.setPaused(a.kind === 'pause');
      else if (a.kind === 'slowmo') host.setSlowMotion(a.scale);
    }
  };
  const start = host.realMs;
  due(0);
  yield 0;
  while (host.realMs - start < plan.forMs) {
    host.frame(Math.min(plan.frameMs, plan.forMs - (host.realMs - start)));
    due(host.realMs - start);
    yield host.realMs - start;
  }
  return host.summary();
}

/** Loads `layer` into `host` (in `region`, default the layer's name) and runs the plan; returns the summary (the trace is `host.trace`). */
export function runLayer(host: ScriptHost, layer: Layer, plan: RunPlan, region?: string): TraceSummary {
  const steps = runSteps(host, layer, plan, region);
  for (let s = steps.next(); ; s = steps.next()) if (s.done) return s.value;
}

/**
 * The same run with the streaming layer beside it: after the load and after each frame, `advance(runMs)` lets the
 * streamer catch up to the run time (bundle loads take time: real time, so a pause does not stop them), and what
 * it finishes reaches the host's trace before the next frame.
 */
export async function runLayerStreaming(host: ScriptHost, layer: Layer, plan: RunPlan, region: string, advance: (runMs: number) => Promise<void>): Promise<TraceSummary> {
  const steps = runSteps(host, layer, plan, region);
  for (let s = steps.next(); ; s = steps.next()) {
    if (s.done) return s.value;
    await advance(s.value);
  }
}
