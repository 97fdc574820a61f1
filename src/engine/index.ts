/** Public surface of the headless engine: clocks, world state, and (as they land) the script host. */
export * from './clocks.ts';
export * from './world.ts';
export { ENGINE_HYPOTHESES, engineHypotheses, type EngineHypothesis } from './hypotheses.ts';
