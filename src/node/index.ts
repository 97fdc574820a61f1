/** Node-only adapters (file system). Codecs and runtime layers never import this. */
export * from './fs.ts';
export * from './gamedb.ts';
export * from './vfs-file.ts';
export * from './dir-source.ts';
