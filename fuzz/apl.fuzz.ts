/**
 * Archive path index (`archivepatchloosefiles`) campaign: `npm run fuzz -- apl`. Seeds: the two real indexes.
 * Per case: parse and validate; an index that parses must write back byte for byte.
 */
import { firstDifference } from '../src/binary/hexdump.ts';
import { parseArchivePathIndex, validateArchivePathIndex, writeArchivePathIndex } from '../src/formats/apl/apl.ts';
import { loadFixture } from '../test/support/fixtures.ts';
import { Finding, formatCampaign, typed, type FuzzTarget } from './harness.ts';

export const target: FuzzTarget = {
  id: 'apl',
  seeds: () => [loadFixture('archivepatchloosefiles', 'Patch_13_LC.archivepatchloosefiles.txt'), loadFixture('archivepatchloosefiles', 'Eltariel_BlackNumT2_Wraith_UHD.archivepatchloosefiles.txt')],
  open: (b) => parseArchivePathIndex(b),
  check: (b) =>
    typed(() => {
      const m = parseArchivePathIndex(b);
      validateArchivePathIndex(m);
      const at = firstDifference(writeArchivePathIndex(m), b);
      if (at >= 0) throw new Finding(`write(parse(x)) differs at 0x${at.toString(16)}`);
    }),
};

export const fuzz = formatCampaign(import.meta.url, target);
