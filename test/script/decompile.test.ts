import { describe, expect, it } from 'vitest';
import { encodeHksABC, encodeHksABx, hksOpcodes, parseHksChunk, type HksFunction } from '../../src/formats/hks/index.ts';
import { compileLua } from '../../src/script/compile/index.ts';
import { decodeHksCode, HKS_K } from '../../src/script/decompile/decode.ts';
import { decompileHks } from '../../src/script/decompile/index.ts';
import type { Expr } from '../../src/script/decompile/ir.ts';
import { buildNetworkTree, type NetworkAtom } from '../../src/script/decompile/network.ts';
import { loadFixture } from '../support/fixtures.ts';
import { goldenCorpus } from './helpers.ts';

const op = (name: string): number => hksOpcodes().byName.get(name)!.op;

function fnWith(code: number[], children: HksFunction[] = []): HksFunction {
  return { upvalueCount: 0, paramCount: 0, varargFlags: 2, maxStackSize: 2, padByte: 0x5f, code: Uint32Array.from(code), constants: [{ type: 'string', value: 'x' }], debug: null, children };
}

describe('decoding over the opcode table', () => {
  it('folds specialised opcodes into their family and normalises constant operands', () => {
    const code = decodeHksCode(
      fnWith([
        encodeHksABC(op('GETFIELD'), 0, 1, 0),
        encodeHksABx(op('DATA'), 0, 0),
        encodeHksABx(op('DATA'), 0, 0),
        encodeHksABC(op('ADD_BK'), 0, 3, 256 + 1),
        encodeHksABC(op('RETURN'), 0, 1, 0),
      ]),
    );
    expect(code.list.map((i) => i.family)).toEqual(['GETTABLE', 'ARITH', 'RETURN']);
    const [get, add] = code.list;
    expect(get!.c).toBe(HKS_K + 0);
    expect(get!.data).toHaveLength(2);
    expect(add!.operator).toBe('+');
    expect(add!.b).toBe(HKS_K + 3);
    expect(add!.c).toBe(HKS_K + 1);
    expect(code.at[1]).toBeUndefined();
  });

  it('refuses a DATA word nobody owns and a jump outside the code', () => {
    expect(() => decodeHksCode(fnWith([encodeHksABx(op('DATA'), 0, 0)]))).toThrow(/DATA word without an owner at pc 0/);
    expect(() => decodeHksCode(fnWith([encodeHksABx(op('JMP'), 0, 0xffff + 5)]))).toThrow(/JMP to 6/);
  });
});

describe('and/or trees from jump labels', () => {
  const v = (name: string): Expr => ({ k: 'global', name });
  const atom = (name: string, sense: boolean, ...labels: (string | number)[]): NetworkAtom => ({ expr: v(name), sense, labels: new Set(labels as ('T' | 'F' | number)[]) });
  const show = (e: Expr | null): string => {
    if (!e) return 'null';
    if (e.k === 'global') return e.name;
    if (e.k === 'unop') return `not ${show(e.e)}`;
    if (e.k === 'binop') return `(${show(e.l)} ${e.op} ${show(e.r)})`;
    return e.k;
  };

  it('rebuilds `a or b and c` in condition context (jumps to the false exit when falsy, to the true exit when truthy)', () => {
    // a: TEST a 1 -> T; b: TEST b 0 -> F; c: TEST c 0 -> F; falls into the block.
    expect(show(buildNetworkTree([atom('a', true, 'T'), atom('b', false, 'F'), atom('c', false, 'F')], 'T'))).toBe('(a or (b and c))');
  });

  it('rebuilds `(a or b) and c` from the internal jump to c', () => {
    expect(show(buildNetworkTree([atom('a', true, 2), atom('b', false, 'F'), atom('c', false, 'F')], 'T'))).toBe('((a or b) and c)');
  });

  it('negates an atom that jumps to the exit of the other polarity', () => {
    expect(show(buildNetworkTree([atom('a', true, 'F')], 'T'))).toBe('not a');
  });

  it('finds no tree for jumps that and/or cannot produce', () => {
    // a jumps to where it would fall through anyway.
    expect(buildNetworkTree([atom('a', true, 1), atom('b', false, 'F')], 'T')).toBeNull();
  });
});

