/**
 * The VM state: globals, registry, the main thread, the number mode, limits and budgets, loading chunks, calls and
 * coroutines from the host, and Lua errors.
 *
 * Errors inside the VM are thrown as {@link LuaError} (a Lua value, not a JavaScript Error: throwing one captures
 * no JavaScript stack). At the host boundary they become a {@link ScriptError} carrying `chunk:line: message` and
 * the Lua traceback. A budget exhaustion is fatal: no `pcall` can catch it.
 */
import { jitAvailable } from './jit.ts';
import { ToolkitError } from '../../binary/errors.ts';
import type { HksChunk } from '../../formats/hks/chunk.ts';
import { IsLuaTable, LuaTable, TableOverflow } from './table.ts';
import { HostFunction, IsHostFunction, IsLuaClosure, LuaClosure, type LuaValue, type NativeFn, Upval } from './value.ts';
import { defineHostFunction, type HostCall, type HostResult } from './host.ts';
import { copySlots, LuaThread, type ThreadStatus } from './thread.ts';
import { decodeFunction, type ChunkInfo } from './proto.ts';
import { buildStructDefs } from './structs.ts';
import { Collector } from './gc.ts';
import { callHost, callValue, execute, MINSTACK, pushLuaFrame, resolveCallable, resumeFrame } from './interp.ts';
import { chunkId, currentLine, objectName, traceback } from './debuginfo.ts';
import { scratch, typeName } from './meta.ts';
import { numberToString } from './numfmt.ts';

/** True when a function (or a child) has a `__mode` or `__gc` string constant. */
function mentionsCollector(f: HksChunk['main']): boolean {
  for (const k of f.constants) if (k.type === 'string' && (k.value === '__mode' || k.value === '__gc')) return true;
  return f.children.some(mentionsCollector);
}

/** Limits a host sets on the scripts it runs. */
export interface VMLimits {
  /** Instructions the VM may execute before it stops with a fatal budget error (Infinity = no budget). */
  instructions: number;
  /** Frames per thread (Lua 5.1's LUAI_MAXCALLS is 20000). "stack overflow" past it. */
  maxCallDepth: number;
  /** Nested host-to-Lua calls (metamethods, pcall, resume, sort comparators…; Lua 5.1's LUAI_MAXCCALLS 200). */
  maxCDepth: number;
  /** Stack slots per thread. */
  maxStackSlots: number;
  /** Bytes per string. */
  maxStringLength: number;
  /** Slots (array + hash) per table. */
  maxTableEntries: number;
}

export const DEFAULT_LIMITS: Readonly<VMLimits> = {
  instructions: Infinity,
  maxCallDepth: 20000,
  maxCDepth: 200,
  maxStackSlots: 1 << 22,
  maxStringLength: 1 << 28,
  maxTableEntries: 1 << 26,
};

/** What kind of failure a script had. */
export type ScriptErrorKind = 'runtime' | 'budget' | 'limit' | 'syntax' | 'internal';

/** A Lua error in flight inside the VM. */
export class LuaError {
  value: LuaValue;
  kind: ScriptErrorKind;
  /** Lua traceback, captured where the error was caught by the host. */
  traceback: string | null = null;
  /** For an `internal` error: what the host or the VM threw (a host function's own exception, a bug). */
  cause: unknown = undefined;
  constructor(value: LuaValue, kind: ScriptErrorKind = 'runtime') {
    this.value = value;
    this.kind = kind;
  }
}

/** A script failure as the host sees it: `message` is `chunk:line: message`; `traceback` the Lua stack. */
export class ScriptError extends ToolkitError {
  override name = 'ScriptError';
  /** The Lua error value (a string for most errors; any value for `error(obj)`). */
  readonly value: LuaValue;
  readonly kind: ScriptErrorKind;
  readonly traceback: string;
  constructor(message: string, value: LuaValue, kind: ScriptErrorKind, tb: string, cause?: unknown) {
    super('E_SCRIPT', message, cause === undefined ? undefined : { cause });
    this.value = value;
    this.kind = kind;
    this.traceback = tb;
  }
}

