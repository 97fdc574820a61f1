import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ToolkitError,
  analyzeHksChunk,
  assembleHks,
  countHksFindings,
  disassembleHks,
  listHksFunctions,
  parseHksChunk,
  verifyHksChunk,
  writeHksChunk,
  xrefHks,
  type HksChunk,
  type HksFunction,
} from '../../../src/index.ts';
import { loadFixture, propertySeed } from '../../support/fixtures.ts';
import { bytecodeFixtures } from './helpers.ts';

const swapAB = (w: number): number => ((w & ~0x1fe00ff) | ((w & 0xff) << 17) | ((w >>> 17) & 0xff)) >>> 0;
function mapCode(f: HksFunction, g: (w: number) => number): void {
  f.code = f.code.map(g);
  f.children.forEach((c) => mapCode(c, g));
}
const blocking = (c: HksChunk): number => {
  const n = countHksFindings(verifyHksChunk(c));
  return n.error + n.warning;
};

describe('verifier', () => {
  it.each(bytecodeFixtures())('%s: clean (0 errors, 0 warnings)', (_name, bytes) => {
    const issues = verifyHksChunk(parseHksChunk(bytes)).filter((i) => i.severity !== 'info');
    expect(issues).toEqual([]);
  });

  it("the seed's control: the same code read with A and B swapped yields many findings", () => {
    let total = 0;
    for (const [name, bytes] of bytecodeFixtures()) {
      const c = parseHksChunk(bytes);
      mapCode(c.main, swapAB);
      const n = blocking(c);
      expect(n, name).toBeGreaterThan(0);
      total += n;
    }
    expect(total).toBeGreaterThan(5000);
  });

  it('flags a jump into a DATA word, an orphan DATA word, a missing closure capture and out-of-range operands', () => {
    const base = parseHksChunk(loadFixture('hks', 'generated', 'closures.stripped.luac'));
    const rules = (edit: (c: HksChunk) => void): string[] => {
      const c = structuredClone(base);
      edit(c);
      return verifyHksChunk(c).filter((i) => i.severity !== 'info').map((i) => i.rule);
    };
    // main pc 1 CLOSURE + DATA at pc 2: point a JMP at the DATA word
    expect(rules((c) => (c.main.code[0] = ((28 << 25) | ((0xffff + 1) << 8)) >>> 0))).toContain('hks.jump.data');
    expect(rules((c) => (c.main.code[0] = ((28 << 25) | ((0xffff + 500) << 8)) >>> 0))).toContain('hks.jump.range');
    expect(rules((c) => (c.main.code[0] = ((76 << 25) | 1) >>> 0))).toContain('hks.data.orphan'); // DATA at pc 0 has no owner
    expect(rules((c) => (c.main.code[1] = ((76 << 25) | 1) >>> 0))).toContain('hks.data.count'); // LOADK now "owns" 2 DATA words
    expect(rules((c) => (c.main.code[2] = ((7 << 25) | (1 << 17) | 2) >>> 0))).toContain('hks.data.count'); // CLOSURE loses its capture word
    expect(rules((c) => (c.main.code[0] = ((25 << 25) | (99 << 8)) >>> 0))).toContain('hks.operand.constant'); // LOADK K(99)
    expect(rules((c) => (c.main.code[0] = ((25 << 25) | 200) >>> 0))).toContain('hks.operand.register'); // LOADK R(200)
    expect(rules((c) => (c.main.maxStackSize = 1))).toContain('hks.operand.register');
    // main pc 7 is CALL_I R(2) after a LOADK: as CALL_I_R1 it would take a value no instruction provided
    expect(rules((c) => (c.main.code[7] = ((c.main.code[7]! & 0x1ffffff) | (69 << 25)) >>> 0))).toContain('hks.r1.previous');
    // main pc 10 is CALL_I_R1 R(3) after GETGLOBAL_MEM R(3): pointing it at R(4) breaks the register match
    expect(rules((c) => (c.main.code[10] = ((c.main.code[10]! & ~0xff) | 4) >>> 0))).toContain('hks.r1.register');
  });

  it('names the hypothesis when a finding rests on one', () => {
    // GETFIELD_MM is never compiled: its DATA words are assumed (2, like GETFIELD); a file with none is reported
    // as contradicting hypothesis hks.data.unknown, not as a plain error
    const mm = assembleHks('.function main\n.params 0 .upvalues 0 .vararg 2 .maxstack 2\n.const "x"\n.code\n GETFIELD_MM R(0) R(0) K(0)\n RETURN R(0) 1\n.end\n').chunk;
    const finding = verifyHksChunk(mm).find((i) => i.rule === 'hks.data.count')!;
    expect([finding.severity, finding.hypothesis]).toEqual(['warning', 'hks.data.unknown']);
    const c = parseHksChunk(loadFixture('hks', 'real', 'surasia_hksc-disassembler_hsc_example.luac'));
    const infos = verifyHksChunk(c).filter((i) => i.severity === 'info');
    expect(infos.find((i) => i.rule === 'hks.structures.layout')?.hypothesis).toBe('hks.structures.layout');
    const odd = parseHksChunk(loadFixture('hks', 'generated', 'hello.stripped.luac'));
    odd.main.padByte = 0;
    expect(verifyHksChunk(odd).find((i) => i.rule === 'hks.padding.byte')?.hypothesis).toBe('hks.padding.byte');
  });
});

