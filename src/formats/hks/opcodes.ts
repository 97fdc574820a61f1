/**
 * The HavokScript instruction set as data (`specs/hks.md` §7–10): one row per opcode with its number, name, operand
 * mode, operand kinds, the DATA words it owns and a one-line semantics. Other numberings (CoD T7 with bitwise
 * opcodes inserted at 60, IW6 with DELETE appended) are alternative tables derived from the same rows by data
 * (insertions), selected by a dialect name; nothing else in the toolkit branches on the dialect.
 *
 * Word layout: op = bits 25-31, A = bits 0-7, C = bits 8-16, B = bits 17-24, Bx = bits 8-24, sBx = Bx - 0xFFFF.
 */

/** Operand kinds. */
export const HksOperandKind = {
  /** Unused: must be 0. */
  none: '-',
  /** Register R(n). */
  register: 'R',
  /** Constant K(n), a plain index (no +256 bias). */
  constant: 'K',
  /** Register or constant: n >= 256 is K(n - 256). Only the 9-bit C field. */
  registerOrConstant: 'RK',
  /** An unsigned number used as is (counts, slot positions, type or structure ids). */
  unsigned: 'U',
  /** Jump offset sBx, relative to the next word. */
  jump: 'J',
  /** Child prototype index (CLOSURE Bx). */
  prototype: 'P',
  /** Boolean expected result of a comparison (A of EQ / LT / LE). */
  flag: 'F',
} as const;
export type HksOperandKind = (typeof HksOperandKind)[keyof typeof HksOperandKind];

export type HksOperandMode = 'ABC' | 'ABx' | 'AsBx';

/**
 * How many DATA words follow an opcode: a fixed number; one per upvalue of the CLOSURE's child; SETLIST's one word
 * when C = 0; SETSLOTMT's `(B & 15) + 1` chain words plus a struct-id word when `B >> 4` = 12; C + 1 chain words
 * (GETSLOTMT / SELFSLOTMT); `optional` = 0 or up to `max` (GETGLOBAL, from an internal hksc setting);
 * `unknown` = never produced by any compiler we could run (`assumed` words, hypothesis `hks.data.unknown`).
 */
export type HksDataRule =
  | { kind: 'fixed'; count: number }
  | { kind: 'closure' }
  | { kind: 'setlist' }
  | { kind: 'setslotmt' }
  | { kind: 'chainC' }
  | { kind: 'optional'; max: number }
  | { kind: 'unknown'; assumed: number };

/**
 * Which registers an instruction writes: `none`; `A`; `A..B` (LOADNIL); `A..A+1` (SELF, SELFSLOT: the method
 * and the receiver); `call` R(A)..R(A+C-2), C = 0: up to top; `tforloop` R(A+3)..R(A+2+C) and R(A+2); `vararg`
 * R(A)..R(A+B-2), B = 0: up to top; `forloop` R(A) and R(A+3); `testset` R(A) when the test passes; `unknown`
 * (the INTRINSIC_* opcodes no interpreter executes).
 */
export type HksRegisterWrites = 'none' | 'A' | 'A..B' | 'A..A+1' | 'call' | 'tforloop' | 'vararg' | 'forloop' | 'testset' | 'unknown';

/**
 * Registers an instruction uses beyond its single-register operands, for range checks (`hksRegisterSpan`):
 * `call` R(A)..R(A+max(B-1, C-2)); `tailcall` R(A)..R(A+B-1); `return` R(A)..R(A+B-2); `pair` R(A), R(A+1);
 * `tforloop` R(A)..R(A+2+C); `setlist` R(A)..R(A+B); `vararg` R(A)..R(A+B-2); `concat` R(B)..R(C) (C > B);
 * `loadnil` R(A)..R(B) (B ≥ A).
 */
export type HksRegisterSpanKind = 'call' | 'tailcall' | 'return' | 'pair' | 'tforloop' | 'setlist' | 'vararg' | 'concat' | 'loadnil';

/**
 * What an opcode's DATA words hold (§9): `cache` two inline-cache words (compiler writes 0); `memo` A = 20, Bx = the
 * first of two reserved nil constants; `capture` per child upvalue A = 1 register Bx / A = 2 upvalue Bx; `block`
 * SETLIST's real block number; `structId` a structure id; `typeId` a Lua type id; `slotChain` SETSLOTMT's optional
 * struct-id word then tag-chain words; `chain` tag-chain words (A = slot position, Bx = `__index` / `__newindex`
 * slot position, last Bx 0).
 */
export type HksDataPayload = 'cache' | 'memo' | 'capture' | 'block' | 'structId' | 'typeId' | 'slotChain' | 'chain';

/** How an instruction uses a constant name (for analyses): the role and the field holding the constant index. */
export interface HksNameAccess {
  role: 'global-read' | 'global-write' | 'field-read' | 'field-write' | 'method';
  /** `Bx` and `B`, `C` of GETFIELD / SETFIELD are plain constant indexes; SELF's `C` is RK. */
  operand: 'Bx' | 'B' | 'C';
}

