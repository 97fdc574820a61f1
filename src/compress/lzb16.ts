/**
 * Oodle LZB16: scry's own decoder, written from the grammar rebuilt from four real chunks (spec `archives.md`
 * §4.3; no public decoder exists). Byte layout of one chunk payload:
 *
 *     8C 02            Oodle block header (restart, codec 2 = LZB16)
 *     u16 BE           quantum header: top 2 bits flags (0), low 14 bits = compressed quantum size - 1
 *     tokens…          until the quantum's raw size is produced
 *
 * Token: `T`; literals `L = T & 15` (15 → `+ next byte`), then unless the output is complete a match:
 * `M = T >> 4 < 15` → length `M + 4` and a u16 LE offset; `M = 15` → byte `E`: `E < 0x80` → length `E + 19` and a
 * u16 LE offset, `E >= 0x80` → length `((E >> 3) & 15) + 4` at offset `E & 7` (no offset bytes).
 *
 * Branches never met in real data are named in `hypotheses.ts`; `strict` (the default) refuses the ones whose
 * reading is a guess, with an `UnsupportedError` naming the hypothesis. The output is bounded by `rawSize`:
 * nothing the input says can make it write more.
 */
import { FormatError, UnsupportedError } from '../binary/errors.ts';
import { COMPRESS_HYPOTHESES as H } from './hypotheses.ts';
import { LZB16_WASM_INPUT, LZB16_WASM_INPUT_MAX, lzb16Wasm } from './lzb16-wasm.ts';

/** The codec id of LZB16 in byte 1 of an Oodle stream. */
export const LZB16_STREAM_ID = 0x02;
/** Raw bytes per quantum [inferred from ooz; only single-quantum chunks were seen]. */
export const LZB16_QUANTUM = 0x4000;

export interface Lzb16Options {
  /** Refuse input that depends on an open hypothesis (default true). */
  strict?: boolean;
  /** File offset of the payload, for error messages. */
  offset?: number;
  /** Format id for error messages (default `lzb16`). */
  format?: string;
  /**
   * Which decoder runs the tokens: `auto` (default) the WebAssembly one where the host has WebAssembly, the
   * JavaScript one otherwise and for every chunk the former leaves to it; `js` the JavaScript one alone. Both give
   * the same bytes and the same errors.
   */
  engine?: 'auto' | 'js';
}

const NO_OPTIONS: Lzb16Options = {};

function failAt(format: string, offset: number, path: string, reason: string): FormatError {
  return new FormatError(format, offset, `/lzb16/${path}`, reason);
}

function refuseAt(format: string, offset: number, hypothesis: string, reason: string): UnsupportedError {
  return new UnsupportedError(format, offset, `/lzb16`, hypothesis, `${reason} (hypothesis ${hypothesis} is unverified; decode with strict off to accept it)`);
}

/** Decodes one LZB16 chunk payload (block header included) to exactly `rawSize` bytes. */
export function decodeLzb16(payload: Uint8Array, rawSize: number, options: Lzb16Options = NO_OPTIONS): Uint8Array {
  checkLzb16Header(payload, rawSize, options);
  const wasm = decodedByWasm(payload, rawSize, options);
  if (wasm !== null) return wasm.slice(0, rawSize);
  const out = new Uint8Array(rawSize);
  decodeLzb16Tokens(payload, out, 0, rawSize, options);
  return out;
}

/**
 * Decodes one LZB16 chunk payload into `out[start, start + rawSize)`, for callers that assemble several chunks in
 * one buffer. Matches never reach before `start`; nothing outside the range is written, whatever the input says.
 */
export function decodeLzb16Into(payload: Uint8Array, out: Uint8Array, start: number, rawSize: number, options: Lzb16Options = NO_OPTIONS): void {
  checkLzb16Header(payload, rawSize, options);
  if (!Number.isInteger(start) || start < 0 || start + rawSize > out.length) throw failAt(options.format ?? 'lzb16', options.offset ?? 0, 'rawSize', `${rawSize} raw byte(s) at ${start} do not fit the ${out.length}-byte output`);
  const wasm = decodedByWasm(payload, rawSize, options);
  if (wasm !== null) out.set(wasm.subarray(0, rawSize), start);
  else decodeLzb16Tokens(payload, out, start, rawSize, options);
}

