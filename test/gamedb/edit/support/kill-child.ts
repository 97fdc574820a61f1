/**
 * Child process for the "killed midway" test: runs `scry` in-process with `writeSync` slowed down so that a write
 * stops after half of its bytes and then hangs; the parent kills this process (SIGKILL) while the temporary file is
 * half written. Usage: node --import tsx kill-child.ts <scry args…>
 */
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';

const realWriteSync = fs.writeSync;
const block = new Int32Array(new SharedArrayBuffer(4));
(fs as { writeSync: unknown }).writeSync = (fd: number, buffer: Uint8Array, offset = 0, length = buffer.byteLength - offset): number => {
  // small writes (the lock file) go through; the file's data stops halfway
  if (length < 4096) return realWriteSync(fd, buffer, offset, length);
  const half = Math.max(1, Math.floor(length / 2));
  const n = realWriteSync(fd, buffer, offset, half);
  process.stdout.write('HALF-WRITTEN\n');
  Atomics.wait(block, 0, 0, 60_000); // hang until killed
  return n;
};
syncBuiltinESMExports();

const { run } = await import('../../../../src/cli/main.ts');
const code = await run(process.argv.slice(2), {
  stdout: (t) => void process.stdout.write(t),
  stderr: (t) => void process.stderr.write(t),
  readStdin: async () => '',
  cwd: process.cwd(),
  env: process.env,
  isTTY: false,
});
process.exitCode = code;
