/** Chunk codecs: raw, Oodle LZB16 (scry's own), and the ooz family through the optional `ooz-wasm`. */
export * from './oodle.ts';
export * from './lzb16.ts';
export * from './codecs.ts';
export * from './hypotheses.ts';
