/**
 * The lexer for HavokScript source, with the exact behaviour of hksc's (Lua 5.1's `llex` plus the HavokScript
 * additions): byte-oriented, C-locale character classes, `0x…hi` / `0x…hl` int literals, the byte-order-mark rule
 * (a UTF-8 BOM switches to "UTF-8 mode", where bytes ≥ 0x80 are refused outside strings and comments; any other
 * BOM-like start is refused), and hksc's line accounting (`line` is the lexer's current line, `lastLine` the line it
 * was on when the parser last consumed a token: hksc attributes each instruction to `lastLine`). Columns are extra
 * (hksc has none): 1-based byte columns of each token's first and last byte, for the AST and error columns.
 *
 * Two quirks are kept on purpose because they decide what compiles: at the end of the input (and at a NUL byte) the
 * `check_next` helper matches any set, so `a.` at the very end lexes as `a ...`; and the "near" text of a message
 * for a name, string or number token is the text of the last token lexed, which may be the look-ahead token.
 */
import { latin1Decode } from '../../binary/text.ts';
import { CompileError } from './errors.ts';
import { readIntLiteralDigits, readLuaNumeral } from './numbers.ts';

/** Token codes: single-character tokens are their byte value; the rest start at 257 (order = hksc's table). */
export const Tok = {
  AND: 257,
  BREAK: 258,
  DO: 259,
  ELSE: 260,
  ELSEIF: 261,
  END: 262,
  FALSE: 263,
  FOR: 264,
  FUNCTION: 265,
  IF: 266,
  IN: 267,
  LOCAL: 268,
  NIL: 269,
  NOT: 270,
  OR: 271,
  REPEAT: 272,
  RETURN: 273,
  THEN: 274,
  TRUE: 275,
  UNTIL: 276,
  WHILE: 277,
  HSTRUCTURE: 278,
  HMAKE: 279,
  CONCAT: 280,
  DOTS: 281,
  EQ: 282,
  GE: 283,
  LE: 284,
  NE: 285,
  NUMBER: 286,
  LITERALLUD: 287,
  LITERALUI64: 288,
  NAME: 289,
  STRING: 290,
  EOS: 291,
  BOM_INVALID: 292,
  BOM_UTF8: 293,
  BOM_UTF16LE: 294,
  BOM_UTF16BE: 295,
  BOM_UTF32LE: 296,
  BOM_UTF32BE: 297,
} as const;

const FIRST_RESERVED = 257;
/** Texts of the tokens from 257 on, in code order (reserved words first). */
const TOKEN_TEXTS = [
  'and', 'break', 'do', 'else', 'elseif', 'end', 'false', 'for', 'function', 'if', 'in', 'local', 'nil', 'not', 'or',
  'repeat', 'return', 'then', 'true', 'until', 'while', 'hstructure', 'hmake',
  '..', '...', '==', '>=', '<=', '~=',
  '<number>', '<short literal>', '<long literal>', '<name>', '<string>', '<eof>',
  '<Invalid BOM>', '<UTF8 BOM>', '<UTF16LE BOM>', '<UTF16BE BOM>', '<UTF32LE BOM>', '<UTF32BE BOM>',
];
/** Tokens up to this one are quoted in messages (`'end'`); later ones are printed as is (`<eof>`). */
const LAST_FIXED_FORMAT_TOKEN = Tok.NE;

const RESERVED = new Map<string, number>(TOKEN_TEXTS.slice(0, Tok.HMAKE - FIRST_RESERVED + 1).map((w, i) => [w, FIRST_RESERVED + i]));

// C-locale character classes.
const C_DIGIT = 1;
const C_ALPHA = 2;
const C_SPACE = 4;
const C_HEX = 8;
const CLASS = new Uint8Array(256);
for (let c = 0; c < 256; c++) {
  let k = 0;
  if (c >= 0x30 && c <= 0x39) k |= C_DIGIT | C_HEX;
  if ((c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a)) k |= C_ALPHA;
  if ((c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66)) k |= C_HEX;
  if (c === 0x20 || (c >= 0x09 && c <= 0x0d)) k |= C_SPACE;
  CLASS[c] = k;
}
/** Name characters (letters, digits, `_`). */
const C_NAME = 16;
for (let c = 0; c < 256; c++) if ((CLASS[c]! & (C_DIGIT | C_ALPHA)) !== 0 || c === 0x5f) CLASS[c]! |= C_NAME;
const isDigit = (c: number): boolean => (CLASS[c]! & C_DIGIT) !== 0;
const isNameChar = (c: number): boolean => (CLASS[c]! & C_NAME) !== 0;
const isNewline = (c: number): boolean => c === 0x0a || c === 0x0d;

