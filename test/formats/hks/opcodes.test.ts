import { describe, expect, it } from 'vitest';
import { assembleHks, hksDataWordCount, disassembleHks, hksOpcodes, hksOperandKinds, hksRegisterSpan, writeHksChunk, parseHksChunk, type HksOpcodeInfo } from '../../../src/index.ts';

const table = hksOpcodes();

/** A listing operand and the field value it must encode to, per operand kind. */
function sampleOperand(kind: string, field: string, index: number): { text: string; value: number } {
  const v = 3 + index; // distinct per position
  switch (kind) {
    case 'R':
      return { text: `R(${v})`, value: v };
    case 'K':
      return { text: `K(${v})`, value: v };
    case 'RK':
      return { text: `K(${v})`, value: v + 256 };
    case 'F':
      return { text: '1', value: 1 };
    case 'J':
      return { text: 'L0', value: -(1 + 1) }; // from pc 1 back to pc 0
    case 'P':
      return { text: 'P(0)', value: 0 };
    default:
      return { text: String(field === 'bx' ? 70000 : v), value: field === 'bx' ? 70000 : v };
  }
}

function fieldValue(w: number, field: string): number {
  switch (field) {
    case 'a':
      return w & 0xff;
    case 'b':
      return (w >>> 17) & 0xff;
    case 'c':
      return (w >>> 8) & 0x1ff;
    case 'bx':
      return (w >>> 8) & 0x1ffff;
    default:
      return ((w >>> 8) & 0x1ffff) - 0xffff;
  }
}

// Known numbers from the spec's table and the fan document (INTRINSIC_* 31-36, NEWSTRUCT 75, DATA 76, SETSLOTI 78,
// GETGLOBAL_MEM 91) and the operand modes hksc's listings print.
const SPOT_CHECKS: [number, string, string][] = [
  [0, 'GETFIELD', 'ABC'], [4, 'EQ', 'ABC'], [9, 'RETURN', 'ABC'], [25, 'LOADK', 'ABx'], [28, 'JMP', 'AsBx'], [31, 'INTRINSIC_INDEX', 'ABC'],
  [36, 'INTRINSIC_SELF_LITERAL', 'ABC'], [62, 'FORPREP', 'AsBx'], [63, 'FORLOOP', 'AsBx'], [66, 'CLOSURE', 'ABx'], [75, 'NEWSTRUCT', 'ABC'],
  [76, 'DATA', 'ABx'], [78, 'SETSLOTI', 'ABC'], [83, 'CHECKTYPES', 'ABx'], [91, 'GETGLOBAL_MEM', 'ABx'],
];

describe('opcode table', () => {
  it('has 92 opcodes in the default numbering, names unique, spot checks from the spec', () => {
    expect(table.byOp.length).toBe(92);
    expect(new Set(table.byOp.map((o) => o.name)).size).toBe(92);
    for (const [op, name, mode] of SPOT_CHECKS) expect([table.byOp[op]!.name, table.byOp[op]!.mode]).toEqual([name, mode]);
    expect(table.dataOp).toBe(76);
  });

  it('derives the other numberings as data: T7 inserts 8 bitwise opcodes at 60, IW6 appends DELETE', () => {
    const t7 = hksOpcodes('t7');
    expect(t7.byOp.length).toBe(100);
    expect(t7.byOp[60]!.name).toBe('SHIFT_LEFT');
    expect(t7.byName.get('CONCAT')!.op).toBe(68);
    expect(t7.byName.get('GETGLOBAL_MEM')!.op).toBe(99);
    expect(t7.dataOp).toBe(84);
    const iw6 = hksOpcodes('iw6');
    expect([iw6.byOp[92]!.name, iw6.byOp[93]!.name]).toEqual(['DELETE', 'DELETE_BK']);
  });

  it('computes DATA words from operands: CLOSURE upvalues, SETLIST C=0, SETSLOTMT chains, C+1 chains', () => {
    const w = (op: number, a: number, b: number, c: number): number => ((op << 25) | (b << 17) | (c << 8) | a) >>> 0;
    expect(hksDataWordCount(table.byName.get('CLOSURE')!, 0, 3)).toBe(3);
    expect(hksDataWordCount(table.byName.get('SETLIST')!, w(64, 0, 5, 0))).toBe(1);
    expect(hksDataWordCount(table.byName.get('SETLIST')!, w(64, 0, 5, 2))).toBe(0);
    expect(hksDataWordCount(table.byName.get('SETSLOTMT')!, w(81, 0, 0x11, 2))).toBe(2); // boolean, n = 1
    expect(hksDataWordCount(table.byName.get('SETSLOTMT')!, w(81, 0, 0xc2, 2))).toBe(4); // struct: id word + 3 chain words
    expect(hksDataWordCount(table.byName.get('GETSLOTMT')!, w(85, 0, 0, 1))).toBe(2);
    expect(hksDataWordCount(table.byName.get('GETFIELD')!, 0)).toBe(2);
    expect(hksDataWordCount(table.byName.get('GETGLOBAL_MEM')!, 0)).toBe(1);
  });
});

