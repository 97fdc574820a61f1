/** Public surface of the embb (bundle content) module: a named hypothesis, not a verified layout. */
export * from './embb.ts';
