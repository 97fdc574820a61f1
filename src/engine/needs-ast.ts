/**
 * The usage reader over the AST of a layer's source (see `needs.ts`). It follows scopes so that only globals
 * count as natives, and it types values the way the shipped source builds them, so a method call is attributed to
 * its class: `local WD_DOG = DynamicObjectGroup.Create(…)` then `WD_DOG:Script_SetState(…)` is
 * `DynamicObjectGroup::Script_SetState`; `self.myTimer = ScriptTimer.Create(…)` types `self.myTimer` inside that
 * script object. Arguments whose type is visible in the text (literals, `DB<Kind>.Name`, `Class.None`, typed
 * variables) are checked against the natives table.
 */
import type { Block, Chunk, Expression, FunctionExpression, Node, Statement, TableConstructor } from '../script/ast.ts';
import { HKS_LUA_STANDARD_GLOBALS } from '../formats/hks/analyze.ts';
import { isDbKindName } from './dbkinds.ts';
import { NATIVES, nativeSpec, worldClass, type ValueInfo } from './natives.ts';
import type { CallUsage, RecordUsage, ScriptUsage, UsageSite } from './needs.ts';

/** Nesting past which the reader stops descending (a hostile tree cannot exhaust the JS stack). */
const MAX_DEPTH = 400;

/** The class a native's return shape gives, if it is an object (a `list` is a WBLinkedList). */
function classOfShape(shape: string | undefined): string | undefined {
  if (shape === undefined) return undefined;
  if (shape.startsWith('object:')) return shape.slice(7);
  return shape === 'list' ? 'WBLinkedList' : undefined;
}

/** What the reader knows of a variable. */
type VarType = { t: 'class'; className: string } | { t: 'scriptObject' } | { t: 'other' };

class Scope {
  readonly vars = new Map<string, VarType>();
  readonly parent: Scope | undefined;
  constructor(parent?: Scope) {
    this.parent = parent;
  }
  lookup(name: string): VarType | undefined {
    for (let s: Scope | undefined = this; s; s = s.parent) {
      const v = s.vars.get(name);
      if (v) return v;
    }
    return undefined;
  }
}

const METHOD_NAMES = new Set(NATIVES.flatMap((n) => (n.name.includes('::') ? [n.name.split('::')[1]!] : [])));