/** The result of resuming a coroutine inside the VM. */
export type LuaResumeResult = { status: 'yield' | 'return'; values: LuaValue[] } | { status: 'error'; error: LuaError };

/** The result of resuming a coroutine from the host: its yielded or returned values, or its error. */
export type ResumeResult = { status: 'yield' | 'return'; values: LuaValue[] } | { status: 'error'; error: ScriptError };

/** The host's I/O as scripts see it (`print`, `io.write`, `io.read`). Bytes are one char per byte strings. */
export interface ScriptIo {
  stdout(text: string): void;
  stderr(text: string): void;
  /** Next chunk of standard input (blocking), or null at end of input. Absent: stdin is empty. */
  stdin?: () => string | null;
}

export interface VMOptions {
  /** Number mode: float32 (Shadow of War) or double. */
  numbers?: 'float' | 'double';
  limits?: Partial<VMLimits>;
  /** Mode 2's instruction-pointer checks ("VM Kernel error: invalid instruction pointer."). */
  checked?: boolean;
  io?: ScriptIo;
  /**
   * The JavaScript tier (`jit.ts`): hot functions are translated to JavaScript with `new Function`. `true` compiles
   * a function after {@link DEFAULT_JIT_THRESHOLD} entries or loop iterations, a number after that many (1: at
   * once). Off by default, and always off where the environment forbids `new Function` (a strict CSP).
   */
  jit?: boolean | number;
}

/** Entries and loop iterations after which the JavaScript tier compiles a function. */
export const DEFAULT_JIT_THRESHOLD = 64;

const NULL_IO: ScriptIo = { stdout: () => {}, stderr: () => {} };

/** Debug hook mask bits (Lua's LUA_MASKCALL / RET / LINE / COUNT). */
export const HOOK_CALL = 1;
export const HOOK_RET = 2;
export const HOOK_LINE = 4;
export const HOOK_COUNT = 8;
/** Instructions handed to the countdown at a time when no hook is set. */
const STEP_CHUNK = 1 << 30;

export class LuaVM {
  readonly float32: boolean;
  readonly limits: VMLimits;
  readonly checked: boolean;
  /** When the JavaScript tier compiles a function (entries + loop iterations); 0: the tier is off. */
  readonly jitThreshold: number;
  readonly io: ScriptIo;
  readonly globals: LuaTable;
  readonly registry: LuaTable;
  readonly main: LuaThread;
  /** The running thread. */
  current: LuaThread;
  /** Metatable shared by all strings (`__index` = the string library). */
  stringMeta: LuaTable | null = null;
  /** The string library table, for method calls on strings without a metatable walk. */
  stringIndex: LuaTable | null = null;
  /** Metatables of the other basic types (`debug.setmetatable`). */
  readonly typeMetas = new Map<string, LuaTable>();
  /** The base library's `next`, recognised by generic `for` loops. */
  nextFn: LuaValue = undefined;
  readonly nextOut: { k: LuaValue; v: LuaValue } = { k: undefined, v: undefined };
  /**
   * Countdown the interpreter decrements per instruction; when it goes below 0 the interpreter calls
   * {@link stepEvent}, which moves more of the budget into it, or runs a debug hook. The budget left is
   * `steps + budgetRest`.
   */
  steps = 0;
  /** Budget not yet handed to the countdown. */
  budgetRest: number;
  /** Instructions the countdown covered when last armed (count hooks subtract them). */
  armed = 0;
  /** Nested host-to-Lua calls in progress. */
  cDepth = 0;
  /** Extra frames allowed while an xpcall message handler runs (it runs on the failing frames, maybe at the limit). */
  errorHandlerRoom = 0;
  /** The base library's ipairs iterator, recognised by generic `for` loops. */
  ipairsAux: LuaValue = undefined;
  /** Values the host keeps alive (for `collectgarbage` weak-table clearing). */
  readonly anchors = new Set<LuaValue>();
  /** The collector emulation (weak tables, finalizers, heap estimate). */
  readonly gc: Collector;
  /** Bytes allocated since the last cycle, and the count that starts the next one (read by the interpreter). */
  gcAllocated = 0;
  gcThreshold = 64 * 1024;
  /** Writes into a frame's registers from outside it (`debug.setlocal`): compiled code reloads its registers. */
  frameWrites = 0;

