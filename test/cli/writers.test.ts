/**
 * Writers under attack, as users run them (issue 15 items 3, 6, 8): two `db set --in-place` processes on one
 * file, `arch extract` into a folder holding a symlink, entries with 250-character and dotted names.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { packArch06 } from '../../src/formats/arch06/index.ts';
import { writeFileAtomic } from '../../src/node/fs.ts';
import { runCli } from '../support/cli.ts';
import { fixturePath } from '../support/fixtures.ts';

const dir = mkdtempSync(join(tmpdir(), 'scry-writers-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const bin = fileURLToPath(new URL('../../bin/scry.js', import.meta.url));

function scry(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stderr })));
}

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
