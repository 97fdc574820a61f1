/**
 * The HavokScript decompiler: bytecode chunk → readable source whose recompilation is checked function by
 * function (see `proof.ts`).
 */
import type { HksChunk, HksFunction } from '../../formats/hks/chunk.ts';
import type { HksDialect } from '../../formats/hks/opcodes.ts';
import { decodeHksCode } from './decode.ts';
import { DecompileFailure, decompileFunctionBody } from './function.ts';
import type { FunctionIR, LocalVar } from './ir.ts';
import { debugLocals, HKS_VARARG_HASARG } from './locals.ts';
import { AstBuilder } from './to-ast.ts';
import { printLua } from '../print.ts';
import type { Node } from '../ast.ts';

export interface DecompileOptions {
  dialect?: HksDialect;
}

/** Decompiles every function of a chunk into the IR tree (failed functions carry `failure`). */
export function decompileChunkIR(chunk: HksChunk, options: DecompileOptions = {}): FunctionIR {
  return decompileFn(chunk.main, 'main', [], options);
}

function decompileFn(fn: HksFunction, path: string, upvalueNames: string[], options: DecompileOptions, counter: { n: number } = { n: 0 }): FunctionIR {
  const index = counter.n++;
  try {
    const code = decodeHksCode(fn, options.dialect);
    const fromDebug: LocalVar[] | null = debugLocals(fn);
    const locals = fromDebug ?? inventedParameters(fn, index);
    const names = fn.debug && fn.debug.upvalueNames.length === fn.upvalueCount ? fn.debug.upvalueNames.map((n, i) => n ?? upvalueNames[i] ?? `u_${i}`) : upvalueNames;
    return decompileFunctionBody({
      path,
      fn,
      code,
      locals,
      infer: fromDebug === null,
      index,
      upvalueNames: names,
      child: (i, childUpvalues) => decompileFn(fn.children[i]!, `${path}/${i}`, childUpvalues, options, counter),
    });
  } catch (e) {
    if (!(e instanceof DecompileFailure) && !(e instanceof Error && e.name === 'HksDecodeError')) throw e;
    return { path, params: [], vararg: false, body: [{ k: 'comment', text: `decompilation failed: ${e.message}` }], failure: e.message };
  }
}

/** Parameters (and the implicit `arg` of a vararg function) with invented names, for functions without locals. */
function inventedParameters(fn: HksFunction, index: number): LocalVar[] {
  const out: LocalVar[] = [];
  for (let r = 0; r < fn.paramCount; r++) out.push({ id: r, name: `l_${index}_${r}`, reg: r, startPc: 0, endPc: fn.code.length, kind: 'param' });
  if (fn.varargFlags & HKS_VARARG_HASARG) out.push({ id: fn.paramCount, name: 'arg', reg: fn.paramCount, startPc: 0, endPc: fn.code.length, kind: 'arg' });
  return out;
}

/** Decompiles a chunk to source text (interim: printed without line layout). */
export function decompileHksToSource(chunk: HksChunk, options: DecompileOptions & { lines?: boolean } = {}): { source: string; ir: FunctionIR } {
  const ir = decompileChunkIR(chunk, options);
  const comments = new Map<Node, string[]>();
  const ast = new AstBuilder({ numberSize: chunk.header.numberSize, comments }).chunk(ir);
  return { source: printLua(ast, { comments, lines: options.lines === true }), ir };
}
