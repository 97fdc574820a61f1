/** Public surface of the script runtime layer: the HavokScript AST (and, as they land, compiler and VM). */
export * from './ast.ts';
