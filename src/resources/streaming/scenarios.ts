/**
 * What-if runs over a database and a mount vector, as the `scry sim` commands and the workbench's Streaming page
 * ask them: a region visit (creature set, skins, layers, time to resident), the gear budget (priorities, costs,
 * loads and backups), the spawn gate, and a request trace replayed through the pipeline.
 */
import { NotFoundError, UsageError } from '../../binary/errors.ts';
import type { Database } from '../../gamedb/database.ts';
import type { MountVector } from '../vfs/mount-vector.ts';
import { normalizeVfsPath, vfsKey, type VfsSource } from '../vfs/source.ts';
import { CharacterBundleMgr, type CharacterBundleListener, type SpawnDecision } from '../bundles/character.ts';
import { EffectSystem } from '../bundles/effects.ts';
import { NemesisBundleMgr, equipFlags, giveFlags, type GearEvaluation, type GearRequestStatus } from '../bundles/gear.ts';
import type { Bundle } from '../bundles/registry.ts';
import { withLatency, type LatencyModel, type StageLatency } from './latency.ts';
import type { PipelineSwitches } from './pipeline.ts';
import { Streamer, type Completion, type StreamEvent, type StreamMode, type StreamReport } from './streamer.ts';
import type { StageName } from './threads.ts';

export interface WorldContext {
  db: Database;
  vfs: MountVector;
  mode?: StreamMode;
  latency?: LatencyModel;
  switches?: Partial<PipelineSwitches>;
  maxEvents?: number;
  /** Queue-depth sampling resolution (ms; default 1 in simulation). */
  depthResolutionMs?: number;
  listener?: CharacterBundleListener;
}

/** A streamer with the managers wired to its event timeline. */
export interface StreamingWorld {
  streamer: Streamer;
  cbm: CharacterBundleMgr;
  gear: NemesisBundleMgr | undefined;
  effects: EffectSystem;
}

/** Builds the streamer, CharacterBundleMgr, NemesisBundleMgr (when the database has its records) and effects. */
export function createStreamingWorld(ctx: WorldContext, options: { budget?: number; gear?: boolean } = {}): StreamingWorld {
  const streamer = new Streamer({ vfs: ctx.vfs, mode: ctx.mode ?? 'simulation', ...(ctx.latency ? { latency: ctx.latency } : {}), ...(ctx.switches ? { switches: ctx.switches } : {}), ...(ctx.maxEvents !== undefined ? { maxEvents: ctx.maxEvents } : {}), ...(ctx.depthResolutionMs !== undefined ? { depthResolutionMs: ctx.depthResolutionMs } : {}) });
  const event = (kind: string, detail: Record<string, unknown>): void => streamer.event(kind, { detail });
  const now = () => streamer.now();
  const cbm = new CharacterBundleMgr(ctx.db, streamer.bundles, { now, event, ...(ctx.listener ? { listener: ctx.listener } : {}) });
  const gear = options.gear === false ? undefined : new NemesisBundleMgr(ctx.db, streamer.bundles, { now, event, ...(options.budget !== undefined ? { budget: options.budget } : {}) });
  return { streamer, cbm, gear, effects: new EffectSystem(streamer.table) };
}

const stem = (p: string): string => {
  const n = normalizeVfsPath(p);
  return n.slice(n.lastIndexOf('\\') + 1).replace(/\.[^.]*$/, '');
};

export interface BundleRow {
  name: string;
  path: string;
  role: string;
  state: Bundle['state'];
  references: number;
  prefetches: number;
  contentBytes: number;
  resources: number;
  requestedAt: number | undefined;
  residentAt: number | undefined;
  /** How the content was split (hypothesis `stream.contentSplit`): `opaque` when the file contradicts the size rule. */
  layout: Bundle['layout'];
}

function bundleRow(b: Bundle, role: string): BundleRow {
  return { name: stem(b.path), path: b.path, role, state: b.state, references: b.references, prefetches: b.prefetches, contentBytes: b.contentBytes, resources: b.resources.length, requestedAt: b.prefetchedAt, residentAt: b.residentAt, layout: b.layout };
}

