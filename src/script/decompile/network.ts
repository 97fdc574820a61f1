/**
 * Boolean jump networks: the code Lua 5.1 (and hksc) emits for `and` / `or` / `not` and comparisons. A network is
 * a run of atoms in code order; each atom but a final value operand ends in a conditional jump taken when its
 * value is truthy (`sense` true) or falsy. The compiler's rules (lcode.c `luaK_goiftrue` / `luaK_goiffalse` /
 * `luaK_posfix`) fix where each jump lands:
 *
 * - `L and R`: L's false exits go to the whole expression's false exit, its true exits fall into R.
 * - `L or R`: L's true exits go to the whole expression's true exit, its false exits fall into R.
 *
 * so the tree is recovered from the jump labels alone: the top operator is the rightmost split whose left part
 * only jumps to its own exits (the operators are left-associative; parentheses do not change the code). An atom
 * that jumps to the exit of the opposite polarity is negated (`not x`, `~=`).
 */
import type { Expr } from './ir.ts';

/** A jump label: the true exit, the false exit, or the start of atom `n` of the network. */
export type NetworkLabel = 'T' | 'F' | number;

export interface NetworkAtom {
  /** The atom's value in positive form (`x`, `a < b`). */
  expr: Expr;
  /** The jump is taken when the value is truthy (true) or falsy (false). */
  sense: boolean;
  /** Labels the jump target may stand for (several when targets coincide). Empty for the final value operand. */
  labels: ReadonlySet<NetworkLabel>;
  /** An unconditional jump (`true` / `false` / `nil` operand): its polarity is free. */
  always?: boolean;
  /** The final value operand of a value network (no jump). */
  value?: boolean;
  /** Atoms whose value is kept by the jump (TESTSET, TEST on the result register): they cannot be negated. */
  keepsValue?: boolean;
}

/** Logical negation as the compiler reads it back: `==` ↔ `~=`, `not x` ↔ `x`, else `not (…)`. */
export function negateExpr(e: Expr): Expr {
  if (e.k === 'binop' && e.op === '==') return { ...e, op: '~=' };
  if (e.k === 'binop' && e.op === '~=') return { ...e, op: '==' };
  if (e.k === 'unop' && e.op === 'not') return e.e;
  return { k: 'unop', op: 'not', e };
}

/**
 * Rebuilds the expression of atoms `[0, n)`. `fall` says where the last atom's fall-through leads: the true exit
 * in condition context (`if c then` falls into the block) or the false exit for a value network ending in a
 * comparison. Returns null when no and/or tree produces these jumps.
 */
export function buildNetworkTree(atoms: readonly NetworkAtom[], fall: 'T' | 'F'): Expr | null {
  return build(atoms, 0, atoms.length, 'T', 'F', fall);
}

function build(atoms: readonly NetworkAtom[], i: number, j: number, t: NetworkLabel, f: NetworkLabel, fall: 'T' | 'F'): Expr | null {
  if (j - i === 1) return leaf(atoms[i]!, t, f, fall);
  for (let k = j - 1; k > i; k--) {
    if (!rightPartStaysInside(atoms, k, j, t, f)) continue;
    // `L and R`: L's exits are (start of R, f); L's last atom falls into R, which is its true exit.
    if (leftPartStaysInside(atoms, i, k, k, f)) {
      const l = build(atoms, i, k, k, f, 'T');
      if (l) {
        const r = build(atoms, k, j, t, f, fall);
        if (r) return { k: 'binop', op: 'and', l, r };
      }
    }
    // `L or R`: L's exits are (t, start of R); L's last atom falls into R, which is its false exit.
    if (leftPartStaysInside(atoms, i, k, t, k)) {
      const l = build(atoms, i, k, t, k, 'F');
      if (l) {
        const r = build(atoms, k, j, t, f, fall);
        if (r) return { k: 'binop', op: 'or', l, r };
      }
    }
  }
  return null;
}

function leaf(a: NetworkAtom, t: NetworkLabel, f: NetworkLabel, fall: 'T' | 'F'): Expr | null {
  if (a.value) return a.expr;
  // The jump goes to the exit the atom does not fall into.
  const need = fall === 'T' ? f : t;
  const needIsTrue = fall !== 'T';
  if (!a.labels.has(need) && !(typeof need === 'string' && a.labels.has(need))) return null;
  if (a.always) return { k: 'bool', value: needIsTrue };
  const positive = needIsTrue === a.sense;
  if (positive) return a.expr;
  if (a.keepsValue) return null;
  return negateExpr(a.expr);
}

/** Every jump of atoms [i, k) lands inside (i, k) or on the left part's exits. */
function leftPartStaysInside(atoms: readonly NetworkAtom[], i: number, k: number, t: NetworkLabel, f: NetworkLabel): boolean {
  for (let m = i; m < k; m++) {
    const a = atoms[m]!;
    if (a.value) return false;
    let ok = false;
    for (const l of a.labels) {
      if (l === t || l === f || (typeof l === 'number' && l > m && l < k)) {
        ok = true;
        break;
      }
    }
    if (!ok) return false;
  }
  return true;
}

/** Every jump of atoms [k, j) lands inside (k, j) or on the exits. */
function rightPartStaysInside(atoms: readonly NetworkAtom[], k: number, j: number, t: NetworkLabel, f: NetworkLabel): boolean {
  for (let m = k; m < j; m++) {
    const a = atoms[m]!;
    if (a.value) continue;
    let ok = false;
    for (const l of a.labels) {
      if (l === t || l === f || (typeof l === 'number' && l > m && l < j)) {
        ok = true;
        break;
      }
    }
    if (!ok) return false;
  }
  return true;
}
