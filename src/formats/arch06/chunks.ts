/**
 * Entry data of an `.arch06` (spec §3.7). A compressed entry (`isCompressed = 1`) is a run of chunks until
 * `rawSize` bytes are produced:
 *
 *     u32 chunkStoredSize | u32 chunkRawSize (≤ 65536; all but the last exactly 65536) | payload | 'X' × 0..3
 *
 * The `X` bytes pad the next chunk to a multiple of 4 relative to the entry's `dataOffset` (the last chunk is
 * padded too). A payload whose stored size equals its raw size is the raw bytes; otherwise an Oodle stream that
 * names its codec. Chunks are independent. A stored entry (`isCompressed = 0`) is the file itself.
 */
import { FormatError, type Issue } from '../../binary/errors.ts';
import { ChunkDecoder, type ChunkKind } from '../../compress/codecs.ts';
import { encodeLzb16 } from '../../compress/lzb16.ts';
import { ARCH06_CHUNK_SIZE, ARCH06_FORMAT } from './arch06.ts';

/** The `X` byte that pads chunks. */
export const ARCH06_PAD_BYTE = 0x58;

export interface Arch06Chunk {
  /** Offset of the chunk header relative to the entry's dataOffset. */
  offset: number;
  storedSize: number;
  rawSize: number;
  /** Number of pad bytes after the payload. */
  padding: number;
  /** Whether every pad byte is `X`. */
  paddingIsX: boolean;
  kind: ChunkKind;
}

/** Walks the chunk headers of a compressed entry's stored bytes. `dataOffset` is used for error offsets only. */
export function scanArch06Chunks(stored: Uint8Array, rawSize: number, dataOffset = 0, path = '/data'): Arch06Chunk[] {
  const chunks: Arch06Chunk[] = [];
  const dv = new DataView(stored.buffer, stored.byteOffset, stored.byteLength);
  let pos = 0;
  let produced = 0;
  while (produced < rawSize) {
    if (pos + 8 > stored.length) {
      throw new FormatError(ARCH06_FORMAT, dataOffset + pos, `${path}/chunks/${chunks.length}`, `stored data ends after ${produced} of ${rawSize} raw byte(s) (no room for a chunk header)`);
    }
    const cs = dv.getUint32(pos, true);
    const cr = dv.getUint32(pos + 4, true);
    if (cr === 0 || cr > ARCH06_CHUNK_SIZE) throw new FormatError(ARCH06_FORMAT, dataOffset + pos + 4, `${path}/chunks/${chunks.length}/rawSize`, `chunk raw size ${cr} is outside 1..65536`, { actual: cr });
    if (cr > rawSize - produced) throw new FormatError(ARCH06_FORMAT, dataOffset + pos + 4, `${path}/chunks/${chunks.length}/rawSize`, `chunk raw size ${cr} overflows the entry (${rawSize - produced} byte(s) left of ${rawSize})`, { actual: cr });
    if (cs > stored.length - pos - 8) throw new FormatError(ARCH06_FORMAT, dataOffset + pos, `${path}/chunks/${chunks.length}/storedSize`, `chunk of ${cs} byte(s) runs past the stored data (${stored.length - pos - 8} left)`, { actual: cs });
    const payload = stored.subarray(pos + 8, pos + 8 + cs);
    const end = pos + 8 + cs;
    const padded = end + ((4 - ((dataOffset + end) % 4)) % 4);
    const padEnd = Math.min(padded, stored.length);
    let paddingIsX = true;
    for (let i = end; i < padEnd; i++) if (stored[i] !== ARCH06_PAD_BYTE) paddingIsX = false;
    chunks.push({ offset: pos, storedSize: cs, rawSize: cr, padding: padEnd - end, paddingIsX, kind: ChunkDecoder.kindOf(payload, cr) });
    pos = padEnd;
    produced += cr;
  }
  return chunks;
}

