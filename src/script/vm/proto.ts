/**
 * Pre-decoding: each function of a chunk is decoded once, when the chunk is loaded, from the one opcode table
 * (`src/formats/hks/opcodes.ts`: operand kinds, DATA-word ownership, shared semantics) into an Int32Array of
 * internal instructions, four ints per code word: `[op, a, b, c]`. Instruction `i` of the chunk is entry `i` (pcs
 * and line numbers are unchanged); an owner's successor skips its DATA words, as mode 0 does.
 *
 * Decoding specialises: register / constant operand forms of arithmetic and comparisons get their own internal
 * opcodes; a test instruction followed by its JMP becomes one compare-and-branch; constants are split into value
 * and number arrays like the register file. Register-or-constant operands that stay generic are signed: `>= 0` is
 * a register, `< 0` is constant `~x`. Jump targets are entry indexes times 4; a target outside the code, a
 * fall-through past the last word and an opcode above 0x5B (GETGLOBAL_MEM) decode to instructions that raise a
 * Lua error when executed — never to an access outside the decoded code.
 */
import { hksA, hksB, hksBx, hksC, hksDataWordCount, hksOpcodes, hksSbx, type HksOpcodeInfo } from '../../formats/hks/opcodes.ts';
import type { HksConstant, HksFunction } from '../../formats/hks/chunk.ts';
import { floatingByteToInt } from './table.ts';
import { LightUserdata, type LuaValue } from './value.ts';
import { NUM } from './thread.ts';
import type { SlotDef, StructDef } from './structs.ts';

/** Internal opcodes (not the chunk's numbering). */
export const Op = {
  NOP: 0,
  MOVE: 1,
  LOADKN: 2,
  LOADKV: 3,
  LOADNIL: 4,
  LOADBOOL: 5,
  GETUPVAL: 6,
  SETUPVAL: 7,
  GETGLOBAL: 8,
  SETGLOBAL: 9,
  GETFIELD: 10,
  GETTABLE: 11,
  SETFIELD: 12,
  SETTABLE: 13,
  SELF: 14,
  ADD_RR: 15,
  ADD_RK: 16,
  ADD_KR: 17,
  ADD: 18,
  SUB_RR: 19,
  SUB_RK: 20,
  SUB_KR: 21,
  SUB: 22,
  MUL_RR: 23,
  MUL_RK: 24,
  MUL_KR: 25,
  MUL: 26,
  DIV_RR: 27,
  DIV_RK: 28,
  DIV_KR: 29,
  DIV: 30,
  MOD_RR: 31,
  MOD_RK: 32,
  MOD_KR: 33,
  MOD: 34,
  POW_RR: 35,
  POW_RK: 36,
  POW_KR: 37,
  POW: 38,
  UNM: 39,
  NOT: 40,
  LEN: 41,
  CONCAT: 42,
  JMP: 43,
  EQ_J: 44,
  LT_J: 45,
  LE_J: 46,
  LT_RR_J: 47,
  LE_RR_J: 48,
  LT_RK_J: 49,
  LE_RK_J: 50,
  LT_KR_J: 51,
  LE_KR_J: 52,
  EQ_RK_J: 53,
  EQ_S: 54,
  LT_S: 55,
  LE_S: 56,
  TEST_J: 57,
  TEST_S: 58,
  TESTSET_J: 59,
  TESTSET_S: 60,
  CALL: 61,
  TAILCALL: 62,
  RETURN: 63,
  FORPREP: 64,
  FORLOOP: 65,
  TFORLOOP_J: 66,
  TFORLOOP_S: 67,
  SETLIST: 68,
  SETLIST_X: 69,
  CLOSE: 70,
  CLOSURE: 71,
  VARARG: 72,
  NEWTABLE: 73,
  NEWSTRUCT: 74,
  SETSLOTN: 75,
  SETSLOTI: 76,
  SETSLOT: 77,
  SETSLOTS: 78,
  SETSLOTMT: 79,
  CHECKTYPE: 80,
  CHECKTYPES: 81,
  GETSLOT: 82,
  GETSLOTMT: 83,
  SELFSLOT: 84,
  SELFSLOTMT: 85,
  BAD: 86,
  END: 87,
  EQ_RR_J: 88,
} as const;

