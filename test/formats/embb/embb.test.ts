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
