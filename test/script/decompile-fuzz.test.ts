import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkDecompile, chunkCorpus, mutateChunk } from '../../fuzz/decompile.fuzz.ts';
import { xorshift32 } from '../../fuzz/support.ts';
import { propertySeed } from '../support/fixtures.ts';

describe('decompiler mutation fuzz (fast-check)', () => {
  const seed = propertySeed();
  const inputs = chunkCorpus(2048);

  it('mutated bytecode gives a typed error or a decompiled source with its proof (unmatched functions reported): never another exception or a hang', () => {
    let unmatched = 0;
    fc.assert(
      fc.property(fc.integer({ min: 0, max: inputs.length - 1 }), fc.integer({ min: 1, max: 0x7fffffff }), (which, mutationSeed) => {
        const o = checkDecompile(mutateChunk(inputs[which]!.bytes, xorshift32(mutationSeed)));
        if (o.kind === 'decompiled' && o.matched < o.total) unmatched++;
      }),
      { seed, numRuns: 250 },
    );
    // The mutations change the code: most chunks then have a function the proof does not match.
    expect(unmatched).toBeGreaterThan(100);
  });
});
