/**
 * The disassembler: a chunk model to a directive-complete, readable listing. Every header setting and every byte
 * the model carries is written, so `assembleHks(disassembleHks(c))` rebuilds the same bytes (the round-trip
 * contract, tested on every fixture). Readability: functions nested and named from debug info, constants shown
 * beside their `K(n)` operands, jumps to labels, DATA words indented under their owner with their meaning,
 * structure declarations, locals / lines / upvalue names. Listing syntax: `src/formats/hks/README.md`.
 */
import { HKS_DEFAULT_PAD_BYTE, HKS_STANDARD_TYPES, type HksChunk, type HksConstant, type HksFunction, type HksHeader, type HksSlot } from './chunk.ts';
import { formatHksConstant, quoteHksString } from './literals.ts';
import { latin1Constant, latin1Decode } from '../../binary/text.ts';
import { TextWriter } from '../../binary/text-writer.ts';
import { hksA, hksB, hksBx, hksC, hksDataWordCount, hksOpcodes, type HksDialect, type HksOpcodeInfo, type HksOperandKind, type HksOpcodeTable } from './opcodes.ts';

/** The SCRI wrapper around a chunk, recorded in the listing so `asm` can rebuild the container. */
export interface HksListingScri {
  version: number;
  flag: number;
  trailing: Uint8Array;
}

export interface HksDisassembleOptions {
  dialect?: HksDialect;
  /** Record a SCRI wrapper (`.scri` directive). */
  scri?: HksListingScri;
  /** Omit comments (values of constants, names): smaller, still exact. */
  bare?: boolean;
}

const TYPE_NAMES = HKS_STANDARD_TYPES.map((t) => t.name);

/**
 * Renders the whole chunk as a listing (a string; built on `disassembleHksBytes`, decoded once as Latin-1).
 */
export function disassembleHks(chunk: HksChunk, options: HksDisassembleOptions = {}): string {
  const w = listingWriter(chunk, options);
  // Most listings are pure ASCII (strings are escaped; only names in comments may hold Latin-1 letters).
  return w.asciiOnly ? asciiDecoder.decode(w.finish()) : latin1Decode(w.finish());
}
const asciiDecoder = new TextDecoder();

/**
 * The listing as Latin-1 bytes, written into one buffer line by line with no string per line: what a tool that
 * writes the listing to a file uses. `disassembleHks` is its text.
 */
export function disassembleHksBytes(chunk: HksChunk, options: HksDisassembleOptions = {}): Uint8Array {
  return listingWriter(chunk, options).finish();
}

function listingWriter(chunk: HksChunk, options: HksDisassembleOptions): TextWriter {
  // About 64 bytes a word in a commented listing: one allocation for most chunks.
  const w = new TextWriter({ chunkSize: 4096 + countWords(chunk.main) * 64, blankSpaces: true });
  writeListing(w, chunk, options);
  return w;
}

function countWords(fn: HksFunction): number {
  let n = fn.code.length + fn.constants.length;
  for (const c of fn.children) n += countWords(c);
  return n;
}

function writeListing(w: TextWriter, chunk: HksChunk, options: HksDisassembleOptions): void {
  const table = hksOpcodes(options.dialect);
  const line = (text: string): void => {
    w.latin1(text);
    w.newline();
  };
  line('; HavokScript listing by scry: `scry script asm` rebuilds the exact bytes');
  if (options.scri) line(`.scri version=${options.scri.version} flag=${options.scri.flag}`);
  if (table.dialect !== 'default') line(`.dialect ${table.dialect}`);
  line(formatHeader(chunk.header));
  if (!sameTypes(chunk)) {
    line('.types');
    for (const t of chunk.types) line(`  ${t.id} ${quoteHksString(t.name)}`);
    line('.endtypes');
  }
  line('');
  const structNames = new Map<number, string>();
  const structSlots = new Map<number, Map<number, HksSlot>>();
  for (const s of chunk.structures?.structures ?? []) {
    structNames.set(s.id, s.name);
    structSlots.set(s.id, new Map(s.slots.map((slot) => [slot.position, slot])));
  }
  const ctx: ListingContext = { w, chunk, table, plans: opcodePlans(table), structNames, structSlots, bare: options.bare === true, numberTexts: new Map(), scratch: { constStart: new Int32Array(256), constLength: new Int32Array(256), targets: new Uint8Array(256), notes: new Int32Array(3) } };
  writeFunction(ctx, chunk.main, 'main', null, 0);
  if (chunk.structures) {
    const sec = chunk.structures;
    line('');
    line(`.structures layout=${sec.layout} marker=${sec.marker}`);
    for (const s of sec.structures) {
      line(`.struct ${quoteHksString(s.name)} id=${s.id} meta=${s.hasMeta} proxy=${s.hasProxy}`);
      for (const e of s.extends ?? []) line(`  .extends ${quoteHksString(e)}`);
      if (sec.layout === 'extends' && (s.extends?.length ?? 0) === 0) line('  .extends');
      for (const slot of s.slots) {
        const typeName = !options.bare ? `  ; ${slot.typeId === 0 ? 'object' : (TYPE_NAMES[slot.typeId] ?? '?')}${slot.structId !== 0xffff && structNames.has(slot.structId) ? ' ' + structNames.get(slot.structId) : ''}` : '';
        line(`  .slot ${quoteHksString(slot.name)} struct=${slot.structId} type=${slot.typeId} reserved=${slot.reserved} position=${slot.position}${typeName}`);
      }
    }
    line('.endstructures');
  }
  if (chunk.trailing.length > 0) writeHexBlock(w, '.trailing', chunk.trailing, '.endtrailing');
  if (options.scri && options.scri.trailing.length > 0) writeHexBlock(w, '.scritrailing', options.scri.trailing, '.endscritrailing');
}

