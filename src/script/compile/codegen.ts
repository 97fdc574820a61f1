/**
 * The code generator: one `FuncState` per function being compiled, driven by the parser in one pass, producing
 * exactly the instructions, constants and debug records hksc (the HavokScript compiler, on Lua 5.1's design)
 * produces for the same source. Every choice below is hksc's, verified byte for byte against its output
 * (test/fixtures/hks): register allocation, constant folding in the number type, memoized global reads (two nil
 * constants reserved per global, `GETGLOBAL_MEM` + DATA), inline-cache DATA words of table reads, the generic
 * GETTABLE / SETTABLE / CALL / TAILCALL forms rewritten at the end (GETFIELD / GETTABLE_S, SETFIELD / SETTABLE_S*,
 * CALL_I, TAILCALL_I) and the `_R1` peephole, threaded jumps, structure slot access through typed values.
 *
 * Expression descriptors (`ExpDesc`) carry an expression that has not been placed yet: a constant, a variable, an
 * instruction whose target register is still open ("relocatable"), a value in a fixed register, a pending jump, an
 * open call. Jump lists are chained through the sBx fields of the jumps themselves (NO_JUMP ends a list).
 */
import type { HksConstant } from '../../formats/hks/chunk.ts';
import { hksOpcodes } from '../../formats/hks/opcodes.ts';
import type { Lexer } from './lexer.ts';
import { findSlot, LuaType, SLOT_INDEX_META, typeName, type StructProto, type StructRegistry, type StructSlot } from './structures.ts';

// ---------------------------------------------------------------------------------------------------------------
// Instruction set (numbers and properties from the one opcode table)

const TABLE = hksOpcodes();
const opNumber = (name: string): number => TABLE.byName.get(name)!.op;

export const OP = {
  GETFIELD: opNumber('GETFIELD'),
  TEST: opNumber('TEST'),
  CALL_I: opNumber('CALL_I'),
  CALL_C: opNumber('CALL_C'),
  EQ: opNumber('EQ'),
  GETGLOBAL: opNumber('GETGLOBAL'),
  MOVE: opNumber('MOVE'),
  SELF: opNumber('SELF'),
  RETURN: opNumber('RETURN'),
  GETTABLE_S: opNumber('GETTABLE_S'),
  GETTABLE: opNumber('GETTABLE'),
  LOADBOOL: opNumber('LOADBOOL'),
  TFORLOOP: opNumber('TFORLOOP'),
  SETFIELD: opNumber('SETFIELD'),
  SETTABLE_S: opNumber('SETTABLE_S'),
  SETTABLE: opNumber('SETTABLE'),
  SETTABLE_BK: opNumber('SETTABLE_BK'),
  TAILCALL_I: opNumber('TAILCALL_I'),
  LOADK: opNumber('LOADK'),
  LOADNIL: opNumber('LOADNIL'),
  SETGLOBAL: opNumber('SETGLOBAL'),
  JMP: opNumber('JMP'),
  CALL: opNumber('CALL'),
  TAILCALL: opNumber('TAILCALL'),
  GETUPVAL: opNumber('GETUPVAL'),
  SETUPVAL: opNumber('SETUPVAL'),
  ADD: opNumber('ADD'),
  SUB: opNumber('SUB'),
  MUL: opNumber('MUL'),
  DIV: opNumber('DIV'),
  MOD: opNumber('MOD'),
  POW: opNumber('POW'),
  NEWTABLE: opNumber('NEWTABLE'),
  UNM: opNumber('UNM'),
  NOT: opNumber('NOT'),
  LEN: opNumber('LEN'),
  LT: opNumber('LT'),
  LE: opNumber('LE'),
  CONCAT: opNumber('CONCAT'),
  TESTSET: opNumber('TESTSET'),
  FORPREP: opNumber('FORPREP'),
  FORLOOP: opNumber('FORLOOP'),
  SETLIST: opNumber('SETLIST'),
  CLOSE: opNumber('CLOSE'),
  CLOSURE: opNumber('CLOSURE'),
  VARARG: opNumber('VARARG'),
  NEWSTRUCT: opNumber('NEWSTRUCT'),
  DATA: opNumber('DATA'),
  SETSLOTN: opNumber('SETSLOTN'),
  SETSLOTI: opNumber('SETSLOTI'),
  SETSLOT: opNumber('SETSLOT'),
  SETSLOTS: opNumber('SETSLOTS'),
  SETSLOTMT: opNumber('SETSLOTMT'),
  CHECKTYPE: opNumber('CHECKTYPE'),
  CHECKTYPES: opNumber('CHECKTYPES'),
  GETSLOT: opNumber('GETSLOT'),
  GETSLOTMT: opNumber('GETSLOTMT'),
  SELFSLOT: opNumber('SELFSLOT'),
  SELFSLOTMT: opNumber('SELFSLOTMT'),
  GETGLOBAL_MEM: opNumber('GETGLOBAL_MEM'),
} as const;

const NUM_OPS = TABLE.byOp.length;
const IS_TEST = new Uint8Array(NUM_OPS);
const MAKES_R1 = new Uint8Array(NUM_OPS);
const CONSTANT_B = new Uint8Array(NUM_OPS);
/** `_R1` form of each opcode + 1 (0: none), and the operand (1 = A, 2 = B) that form takes. */
const R1_FORM = new Uint8Array(NUM_OPS);
const R1_OPERAND = new Uint8Array(NUM_OPS);
for (const o of TABLE.byOp) {
  IS_TEST[o.op] = o.test ? 1 : 0;
  MAKES_R1[o.op] = o.makesR1 ? 1 : 0;
  CONSTANT_B[o.op] = o.constantB ? 1 : 0;
  if (o.r1Form !== null) {
    R1_FORM[o.op] = o.r1Form + 1;
    R1_OPERAND[o.op] = TABLE.byOp[o.r1Form]!.r1Operand === 'A' ? 1 : 2;
  }
}

export const NO_JUMP = -1;
/** "No register" (fits in A). */
export const NO_REG = 255;
const MAXARG_BX = 0x1ffff;
const MAXARG_SBX = 0xffff;
const MAXARG_C = 511;
/** Registers a function may use. */
const MAXSTACK = 250;
/** Largest constant index an RK operand can name. */
const MAXINDEXRK = 255;
const BITRK = 256;
/** List items stored per SETLIST. */
export const LFIELDS_PER_FLUSH = 50;
export const LUA_MULTRET = -1;

