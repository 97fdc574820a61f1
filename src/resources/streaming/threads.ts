/**
 * The pipeline's threads, written once and run by either of two drivers.
 *
 * A thread body is a generator that yields what it waits for: modelled work (`work`: costs virtual time in the
 * simulation, nothing in real mode, where the real cost is in the I/O), an I/O promise (`io`), a semaphore slot
 * (`acquire`), new work in its queues (`wait`), or nothing ever again (`stall`, the engine's raw stream that never
 * returns). Stage work that runs inline in the caller (a switch byte at 0) is a `yield*` into the next stage's body,
 * so the caller's thread does it, as in the engine.
 *
 * - `SimulationDriver`: a deterministic discrete-event simulation. Virtual time in milliseconds; events ordered by
 *   (time, sequence); an `io` is awaited before the next event runs, so the order of completion depends only on the
 *   inputs and the latency model, never on the machine.
 * - `RealtimeDriver`: each thread is an async loop; `io` is real asynchronous I/O (through the VFS); time is the
 *   wall clock (`performance.now`). `run()` resolves once every thread waits and nothing is in flight.
 *
 * No `node:*`: both run in the browser.
 */

/** The stages of the I/O pipeline (seed 001 "The I/O pipeline"). */
export type StageName = 'open' | 'load' | 'parse';

/** A counting semaphore whose waiters are threads, served first-in first-out. */
export class Semaphore {
  readonly max: number;
  count: number;
  readonly waiters: Thread[] = [];
  /** Fewest free slots seen. */
  lowWater: number;
  driver: Driver | undefined;

  constructor(max: number, initial = max) {
    this.max = max;
    this.count = initial;
    this.lowWater = initial;
  }

  tryAcquire(): boolean {
    if (this.count === 0) return false;
    this.count--;
    if (this.count < this.lowWater) this.lowWater = this.count;
    return true;
  }

  /** Frees a slot: handed straight to the first waiter, if any. */
  release(): void {
    const next = this.waiters.shift();
    if (next) this.driver!.wake(next);
    else if (this.count < this.max) this.count++;
    else throw new Error('semaphore released more often than acquired');
  }

  get inUse(): number {
    return this.max - this.count;
  }
}

/** Where a stage thread sleeps while its queues are empty (the stage's work event). */
export class WorkSignal {
  waiter: Thread | undefined;
  driver: Driver | undefined;
  readonly hasWork: () => boolean;
  constructor(hasWork: () => boolean) {
    this.hasWork = hasWork;
  }
  /** Wakes the sleeping thread (after work was pushed). */
  notify(): void {
    const t = this.waiter;
    if (t) {
      this.waiter = undefined;
      this.driver!.wake(t);
    }
  }
}

export type ThreadOp =
  | { readonly op: 'work'; readonly stage: StageName | 'bundle'; readonly bytes: number }
  | { readonly op: 'io'; readonly promise: Promise<unknown> }
  | { readonly op: 'acquire'; readonly semaphore: Semaphore }
  | { readonly op: 'wait'; readonly signal: WorkSignal }
  | { readonly op: 'stall'; readonly reason: string };

export type ThreadBody = Generator<ThreadOp, void, unknown>;

/** An I/O result as the thread receives it: the value, or the error it failed with. */
export type IoResult<T> = { ok: true; value: T } | { ok: false; error: unknown };

export type ThreadState = 'ready' | 'busy' | 'io' | 'blocked' | 'idle' | 'stalled' | 'done';

export interface Thread {
  readonly name: string;
  readonly body: ThreadBody;
  state: ThreadState;
  /** When it stalled, and why. */
  stall?: { at: number; reason: string };
  /** Real driver: resumes a parked thread. */
  resume?: () => void;
  /** Time spent in modelled work (simulation) or between yields (real). */
  busyMs: number;
}

/** Modelled cost of one piece of work, in milliseconds. */
export type WorkCost = (stage: StageName | 'bundle', bytes: number) => number;

export interface Driver {
  readonly mode: 'simulation' | 'real';
  /** Milliseconds since the driver started (virtual or wall). */
  now(): number;
  spawn(name: string, body: ThreadBody): Thread;
  /** Makes a parked thread runnable (a semaphore slot or work arrived). */
  wake(thread: Thread): void;
  /** Runs `fn` at time `at` (ms). */
  at(at: number, fn: () => void): void;
  /** Runs until nothing is left to do (or virtual time passes `until`); resolves with the time reached. */
  run(until?: number): Promise<number>;
  readonly threads: readonly Thread[];
}

/** Wraps a promise so the thread receives `{ ok, value | error }` (a rejected read never throws into the driver). */
export function ioOp<T>(promise: Promise<T>): ThreadOp {
  return { op: 'io', promise: promise.then((value) => ({ ok: true, value }) as IoResult<T>, (error: unknown) => ({ ok: false, error }) as IoResult<T>) };
}

interface SimEvent {
  t: number;
  seq: number;
  thread: Thread | undefined;
  fn: (() => void) | undefined;
}

/** A binary min-heap of events by (t, seq). */
class EventHeap {
  private items: SimEvent[] = [];
  get size(): number {
    return this.items.length;
  }
  peek(): SimEvent | undefined {
    return this.items[0];
  }
  private less(a: SimEvent, b: SimEvent): boolean {
    return a.t < b.t || (a.t === b.t && a.seq < b.seq);
  }
  push(e: SimEvent): void {
    const a = this.items;
    a.push(e);
    let i = a.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.less(a[i]!, a[p]!)) break;
      [a[i], a[p]] = [a[p]!, a[i]!];
      i = p;
    }
  }
  pop(): SimEvent | undefined {
    const a = this.items;
    const top = a[0];
    const last = a.pop();
    if (a.length > 0 && last) {
      a[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && this.less(a[l]!, a[m]!)) m = l;
        if (r < a.length && this.less(a[r]!, a[m]!)) m = r;
        if (m === i) break;
        [a[i], a[m]] = [a[m]!, a[i]!];
        i = m;
      }
    }
    return top;
  }
}

