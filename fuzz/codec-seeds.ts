/** Inputs of the codec campaigns: a real chunk payload behind its declared raw size, so mutations reach the size. */
import { loadFixture } from '../test/support/fixtures.ts';

/** `u8 route | u32 rawSize | bytes`: route even = one chunk payload, odd = an entry's chunk stream (headers). */
export function codecInput(route: number, rawSize: number, bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(5 + bytes.length);
  out[0] = route;
  new DataView(out.buffer).setUint32(1, rawSize, true);
  out.set(bytes, 5);
  return out;
}

/** Splits a codec input back into its parts (short inputs read as zeros). */
export function splitCodecInput(b: Uint8Array): { route: number; rawSize: number; bytes: Uint8Array } {
  const head = new Uint8Array(5);
  head.set(b.subarray(0, 5));
  return { route: head[0]!, rawSize: new DataView(head.buffer).getUint32(1, true), bytes: b.subarray(5) };
}

export const KRAKEN_SEEDS = [
  codecInput(0, 3749, loadFixture('oodle', 'kraken.Patch_13_LC.archivepatchloosefiles.1243.bin')),
  codecInput(0, 65536, loadFixture('oodle', 'kraken.Patch_13_LC.fagameplay.scripts.chunk0.10982.bin')),
  codecInput(1, 3749, loadFixture('arch06', 'Patch_13_LC.archivepatchloosefiles.entry.bin')),
];

export const LZB16_SEEDS = [
  ...['island', 'mtnpass', 'snowmtn', 'volcano'].map((r) => codecInput(0, r === 'island' ? 740 : 760, loadFixture('oodle', `lzb16.Patch_00.fortwallgameplay_${r}.bndl.${r === 'island' || r === 'snowmtn' ? 247 : 248}.bin`))),
  ...['island', 'mtnpass', 'snowmtn', 'volcano'].map((r) => codecInput(1, r === 'island' ? 740 : 760, loadFixture('arch06', `Patch_00.fortwallgameplay_${r}.bndl.entry.bin`))),
];
