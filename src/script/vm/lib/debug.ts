/**
 * The debug library of Lua 5.1 (`ldblib.c` behaviour): getinfo, getlocal / setlocal (named locals and
 * "(*temporary)" slots), getupvalue / setupvalue, sethook / gethook (call, return, line and count hooks),
 * getmetatable / setmetatable for any type, getfenv / setfenv, getregistry, traceback and an interactive `debug()`.
 * Stack levels count tail calls as 5.1 does ("(tail call)" levels).
 */
import { IsLuaTable, LuaTable } from '../table.ts';
import { IsHostFunction, IsLuaClosure, IsLuaUserdata, LuaClosure, type LuaValue } from '../value.ts';
import { type CallInfo, IsLuaThread, LuaThread } from '../thread.ts';
import { HOOK_CALL, HOOK_COUNT, HOOK_LINE, HOOK_RET, type LuaVM } from '../vm.ts';
import { calledName, chunkId, currentLine, getStack, localName, traceback, type Level } from '../debuginfo.ts';
import { getMetatable, typeName } from '../meta.ts';
import { upvalGet, upvalSet } from '../thread.ts';
import { arg, argError, checkAny, checkInt, checkString, checkTable, libError, newLib, optString, typeArgError } from './aux.ts';

/** Optional thread first argument: returns the thread and the index of the next argument. */
function threadArg(L: LuaThread, ra: number, nargs: number): { co: LuaThread; first: number } {
  const v = arg(L, ra, nargs, 1);
  if (v instanceof IsLuaThread) return { co: v, first: 2 };
  return { co: L, first: 1 };
}

function activeLines(vm: LuaVM, ci: CallInfo | null, f: LuaClosure): LuaTable {
  const t = vm.newTable();
  const lines = f.p.lines;
  void ci;
  if (lines) for (let i = 0; i < lines.length - 1; i++) t.set(lines[i]!, true);
  return t;
}

