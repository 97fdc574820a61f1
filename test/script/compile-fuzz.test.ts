import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkCompile, mutateSource, sourceCorpus } from '../../fuzz/compile.fuzz.ts';
import { xorshift32 } from '../../fuzz/support.ts';
import { propertySeed } from '../support/fixtures.ts';

describe('compiler mutation fuzz (fast-check)', () => {
  const seed = propertySeed();
  const inputs = sourceCorpus(4096);

  it('a mutated corpus source compiles (to clean, re-readable bytecode) or gives a CompileError: never another exception or a hang', () => {
    let compiled = 0;
    fc.assert(
      fc.property(fc.integer({ min: 0, max: inputs.length - 1 }), fc.integer({ min: 1, max: 0x7fffffff }), fc.nat(5), (which, mutationSeed, variant) => {
        const mutated = mutateSource(inputs[which]!.bytes, xorshift32(mutationSeed));
        if (checkCompile(mutated, variant) === 'compiled') compiled++;
      }),
      { seed, numRuns: 300 },
    );
    // The mutations are not all fatal: some programs still compile and are checked.
    expect(compiled).toBeGreaterThan(10);
  });

  it('arbitrary bytes and arbitrary strings', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), fc.string({ maxLength: 200 }), (bytes, text) => {
        checkCompile(bytes, 0);
        checkCompile(new TextEncoder().encode(text), 1);
      }),
      { seed, numRuns: 200 },
    );
  });
});

describe('source text', () => {
  it('refuses a string UTF-8 cannot hold (a lone surrogate) with a CompileError at its line', async () => {
    const { compileLua, CompileError } = await import('../../src/script/compile/index.ts');
    let e: unknown;
    try {
      compileLua('x = 1\ny = "\ud800"', { name: 's.lua' });
    } catch (err) {
      e = err;
    }
    expect(e).toBeInstanceOf(CompileError);
    expect((e as Error).message).toBe('s.lua:2: source text has a lone surrogate U+D800 at index 11, which UTF-8 cannot hold');
  });
});
