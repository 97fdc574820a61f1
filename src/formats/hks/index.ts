/** Public surface of the hks format module: chunk codec, opcode tables, disassembler, assembler, verifier, analysis. */
export * from './chunk.ts';
export * from './opcodes.ts';
export * from './literals.ts';
export * from './disasm.ts';
export * from './asm.ts';
export * from './file.ts';
export * from './hypotheses.ts';
export * from './verify.ts';
export * from './analyze.ts';
export * from './structure-order.ts';
