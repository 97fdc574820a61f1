/** The process-backed `CliIo` used by `bin/scry.js`. */
import type { CliIo } from './command.ts';

export function nodeIo(): CliIo {
  return {
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    },
    cwd: process.cwd(),
    env: process.env,
    isTTY: Boolean(process.stderr.isTTY),
  };
}
