/**
 * The stage queues (seed 001 "The I/O pipeline"). A queue is a double-buffered vector of handles: producers push
 * onto the input vector; the consumer, when its output vector is empty, swaps the two and reverses the run, then
 * takes from the end — so service is first-in first-out. The open and load stages each hold two such queues and
 * the stage runner always takes from the first non-empty one: queue 0 drains before queue 1 is touched.
 */

/** One double-buffered FIFO, with its high-water mark. */
export class DoubleBufferedQueue<T> {
  private input: T[] = [];
  private output: T[] = [];
  /** Largest depth (input + output) ever reached. */
  highWater = 0;
  /** Items pushed in all. */
  pushed = 0;

  get depth(): number {
    return this.input.length + this.output.length;
  }

  push(item: T): void {
    this.input.push(item);
    this.pushed++;
    const d = this.input.length + this.output.length;
    if (d > this.highWater) this.highWater = d;
  }

  /** The oldest item, or undefined. */
  take(): T | undefined {
    if (this.output.length === 0) {
      if (this.input.length === 0) return undefined;
      const swap = this.output;
      this.output = this.input;
      this.input = swap;
      this.output.reverse();
    }
    return this.output.pop();
  }
}

/** Records a stage queue's depth over time (one sample per change, at most one per `resolutionMs`). */
export class DepthRecorder {
  readonly times: number[] = [];
  readonly depths: number[] = [];
  private readonly resolutionMs: number;
  constructor(resolutionMs: number) {
    this.resolutionMs = resolutionMs;
  }
  record(t: number, depth: number): void {
    const n = this.times.length;
    if (n > 0 && t - this.times[n - 1]! < this.resolutionMs) {
      // within one bucket keep the deepest value, so peaks survive the sampling
      if (depth > this.depths[n - 1]!) this.depths[n - 1] = depth;
      return;
    }
    this.times.push(t);
    this.depths.push(depth);
  }
}

/** Two queues (0 and 1) of one stage; `take` serves queue 0 first. */
export class StageQueues<T> {
  readonly queues: readonly [DoubleBufferedQueue<T>, DoubleBufferedQueue<T>] = [new DoubleBufferedQueue<T>(), new DoubleBufferedQueue<T>()];
  readonly recorders: readonly [DepthRecorder, DepthRecorder] | undefined;
  private readonly now: () => number;

  constructor(now: () => number, resolutionMs: number | undefined) {
    this.now = now;
    this.recorders = resolutionMs === undefined ? undefined : [new DepthRecorder(resolutionMs), new DepthRecorder(resolutionMs)];
  }

  push(queue: 0 | 1, item: T): void {
    const q = this.queues[queue];
    q.push(item);
    this.recorders?.[queue].record(this.now(), q.depth);
  }

  take(): T | undefined {
    for (let i = 0; i < 2; i++) {
      const q = this.queues[i as 0 | 1];
      const item = q.take();
      if (item !== undefined) {
        this.recorders?.[i as 0 | 1].record(this.now(), q.depth);
        return item;
      }
    }
    return undefined;
  }

  get depth(): number {
    return this.queues[0].depth + this.queues[1].depth;
  }
}
