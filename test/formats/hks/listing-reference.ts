/**
 * A second, deliberately plain rendering of a listing's functions: one template string per line, `padEnd` for
 * columns, notes collected in arrays. It is the readable statement of the listing format of `src/formats/hks/README.md`
 * (the same text the disassembler wrote before it became a byte writer); the tests hold the byte writer of
 * `disasm.ts` to it on every fixture and on random functions, so any change of one byte of the listing shows up.
 * The parts of a listing around the functions (header, types, structures, trailing bytes) are not rendered here.
 */
import { HKS_STANDARD_TYPES, type HksChunk, type HksFunction, type HksSlot } from '../../../src/formats/hks/chunk.ts';
import { formatHksConstant, quoteHksString } from '../../../src/formats/hks/literals.ts';
import { hksFunctionDisplayName } from '../../../src/formats/hks/disasm.ts';
import { hksA, hksB, hksBx, hksC, hksDataWordCount, hksOp, hksOpcodes, hksSbx, type HksDialect, type HksOpcodeInfo, type HksOperandKind } from '../../../src/formats/hks/opcodes.ts';

const TYPES = HKS_STANDARD_TYPES.map((t) => t.name);
const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The text from the main function's `.function` line to its `.end` line, newline-terminated. */
export function referenceFunctionsListing(chunk: HksChunk, options: { dialect?: HksDialect; bare?: boolean } = {}): string {
  const table = hksOpcodes(options.dialect);
  const bare = options.bare === true;
  const structNames = new Map<number, string>();
  const structSlots = new Map<number, Map<number, HksSlot>>();
  for (const s of chunk.structures?.structures ?? []) {
    structNames.set(s.id, s.name);
    structSlots.set(s.id, new Map(s.slots.map((slot) => [slot.position, slot])));
  }
  const out: string[] = [];
  const unusedFieldsZero = (info: HksOpcodeInfo, w: number): boolean =>
    !((info.a === '-' && hksA(w) !== 0) || (info.mode === 'ABC' && ((info.b === '-' && hksB(w) !== 0) || (info.c === '-' && hksC(w) !== 0))));
  const commented = (line: string, comment: string): string => (comment ? `${line.padEnd(52)} ; ${comment}` : line);

  const render = (fn: HksFunction, path: string, parent: HksFunction | null, depth: number): void => {
    const ind = '  '.repeat(depth);
    const i2 = ind + '  ';
    const d = fn.debug;
    const where = d ? ` lines ${d.lineDefined}..${d.lastLineDefined}` : '';
    out.push(`${ind}.function ${hksFunctionDisplayName(fn, path)}${bare ? '' : `  ; ${path}${where}, ${plural(fn.code.length, 'word')}, ${plural(fn.constants.length, 'constant')}, ${plural(fn.children.length, 'function')}`}`);
    out.push(`${i2}.params ${fn.paramCount}  .upvalues ${fn.upvalueCount}  .vararg ${fn.varargFlags}  .maxstack ${fn.maxStackSize}${fn.padByte !== 0x5f ? `  .padbyte 0x${fn.padByte.toString(16).padStart(2, '0')}` : ''}`);
    const texts = fn.constants.map((k) => formatHksConstant(k, chunk.header));
    texts.forEach((t, i) => out.push(bare ? `${i2}.const ${t}` : `${`${i2}.const ${t}`.padEnd(40)} ; K(${i})`));
    const perWordLines = d !== null && d.lines.length === fn.code.length && d.lines.length > 0;
    if (d) {
      out.push(`${i2}.debug line=${d.lineDefined} last=${d.lastLineDefined} source=${quoteHksString(d.source)} name=${quoteHksString(d.name)}${!bare && d.source === null && parent ? "  ; source null = the parent's" : ''}`);
      for (const l of d.locals) out.push(`${i2}.local ${quoteHksString(l.name)} ${l.startPc} ${l.endPc}`);
      for (const u of d.upvalueNames) out.push(`${i2}.upvalname ${quoteHksString(u)}`);
      if (!perWordLines && d.lines.length > 0) out.push(`${i2}.lines ${d.lines.join(' ')}`);
    }
    out.push(`${i2}.code`);
    const code = fn.code;
    const labels = new Set<number>();
    code.forEach((w, pc) => {
      const info = table.byOp[hksOp(w)];
      if (info?.b === 'J' && unusedFieldsZero(info, w) && pc + 1 + hksSbx(w) >= 0 && pc + 1 + hksSbx(w) < code.length) labels.add(pc + 1 + hksSbx(w));
    });
    const pcWidth = Math.max(3, String(code.length).length);
    const notesOfConstants = texts.map((t) => (t.length > 60 ? t.slice(0, 57) + '..."' : t));
    const children = fn.children.map((c, i) => hksFunctionDisplayName(c, `${path}/${i}`));
    let structIn: (number | undefined)[] = [];
    let owner: HksOpcodeInfo | undefined;
    let ownerWord = 0;
    let dataIndex = 0;
    code.forEach((w, pc) => {
      if (labels.has(pc)) {
        out.push(`${i2}L${pc}:`);
        structIn = [];
      }
      let line = `${i2}${String(pc).padStart(pcWidth)} ${perWordLines ? `[${d!.lines[pc]}] `.padEnd(7) : ''}`;
      const info = table.byOp[hksOp(w)];
      if (info?.isData) {
        out.push(commented(`${line}  .data ${hksA(w)} ${hksBx(w)}`, bare ? '' : dataNote(owner, ownerWord, dataIndex, w, fn, structNames)));
        dataIndex++;
        return;
      }
      owner = info;
      ownerWord = w;
      dataIndex = 0;
      if (!info || !unusedFieldsZero(info, w)) {
        out.push(commented(`${line}.word 0x${w.toString(16).padStart(8, '0')}`, info ? `${info.name} with nonzero unused fields` : `opcode ${hksOp(w)} is not in the ${table.dialect} table`));
        return;
      }
      const notes: string[] = [];
      const show = (kind: HksOperandKind, v: number, cField: boolean): string | null => {
        if (kind === '-') return null;
        if (kind === 'K' || (kind === 'RK' && cField && v >= 256)) {
          const k = kind === 'K' ? v : v - 256;
          notes.push(notesOfConstants[k] ?? '<out of range>');
          return `K(${k})`;
        }
        if (kind === 'R' || kind === 'RK') return `R(${v})`;
        if (kind === 'J') return pc + 1 + v >= 0 && pc + 1 + v < code.length ? `L${pc + 1 + v}` : v >= 0 ? `+${v}` : `${v}`;
        if (kind === 'P') {
          if (children[v] !== undefined) notes.push(children[v]);
          return `P(${v})`;
        }
        return `${v}`;
      };
      const shown = [show(info.a, hksA(w), false)];
      if (info.mode === 'ABC') shown.push(show(info.b, hksB(w), false), show(info.c, hksC(w), true));
      else shown.push(show(info.b, info.mode === 'ABx' ? hksBx(w) : hksSbx(w), false));
      line += info.name.padEnd(14) + ' ' + shown.filter((s) => s !== null).join(' ');
      if (bare) {
        out.push(line);
        return;
      }
      if (info.upvalueB) {
        const n = fn.debug?.upvalueNames[hksB(w)];
        if (n) notes.push(`upvalue ${n}`);
      } else if (info.check === 'type') notes.push(TYPES[hksBx(w)] ?? `type ${hksBx(w)}`);
      else if (info.check === 'struct') notes.push(`struct ${structNames.get(hksBx(w)) ?? hksBx(w)}`);
      else if (info.dataPayload === 'slotChain') notes.push(`chain ${(hksB(w) & 15) + 1}, type ${TYPES[hksB(w) >> 4] ?? hksB(w) >> 4}`);
      if (structSlots.size > 0) {
        const slotNote = followStructs(info, w, code[pc + 1], structIn, structNames, structSlots);
        if (slotNote !== null) notes.unshift(slotNote);
      }
      out.push(commented(line, notes.filter((n) => n).join('  ')));
    });
    fn.children.forEach((c, i) => {
      out.push('');
      render(c, `${path}/${i}`, fn, depth + 1);
    });
    out.push(`${ind}.end`);
  };
  render(chunk.main, 'main', null, 0);
  return out.join('\n') + '\n';
}

