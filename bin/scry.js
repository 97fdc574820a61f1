#!/usr/bin/env node
// The only place that turns a result into a process exit status. TypeScript sources run through tsx's loader.
import { register } from 'tsx/esm/api';

// A reader that stops early (`scry … | head`) closes the pipe: that is not an error of scry's.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (e) => {
    if (e.code === 'EPIPE') process.exit(0);
    throw e;
  });
}

register();
const { run } = await import('../src/cli/main.ts');
const { nodeIo } = await import('../src/cli/node-io.ts');
const code = await run(process.argv.slice(2), nodeIo());
process.exitCode = code;
