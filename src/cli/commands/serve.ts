/** `scry serve [FILE…]`: the workbench, a local web app over the given files (or the bundled samples). */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../../binary/errors.ts';
import type { Command } from '../command.ts';
import { startWorkbench } from '../../server/server.ts';
import { defaultCacheDir, prepareSamples } from '../../server/samples.ts';
import { generateSampleArchive, generateSampleDatabase, sampleNamesPath } from '../../server/generate.ts';
import { userConfigDir } from '../../node/names.ts';
import { prepareWorldSamples } from '../../server/api-streaming.ts';
import { sqlCacheDir } from './db-edit.ts';

/** Default port: stable across runs so shared URLs keep working (the next free one is used when taken). */
export const DEFAULT_PORT = 7919;

const serveCommand: Command = {
  path: ['serve'],
  summary: 'start the workbench (a local web app) on 127.0.0.1 over FILE… or the bundled samples',
  usage: '[FILE…]',
  options: {
    port: { type: 'string', valueName: 'N', description: `port to listen on (default ${DEFAULT_PORT}, 0 = any free port)` },
    out: { type: 'string', valueName: 'DIR', description: 'folder for saved files (default: beside each file; samples: the cache folder)' },
    work: { type: 'string', valueName: 'DIR', description: 'work folder: saved files and staged edits are kept there across runs (default $SCRY_CACHE, else ~/.cache/scry, /workbench)' },
    names: { type: 'string', multiple: true, valueName: 'FILE', description: 'name list (one name, or 0xHASH<TAB>name, per line; JSON lists for sd2); repeatable; also ~/.config/scry/names/' },
  },
  details:
    'Binds 127.0.0.1 only and refuses requests whose Host or Origin is not its own. Serves only the files given.\n' +
    'With no FILE, serves the real sample .fxp, a game-scale database generated on first run into .scry-cache/\n' +
    '(or $SCRY_CACHE), the sample .sd2, a small .arch06 packed from fixtures into the same cache on first run and\n' +
    'an hksc-compiled script. Name lists: --names FILE, every list in ~/.config/scry/names/ (names added in the page\n' +
    'are written there, to workbench.txt), $SCRY_SD2_NAMES (colon-separated, sd2 only). Stops on Ctrl+C.',
  async run(ctx) {
    const portText = ctx.options['port'];
    const port = portText === undefined ? DEFAULT_PORT : Number(portText);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be 0..65535, got ${String(portText)}`);
    const cacheDir = defaultCacheDir(ctx.io.env);
    let files: { path: string; origin: 'argument' | 'sample' }[];
    const sd2Env = ctx.io.env['SCRY_SD2_NAMES'];
    const sd2NameFiles = sd2Env ? sd2Env.split(':').filter((p) => p.length > 0) : [];
    const namesOption = ctx.options['names'];
    const nameFiles = (Array.isArray(namesOption) ? namesOption : []).map((f) => ctx.resolvePath(f));
    const configDir = userConfigDir(ctx.io.env);
    if (ctx.args.length > 0) {
      files = ctx.args.map((a) => {
        const path = ctx.resolvePath(a);
        if (!statSync(path).isFile()) throw new UsageError(`${a} is not a file`);
        return { path, origin: 'argument' as const };
      });
    } else {
      const samples = await prepareSamples(cacheDir, generateSampleDatabase, generateSampleArchive, sampleNamesPath);
      for (const n of samples.notes) ctx.err(n);
      files = samples.files;
      const world = prepareWorldSamples(cacheDir);
      for (const n of world.notes) ctx.err(n);
      files.push(...world.files);
      sd2NameFiles.push(...samples.sd2NameFiles);
      nameFiles.push(...samples.nameFiles);
    }
    const out = ctx.options['out'];
    const work = ctx.options['work'];
    const workDir = typeof work === 'string' ? ctx.resolvePath(work) : join(sqlCacheDir(ctx.io.env), 'workbench');
    const workbench = await startWorkbench({
      files,
      port,
      sampleOutDir: join(cacheDir, 'saved'),
      sd2NameFiles,
      nameFiles,
      workDir,
      ...(configDir !== undefined ? { configDir } : {}),
      ...(typeof out === 'string' ? { outDir: ctx.resolvePath(out) } : {}),
    });
    if (ctx.json) ctx.printJson({ url: workbench.url, files: workbench.workspace.list() });
    else {
      ctx.out(`scry workbench: ${workbench.url}`);
      for (const f of workbench.workspace.list()) ctx.out(`  ${f.id.padEnd(28)} ${f.kind.padEnd(7)} ${f.size.toLocaleString('en-US').padStart(12)} bytes`);
      ctx.out('Ctrl+C stops it.');
    }
    await new Promise<void>((resolve) => {
      const stop = () => {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        void workbench.close().then(resolve);
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
    return 0;
  },
};

export const serveCommands: Command[] = [serveCommand];
