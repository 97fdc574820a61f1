/**
 * Decoding a function's code words into instructions the decompiler reasons about. Every row of the one opcode
 * table (`src/formats/hks/opcodes.ts`) belongs to an operation family: the `_R1` forms are their base opcodes,
 * the `_BK` forms are their base opcodes with a constant B, GETFIELD / GETTABLE_S are GETTABLE with a constant or
 * RK key, SETFIELD / SETTABLE_S(_BK) are SETTABLE, CALL_I is CALL, GETGLOBAL_MEM is GETGLOBAL. The family and the
 * operand normalisation are derived from the table's names and operand kinds, never listed a second time.
 *
 * Operands are normalised to one number space: a register `r` (0..255) or a constant `K(i)` as `HKS_K + i`, so
 * `GETFIELD A B C` (C a plain constant index), `GETTABLE_S A B C` (C an RK field) and `ADD_BK A B C` (B a
 * constant) all read the same way. DATA words are attached to the instruction that owns them (§9 of the format
 * notes); a DATA word nobody owns, a missing DATA word or a jump outside the code is a `HksDecodeError`.
 */
import { ErrorCode, ToolkitError } from '../../binary/errors.ts';
import type { HksFunction } from '../../formats/hks/chunk.ts';
import { hksA, hksB, hksBx, hksC, hksDataWordCount, hksOp, hksOpcodes, hksSbx, type HksDialect, type HksOpcodeInfo, type HksOpcodeTable } from '../../formats/hks/opcodes.ts';

/** Constant operands are `HKS_K + index`; registers are below it. */
export const HKS_K = 0x10000;
/** True when a normalised operand names a constant. */
export const isConstantOperand = (x: number): boolean => x >= HKS_K;

/** The arithmetic operators of the ADD..POW families, by family name. */
export const HKS_ARITH_OPERATORS = { ADD: '+', SUB: '-', MUL: '*', DIV: '/', MOD: '%', POW: '^' } as const;
export type HksArithOperator = (typeof HKS_ARITH_OPERATORS)[keyof typeof HKS_ARITH_OPERATORS];

/**
 * Operation families. `UNSUPPORTED` covers opcodes no compiler we know emits and whose semantics nobody documents
 * (INTRINSIC_*, GETFIELD_MM, GETSLOT_D): a function using them is not decompiled.
 */
export type HksFamily =
  | 'MOVE' | 'LOADK' | 'LOADBOOL' | 'LOADNIL' | 'GETUPVAL' | 'GETGLOBAL' | 'GETTABLE' | 'SETGLOBAL' | 'SETUPVAL'
  | 'SETTABLE' | 'NEWTABLE' | 'SELF' | 'ARITH' | 'UNM' | 'NOT' | 'LEN' | 'CONCAT' | 'JMP' | 'EQ' | 'LT' | 'LE'
  | 'TEST' | 'TESTSET' | 'CALL' | 'TAILCALL' | 'RETURN' | 'FORLOOP' | 'FORPREP' | 'TFORLOOP' | 'SETLIST' | 'CLOSE'
  | 'CLOSURE' | 'VARARG' | 'NEWSTRUCT' | 'SETSLOTN' | 'SETSLOTI' | 'SETSLOT' | 'SETSLOTS' | 'SETSLOTMT' | 'CHECKTYPE'
  | 'CHECKTYPES' | 'GETSLOT' | 'GETSLOTMT' | 'SELFSLOT' | 'SELFSLOTMT' | 'DATA' | 'UNSUPPORTED';

/** How an opcode reads its operands, derived once per table row. */
export interface HksFamilyInfo {
  family: HksFamily;
  /** For ARITH. */
  operator?: HksArithOperator;
  /** How B and C are normalised: plain register/number, constant index, or RK. */
  bOperand: 'plain' | 'constant' | 'rk';
  cOperand: 'plain' | 'constant' | 'rk';
  /** An opcode that the offline compiler never emits (CALL_C, GETTABLE_N, …): decoded, never reproduced. */
  neverCompiled: boolean;
}

