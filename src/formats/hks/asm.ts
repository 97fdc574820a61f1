/**
 * The assembler: a listing (as written by `disassembleHks`, or edited / written by hand) back to a chunk model.
 * Jumps name labels and are fixed up after edits; constants may be written symbolically (`K("name")`, `K(1.5)`,
 * `K(nil)`: the first equal constant, appended when absent); a missing `.header` means the Shadow of War header and
 * a missing `.types` the standard type table. Errors are `AsmError`s with a 1-based line and column.
 */
import { AsmError } from '../../binary/errors.ts';
import {
  HKS_DEFAULT_PAD_BYTE,
  HKS_FLAG_STRUCTURES,
  HKS_MAX_FUNCTION_DEPTH,
  HKS_SHADOW_OF_WAR_HEADER,
  HKS_STANDARD_TYPES,
  type HksChunk,
  type HksConstant,
  type HksDebug,
  type HksFunction,
  type HksHeader,
  type HksStructure,
  type HksStructureSection,
  type HksTypeEntry,
} from './chunk.ts';
import { sameHksConstant } from './literals.ts';
import { encodeHksABC, encodeHksABx, HKS_FIELD_MAX, hksOpcodes, HKS_DIALECTS, type HksDialect, type HksOpcodeInfo, type HksOperandKind, type HksOpcodeTable } from './opcodes.ts';

export interface HksAssembleOptions {
  /** Name used in error messages (`file.hksasm:12:5: …`). */
  source?: string;
  /** Opcode numbering when the listing has no `.dialect` directive. */
  dialect?: HksDialect;
}

/** The assembled chunk, and the SCRI wrapper when the listing has a `.scri` directive. */
export interface HksAssembleResult {
  chunk: HksChunk;
  scri: { version: number; flag: number; trailing: Uint8Array } | null;
  dialect: HksDialect;
}

interface Token {
  text: string;
  col: number;
}

/** An instruction encoded when its function ends (an operand names a label or a constant by value). */
interface PendingInsn {
  pc: number;
  info: HksOpcodeInfo;
  operands: Token[];
  line: number;
  col: number;
}

interface FnState {
  line: number;
  depth: number;
  fn: HksFunction;
  debug: HksDebug | null;
  explicitLines: number[] | null;
  wordLines: (number | undefined)[];
  /** Number of words that carry a `[line]`. */
  linedWords: number;
  /** The code words so far (0 where a pending instruction goes). */
  words: number[];
  pending: PendingInsn[];
  labels: Map<string, number>;
  inCode: boolean;
}

class Assembler {
  readonly source: string;
  table: HksOpcodeTable;
  dialect: HksDialect;
  header: HksHeader = { ...HKS_SHADOW_OF_WAR_HEADER };
  types: HksTypeEntry[] | null = null;
  main: HksFunction | null = null;
  structures: HksStructureSection | null = null;
  trailing: Uint8Array = new Uint8Array(0);
  scri: HksAssembleResult['scri'] = null;
  stack: FnState[] = [];
  lineNo = 0;
  /** The listing's character codes, and the listing itself when it was given as a string. */
  codes: Uint8Array | Uint16Array = new Uint8Array(0);
  text: string | null = null;
  /** Opcode lookup by the bytes of a mnemonic (hash of the upper-cased name → candidates). */
  mnemonics: Map<number, HksOpcodeInfo[]> | null = null;
  /** `hksOperandKinds` of each opcode, computed once. */
  kinds: ReturnType<typeof hksOperandKinds>[] = [];
  block: { kind: 'types' | 'structures' | 'trailing' | 'scritrailing'; hex: string[]; size: number } | null = null;
  headerSeen = false;

  constructor(options: HksAssembleOptions) {
    this.source = options.source ?? '<asm>';
    this.dialect = options.dialect ?? 'default';
    this.table = hksOpcodes(this.dialect);
  }

  error(message: string, col = 1): AsmError {
    return new AsmError(message, this.lineNo, col, this.source);
  }

  run(input: string | Uint8Array): HksAssembleResult {
    // One pass over the listing's character codes (Latin-1 bytes, or UTF-16 units when a string holds a
    // character above U+00FF): lines are found by scanning, code lines are tokenized and encoded in place, and
    // only other lines (directives, unusual operands, errors) become strings and tokens.
    const codes = listingCodes(input);
    this.codes = codes;
    this.text = typeof input === 'string' ? input : null;
    const n = codes.length;
    let start = 0;
    let lineCount = 0;
    while (start <= n) {
      let end = start;
      while (end < n && codes[end] !== 10) end++;
      const stop = end > start && codes[end - 1] === 13 ? end - 1 : end;
      this.lineNo = ++lineCount;
      let i = start;
      while (i < stop && (codes[i] === 32 || codes[i] === 9)) i++;
      if (i < stop && codes[i] !== 59) {
        const top = this.block ? undefined : this.stack[this.stack.length - 1];
        if (!(top && (codes[i] === 46 && codes[i + 1] === 99 ? this.fastConst(top, i, stop) : top.inCode && this.fastCodeLine(top, i, stop)))) {
          const tokens = this.lex(this.lineText(start, stop));
          if (tokens.length > 0) this.line(tokens);
        }
      }
      start = end + 1;
    }
    this.lineNo = lineCount;
    if (this.block) throw this.error(`missing end of the ${this.block.kind} block`);
    if (this.stack.length > 0) throw this.error(`missing .end for the function opened at line ${this.stack[this.stack.length - 1]!.line}`);
    if (!this.main) throw this.error('no .function: a listing needs the main function');
    let structures = this.structures;
    if (!structures && this.header.buildFlags & HKS_FLAG_STRUCTURES) structures = { layout: 'hksc', marker: 1, structures: [] };
    if (structures && !(this.header.buildFlags & HKS_FLAG_STRUCTURES)) throw this.error('.structures given but header flags lack bit 1 (structures)');
    const chunk: HksChunk = { header: this.header, types: this.types ?? HKS_STANDARD_TYPES.map((t) => ({ ...t })), main: this.main, structures, trailing: this.trailing };
    return { chunk, scri: this.scri, dialect: this.dialect };
  }

