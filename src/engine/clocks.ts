/**
 * The engine's scaled clocks (seed 004, "Time and frames"). The engine keeps eleven clock states, one per static
 * slot from 0x2702548 to 0x2702598; each holds a reference count, the step in u32 milliseconds and f32 seconds,
 * the time in u32 milliseconds and f64 seconds, a rate numerator / denominator, a scale, the effective rate of
 * the last step, the smallest and largest step, a stop byte, one-shot extra milliseconds and a list of listeners.
 *
 * The update (vf2 0x59A2F50), verified in the seed: step = rate x real elapsed + the pending extra (which is then
 * cleared); while the stop byte is set or the denominator exceeds 0xFFFF the step is forced to 0 and not clamped;
 * otherwise it is clamped to [min, max]; it is then passed to every listener. The rounding is H-CLOCK-STEP-ROUNDING.
 *
 * Clock-state field offsets are those of the seed (state = holder +0x08).
 */
import { ToolkitError, ErrorCode } from '../binary/errors.ts';
import { ENGINE_HYPOTHESES } from './hypotheses.ts';

/** The largest step a clock without an upper bound allows: +0x3C = 0xFFFFFFFF. */
export const UNBOUNDED_STEP_MS = 0xffffffff;
/** A denominator above this forces the step to 0 (seed 004). */
export const MAX_RATE_DENOMINATOR = 0xffff;

/** One clock slot of the executable, as data. */
export interface ClockSlotSpec {
  /** Stable name used by the API, traces and the CLI. */
  readonly id: ClockId;
  /** What the seed calls it. */
  readonly label: string;
  /** The static slot, relative to the image base. */
  readonly slot: number;
  /** Stops (stop byte 1) while the game is paused or unfocused. */
  readonly pausable: boolean;
  /** One of the five clocks slow motion scales as channels. */
  readonly slowMotionChannel: boolean;
  /** +0x38, the smallest step in ms. */
  readonly minStepMs: number;
  /** +0x3C, the largest step in ms (`UNBOUNDED_STEP_MS` for none). */
  readonly maxStepMs: number;
  /** Where the row comes from: `seed` (measured) or the hypothesis id it rests on. */
  readonly source: 'seed' | string;
}

/**
 * The eleven clock slots in slot order (seed 004). Six clocks clamp to 1-100 ms; the unscaled and real-time clocks
 * have no upper bound; every clock but the real-time one stops while paused; the first five named ones (world,
 * player, combat companion, world UI, presentations) are slow motion's channels.
 */
export const CLOCK_SLOTS = [
  { id: 'player', label: 'player', slot: 0x2702548, pausable: true, slowMotionChannel: true, minStepMs: 1, maxStepMs: 100, source: 'seed' },
  { id: 'unscaled', label: 'unscaled', slot: 0x2702550, pausable: true, slowMotionChannel: false, minStepMs: 0, maxStepMs: UNBOUNDED_STEP_MS, source: ENGINE_HYPOTHESES.clockUnboundedMin.id },
  { id: 'worldUi', label: 'world UI', slot: 0x2702558, pausable: true, slowMotionChannel: true, minStepMs: 1, maxStepMs: 100, source: 'seed' },
  { id: 'clientFx', label: 'unnamed (a ClientFX manager outside the client shell runs on it)', slot: 0x2702560, pausable: true, slowMotionChannel: false, minStepMs: 1, maxStepMs: 100, source: ENGINE_HYPOTHESES.clockUnnamed.id },
  { id: 'unnamed68', label: 'unnamed', slot: 0x2702568, pausable: true, slowMotionChannel: false, minStepMs: 1, maxStepMs: 100, source: ENGINE_HYPOTHESES.clockUnnamed.id },
  { id: 'combatCompanion', label: 'combat companion', slot: 0x2702570, pausable: true, slowMotionChannel: true, minStepMs: 1, maxStepMs: 100, source: 'seed' },
  { id: 'presentations', label: 'presentations', slot: 0x2702578, pausable: true, slowMotionChannel: true, minStepMs: 1, maxStepMs: 100, source: 'seed' },
  { id: 'unnamed80', label: 'unnamed', slot: 0x2702580, pausable: true, slowMotionChannel: false, minStepMs: 1, maxStepMs: 100, source: ENGINE_HYPOTHESES.clockUnnamed.id },
  { id: 'ui', label: 'UI', slot: 0x2702588, pausable: true, slowMotionChannel: false, minStepMs: 1, maxStepMs: 100, source: 'seed' },
  { id: 'realTime', label: 'real-time', slot: 0x2702590, pausable: false, slowMotionChannel: false, minStepMs: 0, maxStepMs: UNBOUNDED_STEP_MS, source: ENGINE_HYPOTHESES.clockUnboundedMin.id },
  { id: 'world', label: 'world', slot: 0x2702598, pausable: true, slowMotionChannel: true, minStepMs: 1, maxStepMs: 100, source: 'seed' },
] as const satisfies readonly (Omit<ClockSlotSpec, 'id'> & { id: string })[];