const getOp = (i: number): number => i >>> 25;
const getA = (i: number): number => i & 0xff;
const getB = (i: number): number => (i >>> 17) & (CONSTANT_B[i >>> 25] ? 0x1ff : 0xff);
const getC = (i: number): number => (i >>> 8) & 0x1ff;
const getSBx = (i: number): number => ((i >>> 8) & 0x1ffff) - MAXARG_SBX;
const setA = (i: number, a: number): number => ((i & ~0xff) | (a & 0xff)) >>> 0;
function setB(i: number, b: number): number {
  const mask = (CONSTANT_B[i >>> 25] ? 0x1ff : 0xff) << 17;
  return ((i & ~mask) | ((b << 17) & mask)) >>> 0;
}
const setC = (i: number, c: number): number => ((i & ~(0x1ff << 8)) | ((c & 0x1ff) << 8)) >>> 0;
const setBx = (i: number, bx: number): number => ((i & ~(0x1ffff << 8)) | ((bx & 0x1ffff) << 8)) >>> 0;
/** Changes the opcode; an opcode whose B has a ninth bit keeps that bit (so a constant B stays a constant). */
function setOp(i: number, op: number): number {
  const old = i >>> 25;
  const nop = CONSTANT_B[old] ? op | (old & 1) : op;
  return ((i & 0x1ffffff) | (nop << 25)) >>> 0;
}
/** iABC word. B may carry the ninth bit into the opcode (the `_BK` twin). */
const createABC = (op: number, a: number, b: number, c: number): number => ((op << 25) + (b << 17) + (c << 8) + a) >>> 0;
const createABx = (op: number, a: number, bx: number): number => ((op << 25) + (bx << 8) + a) >>> 0;
const isK = (x: number): boolean => (x & BITRK) !== 0;
const indexK = (x: number): number => x & ~BITRK;
const rkAsK = (x: number): number => x | BITRK;

// ---------------------------------------------------------------------------------------------------------------
// Expression descriptors

export const Exp = {
  VOID: 0,
  NIL: 1,
  TRUE: 2,
  FALSE: 3,
  /** info = constant index */
  K: 4,
  /** nval = number */
  KNUM: 5,
  /** info = register */
  LOCAL: 6,
  /** info = upvalue index */
  UPVAL: 7,
  /** info = constant index of the name */
  GLOBAL: 8,
  /** info = structure register, aux = RK key; sproto / sindex describe the slot */
  SLOT: 9,
  /** info = table register, aux = RK key */
  INDEXED: 10,
  /** info = pc of the jump */
  JMP: 11,
  /** info = pc of the instruction whose A is still open */
  RELOCABLE: 12,
  /** info = register */
  NONRELOC: 13,
  /** info = pc of the call */
  CALL: 14,
  /** info = pc of the VARARG */
  VARARG: 15,
} as const;

/** The key of a structure index known at compile time (a string slot name, a number or a boolean). */
export type SlotKey = string | number | boolean | null;

export class ExpDesc {
  k: number = Exp.VOID;
  info = 0;
  aux = 0;
  nval = 0;
  /** Patch list of "exit when true". */
  t = NO_JUMP;
  /** Patch list of "exit when false". */
  f = NO_JUMP;
  /** Inferred type (LuaType; NONE = unknown) and structure of a struct-typed value. */
  type: number = LuaType.NONE;
  proto: StructProto | null = null;
  /** For SLOT: the indexed structure and the constant key. */
  sproto: StructProto | null = null;
  skey: SlotKey = null;

  init(k: number, info: number, type: number = LuaType.NONE): this {
    this.k = k;
    this.info = info;
    this.t = this.f = NO_JUMP;
    this.type = type;
    this.proto = null;
    return this;
  }

  copyFrom(o: ExpDesc): void {
    this.k = o.k;
    this.info = o.info;
    this.aux = o.aux;
    this.nval = o.nval;
    this.t = o.t;
    this.f = o.f;
    this.type = o.type;
    this.proto = o.proto;
    this.sproto = o.sproto;
    this.skey = o.skey;
  }
}

/** Static type knowledge of a variable: its type, structure and whether the type is enforced. */
export interface TypeInfo {
  type: number;
  proto: StructProto | null;
  isStatic: boolean;
}

export const typeInfo = (type: number, proto: StructProto | null, isStatic: boolean): TypeInfo => ({ type, proto, isStatic });

/** One entry of the stack of expression lists being parsed (types of values, constraints of typed locals). */
export interface ExpList {
  types: TypeInfo[];
  constraints: TypeInfo[];
  hasConstraints: boolean;
}

/** A block: scope of locals, break list of loops. */
export interface BlockCnt {
  previous: BlockCnt | null;
  breakList: number;
  nactvar: number;
  upval: boolean;
  isBreakable: boolean;
}

export interface LocalVar {
  name: string;
  startPc: number;
  endPc: number;
}

/** A finished function before it becomes an `HksFunction` (the chunk builder converts it per strip level). */
export interface Proto {
  code: Uint32Array;
  lines: number[];
  constants: HksConstant[];
  children: Proto[];
  locals: LocalVar[];
  upvalueNames: string[];
  upvalueCount: number;
  paramCount: number;
  varargFlags: number;
  maxStackSize: number;
  lineDefined: number;
  lastLineDefined: number;
  /** Debug name (null for an anonymous function). */
  name: string | null;
}

/** Numbers of the build: float32 (the game's) or double. */
export type NumberMode = 'float' | 'double';

/** What every function of one compilation shares. */
export interface CompileContext {
  ls: Lexer;
  numbers: NumberMode;
  structs: StructRegistry;
  /** Rounds a double to the build's number type. */
  num: (x: number) => number;
}

export const VARARG_HASARG = 1;
export const VARARG_ISVARARG = 2;
export const VARARG_NEEDSARG = 4;

/** Constant-table key kinds for light userdata: an interned constant, or a memo pair (they share hksc's table). */
const LUD_CONSTANT = 0;
const LUD_MEMO = 1;

// Struct index resolution results.
const STRUCT_INDEX_SLOT = 0;
const STRUCT_INDEX_PROXYTABLE = 1;
const STRUCT_INDEX_INVALID = 2;
const STRUCT_LOOKUP_MAX_STEPS = 15;

/** Kinds of slot assignment (what store code a structure field store gets). */
export const SlotAssign = { NIL: 0, STATIC: 1, DYNAMIC: 2, GENERIC: 3, PROXYTABLE: 4 } as const;

interface LookupStep {
  proto: StructProto;
  slot: StructSlot | null;
}

interface StructLookup {
  t: TypeInfo;
  tmName: string;
  steps: LookupStep[];
  store: boolean;
}

// ---------------------------------------------------------------------------------------------------------------
// Function state

export class FuncState {
  readonly ctx: CompileContext;
  readonly ls: Lexer;
  readonly prev: FuncState | null;

  code: number[] = [];
  lines: number[] = [];
  constants: HksConstant[] = [];
  private kNumber = new Map<number, number>();
  private kString = new Map<string, number>();
  private kBool: [number, number] = [-1, -1];
  private kNil = -1;
  /**
   * Light-userdata keys: literal constants and global-name memo pairs (keyed by the name's constant index) share
   * hksc's table, keyed by the value; values below 2^31 (every memo key) are kept under a number key.
   */
  private kLudSmall = new Map<number, { kind: number; index: number }>();
  private kLudBig = new Map<bigint, { kind: number; index: number }>();
  private kUi64 = new Map<bigint, number>();
  children: Proto[] = [];
  bl: BlockCnt | null = null;
  pc = 0;
  lastTarget = -1;
  jpc = NO_JUMP;
  freeReg = 0;
  nactvar = 0;
  upvalues: { k: number; info: number }[] = [];
  upvalueNames: string[] = [];
  /** Declared-variable stack: indexes into `locals`. */
  actvar: number[] = [];
  locals: LocalVar[] = [];
  /** Type of each active variable, by register (hksc's locvarstyping). */
  localTypes: TypeInfo[] = [];
  /** Types of the names of the local statement being parsed. */
  lhsTypes: TypeInfo[] = [];
  explists: ExpList[] = [];
  paramCount = 0;
  varargFlags = 0;
  maxStackSize = 2;
  lineDefined = 0;
  lastLineDefined = 0;
  name: string | null;