  /** The text of `codes[start..end)`. */
  lineText(start: number, end: number): string {
    if (this.text !== null) return this.text.slice(start, end);
    let out = '';
    for (let i = start; i < end; i += 4096) out += String.fromCharCode.apply(null, this.codes.subarray(i, Math.min(end, i + 4096)) as unknown as number[]);
    return out;
  }

  /**
   * Assembles a code line in place when it has the common shape — `[label:]… [pc] [[line]] MNEMONIC operands` or
   * `… .data A BX`, operands `R(n)`, `K(n)`, `P(n)` or plain numbers, then at most a comment — and returns true.
   * Anything else (labels as operands, constants by value, strings, any error) returns false before changing any
   * state, and the line takes the general path (which reports errors with their column).
   */
  fastCodeLine(st: FnState, from: number, end: number): boolean {
    const c = this.codes;
    let i = from;
    // A label definition (`name:`) alone on its line (else the general path).
    if (isIdentStart(c[i]!)) {
      let j = i;
      while (j < end && isIdentChar(c[j]!)) j++;
      if (c[j] === 58) {
        let k = j + 1;
        while (k < end && isBlank(c[k]!)) k++;
        if (k < end && c[k] !== 59) return false;
        const name = this.lineText(i, j);
        if (st.labels.has(name)) return false;
        st.labels.set(name, st.words.length);
        return true;
      }
    }
    // The pc column (informative, ignored).
    if (isDigit(c[i]!)) {
      while (i < end && isDigit(c[i]!)) i++;
      if (i < end && !isBlank(c[i]!)) return false;
      while (i < end && isBlank(c[i]!)) i++;
    }
    // `[line]`.
    let line: number | undefined;
    if (c[i] === 91) {
      i++;
      let neg = false;
      if (c[i] === 45) {
        neg = true;
        i++;
      }
      const d0 = i;
      let v = 0;
      while (i < end && isDigit(c[i]!)) v = v * 10 + (c[i++]! - 48);
      if (i === d0 || i - d0 > 15 || c[i] !== 93) return false;
      i++;
      if (i < end && !isBlank(c[i]!)) return false;
      line = neg ? -v : v;
      while (i < end && isBlank(c[i]!)) i++;
    }
    if (i >= end || c[i] === 59) return false;
    // The mnemonic, or `.data`.
    const m0 = i;
    let h = 0;
    if (c[i] === 46) {
      // `.data A BX`
      if (!(i + 5 < end && c[i + 1] === 100 && c[i + 2] === 97 && c[i + 3] === 116 && c[i + 4] === 97 && isBlank(c[i + 5]!))) return false;
      i += 5;
      while (i < end && isBlank(c[i]!)) i++;
      const a = this.fastUint(i, end);
      if (a < 0 || a > HKS_FIELD_MAX.a) return false;
      i = this.fastEnd;
      while (i < end && isBlank(c[i]!)) i++;
      const bx = this.fastUint(i, end);
      if (bx < 0 || bx > HKS_FIELD_MAX.bx) return false;
      i = this.fastEnd;
      while (i < end && isBlank(c[i]!)) i++;
      if (i < end && c[i] !== 59) return false;
      st.words.push(encodeHksABx(this.table.dataOp, a, bx));
      st.wordLines.push(line);
      if (line !== undefined) st.linedWords++;
      return true;
    }
    while (i < end && isIdentChar(c[i]!)) {
      const ch = c[i]!;
      h = (Math.imul(h, 31) + (ch >= 97 && ch <= 122 ? ch - 32 : ch)) | 0;
      i++;
    }
    if (i === m0 || (i < end && !isBlank(c[i]!))) return false;
    const info = this.lookupMnemonic(h, m0, i);
    if (!info || info.isData) return false;
    // Operands, in the order of their fields.
    let fa = 0;
    let fb = 0;
    let fc = 0;
    let fbx = 0;
    let kinds = this.kinds[info.op];
    if (!kinds) kinds = this.kinds[info.op] = hksOperandKinds(info);
    for (let k = 0; k < kinds.length; k++) {
      while (i < end && isBlank(c[i]!)) i++;
      if (i >= end || c[i] === 59) return false;
      const { kind, field } = kinds[k]!;
      const max = field === 'a' || field === 'b' ? 0xff : field === 'c' ? 0x1ff : 0x1ffff;
      let v: number;
      const ch = c[i]!;
      if (isDigit(ch) || ch === 43 || ch === 45) {
        if (kind === 'J') {
          let neg = false;
          if (ch === 43 || ch === 45) {
            neg = ch === 45;
            i++;
          }
          const u = this.fastUint(i, end);
          if (u < 0) return false;
          v = neg ? -u : u;
          if (v < HKS_FIELD_MAX.sbxMin || v > HKS_FIELD_MAX.sbxMax) return false;
        } else {
          v = this.fastUint(i, end);
          if (v < 0 || v > max) return false;
        }
        i = this.fastEnd;
      } else if ((ch === 82 || ch === 75 || ch === 80) && c[i + 1] === 40) {
        if (kind === 'J') return false;
        const u = this.fastUint(i + 2, end);
        if (u < 0) return false;
        i = this.fastEnd;
        if (c[i] !== 41) return false;
        i++;
        if (ch === 82) {
          if (kind !== 'R' && kind !== 'RK') return false;
          if (u > (kind === 'RK' ? 0xff : max)) return false;
          v = u;
        } else if (ch === 80) {
          if (kind !== 'P' || u > max) return false;
          v = u;
        } else {
          if (kind !== 'K' && kind !== 'RK') return false;
          if (kind === 'RK') {
            if (u > 0xff) return false;
            v = u + 256;
          } else {
            if (u > max) return false;
            v = u;
          }
        }
      } else return false;
      if (i < end && !isBlank(c[i]!)) return false;
      if (field === 'a') fa = v;
      else if (field === 'b') fb = v;
      else if (field === 'c') fc = v;
      else fbx = v;
    }
    while (i < end && isBlank(c[i]!)) i++;
    if (i < end && c[i] !== 59) return false;
    let word: number;
    if (info.mode === 'ABC') word = encodeHksABC(info.op, fa, fb, fc);
    else word = encodeHksABx(info.op, fa, info.mode === 'AsBx' ? fbx + 0xffff : fbx);
    st.words.push(word);
    st.wordLines.push(line);
    if (line !== undefined) st.linedWords++;
    return true;
  }