/** A clock's name. */
export type ClockId = (typeof CLOCK_SLOTS)[number]['id'];

/** The clocks slow motion scales (seed 004: "the first five"). */
export const SLOW_MOTION_CHANNELS: readonly ClockId[] = CLOCK_SLOTS.filter((s) => s.slowMotionChannel).map((s) => s.id);

/** Receives every step of a clock (a listener's vf2). */
export type ClockListener = (stepMs: number, clock: Clock) => void;

/** One clock state (the holder's +0x08 object). Field comments give the seed's offsets. */
export class Clock {
  readonly spec: ClockSlotSpec;
  /** +0x08: objects that use the clock as their time source, the holder included (so 1 when unused). */
  refCount = 1;
  /** +0x10: the last step in ms (u32). */
  stepMs = 0;
  /** +0x14: the last step in seconds (f32). */
  stepSeconds = 0;
  /** +0x18: the time in ms (u32, wraps). */
  timeMs = 0;
  /** +0x20: the time in seconds (f64). */
  timeSeconds = 0;
  /** +0x28: rate numerator (u32). */
  rateNumerator = 1;
  /** +0x2C: rate denominator (u32); above 0xFFFF the step is 0. */
  rateDenominator = 1;
  /** +0x30: scale (f32); slow motion writes it on the channel clocks. */
  scale = 1;
  /** +0x34: the effective rate of the last step (f32). */
  effectiveRate = 1;
  /** +0x38: the smallest step in ms. */
  minStepMs: number;
  /** +0x3C: the largest step in ms. */
  maxStepMs: number;
  /** +0x40: the stop byte; 1 while paused. */
  stop = 0;
  /** +0x44: extra ms added to the next step once. */
  extraMs = 0;
  /** From +0x60: the listeners, called in registration order. */
  readonly listeners: ClockListener[] = [];

  constructor(spec: ClockSlotSpec) {
    this.spec = spec;
    this.minStepMs = spec.minStepMs;
    this.maxStepMs = spec.maxStepMs;
  }

  get id(): ClockId {
    return this.spec.id;
  }

  /** Takes a reference (an object starts using this clock as its time source). */
  acquire(): void {
    this.refCount++;
  }

  /** Drops a reference; the holder's own reference is never dropped. */
  release(): void {
    if (this.refCount > 1) this.refCount--;
  }

  /** Adds milliseconds to the next step only (+0x44). */
  addExtra(ms: number): void {
    this.extraMs = (this.extraMs + toU32(ms)) >>> 0;
  }

  /** Sets the rate numerator / denominator (u32 each). */
  setRate(numerator: number, denominator: number): void {
    this.rateNumerator = toU32(numerator);
    this.rateDenominator = toU32(denominator);
  }

  addListener(listener: ClockListener): () => void {
    this.listeners.push(listener);
    return () => {
      const i = this.listeners.indexOf(listener);
      if (i >= 0) this.listeners.splice(i, 1);
    };
  }