export function openDebug(vm: LuaVM): void {
  const info = (L: LuaThread, co: LuaThread, what: string, target: { fn: LuaValue; level: Level }): LuaTable => {
    const t = vm.newTable(0, 12);
    const lv = target.level;
    const ci = lv && 'ci' in lv ? co.cis[lv.ci]! : null;
    const isTail = lv !== null && 'tail' in lv;
    const fn = target.fn;
    for (const c of what) {
      switch (c) {
        case 'S':
          if (isTail) {
            t.setStr('source', '=(tail call)');
            t.setStr('short_src', '(tail call)');
            t.setStr('linedefined', -1);
            t.setStr('lastlinedefined', -1);
            t.setStr('what', 'tail');
          } else if (fn instanceof IsLuaClosure) {
            const p = fn.p;
            t.setStr('source', p.chunk.source);
            t.setStr('short_src', chunkId(p.chunk.source));
            t.setStr('linedefined', p.lineDefined);
            t.setStr('lastlinedefined', p.fn.debug?.lastLineDefined ?? -1);
            t.setStr('what', p.path === 'main' ? 'main' : 'Lua');
          } else {
            t.setStr('source', '=[C]');
            t.setStr('short_src', '[C]');
            t.setStr('linedefined', -1);
            t.setStr('lastlinedefined', -1);
            t.setStr('what', 'C');
          }
          break;
        case 'l':
          t.setStr('currentline', ci && ci.cl !== null ? currentLine(ci) : -1);
          break;
        case 'u':
          t.setStr('nups', fn instanceof IsLuaClosure ? fn.p.nups : 0);
          break;
        case 'n': {
          const nm = lv && 'ci' in lv ? calledName(co, lv.ci) : null;
          if (nm) {
            t.setStr('name', nm.name);
            t.setStr('namewhat', nm.kind);
          } else t.setStr('namewhat', '');
          break;
        }
        case 'f':
          if (!isTail) t.setStr('func', fn);
          break;
        case 'L':
          if (fn instanceof IsLuaClosure) t.setStr('activelines', activeLines(vm, ci, fn));
          break;
        case '>':
          break;
        default:
          argError(L, 2, 'invalid option');
      }
    }
    return t;
  };

  /** Slot of local n in a frame, with its name (`(*temporary)` for unnamed slots within the frame), or null. */
  const localSlot = (co: LuaThread, ciIndex: number, n: number): { name: string; slot: number } | null => {
    const ci = co.cis[ciIndex]!;
    if (ci.cl !== null) {
      const name = localName(ci.cl.p, n, ci.pc >> 2);
      if (name !== null) return { name, slot: ci.base + n - 1 };
    }
    const limit = ciIndex === co.ciTop ? co.top : co.cis[ciIndex + 1]!.func;
    if (limit - ci.base >= n && n > 0) return { name: '(*temporary)', slot: ci.base + n - 1 };
    return null;
  };

  const upvalue = (f: LuaValue, n: number): { name: string; get: () => LuaValue; set: (v: LuaValue) => void } | null => {
    if (f instanceof IsLuaClosure) {
      const names = f.p.fn.debug?.upvalueNames ?? [];
      if (!(1 <= n && n <= names.length && n <= f.up.length)) return null;
      const u = f.up[n - 1]!;
      return { name: names[n - 1] ?? '', get: () => upvalGet(u), set: (v) => upvalSet(u, v) };
    }
    if (f instanceof IsHostFunction && f.upvalues !== null && 1 <= n && n <= f.upvalues.length) {
      const ups = f.upvalues;
      return { name: '', get: () => ups[n - 1], set: (v) => void (ups[n - 1] = v) };
    }
    return null;
  };

  newLib(vm, 'debug', {
    getinfo(L, ra, nargs) {
      const { co, first } = threadArg(L, ra, nargs);
      const what = optString(L, ra, nargs, first + 1, 'flnSu');
      const target = arg(L, ra, nargs, first);
      if (target instanceof IsLuaClosure || target instanceof IsHostFunction) {
        if (what.includes('>')) argError(L, first + 1, 'invalid option');
        L.set(ra, info(L, co, what, { fn: target, level: null }));
        return 1;
      }
      if (typeof target !== 'number' && typeof target !== 'string') argError(L, first, 'function or level expected');
      const level = checkInt(L, ra, nargs, first);
      const lv = getStack(co, co === L ? level : level);
      if (lv === null) {
        L.set(ra, undefined);
        return 1;
      }
      const fn = 'ci' in lv ? (co.cis[lv.ci]!.cl ?? co.cis[lv.ci]!.hf ?? undefined) : undefined;
      L.set(ra, info(L, co, what, { fn, level: lv }));
      return 1;
    },
    getlocal(L, ra, nargs) {
      const { co, first } = threadArg(L, ra, nargs);
      const level = checkInt(L, ra, nargs, first);
      const n = checkInt(L, ra, nargs, first + 1);
      const lv = getStack(co, level);
      if (lv === null || !('ci' in lv)) argError(L, first, 'level out of range');
      const loc = localSlot(co, lv.ci, n);
      if (loc === null) {
        L.set(ra, undefined);
        return 1;
      }
      const v = co.get(loc.slot);
      L.set(ra, loc.name);
      L.set(ra + 1, v);
      return 2;
    },
    setlocal(L, ra, nargs) {
      const { co, first } = threadArg(L, ra, nargs);
      const level = checkInt(L, ra, nargs, first);
      const n = checkInt(L, ra, nargs, first + 1);
      const v = checkAny(L, ra, nargs, first + 2);
      const lv = getStack(co, level);
      if (lv === null || !('ci' in lv)) argError(L, first, 'level out of range');
      const loc = localSlot(co, lv.ci, n);
      if (loc !== null) {
        co.set(loc.slot, v);
        L.vm.frameWrites++;
      }
      L.set(ra, loc?.name);
      return 1;
    },
    getupvalue(L, ra, nargs) {
      const f = arg(L, ra, nargs, 1);
      if (!(f instanceof IsLuaClosure || f instanceof IsHostFunction)) typeArgError(L, 1, nargs, 'function');
      const u = upvalue(f, checkInt(L, ra, nargs, 2));
      if (u === null) return 0;
      L.set(ra, u.name);
      L.set(ra + 1, u.get());
      return 2;
    },
    setupvalue(L, ra, nargs) {
      const f = arg(L, ra, nargs, 1);
      if (!(f instanceof IsLuaClosure || f instanceof IsHostFunction)) typeArgError(L, 1, nargs, 'function');
      const n = checkInt(L, ra, nargs, 2);
      const v = checkAny(L, ra, nargs, 3);
      const u = upvalue(f, n);
      if (u === null) return 0;
      u.set(v);
      L.set(ra, u.name);
      return 1;
    },
    sethook(L, ra, nargs) {
      const { co, first } = threadArg(L, ra, nargs);
      const f = arg(L, ra, nargs, first);
      if (f === undefined || nargs < first) {
        co.hookFn = undefined;
        co.hookMask = 0;
        co.hookCount = 0;
        return 0;
      }
      const smask = checkString(L, ra, nargs, first + 1);
      if (!(f instanceof IsLuaClosure || f instanceof IsHostFunction)) typeArgError(L, first, nargs, 'function');
      const count = arg(L, ra, nargs, first + 2) === undefined ? 0 : checkInt(L, ra, nargs, first + 2);
      let mask = 0;
      if (smask.includes('c')) mask |= HOOK_CALL;
      if (smask.includes('r')) mask |= HOOK_RET;
      if (smask.includes('l')) mask |= HOOK_LINE;
      if (count > 0) mask |= HOOK_COUNT;
      co.hookFn = mask === 0 ? undefined : f;
      co.hookMask = mask;
      co.hookCount = count;
      co.hookCountLeft = count;
      vm.rearm();
      return 0;
    },
    gethook(L, ra, nargs) {
      const { co } = threadArg(L, ra, nargs);
      if (co.hookFn === undefined) {
        L.set(ra, undefined);
        return 1;
      }
      let mask = '';
      if (co.hookMask & HOOK_CALL) mask += 'c';
      if (co.hookMask & HOOK_RET) mask += 'r';
      if (co.hookMask & HOOK_LINE) mask += 'l';
      L.set(ra, co.hookFn);
      L.set(ra + 1, mask);
      L.set(ra + 2, co.hookCount);
      return 3;
    },
    getmetatable(L, ra, nargs) {
      const v = checkAny(L, ra, nargs, 1);
      L.set(ra, getMetatable(vm, v) ?? undefined);
      return 1;
    },
    setmetatable(L, ra, nargs) {
      const v = arg(L, ra, nargs, 1);
      const mt = arg(L, ra, nargs, 2);
      if (mt !== undefined && !(mt instanceof IsLuaTable)) argError(L, 2, 'nil or table expected');
      const m = (mt as LuaTable | undefined) ?? null;
      if (v instanceof IsLuaTable) {
        v.metatable = m;
        vm.noteMetatable(v);
      } else if (v instanceof IsLuaUserdata) v.metatable = m;
      else if (typeof v === 'string') vm.stringMeta = m;
      else if (m === null) vm.typeMetas.delete(typeName(v));
      else vm.typeMetas.set(typeName(v), m);
      L.set(ra, true);
      return 1;
    },
    getfenv(L, ra, nargs) {
      const v = arg(L, ra, nargs, 1);
      if (v instanceof IsLuaClosure) L.set(ra, v.env);
      else if (v instanceof IsHostFunction) L.set(ra, v.env ?? vm.globals);
      else if (v instanceof IsLuaUserdata) L.set(ra, v.env ?? undefined);
      else if (v instanceof IsLuaThread) L.set(ra, (v.env as LuaTable | null) ?? vm.globals);
      else L.set(ra, undefined);
      return 1;
    },
    setfenv(L, ra, nargs) {
      const v = arg(L, ra, nargs, 1);
      const t = checkTable(L, ra, nargs, 2);
      if (v instanceof IsLuaClosure) v.env = t;
      else if (v instanceof IsHostFunction) v.env = t;
      else if (v instanceof IsLuaUserdata) v.env = t;
      else if (v instanceof IsLuaThread) v.env = t;
      else libError(L, "'setfenv' cannot change environment of given object");
      L.set(ra, v);
      return 1;
    },
    getregistry(L, ra) {
      L.set(ra, vm.registry);
      return 1;
    },
    traceback(L, ra, nargs) {
      const { co, first } = threadArg(L, ra, nargs);
      const msg = arg(L, ra, nargs, first);
      if (msg !== undefined && typeof msg !== 'string' && typeof msg !== 'number') {
        L.set(ra, msg);
        return 1;
      }
      const defLevel = co === L ? 1 : 0;
      const level = arg(L, ra, nargs, first + 1) === undefined ? defLevel : checkInt(L, ra, nargs, first + 1);
      // frame index of the level (tail levels included)
      let from = co.ciTop;
      let lv = level;
      for (; lv > 0 && from > 0; from--) {
        lv--;
        const ci = co.cis[from]!;
        if (ci.cl !== null) lv -= ci.tailcalls;
      }
      const head = msg !== undefined ? `${typeof msg === 'number' ? String(msg) : msg}\n` : '';
      L.set(ra, head + traceback(co, Math.max(0, from)));
      return 1;
    },
    debug(L) {
      // interactive: reads lines from stdin and runs them until "cont"
      const loadstring = vm.globals.getStr('loadstring');
      for (;;) {
        vm.io.stderr('lua_debug> ');
        const chunk = vm.io.stdin ? vm.io.stdin() : null;
        if (chunk === null) return 0;
        const line = chunk.replace(/\n$/, '');
        if (line === 'cont') return 0;
        try {
          const [f, err] = vm.call(loadstring, [line, '=(debug command)']);
          if (f === undefined) vm.io.stderr(`${String(err)}\n`);
          else vm.call(f);
        } catch (e) {
          vm.io.stderr(`${e instanceof Error ? e.message : String(e)}\n`);
        }
        void L;
      }
    },
  });
}
