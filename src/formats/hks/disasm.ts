/**
 * The disassembler: a chunk model to a directive-complete, readable listing. Every header setting and every byte
 * the model carries is written, so `assembleHks(disassembleHks(c))` rebuilds the same bytes (the round-trip
 * contract, tested on every fixture). Readability: functions nested and named from debug info, constants shown
 * beside their `K(n)` operands, jumps to labels, DATA words indented under their owner with their meaning,
 * structure declarations, locals / lines / upvalue names. Listing syntax: `src/formats/hks/README.md`.
 */
import { HKS_DEFAULT_PAD_BYTE, HKS_STANDARD_TYPES, type HksChunk, type HksFunction, type HksHeader, type HksSlot } from './chunk.ts';
import { formatHksConstant, quoteHksString } from './literals.ts';
import { latin1Constant, latin1Decode } from '../../binary/text.ts';
import { TextWriter } from '../../binary/text-writer.ts';
import { hksA, hksB, hksBx, hksC, hksDataWordCount, hksOpcodes, hksOp, hksSbx, type HksDialect, type HksOpcodeInfo, type HksOperandKind, type HksOpcodeTable } from './opcodes.ts';

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
  const w = new TextWriter({ chunkSize: 4096 + countWords(chunk.main) * 64 });
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
  const ctx: ListingContext = { w, chunk, table, structNames, structSlots, bare: options.bare === true, names: opcodeNameBytes(table) };
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

/** Jump targets of a function's jumps, for labels: 1 at each targeted pc. */
function jumpTargets(fn: HksFunction, table: HksOpcodeTable): Uint8Array {
  const targets = new Uint8Array(fn.code.length);
  const code = fn.code;
  for (let pc = 0; pc < code.length; pc++) {
    const info = table.byOp[hksOp(code[pc]!)];
    if (info && info.b === 'J' && canonical(info, code[pc]!)) {
      const t = pc + 1 + hksSbx(code[pc]!);
      if (t >= 0 && t < code.length) targets[t] = 1;
    }
  }
  return targets;
}

/** True when the word's unused fields are zero, so its operand form re-encodes to the same word. */
function canonical(info: HksOpcodeInfo, w: number): boolean {
  if (info.a === '-' && hksA(w) !== 0) return false;
  if (info.mode === 'ABC') {
    if (info.b === '-' && hksB(w) !== 0) return false;
    if (info.c === '-' && hksC(w) !== 0) return false;
  }
  return true;
}

interface ListingContext {
  w: TextWriter;
  chunk: HksChunk;
  table: HksOpcodeTable;
  structNames: Map<number, string>;
  structSlots: Map<number, Map<number, HksSlot>>;
  bare: boolean;
  /** Each opcode's name padded to 14 and a space, as bytes (the mnemonic column). */
  names: (Uint8Array | undefined)[];
}

function opcodeNameBytes(table: HksOpcodeTable): (Uint8Array | undefined)[] {
  return table.byOp.map((info) => (info ? latin1Constant(info.name.padEnd(14) + ' ') : undefined));
}

/** Width of `String(v)` for a non-negative integer. */
function decimalWidth(v: number): number {
  let n = 1;
  for (let t = v; t >= 10; t = Math.floor(t / 10)) n++;
  return n;
}

