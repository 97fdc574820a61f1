/**
 * One program of `bench/lua/` under one JavaScript runtime, in a process of its own (the child that
 * `bench/vm.bench.ts` starts for every run): `node [the bench's flags] bench/vm-run.ts scry|scry-jit|fengari FILE SIZE`.
 * Prints one line of JSON on stdout, `{ ms, cpu, out }`: wall and CPU (user + system of the whole process, V8's
 * compiler threads included) milliseconds from creating the state to the program's end, and what it printed.
 * Node's start-up and the loading of the modules are not timed (lua5.1's start-up of a few milliseconds is).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename } from 'node:path';
import { performance } from 'node:perf_hooks';
import { compileLua } from '../src/script/compile/index.ts';
import { createScriptVM, LuaTable } from '../src/script/vm/index.ts';

/** What a child reports of its run. */
export interface VmRunTiming {
  ms: number;
  /** CPU time (user + system) in ms: far less sensitive to other processes on a loaded machine than `ms`. */
  cpu: number;
  out: string;
}

/** The runtimes a child can run a program under. */
export type VmRuntime = 'scry' | 'scry-jit' | 'fengari';

function runScry(source: Uint8Array, name: string, size: number, jit: boolean): VmRunTiming {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  let out = '';
  const vm = createScriptVM({ numbers: 'double', jit, io: { stdout: (s) => void (out += s), stderr: () => {} } });
  const chunk = compileLua(source, { name: `${name}.lua`, numbers: 'double' });
  const arg = new LuaTable();
  arg.set(0, `${name}.lua`);
  arg.set(1, String(size));
  vm.setGlobal('arg', arg);
  vm.call(vm.load(chunk, `@${name}.lua`), [String(size)]);
  const c = process.cpuUsage(c0);
  return { ms: performance.now() - t0, cpu: (c.user + c.system) / 1000, out };
}

/** fengari's API, loosely typed: it ships no types. */
interface Fengari {
  lua: Record<string, (...a: unknown[]) => any> & { LUA_OK: number };
  lauxlib: Record<string, (...a: unknown[]) => any>;
  lualib: Record<string, (...a: unknown[]) => any>;
  to_luastring(s: string): Uint8Array;
}

function runFengari(source: string, name: string, size: number): VmRunTiming {
  const { lua, lauxlib, lualib, to_luastring } = createRequire(import.meta.url)('fengari') as Fengari;
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  let out = '';
  const L = lauxlib['luaL_newstate']!();
  lualib['luaL_openlibs']!(L);
  lua['lua_pushjsfunction']!(L, (S: unknown) => {
    const n = lua['lua_gettop']!(S) as number;
    for (let i = 1; i <= n; i++) {
      lauxlib['luaL_tolstring']!(S, i);
      out += (i > 1 ? '\t' : '') + (lua['lua_tojsstring']!(S, -1) as string);
      lua['lua_pop']!(S, 1);
    }
    out += '\n';
    return 0;
  });
  lua['lua_setglobal']!(L, to_luastring('print'));
  lua['lua_createtable']!(L, 1, 1);
  lua['lua_pushstring']!(L, to_luastring(String(size)));
  lua['lua_rawseti']!(L, -2, 1);
  lua['lua_setglobal']!(L, to_luastring('arg'));
  if (lauxlib['luaL_loadbuffer']!(L, to_luastring(source), null, to_luastring(`@${name}.lua`)) !== lua.LUA_OK
    || lua['lua_pcall']!(L, 0, 0, 0) !== lua.LUA_OK) {
    throw new Error(`fengari ${name}: ${lua['lua_tojsstring']!(L, -1) as string}`);
  }
  const c = process.cpuUsage(c0);
  return { ms: performance.now() - t0, cpu: (c.user + c.system) / 1000, out };
}

const [runtime, file, sizeText] = process.argv.slice(2) as [VmRuntime, string, string];
const name = basename(file, '.lua');
const bytes = new Uint8Array(readFileSync(file));
const size = Number(sizeText);
const timing = runtime === 'fengari'
  ? runFengari(new TextDecoder('latin1').decode(bytes), name, size)
  : runScry(bytes, name, size, runtime === 'scry-jit');
process.stdout.write(`${JSON.stringify(timing)}\n`);