  /**
   * `.const VALUE` when VALUE is nil, true, false, a number or a string without escapes: appended in place
   * (true). Anything else returns false before changing any state.
   */
  fastConst(st: FnState, from: number, end: number): boolean {
    const c = this.codes;
    // `.const` and a blank
    if (!(from + 7 < end && c[from + 2] === 111 && c[from + 3] === 110 && c[from + 4] === 115 && c[from + 5] === 116 && isBlank(c[from + 6]!))) return false;
    let i = from + 7;
    while (i < end && isBlank(c[i]!)) i++;
    const v0 = i;
    let k: HksConstant;
    if (c[i] === 34) {
      i++;
      for (; i < end; i++) {
        const ch = c[i]!;
        if (ch === 34) break;
        if (ch === 92 || ch < 0x20 || ch > 0xff) return false;
      }
      if (i >= end) return false;
      k = { type: 'string', value: this.lineText(v0 + 1, i) };
      i++;
    } else {
      while (i < end && !isBlank(c[i]!) && c[i] !== 59 && c[i] !== 34) i++;
      if (i === v0) return false;
      try {
        k = this.constant({ text: this.lineText(v0, i), col: 0 });
      } catch {
        return false; // the general path reports it, with its column
      }
    }
    let j = i;
    while (j < end && isBlank(c[j]!)) j++;
    if (j < end && c[j] !== 59) return false;
    if (i < end && !isBlank(c[i]!) && c[i] !== 59) return false;
    st.fn.constants.push(k);
    return true;
  }

  /** Where the last `fastUint` stopped. */
  fastEnd = 0;

  /** A plain decimal number (up to 9 digits) at `i`, or -1; sets `fastEnd`. Hex and signs go the general way. */
  fastUint(i: number, end: number): number {
    const c = this.codes;
    const d0 = i;
    let v = 0;
    while (i < end && isDigit(c[i]!)) v = v * 10 + (c[i++]! - 48);
    if (i === d0 || i - d0 > 9) return -1;
    this.fastEnd = i;
    return v;
  }

  /** The opcode whose name equals `codes[from..to)` (case-insensitive), by hash `h`. */
  lookupMnemonic(h: number, from: number, to: number): HksOpcodeInfo | undefined {
    if (!this.mnemonics) {
      const map = new Map<number, HksOpcodeInfo[]>();
      for (const info of this.table.byName.values()) {
        let hh = 0;
        for (let k = 0; k < info.name.length; k++) hh = (Math.imul(hh, 31) + info.name.toUpperCase().charCodeAt(k)) | 0;
        const list = map.get(hh);
        if (list) list.push(info);
        else map.set(hh, [info]);
      }
      this.mnemonics = map;
    }
    const list = this.mnemonics.get(h);
    if (!list) return undefined;
    const c = this.codes;
    outer: for (const info of list) {
      const name = info.name;
      if (name.length !== to - from) continue;
      for (let k = 0; k < name.length; k++) {
        const ch = c[from + k]!;
        if ((ch >= 97 && ch <= 122 ? ch - 32 : ch) !== name.charCodeAt(k)) continue outer;
      }
      return info;
    }
    return undefined;
  }