/** The raw size, the Oodle block header and (strict) the one-quantum rule: what both decoders take as given. */
function checkLzb16Header(payload: Uint8Array, rawSize: number, options: Lzb16Options): void {
  const strict = options.strict ?? true;
  const base = options.offset ?? 0;
  const format = options.format ?? 'lzb16';
  if (!Number.isInteger(rawSize) || rawSize < 0 || rawSize > 0x10000) throw failAt(format, base, 'rawSize', `raw size ${rawSize} is outside 0..65536`);
  if (payload.length < 2) throw failAt(format, base, 'blockHeader', 'payload too short for the block header');
  if ((payload[0]! & 0x0f) !== 0x0c || (payload[0]! & 0x30) !== 0) throw failAt(format, base, 'blockHeader', `block header byte 0x${payload[0]!.toString(16)} is not an Oodle header`);
  if ((payload[0]! & 0x40) !== 0) throw new UnsupportedError(format, base, '/lzb16/blockHeader', 'oodle.uncompressedBlock', 'Oodle "uncompressed block" flag set (never seen)');
  if ((payload[1]! & 0x7f) !== LZB16_STREAM_ID) throw failAt(format, base + 1, 'blockHeader', `codec byte 0x${payload[1]!.toString(16)} is not LZB16 (0x02)`);
  if ((payload[1]! & 0x80) !== 0) throw new UnsupportedError(format, base + 1, '/lzb16/blockHeader', 'oodle.checksums', 'Oodle checksum flag set (never seen)');
  if (strict && rawSize > LZB16_QUANTUM) throw refuseAt(format, base + 2, H.multiQuantum.id, `raw size ${rawSize} needs more than one 16 KiB quantum`);
}

/**
 * The WebAssembly decoder's output (a view of its memory, valid until the next decode) when it took the chunk;
 * `null` when it is unavailable, not asked for, or left the chunk to the JavaScript decoder (an open hypothesis or
 * malformed input: that decoder then gives the answer).
 */
function decodedByWasm(payload: Uint8Array, rawSize: number, options: Lzb16Options): Uint8Array | null {
  if (options.engine === 'js' || payload.length > LZB16_WASM_INPUT_MAX) return null;
  const wasm = lzb16Wasm();
  if (wasm === null) return null;
  wasm.memory.set(payload, LZB16_WASM_INPUT);
  return wasm.decode(LZB16_WASM_INPUT + 2, LZB16_WASM_INPUT + payload.length, rawSize) === 0 ? wasm.memory : null;
}

