/**
 * The base library as Lua 5.1 has it (`lbaselib.c`), plus `coroutine`. File functions (`dofile`, `loadfile`) exist
 * only when the host grants a file reader; `loadstring` / `load` compile through the compiler the host provides.
 */
import { IsLuaTable, LuaTable } from '../table.ts';
import { HostFunction, IsHostFunction, IsLightUserdata, IsLuaClosure, IsLuaStruct, IsLuaUserdata, LuaClosure, LuaStruct, LuaUserdata, type LuaValue, type NativeFn, YIELD_RESULT } from '../value.ts';
import { copySlots, IsLuaThread, LuaThread } from '../thread.ts';
import { LuaError, type LuaVM } from '../vm.ts';
import { callValue } from '../interp.ts';
import { getStack } from '../debuginfo.ts';
import { checkSlotValue, getMetatable, getTM, rawSet, typeName } from '../meta.ts';
import { numberToString, stringToNumber, stringToNumberBase } from '../numfmt.ts';
import { arg, argError, checkAny, checkInt, checkNumber, checkString, checkTable, libError, newLib, optInt, optString, registerLib, typeArgError, whereLevel } from './aux.ts';

/** How the host compiles source text (`loadstring`, `load`, `.lua` files): a loaded function or a syntax message. */
export type SourceLoader = (source: string, chunkName: string) => LuaClosure | LoadFailure;

/** Why source did not load; a syntax error says where (line, 1-based column, the message without position). */
export interface LoadFailure {
  error: string;
  line?: number;
  column?: number;
  reason?: string;
}

/** True when a syntax error's token ends before the end of `src` (the lexer read past it: more input cannot help). */
function errorBeforeEnd(src: string, f: LoadFailure): boolean {
  if (f.line === undefined || f.column === undefined || f.reason === undefined || f.column < 1) return false;
  const near = /near '([^]*)'$/.exec(f.reason);
  if (!near) return false;
  let at = 0;
  for (let line = 1; line < f.line; line++) {
    const nl = src.indexOf('\n', at);
    if (nl < 0) return false;
    at = nl + 1;
  }
  return at + f.column - 1 + near[1]!.length < src.length;
}

/** Options of the base library. */
export interface BaseLibOptions {
  /** Compiles Lua source; without it `loadstring` returns nil and a message. */
  loadSource?: SourceLoader;
  /** Reads a file for `dofile` / `loadfile` (granted file access); without it they fail. */
  readFile?: (path: string) => string | null;
}

const ids = new WeakMap<object, number>();
let nextId = 0x1000;

/** The `%p`-like address `tostring` shows for reference values (stable per object). */
export function addressOf(v: object): string {
  let id = ids.get(v);
  if (id === undefined) {
    id = nextId;
    nextId += 0x28;
    ids.set(v, id);
  }
  return '0x' + id.toString(16).padStart(8, '0');
}

/** `tostring` (with `__tostring`). */
export function tostring(L: LuaThread, v: LuaValue): string {
  const tm = getTM(L.vm, v, '__tostring');
  if (tm !== undefined) {
    const top = L.top;
    L.ensure(top + 3);
    L.set(top, tm);
    L.set(top + 1, v);
    L.top = top + 2;
    callValue(L, top, 1, 1);
    const r = L.get(top);
    L.top = top;
    if (typeof r === 'string') return r;
    if (typeof r === 'number') return numberToString(r);
    libError(L, "'__tostring' must return a string");
  }
  return rawToString(v);
}

/** `tostring` without metamethods. */
export function rawToString(v: LuaValue): string {
  switch (typeof v) {
    case 'undefined':
      return 'nil';
    case 'boolean':
      return v ? 'true' : 'false';
    case 'number':
      return numberToString(v);
    case 'string':
      return v;
    case 'bigint':
      return '0x' + v.toString(16).padStart(16, '0') + 'hl';
    default:
      if (v instanceof IsLightUserdata) return `userdata: 0x${v.value.toString(16).padStart(8, '0')}`;
      if (v instanceof IsLuaStruct) return `struct ${v.def.name}: ${addressOf(v)}`;
      return `${typeName(v)}: ${addressOf(v)}`;
  }
}

/** pcall / xpcall results from slot `ra`: true and the results, or false and the error value. */
function protectedResults(L: LuaThread, ra: number, err: LuaError | null): number {
  if (err === null) {
    L.sv[ra] = true;
    return L.top - ra;
  }
  L.sv[ra] = false;
  L.set(ra + 1, err.value);
  return 2;
}

