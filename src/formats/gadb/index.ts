/**
 * Public surface of the GADB v17 codec (`game.gamedb`, `.fxp` effects, `.bvr` behaviour graphs). See
 * `README.md` beside this file for the layout and the round-trip contract.
 */
export * from './types.ts';
export * from './type-codes.ts';
export * from './hypotheses.ts';
export { isGadb, parseGadb, parseGadbWithLayout, GADB_FORMAT, GADB_VERSION, type ParseGadbOptions } from './parse.ts';
export { writeGadb, type WriteGadbOptions } from './write.ts';
export { validateGadb } from './validate.ts';
export { planStringBlock, type GadbStringOrder, type GadbStringPlan } from './layout.ts';