/**
 * Names seen in this source, interned by their bytes: a name token costs no string allocation once seen, and the
 * same string object serves every later lookup (constant tables, scopes). Reserved words are preloaded.
 */
class NameTable {
  private slots: (string | undefined)[] = new Array<string | undefined>(1024);
  private tokens = new Int32Array(1024);
  private count = 0;

  constructor() {
    for (const [word, token] of RESERVED) this.insert(word, token);
  }

  private static hashText(s: string): number {
    let h = 0x811c9dc5;
    for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
    return h >>> 0;
  }

  private insert(name: string, token: number): void {
    if ((this.count + 1) * 2 > this.slots.length) this.grow();
    const mask = this.slots.length - 1;
    let i = NameTable.hashText(name) & mask;
    while (this.slots[i] !== undefined) i = (i + 1) & mask;
    this.slots[i] = name;
    this.tokens[i] = token;
    this.count++;
  }

  private grow(): void {
    const old = this.slots;
    const oldTokens = this.tokens;
    this.slots = new Array<string | undefined>(old.length * 2);
    this.tokens = new Int32Array(old.length * 2);
    this.count = 0;
    for (let i = 0; i < old.length; i++) if (old[i] !== undefined) this.insert(old[i]!, oldTokens[i]!);
  }

  /** Token of the last `lookup` (NAME or a reserved word). */
  token = 0;

  /** The interned string of `src[start..end)` (hash `h` of those bytes, FNV-1a); its token is left in `token`. */
  lookup(src: Uint8Array, start: number, end: number, h: number): string {
    const mask = this.slots.length - 1;
    const len = end - start;
    for (let i = h & mask; ; i = (i + 1) & mask) {
      const s = this.slots[i];
      if (s === undefined) break;
      if (s.length === len) {
        let k = 0;
        while (k < len && s.charCodeAt(k) === src[start + k]) k++;
        if (k === len) {
          this.token = this.tokens[i]!;
          return s;
        }
      }
    }
    const name = latin1Decode(src.subarray(start, end));
    this.insert(name, Tok.NAME);
    this.token = Tok.NAME;
    return name;
  }
}

/** Printed form of a token code in messages (modern Lua style, as hksc prints it). */
export function tokenText(token: number): string {
  if (token < FIRST_RESERVED) {
    return token >= 0x20 && token < 0x7f ? `'${String.fromCharCode(token)}'` : `'<\\${token}>'`;
  }
  const s = TOKEN_TEXTS[token - FIRST_RESERVED]!;
  return token <= LAST_FIXED_FORMAT_TOKEN ? `'${s}'` : s;
}

/** The value carried by a token: a number (NUMBER), a byte string (NAME, STRING), a bigint (int literals). */
export type TokenValue = number | string | bigint | undefined;

export class Lexer {
  readonly src: Uint8Array;
  readonly chunkName: string;
  private readonly n: number;
  /** Index of the current character (`n` at the end of the input, where the current character is 0). */
  private p = 0;
  /** Offset of the first byte of the current line (for columns). */
  private lineStart = 0;
  private readonly names = new NameTable();
  /** True after a UTF-8 byte-order mark. */
  utf8 = false;

  /** hksc's `linenumber`: the line the lexer is on. */
  line = 1;
  /** hksc's `lastline`: `line` when the parser last consumed a token. */
  lastLine = 1;

  // The current token.
  tok: number = Tok.EOS;
  val: TokenValue;
  tokLine = 1;
  tokCol = 1;
  tokEndLine = 1;
  tokEndCol = 0;
  private tokStart = 0;
  private tokEnd = 0;
  private tokRaw: string | null = null;

  // The look-ahead token (ahead === Tok.EOS: none).
  private ahead: number = Tok.EOS;
  private aheadVal: TokenValue;
  private aheadLine = 1;
  private aheadCol = 1;
  private aheadEndLine = 1;
  private aheadEndCol = 0;
  private aheadStart = 0;
  private aheadEnd = 0;
  private aheadRaw: string | null = null;

  /** End position of the last consumed token (for AST end positions). */
  prevEndLine = 1;
  prevEndCol = 0;

