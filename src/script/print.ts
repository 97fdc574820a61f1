/**
 * The one pretty-printer of the HavokScript AST (`src/script/ast.ts`): any tree, parsed or synthesized, printed as
 * source that the compiler reads back as the same tree (up to the parentheses it needs, which come back as
 * {@link ParenExpression} nodes and print the same). Nothing is decided here that changes the code a compiler
 * emits: the decompiler shapes the tree, this module only spells it.
 *
 * Layout: one statement per line, blocks indented. With `lines`, nodes are placed on the lines their positions
 * give (a statement on its `line`, a nested expression on its `line`, a closing `end` / `)` / `}` on the node's
 * `endLine`) wherever the text so far allows, so a compiler's line table for the printed text can match the one
 * the positions came from; positions that would move backwards are ignored.
 *
 * Strings are byte strings (one char per byte): bytes outside printable ASCII are written as `\ddd` escapes, so
 * the text is ASCII and its bytes are exact.
 */
import type * as A from './ast.ts';

/** Reserved words of HavokScript (Lua 5.1's plus `hstructure` and `hmake`). */
export const LUA_KEYWORDS: ReadonlySet<string> = new Set([
  'and', 'break', 'do', 'else', 'elseif', 'end', 'false', 'for', 'function', 'if', 'in', 'local', 'nil', 'not', 'or', 'repeat', 'return', 'then',
  'true', 'until', 'while', 'hstructure', 'hmake',
]);

/** True when `s` can be written as a name (`a.s`, `{ s = … }`). */
export function isLuaName(s: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(s) && !LUA_KEYWORDS.has(s);
}

/** A byte string as a Lua string literal (`"…"`, escapes for `\ " \n \r \t` and `\ddd` for other bytes). */
export function quoteLuaString(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x5c) out += '\\\\';
    else if (c === 0x22) out += '\\"';
    else if (c === 0x0a) out += '\\n';
    else if (c === 0x0d) out += '\\r';
    else if (c === 0x09) out += '\\t';
    else if (c < 0x20 || c >= 0x7f) {
      // Three digits when a digit follows, so the escape does not swallow it.
      const next = s.charCodeAt(i + 1);
      out += '\\' + (next >= 0x30 && next <= 0x39 ? String(c).padStart(3, '0') : String(c));
    } else out += s[i];
  }
  return out + '"';
}

/** Binary operator priorities (left, right), as the Lua 5.1 parser has them. */
const PRIORITY: Record<A.BinaryOperator, [number, number]> = {
  '+': [6, 6], '-': [6, 6], '*': [7, 7], '/': [7, 7], '%': [7, 7], '^': [10, 9], '..': [5, 4],
  '==': [3, 3], '~=': [3, 3], '<': [3, 3], '<=': [3, 3], '>': [3, 3], '>=': [3, 3], and: [2, 2], or: [1, 1],
};
const UNARY_PRIORITY = 8;

export interface PrintOptions {
  /** Indentation of one block level (default two spaces). */
  indent?: string;
  /** Place nodes on the lines of their positions (see the module comment). */
  lines?: boolean;
  /** Comment lines printed before a statement (without `--`). */
  comments?: ReadonlyMap<A.Node, readonly string[]>;
  /**
   * Token-level layout (instead of `lines`): token `k` (in printing order, comments not counted) goes on line
   * `tokenLines[k]` when that is below the current line.
   */
  tokenLines?: readonly (number | undefined)[];
  /** Every token on a line of its own, except a call's `(` (Lua refuses it on a new line): a layout probe. */
  explode?: boolean;
  /** With `tokenLines`: end the chunk with a `;` on this line (a token the last line info can hang on). */
  trailer?: number;
}

/** Where a token was printed: its line, whether it must stay on the previous token's line, its statement. */
export interface PrintedToken {
  line: number;
  /** A call's `(`: Lua reads it on a new line as a new statement, so it stays with the previous token. */
  glued: boolean;
  /** Index of the innermost statement the token belongs to (see {@link PrintedLayout.statements}). */
  statement: number;
}

export interface PrintedLayout {
  text: string;
  tokens: PrintedToken[];
  /** Each statement's first and last token. */
  statements: { first: number; last: number }[];
}

/** Prints a chunk, a block, a statement or an expression. */
export function printLua(node: A.Chunk | A.Block | A.Statement | A.Expression, options: PrintOptions = {}): string {
  return printLuaLayout(node, options).text;
}