  /** Splits a line into tokens; `;` outside a string starts a comment. Strings stay inside their token. */
  lex(line: string): Token[] {
    const tokens: Token[] = [];
    let i = 0;
    const n = line.length;
    while (i < n) {
      const ch = line[i]!;
      if (ch === ' ' || ch === '\t') {
        i++;
        continue;
      }
      if (ch === ';') break;
      const start = i;
      while (i < n && line[i] !== ' ' && line[i] !== '\t' && line[i] !== ';') {
        if (line[i] === '"') {
          i++;
          while (i < n && line[i] !== '"') i += line[i] === '\\' ? 2 : 1;
          if (i >= n) throw new AsmError('unterminated string', this.lineNo, start + 1, this.source);
        }
        i++;
      }
      tokens.push({ text: line.slice(start, i), col: start + 1 });
    }
    return tokens;
  }

  line(tokens: Token[]): void {
    const first = tokens[0]!;
    if (this.block) {
      this.blockLine(tokens);
      return;
    }
    const top = this.stack[this.stack.length - 1];
    if (first.text.startsWith('.')) {
      if (top && this.functionDirective(top, tokens)) return;
      this.topDirective(tokens);
      return;
    }
    if (!top || !top.inCode) throw this.error(`unexpected ${JSON.stringify(first.text)}: instructions belong after .code inside a .function`, first.col);
    this.codeLine(top, tokens);
  }

  // ----- top level ----------------------------------------------------------------------------------------------

  topDirective(tokens: Token[]): void {
    const d = tokens[0]!;
    const attrs = () => this.attributes(tokens.slice(1));
    switch (d.text) {
      case '.scri': {
        const a = attrs();
        this.scri = { version: this.intAttr(a, 'version', 0, 0xffffffff, tokens[0]!), flag: this.intAttr(a, 'flag', 0, 255, tokens[0]!), trailing: new Uint8Array(0) };
        return;
      }
      case '.dialect': {
        const t = tokens[1];
        if (!t || !(HKS_DIALECTS as readonly string[]).includes(t.text)) throw this.error(`unknown dialect ${t ? JSON.stringify(t.text) : ''} (known: ${HKS_DIALECTS.join(', ')})`, t?.col ?? d.col);
        if (this.main || this.stack.length) throw this.error('.dialect must come before the first .function', d.col);
        this.dialect = t.text as HksDialect;
        this.table = hksOpcodes(this.dialect);
        this.mnemonics = null;
        this.kinds = [];
        return;
      }
      case '.header': {
        if (this.main || this.stack.length) throw this.error('.header must come before the first .function', d.col);
        const a = attrs();
        const h = this.header;
        const endian = a.get('endian');
        if (endian) {
          if (endian.text !== 'little' && endian.text !== 'big') throw this.error('endian must be little or big', endian.col);
          h.littleEndian = endian.text === 'little';
        }
        const set = (key: string, field: Exclude<keyof HksHeader, 'littleEndian'>): void => {
          if (a.has(key)) h[field] = this.intAttr(a, key, 0, 255, d);
        };
        set('lua', 'luaVersion');
        set('format', 'formatVersion');
        set('int', 'intSize');
        set('size_t', 'sizeTSize');
        set('instruction', 'instructionSize');
        set('number', 'numberSize');
        set('integral', 'integralNumbers');
        set('flags', 'buildFlags');
        set('referenced', 'referenced');
        for (const [k, t] of a) if (!['endian', 'lua', 'format', 'int', 'size_t', 'instruction', 'number', 'integral', 'flags', 'referenced'].includes(k)) throw this.error(`unknown header setting ${k}`, t.col);
        if (h.intSize !== 4 || h.instructionSize !== 4 || (h.sizeTSize !== 4 && h.sizeTSize !== 8) || (h.numberSize !== 4 && h.numberSize !== 8)) throw this.error('unsupported sizes: int and instruction must be 4, size_t and number 4 or 8', d.col);
        this.headerSeen = true;
        return;
      }
      case '.types':
        this.types = [];
        this.block = { kind: 'types', hex: [], size: 0 };
        return;
      case '.function': {
        if (this.main || this.stack.length) throw this.error('only one main function per listing (nested functions go inside it)', d.col);
        this.openFunction(0);
        return;
      }
      case '.structures': {
        const a = attrs();
        const layout = a.get('layout')?.text ?? 'hksc';
        if (layout !== 'hksc' && layout !== 'extends') throw this.error('layout must be hksc or extends', a.get('layout')!.col);
        this.structures = { layout, marker: a.has('marker') ? this.intAttr(a, 'marker', -0x80000000, 0x7fffffff, d) : 1, structures: [] };
        this.block = { kind: 'structures', hex: [], size: 0 };
        return;
      }
      case '.trailing':
      case '.scritrailing':
        this.block = { kind: d.text === '.trailing' ? 'trailing' : 'scritrailing', hex: [], size: tokens[1] ? this.int(tokens[1], 0, 0x7fffffff) : -1 };
        return;
      default:
        throw this.error(`unknown directive ${d.text}`, d.col);
    }
  }