const KNOWN_FAMILIES = new Set<string>([
  'MOVE', 'LOADK', 'LOADBOOL', 'LOADNIL', 'GETUPVAL', 'GETGLOBAL', 'GETTABLE', 'SETGLOBAL', 'SETUPVAL', 'SETTABLE', 'NEWTABLE', 'SELF', 'UNM', 'NOT',
  'LEN', 'CONCAT', 'JMP', 'EQ', 'LT', 'LE', 'TEST', 'TESTSET', 'CALL', 'TAILCALL', 'RETURN', 'FORLOOP', 'FORPREP', 'TFORLOOP', 'SETLIST', 'CLOSE',
  'CLOSURE', 'VARARG', 'NEWSTRUCT', 'SETSLOTN', 'SETSLOTI', 'SETSLOT', 'SETSLOTS', 'SETSLOTMT', 'CHECKTYPE', 'CHECKTYPES', 'GETSLOT', 'GETSLOTMT',
  'SELFSLOT', 'SELFSLOTMT', 'DATA',
]);

/**
 * Name of the family an opcode name belongs to: `_R1` and `_BK` suffixes dropped, then the specialised variants
 * folded into the generic opcode hksc emits before its dump-time rewrite (`specs/hks.md` §11).
 */
function familyName(name: string): { family: string; bk: boolean; variant: boolean } {
  let n = name.endsWith('_R1') ? name.slice(0, -3) : name;
  const bk = n.endsWith('_BK');
  if (bk) n = n.slice(0, -3);
  // Variant suffixes: _I / _S are the forms the compiler emits; _C / _M / _N / _D / _MEM / FIELD are the others.
  const fold: Record<string, [string, boolean]> = {
    GETFIELD: ['GETTABLE', false], GETTABLE_S: ['GETTABLE', false], GETTABLE_N: ['GETTABLE', true],
    SETFIELD: ['SETTABLE', false], SETTABLE_S: ['SETTABLE', false], SETTABLE_N: ['SETTABLE', true],
    CALL_I: ['CALL', false], CALL_C: ['CALL', true], CALL_M: ['CALL', true],
    TAILCALL_I: ['TAILCALL', false], TAILCALL_C: ['TAILCALL', true], TAILCALL_M: ['TAILCALL', true],
    GETGLOBAL_MEM: ['GETGLOBAL', false], CHECKTYPE_D: ['CHECKTYPES', true],
  };
  const f = fold[n];
  if (f) return { family: f[0], bk, variant: f[1] };
  return { family: n, bk, variant: false };
}

function deriveFamily(info: HksOpcodeInfo): HksFamilyInfo {
  const { family, variant } = familyName(info.name);
  const operand = (kind: string): HksFamilyInfo['bOperand'] => (kind === 'K' ? 'constant' : kind === 'RK' ? 'rk' : 'plain');
  const base = { bOperand: info.mode === 'ABC' ? operand(info.b) : 'plain', cOperand: info.mode === 'ABC' ? operand(info.c) : 'plain' } as const;
  // The generic GETTABLE / SETTABLE / CALL / TAILCALL / GETGLOBAL rows are rewritten by hksc before dumping.
  const generic = ['GETTABLE', 'SETTABLE', 'SETTABLE_BK', 'CALL', 'TAILCALL', 'GETGLOBAL'].includes(info.name);
  if (family in HKS_ARITH_OPERATORS) {
    return { family: 'ARITH', operator: HKS_ARITH_OPERATORS[family as keyof typeof HKS_ARITH_OPERATORS], ...base, neverCompiled: false };
  }
  if (!KNOWN_FAMILIES.has(family)) return { family: 'UNSUPPORTED', ...base, neverCompiled: true };
  return { family: family as HksFamily, ...base, neverCompiled: variant || generic };
}

const FAMILY_TABLES = new Map<HksOpcodeTable, readonly HksFamilyInfo[]>();

/** The family of every opcode of a table, indexed by opcode number. */
export function hksFamilies(table: HksOpcodeTable): readonly HksFamilyInfo[] {
  let f = FAMILY_TABLES.get(table);
  if (!f) {
    f = table.byOp.map(deriveFamily);
    FAMILY_TABLES.set(table, f);
  }
  return f;
}

/** One decoded instruction with its DATA words. */
export interface HksInstruction {
  pc: number;
  /** pc of the next instruction (after the DATA words). */
  next: number;
  /** Opcode name as stored. */
  name: string;
  family: HksFamily;
  operator?: HksArithOperator;
  /** Fields after normalisation: `b` / `c` are operands (register or `HKS_K + k`) where the opcode reads them so. */
  a: number;
  b: number;
  c: number;
  bx: number;
  sbx: number;
  /** Raw DATA words owned by this instruction. */
  data: readonly number[];
  /** True for opcodes the offline compiler never emits. */
  neverCompiled: boolean;
}