/** Like {@link printLua}, also telling where every token went (for layout tools such as the decompiler's). */
export function printLuaLayout(node: A.Chunk | A.Block | A.Statement | A.Expression, options: PrintOptions = {}): PrintedLayout {
  const p = new Printer(options);
  if (node.type === 'Chunk') {
    if (node.utf8Bom) p.w.raw('\ufeff');
    p.topNotes(node.body);
    p.block(node.body.body, 0);
    if (options.trailer !== undefined && node.body.body.length > 0) {
      p.w.moveTo(options.trailer, 0, true);
      p.w.tok(';', false);
    }
  } else if (node.type === 'Block') p.block(node.body, 0);
  else if (isStatement(node)) p.block([node], 0);
  else p.expr(node, 0, 'top');
  return { text: p.w.finish(), tokens: p.w.tokens, statements: p.w.statements };
}

function isStatement(n: A.Node): n is A.Statement {
  return /Statement$/.test(n.type);
}

/** Accumulates text, tracking the line for position-driven layout. */
class Writer {
  private readonly parts: string[] = [];
  line = 1;
  private atLineStart = true;
  private last = '';
  depth = 0;
  private readonly indentText: string;
  readonly lines: boolean;
  private readonly explode: boolean;
  private readonly plan: readonly (number | undefined)[] | undefined;
  readonly tokens: PrintedToken[] = [];
  readonly statements: { first: number; last: number }[] = [];
  private readonly open: number[] = [];

  constructor(indent: string, o: PrintOptions) {
    this.indentText = indent;
    this.explode = o.explode === true;
    this.plan = o.tokenLines;
    this.lines = o.lines === true && !this.explode && this.plan === undefined;
  }

  beginStatement(): void {
    this.open.push(this.statements.length);
    this.statements.push({ first: this.tokens.length, last: this.tokens.length - 1 });
  }

  endStatement(): void {
    const id = this.open.pop()!;
    this.statements[id]!.last = this.tokens.length - 1;
  }

  /** A comment: written like a token but not counted. */
  comment(text: string): void {
    this.write(text, true);
  }

  raw(s: string): void {
    this.parts.push(s);
  }

  newline(): void {
    this.parts.push('\n');
    this.line++;
    this.atLineStart = true;
    this.last = '';
    this.pendingDepth = 0;
  }

  /** Moves down to `line` (lines mode only; never up). */
  moveTo(line: number | undefined, extraDepth = 0, force = false): void {
    if ((!this.lines && !force) || line === undefined || this.line >= line) return;
    while (this.line < line) this.newline();
    this.pendingDepth = extraDepth;
  }

  private pendingDepth = 0;

  /** The next token follows without a space (after a unary `-` / `#`). */
  tight = false;

  /** Writes a token, with a space before it when `spaced` (never right after an opening bracket). */
  tok(text: string, spaced = true, glued = false): void {
    const k = this.tokens.length;
    if (this.explode && !glued && k > 0 && !this.atLineStart) this.newline();
    else if (this.plan && !glued) {
      const target = this.plan[k];
      if (target !== undefined) while (this.line < target) this.newline();
    }
    this.write(text, spaced);
    this.tokens.push({ line: this.line, glued, statement: this.open.length > 0 ? this.open[this.open.length - 1]! : -1 });
  }

  private write(text: string, spaced: boolean): void {
    if (this.atLineStart) {
      this.parts.push(this.indentText.repeat(this.depth + this.pendingDepth));
      this.atLineStart = false;
    } else if (spaced && !this.tight && this.last !== '' && this.last !== '(' && this.last !== '[' && this.last !== '{') {
      this.parts.push(' ');
    } else if (glue(this.last, text)) {
      this.parts.push(' ');
    }
    this.tight = false;
    this.parts.push(text);
    this.last = text;
  }

  get fresh(): boolean {
    return this.atLineStart;
  }

  /** Lines are planned (token layout): comments must not add any. */
  get inline(): boolean {
    return this.explode || this.plan !== undefined;
  }

  /** One statement per line (no position-driven or planned layout). */
  get free(): boolean {
    return !this.lines && !this.inline;
  }

  finish(): string {
    const s = this.parts.join('');
    return s.endsWith('\n') || s.length === 0 ? s : s + '\n';
  }
}

/** Two tokens written without a space would merge (`a` `b`, `-` `-`, `.` `.5`). */
function glue(prev: string, next: string): boolean {
  if (prev === '' || next === '') return false;
  const a = prev[prev.length - 1]!;
  const b = next[0]!;
  const word = /[A-Za-z0-9_]/;
  if (word.test(a) && word.test(b)) return true;
  if (a === '-' && b === '-') return true;
  if (a === '.' && (b === '.' || /[0-9]/.test(b))) return true;
  // a number literal followed by `.`/`..` would lex as one malformed number (`1..x`); a name ending in a digit would not
  if (/^\.?[0-9]/.test(prev) && b === '.') return true;
  if ((a === '[' && (b === '[' || b === '=')) || (a === '=' && b === '=') || (a === '<' && b === '=') || (a === '>' && b === '=') || (a === '~' && b === '=')) return true;
  return false;
}

