/**
 * sd2 details found by the cell-by-cell cross-read against FauFau (issue 15 item 15): --level with an unchanged
 * image, special float values through `sd2 set`, pool arrays with a partial element, and a version-7 file with a
 * size header.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Sd2Flags, parseSd2, verifySd2 } from '../../src/formats/sd2/index.ts';
import { StaticDb } from '../../src/staticdb/database.ts';
import { readBytes } from '../../src/node/fs.ts';
import { runCli } from '../support/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'scry-sd2-details-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const p = (n: string) => join(dir, n);

function sample(): StaticDb {
  const db = StaticDb.create({ fileVersion: 12, memoryVersion: 1002, flags: Sd2Flags.Compressed, patch: 'beta-1869' });
  const t = db.addTable('dbitems::Probe', [
    { name: 'id', type: 'UInt' },
    { name: 'f', type: 'Float' },
    { name: 'v', type: 'Vector3' },
    { name: 'u', type: 'UShortArray' },
  ]);
  db.addRow(t, { id: 1, f: 1.5, v: [1, 2, 3], u: [1, 2] });
  return db;
}

describe('sd2 pack --level', () => {
  it('re-deflates at the asked level even when the image is unchanged (the original stream was reused silently)', async () => {
    const src = p('level.sd2');
    // a large, compressible image so that levels 1 and 9 give different streams
    const db = StaticDb.create({ fileVersion: 12, memoryVersion: 1002, flags: Sd2Flags.Compressed, patch: 'beta-1869' });
    const t = db.addTable('dbitems::Many', [{ name: 'id', type: 'UInt' }, { name: 'name', type: 'String' }]);
    for (let i = 0; i < 400; i++) db.addRow(t, { id: i % 7, name: `name ${i % 13}` });
    writeFileSync(src, db.write({ level: 1 }));
    const one = await runCli(['sd2', 'pack', src, '-o', p('l1.sd2'), '--level', '1']);
    const nine = await runCli(['sd2', 'pack', src, '-o', p('l9.sd2'), '--level', '9']);
    expect([one.code, nine.code]).toEqual([0, 0]);
    expect(readBytes(p('l9.sd2')).length).toBeLessThan(readBytes(p('l1.sd2')).length);
    // the same cells either way
    expect(StaticDb.open(readBytes(p('l9.sd2'))).tableAt(0).row(399)).toEqual(StaticDb.open(readBytes(src)).tableAt(0).row(399));
  });
});

describe('sd2 set takes the special values the JSON export writes', () => {
  it('NaN, -Infinity and -0, alone and inside a vector', async () => {
    const file = p('special.sd2');
    writeFileSync(file, sample().write());
    expect((await runCli(['sd2', 'set', file, 'dbitems::Probe', '0', 'f', 'NaN', '--force'])).code).toBe(0);
    expect((await runCli(['sd2', 'set', file, 'dbitems::Probe', '0', 'v', '["NaN","-Infinity","-0"]', '--force'])).code).toBe(0);
    const row = StaticDb.open(readBytes(file)).tableAt(0).row(0);
    expect(row[1]).toBeNaN();
    expect(row[2]).toEqual([NaN, -Infinity, -0]);
    expect(Object.is((row[2] as number[])[2], -0)).toBe(true);
    expect((await runCli(['sd2', 'set', file, 'dbitems::Probe', '0', 'f', '"-Infinity"', '--force'])).code).toBe(0);
    expect(StaticDb.open(readBytes(file)).tableAt(0).row(0)[1]).toBe(-Infinity);
  });
});

describe('a pool array entry whose length is not a multiple of its element size', () => {
  it('is reported by verify and its bytes are kept', () => {
    const db = sample();
    const t = db.tableAt(0);
    // a UShortArray entry of 5 bytes: two elements and one stray byte
    db.setCell(t, 0, 'u', Uint8Array.of(1, 0, 2, 0, 9));
    const bytes = db.write();
    const file = parseSd2(bytes);
    const issue = verifySd2(file).find((i) => i.rule === 'sd2.pool.partialElement');
    expect(issue?.message).toMatch(/5-byte UShortArray entry.*not a multiple of 2.*1 byte/);
    expect(StaticDb.open(bytes).tableAt(0).row(0)[3]).toEqual([1, 2]);
    // kept: a rebuild of the pool copies the entry's bytes
    const compact = StaticDb.open(bytes).compact();
    expect(compact.tableAt(0).entryBytes(0, 3)).toEqual(Uint8Array.of(1, 0, 2, 0, 9));
  });
});

describe('a version-7 file with an 8-byte size header', () => {
  it('names the real cause instead of "does not decrypt with patch name"', () => {
    // version 7 has no size header: this file carries one anyway (as 11/12 do), and decrypts fine
    const db = sample();
    const v12 = db.withFlags(Sd2Flags.Compressed | Sd2Flags.ObfuscatedPool).write();
    const v7 = v12.slice();
    new DataView(v7.buffer).setUint32(4, 7, true);
    expect(() => parseSd2(v7)).toThrow(/version-7 file.*carries the 8-byte size header of versions 11 and 12/);
    expect(() => parseSd2(v7)).not.toThrow(/does not decrypt/);
  });
});
