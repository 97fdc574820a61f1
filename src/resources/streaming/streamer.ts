/**
 * The streamer: the resource table, the I/O pipeline and the bundle registry over one mount vector, in one of two
 * modes of the same implementation —
 *
 * - `simulation`: a deterministic discrete-event run in virtual time with a latency model per stage
 *   (`latency.ts`); the bytes still come from the mount vector, so what is parsed and registered is real, and the
 *   order of completion depends only on the inputs;
 * - `real`: the same threads driven by real asynchronous I/O through the VFS (archive sources over async file
 *   handles in Node, `src/node/streaming.ts`), timed by the wall clock.
 *
 * Producers: `load` (a resource by path, queue 0 unless told), `requestTexture` (the texture streamer's rule:
 * a path containing `tex0` or `texuhd` goes to queue 1), and the bundle registry's manifest and content loads.
 */
import type { P919Table } from '../../hash/p919.ts';
import type { MountVector } from '../vfs/mount-vector.ts';
import { loadBundleContent } from '../bundles/content.ts';
import { BundleRegistry, type Bundle, type BundleLoader } from '../bundles/registry.ts';
import { DEFAULT_LATENCY, latencyCost, type LatencyModel } from './latency.ts';
import { IoPipeline, type PipelineSwitches } from './pipeline.ts';
import { LoadRequest } from './request.ts';
import { RESOURCE_STATE, ResourceTable, type Resource, type ResourceTableStats } from './resource-table.ts';
import { parseResource } from './resource-types.ts';
import { RealtimeDriver, SimulationDriver, type Driver, type StageName } from './threads.ts';

export type StreamMode = 'simulation' | 'real';

/** One entry of the event timeline. */
export interface StreamEvent {
  /** Milliseconds (driver time). */
  t: number;
  kind: string;
  path?: string;
  request?: number;
  queue?: 0 | 1;
  detail?: Record<string, unknown>;
}

export interface StreamerOptions {
  mode?: StreamMode;
  vfs: MountVector;
  switches?: Partial<PipelineSwitches>;
  /** Open-file semaphore slots (default 32). */
  slots?: number;
  latency?: LatencyModel;
  /** P919 table for resource keys (default: the built-in one). */
  table?: P919Table;
  /** Sample queue depths over time at this resolution (ms); default 1 ms in simulation, off in real mode. */
  depthResolutionMs?: number | undefined;
  /** Keep at most this many timeline events (default 50,000; 0 keeps none, counters still count). */
  maxEvents?: number;
  /** Called for every event (the engine's listeners, the workbench). */
  onEvent?: (e: StreamEvent) => void;
}

/** A request that ended, in order of completion. */
export interface Completion {
  id: number;
  path: string;
  kind: LoadRequest['kind'];
  status: 'done' | 'missing' | 'failed' | 'stalled';
  queue: 0 | 1;
  submitted: number;
  t: number;
  bytes: number;
}

export interface StallReport {
  path: string;
  stage: StageName | 'bundle';
  at: number;
  reason: string;
  /** Requests queued or in flight behind it when the run ended. */
  waitingBehind: number;
}

export interface StreamReport {
  mode: StreamMode;
  timeMs: number;
  switches: PipelineSwitches;
  requests: { submitted: number; done: number; missing: number; failed: number; stalled: number; shared: number; residentHits: number };
  highWater: { open: [number, number]; load: [number, number]; parse: number };
  slots: { max: number; inUse: number; lowWater: number };
  table: ResourceTableStats;
  bundles: { rows: number; resident: number; missing: number; prefetched: number; destroyed: number };
  pathTableRows: number;
  stalls: StallReport[];
  threads: Array<{ name: string; state: string; busyMs: number }>;
  /** Simulation events processed (0 in real mode). */
  events: number;
}

/** The texture streamer's queue choice: tex0 / texuhd tiers wait in queue 1. */
export function textureQueue(path: string): 0 | 1 {
  const p = path.toLowerCase();
  return p.includes('tex0') || p.includes('texuhd') ? 1 : 0;
}

