import { describe, expect, it } from 'vitest';
import { hksMatchingStructureOrders, hksOpcodes, hksStructureOrder, parseHksChunk, verifyHksChunk, type HksFunction } from '../../../src/formats/hks/index.ts';
import { loadFixture } from '../../support/fixtures.ts';

const CHECKTYPES = hksOpcodes().byName.get('CHECKTYPES')!.op;
const fn = (code: number[]): HksFunction => ({ upvalueCount: 0, paramCount: 0, varargFlags: 2, maxStackSize: 2, padByte: 0x5f, code: Uint32Array.from(code), constants: [], debug: null, children: [] });
const checktypes = (id: number): number => ((CHECKTYPES << 25) | (id << 8)) >>> 0;

describe('structure section order (H-STRUCT-ORDER)', () => {
  it('simulates the Lua 5.1 table: ids 5, 9, 2 referenced in that order', () => {
    // Worked by hand: 5 and 9 share node 0 of a 1-node table and force sizes 2 then 4; after the second rehash
    // 9 sits in node 1 and 5 in node 0 (re-inserted from the last node), 2 goes to the free node 3, `true` to node 2.
    // Node order (iw6): 5, 9, true, 2. Insertion links walked back from `true` (ds3): 2, 5, 9.
    const main = fn([checktypes(5), checktypes(9), checktypes(2)]);
    const none = (): { before: number[]; after: number[] } => ({ before: [], after: [] });
    expect(hksStructureOrder(main, none, 'iw6')).toEqual([5, 9, 2]);
    expect(hksStructureOrder(main, none, 'ds3')).toEqual([2, 5, 9]);
    // A slot's structure follows its owner; an extends parent precedes it; each structure once.
    const related = (id: number): { before: number[]; after: number[] } => (id === 5 ? { before: [7], after: [2, 3] } : { before: [], after: [] });
    expect(hksStructureOrder(main, related, 'iw6')).toEqual([7, 5, 2, 3, 9]);
  });

  it("hksc's ds3 output follows the ds3 order, and the real Havok output (Halo Infinite) the iw6 order", () => {
    for (const f of ['s_constructor', 's_proxytable', 's_self']) {
      const c = parseHksChunk(loadFixture('hks', 'hksc-tests', `${f}.debug.luac`));
      expect(hksMatchingStructureOrders(c.main, c.structures!.structures)).toEqual(['ds3']);
    }
    const halo = parseHksChunk(loadFixture('hks', 'real', 'surasia_hksc-disassembler_hsc_example.luac'));
    expect(halo.structures!.structures.length).toBe(25);
    expect(hksMatchingStructureOrders(halo.main, halo.structures!.structures)).toEqual(['iw6']);
  });

  it('verify reports the order a file follows, naming the hypothesis', () => {
    const halo = parseHksChunk(loadFixture('hks', 'real', 'surasia_hksc-disassembler_hsc_example.luac'));
    const finding = verifyHksChunk(halo).find((i) => i.rule === 'hks.structures.order');
    expect(finding).toMatchObject({ severity: 'info', hypothesis: 'H-STRUCT-ORDER' });
    expect(finding!.message).toMatch(/in iw6 order/);
    const ds3 = parseHksChunk(loadFixture('hks', 'generated', 'structs3.debug.luac'));
    expect(verifyHksChunk(ds3).find((i) => i.rule === 'hks.structures.order')!.message).toMatch(/in ds3 order/);
  });
});