export interface RegionReport {
  world: string;
  isTestWorld: boolean;
  list: string | undefined;
  /** The creature set (world set) and skins, in the order requested. */
  bundles: BundleRow[];
  layers: { count: number; resident: number; missing: number; bytes: number; placedObjects: number; opaque: number };
  /** Time from the region change to resident: skins, the world set, everything (ms). */
  timeToResident: { skins: number | undefined; worldSet: number | undefined; layers: number | undefined; all: number | undefined };
  registryRows: number;
  stream: StreamReport;
}

const lastResident = (bs: Bundle[]): number | undefined => {
  if (bs.length === 0) return undefined;
  let t = 0;
  for (const b of bs) {
    if (b.residentAt === undefined) return undefined;
    t = Math.max(t, b.residentAt);
  }
  return t;
};

/**
 * A region change into `world` (from `from`, when given): the creature bundles and skins through
 * CharacterBundleMgr, then the region's layer bundles (which become resident and place nothing).
 */
export async function simulateRegion(ctx: WorldContext, world: string, options: { from?: string; layers?: boolean; streamingWorld?: StreamingWorld } = {}): Promise<RegionReport> {
  const w = options.streamingWorld ?? createStreamingWorld(ctx, { gear: false });
  if (options.from) {
    w.cbm.changeRegion(options.from);
    await w.streamer.run();
    w.streamer.table.trimUnused();
  }
  const t0 = w.streamer.now();
  const change = w.cbm.changeRegion(world);
  const info = w.cbm.region!;
  const layers: Bundle[] = [];
  if (options.layers !== false) {
    for (const l of info.layers) {
      const b = w.streamer.bundles.get(l);
      w.streamer.bundles.acquire(b);
      w.streamer.bundles.prefetch(b);
      layers.push(b);
    }
  }
  const skins = info.skins.map((s) => w.cbm.heldBundle(s)!).filter(Boolean);
  const set = info.worldSet.map((s) => w.cbm.heldBundle(s)!).filter(Boolean);
  await w.streamer.run();
  const rel = (t: number | undefined): number | undefined => (t === undefined ? undefined : t - t0);
  const worldRole = new Set(info.worldSet.map(vfsKey));
  return {
    world: info.name,
    isTestWorld: info.isTestWorld,
    list: info.listName,
    bundles: change.requested.map((p) => bundleRow(w.cbm.heldBundle(p)!, worldRole.has(vfsKey(p)) ? 'world' : 'skin')),
    layers: { count: layers.length, resident: layers.filter((b) => b.resident).length, missing: layers.filter((b) => b.state === 'missing').length, bytes: layers.reduce((s, b) => s + b.contentBytes, 0), placedObjects: 0, opaque: layers.filter((b) => b.layout === 'opaque').length },
    timeToResident: { skins: rel(lastResident(skins)), worldSet: rel(lastResident(set)), layers: rel(lastResident(layers)), all: rel(lastResident([...skins, ...set, ...layers])) },
    registryRows: w.streamer.bundles.size,
    stream: w.streamer.report(),
  };
}

/** One `--equip`: an item for an owner, with the equip path's bytes. */
export interface GearEquip {
  item: string;
  owner?: string;
  /** A give-path request (byte 0 clear) instead of an equip. */
  give?: boolean;
  score?: number;
  b1?: boolean;
  b2?: boolean;
  b4?: boolean;
}

export interface GearObjectRow {
  bundle: string;
  path: string;
  type: string | undefined;
  estimate: number;
  cost: number;
  latched: boolean;
  priority: number;
  requesters: number;
  state: number;
  withinBudget: boolean;
  missing: boolean;
}