  constructor(ctx: CompileContext, prev: FuncState | null, name: string | null) {
    this.ctx = ctx;
    this.ls = ctx.ls;
    this.prev = prev;
    this.name = name;
  }

  // -------------------------------------------------------------------------------------------------------------
  // Errors

  semError(message: string): never {
    throw this.ls.inputError(message);
  }

  /** hksc's errorlimit: "Function at line N has more than M what". */
  errorLimit(limit: number, what: string): never {
    const msg = this.lineDefined === 0 ? `Main function has more than ${limit} ${what}` : `Function at line ${this.lineDefined} has more than ${limit} ${what}`;
    throw this.ls.inputError(msg);
  }

  checkLimit(v: number, limit: number, what: string): void {
    if (v > limit) this.errorLimit(limit, what);
  }

  // -------------------------------------------------------------------------------------------------------------
  // Emitting

  private emit(i: number, line: number): number {
    this.dischargeJpc();
    this.code.push(i);
    this.lines.push(line);
    return this.pc++;
  }

  codeABC(op: number, a: number, b: number, c: number): number {
    return this.emit(createABC(op, a, b, c), this.ls.lastLine);
  }

  codeABx(op: number, a: number, bx: number): number {
    return this.emit(createABx(op, a, bx), this.ls.lastLine);
  }

  codeAsBx(op: number, a: number, sbx: number): number {
    return this.codeABx(op, a, sbx + MAXARG_SBX);
  }

  fixLine(line: number): void {
    this.lines[this.pc - 1] = line;
  }

  /** A word of the code (by pc). */
  instr(pc: number): number {
    return this.code[pc]!;
  }

  setInstr(pc: number, i: number): void {
    this.code[pc] = i;
  }

  // -------------------------------------------------------------------------------------------------------------
  // Jumps

  nil(from: number, n: number): void {
    if (this.pc > this.lastTarget && this.pc !== 0) {
      const prevPc = this.pc - 1;
      const previous = this.code[prevPc]!;
      if (getOp(previous) === OP.LOADNIL) {
        const pfrom = getA(previous);
        const pto = getB(previous);
        if (pfrom <= from && from <= pto + 1) {
          if (from + n - 1 > pto) this.code[prevPc] = setB(previous, from + n - 1);
          return;
        }
      }
    }
    this.codeABC(OP.LOADNIL, from, from + n - 1, 0);
  }

  jump(): number {
    const jpc = this.jpc;
    this.jpc = NO_JUMP;
    const j = this.codeAsBx(OP.JMP, 0, NO_JUMP);
    return this.concat(j, jpc);
  }

  ret(first: number, nret: number): void {
    this.codeABC(OP.RETURN, first, nret + 1, 0);
  }

  private condJump(op: number, a: number, b: number, c: number): number {
    this.codeABC(op, a, b, c);
    return this.jump();
  }

  private fixJump(pc: number, dest: number): void {
    const offset = dest - (pc + 1);
    if (Math.abs(offset) > MAXARG_SBX) this.semError('Control structure contains too many instructions.');
    this.code[pc] = setBx(this.code[pc]!, offset + MAXARG_SBX);
  }

  /** Marks the current pc as a jump target (so no peephole merges across it) and returns it. */
  getLabel(): number {
    this.lastTarget = this.pc;
    return this.pc;
  }

  private getJump(pc: number): number {
    const offset = getSBx(this.code[pc]!);
    return offset === NO_JUMP ? NO_JUMP : pc + 1 + offset;
  }

  /** The instruction controlling a jump: the test before it, if any. */
  private jumpControl(pc: number): number {
    return pc >= 1 && IS_TEST[getOp(this.code[pc - 1]!)] ? pc - 1 : pc;
  }

  private needValue(list: number): boolean {
    for (; list !== NO_JUMP; list = this.getJump(list)) {
      if (getOp(this.code[this.jumpControl(list)]!) !== OP.TESTSET) return true;
    }
    return false;
  }

  private patchTestReg(node: number, reg: number): boolean {
    const ipc = this.jumpControl(node);
    const i = this.code[ipc]!;
    if (getOp(i) !== OP.TESTSET) return false;
    if (reg !== NO_REG && reg !== getB(i)) this.code[ipc] = setA(i, reg);
    else this.code[ipc] = createABC(OP.TEST, getB(i), 0, getC(i));
    return true;
  }

  private removeValues(list: number): void {
    for (; list !== NO_JUMP; list = this.getJump(list)) this.patchTestReg(list, NO_REG);
  }

  private patchListAux(list: number, vtarget: number, reg: number, dtarget: number): void {
    while (list !== NO_JUMP) {
      const next = this.getJump(list);
      if (this.patchTestReg(list, reg)) this.fixJump(list, vtarget);
      else this.fixJump(list, dtarget);
      list = next;
    }
  }

  private dischargeJpc(): void {
    this.patchListAux(this.jpc, this.pc, NO_REG, this.pc);
    this.jpc = NO_JUMP;
  }

  patchList(list: number, target: number): void {
    if (target === this.pc) this.patchToHere(list);
    else this.patchListAux(list, target, NO_REG, target);
  }

  patchToHere(list: number): void {
    this.getLabel();
    this.jpc = this.concat(this.jpc, list);
  }

  /**
   * The last known tail of the list starting at each head. Walking a list to its end on every append is quadratic in
   * its length (an if with thousands of elseif arms); the walk starts from the cached tail instead, which gives the
   * same tail because lists only grow at the end until they are patched, and a patched list is never appended to.
   */
  private listTail = new Map<number, number>();

  private tailOf(list: number): number {
    let t = this.listTail.get(list) ?? list;
    let next: number;
    while ((next = this.getJump(t)) !== NO_JUMP) t = next;
    return t;
  }

  /** Appends list l2 to list l1; returns the (possibly new) head of l1. */
  concat(l1: number, l2: number): number {
    if (l2 === NO_JUMP) return l1;
    if (l1 === NO_JUMP) return l2;
    this.fixJump(this.tailOf(l1), l2);
    this.listTail.set(l1, this.tailOf(l2));
    return l1;
  }

  // -------------------------------------------------------------------------------------------------------------
  // Registers

  checkStack(n: number): void {
    const newStack = this.freeReg + n;
    if (newStack > this.maxStackSize) {
      if (newStack >= MAXSTACK) this.semError('Function or expression requires too many registers (too complex).');
      this.maxStackSize = newStack;
    }
  }

  reserveRegs(n: number): void {
    this.checkStack(n);
    this.freeReg += n;
  }

  private freeRegister(reg: number): void {
    if (!isK(reg) && reg >= this.nactvar) this.freeReg--;
  }

  freeExp(e: ExpDesc): void {
    if (e.k === Exp.NONRELOC) this.freeRegister(e.info);
  }

  // -------------------------------------------------------------------------------------------------------------
  // Constants

  private newConstant(k: HksConstant): number {
    if (this.constants.length + 1 > MAXARG_BX) this.semError('constant table overflow');
    this.constants.push(k);
    return this.constants.length - 1;
  }

