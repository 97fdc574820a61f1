/**
 * The HavokScript decompiler: a bytecode chunk (`HksChunk`, any strip level, float or double numbers) → the public
 * AST → source text printed by the one printer, and optionally the proof: the source recompiled at the chunk's
 * strip level and number mode and compared function by function (`proof.ts`). Functions that are not proven still
 * print, marked with a comment; a function that cannot be decompiled at all prints as an empty stub saying why.
 *
 * No `node:*`: it runs in the browser (the workbench).
 */
import type { Chunk, Node } from '../ast.ts';
import type { HksChunk, HksFunction } from '../../formats/hks/chunk.ts';
import type { HksDialect } from '../../formats/hks/opcodes.ts';
import { printLua, printLuaLayout } from '../print.ts';
import { decodeHksCode, type HksDecodedCode } from './decode.ts';
import { DecompileFailure, decompileFunctionBody, isLuaIdentifier } from './function.ts';
import type { FunctionIR, LocalVar, NameRef, Stmt } from './ir.ts';
import { debugLocals, HKS_VARARG_HASARG } from './locals.ts';
import { hksStripLevel, proveHksChunk, type ChunkProof, type FunctionProof } from './proof.ts';
import { layoutPlan, type LayoutPlan } from './layout.ts';
import { AstBuilder } from './to-ast.ts';
import { StructTable } from './structures.ts';

export { compareHksFunctions, hksStripLevel, proveHksChunk, type ChunkProof, type CompareOptions, type FunctionProof } from './proof.ts';
export { DecompileFailure } from './function.ts';

export interface HksDecompileOptions {
  /** Opcode numbering (default: Shadow of War's). */
  dialect?: HksDialect;
  /** Recompile the source and compare every function (the proof). */
  verify?: boolean;
}

/** One function of the chunk as the decompiler saw it. */
export interface DecompiledFunction {
  /** Path in the prototype tree (`main`, `main/0`, …). */
  path: string;
  /** Debug name when the chunk has one. */
  name: string | null;
  /** Why the function could not be decompiled (it prints as a stub). */
  failure?: string;
  /** With `verify`: the proof of this function. */
  proof?: FunctionProof;
}

export interface HksDecompileResult {
  /** The source text (with `verify`, unmatched functions carry a comment). */
  source: string;
  ast: Chunk;
  functions: DecompiledFunction[];
  /** With `verify`. */
  proof?: ChunkProof;
}

/** Decompiles a chunk (and with `verify`, proves it). */
export function decompileHks(chunk: HksChunk, options: HksDecompileOptions = {}): HksDecompileResult {
  const structs = new StructTable(chunk.structures);
  const ir = decompileChunkIR(chunk, options, structs);
  const functions: DecompiledFunction[] = [];
  const visit = (f: FunctionIR, fn: HksFunction): void => {
    const d: DecompiledFunction = { path: f.path, name: fn.debug?.name ?? null };
    if (f.failure !== undefined) d.failure = f.failure;
    functions.push(d);
  };
  walk(ir, chunk.main, visit);
  const strip = hksStripLevel(chunk);
  let plan: LayoutPlan | null | undefined;
  const render = (notes?: Map<string, string[]>): { source: string; ast: Chunk } => {
    const comments = new Map<Node, string[]>();
    const opts: ConstructorParameters<typeof AstBuilder>[0] = { numberSize: chunk.header.numberSize, comments, prelude: structs.declarations() };
    if (notes) opts.notes = notes;
    const ast = new AstBuilder(opts).chunk(ir);
    // Builds with line info (or defined lines) are laid out to reproduce them; comments add no tokens.
    if (plan === undefined) plan = strip === 'all' ? null : layoutPlan(ast, chunk, strip);
    if (!plan) return { source: printLua(ast, { comments }), ast };
    const po: Parameters<typeof printLuaLayout>[1] = { tokenLines: plan.lines, comments };
    if (plan.trailer !== undefined) po.trailer = plan.trailer;
    return { source: printLuaLayout(ast, po).text, ast };
  };
  let out = render();
  if (!options.verify) return { ...out, functions };
  const proof = proveHksChunk(chunk, out.source);
  const notes = new Map<string, string[]>();
  const byPath = new Map(functions.map((f) => [f.path, f]));
  for (const p of proof.functions) {
    const d = byPath.get(p.path);
    if (d) d.proof = p;
    if (!p.matched && d?.failure === undefined) notes.set(p.path, [`unmatched: ${p.difference ?? ''}`]);
  }
  if (notes.size > 0) out = render(notes);
  return { ...out, functions, proof };
}