/** A function's decoded code. */
export interface HksDecodedCode {
  /** Instructions in code order. */
  list: HksInstruction[];
  /** Instruction starting at each word (undefined at DATA words). */
  at: (HksInstruction | undefined)[];
  /** Number of words. */
  size: number;
}

/** Code that cannot be decoded as compiler output would be. */
export class HksDecodeError extends ToolkitError {
  override name = 'HksDecodeError';
  readonly pc: number;
  constructor(message: string, pc: number) {
    super(ErrorCode.Format, `hks: ${message} at pc ${pc}`);
    this.pc = pc;
  }
}

/** Decodes a function's code (DATA ownership from the table; the CLOSURE rule needs the child's upvalue count). */
export function decodeHksCode(fn: HksFunction, dialect: HksDialect = 'default'): HksDecodedCode {
  const table = hksOpcodes(dialect);
  const families = hksFamilies(table);
  const code = fn.code;
  const size = code.length;
  const list: HksInstruction[] = [];
  const at: (HksInstruction | undefined)[] = new Array(size);
  let pc = 0;
  while (pc < size) {
    const w = code[pc]!;
    const op = hksOp(w);
    const info = table.byOp[op];
    if (!info) throw new HksDecodeError(`opcode ${op} is outside the ${table.dialect} table`, pc);
    const fam = families[op]!;
    if (fam.family === 'DATA') throw new HksDecodeError('DATA word without an owner', pc);
    let count: number | undefined;
    if (info.data.kind === 'closure') {
      const child = fn.children[hksBx(w)];
      if (!child) throw new HksDecodeError(`CLOSURE of prototype ${hksBx(w)}, the function has ${fn.children.length}`, pc);
      count = child.upvalueCount;
    } else {
      count = hksDataWordCount(info, w);
    }
    count ??= 0;
    if (pc + 1 + count > size) throw new HksDecodeError(`${info.name} owns ${count} DATA word(s) past the end of the code`, pc);
    const data: number[] = [];
    for (let i = 1; i <= count; i++) {
      const d = code[pc + i]!;
      if (families[hksOp(d)]?.family !== 'DATA') throw new HksDecodeError(`${info.name} owns ${count} DATA word(s), word ${pc + i} is ${table.byOp[hksOp(d)]?.name ?? hksOp(d)}`, pc + i);
      data.push(d);
    }
    const rawB = hksB(w);
    const rawC = hksC(w);
    const norm = (raw: number, how: HksFamilyInfo['bOperand']): number => (how === 'constant' ? HKS_K + raw : how === 'rk' && raw >= 256 ? HKS_K + raw - 256 : raw);
    const insn: HksInstruction = {
      pc,
      next: pc + 1 + count,
      name: info.name,
      family: fam.family,
      a: hksA(w),
      b: norm(rawB, fam.bOperand),
      c: norm(rawC, fam.cOperand),
      bx: hksBx(w),
      sbx: hksSbx(w),
      data,
      neverCompiled: fam.neverCompiled,
    };
    if (fam.operator) insn.operator = fam.operator;
    list.push(insn);
    at[pc] = insn;
    pc = insn.next;
  }
  for (const i of list) {
    if (i.family === 'JMP' || i.family === 'FORPREP' || i.family === 'FORLOOP') {
      const t = i.pc + 1 + i.sbx;
      if (t < 0 || t >= size || !at[t]) throw new HksDecodeError(`${i.name} to ${t}, which is not an instruction`, i.pc);
    }
  }
  return { list, at, size };
}

/** Target pc of a JMP / FORPREP / FORLOOP. */
export const jumpTarget = (i: HksInstruction): number => i.pc + 1 + i.sbx;

/** Lua 5.1 "floating point byte" decoding of NEWTABLE sizes: `eeeeexxx` → `(1xxx) * 2^(eeeee-1)`. */
export function hksFloatingByteToInt(x: number): number {
  const e = (x >> 3) & 31;
  return e === 0 ? x : ((x & 7) + 8) * 2 ** (e - 1);
}

/** Lua 5.1 `luaO_int2fb`: the floating byte the compiler stores for a constructor size (rounded up). */
export function hksIntToFloatingByte(n: number): number {
  let e = 0;
  let x = n;
  while (x >= 16) {
    x = (x + 1) >> 1;
    e++;
  }
  return x < 8 ? x : ((e + 1) << 3) | (x - 8);
}