  // llex output.
  private lxVal: TokenValue;
  private lxLine = 1;
  private lxCol = 1;
  private lxStart = 0;
  private lxRaw: string | null = null;

  /** hksc's token buffer (luaZ_buffer) for strings and numerals: its text is what messages quote. */
  private buf = new Uint8Array(256);
  private bufLen = 0;
  /** True when the buffer is the source range of the last name (names are not copied). */
  private bufIsSource = false;
  private bufStart = 0;
  private bufEnd = 0;

  constructor(src: Uint8Array, chunkName: string) {
    this.src = src;
    this.n = src.length;
    this.chunkName = chunkName;
  }

  // -------------------------------------------------------------------------------------------------------------
  // Errors

  /** An error at the current line; `token` (if not 0) adds `near <token>`. */
  error(message: string, token: number, column = this.tokCol): CompileError {
    const near = token !== 0 ? ` near ${this.nearText(token)}` : '';
    return new CompileError(this.chunkName, this.line, column, message + near);
  }

  /** An error found while lexing a token (column: where that token starts). */
  private lexError(message: string, token: number): CompileError {
    return this.error(message, token, this.lxCol);
  }

  /** luaX_syntaxerror: `message near <current token>`. */
  syntaxError(message: string): CompileError {
    return this.error(message, this.tok);
  }

  /** luaX_inputerror / luaX_semerror: `message` at the current line, no `near`. */
  inputError(message: string): CompileError {
    return new CompileError(this.chunkName, this.line, this.tokCol, message);
  }

  private nearText(token: number): string {
    switch (token) {
      case Tok.NAME:
      case Tok.STRING:
      case Tok.NUMBER:
      case Tok.LITERALLUD:
      case Tok.LITERALUI64:
        return `'${this.bufferText()}'`;
      default:
        return tokenText(token);
    }
  }

  /** The buffer as C prints it with %s: up to its first NUL. */
  private bufferText(): string {
    const text = this.bufIsSource ? latin1Decode(this.src.subarray(this.bufStart, this.bufEnd)) : latin1Decode(this.buf.subarray(0, this.bufLen));
    const nul = text.indexOf('\0');
    return nul >= 0 ? text.slice(0, nul) : text;
  }

  // -------------------------------------------------------------------------------------------------------------
  // Characters

  /** The current character (0 at the end of the input). */
  private ch(): number {
    return this.p < this.n ? this.src[this.p]! : 0;
  }

  /** hksc's stream state: false once the input is exhausted. */
  private more(): boolean {
    return this.p < this.n;
  }

  private next(): void {
    if (this.p < this.n) this.p++;
  }

  private save(c: number): void {
    if (this.bufLen === this.buf.length) {
      const b = new Uint8Array(this.buf.length * 2);
      b.set(this.buf);
      this.buf = b;
    }
    this.buf[this.bufLen++] = c;
  }

  private saveAndNext(): void {
    this.save(this.ch());
    this.next();
  }

  /** hksc's check_next: `strchr(set, current)`, which also matches the NUL terminator (current 0). */
  private checkNext(a: number, b = -1): boolean {
    const c = this.ch();
    if (c !== 0 && c !== a && c !== b) return false;
    this.saveAndNext();
    return true;
  }

  private incLine(): void {
    const old = this.ch();
    this.next();
    const c = this.ch();
    if (isNewline(c) && c !== old) this.next();
    this.line++;
    this.lineStart = this.p;
    if (this.line >= 0x7fffffff) throw this.inputError('chunk has too many lines');
  }

  // -------------------------------------------------------------------------------------------------------------
  // Tokens

  /** Reads the first token, handling a byte-order mark (sets `utf8` after a UTF-8 BOM, refuses any other). */
  readFirstToken(): void {
    if (!this.more()) {
      this.setCurrentFromLex(this.llex());
      return;
    }
    const c = this.ch();
    if (c === 0xef || c === 0xfe || c === 0xff || c === 0) {
      const bom = this.readBom();
      if (bom !== Tok.BOM_UTF8) throw this.inputError('Invalid or unsupported file encoding. Only ASCII and UTF-8 are supported');
      this.utf8 = true;
      this.lineStart = this.p;
      this.advance();
      return;
    }
    this.setCurrentFromLex(this.llex());
  }

