/** JSON.parse as the oracle of the byte reader, and the byte reader read whole: shared by its tests and its fuzz campaign. */
import { JsonReader } from '../../src/binary/json-reader.ts';

/** What `JSON.parse` makes of `text`: its value, or that it refuses it. */
export function parseJson(text: string): { valid: true; value: unknown } | { valid: false } {
  try {
    return { valid: true, value: JSON.parse(text) };
  } catch {
    return { valid: false };
  }
}

/** One value read by `JsonReader` (`smallValue` or `value`), then `finish` (nothing may follow it). */
export function readJsonWhole(input: Iterable<Uint8Array> | Uint8Array, small = false): unknown {
  const r = new JsonReader(input);
  const v = small ? r.smallValue() : r.value();
  r.finish();
  return v;
}
