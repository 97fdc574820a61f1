/**
 * A streaming JSON reader over UTF-8 bytes (RFC 8259): the caller walks the document's outer structure (objects
 * and arrays entered one member at a time) and takes inner values whole as JavaScript values, so a document of
 * hundreds of megabytes is read in fixed memory (one input chunk plus the value being read) and never exists as
 * one string or one object tree. Values read whole are what `JSON.parse` gives for the same text.
 *
 *   const r = new JsonReader(chunks);          // Iterable<Uint8Array>, e.g. a file read 1 MiB at a time
 *   r.enterObject();
 *   for (let key; (key = r.nextKey()) !== null; ) { if (key === 'rows') { r.enterArray(); while (r.nextElement()) use(r.value()); } else r.value(); }
 *   r.finish();
 *
 * Bad input is a `JsonSyntaxError` with the byte offset, line and column (1-based, columns in bytes).
 */
import { FormatError } from './errors.ts';
import { littleEndianWords } from './text-writer.ts';

/** A JSON document that is not well-formed (or not the shape the caller walks): offset, line and column. */
export class JsonSyntaxError extends FormatError {
  override name = 'JsonSyntaxError';
  readonly line: number;
  readonly column: number;
  /** The reason without the line and column. */
  readonly bare: string;
  constructor(format: string, offset: number, line: number, column: number, reason: string, path = '') {
    super(format, offset, path, `${reason} (line ${line}, column ${column})`);
    this.line = line;
    this.column = column;
    this.bare = reason;
  }

