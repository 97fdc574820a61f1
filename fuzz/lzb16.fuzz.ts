/**
 * LZB16 campaign: `npm run fuzz -- lzb16`. Seeds: the four real LZB16 chunks, alone (behind their raw size) and
 * as archive entries (chunk headers included). Per case: scry's decoder, strict and lax, directly and through
 * the entry's chunk stream; the output must be exactly the declared size (or a typed refusal), and the WebAssembly
 * and JavaScript decoders must give the same bytes or the same error.
 */
import { CodecError } from '../src/binary/errors.ts';
import { decodeLzb16 } from '../src/compress/lzb16.ts';
import { ChunkDecoder } from '../src/compress/codecs.ts';
import { decodeArch06Chunks } from '../src/formats/arch06/chunks.ts';
import { LZB16_SEEDS, splitCodecInput } from './codec-seeds.ts';
import { Finding, formatCampaign, typed, typedAsync, type FuzzTarget } from './harness.ts';

/**
 * Decodes with both decoders (WebAssembly where it takes the chunk, JavaScript alone) and holds them to the same
 * answer: the same bytes, or the same error. Returns the bytes or throws the error.
 */
function bothEngines(bytes: Uint8Array, rawSize: number, strict: boolean): Uint8Array {
  const attempt = (engine: 'auto' | 'js'): Uint8Array | Error => {
    try {
      return decodeLzb16(bytes, rawSize, { strict, engine });
    } catch (e) {
      return e as Error;
    }
  };
  const auto = attempt('auto');
  const js = attempt('js');
  if (auto instanceof Error || js instanceof Error) {
    if (!(auto instanceof Error) || !(js instanceof Error) || auto.message !== js.message) throw new Finding(`the decoders disagree: ${auto instanceof Error ? auto.message : 'bytes'} / ${js instanceof Error ? js.message : 'bytes'}`);
    throw js;
  }
  if (Buffer.compare(auto, js) !== 0) throw new Finding('the WebAssembly and JavaScript decoders gave different bytes');
  return js;
}

// A Kraken chunk met here is refused the way a missing ooz-wasm is: a typed CodecError.
const decoder = new ChunkDecoder({ oozLoader: async () => { throw new CodecError('no Kraken decoder in the LZB16 campaign'); } });

export const target: FuzzTarget = {
  id: 'lzb16',
  seeds: () => LZB16_SEEDS,
  open: (b) => decodeLzb16(splitCodecInput(b).bytes, splitCodecInput(b).rawSize),
  check: async (b) => {
    const { route, rawSize, bytes } = splitCodecInput(b);
    if (route % 2 === 0) {
      const strict = typed(() => {
        const out = bothEngines(bytes, rawSize, true);
        if (out.length !== rawSize) throw new Finding(`strict decode gave ${out.length} bytes, ${rawSize} declared`);
      });
      const lax = typed(() => {
        const out = bothEngines(bytes, rawSize, false);
        if (out.length !== rawSize) throw new Finding(`lax decode gave ${out.length} bytes, ${rawSize} declared`);
      });
      return strict === 'accepted' || lax === 'accepted' ? 'accepted' : 'rejected';
    }
    return typedAsync(async () => {
      const out = await decodeArch06Chunks(bytes, rawSize, decoder);
      if (out.length !== rawSize) throw new Finding(`chunk stream decoded to ${out.length} bytes, ${rawSize} declared`);
    });
  },
};

export const fuzz = formatCampaign(import.meta.url, target);
