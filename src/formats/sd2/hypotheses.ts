/**
 * The sd2 facts that are inferred rather than verified (spec sd2.md §4, §6, §8, §11, §17), each named once. The
 * reader and writer implement them where they say; `verifySd2` reports when a file contradicts one.
 */

export interface Sd2Hypothesis {
  readonly id: string;
  readonly statement: string;
  readonly status: 'verified' | 'code' | 'inferred' | 'open';
  /** Where the toolkit relies on it. */
  readonly usedBy: string;
}

export const SD2_HYPOTHESES = {
  uncompressedFlag: {
    id: 'sd2.uncompressed-flag',
    statement: 'When the Compressed flag (4) is clear the de-obfuscated payload is the memory image itself, with no compression header (kasperfriend/PIN); FauFau always inflates. The reader takes the payload as raw only when it starts with a known memory version, and inflates otherwise.',
    status: 'inferred',
    usedBy: 'parseSd2 payload decoding, writeSd2 (compressed = false writes the image raw)',
  },
  compressionReserved: {
    id: 'sd2.compression-reserved',
    statement: 'The u32 after inflatedSize is always 0 (FauFau: "padding"; maybe the high half of a u64). Kept in the model as unk04.',
    status: 'open',
    usedBy: 'verifySd2 warns when it is not 0',
  },
  adlerTrailer: {
    id: 'sd2.adler-trailer',
    statement: 'Game-written deflate streams may end with a big-endian Adler-32 of the image; FauFau writes none. The reader records a trailer when the last 4 payload bytes equal Adler-32(image).',
    status: 'open',
    usedBy: 'parseSd2 (compression.adler32), writeSd2',
  },
  fileVersions8to10: {
    id: 'sd2.file-versions-8-10',
    statement: 'File versions 8–10 were never seen; they are read like 11/12 (with the 8-byte compression header).',
    status: 'inferred',
    usedBy: 'parseSd2',
  },
  v1000AlwaysEncrypted: {
    id: 'sd2.v1000-pool-always-xor',
    statement: 'Memory version 1000 pool entries are always XORed, seeded with the 0-based row index, whatever the Client flag says (FauFau).',
    status: 'code',
    usedBy: 'pool entry decoding and encoding in memory version 1000',
  },
  v1000PoolRelative: {
    id: 'sd2.v1000-pool-relative',
    statement: 'Memory version 1000 pool addresses are relative to poolOffset (FauFau); kasperfriend\'s port reads them as absolute.',
    status: 'code',
    usedBy: 'pool entry decoding in memory version 1000',
  },
  blockPadding: {
    id: 'sd2.block-padding-128',
    statement: 'Each non-empty table\'s row block is zero-padded to a multiple of 128 bytes from its own rowOffset, and the first block starts right after the info section (FauFau writer). Whether the game needs this is unknown; readers rely on rowOffset and poolOffset only.',
    status: 'inferred',
    usedBy: 'canonical layout of writeSd2',
  },
  denseNullableIndex: {
    id: 'sd2.dense-nullable-index',
    statement: 'The nullableIndex values of a table are 0…k−1 (FauFau builds an array of size k). The reader just uses the bit number.',
    status: 'open',
    usedBy: 'verifySd2 warns when a table\'s nullable indexes are not dense',
  },
  columnOrder: {
    id: 'sd2.column-order',
    statement: 'Native tables order columns by (width desc, id desc) and pack them without gaps. Only matters for new tables that want to look native.',
    status: 'inferred',
    usedBy: 'new tables built by the staticdb layer (addTable with nativeOrder)',
  },
  localizedTextHeader: {
    id: 'sd2.localized-text-header',
    statement: 'LocalizedText strings starting with a byte 1…31 carry a parameter header: that many bytes of {u8 index, BE u16 byte offset}; rendered as {index} (FauFau rev 1dfee04; Korean strings counting characters are not handled).',
    status: 'code',
    usedBy: 'renderSd2LocalizedText, `sd2 show --render`',
  },
  reserved33: {
    id: 'sd2.reserved-33',
    statement: 'The 33 bytes after poolOffset are zero padding; kept verbatim in the model.',
    status: 'open',
    usedBy: 'verifySd2 warns when they are not zero',
  },
} as const satisfies Record<string, Sd2Hypothesis>;
