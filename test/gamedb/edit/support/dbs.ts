/** Shared inputs for the editing tests: the real sample and one small generated database (built once per file). */
import { parseGadb, writeGadb } from '../../../../src/formats/gadb/index.ts';
import type { Gadb } from '../../../../src/formats/gadb/types.ts';
import { generateGadbBytes } from '../../../../src/gamedb/generate/index.ts';
import { loadFixture } from '../../../support/fixtures.ts';

export const realBytes = loadFixture('gadb', 'landmine_curse.fxp');
export function real(): Gadb {
  return parseGadb(realBytes, { owned: true });
}

let generated: Uint8Array | undefined;
/** A generated database at 1/500 of the game's scale (about 280 kB: every type, primaries, arrays, zero-field records). */
export function generatedBytes(): Uint8Array {
  return (generated ??= generateGadbBytes({ seed: 42, scale: 0.002, exactSize: false }).bytes);
}
export function gen(): Gadb {
  return parseGadb(generatedBytes(), { owned: true });
}

export { parseGadb, writeGadb };