export interface GearReport {
  budget: number;
  memoryLimit: number;
  definitions: number;
  /** Every evaluation: the first uses the estimates, later ones latched sizes. */
  evaluations: Array<{ t: number; used: number; required: number; rows: Array<{ bundle: string; priority: number; cost: number; cumulative: number; requesters: number; action: string }> }>;
  requests: Array<{ owner: string; item: string; kind: string; bundles: string[]; status: GearRequestStatus; backup?: string; over: string[] }>;
  objects: GearObjectRow[];
  used: number;
  required: number;
  stream: StreamReport;
}

function evaluationJson(e: GearEvaluation): GearReport['evaluations'][number] {
  return { t: e.t, used: e.used, required: e.required, rows: e.rows.map((r) => ({ bundle: r.object.name, priority: r.priority, cost: r.cost, cumulative: r.cumulative, requesters: r.requesters, action: r.action })) };
}

/** Equips items, then runs frames until the manager has nothing left to re-evaluate. */
export async function simulateGear(ctx: WorldContext, equips: readonly GearEquip[], options: { budget?: number; frames?: number; streamingWorld?: StreamingWorld } = {}): Promise<GearReport> {
  const w = options.streamingWorld ?? createStreamingWorld(ctx, options.budget !== undefined ? { budget: options.budget } : {});
  const mgr = w.gear;
  if (!mgr) throw new UsageError('the gear manager is off');
  for (const e of equips) {
    const bytes = { ...(e.score !== undefined ? { score: e.score } : {}), ...(e.b1 ? { b1: true } : {}), ...(e.b2 ? { b2: true } : {}), ...(e.b4 ? { b4: true } : {}) };
    mgr.equip(e.owner ?? 'player', e.item, e.give ? giveFlags(bytes) : equipFlags(bytes));
  }
  const frames = options.frames ?? 16;
  for (let f = 0; f < frames && mgr.changed; f++) {
    mgr.update();
    await w.streamer.run();
  }
  const last = mgr.evaluations[mgr.evaluations.length - 1];
  const live = mgr.objects.filter((o) => o.requesters.size > 0 || o.state > 0);
  return {
    budget: mgr.budget,
    memoryLimit: mgr.memoryLimit,
    definitions: mgr.objects.length,
    evaluations: mgr.evaluations.map(evaluationJson),
    requests: [...mgr.requests].map((r) => ({ owner: r.owner, item: r.item.name, kind: r.item.kind, bundles: r.objects.map((o) => o.name), status: r.status, ...(r.backup ? { backup: r.backup.name } : {}), over: r.objects.filter((o) => !o.withinBudget && o.state !== 1 && !o.missing).map((o) => o.name) })),
    objects: live
      .sort((a, b) => b.priority - a.priority || a.index - b.index)
      .map((o) => ({ bundle: o.name, path: o.definition.path, type: o.definition.type, estimate: o.estimate, cost: o.cost, latched: o.latched, priority: o.priority, requesters: o.requesters.size, state: o.state, withinBudget: o.withinBudget, missing: o.missing })),
    used: last?.used ?? 0,
    required: last?.required ?? 0,
    stream: w.streamer.report(),
  };
}

export interface SpawnReport {
  region: string;
  isTestWorld: boolean;
  worldSet: string[];
  decision: SpawnDecision;
  /** In a test world: the gate's decision once the requested bundle is resident. */
  retry?: SpawnDecision;
  stream: StreamReport;
}

/** Loads the region's creature set, then asks the spawn gate about `template`. */
export async function simulateSpawn(ctx: WorldContext, template: string, region: string): Promise<SpawnReport> {
  const w = createStreamingWorld(ctx, { gear: false });
  w.cbm.changeRegion(region);
  await w.streamer.run();
  const decision = w.cbm.spawn(template);
  let retry: SpawnDecision | undefined;
  if (decision.requested) {
    await w.streamer.run();
    retry = w.cbm.spawn(template);
  }
  const info = w.cbm.region!;
  return { region: info.name, isTestWorld: info.isTestWorld, worldSet: info.worldSet, decision, ...(retry ? { retry } : {}), stream: w.streamer.report() };
}