/** Visits the IR tree and the prototype tree together (the IR of a failed function has no children). */
function walk(ir: FunctionIR, fn: HksFunction, visit: (f: FunctionIR, fn: HksFunction) => void): void {
  visit(ir, fn);
  const kids = childIRs(ir);
  fn.children.forEach((c, i) => walk(kids.get(i) ?? { path: `${ir.path}/${i}`, params: [], vararg: false, body: [], failure: 'its parent could not be decompiled' }, c, visit));
}

function childIRs(ir: FunctionIR): Map<number, FunctionIR> {
  const out = new Map<number, FunctionIR>();
  const prefix = ir.path + '/';
  const scan = (x: unknown): void => {
    if (!x || typeof x !== 'object') return;
    if (Array.isArray(x)) {
      for (const y of x) scan(y);
      return;
    }
    const o = x as Record<string, unknown>;
    const f = o['fn'] as FunctionIR | undefined;
    if (f && typeof f === 'object' && typeof f.path === 'string' && Array.isArray(f.body)) {
      if (f.path.startsWith(prefix) && !f.path.slice(prefix.length).includes('/')) out.set(Number(f.path.slice(prefix.length)), f);
      return;
    }
    for (const [k, v] of Object.entries(o)) if (k !== 'v' && k !== 'vars' && k !== 'params') scan(v);
  };
  scan(ir.body);
  return out;
}

/** Decompiles every function of a chunk into the IR tree (failed functions carry `failure`). */
export function decompileChunkIR(chunk: HksChunk, options: HksDecompileOptions = {}, structs: StructTable = new StructTable(chunk.structures)): FunctionIR {
  // Depth-first numbering of the prototypes, for stable invented names `l_<function>_<local>`.
  const numbers = new Map<HksFunction, number>();
  const number = (f: HksFunction): void => {
    numbers.set(f, numbers.size);
    f.children.forEach(number);
  };
  number(chunk.main);
  return decompileFn(chunk.main, 'main', [], options, numbers, structs);
}

function decompileFn(fn: HksFunction, path: string, upvalues: NameRef[], options: HksDecompileOptions, numbers: Map<HksFunction, number>, structs: StructTable): FunctionIR {
  const index = numbers.get(fn) ?? 0;
  let code: HksDecodedCode | null = null;
  try {
    code = decodeHksCode(fn, options.dialect);
    const fromDebug: LocalVar[] | null = debugLocals(fn);
    const locals = fromDebug ?? inventedParameters(fn, index);
    // Debug info names the upvalues; otherwise they are the parent's locals and upvalues they capture.
    const names = fn.debug && fn.debug.upvalueNames.length === fn.upvalueCount && fn.upvalueCount > 0 ? fn.debug.upvalueNames.map((n, i) => (n !== null ? (upvalues[i]?.name === n ? upvalues[i]! : { name: n }) : (upvalues[i] ?? { name: `u_${i}` }))) : upvalues;
    return decompileFunctionBody({
      path,
      fn,
      code,
      locals,
      infer: fromDebug === null,
      index,
      upvalues: names,
      child: (i, childUpvalues) => decompileFn(fn.children[i]!, `${path}/${i}`, childUpvalues, options, numbers, structs),
      structs,
    });
  } catch (e) {
    if (!(e instanceof DecompileFailure) && !(e instanceof Error && e.name === 'HksDecodeError')) throw e;
    // The stub refers to the upvalues in order, so its parent's CLOSURE captures the same ones (and can be proven).
    const refs = upvalues.map((ref, i) => ({ k: 'upval' as const, ref, index: i }));
    const children = code ? stubChildren(fn, code, path, upvalues, index, options, numbers, structs) : [];
    let body: FunctionIR['body'];
    if (children.length === 0) body = refs.length > 0 ? [{ k: 'return', exprs: refs }] : [];
    else body = [...(refs.length > 0 ? [{ k: 'do' as const, body: [{ k: 'local' as const, vars: [stubLocal(index, 'upvalues')], exprs: refs }] }] : []), ...children];
    return { path, params: inventedParameters(fn, index), vararg: (fn.varargFlags & 2) !== 0, body, failure: e.message };
  }
}

