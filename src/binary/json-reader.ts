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

/** A JSON document that is not well-formed (or not the shape the caller walks): offset, line and column. */
export class JsonSyntaxError extends FormatError {
  override name = 'JsonSyntaxError';
  readonly line: number;
  readonly column: number;
  constructor(format: string, offset: number, line: number, column: number, reason: string) {
    super(format, offset, '', `${reason} (line ${line}, column ${column})`);
    this.line = line;
    this.column = column;
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Container state: what the next token of the innermost open container may be. */
const FIRST = 0;
const AFTER = 1;

export class JsonReader {
  private buf: Uint8Array = new Uint8Array(0);
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
    this.source = (input instanceof Uint8Array ? [input] : input)[Symbol.iterator]();
  }

  /** Byte offset of the next unread byte. */
  get offset(): number {
    return this.base + this.pos;
  }

  /** An error at the current position. */
  error(reason: string, at = this.base + this.pos): JsonSyntaxError {
    return new JsonSyntaxError(this.format, at, this.line, at - this.lineStart + 1, reason);
  }

  /** Makes at least one more byte available from `keep` on (false at the end of input). */
  private refill(keep = this.pos): boolean {
    while (!this.done) {
      const next = this.source.next();
      if (next.done) {
        this.done = true;
        break;
      }
      const chunk = next.value;
      if (chunk.length === 0) continue;
      const tail = this.end - keep;
      const merged = new Uint8Array(tail + chunk.length);
      merged.set(this.buf.subarray(keep, this.end));
      merged.set(chunk, tail);
      this.base += keep;
      this.pos -= keep;
      this.buf = merged;
      this.end = merged.length;
      return true;
    }
    return false;
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

  private number(): number {
    let start = this.pos;
    let i = this.pos;
    let v = 0;
    let simple = true;
    for (;;) {
      if (i >= this.end) {
        const shift = start;
        if (!this.refill(start)) break;
        i -= shift;
        start = 0;
        continue;
      }
      const c = this.buf[i]!;
      if (c >= 0x30 && c <= 0x39) {
        v = v * 10 + (c - 0x30);
        i++;
      } else if (c === 0x2d || c === 0x2b || c === 0x2e || c === 0x65 || c === 0x45) {
        simple = false;
        i++;
      } else break;
    }
    const len = i - start;
    this.pos = i;
    // Plain digits (no leading zero unless alone), up to 15 of them: exact as accumulated.
    if (simple && len > 0 && len <= 15 && (this.buf[start] !== 0x30 || len === 1)) return v;
    let text = '';
    for (let k = start; k < i; k++) text += String.fromCharCode(this.buf[k]!);
    if (!/^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/.test(text)) throw this.error(`bad number ${JSON.stringify(text.slice(0, 40))}`, this.base + start);
    return Number(text);
  }

  private string(): string {
    // At the opening quote.
    let start = this.pos + 1;
    let i = start;
    let ascii = true;
    let escaped = false;
    for (;;) {
      if (i >= this.end) {
        const shift = start - 1;
        if (!this.refill(start - 1)) throw this.error('unterminated string', this.base + start - 1);
        i -= shift;
        start = 1;
        continue;
      }
      const c = this.buf[i]!;
      if (c === 0x22) break;
      if (c === 0x5c) {
        escaped = true;
        i += 2;
        continue;
      }
      if (c < 0x20) throw this.error('control character in a string (escape it)', this.base + i);
      if (c >= 0x80) ascii = false;
      i++;
    }
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

function describe(c: number): string {
  if (c < 0) return 'the end of the input';
  return c >= 0x21 && c < 0x7f ? `'${String.fromCharCode(c)}'` : `byte 0x${c.toString(16).padStart(2, '0')}`;
}
