import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fixturePath } from '../support/fixtures.ts';
import { runCli } from '../support/cli.ts';
import { run } from '../../src/cli/main.ts';
import type { Command } from '../../src/cli/command.ts';

const dir = mkdtempSync(join(tmpdir(), 'scry-inputs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const sd2 = fixturePath('sd2', 'faufau-1.5.0-generated', 'sample-beta-1869.sd2');
const gadb = fixturePath('gadb', 'landmine_curse.fxp');

describe('a command given the wrong kind of file says what the file is (format registry)', () => {
  it('db info on an .sd2 names it and the commands that read it', async () => {
    const r = await runCli(['db', 'info', sd2]);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/is a Firefall static database \(\.sd2\), not a GameDB database.*scry sd2/);
  });

  it('sd2 info on a GameDB file', async () => {
    const r = await runCli(['sd2', 'info', gadb]);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/is a GameDB database .*not a Firefall static database.*scry db/);
  });

  it('arch index on a GameDB file is not read as a loose path index', async () => {
    const r = await runCli(['arch', 'index', gadb]);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/is a GameDB database/);
  });

  it('db info on a folder says it is a folder, not a bare EISDIR', async () => {
    const r = await runCli(['db', 'info', dir]);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/is a folder; give the path of a file inside it/);
    expect(r.stderr).not.toMatch(/^[^:]*: EISDIR/m);
  });
});

describe('an exception that is not a toolkit error is an internal error, never exit 1 (which means findings)', () => {
  const broken: Command = { path: ['broken'], summary: 'throws a TypeError', usage: '', run: () => (null as unknown as { x: number }).x };
  it('exits 4 with a message saying it is a bug of scry, and what to report', async () => {
    let stderr = '';
    let stdout = '';
    const code = await run(['broken'], { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), readStdin: async () => '', cwd: dir, env: {}, isTTY: false }, [broken]);
    expect(code).toBe(4);
    expect(stderr).toMatch(/^scry broken: internal error \(a bug in scry, not a problem with your input\): TypeError: /);
    expect(stderr).toMatch(/SCRY_DEBUG=1/);
    expect(stdout).toBe('');
  });

  it('with --json, the error is also a JSON object on stdout', async () => {
    let stdout = '';
    const code = await run(['broken', '--json'], { stdout: (t) => void (stdout += t), stderr: () => {}, readStdin: async () => '', cwd: dir, env: {}, isTTY: false }, [broken]);
    expect(code).toBe(4);
    expect(JSON.parse(stdout)).toMatchObject({ error: 'TypeError', code: 'E_INTERNAL' });
  });
});
