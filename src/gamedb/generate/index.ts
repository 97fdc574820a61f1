/** Game-scale GADB generator: `generateGadb` (model) and `generateGadbBytes` (file bytes through `writeGadb`). */
import { writeGadb } from '../../formats/gadb/write.ts';
import { generateGadb, type GenerateGadbOptions, type GeneratedGadb } from './generate.ts';

export { generateGadb, type GenerateGadbOptions, type GeneratedGadb, type GenStats } from './generate.ts';
export { GAME_DB_FIGURES, scaledFigures, SHARED_FLOAT_PAIRS, ZERO_VECTOR_CELLS, MOST_SHARED_RECORD_NAMES, type GenFigures } from './figures.ts';
export { Prng } from './prng.ts';

/**
 * Version of the generator's output: bumped whenever the same seed and scale would give different bytes, so caches
 * of generated files (the benchmark's `out/bench/`) are never stale.
 */
export const GADB_GENERATOR_VERSION = 4;

/** Generates a database and writes it with the codec: the bytes of a GADB v17 file, plus what was generated. */
export function generateGadbBytes(options: GenerateGadbOptions): GeneratedGadb & { bytes: Uint8Array } {
  const generated = generateGadb(options);
  return { ...generated, bytes: writeGadb(generated.gadb) };
}