  /**
   * One update with `realElapsedMs` of real time: computes the step by the seed's rule, advances the time and
   * calls every listener. Returns the step in ms.
   */
  update(realElapsedMs: number): number {
    const elapsed = Number.isFinite(realElapsedMs) && realElapsedMs > 0 ? realElapsedMs : 0;
    // H-CLOCK-STEP-ROUNDING: f32 effective rate, rounded-down product.
    this.effectiveRate = this.rateDenominator === 0 ? 0 : Math.fround((this.rateNumerator / this.rateDenominator) * this.scale);
    let step = Math.floor(this.effectiveRate * elapsed) + this.extraMs;
    this.extraMs = 0;
    if (this.stop !== 0 || this.rateDenominator > MAX_RATE_DENOMINATOR) {
      step = 0;
    } else {
      step = Math.min(Math.max(step, this.minStepMs), this.maxStepMs);
    }
    step = toU32(step);
    this.stepMs = step;
    this.stepSeconds = Math.fround(step / 1000);
    this.timeMs = (this.timeMs + step) >>> 0;
    this.timeSeconds += step / 1000;
    for (const listener of [...this.listeners]) listener(step, this);
    return step;
  }

  /** The clock state as the seed lays it out, for traces and the workbench. */
  snapshot(): ClockSnapshot {
    return {
      id: this.id,
      slot: this.spec.slot,
      refCount: this.refCount,
      stepMs: this.stepMs,
      stepSeconds: this.stepSeconds,
      timeMs: this.timeMs,
      timeSeconds: this.timeSeconds,
      rateNumerator: this.rateNumerator,
      rateDenominator: this.rateDenominator,
      scale: this.scale,
      effectiveRate: this.effectiveRate,
      minStepMs: this.minStepMs,
      maxStepMs: this.maxStepMs,
      stop: this.stop,
      extraMs: this.extraMs,
      listeners: this.listeners.length,
    };
  }
}

/** A clock's state as plain data. */
export interface ClockSnapshot {
  id: ClockId;
  slot: number;
  refCount: number;
  stepMs: number;
  stepSeconds: number;
  timeMs: number;
  timeSeconds: number;
  rateNumerator: number;
  rateDenominator: number;
  scale: number;
  effectiveRate: number;
  minStepMs: number;
  maxStepMs: number;
  stop: number;
  extraMs: number;
  listeners: number;
}

/** The eleven clocks of one engine, updated together once per frame. */
export class ClockSet {
  /** In slot order (H-CLOCK-ORDER). */
  readonly all: readonly Clock[];
  readonly #byId: Map<ClockId, Clock>;
  #paused = false;

  constructor() {
    this.all = CLOCK_SLOTS.map((spec) => new Clock(spec));
    this.#byId = new Map(this.all.map((c) => [c.id, c]));
  }

  get(id: ClockId): Clock {
    const c = this.#byId.get(id);
    if (!c) throw new ToolkitError(ErrorCode.Usage, `no clock ${JSON.stringify(id)} (clocks: ${CLOCK_SLOTS.map((s) => s.id).join(', ')})`);
    return c;
  }

  get world(): Clock {
    return this.get('world');
  }

  get realTime(): Clock {
    return this.get('realTime');
  }

  get paused(): boolean {
    return this.#paused;
  }

  /** Pause: the stop byte of every pausable clock (all but the real-time one) is set, or cleared. */
  setPaused(paused: boolean): void {
    this.#paused = paused;
    for (const c of this.all) if (c.spec.pausable) c.stop = paused ? 1 : 0;
  }

  /** Slow motion: `scale` on the given channel clocks (default: the five channels); 1 ends it (H-SLOWMO-SCALE). */
  setSlowMotion(scale: number, channels: readonly ClockId[] = SLOW_MOTION_CHANNELS): void {
    const s = Math.fround(Number.isFinite(scale) && scale >= 0 ? scale : 1);
    for (const id of channels) {
      const c = this.get(id);
      if (!c.spec.slowMotionChannel) throw new ToolkitError(ErrorCode.Usage, `clock ${id} is not a slow-motion channel (channels: ${SLOW_MOTION_CHANNELS.join(', ')})`);
      c.scale = s;
    }
  }

  /** One frame: every clock updates with the same real elapsed time, in slot order. */
  tick(realElapsedMs: number): void {
    for (const c of this.all) c.update(realElapsedMs);
  }

  snapshot(): ClockSnapshot[] {
    return this.all.map((c) => c.snapshot());
  }
}

function toU32(x: number): number {
  if (!Number.isFinite(x) || x <= 0) return 0;
  return x >= 0xffffffff ? 0xffffffff : Math.floor(x);
}