class Printer {
  readonly w: Writer;
  private readonly comments: ReadonlyMap<A.Node, readonly string[]> | undefined;

  constructor(o: PrintOptions) {
    this.w = new Writer(o.indent ?? '  ', o);
    this.comments = o.comments;
  }

  // ---------------------------------------------------------------------------------------------------------
  // Statements

  block(stmts: readonly A.Statement[], depth: number): void {
    const w = this.w;
    for (let i = 0; i < stmts.length; i++) {
      const s = stmts[i]!;
      if (w.lines && s.line !== undefined) w.moveTo(s.line);
      else if (w.free && !w.fresh) w.newline();
      w.depth = depth;
      this.notes(s);
      w.beginStatement();
      this.stmt(s, depth);
      w.endStatement();
      // A next statement starting with `(` would read as a call on this one's last token.
      const next = stmts[i + 1];
      if (next && startsWithParen(next)) w.tok(';', false);
      if (w.free) w.newline();
    }
  }

  /** Comments of the chunk's own block. */
  topNotes(b: A.Block): void {
    this.notes(b);
  }

  /** Comments attached to a node: line comments, or inline block comments when lines must not move. */
  private notes(n: A.Node): void {
    const notes = this.comments?.get(n);
    if (!notes) return;
    const w = this.w;
    for (const text of notes) {
      const clean = text.replace(/[\r\n]/g, ' ').replace(/\]\]/g, '] ]');
      if (w.lines || w.inline) w.comment(`--[[ ${clean} ]]`);
      else {
        w.comment(`-- ${clean}`);
        w.newline();
      }
    }
  }

  private body(b: A.Block, depth: number, endLine: number | undefined): void {
    if (this.comments?.has(b)) {
      if (this.w.free && !this.w.fresh) this.w.newline();
      this.w.depth = depth + 1;
      this.notes(b);
    }
    this.block(b.body, depth + 1);
    this.closeWith('end', endLine, depth);
  }

  /** A closing keyword on the node's end line (lines mode) or on its own line. */
  private closeWith(word: string, endLine: number | undefined, depth: number): void {
    const w = this.w;
    if (w.lines) {
      w.moveTo(endLine);
    } else if (w.free && !w.fresh) w.newline();
    w.depth = depth;
    w.tok(word);
  }

  private stmt(s: A.Statement, depth: number): void {
    const w = this.w;
    switch (s.type) {
      case 'LocalStatement':
        w.tok('local');
        this.names(s.names);
        if (s.values.length > 0) {
          w.tok('=');
          this.list(s.values);
        }
        return;
      case 'LocalFunctionStatement':
        w.tok('local');
        w.tok('function');
        w.tok(s.name.name);
        this.funcBody(s.func, depth, false);
        return;
      case 'FunctionStatement':
        w.tok('function');
        this.funcName(s.target, s.isMethod);
        this.funcBody(s.func, depth, false);
        return;
      case 'AssignmentStatement':
        s.targets.forEach((t, i) => {
          if (i > 0) w.tok(',', false);
          this.expr(t, 0, 'top');
        });
        w.tok('=');
        this.list(s.values);
        return;
      case 'CallStatement':
        this.expr(s.call, 0, 'top');
        return;
      case 'DoStatement':
        w.tok('do');
        this.body(s.body, depth, s.endLine);
        return;
      case 'WhileStatement':
        w.tok('while');
        this.expr(s.condition, 0, 'top');
        w.tok('do');
        this.body(s.body, depth, s.endLine);
        return;
      case 'RepeatStatement':
        w.tok('repeat');
        this.block(s.body.body, depth + 1);
        this.closeWith('until', s.condition.line, depth);
        this.expr(s.condition, 0, 'top');
        return;
      case 'IfStatement':
        s.clauses.forEach((c, i) => {
          if (i > 0) this.closeWith('elseif', c.line, depth);
          else w.tok('if');
          this.expr(c.condition, 0, 'top');
          w.tok('then');
          this.block(c.body.body, depth + 1);
        });
        if (s.orelse) {
          this.closeWith('else', s.orelse.body.length > 0 ? undefined : undefined, depth);
          this.block(s.orelse.body, depth + 1);
        }
        this.closeWith('end', s.endLine, depth);
        return;
      case 'NumericForStatement':
        w.tok('for');
        this.names([s.variable]);
        w.tok('=');
        this.list(s.step ? [s.start, s.limit, s.step] : [s.start, s.limit]);
        w.tok('do');
        this.body(s.body, depth, s.endLine);
        return;
      case 'GenericForStatement':
        w.tok('for');
        this.names(s.variables);
        w.tok('in');
        this.list(s.iterators);
        w.tok('do');
        this.body(s.body, depth, s.endLine);
        return;
      case 'ReturnStatement':
        w.tok('return');
        if (s.values.length > 0) this.list(s.values);
        return;
      case 'BreakStatement':
        w.tok('break');
        return;
      case 'StructureStatement':
        w.tok('hstructure');
        w.tok(s.name.name);
        for (const item of s.items) {
          w.moveTo(item.line);
          if (w.free && !w.fresh) w.newline();
          w.depth = depth + 1;
          if (item.type === 'StructureProxyTable') w.tok('proxytable');
          else if (item.type === 'StructureMeta') {
            w.tok('meta');
            w.tok(':');
            w.tok(item.annotation.name);
          } else {
            w.tok(item.name.name);
            w.tok(':');
            w.tok(item.annotation.name);
          }
        }
        this.closeWith('end', s.endLine, depth);
        return;
    }
  }

  private names(vars: readonly A.LocalVariable[]): void {
    vars.forEach((v, i) => {
      if (i > 0) this.w.tok(',', false);
      this.w.moveTo(v.line, 1);
      this.w.tok(v.name);
      if (v.annotation) {
        this.w.tok(':');
        this.w.tok(v.annotation.name);
      }
    });
  }

  private funcName(t: A.NameExpression | A.MemberExpression, isMethod: boolean): void {
    if (t.type === 'NameExpression') {
      this.w.tok(t.name);
      return;
    }
    this.funcNameObject(t.object);
    this.w.tok(isMethod ? ':' : '.', false);
    this.w.tok(t.property.name, false);
  }

  private funcNameObject(e: A.Expression): void {
    if (e.type === 'NameExpression') this.w.tok(e.name);
    else if (e.type === 'MemberExpression') {
      this.funcNameObject(e.object);
      this.w.tok('.', false);
      this.w.tok(e.property.name, false);
    } else throw new Error(`function statement name part ${e.type}`);
  }

  private funcBody(f: A.FunctionExpression, depth: number, keyword: boolean): void {
    const w = this.w;
    if (keyword) w.tok('function');
    w.tok('(', false);
    f.params.forEach((p, i) => {
      if (i > 0) w.tok(',', false);
      w.moveTo(p.line, 1);
      w.tok(p.name, i > 0);
      if (p.annotation) {
        w.tok(':');
        w.tok(p.annotation.name);
      }
    });
    if (f.isVararg) {
      if (f.params.length > 0) w.tok(',', false);
      w.tok('...', f.params.length > 0);
    }
    w.tok(')', false);
    this.body(f.body, depth, f.endLine);
  }

  private list(es: readonly A.Expression[]): void {
    es.forEach((e, i) => {
      if (i > 0) this.w.tok(',', false);
      this.expr(e, 0, 'top');
    });
  }

  // ---------------------------------------------------------------------------------------------------------
  // Expressions

  /**
   * Prints an expression. `limit` / `side`: the priority the context needs (a binary operand needs parentheses
   * when its operator binds looser than its parent requires on that side).
   */
  expr(e: A.Expression, limit: number, side: 'top' | 'left' | 'right' | 'unary'): void {
    const w = this.w;
    w.moveTo(e.line, 1);
    switch (e.type) {
      case 'NilLiteral':
        w.tok('nil');
        return;
      case 'BooleanLiteral':
        w.tok(e.value ? 'true' : 'false');
        return;
      case 'NumberLiteral': {
        const t = e.raw;
        // A negative literal is the unary minus of its digits: parenthesised where unary minus would be.
        const paren = t.startsWith('-') && (side === 'unary' || (side === 'left' && limit > UNARY_PRIORITY));
        if (paren) w.tok('(');
        w.tok(t, !paren);
        if (paren) w.tok(')', false);
        return;
      }
      case 'StringLiteral':
        w.tok(quoteLuaString(e.value));
        return;
      case 'LightUserdataLiteral':
      case 'Ui64Literal':
        w.tok(e.raw);
        return;
      case 'VarargLiteral':
        w.tok('...');
        return;
      case 'FunctionExpression':
        w.tok('function');
        this.funcBody(e, w.depth, false);
        return;
      case 'NameExpression':
        w.tok(e.name);
        return;
      case 'MemberExpression':
        this.prefix(e.object);
        w.tok('.', false);
        w.tok(e.property.name, false);
        return;
      case 'IndexExpression':
        this.prefix(e.object);
        w.tok('[', false);
        this.expr(e.index, 0, 'top');
        w.moveTo(e.endLine, 1);
        w.tok(']', false);
        return;
      case 'CallExpression':
        this.prefix(e.callee);
        this.args(e);
        return;
      case 'MethodCallExpression':
        this.prefix(e.receiver);
        w.tok(':', false);
        w.tok(e.method.name, false);
        this.args(e);
        return;
      case 'TableConstructor':
        this.table(e);
        return;
      case 'HmakeExpression':
        w.tok('hmake');
        w.tok(e.structure.name);
        this.table(e.table);
        return;
      case 'ParenExpression':
        w.tok('(');
        this.expr(e.expression, 0, 'top');
        w.moveTo(e.endLine, 1);
        w.tok(')', false);
        return;
      case 'UnaryExpression': {
        const paren = side === 'left' && limit > UNARY_PRIORITY;
        if (paren) w.tok('(');
        w.tok(e.operator, !paren);
        if (e.operator !== 'not') w.tight = true;
        this.expr(e.argument, UNARY_PRIORITY, 'unary');
        if (paren) w.tok(')', false);
        return;
      }
      case 'BinaryExpression': {
        const [l, r] = PRIORITY[e.operator];
        let paren = false;
        if (side === 'unary') paren = l <= UNARY_PRIORITY;
        else if (side === 'left') paren = r < limit;
        else if (side === 'right') paren = l <= limit;
        if (paren) w.tok('(');
        this.expr(e.left, l, 'left');
        w.tok(e.operator);
        this.expr(e.right, r, 'right');
        if (paren) w.tok(')', false);
        return;
      }
    }
  }

  /** The object of a call, index or member: a prefix expression, else parenthesised. */
  private prefix(e: A.Expression): void {
    if (e.type === 'NameExpression' || e.type === 'MemberExpression' || e.type === 'IndexExpression' || e.type === 'CallExpression' || e.type === 'MethodCallExpression' || e.type === 'ParenExpression') {
      this.expr(e, 0, 'top');
      return;
    }
    this.w.tok('(');
    this.expr(e, 0, 'top');
    this.w.tok(')', false);
  }

  private args(call: A.CallExpression | A.MethodCallExpression): void {
    const w = this.w;
    const only = call.args[0];
    if (call.argStyle === 'string' && call.args.length === 1 && only?.type === 'StringLiteral') {
      this.expr(only, 0, 'top');
      return;
    }
    if (call.argStyle === 'table' && call.args.length === 1 && only?.type === 'TableConstructor') {
      this.table(only);
      return;
    }
    w.tok('(', false, true);
    call.args.forEach((a, i) => {
      if (i > 0) w.tok(',', false);
      this.expr(a, 0, 'top');
    });
    w.moveTo(call.endLine, 1);
    w.tok(')', false);
  }

  private table(t: A.TableConstructor): void {
    const w = this.w;
    w.moveTo(t.line, 1);
    w.tok('{');
    t.fields.forEach((f, i) => {
      if (i > 0) w.tok(',', false);
      w.moveTo(f.line, 1);
      if (f.type === 'TableArrayField') this.expr(f.value, 0, 'top');
      else if (f.type === 'TableNamedField') {
        w.tok(f.name.name);
        w.tok('=');
        this.expr(f.value, 0, 'top');
      } else {
        w.tok('[');
        this.expr(f.key, 0, 'top');
        w.tok(']', false);
        w.tok('=');
        this.expr(f.value, 0, 'top');
      }
    });
    w.moveTo(t.endLine, 1);
    w.tok('}', false);
  }
}

/** The statement's text starts with `(` (it would continue a call on the previous statement's last token). */
function startsWithParen(s: A.Statement): boolean {
  let e: A.Expression | undefined;
  if (s.type === 'CallStatement') e = s.call;
  else if (s.type === 'AssignmentStatement') e = s.targets[0];
  while (e) {
    switch (e.type) {
      case 'ParenExpression':
        return true;
      case 'CallExpression':
        e = e.callee;
        break;
      case 'MethodCallExpression':
        e = e.receiver;
        break;
      case 'MemberExpression':
      case 'IndexExpression':
        e = e.object;
        break;
      case 'NameExpression':
        return false;
      default:
        // Any other prefix is printed in parentheses.
        return true;
    }
  }
  return false;
}