/** Side data of a CLOSURE: the child and how each upvalue is captured (1 = register of this frame, 2 = upvalue). */
export interface ClosureSide {
  kind: 'closure';
  proto: Proto;
  captureKind: Int32Array;
  captureIndex: Int32Array;
}
/** Side data of slot instructions. */
export interface SlotSide {
  kind: 'slot';
  /** Slot position (the chain's final position for *MT forms). */
  position: number;
  /** Type id to check (SETSLOT, SETSLOTMT), -1 = none. */
  typeId: number;
  /** Structure a value must be (SETSLOTS, struct-typed SETSLOTMT), or the id when unresolved. */
  structDef: StructDef | null;
  structId: number;
  /** Tag chain of *MT forms: __index / __newindex slot positions to follow from each level's meta. */
  chain: Int32Array;
  /** Successor entry index (times 4). */
  next: number;
}
/** Side data of NEWSTRUCT / CHECKTYPES. */
export interface StructSide {
  kind: 'struct';
  def: StructDef | null;
  id: number;
  narray: number;
  nhash: number;
}
/** Why a BAD instruction fails. */
export interface BadSide {
  kind: 'bad';
  message: string;
}
export type Side = ClosureSide | SlotSide | StructSide | BadSide;

/** Per-chunk information shared by its prototypes. */
export interface ChunkInfo {
  /** Lua 5.1-style source: `@file`, `=name` or the source text (from the debug block, else the load name). */
  source: string;
  /** Structure declarations by id. */
  structs: Map<number, StructDef>;
  /** Number size of the chunk header (4 = float32, 8 = double). */
  numberSize: number;
  /** `--checked` (mode 2's instruction-pointer check message). */
  checked: boolean;
}

/** A decoded function prototype. */
export interface Proto {
  readonly fn: HksFunction;
  readonly chunk: ChunkInfo;
  /** Path in the chunk (`main`, `main/0`, …). */
  readonly path: string;
  /** `[op, a, b, c]` per code word, plus one END entry. */
  readonly code: Int32Array;
  /** Constant value slots (`NUM` for numbers) and number slots, like the register file. */
  readonly kv: LuaValue[];
  readonly kn: Float64Array;
  /** Constants in native form. */
  readonly k: LuaValue[];
  readonly protos: Proto[];
  readonly side: Side[];
  readonly numparams: number;
  readonly isVararg: boolean;
  /** Lua 5.1 VARARG_NEEDSARG: the function gets the `arg` table. */
  readonly needsArg: boolean;
  /** Registers the frame needs (at least the header's max stack size, and every register an operand names). */
  readonly frameSize: number;
  readonly nups: number;
  /** Line of each code word; null when stripped. */
  readonly lines: Int32Array | null;
  /** Function name from the debug block (null when absent). */
  readonly name: string | null;
  readonly lineDefined: number;
  /** Executions so far (the JavaScript tier compiles hot functions). */
  calls: number;
  /** The JavaScript tier's compiled form, once made. */
  jit: unknown;
}

const TABLE = hksOpcodes('default');

