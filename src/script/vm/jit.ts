/**
 * The JavaScript tier: a hot function's pre-decoded code translated to JavaScript source (`new Function`) so that V8
 * compiles it — operands and constants become literals, straight-line runs of instructions lose the dispatch, and
 * registers live in JavaScript locals (two per register: the value slot and the number, as the register file has
 * them), with type checks removed where an analysis proves a register holds a number.
 *
 * The translation covers the instructions whose common case is simple (see `flowOf`). Everything else — and every
 * uncommon case of a covered instruction (a non-number operand, a metatable, a tail call, an entry frame's return,
 * an allocation that would start a collection cycle) — *bails out*: the compiled function writes its locals back to
 * the register file, saves the instruction's pc in its frame and returns, and the interpreter runs it. Since both
 * tiers share the register file (written back before anything else can look at it), the frames and the saved pcs,
 * a bail-out is exact: compiled code never raises an error and never calls a metamethod; the interpreter does all
 * of that, with its own messages, hooks and traceback. A compiled call of a Lua function pushes the callee's frame
 * as the interpreter does and calls the callee's compiled code as a JavaScript function (`callLuaFor`, at most
 * MAX_NESTED deep); when the callee bails out or yields, every compiled caller returns at once, each frame's pc
 * saved at its call and its registers written back, and the interpreter continues the top frame.
 *
 * Budget: the interpreter counts one step per instruction. Compiled code charges a whole straight-line block at its
 * start; when fewer steps remain than the block needs it bails out at the block's start and the interpreter counts
 * the rest one by one (its budget error, count hooks and collector steps come out exactly as without the tier). A
 * bail-out in the middle of a block refunds what the block did not run. Compiled code is only entered while no
 * debug hook is set.
 *
 * Entry points: the interpreter enters a function's compiled code at its first instruction (a call), at the
 * targets of loop back-edges and at the instruction after a call (a resumed coroutine's frame, a frame its callee
 * returned to: {@link runCompiled}), all block starts here; any other pc is left to the interpreter.
 *
 * Off where `new Function` is unavailable (a Content-Security-Policy without `unsafe-eval`): {@link jitAvailable}.
 */
import * as tableModule from './table.ts';
import * as valueModule from './value.ts';
import * as protoModule from './proto.ts';
import * as metaModule from './meta.ts';
import type { callHost } from './interp.ts';
import type { LuaThread, CallInfo } from './thread.ts';
import type { ClosureSide, Proto } from './proto.ts';

/**
 * A compiled function: runs frame `ci` from `pc` (a block start). Returns the pc where the interpreter takes over
 * in this same frame (also saved in `ci.pc`), {@link JIT_YIELD} when a host function it called yielded,
 * {@link JIT_FRAMES} when it called a Lua function that left its frame (or a deeper one) to the interpreter — the
 * top frame's `ci.pc` says where — or {@link JIT_RETURNED} when it returned (its frame is popped, the results are
 * in place). `vm.steps` is up to date on return. `depth`: compiled calls nested in JavaScript so far.
 *
 * A function that can run as a lazy frame (see {@link directCallable}) takes more parameters when compiled code calls
 * it directly with `ci` null: its closure, frame index, wanted results, the budget countdown and its arguments. Such a
 * call returns the countdown left (never negative) when the callee returned, its results in place, and
 * {@link JIT_FRAMES} when it left to the interpreter (then with `vm.steps` written).
 */
export type JitFn = (L: LuaThread, ci: CallInfo, base: number, pc: number, depth: number) => number;

export const JIT_YIELD = -1;
export const JIT_FRAMES = -2;
export const JIT_RETURNED = -3;
/** Compiled Lua-to-Lua calls nest as JavaScript calls up to this depth; deeper ones go through the interpreter. */
const MAX_NESTED = 100;
/** Most parameters a function called directly takes (see {@link directCallable}). */
const MAX_DIRECT_ARGS = 8;
/** Times a function may leave a lazy frame to the interpreter before its callers stop calling it directly. */
const LAZY_LEAVE_LIMIT = 16;
/**
 * Longest JavaScript source the tier hands to V8 as one function (characters). V8 does not optimize a function past
 * its bytecode limit (60 KiB, --max-optimized-bytecode-size) and takes seconds over one near it: unoptimized,
 * compiled code runs slower than the interpreter (measured: the strings program's 99 KB main chunk ran 3x slower
 * compiled), so a function over it is compiled loop by loop (compileProto).
 */
const MAX_SOURCE = 40_000;

/** The interpreter's side of the tier: frames, host calls, and the compiled form of a callee when it is hot. */
export interface JitRuntime {
  callHost: typeof callHost;
  pushLuaFrame: (L: LuaThread, cl: InstanceType<typeof valueModule.LuaClosure>, fi: number, nargs: number, nres: number) => CallInfo;
  /** The callee's compiled code, compiling it when it has become hot; null: let the interpreter run it. */
  jitOf: (L: LuaThread, p: Proto) => JitFn | null;
  /** Where frame `ci` continues once the call at its saved pc has delivered its results (the interpreter's rule). */
  continuation: (L: LuaThread, ci: CallInfo) => number;
}

/**
 * Runs frame `ci` (the thread's top frame, a Lua function with compiled code, no hook set) in the tier from `pc`;
 * when it returns, its caller continues in the tier too at the instruction after its call, and so on down the
 * frames while each has compiled code (a caller's return point is an entry of its compiled code). Returns
 * {@link JIT_YIELD} when a host function yielded, {@link JIT_FRAMES} when the interpreter takes over a frame other
 * than `ci` (the top frame's `ci.pc` says where), or the pc where the interpreter continues `ci` itself.
 */
export function runCompiled(L: LuaThread, ci: CallInfo, pc: number, rt: JitRuntime): number {
  let r = ci.cl!.p.jit!(L, ci, ci.base, pc, 0);
  while (r === JIT_RETURNED) {
    // the frame returned into a Lua caller (compiled code hands an entry frame's return to the interpreter)
    const caller = L.cis[L.ciTop]!;
    const at = rt.continuation(L, caller);
    caller.pc = at;
    const g = caller.cl!.p.jit;
    if (g === null || L.hookMask !== 0) return JIT_FRAMES;
    r = g(L, caller, caller.base, at, 0);
    if (r >= 0) return JIT_FRAMES;
  }
  return r;
}

const { Op } = protoModule;

type CallLua = (L: LuaThread, f: InstanceType<typeof valueModule.LuaClosure>, ra: number, na: number, nres: number, depth: number) => number;
const callLuaOf = new WeakMap<JitRuntime, CallLua>();

/**
 * Compiled code's call of a Lua closure `f` in slot `ra` with `na` arguments, `nres` results wanted, from compiled
 * code `depth` calls deep: pushes its frame (the interpreter's `pushLuaFrame`, whose common case V8 inlines here) and
 * runs its compiled code as a JavaScript call. Returns {@link JIT_RETURNED} when it
 * returned (results in place), else what the calling compiled code returns ({@link JIT_YIELD}, {@link JIT_FRAMES}).
 * One function for every call site keeps the generated code small (V8 optimizes a small function sooner, and
 * inlines this one into it).
 */
function callLuaFor(rt: JitRuntime): CallLua {
  let fn = callLuaOf.get(rt);
  if (fn !== undefined) return fn;
  const { pushLuaFrame, jitOf } = rt;
  fn = (L, f, ra, na, nres, depth) => {
    const q = f.p;
    const g = depth >= MAX_NESTED ? null : q.jit !== null && L.hookMask === 0 ? q.jit : jitOf(L, q);
    const nci = pushLuaFrame(L, f, ra, na, nres);
    if (g === null) return JIT_FRAMES;
    const x = g(L, nci, nci.base, 0, depth + 1);
    return x === JIT_RETURNED || x === JIT_YIELD ? x : JIT_FRAMES;
  };
  callLuaOf.set(rt, fn);
  return fn;
}

/**
 * Whether `p` may run as a *lazy frame*: called directly by compiled code (arguments and results in JavaScript, no
 * `CallInfo` pushed, no registers in the register file) until something could observe its frame, when it leaves to
 * the interpreter instead — every bail-out, host call, table insert that may raise an error, and a call it cannot
 * make directly — and its frame, then its lazy callers' frames, are written as the interpreter would have pushed
 * them ({@link lazyFrame}). Errors, tracebacks, debug.*, hooks, yields and the collector only ever run in the
 * interpreter or in host functions, so they always see every frame. Not for functions with varargs or whose
 * registers closures capture (an open upvalue points into the register file).
 */