describe('analysis', () => {
  it('summarises a chunk: counts, debug level, opcode histogram', () => {
    const a = analyzeHksChunk(parseHksChunk(loadFixture('hks', 'generated', 'closures.debug.luac')));
    expect(a.summary).toMatchObject({ functions: 8, words: 83, structures: 0, debug: 'full', maxDepth: 2 });
    expect(a.summary.instructions + a.summary.dataWords).toBe(83);
    expect(a.summary.opcodes.find((o) => o.name === 'CLOSURE')?.count).toBe(7);
    expect(analyzeHksChunk(parseHksChunk(loadFixture('hks', 'generated', 'closures.profile.luac'))).summary.debug).toBe('profile');
    expect(analyzeHksChunk(parseHksChunk(loadFixture('hks', 'generated', 'closures.stripped.luac'))).summary.debug).toBe('stripped');
  });

  it('finds globals read and written, method and field calls, natives and DB record references', () => {
    const { chunk } = assembleHks(`
.function main
  .params 0 .upvalues 0 .vararg 2 .maxstack 6
  .code
    GETGLOBAL_MEM R(0) K("System")
    .data 20 0
    SELF R(0) R(0) K("ActivateRemoteScript")
    LOADK R(2) K("Cave")
    CALL_I R(0) 3 1
    GETGLOBAL_MEM R(0) K("DBSlowMo")
    .data 20 0
    GETFIELD_R1 R(0) R(0) K("Finisher")
    .data 0 0
    .data 0 0
    GETGLOBAL_MEM R(1) K("Game")
    .data 20 0
    GETFIELD_R1 R(1) R(1) K("SetSlowMo")
    .data 0 0
    .data 0 0
    MOVE R(2) R(0)
    CALL_I R(1) 2 1
    GETGLOBAL_MEM R(0) K("print")
    .data 20 0
    CALL_I R(0) 1 1
    SETGLOBAL R(0) K("loaded")
    RETURN R(0) 1
.end`);
    const a = analyzeHksChunk(chunk);
    expect([...a.globalsRead.keys()].sort()).toEqual(['DBSlowMo', 'Game', 'System', 'print']);
    expect([...a.globalsWritten.keys()]).toEqual(['loaded']);
    expect([...a.calls.keys()].sort()).toEqual(['Game.SetSlowMo', 'System:ActivateRemoteScript', 'print']);
    expect([...a.natives.keys()].sort()).toEqual(['Game.SetSlowMo', 'System:ActivateRemoteScript']);
    expect([...a.fieldsRead.keys()].sort()).toEqual(['ActivateRemoteScript', 'Finisher', 'SetSlowMo']);
    const refs = xrefHks(a, 'SetSlowMo');
    expect(refs.map((r) => r.role).sort()).toEqual(['call', 'constant', 'field-read']);
  });

  it('cross-references a name across functions of a fixture with lines', () => {
    const a = analyzeHksChunk(parseHksChunk(loadFixture('hks', 'generated', 'closures.debug.luac')));
    const refs = xrefHks(a, 'fact').filter((r) => r.pc >= 0);
    expect(refs.map((r) => [r.functionName, r.role, r.line])).toEqual([
      ['main', 'global-write', 32],
      ['main', 'global-read', 39],
      ['main', 'call', 39],
      ['fact', 'global-read', 36],
      ['fact', 'call', 36],
    ]);
  });
});

describe('mutation fuzz (fast-check)', () => {
  const seed = propertySeed();
  const inputs = bytecodeFixtures().filter(([n]) => !n.includes('bigsetlist') && !n.includes('hsc_example') && !n.includes('luas_example'));

  it('parse never throws anything but a ToolkitError on flipped, truncated or spliced bytes; what parses re-writes identically', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: inputs.length - 1 }),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 4 }),
        fc.option(fc.nat(), { nil: undefined }),
        (which, flips, cut) => {
          const original = inputs[which]![1];
          let bytes = original.slice();
          for (const [pos, v] of flips) bytes[pos % bytes.length] = v;
          if (cut !== undefined) bytes = bytes.subarray(0, cut % (bytes.length + 1));
          let chunk: HksChunk;
          try {
            chunk = parseHksChunk(bytes);
          } catch (e) {
            if (!(e instanceof ToolkitError)) throw e;
            return;
          }
          // a mutated chunk that still parses must still write back exactly, verify without crashing and
          // survive the listing round trip
          expect(writeHksChunk(chunk)).toEqual(bytes);
          verifyHksChunk(chunk);
          analyzeHksChunk(chunk);
          expect(listHksFunctions(chunk).length).toBeGreaterThan(0);
          expect(writeHksChunk(assembleHks(disassembleHks(chunk)).chunk)).toEqual(bytes);
        },
      ),
      { seed, numRuns: 300 },
    );
  });
});
