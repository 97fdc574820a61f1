import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  AsmError,
  assembleHks,
  assembleHksFile,
  disassembleHks,
  disassembleHksBytes,
  disassembleHksFile,
  hksOpcodes,
  listHksFunctions,
  openHksFile,
  parseHksChunk,
  writeHksChunk,
  hksOperandKinds,
  type HksConstant,
  type HksFunction,
} from '../../../src/index.ts';
import { fixturePath, loadFixture } from '../../support/fixtures.ts';
import { bytecodeFixtures, expectSameBytes, scriFixtures } from './helpers.ts';

describe('listing round trip: asm(disasm(x)) == x', () => {
  it.each([...bytecodeFixtures(), ...scriFixtures().filter(([n]) => !n.includes('source'))])('%s', (name, bytes) => {
    const text = disassembleHksFile(openHksFile(bytes));
    expectSameBytes(assembleHksFile(text, { source: name }).bytes, bytes, 'asm(disasm(x))');
  });

  it('the byte API is the listing\'s Latin-1 bytes, and assembling those bytes gives the same chunk as the text', () => {
    for (const [name, bytes] of bytecodeFixtures().filter(([n]) => n.includes('debug')).slice(0, 6)) {
      const chunk = openHksFile(bytes);
      if (chunk.kind !== 'chunk') continue;
      const text = disassembleHks(chunk.chunk);
      const listing = disassembleHksBytes(chunk.chunk);
      expect(listing.length, name).toBe(text.length);
      expect(Array.from(listing.subarray(0, 4096)), name).toEqual(Array.from(text.slice(0, 4096), (c) => c.charCodeAt(0)));
      expectSameBytes(writeHksChunk(assembleHks(listing, { source: name }).chunk), bytes, `asm(disasmBytes(x)) ${name}`);
    }
  });

  it('a listing with CRLF line ends, tabs and a character beyond Latin-1 in a comment assembles like the plain one', () => {
    const plain = '.function main\n  .const "a"\n  .code\nL0:\n    0 LOADK R(0) K(0)\n    JMP L0\n    RETURN R(0) 1\n.end\n';
    const odd = plain.replace(/\n/g, ' ; \u4e2d\r\n').replace(/ R\(0\) /g, '\tR(0)\t');
    expect(writeHksChunk(assembleHks(odd).chunk)).toEqual(writeHksChunk(assembleHks(plain).chunk));
  });

  it('also round-trips bare listings (no comments)', () => {
    for (const [name, bytes] of bytecodeFixtures().filter(([n]) => n.includes('debug') || n.startsWith('real/'))) {
      const text = disassembleHksFile(openHksFile(bytes), { bare: true });
      expect(text).not.toMatch(/; K\(/);
      expectSameBytes(assembleHksFile(text, { source: name }).bytes, bytes, `bare ${name}`);
    }
  });

  it('is lossless under every dialect table (a listing records its dialect; words outside the table become .word)', () => {
    for (const dialect of ['t7', 'iw6'] as const) {
      for (const name of ['closures.debug.luac', 'structs3.debug.luac', 'tables.stripped.luac']) {
        const bytes = loadFixture('hks', 'generated', name);
        const text = disassembleHks(parseHksChunk(bytes), { dialect });
        expect(text).toMatch(new RegExp(`^\\.dialect ${dialect}$`, 'm'));
        expectSameBytes(writeHksChunk(assembleHks(text).chunk), bytes, `${dialect} ${name}`);
      }
    }
    // read with T7 numbering, opcode 60 (default CONCAT) is SHIFT_LEFT
    const t7 = disassembleHks(parseHksChunk(loadFixture('hks', 'generated', 'constants.debug.luac')), { dialect: 't7' });
    expect(t7).toMatch(/SHIFT_LEFT\s/);
  });

  it('keeps the SCRI wrapper in the listing', () => {
    const text = disassembleHksFile(openHksFile(loadFixture('hks', 'generated', 'scri', 'structs.debug.scri')));
    expect(text).toMatch(/^\.scri version=1 flag=0$/m);
  });
});

// ---- golden comparison with hksc's own listings (*.debug.lst) -------------------------------------------------

interface LstFunction {
  header: string;
  counts: string;
  code: { pc: number; line: number; name: string; operands: number[]; comment: string }[];
  constants: string[];
  locals: { name: string; start: number; end: number }[];
  upvalues: string[];
}

function parseLst(text: string): LstFunction[] {
  const out: LstFunction[] = [];
  let section: 'code' | 'constants' | 'locals' | 'upvalues' = 'code';
  for (const line of text.split('\n')) {
    if (/^(main|function) </.test(line)) {
      out.push({ header: line, counts: '', code: [], constants: [], locals: [], upvalues: [] });
      section = 'code';
      continue;
    }
    const f = out[out.length - 1];
    if (!f || line === '') continue;
    if (/^\d+\+? params?/.test(line)) {
      f.counts = line;
      continue;
    }
    const sec = /^(constants|locals|upvalues) \(/.exec(line);
    if (sec) {
      section = sec[1] as typeof section;
      continue;
    }
    if (section === 'code') {
      const m = /^\t(\d+)\t\[(-?\d+)\]\t(\S+)\s*\t([^;]*)(?:;\s*(.*))?/.exec(line)!;
      out[out.length - 1]!.code.push({ pc: Number(m[1]) - 1, line: Number(m[2]), name: m[3]!, operands: m[4]!.trim().split(/\s+/).filter(Boolean).map(Number), comment: m[5] ?? '' });
    } else if (section === 'constants') f.constants.push(line.split('\t')[2]!);
    else if (section === 'locals') {
      const [, , name, start, end] = line.split('\t');
      f.locals.push({ name: name!, start: Number(start) - 1, end: Number(end) - 1 });
    } else f.upvalues.push(line.split('\t')[2]!);
  }
  return out;
}

/** hksc prints constants as -1-index in RK and ABx positions and in the B of _BK opcodes; plain K fields raw. */
function hkscOperands(fn: HksFunction, w: number): number[] {
  const info = hksOpcodes().byOp[w >>> 25]!;
  const A = w & 0xff;
  const B = (w >>> 17) & 0xff;
  const C = (w >>> 8) & 0x1ff;
  const Bx = (w >>> 8) & 0x1ffff;
  void fn;
  return hksOperandKinds(info).map(({ kind, field }) => {
    if (field === 'a') return A;
    if (field === 'sbx') return Bx - 0xffff;
    if (field === 'bx') return kind === 'K' ? -1 - Bx : Bx;
    if (field === 'b') return kind === 'K' && info.name.endsWith('_BK') ? -1 - B : B;
    return kind === 'RK' && C >= 256 ? -1 - (C - 256) : C;
  });
}

/** The bytes a string of hksc's listing stands for: luac's PrintString escapes (`\"`, `\\`, `\a`…`\v`, `\ddd` decimal). */
function unescapeListingString(text: string): string {
  const named: Record<string, string> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '"': '"', '\\': '\\' };
  return text.slice(1, -1).replace(/\\(\d{1,3}|.)/gs, (_, e: string) => {
    if (/^\d/.test(e)) return String.fromCharCode(Number(e));
    const c = named[e];
    if (c === undefined) throw new Error(`unknown escape \\${e} in ${text}`);
    return c;
  });
}

function constantMatches(k: HksConstant, text: string): boolean {
  switch (k.type) {
    case 'nil':
      return text === 'nil';
    case 'boolean':
      return text === (k.value ? 'true' : 'false');
    case 'number':
      return Math.fround(Number(text)) === k.value;
    case 'string':
      return text.startsWith('"') && text.endsWith('"') && unescapeListingString(text) === k.value;
    default:
      return false;
  }
}

const lstFiles = readdirSync(fixturePath('hks', 'generated')).filter((f) => f.endsWith('.debug.lst')).sort();

describe('agreement with the hksc reference listings', () => {
  it.each(lstFiles)('%s: opcode names, operands, lines, constants, locals and upvalue names', (lst) => {
    const golden = parseLst(readFileSync(fixturePath('hks', 'generated', lst), 'utf8'));
    const chunk = parseHksChunk(loadFixture('hks', 'generated', lst.replace('.lst', '.luac')));
    const fns = listHksFunctions(chunk);
    expect(fns.length).toBe(golden.length);
    const table = hksOpcodes();
    // hksc renumbers structure ids when it loads a chunk, so ids are compared through the structure names
    // its listing prints in comments (NEWSTRUCT / SETSLOTS DATA words, CHECKTYPES Bx).
    const structName = new Map((chunk.structures?.structures ?? []).map((s) => [s.id, s.name]));
    const lastWord = (comment: string): string => comment.trim().split(/\s+/).pop() ?? '';
    fns.forEach(({ fn }, i) => {
      const g = golden[i]!;
      expect(g.header).toContain(`${fn.debug!.name ?? '(anonymous)'}:${fn.debug!.lineDefined},${fn.debug!.lastLineDefined}>`);
      expect(g.counts).toMatch(new RegExp(`^${fn.paramCount}\\+? params?, ${fn.maxStackSize} slots?, ${fn.upvalueCount} upvalues?, ${fn.debug!.locals.length} locals?, ${fn.constants.length} constants?, ${fn.children.length} functions?`));
      expect(g.code.length).toBe(fn.code.length);
      g.code.forEach((ins) => {
        const w = fn.code[ins.pc]!;
        const where = `${lst} fn ${i} pc ${ins.pc}`;
        expect(table.byOp[w >>> 25]!.name, where).toBe(ins.name);
        expect(fn.debug!.lines[ins.pc], where).toBe(ins.line);
        const owner = g.code[ins.pc - 1];
        if (ins.name === 'DATA' && owner && (owner.name === 'NEWSTRUCT' || owner.name === 'SETSLOTS')) {
          expect(w & 0xff, where).toBe(ins.operands[0]);
          expect(structName.get((w >>> 8) & 0x1ffff), where).toBe(lastWord(owner.comment));
          return;
        }
        if (ins.name === 'CHECKTYPES') {
          expect(w & 0xff, where).toBe(ins.operands[0]);
          expect(structName.get((w >>> 8) & 0x1ffff), where).toBe(lastWord(ins.comment));
          return;
        }
        const ours = ins.name === 'DATA' ? [w & 0xff, (w >>> 8) & 0x1ffff] : hkscOperands(fn, w);
        expect(ours, where).toEqual(ins.operands);
      });
      expect(g.constants.length).toBe(fn.constants.length);
      g.constants.forEach((text, k) => expect(constantMatches(fn.constants[k]!, text), `${lst} fn ${i} K(${k}) ${text}`).toBe(true));
      if (lst === 'constants.debug.lst' && i === 0) {
        // the escape cases are compared like every other constant (hand-written expectations of the source's strings)
        const strings = fn.constants.flatMap((c) => (c.type === 'string' && c.value !== null ? [c.value] : []));
        expect(strings).toEqual(expect.arrayContaining(['single "quoted"', 'escapes\n\t\\\0end', 'long\nstring']));
      }
      expect(g.locals).toEqual(fn.debug!.locals.map((l) => ({ name: l.name, start: l.startPc, end: l.endPc })));
      expect(g.upvalues).toEqual(fn.debug!.upvalueNames);
    });
  });

  it('our listing shows the same opcode sequence as hksc for closures.lua, with names, labels and RK operands', () => {
    const text = disassembleHks(parseHksChunk(loadFixture('hks', 'generated', 'closures.debug.luac')));
    expect(text).toMatch(/^\s+\.function make_adder\b/m);
    expect(text).toMatch(/^\s+\.function fact\b/m);
    expect(text).toMatch(/LE\s+0 R\(0\) K\(0\)\s+; 1/);
    expect(text).toMatch(/JMP\s+L4\b/);
    expect(text).toMatch(/^\s+L4:$/m);
    expect(text).toMatch(/GETGLOBAL_MEM\s+R\(3\) K\(1\)\s+; "make_counter"\n\s+\d+ \[24\]\s+\.data 20 3\s+; memo pair K\(3\), K\(4\)/);
    expect(text).toMatch(/CLOSURE\s+R\(1\) P\(0\)\s+; make_adder\n\s+\d+ \[9\]\s+\.data 1 0\s+; capture R\(0\)/);
    expect(text).toMatch(/\.upvalname "counter"/);
    expect(text).toMatch(/\.debug line=4 last=9 source=null name="make_adder"/);
  });

  it('names structure slots where the register\'s structure is known (NEWSTRUCT, CHECKTYPES, struct-typed slots)', () => {
    const text = disassembleHks(parseHksChunk(loadFixture('hks', 'generated', 'structs.debug.luac')));
    expect(text).toMatch(/SETSLOTI\s+R\(1\) 5 K\(7\)\s+; Unit\.level  3/);
    expect(text).toMatch(/GETSLOT\s+R\(2\) R\(1\) 5\s+; Unit\.level/);
    const text3 = disassembleHks(parseHksChunk(loadFixture('hks', 'generated', 'structs3.debug.luac')));
    expect(text3).toMatch(/SETSLOTS\s+R\(0\) 5 R\(2\)\s+; Plain\.next/);
    expect(text3).toMatch(/SELFSLOT\s+R\(4\) R\(0\) 9\s+; Thing\.speak2/);
  });
});

// ---- hand-edited listings ---------------------------------------------------------------------------------

describe('assembler', () => {
  const HAND = `
; a hand-written program: no header (Shadow of War defaults), symbolic constants, labels
.function main
  .params 0 .upvalues 0 .vararg 2 .maxstack 3
  .code
        GETGLOBAL_MEM R(0) K("print")
        .data 20 1
        LOADK R(1) K(0)
        LT 0 R(1) K(10.0)
        JMP done
        LOADK R(1) K("small")
  done:
        CALL_I R(0) 2 1
        RETURN R(0) 1
.end
`;

  it('builds a chunk from a hand-written listing: defaults, symbolic constants appended, labels resolved', () => {
    const { chunk } = assembleHks(HAND);
    expect(chunk.header.littleEndian).toBe(true);
    expect(chunk.types.length).toBe(13);
    expect(chunk.structures).toEqual({ layout: 'hksc', marker: 1, structures: [] });
    expect(chunk.main.constants).toEqual([{ type: 'string', value: 'print' }, { type: 'number', value: 10 }, { type: 'string', value: 'small' }]);
    const ops = [...chunk.main.code].map((w) => hksOpcodes().byOp[w >>> 25]!.name);
    expect(ops).toEqual(['GETGLOBAL_MEM', 'DATA', 'LOADK', 'LT', 'JMP', 'LOADK', 'CALL_I', 'RETURN']);
    const jmp = chunk.main.code[4]!;
    expect(((jmp >>> 8) & 0x1ffff) - 0xffff).toBe(1); // to pc 6
    const lt = chunk.main.code[3]!;
    expect((lt >>> 8) & 0x1ff).toBe(256 + 1); // K(1) = 10 as RK
    // and the result reads back, verifies and disassembles
    const bytes = writeHksChunk(chunk);
    expect(parseHksChunk(bytes)).toEqual(chunk);
  });

  it('fixes up jumps when instructions are inserted into a disassembled listing', () => {
    const bytes = loadFixture('hks', 'generated', 'closures.stripped.luac');
    const text = disassembleHks(parseHksChunk(bytes));
    // insert a MOVE before the LE of fact (the first instruction of that function), shifting every jump after it
    const edited = text.replace(/(\n(\s+)0 LE )/, '\n$2MOVE R(1) R(0)$1');
    expect(edited).not.toBe(text);
    const chunk = assembleHks(edited).chunk;
    const fact = listHksFunctions(chunk).find((f) => f.fn.code.length === 12)!.fn;
    const names = [...fact.code].map((w) => hksOpcodes().byOp[w >>> 25]!.name);
    expect(names.slice(0, 3)).toEqual(['MOVE', 'LE', 'JMP']);
    const jmp = fact.code[2]!;
    const target = 3 + ((jmp >>> 8) & 0x1ffff) - 0xffff;
    expect(names[target]).toBe('GETGLOBAL_MEM'); // still the else branch
  });

  it('reports errors with line and column', () => {
    const cases: [string, number, number, RegExp][] = [
      ['.function main\n.code\n  FROB R(0)\n.end', 3, 3, /unknown opcode FROB/],
      ['.function main\n.code\n  MOVE R(0)\n.end', 3, 3, /MOVE takes 2 operand/],
      ['.function main\n.code\n  JMP nowhere\n.end', 3, 7, /unknown label nowhere/],
      ['.function main\n.code\n  LOADK R(0) K("x\n.end', 3, 14, /unterminated string/],
      ['.function main\n.code\n  MOVE R(0) K(1)\n.end', 3, 13, /not a constant/],
      ['.function main\n.code\n  ADD R(0) R(1) K(300)\n.end', 3, 17, /cannot be an RK operand/],
      ['.function main\n.code\n  MOVE R(0) R(256)\n.end', 3, 15, /out of range/],
      ['.header endian=middle\n', 1, 16, /endian must be little or big/],
      ['.function main\n.code\n', 3, 1, /missing \.end/],
    ];
    for (const [text, line, column, message] of cases) {
      try {
        assembleHks(text, { source: 'x.hksasm' });
        expect.fail(`no error for ${JSON.stringify(text)}`);
      } catch (e) {
        expect(e, text).toBeInstanceOf(AsmError);
        expect((e as AsmError).message, text).toMatch(message);
        expect([(e as AsmError).line, (e as AsmError).column], text).toEqual([line, column]);
        expect((e as AsmError).message).toMatch(/^x\.hksasm:\d+:\d+: /);
      }
    }
  });

  it('writes words whose unused fields are not zero as .word, and unknown opcodes too', () => {
    const chunk = parseHksChunk(loadFixture('hks', 'generated', 'hello.stripped.luac'));
    chunk.main.code[4] = (chunk.main.code[4]! | 0x100) >>> 0; // RETURN with C = 1 (unused)
    chunk.main.code = Uint32Array.of(...chunk.main.code, (120 << 25) >>> 0);
    const text = disassembleHks(chunk);
    expect(text).toMatch(/\.word 0x12020100\s+; RETURN with nonzero unused fields/);
    expect(text).toMatch(/\.word 0xf0000000\s+; opcode 120 is not in the default table/);
    expectSameBytes(writeHksChunk(assembleHks(text).chunk), writeHksChunk(chunk), 'asm(disasm(edited))');
  });
});
