/**
 * `.bndl` campaign: `npm run fuzz -- bndl`. Seeds: the four real manifests. Per case: parse and validate; a
 * manifest that parses must write back byte for byte.
 */
import { firstDifference } from '../src/binary/hexdump.ts';
import { parseBndl, validateBndl, writeBndl } from '../src/formats/bndl/bndl.ts';
import { loadFixture } from '../test/support/fixtures.ts';
import { Finding, formatCampaign, typed, type FuzzTarget } from './harness.ts';

export const target: FuzzTarget = {
  id: 'bndl',
  seeds: () => ['island', 'mtnpass', 'snowmtn', 'volcano'].map((r) => loadFixture('bndl', `fortwallgameplay_${r}.bndl`)),
  open: (b) => parseBndl(b),
  check: (b) =>
    typed(() => {
      const m = parseBndl(b);
      validateBndl(m);
      const at = firstDifference(writeBndl(m), b);
      if (at >= 0) throw new Finding(`write(parse(x)) differs at 0x${at.toString(16)}`);
    }),
};

export const fuzz = formatCampaign(import.meta.url, target);
