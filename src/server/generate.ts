/** Makes the game-scale sample database with the generator of `src/gamedb/generate`. */
import { generateGadbBytes } from '../gamedb/generate/index.ts';
import { writeFileAtomic } from '../node/fs.ts';

/** Seed of the bundled sample: the same bytes on every machine, so URLs into it can be shared. */
export const SAMPLE_SEED = 919;

/**
 * Writes a database of the real game's shape and size (56.8 MB, 694,632 records) to `path`, atomically, or a
 * fraction of it with `scale` (0, 1].
 */
export async function generateSampleDatabase(path: string, scale = 1): Promise<void> {
  const { bytes } = generateGadbBytes({ seed: SAMPLE_SEED, scale });
  writeFileAtomic(path, bytes);
}