export interface HksOpcodeInfo {
  op: number;
  name: string;
  mode: HksOperandMode;
  /** Kind of A. */
  a: HksOperandKind;
  /** Kind of B (ABC) or of Bx / sBx (ABx, AsBx). */
  b: HksOperandKind;
  /** Kind of C (ABC only; '-' otherwise). */
  c: HksOperandKind;
  data: HksDataRule;
  /** What the owned DATA words hold (null: none, or unknown). */
  dataPayload: HksDataPayload | null;
  /** Test instruction: conditionally skips the next word (always a JMP in compiler output). */
  test: boolean;
  /** The next instruction may take its `_R1` form (§10). */
  makesR1: boolean;
  /** True for the DATA pseudo-opcode. */
  isData: boolean;
  /**
   * B has a ninth bit, the opcode's low bit: the even opcode of a `_BK` pair names register B, its odd twin
   * constant B (`EQ`/`EQ_BK`, `SETTABLE*`, arithmetic, `LT`, `LE`). hksc encodes B + 256 into the opcode this way.
   */
  constantB: boolean;
  /** Registers written (see {@link HksRegisterWrites}). */
  writes: HksRegisterWrites;
  /** True when the instruction may write R(A) itself (possibly more registers, see `writes`; TFORLOOP writes from A+2). */
  setsA: boolean;
  /** Multi-register operand span, if any (see {@link HksRegisterSpanKind}). */
  span: HksRegisterSpanKind | null;
  /** `call` for the CALL family, `tailcall` for the TAILCALL family (R(A) is the function). */
  call: 'call' | 'tailcall' | null;
  /** Opcode of this opcode's `_R1` form, if it has one. */
  r1Form: number | null;
  /** For an `_R1` form: its base opcode. */
  r1Of: number | null;
  /** For an `_R1` form: the operand the previous instruction must have written (`A` or `B`). */
  r1Operand: 'A' | 'B' | null;
  /** Constant name use (GETGLOBAL*, SETGLOBAL, GETFIELD*, SETFIELD*, SELF). */
  access: HksNameAccess | null;
  /** Slot operands of the fixed-position slot opcodes: which field holds the instance and which the position. */
  slot: { instance: 'A' | 'B'; position: 'B' | 'C' } | null;
  /** CHECKTYPE checks a Lua type id in Bx; CHECKTYPES / CHECKTYPE_D a structure id in Bx. */
  check: 'type' | 'struct' | null;
  /** B is an upvalue index (GETUPVAL, SETUPVAL, SETUPVAL_R1). */
  upvalueB: boolean;
  semantics: string;
  /**
   * The opcode whose run-time semantics this one has (its own name when it is a base): R1 forms and their base,
   * `_BK` twins and their plain form (the operand kinds say which field is a constant), the call / tail-call /
   * GETTABLE / SETTABLE kinds that the game's generic interpreters serve with one handler (seed 002, "The
   * bytecode"), GETGLOBAL_MEM and GETGLOBAL (the memo word only speeds the real VM up), and the INTRINSIC_*
   * family, which every interpreter loop treats like DATA (a no-op). Pairs never produced by a compiler we could
   * run (GETFIELD_MM, CHECKTYPE_D, GETSLOT_D) are hypotheses `hks.semantics.unknown`.
   */
  sharesSemanticsOf: string;
}

const fixed = (count: number): HksDataRule => ({ kind: 'fixed', count });
const unknown = (assumed: number): HksDataRule => ({ kind: 'unknown', assumed });
const N = fixed(0);
const CLOSURE: HksDataRule = { kind: 'closure' };
const SETLIST: HksDataRule = { kind: 'setlist' };
const SETSLOTMT: HksDataRule = { kind: 'setslotmt' };
const CHAIN: HksDataRule = { kind: 'chainC' };
const OPT1: HksDataRule = { kind: 'optional', max: 1 };

/** Columns beyond operands and DATA words; `w` defaults to `A` when A is a register, else `none`. */
interface RowExtra {
  w?: HksRegisterWrites;
  span?: HksRegisterSpanKind;
  call?: 'call' | 'tailcall';
  /** This opcode's _R1 form and the operand that form takes from the previous instruction. */
  r1?: readonly [form: string, operand: 'A' | 'B'];
  payload?: HksDataPayload;
  access?: HksNameAccess;
  slot?: { instance: 'A' | 'B'; position: 'B' | 'C' };
  check?: 'type' | 'struct';
  upvalueB?: true;
}

type Row = readonly [name: string, mode: HksOperandMode, a: HksOperandKind, b: HksOperandKind, c: HksOperandKind, data: HksDataRule, flags: string, extra: RowExtra, semantics: string];

const NONE: RowExtra = { w: 'none' };
const CALL_X: RowExtra = { w: 'call', span: 'call', call: 'call' };
const TAIL_X: RowExtra = { w: 'none', span: 'tailcall', call: 'tailcall' };
const STORE: RowExtra = { w: 'none' };
const CMP: RowExtra = { w: 'none' };

