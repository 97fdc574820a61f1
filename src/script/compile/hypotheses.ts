/**
 * What the compiler assumes about Shadow of War's own compiler that no real bytecode file could confirm (no SoW
 * bytecode chunk with two or more structures is public). Verified facts are hksc's output; these are not.
 */
export interface CompileHypothesis {
  id: string;
  statement: string;
  status: 'verified' | 'inferred' | 'open';
}

export const COMPILE_HYPOTHESES: readonly CompileHypothesis[] = [
  {
    id: 'H-STRUCT-ORDER',
    statement:
      "The structure section lists the referenced structures in the traversal order of hksc's ds3 build (FromSoftware's insertion-ordered tables, walked from the last insertion), each followed by the structures its struct-typed slots name. hksc's iw6 build walks the same table in node order (option structureOrder: 'iw6'); the two differ on 3 of hksc's 10 structure tests. Which one the game's compiler uses is unknown.",
    status: 'open',
  },
  {
    id: 'H-COMPILER-IS-HKSC',
    statement:
      "The compiler inside Shadow of War makes hksc's code-generation choices (register allocation, constant order, memo slots, R1 forms). hksc was written to reproduce Havok Script's compiler, and its header and opcode rules match the game's loader (seed 002), but no Shadow of War source/bytecode pair is public to compare against.",
    status: 'inferred',
  },
];
