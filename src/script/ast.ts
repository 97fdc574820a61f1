/**
 * The abstract syntax tree of HavokScript source: Lua 5.1 plus the extensions the HavokScript compiler (hksc,
 * and the compiler inside Shadow of War) accepts with structures and int literals enabled:
 *
 * - `hstructure Name … end` declarations: typed slots (`name : type`), a `meta : T` slot, `proxytable`;
 * - `hmake Name { … }` structure constructors;
 * - type annotations on locals (`local x : T`), parameters, numeric and generic `for` variables;
 * - `0x…hi` light-userdata literals and `0x…hl` 64-bit (ui64) literals.
 *
 * One tree serves every tool: `parseLua` (src/script/compile) produces it from source, the decompiler produces it
 * from bytecode, the pretty-printer prints it, and analyses (which natives a script calls, lint) walk it with
 * {@link visitAst}. The compiler compiles source text, so a tree that is printed and recompiled gives the same
 * bytecode as the source it was printed from.
 *
 * Conventions:
 * - Every node has a `type` discriminant and a source position: `line` and `column` of its first token, and (set
 *   by the parser, optional for synthesized trees) `endLine` / `endColumn` of the last byte of its last token.
 *   Lines and columns are 1-based; a column counts bytes from the start of the line (sources are byte strings).
 * - Strings are byte strings: one char per byte, codes 0–255 (a UTF-8 `é` in a source string is two chars). This is
 *   the model of the bytecode's string constants (`HksConstant`), so a tree round-trips bytes exactly.
 * - Names (variables, fields, methods, types, structures) are plain ASCII identifiers.
 * - Parentheses that change meaning are kept as {@link ParenExpression} (they truncate multiple results to one and
 *   change the code a compiler emits); other redundant parentheses are kept too, so source round-trips.
 */

// ---------------------------------------------------------------------------------------------------------------
// Positions

/** Where a node is in the source. `endLine` / `endColumn` are always set by the parser. */
export interface SourceSpan {
  /** 1-based line of the node's first token. */
  line: number;
  /** 1-based byte column of the node's first token. */
  column: number;
  /** 1-based line of the last byte of the node's last token. */
  endLine?: number;
  /** 1-based byte column of the last byte of the node's last token. */
  endColumn?: number;
}

// ---------------------------------------------------------------------------------------------------------------
// Chunk, blocks, names

/** A whole source file (the main function's body). */
export interface Chunk extends SourceSpan {
  type: 'Chunk';
  body: Block;
  /**
   * True when the file started with a UTF-8 byte-order mark (hksc then rejects bytes ≥ 0x80 outside strings and
   * comments). A printer writes the mark back when it is set.
   */
  utf8Bom?: boolean;
}

/** A sequence of statements: a chunk's, a function's or a control structure's body. */
export interface Block extends SourceSpan {
  type: 'Block';
  body: Statement[];
}

/** A name token in a position that is not a variable reference: a field or method name, a structure name. */
export interface Identifier extends SourceSpan {
  type: 'Identifier';
  name: string;
}

/**
 * A HavokScript type annotation `: name`. `name` is one of the built-in type names `object` (untyped), `nil`,
 * `boolean`, `luserdata`, `number`, `string`, `table`, `userdata`, `thread`, `ifunction`, `cfunction`, `ui64`, or the
 * name of a structure declared by `hstructure`. The compiler checks it; the tree keeps whatever was written.
 */
export interface TypeAnnotation extends SourceSpan {
  type: 'TypeAnnotation';
  name: string;
}

/** A variable being declared: a local, a parameter, a `for` variable. */
export interface LocalVariable extends SourceSpan {
  type: 'LocalVariable';
  name: string;
  /** `name : T` (HavokScript typed variable); absent when untyped. */
  annotation?: TypeAnnotation;
}

// ---------------------------------------------------------------------------------------------------------------
// Statements

/** `local a, b : T = e1, e2` (`values` empty when there is no `=`). */
export interface LocalStatement extends SourceSpan {
  type: 'LocalStatement';
  names: LocalVariable[];
  values: Expression[];
}

/** `local function name (…) … end`. */
export interface LocalFunctionStatement extends SourceSpan {
  type: 'LocalFunctionStatement';
  name: LocalVariable;
  func: FunctionExpression;
}

/**
 * `function a.b.c (…) … end` or `function a.b:c (…) … end`. `target` is the assigned name: a {@link NameExpression}
 * or a chain of {@link MemberExpression}s on one. With `isMethod` the last member was written with `:` and the
 * function has an implicit first parameter `self` (not listed in `func.params`).
 */
