/**
 * The interpreter: one dispatch loop over pre-decoded instructions (`proto.ts`), as the game's main loop (mode 0)
 * runs them. Lua-to-Lua calls and returns, tail calls and generic-for calls to Lua iterators switch frames inside
 * the loop (no JavaScript recursion, so coroutines yield across any number of Lua frames); host functions and
 * metamethods are called from it. There is no `try` in the loop: errors are thrown to the nearest catcher (a
 * protected call, a resume, or the host), which restores the thread's frames.
 *
 * Register access is unboxed: `sv[i]` is the value slot (`0` marks a number), `sn[i]` the number. Before anything
 * that may call out (a slow path, a call, an error) the loop saves its pc in the frame and its instruction budget
 * in the VM; afterwards it reloads both and the number array (the stack may have grown).
 */
import * as tableModule from './table.ts';
import * as valueModule from './value.ts';
import type { LuaValue, Upval } from './value.ts';
import { NUM as NUM_MARKER, type CallInfo, type LuaThread } from './thread.ts';
import type { LuaVM } from './vm.ts';
import type { Op, ClosureSide, Proto, SlotSide, StructSide } from './proto.ts';
import * as metaModule from './meta.ts';
import * as structModule from './structops.ts';
import * as jitModule from './jit.ts';
import type { JitRuntime } from './jit.ts';

// Imported bindings are read once into module constants: loaders that compile ES modules to CommonJS (tsx, vitest)
// turn every use of an imported name into a getter call, which the dispatch loop must not pay per instruction.
// For the same reason the loop's case labels are literals, checked against `Op` by `satisfies`.
const { IsLuaTable, LuaTable, TableOverflow } = tableModule;
type LuaTable = tableModule.LuaTable;
const { IsHostFunction, IsLuaClosure, IsLuaStruct, LuaClosure, YIELD_RESULT } = valueModule;
type HostFunction = valueModule.HostFunction;
type LuaClosure = valueModule.LuaClosure;
const NUM: 0 = NUM_MARKER;
const { arith, concat, equals, getTM, index, length, lessEqual, lessThan, rawSet, setIndex, toNumber } = metaModule;
const { checkType, checkTypeStruct, getSlotChain, newStruct, setSlotChain, setSlotChecked, slotTarget } = structModule;

/** `Proto.hot` of a function the tier has tried to compile. */
const NEVER_HOT = -0x3fffffff;

/** Compiles `p` for the JavaScript tier once (jit.ts); whether it now has compiled code. */
function jitCompile(vm: LuaVM, p: Proto): boolean {
  // tried once: a count that never reaches any threshold again (a small integer, as every count is)
  p.hot = NEVER_HOT;
  p.jit = jitModule.compileProto(p, vm.float32, JIT_RUNTIME);
  return p.jit !== null;
}

/** What compiled code calls back into (frames and host calls stay the interpreter's). */
const JIT_RUNTIME: JitRuntime = {
  callHost: (L, hf, ra, nargs, nres) => callHost(L, hf, ra, nargs, nres),
  pushLuaFrame: (L, cl, fi, nargs, nres) => pushLuaFrame(L, cl, fi, nargs, nres),
  jitOf: (L, p) => (tierTakes(L, L.vm, p) ? p.jit : null),
  continuation: (L, ci) => continuation(L, ci),
};

/**
 * Where a Lua frame continues once the call at its saved pc has delivered its results: after the CALL, or for a
 * generic for's iterator call, back into the loop or past it (TFORLOOP). (`execute` does the same where it enters a
 * frame after a call.)
 */
function continuation(L: LuaThread, ci: CallInfo): number {
  const code = ci.cl!.p.code;
  const pc = ci.pc;
  const rop = code[pc]!;
  if (rop === (66 satisfies typeof Op.TFORLOOP_J) || rop === (67 satisfies typeof Op.TFORLOOP_S)) {
    const cb = ci.base + code[pc + 1]! + 3;
    const sv = L.sv;
    if (sv[cb] !== undefined) {
      sv[cb - 1] = sv[cb];
      L.sn[cb - 1] = L.sn[cb]!;
      return rop === (66 satisfies typeof Op.TFORLOOP_J) ? code[pc + 3]! : pc + 4;
    }
    return pc + 8;
  }
  return pc + 4;
}

/** Lua 5.1 LUA_MINSTACK: free slots a host function may use without asking. */
export const MINSTACK = 20;
/** Lua 5.1 LFIELDS_PER_FLUSH. */
const FIELDS_PER_FLUSH = 50;

/**
 * Prepares a frame for Lua closure `cl` in slot `fi` with `nargs` arguments after it (`luaD_precall` and
 * `adjust_varargs`): parameters padded with nil, varargs kept below the new base, the `arg` table for
 * NEEDSARG functions, the rest of the frame cleared. The one frame push of the interpreter and the JavaScript tier:
 * its common case (a fixed-arity function, no hook, room on the stack and a pooled frame) is small enough for V8
 * to inline into their call sites; the rest is {@link pushLuaFrameSlow}.
 */
export function pushLuaFrame(L: LuaThread, cl: LuaClosure, fi: number, nargs: number, nres: number): CallInfo {
  const p = cl.p;
  const base = fi + 1;
  const end = base + p.frameSize;
  const cit = L.ciTop + 1;
  const sv = L.sv;
  if (p.isVararg || L.hookMask !== 0 || cit >= L.cis.length || end > sv.length) return pushLuaFrameSlow(L, cl, fi, nargs, nres);
  const np = p.numparams;
  for (let i = base + (nargs < np ? nargs : np); i < end; i++) sv[i] = undefined;
  L.ciTop = cit;
  const ci = L.cis[cit]!;
  ci.func = fi;
  ci.base = base;
  ci.top = end;
  ci.cl = cl;
  ci.hf = null;
  ci.pc = 0;
  ci.nresults = nres;
  ci.nargs = nargs;
  ci.tailcalls = 0;
  ci.entry = false;
  ci.hookPc = -1;
  return ci;
}

/** {@link pushLuaFrame} in full: varargs, the call hook, a stack or frame list that must grow. */
function pushLuaFrameSlow(L: LuaThread, cl: LuaClosure, fi: number, nargs: number, nres: number): CallInfo {
  const p = cl.p;
  const np = p.numparams;
  let base: number;
  if (!p.isVararg) {
    base = fi + 1;
    L.ensure(base + p.frameSize);
    const sv = L.sv;
    const end = base + p.frameSize;
    for (let i = base + (nargs < np ? nargs : np); i < end; i++) sv[i] = undefined;
  } else {
    const actual = nargs > np ? nargs : np;
    L.ensure(fi + 1 + actual + p.frameSize + 1);
    const sv = L.sv;
    for (let i = nargs; i < np; i++) sv[fi + 1 + i] = undefined;
    const nvar = actual - np;
    let argTable: LuaTable | null = null;
    if (p.needsArg) {
      argTable = new LuaTable(nvar, 1, L.vm.limits.maxTableEntries);
      for (let i = 0; i < nvar; i++) argTable.setInt(i + 1, L.get(fi + 1 + np + i));
      argTable.setStr('n', nvar);
    }
    base = fi + 1 + actual;
    for (let i = 0; i < np; i++) {
      L.copy(base + i, fi + 1 + i);
      sv[fi + 1 + i] = undefined;
    }
    let from = base + np;
    if (argTable !== null) sv[from++] = argTable;
    const end = base + p.frameSize;
    for (let i = from; i < end; i++) sv[i] = undefined;
  }
  const ci = L.pushCi();
  ci.func = fi;
  ci.base = base;
  ci.top = base + p.frameSize;
  ci.cl = cl;
  ci.hf = null;
  ci.pc = 0;
  ci.nresults = nres;
  ci.nargs = nargs;
  if (L.hookMask & 1) L.vm.callHook(L, 'call', -1);
  return ci;
}