  stringK(s: string): number {
    let i = this.kString.get(s);
    if (i === undefined) {
      i = this.newConstant({ type: 'string', value: s });
      this.kString.set(s, i);
    }
    return i;
  }

  numberK(r: number): number {
    let i = this.kNumber.get(r);
    if (i === undefined) {
      i = this.newConstant({ type: 'number', value: r });
      this.kNumber.set(r, i);
    }
    return i;
  }

  private boolK(b: boolean): number {
    const slot = b ? 1 : 0;
    if (this.kBool[slot] < 0) this.kBool[slot] = this.newConstant({ type: 'boolean', value: slot });
    return this.kBool[slot];
  }

  private nilK(): number {
    if (this.kNil < 0) this.kNil = this.newConstant({ type: 'nil' });
    return this.kNil;
  }

  lightUserdataK(v: bigint): number {
    const small = v < 0x80000000n;
    const e = small ? this.kLudSmall.get(Number(v)) : this.kLudBig.get(v);
    if (e && e.kind === LUD_CONSTANT) return e.index;
    const index = this.newConstant({ type: 'lightuserdata', value: v });
    if (small) this.kLudSmall.set(Number(v), { kind: LUD_CONSTANT, index });
    else this.kLudBig.set(v, { kind: LUD_CONSTANT, index });
    return index;
  }

  ui64K(v: bigint): number {
    let i = this.kUi64.get(v);
    if (i === undefined) {
      i = this.newConstant({ type: 'ui64', value: v });
      this.kUi64.set(v, i);
    }
    return i;
  }

  /** The memo pair of a global read: two nil constants reserved at the global's first read. */
  private memoSlot(kslot: number): number {
    const e = this.kLudSmall.get(kslot);
    if (e && e.kind === LUD_MEMO) return e.index;
    if (this.constants.length + 2 > MAXARG_BX) this.semError('constant table overflow');
    const index = this.constants.length;
    this.constants.push({ type: 'nil' }, { type: 'nil' });
    this.kLudSmall.set(kslot, { kind: LUD_MEMO, index });
    return index;
  }

  // -------------------------------------------------------------------------------------------------------------
  // Calls and varargs

  setReturns(e: ExpDesc, nresults: number): void {
    if (e.k === Exp.CALL) this.code[e.info] = setC(this.code[e.info]!, nresults + 1);
    else if (e.k === Exp.VARARG) {
      let i = setB(this.code[e.info]!, nresults + 1);
      i = setA(i, this.freeReg);
      this.code[e.info] = i;
      this.reserveRegs(1);
    }
  }

  setMultRet(e: ExpDesc): void {
    this.setReturns(e, LUA_MULTRET);
  }

  setOneRet(e: ExpDesc): void {
    if (e.k === Exp.CALL) {
      e.k = Exp.NONRELOC;
      e.info = getA(this.code[e.info]!);
    } else if (e.k === Exp.VARARG) {
      this.code[e.info] = setB(this.code[e.info]!, 2);
      e.k = Exp.RELOCABLE;
    }
  }

  // -------------------------------------------------------------------------------------------------------------
  // Structures

  private newLookup(store: boolean): StructLookup {
    return { t: typeInfo(LuaType.NONE, null, true), tmName: store ? '__newindex' : '__index', steps: [], store };
  }

  private lookupStep(s: StructLookup, proto: StructProto, slot: StructSlot | null): boolean {
    if (s.steps.length < STRUCT_LOOKUP_MAX_STEPS) {
      s.steps.push({ proto, slot });
      return true;
    }
    return false;
  }

  /** Updates the type info `t` from a slot's declared type (hksc's luaK_getslottypeinfo). */
  slotTypeInfo(slot: StructSlot, t: TypeInfo): void {
    let type = slot.typeId;
    let proto: StructProto | null = null;
    if (type === LuaType.NIL) type = LuaType.NONE;
    if (type === LuaType.STRUCT) proto = this.ctx.structs.byId(slot.structId) ?? null;
    if (t.type !== LuaType.NONE && t.isStatic) t.isStatic = t.type === type && t.proto === proto;
    t.type = type;
    t.proto = proto;
  }

  private resolvePrimitive(proto: StructProto, name: string, s: StructLookup): number {
    const slot = findSlot(proto, name);
    if (slot) {
      if (!this.lookupStep(s, proto, slot)) return STRUCT_INDEX_PROXYTABLE;
      this.slotTypeInfo(slot, s.t);
      return STRUCT_INDEX_SLOT;
    }
    if (proto.hasProxy) return STRUCT_INDEX_PROXYTABLE;
    this.lookupStep(s, proto, null);
    return STRUCT_INDEX_INVALID;
  }

  private resolveStructIndex(proto: StructProto, name: string, s: StructLookup): number {
    const result1 = this.resolvePrimitive(proto, name, s);
    if (result1 === STRUCT_INDEX_PROXYTABLE) {
      s.t.type = LuaType.NONE;
      return STRUCT_INDEX_PROXYTABLE;
    }
    if (proto.hasMeta) {
      const nsteps = s.steps.length;
      const metaSlot = proto.slots[SLOT_INDEX_META]!;
      if (!this.lookupStep(s, proto, metaSlot) || metaSlot.typeId !== LuaType.STRUCT) return STRUCT_INDEX_PROXYTABLE;
      const metaProto = this.ctx.structs.byId(metaSlot.structId)!;
      const tmSlot = findSlot(metaProto, s.tmName);
      if (tmSlot) {
        if (!this.lookupStep(s, metaProto, tmSlot) || tmSlot.typeId !== LuaType.STRUCT) return STRUCT_INDEX_PROXYTABLE;
        const parent = this.ctx.structs.byId(tmSlot.structId)!;
        const result = this.resolveStructIndex(parent, name, s);
        if (result !== STRUCT_INDEX_INVALID) return result;
        if (s.store) return STRUCT_INDEX_PROXYTABLE;
      }
      if (metaProto.hasProxy) return STRUCT_INDEX_PROXYTABLE;
      s.steps.length = nsteps;
    }
    return result1;
  }

  private resolveNewStructIndex(proto: StructProto, name: string, s: StructLookup): number {
    const result = this.resolveStructIndex(proto, name, s);
    return result === STRUCT_INDEX_SLOT && !s.t.isStatic ? STRUCT_INDEX_PROXYTABLE : result;
  }

  /** DATA words of a tag chain: per meta hop (slot, `__index` slot), then the final slot. */
  private codeTagChain(s: StructLookup): void {
    const steps = s.steps;
    const n = Math.floor(steps.length / 3) * 3;
    for (let i = 0; i < n; i += 3) {
      const slot = steps[i]!.slot;
      const tmSlot = steps[i + 2]!.slot!;
      this.codeABx(OP.DATA, slot ? slot.position : 0, tmSlot.position);
    }
    this.codeABx(OP.DATA, steps[steps.length - 1]!.slot!.position, 0);
  }

