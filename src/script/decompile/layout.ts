/**
 * Line layout for chunks with line info. The compiler gives every instruction the line of one token of the
 * source (the last token read when it was emitted, or a keyword for loop jumps, calls and function statements),
 * and every function the lines of its `function`/`(` and `end` tokens. Which token is fixed by the token
 * sequence alone, not by the layout. So the printed tree is first laid out one token per line and compiled: each
 * instruction's line then names its token. Every token that carries an instruction gets the line the original
 * chunk gives that instruction; the other tokens follow on the current line (a statement's first tokens move down
 * to its first placed token). Lines never go back: a token that would need an earlier line keeps the current one,
 * and the proof reports the difference.
 */
import type { Chunk } from '../ast.ts';
import type { HksChunk, HksFunction } from '../../formats/hks/chunk.ts';
import { compileLua, CompileError, type NumberMode, type StripLevel } from '../compile/index.ts';
import { printLuaLayout } from '../print.ts';

/**
 * The line of every token of `ast` (printing order) that reproduces the lines of `original` (line info, or the
 * defined lines of a profile build); null when the tree does not compile.
 */
export interface LayoutPlan {
  /** Line of every token (printing order). */
  lines: number[];
  /**
   * A `;` to print after the last statement, on this line: the main function's final RETURN takes the line of
   * the last token (and a declaration at the end takes the line of what follows it), which may be later than
   * any token of the tree.
   */
  trailer?: number;
}

export function layoutPlan(ast: Chunk, original: HksChunk, strip: StripLevel): LayoutPlan | null {
  const probe = printLuaLayout(ast, { explode: true });
  let compiled: HksChunk;
  try {
    const opts: { strip: StripLevel; numbers: NumberMode; name?: string } = { strip, numbers: original.header.numberSize === 8 ? 'double' : 'float' };
    const src = original.main.debug?.source;
    if (src !== null && src !== undefined) opts.name = src;
    compiled = compileLua(probe.text, opts);
  } catch (e) {
    if (e instanceof CompileError) return null;
    throw e;
  }
  // Line of the probe → first token on it (a glued `(` shares its line with the token before).
  const tokenOfLine = new Map<number, number>();
  probe.tokens.forEach((t, k) => {
    if (!tokenOfLine.has(t.line)) tokenOfLine.set(t.line, k);
  });
  const required: (number | undefined)[] = new Array(probe.tokens.length);
  const lastLine = probe.tokens.length > 0 ? probe.tokens[probe.tokens.length - 1]!.line : 0;
  let trailer = 0;
  const need = (probeLine: number, line: number): void => {
    if (line <= 0) return;
    // Past the last token: the end of the text (a lookahead read it).
    if (probeLine > lastLine) {
      trailer = Math.max(trailer, line);
      return;
    }
    const k = tokenOfLine.get(probeLine);
    if (k === undefined) return;
    // Several instructions on one token: keep the first requirement (they normally agree).
    required[k] ??= line;
  };
  pair(original.main, compiled.main, (a, b) => {
    const da = a.debug;
    const db = b.debug;
    if (!da || !db) return;
    if (da.lines.length === db.lines.length && db.lines.length > 0) {
      // The main function's final RETURN is on the last token's line: a trailing `;` can carry it.
      const n = a === original.main ? da.lines.length - 1 : da.lines.length;
      for (let pc = 0; pc < n; pc++) need(db.lines[pc]!, da.lines[pc]!);
      if (a === original.main && n >= 0) trailer = Math.max(trailer, da.lines[n] ?? 0);
    }
    if (a !== original.main) {
      need(db.lineDefined, da.lineDefined);
      need(db.lastLineDefined, da.lastLineDefined);
    }
  });
  const lines = solve(probe.tokens.length, probe.tokens.map((t) => t.glued), required, probe.statements);
  const plan: LayoutPlan = { lines };
  const end = lines.length > 0 ? lines[lines.length - 1]! : 1;
  if (trailer > end) plan.trailer = trailer;
  return plan;
}

/** Visits the functions of two chunks by their place in the prototype tree. */
function pair(a: HksFunction, b: HksFunction, visit: (a: HksFunction, b: HksFunction) => void): void {
  visit(a, b);
  const n = Math.min(a.children.length, b.children.length);
  for (let i = 0; i < n; i++) pair(a.children[i]!, b.children[i]!, visit);
}

/**
 * Lines for every token: required ones where the order allows, the others on the current line, except that a
 * statement's leading free tokens go down to the line of the statement's first required token.
 */
function solve(count: number, glued: boolean[], required: (number | undefined)[], statements: { first: number; last: number }[]): number[] {
  const startOf = new Map<number, { first: number; last: number }>();
  for (const s of statements) if (s.last >= s.first && !startOf.has(s.first)) startOf.set(s.first, s);
  const lines = new Array<number>(count);
  let cur = 1;
  for (let k = 0; k < count; k++) {
    let line = cur;
    const r = required[k];
    if (r !== undefined && r > cur && !glued[k]) line = r;
    else if (r === undefined && !glued[k]) {
      const s = startOf.get(k);
      if (s) {
        for (let j = k; j <= s.last; j++) {
          const rj = required[j];
          if (rj !== undefined) {
            if (rj > cur) line = rj;
            break;
          }
        }
      }
    }
    lines[k] = line;
    cur = line;
  }
  return lines;
}
