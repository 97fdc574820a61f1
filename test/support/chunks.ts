/** Byte inputs as a reader meets them: whole, cut into chunks, or streamed through one reused buffer. */

/** `bytes` cut into chunks of `size` (views of it: a file read piece by piece into fresh buffers). */
export function chunked(bytes: Uint8Array, size: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out;
}

/**
 * `bytes` as chunks of `size` of one reused buffer, as `db import` reads a file: each chunk overwrites the previous
 * one's memory (filled with 0xEE between chunks, so a reader that kept a view of an old chunk reads garbage).
 */
export function* reusedChunks(bytes: Uint8Array, size: number): Generator<Uint8Array> {
  const buf = new Uint8Array(size);
  for (let i = 0; i < bytes.length; i += size) {
    const n = Math.min(size, bytes.length - i);
    buf.set(bytes.subarray(i, i + n));
    yield buf.subarray(0, n);
    buf.fill(0xee);
  }
}

/** The parts one after the other in one new buffer. */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
