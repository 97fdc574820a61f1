/**
 * Text written straight into bytes: one buffer (or a stream of fixed-size chunks), never a string per line. Used
 * where a tool emits megabytes of text (the HavokScript listing, the lossless GameDB JSON): building such text
 * from template literals and joins costs several times the bytes themselves in allocation and garbage collection.
 *
 *   const w = new TextWriter();
 *   w.latin1('pc '); w.uint(12); w.padTo(8); w.latin1('; note'); w.newline();
 *   const bytes = w.finish();
 *
 * Two modes: collecting (the default; `finish` returns the whole text as one `Uint8Array`) and streaming
 * (`onChunk`: each full chunk is handed over as it is produced and the buffer reused, so memory stays at one chunk
 * however long the text). Columns (`padTo`, `column`) count bytes since the last `newline`, which equals
 * characters for Latin-1 text.
 */

const DIGITS = 0x30;
/** How far ahead of the text a `blankSpaces` writer fills its buffer with spaces (bytes). */
const BLANK_STRETCH = 1 << 16;
const HEX = new Uint8Array([0x30, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x61, 0x62, 0x63, 0x64, 0x65, 0x66]);

/** The byte after `\\` for characters JSON escapes by name (`"` `\\` b f n r t); 0: written as `\u00xx`. */
const JSON_ESCAPE = new Uint8Array(0x60);
JSON_ESCAPE[0x22] = 0x22;
JSON_ESCAPE[0x5c] = 0x5c;
JSON_ESCAPE[0x08] = 0x62;
JSON_ESCAPE[0x0c] = 0x66;
JSON_ESCAPE[0x0a] = 0x6e;
JSON_ESCAPE[0x0d] = 0x72;
JSON_ESCAPE[0x09] = 0x74;

export interface TextWriterOptions {
  /** Streaming mode: called with each full chunk (a view of the writer's buffer, valid only during the call). */
  onChunk?: (chunk: Uint8Array) => void;
  /** Buffer size: the first allocation when collecting, the chunk size when streaming (default 1 MiB). */
  chunkSize?: number;
  /**
   * Keep every byte of the buffer from `pos` to `end` a space (filled with spaces a stretch ahead of `pos` as the
   * text grows, and again when handed over): `spaces` and `padTo` then only move `pos`, and a caller writing into
   * `buf` itself may skip a space by advancing `pos` — in text that is half spaces (a listing's columns) that halves
   * the bytes written. Whoever writes into `buf` directly must stay below `end` (`reserve` first) and never leave
   * anything but spaces beyond the `pos` it sets.
   */
  blankSpaces?: boolean;
}

/**
 * `b` as little-endian 32-bit words, the last one zero-padded (for `TextWriter.words` and `JsonReader.nextKeyIs`,
 * which write and compare text four bytes at a time).
 */
export function littleEndianWords(b: Uint8Array): Int32Array {
  const words = new Int32Array((b.length + 3) >>> 2);
  for (let i = 0; i < b.length; i++) words[i >>> 2]! |= b[i]! << (8 * (i & 3));
  return words;
}

/** A text builder over bytes: Latin-1 or UTF-8 strings, decimal and hex numbers, padding to a column. */
export class TextWriter {
  /** The buffer being filled; bytes `0..pos` are the text not yet handed over. */
  buf: Uint8Array;
  /** `buf` as a DataView (words written four bytes at a time), set wherever `buf` is. */
  private view: DataView;
  /** The last source `jsonString` read from, as a DataView (nearly always one string block). */
  private srcBytes: Uint8Array = new Uint8Array(0);
  private srcView: DataView = new DataView(new ArrayBuffer(0));
  pos = 0;
  /**
   * Where the current line starts, relative to `buf` (negative after a streaming flush mid-line). A caller that
   * writes into `buf` itself (advancing `pos`) and ends lines with its own `\n` sets this to the byte after it.
   */
  lineStart = 0;
  private flushedBytes = 0;
  /** False once `latin1` wrote a byte above 0x7F or `bytes` wrote any (the text may then not be ASCII). */
  asciiOnly = true;
  /** Bytes from `pos` to `end` are spaces (`TextWriterOptions.blankSpaces`). */
  readonly blankSpaces: boolean;
  /**
   * End of the part of `buf` ready to be written: `buf.length`, or with `blankSpaces` the end of the stretch filled
   * with spaces so far (the rest of a generous first allocation is never touched). `reserve(n)` makes it at least
   * `pos + n`.
   */
  end: number;
  private readonly onChunk: ((chunk: Uint8Array) => void) | null;
  private readonly utf8 = new TextEncoder();

  constructor(options: TextWriterOptions = {}) {
    this.buf = new Uint8Array(options.chunkSize ?? 1 << 20);
    this.view = new DataView(this.buf.buffer);
    this.onChunk = options.onChunk ?? null;
    this.blankSpaces = options.blankSpaces === true;
    this.end = this.blankSpaces ? 0 : this.buf.length;
  }