  blockLine(tokens: Token[]): void {
    const b = this.block!;
    const first = tokens[0]!;
    if (b.kind === 'types') {
      if (first.text === '.endtypes') {
        this.block = null;
        return;
      }
      if (tokens.length !== 2) throw this.error('type entry: ID "NAME"', first.col);
      this.types!.push({ id: this.int(first, -0x80000000, 0x7fffffff), name: this.stringOrNull(tokens[1]!) });
      return;
    }
    if (b.kind === 'structures') {
      const sec = this.structures!;
      const last = sec.structures[sec.structures.length - 1];
      switch (first.text) {
        case '.endstructures':
          this.block = null;
          return;
        case '.struct': {
          const nameTok = tokens[1];
          if (!nameTok) throw this.error('.struct needs a name', first.col);
          const name = this.stringOrNull(nameTok);
          if (name === null) throw this.error('a structure name cannot be null (a null name ends the section)', nameTok.col);
          const a = this.attributes(tokens.slice(2));
          const s: HksStructure = { name, id: this.intAttr(a, 'id', 0, Number.MAX_SAFE_INTEGER, first), hasMeta: this.intAttr(a, 'meta', -0x80000000, 0x7fffffff, first), hasProxy: this.intAttr(a, 'proxy', -0x80000000, 0x7fffffff, first), slots: [] };
          if (sec.layout === 'extends') s.extends = [];
          sec.structures.push(s);
          return;
        }
        case '.extends': {
          if (!last) throw this.error('.extends before any .struct', first.col);
          if (sec.layout !== 'extends') throw this.error('.extends needs `.structures layout=extends`', first.col);
          if (tokens[1]) last.extends!.push(this.stringOrNull(tokens[1]));
          return;
        }
        case '.slot': {
          if (!last) throw this.error('.slot before any .struct', first.col);
          const nameTok = tokens[1];
          if (!nameTok) throw this.error('.slot needs a name', first.col);
          const a = this.attributes(tokens.slice(2));
          last.slots.push({
            name: this.stringOrNull(nameTok),
            structId: this.intAttr(a, 'struct', 0, Number.MAX_SAFE_INTEGER, first),
            typeId: this.intAttr(a, 'type', -0x80000000, 0x7fffffff, first),
            reserved: this.intAttr(a, 'reserved', -0x80000000, 0x7fffffff, first),
            position: this.intAttr(a, 'position', 0, Number.MAX_SAFE_INTEGER, first),
          });
          return;
        }
        default:
          throw this.error(`unexpected ${JSON.stringify(first.text)} in .structures (expected .struct, .extends, .slot or .endstructures)`, first.col);
      }
    }
    const end = b.kind === 'trailing' ? '.endtrailing' : '.endscritrailing';
    if (first.text === end) {
      const hex = b.hex.join('');
      const bytes = new Uint8Array(hex.length / 2);
      for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
      if (b.size >= 0 && b.size !== bytes.length) throw this.error(`${b.kind} block declares ${b.size} bytes but holds ${bytes.length}`, first.col);
      if (b.kind === 'trailing') this.trailing = bytes;
      else {
        if (!this.scri) throw this.error('.scritrailing needs a .scri directive first', first.col);
        this.scri.trailing = bytes;
      }
      this.block = null;
      return;
    }
    for (const t of tokens) {
      if (!/^(?:[0-9a-fA-F]{2})+$/.test(t.text)) throw this.error('expected hex bytes', t.col);
      b.hex.push(t.text);
    }
  }

  // ----- functions ----------------------------------------------------------------------------------------------

  openFunction(depth: number): void {
    if (depth > HKS_MAX_FUNCTION_DEPTH) throw this.error(`functions nested deeper than ${HKS_MAX_FUNCTION_DEPTH}`);
    this.stack.push({
      line: this.lineNo,
      depth,
      fn: { upvalueCount: 0, paramCount: 0, varargFlags: 0, maxStackSize: 0, padByte: HKS_DEFAULT_PAD_BYTE, code: new Uint32Array(0), constants: [], debug: null, children: [] },
      debug: null,
      explicitLines: null,
      wordLines: [],
      linedWords: 0,
      words: [],
      pending: [],
      labels: new Map(),
      inCode: false,
    });
  }

