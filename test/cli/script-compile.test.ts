import { mkdtempSync, readFileSync, writeFileSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseScri, writeScri } from '../../src/formats/scri/scri.ts';
import { runCli } from '../support/cli.ts';
import { fixturePath, loadFixture } from '../support/fixtures.ts';

const tmp = (): string => mkdtempSync(join(tmpdir(), 'scry-compile-'));
const bytesOf = (p: string): Uint8Array => new Uint8Array(readFileSync(p));

describe('scry script compile', () => {
  it('writes FILE.luac byte-identical to hksc at each strip level, source name @FILE as given', async () => {
    const dir = tmp();
    copyFileSync(fixturePath('hks', 'generated', 'structs3.lua'), join(dir, 'structs3.lua'));
    const r = await runCli(['script', 'compile', 'structs3.lua'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/wrote .*structs3\.luac \(2226 bytes: 3 functions/);
    expect(bytesOf(join(dir, 'structs3.luac'))).toEqual(loadFixture('hks', 'generated', 'structs3.debug.luac'));
    for (const [strip, suffix] of [['profile', 'profile'], ['all', 'stripped']] as const) {
      const out = join(dir, `s.${suffix}.luac`);
      const j = await runCli(['script', 'compile', './structs3.lua', '--strip', strip, '-o', out, '--json'], { cwd: dir });
      expect(j.code).toBe(0);
      expect(JSON.parse(j.stdout)).toMatchObject({ strip, numbers: 'float', source: 'structs3.lua', functions: 3, structures: 3 });
      expect(bytesOf(out)).toEqual(loadFixture('hks', 'generated', `structs3.${suffix}.luac`));
    }
  });

  it('refuses to replace an existing output without --force', async () => {
    const dir = tmp();
    writeFileSync(join(dir, 'a.lua'), 'print(1)');
    expect((await runCli(['script', 'compile', 'a.lua'], { cwd: dir })).code).toBe(0);
    const again = await runCli(['script', 'compile', 'a.lua'], { cwd: dir });
    expect([again.code, /refusing to overwrite/.test(again.stderr)]).toEqual([3, true]);
    expect((await runCli(['script', 'compile', 'a.lua', '--force'], { cwd: dir })).code).toBe(0);
  });

  it('--scri wraps the chunk in SCRI v1 flag 0; a SCRI source body (flag 1) compiles like the bare source', async () => {
    const dir = tmp();
    const r = await runCli(['script', 'compile', fixturePath('hks', 'generated', 'scri', 'hello.source.scri'), '--name', 'hello.lua', '--scri', '-o', join(dir, 'h.scri')]);
    expect(r.code).toBe(0);
    const scri = parseScri(bytesOf(join(dir, 'h.scri')));
    expect([scri.version, scri.flag]).toEqual([1, 0]);
    expect(scri.body).toEqual(loadFixture('hks', 'generated', 'hello.debug.luac'));
    // A SCRI container with a source body around the real source head.
    writeFileSync(join(dir, 'x.scripts'), writeScri({ version: 1, flag: 1, body: loadFixture('scripts', 'island_fortassault_fagameplay.closed.lua'), trailing: new Uint8Array(0) }));
    const x = await runCli(['script', 'compile', 'x.scripts', '--json'], { cwd: dir });
    expect(x.code).toBe(0);
    expect(JSON.parse(x.stdout)).toMatchObject({ inputContainer: 'scri', functions: 38, instructions: 1062, structures: 6 });
    const v = await runCli(['script', 'verify', join(dir, 'x.luac'), '--json']);
    expect(JSON.parse(v.stdout).counts).toMatchObject({ error: 0, warning: 0 });
  });

  it('refuses a truncated SCRI source body and a bytecode SCRI', async () => {
    const head = await runCli(['script', 'compile', fixturePath('scripts', 'island_fortassault_fagameplay.scripts.first65536.bin'), '-o', join(tmp(), 'x.luac')]);
    expect(head.code).toBe(2);
    expect(head.stderr).toMatch(/cut short by 753843 byte\(s\)/);
    const bc = await runCli(['script', 'compile', fixturePath('hks', 'generated', 'scri', 'closures.debug.scri'), '-o', join(tmp(), 'y.luac')]);
    expect([bc.code, /already bytecode/.test(bc.stderr)]).toEqual([2, true]);
  });

  it('--numbers double writes 8-byte numbers and says so in the header (flags 0x0B)', async () => {
    const dir = tmp();
    writeFileSync(join(dir, 'n.lua'), 'x = 0.1');
    expect((await runCli(['script', 'compile', 'n.lua', '--numbers', 'double'], { cwd: dir })).code).toBe(0);
    const b = bytesOf(join(dir, 'n.luac'));
    expect([b[10], b[12]]).toEqual([8, 0x0b]);
    const info = JSON.parse((await runCli(['script', 'info', join(dir, 'n.luac'), '--json'])).stdout);
    expect(info.header).toMatchObject({ numberSize: 8, buildFlags: 11 });
  });

  it('compile | disasm | asm gives the same bytes', async () => {
    const dir = tmp();
    copyFileSync(fixturePath('hks', 'hksc-tests', 's_self.lua'), join(dir, 's_self.lua'));
    expect((await runCli(['script', 'compile', 's_self.lua', '-o', 'x.luac'], { cwd: dir })).code).toBe(0);
    const listing = await runCli(['script', 'disasm', 'x.luac'], { cwd: dir });
    expect(listing.code).toBe(0);
    const asm = await runCli(['script', 'asm', '-', '-o', 'y.luac', '--compare', 'x.luac'], { cwd: dir, stdin: listing.stdout });
    expect(asm.stdout).toMatch(/identical/);
    expect(bytesOf(join(dir, 'y.luac'))).toEqual(bytesOf(join(dir, 'x.luac')));
  });

  it('usage errors: unknown strip level, stdin without -o', async () => {
    expect((await runCli(['script', 'compile', 'a.lua', '--strip', 'some'])).code).toBe(2);
    expect((await runCli(['script', 'compile', '-'], { stdin: 'x = 1' })).code).toBe(2);
  });
});

describe('scry script check', () => {
  it('prints file:line:col: message per failing file and exits 1; exits 0 when all compile', async () => {
    const dir = tmp();
    writeFileSync(join(dir, 'bad.lua'), 'local x =\nend');
    writeFileSync(join(dir, 'good.lua'), 'local x = 1');
    const r = await runCli(['script', 'check', 'good.lua', 'bad.lua', fixturePath('hks', 'hksc-errors', 's_slot_type.lua')], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout.trim().split('\n')).toEqual([
      "bad.lua:2:1: unexpected symbol near 'end'",
      `${fixturePath('hks', 'hksc-errors', 's_slot_type.lua')}:12:8: Attempt to assign a value of invalid type to slot 'n' (expected 'number').`,
    ]);
    expect(r.stderr).toMatch(/1 of 3 file\(s\) compile/);
    const mixed = await runCli(['script', 'check', 'good.lua', fixturePath('hks', 'generated', 'scri', 'closures.debug.scri')], { cwd: dir });
    expect(mixed.code).toBe(1);
    expect(mixed.stdout).toMatch(/closures\.debug\.scri: .*already bytecode/);
    const ok = await runCli(['script', 'check', 'good.lua', '--json'], { cwd: dir });
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toEqual({ files: 1, failed: 0, results: [{ file: 'good.lua', ok: true }] });
  });
});