/** Reads the usage of a parsed chunk. */
export function usageFromAst(chunk: Chunk): ScriptUsage {
  const calls = new Map<string, CallUsage>();
  const records = new Map<string, RecordUsage>();
  const dynamic = new Map<string, UsageSite[]>();
  const eventMaps: ScriptUsage['eventMaps'] = [];
  const entries: string[] = [];
  let section: string | undefined;
  const sectionTables = new Map<string, TableConstructor>();
  /** `self.<field>` types in the current script object entry. */
  let selfFields = new Map<string, VarType>();
  let currentFunction: string | undefined;
  let currentEntry: string | undefined;

  const site = (n: Node): UsageSite => ({ line: n.line, column: n.column, ...(currentFunction !== undefined ? { function: currentFunction } : {}) });
  const addCall = (name: string, n: Node, args: (ValueInfo | undefined)[]): void => {
    const c = calls.get(name) ?? { name, sites: [], args: [] };
    c.sites.push(site(n));
    c.args.push(args);
    calls.set(name, c);
  };

  const isGlobal = (scope: Scope, name: string) => scope.lookup(name) === undefined;

  /** The class an expression evaluates to, when the text shows it. */
  const typeOf = (e: Expression, scope: Scope): VarType | undefined => {
    switch (e.type) {
      case 'ParenExpression':
        return typeOf(e.expression, scope);
      case 'NameExpression':
        return scope.lookup(e.name);
      case 'MemberExpression':
        if (e.object.type === 'NameExpression' && e.object.name === 'self') return selfFields.get(e.property.name);
        if (e.object.type === 'NameExpression' && isGlobal(scope, e.object.name) && worldClass(e.object.name)?.none && e.property.name === 'None') return { t: 'class', className: e.object.name };
        return undefined;
      case 'CallExpression': {
        if (e.callee.type === 'MemberExpression' && e.callee.object.type === 'NameExpression' && isGlobal(scope, e.callee.object.name)) {
          const owner = e.callee.object.name;
          if (owner === 'ScriptObject' && e.callee.property.name === 'Create') return { t: 'scriptObject' };
          const className = classOfShape(nativeSpec(`${owner}.${e.callee.property.name}`)?.returns);
          if (className) return { t: 'class', className };
        }
        return undefined;
      }
      case 'MethodCallExpression': {
        if (e.receiver.type === 'NameExpression' && isGlobal(scope, e.receiver.name)) {
          const className = classOfShape(nativeSpec(`${e.receiver.name}:${e.method.name}`)?.returns);
          if (className) return { t: 'class', className };
        }
        const rt = typeOf(e.receiver, scope);
        if (rt?.t === 'class') {
          const className = classOfShape(nativeSpec(`${rt.className}::${e.method.name}`)?.returns);
          if (className) return { t: 'class', className };
        }
        return undefined;
      }
      default:
        return undefined;
    }
  };

  /** What a shape check can tell of an argument from the text alone. */
  const infoOf = (e: Expression, scope: Scope): ValueInfo | undefined => {
    switch (e.type) {
      case 'NilLiteral':
        return { type: 'nil' };
      case 'BooleanLiteral':
        return { type: 'boolean' };
      case 'NumberLiteral':
        return { type: 'number' };
      case 'StringLiteral':
        return { type: 'string' };
      case 'TableConstructor':
        return { type: 'table' };
      case 'FunctionExpression':
        return { type: 'function' };
      case 'LightUserdataLiteral':
        return { type: 'luserdata' };
      case 'ParenExpression':
        return infoOf(e.expression, scope);
      case 'BinaryExpression':
        if (e.operator === '..') return { type: 'string' };
        if (['+', '-', '*', '/', '%', '^'].includes(e.operator)) return { type: 'number' };
        if (['==', '~=', '<', '<=', '>', '>='].includes(e.operator)) return { type: 'boolean' };
        return undefined;
      case 'UnaryExpression':
        return e.operator === 'not' ? { type: 'boolean' } : e.operator === '-' || e.operator === '#' ? { type: 'number' } : undefined;
      case 'MemberExpression':
        if (e.object.type === 'NameExpression' && isGlobal(scope, e.object.name) && isDbKindName(e.object.name)) {
          return { type: 'record', kind: e.object.name, label: `${e.object.name}.${e.property.name}`, isNull: e.property.name === 'None' };
        }
        if (/^On[A-Z]/.test(e.property.name) && typeOf(e.object, scope)?.t === 'class') return { type: 'event' };
        break;
      case 'IndexExpression':
        if (e.object.type === 'NameExpression' && isGlobal(scope, e.object.name) && isDbKindName(e.object.name)) return { type: 'record', kind: e.object.name, label: `${e.object.name}[…]`, isNull: false };
        break;
      default:
        break;
    }
    const t = typeOf(e, scope);
    if (t?.t === 'class') return { type: 'object', className: t.className, label: describeExpr(e) };
    if (t?.t === 'scriptObject') return { type: 'scriptObject' };
    return undefined;
  };

  const expr = (e: Expression, scope: Scope, depth: number): void => {
    if (depth > MAX_DEPTH) return;
    const d = depth + 1;
    switch (e.type) {
      case 'MemberExpression':
        if (e.object.type === 'NameExpression' && isGlobal(scope, e.object.name) && isDbKindName(e.object.name)) {
          const key = `${e.object.name}.${e.property.name}`;
          const r = records.get(key) ?? { kind: e.object.name, name: e.property.name, sites: [] };
          r.sites.push(site(e));
          records.set(key, r);
          return;
        }
        expr(e.object, scope, d);
        return;
      case 'IndexExpression':
        if (e.object.type === 'NameExpression' && isGlobal(scope, e.object.name) && isDbKindName(e.object.name)) {
          if (e.index.type === 'StringLiteral') {
            const key = `${e.object.name}.${e.index.value}`;
            const r = records.get(key) ?? { kind: e.object.name, name: e.index.value, sites: [] };
            r.sites.push(site(e));
            records.set(key, r);
          } else {
            const list = dynamic.get(e.object.name) ?? [];
            list.push(site(e));
            dynamic.set(e.object.name, list);
            expr(e.index, scope, d);
          }
          return;
        }
        expr(e.object, scope, d);
        expr(e.index, scope, d);
        return;
      case 'CallExpression': {
        const args = e.args.map((a) => infoOf(a, scope));
        const c = e.callee;
        if (c.type === 'NameExpression' && isGlobal(scope, c.name) && !HKS_LUA_STANDARD_GLOBALS.has(c.name)) addCall(c.name, e, args);
        else if (c.type === 'MemberExpression' && c.object.type === 'NameExpression' && isGlobal(scope, c.object.name) && !HKS_LUA_STANDARD_GLOBALS.has(c.object.name)) {
          addCall(`${c.object.name}.${c.property.name}`, e, args);
        } else expr(c, scope, d);
        for (const a of e.args) expr(a, scope, d);
        return;
      }
      case 'MethodCallExpression': {
        const args = e.args.map((a) => infoOf(a, scope));
        const r = e.receiver;
        const m = e.method.name;
        if (r.type === 'NameExpression' && isGlobal(scope, r.name) && !HKS_LUA_STANDARD_GLOBALS.has(r.name)) addCall(`${r.name}:${m}`, e, args);
        else {
          const t = typeOf(r, scope);
          const isSelf = r.type === 'NameExpression' && r.name === 'self';
          if (t?.t === 'class') addCall(`${t.className}::${m}`, e, args);
          else if (!isSelf && t?.t !== 'scriptObject' && METHOD_NAMES.has(m)) addCall(`?::${m}`, e, args);
          expr(r, scope, d);
        }
        for (const a of e.args) expr(a, scope, d);
        return;
      }
      case 'FunctionExpression':
        func(e, scope, undefined, d);
        return;
      case 'TableConstructor':
        for (const f of e.fields) {
          if (f.type === 'TableKeyedField') expr(f.key, scope, d);
          expr(f.value, scope, d);
        }
        return;
      case 'HmakeExpression':
        expr(e.table, scope, d);
        return;
      case 'BinaryExpression':
        expr(e.left, scope, d);
        expr(e.right, scope, d);
        return;
      case 'UnaryExpression':
        expr(e.argument, scope, d);
        return;
      case 'ParenExpression':
        expr(e.expression, scope, d);
        return;
      default:
        return;
    }
  };

  const func = (f: FunctionExpression, scope: Scope, name: string | undefined, depth: number): void => {
    const inner = new Scope(scope);
    for (const p of f.params) inner.vars.set(p.name, p.name === 'self' ? { t: 'scriptObject' } : { t: 'other' });
    const saved = currentFunction;
    if (name !== undefined) currentFunction = name;
    block(f.body, inner, depth + 1);
    currentFunction = saved;
  };

  const assignTarget = (target: Expression, value: Expression | undefined, scope: Scope, depth: number): void => {
    if (target.type === 'NameExpression') {
      const v = scope.lookup(target.name);
      if (v && value) {
        const t = typeOf(value, scope);
        if (t) scope.vars.set(target.name, t);
      }
      return;
    }
    if (target.type === 'MemberExpression' && target.object.type === 'NameExpression' && target.object.name === 'self' && value) {
      const t = typeOf(value, scope);
      if (t) selfFields.set(target.property.name, t);
    }
    if (target.type === 'IndexExpression') {
      // parent.__eventmap[0x…hi] = {func = parent.X, name = "X"}
      if (target.object.type === 'MemberExpression' && target.object.property.name === '__eventmap' && target.index.type === 'LightUserdataLiteral' && value?.type === 'TableConstructor') {
        const nameField = value.fields.find((f) => f.type === 'TableNamedField' && f.name.name === 'name');
        const handler = nameField && nameField.type === 'TableNamedField' && nameField.value.type === 'StringLiteral' ? nameField.value.value : '?';
        eventMaps.push({ entry: currentEntry ?? '?', hash: '0x' + (target.index.value & 0xffffffffn).toString(16).toUpperCase().padStart(8, '0'), handler });
      }
      expr(target.object, scope, depth + 1);
      expr(target.index, scope, depth + 1);
      return;
    }
    expr(target, scope, depth + 1);
  };

  const statement = (s: Statement, scope: Scope, depth: number): void => {
    if (depth > MAX_DEPTH) return;
    const d = depth + 1;
    switch (s.type) {
      case 'LocalStatement':
        s.values.forEach((v) => expr(v, scope, d));
        s.names.forEach((n, i) => {
          const v = s.values[i];
          scope.vars.set(n.name, (v && typeOf(v, scope)) || { t: 'other' });
          if (depth === 1 && v?.type === 'TableConstructor' && /^section_/.test(n.name)) sectionTables.set(n.name, v);
        });
        return;
      case 'LocalFunctionStatement':
        scope.vars.set(s.name.name, { t: 'other' });
        func(s.func, scope, s.name.name, d);
        return;
      case 'FunctionStatement':
        expr(s.target, scope, d);
        func(s.func, scope, describeExpr(s.target), d);
        return;
      case 'AssignmentStatement':
        s.values.forEach((v) => expr(v, scope, d));
        s.targets.forEach((t, i) => assignTarget(t, s.values[i], scope, d));
        if (depth === 1) {
          s.targets.forEach((t, i) => {
            const v = s.values[i];
            if (t.type === 'MemberExpression' && t.object.type === 'NameExpression' && t.object.name === '_G' && t.property.name === 'loadedresource' && v?.type === 'NameExpression') section = v.name;
          });
        }
        return;
      case 'CallStatement':
        expr(s.call, scope, d);
        return;
      case 'DoStatement':
        block(s.body, new Scope(scope), d);
        return;
      case 'WhileStatement':
        expr(s.condition, scope, d);
        block(s.body, new Scope(scope), d);
        return;
      case 'RepeatStatement': {
        const inner = new Scope(scope);
        block(s.body, inner, d);
        expr(s.condition, inner, d);
        return;
      }
      case 'IfStatement':
        for (const c of s.clauses) {
          expr(c.condition, scope, d);
          block(c.body, new Scope(scope), d);
        }
        if (s.orelse) block(s.orelse, new Scope(scope), d);
        return;
      case 'NumericForStatement': {
        expr(s.start, scope, d);
        expr(s.limit, scope, d);
        if (s.step) expr(s.step, scope, d);
        const inner = new Scope(scope);
        inner.vars.set(s.variable.name, { t: 'other' });
        block(s.body, inner, d);
        return;
      }
      case 'GenericForStatement': {
        s.iterators.forEach((e) => expr(e, scope, d));
        const inner = new Scope(scope);
        for (const v of s.variables) inner.vars.set(v.name, { t: 'other' });
        block(s.body, inner, d);
        return;
      }
      case 'ReturnStatement':
        s.values.forEach((v) => expr(v, scope, d));
        return;
      default:
        return;
    }
  };

  const block = (b: Block, scope: Scope, depth: number): void => {
    for (const s of b.body) statement(s, scope, depth);
  };

  // The section table's entries are walked one by one, so each knows its name (and a script object its fields).
  const root = new Scope();
  for (const s of chunk.body.body) {
    if (s.type === 'LocalStatement' && s.values.length === 1 && s.names.length === 1 && /^section_/.test(s.names[0]!.name) && s.values[0]!.type === 'TableConstructor') {
      const table = s.values[0];
      root.vars.set(s.names[0]!.name, { t: 'other' });
      sectionTables.set(s.names[0]!.name, table);
      for (const f of table.fields) {
        if (f.type !== 'TableNamedField') {
          expr(f.value, root, 1);
          continue;
        }
        entries.push(f.name.name);
        currentEntry = f.name.name;
        currentFunction = f.name.name;
        selfFields = new Map();
        if (f.value.type === 'HmakeExpression') {
          // A script object: its constructor first (it types self's fields), then its methods by name.
          const fields = f.value.table.fields;
          const ordered = [...fields.filter((x) => x.type === 'TableNamedField' && x.name.name === '__constructor'), ...fields.filter((x) => !(x.type === 'TableNamedField' && x.name.name === '__constructor'))];
          for (const m of ordered) {
            if (m.type === 'TableNamedField' && m.value.type === 'FunctionExpression') func(m.value, root, `${f.name.name}.${m.name.name}`, 2);
            else if (m.type !== 'TableArrayField') expr(m.value, root, 2);
          }
        } else if (f.value.type === 'FunctionExpression') func(f.value, root, f.name.name, 2);
        else expr(f.value, root, 2);
        currentFunction = undefined;
        currentEntry = undefined;
      }
      continue;
    }
    statement(s, root, 1);
  }
  if (section === undefined && sectionTables.size === 1) section = [...sectionTables.keys()][0];

  return {
    calls: [...calls.values()],
    records: [...records.values()],
    dynamicKinds: [...dynamic].map(([kind, sites]) => ({ kind, sites })),
    entries,
    ...(section !== undefined ? { section } : {}),
    eventMaps,
    reader: 'ast',
  };
}

/** A short text of an expression for labels (`self.myTimer`, `WD_DOG`). */
function describeExpr(e: Expression): string {
  switch (e.type) {
    case 'NameExpression':
      return e.name;
    case 'MemberExpression':
      return `${describeExpr(e.object)}.${e.property.name}`;
    case 'IndexExpression':
      return `${describeExpr(e.object)}[…]`;
    case 'ParenExpression':
      return describeExpr(e.expression);
    default:
      return e.type;
  }
}
