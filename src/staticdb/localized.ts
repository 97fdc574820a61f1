/**
 * `dblocalization::LocalizedText` strings may start with a binary parameter header (spec sd2.md §14, read in FauFau
 * rev 1dfee04, never seen in a real file here): a byte count n (1…31), then n/3 parameters of {u8 index,
 * big-endian u16 offset into the text after the header}; the parameter goes in at that offset, rendered as
 * `{index}`. Offsets count UTF-8 bytes (some Korean strings of build 1962 are said to count characters; not
 * handled). A string whose first byte is 0 or ≥ 32 has no header. Hypothesis `sd2.localized-text-header`.
 */
import { utf8Decode } from '../binary/text.ts';

export interface Sd2LocalizedParameter {
  index: number;
  /** Byte offset in the text after the header. */
  offset: number;
}

export interface Sd2LocalizedText {
  /** The text with `{index}` inserted at each parameter offset. */
  rendered: string;
  /** The text without the header and without parameters. */
  text: string;
  parameters: Sd2LocalizedParameter[];
}


/**
 * Renders a localized string from its plain pool entry bytes (with or without the terminating NUL). Returns
 * undefined when the bytes have no header or the header does not fit the text (then show the string as it is).
 */
export function renderSd2LocalizedText(entry: Uint8Array): Sd2LocalizedText | undefined {
  let bytes = entry;
  if (bytes.length > 0 && bytes[bytes.length - 1] === 0) bytes = bytes.subarray(0, bytes.length - 1);
  const n = bytes[0];
  if (n === undefined || n === 0 || n >= 32 || n % 3 !== 0 || 1 + n > bytes.length) return undefined;
  const body = bytes.subarray(1 + n);
  const parameters: Sd2LocalizedParameter[] = [];
  for (let p = 1; p < 1 + n; p += 3) {
    const offset = (bytes[p + 1]! << 8) | bytes[p + 2]!;
    if (offset > body.length) return undefined;
    parameters.push({ index: bytes[p]!, offset });
  }
  const sorted = [...parameters].sort((a, b) => a.offset - b.offset);
  let rendered = '';
  let at = 0;
  for (const prm of sorted) {
    rendered += utf8Decode(body.subarray(at, prm.offset)) + `{${prm.index}}`;
    at = prm.offset;
  }
  rendered += utf8Decode(body.subarray(at));
  return { rendered, text: utf8Decode(body), parameters };
}
