/**
 * HavokScript structures through the decompiler: `hstructure` declarations rebuilt from the structure section,
 * `hmake` constructors, slot access (GETSLOT / GETSLOTMT / SELFSLOT / SETSLOT*), typed locals, parameters, loop
 * variables and upvalues from CHECKTYPE evidence. The proof is the oracle: the decompiled source recompiles to the
 * original bytes (hksc's for the `s_*` programs, scry's for the hand-written ones).
 */
import { describe, expect, it } from 'vitest';
import { parseHksChunk, writeHksChunk } from '../../src/formats/hks/index.ts';
import { compileLua, type StripLevel } from '../../src/script/compile/index.ts';
import { decompileHks } from '../../src/script/decompile/index.ts';
import { loadFixture } from '../support/fixtures.ts';

const proven = (bytes: Uint8Array): { matched: number; total: number; chunk: string[]; source: string } => {
  const r = decompileHks(parseHksChunk(bytes), { verify: true });
  const p = r.proof!;
  expect(p.compileError).toBeUndefined();
  return { matched: p.matched, total: p.total, chunk: p.chunkDifferences, source: r.source };
};

describe('structures: hksc s_* programs prove at every strip level', () => {
  // Every function of these proves stripped, profile and debug. Not yet (BENCHMARKS.md says why):
  // s_typedlhs stripped / profile.
  const all = ['s_constructor', 's_len', 's_metastruct', 's_proxytable', 's_self', 's_typed_param', 's_typedforlist', 's_typedfornum', 's_typedupval'];
  for (const name of all) {
    it(name, () => {
      for (const level of ['stripped', 'profile', 'debug']) {
        const p = proven(loadFixture('hks', 'hksc-tests', `${name}.${level}.luac`));
        expect({ level, matched: p.matched, chunk: p.chunk }).toEqual({ level, matched: p.total, chunk: [] });
      }
    });
  }
  it('s_typedlhs with debug info (typed multiple assignments, slot stores of nil)', () => {
    const p = proven(loadFixture('hks', 'hksc-tests', 's_typedlhs.debug.luac'));
    expect(p.matched).toBe(p.total);
    expect(p.source.replace(/\s+/g, ' ')).toContain('t.t, a, g = nil');
  });
});

describe('structures: hand-written programs compiled by scry', () => {
  const forms: Record<string, string> = {
    declaration: 'hstructure P\n  proxytable\n  meta : table\n  a : number\n  s : string\n  o : object\nend\nhstructure Q\n  p : P\n  q : Q\nend\nlocal q : Q = hmake Q {}\nlocal x = q.p',
    hmake: 'hstructure V\n  x : number\n  y : number\n  t : table\nend\nlocal n : number = 3\nG = hmake V { x = 1, y = n, t = {} }',
    slots: 'hstructure V\n  x : number\n  o : object\nend\nlocal v : V = hmake V {}\nv.x = 4\nv.o = f()\nprint(v.x, v.o)',
    meta: 'hstructure M\n  __index : M\n  __newindex : M\n  k : number\nend\nhstructure S\n  meta : M\n  a : number\nend\nlocal s : S = hmake S {}\nlocal k = s.k\ns.k = k',
    self: 'hstructure M\n  __index : M\n  run : ifunction\nend\nhstructure S\n  meta : M\nend\nfunction go(s : S)\n  s:run(1)\nend',
    typed: 'local function f(a : number, b : string, c)\n  local d : number = c\n  return d\nend\nlocal u : number = 1\nfunction g(x)\n  u = x\nend',
  };
  const levels: StripLevel[] = ['all', 'profile', 'none'];
  for (const [form, src] of Object.entries(forms)) {
    it(`${form} recompiles byte-identical at every strip level`, () => {
      for (const strip of levels) {
        const p = proven(writeOf(src, strip));
        expect({ strip, matched: p.matched, chunk: p.chunk }).toEqual({ strip, matched: p.total, chunk: [] });
      }
    });
  }
  it('prints the declarations, hmake and slot names', () => {
    const text = proven(writeOf(forms['meta']!, 'none')).source.replace(/\s+/g, ' ');
    expect(text).toContain('hstructure M __index : M __newindex : M k : number end');
    expect(text).toContain('hstructure S meta : M a : number end');
    expect(text).toContain('local s : S = hmake S {} local k = s.k s.k = k');
  });
});

function writeOf(src: string, strip: StripLevel): Uint8Array {
  return writeHksChunk(compileLua(src, { strip, name: 'hand.lua' }));
}

describe('real Halo Infinite chunks (big-endian; structures with `extends`, ui64 slots)', () => {
  // Floors of what proves today (BENCHMARKS.md has the exact figures and the unmatched functions).
  const cases: [string, number][] = [
    ['soupstream_havok-script-tools_compiled.luac', 3],
    ['surasia_hksc-disassembler_hsc_example.luac', 27],
    ['surasia_hksc-disassembler_luas_example.luac', 2],
  ];
  for (const [file, floor] of cases) {
    it(`${file}: decompiles, recompiles, at least ${floor} functions proven`, () => {
      const r = decompileHks(parseHksChunk(loadFixture('hks', 'real', file)), { verify: true });
      const p = r.proof!;
      expect(p.compileError).toBeUndefined();
      expect(p.matched).toBeGreaterThanOrEqual(floor);
      // The recompiled model is compared as written in the chunk's own byte order: no header difference.
      expect(p.chunkDifferences.filter((d) => d.startsWith('header'))).toEqual([]);
    });
  }
});
