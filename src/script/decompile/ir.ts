/**
 * The decompiler's working tree: Lua 5.1 + HavokScript statements and expressions as the bytecode shows them,
 * with the facts the recompile step needs (which local a name is, the line an instruction came from). It is
 * turned into the public AST (`src/script/ast.ts`) for printing; nothing outside the decompiler sees it.
 */

/** A local variable (parameter, `local`, loop variable, the implicit `arg` of a vararg function). */
export interface LocalVar {
  /** Index in the function's local list (debug order). */
  id: number;
  name: string;
  reg: number;
  startPc: number;
  endPc: number;
  kind: 'param' | 'local' | 'for' | 'hidden' | 'arg';
  /** Static type name for typed locals (`local x: T`), when known. */
  type?: string;
  /** Captured by a closure (its scope ends with CLOSE). */
  captured?: boolean;
}

/** Something with a name that may still change (an inferred local named later from a prototype's name). */
export interface NameRef {
  name: string;
  /** Static type name (`name : T`), when the code shows one. */
  type?: string;
}

export type Expr =
  | { k: 'nil'; line?: number }
  | { k: 'bool'; value: boolean; line?: number }
  | { k: 'number'; value: number; line?: number }
  | { k: 'string'; value: string; line?: number }
  | { k: 'lud'; value: bigint; line?: number }
  | { k: 'ui64'; value: bigint; line?: number }
  | { k: 'vararg'; line?: number }
  | { k: 'local'; v: LocalVar; line?: number }
  | { k: 'upval'; ref: NameRef; index: number; line?: number }
  | { k: 'global'; name: string; line?: number }
  | { k: 'index'; obj: Expr; key: Expr; line?: number }
  | { k: 'call'; fn: Expr; args: Expr[]; method?: string; line?: number }
  | { k: 'function'; fn: FunctionIR; line?: number }
  | { k: 'binop'; op: BinaryOperator; l: Expr; r: Expr; line?: number }
  | { k: 'unop'; op: 'not' | '-' | '#'; e: Expr; line?: number }
  | { k: 'paren'; e: Expr; line?: number }
  | { k: 'table'; items: TableItem[]; struct?: string; line?: number };

export type BinaryOperator = '+' | '-' | '*' | '/' | '%' | '^' | '..' | '==' | '~=' | '<' | '<=' | '>' | '>=' | 'and' | 'or';

export type TableItem = { k: 'item'; value: Expr } | { k: 'field'; key: Expr; value: Expr };

export type Stmt =
  | { k: 'local'; vars: LocalVar[]; exprs: Expr[]; line?: number }
  | { k: 'localfunction'; v: LocalVar; fn: FunctionIR; line?: number }
  | { k: 'function'; target: Expr; method?: string; fn: FunctionIR; line?: number }
  | { k: 'assign'; targets: Expr[]; exprs: Expr[]; line?: number }
  | { k: 'call'; call: Expr & { k: 'call' }; line?: number }
  | { k: 'return'; exprs: Expr[]; line?: number }
  | { k: 'break'; line?: number }
  | { k: 'do'; body: Stmt[]; line?: number }
  | { k: 'while'; cond: Expr; body: Stmt[]; line?: number }
  | { k: 'repeat'; body: Stmt[]; cond: Expr; line?: number }
  | { k: 'if'; clauses: { cond: Expr; body: Stmt[] }[]; orelse?: Stmt[]; line?: number }
  | { k: 'fornum'; v: LocalVar; start: Expr; limit: Expr; step?: Expr; body: Stmt[]; line?: number }
  | { k: 'forin'; vars: LocalVar[]; exprs: Expr[]; body: Stmt[]; line?: number }
  | { k: 'comment'; text: string };

/** A decompiled function. */
export interface FunctionIR {
  /** Path in the chunk (`main`, `main/0`, …). */
  path: string;
  params: LocalVar[];
  vararg: boolean;
  body: Stmt[];
  /** Debug name when known. */
  name?: string | null;
  lineDefined?: number;
  lastLineDefined?: number;
  /** Set when the function could not be decompiled: the body is a stub and this says why. */
  failure?: string;
}
