/** Public surface of the sd2 format module (Firefall's static database). */
export * from './sd2.ts';
export * from './obfuscation.ts';
export * from './types.ts';
export * from './values.ts';
export * from './pool.ts';
export * from './hypotheses.ts';