// ------------------------------------------------------------------------------------------------------- traces

export const STREAM_TRACE_FORMAT = 'scry.stream-trace';

/** One step of a trace: a load at time `t` (ms). */
export interface TraceStep {
  t: number;
  path: string;
  /** `load` (queue 0 unless `queue`), `texture` (the texture streamer's rule), `bundle` (acquire + prefetch). */
  op?: 'load' | 'texture' | 'bundle';
  queue?: 0 | 1;
}

export interface StreamTrace {
  format: typeof STREAM_TRACE_FORMAT;
  version: 1;
  switches?: Partial<PipelineSwitches>;
  slots?: number;
  latency?: Partial<Record<StageName | 'bundle', Partial<StageLatency>>>;
  /** Sizes of files to serve when no archive is mounted (path → bytes of zeros). */
  files?: Record<string, number>;
  requests: TraceStep[];
}

/** Checks and normalises a parsed trace document (a `UsageError` names what is wrong). */
export function parseStreamTrace(doc: unknown): StreamTrace {
  const d = doc as Partial<StreamTrace> | null;
  if (!d || typeof d !== 'object' || d.format !== STREAM_TRACE_FORMAT || d.version !== 1) throw new UsageError(`not a ${STREAM_TRACE_FORMAT} version 1 document (needs "format": "${STREAM_TRACE_FORMAT}", "version": 1)`);
  if (!Array.isArray(d.requests)) throw new UsageError('trace: "requests" must be an array');
  d.requests.forEach((r, i) => {
    if (!r || typeof r !== 'object' || typeof r.path !== 'string' || typeof r.t !== 'number' || !(r.t >= 0) || !Number.isFinite(r.t)) throw new UsageError(`trace: requests[${i}] needs a "path" string and a finite time "t" ≥ 0 (ms)`);
    if (r.op !== undefined && !['load', 'texture', 'bundle'].includes(r.op)) throw new UsageError(`trace: requests[${i}].op must be load, texture or bundle`);
    if (r.queue !== undefined && r.queue !== 0 && r.queue !== 1) throw new UsageError(`trace: requests[${i}].queue must be 0 or 1`);
  });
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (d.files !== undefined && (!isObject(d.files) || Object.values(d.files).some((n) => !Number.isInteger(n) || (n as number) < 0 || (n as number) > 1 << 30))) throw new UsageError('trace: "files" maps paths to sizes (integers, at most 1 GiB)');
  if (d.switches !== undefined && (!isObject(d.switches) || Object.entries(d.switches).some(([k, v]) => !['open', 'load', 'parse'].includes(k) || typeof v !== 'boolean'))) throw new UsageError('trace: "switches" holds open / load / parse booleans');
  if (d.latency !== undefined) {
    const bad = !isObject(d.latency) || Object.entries(d.latency).some(([k, v]) => !['open', 'load', 'parse', 'bundle'].includes(k) || !isObject(v) || Object.entries(v).some(([f, x]) => !['fixedMs', 'mibPerSecond'].includes(f) || typeof x !== 'number' || !Number.isFinite(x) || x < 0 || x > 1e9));
    if (bad) throw new UsageError('trace: "latency" maps open / load / parse / bundle to { fixedMs, mibPerSecond } (finite numbers ≥ 0)');
  }
  if (d.slots !== undefined && !(Number.isInteger(d.slots) && d.slots >= 1 && d.slots <= 4096)) throw new UsageError('trace: "slots" must be an integer in 1..4096');
  return d as StreamTrace;
}

/** Files of given sizes, all zeros (a trace's `files`). */
export class SizedFileSource implements VfsSource {
  readonly kind = 'memory' as const;
  readonly name: string;
  private readonly sizes = new Map<string, { path: string; size: number }>();
  private zeros = new Uint8Array(0);

