/**
 * The simulation's cost model (hypothesis `stream.latency`: scry's model, not a measurement of the game): each
 * stage's work costs a fixed time per request plus its bytes over a rate. The defaults are chosen so that a region
 * change of the generated world (skins, then six creature bundles, ~190 MB) becomes resident in about the seed's
 * 3 seconds; the open stage's cost is per file, independent of size.
 */
import type { StageName, WorkCost } from './threads.ts';

export interface StageLatency {
  /** Milliseconds per request. */
  fixedMs: number;
  /** Throughput in MiB per second; 0 = no per-byte cost. */
  mibPerSecond: number;
}

/** One cost per stage; `bundle` is the bundle loader (splitting and registering a bundle's content). */
export type LatencyModel = Record<StageName | 'bundle', StageLatency>;

export const DEFAULT_LATENCY: LatencyModel = {
  open: { fixedMs: 0.4, mibPerSecond: 0 },
  load: { fixedMs: 0.1, mibPerSecond: 100 },
  parse: { fixedMs: 0.05, mibPerSecond: 400 },
  bundle: { fixedMs: 0.2, mibPerSecond: 160 },
};

/** Milliseconds for `bytes` of work in one stage. */
export function stageCost(model: LatencyModel, stage: StageName | 'bundle', bytes: number): number {
  const s = model[stage];
  return s.fixedMs + (s.mibPerSecond > 0 ? (bytes / (s.mibPerSecond * 1048576)) * 1000 : 0);
}

export function latencyCost(model: LatencyModel): WorkCost {
  return (stage, bytes) => stageCost(model, stage, bytes);
}

/** A model with some stages overridden (e.g. from a trace file or `--latency`). */
export function withLatency(overrides: Partial<Record<StageName | 'bundle', Partial<StageLatency>>> = {}, base: LatencyModel = DEFAULT_LATENCY): LatencyModel {
  const out = { ...base };
  for (const k of Object.keys(overrides) as Array<StageName | 'bundle'>) out[k] = { ...base[k], ...overrides[k] };
  return out;
}
