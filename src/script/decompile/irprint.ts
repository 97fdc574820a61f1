/**
 * Interim printer of the decompiler IR (replaced by the AST printer `src/script/print.ts`).
 */
import type { Expr, FunctionIR, Stmt, TableItem } from './ir.ts';

const KEYWORDS = new Set(['and', 'break', 'do', 'else', 'elseif', 'end', 'false', 'for', 'function', 'if', 'in', 'local', 'nil', 'not', 'or', 'repeat', 'return', 'then', 'true', 'until', 'while', 'hstructure', 'hmake']);
const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;
export const isLuaName = (s: string): boolean => IDENT.test(s) && !KEYWORDS.has(s);

const PRIORITY: Record<string, [number, number]> = {
  '+': [6, 6], '-': [6, 6], '*': [7, 7], '/': [7, 7], '%': [7, 7], '^': [10, 9], '..': [5, 4],
  '==': [3, 3], '~=': [3, 3], '<': [3, 3], '<=': [3, 3], '>': [3, 3], '>=': [3, 3], and: [2, 2], or: [1, 1],
};
const UNARY = 8;

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
      const next = s.charCodeAt(i + 1);
      out += '\\' + (next >= 0x30 && next <= 0x39 ? c.toString().padStart(3, '0') : c.toString());
    } else out += s[i];
  }
  return out + '"';
}

export function formatLuaNumber(v: number, numberSize: number): string {
  if (Object.is(v, -0)) return '-0';
  if (v === Infinity) return '1e999';
  if (v === -Infinity) return '-1e999';
  if (Number.isNaN(v)) return '(0/0)';
  if (numberSize === 4) {
    for (let p = 1; p <= 9; p++) {
      const t = Number(v.toPrecision(p));
      if (Math.fround(t) === v) return String(t);
    }
  }
  return String(v);
}

export class IrPrinter {
  private readonly numberSize: number;
  constructor(numberSize: number) {
    this.numberSize = numberSize;
  }

  chunk(main: FunctionIR): string {
    return this.block(main.body, 0);
  }

  private block(stmts: Stmt[], depth: number): string {
    let out = '';
    for (const s of stmts) {
      const text = this.stmt(s, depth);
      const pad = '  '.repeat(depth);
      // A statement starting with '(' would continue a call on the previous line.
      out += pad + (text.startsWith('(') ? ';' : '') + text + '\n';
    }
    return out;
  }

  private body(stmts: Stmt[], depth: number): string {
    return this.block(stmts, depth + 1) + '  '.repeat(depth) + 'end';
  }

  private stmt(s: Stmt, d: number): string {
    switch (s.k) {
      case 'local':
        return `local ${s.vars.map((v) => v.name + (v.type ? ': ' + v.type : '')).join(', ')}${s.exprs.length ? ' = ' + this.list(s.exprs) : ''}`;
      case 'localfunction':
        return `local function ${s.v.name}${this.funcBody(s.fn, d)}`;
      case 'function':
        return `function ${this.expr(s.target, 0)}${s.method ? ':' + s.method : ''}${this.funcBody(s.fn, d, s.method !== undefined)}`;
      case 'assign':
        return `${s.targets.map((t) => this.expr(t, 0)).join(', ')} = ${this.list(s.exprs)}`;
      case 'call':
        return this.expr(s.call, 0);
      case 'return':
        return s.exprs.length ? `return ${this.list(s.exprs)}` : 'return';
      case 'break':
        return 'break';
      case 'do':
        return `do\n${this.body(s.body, d)}`;
      case 'while':
        return `while ${this.expr(s.cond, 0)} do\n${this.body(s.body, d)}`;
      case 'repeat':
        return `repeat\n${this.block(s.body, d + 1)}${'  '.repeat(d)}until ${this.expr(s.cond, 0)}`;
      case 'if': {
        let out = '';
        s.clauses.forEach((c, i) => {
          out += `${i === 0 ? 'if' : '  '.repeat(d) + 'elseif'} ${this.expr(c.cond, 0)} then\n${this.block(c.body, d + 1)}`;
        });
        if (s.orelse) out += `${'  '.repeat(d)}else\n${this.block(s.orelse, d + 1)}`;
        return out + '  '.repeat(d) + 'end';
      }
      case 'fornum':
        return `for ${s.v.name} = ${this.expr(s.start, 0)}, ${this.expr(s.limit, 0)}${s.step ? ', ' + this.expr(s.step, 0) : ''} do\n${this.body(s.body, d)}`;
      case 'forin':
        return `for ${s.vars.map((v) => v.name).join(', ')} in ${this.list(s.exprs)} do\n${this.body(s.body, d)}`;
      case 'comment':
        return `-- ${s.text}`;
    }
  }

