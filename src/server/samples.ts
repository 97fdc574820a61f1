/**
 * The bundled samples `scry serve` opens when given no file: the real `.fxp` from the test fixtures, a
 * game-scale database made by the generator on first run and kept in a cache folder (ignored by git), so the
 * workbench is always exercised at the real game's size, the peer-made `.sd2` fixture, a small archive packed from
 * fixtures on first run (into the same cache folder) and an hksc-compiled script.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

/** Root of the repository (where `package.json` is). */
export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/** The real sample: a GADB v17 database in an LTFX wrapper (14.5 KB). */
export const realSamplePath = join(repoRoot, 'test', 'fixtures', 'gadb', 'landmine_curse.fxp');

/** A Firefall static database written by the community's reference writer (FauFau 1.5.0), and its names. */
export const sd2SamplePath = join(repoRoot, 'test', 'fixtures', 'sd2', 'faufau-1.5.0-generated', 'sample-beta-1869.sd2');
export const sd2SampleNames = join(repoRoot, 'test', 'fixtures', 'sd2', 'faufau-1.5.0-generated', 'sample-names.txt');

/** A HavokScript chunk compiled by hksc with debug information (closures, upvalues, line info). */
export const scriptSamplePath = join(repoRoot, 'test', 'fixtures', 'hks', 'generated', 'closures.debug.luac');

/** The default cache folder: `.scry-cache/` in the repository, or `$SCRY_CACHE`. */
export function defaultCacheDir(env: Record<string, string | undefined>): string {
  return env['SCRY_CACHE'] || join(repoRoot, '.scry-cache');
}

export interface SampleSet {
  files: { path: string; origin: 'sample' }[];
  /** Name lists for the sd2 sample. */
  sd2NameFiles: string[];
  /** Name lists for the GameDB samples (the game-scale sample's stand-in for a community list). */
  nameFiles: string[];
  /** Lines to show the user (what was generated, what is missing). */
  notes: string[];
}

/**
 * The sample files, generating the game-scale database into `cacheDir` when it is not there yet. `generate`
 * writes the database to the path it is given; when it is `undefined` (no generator in this build) only the
 * real sample is served.
 */
export async function prepareSamples(
  cacheDir: string,
  generate: ((path: string) => Promise<void>) | undefined,
  generateArchive?: (path: string) => void,
  namesPathOf?: (databasePath: string) => string,
): Promise<SampleSet> {
  const files: SampleSet['files'] = [];
  const notes: string[] = [];
  const sd2NameFiles: string[] = [];
  const nameFiles: string[] = [];
  if (existsSync(realSamplePath)) files.push({ path: realSamplePath, origin: 'sample' });
  else notes.push(`real sample missing: ${realSamplePath}`);
  if (generate) {
    const scale = join(cacheDir, 'game-scale.gamedb');
    const names = namesPathOf?.(scale);
    if (!existsSync(scale) || (names !== undefined && !existsSync(names))) {
      notes.push(`generating the game-scale sample database${names !== undefined ? ' and its name list' : ''} into ${cacheDir} (first run only)…`);
      await generate(scale);
    }
    files.push({ path: scale, origin: 'sample' });
    if (names !== undefined && existsSync(names)) nameFiles.push(names);
  } else {
    notes.push('the game-scale sample is not available in this build (no generator yet)');
  }
  if (existsSync(sd2SamplePath)) {
    files.push({ path: sd2SamplePath, origin: 'sample' });
    if (existsSync(sd2SampleNames)) sd2NameFiles.push(sd2SampleNames);
  }
  if (generateArchive) {
    const archive = join(cacheDir, 'sample.arch06');
    if (!existsSync(archive)) {
      notes.push(`packing the sample archive into ${archive} (first run only)…`);
      generateArchive(archive);
    }
    files.push({ path: archive, origin: 'sample' });
  }
  if (existsSync(scriptSamplePath)) files.push({ path: scriptSamplePath, origin: 'sample' });
  return { files, sd2NameFiles, nameFiles, notes };
}