// flags: t = test (skips next word), r = makes R1, d = the DATA pseudo-opcode, k = B's ninth bit is the opcode's low bit
// prettier-ignore
const DEFAULT_ROWS: readonly Row[] = [
  /*  0 */ ['GETFIELD',                   'ABC',  'R', 'R',  'K',  fixed(2),   'r', { r1: ['GETFIELD_R1', 'B'], payload: 'cache', access: { role: 'field-read', operand: 'C' } }, 'R(A) := R(B)[K(C)]                 +2 inline-cache words'],
  /*  1 */ ['TEST',                       'ABC',  'R', '-',  'U',  N,          't', { w: 'none', r1: ['TEST_R1', 'A'] }, 'if truth(R(A)) ~= (C ~= 0) then skip next'],
  /*  2 */ ['CALL_I',                     'ABC',  'R', 'U',  'U',  N,          '', { ...CALL_X, r1: ['CALL_I_R1', 'A'] }, 'R(A)..R(A+C-2) := R(A)(R(A+1)..R(A+B-1))'],
  /*  3 */ ['CALL_C',                     'ABC',  'R', 'U',  'U',  unknown(0), '', CALL_X, 'CALL_I for C functions (never compiled)'],
  /*  4 */ ['EQ',                         'ABC',  'F', 'R',  'RK', N,          'tk', CMP, 'if (R(B) == RK(C)) ~= A then skip next'],
  /*  5 */ ['EQ_BK',                      'ABC',  'F', 'K',  'RK', N,          'tk', CMP, 'if (K(B) == RK(C)) ~= A then skip next'],
  /*  6 */ ['GETGLOBAL',                  'ABx',  'R', 'K',  '-',  OPT1,       'r', { payload: 'memo', access: { role: 'global-read', operand: 'Bx' } }, 'R(A) := _G[K(Bx)]                  (+1 memo word in one hksc setting)'],
  /*  7 */ ['MOVE',                       'ABC',  'R', 'R',  '-',  N,          'r', {}, 'R(A) := R(B)'],
  /*  8 */ ['SELF',                       'ABC',  'R', 'R',  'RK', N,          'r', { w: 'A..A+1', span: 'pair', access: { role: 'method', operand: 'C' } }, 'R(A+1) := R(B); R(A) := R(B)[RK(C)]'],
  /*  9 */ ['RETURN',                     'ABC',  'R', 'U',  '-',  N,          '', { w: 'none', span: 'return' }, 'return R(A)..R(A+B-2)              B=0: up to top'],
  /* 10 */ ['GETTABLE_S',                 'ABC',  'R', 'R',  'RK', fixed(2),   '', { payload: 'cache' }, 'R(A) := R(B)[RK(C)]                +2 inline-cache words'],
  /* 11 */ ['GETTABLE_N',                 'ABC',  'R', 'R',  'RK', unknown(2), '', {}, 'R(A) := R(B)[RK(C)], number key    (never compiled)'],
  /* 12 */ ['GETTABLE',                   'ABC',  'R', 'R',  'RK', fixed(2),   '', { payload: 'cache' }, 'R(A) := R(B)[RK(C)]                +2 inline-cache words'],
  /* 13 */ ['LOADBOOL',                   'ABC',  'R', 'U',  'U',  N,          '', {}, 'R(A) := (B ~= 0); if C ~= 0 then skip next'],
  /* 14 */ ['TFORLOOP',                   'ABC',  'R', '-',  'U',  N,          't', { w: 'tforloop', span: 'tforloop' }, 'R(A+3)..R(A+2+C) := R(A)(R(A+1), R(A+2)); loop or skip next'],
  /* 15 */ ['SETFIELD',                   'ABC',  'R', 'K',  'RK', N,          '', { w: 'none', r1: ['SETFIELD_R1', 'A'], access: { role: 'field-write', operand: 'B' } }, 'R(A)[K(B)] := RK(C)'],
  /* 16 */ ['SETTABLE_S',                 'ABC',  'R', 'R',  'RK', N,          'k', STORE, 'R(A)[R(B)] := RK(C)'],
  /* 17 */ ['SETTABLE_S_BK',              'ABC',  'R', 'K',  'RK', N,          'k', STORE, 'R(A)[K(B)] := RK(C)'],
  /* 18 */ ['SETTABLE_N',                 'ABC',  'R', 'R',  'RK', N,          'k', STORE, 'R(A)[R(B)] := RK(C), number key   (never compiled)'],
  /* 19 */ ['SETTABLE_N_BK',              'ABC',  'R', 'K',  'RK', N,          'k', STORE, 'R(A)[K(B)] := RK(C), number key   (never compiled)'],
  /* 20 */ ['SETTABLE',                   'ABC',  'R', 'R',  'RK', N,          'k', STORE, 'R(A)[R(B)] := RK(C)                (rewritten by hksc)'],
  /* 21 */ ['SETTABLE_BK',                'ABC',  'R', 'K',  'RK', N,          'k', STORE, 'R(A)[K(B)] := RK(C)                (rewritten by hksc)'],
  /* 22 */ ['TAILCALL_I',                 'ABC',  'R', 'U',  'U',  N,          '', { ...TAIL_X, r1: ['TAILCALL_I_R1', 'A'] }, 'return R(A)(R(A+1)..R(A+B-1))'],
  /* 23 */ ['TAILCALL_C',                 'ABC',  'R', 'U',  'U',  unknown(0), '', TAIL_X, 'TAILCALL_I for C functions        (never compiled)'],
  /* 24 */ ['TAILCALL_M',                 'ABC',  'R', 'U',  'U',  unknown(0), '', TAIL_X, 'tail call through __call           (never compiled)'],
  /* 25 */ ['LOADK',                      'ABx',  'R', 'K',  '-',  N,          '', {}, 'R(A) := K(Bx)'],
  /* 26 */ ['LOADNIL',                    'ABC',  'R', 'R',  '-',  N,          '', { w: 'A..B', span: 'loadnil' }, 'R(A)..R(B) := nil'],
  /* 27 */ ['SETGLOBAL',                  'ABx',  'R', 'K',  '-',  N,          '', { w: 'none', access: { role: 'global-write', operand: 'Bx' } }, '_G[K(Bx)] := R(A)'],
  /* 28 */ ['JMP',                        'AsBx', '-', 'J',  '-',  N,          '', NONE, 'pc += sBx'],
  /* 29 */ ['CALL_M',                     'ABC',  'R', 'U',  'U',  unknown(0), '', CALL_X, 'call through __call                (never compiled)'],
  /* 30 */ ['CALL',                       'ABC',  'R', 'U',  'U',  N,          '', CALL_X, 'generic call                       (rewritten by hksc)'],
  /* 31 */ ['INTRINSIC_INDEX',            'ABC',  'U', 'U',  'U',  unknown(0), '', { w: 'unknown' }, 'VM intrinsic; a no-op in every interpreter loop'],
  /* 32 */ ['INTRINSIC_NEWINDEX',         'ABC',  'U', 'U',  'U',  unknown(0), '', { w: 'unknown' }, 'VM intrinsic; a no-op in every interpreter loop'],
  /* 33 */ ['INTRINSIC_SELF',             'ABC',  'U', 'U',  'U',  unknown(0), '', { w: 'unknown' }, 'VM intrinsic; a no-op in every interpreter loop'],
  /* 34 */ ['INTRINSIC_INDEX_LITERAL',    'ABC',  'U', 'U',  'U',  unknown(0), '', { w: 'unknown' }, 'VM intrinsic; a no-op in every interpreter loop'],
  /* 35 */ ['INTRINSIC_NEWINDEX_LITERAL', 'ABC',  'U', 'U',  'U',  unknown(0), '', { w: 'unknown' }, 'VM intrinsic; a no-op in every interpreter loop'],
  /* 36 */ ['INTRINSIC_SELF_LITERAL',     'ABC',  'U', 'U',  'U',  unknown(0), '', { w: 'unknown' }, 'VM intrinsic; a no-op in every interpreter loop'],
  /* 37 */ ['TAILCALL',                   'ABC',  'R', 'U',  'U',  N,          '', TAIL_X, 'generic tail call                  (rewritten by hksc)'],
  /* 38 */ ['GETUPVAL',                   'ABC',  'R', 'U',  '-',  N,          'r', { upvalueB: true }, 'R(A) := Upvalue[B]'],
  /* 39 */ ['SETUPVAL',                   'ABC',  'R', 'U',  '-',  N,          '', { w: 'none', r1: ['SETUPVAL_R1', 'A'], upvalueB: true }, 'Upvalue[B] := R(A)'],
  /* 40 */ ['ADD',                        'ABC',  'R', 'R',  'RK', N,          'k', {}, 'R(A) := R(B) + RK(C)'],
  /* 41 */ ['ADD_BK',                     'ABC',  'R', 'K',  'RK', N,          'k', {}, 'R(A) := K(B) + RK(C)'],
  /* 42 */ ['SUB',                        'ABC',  'R', 'R',  'RK', N,          'k', {}, 'R(A) := R(B) - RK(C)'],
  /* 43 */ ['SUB_BK',                     'ABC',  'R', 'K',  'RK', N,          'k', {}, 'R(A) := K(B) - RK(C)'],
  /* 44 */ ['MUL',                        'ABC',  'R', 'R',  'RK', N,          'k', {}, 'R(A) := R(B) * RK(C)'],
  /* 45 */ ['MUL_BK',                     'ABC',  'R', 'K',  'RK', N,          'k', {}, 'R(A) := K(B) * RK(C)'],
  /* 46 */ ['DIV',                        'ABC',  'R', 'R',  'RK', N,          'k', {}, 'R(A) := R(B) / RK(C)'],
  /* 47 */ ['DIV_BK',                     'ABC',  'R', 'K',  'RK', N,          'k', {}, 'R(A) := K(B) / RK(C)'],
  /* 48 */ ['MOD',                        'ABC',  'R', 'R',  'RK', N,          'k', {}, 'R(A) := R(B) % RK(C)'],
  /* 49 */ ['MOD_BK',                     'ABC',  'R', 'K',  'RK', N,          'k', {}, 'R(A) := K(B) % RK(C)'],
  /* 50 */ ['POW',                        'ABC',  'R', 'R',  'RK', N,          'k', {}, 'R(A) := R(B) ^ RK(C)'],
  /* 51 */ ['POW_BK',                     'ABC',  'R', 'K',  'RK', N,          'k', {}, 'R(A) := K(B) ^ RK(C)'],
  /* 52 */ ['NEWTABLE',                   'ABC',  'R', 'U',  'U',  N,          'r', {}, 'R(A) := {} (array B, hash C as floating bytes)'],
  /* 53 */ ['UNM',                        'ABC',  'R', 'R',  '-',  N,          '', {}, 'R(A) := -R(B)'],
  /* 54 */ ['NOT',                        'ABC',  'R', 'R',  '-',  N,          '', { r1: ['NOT_R1', 'B'] }, 'R(A) := not R(B)'],
  /* 55 */ ['LEN',                        'ABC',  'R', 'R',  '-',  N,          '', {}, 'R(A) := #R(B)'],
  /* 56 */ ['LT',                         'ABC',  'F', 'R',  'RK', N,          'tk', CMP, 'if (R(B) < RK(C)) ~= A then skip next'],
  /* 57 */ ['LT_BK',                      'ABC',  'F', 'K',  'RK', N,          'tk', CMP, 'if (K(B) < RK(C)) ~= A then skip next'],
  /* 58 */ ['LE',                         'ABC',  'F', 'R',  'RK', N,          'tk', CMP, 'if (R(B) <= RK(C)) ~= A then skip next'],
  /* 59 */ ['LE_BK',                      'ABC',  'F', 'K',  'RK', N,          'tk', CMP, 'if (K(B) <= RK(C)) ~= A then skip next'],
  /* 60 */ ['CONCAT',                     'ABC',  'R', 'R',  'R',  N,          '', { span: 'concat' }, 'R(A) := R(B) .. ... .. R(C)'],
  /* 61 */ ['TESTSET',                    'ABC',  'R', 'R',  'U',  N,          't', { w: 'testset' }, 'if truth(R(B)) == (C ~= 0) then R(A) := R(B) else skip next'],
  /* 62 */ ['FORPREP',                    'AsBx', 'R', 'J',  '-',  N,          '', {}, 'R(A) -= R(A+2); pc += sBx'],
  /* 63 */ ['FORLOOP',                    'AsBx', 'R', 'J',  '-',  N,          '', { w: 'forloop' }, 'R(A) += R(A+2); if in range then { pc += sBx; R(A+3) := R(A) }'],
  /* 64 */ ['SETLIST',                    'ABC',  'R', 'U',  'U',  SETLIST,    '', { w: 'none', span: 'setlist', payload: 'block' }, 'R(A)[(C-1)*50+i] := R(A+i), 1<=i<=B  C=0: block in a DATA word'],
  /* 65 */ ['CLOSE',                      'ABC',  'R', '-',  '-',  N,          '', NONE, 'close upvalues >= R(A)'],
  /* 66 */ ['CLOSURE',                    'ABx',  'R', 'P',  '-',  CLOSURE,    '', { payload: 'capture' }, 'R(A) := closure(P[Bx])              +1 word per upvalue (A=1 reg, A=2 upval)'],
  /* 67 */ ['VARARG',                     'ABC',  'R', 'U',  '-',  N,          '', { w: 'vararg', span: 'vararg' }, 'R(A)..R(A+B-2) := vararg'],
  /* 68 */ ['TAILCALL_I_R1',              'ABC',  'R', 'U',  'U',  N,          '', TAIL_X, 'TAILCALL_I, R(A) written by the previous word'],
  /* 69 */ ['CALL_I_R1',                  'ABC',  'R', 'U',  'U',  N,          '', CALL_X, 'CALL_I, R(A) written by the previous word'],
  /* 70 */ ['SETUPVAL_R1',                'ABC',  'R', 'U',  '-',  N,          'r', { w: 'none', upvalueB: true }, 'SETUPVAL, R(A) written by the previous word'],
  /* 71 */ ['TEST_R1',                    'ABC',  'R', '-',  'U',  N,          't', NONE, 'TEST, R(A) written by the previous word'],
  /* 72 */ ['NOT_R1',                     'ABC',  'R', 'R',  '-',  N,          '', {}, 'NOT, R(B) written by the previous word'],
  /* 73 */ ['GETFIELD_R1',                'ABC',  'R', 'R',  'K',  fixed(2),   'r', { payload: 'cache', access: { role: 'field-read', operand: 'C' } }, 'GETFIELD, R(B) written by the previous word +2 cache words'],
  /* 74 */ ['SETFIELD_R1',                'ABC',  'R', 'K',  'RK', N,          '', { w: 'none', access: { role: 'field-write', operand: 'B' } }, 'SETFIELD, R(A) written by the previous word'],
  /* 75 */ ['NEWSTRUCT',                  'ABC',  'R', 'U',  'U',  fixed(1),   'r', { payload: 'structId' }, 'R(A) := new structure                 +1 word: Bx = structure id'],
  /* 76 */ ['DATA',                       'ABx',  'U', 'U',  '-',  N,          'd', NONE, 'payload of the preceding instruction; never executed'],
  /* 77 */ ['SETSLOTN',                   'ABC',  'R', '-',  'U',  N,          '', { w: 'none', slot: { instance: 'A', position: 'C' } }, 'R(A).slot[C] := nil'],
  /* 78 */ ['SETSLOTI',                   'ABC',  'R', 'U',  'RK', N,          '', { w: 'none', slot: { instance: 'A', position: 'B' } }, 'R(A).slot[B] := RK(C), unchecked'],
  /* 79 */ ['SETSLOT',                    'ABC',  'R', 'U',  'RK', fixed(1),   '', { w: 'none', payload: 'typeId', slot: { instance: 'A', position: 'B' } }, 'R(A).slot[B] := RK(C) if type(RK(C)) = DATA.Bx'],
  /* 80 */ ['SETSLOTS',                   'ABC',  'R', 'U',  'R',  fixed(1),   '', { w: 'none', payload: 'structId', slot: { instance: 'A', position: 'B' } }, 'R(A).slot[B] := R(C) if R(C) is structure DATA.Bx'],
  /* 81 */ ['SETSLOTMT',                  'ABC',  'R', 'U',  'RK', SETSLOTMT,  '', { w: 'none', payload: 'slotChain' }, 'store through a meta chain; B = type<<4 | n'],
  /* 82 */ ['CHECKTYPE',                  'ABx',  'R', 'U',  '-',  N,          '', { w: 'none', check: 'type' }, 'error unless type(R(A)) = Bx'],
  /* 83 */ ['CHECKTYPES',                 'ABx',  'R', 'U',  '-',  N,          '', { w: 'none', check: 'struct' }, 'error unless R(A) is structure Bx'],
  /* 84 */ ['GETSLOT',                    'ABC',  'R', 'R',  'U',  N,          '', { slot: { instance: 'B', position: 'C' } }, 'R(A) := R(B).slot[C]'],
  /* 85 */ ['GETSLOTMT',                  'ABC',  'R', 'R',  'U',  CHAIN,      '', { payload: 'chain' }, 'R(A) := slot through a chain of C+1 words'],
  /* 86 */ ['SELFSLOT',                   'ABC',  'R', 'R',  'U',  N,          '', { w: 'A..A+1', span: 'pair', slot: { instance: 'B', position: 'C' } }, 'R(A+1) := R(B); R(A) := R(B).slot[C]'],
  /* 87 */ ['SELFSLOTMT',                 'ABC',  'R', 'R',  'U',  CHAIN,      '', { w: 'A..A+1', span: 'pair', payload: 'chain' }, 'SELF through a chain of C+1 words'],
  /* 88 */ ['GETFIELD_MM',                'ABC',  'R', 'R',  'K',  unknown(2), 'r', { access: { role: 'field-read', operand: 'C' } }, 'GETFIELD variant                   (never compiled)'],
  /* 89 */ ['CHECKTYPE_D',                'ABx',  'R', 'U',  '-',  N,          '', { w: 'none', check: 'struct' }, 'error unless R(A) is structure Bx  (never compiled)'],
  /* 90 */ ['GETSLOT_D',                  'ABC',  'R', 'R',  'U',  unknown(0), '', { slot: { instance: 'B', position: 'C' } }, 'GETSLOT variant                    (never compiled)'],
  /* 91 */ ['GETGLOBAL_MEM',              'ABx',  'R', 'K',  '-',  fixed(1),   'r', { payload: 'memo', access: { role: 'global-read', operand: 'Bx' } }, 'R(A) := _G[K(Bx)]                  +1 word: A=20, Bx = memo nil pair'],
];

