import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { encodeHksABC, hksOpcodes, parseHksChunk, writeHksChunk } from '../../src/formats/hks/index.ts';
import { compileLua } from '../../src/script/compile/index.ts';
import { runCli } from '../support/cli.ts';
import { fixturePath } from '../support/fixtures.ts';

const tmp = (): string => mkdtempSync(join(tmpdir(), 'scry-decompile-'));

describe('scry script decompile', () => {
  it('prints source that recompiles to the same bytes (hksc 07_bool, stripped)', async () => {
    const file = fixturePath('hks', 'hksc-tests', '07_bool.stripped.luac');
    const r = await runCli(['script', 'decompile', file]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/local l_0_2 = l_0_0 == l_0_1/);
    const dir = tmp();
    writeFileSync(join(dir, 'b.lua'), r.stdout);
    expect((await runCli(['script', 'compile', 'b.lua', '--strip', 'all'], { cwd: dir })).code).toBe(0);
    expect(new Uint8Array(readFileSync(join(dir, 'b.luac')))).toEqual(new Uint8Array(readFileSync(file)));
  });

  it('--verify reports every function proven and a summary, on stderr beside the source (generated closures, profile)', async () => {
    const r = await runCli(['script', 'decompile', fixturePath('hks', 'generated', 'closures.profile.luac'), '--verify']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/function make_adder\(/);
    expect(r.stderr).toMatch(/^proven {5}main\/0 \[make_adder\]$/m);
    expect(r.stderr).toMatch(/^8\/8 functions proven \(strip profile, float numbers\)$/m);
  });

  it('reads a SCRI container with a bytecode body, writes -o OUT, and --json gives the proof', async () => {
    const dir = tmp();
    const r = await runCli(['script', 'decompile', fixturePath('hks', 'generated', 'scri', 'closures.debug.scri'), '--verify', '--json', '-o', join(dir, 'c.lua')]);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.proof).toMatchObject({ strip: 'none', numbers: 'float', proven: 8, total: 8, compileError: null });
    expect(j.functions).toHaveLength(8);
    expect(j.functions.every((f: { proven: boolean }) => f.proven)).toBe(true);
    expect(readFileSync(join(dir, 'c.lua'), 'utf8')).toMatch(/make_counter/);
    expect((await runCli(['script', 'decompile', fixturePath('hks', 'generated', 'scri', 'closures.debug.scri'), '-o', join(dir, 'c.lua')])).code).not.toBe(0);
  });

  it('exits 1 and names the function it could not decompile; the rest still proves', async () => {
    const chunk = compileLua('local f = function() end\nprint(f)', { strip: 'all' });
    const op = (name: string): number => hksOpcodes().byName.get(name)!.op;
    chunk.main.children[0]!.code = Uint32Array.from([encodeHksABC(op('INTRINSIC_INDEX'), 0, 0, 0), encodeHksABC(op('RETURN'), 0, 1, 0)]);
    const dir = tmp();
    writeFileSync(join(dir, 'x.luac'), writeHksChunk(chunk));
    const r = await runCli(['script', 'decompile', 'x.luac', '--verify'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/decompilation failed/);
    expect(r.stderr).toMatch(/^proven {5}main$/m);
    expect(r.stderr).toMatch(/^unmatched {2}main\/0: not decompiled: .*INTRINSIC_INDEX/m);
    expect(r.stderr).toMatch(/^1\/2 functions proven/m);
    expect(parseHksChunk(readFileSync(join(dir, 'x.luac'))).main.children).toHaveLength(1);
  });

  it('refuses source text and garbage with exit codes 2 and 3', async () => {
    expect((await runCli(['script', 'decompile', fixturePath('hks', 'generated', 'scri', 'hello.source.scri')])).code).toBe(2);
    const dir = tmp();
    writeFileSync(join(dir, 'g.luac'), Uint8Array.from([0x1b, 0x4c, 0x75, 0x61, 0x51, 0, 1]));
    const g = await runCli(['script', 'decompile', 'g.luac'], { cwd: dir });
    expect(g.code).toBe(3);
    expect(g.stderr).toMatch(/hks/i);
  });
});
