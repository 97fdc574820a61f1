/** Running chunks under scry's VM with captured output, and under Debian's lua5.1 for differential tests. */
import { spawnSync } from 'node:child_process';
import { parseHksChunk, type HksChunk } from '../../../src/formats/hks/index.ts';
import { createScriptVM, ScriptError, type ScriptVMOptions } from '../../../src/script/vm/index.ts';
import type { LuaVM } from '../../../src/script/vm/vm.ts';

export interface RunResult {
  stdout: string;
  stderr: string;
  error: ScriptError | null;
  vm: LuaVM;
}

/** Runs a chunk (bytes or model) with the standard library, stdout/stderr captured as byte strings. */
export function runChunk(chunk: Uint8Array | HksChunk, options: ScriptVMOptions & { name?: string; args?: unknown[] } = {}): RunResult {
  const c = chunk instanceof Uint8Array ? parseHksChunk(chunk) : chunk;
  let stdout = '';
  let stderr = '';
  const vm = createScriptVM({
    numbers: c.header.numberSize === 4 ? 'float' : 'double',
    limits: { instructions: 50_000_000, ...options.limits },
    io: { stdout: (s) => void (stdout += s), stderr: (s) => void (stderr += s) },
    ...options,
  });
  let error: ScriptError | null = null;
  try {
    vm.call(vm.load(c, options.name ?? '=chunk'));
  } catch (e) {
    if (!(e instanceof ScriptError)) throw e;
    error = e;
  }
  return { stdout, stderr, error, vm };
}

/** True when Debian's lua5.1 is installed (.ci/run installs it). */
export const hasLua51 = spawnSync('lua5.1', ['-v'], { encoding: 'latin1' }).status === 0;

/** Runs lua5.1 on a file (from its folder): stdout, stderr and exit status. */
export function runLua51(file: string, cwd: string): { stdout: string; stderr: string; status: number | null } {
  const r = spawnSync('lua5.1', [file], { cwd, encoding: 'latin1', timeout: 10_000 });
  return { stdout: r.stdout, stderr: r.stderr, status: r.status };
}