/**
 * The children of a function that could not be decompiled, each built where the stub declares locals for the
 * registers its CLOSURE captures (named as the child's debug info names its upvalues): the children are still
 * decompiled and proven on their own, and the user reads them. A child with no CLOSURE (dead code the compiler
 * kept) or with capture words the stub cannot rebuild is left out.
 */
function stubChildren(fn: HksFunction, code: HksDecodedCode, path: string, upvalues: NameRef[], index: number, options: HksDecompileOptions, numbers: Map<HksFunction, number>, structs: StructTable): Stmt[] {
  const out: Stmt[] = [];
  for (let c = 0; c < fn.children.length; c++) {
    const closure = code.list.find((i) => i.family === 'CLOSURE' && i.bx === c);
    if (!closure) return out;
    const child = fn.children[c]!;
    const vars: LocalVar[] = [];
    const names: NameRef[] = [];
    // A prototype named by a bare identifier (profile and debug builds) keeps its name as `local function`.
    const protoName = child.debug?.name;
    const self = protoName && isLuaIdentifier(protoName) ? { ...stubLocal(index, `f${c}`), name: protoName } : null;
    for (const [j, d] of closure.data.entries()) {
      const kind = d & 0xff;
      const idx = (d >>> 8) & 0x1ffff;
      if (kind === 2 && upvalues[idx]) {
        names.push(upvalues[idx]!);
        continue;
      }
      if (kind === 1 && self && idx === closure.a) {
        names.push(self);
        continue;
      }
      if (kind !== 1) return out;
      const debugName = child.debug?.upvalueNames[j];
      const v: LocalVar = { ...stubLocal(index, `${c}_${j}`), name: debugName && isLuaIdentifier(debugName) ? debugName : `l_${index}_${c}_${j}` };
      vars.push(v);
      names.push(v);
    }
    const ir = decompileFn(child, `${path}/${c}`, names, options, numbers, structs);
    const body: Stmt[] = [];
    if (vars.length > 0) body.push({ k: 'local', vars, exprs: [] });
    body.push(self ? { k: 'localfunction', v: self, fn: ir } : { k: 'local', vars: [stubLocal(index, `f${c}`)], exprs: [{ k: 'function', fn: ir }] });
    out.push({ k: 'do', body });
  }
  return out;
}

function stubLocal(index: number, suffix: string): LocalVar {
  return { id: 0, name: `l_${index}_${suffix}`, reg: 0, startPc: 0, endPc: 0, kind: 'local' };
}

/** Parameters (and the implicit `arg` of a vararg function) with invented names, for functions without locals. */
function inventedParameters(fn: HksFunction, index: number): LocalVar[] {
  const out: LocalVar[] = [];
  for (let r = 0; r < fn.paramCount; r++) out.push({ id: r, name: `l_${index}_${r}`, reg: r, startPc: 0, endPc: fn.code.length, kind: 'param' });
  if (fn.varargFlags & HKS_VARARG_HASARG) out.push({ id: fn.paramCount, name: 'arg', reg: fn.paramCount, startPc: 0, endPc: fn.code.length, kind: 'arg' });
  return out;
}
