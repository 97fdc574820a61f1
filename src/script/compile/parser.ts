/**
 * The parser: HavokScript source → AST, driving the code generator in the same single pass, in the order hksc's
 * parser does (that order decides register numbers, constant order and the line each instruction is attributed to,
 * so it is part of producing identical bytecode). Grammar: Lua 5.1 plus `hstructure`, `hmake`, `name : type`
 * annotations on locals, parameters and `for` variables, and int literals. Semantic checks hksc makes while
 * parsing (structure declarations, type annotations, slot assignments) are made here too, at the same moment, so
 * errors carry the same line.
 */
import type * as A from '../ast.ts';
import {
  BinaryOp,
  Exp,
  ExpDesc,
  FuncState,
  LUA_MULTRET,
  LFIELDS_PER_FLUSH,
  NO_JUMP,
  OP,
  SlotAssign,
  typeInfo,
  UnaryOp,
  VARARG_HASARG,
  VARARG_ISVARARG,
  VARARG_NEEDSARG,
  type BlockCnt,
  type CompileContext,
  type ExpList,
  type Proto,
  type TypeInfo,
} from './codegen.ts';
import { Lexer, Tok, tokenText } from './lexer.ts';
import {
  addSlot,
  findSlot,
  LuaType,
  MAX_STRUCT_SLOTS,
  MAX_STRUCTS,
  newStructProto,
  NUM_RESERVED_SLOTS,
  sameStructProto,
  SLOT_INDEX_META,
  STRUCTURE_TYPE,
  typeIdOfName,
  TYPE_NAMES,
  type StructProto,
  type StructSlot,
} from './structures.ts';

const MAX_VARS = 200;
const MAX_UPVALUES = 60;
const MAX_C_CALLS = 128;
const MAX_INT = 0x7fffffff;
const MAXARG_BX = 0x1ffff;
const MAX_FUNCNAME = 512;
const UNARY_PRIORITY = 8;
const MAIN_CHUNK_NAME = '(main chunk)';

/** Left and right priorities of the binary operators, indexed by BinaryOp. */
const PRIORITY_LEFT = [6, 6, 7, 7, 7, 10, 5, 3, 3, 3, 3, 3, 3, 2, 1];
const PRIORITY_RIGHT = [6, 6, 7, 7, 7, 9, 4, 3, 3, 3, 3, 3, 3, 2, 1];
const BINARY_TEXT: A.BinaryOperator[] = ['+', '-', '*', '/', '%', '^', '..', '~=', '==', '<', '<=', '>', '>=', 'and', 'or'];
const NO_BINOP = -1;

function binaryOpOf(tok: number): number {
  switch (tok) {
    case 0x2b:
      return BinaryOp.ADD;
    case 0x2d:
      return BinaryOp.SUB;
    case 0x2a:
      return BinaryOp.MUL;
    case 0x2f:
      return BinaryOp.DIV;
    case 0x25:
      return BinaryOp.MOD;
    case 0x5e:
      return BinaryOp.POW;
    case Tok.CONCAT:
      return BinaryOp.CONCAT;
    case Tok.NE:
      return BinaryOp.NE;
    case Tok.EQ:
      return BinaryOp.EQ;
    case 0x3c:
      return BinaryOp.LT;
    case Tok.LE:
      return BinaryOp.LE;
    case 0x3e:
      return BinaryOp.GT;
    case Tok.GE:
      return BinaryOp.GE;
    case Tok.AND:
      return BinaryOp.AND;
    case Tok.OR:
      return BinaryOp.OR;
    default:
      return NO_BINOP;
  }
}

const NAMEPART_NAME = 0;
const NAMEPART_FIELD = 1;
const NAMEPART_SELF = 2;
const NAMEPART_NONE = -1;

const blockFollow = (tok: number): boolean => tok === Tok.ELSE || tok === Tok.ELSEIF || tok === Tok.END || tok === Tok.UNTIL || tok === Tok.EOS;
const hasMultRet = (k: number): boolean => k === Exp.CALL || k === Exp.VARARG;

/** A `name : type` declaration being parsed (types are resolved when the variable is created). */
interface Declared {
  name: string;
  node: A.LocalVariable;
  typeName: string | null;
}

interface ConsControl {
  v: ExpDesc;
  t: ExpDesc;
  nh: number;
  na: number;
  tostore: number;
  proto: StructProto | null;
}

interface Lhs {
  prev: Lhs | null;
  v: ExpDesc;
}

export interface ParseResult {
  chunk: A.Chunk;
  main: Proto;
}

/** What the parser returns for every node when no AST is wanted (compileLua): one shared placeholder. */
const NO_NODE: A.NilLiteral = { type: 'NilLiteral', line: 0, column: 0 };

export class Parser {
  private readonly ls: Lexer;
  /** Build the AST (parseLua); without it the parser only drives the code generator. */
  private readonly ast: boolean;
  private readonly ctx: CompileContext;
  private fs!: FuncState;
  private nCcalls = 0;
  private nameParts: { name: string; type: number }[] = [];
  /** The structure of the `hmake` being compiled (consumed by its constructor). */
  private consProto: StructProto | null = null;

  constructor(ctx: CompileContext, options: { ast: boolean }) {
    this.ctx = ctx;
    this.ls = ctx.ls;
    this.ast = options.ast;
  }

  // -------------------------------------------------------------------------------------------------------------
  // Positions and tokens

  private errorExpected(token: number): never {
    throw this.ls.syntaxError(`${tokenText(token)} expected`);
  }

  private testNext(c: number): boolean {
    if (this.ls.tok === c) {
      this.ls.advance();
      return true;
    }
    return false;
  }

  private check(c: number): void {
    if (this.ls.tok !== c) this.errorExpected(c);
  }

  private checkNext(c: number): void {
    this.check(c);
    this.ls.advance();
  }

  private checkMatch(what: number, who: number, where: number): void {
    if (!this.testNext(what)) {
      if (where === this.ls.line) this.errorExpected(what);
      throw this.ls.syntaxError(`${tokenText(what)} expected (to close ${tokenText(who)} at line ${where})`);
    }
  }

  private peekName(): string {
    this.check(Tok.NAME);
    return this.ls.val as string;
  }

  private checkName(): string {
    const name = this.peekName();
    this.ls.advance();
    return name;
  }

  /** A name token as an Identifier node (consumed). */
  private identifier(): A.Identifier {
    const line = this.ls.tokLine;
    const column = this.ls.tokCol;
    const name = this.checkName();
    return { type: 'Identifier', name, line, column, endLine: this.ls.prevEndLine, endColumn: this.ls.prevEndCol };
  }

  private enterLevel(): void {
    if (++this.nCcalls > MAX_C_CALLS) throw this.ls.error('chunk has too many syntax levels', 0);
  }

  // -------------------------------------------------------------------------------------------------------------
  // Variables

  private registerLocalVar(name: string): number {
    const fs = this.fs;
    if (fs.locals.length >= 0x7fff) throw this.ls.inputError('too many local variables');
    fs.locals.push({ name, startPc: 0, endPc: 0 });
    return fs.locals.length - 1;
  }

  private newLocalVar(name: string, n: number, type: number = LuaType.NONE, proto: StructProto | null = null): void {
    const fs = this.fs;
    fs.checkLimit(fs.nactvar + n + 1, MAX_VARS, 'local variables');
    fs.actvar[fs.nactvar + n] = this.registerLocalVar(name);
    fs.localTypes[fs.nactvar + n] = typeInfo(type, proto, type !== LuaType.NONE);
  }

  private adjustLocalVars(nvars: number): void {
    const fs = this.fs;
    fs.nactvar += nvars;
    for (; nvars > 0; nvars--) fs.locals[fs.actvar[fs.nactvar - nvars]!]!.startPc = fs.pc;
  }

  private removeVars(toLevel: number): void {
    const fs = this.fs;
    while (fs.nactvar > toLevel) fs.locals[fs.actvar[--fs.nactvar]!]!.endPc = fs.pc;
  }

  private indexUpvalue(fs: FuncState, name: string, v: ExpDesc): number {
    for (let i = 0; i < fs.upvalues.length; i++) {
      const u = fs.upvalues[i]!;
      if (u.k === v.k && u.info === v.info) return i;
    }
    fs.checkLimit(fs.upvalues.length + 1, MAX_UPVALUES, 'upvalues');
    fs.upvalues.push({ k: v.k, info: v.info });
    fs.upvalueNames.push(name);
    return fs.upvalues.length - 1;
  }

