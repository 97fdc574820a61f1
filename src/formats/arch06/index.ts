/** Public surface of the arch06 format module (LTAR v4 archives). */
export * from './arch06.ts';
export * from './chunks.ts';
export * from './archive.ts';
export * from './pack.ts';
export * from './hypotheses.ts';
