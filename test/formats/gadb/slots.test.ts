/**
 * The slot rule read off a checked sorted column (`assignGadbSortedRunSlots`, what `verifyGadb` runs per distinct
 * run) gives the same links and cell count as the rule that sorts (`assignGadbRunSlots`), on random runs of every
 * type byte the table knows, flagged codes and Bool arrays included, under both readings of H-SLOT-FLAGGED.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { assignGadbRunSlots, assignGadbSortedRunSlots } from '../../../src/formats/gadb/slots.ts';
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
