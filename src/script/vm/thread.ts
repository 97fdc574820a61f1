/**
 * A Lua thread (coroutine): its register stack, call frames and open upvalues.
 *
 * The stack is two parallel arrays, as Lua 5.1's is one array of tagged values: `sv[i]` holds the value in native
 * form, except that a number is stored as the marker `0` with its value in `sn[i]` (a Float32Array in float mode,
 * so every store rounds exactly as a float32 VM; a Float64Array in double mode). Numbers in registers are never
 * boxed. Frames (`CallInfo`) are pooled; nothing is allocated per call.
 */
import type { LuaVM } from './vm.ts';
import { instanceTest, Upval, type HostFunction, type LuaClosure, type LuaValue } from './value.ts';

/** The value-slot marker of a number whose value is in `sn`. */
export const NUM = 0;

/** Coroutine states as `coroutine.status` names them. */
export type ThreadStatus = 'suspended' | 'running' | 'normal' | 'dead';

/** One call frame. */
export class CallInfo {
  /** Stack slot of the called function. */
  func = 0;
  /** First register (Lua) or first argument (host). */
  base = 0;
  /** End of the frame's registers (Lua: base + frame size). */
  top = 0;
  /** The Lua function running in this frame, or null for a host function. */
  cl: LuaClosure | null = null;
  /** The host function running in this frame. */
  hf: HostFunction | null = null;
  /** Saved instruction index (times 4, the decoded stride) of a Lua frame. */
  pc = 0;
  /** Results the caller wants (-1 = all). */
  nresults = 0;
  /** Tail calls that replaced this frame (tracebacks show "(tail call)"). */
  tailcalls = 0;
  /** This frame was entered by a (re)entry of the interpreter, which returns when it returns. */
  entry = false;
  /** Number of arguments (host frames; for Lua vararg frames the count of varargs). */
  nargs = 0;
  /** Last instruction a line hook saw in this activation (-1: none yet). */
  hookPc = -1;
}

export class LuaThread {
  readonly vm: LuaVM;
  /** Value slots (native form; `NUM` for numbers). */
  sv: LuaValue[];
  /** Number slots (Float32Array in float mode). */
  sn: Float64Array | Float32Array;
  /** First free slot (meaningful after a call with open results and inside host functions). */
  top = 0;
  /** Frames; `cis[ciTop]` is the running one; `cis[0]` is the thread's base frame. */
  cis: CallInfo[] = [];
  ciTop = 0;
  /** Open upvalues, highest slot first. */
  openUp: Upval | null = null;
  status: ThreadStatus = 'suspended';
  /** Calls on this thread that cannot be yielded across (host frames calling back into Lua, metamethods). */
  nny = 0;
  /** The function a new coroutine runs (until its first resume). */
  body: LuaValue = undefined;
  /** Where the values of a pending yield are: `[yieldFrom, yieldFrom + yieldCount)`. */
  yieldFrom = 0;
  yieldCount = 0;
  /** Where the values of the last resume (yielded or returned) start in this thread's stack. */
  resultFrom = 0;
  /** Globals table of the thread (5.1 threads share their creator's environment). */
  env: unknown = null;
  /** Debug hook (`debug.sethook`): function, mask bits (HOOK_* of vm.ts), count. */
  hookFn: LuaValue = undefined;
  hookMask = 0;
  hookCount = 0;
  hookCountLeft = 0;
  /** False while the hook runs (hooks do not nest). */
  allowHook = true;

  constructor(vm: LuaVM, initialSlots: number) {
    this.vm = vm;
    this.sv = new Array<LuaValue>(initialSlots).fill(undefined);
    this.sn = vm.float32 ? new Float32Array(initialSlots) : new Float64Array(initialSlots);
    for (let i = 0; i < 8; i++) this.cis.push(new CallInfo());
    const base = this.cis[0]!;
    base.func = 0;
    base.base = 1;
    base.top = 1 + 20;
    this.top = 1;
  }

  /** The running frame. */
  get ci(): CallInfo {
    return this.cis[this.ciTop]!;
  }