  constructor(options: VMOptions = {}) {
    this.float32 = (options.numbers ?? 'double') === 'float';
    this.limits = { ...DEFAULT_LIMITS, ...options.limits };
    this.checked = options.checked ?? false;
    const jit = options.jit ?? false;
    this.jitThreshold = jit === false || !jitAvailable() ? 0 : jit === true ? DEFAULT_JIT_THRESHOLD : Math.max(1, Math.floor(jit));
    this.io = options.io ?? NULL_IO;
    this.budgetRest = this.limits.instructions;
    this.globals = this.newTable();
    this.registry = this.newTable();
    this.gc = new Collector(this);
    this.main = new LuaThread(this, 1024);
    this.main.status = 'running';
    this.current = this.main;
  }

  newTable(narray = 0, nhash = 0): LuaTable {
    this.gcAllocated += 64 + 24 * (narray + nhash);
    return new LuaTable(narray, nhash, this.limits.maxTableEntries);
  }

  /** The remaining instruction budget; assign to give a script more (or fewer) instructions. */
  get budget(): number {
    return Math.max(0, this.steps) + this.budgetRest;
  }
  set budget(n: number) {
    this.steps = 0;
    this.budgetRest = n;
  }

  /**
   * The countdown ran out (the current instruction took the unit below 0): account it against the budget, run the
   * running thread's count and line hooks, and re-arm the countdown (to 0 while a line hook is set, so every
   * instruction comes here).
   */
  stepEvent(L: LuaThread): void {
    // the current instruction's unit
    if (this.budgetRest <= 0) {
      this.steps = 0;
      this.budgetExceeded(L);
    }
    const hook = L.hookMask & (HOOK_LINE | HOOK_COUNT) ? L : null;
    // instructions run since the countdown was armed (this one included)
    const elapsed = this.armed > 0 ? this.armed : 1;
    let countDue = false;
    if (hook !== null) {
      L.hookCountLeft -= elapsed;
      if (L.hookMask & HOOK_COUNT && L.hookCountLeft <= 0) {
        // the count restarts even while a hook runs (its instructions count too, as in Lua 5.1)
        L.hookCountLeft = L.hookCount;
        countDue = true;
      }
    }
    const interval = hook === null ? STEP_CHUNK : L.hookMask & HOOK_LINE ? 1 : Math.max(1, L.hookCountLeft);
    const take = Math.min(this.budgetRest, interval);
    this.budgetRest -= take;
    this.steps = take - 1;
    this.armed = take;
    if (hook !== null && L.allowHook) {
      const ci = L.ci;
      if (countDue) this.callHook(L, 'count', -1);
      if (L.hookMask & HOOK_LINE && ci.cl !== null) {
        const lines = ci.cl.p.lines;
        const pc = ci.pc >> 2;
        // the previous instruction of this activation; unknown (the hook was just set, or the frame ran without
        // it) counts as the one before
        const prev = ci.hookPc >= 0 ? ci.hookPc : pc - 1;
        ci.hookPc = pc;
        const line = lines ? lines[pc]! : -1;
        if (pc === 0 || pc <= prev || (lines !== null && line !== lines[prev])) this.callHook(L, 'line', line);
      }
    }
  }

  /** Moves `n` units of work done by a library function from the budget (pattern matching, big copies). */
  charge(L: LuaThread, n: number): void {
    this.steps -= n;
    if (this.steps < 0) {
      const need = -this.steps;
      if (this.budgetRest < need) {
        this.steps = 0;
        this.budgetRest = 0;
        this.budgetExceeded(L);
      }
      this.budgetRest -= need;
      this.steps = 0;
    }
  }

  /** Makes the next instruction reach {@link stepEvent} (after setting a hook or switching threads). */
  rearm(): void {
    if (this.steps > 0) {
      this.budgetRest += this.steps;
      this.steps = 0;
    }
    this.armed = 0;
  }