  private codeGetSlot(e: ExpDesc, proto: StructProto, slotName: string, selfReg: number): number {
    const selfForm = selfReg !== NO_REG;
    const op = selfForm ? OP.SELFSLOT : OP.GETSLOT;
    const opMt = selfForm ? OP.SELFSLOTMT : OP.GETSLOTMT;
    const dest = selfForm ? selfReg : 0;
    const s = this.newLookup(false);
    const result = this.resolveStructIndex(proto, slotName, s);
    if (result === STRUCT_INDEX_SLOT) {
      if (s.steps.length === 1) return this.codeABC(op, dest, e.info, s.steps[0]!.slot!.position);
      const pc = this.codeABC(opMt, dest, e.info, Math.floor(s.steps.length / 3));
      this.codeTagChain(s);
      return pc;
    }
    if (result === STRUCT_INDEX_INVALID) this.semError(`Cannot index instances of '${proto.name}' with '${slotName}'`);
    return -1;
  }

  /** Emits a structure field store of kind `kind` (see SlotAssign). */
  setSlot(slot: StructSlot | null, t: TypeInfo, reg: number, key: number, val: number, kind: number): void {
    switch (kind) {
      case SlotAssign.NIL:
        this.codeABC(OP.SETSLOTN, reg, 0, slot!.position);
        break;
      case SlotAssign.STATIC:
        this.codeABC(OP.SETSLOTI, reg, slot!.position, val);
        break;
      case SlotAssign.DYNAMIC: {
        let bx: number;
        if (t.type === LuaType.STRUCT) {
          this.codeABC(OP.SETSLOTS, reg, slot!.position, val);
          bx = t.proto!.id;
        } else {
          this.codeABC(OP.SETSLOT, reg, slot!.position, val);
          bx = t.type;
        }
        this.codeABx(OP.DATA, 0, bx);
        break;
      }
      default:
        this.codeABC(OP.SETTABLE, reg, key, val);
    }
  }

  private assignSlot(v: ExpDesc, e: ExpDesc, reg: number): boolean {
    const proto = v.sproto!;
    if (typeof v.skey !== 'string') return false;
    const slotName = v.skey;
    const s = this.newLookup(true);
    let res = this.resolveNewStructIndex(proto, slotName, s);
    if (res === STRUCT_INDEX_SLOT) {
      res = this.checkSlotAssignment(slotName, e, s.t);
      if (s.steps.length === 1) this.setSlot(s.steps[0]!.slot, s.t, v.info, NO_REG, reg, res);
      else {
        let type = s.t.type;
        if (type === LuaType.NONE) type = LuaType.NIL;
        const b = Math.floor(s.steps.length / 3) | (type << 4);
        this.codeABC(OP.SETSLOTMT, v.info, b, reg);
        if (type === LuaType.STRUCT) this.codeABx(OP.DATA, 0, s.t.proto!.id);
        this.codeTagChain(s);
      }
      return true;
    }
    if (res === STRUCT_INDEX_INVALID) this.semError(`Cannot resolve slot '${slotName}' in instance of '${proto.name}' for assignment.`);
    return false;
  }

  /** Emits the run-time check of a typed value (CHECKTYPES for structures, CHECKTYPE for other types). */
  checkType(t: TypeInfo, reg: number): void {
    if (t.type === LuaType.STRUCT) this.codeABx(OP.CHECKTYPES, reg, t.proto!.id);
    else if (t.type > LuaType.NIL) this.codeABx(OP.CHECKTYPE, reg, t.type);
  }

  /** True when storing `e` into a variable of type `t` needs a run-time check; refuses a known mismatch. */
  private checkStaticType(t: TypeInfo, e: ExpDesc): boolean {
    const type = t.type;
    if (type === LuaType.NIL || e.type === LuaType.NIL) return false;
    if (e.type === LuaType.NONE) return true;
    if (e.type === type && (type !== LuaType.STRUCT || e.proto === t.proto)) return false;
    const [s1, s2] = type === LuaType.STRUCT ? ['struct ', t.proto!.name] : ['', typeName(type)];
    const [s3, s4] = e.type === LuaType.STRUCT ? ['struct ', e.proto!.name] : ['', typeName(e.type)];
    this.semError(`Attempting to set local variable of type '${s1}${s2}' to type '${s3}${s4}'`);
  }

  applyTypeConstraint(t: TypeInfo, e: ExpDesc): void {
    if (t.type !== LuaType.NONE && this.checkStaticType(t, e)) this.checkType(t, e.info);
  }

  /** The kind of store a value needs for a slot of type `t` (refusing static mismatches). */
  checkSlotAssignment(slotName: string, e: ExpDesc, t: TypeInfo): number {
    if (!t.isStatic) return SlotAssign.DYNAMIC;
    let type: number;
    let proto: StructProto | null = null;
    switch (e.k) {
      case Exp.NIL:
        type = LuaType.NIL;
        break;
      case Exp.TRUE:
      case Exp.FALSE:
        type = LuaType.BOOLEAN;
        break;
      case Exp.K:
        type = constantType(this.constants[e.info]!);
        break;
      case Exp.KNUM:
        type = LuaType.NUMBER;
        break;
      default:
        type = e.type;
        proto = e.proto;
    }
    if (type === LuaType.NIL) return SlotAssign.NIL;
    if (t.type !== LuaType.NONE) {
      if (type === LuaType.NONE) return SlotAssign.DYNAMIC;
      if (t.type !== type) this.semError(`Attempt to assign a value of invalid type to slot '${slotName}' (expected '${typeName(t.type)}').`);
      else if (type === LuaType.STRUCT && t.proto !== proto) this.semError(`Attempt to assign an instance of '${proto!.name}' to slot '${slotName}' (expected '${t.proto!.name}').`);
    }
    return SlotAssign.STATIC;
  }

  // -------------------------------------------------------------------------------------------------------------
  // Discharging expressions

  dischargeVars(e: ExpDesc): void {
    switch (e.k) {
      case Exp.LOCAL:
        e.k = Exp.NONRELOC;
        break;
      case Exp.UPVAL:
        e.info = this.codeABC(OP.GETUPVAL, 0, e.info, 0);
        e.k = Exp.RELOCABLE;
        break;
      case Exp.GLOBAL: {
        const k = e.info;
        e.info = this.codeABx(OP.GETGLOBAL_MEM, 0, k);
        this.codeABx(OP.DATA, 20, this.memoSlot(k));
        e.k = Exp.RELOCABLE;
        break;
      }
      case Exp.SLOT: {
        this.freeRegister(e.aux);
        this.freeRegister(e.info);
        if (typeof e.skey === 'string') {
          const pc = this.codeGetSlot(e, e.sproto!, e.skey, NO_REG);
          if (pc !== -1) {
            e.info = pc;
            e.k = Exp.RELOCABLE;
            break;
          }
        }
        e.info = this.codeABC(OP.GETTABLE, 0, e.info, e.aux);
        e.k = Exp.RELOCABLE;
        this.codeABx(OP.DATA, 0, 0);
        this.codeABx(OP.DATA, 0, 0);
        break;
      }
      case Exp.INDEXED:
        this.freeRegister(e.aux);
        this.freeRegister(e.info);
        e.info = this.codeABC(OP.GETTABLE, 0, e.info, e.aux);
        e.k = Exp.RELOCABLE;
        this.codeABx(OP.DATA, 0, 0);
        this.codeABx(OP.DATA, 0, 0);
        break;
      case Exp.VARARG:
      case Exp.CALL:
        this.setOneRet(e);
        break;
      default:
        break;
    }
  }

  private codeLabel(a: number, b: number, jump: number): number {
    this.getLabel();
    return this.codeABC(OP.LOADBOOL, a, b, jump);
  }

