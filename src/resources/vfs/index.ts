/** The engine's file system: sources, the mount vector, the path table, bundles. Browser-safe. */
export * from './source.ts';
export * from './archive-source.ts';
export * from './memory-source.ts';
export * from './mount-vector.ts';
export * from './bundles.ts';
export * from './hypotheses.ts';
