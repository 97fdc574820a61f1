/**
 * Writers under attack, as users run them (issue 15 items 3, 6, 7, 8): kill -9 during `db set --in-place`,
 * `db export -o`, `arch pack -o` and `sd2 pack -o`; two `db set --in-place` processes on one file; `arch extract`
 * into a folder holding a symlink; entries with 250-character and dotted names.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { packArch06 } from '../../src/formats/arch06/index.ts';
import { Sd2Flags } from '../../src/formats/sd2/index.ts';
import { StaticDb } from '../../src/staticdb/database.ts';
import { writeFileAtomic } from '../../src/node/fs.ts';
import { runCli } from '../support/cli.ts';
import { fixturePath } from '../support/fixtures.ts';

const dir = mkdtempSync(join(tmpdir(), 'scry-writers-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const bin = fileURLToPath(new URL('../../bin/scry.js', import.meta.url));

function scry(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; signal: string | null; stderr: string }> {
  const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...env } });
  let stderr = '';
  child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
  return new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal, stderr })));
}

describe('kill -9 during a replacing write, as users run the writers', () => {
  // Two moments of the write (src/node/fs.ts failpoints), taken in turn: the new .bak made under a temporary
  // name but not yet renamed, and the .bak renamed but the target not yet replaced. test/node/fs.test.ts covers
  // every moment of the write itself; this covers that each command's write goes through it.
  const points = ['backup-linked', 'backup-renamed'] as const;
  const sd2Source = join(dir, 'source.sd2');
  const db = StaticDb.create({ fileVersion: 12, memoryVersion: 1002, flags: Sd2Flags.Compressed, patch: 'beta-1869' });
  const t = db.addTable('dbitems::Probe', [{ name: 'id', type: 'UInt' }, { name: 'name', type: 'String' }]);
  for (let i = 0; i < 20; i++) db.addRow(t, { id: i, name: `row ${i}` });
  writeFileSync(sd2Source, db.write());
  const packDir = join(dir, 'pack-src');
  mkdirSync(join(packDir, 'ui'), { recursive: true });
  writeFileSync(join(packDir, 'ui', 'a.txt'), 'entry');
  const commands: Record<string, (target: string) => string[]> = {
    'db set --in-place': (target) => ['db', 'set', target, 'ClientFX.Sound', '13', 'StartTime', '0.5', '--in-place'],
    'db export -o': (target) => ['db', 'export', fixturePath('gadb', 'landmine_curse.fxp'), '-o', target, '--force'],
    'arch pack -o': (target) => ['arch', 'pack', packDir, '-o', target, '--force'],
    'sd2 pack -o': (target) => ['sd2', 'pack', sd2Source, '-o', target, '--force', '--file-version', '11'],
  };
  const cases = Object.entries(commands).map(([name, args], i) => ({ name, args, point: points[i % 2]! }));

  it('the target and the earlier .bak stay whole; the next run succeeds and leaves no temporary file', { timeout: 120_000 }, async () => {
    const setups = cases.map((c, i) => {
      const folder = join(dir, `kill-${i}`);
      mkdirSync(folder);
      const target = join(folder, 'target');
      // the original: for db set the input itself, otherwise an earlier output
      const original = c.name === 'db set --in-place' ? readFileSync(fixturePath('gadb', 'landmine_curse.fxp')) : Buffer.from(`earlier output ${i}`);
      writeFileSync(target, original);
      writeFileSync(target + '.bak', `older backup ${i}`);
      return { ...c, folder, target, original };
    });
    const killed = await Promise.all(setups.map((c) => scry(c.args(c.target), { SCRY_FAILPOINT: c.point })));
    expect(killed.map((r) => r.signal)).toEqual(setups.map(() => 'SIGKILL'));
    for (const [i, c] of setups.entries()) {
      const what = `${c.name} killed at ${c.point}`;
      expect(readFileSync(c.target).equals(c.original), what).toBe(true);
      expect(readFileSync(c.target + '.bak', 'latin1'), what).toBe(c.point === 'backup-linked' ? `older backup ${i}` : c.original.toString('latin1'));
    }
    // the next run (in this process) takes over the dead writer's lock and removes its temporary files
    for (const c of setups) {
      expect((await runCli(c.args(c.target))).code, c.name).toBe(0);
      const what = `${c.name} after a kill at ${c.point}`;
      expect(readFileSync(c.target).equals(c.original), what).toBe(false);
      expect(readFileSync(c.target + '.bak').equals(c.original), what).toBe(true);
      expect(readdirSync(c.folder).sort(), what).toEqual(['target', 'target.bak']);
    }
  });
});

describe('two concurrent writers of one file', () => {
  it('two `db set --in-place` processes both land their edit: one waits for the other’s lock', { timeout: 60_000 }, async () => {
    const file = join(dir, 'shared.fxp');
    copyFileSync(fixturePath('gadb', 'landmine_curse.fxp'), file);
    const [a, b] = await Promise.all([
      scry(['db', 'set', file, 'ClientFX.Sound', '13', 'StartTime', '0.5', '--in-place']),
      scry(['db', 'set', file, 'ClientFX.Sound', '14', 'EndTime', '3', '--in-place']),
    ]);
    expect([a.code, b.code, a.stderr + b.stderr]).toEqual([0, 0, expect.any(String)]);
    const d = await runCli(['db', 'diff', fixturePath('gadb', 'landmine_curse.fxp'), file]);
    expect(d.stdout.trim().split('\n').sort()).toEqual(['~ ClientFX.Sound/13.StartTime: 0.024 → 0.5', '~ ClientFX.Sound/14.EndTime: 2.914 → 3']);
    // the .bak holds a whole earlier version: the original, or the first writer's result
    const bak = await runCli(['db', 'diff', fixturePath('gadb', 'landmine_curse.fxp'), file + '.bak']);
    expect(bak.stdout.trim().split('\n').filter(Boolean).length).toBeLessThanOrEqual(1);
    expect(readdirSync(dir).filter((f) => f.startsWith('.scry-'))).toEqual([]);
  });
});

describe('arch extract', () => {
  const data = (s: string) => new TextEncoder().encode(s);
  const archive = join(dir, 'x.arch06');
  const long = 'n'.repeat(246) + '.txt';
  writeFileAtomic(archive, packArch06([
    { path: 'link/pwned.txt', data: data('pwned') },
    { path: `long/${long}`, data: data('long') },
    { path: 'docs/..notes.txt', data: data('notes') },
  ]).bytes);

  it('refuses an entry below a symlink of the output folder and writes nothing where it points', async () => {
    const out = join(dir, 'out-sym');
    const elsewhere = join(dir, 'elsewhere');
    mkdirSync(out);
    mkdirSync(elsewhere);
    symlinkSync(elsewhere, join(out, 'link'));
    const r = await runCli(['arch', 'extract', archive, '-o', out]);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/pwned\.txt.*out-sym.link is a symbolic link/);
    expect(readdirSync(elsewhere)).toEqual([]);
  });

  it('extracts a 250-character name and a name starting with two dots', async () => {
    const out = join(dir, 'out-names');
    const r = await runCli(['arch', 'extract', archive, '-o', out]);
    expect(r.code).toBe(0);
    expect(readFileSync(join(out, 'long', long), 'utf8')).toBe('long');
    expect(readFileSync(join(out, 'docs', '..notes.txt'), 'utf8')).toBe('notes');
  });
});