/** Register → structure tracking of the listing's slot notes (README "Structures"). */
function followStructs(info: HksOpcodeInfo, w: number, next: number | undefined, held: (number | undefined)[], names: Map<number, string>, slots: Map<number, Map<number, HksSlot>>): string | null {
  const fieldValue = { A: hksA(w), B: hksB(w), C: hksC(w) };
  let note: string | null = null;
  let loaded: number | undefined;
  if (info.slot) {
    const id = held[fieldValue[info.slot.instance]];
    const slot = id === undefined ? undefined : slots.get(id)?.get(fieldValue[info.slot.position]);
    if (slot?.name != null) note = `${names.get(id!)}.${slot.name}`;
    if (slot && info.setsA && slot.typeId === 12) loaded = slot.structId;
  }
  const a = fieldValue.A;
  if (info.setsA && info.dataPayload === 'structId') held[a] = next === undefined ? undefined : hksBx(next);
  else if (info.check === 'struct') held[a] = hksBx(w);
  else if (info.name === 'MOVE') held[a] = held[fieldValue.B];
  else if (info.writes === 'A..A+1') [held[a + 1], held[a]] = [held[fieldValue.B], undefined];
  else if (info.call) held.length = Math.min(held.length, a);
  else if (info.setsA) held[a] = loaded;
  return note;
}

function dataNote(owner: HksOpcodeInfo | undefined, ownerWord: number, index: number, w: number, fn: HksFunction, structNames: Map<number, string>): string {
  if (!owner) return 'orphan DATA word';
  const [a, bx] = [hksA(w), hksBx(w)];
  const p = owner.dataPayload;
  if (p === 'memo') return `memo pair K(${bx}), K(${bx + 1})`;
  if (p === 'cache') return 'inline cache';
  if (p === 'capture') return a === 1 ? `capture R(${bx})` : a === 2 ? `share upvalue ${bx}${fn.debug?.upvalueNames[bx] ? ` (${fn.debug.upvalueNames[bx]})` : ''}` : `capture kind ${a}?`;
  if (p === 'block') return `block ${bx}`;
  if (p === 'structId' || (p === 'slotChain' && index === 0 && hksB(ownerWord) >> 4 === 12)) return `struct ${structNames.get(bx) ?? bx}`;
  if (p === 'typeId') return `type ${TYPES[bx] ?? bx}`;
  if (p === 'slotChain' || p === 'chain') return `slot ${a} via ${bx}`;
  return hksDataWordCount(owner, ownerWord) === 0 ? `DATA after ${owner.name}` : '';
}
