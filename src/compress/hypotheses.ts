/**
 * The compression layer's inferred rules, in one place. Each is implemented exactly once (the decoder refers to it
 * by id) and tested on synthetic data; `strict` decoding refuses the branches whose reading is a guess.
 */
export interface CodecHypothesis {
  readonly id: string;
  readonly statement: string;
  /** `verified`: exercised by real chunks; `inferred`: follows from the grammar, never seen; `open`: a guess. */
  readonly status: 'verified' | 'inferred' | 'open';
  /** Whether strict decoding refuses input that depends on it. */
  readonly strictRefuses: boolean;
}

export const COMPRESS_HYPOTHESES = {
  tokenGrammar: {
    id: 'lzb16.token',
    statement: 'Token byte T: literal count T & 15, match code T >> 4; literals first, then a match unless the output is complete',
    status: 'verified',
    strictRefuses: false,
  },
  literalExtension: {
    id: 'lzb16.literalExtension',
    statement: 'A literal count of 15 is followed by one byte E added to it (E seen 0x08..0x3B)',
    status: 'verified',
    strictRefuses: false,
  },
  literalChain: {
    id: 'lzb16.literalChain',
    statement: 'An extension byte E = 0xFF chains like LZ4 (add the next byte too); never seen, so 0xFF might instead mean 270',
    status: 'open',
    strictRefuses: true,
  },
  nearMatch: {
    id: 'lzb16.nearMatch',
    statement: 'Match code M < 15: length M + 4, then a u16 little-endian offset (seen once: M 0, offset 13)',
    status: 'verified',
    strictRefuses: false,
  },
  longMatch: {
    id: 'lzb16.longMatch',
    statement: 'Match code 15 with E < 0x80: length E + 19, then a u16 offset (E seen 0x26..0x2E); E = 0x7F is taken as length 146, not as a chain marker',
    status: 'open',
    strictRefuses: true,
  },
  shortMatch: {
    id: 'lzb16.shortMatch',
    statement: 'Match code 15 with E >= 0x80: length ((E >> 3) & 15) + 4 at offset E & 7, no offset bytes (seen only with offset 1; offsets 2..7 follow from the grammar)',
    status: 'inferred',
    strictRefuses: false,
  },
  multiQuantum: {
    id: 'lzb16.multiQuantum',
    statement: 'A chunk of more than 16 KiB is several quanta, each with its own 2-byte header, each producing 16 KiB (the last the rest); matches may reach into earlier quanta',
    status: 'open',
    strictRefuses: true,
  },
  quantumFlags: {
    id: 'lzb16.quantumFlags',
    statement: 'The two top bits of the quantum header are flags of unknown meaning; 0 in every sample (always refused when set)',
    status: 'open',
    strictRefuses: true,
  },
} as const satisfies Record<string, CodecHypothesis>;

export const COMPRESS_HYPOTHESIS_LIST: readonly CodecHypothesis[] = Object.values(COMPRESS_HYPOTHESES);