function directCallable(p: Proto): boolean {
  if (p.isVararg || p.numparams > MAX_DIRECT_ARGS) return false;
  for (const s of p.side) if (s.kind === 'closure' && s.captureKind.includes(1)) return false;
  for (let pc = 0; pc < p.code.length; pc += 4) if (p.code[pc] === Op.CLOSE) return false;
  return true;
}

/**
 * Writes lazy frame `cit` (its registers are written by the caller) as `pushLuaFrame` would have pushed it, its
 * saved pc `pc`. `top`: the frame leaving to the interpreter itself (the thread's top frame), not a caller of one;
 * its function counts towards {@link LAZY_LEAVE_LIMIT} unless `quiet` (it left for the budget or a collector step,
 * which any function does now and then).
 */
function lazyFrame(L: LuaThread, cit: number, cl: InstanceType<typeof valueModule.LuaClosure>, base: number, pc: number, nres: number, top: boolean, quiet: boolean): void {
  const p = cl.p;
  const ci = L.cis[cit]!;
  ci.func = base - 1;
  ci.base = base;
  ci.top = base + p.frameSize;
  ci.cl = cl;
  ci.hf = null;
  ci.pc = pc;
  ci.nresults = nres;
  ci.nargs = p.numparams;
  ci.tailcalls = 0;
  ci.entry = false;
  ci.hookPc = -1;
  if (top) {
    L.ciTop = cit;
    if (!quiet && ++p.lazyLeaves >= LAZY_LEAVE_LIMIT) p.direct = -1;
  }
}

let available: boolean | null = null;

/** Whether this JavaScript environment lets scry compile code (`new Function`; a strict CSP forbids it). */
export function jitAvailable(): boolean {
  if (available === null) {
    try {
      available = (new Function('return 1') as () => number)() === 1;
    } catch {
      available = false;
    }
  }
  return available;
}

/** What each translated instruction is: how control leaves it, for block analysis. */
interface Flow {
  /** The next instruction when control falls through (-1: never). */
  next: number;
  /** Jump targets (pcs). */
  targets: number[];
  /** Whether `next` starts a block (a conditional fall-through, or the return point of a call). */
  branch: boolean;
}

/** Control flow of the instruction at `pc`, or null when the tier does not translate it (a bail-out). */
function flowOf(code: Int32Array, pc: number): Flow | null {
  const op = code[pc]!;
  switch (op) {
    case Op.CALL:
      // the instruction after a call starts a block: where a frame resumes after a yield or a return (runCompiled)
      return { next: pc + 4, targets: [], branch: true };
    case Op.MOVE: case Op.LOADKN: case Op.LOADKV: case Op.LOADNIL: case Op.GETUPVAL: case Op.SETUPVAL:
    case Op.SETFIELD: case Op.SETTABLE: case Op.TAILCALL: case Op.SETGLOBAL: case Op.SELF:
    case Op.ADD_RR: case Op.ADD_RK: case Op.ADD_KR: case Op.SUB_RR: case Op.SUB_RK: case Op.SUB_KR:
    case Op.MUL_RR: case Op.MUL_RK: case Op.MUL_KR: case Op.DIV_RR: case Op.DIV_RK: case Op.DIV_KR:
    case Op.MOD_RR: case Op.MOD_RK: case Op.MOD_KR: case Op.POW_RR: case Op.POW_RK: case Op.POW_KR:
    case Op.UNM: case Op.NOT: case Op.LEN: case Op.CONCAT: case Op.NOP:
    case Op.NEWTABLE: case Op.SETLIST: case Op.CLOSE: case Op.VARARG:
      return { next: pc + 4, targets: [], branch: false };
    case Op.SETLIST_X:
      return { next: pc + 8, targets: [], branch: false };
    case Op.GETFIELD: case Op.GETTABLE:
      return { next: pc + 12, targets: [], branch: false };
    case Op.GETGLOBAL: case Op.CLOSURE:
      return { next: code[pc + 3]!, targets: [], branch: false };
    case Op.LOADBOOL: {
      const t = code[pc + 3]!;
      return t === pc + 4 ? { next: t, targets: [], branch: false } : { next: -1, targets: [t], branch: false };
    }
    case Op.JMP:
      return { next: -1, targets: [code[pc + 2]!], branch: false };
    case Op.RETURN:
      return { next: -1, targets: [], branch: false };
    case Op.FORPREP:
      return { next: -1, targets: [code[pc + 2]!], branch: false };
    case Op.FORLOOP:
      return { next: pc + 4, targets: [code[pc + 2]!], branch: true };
    case Op.TFORLOOP_J:
      return { next: pc + 8, targets: [code[pc + 3]!], branch: true };
    case Op.TFORLOOP_S:
      return { next: pc + 8, targets: [pc + 4], branch: true };
    case Op.TEST_J:
      return { next: pc + 8, targets: [code[pc + 3]!], branch: true };
    case Op.EQ_RR_J: case Op.EQ_RK_J: case Op.LT_RR_J: case Op.LE_RR_J: case Op.LT_RK_J: case Op.LE_RK_J:
    case Op.LT_KR_J: case Op.LE_KR_J: case Op.TESTSET_J:
      return { next: pc + 8, targets: [code[pc + 3]! & ~3], branch: true };
    default:
      return null;
  }
}

const ARITH: Record<number, { sym: string; b: 'r' | 'k'; c: 'r' | 'k' }> = {};
for (const [name, sym] of [['ADD', '+'], ['SUB', '-'], ['MUL', '*'], ['DIV', '/'], ['MOD', '%'], ['POW', '^']] as const) {
  const ops = Op as unknown as Record<string, number>;
  ARITH[ops[`${name}_RR`]!] = { sym, b: 'r', c: 'r' };
  ARITH[ops[`${name}_RK`]!] = { sym, b: 'r', c: 'k' };
  ARITH[ops[`${name}_KR`]!] = { sym, b: 'k', c: 'r' };
}

const range = (from: number, n: number): number[] => Array.from({ length: Math.max(0, n) }, (_, i) => from + i);

/**
 * The registers a translated instruction reads and writes in compiled code's locals. A call's results and an open
 * vararg land in the register file and are reloaded from it; they are not writes here.
 */
function registersOf(code: Int32Array, pc: number): { reads: number[]; writes: number[] } {
  const op = code[pc]!;
  const a = code[pc + 1]!;
  const b = code[pc + 2]!;
  const c = code[pc + 3]!;
  const ar = ARITH[op];
  if (ar !== undefined) return { reads: [...(ar.b === 'r' ? [b] : []), ...(ar.c === 'r' ? [c] : [])], writes: [a] };
  const rk = (x: number): number[] => (x >= 0 ? [x] : []);
  switch (op) {
    case Op.MOVE: case Op.UNM: case Op.NOT: case Op.LEN: return { reads: [b], writes: [a] };
    case Op.LOADKN: case Op.LOADKV: case Op.LOADBOOL: case Op.GETUPVAL: case Op.GETGLOBAL: case Op.NEWTABLE: case Op.CLOSURE:
      return { reads: [], writes: [a] };
    case Op.LOADNIL: return { reads: [], writes: range(a, b - a + 1) };
    case Op.SETUPVAL: case Op.SETGLOBAL: case Op.TEST_J: case Op.EQ_RK_J: case Op.LT_RK_J: case Op.LE_RK_J:
      return { reads: [a], writes: [] };
    case Op.GETFIELD: return { reads: [b], writes: [a] };
    case Op.GETTABLE: return { reads: [b, ...rk(c)], writes: [a] };
    case Op.SETFIELD: return { reads: [a, ...rk(c)], writes: [] };
    case Op.SETTABLE: return { reads: [a, ...rk(b), ...rk(c)], writes: [] };
    case Op.SELF: return { reads: [b, ...rk(c)], writes: [a, a + 1] };
    case Op.CONCAT: return { reads: range(b, c - b + 1), writes: [a, b] };
    case Op.EQ_RR_J: case Op.LT_RR_J: case Op.LE_RR_J: return { reads: [a, b], writes: [] };
    case Op.LT_KR_J: case Op.LE_KR_J: return { reads: [b], writes: [] };
    case Op.TESTSET_J: return { reads: [b], writes: [a] };
    // (a call of one argument and one result may be computed in place, its result in a local: see intrinsicCall)
    case Op.CALL: return { reads: b !== 0 ? range(a, b) : [a], writes: intrinsicCall(code, pc) ? [a] : [] };
    case Op.TAILCALL: return { reads: b !== 0 ? range(a, b) : [a], writes: [] };
    case Op.RETURN: return { reads: b !== 0 ? range(a, b - 1) : [], writes: [] };
    case Op.FORPREP: return { reads: [a, a + 1, a + 2], writes: [a] };
    case Op.FORLOOP: return { reads: [a, a + 1, a + 2], writes: [a, a + 3] };
    case Op.SETLIST: case Op.SETLIST_X: return { reads: b !== 0 ? range(a, b + 1) : [a], writes: [] };
    case Op.VARARG: return { reads: [], writes: b !== 0 ? range(a, b - 1) : [] };
    case Op.TFORLOOP_J: case Op.TFORLOOP_S: return { reads: [a, a + 1, a + 2], writes: range(a + 2, Math.max(b, 3) + 1) };
    default: return { reads: [], writes: [] };
  }
}

