/** Public surface of the bndl (bundle manifest) module. */
export * from './bndl.ts';
