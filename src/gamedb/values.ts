/**
 * Decoding of the values a cell points at: texts, 64-bit integers, float pairs, vectors and curves stored once in
 * the string block (spec §3.3, §3.7). How each type decodes is taken from the codec's type table
 * (`GADB_TYPE_CODES[…].decoding`); nothing here switches on type codes.
 *
 * Every read is bounds-checked against the block: a key that does not point at a whole value raises a
 * `FormatError` naming the key, never a RangeError.
 */
import { FormatError } from '../binary/errors.ts';
import type { GadbDecoding } from '../formats/gadb/type-codes.ts';

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

/** Read access to the string block's bytes, shared by every decoder. */
export class BlockReader {
  readonly data: Uint8Array;
  readonly #view: DataView;
  readonly #texts = new Map<number, string>();
  #slots: Int32Array | undefined;
  readonly #list: string[] = [];
  readonly #decoder = new TextDecoder('utf-8');

  constructor(data: Uint8Array) {
    this.data = data;
    this.#view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  }

  #need(key: number, size: number, what: string): void {
    if (!Number.isInteger(key) || key < 0 || key + size > this.data.length) {
      throw new FormatError('gadb', key, `/strings[${key}]`, `${what} of ${size} byte(s) at string-block key 0x${key.toString(16)} runs past the block (${this.data.length} bytes)`);
    }
  }

  /** End (exclusive) of the NUL-terminated text at `key`. */
  textEnd(key: number): number {
    this.#need(key, 0, 'text');
    const end = this.data.indexOf(0, key);
    if (end < 0) throw new FormatError('gadb', key, `/strings[${key}]`, `text at string-block key 0x${key.toString(16)} has no NUL terminator`);
    return end;
  }

  /** The raw bytes of the text at `key` (a view, without the NUL). */
  textBytes(key: number): Uint8Array {
    return this.data.subarray(key, this.textEnd(key));
  }

  /**
   * The text at `key`, decoded as UTF-8 and cached: names and values repeat (one "" serves 214,768 cells of the
   * game-scale file). Items start at multiples of 4, so the cache is a typed slot per 4 bytes of block into a dense
   * list; an unaligned key (a broken file) goes through a map.
   */
  text(key: number): string {
    if ((key & 3) === 0 && key < this.data.length) {
      this.#slots ??= new Int32Array((this.data.length + 3) >>> 2);
      const slot = this.#slots[key >>> 2]!;
      if (slot > 0) return this.#list[slot - 1]!;
      const s = this.#decode(this.textBytes(key));
      this.#list.push(s);
      this.#slots[key >>> 2] = this.#list.length;
      return s;
    }
    let s = this.#texts.get(key);
    if (s === undefined) {
      s = this.#decode(this.textBytes(key));
      this.#texts.set(key, s);
    }
    return s;
  }

  /** UTF-8 decoding, with a fast path for the short ASCII texts that make up nearly every name and value. */
  #decode(bytes: Uint8Array): string {
    if (bytes.length <= 64) {
      let ascii = true;
      for (let i = 0; i < bytes.length; i++) if (bytes[i]! >= 0x80) ascii = false;
      if (ascii) return String.fromCharCode.apply(null, bytes as unknown as number[]);
    }
    return this.#decoder.decode(bytes);
  }

  u32(key: number): number {
    this.#need(key, 4, 'u32');
    return this.#view.getUint32(key, true);
  }

  f32(key: number): number {
    this.#need(key, 4, 'f32');
    return this.#view.getFloat32(key, true);
  }

  i64(key: number): bigint {
    this.#need(key, 8, 'i64');
    return this.#view.getBigInt64(key, true);
  }

  /** `count` f32 values from `key`. */
  floats(key: number, count: number): number[] {
    this.#need(key, count * 4, `${count} f32`);
    const out = new Array<number>(count);
    for (let i = 0; i < count; i++) out[i] = this.#view.getFloat32(key + i * 4, true);
    return out;
  }

  /** A curve at `key`: u32 key count n, then n keys of `keySize` bytes, each an f32 time then the value. */
  curve(key: number, decoding: Extract<GadbDecoding, { kind: 'curve' }>): CurveKey[] {
    const n = this.u32(key);
    // A corrupt count cannot make us allocate: the keys must fit in the block.
    this.#need(key + 4, n * decoding.keySize, `curve of ${n} key(s)`);
    const out: CurveKey[] = new Array<CurveKey>(n);
    const v = this.#view;
    for (let i = 0; i < n; i++) {
      const at = key + 4 + i * decoding.keySize;
      const time = v.getFloat32(at, true);
      let value: CurveKey['value'];
      switch (decoding.value) {
        case 'u32':
          value = v.getUint32(at + 4, true);
          break;
        case 'f32':
          value = v.getFloat32(at + 4, true);
          break;
        case 'i32':
          value = v.getInt32(at + 4, true);
          break;
        case 'vec3':
          value = [v.getFloat32(at + 4, true), v.getFloat32(at + 8, true), v.getFloat32(at + 12, true)];
          break;
        case 'raw8':
          value = [v.getUint32(at + 4, true), v.getUint32(at + 8, true)];
          break;
      }
      out[i] = { time, value };
    }
    return out;
  }
}
