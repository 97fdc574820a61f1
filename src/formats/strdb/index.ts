/** Public surface of the strdb (SKDB string database) module. */
export * from './strdb.ts';
