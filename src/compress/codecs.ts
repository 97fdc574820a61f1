/**
 * One decoder interface for every chunk an archive can hold: raw chunks (stored size = raw size), Oodle LZB16
 * (scry's own decoder) and the ooz family (Kraken & co.) through the optional npm package `ooz-wasm`.
 *
 * Licence boundary: scry is MIT. `ooz-wasm` is GPL-3.0-or-later; scry never bundles or requires it. It is
 * imported dynamically, only when a Kraken-family chunk is met, through an injectable loader (browsers and tests
 * pass their own). When it is absent the error names the package.
 */
import { CodecError, ErrorCode, FormatError, UnsupportedError } from '../binary/errors.ts';
import { decodeLzb16, decodeLzb16Into } from './lzb16.ts';
import { oodleCodecName, readOodleBlockHeader } from './oodle.ts';

/** The part of `ooz-wasm`'s API scry uses. */
export interface OozModule {
  decompress(data: Uint8Array, rawSize: number): Uint8Array;
}

/** Loads the ooz module (default: `import('ooz-wasm')`). */
export type OozLoader = () => Promise<OozModule>;

/** The npm package scry loads for Kraken-family chunks. */
export const OOZ_PACKAGE = 'ooz-wasm';

/** Imports `ooz-wasm` by a computed specifier, so bundlers never pull the GPL package into a build. */
export const defaultOozLoader: OozLoader = async () => {
  const specifier = OOZ_PACKAGE;
  try {
    return (await import(/* @vite-ignore */ specifier)) as OozModule;
  } catch (e) {
    throw new CodecError(
      `Kraken-family Oodle chunks need the optional npm package '${OOZ_PACKAGE}' (GPL-3.0, not bundled with scry): install it with \`npm i ${OOZ_PACKAGE}\``,
      { cause: e },
    );
  }
};

/**
 * The largest raw size of one Kraken-family chunk scry hands to ooz (256 KiB: an Oodle block; Firebird's arch06
 * chunks hold 64 KiB). ooz allocates the declared raw size in its WebAssembly heap before decoding anything, and
 * a damaged chunk decoded into a heap grown that far was seen touching 186 MiB (fuzz seed 21, case 4130).
 */
export const OOZ_MAX_CHUNK_RAW_SIZE = 0x40000;

export interface ChunkDecoderOptions {
  /** How to load `ooz-wasm` (inject for browsers/tests; default dynamic import). */
  oozLoader?: OozLoader;
  /** Largest raw size of one Kraken-family chunk (default `OOZ_MAX_CHUNK_RAW_SIZE`). */
  maxOozChunkRawSize?: number;
  /** LZB16: refuse branches that rest on open hypotheses (default true). */
  strictLzb16?: boolean;
}

/** What a chunk holds, as reported by `ls` and `verify`. */
export type ChunkKind = 'raw' | 'LZB16' | 'Kraken' | string;

/**
 * Decodes archive chunks. Holds the loaded ooz module once a Kraken chunk was met; otherwise stateless.
 * Output is always exactly `rawSize` bytes or a typed error (never more: sizes come from the table).
 */
export class ChunkDecoder {
  private readonly loader: OozLoader;
  private readonly strict: boolean;
  private readonly maxOozRaw: number;
  private ooz: OozModule | undefined;
  private oozPromise: Promise<OozModule> | undefined;

  constructor(options: ChunkDecoderOptions = {}) {
    this.loader = options.oozLoader ?? defaultOozLoader;
    this.strict = options.strictLzb16 ?? true;
    this.maxOozRaw = options.maxOozChunkRawSize ?? OOZ_MAX_CHUNK_RAW_SIZE;
  }

  /** The codec of a chunk without decoding it. */
  static kindOf(payload: Uint8Array, rawSize: number): ChunkKind {
    if (payload.length === rawSize) return 'raw';
    if (payload.length < 2 || (payload[0]! & 0x3f) !== 0x0c) return 'unknown';
    return oodleCodecName(payload[1]! & 0x7f);
  }

