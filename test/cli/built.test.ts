/**
 * The CLI as installed: `bin/scry.js` over the prebuilt bundle (dist/, built by `npm install` and by the suite's
 * global setup) gives what the sources give, and picks the bundle only while every source it was built from is
 * unchanged.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.ts';
import { fixturePath } from '../support/fixtures.ts';

const bin = fileURLToPath(new URL('../../bin/scry.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'scry-built-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function scry(binPath: string, args: string[], mode: string | undefined): { code: number | null; stdout: string; stderr: string } {
  const env = { ...process.env };
  if (mode === undefined) delete env['SCRY_CLI'];
  else env['SCRY_CLI'] = mode;
  const r = spawnSync(process.execPath, [binPath, ...args], { encoding: 'utf8', env });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('the built CLI (SCRY_CLI=dist refuses to fall back to the sources)', () => {
  it('hashes like the sources', () => {
    expect(scry(bin, ['hash', 'abc'], 'dist')).toEqual({ code: 0, stdout: '0x000CEA42\tabc\n', stderr: '' });
  });

  it('db info --json on a real file equals the in-process answer, and finds the built-in names next to its sources', async () => {
    const file = fixturePath('gadb', 'landmine_curse.fxp');
    const built = scry(bin, ['db', 'info', file, '--json'], 'dist');
    const inProcess = await runCli(['db', 'info', file, '--json']);
    expect(built.code).toBe(0);
    expect(JSON.parse(built.stdout)).toEqual(JSON.parse(inProcess.stdout));
    // the shipped names (src/gamedb/names/fields.txt, found relative to its module's own URL) name the fields
    const show = scry(bin, ['db', 'show', file, 'ClientFX.Sound', '13', '--json'], 'dist');
    expect(show.code).toBe(0);
    expect(show.stdout).toContain('"StartTime"');
    expect(show.stdout).toEqual((await runCli(['db', 'show', file, 'ClientFX.Sound', '13', '--json'])).stdout);
  });

  it('keeps the exit codes: 2 for usage, 3 for bad input', () => {
    expect(scry(bin, ['hash'], 'dist').code).toBe(2);
    const bad = join(dir, 'bad.gamedb');
    writeFileSync(bad, new Uint8Array([1, 2, 3]));
    const r = scry(bin, ['db', 'info', bad], 'dist');
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/gadb|format|magic/i);
  });
});

describe('choosing the bundle or the sources', () => {
  // A tree of its own: bin/scry.js beside a dist/ whose manifest lists one source, and a stand-in bundle.
  const tree = join(dir, 'tree');
  mkdirSync(join(tree, 'bin'), { recursive: true });
  mkdirSync(join(tree, 'dist'));
  mkdirSync(join(tree, 'src'));
  copyFileSync(bin, join(tree, 'bin', 'scry.js'));
  const source = join(tree, 'src', 'a.ts');
  writeFileSync(source, 'export {};\n');
  writeFileSync(join(tree, 'dist', 'scry.js'), "export const nodeIo = () => ({});\nexport async function run(argv) { process.stdout.write('bundle ' + argv.join(' ')); return 0; }\n");
  const manifest = (size: number, mtimeMs: number): void => writeFileSync(join(tree, 'dist', 'scry.meta.json'), JSON.stringify({ version: 1, inputs: { 'src/a.ts': [size, mtimeMs] } }));
  const treeBin = join(tree, 'bin', 'scry.js');

  it('runs the bundle while its sources are unchanged', () => {
    const s = statSync(source);
    manifest(s.size, s.mtimeMs);
    expect(scry(treeBin, ['x', 'y'], undefined)).toEqual({ code: 0, stdout: 'bundle x y', stderr: '' });
  });

  it('does not run a bundle older than a source: SCRY_CLI=dist says which changed (exit 4)', () => {
    const s = statSync(source);
    manifest(s.size, s.mtimeMs);
    utimesSync(source, new Date(), new Date(s.mtimeMs + 5000));
    const r = scry(treeBin, ['x'], 'dist');
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('src/a.ts changed since dist/ was built');
    expect(r.stdout).toBe('');
  });

  it('SCRY_CLI=dist with no build says so (exit 4)', () => {
    rmSync(join(tree, 'dist', 'scry.meta.json'));
    const r = scry(treeBin, ['x'], 'dist');
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('dist/scry.meta.json is missing');
  });
});
