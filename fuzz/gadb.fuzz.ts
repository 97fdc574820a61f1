/**
 * GameDB (GADB v17) campaign: `npm run fuzz -- gadb [--runs N --seed S]`. Seeds: the real sample
 * (`landmine_curse.fxp`), the hand-assembled file of the hypothesis tests and the synthetic model of the
 * read-API tests (curves, links, primaries). Per case: parse, verify, write (a `ConsistencyError` is a refusal);
 * a file `verifyGadb` finds no error in must be rewritten byte for byte; the read API decodes every value of
 * every record (typed errors only).
 */
import { writeGadb, parseGadb, verifyGadb } from '../src/formats/gadb/index.ts';
import { firstDifference } from '../src/binary/hexdump.ts';
import { Database } from '../src/gamedb/database.ts';
import { SYNTHETIC } from '../test/formats/gadb/synthetic.ts';
import { syntheticModel } from '../test/gamedb/synthetic.ts';
import { loadFixture } from '../test/support/fixtures.ts';
import { Finding, formatCampaign, typed, type FuzzTarget } from './harness.ts';

export const target: FuzzTarget = {
  id: 'gadb',
  seeds: () => [loadFixture('gadb', 'landmine_curse.fxp'), SYNTHETIC, writeGadb(syntheticModel())],
  open: (b) => parseGadb(b),
  check: (b) =>
    typed(() => {
      const g = parseGadb(b);
      const issues = verifyGadb(g);
      const clean = !issues.some((i) => i.severity === 'error');
      const db = new Database(g);
      for (const c of db.categories) for (const r of c.records()) for (const f of r.fields()) f.values();
      if (!clean) {
        typed(() => void writeGadb(g));
        return;
      }
      const at = firstDifference(writeGadb(g), b);
      if (at >= 0) throw new Finding(`verify found no error but the rewrite differs at 0x${at.toString(16)}`);
    }),
};

export const fuzz = formatCampaign(import.meta.url, target);
