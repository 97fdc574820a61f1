/**
 * The JavaScript tier: a hot function's pre-decoded code translated to JavaScript source (`new Function`) so that V8
 * compiles it — operands become literals, straight-line runs of instructions lose the dispatch, and the number paths
 * are JavaScript arithmetic on the same register file the interpreter uses.
 *
 * The translation covers the instructions whose common case is simple (moves, constants, upvalues, number
 * arithmetic and comparisons, tests, jumps, numeric for loops, table fields and indexes without metatables, calls and
 * returns). Everything else — and every uncommon case of a covered instruction (a non-number operand, a metatable,
 * a tail call, an entry frame's return) — *bails out*: the compiled function saves the instruction's pc in its frame
 * and returns, and the interpreter runs it. Since both tiers share the registers, the frames and the saved pcs, a
 * bail-out is exact: compiled code never raises an error and never calls a metamethod; the interpreter does all of
 * that, with its own messages, hooks and traceback. A compiled call of a Lua function pushes the callee's frame as
 * the interpreter does and calls the callee's compiled code as a JavaScript function (at most MAX_NESTED deep); when
 * the callee bails out or yields, every compiled caller returns at once, each frame's pc saved at its call, and the
 * interpreter continues the top frame.
 *
 * Budget: the interpreter counts one step per instruction. Compiled code charges a whole straight-line block at its
 * start; when fewer steps remain than the block needs it bails out at the block's start and the interpreter counts
 * the rest one by one (its budget error, count hooks and collector steps come out exactly as without the tier). A
 * bail-out in the middle of a block refunds what the block did not run. Compiled code is only entered while no
 * debug hook is set.
 *
 * Entry points: the interpreter enters a function's compiled code at its first instruction (a call) and at the
 * targets of loop back-edges, which are block starts here; any other pc is left to the interpreter.
 *
 * Off where `new Function` is unavailable (a Content-Security-Policy without `unsafe-eval`): {@link jitAvailable}.
 */
import * as tableModule from './table.ts';
import * as valueModule from './value.ts';
import * as protoModule from './proto.ts';
import type { callHost } from './interp.ts';
import type { LuaThread, CallInfo } from './thread.ts';
import type { Proto } from './proto.ts';

/**
 * A compiled function: runs frame `ci` from `pc` (a block start). Returns the pc where the interpreter takes over
 * in this same frame (also saved in `ci.pc`), {@link JIT_YIELD} when a host function it called yielded,
 * {@link JIT_FRAMES} when it called a Lua function that left its frame (or a deeper one) to the interpreter — the
 * top frame's `ci.pc` says where — or {@link JIT_RETURNED} when it returned (its frame is popped, the results are
 * in place). `vm.steps` is up to date on return. `depth`: compiled calls nested in JavaScript so far.
 */
export type JitFn = (L: LuaThread, ci: CallInfo, base: number, pc: number, depth: number) => number;

export const JIT_YIELD = -1;
export const JIT_FRAMES = -2;
export const JIT_RETURNED = -3;
/** Compiled Lua-to-Lua calls nest as JavaScript calls up to this depth; deeper ones go through the interpreter. */
const MAX_NESTED = 100;

/** The interpreter's side of the tier: frames, host calls, and the compiled form of a callee when it is hot. */
export interface JitRuntime {
  callHost: typeof callHost;
  pushLuaFrame: (L: LuaThread, cl: InstanceType<typeof valueModule.LuaClosure>, fi: number, nargs: number, nres: number) => CallInfo;
  /** The callee's compiled code, compiling it when it has become hot; null: let the interpreter run it. */
  jitOf: (L: LuaThread, p: Proto) => JitFn | null;
}

const { Op } = protoModule;

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
  /** Whether `next` is a conditional fall-through (so it starts a block). */
  branch: boolean;
}

