/**
 * Decompiling one function: the inverse of hksc's single-pass code generator (lparser.c / lcode.c).
 *
 * The compiler emits code in source order and allocates registers as a stack: locals are registers 0..n-1, every
 * statement starts with no temporaries, an expression's operands are the top temporaries and its result replaces
 * them. So the function is read front to back, statement by statement, keeping the pending temporaries on a
 * stack of expressions; an instruction that stores (SETGLOBAL, SETTABLE, a write below the temporaries), calls for
 * no results, returns or jumps ends a statement. Control structures are recognised from the jump shapes the
 * parser produces (`whilestat`, `repeatstat`, `forbody`, `ifstat`, `breakstat`), with the one-level jump threading
 * of `luaK_jump` (a jump emitted while earlier jumps wait for "here" takes them along to its own target).
 *
 * Locals come from the function's local records: debug info when present, else the records `inferLocals`
 * derives from the register stack (stripped builds).
 */
import type { HksConstant, HksFunction, HksSlot } from '../../formats/hks/chunk.ts';
import { HKS_K, hksFloatingByteToInt, isConstantOperand, jumpTarget, type HksDecodedCode, type HksInstruction } from './decode.ts';
import type { BinaryOperator, Expr, FunctionIR, LocalVar, NameRef, Stmt, TableItem } from './ir.ts';
import { HKS_VARARG_ISVARARG } from './locals.ts';
import { buildNetworkTree, type NetworkAtom, type NetworkLabel } from './network.ts';
import { hksA, hksBx } from '../../formats/hks/opcodes.ts';
import { typeName } from '../compile/structures.ts';
import type { StructInfo, StructTable } from './structures.ts';

/** What a function's decompilation needs from the chunk and its parent. */
export interface FunctionContext {
  path: string;
  fn: HksFunction;
  code: HksDecodedCode;
  /** Local records from debug info, in declaration order; in `infer` mode only the parameters (and `arg`). */
  locals: LocalVar[];
  /** No local records (stripped or profile build): locals are inferred from the register stack. */
  infer: boolean;
  /** Depth-first index of the function in the chunk (for invented names `l_<index>_<n>`). */
  index: number;
  /** Names of the upvalues, in upvalue order. */
  upvalues: NameRef[];
  /** Decompiles a child prototype given the names of its upvalues. */
  child(index: number, upvalues: NameRef[]): FunctionIR;
  /** The chunk's structures (its structure section). */
  structs: StructTable;
}

/** Raised when the code does not have a shape the compiler produces; the function is then printed as a stub. */
export class DecompileFailure extends Error {
  override name = 'DecompileFailure';
  readonly pc: number;
  constructor(message: string, pc: number) {
    super(`${message} (pc ${pc})`);
    this.pc = pc;
  }
}

interface TableBuild {
  items: { pc: number; item: TableItem }[];
  /** Hash size the NEWTABLE announces (an upper bound of the record fields: the size is rounded up). */
  hashLimit: number;
  hashCount: number;
}

/** A value computed into registers and not yet consumed. */
interface Pending {
  reg: number;
  /** Registers it covers: C-1 for a call with several results, 2 for a SELF pair. */
  span: number;
  expr: Expr;
  /** An open multi-value expression (call with C=0, VARARG with B=0): the values extend to the top. */
  open: boolean;
  /** pc of the instruction that produced it. */
  pc: number;
  /** First pc of its code (the earliest producer of what it consumed). */
  start: number;
  self?: { obj: Expr; name: string };
  table?: TableBuild;
  /** A nil from LOADNIL (adjust_assign padding candidate). */
  nil?: boolean;
  /** A value a `local` statement computed past its variables (`local a = 1, 2`, or a LOADNIL merged with the next
   * statement's): the next statement may use it, else it is an extra expression of that declaration. */
  leftover?: Stmt & { k: 'local' };
}

interface BlockCtx {
  /** First pc after the block. */
  end: number;
  /** Innermost enclosing loop: where `break` jumps. */
  breakTo: number | null;
  /** In a repeat body: the until-condition jumps to `falseTo` when false and falls into `trueAt` when true. */
  until?: { falseTo: number; trueAt: number; lastJump: number; always?: boolean; meld?: number };
}

interface Branch {
  test: HksInstruction;
  jmp: HksInstruction;
  target: number;
}

interface Snapshot {
  stack: Pending[];
  nactvar: number;
  scope: (LocalVar | undefined)[];
  declared: Set<LocalVar>;
  /** Length of the innermost block's statements and its declarations (inferred locals are declared mid-parse). */
  outLength: number;
  frame: Map<LocalVar, number>;
  invented: number;
}

const t0 = (b: Branch): number => b.target;
const COMPARE_OPS: Record<string, BinaryOperator> = { EQ: '==', LT: '<', LE: '<=' };
const SWAPPED: Record<string, BinaryOperator> = { '<': '>', '<=': '>=' };

/** Families whose instruction writes register A (and more for LOADNIL / SELF / CALL / VARARG). */
const WRITES_A = new Set([
  'MOVE', 'LOADK', 'LOADBOOL', 'LOADNIL', 'GETUPVAL', 'GETGLOBAL', 'GETTABLE', 'NEWTABLE', 'SELF', 'ARITH', 'UNM', 'NOT', 'LEN', 'CONCAT', 'CALL',
  'VARARG', 'CLOSURE', 'NEWSTRUCT', 'GETSLOT', 'GETSLOTMT', 'SELFSLOT', 'SELFSLOTMT', 'TESTSET',
]);

/** Families that load a value into the free register (the first instruction of a statement's expression). */
const FRESH_TEMPORARY = new Set(['LOADK', 'LOADBOOL', 'GETGLOBAL', 'GETUPVAL', 'NEWTABLE', 'NEWSTRUCT', 'CLOSURE']);

/** Expressions the compiler folds in a condition: never the operand of a TEST. */
const LITERAL_KINDS = new Set<Expr['k']>(['nil', 'bool', 'number', 'string', 'lud', 'ui64']);

const LUA_RESERVED = new Set(['and', 'break', 'do', 'else', 'elseif', 'end', 'false', 'for', 'function', 'if', 'in', 'local', 'nil', 'not', 'or', 'repeat', 'return', 'then', 'true', 'until', 'while', 'hstructure', 'hmake']);
/** A name Lua (and HavokScript) accepts as an identifier: not a reserved word. */
export const isLuaIdentifier = (s: string): boolean => /^[A-Za-z_][A-Za-z0-9_]*$/.test(s) && !LUA_RESERVED.has(s);

/** Whether a prototype's name is the one the compiler builds from `written` (it keeps at most 511 bytes). */
function sameFunctionName(written: string, protoName: string | null | undefined): boolean {
  if (protoName === null || protoName === undefined) return false;
  return written.length >= 511 ? written.slice(0, 511) === protoName : written === protoName;
}

/** Decompiles a function body into the IR. Throws `DecompileFailure` on shapes the compiler cannot produce. */
export function decompileFunctionBody(ctx: FunctionContext): FunctionIR {
  return new FunctionBuilder(ctx).run();
}

class FunctionBuilder {
  private readonly ctx: FunctionContext;
  private readonly fn: HksFunction;
  private readonly infer: boolean;
  /** Locals invented so far (inferred mode). */
  private invented = 0;
  private readonly at: (HksInstruction | undefined)[];
  private readonly size: number;
  private readonly startsAt = new Map<number, LocalVar[]>();
  /** Active locals by register. */
  private scope: (LocalVar | undefined)[] = [];
  private nactvar = 0;
  private stack: Pending[] = [];
  /** Sources of every jump target (JMP, FORPREP, FORLOOP). */
  private readonly sources = new Map<number, number[]>();
  private readonly lines: readonly number[] | null;
  /** Statement index where each local of the open blocks was declared. */
  private frames: Map<LocalVar, number>[] = [];
  /** The statement list of each open block (inferred declarations go to the innermost). */
  private outs: Stmt[][] = [];
  /** A value network's result register when it is a local: the value operand's write is captured, not assigned. */
  private capture: { reg: number; expr: Expr | null } | null = null;
  /** A multiple assignment in progress. */
  private massign: { targets: Expr[]; values: { entry: Pending | null; expr: Expr }[]; pc: number } | null = null;
  /** Set when a repeat body's until-condition was parsed. */
  private untilCond: Expr | null = null;
  /** Locals whose declaration was emitted. */
  private declared = new Set<LocalVar>();
  /** Register level where the expression being built (a condition or value network) started. */
  private floor = 0;
  /** First pc of the statement being built. */
  private stmtStart = 0;
  /** Registers above the locals the next statement's temporaries start at (see `forIn`). */
  private pad = 0;
  private padUsed = false;
  /** Registers a CHECKTYPE / CHECKTYPES checked, with the type name, until the store or declaration they guard. */
  private readonly checks = new Map<number, string>();

  constructor(ctx: FunctionContext) {
    this.ctx = ctx;
    this.fn = ctx.fn;
    this.infer = ctx.infer;
    this.invented = ctx.locals.length;
    this.at = ctx.code.at;
    this.size = ctx.code.size;
    this.lines = this.fn.debug && this.fn.debug.lines.length === this.size ? this.fn.debug.lines : null;
    for (const v of ctx.locals) {
      if (v.kind === 'param' || v.kind === 'arg') continue;
      const list = this.startsAt.get(v.startPc);
      if (list) list.push(v);
      else this.startsAt.set(v.startPc, [v]);
    }
    for (const i of ctx.code.list) {
      for (const k of this.constantsOf(i)) if (this.firstRef[k] === undefined) this.firstRef[k] = i.pc;
      if (i.family === 'JMP' || i.family === 'FORPREP' || i.family === 'FORLOOP') {
        const t = jumpTarget(i);
        const l = this.sources.get(t);
        if (l) l.push(i.pc);
        else this.sources.set(t, [i.pc]);
      }
    }
  }

  run(): FunctionIR {
    const fn = this.fn;
    const params: LocalVar[] = [];
    for (const v of this.ctx.locals) {
      if (v.kind === 'param' || v.kind === 'arg') {
        this.scope[v.reg] = v;
        this.nactvar = Math.max(this.nactvar, v.reg + 1);
        if (v.kind === 'param') params.push(v);
      }
    }
    const last = this.at[this.size - 1];
    // Every function ends with the implicit `RETURN 0 1` of close_func.
    const bodyEnd = last && last.family === 'RETURN' && last.b === 1 ? last.pc : this.size;
    const body = this.block(0, bodyEnd, { end: bodyEnd, breakTo: null }, false);
    const ir: FunctionIR = { path: this.ctx.path, params, vararg: (fn.varargFlags & HKS_VARARG_ISVARARG) !== 0, body };
    if (fn.debug) {
      ir.name = fn.debug.name;
      ir.lineDefined = fn.debug.lineDefined;
      ir.lastLineDefined = fn.debug.lastLineDefined;
    }
    return ir;
  }

  private fail(message: string, pc: number): never {
    throw new DecompileFailure(message, pc);
  }

  private line(pc: number): number | undefined {
    return this.lines ? this.lines[pc] : undefined;
  }

  // -------------------------------------------------------------------------------------------------------------
  // Registers and the pending stack

  private top(): number {
    const t = this.stack[this.stack.length - 1];
    return t ? t.reg + t.span : this.nactvar + this.pad;
  }

  private constant(index: number, pc: number): Expr {
    const k: HksConstant | undefined = this.fn.constants[index];
    if (!k) this.fail(`constant ${index} out of range`, pc);
    switch (k.type) {
      case 'nil':
        return { k: 'nil' };
      case 'boolean':
        return { k: 'bool', value: k.value !== 0 };
      case 'number':
        return { k: 'number', value: k.value };
      case 'string':
        return { k: 'string', value: k.value ?? '' };
      case 'lightuserdata':
        return { k: 'lud', value: k.value };
      case 'ui64':
        return { k: 'ui64', value: k.value };
    }
  }

  /** First pc of the code consumed by the instruction being built (merged into what it pushes). */
  private opStart = Infinity;

  private push(p: Omit<Pending, 'start'>): void {
    this.stack.push({ ...p, start: Math.min(this.opStart, p.pc) });
    if (this.pad > 0) this.padUsed = true;
  }

  /** Index in the stack of the pending entry covering register `reg`, or -1. */
  private pendingAt(reg: number): number {
    for (let i = this.stack.length - 1; i >= 0; i--) {
      const p = this.stack[i]!;
      if (reg >= p.reg && reg < p.reg + p.span) return i;
      if (p.reg + p.span <= reg) break;
    }
    return -1;
  }

  private localExpr(reg: number, pc: number): Expr {
    const v = this.scope[reg];
    if (!v || reg >= this.nactvar) this.fail(`register ${reg} read but holds no value`, pc);
    return { k: 'local', v };
  }

  /** Reads a register operand: consumes a pending temporary (returned), else names the local. */
  private takeEntry(reg: number, pc: number): { expr: Expr; entry: Pending | null } {
    if (reg < this.nactvar) return { expr: this.localExpr(reg, pc), entry: null };
    const i = this.pendingAt(reg);
    if (i < 0) this.fail(`register ${reg} read but holds no value`, pc);
    const p = this.stack[i]!;
    this.opStart = Math.min(this.opStart, p.start);
    if (p.span > 1 && !p.self && reg > p.reg) {
      // A later register of a multi-result call: a multiple assignment reads them one by one, top down.
      p.span = reg - p.reg;
      return { expr: p.expr, entry: p };
    }
    this.stack.splice(i, 1);
    return { expr: p.expr, entry: p };
  }

  private take(reg: number, pc: number): Expr {
    return this.takeEntry(reg, pc).expr;
  }

  private operand(x: number, pc: number): Expr {
    if (isConstantOperand(x)) return this.constant(x - HKS_K, pc);
    // An RK operand in a register holding a literal the compiler would have put in the operand itself: a local.
    if (this.infer && x >= this.nactvar && !this.capture && !this.massign) {
      const p = this.stack[this.pendingAt(x)];
      const load = p ? this.at[p.pc] : undefined;
      if (p && p.span === 1 && p.reg === this.nactvar && load && LITERAL_KINDS.has(p.expr.k) && (load.family !== 'LOADK' || load.bx < 256)) {
        this.declarePending(x + 1, pc);
        return this.localExpr(x, pc);
      }
    }
    return this.take(x, pc);
  }

