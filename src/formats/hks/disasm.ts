/**
 * The disassembler: a chunk model to a directive-complete, readable listing. Every header setting and every byte
 * the model carries is written, so `assembleHks(disassembleHks(c))` rebuilds the same bytes (the round-trip
 * contract, tested on every fixture). Readability: functions nested and named from debug info, constants shown
 * beside their `K(n)` operands, jumps to labels, DATA words indented under their owner with their meaning,
 * structure declarations, locals / lines / upvalue names. Listing syntax: `src/formats/hks/README.md`.
 */
import { HKS_DEFAULT_PAD_BYTE, HKS_STANDARD_TYPES, type HksChunk, type HksFunction, type HksHeader, type HksSlot } from './chunk.ts';
import { formatHksConstant, quoteHksString } from './literals.ts';
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

/** Renders the whole chunk as a listing. */
export function disassembleHks(chunk: HksChunk, options: HksDisassembleOptions = {}): string {
  const table = hksOpcodes(options.dialect);
  const out: string[] = [];
  out.push('; HavokScript listing by scry: `scry script asm` rebuilds the exact bytes');
  if (options.scri) out.push(`.scri version=${options.scri.version} flag=${options.scri.flag}`);
  if (table.dialect !== 'default') out.push(`.dialect ${table.dialect}`);
  out.push(formatHeader(chunk.header));
  if (!sameTypes(chunk)) {
    out.push('.types');
    for (const t of chunk.types) out.push(`  ${t.id} ${quoteHksString(t.name)}`);
    out.push('.endtypes');
  }
  out.push('');
  const structNames = new Map<number, string>();
  const structSlots = new Map<number, Map<number, HksSlot>>();
  for (const s of chunk.structures?.structures ?? []) {
    structNames.set(s.id, s.name);
    structSlots.set(s.id, new Map(s.slots.map((slot) => [slot.position, slot])));
  }
  writeFunction(out, chunk, chunk.main, 'main', null, 0, table, structNames, options.bare === true, structSlots);
  if (chunk.structures) {
    const sec = chunk.structures;
    out.push('', `.structures layout=${sec.layout} marker=${sec.marker}`);
    for (const s of sec.structures) {
      out.push(`.struct ${quoteHksString(s.name)} id=${s.id} meta=${s.hasMeta} proxy=${s.hasProxy}`);
      for (const e of s.extends ?? []) out.push(`  .extends ${quoteHksString(e)}`);
      if (sec.layout === 'extends' && (s.extends?.length ?? 0) === 0) out.push('  .extends');
      for (const slot of s.slots) {
        const typeName = !options.bare ? `  ; ${slot.typeId === 0 ? 'object' : (TYPE_NAMES[slot.typeId] ?? '?')}${slot.structId !== 0xffff && structNames.has(slot.structId) ? ' ' + structNames.get(slot.structId) : ''}` : '';
        out.push(`  .slot ${quoteHksString(slot.name)} struct=${slot.structId} type=${slot.typeId} reserved=${slot.reserved} position=${slot.position}${typeName}`);
      }
    }
    out.push('.endstructures');
  }
  if (chunk.trailing.length > 0) pushHexBlock(out, '.trailing', chunk.trailing, '.endtrailing');
  if (options.scri && options.scri.trailing.length > 0) pushHexBlock(out, '.scritrailing', options.scri.trailing, '.endscritrailing');
  return out.join('\n') + '\n';
}