  private funcBody(fn: FunctionIR, d: number, method = false): string {
    const params = (method ? fn.params.slice(1) : fn.params).map((p) => p.name);
    if (fn.vararg) params.push('...');
    return `(${params.join(', ')})\n${this.body(fn.body, d)}`;
  }

  private list(es: Expr[]): string {
    return es.map((e) => this.expr(e, 0)).join(', ');
  }

  /** `limit`: the priority the context requires (a binop child needs parens when its operator binds looser). */
  expr(e: Expr, limit: number, side: 'l' | 'r' | 'u' = 'r'): string {
    switch (e.k) {
      case 'nil':
        return 'nil';
      case 'bool':
        return e.value ? 'true' : 'false';
      case 'number': {
        const t = formatLuaNumber(e.value, this.numberSize);
        return t.startsWith('-') && (limit > UNARY || side === 'u') ? `(${t})` : t;
      }
      case 'string':
        return quoteLuaString(e.value);
      case 'lud':
        return `0x${e.value.toString(16)}hi`;
      case 'ui64':
        return `0x${e.value.toString(16)}hl`;
      case 'vararg':
        return '...';
      case 'local':
        return e.v.name;
      case 'upval':
        return e.name;
      case 'global':
        return e.name;
      case 'index': {
        const obj = this.prefix(e.obj);
        if (e.key.k === 'string' && isLuaName(e.key.value)) return `${obj}.${e.key.value}`;
        return `${obj}[${this.expr(e.key, 0)}]`;
      }
      case 'call': {
        const args = `(${this.list(e.args)})`;
        if (e.method) return `${this.prefix(e.fn)}:${e.method}${args}`;
        return `${this.prefix(e.fn)}${args}`;
      }
      case 'function':
        return `function${this.funcBody(e.fn, 0)}`;
      case 'paren':
        return `(${this.expr(e.e, 0)})`;
      case 'unop': {
        const inner = this.expr(e.e, UNARY, 'u');
        const text = e.op === 'not' ? `not ${inner}` : e.op === '-' && inner.startsWith('-') ? `- ${inner}` : `${e.op}${inner}`;
        return limit > UNARY ? `(${text})` : text;
      }
      case 'binop': {
        const [l, r] = PRIORITY[e.op]!;
        const left = this.binChild(e.l, l, 'l');
        const right = this.binChild(e.r, r, 'r');
        const text = `${left} ${e.op} ${right}`;
        return this.needParens(e, limit, side) ? `(${text})` : text;
      }
      case 'table':
        return this.table(e.items);
    }
  }

  private binChild(e: Expr, parentSide: number, side: 'l' | 'r'): string {
    return this.expr(e, parentSide, side);
  }

  /** For a binop child: left child needs parens when its right priority < parent's left; right child when left ≤ parent's right. */
  private needParens(e: Expr & { k: 'binop' }, limit: number, side: 'l' | 'r' | 'u'): boolean {
    const [pl, pr] = PRIORITY[e.op]!;
    if (side === 'u') return pl <= UNARY;
    if (limit === 0) return false;
    return side === 'l' ? pr < limit : pl <= limit;
  }

  private prefix(e: Expr): string {
    if (e.k === 'local' || e.k === 'upval' || e.k === 'global' || e.k === 'index' || e.k === 'call' || e.k === 'paren') return this.expr(e, 0);
    return `(${this.expr(e, 0)})`;
  }

  private table(items: TableItem[]): string {
    if (items.length === 0) return '{}';
    const parts = items.map((it) => {
      if (it.k === 'item') return this.expr(it.value, 0);
      if (it.key.k === 'string' && isLuaName(it.key.value)) return `${it.key.value} = ${this.expr(it.value, 0)}`;
      return `[${this.expr(it.key, 0)}] = ${this.expr(it.value, 0)}`;
    });
    return `{${parts.join(', ')}}`;
  }
}