  /** Calls thread L's hook function for an event (`call`, `return`, `tail return`, `line`, `count`). */
  callHook(L: LuaThread, event: string, line: number): void {
    const f = L.hookFn;
    if (f === undefined || !L.allowHook) return;
    L.allowHook = false;
    const savedTop = L.top;
    try {
      const top = scratch(L);
      L.ensure(top + 4);
      L.set(top, f);
      L.set(top + 1, event);
      L.set(top + 2, line >= 0 ? line : undefined);
      L.top = top + 3;
      callValue(L, top, 2, 0);
    } finally {
      L.allowHook = true;
      L.top = savedTop;
    }
    this.rearm();
  }

  // ---------------------------------------------------------------------------------------------------- loading

  /**
   * Loads a parsed chunk as a function (not yet run). `name` is the chunk's name for messages when the chunk has no
   * debug source (Lua style: `@file` for a file, `=name` for a name shown as is).
   */
  load(chunk: HksChunk, name = '=?', env: LuaTable = this.globals): LuaClosure {
    const numberSize = chunk.header.numberSize;
    if (chunk.header.integralNumbers !== 0) throw new ToolkitError('E_UNSUPPORTED', 'hks: chunks with integral numbers (header byte 11 = 1) are not supported by the VM');
    if ((numberSize === 4) !== this.float32) {
      throw new ToolkitError('E_UNSUPPORTED', `hks: the chunk's numbers are ${numberSize === 4 ? 'float32' : 'double'} but this VM runs in ${this.float32 ? 'float32' : 'double'} mode`);
    }
    const source = chunk.main.debug?.source ?? name;
    const info: ChunkInfo = {
      source,
      header: chunk.header,
      structureSection: chunk.structures,
      structs: buildStructDefs(chunk.structures?.structures ?? []),
      numberSize,
      checked: this.checked,
    };
    const proto = decodeFunction(chunk.main, info);
    if (mentionsCollector(chunk.main)) this.gc.active = true;
    // a main function with upvalues (string.dump of a closure) gets fresh nil ones, as lua_load gives
    const ups: Upval[] = [];
    for (let i = 0; i < proto.nups; i++) ups.push(new Upval(null, -1, undefined));
    return new LuaClosure(proto, ups, env);
  }

  // ---------------------------------------------------------------------------------------------------- host functions

  /** Wraps a native function (the stack protocol of `NativeFn`). */
  hostFunction(name: string, fn: NativeFn): HostFunction {
    return new HostFunction(name, fn, this.globals);
  }

  /** Registers a typed host function as a global (see `host.ts`). */
  register(name: string, fn: (call: HostCall) => HostResult): HostFunction {
    const f = defineHostFunction(this, name, fn);
    this.globals.setStr(name, f);
    return f;
  }

  /** Registers a table of typed host functions as a global library (`name.fn`). */
  registerLibrary(name: string, fns: Record<string, (call: HostCall) => HostResult>): LuaTable {
    let t = this.globals.getStr(name);
    if (!(t instanceof IsLuaTable)) {
      t = this.newTable();
      this.globals.setStr(name, t);
    }
    for (const [k, fn] of Object.entries(fns)) (t as LuaTable).setStr(k, defineHostFunction(this, `${name}.${k}`, fn));
    return t as LuaTable;
  }

  getGlobal(name: string): LuaValue {
    return this.globals.getStr(name);
  }

  /** Sets a global (numbers are rounded to float32 in float mode, as a script's would be). */
  setGlobal(name: string, value: LuaValue): void {
    this.globals.setStr(name, this.fromHost(value));
  }

  /** A host number as the VM keeps it (float32-rounded in float mode); other values unchanged. */
  fromHost<T extends LuaValue>(v: T): T {
    return (typeof v === 'number' && this.float32 ? Math.fround(v) : v) as T;
  }

  // ---------------------------------------------------------------------------------------------------- calls