/**
 * Registers known to hold numbers after the instruction at `pc` on its fall-through edge (`jump` false) or its jump
 * edge, given those known before (`known`, changed in place for the fall-through edge). A checked operand is known
 * after its check (compiled code bails out otherwise); a call forgets every register at or above its function, and
 * the registers closures capture (the callee may assign them).
 */
function transfer(code: Int32Array, pc: number, known: Set<number>, captured: Set<number>): Set<number> | null {
  const op = code[pc]!;
  const a = code[pc + 1]!;
  const b = code[pc + 2]!;
  const c = code[pc + 3]!;
  const ar = ARITH[op];
  if (ar !== undefined) {
    if (ar.b === 'r') known.add(b);
    if (ar.c === 'r') known.add(c);
    known.add(a);
    return null;
  }
  switch (op) {
    case Op.MOVE:
      if (known.has(b)) known.add(a);
      else known.delete(a);
      return null;
    case Op.LOADKN: case Op.LEN:
      known.add(a);
      return null;
    case Op.UNM:
      known.add(b);
      known.add(a);
      return null;
    case Op.LT_RR_J: case Op.LE_RR_J:
      known.add(a);
      known.add(b);
      return new Set(known);
    case Op.LT_RK_J: case Op.LE_RK_J:
      known.add(a);
      return new Set(known);
    case Op.LT_KR_J: case Op.LE_KR_J:
      known.add(b);
      return new Set(known);
    case Op.TESTSET_J: {
      const j = new Set(known);
      if (known.has(b)) j.add(a);
      else j.delete(a);
      return j;
    }
    case Op.CALL: case Op.TAILCALL:
      for (const r of [...known]) if (r >= a || captured.has(r)) known.delete(r);
      return null;
    case Op.FORPREP:
      known.add(a);
      known.add(a + 1);
      known.add(a + 2);
      return new Set(known);
    case Op.FORLOOP: {
      const j = new Set(known);
      j.add(a + 3);
      return j;
    }
    case Op.TFORLOOP_J: case Op.TFORLOOP_S:
      for (const r of [...known]) if (r >= a + 2 || captured.has(r)) known.delete(r);
      return new Set(known);
    case Op.VARARG:
      if (b === 0) for (const r of [...known]) if (r >= a) known.delete(r);
      for (const r of registersOf(code, pc).writes) known.delete(r);
      return new Set(known);
    default:
      for (const r of registersOf(code, pc).writes) known.delete(r);
      return new Set(known);
  }
}

/**
 * Whether the instruction at `pc` is a call that compiled code computes in place when it calls a host function of
 * one number (`HostFunction.numeric`): one argument or more, one result.
 */
function intrinsicCall(code: Int32Array, pc: number): boolean {
  return code[pc] === Op.CALL && code[pc + 2]! >= 2 && code[pc + 3] === 2;
}

/**
 * The dirty registers (see compileProto) after the instruction at `pc`, updated in place. A call reloads its results
 * and what closures capture; a call made in place (a direct call, a host function of one number) writes back only
 * what a callee could see (what closures capture), so what changed below its function still has, and an in-place
 * result is in a local.
 */
function dirtyAfter(code: Int32Array, pc: number, dirty: Set<number>, used: Set<number>, captured: Set<number>): void {
  const op = code[pc]!;
  if (op === Op.CALL) {
    const a = code[pc + 1]!;
    for (const r of [...dirty]) if (r >= a || captured.has(r)) dirty.delete(r);
    if (intrinsicCall(code, pc) && used.has(a)) dirty.add(a);
    return;
  }
  if (op === Op.TAILCALL || (op === Op.VARARG && code[pc + 2] === 0)) {
    dirty.clear();
    return;
  }
  for (const r of registersOf(code, pc).writes) if (used.has(r)) dirty.add(r);
}

/**
 * The test that value `x` (a local of generated code) is an instance of value class `cls`, as generated code writes
 * it: its `constructor` compared (no value class has a subclass or a `constructor` of its own). V8 compiles this to a
 * check of `x`'s map where `instanceof` walks the prototype chain in a loop (the call sites of spectral-norm spent
 * a fifth of their time in those loops).
 */
function isInstance(x: string, cls: 'LuaTable' | 'LuaClosure' | 'HostFunction'): string {
  return `(${x} != null && ${x}.constructor === ${cls})`;
}

/** A number as JavaScript source that evaluates to exactly it. */
function lit(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (Object.is(x, -0)) return '-0';
  if (x === Infinity) return 'Infinity';
  if (x === -Infinity) return '-Infinity';
  return String(x);
}

/**
 * Translates `p` to JavaScript; returns the compiled function (or null when nothing in it can be translated).
 * `float32`: the VM's number mode (every number a register receives is rounded to float32, as the interpreter's
 * Float32Array register file rounds it).
 *
 * Registers live in JavaScript locals — `v<r>` the value slot (`0` for a number, as in `sv`) and `n<r>` the number —
 * loaded from the register file on entry and after every call, and written back to it (the registers compiled code
 * writes) before every call, every bail-out and every operation that may raise an error, so that the interpreter, a
 * host function, a callee reading an upvalue or an error handler always sees the frame as the interpreter would
 * have left it. Registers proved to hold numbers (`transfer`) are used without their type checks; on entry at a
 * block start the proof is checked (compiled code bails out at once when it does not hold).
 */
export function compileProto(p: Proto, float32: boolean, rt: JitRuntime): JitFn | null {
  const lazy = directCallable(p);
  const whole = translate(p, float32, 0, p.code.length, lazy);
  if (whole === null) return null;
  if (whole.length <= MAX_SOURCE && !isMainChunk(p)) {
    const fn = instantiate(p, whole, rt);
    p.direct = lazy ? p.numparams : -1;
    return fn;
  }
  // too big for V8 to optimize as one function, or a main chunk: each outermost loop that fits becomes a function of
  // its own (a loop that does not fit, its inner loops), entered at the loop's back-edge target; the rest is
  // interpreted
  const parts: { from: number; to: number; fn: JitFn }[] = [];
  const place = (from: number, to: number): void => {
    const body = translate(p, float32, from, to, false);
    if (body === null) return;
    if (body.length <= MAX_SOURCE) {
      parts.push({ from, to, fn: instantiate(p, body, rt) });
      return;
    }
    for (const [f, t] of outermostLoops(p.code, from + 4, to)) place(f, t);
  };
  for (const [f, t] of outermostLoops(p.code, 0, p.code.length)) place(f, t);
  if (parts.length === 0) return null;
  return regionDispatch(parts);
}

/**
 * Whether `p` is a chunk's main function (vararg, defined at line 0), which runs once: its heat is its loops, so it is
 * compiled loop by loop whatever its size. Compiled whole, V8 optimizes it on stack at its first hot loop, and each
 * later loop's first run (new type feedback: a deoptimization) recompiles the whole chunk; a loop's own function is
 * small, optimized sooner and alone (coroutines program: -10 % CPU, mandelbrot -12 %, the rest unchanged).
 */
function isMainChunk(p: Proto): boolean {
  return p.isVararg && p.lineDefined === 0;
}

/**
 * The loops of `code` within [from, to) that no other loop there contains, as [first pc, end pc) ranges: from a
 * back-edge's target (the loop body's first instruction, where the interpreter enters the tier) to the end of the
 * back-edge instruction.
 */
function outermostLoops(code: Int32Array, from: number, to: number): [number, number][] {
  const loops: [number, number][] = [];
  for (let pc = from; pc < to && pc < code.length; pc += 4) {
    const op = code[pc]!;
    const t = op === Op.FORLOOP || op === Op.JMP ? code[pc + 2]! : op === Op.TFORLOOP_J ? code[pc + 3]! : -1;
    const size = op === Op.TFORLOOP_J ? 8 : 4;
    if (t >= from && t <= pc && pc + size <= to) loops.push([t, pc + size]);
  }
  loops.sort((x, y) => x[0] - y[0] || y[1] - x[1]);
  const outer: [number, number][] = [];
  for (const l of loops) {
    const last = outer[outer.length - 1];
    if (last !== undefined && l[0] < last[1]) {
      if (l[1] > last[1]) last[1] = l[1];
    } else outer.push(l);
  }
  return outer;
}

