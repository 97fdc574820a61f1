/**
 * The I/O pipeline (seed 001 "The I/O pipeline", "The flow"): open → load → parse.
 *
 * 1. Submit queues a request on the open stage (queue 0 or 1), or — when the open thread is off — does the open
 *    work inline on the caller's thread.
 * 2. Open takes a slot of the open-file semaphore (32 slots: taken at open, released at parse), resolves the path
 *    through the mount vector and passes the request to the load stage.
 * 3. Load reads the bytes; a bundle content request goes to the bundle loader (with the path table), any other
 *    request to the parse stage.
 * 4. Parse gives the semaphore slot back, parses the data and hands it to its resource type.
 *
 * Each stage runs on its own thread when its switch byte is on (all three are on in the shipped game:
 * [base+0x262B520 / 521 / 522]); when one is off its work runs inline on the thread that hands the request on.
 * The open and load stages hold two double-buffered FIFO queues each and always drain queue 0 first; the parse
 * stage has one request vector.
 */
import type { Resolution } from '../vfs/mount-vector.ts';
import { DoubleBufferedQueue, StageQueues } from './queues.ts';
import { RESOURCE_STATE } from './resource-table.ts';
import type { LoadRequest } from './request.ts';
import type { ParseOutcome } from './resource-types.ts';
import { Semaphore, WorkSignal, ioOp, type Driver, type IoResult, type Thread, type ThreadBody } from './threads.ts';

/** The three switch bytes: which stages run on their own thread. */
export interface PipelineSwitches {
  open: boolean;
  load: boolean;
  parse: boolean;
}

/** All three threads on, as shipped. */
export const SHIPPED_SWITCHES: Readonly<PipelineSwitches> = { open: true, load: true, parse: true };

/** The open-file semaphore's initial and maximum count (u32 at 0x262AAA0). */
export const OPEN_FILE_SLOTS = 32;

/** What the pipeline needs from the rest of the streamer. */
export interface PipelineHooks {
  /** Resolves a path through the mount vector. */
  resolve(path: string): Promise<Resolution | undefined>;
  read(at: Resolution): Promise<Uint8Array>;
  /** The bundle loader: splits and registers a bundle's content (may stall on a malformed effect). */
  loadContent(request: LoadRequest, bytes: Uint8Array): ParseOutcome;
  /** The resource type's parse. */
  parse(request: LoadRequest, bytes: Uint8Array): ParseOutcome;
  /** Called when a request ends or stalls. */
  ended(request: LoadRequest): void;
}

export interface PipelineOptions {
  switches?: Partial<PipelineSwitches>;
  slots?: number;
  /** Record queue depths over time at this resolution (ms); undefined: only high-water marks. */
  depthResolutionMs?: number;
}

export class IoPipeline {
  readonly switches: PipelineSwitches;
  readonly slots: Semaphore;
  readonly openQueues: StageQueues<LoadRequest>;
  readonly loadQueues: StageQueues<LoadRequest>;
  /** The parse stage's request vector. */
  readonly parseQueue = new DoubleBufferedQueue<LoadRequest>();
  /** Submissions waiting for the caller's thread (inline opens when the open thread is off). */
  readonly callerQueue = new DoubleBufferedQueue<LoadRequest>();
  readonly threads: { caller: Thread; open?: Thread; load?: Thread; parse?: Thread };
  private readonly driver: Driver;
  private readonly hooks: PipelineHooks;
  private readonly signals: { caller: WorkSignal; open: WorkSignal; load: WorkSignal; parse: WorkSignal };

  constructor(driver: Driver, hooks: PipelineHooks, options: PipelineOptions = {}) {
    this.driver = driver;
    this.hooks = hooks;
    this.switches = { ...SHIPPED_SWITCHES, ...options.switches };
    this.slots = new Semaphore(options.slots ?? OPEN_FILE_SLOTS);
    this.slots.driver = driver;
    const now = () => driver.now();
    this.openQueues = new StageQueues(now, options.depthResolutionMs);
    this.loadQueues = new StageQueues(now, options.depthResolutionMs);
    const signal = (has: () => boolean): WorkSignal => {
      const s = new WorkSignal(has);
      s.driver = driver;
      return s;
    };
    this.signals = {
      caller: signal(() => this.callerQueue.depth > 0),
      open: signal(() => this.openQueues.depth > 0),
      load: signal(() => this.loadQueues.depth > 0),
      parse: signal(() => this.parseQueue.depth > 0),
    };
    this.threads = { caller: driver.spawn('caller', this.runner(() => this.callerQueue.take(), this.signals.caller, (r) => this.openWork(r))) };
    if (this.switches.open) this.threads.open = driver.spawn('open', this.runner(() => this.openQueues.take(), this.signals.open, (r) => this.openWork(r)));
    if (this.switches.load) this.threads.load = driver.spawn('load', this.runner(() => this.loadQueues.take(), this.signals.load, (r) => this.loadWork(r)));
    if (this.switches.parse) this.threads.parse = driver.spawn('parse', this.runner(() => this.parseQueue.take(), this.signals.parse, (r) => this.parseWork(r)));
  }