describe('opcode table columns (golden values from hksc src/lopcodes.def and the spec §9–10)', () => {
  const names = (pred: (o: HksOpcodeInfo) => boolean): string[] => table.byOp.filter(pred).map((o) => o.name);

  it('B names a constant through the opcode low bit exactly for the RK-B opcode pairs', () => {
    expect(names((o) => o.constantB)).toEqual([
      'EQ', 'EQ_BK', 'SETTABLE_S', 'SETTABLE_S_BK', 'SETTABLE_N', 'SETTABLE_N_BK', 'SETTABLE', 'SETTABLE_BK',
      'ADD', 'ADD_BK', 'SUB', 'SUB_BK', 'MUL', 'MUL_BK', 'DIV', 'DIV_BK', 'MOD', 'MOD_BK', 'POW', 'POW_BK', 'LT', 'LT_BK', 'LE', 'LE_BK',
    ]);
    for (const o of table.byOp.filter((x) => x.constantB && x.op % 2 === 0)) expect(table.byOp[o.op | 1]!.name).toBe(`${o.name}_BK`);
  });

  it('lists the seven _R1 forms with the operand the previous instruction supplies', () => {
    const pairs = table.byOp.filter((o) => o.r1Form !== null).map((o) => [o.name, table.byOp[o.r1Form!]!.name, table.byOp[o.r1Form!]!.r1Operand]);
    expect(pairs).toEqual([
      ['GETFIELD', 'GETFIELD_R1', 'B'], ['TEST', 'TEST_R1', 'A'], ['CALL_I', 'CALL_I_R1', 'A'], ['SETFIELD', 'SETFIELD_R1', 'A'],
      ['TAILCALL_I', 'TAILCALL_I_R1', 'A'], ['SETUPVAL', 'SETUPVAL_R1', 'A'], ['NOT', 'NOT_R1', 'B'],
    ]);
    for (const o of table.byOp.filter((x) => x.r1Of !== null)) expect(table.byOp[o.r1Of!]!.r1Form).toBe(o.op);
  });

  it('says which instructions write R(A): loads and arithmetic do, stores, tests, jumps and checks do not', () => {
    for (const n of ['MOVE', 'LOADK', 'GETFIELD', 'GETGLOBAL_MEM', 'ADD_BK', 'NOT_R1', 'CLOSURE', 'NEWSTRUCT', 'GETSLOT', 'SELF', 'CALL_I', 'VARARG', 'LOADNIL']) expect([n, table.byName.get(n)!.setsA]).toEqual([n, true]);
    for (const n of ['SETFIELD', 'SETTABLE_S', 'SETGLOBAL', 'SETUPVAL', 'SETSLOTI', 'SETLIST', 'TEST', 'EQ', 'JMP', 'RETURN', 'TAILCALL_I', 'CLOSE', 'CHECKTYPES', 'TFORLOOP', 'DATA']) expect([n, table.byName.get(n)!.setsA]).toEqual([n, false]);
    expect(names((o) => o.call === 'call')).toEqual(['CALL_I', 'CALL_C', 'CALL_M', 'CALL', 'CALL_I_R1']);
    expect(names((o) => o.call === 'tailcall')).toEqual(['TAILCALL_I', 'TAILCALL_C', 'TAILCALL_M', 'TAILCALL', 'TAILCALL_I_R1']);
  });

  it('names what DATA words hold and the register spans of multi-register instructions', () => {
    expect(names((o) => o.dataPayload === 'cache')).toEqual(['GETFIELD', 'GETTABLE_S', 'GETTABLE', 'GETFIELD_R1']);
    expect(names((o) => o.dataPayload === 'structId')).toEqual(['NEWSTRUCT', 'SETSLOTS']);
    expect(table.byName.get('GETGLOBAL_MEM')!.dataPayload).toBe('memo');
    const w = (op: string, a: number, b: number, c: number): number => ((table.byName.get(op)!.op << 25) | (b << 17) | (c << 8) | a) >>> 0;
    expect(hksRegisterSpan(table.byName.get('CALL_I')!, w('CALL_I', 3, 3, 2))).toEqual([3, 5]);
    expect(hksRegisterSpan(table.byName.get('RETURN')!, w('RETURN', 0, 1, 0))).toBeNull();
    expect(hksRegisterSpan(table.byName.get('TFORLOOP')!, w('TFORLOOP', 4, 0, 2))).toEqual([4, 8]);
    expect(hksRegisterSpan(table.byName.get('CONCAT')!, w('CONCAT', 0, 1, 3))).toEqual([1, 3]);
    expect(hksRegisterSpan(table.byName.get('MOVE')!, w('MOVE', 0, 1, 0))).toBeNull();
  });
});

