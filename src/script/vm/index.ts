/**
 * The HavokScript VM — scry's interpreter for Shadow of War's script bytecode (HKS 5.1 format 14), run the way the
 * game's main interpreter (mode 0) runs it. Public API:
 *
 * ```ts
 * const vm = createScriptVM({ numbers: 'float', limits: { instructions: 10_000_000 }, io: { stdout, stderr } });
 * vm.register('LithThreadSleep', (call) => call.yield(call.number(2)));   // a typed host function
 * const main = vm.load(parseHksChunk(bytes), '@desert.lua');               // an HksChunk, from bytecode or compileLua
 * vm.call(main);                                                            // runs it; ScriptError on failure
 * const thread = vm.newThread(vm.getGlobal('SomeThreadFunction'));         // a script thread
 * const r = vm.resume(thread, [self, threadId, scriptId]);                  // { status: 'yield', values: [seconds] }
 * ```
 *
 * - Numbers are float32 when the chunk header says 4-byte numbers (every result rounded as the game computes) and
 *   double when it says 8; a VM runs one mode and refuses chunks of the other.
 * - Every failure reaches the host as a {@link ScriptError}: `message` is `chunk:line: message`, `traceback` the Lua
 *   stack (`kind` says runtime, budget, limit, syntax or internal). Scripts cannot crash or hang the host: the
 *   instruction budget, call depth, nested-call depth, stack, string and table sizes are limited ({@link VMLimits}).
 * - Coroutines are threads the host creates and resumes; host functions suspend them with `call.yield(…)`.
 *
 * Lua values in native form: see `value.ts`.
 */
import { parseHksChunk, type HksChunk } from '../../formats/hks/chunk.ts';
import { latin1Encode } from '../../binary/text.ts';
import { CompileError, compileLua } from '../compile/index.ts';
import { LuaVM, type VMOptions } from './vm.ts';
import { openStdlib, type StdlibOptions } from './lib/index.ts';
import { LuaClosure } from './value.ts';
import type { LuaTable } from './table.ts';

export { LuaVM, ScriptError, DEFAULT_LIMITS, DEFAULT_JIT_THRESHOLD, type VMLimits, type VMOptions, type ScriptIo, type ResumeResult, type ScriptErrorKind } from './vm.ts';
export { LuaTable } from './table.ts';
export { LuaClosure, HostFunction, LuaUserdata, LightUserdata, LuaStruct, type LuaValue, type LuaFunction, type NativeFn } from './value.ts';
export { LuaThread, type ThreadStatus } from './thread.ts';
export { defineHostFunction, type HostCall, type HostResult, type HostYield } from './host.ts';
export { type StdlibOptions } from './lib/index.ts';
export type { OsHost } from './lib/os.ts';
export type { IoHost, StreamHandle } from './lib/io.ts';
export { MemoryFiles } from './lib/memfs.ts';
export { VM_HYPOTHESES, type VmHypothesis } from './hypotheses.ts';
export { jitAvailable } from './jit.ts';
export { numberToString } from './numfmt.ts';
export { typeName } from './meta.ts';
export { rawToString } from './lib/base.ts';

/**
 * Compiles Lua source (a byte string) to a chunk; throws with a `chunk:line: message` on a syntax error. `chunkName`
 * is the Lua source name as is (`@file`, `=name`, or the source text itself for `loadstring`).
 */
export type ScriptCompiler = (source: string, chunkName: string, numbers: 'float' | 'double') => HksChunk;

/** scry's compiler (`compileLua`, full debug information) as a {@link ScriptCompiler}. */
export const compileScript: ScriptCompiler = (source, chunkName, numbers) =>
  compileLua(latin1Encode(source, { format: 'lua', path: '/source' }), { sourceName: chunkName, numbers, strip: 'none' });

/** Options of {@link createScriptVM}. */
export interface ScriptVMOptions extends VMOptions, Omit<StdlibOptions, 'loadSource'> {
  /** Compiles source for `loadstring` / `load` / `dofile` (default {@link compileScript}; null: no compiler). */
  compile?: ScriptCompiler | null;
}

/** A VM with the standard library opened (`loadstring` wired to `compile` when given). */
export function createScriptVM(options: ScriptVMOptions = {}): LuaVM {
  const vm = new LuaVM(options);
  const numbers = vm.float32 ? 'float' : 'double';
  const compile = options.compile === undefined ? compileScript : options.compile;
  openStdlib(vm, {
    ...options,
    loadSource: (source, name) => {
      try {
        // a binary chunk (string.dump's output) loads as bytecode; source needs the compiler
        if (source.startsWith('\x1bLua')) return vm.load(parseHksChunk(latin1Encode(source, { format: 'lua', path: '/chunk' })), name);
        if (compile === null) return { error: `${name.replace(/^[=@]/, '')}: loading Lua source is not available (no compiler)` };
        return vm.load(compile(source, name, numbers), name);
      } catch (e) {
        if (e instanceof CompileError) return { error: e.message, line: e.line, column: e.column, reason: e.reason };
        return { error: e instanceof Error ? e.message : String(e) };
      }
    },
  });
  return vm;
}

/** Loads a chunk and runs it with arguments (as `lua5.1 file args…` runs a file); returns its results. */
export function runChunk(vm: LuaVM, chunk: HksChunk, name: string, args: readonly import('./value.ts').LuaValue[] = [], env?: LuaTable): import('./value.ts').LuaValue[] {
  const f: LuaClosure = vm.load(chunk, name, env);
  return vm.call(f, args);
}
