/**
 * scry's library surface. Codecs and runtime layers only: nothing below this file imports node:*.
 * Names are prefixed by their format (`parseGadb`, `parseSd2`, …) so these re-exports never collide.
 */
export * from './binary/index.ts';
export * from './hash/index.ts';
export * from './formats/gadb/index.ts';
export * from './formats/sd2/index.ts';
export * from './formats/scri/index.ts';
export * from './formats/hks/index.ts';
export * from './formats/arch06/index.ts';
export * from './formats/apl/index.ts';
export * from './compress/index.ts';
export * from './formats/bndl/index.ts';
export * from './formats/embb/index.ts';
export * from './formats/strdb/index.ts';
export * from './formats/scripts/index.ts';
export * from './formats/registry.ts';
export * from './gamedb/index.ts';
export * from './gamedb/edit/index.ts';
export * from './staticdb/index.ts';
export * from './script/index.ts';
export * from './resources/index.ts';
export * from './engine/index.ts';