function writeHexBlock(w: TextWriter, open: string, bytes: Uint8Array, close: string): void {
  w.newline();
  w.latin1(`${open} ${bytes.length}`);
  w.newline();
  for (let i = 0; i < bytes.length; i += 48) {
    w.spaces(2);
    for (let j = i; j < Math.min(bytes.length, i + 48); j++) w.hex(bytes[j]!, 2);
    w.newline();
  }
  w.latin1(close);
  w.newline();
}

function formatHeader(h: HksHeader): string {
  const hex2 = (n: number): string => '0x' + n.toString(16).padStart(2, '0');
  return `.header lua=${hex2(h.luaVersion)} format=${h.formatVersion} endian=${h.littleEndian ? 'little' : 'big'} int=${h.intSize} size_t=${h.sizeTSize} instruction=${h.instructionSize} number=${h.numberSize} integral=${h.integralNumbers} flags=${hex2(h.buildFlags)} referenced=${h.referenced}`;
}

function sameTypes(chunk: HksChunk): boolean {
  return chunk.types.length === HKS_STANDARD_TYPES.length && chunk.types.every((t, i) => t.id === HKS_STANDARD_TYPES[i]!.id && t.name === HKS_STANDARD_TYPES[i]!.name);
}

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Display name of a function: its debug name when it is an identifier, else its path. */
export function hksFunctionDisplayName(fn: HksFunction, path: string): string {
  const n = fn.debug?.name;
  return n && IDENT.test(n) ? n : path;
}

// ---- the code lines, written straight into the listing's bytes --------------------------------------------------
//
// The body of a listing is one line per code word (230,003 in a desert-scale chunk). Every opcode's mnemonic and
// operand layout is flattened once per opcode table into typed arrays; each line is then written byte by byte into
// the writer's buffer with no string per line, operand or note: numbers from their digits, constant notes copied
// from the constant's own `.const` line written earlier in the same function.

/** How an operand is shown: `R(n)`, `K(n)` (with the constant as a note), RK in the 9-bit C field, a plain integer,
 * a jump (`Lpc` or `+n` / `-n`), a child prototype `P(n)` (with its name as a note). */
const SHOW_R = 1;
const SHOW_K = 2;
const SHOW_RK = 3;
const SHOW_INT = 4;
const SHOW_JUMP = 5;
const SHOW_P = 6;
/** Which field of the word an operand is. */
const FIELD_A = 0;
const FIELD_B = 1;
const FIELD_C = 2;
const FIELD_BX = 3;
const FIELD_SBX = 4;
/** The mnemonic column: the name padded to 14, then a space. */
const NAME_WIDTH = 14;
/** Constant notes longer than this are cut to `NOTE_CUT` characters and `..."`. */
const NOTE_MAX = 60;
const NOTE_CUT = 57;
/** Columns of the `.const` comment and of a code line's comment. */
const CONST_COMMENT_COLUMN = 40;
const NOTE_COLUMN = 52;
/** Bytes a code line can take besides its indent, the pc and notes written through `TextWriter.latin1`. */
const LINE_BUDGET = 400;

/** The opcode table flattened for the line writer, indexed by opcode (7 bits). */
interface OpcodePlans {
  /** Every mnemonic, one after the other: opcode `op`'s is `names[nameStart[op]..nameStart[op + 1]]`. */
  names: Uint8Array;
  nameStart: Int32Array;
  /** Width of the mnemonic column with its space: the name padded to 14, then one space. */
  nameColumn: Uint8Array;
  /** Number of operands shown (0–3). */
  count: Uint8Array;
  /** Three `FIELD_*` / `SHOW_*` pairs per opcode. */
  fields: Uint8Array;
  shows: Uint8Array;
  /** Bits of the unused fields, which must be zero for the operands to re-encode the word; -1: not in the table. */
  unusedMask: Int32Array;
  isData: Uint8Array;
  /** B is a jump: its target gets a label (the word's sBx, whatever the mode). */
  jump: Uint8Array;
  /** The opcode has a note beyond its operands (upvalue name, checked type or structure, slot chain). */
  extra: Uint8Array;
  /** What the opcode's DATA words are shown as when that is fixed text: `DATA_CACHE`, `DATA_MEMO`, else 0. */
  dataNote: Uint8Array;
}

