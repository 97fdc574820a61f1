/**
 * Long mutation-fuzz campaign for the decompiler (`npm run fuzz -- decompile`). Inputs: every chunk hksc compiled
 * from its test programs and from our generated programs (all strip levels) and the real chunks. Each run mutates
 * one function's code at the instruction level (an operand or opcode changed, words swapped, deleted, duplicated,
 * the code cut short) or its counts, writes the chunk and reads it back, then decompiles it with the proof. The
 * contract: a typed error (ToolkitError) or a result, in bounded time; never another exception. A result's
 * source either recompiles or its compile error is reported in the proof. Findings are saved under fuzz/crashers/.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { ToolkitError } from '../src/binary/errors.ts';
import { parseHksChunk, writeHksChunk, type HksChunk, type HksFunction } from '../src/formats/hks/index.ts';
import { decompileHks } from '../src/script/decompile/index.ts';
import type { FuzzOptions } from './run.ts';
import { saveCrasher, xorshift32 } from './support.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Bytecode chunks to mutate (`maxBytes` keeps the in-suite property test fast). */
export function chunkCorpus(maxBytes = Infinity): { name: string; bytes: Uint8Array }[] {
  const out: { name: string; bytes: Uint8Array }[] = [];
  for (const dir of ['test/fixtures/hks/hksc-tests', 'test/fixtures/hks/generated', 'test/fixtures/hks/real']) {
    for (const f of readdirSync(join(root, dir)).sort()) {
      if (!f.endsWith('.luac')) continue;
      const bytes = new Uint8Array(readFileSync(join(root, dir, f)));
      if (bytes.length <= maxBytes) out.push({ name: f, bytes });
    }
  }
  return out;
}

function functionsOf(fn: HksFunction, out: HksFunction[] = []): HksFunction[] {
  out.push(fn);
  for (const c of fn.children) functionsOf(c, out);
  return out;
}

/** One to three instruction-level mutations of one function of a parsed copy of `bytes`. */
export function mutateChunk(bytes: Uint8Array, next: () => number): HksChunk {
  const chunk = parseHksChunk(bytes);
  const fns = functionsOf(chunk.main);
  const fn = fns[next() % fns.length]!;
  const n = 1 + (next() % 3);
  for (let i = 0; i < n; i++) {
    const code = Array.from(fn.code);
    const at = code.length === 0 ? 0 : next() % code.length;
    switch (next() % 9) {
      case 0: // opcode (bits 25..31)
        if (code.length) code[at] = ((code[at]! & 0x01ffffff) | ((next() % 128) << 25)) >>> 0;
        break;
      case 1: // one bit of an operand
        if (code.length) code[at] = (code[at]! ^ (1 << (next() % 25))) >>> 0;
        break;
      case 2: // A operand (bits 0..7)
        if (code.length) code[at] = ((code[at]! & ~0xff) | (next() & 0xff)) >>> 0;
        break;
      case 3: {
        const b = code.length ? next() % code.length : 0;
        if (code.length) [code[at], code[b]] = [code[b]!, code[at]!];
        break;
      }
      case 4:
        code.splice(at, 1);
        break;
      case 5:
        if (code.length) code.splice(at, 0, code[next() % code.length]!);
        break;
      case 6:
        code.length = at;
        break;
      case 7:
        fn.paramCount = next() % 4;
        break;
      default:
        fn.maxStackSize = next() % 8;
    }
    fn.code = Uint32Array.from(code);
  }
  return chunk;
}

/** What one case gave: a typed refusal (reading or decompiling), or a result with its proof's figures. */
export type DecompileOutcome = { kind: 'refused' } | { kind: 'decompiled'; matched: number; total: number; compileError: boolean };

/**
 * Writes, reads back and decompiles (with the proof) one mutated chunk. Throws (with a description) on a finding:
 * an exception that is not a ToolkitError, or a case slower than its bound.
 */
export function checkDecompile(chunk: HksChunk): DecompileOutcome {
  const t0 = performance.now();
  let out: DecompileOutcome;
  try {
    const bytes = writeHksChunk(chunk);
    const r = decompileHks(parseHksChunk(bytes), { verify: true });
    const p = r.proof!;
    out = { kind: 'decompiled', matched: p.matched, total: p.total, compileError: p.compileError !== undefined };
  } catch (e) {
    if (!(e instanceof ToolkitError)) throw new Error(`decompile threw ${(e as Error).name}: ${(e as Error).message}`, { cause: e });
    out = { kind: 'refused' };
  }
  const ms = performance.now() - t0;
  if (ms > 10000) throw new Error(`decompile took ${ms.toFixed(0)} ms`);
  return out;
}

export async function fuzz(options: FuzzOptions): Promise<string> {
  const inputs = chunkCorpus();
  const next = xorshift32(options.seed);
  let refused = 0;
  let decompiled = 0;
  let unmatched = 0;
  let compileErrors = 0;
  for (let run = 0; run < options.runs; run++) {
    const input = inputs[next() % inputs.length]!;
    let chunk: HksChunk | undefined;
    try {
      chunk = mutateChunk(input.bytes, next);
      const o = checkDecompile(chunk);
      if (o.kind === 'refused') refused++;
      else {
        decompiled++;
        if (o.matched < o.total) unmatched++;
        if (o.compileError) compileErrors++;
      }
    } catch (e) {
      let saved = '(not writable)';
      try {
        saved = saveCrasher(`decompile-${options.seed}-${run}.luac`, chunk ? writeHksChunk(chunk) : input.bytes);
      } catch {
        // the mutated model did not write: the seed's bytes are saved above when it is undefined
      }
      throw new Error(`run ${run} (from ${input.name}): ${(e as Error).message}; input saved to ${saved}`, { cause: e });
    }
  }
  return `${options.runs} runs over ${inputs.length} chunks: ${refused} refused with a typed error, ${decompiled} decompiled (${unmatched} with unmatched functions, ${compileErrors} whose source did not recompile)`;
}