  /** Reads two operands, the higher register first (the compiler evaluated them in increasing order). */
  private operands2(x: number, y: number, pc: number): [Expr, Expr] {
    if (!isConstantOperand(x) && !isConstantOperand(y) && x > y) {
      const ex = this.operand(x, pc);
      return [ex, this.operand(y, pc)];
    }
    const ey = this.operand(y, pc);
    return [this.operand(x, pc), ey];
  }

  /** Consumes the values of `count` registers from `from` (or all pending ones from `from`) as an expression list. */
  private takeList(from: number, count: number | 'top', pc: number): Expr[] {
    const out: Expr[] = [];
    if (count === 'top') {
      while (this.stack.length > 0 && this.stack[this.stack.length - 1]!.reg >= from) {
        const p = this.stack.pop()!;
        this.opStart = Math.min(this.opStart, p.start);
        out.unshift(p.expr);
      }
      return out;
    }
    for (let r = from + count - 1; r >= from; r--) {
      if (r < this.nactvar) {
        out.unshift(this.localExpr(r, pc));
        continue;
      }
      const i = this.pendingAt(r);
      if (i < 0) this.fail(`register ${r} read but holds no value`, pc);
      const p = this.stack[i]!;
      this.stack.splice(i, 1);
      this.opStart = Math.min(this.opStart, p.start);
      out.unshift(p.expr);
      r = p.reg;
    }
    return out;
  }

  /**
   * An instruction wrote `expr` into register `reg`: a new temporary when `reg` is the next free register, an
   * assignment statement when it is a local.
   */
  private write(reg: number, expr: Expr, pc: number, out: Stmt[], extra: Partial<Pending> = {}): void {
    if (this.capture && reg === this.capture.reg && reg < this.nactvar) {
      this.capture.expr = expr;
      return;
    }
    // An hmake's instance is built in the free register (constructor_ puts it there first): locals from it ended.
    const fresh = expr.k === 'table' && expr.struct !== undefined;
    if (this.infer && fresh && !this.capture && reg < this.top()) this.declarePending(Number.POSITIVE_INFINITY, pc, out);
    if (this.infer && reg < this.nactvar && !this.capture && (fresh || this.firstUseIsTemp(reg, this.at[pc]?.next ?? pc + 1))) this.closeFrom(reg, pc, out);
    if (reg >= this.nactvar) {
      if (reg < this.top()) this.foldLeftovers(reg);
      // A value computed over a pending one: that one is a local now assigned (`local a = 1; a = 2`).
      if (this.infer && reg < this.top()) this.declarePending(reg + 1, pc, out);
      if (reg < this.nactvar) {
        this.assign({ k: 'local', v: this.scope[reg]! }, expr, null, pc, out);
        return;
      }
      const top = this.top();
      const nx = this.at[this.at[pc]?.next ?? -1];
      if (reg === top + 2 && nx && nx.family === 'SELF' && nx.a === top && nx.c === reg) {
        // luaK_self reserves the two registers before loading a key that does not fit an RK operand.
        this.push({ reg, span: 1, expr, open: false, pc, ...extra });
        return;
      }
      if (reg !== top) this.fail(`register ${reg} written while the free register is ${top}`, pc);
      this.push({ reg, span: 1, expr, open: false, pc, ...extra });
      return;
    }
    this.assign({ k: 'local', v: this.scope[reg]! }, expr, null, pc, out);
  }

  // -------------------------------------------------------------------------------------------------------------
  // Inferred locals (stripped builds): the register stack shows which values outlive their statement.

  private newLocal(reg: number, pc: number, kind: LocalVar['kind'] = 'local'): LocalVar {
    const id = this.invented++;
    const v: LocalVar = { id, name: `l_${this.ctx.index}_${id}`, reg, startPc: pc, endPc: Number.POSITIVE_INFINITY, kind };
    this.typeFromCheck(v);
    return v;
  }

  /**
   * The pending values below register `below` are locals: a statement left them (a `local` declaration), since
   * temporaries never outlive their statement. Emits their declarations.
   */
  private declarePending(below: number, pc: number, _out?: Stmt[]): void {
    if (!this.infer) return;
    const out = this.outs[this.outs.length - 1]!;
    // The nils of one LOADNIL are one `local a, b, c` (declaring part of them would split the instruction).
    for (;;) {
      const last = this.stack.filter((p) => p.reg < below).pop();
      let next = last?.nil ? this.stack.find((p) => p.reg === last.reg + last.span && p.nil && p.pc === last.pc) : undefined;
      // luaK_nil merges the next statement's leading nils into the LOADNIL (`local b = nil; a = nil .. nil .. x`).
      if (next && this.nilsStartConcat(next.reg, this.at[next.pc]?.next ?? next.pc + 1)) next = undefined;
      if (!next) break;
      below = next.reg + 1;
    }
    const entries = this.stack.filter((p) => p.reg < below);
    if (entries.length === 0) return;
    this.stack = this.stack.filter((p) => p.reg >= below);
    const frame = this.frames[this.frames.length - 1]!;
    for (let k = 0; k < entries.length; k++) {
      const p = entries[k]!;
      if (p.reg !== this.nactvar) this.fail(`value in register ${p.reg} outlives its statement, ${this.nactvar} locals active`, pc);
      if (p.open || p.self) this.fail(`an open or method value in register ${p.reg} outlives its statement`, pc);
      // `local a, b, c` (one LOADNIL) and `local a, b = f()` are one statement.
      const group = [p];
      while (p.nil && entries[k + 1]?.nil && entries[k + 1]!.pc === p.pc) group.push(entries[++k]!);
      const vars: LocalVar[] = [];
      for (const g of group) for (let r = g.reg; r < g.reg + g.span; r++) vars.push(this.newLocal(r, pc));
      for (const v of vars) {
        this.scope[v.reg] = v;
        this.nactvar = v.reg + 1;
        frame.set(v, out.length);
        this.declared.add(v);
      }
      const exprs = group[0]!.nil ? [] : group.map((g) => g.expr);
      const only = exprs[0];
      // `local function f`: stripped, it compiles the same; profile builds tell by the prototype's name.
      if (vars.length === 1 && only?.k === 'function' && only.fn.name !== null) {
        this.nameFromPrototype(vars[0]!, only.fn.name);
        if (only.fn.name === undefined || sameFunctionName(vars[0]!.name, only.fn.name)) {
          out.push({ k: 'localfunction', v: vars[0]!, fn: only.fn, line: this.line(p.pc) });
          continue;
        }
      }
      out.push({ k: 'local', vars, exprs, line: this.line(p.pc) });
    }
  }

  /** The nil in register `reg` is the first operand of a concatenation that follows (before `reg` is written). */
  private nilsStartConcat(reg: number, from: number): boolean {
    let pc = from;
    for (let n = 0; n < 64 && pc < this.size; n++) {
      const i = this.at[pc];
      if (!i || i.family === 'JMP' || this.isTest(i)) return false;
      if (i.family === 'CONCAT') return i.b === reg;
      if (WRITES_A.has(i.family) && i.a <= reg) return false;
      pc = i.next;
    }
    return false;
  }

  /** Ends the current block's locals in registers ≥ `reg` where the block goes on: they were in a `do` block. */
  private closeFrom(reg: number, pc: number, out: Stmt[]): void {
    const frame = this.frames[this.frames.length - 1]!;
    let first = -1;
    while (this.nactvar > reg) {
      const v = this.scope[this.nactvar - 1];
      const at = v ? frame.get(v) : undefined;
      if (!v || at === undefined) this.fail(`register ${reg} reused while local ${v?.name ?? '?'} of an outer block is active`, pc);
      frame.delete(v);
      v.endPc = pc;
      this.scope[this.nactvar - 1] = undefined;
      this.nactvar--;
      first = first < 0 ? at : Math.min(first, at);
    }
    if (first >= 0) {
      const body = out.splice(first);
      for (const [v, idx] of frame) if (idx > first) frame.set(v, first);
      out.push({ k: 'do', body });
    }
  }

  /**
   * Whether the value just written into local register `reg` is in fact a temporary (the local's scope ended):
   * its first use needs a temporary there (a call's function, a concatenation operand, a loop's control values).
   */
  private firstUseIsTemp(reg: number, from: number): boolean {
    let pc = from;
    for (let n = 0; n < 256 && pc < this.size; n++) {
      const i = this.at[pc];
      if (!i || (i.family === 'JMP' && !this.isValueJump(pc)) || (this.sources.get(pc) ?? []).some((s) => s > pc || !this.isValueJump(s))) return false;
      switch (i.family) {
        case 'CALL':
        case 'TAILCALL':
          if (i.a === reg) return true;
          if (reg > i.a && (i.b === 0 || reg < i.a + i.b)) return false;
          break;
        case 'CONCAT':
          if (reg >= i.b && reg <= i.c) return true;
          break;
        case 'FORPREP':
          if (reg >= i.a && reg <= i.a + 2) return true;
          break;
        case 'GETTABLE':
        case 'SELF':
          if (i.b === reg && i.a === reg) {
            pc = i.next;
            continue;
          }
          break;
        default:
          break;
      }
      if (this.readsRegister(i, reg)) return false;
      if (WRITES_A.has(i.family) && i.a === reg) return false;
      pc = i.next;
    }
    return false;
  }

  /** The forward JMP at `p` belongs to a value network: it lands on a LOADBOOL pair or follows a TESTSET. */
  private isValueJump(p: number): boolean {
    const j = this.at[p];
    if (!j || j.family !== 'JMP' || jumpTarget(j) <= p) return false;
    const t = jumpTarget(j);
    if (this.loadBoolPair(t) || (this.at[t - 1]?.family === 'LOADBOOL' && this.loadBoolPair(t - 1))) return true;
    return this.insnEndingAt(p)?.family === 'TESTSET';
  }

  /** The registers an instruction reads (operands that are registers). */
  private readRegisters(i: HksInstruction): number[] {
    const r: number[] = [];
    const op = (x: number): void => {
      if (!isConstantOperand(x)) r.push(x);
    };
    switch (i.family) {
      case 'MOVE':
      case 'UNM':
      case 'NOT':
      case 'LEN':
      case 'GETSLOT':
      case 'GETSLOTMT':
        r.push(i.b);
        break;
      case 'GETTABLE':
      case 'ARITH':
      case 'EQ':
      case 'LT':
      case 'LE':
        op(i.b);
        op(i.c);
        if (i.family === 'GETTABLE' || i.family === 'ARITH') break;
        break;
      case 'SELF':
      case 'SELFSLOT':
      case 'SELFSLOTMT':
        r.push(i.b);
        op(i.c);
        break;
      case 'CONCAT':
        for (let k = i.b; k <= i.c; k++) r.push(k);
        break;
      case 'SETGLOBAL':
      case 'SETUPVAL':
      case 'TEST':
        r.push(i.a);
        break;
      case 'TESTSET':
        r.push(i.b);
        break;
      case 'SETTABLE':
        r.push(i.a);
        op(i.b);
        op(i.c);
        break;
      case 'SETSLOTN':
        r.push(i.a);
        break;
      case 'SETSLOTI':
      case 'SETSLOT':
      case 'SETSLOTS':
      case 'SETSLOTMT':
        r.push(i.a);
        op(i.c);
        break;
      case 'CALL':
      case 'TAILCALL':
        for (let k = i.a; k < (i.b === 0 ? i.a + 1 : i.a + i.b); k++) r.push(k);
        break;
      case 'RETURN':
        for (let k = i.a; k < (i.b === 0 ? i.a + 1 : i.a + i.b - 1); k++) r.push(k);
        break;
      default:
        break;
    }
    return r;
  }

  private readsRegister(i: HksInstruction, reg: number): boolean {
    return this.readRegisters(i).includes(reg);
  }