/** DATA words whose comment the line writer writes itself (the common ones: GETFIELD / GETTABLE caches, memos). */
const DATA_CACHE = 1;
const DATA_MEMO = 2;

const PLANS = new WeakMap<HksOpcodeTable, OpcodePlans>();

function opcodePlans(table: HksOpcodeTable): OpcodePlans {
  let plans = PLANS.get(table);
  if (plans) return plans;
  plans = {
    names: latin1Constant(table.byOp.map((info) => info.name).join('')),
    nameStart: new Int32Array(129),
    nameColumn: new Uint8Array(128),
    count: new Uint8Array(128),
    fields: new Uint8Array(128 * 3),
    shows: new Uint8Array(128 * 3),
    unusedMask: new Int32Array(128).fill(-1),
    isData: new Uint8Array(128),
    jump: new Uint8Array(128),
    extra: new Uint8Array(128),
    dataNote: new Uint8Array(128),
  };
  for (const info of table.byOp) {
    const op = info.op;
    let n = 0;
    const add = (field: number, kind: HksOperandKind, rk9: boolean): void => {
      if (kind === '-') return;
      plans!.fields[op * 3 + n] = field;
      plans!.shows[op * 3 + n] = showOf(kind, rk9);
      n++;
    };
    add(FIELD_A, info.a, false);
    if (info.mode === 'ABC') {
      add(FIELD_B, info.b, false);
      add(FIELD_C, info.c, true);
    } else add(info.mode === 'ABx' ? FIELD_BX : FIELD_SBX, info.b, false);
    plans.count[op] = n;
    let mask = info.a === '-' ? 0xff : 0;
    if (info.mode === 'ABC') {
      if (info.b === '-') mask |= 0xff << 17;
      if (info.c === '-') mask |= 0x1ff << 8;
    }
    plans.unusedMask[op] = mask;
    plans.isData[op] = info.isData ? 1 : 0;
    plans.jump[op] = info.b === 'J' ? 1 : 0;
    plans.extra[op] = info.upvalueB || info.check !== null || info.dataPayload === 'slotChain' ? 1 : 0;
    plans.dataNote[op] = info.dataPayload === 'cache' ? DATA_CACHE : info.dataPayload === 'memo' ? DATA_MEMO : 0;
  }
  // Opcodes beyond the table get an empty column (they are shown as `.word`).
  for (let op = 0, at = 0; op < 128; op++) {
    plans.nameStart[op] = at;
    const name = table.byOp[op]?.name ?? '';
    plans.nameColumn[op] = Math.max(NAME_WIDTH, name.length) + 1;
    at += name.length;
  }
  plans.nameStart[128] = plans.names.length;
  PLANS.set(table, plans);
  return plans;
}

function showOf(kind: HksOperandKind, rk9: boolean): number {
  if (kind === 'R') return SHOW_R;
  if (kind === 'K') return SHOW_K;
  // RK outside the 9-bit C field cannot name a constant.
  if (kind === 'RK') return rk9 ? SHOW_RK : SHOW_R;
  if (kind === 'J') return SHOW_JUMP;
  if (kind === 'P') return SHOW_P;
  return SHOW_INT;
}

/** Jump targets of a function's jumps, for labels: 1 at each targeted pc. */
function jumpTargets(ctx: ListingContext, code: Uint32Array): Uint8Array {
  const plans = ctx.plans;
  const targets = scratch(ctx, code.length).targets;
  targets.fill(0, 0, code.length);
  for (let pc = 0; pc < code.length; pc++) {
    const word = code[pc]!;
    const op = word >>> 25;
    if (plans.jump[op] === 1 && (word & plans.unusedMask[op]!) === 0) {
      const t = pc + 1 + ((word >>> 8) & 0x1ffff) - 0xffff;
      if (t >= 0 && t < code.length) targets[t] = 1;
    }
  }
  return targets;
}

interface ListingContext {
  w: TextWriter;
  chunk: HksChunk;
  table: HksOpcodeTable;
  plans: OpcodePlans;
  structNames: Map<number, string>;
  structSlots: Map<number, Map<number, HksSlot>>;
  bare: boolean;
  /** Text of each non-zero, non-NaN number constant (the same values recur across functions). */
  numberTexts: Map<number, string>;
  /** Per-function working arrays, reused: a function's are done with before its children are written. */
  scratch: Scratch;
}

interface Scratch {
  /** Where each constant's text is in the listing, and its length. */
  constStart: Int32Array;
  constLength: Int32Array;
  /** 1 at each jump target. */
  targets: Uint8Array;
  /** Notes of the current code line's operands: a constant index, or -1 - child index. */
  notes: Int32Array;
}

