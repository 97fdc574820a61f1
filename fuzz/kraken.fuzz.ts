/**
 * Kraken campaign with the real decoder (`ooz-wasm`, a devDependency): `npm run fuzz -- kraken`. Seeds: the two
 * real Kraken chunks behind their raw size, and one as an archive entry (chunk headers). Per case: the chunk
 * decoder or the entry's chunk stream; the output must be exactly the declared size, and a refusal must be a
 * `FormatError` naming the offset and field, like every other bad input.
 */
import { FormatError, ToolkitError } from '../src/binary/errors.ts';
import { ChunkDecoder } from '../src/compress/codecs.ts';
import { decodeArch06Chunks } from '../src/formats/arch06/chunks.ts';
import { KRAKEN_SEEDS, splitCodecInput } from './codec-seeds.ts';
import { Finding, formatCampaign, type FuzzTarget, type Outcome } from './harness.ts';

const decoder = new ChunkDecoder();

async function decode(b: Uint8Array): Promise<void> {
  const { route, rawSize, bytes } = splitCodecInput(b);
  const out = route % 2 === 0 ? await decoder.decode(bytes, rawSize) : await decodeArch06Chunks(bytes, rawSize, decoder);
  if (out.length !== rawSize) throw new Finding(`decoded ${out.length} bytes, ${rawSize} declared`);
}

export const target: FuzzTarget = {
  id: 'kraken',
  seeds: () => KRAKEN_SEEDS,
  setup: async () => void (await decoder.loadOoz()),
  open: (b) => decode(b),
  check: async (b): Promise<Outcome> => {
    try {
      await decode(b);
      return 'accepted';
    } catch (e) {
      if (e instanceof FormatError) return 'rejected';
      if (e instanceof ToolkitError) throw new Finding(`refused without an offset or field path: ${e.name}: ${e.message}`);
      throw e;
    }
  },
};

export const fuzz = formatCampaign(import.meta.url, target);