  private searchVar(fs: FuncState, name: string): number {
    for (let i = fs.nactvar - 1; i >= 0; i--) if (fs.locals[fs.actvar[i]!]!.name === name) return i;
    return -1;
  }

  private markUpval(fs: FuncState, level: number): void {
    let bl = fs.bl;
    while (bl && bl.nactvar > level) bl = bl.previous;
    if (bl) bl.upval = true;
  }

  private singleVarAux(fs: FuncState | null, name: string, v: ExpDesc, base: boolean): number {
    if (fs === null) {
      v.init(Exp.GLOBAL, 255);
      return Exp.GLOBAL;
    }
    const i = this.searchVar(fs, name);
    if (i >= 0) {
      v.init(Exp.LOCAL, i);
      const t = fs.localTypes[i]!;
      v.type = t.type;
      v.proto = t.proto;
      if (!base) this.markUpval(fs, i);
      return Exp.LOCAL;
    }
    if (this.singleVarAux(fs.prev, name, v, false) === Exp.GLOBAL) return Exp.GLOBAL;
    v.info = this.indexUpvalue(fs, name, v);
    v.k = Exp.UPVAL;
    return Exp.UPVAL;
  }

  /** A variable reference; returns its name (the token is consumed). */
  private singleVar(v: ExpDesc): string {
    const name = this.checkName();
    if (this.singleVarAux(this.fs, name, v, true) === Exp.GLOBAL) v.info = this.fs.stringK(name);
    return name;
  }

  // -------------------------------------------------------------------------------------------------------------
  // Type annotations

  /** hksc's parsetype: the type a type name denotes (structure names must be declared). */
  private parseType(typeName: string): TypeInfo {
    const i = typeIdOfName(typeName);
    if (i === STRUCTURE_TYPE) {
      const proto = this.ctx.structs.get(typeName);
      if (!proto) this.fs.semError(`Type declaration '${typeName}' does not match any built-in type or structure.`);
      return typeInfo(LuaType.STRUCT, proto, true);
    }
    if (i === LuaType.STRUCT) this.fs.semError("Type declaration 'struct' is not allowed.");
    if (i === LuaType.ANY) return typeInfo(LuaType.NONE, null, false);
    return typeInfo(i, null, true);
  }

  private typedLocalVar(name: string, typeName: string, n: number): void {
    const t = this.parseType(typeName);
    this.newLocalVar(name, n, t.type, t.proto);
  }

  /** `name [: type]` as a declaration node; the type name token is consumed. */
  private declaredName(): Declared {
    const line = this.ls.tokLine;
    const column = this.ls.tokCol;
    const name = this.checkName();
    const node: A.LocalVariable = this.ast ? { type: 'LocalVariable', name, line, column, endLine: this.ls.prevEndLine, endColumn: this.ls.prevEndCol } : (NO_NODE as never);
    return { name, node, typeName: null };
  }

  /** The annotation after `:` (the name token is consumed). */
  private annotation(): A.TypeAnnotation {
    const line = this.ls.tokLine;
    const column = this.ls.tokCol;
    const name = this.checkName();
    return { type: 'TypeAnnotation', name, line, column, endLine: this.ls.prevEndLine, endColumn: this.ls.prevEndCol };
  }

  /** `name [: type]` (the look-ahead tells whether a type follows), declared as the n-th new local. */
  private declareVariable(n: number): A.LocalVariable {
    this.peekName();
    if (this.ls.lookahead() === 0x3a) {
      const d = this.declaredName();
      this.ls.advance(); // ':'
      const ann = this.annotation();
      this.annotate(d, ann);
      this.typedLocalVar(d.name, ann.name, n);
      return d.node;
    }
    const d = this.declaredName();
    this.newLocalVar(d.name, n);
    return d.node;
  }

  private annotate(d: Declared, ann: A.TypeAnnotation): void {
    d.typeName = ann.name;
    if (!this.ast) return;
    d.node.annotation = ann;
    d.node.endLine = ann.endLine;
    d.node.endColumn = ann.endColumn;
  }

  // -------------------------------------------------------------------------------------------------------------
  // Expression lists and their types

  private pushExpList(): ExpList {
    const l: ExpList = { types: [], constraints: [], hasConstraints: false };
    this.fs.explists.push(l);
    return l;
  }

  private topExpList(): ExpList {
    return this.fs.explists[this.fs.explists.length - 1]!;
  }

  private popExpList(): void {
    this.fs.explists.pop();
  }

  private pushExpTyping(v: ExpDesc): void {
    this.topExpList().types.push(typeInfo(v.type, v.proto, v.type !== LuaType.NONE));
  }

  private popExpTyping(v: ExpDesc): void {
    const t = this.topExpList().types.pop()!;
    v.type = t.type;
    v.proto = t.proto;
  }

  private applyConstraint(e: ExpDesc): void {
    const l = this.topExpList();
    if (l.hasConstraints && l.constraints.length !== 0) this.fs.applyTypeConstraint(l.constraints.pop()!, e);
  }

  /** Fits the values of a list to `nvars` variables; true when it filled the rest with nil. */
  private adjustAssign(nvars: number, nexps: number, e: ExpDesc): boolean {
    const fs = this.fs;
    let extra = nvars - nexps;
    if (hasMultRet(e.k)) {
      const l = this.topExpList();
      extra++;
      if (extra < 0) extra = 0;
      let checkReg = fs.freeReg - (e.k !== Exp.VARARG ? 1 : 0);
      if (l.hasConstraints && l.constraints.length > 0) fs.checkType(l.constraints.pop()!, checkReg);
      fs.setReturns(e, extra);
      if (extra > 1) {
        if (l.hasConstraints) {
          for (let i = 0; i < extra - 1; i++) {
            checkReg++;
            if (l.constraints.length > 0) fs.checkType(l.constraints.pop()!, checkReg);
          }
        }
        fs.reserveRegs(extra - 1);
      }
    } else {
      if (e.k !== Exp.VOID) {
        fs.exp2nextreg(e);
        this.applyConstraint(e);
      }
      if (extra > 0) {
        const reg = fs.freeReg;
        fs.reserveRegs(extra);
        fs.nil(reg, extra);
        return true;
      }
    }
    return false;
  }

  // -------------------------------------------------------------------------------------------------------------
  // Blocks and functions

  private enterBlock(bl: BlockCnt, isBreakable: boolean): void {
    const fs = this.fs;
    bl.breakList = NO_JUMP;
    bl.isBreakable = isBreakable;
    bl.nactvar = fs.nactvar;
    bl.upval = false;
    bl.previous = fs.bl;
    fs.bl = bl;
  }

  private leaveBlock(): void {
    const fs = this.fs;
    const bl = fs.bl!;
    fs.bl = bl.previous;
    this.removeVars(bl.nactvar);
    if (bl.upval) fs.codeABC(OP.CLOSE, bl.nactvar, 0, 0);
    fs.freeReg = fs.nactvar;
    fs.patchToHere(bl.breakList);
  }

  private newBlock(): BlockCnt {
    return { previous: null, breakList: NO_JUMP, nactvar: 0, upval: false, isBreakable: false };
  }

  private addNamePart(name: string, type: number): void {
    if (this.nameParts.length >= MAX_FUNCNAME / 2) return;
    this.nameParts.push({ name, type });
  }

  /** The debug name of a function being opened: its name parts (`a.b:c`), at most 511 bytes, or null. */
  private buildFuncName(): string | null {
    let s = '';
    for (const p of this.nameParts) {
      if (p.type === NAMEPART_FIELD) s += '.';
      else if (p.type === NAMEPART_SELF) s += ':';
      s += p.name;
      if (s.length >= MAX_FUNCNAME) break;
    }
    this.nameParts.length = 0;
    if (s.length >= MAX_FUNCNAME) s = s.slice(0, MAX_FUNCNAME - 1);
    return s.length !== 0 ? s : null;
  }

  private openFunc(main: boolean): FuncState {
    const name = main ? MAIN_CHUNK_NAME : this.buildFuncName();
    const fs = new FuncState(this.ctx, main ? null : this.fs, name);
    this.fs = fs;
    return fs;
  }