/** CoD Black Ops III (T7): bitwise opcodes inserted before CONCAT, which moves to 68 (MAX = 100). */
// prettier-ignore
const T7_INSERTED: readonly Row[] = [
  ['SHIFT_LEFT',     'ABC', 'R', 'R', 'RK', N, 'k', {}, 'R(A) := R(B) << RK(C)'],
  ['SHIFT_LEFT_BK',  'ABC', 'R', 'K', 'RK', N, '', {}, 'R(A) := K(B) << RK(C)'],
  ['SHIFT_RIGHT',    'ABC', 'R', 'R', 'RK', N, 'k', {}, 'R(A) := R(B) >> RK(C)'],
  ['SHIFT_RIGHT_BK', 'ABC', 'R', 'K', 'RK', N, '', {}, 'R(A) := K(B) >> RK(C)'],
  ['BITWISE_AND',    'ABC', 'R', 'R', 'RK', N, 'k', {}, 'R(A) := R(B) & RK(C)'],
  ['BITWISE_AND_BK', 'ABC', 'R', 'K', 'RK', N, '', {}, 'R(A) := K(B) & RK(C)'],
  ['BITWISE_OR',     'ABC', 'R', 'R', 'RK', N, 'k', {}, 'R(A) := R(B) | RK(C)'],
  ['BITWISE_OR_BK',  'ABC', 'R', 'K', 'RK', N, '', {}, 'R(A) := K(B) | RK(C)'],
];

