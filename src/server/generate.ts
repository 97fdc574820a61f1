/** Makes the game-scale sample database with the generator of `src/gamedb/generate`, and the sample archive. */
import { join } from 'node:path';
import { generateGadbBytes } from '../gamedb/generate/index.ts';
import { packArch06 } from '../formats/arch06/pack.ts';
import { readBytes, writeFileAtomic } from '../node/fs.ts';
import { repoRoot } from './samples.ts';

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

/** Fixtures packed into the sample archive (archive path → repository path): a database, scripts, text. */
export const SAMPLE_ARCHIVE_ENTRIES: readonly [string, string][] = [
  ['gamedb/effects/landmine_curse.fxp', 'test/fixtures/gadb/landmine_curse.fxp'],
  ['scripts/closures.debug.luac', 'test/fixtures/hks/generated/closures.debug.luac'],
  ['scripts/hello.source.scri', 'test/fixtures/hks/generated/scri/hello.source.scri'],
  ['scripts/src/closures.lua', 'test/fixtures/hks/generated/closures.lua'],
  ['staticdb/sample-beta-1869.sd2', 'test/fixtures/sd2/faufau-1.5.0-generated/sample-beta-1869.sd2'],
];

/**
 * Writes a small archive packed by the library (`packArch06`, LZB16 where it shrinks a chunk, raw chunks
 * otherwise, with a generated path index) from fixtures of the repository, atomically. Deterministic.
 */
export function generateSampleArchive(path: string): void {
  const entries = SAMPLE_ARCHIVE_ENTRIES.map(([archivePath, file]) => ({ path: archivePath, data: readBytes(join(repoRoot, file)) }));
  writeFileAtomic(path, packArch06(entries, { storage: 'lzb16' }).bytes);
}
