import { describe, expect, it } from 'vitest';
import { EMBB_HYPOTHESES, checkEmbbAgainstBndl, parseBndl, parseEmbbHypothesis } from '../../../src/index.ts';
import { hex, loadFixture, loadJsonFixture } from '../../support/fixtures.ts';

const meta = loadJsonFixture<{ files: Array<{ fullPath: string; size: number }> }>('arch06', 'Patch_00.arch06.metadata.json');

describe('.embb as a named hypothesis', () => {
  it('the verified size rule holds for all four real bundles; the tools layout is contradicted by a precise amount', () => {
    for (const region of ['island', 'mtnpass', 'snowmtn', 'volcano']) {
      const bndl = parseBndl(loadFixture('bndl', `fortwallgameplay_${region}.bndl`));
      const embbSize = meta.files.find((f) => f.fullPath === `worlds\\retail\\${region}\\sectionsandlayers\\fortwallgameplay.embb`)!.size;
      const [rule, tools] = checkEmbbAgainstBndl(embbSize, bndl);
      expect(rule).toMatchObject({ severity: 'info', hypothesis: EMBB_HYPOTHESES.sizeRule.id });
      expect(tools).toMatchObject({ severity: 'warning', hypothesis: EMBB_HYPOTHESES.toolsLayout.id });
      expect(tools!.message).toContain('off by -72');
    }
    const island = parseBndl(loadFixture('bndl', 'fortwallgameplay_island.bndl'));
    expect(checkEmbbAgainstBndl(216049, island)[0]!.message).toBe('raw size 216049 = Σ sizes 215389 + namesSize 636 + 24');
    expect(checkEmbbAgainstBndl(216050, island)[0]!.severity).toBe('error');
  });

  it('reads a synthetic file under the tools layout (two sections back to back)', () => {
    const section = hex`45 4D 42 42 05000000 04000000 01000000 782E7900 00000000 03000000 616263`;
    const r = parseEmbbHypothesis(new Uint8Array([...section, ...section]));
    expect(r.sections.length).toBe(2);
    expect(r.sections[1]!.resources).toEqual([{ name: 'x.y', nameOffset: 0, dataOffset: section.length + 28, size: 3 }]);
  });

  it('reports where a file contradicts the layout, naming the hypothesis, offset and field', () => {
    expect(() => parseEmbbHypothesis(hex`45 4D 42 42 05000000 04000000 01000000 782E7900 09000000 03000000 616263`)).toThrow(
      'embb: contradicts hypothesis embb.toolsLayout: name offset 9 is outside the 4-byte names block at 0x0014 (/sections/0/nameOffsets/0)',
    );
    expect(() => parseEmbbHypothesis(hex`45 4D 42 42 05000000 04000000 01000000 782E7900 00000000 FF000000 616263`)).toThrow(/resource size 255 exceeds/);
  });
});

describe('.embb parsing is linear in the input', () => {
  /** EMBB v5 with `namesSize` bytes of 'N' (then, when `terminated`, a NUL in the last byte) and `count` zero offsets/sizes. */
  function crafted(namesSize: number, count: number, offsets: (i: number) => number, terminated: boolean): Uint8Array {
    const b = new Uint8Array(16 + namesSize + 8 * count);
    const dv = new DataView(b.buffer);
    b.set([0x45, 0x4d, 0x42, 0x42]);
    dv.setUint32(4, 5, true);
    dv.setUint32(8, namesSize, true);
    dv.setUint32(12, count, true);
    b.fill(0x4e, 16, 16 + namesSize);
    if (terminated) b[16 + namesSize - 1] = 0;
    for (let i = 0; i < count; i++) dv.setUint32(16 + namesSize + 4 * i, offsets(i), true);
    return b;
  }

  it('the issue\'s file (names with no NUL) is refused at once, naming the unterminated name', () => {
    const b = crafted(20000, 5000, () => 0, false);
    expect(() => parseEmbbHypothesis(b)).toThrow(/name at \+0 of the names block is not NUL-terminated.*\/sections\/0\/names/);
  });

  it('20,000 names starting at distinct offsets of one 60,000-byte name share its text (no quadratic copy)', { timeout: 10_000 }, () => {
    const b = crafted(60000, 20000, (i) => i, true);
    // the offsets table is followed by 20,000 {u32 size = 0}: the resources fit exactly
    const r = parseEmbbHypothesis(b);
    expect(r.sections[0]!.resources.length).toBe(20000);
    expect(r.sections[0]!.resources[19999]!.name.length).toBe(60000 - 1 - 19999);
  });
});
