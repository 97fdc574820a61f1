/**
 * Oodle stream framing as met in `.arch06` chunks (spec `archives.md` §4.1): a 2-byte block header
 *
 *     byte 0: low nibble 0xC (magic), bits 4-5 zero, bit 6 "uncompressed block", bit 7 "restart decoder"
 *     byte 1: low 7 bits = the in-stream codec id, bit 7 = checksums present
 *
 * followed by codec-specific quantum headers. Every real chunk seen starts `8C 06` (Kraken) or `8C 02` (LZB16).
 * The codec ids are one table ({@link OODLE_CODECS}), the one QuickBMS and ooz agree on.
 */
import { FormatError } from '../binary/errors.ts';

/** How scry decodes a codec: its own LZB16 decoder, the optional ooz-wasm package, or not at all. */
export type OodleBackend = 'lzb16' | 'ooz' | 'none';

export interface OodleCodecInfo {
  /** Codec id in byte 1 of the stream (low 7 bits). */
  readonly streamId: number;
  readonly name: string;
  readonly backend: OodleBackend;
  /** Whether real Shadow of War chunks with this codec have been seen. */
  readonly seenInGame: boolean;
}

/** The in-stream codec ids (quickbms `oodle.c` / ooz). Only Kraken and LZB16 were met in real archives. */
export const OODLE_CODECS: readonly OodleCodecInfo[] = [
  { streamId: 0x02, name: 'LZB16', backend: 'lzb16', seenInGame: true },
  { streamId: 0x05, name: 'LZNA', backend: 'ooz', seenInGame: false },
  { streamId: 0x06, name: 'Kraken', backend: 'ooz', seenInGame: true },
  { streamId: 0x0a, name: 'Mermaid/Selkie', backend: 'ooz', seenInGame: false },
  { streamId: 0x0b, name: 'BitKnit', backend: 'ooz', seenInGame: false },
  { streamId: 0x0c, name: 'Leviathan', backend: 'ooz', seenInGame: false },
];

const byStreamId = new Map(OODLE_CODECS.map((c) => [c.streamId, c]));

/** The decoded 2-byte Oodle block header. */
export interface OodleBlockHeader {
  streamId: number;
  codec: OodleCodecInfo | undefined;
  restart: boolean;
  uncompressed: boolean;
  checksums: boolean;
}

/** True when `payload` starts with a plausible Oodle block header. */
export function isOodleStream(payload: Uint8Array): boolean {
  return payload.length >= 2 && (payload[0]! & 0x3f) === 0x0c;
}

/** Reads the block header of an Oodle stream; `offset` is the payload's file offset for error messages. */
export function readOodleBlockHeader(payload: Uint8Array, offset = 0, format = 'oodle'): OodleBlockHeader {
  if (payload.length < 2) throw new FormatError(format, offset, '/oodle/blockHeader', `stream of ${payload.length} byte(s) is too short for a block header`);
  const b0 = payload[0]!;
  const b1 = payload[1]!;
  if ((b0 & 0x3f) !== 0x0c) {
    throw new FormatError(format, offset, '/oodle/blockHeader', `not an Oodle stream: block header byte 0x${b0.toString(16).padStart(2, '0')} (low bits must be 0x0C)`, { actual: b0 });
  }
  const streamId = b1 & 0x7f;
  return { streamId, codec: byStreamId.get(streamId), restart: (b0 & 0x80) !== 0, uncompressed: (b0 & 0x40) !== 0, checksums: (b1 & 0x80) !== 0 };
}

/** The codec's name for a stream id (`codec 0x1F` when unknown). */
export function oodleCodecName(streamId: number): string {
  return byStreamId.get(streamId)?.name ?? `codec 0x${streamId.toString(16).toUpperCase()}`;
}
