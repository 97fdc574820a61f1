/**
 * `.arch06` campaign: `npm run fuzz -- arch06`. Seeds: the heads (header and tables) of two real archives and a
 * packed archive with stored, raw-chunk and LZB16 entries. Per case: open, validate the tables against the file
 * size, read every entry (each must decode to exactly its declared size or be refused with a typed error), verify
 * the archive, and rewrite the index: an index with no validation error must rewrite to the input's head byte for
 * byte. Kraken entries meet the real decoder (`ooz-wasm`).
 */
import { firstDifference } from '../src/binary/hexdump.ts';
import { ToolkitError } from '../src/binary/errors.ts';
import { ChunkDecoder } from '../src/compress/codecs.ts';
import { Arch06Archive, packArch06, validateArch06Index, writeArch06Index } from '../src/formats/arch06/index.ts';
import { loadFixture } from '../test/support/fixtures.ts';
import { Finding, formatCampaign, typedAsync, type FuzzTarget } from './harness.ts';

const decoder = new ChunkDecoder();
const text = new TextEncoder().encode('worlds\\retail\\island\\sectionsandlayers\\fortwallgameplay.bndl\n'.repeat(40));
const bndl = loadFixture('bndl', 'fortwallgameplay_island.bndl');

export const target: FuzzTarget = {
  id: 'arch06',
  seeds: () => [
    loadFixture('arch06', 'Patch_13_LC.arch06.head2700.bin'),
    loadFixture('arch06', 'Patch_00.arch06.head1080.bin'),
    packArch06([{ path: 'a/stored.txt', data: text }, { path: 'b/small.bndl', data: bndl }], { storage: 'lzb16' }).bytes,
    packArch06([{ path: 'c/raw.bin', data: text.subarray(0, 700) }, { path: 'c/d/e.txt', data: new Uint8Array(0) }], { storage: 'raw-chunks' }).bytes,
  ],
  setup: async () => void (await decoder.loadOoz()),
  open: (b) => Arch06Archive.fromBytes(b, { decoder }),
  check: (b) =>
    typedAsync(async () => {
      const a = await Arch06Archive.fromBytes(b, { decoder });
      const errors = validateArch06Index(a.index, b.length).filter((i) => i.severity === 'error');
      for (const f of a.files) {
        try {
          const out = await a.read(f);
          if (out.length !== f.rawSize) throw new Finding(`entry ${f.name} read as ${out.length} bytes, ${f.rawSize} declared`);
        } catch (e) {
          if (!(e instanceof ToolkitError)) throw e;
        }
      }
      await a.verify();
      if (errors.length === 0) {
        const head = writeArch06Index(a.index);
        const at = firstDifference(head, b.subarray(0, head.length));
        if (at >= 0) throw new Finding(`an index with no validation error rewrites differently at 0x${at.toString(16)}`);
      }
    }),
};

export const fuzz = formatCampaign(import.meta.url, target);
