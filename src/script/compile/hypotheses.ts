/**
 * What the compiler assumes about Shadow of War's own compiler that no real file could confirm. Verified facts are
 * hksc's output; these are not. The structure-section order (H-STRUCT-ORDER) is a fact about chunks and lives with
 * the format's hypotheses (`src/formats/hks/hypotheses.ts`), where `verify` reports on it.
 */
export interface CompileHypothesis {
  id: string;
  statement: string;
  status: 'verified' | 'inferred' | 'open';
}

export const COMPILE_HYPOTHESES: readonly CompileHypothesis[] = [
  {
    id: 'H-COMPILER-IS-HKSC',
    statement:
      "The compiler inside Shadow of War makes hksc's code-generation choices (register allocation, constant order, memo slots, R1 forms). hksc was written to reproduce Havok Script's compiler, and its header and opcode rules match the game's loader (seed 002), but no Shadow of War source/bytecode pair is public to compare against.",
    status: 'inferred',
  },
];