function pushHexBlock(out: string[], open: string, bytes: Uint8Array, close: string): void {
  out.push('', `${open} ${bytes.length}`);
  const hex = '0123456789abcdef';
  for (let i = 0; i < bytes.length; i += 48) {
    let line = '  ';
    for (let j = i; j < Math.min(bytes.length, i + 48); j++) line += hex[bytes[j]! >> 4]! + hex[bytes[j]! & 15]!;
    out.push(line);
  }
  out.push(close);
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

/** Jump targets (pc) of a function's jumps, for labels. */
function jumpTargets(fn: HksFunction, table: HksOpcodeTable): Set<number> {
  const targets = new Set<number>();
  const code = fn.code;
  for (let pc = 0; pc < code.length; pc++) {
    const info = table.byOp[hksOp(code[pc]!)];
    if (info && info.b === 'J' && canonical(info, code[pc]!)) {
      const t = pc + 1 + hksSbx(code[pc]!);
      if (t >= 0 && t < code.length) targets.add(t);
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

function writeFunction(parentOut: string[], chunk: HksChunk, fn: HksFunction, path: string, parent: HksFunction | null, depth: number, table: HksOpcodeTable, structNames: Map<number, string>, bare: boolean, structSlots: Map<number, Map<number, HksSlot>>): void {
  // Lines are joined per function: short-lived pieces stay in the young generation (a whole-chunk join of
  // template-literal cons strings cost several times more in GC on desert-sized chunks).
  const out: string[] = [];
  const ind = '  '.repeat(depth);
  const h = chunk.header;
  const name = hksFunctionDisplayName(fn, path);
  const where = fn.debug ? ` lines ${fn.debug.lineDefined}..${fn.debug.lastLineDefined}` : '';
  out.push(`${ind}.function ${name}${bare ? '' : `  ; ${path}${where}, ${plural(fn.code.length, 'word')}, ${plural(fn.constants.length, 'constant')}, ${plural(fn.children.length, 'function')}`}`);
  const i2 = ind + '  ';
  out.push(`${i2}.params ${fn.paramCount}  .upvalues ${fn.upvalueCount}  .vararg ${fn.varargFlags}  .maxstack ${fn.maxStackSize}${fn.padByte !== HKS_DEFAULT_PAD_BYTE ? `  .padbyte 0x${fn.padByte.toString(16).padStart(2, '0')}` : ''}`);
  const constTexts = fn.constants.map((k) => formatHksConstant(k, h));
  constTexts.forEach((t, i) => out.push(bare ? `${i2}.const ${t}` : `${`${i2}.const ${t}`.padEnd(40)} ; K(${i})`));
  const d = fn.debug;
  const perWordLines = d !== null && d.lines.length === fn.code.length && d.lines.length > 0;
  if (d) {
    out.push(`${i2}.debug line=${d.lineDefined} last=${d.lastLineDefined} source=${quoteHksString(d.source)} name=${quoteHksString(d.name)}${!bare && d.source === null && parent ? '  ; source null = the parent\'s' : ''}`);
    d.locals.forEach((l) => out.push(`${i2}.local ${quoteHksString(l.name)} ${l.startPc} ${l.endPc}`));
    d.upvalueNames.forEach((u) => out.push(`${i2}.upvalname ${quoteHksString(u)}`));
    if (!perWordLines && d.lines.length > 0) out.push(`${i2}.lines ${d.lines.join(' ')}`);
  }
  out.push(`${i2}.code`);
  const code = fn.code;
  const targets = jumpTargets(fn, table);
  const pcWidth = Math.max(3, String(code.length).length);
  let owner: HksOpcodeInfo | undefined;
  let ownerWord = 0;
  let dataIndex = 0;
  let curPc = 0;
  const ops: string[] = [];
  const notes: string[] = [];
  const operand = (kind: HksOperandKind, v: number, rk9: boolean): void => {
    switch (kind) {
      case '-':
        return;
      case 'R':
        ops.push(`R(${v})`);
        return;
      case 'K':
        ops.push(`K(${v})`);
        notes.push(constNote(constTexts, v));
        return;
      case 'RK':
        if (rk9 && v >= 256) {
          ops.push(`K(${v - 256})`);
          notes.push(constNote(constTexts, v - 256));
        } else ops.push(`R(${v})`);
        return;
      case 'J': {
        const t = curPc + 1 + v;
        ops.push(t >= 0 && t < code.length ? `L${t}` : v >= 0 ? `+${v}` : String(v));
        return;
      }
      case 'P': {
        ops.push(`P(${v})`);
        const child = fn.children[v];
        if (child) notes.push(hksFunctionDisplayName(child, `${path}/${v}`));
        return;
      }
      default:
        ops.push(String(v));
    }
  };
  // Which structure each register holds (from NEWSTRUCT, CHECKTYPES, struct-typed GETSLOT, MOVE), so slot
  // positions can be named; forgotten at every label (control may arrive from elsewhere).
  const structIn: (number | undefined)[] = [];
  for (let pc = 0; pc < code.length; pc++) {
    const w = code[pc]!;
    if (targets.has(pc)) {
      out.push(`${i2}L${pc}:`);
      structIn.length = 0;
    }
    const lineText = perWordLines ? `[${d!.lines[pc]}] `.padEnd(7) : '';
    const prefix = `${i2}${String(pc).padStart(pcWidth)} ${lineText}`;
    const info = table.byOp[hksOp(w)];
    if (info?.isData) {
      const comment = bare ? '' : describeData(owner, ownerWord, dataIndex, w, fn, structNames);
      out.push(withComment(`${prefix}  .data ${hksA(w)} ${hksBx(w)}`, comment));
      dataIndex++;
      continue;
    }
    owner = info;
    ownerWord = w;
    dataIndex = 0;
    if (!info || !canonical(info, w)) {
      out.push(withComment(`${prefix}.word 0x${w.toString(16).padStart(8, '0')}`, info ? `${info.name} with nonzero unused fields` : `opcode ${hksOp(w)} is not in the ${table.dialect} table`));
      continue;
    }
    ops.length = 0;
    notes.length = 0;
    curPc = pc;
    operand(info.a, hksA(w), false);
    if (info.mode === 'ABC') {
      operand(info.b, hksB(w), false);
      operand(info.c, hksC(w), true);
    } else if (info.mode === 'ABx') operand(info.b, hksBx(w), false);
    else operand(info.b, hksSbx(w), false);
    if (!bare) {
      extraNotes(info, w, fn, notes, structNames);
      if (structSlots.size > 0) trackStructs(info, w, code[pc + 1], structIn, structNames, structSlots, notes);
    }
    const text = `${prefix}${info.name.padEnd(14)} ${ops.join(' ')}`;
    out.push(withComment(text, bare ? '' : notes.filter((n) => n).join('  ')));
  }
  fn.children.forEach((child, i) => {
    out.push('');
    writeFunction(out, chunk, child, `${path}/${i}`, fn, depth + 1, table, structNames, bare, structSlots);
  });
  out.push(`${ind}.end`);
  parentOut.push(out.join('\n'));
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

function withComment(text: string, comment: string): string {
  return comment ? `${text.padEnd(52)} ; ${comment}` : text;
}

function constNote(constTexts: readonly string[], index: number): string {
  const text = constTexts[index];
  if (text === undefined) return '<out of range>';
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