  /** Bytes written so far (handed over or not). */
  get length(): number {
    return this.flushedBytes + this.pos;
  }

  /** Makes room for `n` more bytes: hands the buffer over (streaming) or grows it (collecting). */
  reserve(n: number): void {
    if (this.pos + n <= this.end) return;
    if (this.pos + n > this.buf.length) {
      if (this.onChunk && this.pos > 0) this.flush();
      if (this.pos + n > this.buf.length) {
        const grown = new Uint8Array(Math.max(this.buf.length * 2, this.pos + n));
        grown.set(this.buf.subarray(0, this.pos));
        this.buf = grown;
        this.view = new DataView(grown.buffer);
        this.end = this.blankSpaces ? this.pos : grown.length;
      }
    }
    if (this.blankSpaces && this.pos + n > this.end) {
      // spaces a stretch ahead, so that the next lines written straight into `buf` find them in the cache
      const to = Math.min(this.buf.length, Math.max(this.pos + n, this.end) + BLANK_STRETCH);
      this.buf.fill(0x20, this.end, to);
      this.end = to;
    }
  }

  /** Streaming: hands the bytes written so far to `onChunk` and empties the buffer. */
  flush(): void {
    if (!this.onChunk || this.pos === 0) return;
    this.onChunk(this.buf.subarray(0, this.pos));
    if (this.blankSpaces) this.buf.fill(0x20, 0, this.pos);
    this.flushedBytes += this.pos;
    this.lineStart -= this.pos;
    this.pos = 0;
  }

  /** One byte. */
  byte(b: number): void {
    if (this.pos >= this.end) this.reserve(1);
    this.buf[this.pos++] = b;
  }