/** Decodes a function and its children. `path` is its position in the chunk. */
export function decodeFunction(fn: HksFunction, chunk: ChunkInfo, path = 'main'): Proto {
  const protos = fn.children.map((c, i) => decodeFunction(c, chunk, `${path}/${i}`));
  const k: LuaValue[] = fn.constants.map((c) => constantValue(c));
  const kv: LuaValue[] = k.map((v) => (typeof v === 'number' ? NUM : v));
  const kn = new Float64Array(k.length);
  k.forEach((v, i) => {
    if (typeof v === 'number') kn[i] = chunk.numberSize === 4 ? Math.fround(v) : v;
  });
  const words = fn.code;
  const n = words.length;
  const code = new Int32Array((n + 1) * 4);
  const side: Side[] = [];
  let maxReg = fn.maxStackSize;
  const reg = (r: number, width = 1): number => {
    if (r + width > maxReg) maxReg = r + width;
    return r;
  };
  const end = n * 4;
  /** Entry index (times 4) of word `w`, or END when outside the code. */
  const target = (w: number): number => (w >= 0 && w < n ? w * 4 : end);
  const bad = (i: number, message: string): void => {
    side.push({ kind: 'bad', message });
    put(i, Op.BAD, side.length - 1, 0, 0);
  };
  function put(i: number, op: number, a: number, b: number, c: number): void {
    const o = i * 4;
    code[o] = op;
    code[o + 1] = a;
    code[o + 2] = b;
    code[o + 3] = c;
  }
  const isNumK = (idx: number): boolean => idx < k.length && typeof k[idx] === 'number';
  const isStrK = (idx: number): boolean => idx < k.length && typeof k[idx] === 'string';

  for (let i = 0; i < n; i++) {
    const w = words[i]!;
    const info: HksOpcodeInfo | undefined = TABLE.byOp[w >>> 25];
    if (!info) {
      bad(i, `invalid opcode ${w >>> 25} (the interpreter refuses opcodes above 0x5B)`);
      continue;
    }
    const fam = info.sharesSemanticsOf;
    const A = hksA(w);
    const B = hksB(w);
    const C = hksC(w);
    const Bx = hksBx(w);
    const childUps = fam === 'CLOSURE' ? (protos[Bx]?.nups ?? 0) : undefined;
    const ndata = hksDataWordCount(info, w, childUps) ?? 0;
    const succ = target(i + 1 + ndata);
    if (i + ndata >= n && ndata > 0) {
      bad(i, `${info.name} owns ${ndata} DATA word(s) past the end of the code`);
      continue;
    }
    /** RK operand of the C field (9 bits): signed form. */
    const rkC = (): number | null => {
      if (C >= 256) return C - 256 < k.length ? ~(C - 256) : null;
      reg(C);
      return C;
    };
    /** The B field as the table says: a register, or a constant for `_BK` forms (kind K). */
    const rkB = (): number | null => {
      if (info.b === 'K') return B < k.length ? ~B : null;
      reg(B);
      return B;
    };
    const kOk = (idx: number): boolean => idx < k.length;
    const data = (j: number): number => words[i + 1 + j]!;

    switch (fam) {
      case 'DATA':
        put(i, Op.NOP, 0, 0, 0);
        break;
      case 'MOVE':
        put(i, Op.MOVE, reg(A), reg(B), 0);
        break;
      case 'LOADK':
        if (!kOk(Bx)) bad(i, `constant ${Bx} out of range`);
        else put(i, isNumK(Bx) ? Op.LOADKN : Op.LOADKV, reg(A), Bx, 0);
        break;
      case 'LOADNIL':
        reg(A, B >= A ? B - A + 1 : 1);
        put(i, Op.LOADNIL, A, B, 0);
        break;
      case 'LOADBOOL':
        put(i, Op.LOADBOOL, reg(A), B !== 0 ? 1 : 0, C !== 0 ? target(i + 2) : succ);
        break;
      case 'GETUPVAL':
        if (B >= fn.upvalueCount) bad(i, `upvalue ${B} out of range`);
        else put(i, Op.GETUPVAL, reg(A), B, 0);
        break;
      case 'SETUPVAL':
        if (B >= fn.upvalueCount) bad(i, `upvalue ${B} out of range`);
        else put(i, Op.SETUPVAL, reg(A), B, 0);
        break;
      case 'GETGLOBAL': {
        // GETGLOBAL may carry the memo word (an internal hksc setting); GETGLOBAL_MEM always does
        let skip = ndata;
        if (info.data.kind === 'optional' && i + 1 < n && words[i + 1]! >>> 25 === TABLE.dataOp) skip = 1;
        if (!kOk(Bx)) bad(i, `constant ${Bx} out of range`);
        else put(i, Op.GETGLOBAL, reg(A), Bx, target(i + 1 + skip));
        break;
      }
      case 'SETGLOBAL':
        if (!kOk(Bx)) bad(i, `constant ${Bx} out of range`);
        else put(i, Op.SETGLOBAL, reg(A), Bx, 0);
        break;
      case 'GETFIELD':
        // C is a plain constant index
        if (ndata !== 2) throw new Error(`opcode table: ${info.name} should own 2 DATA words`);
        if (!kOk(C)) bad(i, `constant ${C} out of range`);
        else if (isStrK(C)) put(i, Op.GETFIELD, reg(A), reg(B), C);
        else put(i, Op.GETTABLE, reg(A), reg(B), ~C);
        break;
      case 'GETTABLE_S': {
        if (ndata !== 2) throw new Error(`opcode table: ${info.name} should own 2 DATA words`);
        const c = rkC();
        if (c === null) bad(i, 'constant out of range');
        else if (c < 0 && isStrK(~c)) put(i, Op.GETFIELD, reg(A), reg(B), ~c);
        else put(i, Op.GETTABLE, reg(A), reg(B), c);
        break;
      }
      case 'SETFIELD': {
        const c = rkC();
        if (!kOk(B) || c === null) bad(i, 'constant out of range');
        else if (isStrK(B)) put(i, Op.SETFIELD, reg(A), B, c);
        else put(i, Op.SETTABLE, reg(A), ~B, c);
        break;
      }
      case 'SETTABLE_S': {
        const b = rkB();
        const c = rkC();
        if (b === null || c === null) bad(i, 'constant out of range');
        else if (b < 0 && isStrK(~b)) put(i, Op.SETFIELD, reg(A), ~b, c);
        else put(i, Op.SETTABLE, reg(A), b, c);
        break;
      }
      case 'SELF': {
        const c = rkC();
        if (c === null) bad(i, 'constant out of range');
        else put(i, Op.SELF, reg(A, 2), reg(B), c);
        break;
      }
      case 'ADD':
      case 'SUB':
      case 'MUL':
      case 'DIV':
      case 'MOD':
      case 'POW': {
        const b = rkB();
        const c = rkC();
        if (b === null || c === null) {
          bad(i, 'constant out of range');
          break;
        }
        const baseOp = ARITH_BASE[fam]!;
        // forms: RR, RK (number constant C), KR (number constant B), generic
        let op: number = baseOp + 3;
        let ob = b;
        let oc = c;
        if (b >= 0 && c >= 0) op = baseOp;
        else if (b >= 0 && c < 0 && isNumK(~c)) {
          op = baseOp + 1;
          oc = ~c;
        } else if (b < 0 && c >= 0 && isNumK(~b)) {
          op = baseOp + 2;
          ob = ~b;
        }
        put(i, op, reg(A), ob, oc);
        break;
      }
      case 'UNM':
        put(i, Op.UNM, reg(A), reg(B), 0);
        break;
      case 'NOT':
        put(i, Op.NOT, reg(A), reg(B), 0);
        break;
      case 'LEN':
        put(i, Op.LEN, reg(A), reg(B), 0);
        break;
      case 'CONCAT':
        if (C < B) bad(i, 'CONCAT range is empty');
        else {
          reg(B, C - B + 1);
          put(i, Op.CONCAT, reg(A), B, C);
        }
        break;
      case 'JMP':
        put(i, Op.JMP, 0, target(i + 1 + hksSbx(w)), 0);
        break;
      case 'EQ':
      case 'LT':
      case 'LE': {
        const b = rkB();
        const c = rkC();
        if (b === null || c === null) {
          bad(i, 'constant out of range');
          break;
        }
        const flag = A !== 0 ? 1 : 0;
        const j = jumpAfter(i);
        if (j === null) {
          put(i, fam === 'EQ' ? Op.EQ_S : fam === 'LT' ? Op.LT_S : Op.LE_S, flag, b, c);
          break;
        }
        const t = target(j) | flag;
        if (fam === 'EQ') {
          if (b >= 0 && c >= 0) put(i, Op.EQ_RR_J, b, c, t);
          else if (b >= 0 && c < 0) put(i, Op.EQ_RK_J, b, c, t);
          else put(i, Op.EQ_J, b, c, t);
        } else {
          const lt = fam === 'LT';
          if (b >= 0 && c >= 0) put(i, lt ? Op.LT_RR_J : Op.LE_RR_J, b, c, t);
          else if (b >= 0 && c < 0 && isNumK(~c)) put(i, lt ? Op.LT_RK_J : Op.LE_RK_J, b, ~c, t);
          else if (b < 0 && c >= 0 && isNumK(~b)) put(i, lt ? Op.LT_KR_J : Op.LE_KR_J, ~b, c, t);
          else put(i, lt ? Op.LT_J : Op.LE_J, b, c, t);
        }
        break;
      }
      case 'TEST': {
        const j = jumpAfter(i);
        if (j === null) put(i, Op.TEST_S, reg(A), C !== 0 ? 1 : 0, 0);
        else put(i, Op.TEST_J, reg(A), C !== 0 ? 1 : 0, target(j));
        break;
      }
      case 'TESTSET': {
        const j = jumpAfter(i);
        if (j === null) put(i, Op.TESTSET_S, reg(A), reg(B), C !== 0 ? 1 : 0);
        else put(i, Op.TESTSET_J, reg(A), reg(B), target(j) | (C !== 0 ? 1 : 0));
        break;
      }
      case 'CALL_I':
        reg(A, Math.max(B, C > 0 ? C - 1 : 0, 1));
        put(i, Op.CALL, A, B, C);
        break;
      case 'TAILCALL_I':
        reg(A, Math.max(B, 1));
        put(i, Op.TAILCALL, A, B, C);
        break;
      case 'RETURN':
        reg(A, B > 0 ? B - 1 : 0);
        put(i, Op.RETURN, A, B, 0);
        break;
      case 'FORPREP':
        reg(A, 4);
        put(i, Op.FORPREP, A, target(i + 1 + hksSbx(w)), 0);
        break;
      case 'FORLOOP':
        reg(A, 4);
        put(i, Op.FORLOOP, A, target(i + 1 + hksSbx(w)), 0);
        break;
      case 'TFORLOOP': {
        reg(A, 3 + Math.max(C, 1));
        const j = jumpAfter(i);
        if (j === null) put(i, Op.TFORLOOP_S, A, C, 0);
        else put(i, Op.TFORLOOP_J, A, C, target(j));
        break;
      }
      case 'SETLIST':
        reg(A, B + 1);
        if (C === 0) put(i, Op.SETLIST_X, A, B, hksBx(data(0)));
        else put(i, Op.SETLIST, A, B, C);
        break;
      case 'CLOSE':
        put(i, Op.CLOSE, reg(A), 0, 0);
        break;
      case 'CLOSURE': {
        const child = protos[Bx];
        if (!child) {
          bad(i, `function prototype ${Bx} out of range`);
          break;
        }
        const nu = child.nups;
        const captureKind = new Int32Array(nu);
        const captureIndex = new Int32Array(nu);
        let ok = true;
        for (let u = 0; u < nu; u++) {
          const d = data(u);
          const kind = hksA(d);
          const idx = hksBx(d);
          captureKind[u] = kind;
          captureIndex[u] = idx;
          if (kind === 1) reg(idx);
          else if (kind !== 2 || idx >= fn.upvalueCount) ok = false;
        }
        if (!ok) {
          bad(i, 'CLOSURE capture word is neither a register (A=1) nor an upvalue of this function (A=2)');
          break;
        }
        side.push({ kind: 'closure', proto: child, captureKind, captureIndex });
        put(i, Op.CLOSURE, reg(A), side.length - 1, succ);
        break;
      }
      case 'VARARG':
        reg(A, Math.max(B - 1, 1));
        put(i, Op.VARARG, A, B, 0);
        break;
      case 'NEWTABLE':
        put(i, Op.NEWTABLE, reg(A), floatingByteToInt(B), floatingByteToInt(C));
        break;
      case 'NEWSTRUCT': {
        const id = hksBx(data(0));
        side.push({ kind: 'struct', def: chunk.structs.get(id) ?? null, id, narray: floatingByteToInt(B), nhash: floatingByteToInt(C) });
        put(i, Op.NEWSTRUCT, reg(A), side.length - 1, succ);
        break;
      }
      case 'CHECKTYPE':
        put(i, Op.CHECKTYPE, reg(A), Bx, 0);
        break;
      case 'CHECKTYPES':
        side.push({ kind: 'struct', def: chunk.structs.get(Bx) ?? null, id: Bx, narray: 0, nhash: 0 });
        put(i, Op.CHECKTYPES, reg(A), side.length - 1, 0);
        break;
      case 'SETSLOTN':
        side.push(slotSide(C, -1, null, -1, [], succ));
        put(i, Op.SETSLOTN, reg(A), side.length - 1, 0);
        break;
      case 'SETSLOTI':
      case 'SETSLOT':
      case 'SETSLOTS': {
        const c = fam === 'SETSLOTS' ? reg(C) : rkC();
        if (c === null) {
          bad(i, 'constant out of range');
          break;
        }
        const d = fam === 'SETSLOTI' ? -1 : hksBx(data(0));
        const s =
          fam === 'SETSLOTS' ? slotSide(B, -1, chunk.structs.get(d) ?? null, d, [], succ) : slotSide(B, fam === 'SETSLOT' ? d : -1, null, -1, [], succ);
        side.push(s);
        put(i, fam === 'SETSLOTI' ? Op.SETSLOTI : fam === 'SETSLOT' ? Op.SETSLOT : Op.SETSLOTS, reg(A), side.length - 1, c);
        break;
      }
      case 'SETSLOTMT': {
        const c = rkC();
        if (c === null) {
          bad(i, 'constant out of range');
          break;
        }
        const type = B >> 4;
        let j = 0;
        let def: StructDef | null = null;
        let sid = -1;
        if (type === 12) {
          sid = hksBx(data(j++));
          def = chunk.structs.get(sid) ?? null;
        }
        const chain: number[] = [];
        const steps = (B & 15) + 1;
        for (let s = 0; s < steps; s++) chain.push(s < steps - 1 ? hksBx(data(j + s)) : hksA(data(j + s)));
        side.push(slotSide(chain[chain.length - 1]!, type, def, sid, chain.slice(0, -1), succ));
        put(i, Op.SETSLOTMT, reg(A), side.length - 1, c);
        break;
      }
      case 'GETSLOT':
        put(i, Op.GETSLOT, reg(A), reg(B), C);
        break;
      case 'SELFSLOT':
        put(i, Op.SELFSLOT, reg(A, 2), reg(B), C);
        break;
      case 'GETSLOTMT':
      case 'SELFSLOTMT': {
        const chain: number[] = [];
        for (let s = 0; s <= C; s++) chain.push(s < C ? hksBx(data(s)) : hksA(data(s)));
        side.push(slotSide(chain[chain.length - 1]!, -1, null, -1, chain.slice(0, -1), succ));
        put(i, fam === 'GETSLOTMT' ? Op.GETSLOTMT : Op.SELFSLOTMT, reg(A, fam === 'SELFSLOTMT' ? 2 : 1), reg(B), side.length - 1);
        break;
      }
      default:
        bad(i, `opcode ${info.name} is not run by this VM`);
    }
  }
  code[end] = Op.END;

  /** Word index of the jump a test at `i` guards (the JMP at i + 1), or null when the next word is no JMP. */
  function jumpAfter(i: number): number | null {
    if (i + 1 >= n) return null;
    const nw = words[i + 1]!;
    const ni = TABLE.byOp[nw >>> 25];
    if (!ni || ni.sharesSemanticsOf !== 'JMP') return null;
    return i + 2 + hksSbx(nw);
  }

  const d = fn.debug;
  let lines: Int32Array | null = null;
  if (d && d.lines.length > 0) {
    lines = new Int32Array(n + 1);
    for (let i = 0; i < n; i++) lines[i] = d.lines[i] ?? d.lines[d.lines.length - 1] ?? 0;
    lines[n] = n > 0 ? lines[n - 1]! : d.lineDefined;
  }
  return {
    fn,
    chunk,
    path,
    code,
    kv,
    kn,
    k,
    protos,
    side,
    numparams: fn.paramCount,
    isVararg: (fn.varargFlags & 2) !== 0,
    needsArg: (fn.varargFlags & 4) !== 0,
    frameSize: Math.min(Math.max(maxReg, fn.maxStackSize, 2), 1024),
    nups: fn.upvalueCount,
    lines,
    name: d?.name ?? null,
    lineDefined: d?.lineDefined ?? -1,
    calls: 0,
    jit: null,
  };
}

const ARITH_BASE: Record<string, number> = { ADD: Op.ADD_RR, SUB: Op.SUB_RR, MUL: Op.MUL_RR, DIV: Op.DIV_RR, MOD: Op.MOD_RR, POW: Op.POW_RR };

function slotSide(position: number, typeId: number, structDef: StructDef | null, structId: number, chain: number[], next: number): SlotSide {
  return { kind: 'slot', position, typeId, structDef, structId, chain: Int32Array.from(chain), next };
}

/** A chunk constant in native form. */
export function constantValue(c: HksConstant): LuaValue {
  switch (c.type) {
    case 'nil':
      return undefined;
    case 'boolean':
      return c.value !== 0;
    case 'number':
      return c.value;
    case 'string':
      return c.value ?? '';
    case 'lightuserdata':
      return LightUserdata.of(c.value);
    case 'ui64':
      return BigInt.asUintN(64, c.value);
  }
}

/** The slot a name denotes in a declaration (user slots and `meta`), for messages. */
export function slotName(def: StructDef, position: number): string {
  const s: SlotDef | undefined = def.byPosition[position];
  return s?.name ?? `#${position}`;
}