  /** Makes sure slots `[0, n)` exist (grows by doubling; raises "stack overflow" past the VM's limit). */
  ensure(n: number): void {
    if (n <= this.sv.length) return;
    this.grow(n);
  }

  private grow(n: number): void {
    const limit = this.vm.limits.maxStackSlots + this.vm.errorHandlerRoom * 64;
    if (n > limit) this.vm.stackOverflow(this, 'stack overflow');
    let size = this.sv.length * 2;
    while (size < n) size *= 2;
    if (size > limit) size = limit;
    const sv = this.sv;
    for (let i = sv.length; i < size; i++) sv.push(undefined);
    const sn = this.vm.float32 ? new Float32Array(size) : new Float64Array(size);
    sn.set(this.sn);
    this.sn = sn;
  }

  /** Pushes a frame object (reused) and returns it. */
  pushCi(): CallInfo {
    const i = ++this.ciTop;
    if (i >= this.cis.length) {
      if (i > this.vm.limits.maxCallDepth + this.vm.errorHandlerRoom) {
        this.ciTop--;
        this.vm.stackOverflow(this, 'stack overflow');
      }
      this.cis.push(new CallInfo());
    }
    const ci = this.cis[i]!;
    ci.tailcalls = 0;
    ci.entry = false;
    ci.hookPc = -1;
    return ci;
  }

  // ---------------------------------------------------------------- native-form slot access

  /** The value in slot i (native form). */
  get(i: number): LuaValue {
    const v = this.sv[i];
    return v === NUM ? this.sn[i]! : v;
  }

  /** Stores a native value in slot i. */
  set(i: number, v: LuaValue): void {
    if (typeof v === 'number') {
      this.sn[i] = v;
      this.sv[i] = NUM;
    } else this.sv[i] = v;
  }

  /** Copies slot `from` to slot `to`. */
  copy(to: number, from: number): void {
    this.sv[to] = this.sv[from];
    this.sn[to] = this.sn[from]!;
  }

  // ---------------------------------------------------------------- upvalues

  /** The open upvalue for slot `idx`, created if needed. */
  findUpval(idx: number): Upval {
    let prev: Upval | null = null;
    let p = this.openUp;
    while (p !== null && p.idx > idx) {
      prev = p;
      p = p.next;
    }
    if (p !== null && p.idx === idx) return p;
    const u = new Upval(this, idx, undefined);
    u.next = p;
    if (prev === null) this.openUp = u;
    else prev.next = u;
    return u;
  }

  /** Closes every open upvalue at or above slot `level`. */
  closeUpvals(level: number): void {
    let p = this.openUp;
    while (p !== null && p.idx >= level) {
      p.v = this.get(p.idx);
      p.idx = -1;
      p.thread = null;
      const n = p.next;
      p.next = null;
      p = n;
    }
    this.openUp = p;
  }
}

/**
 * Copies `n` slots of thread `src` from `from` to thread `dst` at `to` (`lua_xmove`: resume arguments, yielded and
 * returned values). Both threads belong to one VM, so their number arrays have the same type: slots are copied as
 * they are, no number passes through a boxed value.
 */
export function copySlots(dst: LuaThread, to: number, src: LuaThread, from: number, n: number): void {
  const dv = dst.sv;
  const dn = dst.sn;
  const sv = src.sv;
  const sn = src.sn;
  for (let i = 0; i < n; i++) {
    dv[to + i] = sv[from + i];
    dn[to + i] = sn[from + i]!;
  }
}

/** Reads an upvalue (native form). */
export function upvalGet(u: Upval): LuaValue {
  const t = u.thread;
  if (t === null) return u.v;
  const v = t.sv[u.idx];
  return v === NUM ? t.sn[u.idx]! : v;
}

/** Writes an upvalue (native form). */
export function upvalSet(u: Upval, v: LuaValue): void {
  const t = u.thread;
  if (t === null) u.v = v;
  else t.set(u.idx, v);
}


/** The `instanceof` stand-in of {@link LuaThread} (see `instanceTest` in value.ts). */
export const IsLuaThread = instanceTest(LuaThread);