/** CoD Ghosts / AW (IW6): hksc's `hdelete` statement appended after GETGLOBAL_MEM (operand kinds are a guess). */
// prettier-ignore
const IW6_APPENDED: readonly Row[] = [
  ['DELETE',    'ABC', 'R', 'R', 'RK', N, 'k', STORE, 'R(A)[RK(C)] := deleted   (operands unverified)'],
  ['DELETE_BK', 'ABC', 'R', 'K', 'RK', N, '', {}, 'K(B) form of DELETE       (operands unverified)'],
];

/** An opcode numbering. */
export interface HksOpcodeTable {
  dialect: HksDialect;
  /** Indexed by opcode number; `undefined` past the table. */
  byOp: readonly HksOpcodeInfo[];
  byName: ReadonlyMap<string, HksOpcodeInfo>;
  /** The DATA pseudo-opcode's number in this table. */
  dataOp: number;
}

/** Available numberings: `default` (Shadow of War, hksc, Halo Infinite, FromSoftware), `t7`, `iw6`. */
export type HksDialect = 'default' | 't7' | 'iw6';
export const HKS_DIALECTS: readonly HksDialect[] = ['default', 't7', 'iw6'];

const DIALECT_ROWS: Record<HksDialect, readonly Row[]> = {
  default: DEFAULT_ROWS,
  t7: [...DEFAULT_ROWS.slice(0, 60), ...T7_INSERTED, ...DEFAULT_ROWS.slice(60)],
  iw6: [...DEFAULT_ROWS, ...IW6_APPENDED],
};