  /** Handles a directive inside a function; false when it is not a function directive. */
  functionDirective(st: FnState, tokens: Token[]): boolean {
    const d = tokens[0]!;
    switch (d.text) {
      case '.params':
      case '.upvalues':
      case '.vararg':
      case '.maxstack':
      case '.padbyte': {
        for (let i = 0; i < tokens.length; i += 2) {
          const key = tokens[i]!;
          const value = tokens[i + 1];
          if (!value) throw this.error(`${key.text} needs a value`, key.col);
          switch (key.text) {
            case '.params':
              st.fn.paramCount = this.int(value, 0, 0x7fffffff);
              break;
            case '.upvalues':
              st.fn.upvalueCount = this.int(value, 0, 0x7fffffff);
              break;
            case '.vararg':
              st.fn.varargFlags = this.int(value, 0, 255);
              break;
            case '.maxstack':
              st.fn.maxStackSize = this.int(value, 0, 0x7fffffff);
              break;
            case '.padbyte':
              st.fn.padByte = this.int(value, 0, 255);
              break;
            default:
              throw this.error(`unexpected ${key.text} (one line holds .params / .upvalues / .vararg / .maxstack / .padbyte pairs)`, key.col);
          }
        }
        return true;
      }
      case '.const': {
        const v = tokens[1];
        if (!v || tokens.length > 2) throw this.error('.const takes one value', d.col);
        st.fn.constants.push(this.constant(v));
        return true;
      }
      case '.debug': {
        const a = this.attributes(tokens.slice(1));
        st.debug = {
          lineDefined: this.intAttr(a, 'line', -0x80000000, 0x7fffffff, d),
          lastLineDefined: this.intAttr(a, 'last', -0x80000000, 0x7fffffff, d),
          source: a.has('source') ? this.stringOrNull(a.get('source')!) : null,
          name: a.has('name') ? this.stringOrNull(a.get('name')!) : null,
          lines: [],
          locals: [],
          upvalueNames: [],
        };
        return true;
      }
      case '.local': {
        const dbg = this.needDebug(st, d);
        if (tokens.length !== 4) throw this.error('.local "NAME" STARTPC ENDPC', d.col);
        dbg.locals.push({ name: this.stringOrNull(tokens[1]!), startPc: this.int(tokens[2]!, -0x80000000, 0x7fffffff), endPc: this.int(tokens[3]!, -0x80000000, 0x7fffffff) });
        return true;
      }
      case '.upvalname': {
        const dbg = this.needDebug(st, d);
        if (tokens.length !== 2) throw this.error('.upvalname "NAME"', d.col);
        dbg.upvalueNames.push(this.stringOrNull(tokens[1]!));
        return true;
      }
      case '.lines': {
        this.needDebug(st, d);
        st.explicitLines = tokens.slice(1).map((t) => this.int(t, -0x80000000, 0x7fffffff));
        return true;
      }
      case '.code':
        st.inCode = true;
        return true;
      case '.function':
        this.openFunction(st.depth + 1);
        return true;
      case '.end':
        this.closeFunction(st);
        return true;
      case '.data':
      case '.word':
        if (!st.inCode) throw this.error(`${d.text} belongs after .code`, d.col);
        this.codeLine(st, tokens);
        return true;
      default:
        return false;
    }
  }

  needDebug(st: FnState, d: Token): HksDebug {
    if (!st.debug) throw this.error(`${d.text} needs a .debug line first`, d.col);
    return st.debug;
  }

  codeLine(st: FnState, tokens: Token[]): void {
    let i = 0;
    while (i < tokens.length && /^[A-Za-z_][A-Za-z0-9_]*:$/.test(tokens[i]!.text)) {
      const name = tokens[i]!.text.slice(0, -1);
      if (st.labels.has(name)) throw this.error(`label ${name} defined twice`, tokens[i]!.col);
      st.labels.set(name, st.words.length);
      i++;
    }
    if (i < tokens.length && /^\d+$/.test(tokens[i]!.text)) i++; // the pc column: informative, ignored
    let line: number | undefined;
    if (i < tokens.length && /^\[-?\d+\]$/.test(tokens[i]!.text)) {
      line = Number(tokens[i]!.text.slice(1, -1));
      i++;
    }
    if (i >= tokens.length) {
      if (line !== undefined) throw this.error('a line number needs an instruction', tokens[0]!.col);
      return;
    }
    const m = tokens[i]!;
    const rest = tokens.slice(i + 1);
    if (m.text === '.data') {
      if (rest.length !== 2) throw this.error('.data A BX', m.col);
      st.words.push(encodeHksABx(this.table.dataOp, this.int(rest[0]!, 0, HKS_FIELD_MAX.a), this.int(rest[1]!, 0, HKS_FIELD_MAX.bx)));
    } else if (m.text === '.word') {
      if (rest.length !== 1) throw this.error('.word 0xXXXXXXXX', m.col);
      st.words.push(this.int(rest[0]!, 0, 0xffffffff));
    } else {
      const info = this.table.byName.get(m.text.toUpperCase());
      if (!info) throw this.error(`unknown opcode ${m.text} in the ${this.table.dialect} table`, m.col);
      if (info.isData) throw this.error('write DATA words as `.data A BX`', m.col);
      const want = hksOperandKinds(info).length;
      if (rest.length !== want) throw this.error(`${info.name} takes ${want} operand(s) (${hksOperandKinds(info).join(' ')}), got ${rest.length}`, rest[want]?.col ?? m.col);
      const pending: PendingInsn = { pc: st.words.length, info, operands: rest, line: this.lineNo, col: m.col };
      // Encode at once unless an operand names a label or a constant by value (resolved when the function ends).
      const deferred = rest.some((t) => /^[A-Za-z_]/.test(t.text) && !/^[RKP]\((?:0x[0-9a-fA-F]+|\d+)\)$/.test(t.text));
      if (deferred) st.pending.push(pending);
      st.words.push(deferred ? 0 : this.encode(st, pending, st.words.length));
    }
    st.wordLines.push(line);
    if (line !== undefined) st.linedWords++;
  }

  closeFunction(st: FnState): void {
    const fn = st.fn;
    const code = Uint32Array.from(st.words);
    const savedLine = this.lineNo;
    for (const item of st.pending) {
      this.lineNo = item.line;
      code[item.pc] = this.encode(st, item, item.pc);
    }
    this.lineNo = savedLine;
    fn.code = code;
    const given = st.linedWords;
    if (given > 0 && given !== st.wordLines.length) throw this.error(`function opened at line ${st.line}: ${given} of ${st.wordLines.length} words have a [line]; give all or none`);
    if (st.debug) {
      if (st.explicitLines && given > 0) throw this.error(`function opened at line ${st.line}: both .lines and per-word [line] numbers`);
      st.debug.lines = st.explicitLines ?? (given > 0 ? (st.wordLines as number[]) : []);
      fn.debug = st.debug;
    } else if (given > 0) throw this.error(`function opened at line ${st.line}: [line] numbers need a .debug line`);
    this.stack.pop();
    const parent = this.stack[this.stack.length - 1];
    if (parent) parent.fn.children.push(fn);
    else this.main = fn;
  }

