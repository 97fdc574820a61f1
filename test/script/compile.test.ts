import { describe, expect, it } from 'vitest';
import { parseHksChunk, verifyHksChunk, writeHksChunk } from '../../src/formats/hks/index.ts';
import { compileLua, compileLuaWithAst } from '../../src/script/compile/index.ts';
import { loadFixture } from '../support/fixtures.ts';
import { describeDifference, goldenCorpus } from './helpers.ts';

const corpus = goldenCorpus();

describe('compiler output is byte-identical to hksc (ds3 build, -L) at every strip level', () => {
  it('has the whole corpus: 117 hksc test programs × 3 levels and the generated programs', () => {
    expect(corpus.filter((c) => c.set === 'hksc-tests').length).toBe(117);
    expect(corpus.filter((c) => c.set === 'hksc-tests').every((c) => c.expected.length === 3)).toBe(true);
    expect(corpus.filter((c) => c.set === 'generated').length).toBe(12);
    expect(corpus.reduce((n, c) => n + c.expected.length, 0)).toBe(351 + 34);
  });

  for (const set of ['hksc-tests', 'generated']) {
    it(`${set}: every program at every level`, () => {
      const failures: string[] = [];
      for (const c of corpus.filter((x) => x.set === set)) {
        for (const e of c.expected) {
          const out = writeHksChunk(compileLua(c.source, { name: `${c.program}.lua`, strip: e.strip }));
          const d = describeDifference(e.bytes, out);
          if (d !== 'identical') failures.push(`${c.set}/${e.file}: ${d}`);
        }
      }
      expect(failures.slice(0, 3).join('\n\n')).toBe('');
    });
  }

  it('the verifier finds nothing on any compiler output', () => {
    const findings: string[] = [];
    for (const c of corpus) {
      const chunk = parseHksChunk(writeHksChunk(compileLua(c.source, { name: `${c.program}.lua` })));
      for (const i of verifyHksChunk(chunk)) if (i.severity !== 'info') findings.push(`${c.program}: ${i.message}`);
    }
    expect(findings).toEqual([]);
  });
});

describe('with and without the AST', () => {
  it('compileLuaWithAst gives the same bytes as compileLua (the AST-less path only skips node building)', () => {
    for (const c of corpus.filter((x) => x.set === 'hksc-tests')) {
      const withAst = compileLuaWithAst(c.source, { name: `${c.program}.lua` });
      expect(describeDifference(writeHksChunk(compileLua(c.source, { name: `${c.program}.lua` })), writeHksChunk(withAst.chunk))).toBe('identical');
      expect(withAst.ast.type).toBe('Chunk');
    }
  });
});

describe('structure ordering hypothesis H-STRUCT-ORDER', () => {
  it('ds3 order reproduces hksc ds3; iw6 order (node order) differs exactly on the tests hksc says differ', () => {
    const differing: string[] = [];
    for (const c of corpus.filter((x) => x.set === 'hksc-tests')) {
      const e = c.expected[0]!;
      const ds3 = writeHksChunk(compileLua(c.source, { name: `${c.program}.lua`, structureOrder: 'ds3' }));
      const iw6 = writeHksChunk(compileLua(c.source, { name: `${c.program}.lua`, structureOrder: 'iw6' }));
      expect(describeDifference(e.bytes, ds3)).toBe('identical');
      if (describeDifference(ds3, iw6) !== 'identical') differing.push(c.program);
    }
    // hksc-tests/README.md: the ds3 and iw6 builds differ on exactly these three.
    expect(differing).toEqual(['s_constructor', 's_proxytable', 's_self']);
  });
});

describe('number modes', () => {
  it('double chunks say so in the header and store 8-byte numbers; float chunks round constants to float32', () => {
    const src = 'x = 0.1 + 1/3; y = 16777217';
    const f = compileLua(src, { name: 'n.lua' });
    const d = compileLua(src, { name: 'n.lua', numbers: 'double' });
    expect([f.header.numberSize, f.header.buildFlags]).toEqual([4, 3]);
    expect([d.header.numberSize, d.header.buildFlags]).toEqual([8, 0x0b]);
    const nums = (c: typeof f): number[] => c.main.constants.flatMap((k) => (k.type === 'number' ? [k.value] : []));
    // 0.1 + 1/3 folded in the number type; 16777217 is not a float32.
    expect(nums(f)).toEqual([Math.fround(Math.fround(0.1) + Math.fround(1 / 3)), 16777216]);
    expect(nums(d)).toEqual([0.1 + 1 / 3, 16777217]);
    const bytes = writeHksChunk(d);
    expect(bytes[10]).toBe(8);
    expect(parseHksChunk(bytes).main.constants).toEqual(d.main.constants);
  });
});

describe('the real Shadow of War source head (closed fixture)', () => {
  it('compiles at every level with no verifier finding', () => {
    const src = loadFixture('scripts', 'island_fortassault_fagameplay.closed.lua');
    for (const strip of ['none', 'profile', 'all'] as const) {
      const chunk = parseHksChunk(writeHksChunk(compileLua(src, { name: 'fagameplay.lua', strip })));
      expect(verifyHksChunk(chunk).filter((i) => i.severity !== 'info')).toEqual([]);
      expect(chunk.structures!.structures.length).toBeGreaterThan(0);
    }
  });
});