function buildTable(dialect: HksDialect): HksOpcodeTable {
  const rows = DIALECT_ROWS[dialect];
  const opOf = new Map(rows.map((r, op) => [r[0], op]));
  const r1Of = new Map<string, readonly [base: string, operand: 'A' | 'B']>();
  for (const r of rows) if (r[7].r1) r1Of.set(r[7].r1[0], [r[0], r[7].r1[1]]);
  const byOp = rows.map(([name, mode, a, b, c, data, flags, x, semantics], op): HksOpcodeInfo => {
    const writes = x.w ?? (a === 'R' ? 'A' : 'none');
    const base = r1Of.get(name);
    return {
      op,
      name,
      mode,
      a,
      b,
      c,
      data,
      dataPayload: x.payload ?? null,
      test: flags.includes('t'),
      makesR1: flags.includes('r'),
      isData: flags.includes('d'),
      constantB: flags.includes('k'),
      writes,
      setsA: writes !== 'none' && writes !== 'tforloop' && writes !== 'unknown',
      span: x.span ?? null,
      call: x.call ?? null,
      r1Form: x.r1 ? opOf.get(x.r1[0])! : null,
      r1Of: base ? opOf.get(base[0])! : null,
      r1Operand: base ? base[1] : null,
      access: x.access ?? null,
      slot: x.slot ?? null,
      check: x.check ?? null,
      upvalueB: x.upvalueB === true,
      semantics,
      sharesSemanticsOf: SAME_SEMANTICS[name] ?? name,
    };
  });
  const byName = new Map(byOp.map((o) => [o.name, o]));
  return { dialect, byOp, byName, dataOp: byName.get('DATA')!.op };
}

