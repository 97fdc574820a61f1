/** Public surface of the resources runtime layer: the engine's file system, bundles and resource streaming. */
export * from './vfs/index.ts';
export * from './bundles/index.ts';
export * from './streaming/index.ts';
