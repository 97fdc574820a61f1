/** Shared pieces of the mutation-fuzz campaigns: a seeded PRNG, a byte mutator, and saving a finding's input. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

/** xorshift32: a deterministic stream of unsigned 32-bit numbers from the seed. */
export function xorshift32(seed: number): () => number {
  let s = seed >>> 0 || 0x9e3779b9;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s;
  };
}

/**
 * One to four mutations of a copy of `input`: a random byte, a bit flip, a u32 overwrite (random, small, or
 * 0xFFFFFFFF: the values that break counts and offsets), a truncation, or a splice of up to 32 bytes copied from
 * elsewhere in the input. Inputs shorter than 8 bytes are left alone.
 */
export function mutateBytes(input: Uint8Array, next: () => number): Uint8Array {
  let b = input.slice();
  const n = 1 + (next() % 4);
  for (let i = 0; i < n && b.length >= 8; i++) {
    const at = next() % b.length;
    switch (next() % 6) {
      case 0:
        b[at] = next() & 0xff;
        break;
      case 1:
        b[at] = b[at]! ^ (1 << (next() % 8));
        break;
      case 2:
      case 3: {
        const p = Math.min(at, b.length - 4);
        const choice = next() % 3;
        const v = choice === 0 ? next() : choice === 1 ? next() % 64 : 0xffffffff;
        new DataView(b.buffer, b.byteOffset).setUint32(p, v >>> 0, true);
        break;
      }
      case 4:
        b = b.slice(0, at);
        break;
      default: {
        const from = next() % b.length;
        const len = Math.min(1 + (next() % 32), b.length - Math.max(at, from));
        b.copyWithin(at, from, from + len);
      }
    }
  }
  return b;
}

/** Saves a finding's input under `fuzz/crashers/` and returns the path. */
export function saveCrasher(name: string, input: Uint8Array): string {
  const dir = fileURLToPath(new URL('crashers/', import.meta.url));
  mkdirSync(dir, { recursive: true });
  const file = join(dir, name);
  writeFileSync(file, input);
  return file;
}