  private discharge2reg(e: ExpDesc, reg: number): void {
    this.dischargeVars(e);
    switch (e.k) {
      case Exp.NIL:
        this.nil(reg, 1);
        break;
      case Exp.FALSE:
      case Exp.TRUE:
        this.codeABC(OP.LOADBOOL, reg, e.k === Exp.TRUE ? 1 : 0, 0);
        break;
      case Exp.K:
        this.codeABx(OP.LOADK, reg, e.info);
        break;
      case Exp.KNUM:
        this.codeABx(OP.LOADK, reg, this.numberK(e.nval));
        break;
      case Exp.RELOCABLE:
        this.code[e.info] = setA(this.code[e.info]!, reg);
        break;
      case Exp.NONRELOC:
        if (reg !== e.info) this.codeABC(OP.MOVE, reg, e.info, 0);
        break;
      default:
        return; // VOID or JMP: nothing to do
    }
    e.info = reg;
    e.k = Exp.NONRELOC;
  }

  private discharge2anyreg(e: ExpDesc): void {
    if (e.k !== Exp.NONRELOC) {
      this.reserveRegs(1);
      this.discharge2reg(e, this.freeReg - 1);
    }
  }

  private exp2reg(e: ExpDesc, reg: number): void {
    this.discharge2reg(e, reg);
    if (e.k === Exp.JMP) e.t = this.concat(e.t, e.info);
    if (e.t !== e.f) {
      let pf = NO_JUMP;
      let pt = NO_JUMP;
      if (this.needValue(e.t) || this.needValue(e.f)) {
        const fj = e.k === Exp.JMP ? NO_JUMP : this.jump();
        pf = this.codeLabel(reg, 0, 1);
        pt = this.codeLabel(reg, 1, 0);
        this.patchToHere(fj);
      }
      const final = this.getLabel();
      this.patchListAux(e.f, final, reg, pf);
      this.patchListAux(e.t, final, reg, pt);
    }
    e.f = e.t = NO_JUMP;
    e.info = reg;
    e.k = Exp.NONRELOC;
  }

  exp2nextreg(e: ExpDesc): void {
    this.dischargeVars(e);
    this.freeExp(e);
    this.reserveRegs(1);
    this.exp2reg(e, this.freeReg - 1);
  }

  exp2anyreg(e: ExpDesc): number {
    this.dischargeVars(e);
    if (e.k === Exp.NONRELOC) {
      if (e.t === e.f) return e.info;
      if (e.info >= this.nactvar) {
        this.exp2reg(e, e.info);
        return e.info;
      }
    }
    this.exp2nextreg(e);
    return e.info;
  }

  exp2val(e: ExpDesc): void {
    if (e.t !== e.f) this.exp2anyreg(e);
    else this.dischargeVars(e);
  }

  exp2RK(e: ExpDesc): number {
    this.exp2val(e);
    switch (e.k) {
      case Exp.KNUM:
      case Exp.TRUE:
      case Exp.FALSE:
      case Exp.NIL:
        if (this.constants.length <= MAXINDEXRK) {
          e.info = e.k === Exp.NIL ? this.nilK() : e.k === Exp.KNUM ? this.numberK(e.nval) : this.boolK(e.k === Exp.TRUE);
          e.k = Exp.K;
          return rkAsK(e.info);
        }
        break;
      case Exp.K:
        if (e.info <= MAXINDEXRK) return rkAsK(e.info);
        break;
      default:
        break;
    }
    return this.exp2anyreg(e);
  }

  // -------------------------------------------------------------------------------------------------------------
  // Stores, self, indexing

  storeVar(v: ExpDesc, ex: ExpDesc): void {
    switch (v.k) {
      case Exp.LOCAL: {
        this.freeExp(ex);
        this.exp2reg(ex, v.info);
        const t = this.localTypes[v.info]!;
        if (t.isStatic && this.checkStaticType(t, ex)) this.checkType(t, v.info);
        return;
      }
      case Exp.UPVAL: {
        const e = this.exp2anyreg(ex);
        if (v.type !== LuaType.NONE) {
          const t = typeInfo(v.type, v.proto, false);
          if (this.checkStaticType(t, ex)) this.checkType(t, ex.info);
        }
        this.codeABC(OP.SETUPVAL, e, v.info, 0);
        break;
      }
      case Exp.GLOBAL: {
        const e = this.exp2anyreg(ex);
        this.codeABx(OP.SETGLOBAL, e, v.info);
        break;
      }
      case Exp.SLOT: {
        const e = this.exp2RK(ex);
        if (!this.assignSlot(v, ex, e)) this.codeABC(OP.SETTABLE, v.info, v.aux, e);
        break;
      }
      case Exp.INDEXED: {
        const e = this.exp2RK(ex);
        this.codeABC(OP.SETTABLE, v.info, v.aux, e);
        break;
      }
      default:
        throw new Error(`compiler bug: store to expression kind ${v.k}`);
    }
    this.freeExp(ex);
  }

  self(e: ExpDesc, key: ExpDesc): void {
    this.exp2anyreg(e);
    this.freeExp(e);
    const func = this.freeReg;
    this.reserveRegs(2);
    const c = this.exp2RK(key);
    if (!this.codeSelfSlot(e, c, func)) this.codeABC(OP.SELF, func, e.info, c);
    this.freeExp(key);
    e.info = func;
    e.k = Exp.NONRELOC;
  }

  private codeSelfSlot(e: ExpDesc, k: number, reg: number): boolean {
    if (e.type !== LuaType.STRUCT || !isK(k)) return false;
    const index = this.constants[indexK(k)]!;
    if (index.type !== 'string' || index.value === null) return false;
    return this.codeGetSlot(e, e.proto!, index.value, reg) !== -1;
  }

  indexed(t: ExpDesc, k: ExpDesc): void {
    t.aux = this.exp2RK(k);
    t.k = Exp.INDEXED;
    if (t.type === LuaType.STRUCT) {
      switch (k.k) {
        case Exp.K: {
          const o = this.constants[k.info]!;
          t.sproto = t.proto;
          t.skey = constantSlotKey(o);
          t.k = Exp.SLOT;
          if (o.type === 'string' && o.value !== null) {
            const s = this.newLookup(false);
            const result = this.resolveStructIndex(t.proto!, o.value, s);
            if (result === STRUCT_INDEX_SLOT && s.t.isStatic) {
              t.type = s.t.type;
              t.proto = s.t.proto;
              return;
            }
          }
          break;
        }
        case Exp.TRUE:
        case Exp.FALSE:
          t.sproto = t.proto;
          t.skey = k.k === Exp.TRUE;
          t.k = Exp.SLOT;
          break;
        case Exp.KNUM:
          t.sproto = t.proto;
          t.skey = k.nval;
          t.k = Exp.SLOT;
          break;
        default:
          break;
      }
    }
    t.type = LuaType.NONE;
    t.proto = null;
  }

  // -------------------------------------------------------------------------------------------------------------
  // Conditions

  private invertJump(e: ExpDesc): void {
    const pc = this.jumpControl(e.info);
    const i = this.code[pc]!;
    this.code[pc] = setA(i, getA(i) === 0 ? 1 : 0);
  }