export class Streamer implements BundleLoader {
  readonly mode: StreamMode;
  readonly vfs: MountVector;
  readonly driver: Driver;
  readonly table: ResourceTable;
  readonly pipeline: IoPipeline;
  readonly bundles: BundleRegistry;
  readonly latency: LatencyModel;
  readonly events: StreamEvent[] = [];
  readonly completions: Completion[] = [];
  readonly stalls: StallReport[] = [];
  /** Event counts by kind (kept even when the timeline is capped). */
  readonly counts: Record<string, number> = {};
  private readonly maxEvents: number;
  private readonly onEvent: ((e: StreamEvent) => void) | undefined;
  private nextId = 1;
  private readonly stats = { submitted: 0, shared: 0, residentHits: 0 };
  private readonly contentDone = new Map<LoadRequest, (r: LoadRequest) => void>();

  constructor(options: StreamerOptions) {
    this.mode = options.mode ?? 'simulation';
    this.vfs = options.vfs;
    this.latency = options.latency ?? DEFAULT_LATENCY;
    this.driver = this.mode === 'simulation' ? new SimulationDriver(latencyCost(this.latency)) : new RealtimeDriver();
    this.table = new ResourceTable(options.table);
    this.maxEvents = options.maxEvents ?? 50_000;
    this.onEvent = options.onEvent;
    const resolution = 'depthResolutionMs' in options ? options.depthResolutionMs : this.mode === 'simulation' ? 1 : undefined;
    this.pipeline = new IoPipeline(
      this.driver,
      {
        resolve: (path) => this.vfs.resolve(path),
        read: (at) => at.source.read(at.path),
        loadContent: (r, bytes) => {
          const bundle = r.bundle as Bundle;
          // a prefetch discarded while its content was in flight: the bytes register nothing
          if (bundle.contentRequest !== r) return { ok: true, data: undefined };
          return loadBundleContent(bundle, bytes, this.table, (h) => this.vfs.pathsForHash(h)[0]);
        },
        parse: (r, bytes) => {
          const out = parseResource(bytes, r.path);
          const node = r.resource;
          if (out.ok) {
            node.data = out.data;
            node.bytes = bytes.length;
            node.state = RESOURCE_STATE.finalized;
          } else if ('error' in out) node.error = out.error;
          return out;
        },
        ended: (r) => this.ended(r),
      },
      { ...(options.switches ? { switches: options.switches } : {}), ...(options.slots !== undefined ? { slots: options.slots } : {}), ...(resolution !== undefined ? { depthResolutionMs: resolution } : {}) },
    );
    this.bundles = new BundleRegistry(this);
  }

  now(): number {
    return this.driver.now();
  }

  /** Records an event on the timeline (and counts it). */
  event(kind: string, fields: Omit<StreamEvent, 't' | 'kind'> = {}): void {
    this.counts[kind] = (this.counts[kind] ?? 0) + 1;
    if (this.events.length >= this.maxEvents && !this.onEvent) return;
    const e: StreamEvent = { t: this.now(), kind, ...fields };
    if (this.events.length < this.maxEvents) this.events.push(e);
    this.onEvent?.(e);
  }

  /** BundleLoader: a bundle event. */
  emit(kind: string, bundle: Bundle, detail?: Record<string, unknown>): void {
    this.event(kind, detail ? { path: bundle.path, detail } : { path: bundle.path });
  }

  private ended(r: LoadRequest): void {
    const node = r.resource;
    if (node.request === r) node.request = undefined;
    const status = r.status === 'stalled' ? 'stalled' : (r.status as Completion['status']);
    this.completions.push({ id: r.id, path: r.path, kind: r.kind, status, queue: r.queue, submitted: r.times.submitted, t: this.now(), bytes: r.size });
    if (status === 'stalled') {
      this.stalls.push({ path: r.path, stage: r.stalledIn ?? 'load', at: this.now(), reason: r.stallReason ?? 'stalled', waitingBehind: 0 });
    }
    this.event(`request.${status}`, { path: r.path, request: r.id, queue: r.queue });
    const done = this.contentDone.get(r);
    if (done) {
      this.contentDone.delete(r);
      done(r);
    }
  }

  private submit(kind: LoadRequest['kind'], node: Resource, queue: 0 | 1, bundle: Bundle | undefined): LoadRequest {
    const r = new LoadRequest(this.nextId++, kind, node.path, queue, node, bundle, this.now());
    node.request = r;
    this.stats.submitted++;
    this.event('request.submit', { path: node.path, request: r.id, queue });
    this.pipeline.submit(r);
    return r;
  }