describe('one case per opcode: assemble, check fields, disassemble back', () => {
  const cases = table.byOp.filter((o) => !o.isData);
  it.each(cases.map((o) => [o.op, o.name, o] as [number, string, HksOpcodeInfo]))('%i %s', (_op, name, info) => {
    const kinds = hksOperandKinds(info);
    const ops = kinds.map((k, i) => ({ ...k, ...sampleOperand(k.kind, k.field, i) }));
    const child = info.b === 'P' ? '\n  .function child\n    .params 0 .upvalues 0 .vararg 0 .maxstack 2\n    .code\n      RETURN R(0) 1\n  .end' : '';
    const consts = Array.from({ length: 8 }, (_, i) => `  .const "k${i}"`).join('\n');
    const text = `.function main\n  .params 0 .upvalues 0 .vararg 2 .maxstack 250\n${consts}\n  .code\nL0:\n  RETURN R(0) 1\n  ${name} ${ops.map((o) => o.text).join(' ')}${child}\n.end\n`;
    const { chunk } = assembleHks(text);
    const word = chunk.main.code[1]!;
    expect(word >>> 25).toBe(info.op);
    for (const o of ops) expect(fieldValue(word, o.field), `${name} ${o.field}`).toBe(o.value);
    // unused fields are zero
    if (info.mode === 'ABC' && info.b === '-') expect(fieldValue(word, 'b')).toBe(0);
    if (info.mode === 'ABC' && info.c === '-') expect(fieldValue(word, 'c')).toBe(0);
    if (info.a === '-') expect(fieldValue(word, 'a')).toBe(0);
    // the disassembly shows the same operands and reassembles to the same bytes
    const listing = disassembleHks(chunk);
    const line = listing.split('\n').find((l) => new RegExp(`^\\s+1 ${name}\\s`).test(l))!;
    expect(line, listing).toBeDefined();
    for (const o of ops) expect(line).toContain(o.text);
    const bytes = writeHksChunk(chunk);
    expect(writeHksChunk(assembleHks(listing).chunk)).toEqual(bytes);
    expect(parseHksChunk(bytes).main.code[1]).toBe(word);
  });
});

describe('shared semantics column', () => {
  it('maps every opcode to a base that is its own base, following the generic interpreters\' handler groups', () => {
    for (const info of table.byOp) {
      const base = table.byName.get(info.sharesSemanticsOf);
      expect(base, info.name).toBeDefined();
      expect(base!.sharesSemanticsOf, info.name).toBe(base!.name);
    }
    const group = (name: string): string[] => table.byOp.filter((o) => o.sharesSemanticsOf === name).map((o) => o.name).sort();
    // seed 002: one handler serves the five call kinds, the five tail calls, the three GETTABLE and six SETTABLE forms
    expect(group('CALL_I')).toEqual(['CALL', 'CALL_C', 'CALL_I', 'CALL_I_R1', 'CALL_M']);
    expect(group('TAILCALL_I')).toEqual(['TAILCALL', 'TAILCALL_C', 'TAILCALL_I', 'TAILCALL_I_R1', 'TAILCALL_M']);
    expect(group('GETTABLE_S')).toEqual(['GETTABLE', 'GETTABLE_N', 'GETTABLE_S']);
    expect(group('SETTABLE_S')).toHaveLength(6);
    // INTRINSIC_* (31-36) and DATA (76) go straight back to the fetch in every loop
    expect(group('DATA').map((n) => table.byName.get(n)!.op).sort((a, b) => a - b)).toEqual([31, 32, 33, 34, 35, 36, 76]);
    // each _BK twin runs as its plain form
    for (const info of table.byOp) if (info.name.endsWith('_BK')) expect(table.byName.get(info.name.slice(0, -3))!.sharesSemanticsOf).toBe(info.sharesSemanticsOf);
  });
});
