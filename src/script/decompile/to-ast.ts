/**
 * The decompiler IR as the public AST (`src/script/ast.ts`), for the one printer. Positions: a node's `line`
 * comes from the instructions it was built from (0 when the function has no line info); columns are not known
 * and are 0.
 */
import type * as A from '../ast.ts';
import { isLuaName } from '../print.ts';
import type { Expr, FunctionIR, LocalVar, Stmt } from './ir.ts';

/** How numbers are spelled: the shortest text that reads back to the same float32 (or double). */
export function luaNumberText(v: number, numberSize: number): string {
  if (Object.is(v, -0)) return '-0';
  if (v === Infinity) return '1e999';
  if (v === -Infinity) return '-1e999';
  // Small integers are exact in float32 and print as they are (the common case).
  if (Number.isInteger(v) && Math.abs(v) <= 0x1000000) return String(v);
  if (numberSize === 4) {
    for (let p = 1; p <= 9; p++) {
      const t = Number(v.toPrecision(p));
      if (Math.fround(t) === v) return numeral(t);
    }
  }
  return numeral(v);
}

/** JavaScript's shortest round-trip text in a form Lua reads (`1e+21` is fine, `Infinity` is not). */
function numeral(v: number): string {
  return String(v);
}

export interface ToAstOptions {
  numberSize: number;
  /** Comments for the printer, filled while converting (unmatched / failed functions). */
  comments: Map<A.Node, string[]>;
  /** Notes per function path to attach to the function's body. */
  notes?: ReadonlyMap<string, readonly string[]>;
  /** Statements printed before the main function's body (the `hstructure` declarations). */
  prelude?: readonly A.Statement[];
}

const pos = (line: number | undefined): A.SourceSpan => ({ line: line ?? 0, column: 0 });

export class AstBuilder {
  private readonly o: ToAstOptions;
  constructor(o: ToAstOptions) {
    this.o = o;
  }

  chunk(main: FunctionIR): A.Chunk {
    const body = this.blockOf(main.body, main);
    if (this.o.prelude && this.o.prelude.length > 0) body.body.unshift(...this.o.prelude);
    return { type: 'Chunk', body, line: 0, column: 0 };
  }

  private blockOf(stmts: Stmt[], fn?: FunctionIR): A.Block {
    const body: A.Statement[] = [];
    for (const s of stmts) {
      const st = this.stmt(s);
      if (st) body.push(st);
    }
    const b: A.Block = { type: 'Block', body, ...pos(body[0]?.line) };
    if (fn) {
      const notes = [...(fn.failure ? [`decompilation failed: ${fn.failure}`] : []), ...(this.o.notes?.get(fn.path) ?? [])];
      if (notes.length > 0) this.o.comments.set(b, notes);
    }
    return b;
  }

  private variable(v: LocalVar): A.LocalVariable {
    const n: A.LocalVariable = { type: 'LocalVariable', name: v.name, line: 0, column: 0 };
    if (v.type) n.annotation = { type: 'TypeAnnotation', name: v.type, line: 0, column: 0 };
    return n;
  }

  func(fn: FunctionIR, line?: number): A.FunctionExpression {
    const f: A.FunctionExpression = { type: 'FunctionExpression', params: fn.params.map((p) => this.variable(p)), isVararg: fn.vararg, body: this.blockOf(fn.body, fn), ...pos(line ?? fn.lineDefined) };
    if (fn.lastLineDefined !== undefined) f.endLine = fn.lastLineDefined;
    return f;
  }

  private stmt(s: Stmt): A.Statement | null {
    const at = pos(s.k === 'comment' ? undefined : s.line);
    switch (s.k) {
      case 'local':
        return { type: 'LocalStatement', names: s.vars.map((v) => this.variable(v)), values: s.exprs.map((e) => this.expr(e)), ...at };
      case 'localfunction':
        return { type: 'LocalFunctionStatement', name: this.variable(s.v), func: this.func(s.fn), ...at };
      case 'function': {
        const target = this.expr(s.target);
        if (target.type !== 'NameExpression' && target.type !== 'MemberExpression') throw new Error('function statement target');
        const func = this.func(s.fn);
        if (s.method !== undefined) func.params = func.params.slice(1);
        return { type: 'FunctionStatement', target, isMethod: s.method !== undefined, func, ...at };
      }
      case 'assign':
        return { type: 'AssignmentStatement', targets: s.targets.map((t) => this.target(t)), values: s.exprs.map((e) => this.expr(e)), ...at };
      case 'call': {
        const call = this.expr(s.call);
        if (call.type !== 'CallExpression' && call.type !== 'MethodCallExpression') throw new Error('call statement');
        return { type: 'CallStatement', call, ...at };
      }
      case 'return':
        return { type: 'ReturnStatement', values: s.exprs.map((e) => this.expr(e)), ...at };
      case 'break':
        return { type: 'BreakStatement', ...at };
      case 'do':
        return { type: 'DoStatement', body: this.blockOf(s.body), ...at };
      case 'while':
        return { type: 'WhileStatement', condition: this.expr(s.cond), body: this.blockOf(s.body), ...at };
      case 'repeat':
        return { type: 'RepeatStatement', body: this.blockOf(s.body), condition: this.expr(s.cond), ...at };
      case 'if': {
        const node: A.IfStatement = { type: 'IfStatement', clauses: s.clauses.map((c) => ({ type: 'IfClause', condition: this.expr(c.cond), body: this.blockOf(c.body), ...at })), ...at };
        if (s.orelse) node.orelse = this.blockOf(s.orelse);
        return node;
      }
      case 'fornum': {
        const node: A.NumericForStatement = { type: 'NumericForStatement', variable: this.variable(s.v), start: this.expr(s.start), limit: this.expr(s.limit), body: this.blockOf(s.body), ...at };
        if (s.step) node.step = this.expr(s.step);
        return node;
      }
      case 'forin':
        return { type: 'GenericForStatement', variables: s.vars.map((v) => this.variable(v)), iterators: s.exprs.map((e) => this.expr(e)), body: this.blockOf(s.body), ...at };
      case 'comment':
        return null;
    }
  }

