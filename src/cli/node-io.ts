/** The process-backed `CliIo` used by `bin/scry.js`. */
import { readSync } from 'node:fs';
import type { CliIo } from './command.ts';

/** Reads standard input synchronously, a chunk at a time (null at its end). */
function readStdinChunk(): Uint8Array | null {
  const buf = Buffer.alloc(65536);
  for (;;) {
    try {
      const n = readSync(0, buf, 0, buf.length, null);
      return n === 0 ? null : new Uint8Array(buf.buffer, buf.byteOffset, n);
    } catch (e) {
      const code = (e as { code?: string }).code;
      if (code === 'EAGAIN') continue; // a non-blocking terminal: try again
      if (code === 'EOF') return null;
      throw e;
    }
  }
}

export function nodeIo(): CliIo {
  return {
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    stdoutBytes: (bytes) => void process.stdout.write(bytes),
    stderrBytes: (bytes) => void process.stderr.write(bytes),
    readStdinChunk,
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