function writeFunction(ctx: ListingContext, fn: HksFunction, path: string, parent: HksFunction | null, depth: number): void {
  const { w, chunk, table, structNames, structSlots, bare } = ctx;
  const ind = '  '.repeat(depth);
  const h = chunk.header;
  const line = (text: string): void => {
    w.latin1(text);
    w.newline();
  };
  const name = hksFunctionDisplayName(fn, path);
  const where = fn.debug ? ` lines ${fn.debug.lineDefined}..${fn.debug.lastLineDefined}` : '';
  line(`${ind}.function ${name}${bare ? '' : `  ; ${path}${where}, ${plural(fn.code.length, 'word')}, ${plural(fn.constants.length, 'constant')}, ${plural(fn.children.length, 'function')}`}`);
  const i2 = ind + '  ';
  const indent = 2 * depth + 2;
  line(`${i2}.params ${fn.paramCount}  .upvalues ${fn.upvalueCount}  .vararg ${fn.varargFlags}  .maxstack ${fn.maxStackSize}${fn.padByte !== HKS_DEFAULT_PAD_BYTE ? `  .padbyte 0x${fn.padByte.toString(16).padStart(2, '0')}` : ''}`);
  const constTexts = fn.constants.map((k) => formatHksConstant(k, h));
  for (let i = 0; i < constTexts.length; i++) {
    w.spaces(indent);
    w.latin1('.const ');
    w.latin1(constTexts[i]!);
    if (!bare) {
      w.padTo(40);
      w.latin1(' ; K(');
      w.uint(i);
      w.byte(0x29);
    }
    w.newline();
  }
  const d = fn.debug;
  const perWordLines = d !== null && d.lines.length === fn.code.length && d.lines.length > 0;
  if (d) {
    line(`${i2}.debug line=${d.lineDefined} last=${d.lastLineDefined} source=${quoteHksString(d.source)} name=${quoteHksString(d.name)}${!bare && d.source === null && parent ? '  ; source null = the parent\'s' : ''}`);
    for (const l of d.locals) line(`${i2}.local ${quoteHksString(l.name)} ${l.startPc} ${l.endPc}`);
    for (const u of d.upvalueNames) line(`${i2}.upvalname ${quoteHksString(u)}`);
    if (!perWordLines && d.lines.length > 0) line(`${i2}.lines ${d.lines.join(' ')}`);
  }
  line(`${i2}.code`);
  const code = fn.code;
  const targets = jumpTargets(fn, table);
  const pcWidth = Math.max(3, decimalWidth(code.length));
  const constNotes = constTexts.map(shortConstNote);
  const childNames = fn.children.map((child, v) => hksFunctionDisplayName(child, `${path}/${v}`));
  let owner: HksOpcodeInfo | undefined;
  let ownerWord = 0;
  let dataIndex = 0;
  let curPc = 0;
  let nOps = 0;
  const notes: string[] = [];
  const constNote = (index: number): string => constNotes[index] ?? '<out of range>';
  const operand = (kind: HksOperandKind, v: number, rk9: boolean): void => {
    if (kind === '-') return;
    if (nOps++ > 0) w.byte(0x20);
    switch (kind) {
      case 'R':
        w.reserve(16);
        w.buf[w.pos++] = 0x52;
        w.buf[w.pos++] = 0x28;
        w.uint(v);
        w.buf[w.pos++] = 0x29;
        return;
      case 'K':
        w.reserve(16);
        w.buf[w.pos++] = 0x4b;
        w.buf[w.pos++] = 0x28;
        w.uint(v);
        w.buf[w.pos++] = 0x29;
        notes.push(constNote(v));
        return;
      case 'RK':
        w.reserve(16);
        if (rk9 && v >= 256) {
          w.buf[w.pos++] = 0x4b;
          w.buf[w.pos++] = 0x28;
          w.uint(v - 256);
          notes.push(constNote(v - 256));
        } else {
          w.buf[w.pos++] = 0x52;
          w.buf[w.pos++] = 0x28;
          w.uint(v);
        }
        w.buf[w.pos++] = 0x29;
        return;
      case 'J': {
        const t = curPc + 1 + v;
        if (t >= 0 && t < code.length) {
          w.byte(0x4c);
          w.uint(t);
        } else {
          if (v >= 0) w.byte(0x2b);
          w.int(v);
        }
        return;
      }
      case 'P': {
        w.latin1('P(');
        w.uint(v);
        w.byte(0x29);
        const child = childNames[v];
        if (child !== undefined) notes.push(child);
        return;
      }
      default:
        w.int(v);
    }
  };
  /** Ends the line with `  ; note  note` at column 52 when any note is non-empty. */
  const endWithNotes = (): void => {
    let first = true;
    for (let i = 0; i < notes.length; i++) {
      const n = notes[i]!;
      if (!n) continue;
      if (first) {
        w.padTo(52);
        w.latin1(' ; ');
        first = false;
      } else w.spaces(2);
      w.latin1(n);
    }
    w.newline();
  };
  const endWithComment = (comment: string): void => {
    if (comment) {
      w.padTo(52);
      w.latin1(' ; ');
      w.latin1(comment);
    }
    w.newline();
  };
  // Which structure each register holds (from NEWSTRUCT, CHECKTYPES, struct-typed GETSLOT, MOVE), so slot
  // positions can be named; forgotten at every label (control may arrive from elsewhere).
  const structIn: (number | undefined)[] = [];
  const lines = perWordLines ? d!.lines : null;
  for (let pc = 0; pc < code.length; pc++) {
    const word = code[pc]!;
    if (targets[pc] === 1) {
      w.spaces(indent);
      w.byte(0x4c);
      w.uint(pc);
      w.byte(0x3a);
      w.newline();
      structIn.length = 0;
    }
    // Prefix: indent, the pc right-aligned to pcWidth, a space, then `[line] ` padded to 7 when lines are given.
    w.spaces(indent + pcWidth - decimalWidth(pc));
    w.uint(pc);
    w.byte(0x20);
    if (lines) {
      const start = w.column();
      w.byte(0x5b);
      w.int(lines[pc]!);
      w.latin1('] ');
      w.padTo(start + 7);
    }
    const info = table.byOp[hksOp(word)];
    if (info?.isData) {
      w.latin1('  .data ');
      w.uint(hksA(word));
      w.byte(0x20);
      w.uint(hksBx(word));
      endWithComment(bare ? '' : describeData(owner, ownerWord, dataIndex, word, fn, structNames));
      dataIndex++;
      continue;
    }
    owner = info;
    ownerWord = word;
    dataIndex = 0;
    if (!info || !canonical(info, word)) {
      w.latin1('.word 0x');
      w.hex(word, 8);
      endWithComment(info ? `${info.name} with nonzero unused fields` : `opcode ${hksOp(word)} is not in the ${table.dialect} table`);
      continue;
    }
    notes.length = 0;
    nOps = 0;
    curPc = pc;
    w.bytes(ctx.names[info.op]!, true);
    operand(info.a, hksA(word), false);
    if (info.mode === 'ABC') {
      operand(info.b, hksB(word), false);
      operand(info.c, hksC(word), true);
    } else if (info.mode === 'ABx') operand(info.b, hksBx(word), false);
    else operand(info.b, hksSbx(word), false);
    if (bare) {
      w.newline();
      continue;
    }
    extraNotes(info, word, fn, notes, structNames);
    if (structSlots.size > 0) trackStructs(info, word, code[pc + 1], structIn, structNames, structSlots, notes);
    endWithNotes();
  }
  for (let i = 0; i < fn.children.length; i++) {
    w.newline();
    writeFunction(ctx, fn.children[i]!, `${path}/${i}`, fn, depth + 1);
  }
  line(`${ind}.end`);
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** A constant's text as a comment: long texts cut to 60 characters. */
function shortConstNote(text: string): string {
  return text.length > 60 ? text.slice(0, 57) + '..."' : text;
}

function extraNotes(info: HksOpcodeInfo, w: number, fn: HksFunction, notes: string[], structNames: Map<number, string>): void {
  if (info.upvalueB) {
    const n = fn.debug?.upvalueNames[hksB(w)];
    if (n) notes.push(`upvalue ${n}`);
  } else if (info.check === 'type') notes.push(TYPE_NAMES[hksBx(w)] ?? `type ${hksBx(w)}`);
  else if (info.check === 'struct') notes.push(`struct ${structNames.get(hksBx(w)) ?? hksBx(w)}`);
  else if (info.dataPayload === 'slotChain') {
    const b = hksB(w);
    notes.push(`chain ${(b & 15) + 1}, type ${TYPE_NAMES[b >> 4] ?? b >> 4}`);
  }
}

function trackStructs(info: HksOpcodeInfo, w: number, next: number | undefined, structIn: (number | undefined)[], names: Map<number, string>, slots: Map<number, Map<number, HksSlot>>, notes: string[]): void {
  const a = hksA(w);
  const field = (f: 'A' | 'B' | 'C'): number => (f === 'A' ? a : f === 'B' ? hksB(w) : hksC(w));
  let result: number | undefined;
  if (info.slot) {
    const id = structIn[field(info.slot.instance)];
    const slot = id !== undefined ? slots.get(id)?.get(field(info.slot.position)) : undefined;
    if (slot && slot.name !== null) notes.unshift(`${names.get(id!)}.${slot.name}`);
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
}

function describeData(owner: HksOpcodeInfo | undefined, ownerWord: number, index: number, w: number, fn: HksFunction, structNames: Map<number, string>): string {
  if (!owner) return 'orphan DATA word';
  const a = hksA(w);
  const bx = hksBx(w);
  switch (owner.dataPayload) {
    case 'memo':
      return `memo pair K(${bx}), K(${bx + 1})`;
    case 'cache':
      return 'inline cache';
    case 'capture':
      if (a === 1) return `capture R(${bx})`;
      if (a === 2) return `share upvalue ${bx}${fn.debug?.upvalueNames[bx] ? ` (${fn.debug.upvalueNames[bx]})` : ''}`;
      return `capture kind ${a}?`;
    case 'block':
      return `block ${bx}`;
    case 'structId':
      return `struct ${structNames.get(bx) ?? bx}`;
    case 'typeId':
      return `type ${TYPE_NAMES[bx] ?? bx}`;
    case 'slotChain': {
      const structWord = hksB(ownerWord) >> 4 === 12;
      if (structWord && index === 0) return `struct ${structNames.get(bx) ?? bx}`;
      return `slot ${a} via ${bx}`;
    }
    case 'chain':
      return `slot ${a} via ${bx}`;
    case null: {
      const expected = hksDataWordCount(owner, ownerWord);
      return expected === 0 ? `DATA after ${owner.name}` : '';
    }
  }
}