/** Calls host function `hf` in slot `ra`; returns its result count (results from `ra` on) or YIELD_RESULT. */
export function callHost(L: LuaThread, hf: HostFunction, ra: number, nargs: number, nres: number): number {
  const top = ra + 1 + nargs + MINSTACK;
  if (top > L.sv.length) L.ensure(top);
  // a pooled frame (pushCi's common case inline: the frame list grows there)
  const cit = L.ciTop + 1;
  let ci: CallInfo;
  if (cit < L.cis.length) {
    L.ciTop = cit;
    ci = L.cis[cit]!;
    ci.tailcalls = 0;
    ci.entry = false;
    ci.hookPc = -1;
  } else ci = L.pushCi();
  ci.func = ra;
  ci.base = ra + 1;
  ci.top = top;
  ci.cl = null;
  ci.hf = hf;
  ci.nargs = nargs;
  ci.nresults = nres;
  L.top = ra + 1 + nargs;
  if (L.hookMask & 1) L.vm.callHook(L, 'call', -1);
  const n = hf.fn(L, ra, nargs);
  if (n < 0) return n;
  // checked after the call: the function may have just set the hook (debug.sethook's own return is seen)
  if (L.hookMask & 2) hostReturnHook(L, ra + n);
  L.ciTop--;
  return n;
}

/** The return hook of a host function (it runs above the results). */
function hostReturnHook(L: LuaThread, resultsEnd: number): void {
  const saved = L.top;
  L.top = Math.max(L.top, resultsEnd);
  L.vm.callHook(L, 'return', -1);
  L.top = saved;
}

/** Return hooks of a Lua frame about to return: "return", then "tail return" once per tail call it replaced. */
function returnHooks(L: LuaThread, ci: CallInfo, resultsEnd: number): void {
  const saved = L.top;
  L.top = Math.max(ci.top, resultsEnd);
  L.vm.callHook(L, 'return', -1);
  for (let i = 0; i < ci.tailcalls; i++) L.vm.callHook(L, 'tail return', -1);
  L.top = saved;
}

/**
 * Makes slot `fi` callable (`tryfuncTM`): a non-function is replaced by its `__call` metamethod, the original value
 * becoming the first argument. Returns the new argument count.
 */
export function resolveCallable(L: LuaThread, fi: number, nargs: number): number {
  const f = L.get(fi);
  const tm = getTM(L.vm, f, '__call');
  if (!(tm instanceof IsLuaClosure || tm instanceof IsHostFunction)) L.vm.typeError(L, f, 'call', L.ci.cl !== null ? fi - L.ci.base : -1);
  L.ensure(fi + nargs + 2);
  for (let i = fi + nargs; i >= fi; i--) L.copy(i + 1, i);
  L.sv[fi] = tm;
  if (L.top < fi + nargs + 2) L.top = fi + nargs + 2;
  return nargs + 1;
}

/**
 * Calls the value in slot `fi` with the `nargs` values after it, from a host function or a metamethod (JavaScript
 * recursion: what it runs cannot yield, as in Lua 5.1). Results are left from `fi` on; with `nres = -1` all of them
 * and `L.top` after the last.
 */
export function callValue(L: LuaThread, fi: number, nargs: number, nres: number): void {
  const vm: LuaVM = L.vm;
  if (vm.cDepth >= vm.limits.maxCDepth) vm.stackOverflow(L, 'C stack overflow');
  vm.cDepth++;
  L.nny++;
  let f = L.sv[fi];
  if (!(f instanceof IsLuaClosure || f instanceof IsHostFunction)) {
    nargs = resolveCallable(L, fi, nargs);
    f = L.sv[fi];
  }
  if (f instanceof IsLuaClosure) {
    const ci = pushLuaFrame(L, f, fi, nargs, nres);
    // compiled code runs the frame from here and returns through its own RETURN (the frame is not an entry frame
    // while it does: compiled code hands an entry frame's return to the interpreter); wherever it hands over to
    // the interpreter, the frame becomes the entry frame the interpreter returns at (it reads the flag at RETURN)
    const p = f.p;
    if (!tierTakes(L, vm, p) || p.jit!(L, ci, ci.base, 0, 0) !== jitModule.JIT_RETURNED) {
      ci.entry = true;
      execute(L, false);
    }
  } else {
    const n = callHost(L, f as HostFunction, fi, nargs, nres);
    if (n < 0) {
      L.ciTop--;
      vm.runError(L, 'attempt to yield across metamethod/C-call boundary');
    }
    if (nres >= 0) for (let i = n; i < nres; i++) L.sv[fi + i] = undefined;
    else L.top = fi + n;
  }
  vm.cDepth--;
  L.nny--;
}

/**
 * The hash entry of `key` in `t` (dead entries included) or -1, through the instruction's inline cache slot
 * `ic[slot]`: the entry the instruction found last, checked against the table's keys (tables share no layout, so
 * the cache holds a position, right whenever the same key sits at the same place, as in objects built alike).
 */
function cachedEntry(t: LuaTable, key: LuaValue, ic: Int32Array, slot: number): number {
  const g = ic[slot]!;
  if (g < t.hused && t.hk[g] === key) return g;
  const e = t.entryOf(key);
  if (e >= 0) ic[slot] = e;
  return e;
}

/**
 * The read GETFIELD and GETTABLE leave to the metamethods (a table's missing key with a metatable, or not a table):
 * `index` with the frame's pc and budget saved, its value into register `ra`. The caller reloads `steps` and `sn`.
 */
function indexInto(L: LuaThread, ci: CallInfo, pc: number, steps: number, t: LuaValue, key: LuaValue, reg: number, ra: number): void {
  ci.pc = pc;
  L.vm.steps = steps;
  const v = index(L, t, key, reg);
  store(L.sv, L.sn, ra, v);
}

/** Stores a native value into register slot i. */
function store(sv: LuaValue[], sn: Float64Array | Float32Array, i: number, v: LuaValue): void {
  if (typeof v === 'number') {
    sn[i] = v;
    sv[i] = NUM;
  } else sv[i] = v;
}

/**
 * Continues a resumed coroutine: its top frame (a Lua function) after the call whose results it has just received.
 * A frame with compiled code continues in the tier at its return point, and the frames below it as they are
 * returned to (jit.ts `runCompiled`); the interpreter takes over wherever the tier hands a frame back.
 */
export function resumeFrame(L: LuaThread): void {
  const ci = L.cis[L.ciTop]!;
  if (ci.cl!.p.jit === null || L.hookMask !== 0) {
    execute(L, true);
    return;
  }
  const at = continuation(L, ci);
  ci.pc = at;
  if (jitModule.runCompiled(L, ci, at, JIT_RUNTIME) !== jitModule.JIT_YIELD) execute(L, false);
}

// How `execute`'s outer loop enters the frame on top of the thread's frames.
/** At its saved pc, where the JavaScript tier may take over (a new activation, or a loop back-edge). */
const ENTER_FRESH = 0;
/** At its saved pc, in the interpreter (the tier left it there). */
const ENTER_AT_PC = 1;
/** After the call at its saved pc, whose results have just been delivered (a return, a resumed yield). */
const ENTER_AFTER_CALL = 2;

/** Whether the JavaScript tier runs `p` now (compiling it once it is hot); never while a hook is set. */
function tierTakes(L: LuaThread, vm: LuaVM, p: Proto): boolean {
  return p.jit !== null ? L.hookMask === 0 : vm.jitThreshold > 0 && ++p.hot >= vm.jitThreshold && L.hookMask === 0 && jitCompile(vm, p);
}

/**
 * Runs the thread's current Lua frame until the frame that entered the interpreter returns, or a host function
 * yields. `afterCall`: the frame is resuming after a call that has just delivered its results (a resumed yield).
 */
