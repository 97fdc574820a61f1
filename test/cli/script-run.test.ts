/** `scry script run` and `scry script repl`, end to end through the CLI (as a user runs them). */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../support/cli.ts';
import { fixturePath } from '../support/fixtures.ts';

function script(text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'scry-run-'));
  const path = join(dir, 'prog.lua');
  writeFileSync(path, text, 'latin1');
  return path;
}

describe('scry script run', () => {
  it('runs Lua source with arg and ... set as lua5.1 sets them', async () => {
    const p = script('print(arg[0] ~= nil, #arg, ...)\nprint(1/3, 2^53, string.format("%5.1f|%q", 3.14159, "a\\0b"))\n');
    const r = await runCli(['script', 'run', p, '--', 'x', 'y']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('true\t2\tx\ty\n0.33333333333333\t9.007199254741e+15\t  3.1|"a\\000b"\n');
  });

  it('prints chunk:line: message and the traceback of a runtime error and exits 3', async () => {
    const p = script('local function f() error("boom") end\nf()\n');
    const r = await runCli(['script', 'run', p]);
    expect(r.code).toBe(3);
    const shown = p.replace(/^.*\//, '');
    expect(r.stderr.split('\n')[0]).toMatch(new RegExp(`${shown}:1: boom$`));
    expect(r.stderr).toContain("[C]: in function 'error'");
    expect(r.stderr).toMatch(/:2: in main chunk/);
  });

  it('stops a script at --budget instructions', async () => {
    const p = script('while true do end\n');
    const r = await runCli(['script', 'run', p, '--budget', '5000']);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/instruction budget exhausted \(5000 instructions\)/);
  });

  it('--jit runs through the JavaScript tier with the same output and the same budget', async () => {
    const p = script('local s = 0\nfor i = 1, 100000 do s = s + i % 3 end\nprint(s)\nwhile true do s = s + 1 end\n');
    const plain = await runCli(['script', 'run', p, '--budget', '700000']);
    const jit = await runCli(['script', 'run', p, '--budget', '700000', '--jit']);
    expect(jit.stdout).toBe('100000\n');
    expect(jit.stdout).toBe(plain.stdout);
    expect(jit.code).toBe(3);
    expect(jit.stderr.split('\n')[0]).toBe(plain.stderr.split('\n')[0]);
    expect(jit.stderr).toMatch(/instruction budget exhausted \(700000 instructions\)/);
  });

  it('runs hksc bytecode in its own float32 mode, and refuses --numbers double for it', async () => {
    const f = fixturePath('hks', 'generated', 'hello.debug.luac');
    const r = await runCli(['script', 'run', f]);
    expect(r).toMatchObject({ code: 0, stdout: 'hello world\n' });
    const bad = await runCli(['script', 'run', f, '--numbers', 'double']);
    expect(bad.code).toBe(2);
  });

  it('float mode for source with --numbers float', async () => {
    const p = script('print(0.1)\n');
    expect((await runCli(['script', 'run', p, '--numbers', 'float'])).stdout).toBe('0.10000000149012\n');
    expect((await runCli(['script', 'run', p])).stdout).toBe('0.1\n');
  });

  it('reports a syntax error as chunk:line: message, exit 3', async () => {
    const p = script('x = = 1\n');
    const r = await runCli(['script', 'run', p]);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/prog\.lua:1: unexpected symbol near '='/);
  });
});

describe('scry script repl', () => {
  it('runs statements, prints =expressions and continues incomplete ones', async () => {
    const r = await runCli(['script', 'repl'], { stdin: 'x = 6\nfunction f(a)\n return a * 7\nend\n=f(x)\n=nil == false\n' });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('42\nfalse\n');
  });
});