/** The working arrays, grown to hold at least `n` entries. */
function scratch(ctx: ListingContext, n: number): Scratch {
  const s = ctx.scratch;
  if (s.targets.length < n) {
    const size = Math.max(n, 2 * s.targets.length);
    ctx.scratch = { constStart: new Int32Array(size), constLength: new Int32Array(size), targets: new Uint8Array(size), notes: s.notes };
  }
  return ctx.scratch;
}

/** Width of `String(v)` for a non-negative integer. */
function decimalWidth(v: number): number {
  let n = 1;
  for (let t = v; t >= 10; t = Math.floor(t / 10)) n++;
  return n;
}

/** Writes the non-negative integer `v` (below 2^31) in decimal at `buf[p]`; returns the position after it. */
function putUint(buf: Uint8Array, p: number, v: number): number {
  if (v < 10) {
    buf[p] = 0x30 + v;
    return p + 1;
  }
  if (v < 100) {
    const q = (v / 10) | 0;
    buf[p] = 0x30 + q;
    buf[p + 1] = 0x30 + v - q * 10;
    return p + 2;
  }
  let end = p + 3;
  for (let t = 1000; t <= v && end < p + 10; t *= 10) end++;
  for (let i = end, t = v; i > p; ) {
    const q = (t / 10) | 0;
    buf[--i] = 0x30 + t - q * 10;
    t = q;
  }
  return end;
}

/** Writes `s` (ASCII, e.g. a constant name from this module) at `buf[p]`; returns the position after it. */
function putAscii(buf: Uint8Array, p: number, s: Uint8Array): number {
  for (let i = 0; i < s.length; i++) buf[p++] = s[i]!;
  return p;
}

const NOTE_SEPARATOR = latin1Constant(' ; ');
const SEMICOLON = 0x3b;
const OUT_OF_RANGE = latin1Constant('<out of range>');
const CONST_DIRECTIVE = latin1Constant('.const ');
const CONST_K = latin1Constant('K(');
const DATA_DIRECTIVE = latin1Constant('  .data ');
const CUT_END = latin1Constant('..."');
const MEMO_PAIR = latin1Constant('memo pair K(');
const MEMO_MIDDLE = latin1Constant('), K(');
const INLINE_CACHE = latin1Constant('inline cache');

/**
 * How `quoteHksString` shows each byte inside quotes: 0 as it is, 1 as `\xHH`, else the letter after a backslash.
 */
const QUOTE_CLASS = (() => {
  const t = new Uint8Array(256);
  for (let c = 0; c < 256; c++) if (c < 0x20 || c >= 0x7f) t[c] = 1;
  t[0x5c] = 0x5c;
  t[0x22] = 0x22;
  t[0x0a] = 0x6e;
  t[0x0d] = 0x72;
  t[0x09] = 0x74;
  return t;
})();

/** `quoteHksString(s)` written into `w` (ASCII). */
function writeQuoted(w: TextWriter, s: string | null): void {
  if (s === null) {
    w.latin1('null');
    return;
  }
  const n = s.length;
  w.reserve(4 * n + 2);
  const buf = w.buf;
  let p = w.pos;
  buf[p++] = 0x22;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c > 0xff) {
      // Beyond Latin-1 (only in a model built by hand): the string helper's wider `\x` escape, written over
      // what this loop wrote (blanked first: the writer keeps spaces beyond its position).
      buf.fill(0x20, w.pos, p);
      w.latin1(quoteHksString(s));
      return;
    }
    const k = QUOTE_CLASS[c]!;
    if (k === 0) buf[p++] = c;
    else if (k === 1) {
      buf[p++] = 0x5c;
      buf[p++] = 0x78;
      buf[p++] = HEX_DIGITS[c >> 4]!;
      buf[p++] = HEX_DIGITS[c & 15]!;
    } else {
      buf[p++] = 0x5c;
      buf[p++] = k;
    }
  }
  buf[p++] = 0x22;
  w.pos = p;
}
const HEX_DIGITS = latin1Constant('0123456789abcdef');
const NO_NAMES: readonly string[] = [];

/** `.const` text of a constant, written into the listing (a number's text is worked out once per listing). */
function writeConstant(ctx: ListingContext, k: HksConstant): void {
  if (k.type === 'string') {
    writeQuoted(ctx.w, k.value);
    return;
  }
  if (k.type !== 'number' || k.value === 0 || Number.isNaN(k.value)) {
    ctx.w.latin1(formatHksConstant(k, ctx.chunk.header));
    return;
  }
  let text = ctx.numberTexts.get(k.value);
  if (text === undefined) {
    text = formatHksConstant(k, ctx.chunk.header);
    ctx.numberTexts.set(k.value, text);
  }
  ctx.w.latin1(text);
}