export interface FunctionStatement extends SourceSpan {
  type: 'FunctionStatement';
  target: NameExpression | MemberExpression;
  isMethod: boolean;
  func: FunctionExpression;
}

/** Something that can be assigned to. */
export type AssignmentTarget = NameExpression | MemberExpression | IndexExpression;

/** `t1, t2 = e1, e2`. */
export interface AssignmentStatement extends SourceSpan {
  type: 'AssignmentStatement';
  targets: AssignmentTarget[];
  values: Expression[];
}

/** A call used as a statement (its results are discarded). */
export interface CallStatement extends SourceSpan {
  type: 'CallStatement';
  call: CallExpression | MethodCallExpression;
}

/** `do … end`. */
export interface DoStatement extends SourceSpan {
  type: 'DoStatement';
  body: Block;
}

/** `while cond do … end`. */
export interface WhileStatement extends SourceSpan {
  type: 'WhileStatement';
  condition: Expression;
  body: Block;
}

/** `repeat … until cond` (the condition sees the body's locals). */
export interface RepeatStatement extends SourceSpan {
  type: 'RepeatStatement';
  body: Block;
  condition: Expression;
}

/** One `if cond then block` or `elseif cond then block` arm. */
export interface IfClause extends SourceSpan {
  type: 'IfClause';
  condition: Expression;
  body: Block;
}

/** `if … then … {elseif … then …} [else …] end`. `clauses[0]` is the `if` arm. */
export interface IfStatement extends SourceSpan {
  type: 'IfStatement';
  clauses: IfClause[];
  /** The `else` block, absent when there is no `else`. */
  orelse?: Block;
}

/** `for v = start, limit [, step] do … end`. */
export interface NumericForStatement extends SourceSpan {
  type: 'NumericForStatement';
  /** The loop variable; HavokScript allows only the annotation `number` (or `object`). */
  variable: LocalVariable;
  start: Expression;
  limit: Expression;
  step?: Expression;
  body: Block;
}

/** `for v1, v2 in e1, e2 do … end`. */
export interface GenericForStatement extends SourceSpan {
  type: 'GenericForStatement';
  variables: LocalVariable[];
  iterators: Expression[];
  body: Block;
}

/** `return e1, e2` (`values` empty for a bare `return`). Always the last statement of its block. */
export interface ReturnStatement extends SourceSpan {
  type: 'ReturnStatement';
  values: Expression[];
}

/** `break`. Always the last statement of its block. */
export interface BreakStatement extends SourceSpan {
  type: 'BreakStatement';
}

/** `name : type` inside an `hstructure` declaration. */
export interface StructureSlotDeclaration extends SourceSpan {
  type: 'StructureSlot';
  name: Identifier;
  annotation: TypeAnnotation;
}

/** `meta : type` inside an `hstructure` declaration (a structure name, `table` or `object`). */
export interface StructureMetaDeclaration extends SourceSpan {
  type: 'StructureMeta';
  annotation: TypeAnnotation;
}

/** `proxytable` inside an `hstructure` declaration: instances get a backing table for keys that are not slots. */
export interface StructureProxyTableDeclaration extends SourceSpan {
  type: 'StructureProxyTable';
}

/** One item of an `hstructure` body, in source order. */
export type StructureItem = StructureSlotDeclaration | StructureMetaDeclaration | StructureProxyTableDeclaration;

/**
 * `hstructure Name … end`: declares a structure prototype (compile-time only, it emits no code). `meta` and
 * `proxytable` come before the slots. Items may be separated by `;` (not kept).
 */
export interface StructureStatement extends SourceSpan {
  type: 'StructureStatement';
  name: Identifier;
  items: StructureItem[];
}

export type Statement =
  | LocalStatement
  | LocalFunctionStatement
  | FunctionStatement
  | AssignmentStatement
  | CallStatement
  | DoStatement
  | WhileStatement
  | RepeatStatement
  | IfStatement
  | NumericForStatement
  | GenericForStatement
  | ReturnStatement
  | BreakStatement
  | StructureStatement;

// ---------------------------------------------------------------------------------------------------------------
// Expressions

/** `nil`. */
export interface NilLiteral extends SourceSpan {
  type: 'NilLiteral';
}

/** `true` / `false`. */
export interface BooleanLiteral extends SourceSpan {
  type: 'BooleanLiteral';
  value: boolean;
}

