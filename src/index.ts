/** scry's library surface. Codecs and runtime layers only: no node:* imports below this file. */
export * from './binary/index.ts';
export * from './hash/index.ts';