  /**
   * Before an instruction (inferred mode): a pending value it reads without consuming (an operand below its result
   * register: `MOVE 1 0` copies a local, `MOVE 0 1` stores a temporary into one; a captured register) is a local,
   * and so is everything pending below it.
   */
  private inferBefore(i: HksInstruction, out: Stmt[]): void {
    let lowest = -1;
    const pendingBelow = (r: number): void => {
      if (r >= this.nactvar && this.pendingAt(r) >= 0) lowest = Math.max(lowest, r);
    };
    if (i.family === 'CLOSURE') {
      for (const d of i.data) if ((d & 0xff) === 1) pendingBelow((d >>> 8) & 0x1ffff);
    } else if (WRITES_A.has(i.family) && i.family !== 'TESTSET' && i.family !== 'CALL') {
      for (const r of this.readRegisters(i)) if (r < i.a) pendingBelow(r);
    } else if (i.family === 'SETTABLE') {
      // A store reads its temporaries in order (object, key, value); a lower value or key is a local. The
      // object of a store is a local when it is a constructor (`local t = {}` then `t.x = 1`).
      const obj = this.pendingAt(i.a) >= 0 ? this.stack[this.pendingAt(i.a)] : undefined;
      const hmake = obj?.expr.k === 'table' && obj.expr.struct !== undefined;
      if (obj?.table && obj.reg === i.a && obj.table.hashCount >= obj.table.hashLimit && !hmake) pendingBelow(i.a);
      // A stored-into value the code after the store writes above: it lives on (`local t = f(); t.x = 1; …`).
      if (obj && obj.reg === i.a && obj.span === 1 && !obj.table && (this.writesAboveFree(i.next, i.a) || this.readBeforeWritten(i.a, i.next, Math.min(this.size, i.next + 64)))) pendingBelow(i.a);
      for (const r of [i.b, i.c]) if (!isConstantOperand(r) && r < i.a) pendingBelow(r);
      if (!isConstantOperand(i.b) && !isConstantOperand(i.c) && i.c < i.b) pendingBelow(i.c);
    } else if (i.family === 'SETSLOTI' || i.family === 'SETSLOT' || i.family === 'SETSLOTS' || i.family === 'SETSLOTMT' || i.family === 'SETSLOTN') {
      if (i.family !== 'SETSLOTN' && !isConstantOperand(i.c) && i.c < i.a) pendingBelow(i.c);
      // A store into an instance that is no constructor field: the instance is a typed local (`local t : T = hmake T {}`).
      const at = this.pendingAt(i.a);
      const obj = at >= 0 ? this.stack[at] : undefined;
      if (obj?.table && obj.reg === i.a && !this.isHmakeField(i, obj)) pendingBelow(i.a);
    }
    // A store's target name is a constant taken when the target is read, before the value: a value whose code
    // took constants first was computed by an earlier statement (`local t = {…}; Big = t`).
    if (i.family === 'SETGLOBAL' || (i.family === 'SETTABLE' && isConstantOperand(i.b))) {
      const valueReg = i.family === 'SETGLOBAL' ? i.a : i.c;
      const k = i.family === 'SETGLOBAL' ? i.bx : i.b - HKS_K;
      const at = isConstantOperand(valueReg) ? -1 : this.pendingAt(valueReg);
      const v = at >= 0 ? this.stack[at]! : undefined;
      if (v && (this.firstRef[k] ?? -1) >= v.start && this.constantsBefore(v.start, i.pc, k)) lowest = Math.max(lowest, valueReg);
    }
    // The next statement's first temporary sits above the stored value: that value stays, it is a local
    // (`local function f … end; G = f` then more code).
    if (i.family === 'SETGLOBAL' || i.family === 'SETUPVAL') {
      const j = this.at[i.next];
      if (i.a >= this.nactvar && this.pendingAt(i.a) >= 0 && j && !this.sources.has(j.pc) && FRESH_TEMPORARY.has(j.family) && j.a > i.a && j.a <= this.top()) lowest = Math.max(lowest, i.a);
    }
    if (lowest >= 0) this.declarePending(lowest + 1, i.pc, out);
    this.inferReads(i);
  }

  /** Some constant first used in [from, to) was allocated before constant `k`. */
  private constantsBefore(from: number, to: number, k: number): boolean {
    for (let p = from; p < to; p++) {
      const x = this.at[p];
      if (!x) continue;
      for (const c of this.constantsOf(x)) if (c < k && (this.firstRef[c] ?? -1) >= from) return true;
    }
    return false;
  }

  /**
   * Temporaries are consumed from the top of the stack. A pending register an instruction reads while a value
   * above it stays pending is a local; for a statement (store, return) every pending value came before it and is
   * a local too.
   */
  private inferReads(i: HksInstruction): void {
    if (!this.infer || i.family === 'SETLIST') return;
    // Constructor fields store into the table below the pending array items.
    const t = i.family === 'SETTABLE' ? this.stack[this.pendingAt(i.a)] : undefined;
    if (t?.table && t.reg === i.a) return;
    let regs = this.readRegisters(i);
    // B = 0: every value up to the top.
    if ((i.family === 'CALL' || i.family === 'TAILCALL' || i.family === 'RETURN') && i.b === 0) regs = this.stack.filter((p) => p.reg >= i.a).map((p) => p.reg).concat(regs);
    const reads = regs.filter((r) => r >= this.nactvar && this.pendingAt(r) >= 0);
    if (reads.length === 0) return;
    // Values pending below the expression being built are older than it: locals.
    const old = reads.filter((r) => r < this.floor);
    if (old.length > 0) {
      this.declarePending(Math.max(...old) + 1, i.pc);
      return;
    }
    const hi = Math.max(...reads);
    const above = this.stack.some((p) => p.reg > hi && !reads.includes(p.reg) && !(p.reg <= hi && hi < p.reg + p.span));
    if (!above) return;
    const statement = i.family === 'SETGLOBAL' || i.family === 'SETUPVAL' || i.family === 'SETTABLE' || i.family === 'RETURN' || (i.family === 'MOVE' && i.a < i.b);
    if (this.massign) return;
    // A store whose values above are extra expressions of a multiple assignment (`a = 1, b and c`): the code
    // after it reuses the store's lowest register at once, so they were temporaries, not locals.
    if (statement && i.family !== 'RETURN' && this.firstWriteFrom(i.next, this.nactvar) === Math.min(...reads)) return;
    this.declarePending(statement ? Number.POSITIVE_INFINITY : hi + 1, i.pc);
  }

  // -------------------------------------------------------------------------------------------------------------
  // Assignments

  /**
   * A store of `value` into `target`. A multiple assignment (`a, b = x, y`) stores its last target first (from
   * its own expression), then the others from the temporaries the expression list left, top down.
   */
  private assign(target: Expr, value: Expr, entry: Pending | null, pc: number, out: Stmt[]): void {
    if (this.infer && !this.massign && this.stack.length > 0 && !this.continuesAssignment(pc)) {
      // What is left below the stored value was declared by earlier statements; above it, extra expressions.
      this.declarePending(entry ? entry.reg : Number.POSITIVE_INFINITY, pc, out);
    }
    if (this.stack.length === 0 && !this.massign) {
      out.push(this.functionStatement(target, value, pc) ?? { k: 'assign', targets: [target], exprs: [value], line: this.line(pc) });
      return;
    }
    if (!this.massign) this.massign = { targets: [], values: [], pc };
    this.massign.targets.push(target);
    this.massign.values.push({ entry, expr: value });
    if (!this.continuesAssignment(pc)) this.finishAssignment(out);
  }

  /**
   * `function a.b:c () … end` for the store of a closure into a name chain, when the prototype's name (built by
   * the compiler from the statement's name parts) says so; in stripped code the name is unknown and the
   * statement form is chosen (it compiles the same).
   */
  private functionStatement(target: Expr, value: Expr, pc: number): Stmt | null {
    if (value.k !== 'function') return null;
    const parts: string[] = [];
    let t: Expr = target;
    while (t.k === 'index') {
      if (t.key.k !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(t.key.value)) return null;
      parts.unshift(t.key.value);
      t = t.obj;
    }
    const fn = value.fn;
    // Profile builds: the prototype's name gives the names of an inferred root local and of `self`.
    const written = fn.name ? /^([A-Za-z_][A-Za-z0-9_]*)((?:\.[A-Za-z_][A-Za-z0-9_]*)*)(?::([A-Za-z_][A-Za-z0-9_]*))?$/.exec(fn.name) : null;
    if (written && this.infer) {
      const expected = [...(written[2] ? written[2].slice(1).split('.') : []), ...(written[3] ? [written[3]] : [])];
      if (expected.join('.') === parts.join('.')) {
        if (t.k === 'local') this.nameFromPrototype(t.v, written[1]!);
        else if (t.k === 'upval' && /^l_\d+_\d+$/.test(t.ref.name) && isLuaIdentifier(written[1]!)) t.ref.name = written[1]!;
        if (written[3] && fn.params[0] && /^l_\d+_\d+$/.test(fn.params[0].name)) fn.params[0].name = 'self';
      }
    }
    if (t.k === 'global') parts.unshift(t.name);
    else if (t.k === 'upval') parts.unshift(t.ref.name);
    else if (t.k === 'local') parts.unshift(t.v.name);
    else return null;
    const dotted = parts.join('.');
    const asMethod = parts.length > 1 ? `${parts.slice(0, -1).join('.')}:${parts[parts.length - 1]}` : null;
    const same = (n: string): boolean => sameFunctionName(n, fn.name);
    if (fn.name === undefined) return { k: 'function', target, fn, line: this.line(pc) };
    if (fn.name === null) return null;
    if (same(dotted)) return { k: 'function', target, fn, line: this.line(pc) };
    if (asMethod && same(asMethod) && fn.params[0]?.name === 'self') return { k: 'function', target, method: parts[parts.length - 1]!, fn, line: this.line(pc) };
    return null;
  }

  /** True when the instruction after `pc` is another store of the same multiple assignment. */
  private continuesAssignment(pc: number): boolean {
    if (this.stack.length === 0) return false;
    const i = this.at[pc];
    let next = i ? this.at[i.next] : undefined;
    // The checks of typed targets stored so far sit between the stores.
    while (next && (next.family === 'CHECKTYPE' || next.family === 'CHECKTYPES')) next = this.at[next.next];
    if (!next) return false;
    const pending = (r: number): boolean => r >= this.nactvar && this.pendingAt(r) >= 0;
    switch (next.family) {
      case 'SETGLOBAL':
      case 'SETUPVAL':
        return pending(next.a);
      case 'SETTABLE':
      case 'SETSLOT':
      case 'SETSLOTI':
      case 'SETSLOTS':
      case 'SETSLOTMT':
        return !isConstantOperand(next.c) && pending(next.c);
      case 'MOVE':
        return next.a < this.nactvar && pending(next.b);
      case 'SETSLOTN':
        return this.nilValueFor(next) !== undefined;
      default:
        return false;
    }
  }

  private finishAssignment(out: Stmt[]): void {
    const m = this.massign!;
    this.massign = null;
    const targets = [...m.targets].reverse();
    // Values: every pending entry a store read, plus the temporaries left over past them (`a = 1, 2`), in
    // register order; the first store's own expression when it was not a temporary comes last.
    const entries = new Set<Pending>();
    for (const v of m.values) if (v.entry) entries.add(v.entry);
    // Pending values below every value the stores read were left by an earlier statement: locals.
    if (this.infer && entries.size > 0) this.declarePending(Math.min(...[...entries].map((p) => p.reg)), m.pc);
    for (const p of this.stack.splice(0, this.stack.length)) entries.add(p);
    const sorted = [...entries].sort((a, b) => a.reg - b.reg);
    const exprs = sorted.map((p) => p.expr);
    if (!m.values[0]!.entry) exprs.push(m.values[0]!.expr);
    // Trailing nils in temporaries are adjust_assign's padding (or compile the same way).
    // Only up to the number of targets: nils past it are explicit extra values and take registers.
    while (exprs.length > 1 && exprs.length <= targets.length && sorted.length >= exprs.length && sorted[exprs.length - 1]!.nil) exprs.pop();
    out.push({ k: 'assign', targets, exprs, line: this.line(m.pc) });
  }

  // -------------------------------------------------------------------------------------------------------------
  // Blocks and scopes

  /** Declares the locals whose scope starts at `pc` from the pending values in their registers. */
  private declareLocals(pc: number, out: Stmt[]): void {
    const list = this.startsAt.get(pc);
    if (!list) return;
    const vars = list.filter((v) => v.kind === 'local' && !this.declared.has(v));
    if (vars.length === 0) return;
    vars.sort((a, b) => a.reg - b.reg);
    const base = vars[0]!.reg;
    if (base !== this.nactvar) this.fail(`local ${vars[0]!.name} declared in register ${base}, ${this.nactvar} locals active`, pc);
    const limit = base + vars.length;
    if (this.stack.some((p) => p.reg < base)) this.foldLeftovers(0);
    if (this.stack.some((p) => p.reg < base)) this.fail('temporaries below a local declaration', pc);
    const entries = this.stack.filter((p) => p.reg < limit);
    const extras = this.stack.filter((p) => p.reg >= limit);
    const exprs = entries.map((p) => p.expr);
    for (const v of vars) {
      this.scope[v.reg] = v;
      this.nactvar = v.reg + 1;
      this.declared.add(v);
      this.typeFromCheck(v);
    }
    // Trailing nils from LOADNIL are implicit (`local a, b` / `local a, b = 1`).
    while (exprs.length > 0 && entries[exprs.length - 1]!.nil && !entries[exprs.length - 1]!.leftover) exprs.pop();
    const frame = this.frames[this.frames.length - 1]!;
    for (const v of vars) frame.set(v, out.length);
    const stmt: Stmt & { k: 'local' } = { k: 'local', vars, exprs, line: this.line(pc - 1) };
    out.push(stmt);
    this.stack = extras;
    for (const p of extras) p.leftover ??= stmt;
  }

  /** Some instruction in [from, to) reads register `reg` before any writes it (linear order). */
  private readBeforeWritten(reg: number, from: number, to: number): boolean {
    for (let pc = from; pc < to; ) {
      const i = this.at[pc];
      if (!i) return false;
      if (this.readsRegister(i, reg)) return true;
      if (WRITES_A.has(i.family) && i.a === reg) return false;
      pc = i.next;
    }
    return false;
  }

  /**
   * The pending values at and above `reg` are overwritten before anything reads them: extra expressions of the
   * `local` statement that declares the values below (`local a = x, y`, then a new statement in y's register).
   */
  private extraValuesFrom(reg: number, pc: number): void {
    const out = this.outs[this.outs.length - 1]!;
    if (this.stack.some((p) => p.reg >= reg && (p.nil || p.open || p.self || p.leftover))) return;
    this.declarePending(reg, pc);
    const stmt = out[out.length - 1];
    if (stmt?.k !== 'local' || stmt.exprs.length !== stmt.vars.length || stmt.vars[stmt.vars.length - 1]!.reg !== reg - 1) return;
    for (const p of this.stack.filter((q) => q.reg >= reg)) stmt.exprs.push(p.expr);
    this.stack = this.stack.filter((q) => q.reg < reg);
  }

  /** Folds the leftover values of `local` statements at or above `reg` into those statements. */
  private foldLeftovers(reg: number): boolean {
    if (!this.stack.every((p) => p.reg < reg || p.leftover)) return false;
    const keep: Pending[] = [];
    for (const p of this.stack) {
      if (p.reg < reg) keep.push(p);
      else p.leftover!.exprs.push(p.expr);
    }
    this.stack = keep;
    return true;
  }