/**
 * A number literal. `value` is the number as the C library reads it (a double); a compiler for float32 bytecode
 * rounds it to float32. `raw` is the source text (`0x10`, `1e3`, `.5`).
 */
export interface NumberLiteral extends SourceSpan {
  type: 'NumberLiteral';
  value: number;
  raw: string;
}

/** A string literal. `value` is the byte string after escapes (one char per byte); `raw` the source text. */
export interface StringLiteral extends SourceSpan {
  type: 'StringLiteral';
  value: string;
  raw: string;
}

/** `0x…hi`: a light-userdata constant (the game uses them for hashed event ids). */
export interface LightUserdataLiteral extends SourceSpan {
  type: 'LightUserdataLiteral';
  value: bigint;
  raw: string;
}

/** `0x…hl`: a 64-bit unsigned (ui64) constant; its lowest 4 bits are zero ("60-bit literal"). */
export interface Ui64Literal extends SourceSpan {
  type: 'Ui64Literal';
  value: bigint;
  raw: string;
}

/** `...` (only inside a vararg function). */
export interface VarargLiteral extends SourceSpan {
  type: 'VarargLiteral';
}

/** `function (params) … end` (also the function of a function statement). */
export interface FunctionExpression extends SourceSpan {
  type: 'FunctionExpression';
  /** Declared parameters, in order (without the implicit `self` of a method, without `...`). */
  params: LocalVariable[];
  /** True when the parameter list ends with `...`. */
  isVararg: boolean;
  body: Block;
}

/** A variable reference (local, upvalue or global: resolved by scope, not recorded here). */
export interface NameExpression extends SourceSpan {
  type: 'NameExpression';
  name: string;
}

/** `object.name`. */
export interface MemberExpression extends SourceSpan {
  type: 'MemberExpression';
  object: Expression;
  property: Identifier;
}

/** `object[index]`. */
export interface IndexExpression extends SourceSpan {
  type: 'IndexExpression';
  object: Expression;
  index: Expression;
}

/**
 * How a call's arguments were written: `f(a, b)` (`parens`), `f{…}` (`table`: one TableConstructor argument),
 * `f"…"` (`string`: one StringLiteral argument).
 */
export type CallArgumentStyle = 'parens' | 'table' | 'string';

/** `callee(args)`. */
export interface CallExpression extends SourceSpan {
  type: 'CallExpression';
  callee: Expression;
  args: Expression[];
  argStyle: CallArgumentStyle;
}

/** `receiver:method(args)`. */
export interface MethodCallExpression extends SourceSpan {
  type: 'MethodCallExpression';
  receiver: Expression;
  method: Identifier;
  args: Expression[];
  argStyle: CallArgumentStyle;
}

/** A positional constructor item `{ value }`. */
export interface TableArrayField extends SourceSpan {
  type: 'TableArrayField';
  value: Expression;
}

/** A named constructor item `{ name = value }`. */
export interface TableNamedField extends SourceSpan {
  type: 'TableNamedField';
  name: Identifier;
  value: Expression;
}

/** A keyed constructor item `{ [key] = value }`. */
export interface TableKeyedField extends SourceSpan {
  type: 'TableKeyedField';
  key: Expression;
  value: Expression;
}

export type TableField = TableArrayField | TableNamedField | TableKeyedField;

/** `{ … }`. */
export interface TableConstructor extends SourceSpan {
  type: 'TableConstructor';
  fields: TableField[];
}

/** `hmake Name { … }`: a structure instance of the declared structure `Name`, its slots set from the fields. */
export interface HmakeExpression extends SourceSpan {
  type: 'HmakeExpression';
  structure: Identifier;
  table: TableConstructor;
}

/** Binary operators (`and` / `or` short-circuit). */
export type BinaryOperator = '+' | '-' | '*' | '/' | '%' | '^' | '..' | '==' | '~=' | '<' | '<=' | '>' | '>=' | 'and' | 'or';

/** `left op right`. */
export interface BinaryExpression extends SourceSpan {
  type: 'BinaryExpression';
  operator: BinaryOperator;
  left: Expression;
  right: Expression;
}

export type UnaryOperator = '-' | 'not' | '#';

/** `op argument`. */
export interface UnaryExpression extends SourceSpan {
  type: 'UnaryExpression';
  operator: UnaryOperator;
  argument: Expression;
}

/** `( expression )`. */
export interface ParenExpression extends SourceSpan {
  type: 'ParenExpression';
  expression: Expression;
}