/** Control flow of the instruction at `pc`, or null when the tier does not translate it (a bail-out). */
function flowOf(code: Int32Array, pc: number): Flow | null {
  const op = code[pc]!;
  switch (op) {
    case Op.MOVE: case Op.LOADKN: case Op.LOADKV: case Op.LOADNIL: case Op.GETUPVAL: case Op.SETUPVAL:
    case Op.SETFIELD: case Op.SETTABLE: case Op.CALL:
    case Op.ADD_RR: case Op.ADD_RK: case Op.ADD_KR: case Op.SUB_RR: case Op.SUB_RK: case Op.SUB_KR:
    case Op.MUL_RR: case Op.MUL_RK: case Op.MUL_KR: case Op.DIV_RR: case Op.DIV_RK: case Op.DIV_KR:
    case Op.MOD_RR: case Op.MOD_RK: case Op.MOD_KR: case Op.POW_RR: case Op.POW_RK: case Op.POW_KR:
    case Op.UNM: case Op.NOP:
      return { next: pc + 4, targets: [], branch: false };
    case Op.GETFIELD: case Op.GETTABLE:
      return { next: pc + 12, targets: [], branch: false };
    case Op.GETGLOBAL:
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

/**
 * Translates `p` to JavaScript; returns the compiled function (or null when nothing in it can be translated).
 * `float32`: the VM's number mode (MOD rounds its quotient to float32 as the interpreter does).
 */
export function compileProto(p: Proto, float32: boolean, rt: JitRuntime): JitFn | null {
  const code = p.code;
  const end = code.length - 4;
  // labels: entry, every jump target, every conditional fall-through; reachable translated code only
  const labels = new Set<number>([0]);
  const flows = new Map<number, Flow | null>();
  const work = [0];
  const seen = new Set<number>();
  while (work.length > 0) {
    const pc = work.pop()!;
    if (pc < 0 || pc >= end || seen.has(pc)) continue;
    seen.add(pc);
    const f = flowOf(code, pc);
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
  // loop back-edge targets of code only the interpreter reaches are entries too (the interpreter enters there)
  for (let pc = 0; pc < end; pc += 4) {
    const op = code[pc]!;
    if (op === Op.FORLOOP || op === Op.JMP) {
      const t = code[pc + 2]!;
      if (t <= pc && t >= 0 && t < end && !seen.has(t)) {
        labels.add(t);
        work.push(t);
        while (work.length > 0) {
          const q = work.pop()!;
          if (q < 0 || q >= end || seen.has(q)) continue;
          seen.add(q);
          const f = flowOf(code, q);
          flows.set(q, f);
          if (f === null) continue;
          for (const x of f.targets) {
            labels.add(x);
            work.push(x);
          }
          if (f.next >= 0) {
            if (f.branch) labels.add(f.next);
            work.push(f.next);
          }
        }
      }
    }
  }
  if (![...flows.values()].some((f) => f !== null)) return null;

  // blocks: from each label, straight-line until a label, a bail-out or a jump
  const out: string[] = [];
  const starts = [...labels].filter((l) => l < end).sort((x, y) => x - y);
  for (let li = 0; li < starts.length; li++) {
    const start = starts[li]!;
    const block: number[] = [];
    let pc = start;
    for (;;) {
      block.push(pc);
      const f = flows.get(pc);
      if (f === null || f === undefined || f.next < 0 || f.next >= end || labels.has(f.next)) break;
      pc = f.next;
    }
    const len = block.length;
    out.push(`case ${start}: if (steps < ${len}) { vm.steps = steps; ci.pc = ${start}; return ${start}; } steps -= ${len};`);
    for (let i = 0; i < len; i++) out.push(instruction(code, block[i]!, p, len - i, float32, flows.get(block[i]!) ?? null, end));
    const f = flows.get(block[len - 1]!);
    if (f !== null && f !== undefined && f.next >= 0) {
      // falls into the next case only when that is where control goes
      if (f.next !== starts[li + 1]) out.push(f.next >= end ? `vm.steps = steps; ci.pc = ${f.next}; return ${f.next};` : `pc = ${f.next}; continue;`);
    }
  }
  const body = [
    'return function jitted(L, ci, base, pc, depth) {',
    'const vm = L.vm; const sv = L.sv; let sn = L.sn; const cl = ci.cl; let steps = vm.steps;',
    'for (;;) { switch (pc) {',
    ...out,
    'default: vm.steps = steps; ci.pc = pc; return pc;',
    '} }',
    '};',
  ].join('\n');
  const factory = new Function('LuaTable', 'HostFunction', 'LuaClosure', 'callHost', 'pushLuaFrame', 'jitOf', 'kv', 'kn', 'k', 'ic', body) as (...a: unknown[]) => JitFn;
  return factory(tableModule.LuaTable, valueModule.HostFunction, valueModule.LuaClosure, rt.callHost, rt.pushLuaFrame, rt.jitOf, p.kv, p.kn, p.k, p.ic);
}

/** JavaScript for one instruction; `r` = instructions of its block from this one on (for bail-out refunds). */
function instruction(code: Int32Array, pc: number, p: Proto, r: number, float32: boolean, flow: Flow | null, end: number): string {
  const bail = `{ vm.steps = steps + ${r}; ci.pc = ${pc}; return ${pc}; }`;
  if (flow === null) return `vm.steps = steps + ${r}; ci.pc = ${pc}; return ${pc};`;
  const op = code[pc]!;
  const a = code[pc + 1]!;
  const b = code[pc + 2]!;
  const c = code[pc + 3]!;
  const R = (x: number): string => `base + ${x}`;
  const jump = (t: number): string => (t >= end ? `{ vm.steps = steps; ci.pc = ${t}; return ${t}; }` : `{ pc = ${t}; continue; }`);
  const store = (dst: string, v: string): string => `if (typeof ${v} === 'number') { sn[${dst}] = ${v}; sv[${dst}] = 0; } else sv[${dst}] = ${v};`;
  const rk = (x: number, name: string): string =>
    x >= 0 ? `const ${name}x = sv[${R(x)}]; const ${name} = ${name}x === 0 ? sn[${R(x)}] : ${name}x;` : `const ${name} = k[${~x}];`;
  const ar = ARITH[op];
  if (ar !== undefined) {
    const checks: string[] = [];
    if (ar.b === 'r') checks.push(`sv[${R(b)}] === 0`);
    if (ar.c === 'r') checks.push(`sv[${R(c)}] === 0`);
    const x = ar.b === 'r' ? `sn[${R(b)}]` : `kn[${b}]`;
    const y = ar.c === 'r' ? `sn[${R(c)}]` : `kn[${c}]`;
    let e: string;
    if (ar.sym === '%') e = `const q = ${float32 ? 'Math.fround(x / y)' : 'x / y'}; sn[${R(a)}] = x - Math.floor(q) * y;`;
    else if (ar.sym === '^') e = `sn[${R(a)}] = Math.pow(x, y);`;
    else e = `sn[${R(a)}] = x ${ar.sym} y;`;
    return `if (${checks.join(' && ')}) { const x = ${x}, y = ${y}; ${e} sv[${R(a)}] = 0; } else ${bail}`;
  }
  switch (op) {
    case Op.NOP:
      return '';
    case Op.MOVE:
      return `sv[${R(a)}] = sv[${R(b)}]; sn[${R(a)}] = sn[${R(b)}];`;
    case Op.LOADKN:
      return `sn[${R(a)}] = kn[${b}]; sv[${R(a)}] = 0;`;
    case Op.LOADKV:
      return `sv[${R(a)}] = kv[${b}];`;
    case Op.LOADNIL:
      return `for (let i = ${R(a)}; i <= ${R(b)}; i++) sv[i] = undefined;`;
    case Op.LOADBOOL:
      return `sv[${R(a)}] = ${b === 1};` + (c === pc + 4 ? '' : jump(c));
    case Op.GETUPVAL:
      return `{ const u = cl.up[${b}]; const t = u.thread; if (t === null) { const v = u.v; ${store(R(a), 'v')} } else { sv[${R(a)}] = t.sv[u.idx]; sn[${R(a)}] = t.sn[u.idx]; } }`;
    case Op.SETUPVAL:
      return `{ const u = cl.up[${b}]; const t = u.thread; if (t === null) { const x = sv[${R(a)}]; u.v = x === 0 ? sn[${R(a)}] : x; } else { t.sv[u.idx] = sv[${R(a)}]; t.sn[u.idx] = sn[${R(a)}]; } }`;
    case Op.GETGLOBAL: {
      if (typeof p.k[b] !== 'string') return bail;
      const ic = pc >> 2;
      return `{ const env = cl.env; const key = k[${b}]; const g = ic[${ic}]; let v; if (g < env.hused && env.hk[g] === key) v = env.hv[g]; else { const e = env.entryOf(key); if (e >= 0) { ic[${ic}] = e; v = env.hv[e]; } } if (v === undefined && env.metatable !== null) ${bail} ${store(R(a), 'v')} }`;
    }
    case Op.GETFIELD: {
      const ic = pc >> 2;
      return `{ const t = sv[${R(b)}]; if (!(t instanceof LuaTable)) ${bail} const key = k[${c}]; const g = ic[${ic}]; let v; if (g < t.hused && t.hk[g] === key) v = t.hv[g]; else { const e = t.entryOf(key); if (e >= 0) { ic[${ic}] = e; v = t.hv[e]; } } if (v === undefined && t.metatable !== null) ${bail} ${store(R(a), 'v')} }`;
    }
    case Op.GETTABLE:
      return `{ const t = sv[${R(b)}]; if (!(t instanceof LuaTable)) ${bail} ${rk(c, 'key')} const v = typeof key === 'number' ? t.getNum(key) : t.get(key); if (v === undefined && t.metatable !== null) ${bail} ${store(R(a), 'v')} }`;
    case Op.SETFIELD: {
      const ic = pc >> 2;
      return `{ const t = sv[${R(a)}]; if (!(t instanceof LuaTable) || t.metatable !== null) ${bail} const key = k[${b}]; ${rk(c, 'v')} const g = ic[${ic}]; if (g < t.hused && t.hk[g] === key) t.hv[g] = v; else { const e = t.entryOf(key); if (e >= 0) { ic[${ic}] = e; t.hv[e] = v; } else { ci.pc = ${pc}; vm.steps = steps + ${r - 1}; t.setStr(key, v); } } }`;
    }
    case Op.SETTABLE:
      return `{ const t = sv[${R(a)}]; ${rk(b, 'key')} ${rk(c, 'v')} if (t instanceof LuaTable && t.metatable === null && key !== undefined && key === key) { ci.pc = ${pc}; vm.steps = steps + ${r - 1}; t.set(key, v); } else ${bail} }`;
    case Op.UNM:
      return `if (sv[${R(b)}] === 0) { sn[${R(a)}] = -sn[${R(b)}]; sv[${R(a)}] = 0; } else ${bail}`;
    case Op.JMP:
      return jump(b);
    case Op.FORPREP:
      return `{ const ra = ${R(a)}; if (sv[ra] !== 0 || sv[ra + 1] !== 0 || sv[ra + 2] !== 0) ${bail} sn[ra] = sn[ra] - sn[ra + 2]; } ${jump(b)}`;
    case Op.FORLOOP:
      return `{ const ra = ${R(a)}; const step = sn[ra + 2]; sn[ra] = sn[ra] + step; const idx = sn[ra]; if (0 < step ? idx <= sn[ra + 1] : sn[ra + 1] <= idx) { sn[ra + 3] = idx; sv[ra + 3] = 0; ${jump(b)} } }`;
    case Op.TEST_J: {
      const want = b === 1;
      return `{ const v = sv[${R(a)}]; if ((v !== undefined && v !== false) === ${want}) ${jump(c)} }`;
    }
    case Op.TESTSET_J: {
      const want = (c & 1) === 1;
      return `{ const v = sv[${R(b)}]; if ((v !== undefined && v !== false) === ${want}) { sv[${R(a)}] = v; sn[${R(a)}] = sn[${R(b)}]; ${jump(c & ~3)} } }`;
    }
    case Op.EQ_RR_J: {
      const want = (c & 1) === 1;
      return `{ const x = sv[${R(a)}]; const y = sv[${R(b)}]; let eq; if (x === 0) eq = y === 0 && sn[${R(a)}] === sn[${R(b)}]; else if (x === y) eq = true; else if (typeof x === 'object' && typeof y === 'object') ${bail} else eq = false; if (eq === ${want}) ${jump(c & ~3)} }`;
    }
    case Op.EQ_RK_J: {
      const want = (c & 1) === 1;
      const kc = ~b;
      return `{ const x = sv[${R(a)}]; const y = kv[${kc}]; const eq = x === 0 ? y === 0 && sn[${R(a)}] === kn[${kc}] : x === y; if (eq === ${want}) ${jump(c & ~3)} }`;
    }
    case Op.LT_RR_J: case Op.LE_RR_J: {
      const cmp = op === Op.LT_RR_J ? '<' : '<=';
      const want = (c & 1) === 1;
      return `if (sv[${R(a)}] === 0 && sv[${R(b)}] === 0) { if ((sn[${R(a)}] ${cmp} sn[${R(b)}]) === ${want}) ${jump(c & ~3)} } else ${bail}`;
    }
    case Op.LT_RK_J: case Op.LE_RK_J: {
      const cmp = op === Op.LT_RK_J ? '<' : '<=';
      const want = (c & 1) === 1;
      return `if (sv[${R(a)}] === 0) { if ((sn[${R(a)}] ${cmp} kn[${b}]) === ${want}) ${jump(c & ~3)} } else ${bail}`;
    }
    case Op.LT_KR_J: case Op.LE_KR_J: {
      const cmp = op === Op.LT_KR_J ? '<' : '<=';
      const want = (c & 1) === 1;
      return `if (sv[${R(b)}] === 0) { if ((kn[${a}] ${cmp} sn[${R(b)}]) === ${want}) ${jump(c & ~3)} } else ${bail}`;
    }
    case Op.CALL: {
      // a host function is called here; a Lua function gets its frame and, once hot, its compiled code is called as
      // a JavaScript function (up to MAX_NESTED deep); otherwise the interpreter runs it
      const nargs = b !== 0 ? `${b - 1}` : `L.top - ra - 1`;
      const fill = c !== 0 ? `for (let i = n; i < ${c - 1}; i++) sv[ra + i] = undefined;` : 'L.top = ra + n;';
      const after = `steps = vm.steps; if (steps < ${r - 1} || L.hookMask !== 0) { ci.pc = ${pc + 4}; return ${pc + 4}; } steps -= ${r - 1};`;
      return `{ const ra = ${R(a)}; const f = sv[ra]; ` +
        `if (f instanceof HostFunction) { ci.pc = ${pc}; vm.steps = steps + ${r - 1}; const n = callHost(L, f, ra, ${nargs}, ${c - 1}); if (n < 0) return ${JIT_YIELD}; sn = L.sn; ${fill} ${after} } ` +
        `else if (f instanceof LuaClosure) { ci.pc = ${pc}; vm.steps = steps + ${r - 1}; const nci = pushLuaFrame(L, f, ra, ${nargs}, ${c - 1}); ` +
        `const g = depth < ${MAX_NESTED} ? jitOf(L, f.p) : null; if (g === null) return ${JIT_FRAMES}; ` +
        `const x = g(L, nci, nci.base, 0, depth + 1); if (x !== ${JIT_RETURNED}) return x === ${JIT_YIELD} ? ${JIT_YIELD} : ${JIT_FRAMES}; sn = L.sn; ${after} } ` +
        `else ${bail} }`;
    }
    case Op.RETURN: {
      // an entry frame (called from a host function or the host) returns through the interpreter, as do hooks
      const n = b !== 0 ? `${b - 1}` : `L.top - ra`;
      return `{ if (ci.entry || L.hookMask !== 0) ${bail} const ra = ${R(a)}; const n = ${n}; ` +
        `if (L.openUp !== null && L.openUp.idx >= base) L.closeUpvals(base); const dst = ci.func; const want = ci.nresults; ` +
        `if (want < 0) { for (let i = 0; i < n; i++) { sv[dst + i] = sv[ra + i]; sn[dst + i] = sn[ra + i]; } L.top = dst + n; } ` +
        `else { const m = n < want ? n : want; for (let i = 0; i < m; i++) { sv[dst + i] = sv[ra + i]; sn[dst + i] = sn[ra + i]; } for (let i = m; i < want; i++) sv[dst + i] = undefined; } ` +
        `L.ciTop--; vm.steps = steps + ${r - 1}; return ${JIT_RETURNED}; }`;
    }
    default:
      return bail;
  }
}