/**
 * One compiled function over several separately compiled regions of a function: a pc in a region runs that
 * region's code; any other pc is the interpreter's (returned at once, as compiled code returns a pc it leaves to
 * the interpreter).
 */
function regionDispatch(parts: { from: number; to: number; fn: JitFn }[]): JitFn {
  return (L, ci, base, pc, depth) => {
    for (let i = 0; i < parts.length; i++) {
      const r = parts[i]!;
      if (pc >= r.from && pc < r.to) return r.fn(L, ci, base, pc, depth);
    }
    ci.pc = pc;
    return pc;
  };
}

type Factory = (...a: unknown[]) => JitFn;
/**
 * Factories of compiled functions by their source, shared by every VM: the functions one factory makes share V8's
 * feedback and optimized code, so a function compiled again (the same script in a new VM) runs optimized code at once
 * instead of being profiled and optimized again.
 */
const factories = new Map<string, Factory>();
/** Characters of source the factory cache holds at most (about 16 MB as UTF-16). */
const MAX_FACTORY_CHARS = 8_000_000;
let factoryChars = 0;

/** The compiled function of generated source `body` (see {@link translate}). */
function instantiate(p: Proto, body: string, rt: JitRuntime): JitFn {
  let factory = factories.get(body);
  if (factory === undefined) {
    factory = new Function('LuaTable', 'HostFunction', 'LuaClosure', 'callHost', 'callLua', 'lazyFrame', 'toStr', 'kv', 'kn', 'k', 'ic', 'side', body) as (...a: unknown[]) => JitFn;
    factories.set(body, factory);
    factoryChars += body.length;
    // the oldest go first once the sources held pass the cap
    for (const old of factories.keys()) {
      if (factoryChars <= MAX_FACTORY_CHARS) break;
      factories.delete(old);
      factoryChars -= old.length;
    }
  }
  return factory(tableModule.LuaTable, valueModule.HostFunction, valueModule.LuaClosure, rt.callHost, callLuaFor(rt), lazyFrame, metaModule.toStringCoerce, p.kv, p.kn, p.k, p.ic, p.side);
}

/**
 * The JavaScript source of `p`'s instructions in [from, to) (the whole function: 0, `code.length`; a loop region: its
 * first pc, where compiled code is entered, to its end; every pc outside is left to the interpreter), or null when
 * nothing there can be translated.
 */
function translate(p: Proto, float32: boolean, from: number, to: number, lazy: boolean): string | null {
  const code = p.code;
  const end = code.length - 4;
  const flowAt = (pc: number): Flow | null => (pc < from || pc >= to ? null : flowOf(code, pc));
  // labels: entry, every jump target, every conditional fall-through; reachable translated code only
  const labels = new Set<number>([from]);
  const flows = new Map<number, Flow | null>();
  const seen = new Set<number>();
  const explore = (from: number): void => {
    const work = [from];
    while (work.length > 0) {
      const pc = work.pop()!;
      if (pc < 0 || pc >= end || seen.has(pc)) continue;
      seen.add(pc);
      const f = flowAt(pc);
      flows.set(pc, f);
      if (f === null) continue;
      for (const t of f.targets) {
        labels.add(t);
        work.push(t);
      }
      if (f.next >= 0) {
        if (f.branch) labels.add(f.next);
        work.push(f.next);
      }
    }
  };
  explore(from);
  // loop back-edge targets of code only the interpreter reaches are entries too (the interpreter enters there)
  for (let pc = from; pc < end && pc < to; pc += 4) {
    const op = code[pc]!;
    if (op === Op.FORLOOP || op === Op.JMP || op === Op.TFORLOOP_J) {
      const t = code[pc + (op === Op.TFORLOOP_J ? 3 : 2)]!;
      if (t <= pc && t >= from && t < end && !seen.has(t)) {
        labels.add(t);
        explore(t);
      }
    }
  }
  if (![...flows.values()].some((f) => f !== null)) return null;

  // blocks: from each label, straight-line until a label, a bail-out or a jump
  const starts = [...labels].filter((l) => l < end).sort((x, y) => x - y);
  const blocks = new Map<number, number[]>();
  for (const start of starts) {
    const block: number[] = [];
    let pc = start;
    for (;;) {
      block.push(pc);
      const f = flows.get(pc);
      if (f === null || f === undefined || f.next < 0 || f.next >= end || labels.has(f.next)) break;
      pc = f.next;
    }
    blocks.set(start, block);
  }

  // registers in locals, registers compiled code writes, registers closures of this function capture
  const used = new Set<number>();
  const written = new Set<number>();
  for (const [pc, f] of flows) {
    if (f === null) continue;
    const { reads, writes } = registersOf(code, pc);
    for (const r of reads) used.add(r);
    for (const r of writes) {
      used.add(r);
      written.add(r);
    }
  }
  const captured = new Set<number>();
  for (const s of p.side) {
    if (s.kind !== 'closure') continue;
    for (let i = 0; i < s.captureKind.length; i++) if (s.captureKind[i] === 1) captured.add(s.captureIndex[i]!);
  }
  // a lazy frame's parameters are in locals from its start: the interpreter may read them after it leaves
  if (lazy) for (let r = 0; r < p.numparams; r++) used.add(r);
  // registers outside the frame (bytecode the decoder let through): the interpreter runs the function
  if ([...used].some((r) => r < 0 || r >= p.frameSize)) return null;

  // registers known to be numbers at each block start (from the blocks that lead there; entry 0 knows nothing)
  const known = new Map<number, Set<number> | null>();
  for (const s of starts) known.set(s, null);
  known.set(from, new Set());
  const meet = (label: number, facts: Set<number>): boolean => {
    const old = known.get(label);
    if (old === undefined) return false;
    if (old === null) {
      known.set(label, new Set(facts));
      return true;
    }
    let changed = false;
    for (const r of [...old]) {
      if (!facts.has(r)) {
        old.delete(r);
        changed = true;
      }
    }
    return changed;
  };
  const work: number[] = [from];
  for (;;) {
    while (work.length > 0) {
      const s = work.pop()!;
      const facts = new Set(known.get(s)!);
      const block = blocks.get(s)!;
      for (let i = 0; i < block.length; i++) {
        const pc = block[i]!;
        const f = flows.get(pc)!;
        if (f === null) break;
        const jump = transfer(code, pc, facts, captured);
        for (const t of f.targets) if (meet(t, jump ?? facts)) work.push(t);
        if (i === block.length - 1 && f.next >= 0 && f.next < end && meet(f.next, facts)) work.push(f.next);
      }
    }
    // a block start no translated code leads to is entered from the interpreter only: it knows nothing
    const orphan = starts.find((s) => known.get(s) === null);
    if (orphan === undefined) break;
    known.set(orphan, new Set());
    work.push(orphan);
  }

  // registers compiled code may have changed since the register file last had them (a call writes these back)
  const dirtyAt = new Map<number, Set<number>>();
  for (const s of starts) dirtyAt.set(s, new Set());
  const dwork = [...starts];
  while (dwork.length > 0) {
    const s = dwork.pop()!;
    const dirty = new Set(dirtyAt.get(s)!);
    const block = blocks.get(s)!;
    for (let i = 0; i < block.length; i++) {
      const pc = block[i]!;
      const f = flows.get(pc)!;
      if (f === null) break;
      dirtyAfter(code, pc, dirty, used, captured);
      const succ = [...f.targets, ...(i === block.length - 1 && f.next >= 0 && f.next < end ? [f.next] : [])];
      for (const t of succ) {
        const d = dirtyAt.get(t);
        if (d === undefined) continue;
        const before = d.size;
        for (const r of dirty) d.add(r);
        if (d.size !== before) dwork.push(t);
      }
    }
  }

  const L = new Lower(p, float32, written, used, captured, end, lazy);
  const out: string[] = [];
  for (let li = 0; li < starts.length; li++) {
    const start = starts[li]!;
    const block = blocks.get(start)!;
    const len = block.length;
    const facts = new Set(known.get(start)!);
    const dirty = new Set(dirtyAt.get(start)!);
    out.push(`case ${start}: if (steps < ${len}) { out = ${start};${lazy ? ' quiet = true;' : ''} break run; } steps -= ${len};`);
    for (let i = 0; i < len; i++) {
      const pc = block[i]!;
      const f = flows.get(pc) ?? null;
      out.push(L.instruction(pc, len - i, f, facts, dirty));
      if (f !== null) {
        transfer(code, pc, facts, captured);
        dirtyAfter(code, pc, dirty, used, captured);
      }
    }
    const f = flows.get(block[len - 1]!);
    if (f !== null && f !== undefined && f.next >= 0) {
      // falls into the next case only when that is where control goes
      if (f.next !== starts[li + 1]) out.push(f.next >= end ? `out = ${f.next}; break run;` : `pc = ${f.next}; continue;`);
    }
  }
  const regs = [...used].sort((x, y) => x - y);
  const guards: string[] = [];
  for (const s of starts) {
    const facts = [...known.get(s)!].filter((r) => used.has(r));
    if (s !== 0 && facts.length > 0) guards.push(`case ${s}: if (${facts.map((r) => `v${r} !== 0`).join(' || ')}) { ci.pc = pc; return pc; } break;`);
  }
  const np = p.numparams;
  // a lazy frame (see directCallable): ci null, its closure, frame index and wanted results as parameters, then
  // its arguments (value slot and number each); its registers start as pushLuaFrame leaves them (nil past them)
  const params = lazy ? `, $cl, $cit, $nres, $steps${range(0, np).map((i) => `, $v${i}, $n${i}`).join('')}` : '';
  const eagerLoad = regs.map((r) => `v${r} = sv[base + ${r}]; n${r} = sn[base + ${r}];`).join(' ');
  const lazyLoad = regs.map((r) => (r < np ? `v${r} = $v${r}; n${r} = $n${r};` : `v${r} = undefined; n${r} = 0;`)).join(' ');
  const body = [
    `return function ${L.self}(L, ci, base, pc, depth${params}) {`,
    lazy
      ? 'const vm = L.vm; const sv = L.sv; let sn = L.sn; let cl, cit, steps; if (ci === null) { cl = $cl; cit = $cit; steps = $steps; } else { cl = ci.cl; cit = L.ciTop; steps = vm.steps; } let out = 0; let full = false; let quiet = false;'
      : 'const vm = L.vm; const sv = L.sv; let sn = L.sn; const cl = ci.cl; const cit = L.ciTop; let steps = vm.steps; let out = 0; let full = false;',
    regs.length > 0 ? `let ${regs.map((r) => `v${r}, n${r}`).join(', ')};` : '',
    lazy ? `if (ci === null) { ${lazyLoad} } else { ${eagerLoad} }` : eagerLoad,
    guards.length > 0 ? `if (pc !== 0) switch (pc) { ${guards.join(' ')} }` : '',
    'run: for (;;) { switch (pc) {',
    ...out,
    'default: out = pc; break run;',
    '} }',
    // a lazy frame leaving to the interpreter becomes a frame of its own, the top one (its callers follow)
    lazy ? `if (ci === null) { ${L.materialize(p.frameSize)} vm.steps = steps; lazyFrame(L, cit, cl, base, out, $nres, true, quiet); return ${JIT_FRAMES}; }` : '',
    // full: a call saw its frame written from outside (debug.setlocal) or a hook set; the register file is right
    `if (full) { ${L.reload} } ${L.spill} vm.steps = steps; ci.pc = out; return out;`,
    '};',
  ].join('\n');
  return body;
}

