/** Makes the game-scale sample database with the generator of `src/gamedb/generate`, and the sample archive. */
import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { p919 } from '../hash/p919.ts';
import { generateGadbBytes } from '../gamedb/generate/index.ts';
import { packArch06 } from '../formats/arch06/pack.ts';
import { readBytes, writeFileAtomic } from '../node/fs.ts';
import { repoRoot } from './samples.ts';

/** Seed of the bundled sample: the same bytes on every machine, so URLs into it can be shared. */
export const SAMPLE_SEED = 919;

/** The name list written beside a generated sample database: `game-scale.gamedb` → `game-scale.names.txt`. */
export function sampleNamesPath(databasePath: string): string {
  return databasePath.replace(/\.[^./\\]*$/, '') + '.names.txt';
}

/**
 * The sample's name list: a stand-in for a community name list. It names nine in ten of the generated database's
 * fields (a real list never names them all: the hashes left over are what `scry db crack` and the workbench's
 * name finder work on); which ones is decided by P919 of the name, so the list is the same on every machine.
 */
export function sampleNamesText(fieldNames: readonly string[], databaseName: string): string {
  const kept = fieldNames.filter((n) => p919(n) % 10 !== 0);
  return [
    `# A stand-in for a community name list: ${kept.length} of the ${fieldNames.length} field names scry's generator used`,
    `# for ${databaseName} (seed ${SAMPLE_SEED}). A real list is collected by modders; one name, or 0xHASH<TAB>name, per line.`,
    ...kept,
    '',
  ].join('\n');
}

/**
 * Writes a database of the real game's shape and size (56.8 MB, 694,632 records) to `path`, atomically, or a
 * fraction of it with `scale` (0, 1], and its name list beside it (`sampleNamesPath`). An existing database is
 * kept (the generator is deterministic: it would write the same bytes); only what is missing is written.
 */
export async function generateSampleDatabase(path: string, scale = 1): Promise<void> {
  const { bytes, fieldNames } = generateGadbBytes({ seed: SAMPLE_SEED, scale });
  if (!existsSync(path)) writeFileAtomic(path, bytes);
  const names = sampleNamesPath(path);
  if (!existsSync(names)) writeFileAtomic(names, sampleNamesText(fieldNames, basename(path)));
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