  /** hksc's readBOM: which byte-order mark the input starts with (BOM_INVALID for none it knows). */
  private readBom(): number {
    const first = this.ch();
    const nextChar = (): number => {
      this.next();
      return this.ch();
    };
    if (first === 0xef) {
      if (nextChar() === 0xbb && nextChar() === 0xbf) {
        this.next();
        return Tok.BOM_UTF8;
      }
    } else if (first === 0xfe) {
      if (nextChar() === 0xff) {
        this.next();
        return Tok.BOM_UTF16BE;
      }
    } else if (first === 0xff) {
      if (nextChar() === 0xfe) {
        let c = nextChar();
        if (!this.more() || c !== 0) return Tok.BOM_UTF16LE;
        c = nextChar();
        if (this.more() && c === 0) {
          this.next();
          return Tok.BOM_UTF32LE;
        }
      }
    } else if (first === 0) {
      const zero = nextChar() === 0 && this.more();
      if (zero && nextChar() === 0xfe && nextChar() === 0xff) {
        this.next();
        return Tok.BOM_UTF32BE;
      }
    }
    return Tok.BOM_INVALID;
  }

  private setCurrentFromLex(kind: number): void {
    this.tok = kind;
    this.val = this.lxVal;
    this.tokLine = this.lxLine;
    this.tokCol = this.lxCol;
    this.tokStart = this.lxStart;
    this.tokEnd = this.p;
    this.tokRaw = this.lxRaw;
    this.tokEndLine = this.line;
    this.tokEndCol = this.p - this.lineStart;
  }

  /** luaX_next: consume the current token. */
  advance(): void {
    this.lastLine = this.line;
    this.prevEndLine = this.tokEndLine;
    this.prevEndCol = this.tokEndCol;
    if (this.ahead !== Tok.EOS) {
      this.tok = this.ahead;
      this.val = this.aheadVal;
      this.tokLine = this.aheadLine;
      this.tokCol = this.aheadCol;
      this.tokEndLine = this.aheadEndLine;
      this.tokEndCol = this.aheadEndCol;
      this.tokStart = this.aheadStart;
      this.tokEnd = this.aheadEnd;
      this.tokRaw = this.aheadRaw;
      this.ahead = Tok.EOS;
    } else this.setCurrentFromLex(this.llex());
  }

  /** luaX_lookahead: lex the next token without consuming the current one. Returns its code. */
  lookahead(): number {
    const kind = this.llex();
    this.ahead = kind;
    this.aheadVal = this.lxVal;
    this.aheadLine = this.lxLine;
    this.aheadCol = this.lxCol;
    this.aheadStart = this.lxStart;
    this.aheadEnd = this.p;
    this.aheadRaw = this.lxRaw;
    this.aheadEndLine = this.line;
    this.aheadEndCol = this.p - this.lineStart;
    return kind;
  }

  /** Source text of the current token (latin-1). */
  tokenSource(): string {
    return this.tokRaw ?? latin1Decode(this.src.subarray(this.tokStart, this.tokEnd));
  }

  private startToken(): void {
    this.lxLine = this.line;
    this.lxStart = this.p;
    this.lxCol = this.p - this.lineStart + 1;
  }

