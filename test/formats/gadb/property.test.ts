/**
 * Properties (fast-check, printed seed): generated models survive write → parse unchanged and `write` is
 * idempotent; mutated copies of the real sample never raise anything but a typed error, and whenever `verifyGadb`
 * finds no error in a mutated file, the writer reproduces it byte for byte.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ConsistencyError, ToolkitError } from '../../../src/binary/errors.ts';
import { describeDifference } from '../../../src/binary/hexdump.ts';
import { p919 } from '../../../src/hash/p919.ts';
import {
  buildGadb,
  encodeGadbLink,
  parseGadb,
  verifyGadb,
  writeGadb,
  type GadbBuildCategory,
  type GadbBuildInput,
  type GadbBuildValue,
} from '../../../src/formats/gadb/index.ts';
import { loadFixture, propertySeed } from '../../support/fixtures.ts';

const seed = propertySeed();
const original = loadFixture('gadb', 'landmine_curse.fxp');

const TYPES = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 0x44] as const;
const name = fc.stringMatching(/^[A-Za-z0-9_]{1,10}$/);
const f32 = fc.float({ noNaN: true });

function valueOf(type: number): fc.Arbitrary<GadbBuildValue> {
  switch (type & 0x3f) {
    case 1:
      return fc.boolean();
    case 2:
      return f32;
    case 3:
      return fc.integer();
    case 4:
    case 5:
      return fc.stringMatching(/^[ -~]{0,12}$/);
    case 6:
      return fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n });
    case 7:
      return fc.array(f32, { minLength: 2, maxLength: 2 });
    case 8:
      return fc.array(f32, { minLength: 3, maxLength: 3 });
    case 9:
      return fc.integer({ min: 1, max: 3 }).chain((n) => fc.uint8Array({ minLength: n * 4, maxLength: n * 4 }));
    case 10:
    case 11:
      return fc.nat(); // resolved to a real link (or null) once the categories are known
    case 16:
      return fc.array(fc.array(f32, { minLength: 4, maxLength: 4 }), { maxLength: 3 });
    case 14:
      return fc.array(fc.tuple(f32, fc.nat(), fc.nat()).map((t) => [...t]), { maxLength: 3 });
    case 15:
      return fc.array(fc.tuple(f32, fc.integer()).map((t) => [...t]), { maxLength: 3 });
    case 12:
      return fc.array(fc.tuple(f32, fc.nat()).map((t) => [...t]), { maxLength: 3 });
    default:
      return fc.array(fc.tuple(f32, f32).map((t) => [...t]), { maxLength: 3 });
  }
}

const recordValues = (types: number[]) => fc.tuple(...types.map((t) => fc.array(valueOf(t), { minLength: t === 1 ? 1 : 0, maxLength: t === 1 ? 1 : 3 })));

const category = fc
  .uniqueArray(fc.record({ hash: fc.nat({ max: 0xffffffff }), type: fc.constantFrom(...TYPES) }), { selector: (f) => f.hash, maxLength: 6 })
  .chain((fields) =>
    fc.record({
      name,
      fields: fc.constant(fields),
      primaries: fc.array(recordValues(fields.map((f) => f.type)), { maxLength: 2 }),
      records: fc.array(fc.record({ name, values: recordValues(fields.map((f) => f.type)) }), { maxLength: 3 }),
    }),
  );

const model = fc.record({
  rootName: fc.constantFrom('GameDatabase', 'FXDB', 'BlendDB'),
  wrapped: fc.boolean(),
  categories: fc.array(category, { maxLength: 4 }),
  unk14: fc.nat(),
  unk20: fc.nat({ max: 0xffffffff }),
  pairs: fc.array(fc.nat({ max: 0xffffffff }), { maxLength: 4 }).map((a) => a.slice(0, a.length & ~1)),
});

type Raw = typeof model extends fc.Arbitrary<infer T> ? T : never;

/** Sorted, hash-unique categories and records; links resolved to existing records (or null). */
function toInput(raw: Raw): GadbBuildInput {
  const byHash = new Map<number, Raw['categories'][number]>();
  for (const c of raw.categories) if (!byHash.has(p919(c.name))) byHash.set(p919(c.name), c);
  const cats = [...byHash.entries()].sort((a, b) => a[0] - b[0]);
  const sizes = cats.map(([, c]) => c.primaries.length + new Set(c.records.map((r) => p919(r.name))).size);
  const link = (n: number): number => {
    if (n % 5 === 0 || cats.length === 0) return 0xffffffff;
    const c = n % cats.length;
    return sizes[c]! === 0 ? 0xffffffff : encodeGadbLink(c, (n >>> 3) % sizes[c]!);
  };
  const fix = (types: number[], values: GadbBuildValue[][]) => values.map((vs, j) => ((types[j]! & 0x3f) === 10 || (types[j]! & 0x3f) === 11 ? vs.map((v) => link(v as number)) : vs));
  const categories: GadbBuildCategory[] = cats.map(([key, c]) => {
    const types = c.fields.map((f) => f.type);
    const records = new Map<number, { name: string; values: GadbBuildValue[][] }>();
    for (const r of c.records) if (!records.has(p919(r.name))) records.set(p919(r.name), { name: r.name, values: fix(types, r.values) });
    return {
      name: c.name,
      sortKey: key,
      fields: c.fields,
      primaries: c.primaries.map((values) => ({ values: fix(types, values) })),
      records: [...records.entries()].sort((a, b) => a[0] - b[0]).map(([, r]) => r),
    };
  });
  return {
    rootName: raw.rootName,
    ...(raw.wrapped ? { container: { kind: 'wrapped' as const, magic: 'LTFX', version: 8 } } : {}),
    categories,
    unk14: raw.unk14,
    unk20: raw.unk20,
    unk24: raw.pairs.length / 2,
    pairs: raw.pairs,
  };
}