  /**
   * Ends the scope of the current block's locals whose range ends at or before `pc`. Inside a block that goes on
   * (`natural` false) they were declared in a `do … end` block, which is rebuilt around their statements.
   */
  private endScopes(pc: number, out: Stmt[], natural: boolean): void {
    const frame = this.frames[this.frames.length - 1]!;
    let first = -1;
    while (this.nactvar > 0) {
      const v = this.scope[this.nactvar - 1];
      if (!v || v.endPc > pc) break;
      const at = frame.get(v);
      if (at === undefined) break;
      frame.delete(v);
      this.scope[this.nactvar - 1] = undefined;
      this.nactvar--;
      first = first < 0 ? at : Math.min(first, at);
    }
    if (first >= 0 && !natural) {
      const body = out.splice(first);
      for (const [v, idx] of frame) if (idx > first) frame.set(v, first);
      out.push({ k: 'do', body });
      // A do block whose locals were captured ends with CLOSE.
      const c = this.at[pc];
      if (c && c.family === 'CLOSE' && c.a === this.nactvar) this.closeDone.add(pc);
    }
  }

  /** CLOSE instructions already accounted for by a do block. */
  private readonly closeDone = new Set<number>();

  /**
   * The statements of [start, end). `ownsClose`: the block was compiled by `block()` (then / else / loop bodies,
   * do blocks), so a trailing CLOSE is its leaveblock's; the function body and a repeat body have none.
   */
  private block(start: number, end: number, ctx: BlockCtx, ownsClose = true): Stmt[] {
    const depth = this.frames.length;
    try {
      return this.blockBody(start, end, ctx, ownsClose);
    } finally {
      // A failed parse leaves the frames it opened: drop them (the caller restores its snapshot).
      this.frames.length = Math.min(this.frames.length, depth);
      this.outs.length = Math.min(this.outs.length, depth);
    }
  }

  private blockBody(start: number, end: number, ctx: BlockCtx, ownsClose: boolean): Stmt[] {
    const out: Stmt[] = [];
    this.frames.push(new Map());
    this.outs.push(out);
    const savedNact = this.nactvar;
    // A trailing CLOSE belongs to the block: its locals' scope ends there.
    const last = ownsClose ? this.insnEndingAt(end) : undefined;
    const scopeEnd = last && last.family === 'CLOSE' && last.pc >= start ? last.pc : end;
    let pc = start;
    while (pc < end) {
      if (!this.massign && this.startsAt.has(pc)) {
        if (this.stack.length === 0) this.endScopes(pc, out, pc >= scopeEnd);
        this.declareLocals(pc, out);
      }
      if (this.stack.length > 0 && !this.massign && this.stack.every((p) => p.leftover) && this.sources.has(pc)) this.foldLeftovers(0);
      // A jump target with values pending: they are locals, unless every jump here comes from the expression
      // those values belong to (a value network's final label).
      if (this.infer && this.stack.length > 0 && !this.massign && this.sources.has(pc)) {
        const from = Math.min(...this.stack.map((p) => p.start));
        if (!this.sources.get(pc)!.every((src) => src >= from && src < pc)) this.declarePending(Number.POSITIVE_INFINITY, pc, out);
      }
      if (this.stack.length === 0 && !this.massign) {
        this.endScopes(pc, out, pc >= scopeEnd);
        if (this.closeDone.has(pc) || (pc === scopeEnd && pc < end)) {
          pc = this.at[pc]!.next;
          continue;
        }
        const loop = this.loopAt(pc, end, ctx, out);
        if (loop !== null) {
          pc = loop;
          continue;
        }
      }
      const i = this.at[pc];
      if (!i) this.fail('no instruction', pc);
      if (!this.massign && this.stack.every((p) => p.leftover)) this.stmtStart = pc;
      this.opStart = Infinity;
      pc = this.step(i, end, ctx, out);
      // The first statement with temporaries ended: the next ones start at the locals again.
      if (this.padUsed && this.stack.length === 0 && !this.massign) this.pad = 0;
    }
    if (this.stack.length > 0) this.declareLocals(pc, out);
    if (this.stack.length > 0) this.foldLeftovers(0);
    if (this.stack.length > 0 && !this.massign) this.declarePending(Number.POSITIVE_INFINITY, pc, out);
    if (this.stack.length > 0) this.fail(`${this.stack.length} value(s) left unconsumed at the end of a block`, pc);
    if (this.massign) this.finishAssignment(out);
    this.endScopes(end, out, true);
    const frame = this.frames.pop()!;
    this.outs.pop();
    for (const v of frame.keys()) if (this.scope[v.reg] === v) this.scope[v.reg] = undefined;
    this.nactvar = savedNact;
    // `break` and `return` must end their block: one followed by (dead) code was written `do break end`.
    for (let k = 0; k < out.length - 1; k++) {
      const st = out[k]!;
      if (st.k === 'break' || st.k === 'return') out[k] = { k: 'do', body: [st] };
    }
    return out;
  }

  /** The instruction whose successor is `end` (undefined when a DATA word or nothing precedes it). */
  private insnEndingAt(end: number): HksInstruction | undefined {
    for (let p = end - 1; p >= 0 && p >= end - 64; p--) {
      const i = this.at[p];
      if (i) return i.next === end ? i : undefined;
    }
    return undefined;
  }

  // -------------------------------------------------------------------------------------------------------------
  // One instruction (or a whole construct starting with it)

  private step(i: HksInstruction, end: number, ctx: BlockCtx, out: Stmt[]): number {
    const outer = this.opStart;
    this.opStart = i.pc;
    try {
      if (this.infer) this.inferBefore(i, out);
      return this.step1(i, end, ctx, out);
    } finally {
      this.opStart = Math.min(outer, this.opStart);
    }
  }

  private step1(i: HksInstruction, end: number, ctx: BlockCtx, out: Stmt[]): number {
    const pc = i.pc;
    switch (i.family) {
      case 'MOVE': {
        // A MOVE down onto a pending value stores a temporary into it: that value is a local (inferred mode).
        if (this.infer && i.a < i.b && i.a >= this.nactvar && i.a < this.top() && !(this.capture && this.capture.reg === i.a)) this.declarePending(i.a + 1, pc);
        if (i.a < this.nactvar && !(this.capture && this.capture.reg === i.a)) {
          const { expr, entry } = this.takeEntry(i.b, pc);
          this.assign({ k: 'local', v: this.scope[i.a]! }, expr, entry, pc, out);
          return i.next;
        }
        this.write(i.a, this.take(i.b, pc), pc, out);
        return i.next;
      }
      case 'LOADK':
        this.write(i.a, this.constant(i.bx, pc), pc, out);
        return i.next;
      case 'LOADBOOL':
        if (i.c !== 0) this.fail('LOADBOOL with skip outside a value expression', pc);
        this.write(i.a, { k: 'bool', value: i.b !== 0 }, pc, out);
        return i.next;
      case 'LOADNIL':
        for (let r = i.a; r <= i.b; r++) this.write(r, { k: 'nil' }, pc, out, { nil: true });
        return i.next;
      case 'GETUPVAL':
        this.write(i.a, this.upval(i.b, pc), pc, out);
        return i.next;
      case 'GETGLOBAL':
        this.write(i.a, { k: 'global', name: this.globalName(i.bx, pc) }, pc, out);
        return i.next;
      case 'GETTABLE': {
        const [obj, key] = this.operands2(i.b, i.c, pc);
        this.write(i.a, { k: 'index', obj, key }, pc, out);
        return i.next;
      }
      case 'SETGLOBAL': {
        const { expr, entry } = this.takeEntry(i.a, pc);
        this.assign({ k: 'global', name: this.globalName(i.bx, pc) }, expr, entry, pc, out);
        return i.next;
      }
      case 'SETUPVAL': {
        this.typeFromCheck(this.ctx.upvalues[i.b], i.a);
        const { expr, entry } = this.takeEntry(i.a, pc);
        this.assign(this.upval(i.b, pc), expr, entry, pc, out);
        return i.next;
      }
      case 'SETTABLE':
        return this.setTable(i, out);
      case 'NEWTABLE':
        this.write(i.a, { k: 'table', items: [] }, pc, out, { table: { items: [], hashLimit: hksFloatingByteToInt(i.c), hashCount: 0 } });
        return i.next;
      case 'SETLIST':
        return this.setList(i);
      case 'SELF': {
        const key = this.operand(i.c, pc);
        const obj = this.take(i.b, pc);
        if (key.k !== 'string') this.fail('SELF with a non-string key', pc);
        this.pushSelf(i, obj, key.value);
        return i.next;
      }
      case 'SELFSLOT':
      case 'SELFSLOTMT': {
        const obj = this.take(i.b, pc);
        this.pushSelf(i, obj, this.slotName(obj, i, false));
        return i.next;
      }
      case 'GETSLOT':
      case 'GETSLOTMT': {
        const obj = this.take(i.b, pc);
        this.write(i.a, { k: 'index', obj, key: { k: 'string', value: this.slotName(obj, i, false) } }, pc, out);
        return i.next;
      }
      case 'NEWSTRUCT': {
        const s = this.ctx.structs.byId(i.data.length > 0 ? hksBx(i.data[0]!) : -1);
        if (!s) this.fail('NEWSTRUCT of a structure the section does not declare', pc);
        this.write(i.a, { k: 'table', items: [], struct: s.name }, pc, out, { table: { items: [], hashLimit: hksFloatingByteToInt(i.c), hashCount: 0 } });
        return i.next;
      }
      case 'SETSLOTN':
      case 'SETSLOTI':
      case 'SETSLOT':
      case 'SETSLOTS':
      case 'SETSLOTMT':
        return this.setSlot(i, out);
      case 'CHECKTYPE':
      case 'CHECKTYPES':
        this.typeCheck(i, out);
        return i.next;
      case 'ARITH': {
        const [l, r] = this.operands2(i.b, i.c, pc);
        this.write(i.a, { k: 'binop', op: i.operator!, l, r }, pc, out);
        return i.next;
      }
      case 'UNM':
      case 'NOT':
      case 'LEN': {
        const e = this.take(i.b, pc);
        this.write(i.a, { k: 'unop', op: i.family === 'UNM' ? '-' : i.family === 'NOT' ? 'not' : '#', e }, pc, out);
        return i.next;
      }
      case 'CONCAT': {
        if (i.c <= i.b) this.fail(`CONCAT of registers ${i.b}..${i.c}`, pc);
        const parts = this.takeList(i.b, i.c - i.b + 1, pc);
        let e = parts[parts.length - 1]!;
        for (let k = parts.length - 2; k >= 0; k--) e = { k: 'binop', op: '..', l: parts[k]!, r: e };
        this.write(i.a, e, pc, out);
        return i.next;
      }
      case 'CALL':
        return this.call(i, out);
      case 'TAILCALL': {
        const call = this.callExpr(i);
        this.declarePending(i.a, pc, out);
        out.push({ k: 'return', exprs: [call], line: this.line(pc) });
        // The unreachable RETURN A 0 after a tail call.
        const ret = this.at[i.next];
        return ret && ret.family === 'RETURN' && ret.b === 0 ? ret.next : i.next;
      }
      case 'RETURN': {
        const exprs = i.b === 0 ? this.takeList(i.a, 'top', pc) : this.takeList(i.a, i.b - 1, pc);
        this.declarePending(Number.POSITIVE_INFINITY, pc, out);
        out.push({ k: 'return', exprs, line: this.line(pc) });
        return i.next;
      }
      case 'VARARG': {
        if (i.b === 2) {
          this.write(i.a, { k: 'vararg' }, pc, out);
          return i.next;
        }
        const top = this.top();
        if (i.a !== top) this.fail('VARARG below the free register', pc);
        this.push({ reg: i.a, span: i.b === 0 ? 1 : i.b - 1, expr: { k: 'vararg' }, open: i.b === 0, pc });
        return i.next;
      }
      case 'CLOSURE':
        return this.closure(i, out);
      case 'CLOSE': {
        // `break` out of blocks with captured locals closes them first.
        this.declarePending(Number.POSITIVE_INFINITY, pc);
        const j = this.at[i.next];
        if (j && j.family === 'JMP' && ctx.breakTo !== null && this.sameTarget(jumpTarget(j), ctx.breakTo) && this.stack.length === 0) {
          out.push({ k: 'break', line: this.line(j.pc) });
          return j.next;
        }
        // Not a block's own end nor a break's: the locals above A leave scope here (a do block).
        if (this.infer) {
          this.declarePending(Number.POSITIVE_INFINITY, pc, out);
          this.closeFrom(i.a, pc, out);
        } else this.endScopes(pc, out, false);
        return i.next;
      }
      case 'JMP':
        return this.jump(i, end, ctx, out);
      case 'EQ':
      case 'LT':
      case 'LE':
      case 'TEST':
      case 'TESTSET':
        return this.branchAt(i, end, ctx, out);
      case 'FORPREP':
        return this.forNum(i, out);
      default:
        this.fail(`${i.name} not supported here`, pc);
    }
  }

  private globalName(k: number, pc: number): string {
    const c = this.fn.constants[k];
    if (!c || c.type !== 'string' || c.value === null) this.fail(`global name K(${k}) is not a string`, pc);
    return c.value;
  }

  private upval(index: number, pc: number): Expr {
    const ref = this.ctx.upvalues[index];
    if (ref === undefined) this.fail(`upvalue ${index} out of range`, pc);
    return { k: 'upval', ref, index };
  }

  // -------------------------------------------------------------------------------------------------------------
  // Structures: slot access, hmake fields, type checks

  private pushSelf(i: HksInstruction, obj: Expr, name: string): void {
    const pc = i.pc;
    if (this.top() > i.a) this.fail(`SELF into ${i.a} below pending values`, pc);
    const top = this.top();
    if (i.a !== top) this.fail(`SELF into ${i.a}, free register ${top}`, pc);
    this.push({ reg: i.a, span: 2, expr: { k: 'index', obj, key: { k: 'string', value: name } }, open: false, pc, self: { obj, name } });
  }

  /** The structure an expression statically is (what the compiler knows of its type), if any. */
  private structOf(e: Expr): StructInfo | undefined {
    const structs = this.ctx.structs;
    switch (e.k) {
      case 'local':
        return e.v.type !== undefined ? structs.byName(e.v.type) : undefined;
      case 'upval':
        return e.ref.type !== undefined ? structs.byName(e.ref.type) : undefined;
      case 'table':
        return e.struct !== undefined ? structs.byName(e.struct) : undefined;
      case 'index': {
        const s = e.key.k === 'string' ? this.structOf(e.obj) : undefined;
        const slot = s && e.key.k === 'string' ? structs.slotNamed(s, e.key.value) : undefined;
        return slot ? structs.slotStruct(slot) : undefined;
      }
      default:
        return undefined;
    }
  }