  /**
   * BundleLoader: loads a resource unless it is resident (released ≠ gone: no I/O then) or already in flight (the
   * request is shared).
   */
  loadResource(node: Resource, done: (status: 'done' | 'missing' | 'failed' | 'resident') => void, queue: 0 | 1 = 0): void {
    if (node.resident) {
      node.reuses++;
      this.stats.residentHits++;
      done('resident');
      return;
    }
    let r = node.request;
    if (r && !r.finished) {
      r.refs++;
      this.stats.shared++;
    } else r = this.submit('resource', node, queue, undefined);
    r.then((o) => done(o.status));
  }

  /** BundleLoader: the bundle content job — the `.embb` on queue 0, its bytes to the bundle loader. */
  submitContent(bundle: Bundle, done: (request: LoadRequest) => void): LoadRequest {
    const r = this.submit('bundle-content', bundle.content!, 0, bundle);
    this.contentDone.set(r, done);
    return r;
  }

  /**
   * Loads a resource by path and takes a reference to it (release it with `table.release`). `done` is told how it
   * ended. Queue 0 unless `queue` says otherwise.
   */
  load(path: string, options: { queue?: 0 | 1; done?: (status: 'done' | 'missing' | 'failed' | 'resident') => void } = {}): Resource {
    const node = this.table.acquire(path);
    this.loadResource(node, options.done ?? (() => {}), options.queue ?? 0);
    return node;
  }

  /** The texture streamer's request (0x3DD45C): tex0 / texuhd tiers to queue 1, everything else to queue 0. */
  requestTexture(path: string, done?: (status: 'done' | 'missing' | 'failed' | 'resident') => void): Resource {
    return this.load(path, { queue: textureQueue(path), ...(done ? { done } : {}) });
  }

  /** Runs `fn` at time `t` (ms): workload steps, frames. */
  at(t: number, fn: () => void): void {
    this.driver.at(t, fn);
  }

  /** Runs until everything settles (or, in simulation, until virtual time `until`). */
  async run(until?: number): Promise<number> {
    return this.driver.run(until);
  }

  /** Queue depths over time (simulation, or when `depthResolutionMs` was given). */
  depthSeries(): { open: [number[], number[]][]; load: [number[], number[]][] } | undefined {
    const o = this.pipeline.openQueues.recorders;
    const l = this.pipeline.loadQueues.recorders;
    if (!o || !l) return undefined;
    return { open: o.map((r) => [r.times, r.depths] as [number[], number[]]), load: l.map((r) => [r.times, r.depths] as [number[], number[]]) };
  }

  report(): StreamReport {
    const c = this.completions;
    const count = (s: Completion['status']) => c.reduce((n, x) => n + (x.status === s ? 1 : 0), 0);
    const hw = this.pipeline.highWater();
    const waiting = this.pipeline.openQueues.depth + this.pipeline.loadQueues.depth + this.pipeline.parseQueue.depth + this.pipeline.callerQueue.depth;
    const bundles = this.bundles.all();
    return {
      mode: this.mode,
      timeMs: this.now(),
      switches: { ...this.pipeline.switches },
      requests: { submitted: this.stats.submitted, done: count('done'), missing: count('missing'), failed: count('failed'), stalled: count('stalled'), shared: this.stats.shared, residentHits: this.stats.residentHits },
      highWater: { open: hw.open, load: hw.load, parse: hw.parse },
      slots: { max: this.pipeline.slots.max, inUse: this.pipeline.slots.inUse, lowWater: hw.slotsLowWater },
      table: this.table.stats(),
      bundles: { rows: bundles.length, resident: bundles.filter((b) => b.resident).length, missing: bundles.filter((b) => b.state === 'missing').length, prefetched: bundles.filter((b) => b.prefetches > 0).length, destroyed: this.bundles.destroyed },
      pathTableRows: this.vfs.pathTable.length,
      stalls: this.stalls.map((s) => ({ ...s, waitingBehind: waiting })),
      threads: this.driver.threads.map((t) => ({ name: t.name, state: t.state, busyMs: Math.round(t.busyMs * 1000) / 1000 })),
      events: this.driver instanceof SimulationDriver ? this.driver.events : 0,
    };
  }
}
