/** Public surface of the gamedb runtime layer: the engine's view of a GADB database. */
export * from './database.ts';
export * from './errors.ts';
export * from './names.ts';
export * from './values.ts';
export * from './format.ts';
export * from './search.ts';
export * from './summary.ts';
