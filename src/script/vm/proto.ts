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
import type { JitFn } from './jit.ts';
import * as opcodes from '../../formats/hks/opcodes.ts';
import type { HksOpcodeInfo } from '../../formats/hks/opcodes.ts';
import type { HksConstant, HksFunction, HksHeader, HksStructureSection } from '../../formats/hks/chunk.ts';
import { floatingByteToInt } from './table.ts';

/**
 * NEWTABLE/NEWSTRUCT size hints: `luaO_fb2int` of the B/C operands, capped at 2^27 slots. The 9-bit C decodes up
 * to 2^32 (which an Int32Array of operands would wrap to a negative size, slipping past the table budget into a
 * huge preallocation); any hint over the VM's largest table budget (2^26) already fails as a table overflow, so
 * the cap changes no result, and the sum of two capped hints stays an int32.
 */
const TABLE_HINT_CAP = 1 << 27;
function tableSizeHint(x: number): number {
  return Math.min(floatingByteToInt(x), TABLE_HINT_CAP);
}
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
  /** The chunk's header and structure section (string.dump writes them around a function). */
  header: HksHeader;
  structureSection: HksStructureSection | null;
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
  /**
   * Inline caches, one per code word: the hash-part entry where GETFIELD / SETFIELD / GETGLOBAL last found their
   * constant key. Tables built by the same constructor put the same keys at the same entries, so a guess checked
   * against the key stored there (`hk[i] === key`) replaces the hash lookup.
   */
  readonly ic: Int32Array;
  /** The JavaScript tier's compiled form, once made (`jit.ts`). */
  jit: JitFn | null;
  /** Entries and loop back-edges counted towards compiling it (a large negative count once tried). */
  hot: number;
  /**
   * Compiled code calls it directly (a lazy frame, `jit.ts` directCallable) with exactly this many arguments; -1:
   * never (not compiled, not direct-callable, or it left lazy frames to the interpreter too often).
   */
  direct: number;
  /** Lazy frames of it that left to the interpreter. */
  lazyLeaves: number;
}

// read once: ES-module-to-CommonJS loaders (tsx, vitest) make each use of an imported name a getter call
const { hksA, hksB, hksBx, hksC, hksDataWordCount, hksSbx } = opcodes;
const TABLE = opcodes.hksOpcodes('default');

/** Decoding state of one function (methods, not per-instruction closures). */
class Decoder {
  readonly k: LuaValue[];
  readonly words: Uint32Array;
  readonly n: number;
  readonly code: Int32Array;
  readonly side: Side[] = [];
  readonly end: number;
  maxReg: number;
  constructor(fn: HksFunction, k: LuaValue[]) {
    this.k = k;
    this.words = fn.code;
    this.n = fn.code.length;
    this.code = new Int32Array((this.n + 1) * 4);
    this.end = this.n * 4;
    this.maxReg = fn.maxStackSize;
  }
  /** Notes registers r .. r+width-1 as used by the frame. */
  reg(r: number, width = 1): number {
    if (r + width > this.maxReg) this.maxReg = r + width;
    return r;
  }
  /** Entry index (times 4) of word `w`, or END when outside the code. */
  target(w: number): number {
    return w >= 0 && w < this.n ? w * 4 : this.end;
  }
  put(i: number, op: number, a: number, b: number, c: number): void {
    const o = i * 4;
    this.code[o] = op;
    this.code[o + 1] = a;
    this.code[o + 2] = b;
    this.code[o + 3] = c;
  }
  bad(i: number, message: string): void {
    this.side.push({ kind: 'bad', message });
    this.put(i, Op.BAD, this.side.length - 1, 0, 0);
  }
  isNumK(idx: number): boolean {
    return idx < this.k.length && typeof this.k[idx] === 'number';
  }
  isStrK(idx: number): boolean {
    return idx < this.k.length && typeof this.k[idx] === 'string';
  }
  kOk(idx: number): boolean {
    return idx < this.k.length;
  }
  /** RK operand of the C field (9 bits) in signed form, null for a constant out of range. */
  rkC(C: number): number | null {
    if (C >= 256) return C - 256 < this.k.length ? ~(C - 256) : null;
    this.reg(C);
    return C;
  }
  /** The B field as the table says: a register, or a constant for `_BK` forms (kind K). */
  rkB(info: HksOpcodeInfo, B: number): number | null {
    if (info.b === 'K') return B < this.k.length ? ~B : null;
    this.reg(B);
    return B;
  }
  /** DATA word j owned by the instruction at i. */
  data(i: number, j: number): number {
    return this.words[i + 1 + j]!;
  }
  /** Word index of the jump a test at `i` guards (the JMP at i + 1), or null when the next word is no JMP. */
  jumpAfter(i: number): number | null {
    if (i + 1 >= this.n) return null;
    const nw = this.words[i + 1]!;
    const ni = TABLE.byOp[nw >>> 25];
    if (!ni || ni.sharesSemanticsOf !== 'JMP') return null;
    return i + 2 + hksSbx(nw);
  }
}

