/**
 * The HavokScript decompiler: bytecode chunk → readable source whose recompilation is checked function by
 * function (see `proof.ts`).
 */
import type { HksChunk, HksFunction } from '../../formats/hks/chunk.ts';
import type { HksDialect } from '../../formats/hks/opcodes.ts';
import { decodeHksCode } from './decode.ts';
import { DecompileFailure, decompileFunctionBody } from './function.ts';
import type { FunctionIR, LocalVar } from './ir.ts';
import { debugLocals } from './locals.ts';
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

function decompileFn(fn: HksFunction, path: string, upvalueNames: string[], options: DecompileOptions): FunctionIR {
  try {
    const code = decodeHksCode(fn, options.dialect);
    const locals: LocalVar[] | null = debugLocals(fn);
    if (!locals) throw new DecompileFailure('no local records (stripped function): not supported yet', 0);
    const names = fn.debug && fn.debug.upvalueNames.length === fn.upvalueCount ? fn.debug.upvalueNames.map((n, i) => n ?? upvalueNames[i] ?? `u_${i}`) : upvalueNames;
    return decompileFunctionBody({
      path,
      fn,
      code,
      locals,
      upvalueNames: names,
      child: (index, childUpvalues) => decompileFn(fn.children[index]!, `${path}/${index}`, childUpvalues, options),
    });
  } catch (e) {
    if (!(e instanceof DecompileFailure) && !(e instanceof Error && e.name === 'HksDecodeError')) throw e;
    return { path, params: [], vararg: false, body: [{ k: 'comment', text: `decompilation failed: ${e.message}` }], failure: e.message };
  }
}

/** Decompiles a chunk to source text (interim: printed without line layout). */
export function decompileHksToSource(chunk: HksChunk, options: DecompileOptions & { lines?: boolean } = {}): { source: string; ir: FunctionIR } {
  const ir = decompileChunkIR(chunk, options);
  const comments = new Map<Node, string[]>();
  const ast = new AstBuilder({ numberSize: chunk.header.numberSize, comments }).chunk(ir);
  return { source: printLua(ast, { comments, lines: options.lines === true }), ir };
}