  private closeFunc(): Proto {
    const fs = this.fs;
    this.removeVars(0);
    fs.ret(0, 0);
    const proto: Proto = {
      code: fs.specialize(),
      lines: fs.lines,
      constants: fs.constants,
      children: fs.children,
      locals: fs.locals,
      upvalueNames: fs.upvalueNames,
      upvalueCount: fs.upvalues.length,
      paramCount: fs.paramCount,
      varargFlags: fs.varargFlags,
      maxStackSize: fs.maxStackSize,
      lineDefined: fs.lineDefined,
      lastLineDefined: fs.lastLineDefined,
      name: fs.name,
    };
    if (fs.prev) this.fs = fs.prev;
    return proto;
  }

  private pushClosure(func: FuncState, proto: Proto, v: ExpDesc): void {
    const fs = this.fs;
    if (fs.children.length + 1 > MAXARG_BX) fs.semError('constant table overflow');
    fs.children.push(proto);
    v.init(Exp.RELOCABLE, fs.codeABx(OP.CLOSURE, 0, fs.children.length - 1), LuaType.IFUNCTION);
    for (const u of func.upvalues) fs.codeABx(OP.DATA, u.k === Exp.LOCAL ? 1 : 2, u.info);
  }

  /** Parses the whole input (hksc's main function). */
  parseMain(): ParseResult {
    const ls = this.ls;
    const fs = this.openFunc(true);
    fs.varargFlags = VARARG_ISVARARG;
    ls.readFirstToken();
    const body = this.chunk();
    this.check(Tok.EOS);
    const main = this.closeFunc();
    const chunk: A.Chunk = this.ast ? { type: 'Chunk', body, line: body.line, column: body.column, endLine: body.endLine, endColumn: body.endColumn } : (NO_NODE as never);
    if (ls.utf8 && this.ast) chunk.utf8Bom = true;
    return { chunk, main };
  }

  /** `( params ) block end` of a function; `line` is its line defined. */
  private body(e: ExpDesc, needSelf: boolean, line: number, startLine: number, startCol: number): A.FunctionExpression {
    const ls = this.ls;
    const newFs = this.openFunc(false);
    newFs.lineDefined = line;
    this.checkNext(0x28);
    if (needSelf) {
      this.newLocalVar('self', 0);
      this.adjustLocalVars(1);
    }
    const { params, isVararg } = this.parList();
    this.checkNext(0x29);
    for (let i = 0; i < newFs.nactvar; i++) newFs.checkType(newFs.localTypes[i]!, i);
    const body = this.chunk();
    newFs.lastLineDefined = ls.line;
    this.checkMatch(Tok.END, Tok.FUNCTION, line);
    const proto = this.closeFunc();
    this.pushClosure(newFs, proto, e);
    return this.ast ? { type: 'FunctionExpression', params, isVararg, body, line: startLine, column: startCol, endLine: this.ls.prevEndLine, endColumn: this.ls.prevEndCol } : (NO_NODE as never);
  }

  private parList(): { params: A.LocalVariable[]; isVararg: boolean } {
    const fs = this.fs;
    const ls = this.ls;
    const params: A.LocalVariable[] = [];
    let nparams = 0;
    let isVararg = false;
    fs.varargFlags = 0;
    if (ls.tok !== 0x29) {
      do {
        switch (ls.tok) {
          case Tok.NAME:
            params.push(this.declareVariable(nparams++));
            break;
          case Tok.DOTS:
            ls.advance();
            this.newLocalVar('arg', nparams++);
            fs.varargFlags = VARARG_HASARG | VARARG_NEEDSARG | VARARG_ISVARARG;
            isVararg = true;
            break;
          default:
            throw ls.syntaxError("<name> or '...' expected");
        }
      } while (!fs.varargFlags && this.testNext(0x2c));
    }
    this.adjustLocalVars(nparams);
    fs.paramCount = fs.nactvar - (fs.varargFlags & VARARG_HASARG);
    fs.reserveRegs(fs.nactvar);
    return { params, isVararg };
  }

  private chunk(): A.Block {
    const ls = this.ls;
    const line = ls.tokLine;
    const column = ls.tokCol;
    const body: A.Statement[] = [];
    let isLast = false;
    this.enterLevel();
    while (!isLast && !blockFollow(ls.tok)) {
      isLast = ls.tok === Tok.RETURN || ls.tok === Tok.BREAK;
      const stat = this.statement();
      if (this.ast) body.push(stat);
      this.testNext(0x3b);
      this.fs.freeReg = this.fs.nactvar;
    }
    this.nCcalls--;
    if (body.length === 0) return this.ast ? { type: 'Block', body, line, column, endLine: line, endColumn: column } : (NO_NODE as never);
    return this.ast ? { type: 'Block', body, line: line, column: column, endLine: this.ls.prevEndLine, endColumn: this.ls.prevEndCol } : (NO_NODE as never);
  }

  private block(): A.Block {
    const bl = this.newBlock();
    this.enterBlock(bl, false);
    const b = this.chunk();
    this.leaveBlock();
    return b;
  }

  // -------------------------------------------------------------------------------------------------------------
  // Expressions

  private field(v: ExpDesc, nameType: number): A.Identifier {
    const fs = this.fs;
    fs.exp2anyreg(v);
    this.ls.advance(); // '.' or ':'
    const line = this.ls.tokLine;
    const column = this.ls.tokCol;
    const name = this.checkName();
    const key = new ExpDesc().init(Exp.K, fs.stringK(name), LuaType.STRING);
    if (nameType !== NAMEPART_NONE) this.addNamePart(name, nameType);
    fs.indexed(v, key);
    return this.ast ? { type: 'Identifier', name, line, column, endLine: this.ls.prevEndLine, endColumn: this.ls.prevEndCol } : (NO_NODE as never);
  }

  /** `[ expr ]` of an index or a constructor key. */
  private yindex(v: ExpDesc): A.Expression {
    this.ls.advance(); // '['
    const e = this.expr(v);
    this.fs.exp2val(v);
    this.checkNext(0x5d);
    return e;
  }

  private recField(cc: ConsControl): A.TableField {
    const fs = this.fs;
    const ls = this.ls;
    const reg = fs.freeReg;
    const line = ls.tokLine;
    const column = ls.tokCol;
    const key = new ExpDesc();
    const val = new ExpDesc();
    let name: A.Identifier | null = null;
    let keyNode: A.Expression | null = null;
    if (ls.tok === Tok.NAME) {
      fs.checkLimit(cc.nh, MAX_INT, 'items in a constructor');
      if (cc.proto && !findSlot(cc.proto, ls.val as string) && !cc.proto.hasProxy) this.invalidSlot(cc.proto, ls.val as string);
      name = this.identifier();
      key.init(Exp.K, fs.stringK(name.name), LuaType.STRING);
    } else keyNode = this.yindex(key);
    cc.nh++;
    this.checkNext(0x3d);
    const rkKey = fs.exp2RK(key);
    const value = this.expr(val);
    const rkVal = fs.exp2RK(val);
    if (cc.proto) {
      const s = { slot: null as StructSlot | null, t: typeInfo(LuaType.NONE, null, true) };
      const res = this.checkSlotField(cc.proto, key, val, s);
      if (res !== SlotAssign.PROXYTABLE) cc.nh--;
      fs.setSlot(s.slot, s.t, cc.t.info, rkKey, rkVal, res);
    } else fs.codeABC(OP.SETTABLE, cc.t.info, rkKey, rkVal);
    fs.freeReg = reg;
    if (name) return this.ast ? { type: 'TableNamedField', name, value, line: line, column: column, endLine: this.ls.prevEndLine, endColumn: this.ls.prevEndCol } : (NO_NODE as never);
    return this.ast ? { type: 'TableKeyedField', key: keyNode!, value, line: line, column: column, endLine: this.ls.prevEndLine, endColumn: this.ls.prevEndCol } : (NO_NODE as never);
  }

  private invalidSlot(proto: StructProto, name: string): never {
    this.fs.semError(`Attempt to assign slot '${name}' on instances of '${proto.name}' is not allowed.`);
  }

