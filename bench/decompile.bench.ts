/**
 * Decompiler throughput at the scale of Shadow of War's largest script (desert.scripts: 2,227 functions, 184,681
 * instructions): the compiler benchmark's desert-scale plain-Lua source (corpus programs wrapped as functions)
 * is compiled once per strip level, then decompiled with the proof (`decompileHks` with
 * `verify`: decompile, print, recompile, compare every function), against the compiler's own time on the same
 * program in the same run (target: within 10×). Floor: summing the chunk's code words.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { measure, peakRss, report, sumU32, type Measurement } from './harness.ts';
import { buildSource, plainPrograms } from './compile.bench.ts';
import { writeHksChunk } from '../src/formats/hks/index.ts';
import { compileLua, type StripLevel } from '../src/script/compile/index.ts';
import { decompileHks } from '../src/script/decompile/index.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
// The real source head declares hstructures, which the decompiler does not rebuild yet: it is measured apart.
const DESERT = { functions: 2227, instructions: 184681 };

export async function run(): Promise<string> {
  const programs = plainPrograms();
  const desert = buildSource(null, programs, DESERT);
  const lines: string[] = [];
  const all: Measurement[] = [];
  let floor: Measurement | null = null;
  const runs = 3;
  for (const strip of ['all', 'none'] as StripLevel[]) {
    const chunk = compileLua(desert.source, { name: 'bench.lua', strip });
    const bytes = writeHksChunk(chunk);
    floor ??= measure('floor: sum u32 of the chunk', () => sumU32(bytes), { bytes: bytes.length, runs: 9 });
    const compile = measure(`compileLua + writeHksChunk, strip ${strip}`, () => writeHksChunk(compileLua(desert.source, { name: 'bench.lua', strip })), { bytes: desert.source.length, runs });
    const plain = measure(`decompileHks, strip ${strip}`, () => decompileHks(chunk), { bytes: bytes.length, runs });
    let proven = '';
    const verified = measure(
      `decompileHks --verify, strip ${strip}`,
      () => {
        const p = decompileHks(chunk, { verify: true }).proof!;
        proven = `${p.matched}/${p.total}`;
      },
      { bytes: bytes.length, runs },
    );
    all.push(compile, plain, verified);
    lines.push(`strip ${strip}: decompile with proof ${verified.ms.toFixed(0)} ms = **${(verified.ms / compile.ms).toFixed(2)}× the compile** (${compile.ms.toFixed(0)} ms; target ≤ 10×); without the proof ${(plain.ms / compile.ms).toFixed(2)}×; ${proven} functions proven.`);
  }
  const head = new Uint8Array(readFileSync(join(root, 'test/fixtures/scripts/island_fortassault_fagameplay.closed.lua')));
  const withHead = compileLua(buildSource(head, programs, DESERT).source, { name: 'bench.lua', strip: 'all' });
  const hp = decompileHks(withHead, { verify: true }).proof!;
  lines.push(`With the real source head (hstructures) in front: ${hp.matched}/${hp.total} functions proven.`);
  return [
    report('decompile (bytecode → source, with the proof)', all, floor!),
    '',
    `Desert-scale program (corpus programs that luac5.1 accepts, wrapped as functions; no source head): ${(desert.source.length / 1e6).toFixed(2)} MB of source, ${desert.functions} functions, ${desert.instructions} instructions.`,
    ...lines,
    `Peak RSS ${(peakRss() / 2 ** 20).toFixed(0)} MiB.`,
  ].join('\n');
}
