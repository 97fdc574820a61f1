/**
 * Long sd2 campaigns: (1) mutation fuzz of real and generated files (parse + decode every cell must succeed or
 * throw a ToolkitError; never a RangeError/TypeError), (2) random models: write → read → same values, and
 * write(parse(write(m))) == write(m). A finding saves the input under `fuzz/crashers/` and throws.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import fc from 'fast-check';
import { StaticDb, ToolkitError, parseSd2, writeSd2 } from '../src/index.ts';
import { buildDb, dbModelArb } from '../test/staticdb/arbitraries.ts';
import type { FuzzOptions } from './run.ts';

const here = fileURLToPath(new URL('.', import.meta.url));

function save(name: string, bytes: Uint8Array): string {
  const dir = join(here, 'crashers');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
}

function decodeAll(bytes: Uint8Array): void {
  const db = StaticDb.open(bytes);
  for (const t of db.tables()) for (let r = 0; r < t.rowCount; r++) t.row(r);
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

export async function fuzz(options: FuzzOptions): Promise<string> {
  const fixture = new Uint8Array(readFileSync(join(here, '../test/fixtures/sd2/faufau-1.5.0-generated/sample-beta-1869.sd2')));
  const seeds = [fixture, StaticDb.open(fixture).withFlags(8).write(), StaticDb.open(fixture).withMemoryVersion(1000).write()];
  let rejected = 0;
  fc.assert(
    fc.property(fc.integer({ min: 0, max: seeds.length - 1 }), fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 12 }), fc.option(fc.nat(), { nil: undefined }), (which, flips, cut) => {
      let bytes = seeds[which]!.slice();
      for (const [at, v] of flips) bytes[4 + (at % (bytes.length - 4))] = v;
      if (cut !== undefined) bytes = bytes.subarray(0, cut % bytes.length);
      try {
        decodeAll(bytes);
      } catch (e) {
        if (e instanceof ToolkitError) {
          rejected++;
          return;
        }
        throw new Error(`non-toolkit error ${(e as Error).name}: ${(e as Error).message}; input saved to ${save(`sd2-mutation-${options.seed}.sd2`, bytes)}`);
      }
    }),
    { seed: options.seed, numRuns: options.runs },
  );
  const modelRuns = Math.max(10, Math.floor(options.runs / 20));
  fc.assert(
    fc.property(dbModelArb, (m) => {
      const bytes = buildDb(m).write();
      const again = writeSd2(parseSd2(bytes));
      if (!equalBytes(again, bytes)) throw new Error(`write(parse(write(m))) differs; saved to ${save(`sd2-model-${options.seed}.sd2`, bytes)}`);
      decodeAll(bytes);
    }),
    { seed: options.seed, numRuns: modelRuns },
  );
  return `${options.runs} mutations (${rejected} rejected with typed errors), ${modelRuns} random models round-tripped`;
}