  private checkSlotField(proto: StructProto, key: ExpDesc, val: ExpDesc, s: { slot: StructSlot | null; t: TypeInfo }): number {
    const fs = this.fs;
    switch (key.k) {
      case Exp.NIL:
        fs.semError('Table index is nil.');
        break;
      case Exp.TRUE:
      case Exp.FALSE:
      case Exp.KNUM:
        if (!proto.hasProxy) fs.semError(`Attempt to assign to number indexes on instances of structure '${proto.name}' is not allowed.`);
        return SlotAssign.PROXYTABLE;
      case Exp.K: {
        const k = fs.constants[key.info]!;
        if (k.type === 'string' && k.value !== null) {
          const slot = findSlot(proto, k.value);
          if (slot) {
            fs.slotTypeInfo(slot, s.t);
            s.slot = slot;
            return fs.checkSlotAssignment(k.value, val, s.t);
          }
          if (!proto.hasProxy) this.invalidSlot(proto, k.value);
          return SlotAssign.PROXYTABLE;
        }
        break;
      }
      case Exp.RELOCABLE:
      case Exp.NONRELOC:
        if (key.type === LuaType.NONE || key.type === LuaType.STRING) return SlotAssign.GENERIC;
        break;
      default:
        return SlotAssign.GENERIC;
    }
    if (!proto.hasProxy) fs.semError(`Attempt to assign to non-string indexes on instances of structure '${proto.name}' is not allowed.`);
    return SlotAssign.PROXYTABLE;
  }

  private closeListField(cc: ConsControl): void {
    if (cc.v.k === Exp.VOID) return;
    const fs = this.fs;
    fs.exp2nextreg(cc.v);
    cc.v.k = Exp.VOID;
    if (cc.tostore === LFIELDS_PER_FLUSH) {
      fs.setList(cc.t.info, cc.na, cc.tostore);
      cc.tostore = 0;
    }
  }

  private lastListField(cc: ConsControl): void {
    if (cc.tostore === 0) return;
    const fs = this.fs;
    if (hasMultRet(cc.v.k)) {
      fs.setMultRet(cc.v);
      fs.setList(cc.t.info, cc.na, LUA_MULTRET);
      cc.na--;
    } else {
      if (cc.v.k !== Exp.VOID) fs.exp2nextreg(cc.v);
      fs.setList(cc.t.info, cc.na, cc.tostore);
    }
  }

  private listField(cc: ConsControl): A.TableField {
    const ls = this.ls;
    if (cc.proto && !cc.proto.hasProxy) this.fs.semError(`Attempt to assign to number indexes on instances of structure '${cc.proto.name}' is not allowed.`);
    const line = ls.tokLine;
    const column = ls.tokCol;
    const value = this.expr(cc.v);
    this.fs.checkLimit(cc.na, MAX_INT, 'items in a constructor');
    cc.na++;
    cc.tostore++;
    return this.ast ? { type: 'TableArrayField', value, line: line, column: column, endLine: this.ls.prevEndLine, endColumn: this.ls.prevEndCol } : (NO_NODE as never);
  }

  private constructor_(t: ExpDesc): A.TableConstructor {
    const fs = this.fs;
    const ls = this.ls;
    const line = ls.line;
    const startLine = ls.tokLine;
    const startCol = ls.tokCol;
    let pc: number;
    if (this.consProto === null) {
      pc = fs.codeABC(OP.NEWTABLE, 0, 0, 0);
      t.init(Exp.RELOCABLE, pc, LuaType.TABLE);
    } else {
      const p = this.consProto;
      pc = fs.codeABC(OP.NEWSTRUCT, 0, 0, 0);
      fs.codeABx(OP.DATA, 0, p.id);
      t.init(Exp.RELOCABLE, pc, LuaType.STRUCT);
      t.proto = p;
      this.consProto = null;
    }
    const cc: ConsControl = { v: new ExpDesc(), t, nh: 0, na: 0, tostore: 0, proto: t.proto };
    fs.exp2nextreg(t);
    this.checkNext(0x7b);
    const fields: A.TableField[] = [];
    do {
      if (ls.tok === 0x7d) break;
      this.closeListField(cc);
      switch (ls.tok) {
        case Tok.NAME:
          if (ls.lookahead() !== 0x3d) fields.push(this.listField(cc));
          else fields.push(this.recField(cc));
          break;
        case 0x5b:
          fields.push(this.recField(cc));
          break;
        default:
          fields.push(this.listField(cc));
      }
    } while (this.testNext(0x2c) || this.testNext(0x3b));
    this.checkMatch(0x7d, 0x7b, line);
    this.lastListField(cc);
    fs.setInstr(pc, setNewTableSizes(fs.instr(pc), int2fb(cc.na), int2fb(cc.nh)));
    return this.ast ? { type: 'TableConstructor', fields, line: startLine, column: startCol, endLine: this.ls.prevEndLine, endColumn: this.ls.prevEndCol } : (NO_NODE as never);
  }

  private hmake(t: ExpDesc): A.HmakeExpression {
    const ls = this.ls;
    const line = ls.tokLine;
    const column = ls.tokCol;
    ls.advance(); // hmake
    const structure = this.identifier();
    const p = this.ctx.structs.get(structure.name);
    if (!p) this.fs.semError(`Attempt to reference an undefined structure '${structure.name}'.`);
    this.consProto = p;
    const table = this.constructor_(t);
    return this.ast ? { type: 'HmakeExpression', structure, table, line: line, column: column, endLine: this.ls.prevEndLine, endColumn: this.ls.prevEndCol } : (NO_NODE as never);
  }

  private explist1(v: ExpDesc, nodes: A.Expression[]): number {
    let n = 1;
    nodes.push(this.expr(v));
    while (this.testNext(0x2c)) {
      this.fs.exp2nextreg(v);
      this.applyConstraint(v);
      this.pushExpTyping(v);
      nodes.push(this.expr(v));
      n++;
    }
    return n;
  }

  private explist1NoTyping(v: ExpDesc, nodes: A.Expression[]): number {
    this.pushExpList();
    const n = this.explist1(v, nodes);
    this.popExpList();
    return n;
  }

  /** Arguments of a call; `f` holds the function (in a register). */
  private funcArgs(f: ExpDesc): { args: A.Expression[]; style: A.CallArgumentStyle } {
    const fs = this.fs;
    const ls = this.ls;
    const args = new ExpDesc();
    const nodes: A.Expression[] = [];
    let style: A.CallArgumentStyle;
    const line = ls.line;
    switch (ls.tok) {
      case 0x28: {
        if (line !== ls.lastLine) throw ls.syntaxError('ambiguous syntax (function call x new statement)');
        ls.advance();
        if ((ls.tok as number) === 0x29) args.k = Exp.VOID;
        else {
          this.explist1NoTyping(args, nodes);
          fs.setMultRet(args);
        }
        this.checkMatch(0x29, 0x28, line);
        style = 'parens';
        break;
      }
      case 0x7b:
        nodes.push(this.constructor_(args));
        style = 'table';
        break;
      case Tok.STRING: {
        const sl = ls.tokLine;
        const sc = ls.tokCol;
        const value = ls.val as string;
        const raw = ls.tokenSource();
        args.init(Exp.K, fs.stringK(value), LuaType.STRING);
        ls.advance();
        nodes.push(this.ast ? { type: 'StringLiteral', value, raw, line: sl, column: sc, endLine: this.ls.prevEndLine, endColumn: this.ls.prevEndCol } : (NO_NODE as never));
        style = 'string';
        break;
      }
      default:
        throw ls.syntaxError('function arguments expected');
    }
    const base = f.info;
    let nparams: number;
    if (hasMultRet(args.k)) nparams = LUA_MULTRET;
    else {
      if (args.k !== Exp.VOID) fs.exp2nextreg(args);
      nparams = fs.freeReg - (base + 1);
    }
    const op = f.type === LuaType.IFUNCTION ? OP.CALL_I : f.type === LuaType.CFUNCTION ? OP.CALL_C : OP.CALL;
    f.init(Exp.CALL, fs.codeABC(op, base, nparams + 1, 2));
    fs.fixLine(line);
    fs.freeReg = base + 1;
    return { args: nodes, style };
  }

  private prefixExp(v: ExpDesc): A.Expression {
    const ls = this.ls;
    const sl = ls.tokLine;
    const sc = ls.tokCol;
    switch (ls.tok) {
      case 0x28: {
        const line = ls.line;
        ls.advance();
        const inner = this.expr(v);
        this.checkMatch(0x29, 0x28, line);
        this.fs.dischargeVars(v);
        return this.ast ? { type: 'ParenExpression', expression: inner, line: sl, column: sc, endLine: this.ls.prevEndLine, endColumn: this.ls.prevEndCol } : (NO_NODE as never);
      }
      case Tok.NAME: {
        const name = this.singleVar(v);
        return this.ast ? { type: 'NameExpression', name, line: sl, column: sc, endLine: this.ls.prevEndLine, endColumn: this.ls.prevEndCol } : (NO_NODE as never);
      }
      default:
        throw ls.syntaxError('unexpected symbol');
    }
  }

