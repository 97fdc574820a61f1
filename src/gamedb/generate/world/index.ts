/** The generator's semantic core: the streaming systems' records at the seed's figures, and their bundle files. */
export * from './figures.ts';
export * from './table.ts';
export * from './semantic.ts';
export * from './world.ts';
export * from './files.ts';
export * from './merge.ts';