  /** Queues a request (submit 0x3DDDEC): on the open stage, or inline on the caller when the open thread is off. */
  submit(request: LoadRequest): void {
    request.resource.state = RESOURCE_STATE.queued;
    if (this.switches.open) {
      this.openQueues.push(request.queue, request);
      this.signals.open.notify();
    } else {
      this.callerQueue.push(request);
      this.signals.caller.notify();
    }
  }

  /** A stage thread: takes the first non-empty queue's oldest request, does the work, sleeps when empty. */
  private *runner(take: () => LoadRequest | undefined, signal: WorkSignal, work: (r: LoadRequest) => ThreadBody): ThreadBody {
    for (;;) {
      const r = take();
      if (!r) {
        yield { op: 'wait', signal };
        continue;
      }
      yield* work(r);
    }
  }

  private releaseSlot(r: LoadRequest): void {
    if (!r.holdsSlot) return;
    r.holdsSlot = false;
    this.slots.release();
  }

  private end(r: LoadRequest, status: 'done' | 'missing' | 'failed'): void {
    r.finish(status, this.driver.now());
    this.hooks.ended(r);
  }

  private *stall(r: LoadRequest, stage: 'load' | 'parse' | 'bundle', reason: string): ThreadBody {
    r.status = 'stalled';
    r.stalledIn = stage;
    r.stallReason = reason;
    this.hooks.ended(r);
    yield { op: 'stall', reason };
  }

  /** Open 0x3DD588: a semaphore slot, the path through the file system, then the load stage. */
  private *openWork(r: LoadRequest): ThreadBody {
    r.status = 'opening';
    yield { op: 'acquire', semaphore: this.slots };
    r.holdsSlot = true;
    yield { op: 'work', stage: 'open', bytes: 0 };
    const res = (yield ioOp(this.hooks.resolve(r.path))) as IoResult<Resolution | undefined>;
    r.times.opened = this.driver.now();
    if (!res.ok || !res.value) {
      // a missing file is harmless: no data, and the slot goes back at once (stream.missingSlot)
      this.releaseSlot(r);
      if (!res.ok) r.error = res.error;
      this.end(r, res.ok ? 'missing' : 'failed');
      return;
    }
    r.source = res.value;
    if (this.switches.load) {
      r.status = 'queued-load';
      this.loadQueues.push(r.queue, r); // stream.queueKept
      this.signals.load.notify();
    } else yield* this.loadWork(r);
  }

  /** Load 0x2D3444: the bytes; bundle content to the bundle loader, anything else to parse. */
  private *loadWork(r: LoadRequest): ThreadBody {
    r.status = 'loading';
    const res = (yield ioOp(this.hooks.read(r.source!))) as IoResult<Uint8Array>;
    if (!res.ok) {
      this.releaseSlot(r);
      r.error = res.error;
      this.end(r, 'failed');
      return;
    }
    const bytes = res.value;
    r.size = bytes.length;
    yield { op: 'work', stage: 'load', bytes: bytes.length };
    r.times.read = this.driver.now();
    if (r.kind === 'bundle-content') {
      yield { op: 'work', stage: 'bundle', bytes: bytes.length };
      const out = this.hooks.loadContent(r, bytes);
      if (!out.ok && 'stall' in out) {
        yield* this.stall(r, 'load', out.stall);
        return;
      }
      this.releaseSlot(r); // stream.bundleContentSlot
      if (!out.ok) r.error = out.error;
      this.end(r, out.ok ? 'done' : 'failed');
      return;
    }
    r.resource.state = RESOURCE_STATE.read;
    r.bytes = bytes;
    if (this.switches.parse) {
      r.status = 'queued-parse';
      this.parseQueue.push(r);
      this.signals.parse.notify();
    } else yield* this.parseWork(r);
  }

  /** Parse 0x3DD2A8: the slot back first, then the resource type's parse. */
  private *parseWork(r: LoadRequest): ThreadBody {
    this.releaseSlot(r);
    r.status = 'parsing';
    const bytes = r.bytes!;
    r.bytes = undefined;
    yield { op: 'work', stage: 'parse', bytes: bytes.length };
    const out = this.hooks.parse(r, bytes);
    if (!out.ok && 'stall' in out) {
      yield* this.stall(r, 'parse', out.stall);
      return;
    }
    if (!out.ok) r.error = out.error;
    this.end(r, out.ok ? 'done' : 'failed');
  }

  /** High-water marks: open queue 0 / 1, load queue 0 / 1, parse. */
  highWater(): { open: [number, number]; load: [number, number]; parse: number; slotsLowWater: number } {
    return {
      open: [this.openQueues.queues[0].highWater, this.openQueues.queues[1].highWater],
      load: [this.loadQueues.queues[0].highWater, this.loadQueues.queues[1].highWater],
      parse: this.parseQueue.highWater,
      slotsLowWater: this.slots.lowWater,
    };
  }
}