/** The deterministic discrete-event driver (virtual time). */
export class SimulationDriver implements Driver {
  readonly mode = 'simulation' as const;
  readonly threads: Thread[] = [];
  private readonly heap = new EventHeap();
  private seq = 0;
  private time = 0;
  private readonly cost: WorkCost;
  /** Events processed so far. */
  events = 0;

  constructor(cost: WorkCost) {
    this.cost = cost;
  }

  now(): number {
    return this.time;
  }

  spawn(name: string, body: ThreadBody): Thread {
    const t: Thread = { name, body, state: 'ready', busyMs: 0 };
    this.threads.push(t);
    this.heap.push({ t: this.time, seq: this.seq++, thread: t, fn: undefined });
    return t;
  }

  wake(thread: Thread): void {
    if (thread.state === 'done' || thread.state === 'stalled') return;
    thread.state = 'ready';
    this.heap.push({ t: this.time, seq: this.seq++, thread, fn: undefined });
  }

  at(at: number, fn: () => void): void {
    this.heap.push({ t: Math.max(at, this.time), seq: this.seq++, thread: undefined, fn });
  }

  private async step(thread: Thread): Promise<void> {
    let value: unknown;
    for (;;) {
      const r = thread.body.next(value);
      value = undefined;
      if (r.done) {
        thread.state = 'done';
        return;
      }
      const op = r.value;
      switch (op.op) {
        case 'work': {
          const ms = this.cost(op.stage, op.bytes);
          if (ms <= 0) continue;
          thread.state = 'busy';
          thread.busyMs += ms;
          this.heap.push({ t: this.time + ms, seq: this.seq++, thread, fn: undefined });
          return;
        }
        case 'io':
          thread.state = 'io';
          value = await op.promise;
          continue;
        case 'acquire':
          if (op.semaphore.tryAcquire()) continue;
          thread.state = 'blocked';
          op.semaphore.waiters.push(thread);
          return;
        case 'wait':
          if (op.signal.hasWork()) continue;
          thread.state = 'idle';
          op.signal.waiter = thread;
          return;
        case 'stall':
          thread.state = 'stalled';
          thread.stall = { at: this.time, reason: op.reason };
          return;
      }
    }
  }

  async run(until = Number.POSITIVE_INFINITY): Promise<number> {
    for (;;) {
      const next = this.heap.peek();
      if (!next || next.t > until) break;
      this.heap.pop();
      this.time = next.t;
      this.events++;
      if (next.fn) next.fn();
      else if (next.thread) await this.step(next.thread);
    }
    if (until !== Number.POSITIVE_INFINITY && this.time < until) this.time = until;
    return this.time;
  }

  /** Whether events are still scheduled. */
  get pending(): number {
    return this.heap.size;
  }
}

/** The real driver: async loops, real I/O, wall-clock time. */
export class RealtimeDriver implements Driver {
  readonly mode = 'real' as const;
  readonly threads: Thread[] = [];
  private readonly t0 = performance.now();
  private running = 0;
  private timers = 0;
  private idleWaiters: Array<() => void> = [];

  now(): number {
    return performance.now() - this.t0;
  }

  private settle(): void {
    if (this.running === 0 && this.timers === 0) {
      const w = this.idleWaiters;
      this.idleWaiters = [];
      for (const f of w) f();
    }
  }

  spawn(name: string, body: ThreadBody): Thread {
    const t: Thread = { name, body, state: 'ready', busyMs: 0 };
    this.threads.push(t);
    this.running++;
    queueMicrotask(() => void this.loop(t));
    return t;
  }

  private park(thread: Thread, state: ThreadState): Promise<void> {
    thread.state = state;
    this.running--;
    const p = new Promise<void>((resolve) => (thread.resume = resolve));
    this.settle();
    return p;
  }

  private async loop(thread: Thread): Promise<void> {
    let value: unknown;
    for (;;) {
      const t0 = performance.now();
      const r = thread.body.next(value);
      thread.busyMs += performance.now() - t0;
      value = undefined;
      if (r.done) {
        thread.state = 'done';
        this.running--;
        this.settle();
        return;
      }
      const op = r.value;
      switch (op.op) {
        case 'work':
          continue;
        case 'io':
          thread.state = 'io';
          value = await op.promise;
          continue;
        case 'acquire':
          if (op.semaphore.tryAcquire()) continue;
          op.semaphore.waiters.push(thread);
          await this.park(thread, 'blocked');
          continue;
        case 'wait':
          if (op.signal.hasWork()) continue;
          op.signal.waiter = thread;
          await this.park(thread, 'idle');
          continue;
        case 'stall':
          thread.stall = { at: this.now(), reason: op.reason };
          await this.park(thread, 'stalled');
          return;
      }
    }
  }

  wake(thread: Thread): void {
    const resume = thread.resume;
    if (!resume || thread.state === 'stalled') return;
    thread.resume = undefined;
    thread.state = 'ready';
    this.running++;
    resume();
  }

  at(at: number, fn: () => void): void {
    this.timers++;
    setTimeout(() => {
      this.timers--;
      fn();
      this.settle();
    }, Math.max(0, at - this.now()));
  }

  run(): Promise<number> {
    return new Promise((resolve) => {
      this.idleWaiters.push(() => resolve(this.now()));
      // a microtask later, so threads spawned just before start first
      queueMicrotask(() => this.settle());
    });
  }
}