  private jumpOnCond(e: ExpDesc, cond: number): number {
    if (e.k === Exp.RELOCABLE) {
      const ie = this.code[e.info]!;
      if (getOp(ie) === OP.NOT) {
        this.pc--;
        this.code.pop();
        this.lines.pop();
        return this.condJump(OP.TEST, getB(ie), 0, cond ? 0 : 1);
      }
    }
    this.discharge2anyreg(e);
    this.freeExp(e);
    return this.condJump(OP.TESTSET, NO_REG, e.info, cond);
  }

  goIfTrue(e: ExpDesc): void {
    let pc: number;
    this.dischargeVars(e);
    switch (e.k) {
      case Exp.K:
      case Exp.KNUM:
      case Exp.TRUE:
        pc = NO_JUMP;
        break;
      case Exp.FALSE:
        pc = this.jump();
        break;
      case Exp.JMP:
        this.invertJump(e);
        pc = e.info;
        break;
      default:
        pc = this.jumpOnCond(e, 0);
    }
    e.f = this.concat(e.f, pc);
    this.patchToHere(e.t);
    e.t = NO_JUMP;
  }

  private goIfFalse(e: ExpDesc): void {
    let pc: number;
    this.dischargeVars(e);
    switch (e.k) {
      case Exp.NIL:
      case Exp.FALSE:
        pc = NO_JUMP;
        break;
      case Exp.TRUE:
        pc = this.jump();
        break;
      case Exp.JMP:
        pc = e.info;
        break;
      default:
        pc = this.jumpOnCond(e, 1);
    }
    e.t = this.concat(e.t, pc);
    this.patchToHere(e.f);
    e.f = NO_JUMP;
  }

  private codeNot(e: ExpDesc): void {
    this.dischargeVars(e);
    switch (e.k) {
      case Exp.NIL:
      case Exp.FALSE:
        e.k = Exp.TRUE;
        e.type = LuaType.BOOLEAN;
        e.proto = null;
        break;
      case Exp.K:
      case Exp.KNUM:
      case Exp.TRUE:
        e.k = Exp.FALSE;
        e.type = LuaType.BOOLEAN;
        e.proto = null;
        break;
      case Exp.JMP:
        this.invertJump(e);
        break;
      case Exp.RELOCABLE:
      case Exp.NONRELOC:
        this.discharge2anyreg(e);
        this.freeExp(e);
        e.info = this.codeABC(OP.NOT, 0, e.info, 0);
        e.k = Exp.RELOCABLE;
        break;
      default:
        throw new Error(`compiler bug: 'not' of expression kind ${e.k}`);
    }
    const temp = e.f;
    e.f = e.t;
    e.t = temp;
    this.removeValues(e.f);
    this.removeValues(e.t);
  }

  // -------------------------------------------------------------------------------------------------------------
  // Operators

  private constFolding(op: number, e1: ExpDesc, e2: ExpDesc): boolean {
    if (!isNumeral(e1) || !isNumeral(e2)) return false;
    const v1 = e1.nval;
    const v2 = e2.nval;
    const num = this.ctx.num;
    let r: number;
    switch (op) {
      case OP.ADD:
        r = num(v1 + v2);
        break;
      case OP.SUB:
        r = num(v1 - v2);
        break;
      case OP.MUL:
        r = num(v1 * v2);
        break;
      case OP.DIV:
        if (v2 === 0) return false;
        r = num(v1 / v2);
        break;
      case OP.MOD:
        if (v2 === 0) return false;
        // a - floor(a/b)*b: the quotient in the number type, the rest in double (C's floor), then stored.
        r = num(v1 - Math.floor(num(v1 / v2)) * v2);
        break;
      case OP.POW:
        r = num(Math.pow(v1, v2));
        break;
      case OP.UNM:
        r = -v1;
        break;
      default:
        return false; // LEN
    }
    if (Number.isNaN(r)) return false;
    e1.nval = r;
    return true;
  }

  private codeArith(op: number, e1: ExpDesc, e2: ExpDesc): void {
    if (this.constFolding(op, e1, e2)) return;
    const o2 = op !== OP.UNM && op !== OP.LEN ? this.exp2RK(e2) : 0;
    const o1 = this.exp2RK(e1);
    if (o1 > o2) {
      this.freeExp(e1);
      this.freeExp(e2);
    } else {
      this.freeExp(e2);
      this.freeExp(e1);
    }
    e1.info = this.codeABC(op, 0, o1, o2);
    e1.k = Exp.RELOCABLE;
    if (op === OP.LEN) {
      e1.type = e1.type === LuaType.STRING || e1.type === LuaType.TABLE || e1.type === LuaType.STRUCT ? LuaType.NUMBER : LuaType.NONE;
    } else if (op === OP.CONCAT) {
      e1.type = (e1.type === LuaType.NUMBER || e1.type === LuaType.STRING) && (e2.type === LuaType.NUMBER || e2.type === LuaType.STRING) ? LuaType.STRING : LuaType.NONE;
    } else if (e1.type !== LuaType.NUMBER || e2.type !== LuaType.NUMBER) e1.type = LuaType.NONE;
  }

  private codeComp(op: number, cond: number, e1: ExpDesc, e2: ExpDesc): void {
    let o1 = this.exp2RK(e1);
    let o2 = this.exp2RK(e2);
    this.freeExp(e2);
    this.freeExp(e1);
    if (cond === 0 && op !== OP.EQ) {
      const temp = o1;
      o1 = o2;
      o2 = temp;
      cond = 1;
    }
    e1.info = this.condJump(op, cond, o1, o2);
    e1.k = Exp.JMP;
    e1.type = LuaType.BOOLEAN;
    e1.proto = null;
  }

  prefix(op: UnaryOp, e: ExpDesc): void {
    const e2 = new ExpDesc();
    e2.init(Exp.KNUM, 0);
    e2.nval = 0;
    switch (op) {
      case UnaryOp.MINUS:
        if (!isNumeral(e)) {
          this.exp2anyreg(e);
          e.type = LuaType.NONE;
        }
        this.codeArith(OP.UNM, e, e2);
        break;
      case UnaryOp.NOT:
        this.codeNot(e);
        break;
      case UnaryOp.LEN:
        this.exp2anyreg(e);
        this.codeArith(OP.LEN, e, e2);
        break;
    }
  }

  infix(op: BinaryOp, v: ExpDesc): void {
    switch (op) {
      case BinaryOp.AND:
        this.goIfTrue(v);
        break;
      case BinaryOp.OR:
        this.goIfFalse(v);
        break;
      case BinaryOp.CONCAT:
        this.exp2nextreg(v);
        break;
      case BinaryOp.ADD:
      case BinaryOp.SUB:
      case BinaryOp.MUL:
      case BinaryOp.DIV:
      case BinaryOp.MOD:
      case BinaryOp.POW:
        if (!isNumeral(v)) {
          this.exp2RK(v);
          if (v.type !== LuaType.NUMBER) v.type = LuaType.NONE;
        }
        break;
      default:
        this.exp2RK(v);
        v.type = LuaType.NONE;
    }
  }