function writeFunction(ctx: ListingContext, fn: HksFunction, path: string, parent: HksFunction | null, depth: number): void {
  const { w, bare } = ctx;
  const indent = 2 * depth + 2;
  // `.function NAME  ; PATH lines A..B, N words, N constants, N functions` and the `.params` line, written
  // piece by piece (no string per line: a desert-scale chunk has 2,301 functions)
  w.spaces(2 * depth);
  w.bytes(FUNCTION_DIRECTIVE, true);
  w.latin1(hksFunctionDisplayName(fn, path));
  if (!bare) {
    w.bytes(NOTE_START, true);
    w.latin1(path);
    if (fn.debug) {
      w.bytes(LINES_WORD, true);
      writeNumber(w, fn.debug.lineDefined);
      w.bytes(RANGE_DOTS, true);
      writeNumber(w, fn.debug.lastLineDefined);
    }
    writeCount(w, fn.code.length, WORD_WORDS);
    writeCount(w, fn.constants.length, CONSTANT_WORDS);
    writeCount(w, fn.children.length, FUNCTION_WORDS);
  }
  w.newline();
  w.spaces(indent);
  w.bytes(PARAMS_DIRECTIVE, true);
  writeNumber(w, fn.paramCount);
  w.bytes(UPVALUES_DIRECTIVE, true);
  writeNumber(w, fn.upvalueCount);
  w.bytes(VARARG_DIRECTIVE, true);
  writeNumber(w, fn.varargFlags);
  w.bytes(MAXSTACK_DIRECTIVE, true);
  writeNumber(w, fn.maxStackSize);
  if (fn.padByte !== HKS_DEFAULT_PAD_BYTE) w.latin1(`  .padbyte 0x${fn.padByte.toString(16).padStart(2, '0')}`);
  w.newline();
  const ind = '  '.repeat(depth);
  const i2 = ind + '  ';
  // Each constant's text is written once, on its `.const` line; notes copy it from there.
  const constCount = fn.constants.length;
  const { constStart, constLength } = scratch(ctx, constCount);
  for (let i = 0; i < constCount; i++) {
    w.reserve(indent + CONST_DIRECTIVE.length);
    let buf = w.buf;
    let p = w.pos;
    // The writer keeps the buffer beyond `pos` blank (spaces): a run of spaces is skipped, not written.
    p += indent;
    p = putAscii(buf, p, CONST_DIRECTIVE);
    w.pos = p;
    writeConstant(ctx, fn.constants[i]!);
    constStart[i] = p;
    constLength[i] = w.pos - p;
    w.reserve(CONST_COMMENT_COLUMN + 20);
    buf = w.buf;
    p = w.pos;
    if (!bare) {
      p = Math.max(p, w.lineStart + CONST_COMMENT_COLUMN) + 1;
      buf[p] = SEMICOLON;
      p += 2;
      p = putAscii(buf, p, CONST_K);
      p = putUint(buf, p, i);
      buf[p++] = 0x29;
    }
    buf[p++] = 0x0a;
    w.pos = p;
    w.lineStart = p;
  }
  const d = fn.debug;
  const perWordLines = d !== null && d.lines.length === fn.code.length && d.lines.length > 0;
  if (d) {
    writeLine(w, `${i2}.debug line=${d.lineDefined} last=${d.lastLineDefined} source=${quoteHksString(d.source)} name=${quoteHksString(d.name)}${!bare && d.source === null && parent ? '  ; source null = the parent\'s' : ''}`);
    for (const l of d.locals) {
      w.latin1(i2);
      w.latin1('.local ');
      writeQuoted(w, l.name);
      w.byte(0x20);
      w.int(l.startPc);
      w.byte(0x20);
      w.int(l.endPc);
      w.newline();
    }
    for (const u of d.upvalueNames) {
      w.latin1(i2);
      w.latin1('.upvalname ');
      writeQuoted(w, u);
      w.newline();
    }
    if (!perWordLines && d.lines.length > 0) writeLine(w, `${i2}.lines ${d.lines.join(' ')}`);
  }
  w.spaces(indent);
  w.bytes(CODE_DIRECTIVE, true);
  w.newline();
  writeCode(ctx, fn, path, indent, perWordLines ? d!.lines : null, constStart, constLength);
  for (let i = 0; i < fn.children.length; i++) {
    w.newline();
    writeFunction(ctx, fn.children[i]!, `${path}/${i}`, fn, depth + 1);
  }
  w.spaces(2 * depth);
  w.bytes(END_DIRECTIVE, true);
  w.newline();
}

const FUNCTION_DIRECTIVE = latin1Constant('.function ');
const NOTE_START = latin1Constant('  ; ');
const LINES_WORD = latin1Constant(' lines ');
const RANGE_DOTS = latin1Constant('..');
const PARAMS_DIRECTIVE = latin1Constant('.params ');
const UPVALUES_DIRECTIVE = latin1Constant('  .upvalues ');
const VARARG_DIRECTIVE = latin1Constant('  .vararg ');
const MAXSTACK_DIRECTIVE = latin1Constant('  .maxstack ');
const CODE_DIRECTIVE = latin1Constant('.code');
const END_DIRECTIVE = latin1Constant('.end');
const WORD_WORDS = [latin1Constant(' word'), latin1Constant(' words')] as const;
const CONSTANT_WORDS = [latin1Constant(' constant'), latin1Constant(' constants')] as const;
const FUNCTION_WORDS = [latin1Constant(' function'), latin1Constant(' functions')] as const;
const COUNT_SEPARATOR = latin1Constant(', ');