/** The frame of a function level (1 = the caller of the native function) or a function argument (getfenv/setfenv). */
function levelOrFunction(L: LuaThread, ra: number, nargs: number, i: number, def: number): { fn: LuaValue; level: number } {
  const v = arg(L, ra, nargs, i);
  if (typeof v === 'object' && (v instanceof IsLuaClosure || v instanceof IsHostFunction)) return { fn: v, level: -1 };
  const level = v === undefined ? def : checkInt(L, ra, nargs, i);
  if (level < 0) argError(L, i, 'level must be non-negative');
  if (level === 0) return { fn: undefined, level: 0 };
  const lv = getStack(L, level);
  if (lv === null) argError(L, i, 'invalid level');
  if ('tail' in lv) libError(L, `no function environment for tail call at level ${level}`);
  const ci = L.cis[lv.ci]!;
  return { fn: ci.cl ?? ci.hf ?? undefined, level };
}

export function openBase(vm: LuaVM, options: BaseLibOptions = {}): void {
  const G = vm.globals;
  const ret1 = (L: LuaThread, ra: number, v: LuaValue): number => {
    L.set(ra, v);
    return 1;
  };

  const fns: Record<string, NativeFn> = {
    assert(L, ra, nargs) {
      const v = checkAny(L, ra, nargs, 1);
      if (v === undefined || v === false) {
        const msg = arg(L, ra, nargs, 2);
        if (msg === undefined) libError(L, 'assertion failed!');
        throw new LuaError(typeof msg === 'number' ? numberToString(msg) : msg);
      }
      // results: all arguments
      for (let i = 0; i < nargs; i++) L.copy(ra + i, ra + 1 + i);
      return nargs;
    },
    error(L, ra, nargs) {
      const v = arg(L, ra, nargs, 1);
      const level = optInt(L, ra, nargs, 2, 1);
      if (typeof v === 'string' && level > 0) throw new LuaError(whereLevel(L, level) + v);
      throw new LuaError(v);
    },
    collectgarbage(L, ra, nargs) {
      const opt = optString(L, ra, nargs, 1, 'collect');
      const gc = vm.gc;
      switch (opt) {
        case 'collect':
          vm.collectGarbage(L);
          return ret1(L, ra, 0);
        case 'count':
          return ret1(L, ra, gc.countKb());
        case 'stop':
          gc.stopped = true;
          gc.updateThreshold();
          return ret1(L, ra, 0);
        case 'restart':
          gc.stopped = false;
          gc.updateThreshold();
          return ret1(L, ra, 0);
        case 'step':
          return ret1(L, ra, gc.step(L, optInt(L, ra, nargs, 2, 0)));
        case 'setpause':
        case 'setstepmul': {
          const old = opt === 'setpause' ? gc.pause : gc.stepmul;
          const v = optInt(L, ra, nargs, 2, 0);
          if (opt === 'setpause') gc.pause = v;
          else gc.stepmul = v;
          gc.updateThreshold();
          return ret1(L, ra, old);
        }
        default:
          argError(L, 1, `invalid option '${opt}'`);
      }
    },
    gcinfo(L, ra) {
      return ret1(L, ra, Math.floor(vm.gc.countKb()));
    },
    getfenv(L, ra, nargs) {
      const { fn, level } = levelOrFunction(L, ra, nargs, 1, 1);
      if (level === 0) return ret1(L, ra, (L.env as LuaTable | null) ?? vm.globals);
      if (fn instanceof IsLuaClosure) return ret1(L, ra, fn.env);
      if (fn instanceof IsHostFunction) return ret1(L, ra, fn.env ?? vm.globals);
      return ret1(L, ra, vm.globals);
    },
    setfenv(L, ra, nargs) {
      const t = checkTable(L, ra, nargs, 2);
      const v = arg(L, ra, nargs, 1);
      if (typeof v === 'number' && v === 0) {
        L.env = t;
        return 0;
      }
      const { fn } = levelOrFunction(L, ra, nargs, 1, 1);
      if (fn instanceof IsLuaClosure) fn.env = t;
      else libError(L, "'setfenv' cannot change environment of given object");
      L.set(ra, fn);
      return 1;
    },
    getmetatable(L, ra, nargs) {
      const v = checkAny(L, ra, nargs, 1);
      const mt = getMetatable(vm, v);
      if (mt === null) return ret1(L, ra, undefined);
      const protectedMt = mt.getStr('__metatable');
      return ret1(L, ra, protectedMt !== undefined ? protectedMt : mt);
    },
    setmetatable(L, ra, nargs) {
      const t = arg(L, ra, nargs, 1);
      if (t instanceof IsLuaStruct) return setStructMeta(L, ra, nargs, t);
      if (!(t instanceof IsLuaTable)) typeArgError(L, 1, nargs, 'table');
      const mt = arg(L, ra, nargs, 2);
      if (mt !== undefined && !(mt instanceof IsLuaTable)) argError(L, 2, 'nil or table expected');
      if (t.metatable !== null && t.metatable.getStr('__metatable') !== undefined) libError(L, 'cannot change a protected metatable');
      t.metatable = (mt as LuaTable | undefined) ?? null;
      vm.noteMetatable(t);
      return ret1(L, ra, t);
    },
    next(L, ra, nargs) {
      const t = checkTable(L, ra, nargs, 1);
      const out = vm.nextOut;
      const r = t.next(arg(L, ra, nargs, 2), out);
      if (r === undefined) libError(L, "invalid key to 'next'");
      if (!r) return ret1(L, ra, undefined);
      L.set(ra, out.k);
      L.set(ra + 1, out.v);
      return 2;
    },
    ipairs(L, ra, nargs) {
      checkAny(L, ra, nargs, 1);
      const t = L.get(ra + 1);
      L.set(ra, ipairsAux);
      L.set(ra + 1, t);
      L.set(ra + 2, 0);
      return 3;
    },
    pairs(L, ra, nargs) {
      const t = checkTable(L, ra, nargs, 1);
      L.set(ra, vm.nextFn);
      L.set(ra + 1, t);
      L.set(ra + 2, undefined);
      return 3;
    },
    pcall(L, ra, nargs) {
      checkAny(L, ra, nargs, 1);
      return protectedResults(L, ra, vm.pcall(L, ra + 1, nargs - 1, -1));
    },
    xpcall(L, ra, nargs) {
      checkAny(L, ra, nargs, 2);
      const handler = L.get(ra + 2);
      L.top = ra + 2;
      return protectedResults(L, ra, vm.pcall(L, ra + 1, 0, -1, handler));
    },
    print(L, ra, nargs) {
      const parts: string[] = [];
      const ts = G.getStr('tostring');
      for (let i = 1; i <= nargs; i++) {
        const top = L.top;
        L.ensure(top + 3);
        L.set(top, ts);
        L.set(top + 1, L.get(ra + i));
        L.top = top + 2;
        callValue(L, top, 1, 1);
        const s = L.get(top);
        L.top = top;
        if (typeof s !== 'string' && typeof s !== 'number') libError(L, "'tostring' must return a string to 'print'");
        parts.push(typeof s === 'number' ? numberToString(s) : s);
      }
      vm.io.stdout(parts.join('\t') + '\n');
      return 0;
    },
    rawequal(L, ra, nargs) {
      const a = checkAny(L, ra, nargs, 1);
      const b = checkAny(L, ra, nargs, 2);
      return ret1(L, ra, a === b);
    },
    rawget(L, ra, nargs) {
      const t = checkTable(L, ra, nargs, 1);
      return ret1(L, ra, t.get(checkAny(L, ra, nargs, 2)));
    },
    rawset(L, ra, nargs) {
      const t = checkTable(L, ra, nargs, 1);
      checkAny(L, ra, nargs, 2);
      checkAny(L, ra, nargs, 3);
      rawSet(L, t, L.get(ra + 2), L.get(ra + 3));
      return ret1(L, ra, t);
    },
    select(L, ra, nargs) {
      // luaB_select: n counts the index argument too; the last n - i arguments are returned
      const n = nargs;
      const first = arg(L, ra, nargs, 1);
      if (first === '#') return ret1(L, ra, n - 1);
      let i = checkInt(L, ra, nargs, 1);
      if (i < 0) i = n + i;
      else if (i > n) i = n;
      if (i < 1) argError(L, 1, 'index out of range');
      const count = n - i;
      for (let j = 0; j < count; j++) L.copy(ra + j, ra + 1 + i + j);
      return count;
    },
    tonumber(L, ra, nargs) {
      const base = optInt(L, ra, nargs, 2, 10);
      const v = checkAny(L, ra, nargs, 1);
      if (base === 10) {
        if (typeof v === 'number') return ret1(L, ra, v);
        if (typeof v === 'string') {
          const n = stringToNumber(v);
          return ret1(L, ra, n === undefined ? undefined : vm.float32 ? Math.fround(n) : n);
        }
        return ret1(L, ra, undefined);
      }
      const s = checkString(L, ra, nargs, 1);
      if (base < 2 || base > 36) argError(L, 2, 'base out of range');
      const n = stringToNumberBase(s, base);
      return ret1(L, ra, n === undefined ? undefined : vm.float32 ? Math.fround(n) : n);
    },
    tostring(L, ra, nargs) {
      const v = checkAny(L, ra, nargs, 1);
      const tm = getTM(vm, v, '__tostring');
      if (tm === undefined) return ret1(L, ra, rawToString(v));
      // luaL_callmeta: whatever the metamethod returns
      L.set(ra, tm);
      L.set(ra + 1, v);
      L.top = ra + 2;
      callValue(L, ra, 1, 1);
      return 1;
    },
    type(L, ra, nargs) {
      if (nargs < 1) argError(L, 1, 'value expected');
      return ret1(L, ra, typeName(L.get(ra + 1)));
    },
    unpack(L, ra, nargs) {
      const t = checkTable(L, ra, nargs, 1);
      const i = optInt(L, ra, nargs, 2, 1);
      const j = arg(L, ra, nargs, 3) === undefined ? t.length() : checkInt(L, ra, nargs, 3);
      if (i > j) return 0;
      const n = j - i + 1;
      if (n >= 0x7fffffff || n <= 0 || ra + n + 20 > vm.limits.maxStackSlots) libError(L, 'too many results to unpack');
      L.ensure(ra + n + 20);
      for (let k = 0; k < n; k++) L.set(ra + k, t.getInt(i + k));
      return n;
    },
    newproxy(L, ra, nargs) {
      const v = arg(L, ra, nargs, 1);
      const u = new LuaUserdata(null);
      if (v === true) u.metatable = vm.newTable();
      else if (v instanceof IsLuaUserdata) {
        u.metatable = v.metatable;
      } else if (v !== undefined && v !== false) typeArgError(L, 1, nargs, 'boolean or proxy');
      if (u.metatable !== null) {
        vm.gc.finalizable.push(u);
        vm.gc.active = true;
      }
      return ret1(L, ra, u);
    },
    loadstring(L, ra, nargs) {
      const s = checkString(L, ra, nargs, 1);
      const name = optString(L, ra, nargs, 2, s);
      return loadResult(L, ra, s, name);
    },
    load(L, ra, nargs) {
      const f = arg(L, ra, nargs, 1);
      const name = optString(L, ra, nargs, 2, '=(load)');
      let src = '';
      if (typeof f === 'string') src = f;
      else {
        if (!(f instanceof IsLuaClosure || f instanceof IsHostFunction)) typeArgError(L, 1, nargs, 'function');
        let pieces = 0;
        for (;;) {
          // lua_load is protected: an error in the reader is load's second result
          const top = L.top;
          L.ensure(top + 2);
          L.set(top, f);
          L.top = top + 1;
          const err = vm.pcall(L, top, 0, 1);
          L.top = top;
          if (err !== null) {
            L.set(ra, undefined);
            L.set(ra + 1, err.value);
            return 2;
          }
          const piece = L.get(top);
          pieces++;
          if (piece === undefined || piece === '') break;
          if (typeof piece !== 'string') {
            L.set(ra, undefined);
            L.set(ra + 1, 'reader function must return a string');
            return 2;
          }
          src += piece;
          if (src.length > vm.limits.maxStringLength) vm.limitError(L, 'chunk too large');
          // Lua's lexer pulls from the reader as it goes, so a syntax error stops the reading (one piece of
          // lookahead later); emulated for the first pieces by compiling what was read so far
          if (pieces <= 256) {
            const r = compile(src, name);
            if (!(r instanceof IsLuaClosure) && errorBeforeEnd(src, r)) break;
          }
        }
      }
      return loadResult(L, ra, src, name);
    },
    dofile(L, ra, nargs) {
      const name = optString(L, ra, nargs, 1, '');
      const text = options.readFile?.(name) ?? null;
      if (text === null) libError(L, options.readFile ? `cannot open ${name}` : 'dofile: file access is not granted to scripts');
      const r = compile(text, '@' + name);
      if (!(r instanceof IsLuaClosure)) throw new LuaError(r.error);
      L.set(ra, r);
      L.top = ra + 1;
      callValue(L, ra, 0, -1);
      return L.top - ra;
    },
    loadfile(L, ra, nargs) {
      const name = optString(L, ra, nargs, 1, '');
      const text = options.readFile?.(name) ?? null;
      if (text === null) {
        L.set(ra, undefined);
        L.set(ra + 1, options.readFile ? `cannot open ${name}` : 'loadfile: file access is not granted to scripts');
        return 2;
      }
      return loadResult(L, ra, text, '@' + name);
    },
  };

  const compile = (src: string, name: string): LuaClosure | LoadFailure => {
    if (!options.loadSource) return { error: `${name.replace(/^[=@]/, '')}: loading Lua source is not available (no compiler)` };
    return options.loadSource(src, name);
  };
  const loadResult = (L: LuaThread, ra: number, src: string, name: string): number => {
    const r = compile(src, name);
    if (r instanceof IsLuaClosure) {
      r.env = (L.env as LuaTable | null) ?? vm.globals;
      L.set(ra, r);
      return 1;
    }
    L.set(ra, undefined);
    L.set(ra + 1, r.error);
    return 2;
  };

  const ipairsAux = new HostFunction('ipairs_aux', (L, ra, nargs) => {
    const t = checkTable(L, ra, nargs, 1);
    const i = checkInt(L, ra, nargs, 2) + 1;
    const v = t.getInt(i);
    if (v === undefined) return 0;
    L.set(ra, i);
    L.set(ra + 1, v);
    return 2;
  });

  registerLib(vm, G, '', fns);
  vm.nextFn = G.getStr('next');
  vm.ipairsAux = ipairsAux;
  G.setStr('_G', G);
  G.setStr('_VERSION', 'Lua 5.1');
  openCoroutine(vm);
}

