/**
 * Long mutation-fuzz campaign for the HavokScript compiler (`npm run fuzz -- compile`). Inputs: every source of
 * hksc's test programs, our generated programs, the Lua 5.1 test suite and the real source head. Each run mutates
 * a source (bytes, inserted Lua / HavokScript tokens, deleted or duplicated spans, swapped lines, truncation) and
 * checks: compiling throws nothing but a CompileError and ends quickly; what compiles writes a chunk that reads back
 * identically and that the verifier finds nothing wrong with. Findings are saved under fuzz/crashers/.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { parseHksChunk, verifyHksChunk, writeHksChunk } from '../src/formats/hks/index.ts';
import { CompileError, compileLua, type StripLevel } from '../src/script/compile/index.ts';
import type { FuzzOptions } from './run.ts';
import { saveCrasher, xorshift32 } from './support.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const encoder = new TextEncoder();

/** Source files to mutate (`maxBytes` keeps the in-suite property test fast). */
export function sourceCorpus(maxBytes = Infinity): { name: string; bytes: Uint8Array }[] {
  const out: { name: string; bytes: Uint8Array }[] = [];
  for (const dir of ['test/fixtures/hks/hksc-tests', 'test/fixtures/hks/generated', 'test/fixtures/hks/hksc-errors', 'test/fixtures/lua51-tests', 'test/fixtures/scripts']) {
    for (const f of readdirSync(join(root, dir)).sort()) {
      if (!f.endsWith('.lua')) continue;
      const bytes = new Uint8Array(readFileSync(join(root, dir, f)));
      if (bytes.length <= maxBytes) out.push({ name: f, bytes });
    }
  }
  return out;
}

/** Tokens worth inserting: the ones that open or close constructs, HavokScript words, literals at the limits. */
const TOKENS = [
  'end', '(', ')', '{', '}', '[', ']', '[[', ']]', '[==[', '--[[', '--', '"', "'", 'local', 'function', 'return', 'break', 'hstructure', 'hmake',
  ':', '=', '==', '~=', ',', ';', '...', '..', '.', '0x1hi', '0x10hl', '0x1hl', '0xhi', '1e308', '1e-400', '0x', '3.', '.5', 'nil', 'not', 'and', 'or',
  'if', 'then', 'else', 'elseif', 'while', 'do', 'for', 'in', 'repeat', 'until', '#', '-', '^', '%', '\n', 'x', 'self', '\\', '\\300', '\0', '\xef\xbb\xbf',
  'meta', 'proxytable', 'object', 'number', 'string', 'ifunction', 'ui64', 'struct', 'S', 'hstructure S x : number end', 'local s:S = hmake S {}',
  'for i = 1, 2 do end', 'function f(...) return ... end', 'local a:number = 1', 'x = {1,2,3,[4]=5}',
].map((t) => encoder.encode(t));

function splice(b: Uint8Array, at: number, remove: number, insert: Uint8Array): Uint8Array {
  const out = new Uint8Array(b.length - remove + insert.length);
  out.set(b.subarray(0, at), 0);
  out.set(insert, at);
  out.set(b.subarray(at + remove), at + insert.length);
  return out;
}

/** One to four source mutations of a copy of `input`. */
export function mutateSource(input: Uint8Array, next: () => number): Uint8Array {
  let b: Uint8Array = input.slice();
  const n = 1 + (next() % 4);
  for (let i = 0; i < n; i++) {
    const at = b.length === 0 ? 0 : next() % (b.length + 1);
    switch (next() % 8) {
      case 0:
        if (at < b.length) b[at] = next() & 0xff;
        break;
      case 1:
        if (at < b.length) b[at] = b[at]! ^ (1 << (next() % 8));
        break;
      case 2:
      case 3: {
        const t = TOKENS[next() % TOKENS.length]!;
        const pad = next() % 2 === 0;
        b = splice(b, at, 0, pad ? Uint8Array.of(0x20, ...t, 0x20) : t);
        break;
      }
      case 4:
        b = splice(b, at, Math.min(b.length - at, 1 + (next() % 16)), new Uint8Array(0));
        break;
      case 5: {
        const from = b.length === 0 ? 0 : next() % b.length;
        b = splice(b, at, 0, b.slice(from, Math.min(b.length, from + 1 + (next() % 64))));
        break;
      }
      case 6:
        b = b.slice(0, at);
        break;
      default: {
        // swap two lines
        const lines = new TextDecoder('latin1').decode(b).split('\n');
        if (lines.length > 1) {
          const x = next() % lines.length;
          const y = next() % lines.length;
          [lines[x], lines[y]] = [lines[y]!, lines[x]!];
          b = Uint8Array.from(lines.join('\n'), (c) => c.charCodeAt(0));
        }
      }
    }
  }
  return b;
}

const STRIPS: StripLevel[] = ['none', 'profile', 'all'];

/**
 * Compiles one (mutated) source and checks the compiler's contract; returns whether it compiled. Throws (with a
 * description) on a finding: an exception other than CompileError, a slow compile, a chunk that does not read
 * back identically, or a verifier finding on compiler output.
 */
export function checkCompile(source: Uint8Array, variant: number): 'compiled' | 'refused' {
  const strip = STRIPS[variant % 3]!;
  const numbers = variant % 2 === 0 ? 'float' : 'double';
  const t0 = performance.now();
  let bytes: Uint8Array;
  try {
    bytes = writeHksChunk(compileLua(source, { name: 'fuzz.lua', strip, numbers }));
  } catch (e) {
    if (e instanceof CompileError) return 'refused';
    throw new Error(`compile threw ${(e as Error).name}: ${(e as Error).message}`, { cause: e });
  }
  const ms = performance.now() - t0;
  if (ms > 5000 + source.length / 100) throw new Error(`compile took ${ms.toFixed(0)} ms for ${source.length} bytes`);
  const chunk = parseHksChunk(bytes);
  const again = writeHksChunk(chunk);
  if (again.length !== bytes.length || again.some((x, i) => x !== bytes[i])) throw new Error('the written chunk does not read back identically');
  const findings = verifyHksChunk(chunk).filter((i) => i.severity !== 'info');
  if (findings.length > 0) throw new Error(`verifier findings on compiler output: ${findings.slice(0, 3).map((i) => i.message).join('; ')}`);
  return 'compiled';
}

export async function fuzz(options: FuzzOptions): Promise<string> {
  const inputs = sourceCorpus();
  const next = xorshift32(options.seed);
  let compiled = 0;
  let refused = 0;
  for (let run = 0; run < options.runs; run++) {
    const input = inputs[next() % inputs.length]!;
    const mutated = mutateSource(input.bytes, next);
    try {
      if (checkCompile(mutated, run) === 'compiled') compiled++;
      else refused++;
    } catch (e) {
      const file = saveCrasher(`compile-${options.seed}-${run}.lua`, mutated);
      throw new Error(`run ${run} (from ${input.name}): ${(e as Error).message}; input saved to ${file}`, { cause: e });
    }
  }
  return `${options.runs} runs over ${inputs.length} sources: ${compiled} compiled (verified clean), ${refused} refused with a CompileError`;
}