  constructor(files: Record<string, number>, name = 'trace files') {
    this.name = name;
    for (const [p, size] of Object.entries(files)) this.sizes.set(vfsKey(p), { path: normalizeVfsPath(p), size });
  }
  async has(path: string): Promise<boolean> {
    return this.sizes.has(vfsKey(path));
  }
  async read(path: string): Promise<Uint8Array> {
    const f = this.sizes.get(vfsKey(path));
    if (!f) throw new NotFoundError(`${this.name}: no file ${JSON.stringify(path)}`);
    if (this.zeros.length < f.size) this.zeros = new Uint8Array(Math.max(f.size, this.zeros.length * 2));
    return this.zeros.subarray(0, f.size);
  }
  async list(): Promise<string[]> {
    return [...this.sizes.values()].map((f) => f.path);
  }
}

export interface ReplayReport {
  completions: Completion[];
  depths: { open: [number[], number[]][]; load: [number[], number[]][] } | undefined;
  stream: StreamReport;
  events: StreamEvent[];
}

/** Replays a trace through the pipeline (simulation unless `mode` says real). */
export async function replayTrace(trace: StreamTrace, vfs: MountVector, options: { mode?: StreamMode; maxEvents?: number } = {}): Promise<ReplayReport> {
  const streamer = new Streamer({ vfs, mode: options.mode ?? 'simulation', latency: withLatency(trace.latency ?? {}), ...(trace.switches ? { switches: trace.switches } : {}), ...(trace.slots !== undefined ? { slots: trace.slots } : {}), ...(options.maxEvents !== undefined ? { maxEvents: options.maxEvents } : {}) });
  const steps = [...trace.requests].map((r, i) => ({ r, i })).sort((a, b) => a.r.t - b.r.t || a.i - b.i);
  for (const { r } of steps) {
    streamer.at(r.t, () => {
      if (r.op === 'bundle') {
        const b = streamer.bundles.get(r.path);
        streamer.bundles.acquire(b);
        streamer.bundles.prefetch(b);
      } else if (r.op === 'texture') streamer.requestTexture(r.path);
      else streamer.load(r.path, { queue: r.queue ?? 0 });
    });
  }
  await streamer.run();
  return { completions: streamer.completions, depths: streamer.depthSeries(), stream: streamer.report(), events: streamer.events };
}

// -------------------------------------------------------------------------------------------------------- visits

export interface VisitOptions {
  world: string;
  /** Gear to equip after the region change (default: `defaultLoadout`). */
  equips?: readonly GearEquip[];
  budget?: number;
  layers?: boolean;
  /** Most samples per queue-depth series (default 400; peaks are kept). */
  maxPoints?: number;
  /** Most timeline events returned (default 2,000). */
  maxEvents?: number;
}

export interface VisitBundleRow extends BundleRow {
  /** Gear objects: cost (estimate until latched), priority, requesters. */
  cost?: number;
  estimate?: number;
  priority?: number;
  requesters?: number;
}

export interface VisitReport {
  world: string;
  isTestWorld: boolean;
  bundles: VisitBundleRow[];
  budget: { used: number; budget: number; required: number };
  gear: GearReport['requests'];
  depths: { open: [number[], number[]][]; load: [number[], number[]][] } | undefined;
  events: StreamEvent[];
  eventsTotal: number;
  timeToResident: RegionReport['timeToResident'];
  stream: StreamReport;
}

/** A loadout for the what-if page: the player in one set's five slots, three captains in other sets' pieces. */
export function defaultLoadout(db: Database): GearEquip[] {
  const pieces = (cat: string): string[] => db.findCategory(cat)?.records().map((r) => r.label) ?? [];
  const all = [...pieces('Inventory/ArmorData'), ...pieces('Inventory/WeaponData')];
  const bySet = new Map<string, string[]>();
  for (const p of all) {
    const set = p.slice(0, p.indexOf('_'));
    if (!bySet.has(set)) bySet.set(set, []);
    bySet.get(set)!.push(p);
  }
  const sets = [...bySet.keys()].sort();
  const out: GearEquip[] = [];
  const owners = ['player', 'captain_1', 'captain_2', 'captain_3'];
  owners.forEach((owner, i) => {
    const set = sets[(i * 17) % Math.max(1, sets.length)];
    for (const item of set ? bySet.get(set)! : []) out.push({ item, owner, ...(owner === 'player' ? {} : { score: 10 + i * 7 }) });
  });
  return out;
}

