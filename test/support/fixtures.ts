/** Loads committed fixtures from test/fixtures (never from the research folder beside the repo). */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

export const fixturesDir = fileURLToPath(new URL('../fixtures/', import.meta.url));

export function fixturePath(...parts: string[]): string {
  return join(fixturesDir, ...parts);
}

export function loadFixture(...parts: string[]): Uint8Array {
  const b = readFileSync(fixturePath(...parts));
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}

export function loadJsonFixture<T = unknown>(...parts: string[]): T {
  return JSON.parse(readFileSync(fixturePath(...parts), 'utf8')) as T;
}

/** `hex\`de ad be ef\``: bytes from a hex literal (whitespace and `|` separators ignored). */
export function hex(strings: TemplateStringsArray, ...values: unknown[]): Uint8Array {
  const text = strings.reduce((acc, s, i) => acc + s + (i < values.length ? String(values[i]) : ''), '');
  const clean = text.replace(/[\s|]/g, '');
  if (clean.length % 2 !== 0 || /[^0-9a-fA-F]/.test(clean)) throw new Error(`bad hex literal: ${text}`);
  const out = new Uint8Array(clean.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(clean.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/** The seed printed by property tests: SCRY_SEED from the environment, else a fresh one. */
export function propertySeed(): number {
  const env = process.env['SCRY_SEED'];
  const seed = env !== undefined ? Number(env) : (Date.now() ^ (Math.random() * 0x7fffffff)) | 0;
  console.log(`fast-check seed: ${seed} (rerun with SCRY_SEED=${seed})`);
  return seed;
}
