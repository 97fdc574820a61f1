import { describe, expect, it } from 'vitest';
import { analyseInWorker, analyseInline } from '../../src/server/analysis.ts';
import { Database } from '../../src/gamedb/database.ts';
import { fixturePath, loadFixture } from '../support/fixtures.ts';

describe('overview analysis', () => {
  it('gives the same figures in a worker thread as inline (the path large files take)', async () => {
    const inline = analyseInline(Database.open(loadFixture('gadb', 'landmine_curse.fxp')));
    const worker = await analyseInWorker(fixturePath('gadb', 'landmine_curse.fxp'));
    expect(worker.worker).toBe(true);
    expect(worker.summary).toEqual(inline.summary);
    expect(worker.findings).toEqual(inline.findings);
    expect(inline.summary.links).toEqual({ cells: 15, null: 0, toPrimary: 0, toSecondary: 15, unresolved: 0 });
  });

});
