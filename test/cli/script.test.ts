import { mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.ts';
import { fixturePath, loadFixture } from '../support/fixtures.ts';

const F = (...p: string[]): string => fixturePath('hks', ...p);
const tmp = (): string => mkdtempSync(join(tmpdir(), 'scry-script-'));

describe('scry script', () => {
  it('info: a bare chunk (text and JSON)', async () => {
    const r = await runCli(['script', 'info', F('generated', 'structs3.debug.luac')]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/HavokScript chunk, format 14, little-endian/);
    expect(r.stdout).toMatch(/3 functions \(depth 1\), 32 instructions \+ 9 DATA words/);
    expect(r.stdout).toMatch(/structures: 3 \(hksc layout\)/);
    const j = await runCli(['script', 'info', F('real', 'surasia_hksc-disassembler_hsc_example.luac'), '--json']);
    const info = JSON.parse(j.stdout);
    expect(info.header.littleEndian).toBe(false);
    expect(info.summary.functions).toBe(42);
    expect(info.structures).toEqual({ layout: 'extends', count: 25 });
    expect(info.trailing).toBe(51443);
  });

  it('info: recognises the real Shadow of War .scripts head as Lua source', async () => {
    const r = await runCli(['script', 'info', fixturePath('scripts', 'island_fortassault_fagameplay.scripts.first65536.bin'), '--json']);
    expect(r.code).toBe(0);
    const info = JSON.parse(r.stdout);
    expect(info.container).toMatchObject({ magic: 'SCRI', version: 1, flag: 1, body: 'lua-source', bodyLength: 819366 });
    expect(info.source.firstLine).toMatch(/^-- SCRIPTOBJECT PROTOTYPES/);
  });

  it('disasm | asm rebuilds a SCRI container byte for byte, refusing to overwrite without --force', async () => {
    const dir = tmp();
    const input = F('generated', 'scri', 'closures.debug.scri');
    const d = await runCli(['script', 'disasm', input, '-o', join(dir, 'c.hksasm')]);
    expect(d.code).toBe(0);
    const listing = readFileSync(join(dir, 'c.hksasm'), 'utf8');
    expect(listing).toMatch(/^\.scri version=1 flag=0$/m);
    const a = await runCli(['script', 'asm', join(dir, 'c.hksasm'), '-o', join(dir, 'c.scri'), '--compare', input]);
    expect(a.stdout).toMatch(/identical/);
    expect(a.code).toBe(0);
    expect(readFileSync(join(dir, 'c.scri'))).toEqual(Buffer.from(loadFixture('hks', 'generated', 'scri', 'closures.debug.scri')));
    const again = await runCli(['script', 'asm', join(dir, 'c.hksasm'), '-o', join(dir, 'c.scri')]);
    expect(again.code).toBe(3);
    expect(again.stderr).toMatch(/refusing to overwrite/);
    const forced = await runCli(['script', 'asm', join(dir, 'c.hksasm'), '-o', join(dir, 'c.scri'), '--force']);
    expect(forced.code).toBe(0);
    expect(existsSync(join(dir, 'c.scri.bak'))).toBe(true);
  });

  it('asm: reads stdin, reports a difference with exit 1 and an error with line:column and exit 3', async () => {
    const dir = tmp();
    const listing = (await runCli(['script', 'disasm', F('generated', 'hello.stripped.luac')])).stdout;
    const edited = listing.replace('LOADK          R(1) K(3)', 'LOADK R(1) K(0)');
    expect(edited).not.toBe(listing);
    const diff = await runCli(['script', 'asm', '-', '--compare', F('generated', 'hello.stripped.luac')], { stdin: edited });
    expect(diff.code).toBe(1);
    expect(diff.stdout).toMatch(/differs from .* at 0x/);
    // an edit that drops the memo DATA word of GETGLOBAL_MEM still assembles, with the verifier's finding on stderr
    const dropped = listing.replace(/\n.*\.data 20 1.*\n/, '\n');
    const noData = await runCli(['script', 'asm', '-', '-o', join(dir, 'nodata.luac')], { stdin: dropped });
    expect(noData.code).toBe(0);
    expect(noData.stderr).toMatch(/verify: 1 finding.*\n.*hks\.data\.count\s+main pc 0: GETGLOBAL_MEM owns 1 DATA word\(s\), 0 follow/);
    writeFileSync(join(dir, 'bad.hksasm'), '.function main\n.code\n  MOVE R(0) K(1)\n.end\n');
    const bad = await runCli(['script', 'asm', join(dir, 'bad.hksasm'), '-o', join(dir, 'x.luac')]);
    expect(bad.code).toBe(3);
    expect(bad.stderr).toMatch(/bad\.hksasm:3:13: operand K\(1\)/);
    expect(existsSync(join(dir, 'x.luac'))).toBe(false);
  });

  it('verify: clean fixtures exit 0 with both round trips identical; a corrupted chunk exits 1 or 3', async () => {
    const ok = await runCli(['script', 'verify', F('generated', 'structs3.debug.luac')]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/0 error\(s\), 0 warning\(s\).*write identical, listing identical/);
    const dir = tmp();
    const bytes = loadFixture('hks', 'generated', 'hello.stripped.luac').slice();
    // code starts at 260 (238 + 21 bytes of function header + 1 pad byte): turn pc 3 into LOADK R(1) K(200)
    new DataView(bytes.buffer).setUint32(264 + 8, ((25 << 25) | (200 << 8) | 1) >>> 0, true);
    writeFileSync(join(dir, 'bad.luac'), bytes);
    const bad = await runCli(['script', 'verify', join(dir, 'bad.luac'), '--json']);
    expect(bad.code).toBe(1);
    const report = JSON.parse(bad.stdout);
    expect(report.issues.map((i: { rule: string }) => i.rule)).toContain('hks.operand.constant');
    writeFileSync(join(dir, 'cut.luac'), bytes.subarray(0, 100));
    const cut = await runCli(['script', 'verify', join(dir, 'cut.luac')]);
    expect(cut.code).toBe(3);
    expect(cut.stderr).toMatch(/hks: .* at 0x[0-9A-F]+ \(\/types/);
  });

  it('strings, calls and xref', async () => {
    const s = await runCli(['script', 'strings', F('generated', 'hello.debug.luac'), '--json']);
    expect(JSON.parse(s.stdout)).toEqual([{ value: 'print', functions: 1 }, { value: 'hello world', functions: 1 }]);
    const c = await runCli(['script', 'calls', F('generated', 'hello.debug.luac'), '--json']);
    expect(JSON.parse(c.stdout).calls).toEqual({ print: 1 });
    const x = await runCli(['script', 'xref', F('generated', 'closures.debug.luac'), 'fact']);
    expect(x.code).toBe(0);
    expect(x.stdout).toMatch(/main\/3\s+fact\s+pc 7 line 36 CALL_I\s+call\s+fact/);
    const none = await runCli(['script', 'xref', F('generated', 'closures.debug.luac'), 'nothing_here']);
    expect(none.code).toBe(1);
  });

  it('extract writes a SCRI body; disasm of a source body is a usage error', async () => {
    const dir = tmp();
    const r = await runCli(['script', 'extract', F('generated', 'scri', 'hello.source.scri'), '-o', join(dir, 'hello.lua')]);
    expect(r.code).toBe(0);
    expect(readFileSync(join(dir, 'hello.lua'))).toEqual(Buffer.from(loadFixture('hks', 'generated', 'hello.lua')));
    const d = await runCli(['script', 'disasm', F('generated', 'scri', 'hello.source.scri')]);
    expect(d.code).toBe(2);
    expect(d.stderr).toMatch(/Lua source text/);
    const unknown = await runCli(['script', 'disasm', F('generated', 'hello.debug.luac'), '--dialect', 'nope']);
    expect(unknown.code).toBe(2);
  });
});