describe('GADB properties', () => {
  it('generated models: parse(write(m)) equals m, write is idempotent, verify finds no error', () => {
    fc.assert(
      fc.property(model, (raw) => {
        const m = buildGadb(toInput(raw));
        const bytes = writeGadb(m);
        const back = parseGadb(bytes);
        expect(back).toEqual(m);
        const again = writeGadb(back);
        expect(describeDifference(again, bytes)).toBe('');
        expect(verifyGadb(bytes).filter((i) => i.severity === 'error')).toEqual([]);
      }),
      { seed, numRuns: 100 },
    );
  });

  it('mutated sample: typed errors only; a file verify finds clean is reproduced byte for byte', () => {
    const mutation = fc.oneof(
      fc.record({ kind: fc.constant('truncate' as const), at: fc.nat({ max: original.length - 1 }), value: fc.constant(0) }),
      fc.record({ kind: fc.constant('byte' as const), at: fc.nat({ max: original.length - 1 }), value: fc.nat({ max: 255 }) }),
      fc.record({ kind: fc.constant('u32' as const), at: fc.nat({ max: original.length - 4 }), value: fc.oneof(fc.nat({ max: 0xffffffff }), fc.nat({ max: 64 }), fc.constant(0xffffffff)) }),
    );
    fc.assert(
      fc.property(fc.array(mutation, { minLength: 1, maxLength: 3 }), (mutations) => {
        let b = original.slice();
        for (const m of mutations) {
          if (m.kind === 'truncate') b = b.slice(0, Math.min(b.length, m.at));
          else if (m.at < b.length - (m.kind === 'u32' ? 3 : 0)) {
            if (m.kind === 'byte') b[m.at] = m.value;
            else new DataView(b.buffer).setUint32(m.at, m.value, true);
          }
        }
        let g;
        try {
          g = parseGadb(b);
        } catch (e) {
          expect(e).toBeInstanceOf(ToolkitError);
          return;
        }
        let issues;
        try {
          issues = verifyGadb(g);
        } catch (e) {
          expect(e).toBeInstanceOf(ToolkitError);
          return;
        }
        let out: Uint8Array;
        try {
          out = writeGadb(g);
        } catch (e) {
          expect(e).toBeInstanceOf(ConsistencyError);
          return;
        }
        if (!issues.some((i) => i.severity === 'error')) expect(describeDifference(out, b), JSON.stringify(mutations)).toBe('');
      }),
      { seed, numRuns: 200 },
    );
  });
});
