/** Public surface of the headless engine: clocks, world state, natives and DB<Kind> tables, the script host, traces. */
export * from './clocks.ts';
export * from './world.ts';
export * from './dbkinds.ts';
export * from './natives.ts';
export * from './stack.ts';
export * from './schedule.ts';
export * from './trace.ts';
export * from './objects.ts';
export * from './layer.ts';
export * from './host.ts';
export * from './needs.ts';
export { usageFromAst } from './needs-ast.ts';
export { closestNames, editDistance } from './closest.ts';
export { ENGINE_HYPOTHESES, engineHypotheses, type EngineHypothesis } from './hypotheses.ts';
export * from './run.ts';
