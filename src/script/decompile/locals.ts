/**
 * Local variables of a function: from debug info when present (names, start / end pcs), with the register each
 * one lives in. Lua 5.1 allocates locals as a stack: at any pc the active locals, in declaration order, are
 * registers 0, 1, 2… So a local's register is the number of locals declared before it that are still active
 * where it starts. Names in parentheses are the compiler's hidden loop state (`(for index)`, `(for generator)`…).
 */
import type { HksFunction } from '../../formats/hks/chunk.ts';
import type { LocalVar } from './ir.ts';

/** Vararg flags (Lua 5.1): the function has the implicit `arg` table local. */
export const HKS_VARARG_HASARG = 1;
export const HKS_VARARG_ISVARARG = 2;
export const HKS_VARARG_NEEDSARG = 4;

/** Locals of a function with full debug info, registers assigned; `null` when the function has no local records. */
export function debugLocals(fn: HksFunction): LocalVar[] | null {
  const recs = fn.debug?.locals;
  if (!fn.debug || fn.debug.lines.length === 0) return null;
  if (!recs) return null;
  const out: LocalVar[] = [];
  const fixed = fn.paramCount + (fn.varargFlags & HKS_VARARG_HASARG ? 1 : 0);
  for (let i = 0; i < recs.length; i++) {
    const r = recs[i]!;
    let reg = 0;
    for (let j = 0; j < i; j++) {
      const o = recs[j]!;
      // A local declared where its block ends (an empty range) still sits above the block's other locals, which
      // end at that same pc.
      if (o.startPc <= r.startPc && (r.startPc < o.endPc || (r.startPc === o.endPc && r.startPc === r.endPc))) reg++;
    }
    const name = r.name ?? `(local ${i})`;
    const kind: LocalVar['kind'] = i < fn.paramCount ? 'param' : i < fixed && name === 'arg' ? 'arg' : name.startsWith('(') ? 'hidden' : 'local';
    out.push({ id: i, name, reg, startPc: r.startPc, endPc: r.endPc, kind });
  }
  return out;
}