  /** Whether a Kraken-family chunk can be decoded synchronously now (ooz already loaded). */
  get oozLoaded(): boolean {
    return this.ooz !== undefined;
  }

  /** Loads ooz ahead of time (e.g. before a synchronous batch). */
  async loadOoz(): Promise<OozModule> {
    if (this.ooz) return this.ooz;
    this.oozPromise ??= this.loader().then((m) => {
      if (!m || typeof m.decompress !== 'function') throw new CodecError(`the module loaded for '${OOZ_PACKAGE}' has no decompress function`);
      this.ooz = m;
      return m;
    });
    try {
      return await this.oozPromise;
    } catch (e) {
      this.oozPromise = undefined;
      throw e;
    }
  }

  /** Decodes one chunk payload; `offset` is its file offset (errors name it). */
  async decode(payload: Uint8Array, rawSize: number, offset = 0, format = 'arch06'): Promise<Uint8Array> {
    if (payload.length !== rawSize && !this.ooz && payload.length >= 2 && (payload[1]! & 0x7f) !== 0x02) await this.loadOoz();
    return this.decodeSync(payload, rawSize, offset, format);
  }

  /**
   * Decodes synchronously into `out[at, at + rawSize)` (LZB16 and raw chunks without an intermediate copy);
   * Kraken-family chunks need `loadOoz()` first.
   */
  decodeSyncInto(payload: Uint8Array, out: Uint8Array, at: number, rawSize: number, offset = 0, format = 'arch06'): void {
    if (payload.length !== rawSize && readOodleBlockHeader(payload, offset, format).codec?.backend === 'lzb16') {
      decodeLzb16Into(payload, out, at, rawSize, { strict: this.strict, offset, format });
      return;
    }
    out.set(this.decodeSync(payload, rawSize, offset, format), at);
  }

  /** Decodes synchronously; Kraken-family chunks need `loadOoz()` first. */
  decodeSync(payload: Uint8Array, rawSize: number, offset = 0, format = 'arch06'): Uint8Array {
    if (payload.length === rawSize) return payload;
    const header = readOodleBlockHeader(payload, offset, format);
    const backend = header.codec?.backend ?? 'none';
    if (backend === 'lzb16') return decodeLzb16(payload, rawSize, { strict: this.strict, offset, format });
    if (backend === 'ooz') {
      if (!this.ooz) throw new CodecError(`${header.codec!.name} chunk at 0x${offset.toString(16)}: call loadOoz() first (the '${OOZ_PACKAGE}' package decodes it)`);
      if (rawSize > this.maxOozRaw) throw new FormatError(format, offset, '/chunk/rawSize', `${header.codec!.name} chunk declares ${rawSize} raw bytes; one chunk holds at most ${this.maxOozRaw}: the chunk header is damaged`, { actual: rawSize, expected: this.maxOozRaw }, ErrorCode.Codec);
      let out: Uint8Array;
      try {
        out = this.ooz.decompress(payload, rawSize);
      } catch (e) {
        throw new FormatError(format, offset, '/chunk', `${header.codec!.name} chunk does not decode (${(e as Error).message}): the chunk is damaged; re-extract the file from the original archive`, { cause: e }, ErrorCode.Codec);
      }
      if (out.length !== rawSize) throw new FormatError(format, offset, '/chunk/rawSize', `${header.codec!.name} chunk decoded to ${out.length} bytes, ${rawSize} declared: the chunk or its header is damaged`, { actual: out.length, expected: rawSize }, ErrorCode.Codec);
      return out;
    }
    throw new UnsupportedError(format, offset + 1, '/chunk/codec', `oodle codec 0x${header.streamId.toString(16)}`, `Oodle ${oodleCodecName(header.streamId)} chunks are not supported`);
  }
}
