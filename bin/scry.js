#!/usr/bin/env node
// The only place that turns a result into a process exit status.
//
// Runs the prebuilt CLI (dist/scry.js, built by `npm install` / `npm run build`) while every source it was built
// from is unchanged, and the TypeScript sources through tsx's loader otherwise (development: an edit takes effect
// at once). SCRY_CLI=dist insists on the build (exit 4 when it is missing or stale), SCRY_CLI=sources on the sources.
import { readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// A reader that stops early (`scry … | head`) closes the pipe: that is not an error of scry's.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (e) => {
    if (e.code === 'EPIPE') process.exit(0);
    throw e;
  });
}

const BUILD_VERSION = 1;
const root = new URL('../', import.meta.url);
/** The repository root as a path ending in a separator: inputs are stat'ed by string (a URL per input cost ~2x). */
const rootPath = fileURLToPath(root);

/** Why dist/ cannot be used ('' when it can): missing, another manifest version, or a source changed since. */
function staleBuild() {
  let meta;
  try {
    meta = JSON.parse(readFileSync(new URL('dist/scry.meta.json', root), 'utf8'));
  } catch {
    return 'dist/scry.meta.json is missing (run npm run build)';
  }
  if (meta.version !== BUILD_VERSION) return `dist/ was built by another version of the build (${meta.version})`;
  for (const [path, [size, mtimeMs]] of Object.entries(meta.inputs)) {
    const s = statSync(rootPath + path, { throwIfNoEntry: false });
    if (!s || s.size !== size || s.mtimeMs !== mtimeMs) return `${path} changed since dist/ was built (run npm run build)`;
  }
  return '';
}

const mode = process.env.SCRY_CLI ?? '';
const stale = mode === 'sources' ? 'SCRY_CLI=sources' : staleBuild();
let cli;
if (stale === '') {
  cli = await import('../dist/scry.js');
} else if (mode === 'dist') {
  process.stderr.write(`scry: SCRY_CLI=dist but ${stale}\n`);
  process.exit(4);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  const { run } = await import('../src/cli/main.ts');
  const { nodeIo } = await import('../src/cli/node-io.ts');
  cli = { run, nodeIo };
}
process.exitCode = await cli.run(process.argv.slice(2), cli.nodeIo());
