/** Public surface of the script runtime layer: the HavokScript AST and compiler (and, as it lands, the VM). */
export * from './ast.ts';
export * from './compile/index.ts';