  /**
   * The slot name a GETSLOT / SETSLOT* / SELFSLOT (or `MT` chain) on `obj` reads or writes. A variable the code
   * indexes through slots is typed: when its type is not known yet, the first structure whose slot fits (the one it
   * was made from preferred) becomes its type.
   */
  private slotName(obj: Expr, i: HksInstruction, store: boolean): string {
    const structs = this.ctx.structs;
    let chain: [number, number][] | null = null;
    let position = i.c;
    if (i.family === 'GETSLOTMT' || i.family === 'SELFSLOTMT') chain = i.data.map((w) => [hksA(w), hksBx(w)]);
    else if (i.family === 'SETSLOTMT') chain = i.data.slice(i.b >> 4 === 12 ? 1 : 0).map((w) => [hksA(w), hksBx(w)]);
    else if (i.family !== 'SETSLOTN' && i.family !== 'GETSLOT' && i.family !== 'SELFSLOT') position = i.b;
    const find = (s: StructInfo): string | undefined => (chain ? structs.nameForChain(s, chain, store) : structs.directSlot(s, position, store))?.name;
    const known = this.structOf(obj);
    if (known) {
      const n = find(known);
      if (n === undefined) this.fail(`${i.name} on an instance of ${known.name}: no slot fits`, i.pc);
      return n;
    }
    const holder: NameRef | undefined = obj.k === 'local' ? obj.v : obj.k === 'upval' ? obj.ref : undefined;
    if (!holder) this.fail(`${i.name} on a value of unknown structure`, i.pc);
    const made = obj.k === 'local' ? this.madeFrom(obj.v) : undefined;
    for (const s of made ? [made, ...structs.list] : structs.list) {
      const n = find(s);
      if (n !== undefined) {
        holder.type = s.name;
        return n;
      }
    }
    this.fail(`${i.name}: no structure has a slot that fits`, i.pc);
  }

  /** The structure of the `hmake` a local was declared with, if it was. */
  private madeFrom(v: LocalVar): StructInfo | undefined {
    for (let d = this.outs.length - 1; d >= 0; d--) {
      for (const st of this.outs[d]!) {
        if (st.k !== 'local') continue;
        const k = st.vars.indexOf(v);
        const e = k >= 0 ? st.exprs[k] : undefined;
        if (e) return this.structOf(e);
      }
    }
    return undefined;
  }

  /** A SETSLOT* store: a field of the `hmake` being built, or an assignment to `obj.slot`. */
  private setSlot(i: HksInstruction, out: Stmt[]): number {
    const pc = i.pc;
    const tIdx = i.a >= this.nactvar ? this.pendingAt(i.a) : -1;
    const t = tIdx >= 0 ? this.stack[tIdx]! : undefined;
    const hasValue = i.family !== 'SETSLOTN';
    if (t?.table && t.reg === i.a && this.isHmakeField(i, t)) {
      // Constructor fields are stored straight into the instance's own slot.
      const s = this.structOf(t.expr)!;
      const slot = this.ctx.structs.slotAt(s, i.family === 'SETSLOTN' ? i.c : i.b);
      if (!slot || slot.name === null) this.fail(`${i.name} at a position ${s.name} has no slot at`, pc);
      const value: Expr = !hasValue ? { k: 'nil' } : isConstantOperand(i.c) ? this.constant(i.c - HKS_K, pc) : this.take(i.c, pc);
      if (i.family === 'SETSLOTI') this.typeFromSlot(value, slot);
      this.addItem(t, pc, { k: 'field', key: { k: 'string', value: slot.name }, value });
      return i.next;
    }
    // SETSLOTN stores a nil it does not read: in a multiple assignment, the nil on top of the values.
    const nil = hasValue ? undefined : this.nilValueFor(i);
    const v = !hasValue ? (nil ? this.takeEntry(nil.reg, pc) : { expr: { k: 'nil' } as Expr, entry: null }) : isConstantOperand(i.c) ? { expr: this.constant(i.c - HKS_K, pc), entry: null } : this.takeEntry(i.c, pc);
    const obj = this.take(i.a, pc);
    const name = this.slotName(obj, i, true);
    if (i.family === 'SETSLOTI') {
      const s = this.structOf(obj);
      const slot = s ? this.ctx.structs.slotNamed(s, name, true) : undefined;
      if (slot) this.typeFromSlot(v.expr, slot);
    }
    this.assign({ k: 'index', obj, key: { k: 'string', value: name } }, v.expr, v.entry, pc, out);
    return i.next;
  }

  /**
   * Whether a SETSLOT* into the pending instance `t` is a field of its `hmake`: the value (when in a register) is the
   * one value computed after it, on top of the pending values (array items may wait below it).
   */
  private isHmakeField(i: HksInstruction, t: Pending): boolean {
    if (t.expr.k !== 'table' || t.expr.struct === undefined) return false;
    const top = this.stack[this.stack.length - 1];
    if (i.family === 'SETSLOTN' || isConstantOperand(i.c) || i.c < t.reg) return top === t || (top !== undefined && !top.nil && top.span === 1 && top.reg > t.reg && !top.open);
    return top !== undefined && top !== t && top.reg === i.c && top.span === 1 && !top.open;
  }

  /** The pending nil a SETSLOTN of a multiple assignment stores (the top value, above its instance). */
  private nilValueFor(i: HksInstruction): Pending | undefined {
    const t = this.stack[this.stack.length - 1];
    return t && t.nil && t.reg > i.a && t.span === 1 ? t : undefined;
  }

  /** An unchecked slot store (SETSLOTI) of a variable: the variable has the slot's type. */
  private typeFromSlot(value: Expr, slot: HksSlot): void {
    const holder: NameRef | undefined = value.k === 'local' ? value.v : value.k === 'upval' ? value.ref : undefined;
    const type = this.ctx.structs.slotTypeName(slot);
    if (holder && holder.type === undefined && type !== null && type !== 'object') holder.type = type;
  }

  /**
   * CHECKTYPE / CHECKTYPES: a value is stored into a typed variable. The compiler checks a local's own register: a
   * parameter or loop variable where it starts, an assigned local right after the store, a declared local before it
   * starts (then the check waits for the declaration, `typeFromCheck`); an upvalue's new value is checked before the
   * SETUPVAL that stores it.
   */
  private typeCheck(i: HksInstruction, out: Stmt[]): void {
    const name = i.family === 'CHECKTYPES' ? this.ctx.structs.byId(i.bx)?.name : typeName(i.bx);
    if (name === undefined || name === '?') this.fail(`${i.name} of an unknown type ${i.bx}`, i.pc);
    let j = this.at[i.next];
    while (j && (j.family === 'CHECKTYPE' || j.family === 'CHECKTYPES')) j = this.at[j.next];
    const upvalueStore = j !== undefined && j.family === 'SETUPVAL' && j.a === i.a;
    const v = i.a < this.nactvar ? this.scope[i.a] : undefined;
    if (v && !upvalueStore) {
      v.type ??= name;
      return;
    }
    this.checks.set(i.a, name);
    // Stripped: a checked temporary that no store takes next is a typed local's declaration.
    if (this.infer && !upvalueStore && i.a >= this.nactvar && this.pendingAt(i.a) >= 0) this.declarePending(i.a + 1, i.pc, out);
  }

  /** Gives `v` the type a CHECKTYPE of register `reg` (default: its own) announced. */
  private typeFromCheck(v: NameRef | undefined, reg?: number): void {
    const r = reg ?? (v as LocalVar | undefined)?.reg;
    if (!v || r === undefined) return;
    const t = this.checks.get(r);
    if (t === undefined) return;
    this.checks.delete(r);
    v.type ??= t;
  }

  private setTable(i: HksInstruction, out: Stmt[]): number {
    const pc = i.pc;
    const tIdx = i.a >= this.nactvar ? this.pendingAt(i.a) : -1;
    const t = tIdx >= 0 ? this.stack[tIdx]! : undefined;
    // hmake: every SETTABLE on the instance is a field (keys that may be slots take no hash space).
    const isStruct = t?.expr.k === 'table' && t.expr.struct !== undefined;
    if (t?.table && t.reg === i.a && (t.table.hashCount < t.table.hashLimit || isStruct)) {
      // A record field of the constructor being built.
      const [key, value] = this.operands2(i.b, i.c, pc);
      t.table.hashCount++;
      this.addItem(t, pc, { k: 'field', key, value });
      return i.next;
    }
    const v = isConstantOperand(i.c) ? { expr: this.constant(i.c - HKS_K, pc), entry: null } : this.takeEntry(i.c, pc);
    const key = this.operand(i.b, pc);
    const obj = this.take(i.a, pc);
    this.assign({ k: 'index', obj, key }, v.expr, v.entry, pc, out);
    return i.next;
  }

  private setList(i: HksInstruction): number {
    const pc = i.pc;
    const tIdx = this.pendingAt(i.a);
    const t = tIdx >= 0 ? this.stack[tIdx]! : undefined;
    if (!t?.table || t.reg !== i.a) this.fail('SETLIST on a register that is not a table being constructed', pc);
    const values: Pending[] = [];
    if (i.b === 0) {
      while (this.stack.length - 1 > tIdx) values.unshift(this.stack.pop()!);
    } else {
      let need = i.b;
      while (need > 0 && this.stack.length - 1 > tIdx) {
        const p = this.stack.pop()!;
        values.unshift(p);
        need -= p.span;
      }
      if (need !== 0) this.fail('SETLIST count does not match the pending values', pc);
    }
    for (const v of values) this.addItem(t, v.pc, { k: 'item', value: v.expr });
    return i.next;
  }

  /** Constructor items in source order: the order their code was emitted. */
  private addItem(t: Pending, pc: number, item: TableItem): void {
    const tb = t.table!;
    if (t.expr.k !== 'table') return;
    const items = t.expr.items;
    // Items arrive almost in order (array values wait for SETLIST): insert from the end.
    let k = tb.items.length;
    while (k > 0 && tb.items[k - 1]!.pc > pc) k--;
    tb.items.splice(k, 0, { pc, item });
    items.splice(k, 0, item);
  }

  private closure(i: HksInstruction, out: Stmt[]): number {
    const pc = i.pc;
    const names: NameRef[] = [];
    // `local function f` registers f before its body: the closure captures its own register.
    let self = this.localStartingAfter(i);
    if (!self && this.infer && this.stack.length === 0 && i.a === this.nactvar && i.data.some((d) => (d & 0xff) === 1 && ((d >>> 8) & 0x1ffff) === i.a)) {
      self = this.newLocal(i.a, i.next);
      // A profile build still names the prototype after the local.
      this.nameFromPrototype(self, this.fn.children[i.bx]?.debug?.name);
    }
    // Profile builds: a prototype named by a bare identifier is `local function NAME` or `function NAME()`; the
    // latter stores the closure at once (SETGLOBAL / SETUPVAL), so a closure kept in the free register is the former.
    const protoName = this.fn.children[i.bx]?.debug?.name;
    if (!self && this.infer && this.stack.length === 0 && i.a === this.nactvar && protoName && isLuaIdentifier(protoName) && !this.storesRegister(this.at[i.next], i.a)) {
      self = this.newLocal(i.a, i.next);
      this.nameFromPrototype(self, protoName);
    }
    let selfCapture = false;
    for (const d of i.data) {
      const kind = d & 0xff;
      const idx = (d >>> 8) & 0x1ffff;
      if (kind === 1) {
        if (idx === i.a && i.a >= this.nactvar && self) {
          selfCapture = true;
          names.push(self);
          continue;
        }
        const v = idx < this.nactvar ? this.scope[idx] : undefined;
        if (!v) this.fail(`closure captures register ${idx}, which is not a local`, pc);
        v.captured = true;
        names.push(v);
      } else if (kind === 2) {
        const n = this.ctx.upvalues[idx];
        if (n === undefined) this.fail(`closure shares upvalue ${idx}, which does not exist`, pc);
        names.push(n);
      } else {
        this.fail(`closure capture word with kind ${kind}`, pc);
      }
    }
    const child = this.ctx.child(i.bx, names);
    // `local function f` also when the body does not refer to f: the name the compiler gave the prototype says so
    // (stripped: the same code either way).
    if (self && !selfCapture && this.stack.length === 0 && i.a === this.nactvar && (sameFunctionName(self.name, child.name) || (child.name === undefined && !this.fn.debug))) selfCapture = true;
    // Profile: a prototype named after a local that a global store then takes (`local function f … end; G = f`).
    const nx = this.at[i.next];
    if (!self && this.infer && this.fn.debug && this.stack.length === 0 && i.a === this.nactvar && nx?.family === 'SETGLOBAL' && nx.a === i.a) {
      const protoName = child.name;
      if (protoName && isLuaIdentifier(protoName) && this.globalName(nx.bx, nx.pc) !== protoName) {
        self = this.newLocal(i.a, i.next);
        self.name = protoName;
        selfCapture = true;
      }
    }
    if (selfCapture && self) {
      if (this.stack.length > 0 || i.a !== this.nactvar) this.fail('local function below pending values', pc);
      this.scope[self.reg] = self;
      this.nactvar = self.reg + 1;
      this.declared.add(self);
      self.captured = true;
      this.frames[this.frames.length - 1]!.set(self, out.length);
      out.push({ k: 'localfunction', v: self, fn: child, line: this.line(pc) });
      return i.next;
    }
    this.write(i.a, { k: 'function', fn: child }, pc, out);
    return i.next;
  }

  /** Names an inferred local after the prototype the compiler named after it (profile builds keep the names). */
  private nameFromPrototype(v: LocalVar, protoName: string | null | undefined): void {
    if (!this.infer || protoName === null || protoName === undefined || !isLuaIdentifier(protoName) || !/^l_\d+_\d+$/.test(v.name)) return;
    v.name = protoName;
  }