  /** The same error placed at `path` in the document's structure. */
  at(path: string): JsonSyntaxError {
    return new JsonSyntaxError(this.format, this.offset, this.line, this.column, this.bare, path);
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Container state: what the next token of the innermost open container may be. */
const FIRST = 0;
const AFTER = 1;

export class JsonReader {
  private buf: Uint8Array = new Uint8Array(0);
  /** `buf` as a DataView (keys compared four bytes at a time); set wherever `buf` is. */
  private view: DataView = new DataView(new ArrayBuffer(0));
  /** The buffer chunks are gathered in (see `refill`). */
  private own: Uint8Array = new Uint8Array(0);
  private pos = 0;
  private end = 0;
  /** Absolute offset of `buf[0]`. */
  private base = 0;
  private line = 1;
  /** Absolute offset where the current line starts. */
  private lineStart = 0;
  private readonly source: Iterator<Uint8Array>;
  private done = false;
  /** Open containers: 0x7b `{` or 0x5b `[`, and whether a member was read. */
  private readonly stack: number[] = [];
  private readonly state: number[] = [];
  readonly format: string;

  constructor(input: Iterable<Uint8Array> | Uint8Array, options: { format?: string } = {}) {
    this.format = options.format ?? 'json';
    if (input instanceof Uint8Array) {
      // One buffer: read in place (never copied).
      this.buf = input;
      this.view = new DataView(input.buffer, input.byteOffset, input.byteLength);
      this.end = input.length;
      this.done = true;
      this.source = [][Symbol.iterator]();
    } else this.source = input[Symbol.iterator]();
  }

  /** Byte offset of the next unread byte. */
  get offset(): number {
    return this.base + this.pos;
  }

  /** An error at the current position (`path`: where in the document's structure, e.g. `/records/3/values/x`). */
  error(reason: string, at = this.base + this.pos, path = ''): JsonSyntaxError {
    return new JsonSyntaxError(this.format, at, this.line, at - this.lineStart + 1, reason, path);
  }

  // Token-level reading, for a caller that builds its result straight from the bytes (no JavaScript value per
  // token). Each reads one token after blanks; a string's bytes are left in the span, valid until the next read.

  /** The next non-blank byte (not consumed), or -1 at the end of the input. */
  peekByte(): number {
    return this.peek();
  }

  /** Consumes the byte `peekByte` returned. */
  skipByte(): void {
    this.pos++;
  }

  /** Consumes byte `c` after blanks, or throws "expected `what`". */
  expectByte(c: number, what: string): void {
    this.expect(c, what);
  }

  /**
   * In an object being read token by token: `}` (consumed; false) or, after the `,` unless `first`, the next key
   * into the span (true; the `:` is left to read).
   */
  nextKeyBytes(first: boolean): boolean {
    const c = this.peek();
    if (c === 0x7d) {
      this.pos++;
      return false;
    }
    if (!first) this.expect(0x2c, ', or }');
    this.stringBytes();
    return true;
  }

  /**
   * `nextKeyBytes` for a caller that knows which key comes next: -1 at `}` (consumed); otherwise, after the `,`
   * unless `first`, 1 when the input holds exactly the bytes `quoted` here (consumed) and 0 when it does not
   * (nothing of the key consumed: read it with `stringBytes`). `quoted` is a key as the writer wrote it, quotes and
   * `:` included; it must come from `quotedKey` (a key whose bytes need no escape), so that matching its bytes is
   * matching the key.
   */
  nextKeyIs(first: boolean, quoted: QuotedKey | undefined): number {
    let c = this.peek();
    if (c === 0x7d) {
      this.pos++;
      return -1;
    }
    if (!first) {
      if (c !== 0x2c) throw this.error(c < 0 ? 'unexpected end of JSON (expected , or })' : `expected , or }, got ${describe(c)}`);
      this.pos++;
      c = this.peek();
    }
    if (quoted === undefined) return 0;
    const n = quoted.bytes.length;
    const p = this.pos;
    if (p + n > this.end) return 0;
    // Four bytes at a time (a game-scale document is more than half keys), then the last few.
    const words = quoted.words;
    const full = n >>> 2;
    const view = this.view;
    for (let i = 0; i < full; i++) if (view.getInt32(p + 4 * i, true) !== words[i]) return 0;
    const buf = this.buf;
    const bytes = quoted.bytes;
    for (let i = full * 4; i < n; i++) if (buf[p + i] !== bytes[i]) return 0;
    this.pos = p + n;
    return 1;
  }

  /** The bytes of the last string read by `stringBytes`: `spanBuf[spanStart..spanEnd)`, UTF-8. */
  spanBuf: Uint8Array = new Uint8Array(0);
  spanStart = 0;
  spanEnd = 0;
  private scratch = new Uint8Array(256);

  /**
   * Reads a string (after blanks) as UTF-8 bytes into the span: a view of the input when it holds no escape, else
   * of a scratch buffer with the escapes decoded (`\u` surrogate pairs joined, a lone surrogate as U+FFFD, as
   * `TextEncoder` writes the string `JSON.parse` gives).
   */
  stringBytes(): void {
    if (this.peek() !== 0x22) throw this.error(`expected a string, got ${describe(this.peek())}`);
    const i = this.scanString();
    const start = this.pos + 1;
    const escaped = this.scanEscaped;
    if (!this.scanAscii && !isUtf8Range(this.buf, start, i)) throw this.error('invalid UTF-8 in a string', this.base + start);
    this.pos = i + 1;
    if (!escaped) {
      this.spanBuf = this.buf;
      this.spanStart = start;
      this.spanEnd = i;
      return;
    }
    if (this.scratch.length < (i - start) * 2) this.scratch = new Uint8Array((i - start) * 2);
    const out = this.scratch;
    const buf = this.buf;
    let o = 0;
    for (let k = start; k < i; ) {
      const c = buf[k]!;
      if (c !== 0x5c) {
        out[o++] = c;
        k++;
        continue;
      }
      const e = buf[k + 1]!;
      k += 2;
      let u: number;
      switch (e) {
        case 0x22: case 0x5c: case 0x2f: out[o++] = e; continue;
        case 0x62: out[o++] = 0x08; continue;
        case 0x66: out[o++] = 0x0c; continue;
        case 0x6e: out[o++] = 0x0a; continue;
        case 0x72: out[o++] = 0x0d; continue;
        case 0x74: out[o++] = 0x09; continue;
        case 0x75:
          u = hex4(buf, k, i);
          if (u < 0) throw this.error('bad \\u escape', this.base + k - 2);
          k += 4;
          break;
        default:
          throw this.error(`bad escape \\${String.fromCharCode(e)}`, this.base + k - 2);
      }
      if (u >= 0xd800 && u < 0xdc00 && buf[k] === 0x5c && buf[k + 1] === 0x75) {
        const lo = hex4(buf, k + 2, i);
        if (lo >= 0xdc00 && lo < 0xe000) {
          u = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
          k += 6;
        }
      }
      if (u >= 0xd800 && u < 0xe000) u = 0xfffd;
      if (u < 0x80) out[o++] = u;
      else if (u < 0x800) {
        out[o++] = 0xc0 | (u >> 6);
        out[o++] = 0x80 | (u & 63);
      } else if (u < 0x10000) {
        out[o++] = 0xe0 | (u >> 12);
        out[o++] = 0x80 | ((u >> 6) & 63);
        out[o++] = 0x80 | (u & 63);
      } else {
        out[o++] = 0xf0 | (u >> 18);
        out[o++] = 0x80 | ((u >> 12) & 63);
        out[o++] = 0x80 | ((u >> 6) & 63);
        out[o++] = 0x80 | (u & 63);
      }
    }
    this.spanBuf = out;
    this.spanStart = 0;
    this.spanEnd = o;
  }

  /** Reads `true` (1) or `false` (0) after blanks; -1 when the next token is not one of them (nothing consumed). */
  booleanValue(): number {
    const c = this.peek();
    if (c !== 0x74 && c !== 0x66) return -1;
    const n = c === 0x74 ? 4 : 5;
    while (this.end - this.pos < n && this.refill());
    const b = this.buf;
    const p = this.pos;
    if (c === 0x74 ? b[p + 1] === 0x72 && b[p + 2] === 0x75 && b[p + 3] === 0x65 : b[p + 1] === 0x61 && b[p + 2] === 0x6c && b[p + 3] === 0x73 && b[p + 4] === 0x65) {
      this.pos = p + n;
      return c === 0x74 ? 1 : 0;
    }
    return -1;
  }

  /** Reads `null` after blanks (true); false when the next token is not `null` (nothing consumed). */
  nullValue(): boolean {
    if (this.peek() !== 0x6e) return false;
    while (this.end - this.pos < 4 && this.refill());
    const b = this.buf;
    const p = this.pos;
    if (b[p + 1] !== 0x75 || b[p + 2] !== 0x6c || b[p + 3] !== 0x6c || p + 4 > this.end) return false;
    this.pos = p + 4;
    return true;
  }

  /** Reads a number (after blanks): its value, as `JSON.parse` gives it. */
  numberValue(): number {
    const c = this.peek();
    if (c !== 0x2d && (c < 0x30 || c > 0x39)) throw this.error(c < 0 ? 'unexpected end of JSON (expected a number)' : `expected a number, got ${describe(c)}`);
    return this.number();
  }

  /**
   * Reads a number (after blanks) and returns the bits of its value rounded to f32: exactly
   * `f32Bits(JSON.parse(text))` (the nearest double, then the nearest f32). Decided from the digits without a
   * string where that is provably the same (Clinger's exact case, or an estimate whose f32 cannot change within its
   * error bound); otherwise through `Number`.
   */
  numberF32Bits(): number {
    const c0 = this.peek();
    if (c0 !== 0x2d && (c0 < 0x30 || c0 > 0x39)) throw this.error(c0 < 0 ? 'unexpected end of JSON (expected a number)' : `expected a number, got ${describe(c0)}`);
    const i = this.numberEnd();
    const start = this.pos;
    const buf = this.buf;
    let k = start;
    const neg = buf[k] === 0x2d;
    if (neg) k++;
    let m = 0;
    let nd = 0;
    let e10 = 0;
    let ok = true;
    const intStart = k;
    if (buf[k] === 0x30) k++;
    else
      for (; k < i; k++) {
        const d = buf[k]! - 0x30;
        if (d < 0 || d > 9) break;
        m = m * 10 + d;
        nd++;
      }
    if (k === intStart) ok = false;
    if (k < i && buf[k] === 0x2e) {
      const fracStart = ++k;
      for (; k < i; k++) {
        const d = buf[k]! - 0x30;
        if (d < 0 || d > 9) break;
        e10--;
        if (m === 0 && d === 0) continue;
        m = m * 10 + d;
        nd++;
      }
      if (k === fracStart) ok = false;
    }
    if (k < i && (buf[k] === 0x65 || buf[k] === 0x45)) {
      k++;
      let sign = 1;
      if (buf[k] === 0x2b || buf[k] === 0x2d) sign = buf[k++] === 0x2d ? -1 : 1;
      const expStart = k;
      let ex = 0;
      for (; k < i; k++) {
        const d = buf[k]! - 0x30;
        if (d < 0 || d > 9) break;
        if (ex < 100000) ex = ex * 10 + d;
      }
      if (k === expStart) ok = false;
      e10 += sign * ex;
    }
    this.pos = i;
    if (!ok || k !== i) {
      let text = '';
      for (let q = start; q < i; q++) text += String.fromCharCode(buf[q]!);
      throw this.error(`bad number ${JSON.stringify(text.slice(0, 40))}`, this.base + start);
    }
    let x: number;
    if (m === 0) x = 0;
    else if (nd <= 15 && e10 >= -22 && e10 <= 22) x = e10 < 0 ? m / POW10[-e10]! : m * POW10[e10]!;
    else {
      // An estimate within 2^-47 of the value (≤ 19 digits accumulated, one or two scalings); its f32 is the
      // answer when nudging it by far more than that error does not change the f32.
      x = nd > 19 ? NaN : e10 < 0 ? (e10 >= -22 ? m / POW10[-e10]! : m / 1e22 / Math.pow(10, -e10 - 22)) : m * Math.pow(10, e10);
      const f = Math.fround(x);
      if (!(f !== 0 && Number.isFinite(f) && Math.fround(x * (1 + 2 ** -40)) === f && Math.fround(x * (1 - 2 ** -40)) === f)) {
        let text = '';
        for (let q = start; q < i; q++) text += String.fromCharCode(buf[q]!);
        x = Math.abs(Number(text));
      }
    }
    f32Scratch[0] = neg ? -x : x;
    return i32Scratch[0]! >>> 0;
  }

  /**
   * Makes at least one more byte available from `keep` on (false at the end of input). The bytes from `keep` on
   * and the next chunk go into one buffer the reader owns and reuses (a chunk may be a view of memory the source
   * reuses, and a fresh buffer per chunk would leave a chunk of garbage each time).
   */
  private refill(keep = this.pos): boolean {
    if (this.done) return false;
    // Move the unread tail to the front of the own buffer first: the source may overwrite its last chunk.
    const tail = this.end - keep;
    if (this.buf === this.own) this.own.copyWithin(0, keep, this.end);
    else {
      if (this.own.length < tail) this.own = new Uint8Array(tail * 2);
      this.own.set(this.buf.subarray(keep, this.end));
    }
    this.setBuf(this.own);
    this.base += keep;
    this.pos -= keep;
    this.end = tail;
    for (;;) {
      const next = this.source.next();
      if (next.done) {
        this.done = true;
        return false;
      }
      const chunk = next.value;
      if (chunk.length === 0) continue;
      if (this.own.length < tail + chunk.length) {
        const grown = new Uint8Array(Math.max(tail + chunk.length, this.own.length * 2));
        grown.set(this.own.subarray(0, tail));
        this.own = grown;
      }
      this.own.set(chunk, tail);
      this.setBuf(this.own);
      this.end = tail + chunk.length;
      return true;
    }
  }

  private setBuf(b: Uint8Array): void {
    if (this.buf === b) return;
    this.buf = b;
    this.view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  }

  /** The next non-blank byte (not consumed), or -1 at the end. */
  private peek(): number {
    for (;;) {
      while (this.pos < this.end) {
        const c = this.buf[this.pos]!;
        if (c === 0x20 || c === 0x09 || c === 0x0d) this.pos++;
        else if (c === 0x0a) {
          this.pos++;
          this.line++;
          this.lineStart = this.base + this.pos;
        } else return c;
      }
      if (!this.refill()) return -1;
    }
  }

  private expect(c: number, what: string): void {
    const got = this.peek();
    if (got !== c) throw this.error(got < 0 ? `unexpected end of JSON (expected ${what})` : `expected ${what}, got ${describe(got)}`);
    this.pos++;
  }

  /** Before a member: consumes the `,` after the previous one; false (and the closer consumed) at the end. */
  private nextMember(close: number): boolean {
    const top = this.stack.length - 1;
    const c = this.peek();
    if (c === close) {
      this.pos++;
      this.stack.pop();
      this.state.pop();
      return false;
    }
    if (this.state[top] === AFTER) {
      if (c !== 0x2c) throw this.error(c < 0 ? 'unexpected end of JSON' : `expected , or ${String.fromCharCode(close)}, got ${describe(c)}`);
      this.pos++;
    } else this.state[top] = AFTER;
    return true;
  }

  /** Opens an object value (`{`). */
  enterObject(): void {
    this.expect(0x7b, 'an object');
    this.stack.push(0x7b);
    this.state.push(FIRST);
  }

  /** Opens an array value (`[`). */
  enterArray(): void {
    this.expect(0x5b, 'an array');
    this.stack.push(0x5b);
    this.state.push(FIRST);
  }

  /** In an open object: the next key (its `:` consumed), or null when the object ends. */
  nextKey(): string | null {
    if (!this.nextMember(0x7d)) return null;
    if (this.peek() !== 0x22) throw this.error(`expected a key string, got ${describe(this.peek())}`);
    const key = this.string();
    this.expect(0x3a, ':');
    return key;
  }

  /** In an open array: true when another element follows (then read it), false when the array ends. */
  nextElement(): boolean {
    if (this.stack[this.stack.length - 1] !== 0x5b) throw this.error('not in an array');
    if (this.state[this.state.length - 1] === FIRST) {
      const c = this.peek();
      if (c === 0x5d) {
        this.pos++;
        this.stack.pop();
        this.state.pop();
        return false;
      }
      this.state[this.state.length - 1] = AFTER;
      return true;
    }
    return this.nextMember(0x5d);
  }

  /** Checks that nothing but blanks follows the document. */
  finish(): void {
    const c = this.peek();
    if (c >= 0) throw this.error(`unexpected ${describe(c)} after the end of the JSON document`);
  }

  /**
   * The next value, whole, as `JSON.parse` would give it: its extent is found by a byte scan (strings and
   * nesting), then the native parser reads it; only a value the native parser refuses is read again here, to say
   * where it is wrong.
   */
  value(): unknown {
    const c = this.peek();
    if (c !== 0x7b && c !== 0x5b) return this.parse(0);
    let start = this.pos;
    let i = start;
    let depth = 0;
    let inString = false;
    let line = this.line;
    let lineStart = this.lineStart;
    for (;;) {
      if (i >= this.end) {
        const shift = start;
        if (!this.refill(start)) return this.parse(0); // unterminated: the precise parser says where
        i -= shift;
        start = 0;
        continue;
      }
      const b = this.buf[i]!;
      if (inString) {
        if (b === 0x22) inString = false;
        else if (b === 0x5c) i++;
        i++;
        continue;
      }
      i++;
      if (b === 0x22) inString = true;
      else if (b === 0x7b || b === 0x5b) depth++;
      else if (b === 0x7d || b === 0x5d) {
        if (--depth === 0) break;
      } else if (b === 0x0a) {
        line++;
        lineStart = this.base + i;
      }
    }
    let v: unknown;
    try {
      v = JSON.parse(utf8.decode(this.buf.subarray(start, i)));
    } catch {
      return this.parse(0);
    }
    this.pos = i;
    this.line = line;
    this.lineStart = lineStart;
    return v;
  }

  /** The next value, read here byte by byte: faster than `value` for small values (a row of numbers). */
  smallValue(): unknown {
    return this.parse(0);
  }

  private parse(depth: number): unknown {
    if (depth > 512) throw this.error('JSON nested deeper than 512 levels');
    const c = this.peek();
    if (c === 0x22) return this.string();
    if (c === 0x7b) {
      this.pos++;
      const obj: Record<string, unknown> = {};
      let first = true;
      for (;;) {
        let d = this.peek();
        if (d === 0x7d) {
          this.pos++;
          return obj;
        }
        if (!first) {
          if (d !== 0x2c) throw this.error(d < 0 ? 'unexpected end of JSON' : `expected , or }, got ${describe(d)}`);
          this.pos++;
          d = this.peek();
        }
        first = false;
        if (d !== 0x22) throw this.error(d < 0 ? 'unexpected end of JSON' : `expected a key string, got ${describe(d)}`);
        const key = this.string();
        this.expect(0x3a, ':');
        const v = this.parse(depth + 1);
        if (key === '__proto__') Object.defineProperty(obj, key, { value: v, enumerable: true, writable: true, configurable: true });
        else obj[key] = v;
      }
    }
    if (c === 0x5b) {
      this.pos++;
      const arr: unknown[] = [];
      for (;;) {
        let d = this.peek();
        if (d === 0x5d) {
          this.pos++;
          return arr;
        }
        if (arr.length > 0) {
          if (d !== 0x2c) throw this.error(d < 0 ? 'unexpected end of JSON' : `expected , or ], got ${describe(d)}`);
          this.pos++;
          d = this.peek();
        }
        if (d === 0x5d) throw this.error('expected a value, got ]');
        arr.push(this.parse(depth + 1));
      }
    }
    if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return this.number();
    if (c === 0x74) return this.word('true', true);
    if (c === 0x66) return this.word('false', false);
    if (c === 0x6e) return this.word('null', null);
    throw this.error(c < 0 ? 'unexpected end of JSON (expected a value)' : `expected a value, got ${describe(c)}`);
  }

  private word<T>(text: string, v: T): T {
    while (this.end - this.pos < text.length && this.refill());
    for (let i = 0; i < text.length; i++) {
      if (this.buf[this.pos + i] !== text.charCodeAt(i)) throw this.error(`expected a value, got ${describe(this.buf[this.pos] ?? -1)}`);
    }
    this.pos += text.length;
    return v;
  }

  /** At a number: makes all of it available and returns its end (`pos` may move when the buffer is refilled). */
  private numberEnd(): number {
    let start = this.pos;
    let i = start;
    for (;;) {
      if (i >= this.end) {
        // refill moves the kept bytes to the front even when the input has ended: follow the move either way.
        const base = this.base;
        const more = this.refill(start);
        i -= this.base - base;
        start = this.pos;
        if (!more) break;
        continue;
      }
      const c = this.buf[i]!;
      if ((c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2b || c === 0x2e || c === 0x65 || c === 0x45) i++;
      else break;
    }
    return i;
  }

  private number(): number {
    // The common case in one pass: an optional minus and up to 15 digits (no leading zero), followed in the
    // buffer by a byte that cannot continue a number — exact as accumulated, and what JSON.parse gives.
    const buf = this.buf;
    const end = this.end;
    let k = this.pos;
    const neg = buf[k] === 0x2d;
    if (neg) k++;
    const digits = k;
    let v = 0;
    for (; k < end; k++) {
      const d = buf[k]! - 0x30;
      if (d < 0 || d > 9) break;
      v = v * 10 + d;
    }
    const n = k - digits;
    if (k < end && n > 0 && n <= 15 && (n === 1 || buf[digits] !== 0x30)) {
      const c = buf[k]!;
      if (c !== 0x2e && c !== 0x65 && c !== 0x45 && c !== 0x2d && c !== 0x2b) {
        this.pos = k;
        return neg ? -v : v;
      }
    }
    return this.numberSlow();
  }

  /** `number` for any other number text (a fraction, an exponent, a number at the end of the buffer, a bad one). */
  private numberSlow(): number {
    const i = this.numberEnd();
    const start = this.pos;
    let v = 0;
    let simple = true;
    for (let k = start; k < i; k++) {
      const c = this.buf[k]!;
      if (c >= 0x30 && c <= 0x39) v = v * 10 + (c - 0x30);
      else simple = false;
    }
    const len = i - start;
    this.pos = i;
    // Plain digits (no leading zero unless alone), up to 15 of them: exact as accumulated.
    if (simple && len > 0 && len <= 15 && (this.buf[start] !== 0x30 || len === 1)) return v;
    // The same after a minus sign.
    if (!simple && len > 1 && len <= 16 && this.buf[start] === 0x2d && (this.buf[start + 1] !== 0x30 || len === 2)) {
      let n = 0;
      for (let k = start + 1; k < i; k++) {
        const d = this.buf[k]! - 0x30;
        if (d < 0 || d > 9) {
          n = -1;
          break;
        }
        n = n * 10 + d;
      }
      if (n >= 0) return -n;
    }
    let text = '';
    for (let k = start; k < i; k++) text += String.fromCharCode(this.buf[k]!);
    if (!/^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/.test(text)) throw this.error(`bad number ${JSON.stringify(text.slice(0, 40))}`, this.base + start);
    return Number(text);
  }

  /** Whether the string `scanString` found holds an escape / only ASCII bytes. */
  private scanEscaped = false;
  private scanAscii = true;

  /**
   * At a string's opening quote (`pos`): makes the whole string available and returns the index of its closing
   * quote (`pos` may move when the buffer is refilled; the string starts at `pos + 1`).
   */
  private scanString(): number {
    let start = this.pos + 1;
    let i = start;
    let ascii = true;
    let escaped = false;
    for (;;) {
      if (i >= this.end) {
        const base = this.base;
        const more = this.refill(start - 1);
        i -= this.base - base;
        start -= this.base - base;
        if (!more) throw this.error('unterminated string', this.base + start - 1);
        continue;
      }
      const buf = this.buf;
      const end = this.end;
      // Plain bytes (the run of nearly every string) four at a time while none of them is a quote, a backslash, a
      // control or above 0x7F, then one table load each.
      const view = this.view;
      for (; i + 4 <= end; i += 4) {
        const x = view.getInt32(i, true);
        const q = x ^ 0x22222222;
        const b = x ^ 0x5c5c5c5c;
        if ((x | ((x - 0x20202020) & ~x) | ((q - 0x01010101) & ~q) | ((b - 0x01010101) & ~b)) & 0x80808080) break;
      }
      if (i >= end) continue;
      let c = buf[i]!;
      while (STRING_CLASS[c] === 0 && ++i < end) c = buf[i]!;
      if (i >= end) continue;
      const cls = STRING_CLASS[c]!;
      if (cls === S_QUOTE) break;
      if (cls === S_BACKSLASH) {
        escaped = true;
        i += 2;
        continue;
      }
      if (cls === S_CONTROL) throw this.error('control character in a string (escape it)', this.base + i);
      ascii = false;
      i++;
    }
    this.scanEscaped = escaped;
    this.scanAscii = ascii;
    return i;
  }

  private string(): string {
    // At the opening quote.
    const i = this.scanString();
    const start = this.pos + 1;
    const ascii = this.scanAscii;
    const escaped = this.scanEscaped;
    this.pos = i + 1;
    const buf = this.buf;
    if (!escaped) {
      if (ascii) {
        const n = i - start;
        if (n <= 24) {
          let s = '';
          for (let k = start; k < i; k++) s += String.fromCharCode(buf[k]!);
          return s;
        }
        return utf8.decode(buf.subarray(start, i));
      }
      return this.utf8(start, i);
    }
    // With escapes: decode runs of plain bytes, then each escape.
    let out = '';
    let run = start;
    for (let k = start; k < i; ) {
      if (buf[k] !== 0x5c) {
        k++;
        continue;
      }
      if (k > run) out += this.utf8(run, k);
      const e = buf[k + 1]!;
      k += 2;
      switch (e) {
        case 0x22: out += '"'; break;
        case 0x5c: out += '\\'; break;
        case 0x2f: out += '/'; break;
        case 0x62: out += '\b'; break;
        case 0x66: out += '\f'; break;
        case 0x6e: out += '\n'; break;
        case 0x72: out += '\r'; break;
        case 0x74: out += '\t'; break;
        case 0x75: {
          let u = 0;
          for (let h = 0; h < 4; h++) {
            const d = buf[k + h] ?? -1;
            const x = d >= 0x30 && d <= 0x39 ? d - 0x30 : d >= 0x61 && d <= 0x66 ? d - 0x57 : d >= 0x41 && d <= 0x46 ? d - 0x37 : -1;
            if (x < 0 || k + h >= i) throw this.error('bad \\u escape', this.base + k - 2);
            u = u * 16 + x;
          }
          out += String.fromCharCode(u);
          k += 4;
          break;
        }
        default:
          throw this.error(`bad escape \\${String.fromCharCode(e)}`, this.base + k - 2);
      }
      run = k;
    }
    if (i > run) out += this.utf8(run, i);
    return out;
  }

  private utf8(from: number, to: number): string {
    try {
      return utf8.decode(this.buf.subarray(from, to));
    } catch {
      throw this.error('invalid UTF-8 in a string', this.base + from);
    }
  }
}

/** Per byte inside a string: 0 plain ASCII, or what else it is (one table load per byte in `scanString`). */
const S_QUOTE = 1;
const S_BACKSLASH = 2;
const S_CONTROL = 3;
const S_HIGH = 4;
const STRING_CLASS = new Uint8Array(256);
STRING_CLASS.fill(S_CONTROL, 0, 0x20);
STRING_CLASS.fill(S_HIGH, 0x80, 0x100);
STRING_CLASS[0x22] = S_QUOTE;
STRING_CLASS[0x5c] = S_BACKSLASH;

const POW10 = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22];
const f32Scratch = new Float32Array(1);
const i32Scratch = new Int32Array(f32Scratch.buffer);

/** The value of 4 hex digits at `buf[k..k+4)` (all before `end`), or -1. */
function hex4(buf: Uint8Array, k: number, end: number): number {
  if (k + 4 > end) return -1;
  let u = 0;
  for (let h = 0; h < 4; h++) {
    const d = buf[k + h]!;
    const x = d >= 0x30 && d <= 0x39 ? d - 0x30 : d >= 0x61 && d <= 0x66 ? d - 0x57 : d >= 0x41 && d <= 0x46 ? d - 0x37 : -1;
    if (x < 0) return -1;
    u = u * 16 + x;
  }
  return u;
}

function isUtf8Range(buf: Uint8Array, start: number, end: number): boolean {
  try {
    utf8.decode(buf.subarray(start, end));
    return true;
  } catch {
    return false;
  }
}

function describe(c: number): string {
  if (c < 0) return 'the end of the input';
  return c >= 0x21 && c < 0x7f ? `'${String.fromCharCode(c)}'` : `byte 0x${c.toString(16).padStart(2, '0')}`;
}

/**
 * A key as a writer writes it before its value (`"key":`), from `quotedKey`: its bytes, and its whole four-byte
 * groups as little-endian 32-bit words (what `nextKeyIs` compares).
 */
export interface QuotedKey {
  readonly bytes: Uint8Array;
  readonly words: Int32Array;
}

/**
 * The key `key[start..end)` (UTF-8, as `stringBytes` gives it) as a writer writes it before its value — quotes and
 * `:` — for `nextKeyIs`; undefined when its text needs an escape (then only `stringBytes` reads it right).
 */
export function quotedKey(key: Uint8Array, start: number, end: number): QuotedKey | undefined {
  const q = new Uint8Array(end - start + 3);
  q[0] = 0x22;
  for (let i = start; i < end; i++) {
    const c = key[i]!;
    const cls = STRING_CLASS[c]!;
    if (cls === S_QUOTE || cls === S_BACKSLASH || cls === S_CONTROL) return undefined;
    q[i - start + 1] = c;
  }
  q[end - start + 1] = 0x22;
  q[end - start + 2] = 0x3a;
  return { bytes: q, words: littleEndianWords(q).subarray(0, q.length >>> 2) };
}