/** Problems of a chunk layout that do not stop decoding (reported by `verify`). */
export function checkArch06Chunks(chunks: readonly Arch06Chunk[], storedSize: number, path: string, dataOffset: number): Issue[] {
  const issues: Issue[] = [];
  const last = chunks[chunks.length - 1];
  const consumed = last ? last.offset + 8 + last.storedSize + last.padding : 0;
  if (consumed !== storedSize) issues.push({ rule: 'chunks.storedSize', message: `chunks occupy ${consumed} byte(s), the record says ${storedSize}`, path, offset: dataOffset + consumed, severity: 'error' });
  chunks.forEach((c, i) => {
    if (i < chunks.length - 1 && c.rawSize !== ARCH06_CHUNK_SIZE) issues.push({ rule: 'chunks.size', message: `chunk ${i} holds ${c.rawSize} raw bytes; every chunk but the last holds 65536`, path, offset: dataOffset + c.offset, severity: 'warning' });
    if (!c.paddingIsX) issues.push({ rule: 'chunks.padding', message: `chunk ${i} is padded with bytes other than 'X'`, path, offset: dataOffset + c.offset, severity: 'warning' });
    if (c.padding < (4 - ((dataOffset + c.offset + 8 + c.storedSize) % 4)) % 4) issues.push({ rule: 'chunks.padding', message: `chunk ${i} padding is cut short by the end of the entry`, path, offset: dataOffset + c.offset, severity: 'warning' });
  });
  return issues;
}

/**
 * Decodes a compressed entry's stored bytes to exactly `rawSize` bytes, chunk by chunk. The output grows with what
 * has decoded (doubling, up to `rawSize`), so chunk headers that claim gigabytes allocate nothing before their
 * payloads decode. `progress.decoded` counts the chunks decoded so far (for reports when one fails).
 */
export async function decodeArch06Chunks(stored: Uint8Array, rawSize: number, decoder: ChunkDecoder, dataOffset = 0, path = '/data', progress: { decoded: number } = { decoded: 0 }): Promise<Uint8Array> {
  const chunks = scanArch06Chunks(stored, rawSize, dataOffset, path);
  progress.decoded = 0;
  if (chunks.length === 1 && chunks[0]!.kind === 'raw') {
    progress.decoded = 1;
    return stored.slice(8, 8 + rawSize);
  }
  if (chunks.some((c) => c.kind !== 'raw' && c.kind !== 'LZB16') && !decoder.oozLoaded) await decoder.loadOoz();
  let out = new Uint8Array(Math.min(rawSize, 2 * ARCH06_CHUNK_SIZE));
  let o = 0;
  for (const c of chunks) {
    const payload = stored.subarray(c.offset + 8, c.offset + 8 + c.storedSize);
    if (o + c.rawSize > out.length) {
      const grown = new Uint8Array(Math.min(rawSize, Math.max(o + c.rawSize, out.length * 2)));
      grown.set(out.subarray(0, o));
      out = grown;
    }
    decoder.decodeSyncInto(payload, out, o, c.rawSize, dataOffset + c.offset + 8, ARCH06_FORMAT);
    o += c.rawSize;
    progress.decoded++;
  }
  return out;
}

/** How `pack` stores an entry's bytes. */
export type Arch06Storage = 'stored' | 'raw-chunks' | 'lzb16';

/**
 * Encodes data as chunks (`raw-chunks`: every chunk stored raw; `lzb16`: LZB16 where it shrinks a chunk of at most
 * 16 KiB, raw otherwise). `dataOffset` decides the `X` padding (retail data offsets are multiples of 4).
 */
export function encodeArch06Chunks(data: Uint8Array, storage: 'raw-chunks' | 'lzb16', dataOffset = 0): Uint8Array {
  const parts: Uint8Array[] = [];
  let total = 0;
  for (let at = 0; at < data.length; at += ARCH06_CHUNK_SIZE) {
    const raw = data.subarray(at, Math.min(data.length, at + ARCH06_CHUNK_SIZE));
    const packed = storage === 'lzb16' ? encodeLzb16(raw) : undefined;
    const payload = packed && packed.length < raw.length ? packed : raw;
    const pad = (4 - ((dataOffset + total + 8 + payload.length) % 4)) % 4;
    const chunk = new Uint8Array(8 + payload.length + pad);
    const dv = new DataView(chunk.buffer);
    dv.setUint32(0, payload.length, true);
    dv.setUint32(4, raw.length, true);
    chunk.set(payload, 8);
    chunk.fill(ARCH06_PAD_BYTE, 8 + payload.length);
    parts.push(chunk);
    total += chunk.length;
  }
  const out = new Uint8Array(total);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}