  private llex(): number {
    const src = this.src;
    const n = this.n;
    this.bufLen = 0;
    this.bufIsSource = false;
    this.lxVal = undefined;
    this.lxRaw = null;
    for (;;) {
      const p = this.p;
      if (p >= n) {
        this.startToken();
        return Tok.EOS;
      }
      const c = src[p]!;
      if (c >= 0x80 && this.utf8) throw this.error('Multi-byte characters are only supported in strings and comments', this.tok, p - this.lineStart + 1);
      const k = CLASS[c]!;
      if ((k & C_NAME) !== 0) {
        this.startToken();
        if ((k & C_DIGIT) !== 0) return this.readNumeral();
        // identifier or reserved word
        let q = p;
        let h = 0x811c9dc5;
        while (q < n && (CLASS[src[q]!]! & C_NAME) !== 0) h = Math.imul(h ^ src[q++]!, 0x01000193);
        this.p = q;
        const name = this.names.lookup(src, p, q, h >>> 0);
        const token = this.names.token;
        if (token !== Tok.NAME) return token;
        this.bufIsSource = true;
        this.bufStart = p;
        this.bufEnd = q;
        this.lxVal = name;
        return Tok.NAME;
      }
      switch (c) {
        case 0x0a:
        case 0x0d:
          this.incLine();
          continue;
        case 0x20:
        case 0x09:
        case 0x0b:
        case 0x0c: {
          let q = p + 1;
          while (q < n) {
            const d = src[q]!;
            if (d !== 0x20 && d !== 0x09 && d !== 0x0b && d !== 0x0c) break;
            q++;
          }
          this.p = q;
          continue;
        }
        case 0x2d: // '-'
          this.startToken();
          this.p++;
          if (this.ch() !== 0x2d) return 0x2d;
          this.p++;
          if (this.ch() === 0x5b) {
            const sep = this.skipSep();
            this.bufLen = 0;
            if (sep >= 0) {
              this.readLongString(sep, false);
              this.bufLen = 0;
              continue;
            }
          }
          {
            let q = this.p;
            while (q < n && src[q] !== 0x0a && src[q] !== 0x0d) q++;
            this.p = q;
          }
          continue;
        case 0x5b: {
          // '['
          this.startToken();
          const sep = this.skipSep();
          if (sep >= 0) {
            this.readLongString(sep, true);
            return Tok.STRING;
          }
          if (sep === -1) return 0x5b;
          throw this.lexError('invalid long string delimiter', Tok.STRING);
        }
        case 0x3d: // '='
          this.startToken();
          this.p++;
          if (this.ch() !== 0x3d) return 0x3d;
          this.p++;
          return Tok.EQ;
        case 0x3c: // '<'
          this.startToken();
          this.p++;
          if (this.ch() !== 0x3d) return 0x3c;
          this.p++;
          return Tok.LE;
        case 0x3e: // '>'
          this.startToken();
          this.p++;
          if (this.ch() !== 0x3d) return 0x3e;
          this.p++;
          return Tok.GE;
        case 0x7e: // '~'
          this.startToken();
          this.p++;
          if (this.ch() !== 0x3d) return 0x7e;
          this.p++;
          return Tok.NE;
        case 0x22: // '"'
        case 0x27: // "'"
          this.startToken();
          this.readString(c);
          return Tok.STRING;
        case 0x2e: // '.'
          this.startToken();
          this.saveAndNext();
          if (this.checkNext(0x2e)) {
            if (this.checkNext(0x2e)) return Tok.DOTS;
            return Tok.CONCAT;
          }
          if (!isDigit(this.ch())) return 0x2e;
          return this.readNumeral();
        default:
          this.startToken();
          this.p++;
          return c; // single-character token (any other byte, NUL included)
      }
    }
  }

  /** `[`, `=`*, then `[` or `]`: the level, or -(level)-1 when the second bracket is missing. */
  private skipSep(): number {
    let count = 0;
    const s = this.ch();
    this.saveAndNext();
    while (this.ch() === 0x3d) {
      this.saveAndNext();
      count++;
    }
    return this.ch() === s ? count : -count - 1;
  }

  private readLongString(sep: number, isString: boolean): void {
    this.saveAndNext(); // the second '['
    if (isNewline(this.ch())) this.incLine();
    const src = this.src;
    const n = this.n;
    for (;;) {
      if (!this.more()) throw this.lexError(isString ? 'unfinished long string' : 'unfinished long comment', Tok.EOS);
      const c = src[this.p]!;
      switch (c) {
        case 0x5b: // '[': nested [[ is refused (LUA_COMPAT_LSTR 1)
          if (this.skipSep() === sep) {
            this.saveAndNext();
            if (sep === 0) throw this.lexError('nesting of [[...]] is deprecated', 0x5b);
          }
          break;
        case 0x5d: // ']'
          if (this.skipSep() === sep) {
            this.saveAndNext();
            if (isString) {
              this.lxVal = latin1Decode(this.buf.subarray(2 + sep, this.bufLen - (2 + sep)));
              this.lxRaw = null;
            }
            return;
          }
          break;
        case 0x0a:
        case 0x0d:
          this.save(0x0a);
          this.incLine();
          if (!isString) this.bufLen = 0;
          break;
        default: {
          // A run of ordinary characters at once.
          let q = this.p + 1;
          while (q < n) {
            const d = src[q]!;
            if (d === 0x5b || d === 0x5d || d === 0x0a || d === 0x0d) break;
            q++;
          }
          if (isString) for (let i = this.p; i < q; i++) this.save(src[i]!);
          this.p = q;
        }
      }
    }
  }