  posfix(op: BinaryOp, e1: ExpDesc, e2: ExpDesc): void {
    switch (op) {
      case BinaryOp.AND:
        this.dischargeVars(e2);
        e2.f = this.concat(e2.f, e1.f);
        if (!matchingType(e1, e2)) {
          e2.type = LuaType.NONE;
          e2.proto = null;
        }
        e1.copyFrom(e2);
        break;
      case BinaryOp.OR:
        this.dischargeVars(e2);
        e2.t = this.concat(e2.t, e1.t);
        if (!matchingType(e1, e2)) {
          e2.type = LuaType.NONE;
          e2.proto = null;
        }
        e1.copyFrom(e2);
        break;
      case BinaryOp.CONCAT: {
        this.exp2val(e2);
        const pi = this.code[e2.info];
        if (e2.k === Exp.RELOCABLE && pi !== undefined && getOp(pi) === OP.CONCAT) {
          this.freeExp(e1);
          this.code[e2.info] = setB(pi, e1.info);
          e1.k = Exp.RELOCABLE;
          e1.info = e2.info;
        } else {
          this.exp2nextreg(e2);
          this.codeArith(OP.CONCAT, e1, e2);
        }
        if (e1.type !== LuaType.STRING || e2.type !== LuaType.STRING) e1.type = LuaType.NONE;
        break;
      }
      case BinaryOp.ADD:
        this.codeArith(OP.ADD, e1, e2);
        break;
      case BinaryOp.SUB:
        this.codeArith(OP.SUB, e1, e2);
        break;
      case BinaryOp.MUL:
        this.codeArith(OP.MUL, e1, e2);
        break;
      case BinaryOp.DIV:
        this.codeArith(OP.DIV, e1, e2);
        break;
      case BinaryOp.MOD:
        this.codeArith(OP.MOD, e1, e2);
        break;
      case BinaryOp.POW:
        this.codeArith(OP.POW, e1, e2);
        break;
      case BinaryOp.EQ:
        this.codeComp(OP.EQ, 1, e1, e2);
        break;
      case BinaryOp.NE:
        this.codeComp(OP.EQ, 0, e1, e2);
        break;
      case BinaryOp.LT:
        this.codeComp(OP.LT, 1, e1, e2);
        break;
      case BinaryOp.LE:
        this.codeComp(OP.LE, 1, e1, e2);
        break;
      case BinaryOp.GT:
        this.codeComp(OP.LT, 0, e1, e2);
        break;
      case BinaryOp.GE:
        this.codeComp(OP.LE, 0, e1, e2);
        break;
    }
  }

  // -------------------------------------------------------------------------------------------------------------
  // Constructors

  setList(base: number, nelems: number, tostore: number): void {
    const c = Math.floor((nelems - 1) / LFIELDS_PER_FLUSH) + 1;
    const b = tostore === LUA_MULTRET ? 0 : tostore;
    if (c <= MAXARG_C) this.codeABC(OP.SETLIST, base, b, c);
    else {
      if (c > MAXARG_BX) this.semError('Attempt to initialize a table with too many array literals. Please split into multiple statements.');
      this.codeABC(OP.SETLIST, base, b, 0);
      this.codeABx(OP.DATA, 0, c);
    }
    this.freeReg = base + 1;
  }

  // -------------------------------------------------------------------------------------------------------------
  // Finishing

  /**
   * hksc's last pass over a function: generic table/call opcodes become their specialized forms, then each
   * instruction that does not start a basic block takes its `_R1` form when the previous instruction (DATA words
   * skipped) makes R1 and wrote the operand register.
   */
  specialize(): Uint32Array {
    const code = new Uint32Array(this.code);
    const k = this.constants;
    const n = code.length;
    for (let i = 0; i < n; i++) {
      const w = code[i]!;
      const op = getOp(w);
      if (op === OP.GETTABLE) {
        const c = getC(w);
        const key = isK(c) ? k[indexK(c)] : undefined;
        if (!key || key.type !== 'string') code[i] = setOp(w, OP.GETTABLE_S);
        else code[i] = setC(setOp(w, OP.GETFIELD), indexK(c));
      } else if (op === OP.SETTABLE || op === OP.SETTABLE_BK) {
        const b = getB(w);
        const key = isK(b) ? k[indexK(b)] : undefined;
        if (!key || key.type !== 'string') code[i] = setOp(w, OP.SETTABLE_S);
        else code[i] = createABC(OP.SETFIELD, getA(w), indexK(b), getC(w));
      } else if (op === OP.CALL) code[i] = setOp(w, OP.CALL_I);
      else if (op === OP.TAILCALL) code[i] = setOp(w, OP.TAILCALL_I);
    }
    const leader = new Uint8Array(n + 2);
    for (let i = 0; i < n; i++) {
      const w = code[i]!;
      const op = getOp(w);
      if (IS_TEST[op] || (op === OP.LOADBOOL && getC(w) !== 0)) {
        leader[i + 1] = 1;
        leader[i + 2] = 1;
      } else if (op === OP.JMP || op === OP.FORLOOP || op === OP.FORPREP) {
        leader[i + 1] = 1;
        const t = i + 1 + getSBx(w);
        if (t >= 0 && t < n) leader[t] = 1;
      }
    }
    for (let i = 1; i < n; i++) {
      if (leader[i]) continue;
      let p = i - 1;
      let prev = code[p]!;
      while (getOp(prev) === OP.DATA && p > 0) prev = code[--p]!;
      const cur = code[i]!;
      if (!MAKES_R1[getOp(prev)]) continue;
      const form = R1_FORM[getOp(cur)]!;
      if (form === 0) continue;
      const operand = R1_OPERAND[getOp(cur)] === 1 ? getA(cur) : getB(cur);
      if (getA(prev) === operand) code[i] = setOp(cur, form - 1);
    }
    return code;
  }
}

/** Binary operators in hksc's order (priorities are indexed by it). */
export const BinaryOp = {
  ADD: 0,
  SUB: 1,
  MUL: 2,
  DIV: 3,
  MOD: 4,
  POW: 5,
  CONCAT: 6,
  NE: 7,
  EQ: 8,
  LT: 9,
  LE: 10,
  GT: 11,
  GE: 12,
  AND: 13,
  OR: 14,
} as const;
export type BinaryOp = (typeof BinaryOp)[keyof typeof BinaryOp];

export const UnaryOp = { MINUS: 0, NOT: 1, LEN: 2 } as const;
export type UnaryOp = (typeof UnaryOp)[keyof typeof UnaryOp];

const isNumeral = (e: ExpDesc): boolean => e.k === Exp.KNUM && e.t === NO_JUMP && e.f === NO_JUMP;

const matchingType = (e1: ExpDesc, e2: ExpDesc): boolean => e1.type === e2.type && e1.proto === e2.proto;

/** The Lua type of a constant (hksc's `ttype`). */
export function constantType(k: HksConstant): number {
  switch (k.type) {
    case 'nil':
      return LuaType.NIL;
    case 'boolean':
      return LuaType.BOOLEAN;
    case 'lightuserdata':
      return LuaType.LIGHTUSERDATA;
    case 'number':
      return LuaType.NUMBER;
    case 'string':
      return LuaType.STRING;
    case 'ui64':
      return LuaType.UI64;
  }
}

function constantSlotKey(k: HksConstant): SlotKey {
  switch (k.type) {
    case 'string':
      return k.value;
    case 'number':
      return k.value;
    case 'boolean':
      return k.value !== 0;
    default:
      return null;
  }
}
