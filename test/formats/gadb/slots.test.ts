/**
 * The slot rule read off a checked sorted column (`assignGadbSortedRunSlots`, what `verifyGadb` runs per distinct
 * run) gives the same links and cell count as the rule that sorts (`assignGadbRunSlots`), on random runs of every
 * type byte the table knows, flagged codes and Bool arrays included, under both readings of H-SLOT-FLAGGED. The
 * check of a run's own links (`gadbSortedRunSlotsHold`, what the bytes verifier runs) holds exactly on the links
 * the rule assigns, and fails when one of them is moved.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { assignGadbRunSlots, assignGadbSortedRunSlots, gadbSortedRunSlotsHold } from '../../../src/formats/gadb/slots.ts';
import { newGadbDescriptors } from '../../../src/formats/gadb/parse.ts';
import { GADB_TYPE_CODES } from '../../../src/formats/gadb/type-codes.ts';
import type { GadbDescriptors } from '../../../src/formats/gadb/types.ts';
import { propertySeed } from '../../support/fixtures.ts';

const seed = propertySeed();
const typeBytes = [...GADB_TYPE_CODES.map((t) => t.code), 0x44];

/** A descriptor table holding one run at `first` (rows before it are filler), its sorted column built by hash. */
function table(fields: { hash: number; typeByte: number; count: number }[], first: number): GadbDescriptors {
  const d = newGadbDescriptors(first + fields.length);
  fields.forEach((f, j) => {
    d.declaredHash[first + j] = f.hash;
    d.typeCode[first + j] = f.typeByte;
    d.elementCount[first + j] = f.count;
  });
  const byHash = fields.map((_, j) => j).sort((a, b) => fields[a]!.hash - fields[b]!.hash);
  byHash.forEach((j, i) => {
    d.sortedToDeclared[first + i] = j;
    d.sortedHash[first + i] = fields[j]!.hash;
  });
  return d;
}

describe('assignGadbSortedRunSlots', () => {
  it(`equals the sorting slot rule on random runs (seed ${seed})`, () => {
    const field = fc.record({ typeByte: fc.constantFrom(...typeBytes), count: fc.oneof(fc.constant(1), fc.integer({ min: 0, max: 40 })) });
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 0, max: 0xffffffff }), { minLength: 1, maxLength: 200 }), fc.array(field, { minLength: 200, maxLength: 200 }), fc.integer({ min: 0, max: 5 }), (hashes, kinds, first) => {
        const d = table(hashes.map((hash, j) => ({ hash, ...kinds[j]! })), first);
        const n = hashes.length;
        for (const order of ['full', 'base'] as const) {
          const want = new Int32Array(n);
          const got = new Int32Array(n);
          expect(assignGadbSortedRunSlots(d, first, n, order, got)).toBe(assignGadbRunSlots(d, first, n, order, want));
          expect([...got]).toEqual([...want]);
        }
      }),
      { seed, numRuns: 150 },
    );
  });
});

describe('gadbSortedRunSlotsHold', () => {
  it(`holds on the rule's links, with its cell count, and fails on any link moved (seed ${seed})`, () => {
    const field = fc.record({ typeByte: fc.constantFrom(...typeBytes), count: fc.oneof(fc.constant(1), fc.integer({ min: 0, max: 40 })) });
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 0, max: 0xffffffff }), { minLength: 1, maxLength: 60 }),
        fc.array(field, { minLength: 60, maxLength: 60 }),
        fc.integer({ min: 0, max: 5 }),
        fc.nat(),
        fc.constantFrom(-2, -1, 1, 2, 32),
        (hashes, kinds, first, pick, delta) => {
          const d = table(hashes.map((hash, j) => ({ hash, ...kinds[j]! })), first);
          const n = hashes.length;
          for (const order of ['full', 'base'] as const) {
            const links = new Int32Array(n);
            const cells = assignGadbRunSlots(d, first, n, order, links);
            for (let j = 0; j < n; j++) d.link[first + j] = links[j]!;
            expect(gadbSortedRunSlotsHold(d, first, n, order)).toBe(cells);
            // One link moved off the rule's (which does not depend on the links): the check fails.
            const j = pick % n;
            const moved = links[j]! + delta;
            if (moved < 0 || moved > 0xffff) continue;
            d.link[first + j] = moved;
            expect(gadbSortedRunSlotsHold(d, first, n, order)).toBe(-1);
          }
        },
      ),
      { seed, numRuns: 300 },
    );
  });
});