/** The JavaScript decoder: every token shape, every bound, the typed errors (the header is already checked). */
function decodeLzb16Tokens(payload: Uint8Array, out: Uint8Array, start: number, rawSize: number, options: Lzb16Options): void {
  const strict = options.strict ?? true;
  const base = options.offset ?? 0;
  const format = options.format ?? 'lzb16';
  const n = payload.length;

  // Unaligned little-endian word access: the fast path copies literals and matches 4 bytes at a time.
  const pv = new DataView(payload.buffer, payload.byteOffset, n);
  const ov = new DataView(out.buffer, out.byteOffset, out.length);
  const end = start + rawSize;
  let pos = 2;
  let op = start;
  while (op < end) {
    if (pos + 2 > n) throw failAt(format, base + pos, 'quantumHeader', 'payload ends before the quantum header');
    const qh = (payload[pos]! << 8) | payload[pos + 1]!;
    if (qh >> 14 !== 0) throw refuseAt(format, base + pos, H.quantumFlags.id, `quantum header flags 0b${(qh >> 14).toString(2)} set`);
    pos += 2;
    const qEnd = pos + (qh & 0x3fff) + 1;
    if (qEnd > n) throw failAt(format, base + pos - 2, 'quantumHeader', `quantum of ${qEnd - pos} byte(s) runs past the payload (${n - pos} left)`);
    const outEnd = Math.min(end, op + LZB16_QUANTUM);
    // The fast path takes a token when it cannot run out of input or output: literals and matches are copied in whole
    // words, so each may write up to 7 bytes past its end, all inside the quantum's output and overwritten by the
    // tokens that follow.
    const inFast = qEnd - FAST_INPUT_MARGIN;
    const outFast = outEnd - FAST_OUTPUT_MARGIN;
    while (op < outEnd) {
      // The common shape, in a tight loop: 0–14 literals and a near match (4–18 bytes) at offset 4 or more inside
      // the chunk. Literals are copied as 16 bytes and the match as 20, in words: the bytes past each end lie inside
      // the quantum's output and are overwritten by the tokens that follow (offsets ≥ 4 read only bytes already
      // written).
      while (pos <= inFast && op <= outFast) {
        const t = payload[pos]!;
        const lit = t & 15;
        if (lit === 15 || t >= 0xf0) break;
        const lp = pos + 1;
        if (lit !== 0) {
          ov.setUint32(op, pv.getUint32(lp, true), true);
          if (lit > 4) {
            ov.setUint32(op + 4, pv.getUint32(lp + 4, true), true);
            ov.setUint32(op + 8, pv.getUint32(lp + 8, true), true);
            ov.setUint32(op + 12, pv.getUint32(lp + 12, true), true);
          }
        }
        const mp = lp + lit;
        const o = op + lit;
        const dist = payload[mp]! | (payload[mp + 1]! << 8);
        if (dist < 4 || dist > o - start) break;
        const from = o - dist;
        ov.setUint32(o, ov.getUint32(from, true), true);
        ov.setUint32(o + 4, ov.getUint32(from + 4, true), true);
        if (t >= 0x50) {
          ov.setUint32(o + 8, ov.getUint32(from + 8, true), true);
          ov.setUint32(o + 12, ov.getUint32(from + 12, true), true);
          ov.setUint32(o + 16, ov.getUint32(from + 16, true), true);
        }
        pos = mp + 2;
        op = o + (t >> 4) + 4;
      }
      const tokenAt = pos;
      if (pos >= qEnd) throw failAt(format, base + pos, 'token', `quantum input ends with ${outEnd - op} byte(s) still to produce`);
      const t = payload[pos++]!;
      let lit = t & 15;
      if (lit === 15) {
        if (pos >= qEnd) throw failAt(format, base + pos, 'literalExtension', 'input ends inside a literal count');
        let e = payload[pos++]!;
        lit += e;
        if (e === 0xff) {
          if (strict) throw refuseAt(format, base + pos - 1, H.literalChain.id, 'literal extension byte 0xFF');
          while (e === 0xff) {
            if (pos >= qEnd) throw failAt(format, base + pos, 'literalExtension', 'input ends inside a literal count');
            e = payload[pos++]!;
            lit += e;
          }
        }
      }
      if (lit > qEnd - pos) throw failAt(format, base + tokenAt, 'literals', `${lit} literal(s) run past the quantum input (${qEnd - pos} left)`);
      if (lit > outEnd - op) throw failAt(format, base + tokenAt, 'literals', `${lit} literal(s) overflow the declared raw size (${outEnd - op} left)`);
      // exactly `lit` bytes: whole words, then the last 0-3 bytes one by one
      let k = 0;
      for (; k + 4 <= lit; k += 4) ov.setUint32(op + k, pv.getUint32(pos + k, true), true);
      for (; k < lit; k++) out[op + k] = payload[pos + k]!;
      pos += lit;
      op += lit;
      if (op === outEnd) break;
      const m = t >> 4;
      let len: number;
      let dist: number;
      if (m < 15) {
        len = m + 4;
        if (pos + 2 > qEnd) throw failAt(format, base + pos, 'matchOffset', 'input ends inside a match offset');
        dist = payload[pos]! | (payload[pos + 1]! << 8);
        pos += 2;
      } else {
        if (pos >= qEnd) throw failAt(format, base + pos, 'matchExtension', 'input ends inside a match length');
        const e = payload[pos++]!;
        if (e < 0x80) {
          if (e === 0x7f && strict) throw refuseAt(format, base + pos - 1, H.longMatch.id, 'match extension byte 0x7F');
          len = e + 19;
          if (pos + 2 > qEnd) throw failAt(format, base + pos, 'matchOffset', 'input ends inside a match offset');
          dist = payload[pos]! | (payload[pos + 1]! << 8);
          pos += 2;
        } else {
          len = ((e >> 3) & 15) + 4;
          dist = e & 7;
        }
      }
      if (dist === 0) throw failAt(format, base + tokenAt, 'matchOffset', 'match offset 0');
      if (dist > op - start) throw failAt(format, base + tokenAt, 'matchOffset', `match offset ${dist} reaches before the start of the chunk (${op - start} byte(s) produced)`);
      if (len > outEnd - op) throw failAt(format, base + tokenAt, 'matchLength', `match of ${len} byte(s) overflows the declared raw size (${outEnd - op} left)`);
      const from = op - dist;
      if (dist >= 8 && len + 8 <= outEnd - op) {
        // two words per step, both read before either is written; up to 7 bytes past the match's end, inside the
        // quantum's output and overwritten by the tokens that follow
        for (let k = 0; k < len; k += 8) {
          const w0 = ov.getUint32(from + k, true);
          const w1 = ov.getUint32(from + k + 4, true);
          ov.setUint32(op + k, w0, true);
          ov.setUint32(op + k + 4, w1, true);
        }
      } else if (dist >= 4 && len + 4 <= outEnd - op) {
        for (let k = 0; k < len; k += 4) ov.setUint32(op + k, ov.getUint32(from + k, true), true);
      } else if (dist === 1) out.fill(out[from]!, op, op + len);
      else {
        // byte by byte: overlapping matches repeat the last `dist` bytes
        for (let k = 0; k < len; k++) out[op + k] = out[from + k]!;
      }
      op += len;
    }
    if (pos !== qEnd) throw failAt(format, base + pos, 'quantum', `${qEnd - pos} byte(s) of quantum input left after its ${outEnd - start} raw bytes`);
  }
  if (pos !== n) throw failAt(format, base + pos, 'trailing', `${n - pos} trailing byte(s) after the last quantum`);
}