  /**
   * Calls a Lua value with arguments and returns all its results. Runs on the running thread (the main thread when
   * no script runs). Raises a {@link ScriptError} when the script fails.
   */
  call(fn: LuaValue, args: readonly LuaValue[] = []): LuaValue[] {
    const L = this.current;
    const savedCi = L.ciTop;
    const savedNny = L.nny;
    const savedC = this.cDepth;
    const fi = scratch(L);
    const savedTop = L.top;
    try {
      L.ensure(fi + args.length + 1 + MINSTACK);
      L.set(fi, fn);
      for (let i = 0; i < args.length; i++) L.set(fi + 1 + i, args[i]);
      L.top = fi + 1 + args.length;
      callValue(L, fi, args.length, -1);
      const out: LuaValue[] = [];
      for (let i = fi; i < L.top; i++) out.push(L.get(i));
      L.top = savedTop;
      return out;
    } catch (e) {
      const err = this.toLuaError(L, e);
      err.traceback ??= traceback(L);
      L.closeUpvals(fi);
      L.ciTop = savedCi;
      L.nny = savedNny;
      this.cDepth = savedC;
      L.top = savedTop;
      throw this.scriptError(err);
    }
  }

  /** A host-facing error for a Lua error. */
  scriptError(err: LuaError): ScriptError {
    const v = err.value;
    const msg = typeof v === 'string' ? v : typeof v === 'number' ? numberToString(v) : v === undefined ? 'nil' : `(error object is a ${typeName(v)} value)`;
    return new ScriptError(msg, v, err.kind, err.traceback ?? 'stack traceback:', err.cause);
  }

  /**
   * Calls slot `fi` protected (pcall / xpcall): returns null on success (results from `fi`, `L.top` after them with
   * `nres = -1`), else the error, with the thread's frames restored. `handler` runs on the failing frames first
   * (xpcall's message handler). Fatal errors (the budget) propagate.
   */
  pcall(L: LuaThread, fi: number, nargs: number, nres: number, handler?: LuaValue): LuaError | null {
    const savedCi = L.ciTop;
    const savedNny = L.nny;
    const savedC = this.cDepth;
    try {
      callValue(L, fi, nargs, nres);
      return null;
    } catch (e) {
      const err = this.toLuaError(L, e);
      if (err.kind === 'budget' || err.kind === 'internal') throw err;
      if (handler !== undefined) {
        this.cDepth = savedC;
        const savedRoom = this.errorHandlerRoom;
        this.errorHandlerRoom = 1000;
        try {
          const top = scratch(L);
          L.ensure(top + 3);
          L.set(top, handler);
          L.set(top + 1, err.value);
          L.top = top + 2;
          callValue(L, top, 1, 1);
          err.value = L.get(top);
        } catch (e2) {
          const err2 = this.toLuaError(L, e2);
          if (err2.kind === 'budget' || err2.kind === 'internal') throw err2;
          err.value = 'error in error handling';
        } finally {
          this.errorHandlerRoom = savedRoom;
        }
      }
      L.closeUpvals(fi);
      L.ciTop = savedCi;
      L.nny = savedNny;
      this.cDepth = savedC;
      return err;
    }
  }

  /** Turns anything thrown inside the VM into a LuaError (JavaScript stack exhaustion becomes "stack overflow"). */
  toLuaError(L: LuaThread, e: unknown): LuaError {
    if (e instanceof LuaError) return e;
    if (e instanceof TableOverflow) return new LuaError(this.where(L) + `table overflow (a table may hold ${this.limits.maxTableEntries} slots)`, 'limit');
    if (e instanceof RangeError && /call stack/i.test(e.message)) return new LuaError(this.where(L) + 'stack overflow (host call stack exhausted)', 'limit');
    // a host function's own exception (or a VM bug): not catchable by pcall, handed to the host as its cause
    const err = new LuaError(e instanceof Error ? `host error: ${e.message}` : 'host error', 'internal');
    err.cause = e;
    return err;
  }

  // ---------------------------------------------------------------------------------------------------- coroutines

  /** A new coroutine running `fn`. */
  newThread(fn: LuaValue): LuaThread {
    const co = new LuaThread(this, 64);
    co.body = fn;
    co.env = this.current.env;
    return co;
  }

