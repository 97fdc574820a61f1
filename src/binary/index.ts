export * from './errors.ts';
export * from './reader.ts';
export * from './writer.ts';
export * from './hexdump.ts';
export * from './text.ts';