  private readString(del: number): void {
    const src = this.src;
    const n = this.n;
    // Fast path: no escape and no line end before the closing delimiter.
    let q = this.p + 1;
    while (q < n) {
      const d = src[q]!;
      if (d === del || d === 0x5c || d === 0x0a || d === 0x0d) break;
      q++;
    }
    if (q < n && src[q] === del) {
      const value = latin1Decode(src.subarray(this.p + 1, q));
      this.lxVal = value;
      const quote = del === 0x22 ? '"' : "'";
      this.lxRaw = quote + value + quote;
      // The buffer (for messages about this token) is the whole token.
      this.bufIsSource = true;
      this.bufStart = this.p;
      this.bufEnd = q + 1;
      this.p = q + 1;
      return;
    }
    this.saveAndNext();
    while (this.ch() !== del) {
      if (!this.more()) throw this.lexError('unfinished string', Tok.EOS);
      switch (this.ch()) {
        case 0x0a:
        case 0x0d:
          throw this.lexError('unfinished string', Tok.STRING);
        case 0x5c: {
          // '\\'
          this.next();
          if (!this.more()) continue;
          let c: number;
          switch (this.ch()) {
            case 0x61: c = 7; break; // \a
            case 0x62: c = 8; break; // \b
            case 0x66: c = 12; break; // \f
            case 0x6e: c = 10; break; // \n
            case 0x72: c = 13; break; // \r
            case 0x74: c = 9; break; // \t
            case 0x76: c = 11; break; // \v
            case 0x0a:
            case 0x0d:
              this.save(0x0a);
              this.incLine();
              continue;
            default: {
              if (!isDigit(this.ch())) {
                this.saveAndNext();
                continue;
              }
              let i = 0;
              c = 0;
              do {
                c = 10 * c + (this.ch() - 0x30);
                this.next();
              } while (++i < 3 && isDigit(this.ch()) && this.more());
              if (c > 255) throw this.lexError('escape sequence too large', Tok.STRING);
              this.save(c);
              continue;
            }
          }
          this.save(c);
          this.next();
          continue;
        }
        default:
          this.saveAndNext();
      }
    }
    this.saveAndNext();
    this.lxVal = latin1Decode(this.buf.subarray(1, this.bufLen - 1));
  }

  private readNumeral(): number {
    const src = this.src;
    const n = this.n;
    // Fast path: a decimal integer of up to 15 digits followed by a character that ends the numeral for sure (not
    // after a '.' already in the buffer).
    const start = this.p;
    let q = start;
    let v = 0;
    while (q < n && q - start < 15 && isDigit(src[q]!)) v = v * 10 + (src[q++]! - 0x30);
    if (this.bufLen === 0 && q < n && q > start) {
      const d = src[q]!;
      if (d !== 0 && d !== 0x2e && d !== 0x45 && d !== 0x65 && !isNameChar(d) && !isDigit(d)) {
        this.p = q;
        this.lxVal = v;
        this.bufIsSource = true;
        this.bufStart = start;
        this.bufEnd = q;
        return Tok.NUMBER;
      }
    }
    do this.saveAndNext();
    while (isDigit(this.ch()) || this.ch() === 0x2e);
    if (this.checkNext(0x45, 0x65)) this.checkNext(0x2b, 0x2d);
    while (isNameChar(this.ch())) this.saveAndNext();
    this.save(0);
    const b = this.buf;
    const len = this.bufLen;
    // numeral_type: `0x…hi` / `0x…hl` (len counts the terminating NUL).
    if (len >= 6 && b[0] === 0x30 && (b[1] === 0x78 || b[1] === 0x58) && (b[len - 3] === 0x68 || b[len - 3] === 0x48)) {
      const s = b[len - 2];
      const token = s === 0x69 || s === 0x49 ? Tok.LITERALLUD : s === 0x6c || s === 0x4c ? Tok.LITERALUI64 : 0;
      if (token !== 0) {
        const digits = latin1Decode(b.subarray(2, len - 3));
        const value = digits.includes('\0') ? undefined : readIntLiteralDigits(digits);
        this.bufLen = len - 1; // messages leave the NUL out
        if (value === undefined) throw this.lexError('malformed int literal', token);
        if (token === Tok.LITERALUI64 && (value & 0xfn) !== 0n) throw this.lexError('60-bit literal must have lowest 4 bits zero', token);
        this.save(0);
        this.lxVal = value;
        return token;
      }
    }
    let text = latin1Decode(b.subarray(0, len));
    const nul = text.indexOf('\0');
    if (nul >= 0) text = text.slice(0, nul);
    const value = readLuaNumeral(text);
    if (value === undefined) throw this.lexError('malformed number', Tok.NUMBER);
    this.lxVal = value;
    return Tok.NUMBER;
  }
}
