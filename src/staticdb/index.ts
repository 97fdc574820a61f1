/** Public surface of the staticdb runtime layer (Firefall's static database over the sd2 codec). */
export * from './database.ts';
export * from './names.ts';
export * from './query.ts';
export * from './export.ts';
export * from './crack.ts';
export * from './localized.ts';
export * from './diff.ts';