/** `String(v)` of a model number (an integer, as parsed; anything else through `String`). */
function writeNumber(w: TextWriter, v: number): void {
  if (Number.isSafeInteger(v)) w.int(v);
  else w.latin1(String(v));
}

/** `, N word(s)` of a function's summary. */
function writeCount(w: TextWriter, n: number, words: readonly [Uint8Array, Uint8Array]): void {
  w.bytes(COUNT_SEPARATOR, true);
  writeNumber(w, n);
  w.bytes(words[n === 1 ? 0 : 1], true);
}

/** The `.code` lines of one function: labels, instructions with their operands and notes, DATA words. */
function writeCode(ctx: ListingContext, fn: HksFunction, path: string, indent: number, lines: number[] | null, constStart: Int32Array, constLength: Int32Array): void {
  const { w, table, plans, structNames, structSlots, bare } = ctx;
  const code = fn.code;
  const n = code.length;
  const targets = jumpTargets(ctx, code);
  const pcWidth = Math.max(3, decimalWidth(n));
  const childNames = fn.children.length === 0 ? NO_NAMES : fn.children.map((child, v) => hksFunctionDisplayName(child, `${path}/${v}`));
  const constCount = fn.constants.length;
  const { names, nameStart, nameColumn, count, fields, shows, unusedMask, isData, extra, dataNote } = plans;
  const trackingStructs = !bare && structSlots.size > 0;
  // Which structure each register holds (from NEWSTRUCT, CHECKTYPES, struct-typed GETSLOT, MOVE), so slot
  // positions can be named; forgotten at every label (control may arrive from elsewhere).
  const structIn: (number | undefined)[] = [];
  const notes = ctx.scratch.notes;
  let ownerOp = -1;
  let ownerWord = 0;
  let dataIndex = 0;
  let pcDigits = 1;
  let pcNextWidth = 10;
  const budget = indent + pcWidth + LINE_BUDGET;
  let buf = w.buf;
  let p = w.pos;
  let lineStart = p;
  for (let pc = 0; pc < n; pc++) {
    if (p + budget > w.end) {
      w.pos = p;
      w.reserve(budget);
      buf = w.buf;
    }
    const word = code[pc]!;
    if (pc === pcNextWidth) {
      pcDigits++;
      pcNextWidth *= 10;
    }
    if (targets[pc] === 1) {
      p += indent;
      buf[p++] = 0x4c;
      p = putUint(buf, p, pc);
      buf[p++] = 0x3a;
      buf[p++] = 0x0a;
      lineStart = p;
      if (structIn.length > 0) structIn.length = 0;
    }
    // Prefix: indent, the pc right-aligned to pcWidth, a space, then `[line] ` padded to 7 when lines are given.
    p += indent + pcWidth - pcDigits;
    p = putUint(buf, p, pc) + 1;
    if (lines) {
      const start = p;
      buf[p++] = 0x5b;
      let v = lines[pc]!;
      if (v < 0) {
        buf[p++] = 0x2d;
        v = -v;
      }
      if (v < 0x80000000) p = putUint(buf, p, v);
      else {
        w.pos = p;
        w.uint(v);
        p = w.pos;
      }
      buf[p] = 0x5d;
      p = Math.max(p + 2, start + 7);
    }
    const op = word >>> 25;
    const mask = unusedMask[op]!;
    if (isData[op] === 1) {
      p = putAscii(buf, p, DATA_DIRECTIVE);
      p = putUint(buf, p, word & 0xff);
      buf[p++] = 0x20;
      p = putUint(buf, p, (word >>> 8) & 0x1ffff);
      const note = bare || ownerOp < 0 ? 0 : dataNote[ownerOp]!;
      if (note !== 0) {
        p = Math.max(p, lineStart + NOTE_COLUMN) + 1;
        buf[p] = SEMICOLON;
        p += 2;
        if (note === DATA_CACHE) p = putAscii(buf, p, INLINE_CACHE);
        else {
          const bx = (word >>> 8) & 0x1ffff;
          p = putAscii(buf, p, MEMO_PAIR);
          p = putUint(buf, p, bx);
          p = putAscii(buf, p, MEMO_MIDDLE);
          p = putUint(buf, p, bx + 1);
          buf[p++] = 0x29;
        }
      } else if (!bare) {
        w.pos = p;
        writeDataComment(w, lineStart, ownerOp < 0 ? undefined : table.byOp[ownerOp], ownerWord, dataIndex, word, fn, structNames);
        buf = w.buf;
        p = w.pos;
      }
      buf[p++] = 0x0a;
      lineStart = p;
      dataIndex++;
      continue;
    }
    ownerOp = mask === -1 ? -1 : op;
    ownerWord = word;
    dataIndex = 0;
    if (mask === -1 || (word & mask) !== 0) {
      w.pos = p;
      w.latin1('.word 0x');
      w.hex(word, 8);
      const info = table.byOp[op];
      writeComment(w, lineStart, info ? `${info.name} with nonzero unused fields` : `opcode ${op} is not in the ${table.dialect} table`);
      buf = w.buf;
      p = w.pos;
      buf[p++] = 0x0a;
      lineStart = p;
      continue;
    }
    const column = p + nameColumn[op]!;
    for (let i = nameStart[op]!, end = nameStart[op + 1]!; i < end; i++) buf[p++] = names[i]!;
    p = column;
    let noteCount = 0;
    for (let s = 0, c = count[op]!; s < c; s++) {
      const field = fields[op * 3 + s]!;
      let v = field === FIELD_A ? word & 0xff : field === FIELD_B ? (word >>> 17) & 0xff : field === FIELD_C ? (word >>> 8) & 0x1ff : (word >>> 8) & 0x1ffff;
      if (field === FIELD_SBX) v -= 0xffff;
      if (s > 0) p++;
      let show = shows[op * 3 + s]!;
      if (show === SHOW_RK) {
        if (v >= 256) {
          v -= 256;
          show = SHOW_K;
        } else show = SHOW_R;
      }
      if (show === SHOW_R || show === SHOW_K || show === SHOW_P) {
        buf[p++] = show === SHOW_R ? 0x52 : show === SHOW_K ? 0x4b : 0x50;
        buf[p++] = 0x28;
        p = putUint(buf, p, v);
        buf[p++] = 0x29;
        if (show === SHOW_K) notes[noteCount++] = v;
        else if (show === SHOW_P && v < childNames.length) notes[noteCount++] = -1 - v;
      } else if (show === SHOW_JUMP) {
        const t = pc + 1 + v;
        if (t >= 0 && t < n) {
          buf[p++] = 0x4c;
          p = putUint(buf, p, t);
        } else {
          if (v >= 0) buf[p++] = 0x2b;
          else {
            buf[p++] = 0x2d;
            v = -v;
          }
          p = putUint(buf, p, v);
        }
      } else {
        if (v < 0) {
          buf[p++] = 0x2d;
          v = -v;
        }
        p = putUint(buf, p, v);
      }
    }
    if (bare) {
      buf[p++] = 0x0a;
      lineStart = p;
      continue;
    }
    let first = true;
    if (trackingStructs) {
      const slotNote = trackStructs(table.byOp[op]!, word, code[pc + 1], structIn, structNames, structSlots);
      if (slotNote !== null) {
        w.pos = p;
        startNote(w, lineStart, first);
        first = false;
        w.latin1(slotNote);
        buf = w.buf;
        p = w.pos;
      }
    }
    for (let i = 0; i < noteCount; i++) {
      const v = notes[i]!;
      if (v < 0) {
        w.pos = p;
        startNote(w, lineStart, first);
        first = false;
        w.latin1(childNames[-1 - v]!);
        buf = w.buf;
        p = w.pos;
        continue;
      }
      if (first) {
        p = Math.max(p, lineStart + NOTE_COLUMN) + 1;
        buf[p] = SEMICOLON;
        p += 2;
        first = false;
      } else p += 2;
      if (v >= constCount) {
        p = putAscii(buf, p, OUT_OF_RANGE);
        continue;
      }
      const from = constStart[v]!;
      const length = constLength[v]!;
      if (length > NOTE_MAX) {
        for (let j = from, end = from + NOTE_CUT; j < end; j++) buf[p++] = buf[j]!;
        p = putAscii(buf, p, CUT_END);
      } else for (let j = from, end = from + length; j < end; j++) buf[p++] = buf[j]!;
    }
    if (extra[op] === 1) {
      w.pos = p;
      writeExtraNote(w, lineStart, first, table.byOp[op]!, word, fn, structNames);
      buf = w.buf;
      p = w.pos;
    }
    buf[p++] = 0x0a;
    lineStart = p;
  }
  w.pos = p;
  w.lineStart = lineStart;
}