  /**
   * Resumes a coroutine with values from the host: it runs until it yields (`status: 'yield'`), returns
   * (`'return'`) or fails (`'error'`, the coroutine is then dead). A fatal error (the budget) is thrown as a
   * {@link ScriptError} of kind `budget`.
   */
  resume(co: LuaThread, args: readonly LuaValue[] = []): ResumeResult {
    let r: LuaResumeResult;
    try {
      r = this.resumeLua(co, args);
    } catch (e) {
      throw this.scriptError(e instanceof LuaError ? e : this.toLuaError(co, e));
    }
    if (r.status === 'error') return { status: 'error', error: this.scriptError(r.error) };
    return r;
  }

  /** `coroutine.resume` inside the VM: errors stay Lua errors. Fatal errors propagate. */
  resumeLua(co: LuaThread, args: readonly LuaValue[]): LuaResumeResult {
    const n = this.resumeStack(co, null, 0, args.length, args);
    if (n < 0) return { status: 'error', error: this.resumeError! };
    const values: LuaValue[] = [];
    for (let i = 0; i < n; i++) values.push(co.get(co.resultFrom + i));
    return { status: co.status === 'suspended' ? 'yield' : 'return', values };
  }

  /** The error of the last {@link resumeStack} that returned -1. */
  resumeError: LuaError | null = null;

  /**
   * Resumes `co` with `count` values: from `src`'s stack at `from` when `src` is given (what `coroutine.resume`
   * passes, no array in between), else from `args`. Returns the number of values it yielded or returned, left in
   * `co` from `co.resultFrom` (its status says which), or -1 when it failed (the error in `resumeError`). Fatal
   * errors propagate.
   */
  resumeStack(co: LuaThread, src: LuaThread | null, from: number, count: number, args: readonly LuaValue[] | null): number {
    if (co.status !== 'suspended') {
      const msg = co.status === 'dead' ? 'cannot resume dead coroutine' : 'cannot resume non-suspended coroutine';
      this.resumeError = new LuaError(msg);
      return -1;
    }
    const prev = this.current;
    if (this.cDepth >= this.limits.maxCDepth) {
      this.resumeError = new LuaError('C stack overflow');
      return -1;
    }
    const savedC = this.cDepth;
    this.cDepth++;
    prev.status = 'normal';
    co.status = 'running';
    this.current = co;
    if (co.hookMask !== 0 || prev.hookMask !== 0) this.rearm();
    try {
      const n = count;
      if (co.ciTop === 0) {
        const fi = 1;
        co.ensure(fi + n + 1 + MINSTACK);
        co.set(fi, co.body);
        if (src !== null) copySlots(co, fi + 1, src, from, n);
        else for (let i = 0; i < n; i++) co.set(fi + 1 + i, args![i]);
        co.top = fi + 1 + n;
        let f = co.sv[fi];
        let nargs = n;
        if (!(f instanceof IsLuaClosure || f instanceof IsHostFunction)) {
          nargs = resolveCallable(co, fi, n);
          f = co.sv[fi];
        }
        if (f instanceof IsLuaClosure) {
          const ci = pushLuaFrame(co, f, fi, nargs, -1);
          ci.entry = true;
          execute(co, false);
        } else {
          const r = callHost(co, f as HostFunction, fi, nargs, -1);
          if (r >= 0) co.top = fi + r;
        }
      } else {
        // the top frame is the host function that yielded: the resume values are its results
        const hci = co.ci;
        const fi = hci.func;
        const want = hci.nresults;
        co.ensure(fi + n + MINSTACK);
        if (src !== null) copySlots(co, fi, src, from, n);
        else for (let i = 0; i < n; i++) co.set(fi + i, args![i]);
        if (want >= 0) for (let i = n; i < want; i++) co.sv[fi + i] = undefined;
        else co.top = fi + n;
        co.ciTop--;
        if (co.ciTop > 0) resumeFrame(co);
        else co.top = fi + n;
      }
      if ((co.status as ThreadStatus) === 'suspended') {
        co.resultFrom = co.yieldFrom;
        return co.yieldCount;
      }
      co.status = 'dead';
      co.resultFrom = 1;
      return co.top - 1;
    } catch (e) {
      co.status = 'dead';
      const err = this.toLuaError(co, e);
      err.traceback ??= traceback(co);
      if (err.kind === 'budget' || err.kind === 'internal') throw err;
      this.resumeError = err;
      return -1;
    } finally {
      this.current = prev;
      prev.status = 'running';
      this.cDepth = savedC;
      if (co.hookMask !== 0 || prev.hookMask !== 0) this.rearm();
    }
  }

