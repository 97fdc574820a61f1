/** Resource streaming: the resource table, the I/O pipeline, its two drivers (simulation, real) and what-if runs. */
export * from './hypotheses.ts';
export * from './threads.ts';
export * from './queues.ts';
export * from './resource-table.ts';
export * from './request.ts';
export * from './resource-types.ts';
export * from './latency.ts';
export * from './pipeline.ts';
export * from './streamer.ts';
export * from './scenarios.ts';