/** Opcodes that run exactly as another one does (see `HksOpcodeInfo.sharesSemanticsOf`); the rest are their own base. */
const SAME_SEMANTICS: Readonly<Record<string, string>> = {
  GETFIELD_R1: 'GETFIELD',
  GETFIELD_MM: 'GETFIELD',
  TEST_R1: 'TEST',
  CALL_I_R1: 'CALL_I',
  CALL_C: 'CALL_I',
  CALL_M: 'CALL_I',
  CALL: 'CALL_I',
  TAILCALL_I_R1: 'TAILCALL_I',
  TAILCALL_C: 'TAILCALL_I',
  TAILCALL_M: 'TAILCALL_I',
  TAILCALL: 'TAILCALL_I',
  EQ_BK: 'EQ',
  LT_BK: 'LT',
  LE_BK: 'LE',
  ADD_BK: 'ADD',
  SUB_BK: 'SUB',
  MUL_BK: 'MUL',
  DIV_BK: 'DIV',
  MOD_BK: 'MOD',
  POW_BK: 'POW',
  GETTABLE: 'GETTABLE_S',
  GETTABLE_N: 'GETTABLE_S',
  SETTABLE_S_BK: 'SETTABLE_S',
  SETTABLE_N: 'SETTABLE_S',
  SETTABLE_N_BK: 'SETTABLE_S',
  SETTABLE: 'SETTABLE_S',
  SETTABLE_BK: 'SETTABLE_S',
  SETUPVAL_R1: 'SETUPVAL',
  NOT_R1: 'NOT',
  SETFIELD_R1: 'SETFIELD',
  GETGLOBAL_MEM: 'GETGLOBAL',
  CHECKTYPE_D: 'CHECKTYPES',
  GETSLOT_D: 'GETSLOT',
  INTRINSIC_INDEX: 'DATA',
  INTRINSIC_NEWINDEX: 'DATA',
  INTRINSIC_SELF: 'DATA',
  INTRINSIC_INDEX_LITERAL: 'DATA',
  INTRINSIC_NEWINDEX_LITERAL: 'DATA',
  INTRINSIC_SELF_LITERAL: 'DATA',
  SHIFT_LEFT_BK: 'SHIFT_LEFT',
  SHIFT_RIGHT_BK: 'SHIFT_RIGHT',
  BITWISE_AND_BK: 'BITWISE_AND',
  BITWISE_OR_BK: 'BITWISE_OR',
  DELETE_BK: 'DELETE',
};

