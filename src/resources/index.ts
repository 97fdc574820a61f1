/** Public surface of the resources runtime layer: the engine's file system (mount vector, sources, bundles). */
export * from './vfs/index.ts';
