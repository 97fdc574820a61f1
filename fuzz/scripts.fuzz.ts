/**
 * `.scripts` campaign (SCRI entries as archives hold them, source text or cut short): `npm run fuzz -- scripts`.
 * Seeds: the first 64 KiB of a real `.scripts` entry (Lua source, cut) and the SCRI fixtures. Per case: the
 * archive listing's `describeScripts`, then `openHksFile` with truncation allowed (the workbench's path).
 */
import { describeScripts } from '../src/formats/scripts/scripts.ts';
import { openHksFile } from '../src/formats/hks/index.ts';
import { loadFixture } from '../test/support/fixtures.ts';
import { hksSeeds } from './hks.fuzz.ts';
import { formatCampaign, typed, type FuzzTarget } from './harness.ts';

export const target: FuzzTarget = {
  id: 'scripts',
  seeds: () => [loadFixture('scripts', 'island_fortassault_fagameplay.scripts.first65536.bin').subarray(0, 4096).slice(), ...hksSeeds(4096).filter((b) => b[0] === 0x53)],
  open: (b) => describeScripts(b),
  check: (b) =>
    typed(() => {
      describeScripts(b);
      openHksFile(b, { allowTruncated: true });
    }),
};

export const fuzz = formatCampaign(import.meta.url, target);
