/**
 * Decoding of the values a cell points at: texts, 64-bit integers, float pairs, vectors and curves stored once in
 * the string block (spec §3.3, §3.7). How each type decodes is taken from the codec's type table
 * (`GADB_TYPE_CODES[…].decoding`); nothing here switches on type codes.
 *
 * Every read is bounds-checked against the value's item: a key that does not point at a whole value raises a
 * `FormatError` naming the key, never a RangeError.
 */
import { latin1Decode, latin1DecodeRange } from '../binary/text.ts';
import { decodeGadbCurveItem, decodeGadbFloats, decodeGadbInt64, decodeGadbTextBytes } from '../formats/gadb/decode.ts';
import type { GadbDecoding } from '../formats/gadb/type-codes.ts';
import type { GadbStringBlock } from '../formats/gadb/types.ts';
import { GadbItemIndex } from '../formats/gadb/layout.ts';

/** A StringEnum value: the text the file stores and its P919, which is what the engine's cell holds after loading. */
export interface EnumValue {
  readonly text: string;
  /** P919 of the text (the loader's StringHash); `undefined` when the text has a character of unknown P919 value. */
  readonly hash: number | undefined;
}

/** One key of a curve: a time and a value whose shape depends on the curve type. */
export interface CurveKey {
  readonly time: number;
  /**
   * ColorCurve: the raw u32 colour (byte order unknown, H-COLOR-ORDER); FloatCurve: f32; IntCurve: s32;
   * Vector3Curve: [x, y, z]; type 14: the two raw u32 words of its 8-byte value (kind unknown, H-TYPE-14).
   */
  readonly value: number | readonly [number, number, number] | readonly [number, number];
}

/**
 * Read access to the string block for the read API: the codec's decoders (one per value kind, bounded by the
 * value's own item, `formats/gadb/decode.ts`), with texts cached.
 */
export class BlockReader {
  readonly strings: GadbStringBlock;
  readonly #texts = new Map<number, string>();
  #items: GadbItemIndex | undefined;
  /** Per item: its decoded text, once asked for. */
  #cache: Array<string | undefined> | undefined;
  #view: DataView | undefined;

  constructor(strings: GadbStringBlock) {
    this.strings = strings;
  }

  /** The raw bytes of the text item at `key` (a view, without the NUL). */
  textBytes(key: number): Uint8Array {
    return decodeGadbTextBytes(this.strings, key);
  }

  /**
   * The text at `key` (Latin-1, as the codec reads it), cached per item: names and values repeat (one "" serves
   * 214,768 cells of the game-scale file), and a text is decoded once. A key where no item starts (a broken file)
   * goes through a map (and the decoder's error).
   */
  text(key: number): string {
    const i = this.items.of(key);
    if (i >= 0) {
      const cache = this.textTable;
      let s = cache[i];
      if (s === undefined) {
        // The text ends at the first NUL inside the item (else `textBytes` throws the decoder's error).
        const { data, itemSizes } = this.strings;
        const end = data.indexOf(0, key);
        s = end >= 0 && end < key + itemSizes[i]! ? latin1DecodeRange(data, key, end) : latin1Decode(this.textBytes(key));
        cache[i] = s;
      }
      return s;
    }
    let s = this.#texts.get(key);
    if (s === undefined) {
      s = latin1Decode(this.textBytes(key));
      this.#texts.set(key, s);
    }
    return s;
  }

  /** @internal The key → item index of the block (built on first use). */
  get items(): GadbItemIndex {
    return (this.#items ??= new GadbItemIndex(this.strings.itemKeys, this.strings.data.byteLength));
  }

  /**
   * @internal Per item (`items.of(key)`): its text once `text` decoded it, else `undefined` (a hot reader looks a
   * text up here first, then asks `text`).
   */
  get textTable(): Array<string | undefined> {
    // Filled, not `new Array(n)` alone: V8 keeps a large array made with a length only as a hash table.
    return (this.#cache ??= new Array<string | undefined>(this.strings.itemKeys.length).fill(undefined));
  }

  i64(key: number): bigint {
    return decodeGadbInt64(this.strings, key);
  }

  /** `count` f32 values of the item at `key`. */
  floats(key: number, count: number): number[] {
    const i = this.items.of(key);
    if (i < 0 || this.strings.itemSizes[i]! < count * 4) return decodeGadbFloats(this.strings, key, count); // (its error)
    // An item that holds them: read in place (no view per value).
    const dv = (this.#view ??= new DataView(this.strings.data.buffer, this.strings.data.byteOffset, this.strings.data.byteLength));
    const out: number[] = new Array<number>(count);
    for (let k = 0; k < count; k++) out[k] = dv.getFloat32(key + k * 4, true);
    return out;
  }

  /** The curve item at `key`: u32 key count n, then n keys of `keySize` bytes, each an f32 time then the value. */
  curve(key: number, decoding: Extract<GadbDecoding, { kind: 'curve' }>): CurveKey[] {
    return decodeGadbCurveItem(this.strings, key, decoding).map(([time, ...value]) => ({ time: time!, value: value.length === 1 ? value[0]! : (value as [number, number, number] | [number, number]) }));
  }
}