  encode(st: FnState, item: PendingInsn, pc: number): number {
    const info = item.info;
    const kinds = hksOperandKinds(info);
    const f = { a: 0, b: 0, c: 0, bx: 0, sbx: 0 };
    kinds.forEach((k, i) => (f[k.field] = this.operand(st, k.kind, k.field, item.operands[i]!, pc)));
    if (info.mode === 'ABC') return encodeHksABC(info.op, f.a, f.b, f.c);
    return encodeHksABx(info.op, f.a, info.mode === 'AsBx' ? f.sbx + 0xffff : f.bx);
  }

  operand(st: FnState, kind: HksOperandKind, field: 'a' | 'b' | 'c' | 'bx' | 'sbx', t: Token, pc: number): number {
    const max = field === 'a' || field === 'b' ? 0xff : field === 'c' ? 0x1ff : 0x1ffff;
    const m = /^([RKP])\((.*)\)$/s.exec(t.text);
    if (kind === 'J') {
      if (/^[+-]?\d+$/.test(t.text)) return this.int(t, HKS_FIELD_MAX.sbxMin, HKS_FIELD_MAX.sbxMax);
      const target = st.labels.get(t.text);
      if (target === undefined) throw this.error(`unknown label ${t.text}`, t.col);
      const off = target - (pc + 1);
      if (off < HKS_FIELD_MAX.sbxMin || off > HKS_FIELD_MAX.sbxMax) throw this.error(`jump to ${t.text} is ${off} words, beyond sBx`, t.col);
      return off;
    }
    if (!m) return this.int(t, 0, max);
    const letter = m[1]!;
    const inner: Token = { text: m[2]!, col: t.col + 2 };
    if (letter === 'R') {
      if (kind !== 'R' && kind !== 'RK') throw this.error(`operand ${t.text}: this field is ${describeKind(kind)}, not a register`, t.col);
      return this.int(inner, 0, kind === 'RK' ? 0xff : max);
    }
    if (letter === 'P') {
      if (kind !== 'P') throw this.error(`operand ${t.text}: this field is ${describeKind(kind)}, not a prototype`, t.col);
      return this.int(inner, 0, max);
    }
    if (kind !== 'K' && kind !== 'RK') throw this.error(`operand ${t.text}: this field is ${describeKind(kind)}, not a constant`, t.col);
    let index: number;
    if (/^(?:0x[0-9a-fA-F]+|\d+)$/.test(inner.text)) index = this.int(inner, 0, 0x1ffff);
    else {
      const k = this.constant(inner);
      index = st.fn.constants.findIndex((c) => sameHksConstant(c, k));
      if (index < 0) {
        index = st.fn.constants.length;
        st.fn.constants.push(k);
      }
    }
    if (kind === 'RK') {
      if (index > 0xff) throw this.error(`constant K(${index}) cannot be an RK operand (only K(0)..K(255))`, t.col);
      return index + 256;
    }
    if (index > max) throw this.error(`constant K(${index}) does not fit the ${field.toUpperCase()} field (max ${max})`, t.col);
    return index;
  }

  // ----- values -------------------------------------------------------------------------------------------------

  attributes(tokens: Token[]): Map<string, Token> {
    const out = new Map<string, Token>();
    for (const t of tokens) {
      const eq = t.text.indexOf('=');
      if (eq <= 0) throw this.error(`expected key=value, got ${JSON.stringify(t.text)}`, t.col);
      out.set(t.text.slice(0, eq), { text: t.text.slice(eq + 1), col: t.col + eq + 1 });
    }
    return out;
  }

  intAttr(a: Map<string, Token>, key: string, min: number, max: number, at: Token): number {
    const t = a.get(key);
    if (!t) throw this.error(`missing ${key}=`, at.col);
    return this.int(t, min, max);
  }

  int(t: Token, min: number, max: number): number {
    const s = t.text;
    if (!/^[+-]?(?:0x[0-9a-fA-F]+|\d+)$/.test(s)) throw this.error(`expected an integer, got ${JSON.stringify(s)}`, t.col);
    const neg = s.startsWith('-');
    const body = s.replace(/^[+-]/, '');
    const v = (neg ? -1 : 1) * (body.startsWith('0x') ? parseInt(body.slice(2), 16) : Number(body));
    if (!Number.isSafeInteger(v) || v < min || v > max) throw this.error(`${s} out of range ${min}..${max}`, t.col);
    return v;
  }

  stringOrNull(t: Token): string | null {
    if (t.text === 'null') return null;
    return this.string(t);
  }

