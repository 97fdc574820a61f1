/** Public surface of the script runtime layer: the HavokScript AST, compiler and VM. */
export * from './ast.ts';
export * from './compile/index.ts';
export * from './vm/index.ts';