  private primaryExp(v: ExpDesc): A.Expression {
    const fs = this.fs;
    const ls = this.ls;
    const sl = ls.tokLine;
    const sc = ls.tokCol;
    let node = this.prefixExp(v);
    for (;;) {
      switch (ls.tok) {
        case 0x2e: {
          const property = this.field(v, NAMEPART_NONE);
          node = this.ast ? { type: 'MemberExpression', object: node, property, line: sl, column: sc, endLine: this.ls.prevEndLine, endColumn: this.ls.prevEndCol } : (NO_NODE as never);
          break;
        }
        case 0x5b: {
          const key = new ExpDesc();
          fs.exp2anyreg(v);
          const index = this.yindex(key);
          fs.indexed(v, key);
          node = this.ast ? { type: 'IndexExpression', object: node, index, line: sl, column: sc, endLine: this.ls.prevEndLine, endColumn: this.ls.prevEndCol } : (NO_NODE as never);
          break;
        }
        case 0x3a: {
          const key = new ExpDesc();
          ls.advance();
          const method = this.identifier();
          key.init(Exp.K, fs.stringK(method.name), LuaType.STRING);
          fs.self(v, key);
          const { args, style } = this.funcArgs(v);
          node = this.ast ? { type: 'MethodCallExpression', receiver: node, method, args, argStyle: style, line: sl, column: sc, endLine: this.ls.prevEndLine, endColumn: this.ls.prevEndCol } : (NO_NODE as never);
          break;
        }
        case 0x28:
        case Tok.STRING:
        case 0x7b: {
          fs.exp2nextreg(v);
          const { args, style } = this.funcArgs(v);
          node = this.ast ? { type: 'CallExpression', callee: node, args, argStyle: style, line: sl, column: sc, endLine: this.ls.prevEndLine, endColumn: this.ls.prevEndCol } : (NO_NODE as never);
          break;
        }
        default:
          return node;
      }
    }
  }

  private simpleExp(v: ExpDesc): A.Expression {
    const fs = this.fs;
    const ls = this.ls;
    const sl = ls.tokLine;
    const sc = ls.tokCol;
    let node: A.Expression;
    switch (ls.tok) {
      case Tok.NUMBER: {
        const value = ls.val as number;
        v.init(Exp.KNUM, 0, LuaType.NUMBER);
        v.nval = this.ctx.num(value);
        node = this.ast ? { type: 'NumberLiteral', value, raw: ls.tokenSource(), line: sl, column: sc } : (NO_NODE as never);
        break;
      }
      case Tok.LITERALLUD: {
        const value = ls.val as bigint;
        v.init(Exp.K, fs.lightUserdataK(value & 0xffffffffffffffffn), LuaType.LIGHTUSERDATA);
        node = this.ast ? { type: 'LightUserdataLiteral', value, raw: ls.tokenSource(), line: sl, column: sc } : (NO_NODE as never);
        break;
      }
      case Tok.LITERALUI64: {
        const value = ls.val as bigint;
        v.init(Exp.K, fs.ui64K(value), LuaType.UI64);
        node = this.ast ? { type: 'Ui64Literal', value, raw: ls.tokenSource(), line: sl, column: sc } : (NO_NODE as never);
        break;
      }
      case Tok.STRING: {
        const value = ls.val as string;
        v.init(Exp.K, fs.stringK(value), LuaType.STRING);
        node = this.ast ? { type: 'StringLiteral', value, raw: ls.tokenSource(), line: sl, column: sc } : (NO_NODE as never);
        break;
      }
      case Tok.NIL:
        v.init(Exp.NIL, 0, LuaType.NIL);
        node = this.ast ? { type: 'NilLiteral', line: sl, column: sc } : (NO_NODE as never);
        break;
      case Tok.TRUE:
        v.init(Exp.TRUE, 0, LuaType.BOOLEAN);
        node = this.ast ? { type: 'BooleanLiteral', value: true, line: sl, column: sc } : (NO_NODE as never);
        break;
      case Tok.FALSE:
        v.init(Exp.FALSE, 0, LuaType.BOOLEAN);
        node = this.ast ? { type: 'BooleanLiteral', value: false, line: sl, column: sc } : (NO_NODE as never);
        break;
      case Tok.DOTS:
        if (!fs.varargFlags) throw ls.syntaxError("cannot use '...' outside a vararg function");
        fs.varargFlags &= ~VARARG_NEEDSARG;
        v.init(Exp.VARARG, fs.codeABC(OP.VARARG, 0, 1, 0));
        node = this.ast ? { type: 'VarargLiteral', line: sl, column: sc } : (NO_NODE as never);
        break;
      case Tok.HMAKE:
        return this.hmake(v);
      case 0x7b:
        return this.constructor_(v);
      case Tok.FUNCTION:
        ls.advance();
        return this.body(v, false, ls.line, sl, sc);
      default:
        return this.primaryExp(v);
    }
    ls.advance();
    if (this.ast) {
      node.endLine = ls.prevEndLine;
      node.endColumn = ls.prevEndCol;
    }
    return node;
  }

  /** The first operator `subExpr` left untreated (hksc's return value). */
  private pendingOp = NO_BINOP;

  private subExpr(v: ExpDesc, limit: number): A.Expression {
    const ls = this.ls;
    const fs = this.fs;
    const sl = ls.tokLine;
    const sc = ls.tokCol;
    this.enterLevel();
    let node: A.Expression;
    const uop = ls.tok === Tok.NOT ? UnaryOp.NOT : ls.tok === 0x2d ? UnaryOp.MINUS : ls.tok === 0x23 ? UnaryOp.LEN : -1;
    if (uop >= 0) {
      ls.advance();
      const argument = this.subExpr(v, UNARY_PRIORITY);
      fs.prefix(uop as UnaryOp, v);
      node = this.ast ? { type: 'UnaryExpression', operator: uop === UnaryOp.NOT ? 'not' : uop === UnaryOp.MINUS ? '-' : '#', argument, line: sl, column: sc, endLine: this.ls.prevEndLine, endColumn: this.ls.prevEndCol } : (NO_NODE as never);
    } else node = this.simpleExp(v);
    let op = binaryOpOf(ls.tok);
    while (op !== NO_BINOP && PRIORITY_LEFT[op]! > limit) {
      const v2 = new ExpDesc();
      ls.advance();
      fs.infix(op as BinaryOp, v);
      const right = this.subExpr(v2, PRIORITY_RIGHT[op]!);
      const nextOp = this.pendingOp;
      fs.posfix(op as BinaryOp, v, v2);
      node = this.ast ? { type: 'BinaryExpression', operator: BINARY_TEXT[op]!, left: node, right, line: sl, column: sc, endLine: this.ls.prevEndLine, endColumn: this.ls.prevEndCol } : (NO_NODE as never);
      op = nextOp;
    }
    this.nCcalls--;
    this.pendingOp = op;
    return node;
  }

  private expr(v: ExpDesc): A.Expression {
    return this.subExpr(v, 0);
  }

  // -------------------------------------------------------------------------------------------------------------
  // Statements

  private checkConflict(lh: Lhs | null, v: ExpDesc): void {
    const fs = this.fs;
    const extra = fs.freeReg;
    let conflict = false;
    for (; lh; lh = lh.prev) {
      if (lh.v.k === Exp.INDEXED) {
        if (lh.v.info === v.info) {
          conflict = true;
          lh.v.info = extra;
        }
        if (lh.v.aux === v.info) {
          conflict = true;
          lh.v.aux = extra;
        }
      } else if (lh.v.k === Exp.SLOT) {
        if (lh.v.info === v.info) {
          conflict = true;
          lh.v.info = extra;
        }
      }
    }
    if (conflict) {
      fs.codeABC(OP.MOVE, fs.freeReg, v.info, 0);
      fs.reserveRegs(1);
    }
  }

