/** Public surface of the staticdb runtime layer (Firefall's static database over the sd2 codec). */
export * from './database.ts';
export * from './names.ts';