  string(t: Token): string {
    const s = t.text;
    if (s.length < 2 || s[0] !== '"' || s[s.length - 1] !== '"') throw this.error(`expected a "string", got ${s}`, t.col);
    let out = '';
    for (let i = 1; i < s.length - 1; i++) {
      const c = s[i]!;
      if (c !== '\\') {
        const code = c.charCodeAt(0);
        if (code > 0xff) throw this.error('characters above \\xff must be written as \\x bytes (strings are byte strings)', t.col + i);
        out += c;
        continue;
      }
      const e = s[++i];
      if (e === 'n') out += '\n';
      else if (e === 'r') out += '\r';
      else if (e === 't') out += '\t';
      else if (e === '\\' || e === '"') out += e;
      else if (e === 'x' && /^[0-9a-fA-F]{2}$/.test(s.slice(i + 1, i + 3))) {
        out += String.fromCharCode(parseInt(s.slice(i + 1, i + 3), 16));
        i += 2;
      } else throw this.error(`bad escape \\${e ?? ''}`, t.col + i - 1);
    }
    return out;
  }

  constant(t: Token): HksConstant {
    const s = t.text;
    if (s === 'nil') return { type: 'nil' };
    if (s === 'true') return { type: 'boolean', value: 1 };
    if (s === 'false') return { type: 'boolean', value: 0 };
    if (s === 'null') return { type: 'string', value: null };
    if (s.startsWith('"')) return { type: 'string', value: this.string(t) };
    const big = (prefix: string, bits: number): bigint | undefined => {
      if (!s.startsWith(prefix)) return undefined;
      const hex = s.slice(prefix.length);
      if (!/^0x[0-9a-fA-F]+$/.test(hex)) throw this.error(`expected ${prefix}0xHEX`, t.col);
      const v = BigInt(hex);
      if (v >= 1n << BigInt(bits)) throw this.error(`${s} does not fit in ${bits} bits`, t.col);
      return v;
    };
    if (s.startsWith('bool:')) return { type: 'boolean', value: this.int({ text: s.slice(5), col: t.col + 5 }, 0, 255) };
    const lud = big('lud:', this.header.sizeTSize * 8);
    if (lud !== undefined) return { type: 'lightuserdata', value: lud };
    const u = big('ui64:', 64);
    if (u !== undefined) return { type: 'ui64', value: u };
    const nan = big('nan:', this.header.numberSize * 8);
    if (nan !== undefined) return { type: 'number', value: NaN, nanBits: nan };
    if (s === 'inf') return { type: 'number', value: Infinity };
    if (s === '-inf') return { type: 'number', value: -Infinity };
    if (/^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/.test(s)) {
      const v = Number(s);
      if (this.header.integralNumbers && !Number.isInteger(v)) throw this.error(`${s}: this chunk's numbers are integers`, t.col);
      return { type: 'number', value: this.header.numberSize === 4 && !this.header.integralNumbers ? Math.fround(v) : v };
    }
    throw this.error(`expected a constant (nil, true, false, a number, a "string", null, lud:0x…, ui64:0x…, nan:0x…), got ${JSON.stringify(s)}`, t.col);
  }
}

/** The operand kinds an instruction takes in the listing, in order, with the field each fills. */
export function hksOperandKinds(info: HksOpcodeInfo): { kind: HksOperandKind; field: 'a' | 'b' | 'c' | 'bx' | 'sbx' }[] {
  const out: { kind: HksOperandKind; field: 'a' | 'b' | 'c' | 'bx' | 'sbx' }[] = [];
  if (info.a !== '-') out.push({ kind: info.a, field: 'a' });
  if (info.mode === 'ABC') {
    if (info.b !== '-') out.push({ kind: info.b, field: 'b' });
    if (info.c !== '-') out.push({ kind: info.c, field: 'c' });
  } else if (info.b !== '-') out.push({ kind: info.b, field: info.mode === 'AsBx' ? 'sbx' : 'bx' });
  return out;
}

function describeKind(kind: HksOperandKind): string {
  return { '-': 'unused', R: 'a register', K: 'a constant', RK: 'a register or constant', U: 'a number', J: 'a jump', P: 'a prototype', F: 'a flag' }[kind];
}

const isBlank = (c: number): boolean => c === 32 || c === 9;
const isDigit = (c: number): boolean => c >= 48 && c <= 57;
const isIdentStart = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
const isIdentChar = (c: number): boolean => isIdentStart(c) || isDigit(c);

const utf8Encoder = new TextEncoder();

/** The character codes of a listing: its bytes, or a string's Latin-1 bytes (UTF-16 units if it needs them). */
function listingCodes(input: string | Uint8Array): Uint8Array | Uint16Array {
  if (typeof input !== 'string') return input;
  const n = input.length;
  const bytes = new Uint8Array(n);
  // Pure ASCII (the usual listing): UTF-8 and Latin-1 agree, and the native encoder fills every byte.
  const ascii = utf8Encoder.encodeInto(input, bytes);
  if (ascii.read === n && ascii.written === n) return bytes;
  for (let i = 0; i < n; i++) {
    const c = input.charCodeAt(i);
    if (c > 0xff) {
      const units = new Uint16Array(n);
      units.set(bytes.subarray(0, i));
      for (let j = i; j < n; j++) units[j] = input.charCodeAt(j);
      return units;
    }
    bytes[i] = c;
  }
  return bytes;
}

/**
 * Assembles a listing into a chunk model (and its SCRI wrapper when the listing records one). The listing is a
 * string, or its bytes read as Latin-1 (what `disassembleHksBytes` writes).
 */
export function assembleHks(text: string | Uint8Array, options: HksAssembleOptions = {}): HksAssembleResult {
  return new Assembler(options).run(text);
}