  private assignment(lh: Lhs, nvars: number, targets: A.AssignmentTarget[], values: A.Expression[]): void {
    const ls = this.ls;
    const fs = this.fs;
    const e = new ExpDesc();
    if (!(Exp.LOCAL <= lh.v.k && lh.v.k <= Exp.INDEXED)) throw ls.syntaxError('syntax error (non-variable on the left hand side of an assignment)');
    if (this.testNext(0x2c)) {
      const nv: Lhs = { prev: lh, v: new ExpDesc() };
      targets.push(this.primaryExp(nv.v) as A.AssignmentTarget);
      if (nv.v.k === Exp.LOCAL) this.checkConflict(lh, nv.v);
      fs.checkLimit(nvars, MAX_C_CALLS - this.nCcalls, 'variables in assignment');
      this.assignment(nv, nvars + 1, targets, values);
    } else {
      this.checkNext(0x3d);
      this.pushExpList();
      const nexps = this.explist1(e, values);
      if (nexps !== nvars) {
        const filled = this.adjustAssign(nvars, nexps, e);
        this.pushExpTyping(e);
        if (nexps > nvars) {
          const extra = nexps - nvars;
          fs.freeReg -= extra;
          const types = this.topExpList().types;
          types.length -= extra;
        } else {
          const filledType = filled ? LuaType.NIL : LuaType.NONE;
          for (let n = nexps; n < nvars; n++) this.topExpList().types.push(typeInfo(filledType, null, filledType !== LuaType.NONE));
        }
      } else {
        fs.setOneRet(e);
        fs.storeVar(lh.v, e);
        if (nvars === 1) this.popExpList();
        return;
      }
    }
    e.init(Exp.NONRELOC, fs.freeReg - 1);
    this.popExpTyping(e);
    fs.storeVar(lh.v, e);
    if (nvars === 1) this.popExpList();
  }

  /** A condition: the false-exit jump list. */
  private cond(): { list: number; node: A.Expression } {
    const v = new ExpDesc();
    const node = this.expr(v);
    if (v.k === Exp.NIL) v.k = Exp.FALSE;
    this.fs.goIfTrue(v);
    return { list: v.f, node };
  }

  private breakStat(): void {
    const fs = this.fs;
    let bl = fs.bl;
    let upval = false;
    while (bl && !bl.isBreakable) {
      upval ||= bl.upval;
      bl = bl.previous;
    }
    if (!bl) throw this.ls.inputError('Break instruction not allowed: no enclosing loop to break.');
    if (upval) fs.codeABC(OP.CLOSE, bl.nactvar, 0, 0);
    bl.breakList = fs.concat(bl.breakList, fs.jump());
  }

  private whileStat(line: number, sl: number, sc: number): A.WhileStatement {
    const fs = this.fs;
    this.ls.advance();
    const whileInit = fs.getLabel();
    const c = this.cond();
    const bl = this.newBlock();
    this.enterBlock(bl, true);
    this.checkNext(Tok.DO);
    const body = this.block();
    fs.patchList(fs.jump(), whileInit);
    fs.fixLine(line);
    this.checkMatch(Tok.END, Tok.WHILE, line);
    this.leaveBlock();
    fs.patchToHere(c.list);
    return this.ast ? { type: 'WhileStatement', condition: c.node, body, line: sl, column: sc, endLine: this.ls.prevEndLine, endColumn: this.ls.prevEndCol } : (NO_NODE as never);
  }

  private repeatStat(line: number, sl: number, sc: number): A.RepeatStatement {
    const fs = this.fs;
    const repeatInit = fs.getLabel();
    const bl1 = this.newBlock();
    const bl2 = this.newBlock();
    this.enterBlock(bl1, true);
    this.enterBlock(bl2, false);
    this.ls.advance();
    const body = this.chunk();
    this.checkMatch(Tok.UNTIL, Tok.REPEAT, line);
    const c = this.cond();
    if (!bl2.upval) {
      this.leaveBlock();
      fs.patchList(c.list, repeatInit);
    } else {
      this.breakStat();
      fs.patchToHere(c.list);
      this.leaveBlock();
      fs.patchList(fs.jump(), repeatInit);
    }
    this.leaveBlock();
    return this.ast ? { type: 'RepeatStatement', body, condition: c.node, line: sl, column: sc, endLine: this.ls.prevEndLine, endColumn: this.ls.prevEndCol } : (NO_NODE as never);
  }

  private exp1(): A.Expression {
    const e = new ExpDesc();
    const node = this.expr(e);
    this.fs.exp2nextreg(e);
    return node;
  }

  private forBody(base: number, line: number, nvars: number, isNum: boolean): A.Block {
    const fs = this.fs;
    this.adjustLocalVars(3);
    this.checkNext(Tok.DO);
    const prep = isNum ? fs.codeAsBx(OP.FORPREP, base, NO_JUMP) : fs.jump();
    const bl = this.newBlock();
    this.enterBlock(bl, false);
    this.adjustLocalVars(nvars);
    fs.reserveRegs(nvars);
    for (let i = 0; i < nvars; i++) {
      const reg = fs.nactvar - i - 1;
      fs.checkType(fs.localTypes[reg]!, reg);
    }
    const body = this.block();
    this.leaveBlock();
    fs.patchToHere(prep);
    const endFor = isNum ? fs.codeAsBx(OP.FORLOOP, base, NO_JUMP) : fs.codeABC(OP.TFORLOOP, base, 0, nvars);
    fs.fixLine(line);
    fs.patchList(isNum ? endFor : fs.jump(), prep + 1);
    return body;
  }

  private forNum(d: Declared, line: number, sl: number, sc: number): A.NumericForStatement {
    const fs = this.fs;
    const base = fs.freeReg;
    this.newLocalVar('(for index)', 0, LuaType.NUMBER);
    this.newLocalVar('(for limit)', 1, LuaType.NUMBER);
    this.newLocalVar('(for step)', 2, LuaType.NUMBER);
    if (d.typeName !== null) {
      const t = this.parseType(d.typeName);
      if (t.type !== LuaType.NONE && t.type !== LuaType.NUMBER) throw this.ls.syntaxError(`Only 'number' is allowed as a type for numeric FOR iterator. Got '${d.typeName}'`);
      this.newLocalVar(d.name, 3, t.type);
    } else this.newLocalVar(d.name, 3);
    this.checkNext(0x3d);
    const start = this.exp1();
    this.checkNext(0x2c);
    const limit = this.exp1();
    let step: A.Expression | undefined;
    if (this.testNext(0x2c)) step = this.exp1();
    else {
      fs.codeABx(OP.LOADK, fs.freeReg, fs.numberK(this.ctx.num(1)));
      fs.reserveRegs(1);
    }
    const body = this.forBody(base, line, 1, true);
    const node: A.NumericForStatement = this.ast ? { type: 'NumericForStatement', variable: d.node, start, limit, body, line: sl, column: sc } : (NO_NODE as never);
    if (step && this.ast) node.step = step;
    return node;
  }

  private forList(first: Declared, sl: number, sc: number): A.GenericForStatement {
    const fs = this.fs;
    const ls = this.ls;
    const base = fs.freeReg;
    let nvars = 0;
    const variables: A.LocalVariable[] = [first.node];
    this.newLocalVar('(for generator)', nvars++);
    this.newLocalVar('(for state)', nvars++);
    this.newLocalVar('(for control)', nvars++);
    if (first.typeName !== null) this.typedLocalVar(first.name, first.typeName, nvars++);
    else this.newLocalVar(first.name, nvars++);
    while (this.testNext(0x2c)) variables.push(this.declareVariable(nvars++));
    this.checkNext(Tok.IN);
    const line = ls.line;
    this.pushExpList();
    const e = new ExpDesc();
    const iterators: A.Expression[] = [];
    this.adjustAssign(3, this.explist1(e, iterators), e);
    this.popExpList();
    fs.checkStack(3);
    const body = this.forBody(base, line, nvars - 3, false);
    return this.ast ? { type: 'GenericForStatement', variables, iterators, body, line: sl, column: sc } : (NO_NODE as never);
  }

  private forStat(line: number, sl: number, sc: number): A.NumericForStatement | A.GenericForStatement {
    const ls = this.ls;
    const bl = this.newBlock();
    this.enterBlock(bl, true);
    ls.advance(); // for
    this.peekName();
    let d: Declared;
    if (ls.lookahead() === 0x3a) {
      d = this.declaredName();
      ls.advance(); // ':'
      this.annotate(d, this.annotation());
    } else d = this.declaredName();
    let node: A.NumericForStatement | A.GenericForStatement;
    switch (ls.tok) {
      case 0x3d:
        node = this.forNum(d, line, sl, sc);
        break;
      case 0x2c:
      case Tok.IN:
        node = this.forList(d, sl, sc);
        break;
      default:
        throw ls.syntaxError("'=' or 'in' expected");
    }
    this.checkMatch(Tok.END, Tok.FOR, line);
    this.leaveBlock();
    if (this.ast) {
      node.endLine = ls.prevEndLine;
      node.endColumn = ls.prevEndCol;
    }
    return node;
  }