/** Input bytes a fast token may read past its start: token, 14 literals (+ 2 over-read), extension, offset. */
const FAST_INPUT_MARGIN = 20;
/** Output bytes a fast token may write past its start: 14 literals as 16, an 18-byte match as 20, and slack. */
const FAST_OUTPUT_MARGIN = 40;

/**
 * A small greedy LZB16 encoder that emits only the verified grammar (single quantum, ≤ 16 KiB, no 0xFF literal
 * extension, no 0x7F match extension). Returns `undefined` when the data cannot be expressed that way (a literal
 * run longer than 269 bytes with no match to end it) or would not shrink: store the chunk raw then.
 * Whether the game accepts LZB16 chunks written by scry is untested.
 */
export function encodeLzb16(data: Uint8Array): Uint8Array | undefined {
  const n = data.length;
  if (n === 0 || n > LZB16_QUANTUM) return undefined;
  // Tokens go to a scratch buffer reused across calls; only the result is allocated, at its size.
  const out = ENCODER_OUT;
  const cap = n + (n >> 3) + 16;
  out[0] = 0x8c;
  out[1] = LZB16_STREAM_ID;
  let o = 4;
  const dv = new DataView(data.buffer, data.byteOffset, n);
  // Last position + 1 (0: none) of each hash of 4 bytes; positions fit u16 (a chunk is at most 16 KiB).
  const head = ENCODER_HEAD.fill(0);
  const last = n - 4;
  let anchor = 0;
  let i = 0;
  // Misses step further the longer they last (1 byte per step for the first 32, then 2, 3…), as LZ4's fast mode
  // does: incompressible stretches cost a fraction of a hash per byte.
  let misses = 0;
  while (i <= last) {
    const seq = dv.getUint32(i, true) | 0;
    const h = Math.imul(seq, 0x9e3779b1) >>> 20;
    const cand = head[h]! - 1;
    head[h] = i + 1;
    if (cand < 0 || (dv.getUint32(cand, true) | 0) !== seq) {
      i += 1 + (misses++ >> 5);
      continue;
    }
    misses = 0;
    let len = 4;
    const maxLen = Math.min(n - i, LZB16_MAX_MATCH);
    // four bytes at a time: the first differing byte is the lowest set byte of the XOR (little-endian words)
    for (;;) {
      if (len + 4 > maxLen) {
        while (len < maxLen && data[cand + len] === data[i + len]) len++;
        break;
      }
      const x = dv.getUint32(cand + len, true) ^ dv.getUint32(i + len, true);
      if (x !== 0) {
        len += (31 - Math.clz32(x & -x)) >> 3;
        break;
      }
      len += 4;
    }
    // One token: the literals since `anchor`, then the match (code 15 + extension byte past 18).
    const lit = i - anchor;
    if (lit > 269 || o + lit + 6 > cap) return undefined;
    const code = len <= 18 ? len - 4 : 15;
    out[o++] = (lit >= 15 ? 15 : lit) | (code << 4);
    if (lit >= 15) out[o++] = lit - 15;
    for (let k = anchor; k < i; k++) out[o++] = data[k]!;
    if (code === 15) out[o++] = len - 19;
    const dist = i - cand;
    out[o++] = dist & 0xff;
    out[o++] = dist >> 8;
    i += len;
    anchor = i;
    // The position two before the match's end, so that a repeat of its tail is found.
    if (i - 2 <= last) {
      const k = i - 2;
      head[Math.imul(dv.getUint32(k, true) | 0, 0x9e3779b1) >>> 20] = k + 1;
    }
  }
  if (anchor < n) {
    // The final literals, without a match.
    const lit = n - anchor;
    if (lit > 269 || o + lit + 2 > cap) return undefined;
    out[o++] = lit >= 15 ? 15 : lit;
    if (lit >= 15) out[o++] = lit - 15;
    out.set(data.subarray(anchor, n), o);
    o += lit;
  }
  const size = o - 4;
  if (o >= n + 8 || size > LZB16_QUANTUM) return undefined;
  out[2] = (size - 1) >> 8;
  out[3] = (size - 1) & 0xff;
  return out.slice(0, o);
}

/** The longest match the encoder emits: code 15, extension byte 0x7E (0x7F is an open hypothesis). */
const LZB16_MAX_MATCH = 0x7e + 19;
const ENCODER_HEAD = new Uint16Array(4096);
/** Room for the tokens of the largest chunk the encoder takes (it gives up before writing more). */
const ENCODER_OUT = new Uint8Array(LZB16_QUANTUM + (LZB16_QUANTUM >> 3) + 16);