describe('decompiling', () => {
  // Debug builds are laid out to reproduce their line info: the tokens are compared with the layout folded.
  const source = (file: string): string => decompileHks(parseHksChunk(loadFixture('hks', 'hksc-tests', file))).source.replace(/\s+/g, ' ');

  it('rebuilds value expressions from TESTSET chains (hksc 22_testset)', () => {
    const text = source('22_testset.debug.luac');
    expect(text).toContain('a = b and c or d');
    expect(text).toContain('a = b or c and d');
    expect(text).toContain('a = a or b or c');
  });

  it('rebuilds comparisons in value context and their operand order (hksc 07_bool, 105_comporder)', () => {
    const bool = source('07_bool.debug.luac');
    expect(bool).toContain('local c = a == b');
    expect(bool).toContain('local d = a ~= b');
    const order = source('105_comporder.debug.luac');
    expect(order).toMatch(/if a \+ 1 >= 0 then/);
    expect(order).toMatch(/if 2 <= a \+ 3 then/);
  });

  it('invents stable names for the locals of stripped functions', () => {
    const text = source('16_fornum.stripped.luac');
    expect(text).toMatch(/for l_0_\d+ = /);
    expect(source('16_fornum.stripped.luac')).toBe(text);
  });

  it('prints a function it cannot decompile as a stub saying why, and the file still compiles', () => {
    const bad = fnWith([encodeHksABC(op('INTRINSIC_INDEX'), 0, 0, 0), encodeHksABC(op('RETURN'), 0, 1, 0)]);
    const chunk = compileLua('local f = function() end', { strip: 'all' });
    chunk.main.children[0] = bad;
    const r = decompileHks(chunk, { verify: true });
    expect(r.functions.find((f) => f.path === 'main/0')?.failure).toMatch(/INTRINSIC_INDEX/);
    expect(r.source).toMatch(/decompilation failed/);
    expect(r.proof?.compileError).toBeUndefined();
    expect(r.proof?.functions.find((f) => f.path === 'main')?.matched).toBe(true);
    expect(r.proof?.functions.find((f) => f.path === 'main/0')?.matched).toBe(false);
  });
});

describe('a function that cannot be decompiled', () => {
  it('still gives its children, built in its stub where they capture the same upvalues, and they prove', () => {
    const chunk = compileLua('local x = 1\nlocal f = function()\n  local y = 2\n  local g = function() return x, y end\n  return g\nend', { strip: 'all' });
    const f = chunk.main.children[0]!;
    // A first instruction reading a register nothing wrote: not compiler output.
    f.code = Uint32Array.from([encodeHksABC(op('NOT'), 0, 5, 0), ...f.code]);
    f.maxStackSize = 6;
    const r = decompileHks(chunk, { verify: true });
    expect(r.functions.find((x) => x.path === 'main/0')?.failure).toMatch(/register 5/);
    expect(r.proof?.functions.map((x) => [x.path, x.matched])).toEqual([['main', true], ['main/0', false], ['main/0/0', true]]);
    expect(r.source).toMatch(/return l_0_0, l_1_0_1/);
  });

  it('keeps the name of a child the prototype names (profile build: `local function`)', () => {
    const chunk = compileLua('local function outer()\n  local function inner(n) if n > 0 then return inner(n - 1) end end\n  return inner\nend\nreturn outer', { strip: 'profile', name: 't.lua' });
    const f = chunk.main.children[0]!;
    f.code = Uint32Array.from([encodeHksABC(op('NOT'), 0, 5, 0), ...f.code]);
    f.maxStackSize = 6;
    const r = decompileHks(chunk, { verify: true });
    expect(r.proof?.functions.find((x) => x.path === 'main/0/0')?.matched).toBe(true);
    expect(r.source).toMatch(/local function inner\(l_2_0\)/);
  });
});