export function execute(L: LuaThread, afterCall: boolean): void {
  const vm: LuaVM = L.vm;
  const sv = L.sv;
  let sn = L.sn;
  const f32 = vm.float32;
  let steps = vm.steps;
  let enter = afterCall ? ENTER_AFTER_CALL : L.cis[L.ciTop]!.pc === 0 ? ENTER_FRESH : ENTER_AT_PC;
  // The outer loop enters the frame on top (calls, returns, resumed yields, tier hand-backs all come through
  // here); the inner loop runs it, its frame state constant.
  frames: for (;;) {
    const ci = L.cis[L.ciTop]!;
    const cl = ci.cl!;
    const p: Proto = cl.p;
    const code = p.code;
    const kv = p.kv;
    const kn = p.kn;
    const k = p.k;
    const ic = p.ic;
    const base = ci.base;
    let pc = ci.pc;
    if (enter === ENTER_AFTER_CALL) {
      const rop = code[pc]!;
      if (rop === (66 satisfies typeof Op.TFORLOOP_J) || rop === (67 satisfies typeof Op.TFORLOOP_S)) {
        const cb = base + code[pc + 1]! + 3;
        if (sv[cb] !== undefined) {
          sv[cb - 1] = sv[cb];
          sn[cb - 1] = sn[cb]!;
          pc = rop === (66 satisfies typeof Op.TFORLOOP_J) ? code[pc + 3]! : pc + 4;
        } else pc += 8;
      } else pc += 4;
    }
    // the JavaScript tier runs this frame from here until it bails out (jit.ts): a new activation or a loop back-edge
    // once hot, or the return point of a frame with compiled code (every return point is an entry of it)
    if (enter === ENTER_FRESH ? tierTakes(L, vm, p) : enter === ENTER_AFTER_CALL && p.jit !== null && L.hookMask === 0) {
      ci.pc = pc;
      vm.steps = steps;
      const r = jitModule.runCompiled(L, ci, pc, JIT_RUNTIME);
      steps = vm.steps;
      sn = L.sn;
      if (r < 0) {
        if (r === -1) return;
        // frames changed: the interpreter continues another frame (a callee, or a caller the frame returned to)
        enter = ENTER_AT_PC;
        continue;
      }
      pc = r;
    }

    for (;;) {
      if (--steps < 0) {
        // budget refill, count and line hooks
        ci.pc = pc;
        vm.steps = steps;
        vm.stepEvent(L);
        steps = vm.steps;
        sn = L.sn;
      }
      const op = code[pc]!;
      const a = code[pc + 1]!;
      switch (op) {
        case 0 satisfies typeof Op.NOP:
          pc += 4;
          break;
        case 1 satisfies typeof Op.MOVE: {
          const ra = base + a;
          const rb = base + code[pc + 2]!;
          sv[ra] = sv[rb];
          sn[ra] = sn[rb]!;
          pc += 4;
          break;
        }
        case 2 satisfies typeof Op.LOADKN: {
          const ra = base + a;
          sn[ra] = kn[code[pc + 2]!]!;
          sv[ra] = NUM;
          pc += 4;
          break;
        }
        case 3 satisfies typeof Op.LOADKV:
          sv[base + a] = kv[code[pc + 2]!];
          pc += 4;
          break;
        case 4 satisfies typeof Op.LOADNIL: {
          const last = base + code[pc + 2]!;
          for (let i = base + a; i <= last; i++) sv[i] = undefined;
          pc += 4;
          break;
        }
        case 5 satisfies typeof Op.LOADBOOL:
          sv[base + a] = code[pc + 2] === 1;
          pc = code[pc + 3]!;
          break;
        case 6 satisfies typeof Op.GETUPVAL: {
          const u: Upval = cl.up[code[pc + 2]!]!;
          const t = u.thread;
          const ra = base + a;
          if (t === null) store(sv, sn, ra, u.v);
          else {
            sv[ra] = t.sv[u.idx];
            sn[ra] = t.sn[u.idx]!;
          }
          pc += 4;
          break;
        }
        case 7 satisfies typeof Op.SETUPVAL: {
          const u: Upval = cl.up[code[pc + 2]!]!;
          const t = u.thread;
          const ra = base + a;
          if (t === null) {
            const x = sv[ra];
            u.v = x === NUM ? sn[ra]! : x;
          } else {
            t.sv[u.idx] = sv[ra];
            t.sn[u.idx] = sn[ra]!;
          }
          pc += 4;
          break;
        }
        case 8 satisfies typeof Op.GETGLOBAL: {
          const env = cl.env;
          const key = k[code[pc + 2]!];
          let v: LuaValue;
          if (typeof key === 'string') {
            const e = cachedEntry(env, key, ic, pc >> 2);
            v = e >= 0 ? env.hv[e] : undefined;
          } else v = env.get(key);
          if (v === undefined && env.metatable !== null) {
            ci.pc = pc;
            vm.steps = steps;
            v = index(L, env, key);
            steps = vm.steps;
            sn = L.sn;
          }
          store(sv, sn, base + a, v);
          pc = code[pc + 3]!;
          break;
        }
        case 9 satisfies typeof Op.SETGLOBAL: {
          const env = cl.env;
          const key = k[code[pc + 2]!];
          const ra = base + a;
          const x = sv[ra];
          const v = x === NUM ? sn[ra]! : x;
          ci.pc = pc;
          vm.steps = steps;
          if (env.metatable === null && typeof key === 'string') env.setStr(key, v);
          else {
            vm.steps = steps;
            setIndex(L, env, key, v);
            steps = vm.steps;
            sn = L.sn;
          }
          pc += 4;
          break;
        }
        case 10 satisfies typeof Op.GETFIELD: {
          const rb = base + code[pc + 2]!;
          const t = sv[rb];
          const key = k[code[pc + 3]!] as string;
          if (t instanceof IsLuaTable) {
            const e = cachedEntry(t, key, ic, pc >> 2);
            const v = e >= 0 ? t.hv[e] : undefined;
            if (v !== undefined || t.metatable === null) {
              store(sv, sn, base + a, v);
              pc += 12;
              break;
            }
          }
          indexInto(L, ci, pc, steps, t === NUM ? sn[rb]! : t, key, rb - base, base + a);
          steps = vm.steps;
          sn = L.sn;
          pc += 12;
          break;
        }
        case 11 satisfies typeof Op.GETTABLE: {
          const rb = base + code[pc + 2]!;
          const c = code[pc + 3]!;
          const t = sv[rb];
          let key: LuaValue;
          if (c >= 0) {
            const x = sv[base + c];
            key = x === NUM ? sn[base + c]! : x;
          } else key = k[~c];
          if (t instanceof IsLuaTable) {
            let v: LuaValue;
            if (typeof key === 'number') {
              const arr = t.arr;
              const i = key - 1;
              if (i >= 0 && i < arr.length && (i | 0) === i) v = arr[i];
              else {
                // a number key of the hash part (t[0], t[-1], a sparse index): the entry this instruction found last
                const e = cachedEntry(t, key, ic, pc >> 2);
                v = e >= 0 ? t.hv[e] : undefined;
              }
            } else v = t.get(key);
            if (v !== undefined || t.metatable === null) {
              store(sv, sn, base + a, v);
              pc += 12;
              break;
            }
          }
          indexInto(L, ci, pc, steps, t === NUM ? sn[rb]! : t, key, rb - base, base + a);
          steps = vm.steps;
          sn = L.sn;
          pc += 12;
          break;
        }
        case 12 satisfies typeof Op.SETFIELD: {
          const ra = base + a;
          const t = sv[ra];
          const key = k[code[pc + 2]!] as string;
          const c = code[pc + 3]!;
          let v: LuaValue;
          if (c >= 0) {
            const x = sv[base + c];
            v = x === NUM ? sn[base + c]! : x;
          } else v = k[~c];
          ci.pc = pc;
          vm.steps = steps;
          if (t instanceof IsLuaTable && t.metatable === null) {
            // an existing entry takes the value in place, as setStr does
            const e = cachedEntry(t, key, ic, pc >> 2);
            if (e >= 0) t.hv[e] = v;
            else t.setStr(key, v);
          } else {
            vm.steps = steps;
            setIndex(L, t === NUM ? sn[ra]! : t, key, v, a);
            steps = vm.steps;
            sn = L.sn;
          }
          pc += 4;
          break;
        }
        case 13 satisfies typeof Op.SETTABLE: {
          const ra = base + a;
          const t = sv[ra];
          const b = code[pc + 2]!;
          const c = code[pc + 3]!;
          let key: LuaValue;
          let v: LuaValue;
          if (b >= 0) {
            const x = sv[base + b];
            key = x === NUM ? sn[base + b]! : x;
          } else key = k[~b];
          if (c >= 0) {
            const x = sv[base + c];
            v = x === NUM ? sn[base + c]! : x;
          } else v = k[~c];
          ci.pc = pc;
          vm.steps = steps;
          if (t instanceof IsLuaTable && t.metatable === null && typeof key === 'number' && key === key) {
            const arr = t.arr;
            const i = key - 1;
            if (i >= 0 && i < arr.length && (i | 0) === i) arr[i] = v;
            else {
              // a number key of the hash part: an existing entry (the one this instruction found last) takes the value
              const g = ic[pc >> 2]!;
              if (g < t.hused && t.hk[g] === key) t.hv[g] = v;
              else {
                t.set(key, v);
                const e = t.entryOf(key);
                if (e >= 0) ic[pc >> 2] = e;
              }
            }
          } else if (t instanceof IsLuaTable && t.metatable === null && key !== undefined && key === key) t.set(key, v);
          else {
            vm.steps = steps;
            if (t instanceof IsLuaTable && t.metatable === null) rawSet(L, t, key, v);
            else setIndex(L, t === NUM ? sn[ra]! : t, key, v, a);
            steps = vm.steps;
            sn = L.sn;
          }
          pc += 4;
          break;
        }
        case 14 satisfies typeof Op.SELF: {
          const ra = base + a;
          const rb = base + code[pc + 2]!;
          const c = code[pc + 3]!;
          const x = sv[rb];
          const obj = x === NUM ? sn[rb]! : x;
          let key: LuaValue;
          if (c >= 0) {
            const y = sv[base + c];
            key = y === NUM ? sn[base + c]! : y;
          } else key = k[~c];
          sv[ra + 1] = x;
          sn[ra + 1] = sn[rb]!;
          let v: LuaValue = undefined;
          if (obj instanceof IsLuaTable) v = obj.get(key);
          else if (typeof obj === 'string' && vm.stringIndex !== null && typeof key === 'string') v = vm.stringIndex.getStr(key);
          if (v === undefined && !(obj instanceof IsLuaTable && obj.metatable === null)) {
            ci.pc = pc;
            vm.steps = steps;
            v = index(L, obj, key, rb - base);
            steps = vm.steps;
            sn = L.sn;
          }
          store(sv, sn, ra, v);
          pc += 4;
          break;
        }

        // ------------------------------------------------------------------ arithmetic
        case 15 satisfies typeof Op.ADD_RR: {
          const rb = base + code[pc + 2]!;
          const rc = base + code[pc + 3]!;
          if (sv[rb] === NUM && sv[rc] === NUM) {
            sn[base + a] = sn[rb]! + sn[rc]!;
            sv[base + a] = NUM;
          } else {
            ci.pc = pc;
            vm.steps = steps;
            store(sv, L.sn, base + a, arith(L, 0, L.get(rb), L.get(rc), rb - base, rc - base));
            steps = vm.steps;
            sn = L.sn;
          }
          pc += 4;
          break;
        }
        case 16 satisfies typeof Op.ADD_RK: {
          const rb = base + code[pc + 2]!;
          const kc = code[pc + 3]!;
          if (sv[rb] === NUM) {
            sn[base + a] = sn[rb]! + kn[kc]!;
            sv[base + a] = NUM;
          } else {
            ci.pc = pc;
            vm.steps = steps;
            store(sv, L.sn, base + a, arith(L, 0, L.get(rb), k[kc], rb - base, -1));
            steps = vm.steps;
            sn = L.sn;
          }
          pc += 4;
          break;
        }
        case 17 satisfies typeof Op.ADD_KR: {
          const kb = code[pc + 2]!;
          const rc = base + code[pc + 3]!;
          if (sv[rc] === NUM) {
            sn[base + a] = kn[kb]! + sn[rc]!;
            sv[base + a] = NUM;
          } else {
            ci.pc = pc;
            vm.steps = steps;
            store(sv, L.sn, base + a, arith(L, 0, k[kb], L.get(rc), -1, rc - base));
            steps = vm.steps;
            sn = L.sn;
          }
          pc += 4;
          break;
        }
        case 19 satisfies typeof Op.SUB_RR: {
          const rb = base + code[pc + 2]!;
          const rc = base + code[pc + 3]!;
          if (sv[rb] === NUM && sv[rc] === NUM) {
            sn[base + a] = sn[rb]! - sn[rc]!;
            sv[base + a] = NUM;
          } else {
            ci.pc = pc;
            vm.steps = steps;
            store(sv, L.sn, base + a, arith(L, 1, L.get(rb), L.get(rc), rb - base, rc - base));
            steps = vm.steps;
            sn = L.sn;
          }
          pc += 4;
          break;
        }
        case 20 satisfies typeof Op.SUB_RK: {
          const rb = base + code[pc + 2]!;
          const kc = code[pc + 3]!;
          if (sv[rb] === NUM) {
            sn[base + a] = sn[rb]! - kn[kc]!;
            sv[base + a] = NUM;
          } else {
            ci.pc = pc;
            vm.steps = steps;
            store(sv, L.sn, base + a, arith(L, 1, L.get(rb), k[kc], rb - base, -1));
            steps = vm.steps;
            sn = L.sn;
          }
          pc += 4;
          break;
        }
        case 21 satisfies typeof Op.SUB_KR: {
          const kb = code[pc + 2]!;
          const rc = base + code[pc + 3]!;
          if (sv[rc] === NUM) {
            sn[base + a] = kn[kb]! - sn[rc]!;
            sv[base + a] = NUM;
          } else {
            ci.pc = pc;
            vm.steps = steps;
            store(sv, L.sn, base + a, arith(L, 1, k[kb], L.get(rc), -1, rc - base));
            steps = vm.steps;
            sn = L.sn;
          }
          pc += 4;
          break;
        }
        case 23 satisfies typeof Op.MUL_RR: {
          const rb = base + code[pc + 2]!;
          const rc = base + code[pc + 3]!;
          if (sv[rb] === NUM && sv[rc] === NUM) {
            sn[base + a] = sn[rb]! * sn[rc]!;
            sv[base + a] = NUM;
          } else {
            ci.pc = pc;
            vm.steps = steps;
            store(sv, L.sn, base + a, arith(L, 2, L.get(rb), L.get(rc), rb - base, rc - base));
            steps = vm.steps;
            sn = L.sn;
          }
          pc += 4;
          break;
        }
        case 24 satisfies typeof Op.MUL_RK: {
          const rb = base + code[pc + 2]!;
          const kc = code[pc + 3]!;
          if (sv[rb] === NUM) {
            sn[base + a] = sn[rb]! * kn[kc]!;
            sv[base + a] = NUM;
          } else {
            ci.pc = pc;
            vm.steps = steps;
            store(sv, L.sn, base + a, arith(L, 2, L.get(rb), k[kc], rb - base, -1));
            steps = vm.steps;
            sn = L.sn;
          }
          pc += 4;
          break;
        }
        case 25 satisfies typeof Op.MUL_KR: {
          const kb = code[pc + 2]!;
          const rc = base + code[pc + 3]!;
          if (sv[rc] === NUM) {
            sn[base + a] = kn[kb]! * sn[rc]!;
            sv[base + a] = NUM;
          } else {
            ci.pc = pc;
            vm.steps = steps;
            store(sv, L.sn, base + a, arith(L, 2, k[kb], L.get(rc), -1, rc - base));
            steps = vm.steps;
            sn = L.sn;
          }
          pc += 4;
          break;
        }
        case 27 satisfies typeof Op.DIV_RR: {
          const rb = base + code[pc + 2]!;
          const rc = base + code[pc + 3]!;
          if (sv[rb] === NUM && sv[rc] === NUM) {
            sn[base + a] = sn[rb]! / sn[rc]!;
            sv[base + a] = NUM;
          } else {
            ci.pc = pc;
            vm.steps = steps;
            store(sv, L.sn, base + a, arith(L, 3, L.get(rb), L.get(rc), rb - base, rc - base));
            steps = vm.steps;
            sn = L.sn;
          }
          pc += 4;
          break;
        }
        case 28 satisfies typeof Op.DIV_RK: {
          const rb = base + code[pc + 2]!;
          const kc = code[pc + 3]!;
          if (sv[rb] === NUM) {
            sn[base + a] = sn[rb]! / kn[kc]!;
            sv[base + a] = NUM;
          } else {
            ci.pc = pc;
            vm.steps = steps;
            store(sv, L.sn, base + a, arith(L, 3, L.get(rb), k[kc], rb - base, -1));
            steps = vm.steps;
            sn = L.sn;
          }
          pc += 4;
          break;
        }
        case 29 satisfies typeof Op.DIV_KR: {
          const kb = code[pc + 2]!;
          const rc = base + code[pc + 3]!;
          if (sv[rc] === NUM) {
            sn[base + a] = kn[kb]! / sn[rc]!;
            sv[base + a] = NUM;
          } else {
            ci.pc = pc;
            vm.steps = steps;
            store(sv, L.sn, base + a, arith(L, 3, k[kb], L.get(rc), -1, rc - base));
            steps = vm.steps;
            sn = L.sn;
          }
          pc += 4;
          break;
        }
        case 31 satisfies typeof Op.MOD_RR:
        case 32 satisfies typeof Op.MOD_RK:
        case 33 satisfies typeof Op.MOD_KR: {
          const b = code[pc + 2]!;
          const c = code[pc + 3]!;
          const bIsReg = op !== (33 satisfies typeof Op.MOD_KR);
          const cIsReg = op !== (32 satisfies typeof Op.MOD_RK);
          if ((!bIsReg || sv[base + b] === NUM) && (!cIsReg || sv[base + c] === NUM)) {
            const x = bIsReg ? sn[base + b]! : kn[b]!;
            const y = cIsReg ? sn[base + c]! : kn[c]!;
            const q = f32 ? Math.fround(x / y) : x / y;
            sn[base + a] = x - Math.floor(q) * y;
            sv[base + a] = NUM;
          } else {
            ci.pc = pc;
            vm.steps = steps;
            store(sv, L.sn, base + a, arith(L, 4, bIsReg ? L.get(base + b) : k[b], cIsReg ? L.get(base + c) : k[c], bIsReg ? b : -1, cIsReg ? c : -1));
            steps = vm.steps;
            sn = L.sn;
          }
          pc += 4;
          break;
        }
        case 35 satisfies typeof Op.POW_RR:
        case 36 satisfies typeof Op.POW_RK:
        case 37 satisfies typeof Op.POW_KR: {
          const b = code[pc + 2]!;
          const c = code[pc + 3]!;
          const bIsReg = op !== (37 satisfies typeof Op.POW_KR);
          const cIsReg = op !== (36 satisfies typeof Op.POW_RK);
          if ((!bIsReg || sv[base + b] === NUM) && (!cIsReg || sv[base + c] === NUM)) {
            sn[base + a] = Math.pow(bIsReg ? sn[base + b]! : kn[b]!, cIsReg ? sn[base + c]! : kn[c]!);
            sv[base + a] = NUM;
          } else {
            ci.pc = pc;
            vm.steps = steps;
            store(sv, L.sn, base + a, arith(L, 5, bIsReg ? L.get(base + b) : k[b], cIsReg ? L.get(base + c) : k[c], bIsReg ? b : -1, cIsReg ? c : -1));
            steps = vm.steps;
            sn = L.sn;
          }
          pc += 4;
          break;
        }
        case 18 satisfies typeof Op.ADD:
        case 22 satisfies typeof Op.SUB:
        case 26 satisfies typeof Op.MUL:
        case 30 satisfies typeof Op.DIV:
        case 34 satisfies typeof Op.MOD:
        case 38 satisfies typeof Op.POW: {
          // generic forms: both operands signed register-or-constant
          const b = code[pc + 2]!;
          const c = code[pc + 3]!;
          const x = b >= 0 ? L.get(base + b) : k[~b];
          const y = c >= 0 ? L.get(base + c) : k[~c];
          ci.pc = pc;
          vm.steps = steps;
          store(sv, L.sn, base + a, arith(L, GENERIC_ARITH[op]!, x, y, b >= 0 ? b : -1, c >= 0 ? c : -1));
          steps = vm.steps;
          sn = L.sn;
          pc += 4;
          break;
        }
        case 39 satisfies typeof Op.UNM: {
          const rb = base + code[pc + 2]!;
          if (sv[rb] === NUM) {
            sn[base + a] = -sn[rb]!;
            sv[base + a] = NUM;
          } else {
            ci.pc = pc;
            vm.steps = steps;
            const v = L.get(rb);
            store(sv, L.sn, base + a, arith(L, 6, v, v, rb - base, rb - base));
            steps = vm.steps;
            sn = L.sn;
          }
          pc += 4;
          break;
        }
        case 40 satisfies typeof Op.NOT: {
          const v = sv[base + code[pc + 2]!];
          sv[base + a] = v === undefined || v === false;
          pc += 4;
          break;
        }
        case 41 satisfies typeof Op.LEN: {
          const rb = base + code[pc + 2]!;
          const v = sv[rb];
          if (v instanceof IsLuaTable) {
            sn[base + a] = v.length();
            sv[base + a] = NUM;
          } else if (typeof v === 'string') {
            sn[base + a] = v.length;
            sv[base + a] = NUM;
          } else {
            ci.pc = pc;
            vm.steps = steps;
            const r = length(L, L.get(rb), rb - base);
            steps = vm.steps;
            sn = L.sn;
            store(sv, sn, base + a, r);
          }
          pc += 4;
          break;
        }
        case 42 satisfies typeof Op.CONCAT: {
          const b = base + code[pc + 2]!;
          const c = base + code[pc + 3]!;
          ci.pc = pc;
          vm.steps = steps;
          concat(L, b, c);
          steps = vm.steps;
          sn = L.sn;
          sv[base + a] = sv[b];
          sn[base + a] = sn[b]!;
          const r = sv[b];
          if ((vm.gcAllocated += typeof r === 'string' ? 24 + r.length : 24) > vm.gcThreshold) {
            vm.gc.note(L, 0);
            steps = vm.steps;
            sn = L.sn;
          }
          pc += 4;
          break;
        }

        // ------------------------------------------------------------------ jumps and tests
        case 43 satisfies typeof Op.JMP: {
          const t = code[pc + 2]!;
          const back = t <= pc;
          pc = t;
          if (back) {
            if (tierTakes(L, vm, p)) {
              ci.pc = pc;
              enter = ENTER_FRESH;
              continue frames;
            }
          }
          break;
        }
        case 88 satisfies typeof Op.EQ_RR_J: {
          const rb = base + a;
          const rc = base + code[pc + 2]!;
          const x = sv[rb];
          const y = sv[rc];
          let eq: boolean;
          if (x === NUM) eq = y === NUM && sn[rb] === sn[rc];
          else if (x === y) eq = true;
          else if (typeof x === 'object' && typeof y === 'object') {
            ci.pc = pc;
            vm.steps = steps;
            eq = equals(L, x, y);
            steps = vm.steps;
            sn = L.sn;
          } else eq = false;
          const t = code[pc + 3]!;
          pc = eq === ((t & 1) === 1) ? t & ~3 : pc + 8;
          break;
        }
        case 53 satisfies typeof Op.EQ_RK_J: {
          const rb = base + a;
          const kc = ~code[pc + 2]!;
          const x = sv[rb];
          const y = kv[kc];
          const eq = x === NUM ? y === NUM && sn[rb] === kn[kc] : x === y;
          const t = code[pc + 3]!;
          pc = eq === ((t & 1) === 1) ? t & ~3 : pc + 8;
          break;
        }
        case 44 satisfies typeof Op.EQ_J:
        case 45 satisfies typeof Op.LT_J:
        case 46 satisfies typeof Op.LE_J: {
          const b = a;
          const c = code[pc + 2]!;
          const x = b >= 0 ? L.get(base + b) : k[~b];
          const y = c >= 0 ? L.get(base + c) : k[~c];
          ci.pc = pc;
          vm.steps = steps;
          const r = op === (44 satisfies typeof Op.EQ_J) ? x === y || (typeof x === 'object' && typeof y === 'object' && equals(L, x, y)) : op === (45 satisfies typeof Op.LT_J) ? lessThan(L, x, y) : lessEqual(L, x, y);
          steps = vm.steps;
          sn = L.sn;
          const t = code[pc + 3]!;
          pc = r === ((t & 1) === 1) ? t & ~3 : pc + 8;
          break;
        }
        case 47 satisfies typeof Op.LT_RR_J:
        case 48 satisfies typeof Op.LE_RR_J: {
          const rb = base + a;
          const rc = base + code[pc + 2]!;
          let r: boolean;
          if (sv[rb] === NUM && sv[rc] === NUM) r = op === (47 satisfies typeof Op.LT_RR_J) ? sn[rb]! < sn[rc]! : sn[rb]! <= sn[rc]!;
          else {
            ci.pc = pc;
            vm.steps = steps;
            r = op === (47 satisfies typeof Op.LT_RR_J) ? lessThan(L, L.get(rb), L.get(rc)) : lessEqual(L, L.get(rb), L.get(rc));
            steps = vm.steps;
            sn = L.sn;
          }
          const t = code[pc + 3]!;
          pc = r === ((t & 1) === 1) ? t & ~3 : pc + 8;
          break;
        }
        case 49 satisfies typeof Op.LT_RK_J:
        case 50 satisfies typeof Op.LE_RK_J: {
          const rb = base + a;
          const kc = code[pc + 2]!;
          let r: boolean;
          if (sv[rb] === NUM) r = op === (49 satisfies typeof Op.LT_RK_J) ? sn[rb]! < kn[kc]! : sn[rb]! <= kn[kc]!;
          else {
            ci.pc = pc;
            vm.steps = steps;
            r = op === (49 satisfies typeof Op.LT_RK_J) ? lessThan(L, L.get(rb), k[kc]) : lessEqual(L, L.get(rb), k[kc]);
            steps = vm.steps;
            sn = L.sn;
          }
          const t = code[pc + 3]!;
          pc = r === ((t & 1) === 1) ? t & ~3 : pc + 8;
          break;
        }
        case 51 satisfies typeof Op.LT_KR_J:
        case 52 satisfies typeof Op.LE_KR_J: {
          const kb = a;
          const rc = base + code[pc + 2]!;
          let r: boolean;
          if (sv[rc] === NUM) r = op === (51 satisfies typeof Op.LT_KR_J) ? kn[kb]! < sn[rc]! : kn[kb]! <= sn[rc]!;
          else {
            ci.pc = pc;
            vm.steps = steps;
            r = op === (51 satisfies typeof Op.LT_KR_J) ? lessThan(L, k[kb], L.get(rc)) : lessEqual(L, k[kb], L.get(rc));
            steps = vm.steps;
            sn = L.sn;
          }
          const t = code[pc + 3]!;
          pc = r === ((t & 1) === 1) ? t & ~3 : pc + 8;
          break;
        }
        case 54 satisfies typeof Op.EQ_S:
        case 55 satisfies typeof Op.LT_S:
        case 56 satisfies typeof Op.LE_S: {
          const b = code[pc + 2]!;
          const c = code[pc + 3]!;
          const x = b >= 0 ? L.get(base + b) : k[~b];
          const y = c >= 0 ? L.get(base + c) : k[~c];
          ci.pc = pc;
          vm.steps = steps;
          const r = op === (54 satisfies typeof Op.EQ_S) ? x === y || (typeof x === 'object' && typeof y === 'object' && equals(L, x, y)) : op === (55 satisfies typeof Op.LT_S) ? lessThan(L, x, y) : lessEqual(L, x, y);
          steps = vm.steps;
          sn = L.sn;
          pc += r === (a === 1) ? 4 : 8;
          break;
        }
        case 57 satisfies typeof Op.TEST_J: {
          const v = sv[base + a];
          pc = (v !== undefined && v !== false) === (code[pc + 2] === 1) ? code[pc + 3]! : pc + 8;
          break;
        }
        case 58 satisfies typeof Op.TEST_S: {
          const v = sv[base + a];
          pc += (v !== undefined && v !== false) === (code[pc + 2] === 1) ? 4 : 8;
          break;
        }
        case 59 satisfies typeof Op.TESTSET_J: {
          const rb = base + code[pc + 2]!;
          const v = sv[rb];
          const t = code[pc + 3]!;
          if ((v !== undefined && v !== false) === ((t & 1) === 1)) {
            sv[base + a] = v;
            sn[base + a] = sn[rb]!;
            pc = t & ~3;
          } else pc += 8;
          break;
        }
        case 60 satisfies typeof Op.TESTSET_S: {
          const rb = base + code[pc + 2]!;
          const v = sv[rb];
          if ((v !== undefined && v !== false) === (code[pc + 3] === 1)) {
            sv[base + a] = v;
            sn[base + a] = sn[rb]!;
            pc += 4;
          } else pc += 8;
          break;
        }

        // ------------------------------------------------------------------ calls
        case 61 satisfies typeof Op.CALL: {
          const ra = base + a;
          const b = code[pc + 2]!;
          const c = code[pc + 3]!;
          let nargs = b !== 0 ? b - 1 : L.top - ra - 1;
          let f = sv[ra];
          ci.pc = pc;
          let lua = f instanceof IsLuaClosure;
          if (!lua && !(f instanceof IsHostFunction)) {
            vm.steps = steps;
            nargs = resolveCallable(L, ra, nargs);
            sn = L.sn;
            f = sv[ra];
            lua = f instanceof IsLuaClosure;
          }
          if (lua) {
            vm.steps = steps;
            pushLuaFrame(L, f as LuaClosure, ra, nargs, c - 1);
            steps = vm.steps;
            sn = L.sn;
            enter = ENTER_FRESH;
            continue frames;
          }
          vm.steps = steps;
          const n = callHost(L, f as HostFunction, ra, nargs, c - 1);
          if (n === YIELD_RESULT) return;
          steps = vm.steps;
          sn = L.sn;
          if (c !== 0) {
            const want = c - 1;
            for (let i = n; i < want; i++) sv[ra + i] = undefined;
          } else L.top = ra + n;
          pc += 4;
          break;
        }
        case 62 satisfies typeof Op.TAILCALL: {
          const ra = base + a;
          const b = code[pc + 2]!;
          let nargs = b !== 0 ? b - 1 : L.top - ra - 1;
          let f = sv[ra];
          ci.pc = pc;
          if (!(f instanceof IsLuaClosure || f instanceof IsHostFunction)) {
            vm.steps = steps;
            nargs = resolveCallable(L, ra, nargs);
            sn = L.sn;
            f = sv[ra];
          }
          if (f instanceof IsLuaClosure) {
            if (L.openUp !== null && L.openUp.idx >= base) L.closeUpvals(base);
            const dst = ci.func;
            for (let i = 0; i <= nargs; i++) {
              sv[dst + i] = sv[ra + i];
              sn[dst + i] = sn[ra + i]!;
            }
            const tailcalls = ci.tailcalls + 1;
            const entry = ci.entry;
            const want = ci.nresults;
            L.ciTop--;
            vm.steps = steps;
            const nci = pushLuaFrame(L, f, dst, nargs, want);
            steps = vm.steps;
            nci.tailcalls = tailcalls;
            nci.entry = entry;
            sn = L.sn;
            enter = ENTER_FRESH;
            continue frames;
          }
          vm.steps = steps;
          const n = callHost(L, f as HostFunction, ra, nargs, -1);
          if (n === YIELD_RESULT) return;
          steps = vm.steps;
          sn = L.sn;
          L.top = ra + n;
          pc += 4;
          break;
        }
        case 63 satisfies typeof Op.RETURN: {
          const ra = base + a;
          const b = code[pc + 2]!;
          const n = b !== 0 ? b - 1 : L.top - ra;
          if (L.hookMask !== 0) {
            ci.pc = pc;
            vm.steps = steps;
            if (L.hookMask & 2) returnHooks(L, ci, ra + n);
            steps = vm.steps;
            sn = L.sn;
          }
          if (L.openUp !== null && L.openUp.idx >= base) L.closeUpvals(base);
          const dst = ci.func;
          const want = ci.nresults;
          if (want < 0) {
            for (let i = 0; i < n; i++) {
              sv[dst + i] = sv[ra + i];
              sn[dst + i] = sn[ra + i]!;
            }
            L.top = dst + n;
          } else {
            const m = n < want ? n : want;
            for (let i = 0; i < m; i++) {
              sv[dst + i] = sv[ra + i];
              sn[dst + i] = sn[ra + i]!;
            }
            for (let i = m; i < want; i++) sv[dst + i] = undefined;
          }
          const wasEntry = ci.entry;
          L.ciTop--;
          if (wasEntry) {
            vm.steps = steps;
            return;
          }
          enter = ENTER_AFTER_CALL;
          continue frames;
        }

        // ------------------------------------------------------------------ loops
        case 64 satisfies typeof Op.FORPREP: {
          const ra = base + a;
          if (sv[ra] !== NUM || sv[ra + 1] !== NUM || sv[ra + 2] !== NUM) {
            ci.pc = pc;
            vm.steps = steps;
            forPrepCoerce(L, ra);
            sn = L.sn;
          }
          sn[ra] = sn[ra]! - sn[ra + 2]!;
          pc = code[pc + 2]!;
          break;
        }
        case 65 satisfies typeof Op.FORLOOP: {
          const ra = base + a;
          const step = sn[ra + 2]!;
          sn[ra] = sn[ra]! + step;
          const idx = sn[ra]!;
          if (0 < step ? idx <= sn[ra + 1]! : sn[ra + 1]! <= idx) {
            sn[ra + 3] = idx;
            sv[ra + 3] = NUM;
            pc = code[pc + 2]!;
            if (tierTakes(L, vm, p)) {
              ci.pc = pc;
              enter = ENTER_FRESH;
              continue frames;
            }
          } else pc += 4;
          break;
        }
        case 66 satisfies typeof Op.TFORLOOP_J:
        case 67 satisfies typeof Op.TFORLOOP_S: {
          const ra = base + a;
          const cb = ra + 3;
          const nres = code[pc + 2]!;
          sv[cb] = sv[ra];
          sn[cb] = sn[ra]!;
          sv[cb + 1] = sv[ra + 1];
          sn[cb + 1] = sn[ra + 1]!;
          sv[cb + 2] = sv[ra + 2];
          sn[cb + 2] = sn[ra + 2]!;
          const f = sv[cb];
          ci.pc = pc;
          if (f === vm.nextFn && sv[cb + 1] instanceof IsLuaTable) {
            // next(t, k) without a call
            const t = sv[cb + 1] as LuaTable;
            const kx = sv[cb + 2];
            const r = t.next(kx === NUM ? sn[cb + 2]! : kx, vm.nextOut);
            if (r === undefined) {
              vm.steps = steps;
              vm.runError(L, "invalid key to 'next'");
            }
            if (r) {
              store(sv, sn, cb, vm.nextOut.k);
              if (nres > 1) store(sv, sn, cb + 1, vm.nextOut.v);
              for (let i = 2; i < nres; i++) sv[cb + i] = undefined;
            } else sv[cb] = undefined;
          } else if (f === vm.ipairsAux && sv[cb + 1] instanceof IsLuaTable && sv[cb + 2] === NUM) {
            // ipairs' iterator without a call
            const i = sn[cb + 2]! + 1;
            const v = (sv[cb + 1] as LuaTable).getInt(i);
            if (v === undefined) sv[cb] = undefined;
            else {
              sn[cb] = i;
              sv[cb] = NUM;
              if (nres > 1) store(sv, sn, cb + 1, v);
              for (let j = 2; j < nres; j++) sv[cb + j] = undefined;
            }
          } else if (f instanceof IsLuaClosure) {
            L.top = cb + 3;
            vm.steps = steps;
            pushLuaFrame(L, f, cb, 2, nres);
            steps = vm.steps;
            sn = L.sn;
            enter = ENTER_FRESH;
            continue frames;
          } else {
            vm.steps = steps;
            L.top = cb + 3;
            let nargs = 2;
            if (!(f instanceof IsHostFunction)) nargs = resolveCallable(L, cb, 2);
            const g = sv[cb];
            if (g instanceof IsLuaClosure) {
              pushLuaFrame(L, g, cb, nargs, nres);
              steps = vm.steps;
              sn = L.sn;
              enter = ENTER_FRESH;
              continue frames;
            }
            const n = callHost(L, g as HostFunction, cb, nargs, nres);
            if (n === YIELD_RESULT) return;
            steps = vm.steps;
            sn = L.sn;
            for (let i = n; i < nres; i++) sv[cb + i] = undefined;
          }
          if (sv[cb] !== undefined) {
            sv[cb - 1] = sv[cb];
            sn[cb - 1] = sn[cb]!;
            if (op === (66 satisfies typeof Op.TFORLOOP_J)) {
              // the loop's back-edge: the tier takes over there once the function is hot, as at FORLOOP and JMP
              const t = code[pc + 3]!;
              const back = t <= pc;
              pc = t;
              if (back && tierTakes(L, vm, p)) {
                ci.pc = pc;
                enter = ENTER_FRESH;
                continue frames;
              }
            } else pc += 4;
          } else pc += 8;
          break;
        }

        // ------------------------------------------------------------------ tables, closures, varargs
        case 68 satisfies typeof Op.SETLIST:
        case 69 satisfies typeof Op.SETLIST_X: {
          const ra = base + a;
          let n = code[pc + 2]!;
          if (n === 0) n = L.top - ra - 1;
          const first = (code[pc + 3]! - 1) * FIELDS_PER_FLUSH;
          let t = sv[ra];
          if (t instanceof IsLuaStruct) t = slotTarget(L, t);
          ci.pc = pc;
          if (!(t instanceof IsLuaTable)) {
            vm.steps = steps;
            vm.runError(L, 'invalid bytecode: SETLIST on a value that is not a table');
          }
          vm.steps = steps;
          try {
            if (first + n > t.arr.length) t.resizeArray(first + n);
          } catch (e) {
            if (e instanceof TableOverflow) vm.limitError(L, `table overflow (a table may hold ${vm.limits.maxTableEntries} slots)`);
            throw e;
          }
          for (let i = 1; i <= n; i++) t.setInt(first + i, L.get(ra + i));
          pc += op === (68 satisfies typeof Op.SETLIST) ? 4 : 8;
          break;
        }
        case 70 satisfies typeof Op.CLOSE:
          if (L.openUp !== null && L.openUp.idx >= base + a) L.closeUpvals(base + a);
          pc += 4;
          break;
        case 71 satisfies typeof Op.CLOSURE: {
          const s = p.side[code[pc + 2]!] as ClosureSide;
          const nu = s.proto.nups;
          // pushed, not preallocated: a packed array like every other closure's (vm.load, the JavaScript tier), so
          // GETUPVAL meets one array kind
          const up: Upval[] = [];
          for (let i = 0; i < nu; i++) up.push(s.captureKind[i] === 1 ? L.findUpval(base + s.captureIndex[i]!) : cl.up[s.captureIndex[i]!]!);
          sv[base + a] = new LuaClosure(s.proto, up, cl.env);
          if ((vm.gcAllocated += 40 + 8 * nu) > vm.gcThreshold) {
            ci.pc = pc;
            vm.steps = steps;
            vm.gc.note(L, 0);
            steps = vm.steps;
            sn = L.sn;
          }
          pc = code[pc + 3]!;
          break;
        }
        case 72 satisfies typeof Op.VARARG: {
          const ra = base + a;
          const b = code[pc + 2]!;
          const nvar = base - ci.func - 1 - p.numparams;
          const from = base - nvar;
          if (b === 0) {
            ci.pc = pc;
            L.ensure(ra + nvar + 1);
            sn = L.sn;
            for (let i = 0; i < nvar; i++) {
              sv[ra + i] = sv[from + i];
              sn[ra + i] = sn[from + i]!;
            }
            L.top = ra + nvar;
          } else {
            const want = b - 1;
            for (let i = 0; i < want; i++) {
              if (i < nvar) {
                sv[ra + i] = sv[from + i];
                sn[ra + i] = sn[from + i]!;
              } else sv[ra + i] = undefined;
            }
          }
          pc += 4;
          break;
        }
        case 73 satisfies typeof Op.NEWTABLE: {
          ci.pc = pc;
          const b = code[pc + 2]!;
          const c = code[pc + 3]!;
          if (b + c > vm.limits.maxTableEntries) {
            vm.steps = steps;
            vm.limitError(L, `table overflow (a table may hold ${vm.limits.maxTableEntries} slots)`);
          }
          vm.steps = steps;
          sv[base + a] = new LuaTable(b, c, vm.limits.maxTableEntries);
          if ((vm.gcAllocated += 64 + 24 * (b + c)) > vm.gcThreshold) {
            vm.gc.note(L, 0);
            steps = vm.steps;
            sn = L.sn;
          }
          pc += 4;
          break;
        }

        // ------------------------------------------------------------------ structures (cold)
        case 74 satisfies typeof Op.NEWSTRUCT: {
          ci.pc = pc;
          vm.steps = steps;
          sv[base + a] = newStruct(L, p.side[code[pc + 2]!] as StructSide);
          pc = code[pc + 3]!;
          break;
        }
        case 75 satisfies typeof Op.SETSLOTN:
        case 76 satisfies typeof Op.SETSLOTI:
        case 77 satisfies typeof Op.SETSLOT:
        case 78 satisfies typeof Op.SETSLOTS: {
          const s = p.side[code[pc + 2]!] as SlotSide;
          const c = code[pc + 3]!;
          const v = op === (75 satisfies typeof Op.SETSLOTN) ? undefined : c >= 0 ? L.get(base + c) : k[~c];
          ci.pc = pc;
          vm.steps = steps;
          setSlotChecked(L, L.get(base + a), a, s, v, op === (77 satisfies typeof Op.SETSLOT) ? s.typeId : -1, op === (78 satisfies typeof Op.SETSLOTS));
          pc = s.next;
          break;
        }
        case 79 satisfies typeof Op.SETSLOTMT: {
          const s = p.side[code[pc + 2]!] as SlotSide;
          const c = code[pc + 3]!;
          ci.pc = pc;
          vm.steps = steps;
          setSlotChain(L, L.get(base + a), a, s, c >= 0 ? L.get(base + c) : k[~c]);
          steps = vm.steps;
          sn = L.sn;
          pc = s.next;
          break;
        }
        case 80 satisfies typeof Op.CHECKTYPE:
          ci.pc = pc;
          vm.steps = steps;
          checkType(L, L.get(base + a), code[pc + 2]!, a);
          pc += 4;
          break;
        case 81 satisfies typeof Op.CHECKTYPES:
          ci.pc = pc;
          vm.steps = steps;
          checkTypeStruct(L, L.get(base + a), p.side[code[pc + 2]!] as StructSide, a);
          pc += 4;
          break;
        case 82 satisfies typeof Op.GETSLOT:
        case 84 satisfies typeof Op.SELFSLOT: {
          const rb = base + code[pc + 2]!;
          const obj = L.get(rb);
          ci.pc = pc;
          let v: LuaValue;
          if (obj instanceof IsLuaStruct) v = obj.slots[code[pc + 3]!];
          else {
            vm.steps = steps;
            v = vm.typeError(L, obj, 'index', rb - base);
          }
          if (op === (84 satisfies typeof Op.SELFSLOT)) {
            sv[base + a + 1] = sv[rb];
            sn[base + a + 1] = sn[rb]!;
          }
          store(sv, sn, base + a, v);
          pc += 4;
          break;
        }
        case 83 satisfies typeof Op.GETSLOTMT:
        case 85 satisfies typeof Op.SELFSLOTMT: {
          const rb = base + code[pc + 2]!;
          const s = p.side[code[pc + 3]!] as SlotSide;
          const obj = L.get(rb);
          ci.pc = pc;
          vm.steps = steps;
          const v = getSlotChain(L, obj, rb - base, s);
          steps = vm.steps;
          sn = L.sn;
          if (op === (85 satisfies typeof Op.SELFSLOTMT)) {
            sv[base + a + 1] = sv[rb];
            sn[base + a + 1] = sn[rb]!;
          }
          store(sv, sn, base + a, v);
          pc = s.next;
          break;
        }

        // ------------------------------------------------------------------ invalid code
        case 86 satisfies typeof Op.BAD: {
          ci.pc = pc;
          vm.steps = steps;
          const s = p.side[a];
          vm.runError(L, `invalid bytecode: ${s && s.kind === 'bad' ? s.message : 'bad instruction'}`);
          break;
        }
        default:
          // END: control left the function's code
          ci.pc = pc;
          vm.steps = steps;
          vm.instructionPointerError(L);
      }
    }
  }
}

/** Generic arithmetic opcodes (ADD .. POW, see `Op`) to the arithmetic index of `arithNumbers`. */
const GENERIC_ARITH: Record<number, number> = { 18: 0, 22: 1, 26: 2, 30: 3, 34: 4, 38: 5 };

/** FORPREP's checks and string coercion (Lua 5.1 converts the three control values in place). */
function forPrepCoerce(L: LuaThread, ra: number): void {
  const vm = L.vm;
  const names = ["'for' initial value must be a number", "'for' limit must be a number", "'for' step must be a number"];
  for (let i = 0; i < 3; i++) {
    const n = toNumber(vm, L.get(ra + i));
    if (n === undefined) vm.runError(L, names[i]!);
    L.set(ra + i, n);
  }
}

// meta.ts calls metamethods through the interpreter without importing it (that would be an import cycle)
metaModule.interpreter.callValue = callValue;
