/**
 * Public surface of the GADB v17 codec (`game.gamedb`, `.fxp` effects, `.bvr` behaviour graphs). See
 * `README.md` beside this file for the layout and the round-trip contract.
 */
export * from './types.ts';
export * from './type-codes.ts';
export * from './hypotheses.ts';
export { isGadb, parseGadb, parseGadbWithLayout, GADB_FORMAT, GADB_VERSION, type ParseGadbOptions } from './parse.ts';
export { writeGadb, writeGadbTo, type WriteGadbOptions, type WriteGadbToOptions, type GadbSink } from './write.ts';
export { validateGadb } from './validate.ts';
export { planGadbStringBlock, gadbSpanWalk, GadbSpanWalk, gadbRecordCellStarts, gadbCellTotal, gadbCompactCells, gadbItemIndex, GadbItemIndex, type GadbStringOrder, type GadbStringPlan } from './layout.ts';
export { gadbValueSectionOffset } from './parse.ts';
export { verifyGadb, type VerifyGadbOptions } from './verify.ts';
export { buildGadbIndex } from './gadb-index.ts';
export { assignGadbSlots, gadbRunFields, gadbSlotOrderKey, DEFAULT_GADB_FLAGGED_ORDER, type GadbFlaggedOrder, type GadbSlotField, type GadbSlotAssignment } from './slots.ts';
export {
  gadbCellToFloat,
  gadbFloatToCell,
  gadbCellToInt,
  readGadbBool,
  GADB_NULL_LINK,
  decodeGadbLink,
  encodeGadbLink,
  resolveGadbLink,
  findGadbItem,
  gadbItemBytes,
  decodeGadbText,
  decodeGadbTextBytes,
  decodeGadbFloats,
  decodeGadbInt64,
  decodeGadbCurve,
  decodeGadbCurveItem,
  decodeGadbBlockValue,
  decodeGadbElement,
  gadbBlockSize,
  type GadbLink,
  type GadbLinkTarget,
  type GadbElement,
  type GadbBlockValue,
} from './decode.ts';
export { buildGadb, type GadbBuildInput, type GadbBuildCategory, type GadbBuildRecord, type GadbBuildField, type GadbBuildValue } from './build.ts';
