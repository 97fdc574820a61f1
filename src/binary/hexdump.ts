/** Hex dump helpers used by diagnostics (first-difference reports in tests, verify output). */

/** Canonical `offset  hex  |ascii|` lines for `[start, start + length)`. */
export function hexdump(bytes: Uint8Array, start = 0, length = bytes.byteLength - start): string {
  const end = Math.min(bytes.byteLength, start + length);
  const lines: string[] = [];
  for (let row = start - (start % 16); row < end; row += 16) {
    let hex = '';
    let text = '';
    for (let i = row; i < row + 16; i++) {
      if (i < start || i >= end) {
        hex += '   ';
        text += ' ';
        continue;
      }
      const b = bytes[i]!;
      hex += b.toString(16).padStart(2, '0') + ' ';
      text += b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.';
    }
    lines.push(`${row.toString(16).padStart(8, '0')}  ${hex} |${text}|`);
  }
  return lines.join('\n');
}

/** Offset of the first byte where `a` and `b` differ, or -1 when they are equal. */
export function firstDifference(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.byteLength, b.byteLength);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return a.byteLength === b.byteLength ? -1 : n;
}

/** A short report of where two buffers differ, with a hex window of each; empty when equal. */
export function describeDifference(actual: Uint8Array, expected: Uint8Array, window = 32): string {
  const at = firstDifference(actual, expected);
  if (at < 0) return '';
  const from = Math.max(0, at - (at % 16) - 16);
  return [
    `first difference at 0x${at.toString(16)} (actual ${actual.byteLength} bytes, expected ${expected.byteLength})`,
    'actual:',
    hexdump(actual, from, window + 16),
    'expected:',
    hexdump(expected, from, window + 16),
  ].join('\n');
}
