import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkRun, randomLayer } from '../../fuzz/engine.fuzz.ts';
import { xorshift32 } from '../../fuzz/support.ts';
import { propertySeed } from '../support/fixtures.ts';

describe('hostile layer scripts (fast-check)', () => {
  const seed = propertySeed();

  it('whatever the scripts do with the natives, the host never throws, no thread is left running and the stack ends at depth 0', () => {
    let errors = 0;
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 0x7fffffff }), fc.integer({ min: 1, max: 0x7fffffff }), (layerSeed, runSeed) => {
        const source = new TextEncoder().encode(randomLayer(xorshift32(layerSeed)));
        errors += checkRun(source, xorshift32(runSeed)).errors;
      }),
      { seed, numRuns: 50 },
    );
    // the generator does produce broken scripts: they end with errors in the trace
    expect(errors).toBeGreaterThan(5);
  });
});