  private target(e: Expr): A.AssignmentTarget {
    const t = this.expr(e);
    if (t.type !== 'NameExpression' && t.type !== 'MemberExpression' && t.type !== 'IndexExpression') throw new Error(`assignment target ${t.type}`);
    return t;
  }

  expr(e: Expr): A.Expression {
    const at = pos(e.line);
    switch (e.k) {
      case 'nil':
        return { type: 'NilLiteral', ...at };
      case 'bool':
        return { type: 'BooleanLiteral', value: e.value, ...at };
      case 'number': {
        const text = luaNumberText(e.value, this.o.numberSize);
        if (text.startsWith('-')) {
          const digits = text.slice(1);
          return { type: 'UnaryExpression', operator: '-', argument: { type: 'NumberLiteral', value: -e.value, raw: digits, ...at }, ...at };
        }
        return { type: 'NumberLiteral', value: e.value, raw: text, ...at };
      }
      case 'string':
        return { type: 'StringLiteral', value: e.value, raw: '', ...at };
      case 'lud':
        return { type: 'LightUserdataLiteral', value: e.value, raw: `0x${e.value.toString(16)}hi`, ...at };
      case 'ui64':
        return { type: 'Ui64Literal', value: e.value, raw: `0x${e.value.toString(16)}hl`, ...at };
      case 'vararg':
        return { type: 'VarargLiteral', ...at };
      case 'local':
        return { type: 'NameExpression', name: e.v.name, ...at };
      case 'upval':
        return { type: 'NameExpression', name: e.ref.name, ...at };
      case 'global':
        return { type: 'NameExpression', name: e.name, ...at };
      case 'index': {
        const object = this.expr(e.obj);
        if (e.key.k === 'string' && isLuaName(e.key.value)) return { type: 'MemberExpression', object, property: { type: 'Identifier', name: e.key.value, ...at }, ...at };
        return { type: 'IndexExpression', object, index: this.expr(e.key), ...at };
      }
      case 'call': {
        const args = e.args.map((a) => this.expr(a));
        // A call's line is its `(`, which cannot start a line; `f"…"` takes the string's line instead. A string
        // spanning lines was most likely written `f[[…]]`, whose call is on the string's last line: a chunk with
        // line info keeps that form, so the layout can put the string on that line.
        const only = e.args[0];
        const argStyle = e.line !== undefined && e.args.length === 1 && only?.k === 'string' && only.value.includes('\n') ? 'string' : 'parens';
        if (e.method !== undefined) return { type: 'MethodCallExpression', receiver: this.expr(e.fn), method: { type: 'Identifier', name: e.method, ...at }, args, argStyle, ...at };
        return { type: 'CallExpression', callee: this.expr(e.fn), args, argStyle, ...at };
      }
      case 'function':
        return this.func(e.fn, e.line);
      case 'binop':
        return { type: 'BinaryExpression', operator: e.op, left: this.expr(e.l), right: this.expr(e.r), ...at };
      case 'unop':
        return { type: 'UnaryExpression', operator: e.op, argument: this.expr(e.e), ...at };
      case 'paren':
        return { type: 'ParenExpression', expression: this.expr(e.e), ...at };
      case 'table': {
        const fields: A.TableField[] = e.items.map((it) => {
          if (it.k === 'item') return { type: 'TableArrayField', value: this.expr(it.value), ...at };
          if (it.key.k === 'string' && isLuaName(it.key.value)) return { type: 'TableNamedField', name: { type: 'Identifier', name: it.key.value, ...at }, value: this.expr(it.value), ...at };
          return { type: 'TableKeyedField', key: this.expr(it.key), value: this.expr(it.value), ...at };
        });
        const table: A.TableConstructor = { type: 'TableConstructor', fields, ...at };
        if (e.struct !== undefined) return { type: 'HmakeExpression', structure: { type: 'Identifier', name: e.struct, ...at }, table, ...at };
        return table;
      }
    }
  }
}
