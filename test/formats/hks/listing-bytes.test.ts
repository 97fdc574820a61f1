import { readdirSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HKS_DIALECTS, HKS_SHADOW_OF_WAR_HEADER, HKS_STANDARD_TYPES, disassembleHks, disassembleHksBytes, openHksFile, type HksChunk, type HksConstant, type HksDialect, type HksFunction } from '../../../src/index.ts';
import { fixturePath, loadFixture, propertySeed } from '../../support/fixtures.ts';
import { bytecodeFixtures, scriFixtures } from './helpers.ts';
import { referenceFunctionsListing } from './listing-reference.ts';

/** The functions part of a listing: from the main `.function` line to its `.end` line. */
function functionsPart(listing: string): string {
  const start = listing.search(/^\.function /m);
  return listing.slice(start, listing.lastIndexOf('\n.end\n') + 6);
}

const VARIANTS: { dialect?: HksDialect; bare?: boolean }[] = [{}, { bare: true }, { dialect: 't7' }, { dialect: 'iw6', bare: true }];

function expectSameListing(chunk: HksChunk, options: { dialect?: HksDialect; bare?: boolean }, what: string): void {
  const text = disassembleHks(chunk, options);
  const actual = functionsPart(text);
  const expected = referenceFunctionsListing(chunk, options);
  if (actual === expected) return;
  let at = 0;
  while (actual[at] === expected[at]) at++;
  const lineStart = actual.lastIndexOf('\n', at) + 1;
  expect.fail(`${what} ${JSON.stringify(options)}: first difference at character ${at}\nactual:   ${JSON.stringify(actual.slice(lineStart, at + 60))}\nexpected: ${JSON.stringify(expected.slice(lineStart, at + 60))}`);
}