function writeLine(w: TextWriter, text: string): void {
  w.latin1(text);
  w.newline();
}


/** Pads to the note column and writes ` ; ` before a line's first note, two spaces before the others. */
function startNote(w: TextWriter, lineStart: number, first: boolean): void {
  if (first) {
    w.spaces(NOTE_COLUMN - (w.pos - lineStart));
    w.bytes(NOTE_SEPARATOR, true);
  } else w.spaces(2);
}

/** A non-empty comment at the note column. */
function writeComment(w: TextWriter, lineStart: number, comment: string): void {
  if (!comment) return;
  startNote(w, lineStart, true);
  w.latin1(comment);
}

/** The note an opcode adds beyond its operands: an upvalue's name, the type or structure it checks, a slot chain. */
function writeExtraNote(w: TextWriter, lineStart: number, first: boolean, info: HksOpcodeInfo, word: number, fn: HksFunction, structNames: Map<number, string>): void {
  const b = hksB(word);
  const bx = hksBx(word);
  if (info.upvalueB) {
    const name = fn.debug?.upvalueNames[b];
    if (!name) return;
    startNote(w, lineStart, first);
    w.latin1('upvalue ');
    w.latin1(name);
    return;
  }
  startNote(w, lineStart, first);
  if (info.check === 'type') {
    const type = TYPE_NAMES[bx];
    if (type != null) w.latin1(type);
    else {
      w.latin1('type ');
      w.uint(bx);
    }
  } else if (info.check === 'struct') {
    w.latin1('struct ');
    writeNameOrId(w, structNames.get(bx), bx);
  } else {
    // slotChain (SETSLOTMT): the chain length and the slot's type.
    w.latin1('chain ');
    w.uint((b & 15) + 1);
    w.latin1(', type ');
    writeNameOrId(w, TYPE_NAMES[b >> 4], b >> 4);
  }
}