/**
 * The JavaScript engine's internalized copy of `s` (a property name is one). Two internalized strings are equal
 * exactly when they are the same object, so a table key from a constant compares by identity with the same
 * constant elsewhere — and with the string literals of the JavaScript tier's code — instead of by its characters.
 */
function internalized(s: string): string {
  const o: Record<string, 0> = {};
  o[s] = 0;
  for (const key in o) return key;
  return s;
}

/** An empty array of V8's generic element kind (it stays so whatever it later holds). */
function genericArray(): LuaValue[] {
  const a: LuaValue[] = [''];
  a.pop();
  return a;
}

/** Decodes a function and its children. `path` is its position in the chunk. */
export function decodeFunction(fn: HksFunction, chunk: ChunkInfo, path = 'main'): Proto {
  const protos = fn.children.map((c, i) => decodeFunction(c, chunk, `${path}/${i}`));
  // k and kv are generic arrays from the start (not the number kinds an all-number list would get), so the
  // dispatch loop's loads from them meet one array kind in every function
  const k: LuaValue[] = genericArray();
  for (const c of fn.constants) {
    const v = constantValue(c);
    k.push(typeof v === 'string' ? internalized(v) : v);
  }
  const kv: LuaValue[] = genericArray();
  for (const v of k) kv.push(typeof v === 'number' ? NUM : v);
  const kn = new Float64Array(k.length);
  for (let i = 0; i < k.length; i++) {
    const v = k[i];
    if (typeof v === 'number') kn[i] = chunk.numberSize === 4 ? Math.fround(v) : v;
  }
  const d = new Decoder(fn, k);
  const { words, n, side, code, end } = d;

  for (let i = 0; i < n; i++) {
    const w = words[i]!;
    const info: HksOpcodeInfo | undefined = TABLE.byOp[w >>> 25];
    if (!info) {
      d.bad(i, `invalid opcode ${w >>> 25} (the interpreter refuses opcodes above 0x5B)`);
      continue;
    }
    const fam = info.sharesSemanticsOf;
    const A = hksA(w);
    const B = hksB(w);
    const C = hksC(w);
    const Bx = hksBx(w);
    const childUps = fam === 'CLOSURE' ? (protos[Bx]?.nups ?? 0) : undefined;
    const ndata = hksDataWordCount(info, w, childUps) ?? 0;
    const succ = d.target(i + 1 + ndata);
    if (i + ndata >= n && ndata > 0) {
      d.bad(i, `${info.name} owns ${ndata} DATA word(s) past the end of the code`);
      continue;
    }

    switch (fam) {
      case 'DATA':
        d.put(i, Op.NOP, 0, 0, 0);
        break;
      case 'MOVE':
        d.put(i, Op.MOVE, d.reg(A), d.reg(B), 0);
        break;
      case 'LOADK':
        if (!d.kOk(Bx)) d.bad(i, `constant ${Bx} out of range`);
        else d.put(i, d.isNumK(Bx) ? Op.LOADKN : Op.LOADKV, d.reg(A), Bx, 0);
        break;
      case 'LOADNIL':
        d.reg(A, B >= A ? B - A + 1 : 1);
        d.put(i, Op.LOADNIL, A, B, 0);
        break;
      case 'LOADBOOL':
        d.put(i, Op.LOADBOOL, d.reg(A), B !== 0 ? 1 : 0, C !== 0 ? d.target(i + 2) : succ);
        break;
      case 'GETUPVAL':
        if (B >= fn.upvalueCount) d.bad(i, `upvalue ${B} out of range`);
        else d.put(i, Op.GETUPVAL, d.reg(A), B, 0);
        break;
      case 'SETUPVAL':
        if (B >= fn.upvalueCount) d.bad(i, `upvalue ${B} out of range`);
        else d.put(i, Op.SETUPVAL, d.reg(A), B, 0);
        break;
      case 'GETGLOBAL': {
        // GETGLOBAL may carry the memo word (an internal hksc setting); GETGLOBAL_MEM always does
        let skip = ndata;
        if (info.data.kind === 'optional' && i + 1 < n && words[i + 1]! >>> 25 === TABLE.dataOp) skip = 1;
        if (!d.kOk(Bx)) d.bad(i, `constant ${Bx} out of range`);
        else d.put(i, Op.GETGLOBAL, d.reg(A), Bx, d.target(i + 1 + skip));
        break;
      }
      case 'SETGLOBAL':
        if (!d.kOk(Bx)) d.bad(i, `constant ${Bx} out of range`);
        else d.put(i, Op.SETGLOBAL, d.reg(A), Bx, 0);
        break;
      case 'GETFIELD':
        // C is a plain constant index
        if (ndata !== 2) throw new Error(`opcode table: ${info.name} should own 2 DATA words`);
        if (!d.kOk(C)) d.bad(i, `constant ${C} out of range`);
        else if (d.isStrK(C)) d.put(i, Op.GETFIELD, d.reg(A), d.reg(B), C);
        else d.put(i, Op.GETTABLE, d.reg(A), d.reg(B), ~C);
        break;
      case 'GETTABLE_S': {
        if (ndata !== 2) throw new Error(`opcode table: ${info.name} should own 2 DATA words`);
        const c = d.rkC(C);
        if (c === null) d.bad(i, 'constant out of range');
        else if (c < 0 && d.isStrK(~c)) d.put(i, Op.GETFIELD, d.reg(A), d.reg(B), ~c);
        else d.put(i, Op.GETTABLE, d.reg(A), d.reg(B), c);
        break;
      }
      case 'SETFIELD': {
        const c = d.rkC(C);
        if (!d.kOk(B) || c === null) d.bad(i, 'constant out of range');
        else if (d.isStrK(B)) d.put(i, Op.SETFIELD, d.reg(A), B, c);
        else d.put(i, Op.SETTABLE, d.reg(A), ~B, c);
        break;
      }
      case 'SETTABLE_S': {
        const b = d.rkB(info, B);
        const c = d.rkC(C);
        if (b === null || c === null) d.bad(i, 'constant out of range');
        else if (b < 0 && d.isStrK(~b)) d.put(i, Op.SETFIELD, d.reg(A), ~b, c);
        else d.put(i, Op.SETTABLE, d.reg(A), b, c);
        break;
      }
      case 'SELF': {
        const c = d.rkC(C);
        if (c === null) d.bad(i, 'constant out of range');
        else d.put(i, Op.SELF, d.reg(A, 2), d.reg(B), c);
        break;
      }
      case 'ADD':
      case 'SUB':
      case 'MUL':
      case 'DIV':
      case 'MOD':
      case 'POW': {
        const b = d.rkB(info, B);
        const c = d.rkC(C);
        if (b === null || c === null) {
          d.bad(i, 'constant out of range');
          break;
        }
        const baseOp = ARITH_BASE[fam]!;
        // forms: RR, RK (number constant C), KR (number constant B), generic
        let op: number = baseOp + 3;
        let ob = b;
        let oc = c;
        if (b >= 0 && c >= 0) op = baseOp;
        else if (b >= 0 && c < 0 && d.isNumK(~c)) {
          op = baseOp + 1;
          oc = ~c;
        } else if (b < 0 && c >= 0 && d.isNumK(~b)) {
          op = baseOp + 2;
          ob = ~b;
        }
        d.put(i, op, d.reg(A), ob, oc);
        break;
      }
      case 'UNM':
        d.put(i, Op.UNM, d.reg(A), d.reg(B), 0);
        break;
      case 'NOT':
        d.put(i, Op.NOT, d.reg(A), d.reg(B), 0);
        break;
      case 'LEN':
        d.put(i, Op.LEN, d.reg(A), d.reg(B), 0);
        break;
      case 'CONCAT':
        if (C < B) d.bad(i, 'CONCAT range is empty');
        else {
          d.reg(B, C - B + 1);
          d.put(i, Op.CONCAT, d.reg(A), B, C);
        }
        break;
      case 'JMP':
        d.put(i, Op.JMP, 0, d.target(i + 1 + hksSbx(w)), 0);
        break;
      case 'EQ':
      case 'LT':
      case 'LE': {
        const b = d.rkB(info, B);
        const c = d.rkC(C);
        if (b === null || c === null) {
          d.bad(i, 'constant out of range');
          break;
        }
        const flag = A !== 0 ? 1 : 0;
        const j = d.jumpAfter(i);
        if (j === null) {
          d.put(i, fam === 'EQ' ? Op.EQ_S : fam === 'LT' ? Op.LT_S : Op.LE_S, flag, b, c);
          break;
        }
        const t = d.target(j) | flag;
        if (fam === 'EQ') {
          if (b >= 0 && c >= 0) d.put(i, Op.EQ_RR_J, b, c, t);
          else if (b >= 0 && c < 0) d.put(i, Op.EQ_RK_J, b, c, t);
          else d.put(i, Op.EQ_J, b, c, t);
        } else {
          const lt = fam === 'LT';
          if (b >= 0 && c >= 0) d.put(i, lt ? Op.LT_RR_J : Op.LE_RR_J, b, c, t);
          else if (b >= 0 && c < 0 && d.isNumK(~c)) d.put(i, lt ? Op.LT_RK_J : Op.LE_RK_J, b, ~c, t);
          else if (b < 0 && c >= 0 && d.isNumK(~b)) d.put(i, lt ? Op.LT_KR_J : Op.LE_KR_J, ~b, c, t);
          else d.put(i, lt ? Op.LT_J : Op.LE_J, b, c, t);
        }
        break;
      }
      case 'TEST': {
        const j = d.jumpAfter(i);
        if (j === null) d.put(i, Op.TEST_S, d.reg(A), C !== 0 ? 1 : 0, 0);
        else d.put(i, Op.TEST_J, d.reg(A), C !== 0 ? 1 : 0, d.target(j));
        break;
      }
      case 'TESTSET': {
        const j = d.jumpAfter(i);
        if (j === null) d.put(i, Op.TESTSET_S, d.reg(A), d.reg(B), C !== 0 ? 1 : 0);
        else d.put(i, Op.TESTSET_J, d.reg(A), d.reg(B), d.target(j) | (C !== 0 ? 1 : 0));
        break;
      }
      case 'CALL_I':
        d.reg(A, Math.max(B, C > 0 ? C - 1 : 0, 1));
        d.put(i, Op.CALL, A, B, C);
        break;
      case 'TAILCALL_I':
        d.reg(A, Math.max(B, 1));
        d.put(i, Op.TAILCALL, A, B, C);
        break;
      case 'RETURN':
        d.reg(A, B > 0 ? B - 1 : 0);
        d.put(i, Op.RETURN, A, B, 0);
        break;
      case 'FORPREP':
        d.reg(A, 4);
        d.put(i, Op.FORPREP, A, d.target(i + 1 + hksSbx(w)), 0);
        break;
      case 'FORLOOP':
        d.reg(A, 4);
        d.put(i, Op.FORLOOP, A, d.target(i + 1 + hksSbx(w)), 0);
        break;
      case 'TFORLOOP': {
        d.reg(A, 3 + Math.max(C, 1));
        const j = d.jumpAfter(i);
        if (j === null) d.put(i, Op.TFORLOOP_S, A, C, 0);
        else d.put(i, Op.TFORLOOP_J, A, C, d.target(j));
        break;
      }
      case 'SETLIST':
        d.reg(A, B + 1);
        if (C === 0) d.put(i, Op.SETLIST_X, A, B, hksBx(d.data(i, 0)));
        else d.put(i, Op.SETLIST, A, B, C);
        break;
      case 'CLOSE':
        d.put(i, Op.CLOSE, d.reg(A), 0, 0);
        break;
      case 'CLOSURE': {
        const child = protos[Bx];
        if (!child) {
          d.bad(i, `function prototype ${Bx} out of range`);
          break;
        }
        const nu = child.nups;
        const captureKind = new Int32Array(nu);
        const captureIndex = new Int32Array(nu);
        let ok = true;
        for (let u = 0; u < nu; u++) {
          const dw = d.data(i, u);
          const kind = hksA(dw);
          const idx = hksBx(dw);
          captureKind[u] = kind;
          captureIndex[u] = idx;
          if (kind === 1) d.reg(idx);
          else if (kind !== 2 || idx >= fn.upvalueCount) ok = false;
        }
        if (!ok) {
          d.bad(i, 'CLOSURE capture word is neither a register (A=1) nor an upvalue of this function (A=2)');
          break;
        }
        side.push({ kind: 'closure', proto: child, captureKind, captureIndex });
        d.put(i, Op.CLOSURE, d.reg(A), side.length - 1, succ);
        break;
      }
      case 'VARARG':
        d.reg(A, Math.max(B - 1, 1));
        d.put(i, Op.VARARG, A, B, 0);
        break;
      case 'NEWTABLE':
        d.put(i, Op.NEWTABLE, d.reg(A), tableSizeHint(B), tableSizeHint(C));
        break;
      case 'NEWSTRUCT': {
        const id = hksBx(d.data(i, 0));
        side.push({ kind: 'struct', def: chunk.structs.get(id) ?? null, id, narray: tableSizeHint(B), nhash: tableSizeHint(C) });
        d.put(i, Op.NEWSTRUCT, d.reg(A), side.length - 1, succ);
        break;
      }
      case 'CHECKTYPE':
        d.put(i, Op.CHECKTYPE, d.reg(A), Bx, 0);
        break;
      case 'CHECKTYPES':
        side.push({ kind: 'struct', def: chunk.structs.get(Bx) ?? null, id: Bx, narray: 0, nhash: 0 });
        d.put(i, Op.CHECKTYPES, d.reg(A), side.length - 1, 0);
        break;
      case 'SETSLOTN':
        side.push(slotSide(C, -1, null, -1, [], succ));
        d.put(i, Op.SETSLOTN, d.reg(A), side.length - 1, 0);
        break;
      case 'SETSLOTI':
      case 'SETSLOT':
      case 'SETSLOTS': {
        const c = fam === 'SETSLOTS' ? d.reg(C) : d.rkC(C);
        if (c === null) {
          d.bad(i, 'constant out of range');
          break;
        }
        const dv = fam === 'SETSLOTI' ? -1 : hksBx(d.data(i, 0));
        const s =
          fam === 'SETSLOTS' ? slotSide(B, -1, chunk.structs.get(dv) ?? null, dv, [], succ) : slotSide(B, fam === 'SETSLOT' ? dv : -1, null, -1, [], succ);
        side.push(s);
        d.put(i, fam === 'SETSLOTI' ? Op.SETSLOTI : fam === 'SETSLOT' ? Op.SETSLOT : Op.SETSLOTS, d.reg(A), side.length - 1, c);
        break;
      }
      case 'SETSLOTMT': {
        const c = d.rkC(C);
        if (c === null) {
          d.bad(i, 'constant out of range');
          break;
        }
        const type = B >> 4;
        let j = 0;
        let def: StructDef | null = null;
        let sid = -1;
        if (type === 12) {
          sid = hksBx(d.data(i, j++));
          def = chunk.structs.get(sid) ?? null;
        }
        const chain: number[] = [];
        const steps = (B & 15) + 1;
        for (let s = 0; s < steps; s++) chain.push(s < steps - 1 ? hksBx(d.data(i, j + s)) : hksA(d.data(i, j + s)));
        side.push(slotSide(chain[chain.length - 1]!, type, def, sid, chain.slice(0, -1), succ));
        d.put(i, Op.SETSLOTMT, d.reg(A), side.length - 1, c);
        break;
      }
      case 'GETSLOT':
        d.put(i, Op.GETSLOT, d.reg(A), d.reg(B), C);
        break;
      case 'SELFSLOT':
        d.put(i, Op.SELFSLOT, d.reg(A, 2), d.reg(B), C);
        break;
      case 'GETSLOTMT':
      case 'SELFSLOTMT': {
        const chain: number[] = [];
        for (let s = 0; s <= C; s++) chain.push(s < C ? hksBx(d.data(i, s)) : hksA(d.data(i, s)));
        side.push(slotSide(chain[chain.length - 1]!, -1, null, -1, chain.slice(0, -1), succ));
        d.put(i, fam === 'GETSLOTMT' ? Op.GETSLOTMT : Op.SELFSLOTMT, d.reg(A, fam === 'SELFSLOTMT' ? 2 : 1), d.reg(B), side.length - 1);
        break;
      }
      default:
        d.bad(i, `opcode ${info.name} is not run by this VM`);
    }
  }
  code[end] = Op.END;

  const dbg = fn.debug;
  let lines: Int32Array | null = null;
  if (dbg && dbg.lines.length > 0) {
    lines = new Int32Array(n + 1);
    for (let i = 0; i < n; i++) lines[i] = dbg.lines[i] ?? dbg.lines[dbg.lines.length - 1] ?? 0;
    lines[n] = n > 0 ? lines[n - 1]! : dbg.lineDefined;
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
    frameSize: Math.min(Math.max(d.maxReg, fn.maxStackSize, 2), 1024),
    nups: fn.upvalueCount,
    lines,
    name: dbg?.name ?? null,
    lineDefined: dbg?.lineDefined ?? -1,
    ic: new Int32Array(fn.code.length + 1),
    jit: null,
    hot: 0,
    direct: -1,
    lazyLeaves: 0,
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