function openCoroutine(vm: LuaVM): void {
  /** Resumes `co` with `count` values from slot `from`; its results go from slot `ra` on. -1: it failed, its error value in `ra`. */
  const resumeInto = (L: LuaThread, ra: number, co: LuaThread, from: number, count: number): number => {
    const n = vm.resumeStack(co, L, from, count, null);
    if (n < 0) {
      L.set(ra, vm.resumeError!.value);
      vm.resumeError = null;
      return -1;
    }
    L.ensure(ra + n + 20);
    copySlots(L, ra, co, co.resultFrom, n);
    return n;
  };
  const co = newLib(vm, 'coroutine', {
    create(L, ra, nargs) {
      const f = arg(L, ra, nargs, 1);
      if (!(f instanceof IsLuaClosure)) argError(L, 1, 'Lua function expected');
      L.set(ra, vm.newThread(f));
      return 1;
    },
    resume(L, ra, nargs) {
      const c = arg(L, ra, nargs, 1);
      if (!(c instanceof IsLuaThread)) typeArgError(L, 1, nargs, 'coroutine');
      const n = resumeInto(L, ra + 1, c, ra + 2, nargs - 1);
      L.sv[ra] = n >= 0;
      return n >= 0 ? n + 1 : 2;
    },
    yield(L, ra, nargs) {
      return vm.yieldValues(L, ra + 1, nargs);
    },
    status(L, ra, nargs) {
      const c = arg(L, ra, nargs, 1);
      if (!(c instanceof IsLuaThread)) typeArgError(L, 1, nargs, 'coroutine');
      L.set(ra, c.status);
      return 1;
    },
    running(L, ra) {
      L.set(ra, L === vm.main ? undefined : L);
      return 1;
    },
    wrap(L, ra, nargs) {
      const f = arg(L, ra, nargs, 1);
      if (!(f instanceof IsLuaClosure)) argError(L, 1, 'Lua function expected');
      const c = vm.newThread(f);
      L.set(
        ra,
        new HostFunction(
          'wrap',
          (L2, ra2, nargs2) => {
            const n = resumeInto(L2, ra2, c, ra2 + 1, nargs2);
            if (n < 0) {
              const v = L2.get(ra2);
              throw new LuaError(typeof v === 'string' ? whereLevel(L2, 1) + v : v);
            }
            return n;
          },
          vm.globals,
        ),
      );
      return 1;
    },
  });
  void co;
  void YIELD_RESULT;
  void checkNumber;
}

/**
 * `setmetatable(instance, meta)` on an `hstructure` instance: a structure's metatable is its `meta` slot (declared
 * `meta : T`), which indexing already consults (`structMetaField`); the value is checked against the slot's type.
 * The shipped layer scripts do this in every script object's `__constructor` (`setmetatable(self, parent)` with
 * `parent` the `hmake`d `_meta` structure).
 */
function setStructMeta(L: LuaThread, ra: number, nargs: number, t: LuaStruct): number {
  const mt = arg(L, ra, nargs, 2);
  const mp = t.def.metaPos;
  if (mp < 0) argError(L, 1, `structure '${t.def.name}' declares no meta`);
  if (mt !== undefined && !(mt instanceof IsLuaTable) && !(mt instanceof IsLuaStruct)) argError(L, 2, 'nil, table or structure expected');
  const slot = t.def.byPosition[mp];
  if (slot) checkSlotValue(L, t.def, 'meta', slot.typeId, slot.structType, mt);
  t.slots[mp] = mt;
  L.set(ra, t);
  return 1;
}