describe('the listing byte writer against the plain reference rendering (every byte of the functions part)', () => {
  const hkscDebug = readdirSync(fixturePath('hks', 'hksc-tests'))
    .filter((f) => f.endsWith('.debug.luac'))
    .sort()
    .map((f): [string, Uint8Array] => [`hksc-tests/${f}`, loadFixture('hks', 'hksc-tests', f)]);

  it('agrees on every bytecode and SCRI fixture, commented and bare, under every dialect', () => {
    let n = 0;
    for (const [name, bytes] of [...bytecodeFixtures(), ...scriFixtures().filter(([f]) => !f.includes('source')), ...hkscDebug]) {
      const file = openHksFile(bytes);
      if (file.kind === 'scri-source') continue;
      // Every fixture commented and bare; the other dialects on the small generated ones (the test stays fast).
      for (const options of name.startsWith('generated/') ? VARIANTS : VARIANTS.slice(0, 2)) expectSameListing(file.chunk, options, name);
      n++;
    }
    expect(n).toBeGreaterThan(150);
  });

  it('the byte API holds the string API\'s characters, one byte each', () => {
    for (const [name, bytes] of bytecodeFixtures().slice(0, 12)) {
      const file = openHksFile(bytes);
      if (file.kind !== 'chunk') continue;
      const text = disassembleHks(file.chunk);
      const listing = disassembleHksBytes(file.chunk);
      expect(listing.length, name).toBe(text.length);
      let same = true;
      for (let i = 0; i < listing.length && same; i++) same = listing[i] === text.charCodeAt(i);
      expect(same, name).toBe(true);
    }
  });

  describe('random functions (fast-check)', () => {
    const seed = propertySeed();
    const opcodeCount = 128;
    // Words: mostly canonical instructions of a random opcode with small fields (so K, P, labels and struct
    // slots resolve), some with nonzero unused fields, some fully random.
    const word = fc.oneof(
      { weight: 6, arbitrary: fc.tuple(fc.integer({ min: 0, max: opcodeCount - 1 }), fc.integer({ min: 0, max: 12 }), fc.integer({ min: 0, max: 12 }), fc.oneof(fc.integer({ min: 0, max: 12 }), fc.integer({ min: 250, max: 270 }))).map(([op, a, b, c]) => ((op << 25) | (b << 17) | (c << 8) | a) >>> 0) },
      { weight: 2, arbitrary: fc.tuple(fc.integer({ min: 0, max: opcodeCount - 1 }), fc.integer({ min: 0xffff - 20, max: 0xffff + 20 })).map(([op, sbx]) => ((op << 25) | (sbx << 8)) >>> 0) },
      { weight: 1, arbitrary: fc.integer({ min: 0, max: 0xffffffff }) },
    );
    const latin1 = fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 80 }).map((cs) => String.fromCharCode(...cs));
    const name = fc.oneof(fc.constant(null), fc.constantFrom('x', 'self', 'cafè', 'Script_Handler', '1bad', ''), latin1);
    const constant: fc.Arbitrary<HksConstant> = fc.oneof(
      fc.constant({ type: 'nil' as const }),
      fc.integer({ min: 0, max: 3 }).map((value) => ({ type: 'boolean' as const, value })),
      fc.oneof(fc.constantFrom(0, -0, 1.5, -2, 1e30, Infinity, NaN, 0.1), fc.float({ noDefaultInfinity: false })).map((value) => ({ type: 'number' as const, value })),
      fc.oneof(latin1, fc.constant(null)).map((value) => ({ type: 'string' as const, value })),
      fc.bigInt({ min: 0n, max: 0xffffffffffffffffn }).map((value) => ({ type: 'ui64' as const, value })),
    );
    const fnArb = (depth: number): fc.Arbitrary<HksFunction> =>
      fc
        .record({
          code: fc.array(word, { maxLength: 40 }),
          constants: fc.array(constant, { maxLength: 12 }),
          debug: fc.option(fc.record({ perWord: fc.boolean(), lines: fc.array(fc.integer({ min: -5, max: 100000 }), { maxLength: 40 }), locals: fc.array(fc.record({ name, startPc: fc.nat(50), endPc: fc.nat(50) }), { maxLength: 3 }), upvalueNames: fc.array(name, { maxLength: 4 }), source: name, name }), { nil: null }),
          children: depth < 2 ? fc.array(fnArb(depth + 1), { maxLength: 2 }) : fc.constant([] as HksFunction[]),
          padByte: fc.constantFrom(0x5f, 0),
        })
        .map(({ code, constants, debug, children, padByte }) => ({
          upvalueCount: 1,
          paramCount: 2,
          varargFlags: 0,
          maxStackSize: 20,
          padByte,
          code: Uint32Array.from(code),
          constants,
          debug: debug && {
            lineDefined: 1,
            lastLineDefined: 9,
            source: debug.source,
            name: debug.name,
            lines: debug.perWord ? code.map((_, i) => debug.lines[i] ?? i) : debug.lines,
            locals: debug.locals,
            upvalueNames: debug.upvalueNames,
          },
          children,
        }));
    const structures = fc.option(
      fc.array(fc.record({ name: fc.constantFrom('Vec', 'Unit', 'cafè'), slots: fc.array(fc.record({ name, typeId: fc.constantFrom(0, 3, 12, 40), position: fc.nat(12) }), { maxLength: 6 }) }), { minLength: 1, maxLength: 3 }),
      { nil: null },
    );

    it('renders every byte as the reference does, for any words, constants, debug info and structures', () => {
      fc.assert(
        fc.property(fnArb(0), structures, fc.constantFrom(...VARIANTS), fc.constantFrom(...HKS_DIALECTS), (main, structs, variant, dialect) => {
          const chunk: HksChunk = {
            header: { ...HKS_SHADOW_OF_WAR_HEADER },
            types: [...HKS_STANDARD_TYPES],
            main,
            structures: structs && {
              layout: 'hksc',
              marker: 1,
              structures: structs.map((s, i) => ({ name: s.name, id: i + 1, hasMeta: 0, hasProxy: 0, slots: s.slots.map((slot) => ({ ...slot, structId: slot.typeId === 12 ? 1 : 0xffff, reserved: 0 })) })),
            },
            trailing: new Uint8Array(0),
          };
          expectSameListing(chunk, { ...variant, dialect }, 'random');
        }),
        { seed, numRuns: 300 },
      );
    });
  });
});