  /** `i` stores register `reg` somewhere (a global, an upvalue, a table or structure slot, another register). */
  private storesRegister(i: HksInstruction | undefined, reg: number): boolean {
    if (!i) return false;
    if (i.family === 'SETGLOBAL' || i.family === 'SETUPVAL') return i.a === reg;
    if (i.family === 'MOVE') return i.b === reg;
    if (i.family === 'SETTABLE' || i.family.startsWith('SETSLOT')) return i.c === reg;
    return false;
  }

  private localStartingAfter(i: HksInstruction): LocalVar | undefined {
    return this.startsAt.get(i.next)?.find((v) => v.reg === i.a && v.kind === 'local');
  }

  private callExpr(i: HksInstruction): Expr & { k: 'call' } {
    const pc = i.pc;
    const base = this.pendingAt(i.a);
    if (base < 0) this.fail(`call of register ${i.a}, which holds no pending value`, pc);
    const f = this.stack[base]!;
    if (f.reg !== i.a) this.fail('call base inside a multi-register value', pc);
    const argFrom = f.self ? i.a + 2 : i.a + 1;
    const args = i.b === 0 ? this.takeList(argFrom, 'top', pc) : this.takeList(argFrom, i.b - 1 - (f.self ? 1 : 0), pc);
    if (this.stack[this.stack.length - 1] !== f) this.fail('call arguments out of order', pc);
    this.stack.pop();
    if (f.self) return { k: 'call', fn: f.self.obj, args, method: f.self.name, line: this.line(pc) };
    return { k: 'call', fn: f.expr, args, line: this.line(pc) };
  }

  private call(i: HksInstruction, out: Stmt[]): number {
    const pc = i.pc;
    const call = this.callExpr(i);
    if (i.c === 1) {
      this.declarePending(i.a, pc, out);
      out.push({ k: 'call', call, line: this.line(pc) });
      return i.next;
    }
    if (i.c === 2) {
      this.write(i.a, call, pc, out);
      return i.next;
    }
    const top = this.top();
    if (i.a !== top) this.fail(`call result in ${i.a}, free register ${top}`, pc);
    this.push({ reg: i.a, span: i.c === 0 ? 1 : i.c - 1, expr: call, open: i.c === 0, pc });
    return i.next;
  }

  // -------------------------------------------------------------------------------------------------------------
  // Jumps

  /** A jump to `t` also means `p` when the JMP at `p` goes to `t` (it took the jump along: luaK_jump threading). */
  private sameTarget(t: number, p: number): boolean {
    if (t === p) return true;
    const j = this.at[p];
    return j !== undefined && j.family === 'JMP' && jumpTarget(j) === t;
  }

  /**
   * Where a block that starts at `from` and ends with its enclosing block (`end`) really ends when its exit jump
   * lands on `t`: `t` itself inside the block, `end` when the JMP at `end` took it along, or the last JMP to `t`
   * inside the enclosing block (a `break` that took it along).
   */
  private resolveExit(t: number, from: number, end: number): number | null {
    if (t >= from && t <= end) return t;
    if (this.sameTarget(t, end)) return end;
    for (let p = end - 1; p >= from; p--) {
      const j = this.at[p];
      if (j && j.family === 'JMP' && jumpTarget(j) === t && !this.isTestJump(p)) return p;
    }
    return null;
  }

  /** The JMP at `p` is the second half of a test. */
  private isTestJump(p: number): boolean {
    const prev = this.insnEndingAt(p);
    return prev !== undefined && this.isTest(prev);
  }

  private jump(i: HksInstruction, end: number, ctx: BlockCtx, out: Stmt[]): number {
    const pc = i.pc;
    const t = jumpTarget(i);
    // Generic for: JMP to the TFORLOOP at the loop end, which jumps back to the body start.
    const tf = this.at[t];
    if (tf && tf.family === 'TFORLOOP' && t > pc) {
      const back = this.at[tf.next];
      if (back && back.family === 'JMP' && jumpTarget(back) === i.next) return this.forIn(i, tf, back, out);
    }
    if (t > pc && this.loadBoolPair(t)) {
      // A constant operand (`true or x`) compiles to an unconditional jump inside a value network.
      const value = this.valueNetwork(i, end);
      if (value) {
        this.write(value.reg, value.expr, pc, out);
        return value.next;
      }
    }
    if (this.stack.length > 0) this.foldLeftovers(0);
    if (this.stack.length > 0) this.declarePending(Number.POSITIVE_INFINITY, pc, out);
    if (this.stack.length > 0) this.fail('jump with pending values', pc);
    if (ctx.until?.always && pc === ctx.until.lastJump) {
      this.untilCond = { k: 'bool', value: false };
      return i.next;
    }
    // `until false` of a loop with captured locals: an unconditional jump past the closing break.
    if (ctx.until && !ctx.until.always && t === ctx.until.falseTo && i.next === ctx.until.trueAt) {
      this.untilCond = { k: 'bool', value: false };
      return i.next;
    }
    if (ctx.breakTo !== null && this.sameTarget(t, ctx.breakTo)) {
      out.push({ k: 'break', line: this.line(pc) });
      return i.next;
    }
    // `if false then … end`: the condition is a constant false, the block is still compiled.
    if (this.resolveExit(t, i.next, end) !== null) return this.ifStatement({ k: 'bool', value: false }, i.next, t, end, ctx, out, pc);
    this.fail(`jump to ${t} leaves the block [.., ${end})`, pc);
  }

  // -------------------------------------------------------------------------------------------------------------
  // Loops

  /** A loop starting at `pc` (a backward jump from inside the block lands here). Returns the pc after it. */
  private loopAt(pc: number, end: number, ctx: BlockCtx, out: Stmt[]): number | null {
    const srcs = this.sources.get(pc);
    if (!srcs) return null;
    // The outermost loop ending here: the last backward jump to `pc` whose range nothing outside jumps into.
    // In a melded repeat (below) the other backward jumps to its head are atoms of its until-condition.
    if (ctx.until?.meld === pc) return null;
    const candidates = srcs.filter((s) => s >= pc && s < end && this.at[s]!.family === 'JMP' && !(ctx.until && s === ctx.until.lastJump)).sort((a, b) => b - a);
    const last = candidates.find((s) => this.closedRange(pc, s) && this.localsInside(pc, s + 1)) ?? -1;
    if (last < 0) return null;
    const back = this.at[last]!;
    const prev = this.insnEndingAt(last);
    if (prev && this.isTest(prev)) {
      // Several tests jumping back to one head are `repeat … until a and b` or nested repeats ending together;
      // without debug info the one loop is tried first: its locals stay in scope for the whole condition.
      if (this.infer && candidates.some((s) => s < last)) {
        const saved = this.snapshot();
        const outLength = out.length;
        try {
          return this.repeatLoop(pc, back, { falseTo: pc, trueAt: back.next, lastJump: back.pc, meld: pc }, out);
        } catch (e) {
          if (!(e instanceof DecompileFailure)) throw e;
          this.restore(saved);
          out.length = outLength;
        }
      }
      return this.repeatLoop(pc, back, { falseTo: pc, trueAt: back.next, lastJump: back.pc }, out);
    }
    // `repeat … until c` whose body has captured locals: c; CLOSE; JMP exit; CLOSE; JMP head.
    if (prev && prev.family === 'CLOSE') {
      const brk = this.insnEndingAt(prev.pc);
      const close1 = brk ? this.insnEndingAt(brk.pc) : undefined;
      if (brk && brk.family === 'JMP' && close1 && close1.family === 'CLOSE' && close1.a === prev.a && this.sameTarget(jumpTarget(brk), back.next)) {
        const saved = this.snapshot();
        try {
          return this.repeatLoop(pc, back, { falseTo: prev.pc, trueAt: close1.pc, lastJump: back.pc }, out);
        } catch (e) {
          if (!(e instanceof DecompileFailure)) throw e;
          this.restore(saved);
        }
      }
    }
    return this.whileLoop(pc, back, out);
  }

  /** Every local declared in (from, to) ends by `to` (a loop there holds its scopes). */
  private localsInside(from: number, to: number): boolean {
    for (const v of this.ctx.locals) if (v.startPc > from && v.startPc < to && v.endPc > to) return false;
    return true;
  }

  /** The first register write from `pc` on at or above `free` is above it (a local of the block lives on). */
  private writesAboveFree(pc: number, free: number): boolean {
    const w = this.firstWriteFrom(pc, free);
    return w !== null && w > free;
  }

  /** The register of the first write from `pc` on at or above `free` (null when none is seen). */
  private firstWriteFrom(pc: number, free: number): number | null {
    for (let n = 0; n < 64 && pc < this.size; n++) {
      const i = this.at[pc];
      if (!i) return null;
      if (WRITES_A.has(i.family) && i.a >= free) return i.a;
      pc = i.next;
    }
    return null;
  }

  /** No jump from outside [from, to] lands inside (from, to]. */
  private closedRange(from: number, to: number): boolean {
    for (let p = from + 1; p <= to; p++) {
      for (const s of this.sources.get(p) ?? []) if (s < from || s > to) return false;
    }
    return true;
  }

  private isTest(i: HksInstruction): boolean {
    return i.family === 'EQ' || i.family === 'LT' || i.family === 'LE' || i.family === 'TEST' || i.family === 'TESTSET';
  }

  private whileLoop(head: number, back: HksInstruction, out: Stmt[]): number {
    const exit = back.next;
    // `repeat … until false` is the same jump as `while true do … end`; its locals' scope includes the (empty)
    // condition, so debug info shows them ending after the jump.
    if (this.ctx.locals.some((v) => v.kind === 'local' && v.startPc > head && v.startPc <= back.pc && v.endPc === exit)) {
      const body = this.block(head, exit, { end: exit, breakTo: exit, until: { falseTo: head, trueAt: exit, lastJump: back.pc, always: true } }, false);
      this.untilCond = null;
      out.push({ k: 'repeat', body, cond: { k: 'bool', value: false }, line: this.line(back.pc) });
      return exit;
    }
    // The condition: a network at the head whose false exit leaves the loop.
    const cond = this.tryCondition(head, back.pc, (f) => this.sameTarget(f, exit));
    const bodyStart = cond ? cond.bodyStart : head;
    const body = this.block(bodyStart, back.pc, { end: back.pc, breakTo: exit });
    out.push({ k: 'while', cond: cond ? cond.expr : { k: 'bool', value: true }, body, line: this.line(back.pc) });
    return exit;
  }

  private repeatLoop(head: number, back: HksInstruction, until: NonNullable<BlockCtx['until']>, out: Stmt[]): number {
    const exit = back.next;
    const end = until.trueAt === exit ? exit : until.trueAt;
    this.untilCond = null;
    const body = this.block(head, end, { end, breakTo: exit, until }, false);
    const cond = this.untilCond as Expr | null;
    this.untilCond = null;
    if (!cond) this.fail('repeat loop without its until-condition', back.pc);
    out.push({ k: 'repeat', body, cond, line: this.line(until.lastJump) });
    return exit;
  }

  private forNum(i: HksInstruction, out: Stmt[]): number {
    const pc = i.pc;
    const loopPc = jumpTarget(i);
    const loop = this.at[loopPc];
    if (!loop || loop.family !== 'FORLOOP' || loop.a !== i.a || jumpTarget(loop) !== i.next) this.fail('FORPREP without its FORLOOP', pc);
    this.declarePending(i.a, pc, out);
    if (i.a !== this.nactvar) this.fail('numeric for base is not the free register', pc);
    const [start, limit, step] = this.takeList(i.a, 3, pc);
    if (this.stack.length > 0) this.fail('temporaries below a numeric for', pc);
    const hidden = this.bindLoopLocals(i.a, 3, pc, 'hidden');
    const v = this.bindLoopLocals(i.a + 3, 1, i.next, 'for')[0]!;
    const body = this.block(i.next, loopPc, { end: loopPc, breakTo: loop.next });
    this.unbind([...hidden, v]);
    const s: Stmt & { k: 'fornum' } = { k: 'fornum', v, start: start!, limit: limit!, body, line: this.line(loopPc) };
    // The default step is the constant 1, the same code as an explicit `, 1`.
    if (!(step!.k === 'number' && step!.value === 1)) s.step = step!;
    out.push(s);
    return loop.next;
  }

  private forIn(jmp: HksInstruction, tf: HksInstruction, back: HksInstruction, out: Stmt[]): number {
    const pc = jmp.pc;
    const base = tf.a;
    this.declarePending(base, pc, out);
    if (base !== this.nactvar) this.fail('generic for base is not the free register', pc);
    const entries = this.stack.filter((p) => p.reg >= base);
    this.stack = this.stack.filter((p) => p.reg < base);
    if (this.stack.length > 0) this.fail('temporaries below a generic for', pc);
    const exprs = entries.map((p) => p.expr);
    // Trailing nil padding of the three control values is implicit.
    while (exprs.length > 1 && entries[exprs.length - 1]!.nil) exprs.pop();
    const hidden = this.bindLoopLocals(base, 3, pc, 'hidden');
    const vars = this.bindLoopLocals(base + 3, tf.c, jmp.next, 'for');
    // Values past the three control values keep their registers until the body's first statement ends (Lua 5.1's
    // forlist reserves the loop variables above them): that statement's temporaries start higher.
    const last = entries[entries.length - 1];
    this.pad = last ? Math.max(0, last.reg + last.span - base - 3) : 0;
    this.padUsed = false;
    const body = this.block(jmp.next, tf.pc, { end: tf.pc, breakTo: back.next });
    this.pad = 0;
    this.unbind([...hidden, ...vars]);
    out.push({ k: 'forin', vars, exprs, body, line: this.line(tf.pc) });
    return back.next;
  }