  private testThenBlock(): { list: number; clause: A.IfClause } {
    const ls = this.ls;
    const sl = ls.tokLine;
    const sc = ls.tokCol;
    ls.advance(); // if / elseif
    const c = this.cond();
    this.checkNext(Tok.THEN);
    const body = this.block();
    return { list: c.list, clause: { type: 'IfClause', condition: c.node, body, line: sl, column: sc, endLine: this.ls.prevEndLine, endColumn: this.ls.prevEndCol } };
  }

  private ifStat(line: number, sl: number, sc: number): A.IfStatement {
    const fs = this.fs;
    const ls = this.ls;
    let escapeList = NO_JUMP;
    let r = this.testThenBlock();
    let flist = r.list;
    const clauses = [r.clause];
    while (ls.tok === Tok.ELSEIF) {
      escapeList = fs.concat(escapeList, fs.jump());
      fs.patchToHere(flist);
      r = this.testThenBlock();
      flist = r.list;
      clauses.push(r.clause);
    }
    let orelse: A.Block | undefined;
    if (ls.tok === Tok.ELSE) {
      escapeList = fs.concat(escapeList, fs.jump());
      fs.patchToHere(flist);
      ls.advance();
      orelse = this.block();
    } else escapeList = fs.concat(escapeList, flist);
    fs.patchToHere(escapeList);
    this.checkMatch(Tok.END, Tok.IF, line);
    const node: A.IfStatement = this.ast ? { type: 'IfStatement', clauses, line: sl, column: sc, endLine: this.ls.prevEndLine, endColumn: this.ls.prevEndCol } : (NO_NODE as never);
    if (orelse && this.ast) node.orelse = orelse;
    return node;
  }

  /** `local function name body`; the function node starts at the `function` keyword (fl, fc). */
  private localFunc(sl: number, sc: number, fl: number, fc: number): A.LocalFunctionStatement {
    const fs = this.fs;
    const ls = this.ls;
    const b = new ExpDesc();
    const d = this.declaredName();
    this.newLocalVar(d.name, 0);
    this.addNamePart(d.name, NAMEPART_NAME);
    const v = new ExpDesc().init(Exp.LOCAL, fs.freeReg, LuaType.IFUNCTION);
    fs.reserveRegs(1);
    this.adjustLocalVars(1);
    const func = this.body(b, false, ls.line, fl, fc);
    fs.storeVar(v, b);
    fs.locals[fs.actvar[fs.nactvar - 1]!]!.startPc = fs.pc;
    return this.ast ? { type: 'LocalFunctionStatement', name: d.node, func, line: sl, column: sc, endLine: this.ls.prevEndLine, endColumn: this.ls.prevEndCol } : (NO_NODE as never);
  }

  private localStat(sl: number, sc: number): A.LocalStatement {
    const fs = this.fs;
    const ls = this.ls;
    let nvars = 0;
    let nexps: number;
    let seenTyped = false;
    const e = new ExpDesc();
    const names: A.LocalVariable[] = [];
    fs.lhsTypes.length = 0;
    do {
      this.peekName();
      let t: TypeInfo;
      if (ls.lookahead() === 0x3a) {
        const d = this.declaredName();
        ls.advance(); // ':'
        const tl = ls.tokLine;
        const tc = ls.tokCol;
        const typeName = this.peekName();
        t = this.parseType(typeName);
        ls.advance();
        this.annotate(d, { type: 'TypeAnnotation', name: typeName, line: tl, column: tc, endLine: this.ls.prevEndLine, endColumn: this.ls.prevEndCol });
        this.newLocalVar(d.name, nvars, t.type, t.proto);
        names.push(d.node);
      } else {
        const d = this.declaredName();
        this.newLocalVar(d.name, nvars);
        names.push(d.node);
        t = typeInfo(LuaType.NONE, null, false);
      }
      seenTyped ||= t.isStatic;
      fs.lhsTypes.push(t);
      nvars++;
    } while (this.testNext(0x2c));
    const values: A.Expression[] = [];
    if (this.testNext(0x3d)) {
      const l = this.pushExpList();
      if (seenTyped) {
        for (let i = fs.lhsTypes.length - 1; i >= 0; i--) l.constraints.push(fs.lhsTypes[i]!);
        l.hasConstraints = true;
      }
      nexps = this.explist1(e, values);
    } else {
      e.k = Exp.VOID;
      nexps = 0;
    }
    this.adjustAssign(nvars, nexps, e);
    this.adjustLocalVars(nvars);
    fs.lhsTypes.length = 0;
    if (nexps) this.popExpList();
    return this.ast ? { type: 'LocalStatement', names, values, line: sl, column: sc, endLine: this.ls.prevEndLine, endColumn: this.ls.prevEndCol } : (NO_NODE as never);
  }

  private funcStat(line: number, sl: number, sc: number): A.FunctionStatement {
    const ls = this.ls;
    const v = new ExpDesc();
    const b = new ExpDesc();
    ls.advance(); // function
    const nl = ls.tokLine;
    const nc = ls.tokCol;
    const name = this.singleVar(v);
    this.addNamePart(name, NAMEPART_NAME);
    let target: A.NameExpression | A.MemberExpression = this.ast ? { type: 'NameExpression', name, line: nl, column: nc, endLine: this.ls.prevEndLine, endColumn: this.ls.prevEndCol } : (NO_NODE as never);
    let isMethod = false;
    while (ls.tok === 0x2e) {
      const property = this.field(v, NAMEPART_FIELD);
      target = this.ast ? { type: 'MemberExpression', object: target, property, line: nl, column: nc, endLine: this.ls.prevEndLine, endColumn: this.ls.prevEndCol } : (NO_NODE as never);
    }
    if (ls.tok === 0x3a) {
      isMethod = true;
      const property = this.field(v, NAMEPART_SELF);
      target = this.ast ? { type: 'MemberExpression', object: target, property, line: nl, column: nc, endLine: this.ls.prevEndLine, endColumn: this.ls.prevEndCol } : (NO_NODE as never);
    }
    const func = this.body(b, isMethod, line, sl, sc);
    this.fs.storeVar(v, b);
    this.fs.fixLine(line);
    return this.ast ? { type: 'FunctionStatement', target, isMethod, func, line: sl, column: sc, endLine: this.ls.prevEndLine, endColumn: this.ls.prevEndCol } : (NO_NODE as never);
  }