/** A name, or the id when there is none (`name ?? id`). */
function writeNameOrId(w: TextWriter, name: string | null | undefined, id: number): void {
  if (name != null) w.latin1(name);
  else w.uint(id);
}

/** Follows which structure each register holds; returns the note naming the slot this instruction reads or writes. */
function trackStructs(info: HksOpcodeInfo, w: number, next: number | undefined, structIn: (number | undefined)[], names: Map<number, string>, slots: Map<number, Map<number, HksSlot>>): string | null {
  const a = hksA(w);
  const field = (f: 'A' | 'B' | 'C'): number => (f === 'A' ? a : f === 'B' ? hksB(w) : hksC(w));
  let result: number | undefined;
  let note: string | null = null;
  if (info.slot) {
    const id = structIn[field(info.slot.instance)];
    const slot = id !== undefined ? slots.get(id)?.get(field(info.slot.position)) : undefined;
    if (slot && slot.name !== null) note = `${names.get(id!)}.${slot.name}`;
    if (info.setsA && slot && slot.typeId === 12) result = slot.structId;
  }
  if (info.dataPayload === 'structId' && info.setsA) {
    // NEWSTRUCT: R(A) holds a new instance of the structure in the DATA word.
    structIn[a] = next !== undefined ? hksBx(next) : undefined;
  } else if (info.check === 'struct') structIn[a] = hksBx(w);
  else if (info.name === 'MOVE') structIn[a] = structIn[hksB(w)];
  else if (info.writes === 'A..A+1') {
    // SELF forms: R(A+1) is the receiver, R(A) the method.
    structIn[a + 1] = structIn[hksB(w)];
    structIn[a] = undefined;
  } else if (info.call) structIn.length = Math.min(structIn.length, a);
  else if (info.setsA) structIn[a] = result;
  return note;
}

/**
 * The comment of a DATA word: what its owner keeps in it (nothing for an owner that expects DATA words of no known
 * meaning). Inline caches and memo pairs are written by `writeCode` itself.
 */
function writeDataComment(w: TextWriter, lineStart: number, owner: HksOpcodeInfo | undefined, ownerWord: number, index: number, word: number, fn: HksFunction, structNames: Map<number, string>): void {
  if (!owner) {
    writeComment(w, lineStart, 'orphan DATA word');
    return;
  }
  const a = hksA(word);
  const bx = hksBx(word);
  const payload = owner.dataPayload;
  if (payload === null && hksDataWordCount(owner, ownerWord) !== 0) return;
  startNote(w, lineStart, true);
  switch (payload) {
    case 'capture':
      if (a === 1) {
        w.latin1('capture R(');
        w.uint(bx);
        w.byte(0x29);
      } else if (a === 2) {
        w.latin1('share upvalue ');
        w.uint(bx);
        const name = fn.debug?.upvalueNames[bx];
        if (name) {
          w.latin1(' (');
          w.latin1(name);
          w.byte(0x29);
        }
      } else {
        w.latin1('capture kind ');
        w.uint(a);
        w.byte(0x3f);
      }
      return;
    case 'block':
      w.latin1('block ');
      w.uint(bx);
      return;
    case 'structId':
      w.latin1('struct ');
      writeNameOrId(w, structNames.get(bx), bx);
      return;
    case 'typeId':
      w.latin1('type ');
      writeNameOrId(w, TYPE_NAMES[bx], bx);
      return;
    case 'slotChain':
      if (hksB(ownerWord) >> 4 === 12 && index === 0) {
        w.latin1('struct ');
        writeNameOrId(w, structNames.get(bx), bx);
        return;
      }
      writeSlotVia(w, a, bx);
      return;
    case 'chain':
      writeSlotVia(w, a, bx);
      return;
    case null:
      w.latin1('DATA after ');
      w.latin1(owner.name);
      return;
  }
}

function writeSlotVia(w: TextWriter, a: number, bx: number): void {
  w.latin1('slot ');
  w.uint(a);
  w.latin1(' via ');
  w.uint(bx);
}
