/**
 * The inferred (not verified on Shadow of War files) facts this codec relies on, in one place. `verify` names the
 * hypothesis a finding concerns, so a real file that contradicts one is reported as such.
 */
export interface HksHypothesis {
  id: string;
  statement: string;
  /** `verified`: checked on real files of the same dialect; `inferred`: from a public tool or our guess; `open`: unknown. */
  status: 'verified' | 'inferred' | 'open';
}

export const HKS_HYPOTHESES: readonly HksHypothesis[] = [
  { id: 'hks.structures.layout', statement: 'The structure section uses either the hksc layout or the Halo Infinite layout with an extends list; the one whose parse ends exactly at the end of the data is the right one. Which one Shadow of War uses is unknown (spec §5, open question 1).', status: 'open' },
  { id: 'hks.padding.relative', statement: 'Code alignment padding is computed from the first byte of the chunk (not the file), so a chunk at SCRI offset 13 pads the same as at offset 0.', status: 'inferred' },
  { id: 'hks.padding.byte', statement: "Pad bytes are '_' (0x5F); any other observed byte is kept and reported.", status: 'verified' },
  { id: 'hks.depth', statement: 'The engine refuses functions nested deeper than 128 ("code too deep"); the codec applies the same limit.', status: 'inferred' },
  { id: 'hks.data.unknown', statement: 'Opcodes never produced by any compiler we could run (CALL_C/M, TAILCALL_C/M, GETTABLE_N, INTRINSIC_*, GETSLOT_D, CHECKTYPE_D) own 0 DATA words; GETFIELD_MM owns 2 like GETFIELD.', status: 'open' },
  { id: 'hks.semantics.unknown', statement: 'Opcodes never produced by any compiler we could run run as their nearest known relative: GETFIELD_MM as GETFIELD, CHECKTYPE_D as CHECKTYPES (hksc remaps its Bx the same way), GETSLOT_D as GETSLOT, CALL_C/CALL_M/CALL as CALL_I and the tail-call kinds as TAILCALL_I (the generic interpreters serve each group with one handler; they also share one handler between CHECKTYPE_D and GETSLOT_D, which this pairing does not explain).', status: 'open' },
  { id: 'hks.scri.trailing', statement: 'Nothing follows a SCRI body; any bytes after it are kept verbatim and reported.', status: 'open' },
  { id: 'hks.scri.flag', statement: 'SCRI flag 1 = Lua source text, 0 = bytecode; other values are unknown.', status: 'inferred' },
  {
    id: 'H-STRUCT-ORDER',
    statement:
      "The structure section lists the referenced structures in the traversal order of hksc's ds3 build (FromSoftware's insertion-ordered Lua tables, walked from the last insertion), each followed by the structures its struct-typed slots name (structure-order.ts). hksc's iw6 build walks the same table in node order; the two differ on 3 of hksc's 10 structure tests. Which one Shadow of War's compiler uses is unknown (no SoW bytecode with two or more structures is public). Evidence for iw6: the one real Havok-compiled chunk with structures we have (Halo Infinite hsc_example, 25 structures) follows the iw6 order exactly (with each structure's extends parents written before it); ds3 order comes from FromSoftware's modified tables. The compiler writes ds3 order (hksc's reference build) unless asked for iw6; verify says which order a file follows.",
    status: 'open',
  },
  { id: 'hks.lines.perword', statement: 'A debug block has one line entry per code word (DATA words included).', status: 'verified' },
];