  private structStat(sl: number, sc: number): A.StructureStatement {
    const ls = this.ls;
    const fs = this.fs;
    const name = this.identifier();
    if (TYPE_NAMES.includes(name.name)) fs.semError(`Cannot use '${name.name}' as a structure name`);
    const p = newStructProto(name.name);
    const items: A.StructureItem[] = [];
    let seenRegularSlot = false;
    while (ls.tok !== Tok.END) {
      if (this.testNext(0x3b)) continue;
      const il = ls.tokLine;
      const ic = ls.tokCol;
      const slot = this.identifier();
      if (slot.name === 'proxytable') {
        if (seenRegularSlot) fs.semError('proxytable/meta definition must be at the start of the struct.');
        if (p.hasProxy) fs.semError("Duplicate 'proxytable' slot definition.");
        p.hasProxy = true;
        items.push(this.ast ? { type: 'StructureProxyTable', line: il, column: ic, endLine: this.ls.prevEndLine, endColumn: this.ls.prevEndCol } : (NO_NODE as never));
      } else if (slot.name === 'meta') {
        if (seenRegularSlot) fs.semError('proxytable/meta definition must be at the start of the struct.');
        this.checkNext(0x3a);
        const tl = ls.tokLine;
        const tc = ls.tokCol;
        const typeName = this.peekName();
        this.addStructMeta(p, typeName);
        ls.advance();
        const annotation: A.TypeAnnotation = this.ast ? { type: 'TypeAnnotation', name: typeName, line: tl, column: tc, endLine: this.ls.prevEndLine, endColumn: this.ls.prevEndCol } : (NO_NODE as never);
        items.push(this.ast ? { type: 'StructureMeta', annotation, line: il, column: ic, endLine: this.ls.prevEndLine, endColumn: this.ls.prevEndCol } : (NO_NODE as never));
      } else {
        seenRegularSlot = true;
        this.checkNext(0x3a);
        const tl = ls.tokLine;
        const tc = ls.tokCol;
        const typeName = this.peekName();
        this.addStructSlot(p, slot.name, typeName);
        ls.advance();
        const annotation: A.TypeAnnotation = this.ast ? { type: 'TypeAnnotation', name: typeName, line: tl, column: tc, endLine: this.ls.prevEndLine, endColumn: this.ls.prevEndCol } : (NO_NODE as never);
        items.push(this.ast ? { type: 'StructureSlot', name: slot, annotation, line: il, column: ic, endLine: this.ls.prevEndLine, endColumn: this.ls.prevEndCol } : (NO_NODE as never));
      }
    }
    if (p.slots.length === NUM_RESERVED_SLOTS && !p.hasMeta && !p.hasProxy) fs.semError('Empty structure definitions are not allowed.');
    const existing = this.ctx.structs.get(p.name);
    if (existing) {
      if (!sameStructProto(p, existing)) fs.semError(`Structure '${p.name}' already has a different definition.`);
    } else {
      if (this.ctx.structs.list.length + 1 >= MAX_STRUCTS) fs.semError('Cannot define another structure in this VM: too many structure prototypes.');
      this.ctx.structs.add(p);
    }
    ls.advance(); // end
    return this.ast ? { type: 'StructureStatement', name, items, line: sl, column: sc, endLine: this.ls.prevEndLine, endColumn: this.ls.prevEndCol } : (NO_NODE as never);
  }

  private addStructMeta(p: StructProto, typeName: string): void {
    const fs = this.fs;
    if (p.hasMeta) fs.semError("Duplicate 'meta' slot definition.");
    let metaType = typeIdOfName(typeName);
    let metaProto: StructProto | null = null;
    if (metaType === STRUCTURE_TYPE) {
      metaType = LuaType.STRUCT;
      metaProto = this.ctx.structs.get(typeName) ?? null;
      if (!metaProto) {
        if (typeName === p.name) metaProto = p;
        else fs.semError(`Undefined structure type '${typeName}' in slot definition.`);
      }
    } else if (metaType === LuaType.ANY) metaType = LuaType.NIL;
    else if (metaType !== LuaType.TABLE) fs.semError(`Invalid type name '${typeName}' for meta slot. Must be a object/table/structure name.`);
    p.hasMeta = true;
    const metaSlot = p.slots[SLOT_INDEX_META]!;
    metaSlot.typeId = metaType;
    metaSlot.structId = metaProto ? metaProto.id : 0;
  }

  private addStructSlot(p: StructProto, slotName: string, typeName: string): void {
    const fs = this.fs;
    if (p.slots.some((s) => s.name === slotName)) fs.semError('Duplicate slot name.');
    if (p.slots.length >= MAX_STRUCT_SLOTS) fs.semError('Too many slots in the structure. Cannot add any more.');
    let type = typeIdOfName(typeName);
    if (type === LuaType.STRUCT) fs.semError("Cannot use 'struct' as a type name. Must be a structure name.");
    if (type === LuaType.UI64) fs.semError('Unable to store UI64 values in a structure.');
    if (type === STRUCTURE_TYPE) {
      let slotProto = this.ctx.structs.get(typeName);
      if (!slotProto) {
        if (typeName === p.name) slotProto = p;
        else fs.semError(`Undefined structure type '${typeName}' in slot definition.`);
      }
      addSlot(p, slotName, LuaType.STRUCT, slotProto!.id);
    } else {
      if (type === LuaType.ANY) type = LuaType.NIL;
      addSlot(p, slotName, type, -1);
    }
  }

  private exprStat(sl: number, sc: number): A.CallStatement | A.AssignmentStatement {
    const fs = this.fs;
    const v: Lhs = { prev: null, v: new ExpDesc() };
    const target = this.primaryExp(v.v);
    if (v.v.k === Exp.CALL) {
      fs.setInstr(v.v.info, setCField(fs.instr(v.v.info), 1));
      return this.ast ? { type: 'CallStatement', call: target as A.CallExpression | A.MethodCallExpression, line: sl, column: sc, endLine: this.ls.prevEndLine, endColumn: this.ls.prevEndCol } : (NO_NODE as never);
    }
    const targets: A.AssignmentTarget[] = [target as A.AssignmentTarget];
    const values: A.Expression[] = [];
    this.assignment(v, 1, targets, values);
    return this.ast ? { type: 'AssignmentStatement', targets, values, line: sl, column: sc, endLine: this.ls.prevEndLine, endColumn: this.ls.prevEndCol } : (NO_NODE as never);
  }

  private retStat(sl: number, sc: number): A.ReturnStatement {
    const fs = this.fs;
    const ls = this.ls;
    const e = new ExpDesc();
    const values: A.Expression[] = [];
    let first: number;
    let nret: number;
    ls.advance(); // return
    if (blockFollow(ls.tok) || ls.tok === 0x3b) first = nret = 0;
    else {
      nret = this.explist1NoTyping(e, values);
      if (hasMultRet(e.k)) {
        fs.setMultRet(e);
        if (e.k === Exp.CALL && nret === 1) fs.setInstr(e.info, setOpcode(fs.instr(e.info), OP.TAILCALL));
        first = fs.nactvar;
        nret = LUA_MULTRET;
      } else if (nret === 1) first = fs.exp2anyreg(e);
      else {
        fs.exp2nextreg(e);
        first = fs.nactvar;
      }
    }
    fs.ret(first, nret);
    return this.ast ? { type: 'ReturnStatement', values, line: sl, column: sc, endLine: this.ls.prevEndLine, endColumn: this.ls.prevEndCol } : (NO_NODE as never);
  }

  /** One statement (a return or break must be the last of its block). */
  private statement(): A.Statement {
    const ls = this.ls;
    const line = ls.line;
    const sl = ls.tokLine;
    const sc = ls.tokCol;
    switch (ls.tok) {
      case Tok.IF:
        return this.ifStat(line, sl, sc);
      case Tok.WHILE:
        return this.whileStat(line, sl, sc);
      case Tok.DO: {
        ls.advance();
        const body = this.block();
        this.checkMatch(Tok.END, Tok.DO, line);
        return this.ast ? { type: 'DoStatement', body, line: sl, column: sc, endLine: this.ls.prevEndLine, endColumn: this.ls.prevEndCol } : (NO_NODE as never);
      }
      case Tok.FOR:
        return this.forStat(line, sl, sc);
      case Tok.REPEAT:
        return this.repeatStat(line, sl, sc);
      case Tok.FUNCTION:
        return this.funcStat(line, sl, sc);
      case Tok.LOCAL: {
        ls.advance();
        const fl = ls.tokLine;
        const fc = ls.tokCol;
        if (this.testNext(Tok.FUNCTION)) return this.localFunc(sl, sc, fl, fc);
        return this.localStat(sl, sc);
      }
      case Tok.RETURN:
        return this.retStat(sl, sc);
      case Tok.BREAK:
        ls.advance();
        this.breakStat();
        return this.ast ? { type: 'BreakStatement', line: sl, column: sc, endLine: this.ls.prevEndLine, endColumn: this.ls.prevEndCol } : (NO_NODE as never);
      case Tok.HSTRUCTURE:
        ls.advance();
        return this.structStat(sl, sc);
      default:
        return this.exprStat(sl, sc);
    }
  }
}

/** Lua's "floating point byte" (eeeeexxx) of a table size hint. */
export function int2fb(x: number): number {
  let e = 0;
  while (x >= 16) {
    x = (x + 1) >>> 1;
    e++;
  }
  return x < 8 ? x : ((e + 1) << 3) | (x - 8);
}

function setNewTableSizes(i: number, b: number, c: number): number {
  return ((i & ~((0xff << 17) | (0x1ff << 8))) | ((b & 0xff) << 17) | ((c & 0x1ff) << 8)) >>> 0;
}

function setCField(i: number, c: number): number {
  return ((i & ~(0x1ff << 8)) | ((c & 0x1ff) << 8)) >>> 0;
}

function setOpcode(i: number, op: number): number {
  return ((i & 0x1ffffff) | (op << 25)) >>> 0;
}