describe('stripped inference of locals around and/or networks, loops and multiple assignment', () => {
  // Each source compiles stripped; the decompiled text must read it back with the locals it had and prove.
  const stripped = (src: string): string => {
    const r = decompileHks(compileLua(src, { strip: 'all' }), { verify: true });
    expect(r.proof?.compileError).toBeUndefined();
    expect(r.proof?.matched).toBe(r.proof?.total);
    return r.source.replace(/\s+/g, ' ').trim();
  };

  it('a TESTSET into a register an earlier statement left is an assignment to that local (hksc 54_erro_if)', () => {
    expect(stripped('local a, b; a = b or a or d; if a then return a end')).toContain('l_0_0 = l_0_1 or l_0_0 or d');
  });

  it('a comparison over left-over values whose next statement writes above them assigns a local (hksc 101_compare)', () => {
    expect(stripped('local a = x; local b = y; a = a < b; c = d')).toContain('local l_0_1 = y l_0_0 = l_0_0 < l_0_1 c = d');
  });

  it('values above a store that the next statement overwrites are extra expressions (hksc 102_conditional2)', () => {
    expect(stripped('local a = x; a = 1, a and b; local c = a and {c}')).toContain('l_0_0 = 1, l_0_0 and b local l_0_1 = l_0_0 and {c}');
    expect(stripped('local a = x + 1, a and b; local c = a and d')).toBe('local l_0_0 = x + 1, a and b local l_0_1 = l_0_0 and d');
  });

  it('tests jumping back to one repeat head are one until-condition, keeping the body locals in scope (hksc 93_melded_repeat)', () => {
    expect(stripped('local a; repeat local b = 12 until a and b')).toBe('local l_0_0 repeat local l_0_1 = 12 until l_0_0 and l_0_1');
  });

  it('the leading nils of a concatenation merged into a declaration\'s LOADNIL stay operands (hksc 90_b2b_nil_explist)', () => {
    expect(stripped('local b = nil; a = nil .. nil .. (a + b)')).toBe('local l_0_0 a = nil .. nil .. a + l_0_0');
  });

  it('a call result stored into, with the code after the store writing above it, is a local (generated methods)', () => {
    expect(stripped('local t = f(); t.x = a or 1; return t').replace(' .', '.')).toBe('local l_0_0 = f() l_0_0.x = a or 1 return l_0_0');
    expect(stripped('local t = f(); t.x = 1; t.y = a or 2')).toMatch(/^local l_0_0 = f\(\)/);
  });

  it('profile builds: a closure kept in the free register, its prototype named by an identifier, is `local function` (hksc 29_nested_call)', () => {
    const r = decompileHks(compileLua('local function f(a)\n  local function g() return a end\n  return g\nend\nreturn f', { strip: 'profile', name: 't.lua' }), { verify: true });
    expect(r.proof?.matched).toBe(r.proof?.total);
    expect(r.source.replace(/\s+/g, ' ')).toContain('local function g() return l_1_0 end return g');
  });

  it('a tested value whose guarded code writes above it is a local, not an `and` (hksc 94_melded_if)', () => {
    expect(stripped('if a then local b = b; if b then return a end end')).toBe('if a then local l_0_0 = b if l_0_0 then return a end end');
  });
});

describe('the proof over the corpus (hksc-tests and generated, every strip level)', () => {
  const corpus = goldenCorpus();
  for (const level of ['stripped', 'profile', 'debug'] as const) {
    it(`${level}: every decompiled file recompiles, and the functions prove`, () => {
      let matched = 0;
      let total = 0;
      const compileErrors: string[] = [];
      for (const c of corpus) {
        const e = c.expected.find((x) => x.file.endsWith(`.${level}.luac`));
        if (!e) continue;
        const chunk = parseHksChunk(e.bytes);
        const p = decompileHks(chunk, { verify: true }).proof!;
        if (p.compileError) compileErrors.push(`${e.file}: ${p.compileError}`);
        matched += p.matched;
        total += p.total;
      }
      expect(compileErrors).toEqual([]);
      expect(total).toBeGreaterThan(235);
      // Floors of what is proven today, the whole proof (line info included); BENCHMARKS.md has the exact figures.
      expect(matched / total).toBeGreaterThan({ stripped: 0.99, profile: 0.99, debug: 0.99 }[level]);
    });
  }
});