  /**
   * From a native function: suspends the running coroutine, handing `count` values from slot `from` to the resumer.
   * Return the result to the interpreter. Raises the Lua error when the thread cannot yield here.
   */
  yieldValues(L: LuaThread, from: number, count: number): number {
    if (L === this.main) this.runError(L, 'attempt to yield across metamethod/C-call boundary');
    if (L.nny > 0) this.runError(L, 'attempt to yield across metamethod/C-call boundary');
    L.yieldFrom = from;
    L.yieldCount = count;
    L.status = 'suspended';
    return -1;
  }

  // ---------------------------------------------------------------------------------------------------- memory

  /** Called when a table gets a metatable: one with `__mode` or `__gc` makes the collector mark for real. */
  noteMetatable(t: LuaTable): void {
    const mt = t.metatable;
    if (mt !== null && (mt.getStr('__mode') !== undefined || mt.getStr('__gc') !== undefined)) this.gc.active = true;
  }

  /** The heap estimate in KiB (`collectgarbage('count')`). */
  memoryEstimateKb(): number {
    return this.gc.countKb();
  }

  /** A full collection cycle (`collectgarbage('collect')`): weak tables cleared, finalizers run. */
  collectGarbage(L: LuaThread = this.current): void {
    this.gc.fullCycle(L);
  }

  /** Runs the pending finalizers, as `lua_close` does (the CLI calls it when a script ends). */
  close(): void {
    this.gc.closeState(this.main);
  }

  // ---------------------------------------------------------------------------------------------------- errors

  /** `chunk:line: ` of the running Lua frame, or '' when a host function runs (luaG_runerror's addinfo). */
  where(L: LuaThread): string {
    const ci = L.ci;
    if (ci.cl === null) return '';
    const line = currentLine(ci);
    return `${chunkId(ci.cl.p.chunk.source)}:${line >= 0 ? line : '?'}: `;
  }

  /** Raises a runtime error with the running frame's position. */
  runError(L: LuaThread, msg: string): never {
    throw new LuaError(this.where(L) + msg);
  }

  /** "attempt to <op> <kind> 'name' (a <type> value)" (`luaG_typeerror`); `reg` is the register, -1 when not one. */
  typeError(L: LuaThread, v: LuaValue, op: string, reg: number): never {
    const t = typeName(v);
    const ci = L.ci;
    if (ci.cl !== null && reg >= 0) {
      const nm = objectName(ci.cl.p, ci.pc >> 2, reg);
      if (nm) this.runError(L, `attempt to ${op} ${nm.kind} '${nm.name}' (a ${t} value)`);
    }
    this.runError(L, `attempt to ${op} a ${t} value`);
  }

  /** A limit (string or table size) was reached: a catchable error. */
  limitError(L: LuaThread, msg: string): never {
    throw new LuaError(this.where(L) + msg, 'limit');
  }

  /** Too many frames or nested calls. */
  stackOverflow(L: LuaThread, msg: string): never {
    throw new LuaError(this.where(L) + msg, 'limit');
  }

  /** The instruction budget is spent: fatal. */
  budgetExceeded(L: LuaThread): never {
    throw new LuaError(this.where(L) + `instruction budget exhausted (${this.limits.instructions} instructions)`, 'budget');
  }

  /** Control left a function's code (a jump or fall-through outside it). */
  instructionPointerError(L: LuaThread): never {
    if (this.checked) throw new LuaError(this.where(L) + 'VM Kernel error: invalid instruction pointer.');
    throw new LuaError(this.where(L) + 'invalid bytecode: control left the function (a jump or fall-through outside its code)');
  }
}