export type Expression =
  | NilLiteral
  | BooleanLiteral
  | NumberLiteral
  | StringLiteral
  | LightUserdataLiteral
  | Ui64Literal
  | VarargLiteral
  | FunctionExpression
  | NameExpression
  | MemberExpression
  | IndexExpression
  | CallExpression
  | MethodCallExpression
  | TableConstructor
  | HmakeExpression
  | BinaryExpression
  | UnaryExpression
  | ParenExpression;

/** Every node kind. */
export type Node =
  | Chunk
  | Block
  | Identifier
  | TypeAnnotation
  | LocalVariable
  | Statement
  | IfClause
  | StructureItem
  | Expression
  | TableField;

/** The `type` strings of all nodes. */
export type NodeType = Node['type'];

// ---------------------------------------------------------------------------------------------------------------
// Walking

/** The child nodes of a node, in source order. */
export function astChildren(node: Node): Node[] {
  switch (node.type) {
    case 'Chunk':
      return [node.body];
    case 'Block':
      return node.body;
    case 'Identifier':
    case 'TypeAnnotation':
    case 'NilLiteral':
    case 'BooleanLiteral':
    case 'NumberLiteral':
    case 'StringLiteral':
    case 'LightUserdataLiteral':
    case 'Ui64Literal':
    case 'VarargLiteral':
    case 'NameExpression':
    case 'BreakStatement':
    case 'StructureProxyTable':
      return [];
    case 'LocalVariable':
      return node.annotation ? [node.annotation] : [];
    case 'LocalStatement':
      return [...node.names, ...node.values];
    case 'LocalFunctionStatement':
      return [node.name, node.func];
    case 'FunctionStatement':
      return [node.target, node.func];
    case 'AssignmentStatement':
      return [...node.targets, ...node.values];
    case 'CallStatement':
      return [node.call];
    case 'DoStatement':
      return [node.body];
    case 'WhileStatement':
      return [node.condition, node.body];
    case 'RepeatStatement':
      return [node.body, node.condition];
    case 'IfStatement':
      return node.orelse ? [...node.clauses, node.orelse] : [...node.clauses];
    case 'IfClause':
      return [node.condition, node.body];
    case 'NumericForStatement':
      return node.step ? [node.variable, node.start, node.limit, node.step, node.body] : [node.variable, node.start, node.limit, node.body];
    case 'GenericForStatement':
      return [...node.variables, ...node.iterators, node.body];
    case 'ReturnStatement':
      return node.values;
    case 'StructureStatement':
      return [node.name, ...node.items];
    case 'StructureSlot':
      return [node.name, node.annotation];
    case 'StructureMeta':
      return [node.annotation];
    case 'FunctionExpression':
      return [...node.params, node.body];
    case 'MemberExpression':
      return [node.object, node.property];
    case 'IndexExpression':
      return [node.object, node.index];
    case 'CallExpression':
      return [node.callee, ...node.args];
    case 'MethodCallExpression':
      return [node.receiver, node.method, ...node.args];
    case 'TableConstructor':
      return node.fields;
    case 'TableArrayField':
      return [node.value];
    case 'TableNamedField':
      return [node.name, node.value];
    case 'TableKeyedField':
      return [node.key, node.value];
    case 'HmakeExpression':
      return [node.structure, node.table];
    case 'BinaryExpression':
      return [node.left, node.right];
    case 'UnaryExpression':
      return [node.argument];
    case 'ParenExpression':
      return [node.expression];
  }
}

/**
 * Walks a tree depth-first in source order. `enter` runs before a node's children; returning `false` skips them
 * (`leave` still runs for that node). `leave` runs after a node's children. `parent` is the enclosing node (`null` at the root). Iterative: deep trees are safe.
 */
export function visitAst(root: Node, enter: (node: Node, parent: Node | null) => boolean | void, leave?: (node: Node, parent: Node | null) => void): void {
  const stack: { node: Node; parent: Node | null; entered: boolean }[] = [{ node: root, parent: null, entered: false }];
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    if (top.entered) {
      stack.pop();
      leave?.(top.node, top.parent);
      continue;
    }
    top.entered = true;
    if (enter(top.node, top.parent) === false) {
      stack.pop();
      leave?.(top.node, top.parent);
      continue;
    }
    const children = astChildren(top.node);
    for (let i = children.length - 1; i >= 0; i--) stack.push({ node: children[i]!, parent: top.node, entered: false });
  }
}