/** JavaScript for the instructions of one function (registers in locals, see {@link compileProto}). */
class Lower {
  readonly p: Proto;
  readonly code: Int32Array;
  readonly float32: boolean;
  readonly end: number;
  /** Writes every register compiled code writes back to the register file. */
  readonly spill: string;
  /** Reloads every register in a local from the register file. */
  readonly reload: string;
  readonly captured: Set<number>;
  readonly used: Set<number>;
  /** The function can run as a lazy frame (`ci` null: see {@link directCallable}). */
  readonly lazy: boolean;
  /** The name of the generated function (a self-recursive call calls it by name). */
  readonly self: string;
  constructor(p: Proto, float32: boolean, written: Set<number>, used: Set<number>, captured: Set<number>, end: number, lazy: boolean) {
    this.p = p;
    this.self = `jit_${p.path.replace(/[^A-Za-z0-9]/g, '_')}`;
    this.lazy = lazy;
    this.code = p.code;
    this.float32 = float32;
    this.end = end;
    this.captured = captured;
    this.used = used;
    this.spill = [...written].sort((x, y) => x - y).map((r) => `sv[base + ${r}] = v${r}; sn[base + ${r}] = n${r};`).join(' ');
    this.reload = [...used].sort((x, y) => x - y).map((r) => `v${r} = sv[base + ${r}]; n${r} = sn[base + ${r}];`).join(' ');
  }

  /**
   * Writes a lazy frame's registers below `n` to the register file as the interpreter would hold them (registers
   * compiled code never touched are nil, as pushLuaFrame leaves them).
   */
  materialize(n: number): string {
    const regs = [...this.used].filter((r) => r < n).sort((x, y) => x - y);
    return `for (let i = 0; i < ${n}; i++) sv[base + i] = undefined; ` + regs.map((r) => `sv[base + ${r}] = v${r}; sn[base + ${r}] = n${r};`).join(' ');
  }

  /** A number expression as the register file would hold it (float32 rounding in float mode). */
  fr(e: string): string {
    return this.float32 ? `Math.fround(${e})` : e;
  }

  /** The native value of register r. */
  val(r: number, known: Set<number>): string {
    return known.has(r) ? `n${r}` : `(v${r} === 0 ? n${r} : v${r})`;
  }

  /** Native value of an RK operand. */
  rk(x: number, known: Set<number>): string {
    if (x >= 0) return this.val(x, known);
    const v = this.p.k[~x];
    return typeof v === 'number' ? lit(v) : typeof v === 'string' ? JSON.stringify(v) : `k[${~x}]`;
  }

  /**
   * Reads number key `key` of table `t` into `v` (undefined when absent): the array part, else the hash part through
   * the entry the instruction at `pc` found last (its inline-cache slot, as the interpreter's GETTABLE uses it).
   */
  numberKeyGet(pc: number): string {
    const ic = pc >> 2;
    return `const ar = t.arr; const i = key - 1; if (i >= 0 && i < ar.length && (i | 0) === i) v = ar[i]; ` +
      `else { const g = ic[${ic}]; if (g < t.hused && t.hk[g] === key) v = t.hv[g]; else { const e = t.entryOf(key); if (e >= 0) { ic[${ic}] = e; v = t.hv[e]; } } }`;
  }

  /** Stores native value expression `e` (evaluated once) into register r. */
  store(r: number, e: string): string {
    return `{ const x = ${e}; if (typeof x === 'number') { n${r} = ${this.fr('x')}; v${r} = 0; } else v${r} = x; }`;
  }