  /**
   * A string one byte per character (Latin-1). A character above U+00FF, which Latin-1 cannot hold, is written
   * as `\u{…}` (callers that must round-trip such text escape it themselves first).
   */
  latin1(s: string): void {
    const n = s.length;
    this.reserve(n);
    let buf = this.buf;
    let p = this.pos;
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c > 0x7f) this.asciiOnly = false;
      if (c > 0xff) {
        this.pos = p;
        this.latin1(`\\u{${s.codePointAt(i)!.toString(16)}}`);
        if (c >= 0xd800 && c < 0xdc00 && i + 1 < n) i++;
        this.reserve(n - i);
        buf = this.buf;
        p = this.pos;
        continue;
      }
      buf[p++] = c;
    }
    this.pos = p;
  }

  /** A string as UTF-8 (lone surrogates become U+FFFD, as `TextEncoder` does). */
  utf8Text(s: string): void {
    const n = s.length;
    this.reserve(n);
    const buf = this.buf;
    let p = this.pos;
    let i = 0;
    for (; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0x80) break;
      buf[p++] = c;
    }
    this.pos = p;
    if (i === n) return;
    this.asciiOnly = false;
    const rest = n - i;
    this.reserve(rest * 3);
    const r = this.utf8.encodeInto(i === 0 ? s : s.slice(i), this.buf.subarray(this.pos));
    this.pos += r.written;
  }

  /** Bytes as they are (`ascii`: the caller knows they are ASCII, so `asciiOnly` stays true). */
  bytes(b: Uint8Array, ascii = false): void {
    if (!ascii) this.asciiOnly = false;
    const n = b.length;
    this.reserve(n);
    if (n > 32) {
      this.buf.set(b, this.pos);
      this.pos += n;
      return;
    }
    // A short copy by hand: `set` costs more than the bytes below ~32.
    const buf = this.buf;
    let p = this.pos;
    for (let i = 0; i < n; i++) buf[p++] = b[i]!;
    this.pos = p;
  }

  /**
   * The `n` bytes whose `littleEndianWords` are `words`, written four bytes at a time (the bytes past `n` in the
   * last word land beyond `pos`, where the next write overwrites them). `ascii` as for `bytes`.
   */
  words(words: Int32Array, n: number, ascii = false): void {
    if (!ascii) this.asciiOnly = false;
    this.reserve(n + 3);
    if (this.blankSpaces) {
      // Nothing but spaces may lie beyond `pos`: byte by byte.
      for (let i = 0; i < n; i++) this.buf[this.pos++] = (words[i >>> 2]! >>> (8 * (i & 3))) & 0xff;
      return;
    }
    const view = this.view;
    const p = this.pos;
    for (let i = 0; i < words.length; i++) view.setInt32(p + 4 * i, words[i]!, true);
    this.pos = p + n;
  }

  /** A non-negative integer (below 2^53) in decimal. */
  uint(v: number): void {
    if (v < 10) {
      this.byte(DIGITS + v);
      return;
    }
    this.reserve(16);
    let digits = 1;
    for (let t = v; t >= 10; t = Math.floor(t / 10)) digits++;
    const buf = this.buf;
    let p = this.pos + digits;
    this.pos = p;
    for (let t = v; ; ) {
      const q = Math.floor(t / 10);
      buf[--p] = DIGITS + (t - q * 10);
      if (q === 0) break;
      t = q;
    }
  }

  /** An integer (|v| below 2^53) in decimal. */
  int(v: number): void {
    if (v < 0) {
      this.byte(0x2d);
      this.uint(-v);
    } else this.uint(v);
  }

  /** An unsigned 32-bit value as exactly `digits` lowercase hex digits (zero-padded). */
  hex(v: number, digits: number): void {
    this.reserve(digits);
    const buf = this.buf;
    let p = this.pos + digits;
    this.pos = p;
    let t = v >>> 0;
    for (let i = 0; i < digits; i++) {
      buf[--p] = HEX[t & 15]!;
      t >>>= 4;
    }
  }

  /** `n` spaces. */
  spaces(n: number): void {
    if (n <= 0) return;
    this.reserve(n);
    if (this.blankSpaces) {
      this.pos += n;
      return;
    }
    const buf = this.buf;
    let p = this.pos;
    if (n > 32) buf.fill(0x20, p, (p += n));
    else for (const end = p + n; p < end; ) buf[p++] = 0x20;
    this.pos = p;
  }

  /** Column of the next byte on the current line (0-based, in bytes). */
  column(): number {
    return this.pos - this.lineStart;
  }

  /** Spaces up to `col` (like `padEnd` on the line so far); nothing when the line is already that long. */
  padTo(col: number): void {
    this.spaces(col - (this.pos - this.lineStart));
  }

  /** Ends the line (`\n`). */
  newline(): void {
    this.byte(0x0a);
    this.lineStart = this.pos;
  }

  /**
   * Collecting mode, for a caller that streams by itself: the bytes written since the last `take` (a view of the
   * buffer, valid until the next write), and the buffer emptied for reuse.
   */
  take(): Uint8Array {
    const out = this.buf.subarray(0, this.pos);
    this.flushedBytes += this.pos;
    this.lineStart -= this.pos;
    this.pos = 0;
    return out;
  }

  /**
   * `src[start..end)`, which must be valid UTF-8, as a quoted JSON string: exactly the bytes of `JSON.stringify` of
   * its text (`"` `\\` and the C0 controls escaped, `\b \f \n \r \t` by name, the rest as `\u00xx`; nothing else).
   * Without `open`, the opening quote is left out (the caller wrote the string's start).
   */
  jsonString(src: Uint8Array, start: number, end: number, open = true): void {
    this.reserve((end - start) * 6 + 2);
    const buf = this.buf;
    let p = this.pos;
    if (open) buf[p++] = 0x22;
    let i = start;
    if (end - start >= 4 && !this.blankSpaces) {
      // Four bytes at a time while none of them needs an escape (a C0 control, `"` or `\\`; bytes of UTF-8
      // sequences are copied as they are).
      if (src !== this.srcBytes) {
        this.srcBytes = src;
        this.srcView = new DataView(src.buffer, src.byteOffset, src.byteLength);
      }
      const sv = this.srcView;
      const view = this.view;
      for (; i + 4 <= end; i += 4) {
        const x = sv.getInt32(i, true);
        const q = x ^ 0x22222222;
        const b = x ^ 0x5c5c5c5c;
        if ((((x - 0x20202020) & ~x) | ((q - 0x01010101) & ~q) | ((b - 0x01010101) & ~b)) & 0x80808080) break;
        view.setInt32(p, x, true);
        p += 4;
      }
    }
    for (; i < end; i++) {
      const c = src[i]!;
      if (c >= 0x20 && c !== 0x22 && c !== 0x5c) {
        buf[p++] = c;
        continue;
      }
      buf[p++] = 0x5c;
      const named = JSON_ESCAPE[c]!;
      if (named !== 0) buf[p++] = named;
      else {
        buf[p++] = 0x75;
        buf[p++] = 0x30;
        buf[p++] = 0x30;
        buf[p++] = HEX[c >>> 4]!;
        buf[p++] = HEX[c & 15]!;
      }
    }
    buf[p++] = 0x22;
    if (end > start) this.asciiOnly = false;
    this.pos = p;
  }

  /** The whole text (collecting) — or, streaming, hands over the rest and returns an empty array. */
  finish(): Uint8Array {
    if (this.onChunk) {
      this.flush();
      return new Uint8Array(0);
    }
    // A buffer much larger than its text is trimmed, so the caller does not keep the slack alive.
    return this.buf.length > this.pos + (this.pos >> 2) + 4096 ? this.buf.slice(0, this.pos) : this.buf.subarray(0, this.pos);
  }
}