  /** The loop's locals (from the records) bound to their registers. */
  private bindLoopLocals(reg: number, count: number, startPc: number, kind: 'hidden' | 'for'): LocalVar[] {
    const out: LocalVar[] = [];
    for (let k = 0; k < count; k++) {
      const r = reg + k;
      const v = this.infer ? this.newLocal(r, startPc, kind) : this.startsAt.get(startPc)?.find((l) => l.reg === r);
      if (!v) this.fail(`no local record for loop register ${r}`, startPc);
      if (this.infer && kind === 'hidden') v.name = `(for ${k})`;
      v.kind = kind;
      this.scope[r] = v;
      out.push(v);
    }
    this.nactvar = reg + count;
    return out;
  }

  private unbind(vars: LocalVar[]): void {
    let min = Infinity;
    for (const v of vars) {
      if (this.scope[v.reg] === v) this.scope[v.reg] = undefined;
      min = Math.min(min, v.reg);
    }
    if (min < this.nactvar) this.nactvar = min;
  }

  // -------------------------------------------------------------------------------------------------------------
  // Conditions and value networks

  private snapshot(): Snapshot {
    return {
      stack: this.stack.map((p) => ({ ...p })),
      nactvar: this.nactvar,
      scope: [...this.scope],
      declared: new Set(this.declared),
      outLength: this.outs[this.outs.length - 1]?.length ?? 0,
      frame: new Map(this.frames[this.frames.length - 1]),
      invented: this.invented,
    };
  }

  private restore(s: Snapshot): void {
    this.stack = s.stack.map((p) => ({ ...p }));
    this.nactvar = s.nactvar;
    this.scope = [...s.scope];
    this.declared = new Set(s.declared);
    const out = this.outs[this.outs.length - 1];
    if (out) out.length = Math.min(out.length, s.outLength);
    if (this.frames.length > 0) this.frames[this.frames.length - 1] = new Map(s.frame);
    this.invented = s.invented;
  }

  private branch(i: HksInstruction): Branch {
    const j = this.at[i.next];
    if (!j || j.family !== 'JMP') this.fail(`${i.name} not followed by a JMP`, i.pc);
    return { test: i, jmp: j, target: jumpTarget(j) };
  }

  /** The atom value and jump sense of a test instruction (its operands consumed). */
  private atomOf(b: Branch, atomStart: number): { expr: Expr; sense: boolean } {
    const i = b.test;
    const pc = i.pc;
    this.inferReads(i);
    switch (i.family) {
      case 'TEST':
        return { expr: this.take(i.a, pc), sense: i.c !== 0 };
      case 'TESTSET':
        return { expr: this.take(i.b, pc), sense: i.c !== 0 };
      default: {
        let op = COMPARE_OPS[i.family]!;
        const swapped = op !== '==' && this.comparisonSwapped(i, atomStart);
        let [l, r] = this.operands2(i.b, i.c, pc);
        // `a > b` / `a >= b` compile to LT / LE with the operands exchanged.
        if (swapped) {
          op = SWAPPED[op]!;
          [l, r] = [r, l];
        }
        return { expr: { k: 'binop', op, l, r }, sense: i.a !== 0 };
      }
    }
  }

  /**
   * Whether LT/LE B C was written `C > B` (`C >= B`): the compiler evaluates the left operand first, so the
   * operand whose code or constants came first is the left one. Evidence: temporaries in register order;
   * constants in allocation order (the constant table lists them as first used).
   */
  private comparisonSwapped(i: HksInstruction, atomStart: number): boolean {
    const bk = isConstantOperand(i.b);
    const ck = isConstantOperand(i.c);
    if (!bk && !ck) return i.b > i.c && i.c >= this.nactvar;
    const isNew = (k: number): boolean => {
      const f = this.firstRef[k] ?? -1;
      return f >= atomStart && f <= i.pc;
    };
    if (bk && ck) {
      const kb = i.b - HKS_K;
      const kc = i.c - HKS_K;
      return isNew(kb) && isNew(kc) && kb > kc;
    }
    const k = (bk ? i.b : i.c) - HKS_K;
    if (!isNew(k)) return false;
    let others = Infinity;
    for (let p = atomStart; p < i.pc; p++) {
      const x = this.at[p];
      if (!x) continue;
      for (const c of this.constantsOf(x)) if (c !== k && isNew(c)) others = Math.min(others, c);
    }
    if (others === Infinity) return false;
    const constantFirst = k < others;
    return bk ? !constantFirst : constantFirst;
  }

  /** Constant indices an instruction references (operands, global names, memo slots). */
  private constantsOf(i: HksInstruction): number[] {
    const out: number[] = [];
    if (i.family === 'LOADK' || i.family === 'GETGLOBAL' || i.family === 'SETGLOBAL') out.push(i.bx);
    if (i.family === 'GETGLOBAL' && i.data.length > 0) {
      const m = (i.data[0]! >>> 8) & 0x1ffff;
      out.push(m, m + 1);
    }
    if (isConstantOperand(i.b)) out.push(i.b - HKS_K);
    if (isConstantOperand(i.c)) out.push(i.c - HKS_K);
    return out;
  }

  /** First pc referencing each constant. */
  private firstRef: number[] = [];

  /**
   * Reached a test instruction while building a statement. Either a value network (TESTSET, a LOADBOOL pair, a
   * value kept in its register) whose result is written like any expression, or a condition (`if`, until).
   */
  private branchAt(i: HksInstruction, end: number, ctx: BlockCtx, out: Stmt[]): number {
    const value = this.valueNetwork(i, end);
    if (value) {
      this.write(value.reg, value.expr, i.pc, out);
      return value.next;
    }
    return this.conditional(i, end, ctx, out);
  }

  /** The LOADBOOL pair `R := false (skip); R := true` with one of its two pcs at `t`. */
  private loadBoolPair(t: number): { reg: number; pf: number; pt: number } | null {
    const a = this.at[t];
    if (!a || a.family !== 'LOADBOOL') return null;
    if (a.b === 0 && a.c !== 0) {
      const b = this.at[a.next];
      if (b && b.family === 'LOADBOOL' && b.b !== 0 && b.c === 0 && b.a === a.a) return { reg: a.a, pf: a.pc, pt: b.pc };
    }
    if (a.b !== 0 && a.c === 0) {
      const p = this.insnEndingAt(a.pc);
      if (p && p.family === 'LOADBOOL' && p.b === 0 && p.c !== 0 && p.a === a.a) return { reg: a.a, pf: p.pc, pt: a.pc };
    }
    return null;
  }

  /** The instruction ending at `t` writes register `reg`. */
  private writesBefore(t: number, reg: number): boolean {
    const p = this.insnEndingAt(t);
    return p !== undefined && (WRITES_A.has(p.family) || p.family === 'SETLIST' || p.family === 'SETTABLE') && p.a === reg;
  }

  /**
   * A value network whose first test is `first` (the test's operand code already built): the register it fills,
   * its expression and the pc after it; null (state unchanged) when the test starts a condition instead.
   */
  private valueNetwork(first: HksInstruction, end: number): { reg: number; expr: Expr; next: number } | null {
    const cand = this.valueCandidate(first, end);
    if (!cand) return null;
    const saved = this.snapshot();
    const savedCapture = this.capture;
    try {
      const r = this.parseValueNetwork(first, cand.reg, cand.final, cand.bools);
      if (r) return r;
    } catch (e) {
      if (!(e instanceof DecompileFailure)) throw e;
    } finally {
      this.capture = savedCapture;
    }
    this.restore(saved);
    return null;
  }

  /**
   * Where a value network starting at `first` would end and which register it fills: the target of a TESTSET
   * (or a LOADBOOL pair) among the forward jumps of the tests that follow; or, for a TEST of a pending
   * temporary, its own target when the code just before writes that register again (`f() or g`).
   */
  private valueCandidate(first: HksInstruction, end: number): { reg: number; final: number; bools: { reg: number; pf: number; pt: number } | null } | null {
    // The network's final label is the farthest target of its chain (nested networks jump inside their atom).
    let reach = -1;
    const tests: HksInstruction[] = [];
    let pc = first.pc;
    while (pc < end && (pc === first.pc || pc < reach)) {
      const i = this.at[pc];
      if (!i) return null;
      if (this.isTest(i) || i.family === 'JMP') {
        const j = i.family === 'JMP' ? i : this.at[i.next];
        if (!j || j.family !== 'JMP') return null;
        const t = jumpTarget(j);
        if (t <= j.pc) return null;
        if (i !== j) tests.push(i);
        reach = Math.max(reach, t);
        pc = j.next;
        continue;
      }
      if (!WRITES_A.has(i.family) && i.family !== 'SETTABLE' && i.family !== 'SETLIST') return null;
      if (i.family === 'CALL' && i.c === 1) return null;
      pc = i.next;
    }
    if (reach < 0 || reach > end) return null;
    // The farthest target is a LOADBOOL of the pair, or the final label the JMP over the pair goes to.
    const bools = this.loadBoolPair(reach) ?? (this.at[reach - 1]?.family === 'LOADBOOL' ? this.loadBoolPair(reach - 1) : null);
    if (bools) return bools.pt + 1 <= end ? { reg: bools.reg, final: bools.pt + 1, bools } : null;
    for (const t of tests) if (t.family === 'TESTSET' && jumpTarget(this.at[t.next]!) === reach) return { reg: t.a, final: reach, bools: null };
    // A TEST of a temporary that the code before the final label writes again: the value is kept (`f() or g`).
    for (const t of tests) {
      if (t.family === 'TEST' && t.a >= this.nactvar && jumpTarget(this.at[t.next]!) === reach && this.writesBefore(reach, t.a)) {
        if (t === first && this.pendingAt(t.a) < 0) continue;
        return { reg: t.a, final: reach, bools: null };
      }
    }
    return null;
  }

  private parseValueNetwork(firstInsn: HksInstruction, reg: number, final: number, bools: { reg: number; pf: number; pt: number } | null): { reg: number; expr: Expr; next: number } | null {
    const starts: number[] = [];
    const atoms: { branch: Branch | null; expr: Expr; sense: boolean; always: boolean; value: boolean }[] = [];
    // The value part ends before the JMP over the LOADBOOL pair, or at the final label.
    let valueEnd = final;
    if (bools) {
      const p = this.insnEndingAt(bools.pf);
      valueEnd = p && p.family === 'JMP' && this.sameTarget(jumpTarget(p), final) ? p.pc : bools.pf;
    }
    const isJump = firstInsn.family === 'JMP';
    void valueEnd;
    const b0: Branch = isJump ? { test: firstInsn, jmp: firstInsn, target: jumpTarget(firstInsn) } : this.branch(firstInsn);
    if (this.infer && !isJump && reg >= this.nactvar) {
      // A TESTSET into a register holding a value left by an earlier statement: that value is a local assigned
      // here (`local a, b; a = b or a`) when the network reads it, else an extra expression of the declaration
      // below (`local a = x, y`); the compiler targets a temporary only at the free register.
      if (firstInsn.family === 'TESTSET' && reg < this.top() && this.pendingAt(reg) >= 0) {
        // (A temporary tested into `reg` from above it means `reg` is not the free register: a local.)
        if (firstInsn.b > reg || this.readBeforeWritten(reg, firstInsn.next, final)) this.declarePending(reg + 1, firstInsn.pc);
        else this.extraValuesFrom(reg, firstInsn.pc);
      }
      // Operands of the first test below the result register are not consumed: locals (`local c = a == b`).
      const below = this.readRegisters(firstInsn).filter((r) => r < reg && r >= this.nactvar && this.pendingAt(r) >= 0);
      if (below.length > 0) this.declarePending(Math.max(...below) + 1, firstInsn.pc);
      // A result over pending values where the code after the network first writes above the result's next
      // register: the registers between hold locals, so the pending values were locals (`local a, b …; a = a < b`).
      const w = reg < this.top() && this.pendingAt(reg) >= 0 ? this.firstWriteFrom(final, reg + 1) : null;
      if (w !== null && w > reg + 1) this.declarePending(w, firstInsn.pc);
    }
    const first = isJump ? { expr: { k: 'bool', value: true } as Expr, sense: true } : this.atomOf(b0, this.stmtStart);
    const base = this.top();
    if (reg >= this.nactvar && reg !== this.top()) return null;
    const savedFloor = this.floor;
    this.floor = base;
    try {
      return this.valueAtoms(b0, first, reg, final, bools, base, starts, atoms);
    } finally {
      this.floor = savedFloor;
    }
  }

  private valueAtoms(b0: Branch, first: { expr: Expr; sense: boolean }, reg: number, final: number, bools: { reg: number; pf: number; pt: number } | null, base: number, starts: number[], atoms: { branch: Branch | null; expr: Expr; sense: boolean; always: boolean; value: boolean }[]): { reg: number; expr: Expr; next: number } | null {
    let valueEnd = final;
    if (bools) {
      const p = this.insnEndingAt(bools.pf);
      valueEnd = p && p.family === 'JMP' && this.sameTarget(jumpTarget(p), final) ? p.pc : bools.pf;
    }
    starts.push(b0.test.pc);
    atoms.push({ branch: b0, expr: first.expr, sense: first.sense, always: b0.test === b0.jmp, value: false });
    this.capture = reg < this.nactvar ? { reg, expr: null } : null;
    let pc = b0.jmp.next;
    while (pc < valueEnd) {
      const stop = this.expressionUntilTest(pc, valueEnd, base, reg);
      if (stop.kind === 'test') {
        const b = this.branch(stop.insn);
        const a = this.atomOf(b, pc);
        if (this.top() !== base) return null;
        starts.push(pc);
        atoms.push({ branch: b, expr: a.expr, sense: a.sense, always: false, value: false });
        pc = b.jmp.next;
        continue;
      }
      if (stop.kind === 'always') {
        starts.push(pc);
        atoms.push({ branch: { test: stop.insn, jmp: stop.insn, target: jumpTarget(stop.insn) }, expr: { k: 'bool', value: true }, sense: true, always: true, value: false });
        pc = stop.insn.next;
        continue;
      }
      if (stop.kind !== 'value') return null;
      starts.push(pc);
      atoms.push({ branch: null, expr: stop.expr, sense: false, always: false, value: true });
      pc = valueEnd;
    }
    const lastIsValue = atoms[atoms.length - 1]!.value;
    if (!bools && !lastIsValue) return null;
    const net: NetworkAtom[] = atoms.map((a, idx) => {
      const labels = new Set<NetworkLabel>();
      if (a.branch) {
        const t = a.branch.target;
        for (let m = idx + 1; m < atoms.length; m++) if (starts[m] === t) labels.add(m);
        if (bools && (t === bools.pt || this.sameTarget(t, bools.pt))) labels.add('T');
        if (bools && t === bools.pf) labels.add('F');
        const keeps = a.branch.test.family === 'TESTSET' || (a.branch.test.family === 'TEST' && a.branch.test.a === reg);
        if ((t === final || this.sameTarget(t, final)) && (keeps || a.always)) {
          if (a.always) labels.add('T').add('F');
          else labels.add(a.sense ? 'T' : 'F');
        }
      }
      const na: NetworkAtom = { expr: a.expr, sense: a.sense, labels };
      if (a.always) na.always = true;
      if (a.value) na.value = true;
      if (a.branch && (a.branch.test.family === 'TESTSET' || (a.branch.test.family === 'TEST' && a.branch.test.a === reg && (t0(a.branch) === final || this.sameTarget(t0(a.branch), final))))) na.keepsValue = true;
      return na;
    });
    const expr = buildNetworkTree(net, lastIsValue ? "T" : "F");
    if (!expr) return null;
    // Nothing outside may jump into the network.
    const from = b0.test.pc;
    for (let p = from + 1; p < final; p++) {
      for (const s of this.sources.get(p) ?? []) if (s < from || s >= final) return null;
    }
    return { reg, expr, next: final };
  }