const TABLES = new Map<HksDialect, HksOpcodeTable>();

/** The opcode table of a dialect (default: the Shadow of War numbering, 92 opcodes). */
export function hksOpcodes(dialect: HksDialect = 'default'): HksOpcodeTable {
  let t = TABLES.get(dialect);
  if (!t) {
    t = buildTable(dialect);
    TABLES.set(dialect, t);
  }
  return t;
}

// ---------------------------------------------------------------------------------------------------------------
// Word fields

export const hksOp = (w: number): number => w >>> 25;
export const hksA = (w: number): number => w & 0xff;
export const hksC = (w: number): number => (w >>> 8) & 0x1ff;
export const hksB = (w: number): number => (w >>> 17) & 0xff;
export const hksBx = (w: number): number => (w >>> 8) & 0x1ffff;
export const hksSbx = (w: number): number => ((w >>> 8) & 0x1ffff) - 0xffff;

/** Encodes an iABC word (fields are masked to their widths by the caller's range checks). */
export const encodeHksABC = (op: number, a: number, b: number, c: number): number => ((op << 25) | (b << 17) | (c << 8) | a) >>> 0;
/** Encodes an iABx word. */
export const encodeHksABx = (op: number, a: number, bx: number): number => ((op << 25) | (bx << 8) | a) >>> 0;
/** Encodes an iAsBx word. */
export const encodeHksAsBx = (op: number, a: number, sbx: number): number => encodeHksABx(op, a, sbx + 0xffff);

/** Largest values of the fields. */
export const HKS_FIELD_MAX = { a: 0xff, b: 0xff, c: 0x1ff, bx: 0x1ffff, sbxMin: -0xffff, sbxMax: 0x10000 } as const;

/**
 * Number of DATA words `info` owns for the word `w`, or `undefined` when the count depends on something not known
 * here (CLOSURE: pass the child's upvalue count as `childUpvalues`). For `unknown` rules this returns `assumed`.
 */
export function hksDataWordCount(info: HksOpcodeInfo, w: number, childUpvalues?: number): number | undefined {
  const d = info.data;
  switch (d.kind) {
    case 'fixed':
      return d.count;
    case 'closure':
      return childUpvalues;
    case 'setlist':
      return hksC(w) === 0 ? 1 : 0;
    case 'setslotmt': {
      const b = hksB(w);
      return (b & 15) + 1 + (b >> 4 === 12 ? 1 : 0);
    }
    case 'chainC':
      return hksC(w) + 1;
    case 'optional':
      return 0;
    case 'unknown':
      return d.assumed;
  }
}

/**
 * The registers an instruction uses beyond its single-register operands, as `[first, last]` (`null` when its
 * operand kinds say everything), from its `span` column: calls and returns use consecutive registers, SELF a
 * pair, TFORLOOP its three control registers and the loop variables, SETLIST the list values, CONCAT B..C.
 */
export function hksRegisterSpan(info: HksOpcodeInfo, w: number): [first: number, last: number] | null {
  const a = hksA(w);
  const b = hksB(w);
  const c = hksC(w);
  switch (info.span) {
    case 'call':
      return [a, a + Math.max(b - 1, c - 2, 0)];
    case 'tailcall':
      return [a, a + Math.max(b - 1, 0)];
    case 'return':
      return b >= 2 ? [a, a + b - 2] : null;
    case 'pair':
      return [a, a + 1];
    case 'tforloop':
      return [a, a + 2 + Math.max(c, 1)];
    case 'setlist':
      return [a, a + b];
    case 'vararg':
      return b >= 2 ? [a, a + b - 2] : [a, a];
    case 'concat':
      return [b, c];
    case 'loadnil':
      return [a, b];
    case null:
      return null;
  }
}
