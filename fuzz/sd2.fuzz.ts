/**
 * Static database (`.sd2`) campaign: `npm run fuzz -- sd2`. Seeds: FauFau's generated sample, its variants with
 * the Client flag and memory version 1000, and a few random models built by the property tests' arbitraries.
 * Per case: open, decode every cell of every row; then the mutated file is written back (a `ConsistencyError` is
 * a refusal), the rewrite must read back to the same cells and rewrite to itself byte for byte.
 */
import fc from 'fast-check';
import { StaticDb } from '../src/staticdb/database.ts';
import { parseSd2, writeSd2 } from '../src/formats/sd2/sd2.ts';
import { firstDifference } from '../src/binary/hexdump.ts';
import { buildDb, dbModelArb } from '../test/staticdb/arbitraries.ts';
import { loadFixture } from '../test/support/fixtures.ts';
import { Finding, formatCampaign, typed, type FuzzTarget } from './harness.ts';

function cells(db: StaticDb): string {
  const out: unknown[] = [];
  for (const t of db.tables()) for (let r = 0; r < t.rowCount; r++) out.push(t.row(r));
  return JSON.stringify(out, (_k, v: unknown) =>
    typeof v === 'bigint' ? `${v}n` : v instanceof Uint8Array ? Array.from(v) : typeof v === 'number' && (!Number.isFinite(v) || Object.is(v, -0)) ? String(Object.is(v, -0) ? '-0' : v) : v,
  );
}

export const target: FuzzTarget = {
  id: 'sd2',
  seeds: () => {
    const sample = loadFixture('sd2', 'faufau-1.5.0-generated', 'sample-beta-1869.sd2');
    const db = StaticDb.open(sample);
    const models = fc.sample(dbModelArb, { seed: 15, numRuns: 4 }).map((m) => buildDb(m).write());
    return [sample, db.withFlags(8).write(), db.withMemoryVersion(1000).write(), ...models.filter((m) => m.length < 8192)];
  },
  open: (b) => cells(StaticDb.open(b)),
  check: (b) =>
    typed(() => {
      const db = StaticDb.open(b);
      const before = cells(db);
      let again: Uint8Array;
      try {
        again = db.write();
      } catch (e) {
        if ((e as Error).name === 'ConsistencyError') return;
        throw e;
      }
      const reread = StaticDb.open(again);
      if (cells(reread) !== before) throw new Finding('the written-back file reads back to other cells');
      const at = firstDifference(writeSd2(parseSd2(again)), again);
      if (at >= 0) throw new Finding(`the written-back file does not rewrite to itself (first difference at 0x${at.toString(16)})`);
    }),
};

export const fuzz = formatCampaign(import.meta.url, target);