  /**
   * Builds pure expression code from `pc` until a test instruction that leaves the stack at `base` entries (the
   * next atom), an unconditional forward jump (a constant operand), or `stopAt` (then the value operand, which
   * is the top entry in register `reg` or the captured write of a local `reg`).
   */
  private expressionUntilTest(pc: number, stopAt: number, base: number, reg: number): { kind: 'test' | 'always'; insn: HksInstruction } | { kind: 'value'; expr: Expr } | { kind: 'none' } {
    const scratch: Stmt[] = [];
    const from = pc;
    while (pc < stopAt) {
      // A local declared here: the code before it was a whole statement, not part of a condition.
      if (pc !== from && this.startsAt.has(pc) && reg < 0) return { kind: 'none' };
      const i = this.at[pc];
      if (!i) return { kind: 'none' };
      if (this.isTest(i)) {
        // A nested value network (an operand of this atom) or this level's next atom: a network ending where
        // this one ends is this one's chain (`a or b or c`), not a parenthesised operand.
        const before = reg >= 0 ? this.snapshot() : null;
        const v = this.valueNetwork(i, stopAt);
        if (v && before && v.next >= stopAt) {
          this.restore(before);
          return { kind: 'test', insn: i };
        }
        if (v) {
          this.write(v.reg, v.expr, i.pc, scratch);
          if (scratch.length > 0) return { kind: 'none' };
          pc = v.next;
          continue;
        }
        return { kind: 'test', insn: i };
      }
      if (i.family === 'JMP') {
        if (this.top() === base && jumpTarget(i) > i.pc) return { kind: 'always', insn: i };
        return { kind: 'none' };
      }
      if (!this.isPureExpression(i, reg)) return { kind: 'none' };
      pc = this.step(i, stopAt, { end: stopAt, breakTo: null }, scratch);
      if (scratch.length > 0) return { kind: 'none' };
    }
    if (pc !== stopAt || reg < 0) return { kind: 'none' };
    if (this.capture && this.capture.reg === reg) {
      if (this.capture.expr === null || this.top() !== base) return { kind: 'none' };
      const e = this.capture.expr;
      this.capture.expr = null;
      return { kind: 'value', expr: e };
    }
    const top = this.stack[this.stack.length - 1];
    if (top && top.reg === reg && top.reg === base && top.span === 1) {
      this.stack.pop();
      return { kind: 'value', expr: top.expr };
    }
    return { kind: 'none' };
  }

  private isPureExpression(i: HksInstruction, reg: number): boolean {
    switch (i.family) {
      case 'MOVE':
      case 'LOADK':
      case 'LOADNIL':
      case 'GETUPVAL':
      case 'GETGLOBAL':
      case 'GETTABLE':
      case 'NEWTABLE':
      case 'SELF':
      case 'ARITH':
      case 'UNM':
      case 'NOT':
      case 'LEN':
      case 'CONCAT':
      case 'VARARG':
      case 'CLOSURE':
        return i.a >= this.nactvar || i.a === reg;
      case 'LOADBOOL':
        return i.c === 0 && (i.a >= this.nactvar || i.a === reg);
      case 'CALL':
        return i.c !== 1 && i.a >= this.nactvar;
      case 'SETTABLE':
      case 'SETLIST': {
        const t = this.pendingAt(i.a);
        return t >= 0 && this.stack[t]!.table !== undefined;
      }
      default:
        return false;
    }
  }

  /**
   * A condition network starting at `start` (nothing pending): parses atoms up to `limit` and keeps the longest
   * prefix whose jumps form an and/or tree with a false exit `isExit` accepts. Returns the expression, the pc
   * where the guarded code starts and the false target; null with the state unchanged.
   */
  private tryCondition(start: number, limit: number, isExit: (f: number, bodyStart: number) => boolean): { expr: Expr; bodyStart: number; falseTarget: number } | null {
    const saved = this.snapshot();
    const base = this.top();
    const atoms: { start: number; branch: Branch; expr: Expr; sense: boolean; always: boolean; state: Snapshot }[] = [];
    let pc = start;
    const savedFloor = this.floor;
    this.floor = base;
    try {
      while (pc < limit) {
        if (atoms.length > 0 && this.startsAt.get(pc)?.some((v) => v.kind === 'local' && !this.declared.has(v))) break;
        const stop = this.expressionUntilTest(pc, limit, base, -1);
        if (stop.kind === 'test') {
          if (this.startsValueNetwork(stop.insn)) break;
          const b = this.branch(stop.insn);
          const a = this.atomOf(b, pc);
          if (this.top() !== base) break;
          atoms.push({ start: pc, branch: b, expr: a.expr, sense: a.sense, always: false, state: this.snapshot() });
          pc = b.jmp.next;
          continue;
        }
        if (stop.kind === 'always') {
          const j = stop.insn;
          atoms.push({ start: pc, branch: { test: j, jmp: j, target: jumpTarget(j) }, expr: { k: 'bool', value: false }, sense: false, always: true, state: this.snapshot() });
          pc = j.next;
          continue;
        }
        break;
      }
    } catch (e) {
      if (!(e instanceof DecompileFailure)) throw e;
    } finally {
      this.floor = savedFloor;
    }
    for (let n = atoms.length; n >= 1; n--) {
      const last = atoms[n - 1]!;
      const f = last.branch.target;
      const tPc = last.branch.jmp.next;
      if (!isExit(f, tPc)) continue;
      // Nothing outside the condition may jump into it.
      let entered = false;
      for (let m = 1; m < n && !entered; m++) {
        for (const s of this.sources.get(atoms[m]!.start) ?? []) if (s < start || s >= tPc) entered = true;
      }
      if (entered) continue;
      const net: NetworkAtom[] = atoms.slice(0, n).map((a, idx) => {
        const labels = new Set<NetworkLabel>();
        const t = a.branch.target;
        for (let m = idx + 1; m < n; m++) if (atoms[m]!.start === t) labels.add(m);
        if (t === f) labels.add('F');
        if (this.sameTarget(t, tPc)) labels.add('T');
        const na: NetworkAtom = { expr: a.expr, sense: a.sense, labels };
        if (a.always) na.always = true;
        return na;
      });
      const expr = buildNetworkTree(net, 'T');
      if (expr) {
        this.restore(last.state);
        return { expr, bodyStart: tPc, falseTarget: f };
      }
    }
    this.restore(saved);
    return null;
  }

  /** A test whose shape starts a value network rather than a condition atom. */
  private startsValueNetwork(i: HksInstruction): boolean {
    if (i.family === 'TESTSET') return true;
    return this.loadBoolPair(this.branch(i).target) !== null;
  }

  /** A statement-level condition: the until-condition of the enclosing repeat, or an `if`. */
  private conditional(first: HksInstruction, end: number, ctx: BlockCtx, out: Stmt[]): number {
    // The condition began with the statement: the network parser rebuilds the first atom's operands itself.
    let start = this.stmtStart;
    if (this.massign) this.fail('condition inside a multiple assignment', first.pc);
    if (this.infer) {
      // The test's pending operands are the first atom; whatever is pending below them is locals.
      const operands = this.readRegisters(first).filter((r) => r >= this.nactvar && this.pendingAt(r) >= 0);
      let low = operands.length > 0 ? Math.min(...operands.map((r) => this.stack[this.pendingAt(r)]!.reg)) : Number.POSITIVE_INFINITY;
      // The compiler folds a literal condition (no TEST): a tested literal is a local's value (`local a = 1; if a`).
      const tested = first.family === 'TEST' && first.a >= this.nactvar ? this.stack[this.pendingAt(first.a)] : undefined;
      if (tested && tested.span === 1 && LITERAL_KINDS.has(tested.expr.k)) low = tested.reg + 1;
      // A tested value whose guarded code writes above it lives on: a local (`local b = b; if b then …`).
      const jmp = this.at[first.next];
      if (tested && tested.span === 1 && jmp?.family === 'JMP' && this.writesAboveFree(jmp.next, tested.reg)) low = tested.reg + 1;
      this.declarePending(low, first.pc, out);
      start = this.stack.length > 0 ? Math.min(...this.stack.map((p) => p.start)) : first.pc;
    }
    for (const p of this.stack) if (p.leftover && p.pc < start) p.leftover.exprs.push(p.expr);
    this.stack = [];
    if (ctx.until) {
      const u = ctx.until;
      const saved = this.snapshot();
      const cond = this.tryCondition(start, end, (f, t) => f === u.falseTo && t === u.trueAt);
      if (cond) {
        this.untilCond = cond.expr;
        return end;
      }
      this.restore(saved);
    }
    // Inferred locals: a guarded block whose first write is above the free register starts inside the network
    // (`if a then local b = b; if b …` is not `if a and b`).
    const free = this.nactvar;
    const cond = this.tryCondition(start, end, (f, t) => this.resolveExit(f, t, end) !== null && !(this.infer && this.writesAboveFree(t, free)));
    if (!cond) this.fail('condition jumps do not form an and/or expression', first.pc);
    return this.ifStatement(cond.expr, cond.bodyStart, cond.falseTarget, end, ctx, out, first.pc);
  }

  /** An `if` whose condition jumps to `falseTarget` when false and falls into `bodyStart`. */
  private ifStatement(condExpr: Expr, bodyStart: number, falseTarget: number, end: number, ctx: BlockCtx, out: Stmt[], pc: number): number {
    const f0 = this.resolveExit(falseTarget, bodyStart, end);
    if (f0 === null) this.fail(`if-condition exits to ${falseTarget}, outside the block`, pc);
    // The false exit may also have been taken along by a JMP the statement after the `if` starts with (another
    // `if false`, a `break`): the earliest such JMP first, the plain target last.
    const candidates: number[] = [];
    for (let p = bodyStart; p < f0; p++) {
      const j = this.at[p];
      if (!j || j.family !== 'JMP' || jumpTarget(j) !== falseTarget || this.isTestJump(p)) continue;
      // Debug info: a local the then-block declares cannot outlive it.
      if (this.ctx.locals.some((v) => v.kind === 'local' && v.startPc > bodyStart && v.startPc <= p && v.endPc > p)) continue;
      // Inferred locals: the code after the block must not write above the free register.
      if (this.infer && this.writesAboveFree(p, this.nactvar)) continue;
      candidates.push(p);
    }
    candidates.push(f0);
    for (let k = 0; k < candidates.length; k++) {
      if (k === candidates.length - 1) return this.ifWithExit(condExpr, bodyStart, candidates[k]!, end, ctx, out, pc);
      const saved = this.snapshot();
      const outLen = out.length;
      try {
        return this.ifWithExit(condExpr, bodyStart, candidates[k]!, end, ctx, out, pc);
      } catch (e) {
        if (!(e instanceof DecompileFailure)) throw e;
        this.restore(saved);
        out.length = outLen;
      }
    }
    this.fail('no exit for the if', pc);
  }

  private ifWithExit(condExpr: Expr, bodyStart: number, f: number, end: number, ctx: BlockCtx, out: Stmt[], pc: number): number {
    const clauses: { cond: Expr; body: Stmt[] }[] = [];
    // An escape JMP ending the then-block means an else part.
    const lastThen = f > bodyStart ? this.insnEndingAt(f) : undefined;
    let thenEnd = f;
    let elseEnd = -1;
    if (lastThen && lastThen.family === 'JMP' && !this.isTestJump(lastThen.pc) && f < end) {
      const t = jumpTarget(lastThen);
      const isLoopBack = t >= bodyStart && t < lastThen.pc;
      if (!isLoopBack) {
        const e = this.resolveExit(t, f, end);
        if (e !== null && e > f) elseEnd = e;
      }
      if (elseEnd >= 0) thenEnd = lastThen.pc;
    }
    const body = this.block(bodyStart, thenEnd, { ...ctx, end: thenEnd, until: undefined });
    clauses.push({ cond: condExpr, body });
    let next = f;
    let orelse: Stmt[] | undefined;
    if (elseEnd >= 0) {
      orelse = this.block(f, elseEnd, { ...ctx, end: elseEnd, until: undefined });
      next = elseEnd;
      // `else if … end` is `elseif`.
      if (orelse.length === 1 && orelse[0]!.k === 'if') {
        const inner = orelse[0]!;
        clauses.push(...inner.clauses);
        orelse = inner.orelse;
      }
    }
    const st: Stmt & { k: 'if' } = { k: 'if', clauses, line: this.line(pc) };
    if (orelse) st.orelse = orelse;
    out.push(st);
    return next;
  }
}