  /** JavaScript for the instruction at `pc`; `r` = instructions of its block from this one on (for refunds). */
  instruction(pc: number, r: number, flow: Flow | null, known: Set<number>, dirty: Set<number>): string {
    const { code, p, end } = this;
    const bail = `{ out = ${pc}; steps += ${r}; break run; }`;
    // a bail-out for the budget or a collector step: it says nothing about how the function runs (see lazyFrame)
    const quietBail = this.lazy ? `{ out = ${pc}; steps += ${r}; quiet = true; break run; }` : bail;
    // an allocation's charge to the collector emulation: the allocation that starts a cycle runs it in place when it
    // has nothing to collect that a script could see (gc.quietCycle), else leaves for the interpreter to run it
    const charge = (size: string): string => `if (vm.gcAllocated + ${size} > vm.gcThreshold) { if (!vm.gc.quietCycle()) ${quietBail} } else vm.gcAllocated += ${size};`;
    if (flow === null) return `out = ${pc}; steps += ${r}; break run;`;
    // before anything that may raise an error or run other code: the frame as the interpreter would have it
    // (a lazy frame has no frame for an error or a host function to see: it leaves to the interpreter instead)
    const sync = `${this.lazy ? `if (ci === null) ${bail} ` : ''}${this.spill} ci.pc = ${pc}; vm.steps = steps + ${r - 1};`;
    const lazyBail = this.lazy ? `if (ci === null) ${bail} ` : '';
    // a new key of a table without a metatable (after the caller's `if (exists) …`): with room in the hash part the
    // insert cannot raise or run anything (only a rehash can: the table limit), so no frame is written and a lazy
    // frame stays (a constructor's `{ left = f(), value = v }` has room for its fields)
    const newKey = (insert: string): string => `else if (t.hused < t.hcap) ${insert} else { ${sync} ${insert} }`;
    const op = code[pc]!;
    const a = code[pc + 1]!;
    const b = code[pc + 2]!;
    const c = code[pc + 3]!;
    const jump = (t: number): string => (t >= end ? `{ out = ${t}; break run; }` : `{ pc = ${t}; continue; }`);
    const isNum = (x: number): string => (known.has(x) ? 'true' : `v${x} === 0`);
    const truthy = (x: number): string => (known.has(x) ? 'true' : `(v${x} !== undefined && v${x} !== false)`);
    const ar = ARITH[op];
    if (ar !== undefined) {
      const checks: string[] = [];
      if (ar.b === 'r' && !known.has(b)) checks.push(`v${b} === 0`);
      if (ar.c === 'r' && !known.has(c)) checks.push(`v${c} === 0`);
      const x = ar.b === 'r' ? `n${b}` : lit(p.kn[b]!);
      const y = ar.c === 'r' ? `n${c}` : lit(p.kn[c]!);
      let e: string;
      if (ar.sym === '%') e = `${x} - Math.floor(${this.float32 ? `Math.fround(${x} / ${y})` : `${x} / ${y}`}) * ${y}`;
      else if (ar.sym === '^') e = `Math.pow(${x}, ${y})`;
      else e = `${x} ${ar.sym} ${y}`;
      const set = `n${a} = ${this.fr(e)}; v${a} = 0;`;
      return checks.length === 0 ? set : `if (${checks.join(' && ')}) { ${set} } else ${bail}`;
    }
    switch (op) {
      case Op.NOP:
        return '';
      case Op.MOVE:
        return a === b ? '' : `v${a} = v${b}; n${a} = n${b};`;
      case Op.LOADKN:
        return `n${a} = ${this.fr(lit(p.kn[b]!))}; v${a} = 0;`;
      case Op.LOADKV:
        return typeof p.k[b] === 'number' ? `n${a} = ${this.fr(lit(p.kn[b]!))}; v${a} = 0;` : `v${a} = kv[${b}];`;
      case Op.LOADNIL:
        return range(a, b - a + 1).map((x) => `v${x} = undefined;`).join(' ');
      case Op.LOADBOOL:
        return `v${a} = ${b === 1};` + (c === pc + 4 ? '' : jump(c));
      case Op.NOT:
        return `v${a} = !${truthy(b)};`;
      case Op.LEN:
        return `{ const x = v${b}; if (${isInstance('x', 'LuaTable')}) n${a} = ${this.fr('x.length()')}; else if (typeof x === 'string') n${a} = ${this.fr('x.length')}; else ${bail} v${a} = 0; }`;
      case Op.GETUPVAL:
        return `{ const u = cl.up[${b}]; const t = u.thread; if (t === null) ${this.store(a, 'u.v')} else { v${a} = t.sv[u.idx]; n${a} = t.sn[u.idx]; } }`;
      case Op.SETUPVAL:
        return `{ const u = cl.up[${b}]; const t = u.thread; if (t === null) u.v = ${this.val(a, known)}; else { t.sv[u.idx] = v${a}; t.sn[u.idx] = n${a}; } }`;
      case Op.GETGLOBAL: {
        if (typeof p.k[b] !== 'string') return bail;
        const key = JSON.stringify(p.k[b]);
        const ic = pc >> 2;
        return `{ const env = cl.env; const g = ic[${ic}]; let v; if (g < env.hused && env.hk[g] === ${key}) v = env.hv[g]; else { const e = env.entryOf(${key}); if (e >= 0) { ic[${ic}] = e; v = env.hv[e]; } } if (v === undefined && env.metatable !== null) ${bail} ${this.store(a, 'v')} }`;
      }
      case Op.SETGLOBAL: {
        if (typeof p.k[b] !== 'string') return bail;
        const key = JSON.stringify(p.k[b]);
        const ic = pc >> 2;
        return `{ const env = cl.env; if (env.metatable !== null) ${bail} const v = ${this.val(a, known)}; const g = ic[${ic}]; if (g < env.hused && env.hk[g] === ${key}) env.hv[g] = v; else { const e = env.entryOf(${key}); if (e >= 0) { ic[${ic}] = e; env.hv[e] = v; } else { ${sync} env.setStr(${key}, v); } } }`;
      }
      case Op.GETFIELD: {
        const key = JSON.stringify(p.k[c]);
        const ic = pc >> 2;
        return `{ const t = v${b}; if (!(${isInstance('t', 'LuaTable')})) ${bail} const g = ic[${ic}]; let v; if (g < t.hused && t.hk[g] === ${key}) v = t.hv[g]; else { const e = t.entryOf(${key}); if (e >= 0) { ic[${ic}] = e; v = t.hv[e]; } } if (v === undefined && t.metatable !== null) ${bail} ${this.store(a, 'v')} }`;
      }
      case Op.GETTABLE: {
        const numKey = c >= 0 ? known.has(c) : typeof p.k[~c] === 'number';
        const get = numKey ? this.numberKeyGet(pc) : `if (typeof key === 'number') { ${this.numberKeyGet(pc)} } else v = t.get(key);`;
        return `{ const t = v${b}; if (!(${isInstance('t', 'LuaTable')})) ${bail} const key = ${this.rk(c, known)}; let v; ${get} if (v === undefined && t.metatable !== null) ${bail} ${this.store(a, 'v')} }`;
      }
      case Op.SETFIELD: {
        const key = JSON.stringify(p.k[b]);
        const ic = pc >> 2;
        return `{ const t = v${a}; if (!(${isInstance('t', 'LuaTable')}) || t.metatable !== null) ${bail} const v = ${this.rk(c, known)}; const g = ic[${ic}]; if (g < t.hused && t.hk[g] === ${key}) t.hv[g] = v; else { const e = t.entryOf(${key}); if (e >= 0) { ic[${ic}] = e; t.hv[e] = v; } ${newKey(`t.setStr(${key}, v);`)} } }`;
      }
      case Op.SETTABLE: {
        const numKey = b >= 0 ? known.has(b) : typeof p.k[~b] === 'number';
        // a number key of the hash part: an existing entry (the one this instruction found last) takes the value in
        // place, as the interpreter's SETTABLE does; a new key is inserted with the frame written (it may raise)
        const ic = pc >> 2;
        const hash = `{ const g = ic[${ic}]; if (g < t.hused && t.hk[g] === key) t.hv[g] = v; ` +
          `else if (key === key) { ${sync} t.set(key, v); const e = t.entryOf(key); if (e >= 0) ic[${ic}] = e; } else ${bail} }`;
        const arr = `{ const ar = t.arr; const i = key - 1; if (i >= 0 && i < ar.length && (i | 0) === i) ar[i] = v; else ${hash} }`;
        return `{ const t = v${a}; if (!(${isInstance('t', 'LuaTable')}) || t.metatable !== null) ${bail} const key = ${this.rk(b, known)}; const v = ${this.rk(c, known)}; ` +
          (numKey ? arr : `if (typeof key === 'number') ${arr} else if (key !== undefined) { const e = t.entryOf(key); if (e >= 0) t.hv[e] = v; ${newKey('t.set(key, v);')} } else ${bail}`) + ' }';
      }
      case Op.SELF:
        return `{ const obj = ${this.val(b, known)}; const key = ${this.rk(c, known)}; let v; ` +
          `if (${isInstance('obj', 'LuaTable')}) { v = obj.get(key); if (v === undefined && obj.metatable !== null) ${bail} } ` +
          `else if (typeof obj === 'string' && vm.stringIndex !== null && typeof key === 'string') { v = vm.stringIndex.getStr(key); if (v === undefined) ${bail} } else ${bail} ` +
          `v${a + 1} = v${b}; n${a + 1} = n${b}; ${this.store(a, 'v')} }`;
      case Op.CONCAT: {
        const regs = range(b, c - b + 1);
        const ok = regs.map((x) => (known.has(x) ? 'true' : `(typeof v${x} === 'string' || v${x} === 0)`)).join(' && ');
        const parts = regs.map((x) => (known.has(x) ? `toStr(n${x})` : `(v${x} === 0 ? toStr(n${x}) : v${x})`)).join(' + ');
        return `if (${ok}) { const s = ${parts}; const size = 24 + s.length; if (s.length > vm.limits.maxStringLength) ${quietBail} ${charge('size')} v${b} = s; v${a} = s; } else ${bail}`;
      }
      case Op.UNM:
        return known.has(b) ? `n${a} = -n${b}; v${a} = 0;` : `if (v${b} === 0) { n${a} = -n${b}; v${a} = 0; } else ${bail}`;
      case Op.JMP:
        return jump(b);
      case Op.FORPREP: {
        const check = [a, a + 1, a + 2].filter((x) => !known.has(x)).map((x) => `v${x} !== 0`);
        return `${check.length > 0 ? `if (${check.join(' || ')}) ${bail} ` : ''}n${a} = ${this.fr(`n${a} - n${a + 2}`)}; ${jump(b)}`;
      }
      case Op.FORLOOP:
        return `n${a} = ${this.fr(`n${a} + n${a + 2}`)}; if (0 < n${a + 2} ? n${a} <= n${a + 1} : n${a + 1} <= n${a}) { n${a + 3} = n${a}; v${a + 3} = 0; ${jump(b)} }`;
      case Op.TEST_J:
        return `if (${truthy(a)} === ${b === 1}) ${jump(c)}`;
      case Op.TESTSET_J:
        return `if (${truthy(b)} === ${(c & 1) === 1}) { v${a} = v${b}; n${a} = n${b}; ${jump(c & ~3)} }`;
      case Op.EQ_RR_J:
        if (known.has(a) && known.has(b)) return `if ((n${a} === n${b}) === ${(c & 1) === 1}) ${jump(c & ~3)}`;
        return `{ const x = v${a}; const y = v${b}; let eq; if (x === 0) eq = y === 0 && n${a} === n${b}; else if (x === y) eq = true; else if (typeof x === 'object' && typeof y === 'object') ${bail} else eq = false; if (eq === ${(c & 1) === 1}) ${jump(c & ~3)} }`;
      case Op.EQ_RK_J: {
        const kc = ~b;
        const eq = typeof p.k[kc] === 'number' ? (known.has(a) ? `n${a} === ${lit(p.kn[kc]!)}` : `(v${a} === 0 && n${a} === ${lit(p.kn[kc]!)})`) : `v${a} === kv[${kc}]`;
        return `if ((${eq}) === ${(c & 1) === 1}) ${jump(c & ~3)}`;
      }
      case Op.LT_RR_J: case Op.LE_RR_J: {
        const cmp = op === Op.LT_RR_J ? '<' : '<=';
        const test = `if ((n${a} ${cmp} n${b}) === ${(c & 1) === 1}) ${jump(c & ~3)}`;
        return known.has(a) && known.has(b) ? test : `if (${isNum(a)} && ${isNum(b)}) { ${test} } else ${bail}`;
      }
      case Op.LT_RK_J: case Op.LE_RK_J: {
        const cmp = op === Op.LT_RK_J ? '<' : '<=';
        const test = `if ((n${a} ${cmp} ${lit(p.kn[b]!)}) === ${(c & 1) === 1}) ${jump(c & ~3)}`;
        return known.has(a) ? test : `if (v${a} === 0) { ${test} } else ${bail}`;
      }
      case Op.LT_KR_J: case Op.LE_KR_J: {
        const cmp = op === Op.LT_KR_J ? '<' : '<=';
        const test = `if ((${lit(p.kn[a]!)} ${cmp} n${b}) === ${(c & 1) === 1}) ${jump(c & ~3)}`;
        return known.has(b) ? test : `if (v${b} === 0) { ${test} } else ${bail}`;
      }
      case Op.NEWTABLE: {
        const size = 64 + 24 * (b + c);
        return `if (${b + c} > vm.limits.maxTableEntries || vm.gcAllocated + ${size} > vm.gcThreshold) ${quietBail} vm.gcAllocated += ${size}; v${a} = new LuaTable(${b}, ${c}, vm.limits.maxTableEntries);`;
      }
      case Op.SETLIST: case Op.SETLIST_X: {
        const first = (c - 1) * 50;
        // the array part grows to the list's end as the interpreter grows it (`{ f(), g() }` sizes it for one); a size
        // over the table limit is the interpreter's error
        const grow = (size: string): string => `if (${size} > t.arr.length) { if (${size} + t.hcap > t.maxEntries) ${bail} t.resizeArray(${size}); }`;
        if (b !== 0) {
          const sets = range(1, b).map((i) => `ar[${first + i - 1}] = ${this.val(a + i, known)};`).join(' ');
          return `{ const t = v${a}; if (!(${isInstance('t', 'LuaTable')})) ${bail} ${grow(`${first + b}`)} const ar = t.arr; ${sets} }`;
        }
        return `{ const t = v${a}; const ra = base + ${a}; const n = L.top - ra - 1; if (!(${isInstance('t', 'LuaTable')})) ${bail} ${grow(`${first} + n`)} ${this.spill} const ar = t.arr; ` +
          `for (let i = 1; i <= n; i++) { const x = sv[ra + i]; ar[${first} + i - 1] = x === 0 ? sn[ra + i] : x; } }`;
      }
      case Op.CLOSE:
        return `if (L.openUp !== null && L.openUp.idx >= base + ${a}) { ${this.spill} L.closeUpvals(base + ${a}); }`;
      case Op.CLOSURE: {
        const s = p.side[b] as ClosureSide;
        const nu = s.proto.nups;
        const ups = range(0, nu).map((i) => (s.captureKind[i] === 1 ? `L.findUpval(base + ${s.captureIndex[i]!})` : `cl.up[${s.captureIndex[i]!}]`));
        return `if (vm.gcAllocated + ${40 + 8 * nu} > vm.gcThreshold) ${quietBail} vm.gcAllocated += ${40 + 8 * nu}; v${a} = new LuaClosure(side[${b}].proto, [${ups.join(', ')}], cl.env);`;
      }
      case Op.VARARG: {
        const np = p.numparams;
        if (b !== 0) {
          const sets = range(0, b - 1).map((i) => `if (${i} < nvar) { v${a + i} = sv[from + ${i}]; n${a + i} = sn[from + ${i}]; } else v${a + i} = undefined;`).join(' ');
          return `{ const nvar = base - ci.func - 1 - ${np}; const from = base - nvar; ${sets} }`;
        }
        return `{ ${sync} const nvar = base - ci.func - 1 - ${np}; const from = base - nvar; const ra = base + ${a}; L.ensure(ra + nvar + 1); sn = L.sn; ` +
          `for (let i = 0; i < nvar; i++) { sv[ra + i] = sv[from + i]; sn[ra + i] = sn[from + i]; } L.top = ra + nvar; ${this.reload} }`;
      }
      case Op.CALL: case Op.TAILCALL: {
        // a host function is called here; a Lua function gets its frame and, once hot, its compiled code is called as
        // a JavaScript function (up to MAX_NESTED deep); otherwise the interpreter runs it. A tail call of a host
        // function is a call with all its results (the RETURN after it returns them); of a Lua function, the
        // interpreter replaces the frame
        const tail = op === Op.TAILCALL;
        const c = tail ? 0 : code[pc + 3]!;
        const nargs = b !== 0 ? `${b - 1}` : `L.top - ra - 1`;
        const fill = c !== 0 ? `for (let i = n; i < ${c - 1}; i++) sv[ra + i] = undefined;` : 'L.top = ra + n;';
        // the call writes back the registers changed since the last call and reloads the ones it may change: from
        // its function up, and those closures capture; debug.setlocal (vm.frameWrites) makes it reload them all
        const spill = [...dirty].sort((x, y) => x - y).map((x) => `sv[base + ${x}] = v${x}; sn[base + ${x}] = n${x};`).join(' ');
        const sync = `${spill} ci.pc = ${pc}; vm.steps = steps + ${r - 1};`;
        const reload = [...this.used].filter((x) => x >= a || this.captured.has(x)).sort((x, y) => x - y).map((x) => `v${x} = sv[base + ${x}]; n${x} = sn[base + ${x}];`).join(' ');
        const after = `${reload} steps = vm.steps; if (steps < ${r - 1} || L.hookMask !== 0 || vm.frameWrites !== fw) { full = true; out = ${pc + 4}; break run; } steps -= ${r - 1};`;
        const eager = `{ ${lazyBail}const fw = vm.frameWrites; ${sync} ` +
          `if (${isInstance('f', 'HostFunction')}) { const n = callHost(L, f, ra, ${nargs}, ${c - 1}); if (n < 0) return ${JIT_YIELD}; sn = L.sn; ${fill} } ` +
          (tail ? '' : `else if (${isInstance('f', 'LuaClosure')}) { const x = callLua(L, f, ra, ${nargs}, ${c - 1}, depth); if (x !== ${JIT_RETURNED}) return x; sn = L.sn; } `) +
          `else ${bail} ${after} }`;
        // before a call made in place, an eager frame writes back what a callee may read through an upvalue
        // (what changed below the call's function is written when a direct callee leaves, see dirtyAfter)
        const before = [...dirty].filter((x) => this.captured.has(x)).sort((x, y) => x - y).map((x) => `sv[base + ${x}] = v${x}; sn[base + ${x}] = n${x};`).join(' ');
        let inPlace = '';
        let numeric = '';
        let selfCall = '';
        if (intrinsicCall(code, pc)) {
          // a host function of one number (math.sqrt…: HostFunction.numeric) computed in place
          // (its result stays in a local: such a call leaves the registers changed so far changed, see dirtyAfter)
          const x = a + 1;
          numeric = `if (${isInstance('f', 'HostFunction')} && f.numeric !== null${known.has(x) ? '' : ` && v${x} === 0`}) { ${before} n${a} = ${this.fr(`f.numeric(n${x})`)}; v${a} = 0; } else `;
        }
        if (!tail && b !== 0 && b - 1 <= MAX_DIRECT_ARGS) {
          // a direct call (see directCallable): the callee runs as a lazy frame, its arguments and results passed in
          // JavaScript; when it leaves to the interpreter, this frame becomes one too (a lazy one writes its registers
          // below the callee's; an eager one has written what changed) and leaves as well
          const args = range(a + 1, b - 1).map((x) => `, v${x}, n${x}`).join('');
          const results = c === 0 ? [...this.used].filter((x) => x >= a) : range(a, c - 1).filter((x) => this.used.has(x));
          const load = results.map((x) => `v${x} = sv[base + ${x}]; n${x} = sn[base + ${x}];`).join(' ');
          const below = [...dirty].filter((x) => x <= a && !this.captured.has(x)).sort((x, y) => x - y).map((x) => `sv[base + ${x}] = v${x}; sn[base + ${x}] = n${x};`).join(' ');
          const leave = this.lazy ? `if (ci === null) { ${this.materialize(a + 1)} lazyFrame(L, cit, cl, base, ${pc}, $nres, false, true); } else { ${below} ci.pc = ${pc}; } ` : `${below} ci.pc = ${pc}; `;
          // and reloads what closures capture after it (the callee may have assigned it)
          const captured = [...this.captured].filter((x) => x < a && this.used.has(x)).map((x) => `v${x} = sv[base + ${x}]; n${x} = sn[base + ${x}];`).join(' ');
          // the callee returns the budget countdown it leaves (a lazy frame's `steps`, never negative) or JIT_FRAMES
          const room = `depth < ${MAX_NESTED} && cit + 1 < L.cis.length`;
          const callArgs = `(L, null, ra + 1, 0, depth + 1, f, cit + 1, ${c - 1}, steps + ${r - 1}${args})`;
          const direct = `{ ${before} const x = CALLEE${callArgs}; ` +
            `if (x < 0) { ${leave}return ${JIT_FRAMES}; } ` +
            `${load} ${captured} steps = x; if (steps < ${r - 1}) { out = ${pc + 4};${this.lazy ? ' quiet = true;' : ''} break run; } steps -= ${r - 1}; } else `;
          // a self-recursive call (the closure running this frame) calls this function by name: V8 knows the target
          if (this.lazy && b - 1 === p.numparams) {
            selfCall = `if (f === cl && cl.p.direct === ${b - 1} && ${room} && ra + 1 + ${p.frameSize} <= sv.length) ${direct.replace('CALLEE', this.self)}`;
          }
          inPlace += `if (${isInstance('f', 'LuaClosure')} && f.p.direct === ${b - 1} && ${room} && ra + 1 + f.p.frameSize <= sv.length) ${direct.replace('CALLEE', 'f.p.jit')}`;
        }
        return `{ const ra = base + ${a}; const f = v${a}; ${selfCall}${inPlace}${numeric}${eager} }`;
      }
      case Op.TFORLOOP_J: case Op.TFORLOOP_S: {
        // the generic for: next and ipairs' iterator inline (as the interpreter does them), any other function called
        // as CALL calls it, with the iterator's slots cb.. as the call's
        const cb = a + 3;
        const nres = b;
        const target = op === Op.TFORLOOP_J ? c : pc + 4;
        const fill = range(2, nres - 2).map((i) => `v${cb + i} = undefined;`).join(' ');
        const spill = [...new Set([...dirty, cb, cb + 1, cb + 2])].sort((x, y) => x - y).map((x) => `sv[base + ${x}] = v${x}; sn[base + ${x}] = n${x};`).join(' ');
        const reload = [...this.used].filter((x) => x >= cb || this.captured.has(x)).sort((x, y) => x - y).map((x) => `v${x} = sv[base + ${x}]; n${x} = sn[base + ${x}];`).join(' ');
        const call = `{ ${lazyBail}${spill} ci.pc = ${pc}; vm.steps = steps; const ra = base + ${cb}; const fw = vm.frameWrites; L.top = ra + 3; ` +
          `if (${isInstance('f', 'HostFunction')}) { const n = callHost(L, f, ra, 2, ${nres}); if (n < 0) return ${JIT_YIELD}; sn = L.sn; for (let i = n; i < ${nres}; i++) sv[ra + i] = undefined; } ` +
          `else { const x = callLua(L, f, ra, 2, ${nres}, depth); if (x !== ${JIT_RETURNED}) return x; sn = L.sn; } ` +
          `${reload} steps = vm.steps; if (L.hookMask !== 0 || vm.frameWrites !== fw) { ${this.reload} leave = true; } }`;
        return `{ let leave = false; v${cb} = v${a}; n${cb} = n${a}; v${cb + 1} = v${a + 1}; n${cb + 1} = n${a + 1}; v${cb + 2} = v${a + 2}; n${cb + 2} = n${a + 2}; const f = v${cb}; ` +
          `if (f === vm.nextFn && ${isInstance(`v${cb + 1}`, 'LuaTable')}) { const r = v${cb + 1}.next(${this.val(cb + 2, new Set())}, vm.nextOut); if (r === undefined) ${bail} ` +
          `if (r) { ${this.store(cb, 'vm.nextOut.k')} ${nres > 1 ? this.store(cb + 1, 'vm.nextOut.v') : ''} ${fill} } else v${cb} = undefined; } ` +
          `else if (f === vm.ipairsAux && ${isInstance(`v${cb + 1}`, 'LuaTable')} && v${cb + 2} === 0) { const i = ${this.fr(`n${cb + 2} + 1`)}; const v = v${cb + 1}.getInt(i); ` +
          `if (v === undefined) v${cb} = undefined; else { n${cb} = i; v${cb} = 0; ${nres > 1 ? this.store(cb + 1, 'v') : ''} ${fill} } } ` +
          `else if (${isInstance('f', 'HostFunction')} || ${isInstance('f', 'LuaClosure')}) ${call} else ${bail} ` +
          `if (v${cb} !== undefined) { v${cb - 1} = v${cb}; n${cb - 1} = n${cb}; if (leave) { out = ${target}; break run; } ${jump(target)} } else if (leave) { out = ${pc + 8}; break run; } }`;
      }
      case Op.RETURN: {
        // an entry frame (called from a host function or the host) returns through the interpreter, as do hooks
        const close = `if (L.openUp !== null && L.openUp.idx >= base) { ${this.spill} L.closeUpvals(base); }`;
        // a lazy frame returns its results where its caller's function was (no frame to pop, no upvalue into it)
        const head = this.lazy
          ? `let dst, want; if (ci === null) { dst = base - 1; want = $nres; } else { if (ci.entry || L.hookMask !== 0) ${bail} ${close} dst = ci.func; want = ci.nresults; }`
          : `if (ci.entry || L.hookMask !== 0) ${bail} ${close} const dst = ci.func; const want = ci.nresults;`;
        // a lazy frame returns the budget countdown to its caller (see the direct call); an eager one pops its frame
        const tail = `${this.lazy ? `if (ci === null) return steps + ${r - 1}; ` : ''}L.ciTop--; vm.steps = steps + ${r - 1}; return ${JIT_RETURNED};`;
        if (b === 0) {
          return `{ ${head} ${this.spill} const ra = base + ${a}; const n = L.top - ra; ` +
            `if (want < 0) { for (let i = 0; i < n; i++) { sv[dst + i] = sv[ra + i]; sn[dst + i] = sn[ra + i]; } L.top = dst + n; } ` +
            `else { const m = n < want ? n : want; for (let i = 0; i < m; i++) { sv[dst + i] = sv[ra + i]; sn[dst + i] = sn[ra + i]; } for (let i = m; i < want; i++) sv[dst + i] = undefined; } ${tail} }`;
        }
        const n = b - 1;
        const all = range(0, n).map((i) => `sv[dst + ${i}] = v${a + i}; sn[dst + ${i}] = n${a + i};`).join(' ');
        const some = range(0, n).map((i) => `if (${i} < want) { sv[dst + ${i}] = v${a + i}; sn[dst + ${i}] = n${a + i}; }`).join(' ');
        return `{ ${head} if (want === ${n}) { ${all} } else if (want < 0) { ${all} L.top = dst + ${n}; } else { ${some} for (let i = ${n}; i < want; i++) sv[dst + i] = undefined; } ${tail} }`;
      }
      default:
        return bail;
    }
  }
}
