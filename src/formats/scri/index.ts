/** Public surface of the scri format module. */
export * from './scri.ts';
