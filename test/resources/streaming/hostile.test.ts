import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Streamer, ToolkitError, UsageError, buildBndl, parseStreamTrace, writeBndl } from '../../../src/index.ts';
import { propertySeed } from '../../support/fixtures.ts';
import { memoryVfs } from './world.ts';

/** Bytes with a few flipped. */
function mutate(bytes: Uint8Array, flips: Array<[number, number]>): Uint8Array {
  const out = bytes.slice();
  for (const [at, v] of flips) if (out.length > 0) out[at % out.length] = v;
  return out;
}

describe('hostile input through the streamer', () => {
  it('mutated manifests and contents never throw into the caller, never hang: every bundle settles', async () => {
    const seed = propertySeed();
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.stringMatching(/^[a-z]{1,6}$/), fc.integer({ min: 0, max: 300 })), { minLength: 1, maxLength: 5 }),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 6 }),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 6 }),
        fc.integer({ min: -8, max: 8 }),
        async (entries, manifestFlips, contentFlips, sizeDelta) => {
          const unique = [...new Map(entries.map(([n, size]) => [n, size])).entries()];
          const manifest = buildBndl(unique.map(([n, size], i) => ({ path: `h\\${n}.${i % 3 === 0 ? 'fxp' : 'bin'}`, size })));
          const total = manifest.entries.reduce((s, e) => s + e.size, 0);
          const content = new Uint8Array(Math.max(0, total + 24 + 64 + sizeDelta));
          const vfs = await memoryVfs({ 'h\\b.bndl': mutate(writeBndl(manifest), manifestFlips), 'h\\b.embb': mutate(content, contentFlips) });
          const s = new Streamer({ vfs });
          const b = s.bundles.acquire(s.bundles.get('h\\b.bndl'));
          s.bundles.prefetch(b);
          await s.run();
          expect(['resident', 'failed', 'missing', 'stalled']).toContain(b.state);
          // whatever happened, the contract still holds and the slots are all back (or held by a stalled loader)
          s.bundles.discard(b);
          s.bundles.release(b);
          const r = s.report();
          expect(r.slots.inUse).toBe(r.stalls.length);
        },
      ),
      { seed, numRuns: 200 },
    );
  });

  it('a trace document that is not a valid trace is a usage error, never a crash', () => {
    const seed = propertySeed();
    fc.assert(
      fc.property(fc.jsonValue(), (doc) => {
        const base = { format: 'scry.stream-trace', version: 1, requests: [{ t: 0, path: 'x' }] };
        const wrapped = [doc, { ...base, requests: doc }, { ...base, requests: [doc] }, { ...base, files: doc }, { ...base, latency: doc }, { ...base, latency: { load: doc } }, { ...base, switches: doc }, { ...base, slots: doc }];
        for (const d of wrapped) {
          try {
            parseStreamTrace(d);
          } catch (e) {
            expect(e).toBeInstanceOf(UsageError);
            expect(e).toBeInstanceOf(ToolkitError);
          }
        }
      }),
      { seed, numRuns: 300 },
    );
  });
});
