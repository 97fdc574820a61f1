/** Growing typed arrays: the one doubling rule of the format layer's tables. */

/** The typed arrays `grow` takes (their own buffers). */
export type GrowableArray = Int32Array<ArrayBuffer> | Uint32Array<ArrayBuffer> | Uint16Array<ArrayBuffer> | Uint8Array<ArrayBuffer>;

/** A copy of `a` with room for at least `need` elements (twice its length, or more), its elements first. */
export function grow<T extends GrowableArray>(a: T, need: number): T {
  const b = new (a.constructor as new (length: number) => T)(Math.max(need, a.length * 2));
  b.set(a);
  return b;
}
