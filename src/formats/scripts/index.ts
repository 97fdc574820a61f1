/** Public surface of the scripts module (SCRI entries in archives; the codec is `../scri`). */
export * from './scripts.ts';