/** Downsamples a depth series to at most `n` points, keeping each bucket's deepest value. */
export function downsampleDepths(times: number[], depths: number[], n: number): [number[], number[]] {
  if (times.length <= n) return [times, depths];
  const t0 = times[0]!;
  const span = Math.max(1e-9, times[times.length - 1]! - t0);
  const ts: number[] = [];
  const ds: number[] = [];
  let bucket = -1;
  for (let i = 0; i < times.length; i++) {
    const b = Math.min(n - 1, Math.floor(((times[i]! - t0) / span) * n));
    if (b !== bucket) {
      bucket = b;
      ts.push(times[i]!);
      ds.push(depths[i]!);
    } else if (depths[i]! > ds[ds.length - 1]!) ds[ds.length - 1] = depths[i]!;
  }
  return [ts, ds];
}

/** A region visit with gear: the region change, then the loadout through the gear budget, frame by frame. */
export async function simulateVisit(ctx: WorldContext, options: VisitOptions): Promise<VisitReport> {
  const w = createStreamingWorld(ctx, options.budget !== undefined ? { budget: options.budget } : {});
  const region = await simulateRegion(ctx, options.world, { streamingWorld: w, ...(options.layers !== undefined ? { layers: options.layers } : {}) });
  const gear = await simulateGear(ctx, options.equips ?? defaultLoadout(ctx.db), { streamingWorld: w });
  const mgr = w.gear!;
  const roles = new Map<string, string>();
  for (const b of region.bundles) roles.set(vfsKey(b.path), b.role);
  const info = w.cbm.region!;
  for (const l of info.layers) roles.set(vfsKey(l), 'layer');
  const objects = new Map(mgr.objects.filter((o) => o.requesters.size > 0 || o.state > 0).map((o) => [vfsKey(o.definition.path), o]));
  const rows: VisitBundleRow[] = w.streamer.bundles.all().map((b) => {
    const o = objects.get(vfsKey(b.path));
    const row: VisitBundleRow = bundleRow(b, o ? 'gear' : (roles.get(vfsKey(b.path)) ?? 'direct'));
    if (o) Object.assign(row, { cost: o.cost, estimate: o.estimate, priority: o.priority, requesters: o.requesters.size });
    return row;
  });
  // gear objects over the budget have no registry row: list them too
  for (const o of objects.values()) {
    if (w.streamer.bundles.find(o.definition.path)) continue;
    rows.push({ name: o.name, path: o.definition.path, role: 'gear', state: 'registered', references: 0, prefetches: 0, contentBytes: 0, resources: 0, requestedAt: undefined, residentAt: undefined, layout: undefined, cost: o.cost, estimate: o.estimate, priority: o.priority, requesters: o.requesters.size });
  }
  const n = options.maxPoints ?? 400;
  const series = w.streamer.depthSeries();
  const depths = series ? { open: series.open.map(([t, d]) => downsampleDepths(t, d, n)), load: series.load.map(([t, d]) => downsampleDepths(t, d, n)) } : undefined;
  const maxEvents = options.maxEvents ?? 2000;
  return {
    world: info.name,
    isTestWorld: info.isTestWorld,
    bundles: rows,
    budget: { used: gear.used, budget: gear.budget, required: gear.required },
    gear: gear.requests,
    depths,
    events: w.streamer.events.slice(0, maxEvents),
    eventsTotal: Object.values(w.streamer.counts).reduce((s, x) => s + x, 0),
    timeToResident: region.timeToResident,
    stream: w.streamer.report(),
  };
}
