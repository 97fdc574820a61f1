import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { p919, packArch06, parseArch06Index } from '../../src/index.ts';
import { runCli } from '../support/cli.ts';
import { fixturePath } from '../support/fixtures.ts';

let dir: string;
const text = 'hello archive\n';
const big = new Uint8Array(70000).map((_, i) => (i * 7) & 0xff);

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'scry-arch-'));
  mkdirSync(join(dir, 'mod', 'Characters', 'Bodies'), { recursive: true });
  writeFileSync(join(dir, 'mod', 'Characters', 'Bodies', 'Body.mesh'), big);
  writeFileSync(join(dir, 'mod', 'readme.txt'), text);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** An archive holding one entry whose stored path is `evilPath` (patched over a same-length safe name). */
function archiveWithPath(safe: string, evil: string): Uint8Array {
  const { bytes } = packArch06([{ path: safe, data: new TextEncoder().encode('pwned') }], { pathIndex: false, lowercase: false });
  const ix = parseArch06Index(bytes);
  const out = bytes.slice();
  for (const s of ix.strings) {
    const at = 48 + s.offset;
    const i = s.text.indexOf(safe.split('/')[0]!);
    if (i >= 0 && safe.includes('/')) for (let k = 0; k < 2; k++) out[at + i + k] = evil.charCodeAt(k);
    if (!safe.includes('/') && s.text === safe) out[at] = evil.charCodeAt(0);
  }
  return out;
}

describe('scry arch pack / ls / cat / extract / verify / index', () => {
  it('packs a folder deterministically, with a generated path index', async () => {
    const a = await runCli(['arch', 'pack', join(dir, 'mod'), '-o', join(dir, 'a.arch06')]);
    expect(a.code).toBe(0);
    expect(a.stdout).toContain('packed 3 entries');
    const b = await runCli(['arch', 'pack', join(dir, 'mod'), '-o', join(dir, 'b.arch06'), '--json']);
    expect(JSON.parse(b.stdout)).toMatchObject({ entries: 3, storage: 'stored', generatedPathIndex: true });
    expect(readFileSync(join(dir, 'a.arch06')).equals(readFileSync(join(dir, 'b.arch06')))).toBe(true);
    expect((await runCli(['arch', 'pack', join(dir, 'mod'), '-o', join(dir, 'a.arch06')])).code).toBe(3);
  });

  it('lists flat and as a tree, with sizes and storage', async () => {
    const flat = await runCli(['arch', 'ls', join(dir, 'a.arch06')]);
    expect(flat.code).toBe(0);
    expect(flat.stdout).toMatch(/70000\s+70000 stored\s+characters\\bodies\\body\.mesh/);
    const tree = await runCli(['arch', 'ls', '--tree', join(dir, 'a.arch06')]);
    expect(tree.stdout).toContain('  characters\\\n    bodies\\\n      body.mesh');
    const json = JSON.parse((await runCli(['arch', 'ls', '--json', '--codecs', join(dir, 'a.arch06')])).stdout);
    expect(json.entries.map((e: { path: string }) => e.path)).toEqual(['archivepatchloosefiles.txt', 'readme.txt', 'characters\\bodies\\body.mesh']);
  });

  it('cats an entry case-insensitively, and writes bytes with -o', async () => {
    const r = await runCli(['arch', 'cat', join(dir, 'a.arch06'), 'README.TXT']);
    expect(r.stdout).toBe(text);
    const o = await runCli(['arch', 'cat', join(dir, 'a.arch06'), 'characters/bodies/body.mesh', '-o', join(dir, 'body.bin')]);
    expect(o.code).toBe(0);
    expect(readFileSync(join(dir, 'body.bin')).equals(Buffer.from(big))).toBe(true);
    expect((await runCli(['arch', 'cat', join(dir, 'a.arch06'), 'nope'])).code).toBe(3);
  });

  it('pack(extract(x)) preserves every entry, for every storage mode', async () => {
    for (const storage of ['stored', 'raw-chunks', 'lzb16']) {
      const arch = join(dir, `s-${storage}.arch06`);
      expect((await runCli(['arch', 'pack', join(dir, 'mod'), '-o', arch, '--storage', storage])).code).toBe(0);
      expect((await runCli(['arch', 'verify', arch])).code).toBe(0);
      const out = join(dir, `x-${storage}`);
      const x = await runCli(['arch', 'extract', arch, '-o', out]);
      expect(x.code).toBe(0);
      expect(x.stderr).toBe(''); // no progress bar when stderr is not a terminal
      expect(readFileSync(join(out, 'characters', 'bodies', 'body.mesh')).equals(Buffer.from(big))).toBe(true);
      expect(readFileSync(join(out, 'readme.txt'), 'utf8')).toBe(text);
      const again = join(dir, `again-${storage}.arch06`);
      expect((await runCli(['arch', 'pack', out, '-o', again, '--storage', storage])).code).toBe(0);
      expect(readFileSync(again).equals(readFileSync(arch))).toBe(true);
    }
  });

  it('extracts by glob only the matching entries', async () => {
    const out = join(dir, 'glob');
    const r = await runCli(['arch', 'extract', join(dir, 'a.arch06'), '**/*.mesh', '-o', out, '--json']);
    expect(JSON.parse(r.stdout).entries).toEqual(['characters\\bodies\\body.mesh']);
    expect(existsSync(join(out, 'readme.txt'))).toBe(false);
  });

  it('refuses entry names that leave the target folder (.., drive letters, absolute) and writes nothing', async () => {
    const cases: Array<[string, string]> = [
      ['xx/evil.txt', '..'],
      ['cc/evil.txt', 'c:'],
      ['xevil.txt', '\\'],
    ];
    for (const [safe, evil] of cases) {
      const arch = join(dir, `evil-${evil.charCodeAt(0)}.arch06`);
      writeFileSync(arch, archiveWithPath(safe, evil));
      const list = await runCli(['arch', 'ls', '--json', arch]);
      const path = JSON.parse(list.stdout).entries[0].path as string;
      expect(path.startsWith(evil)).toBe(true);
      const out = join(dir, `evil-out-${evil.charCodeAt(0)}`);
      const r = await runCli(['arch', 'extract', arch, '-o', out]);
      expect(r.code).toBe(3);
      expect(r.stderr).toMatch(/refusing to extract/);
      expect(existsSync(out) ? readdirSync(out) : []).toEqual([]);
      expect(existsSync(join(dir, 'evil.txt'))).toBe(false);
    }
  });

  it('verify exits 1 on a corrupted archive and names the problem', async () => {
    const bytes = readFileSync(join(dir, 's-raw-chunks.arch06'));
    const ix = parseArch06Index(new Uint8Array(bytes));
    const f = ix.files.find((x) => x.path.endsWith('body.mesh'))!;
    const bad = Buffer.from(bytes);
    bad.writeUInt32LE(5, f.dataOffset + 4); // first chunk claims 5 raw bytes of a 65536-byte payload
    writeFileSync(join(dir, 'bad.arch06'), bad);
    const r = await runCli(['arch', 'verify', join(dir, 'bad.arch06')]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/error\tentry.decode\t\/files\/\d+/);
  });

  it('prints and checks the real path index, from a loose file', async () => {
    const r = await runCli(['arch', 'index', '--check', fixturePath('archivepatchloosefiles', 'Eltariel_BlackNumT2_Wraith_UHD.archivepatchloosefiles.txt')]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('0x3E81711F\tcharacters\\modelcharacters\\player\\bodies\\body_eltariel\\grafteltariel_wraith_body.mesh');
    const inArchive = await runCli(['arch', 'index', '--check', join(dir, 'a.arch06'), '--json']);
    expect(JSON.parse(inArchive.stdout).entries.map((e: { path: string }) => e.path).sort()).toEqual(['characters\\bodies\\body.mesh', 'readme.txt']);
  });

  it('reads a real archive head: ls works, verify reports the truncation', async () => {
    const head = fixturePath('arch06', 'Patch_13_LC.arch06.head2700.bin');
    const ls = await runCli(['arch', 'ls', '--codecs', head]);
    expect(ls.stdout).toMatch(/3749\s+1252 Kraken\s+archivepatchloosefiles\.txt/);
    const v = await runCli(['arch', 'verify', head]);
    expect(v.code).toBe(1);
    expect(v.stdout).toContain('files.range');
  });

  it('exits 2 on usage errors', async () => {
    expect((await runCli(['arch', 'extract', join(dir, 'a.arch06')])).code).toBe(2);
    expect((await runCli(['arch', 'pack', join(dir, 'mod'), '-o', join(dir, 'z.arch06'), '--storage', 'zip'])).code).toBe(2);
  });
});

describe('scry arch bndl / strdb / embb / scripts', () => {
  it('shows a real manifest with hashes, read from a file or from inside an archive', async () => {
    const island = fixturePath('bndl', 'fortwallgameplay_island.bndl');
    const r = await runCli(['arch', 'bndl', island, '--embb-size', '216049']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('     36298\tworlds\\retail\\island\\sectionsandlayers\\fortwallgameplay.objres');
    expect(r.stdout).toContain('10 resources, 215389 bytes, names block 636 bytes');
    expect(r.stdout).toContain('embb.toolsLayout.size');
    expect((await runCli(['arch', 'bndl', island, '--embb-size', '5'])).code).toBe(1);
    const arch = join(dir, 'bndl.arch06');
    writeFileSync(arch, packArch06([{ path: 'b/x.bndl', data: new Uint8Array(readFileSync(island)) }]).bytes);
    const inner = await runCli(['arch', 'bndl', 'B\\X.BNDL', '--from', arch, '--json']);
    expect(JSON.parse(inner.stdout).entries.length).toBe(10);
  });

  it('looks strings up by id (exit 1 for a missing id)', async () => {
    const file = join(dir, 's.strdb');
    writeFileSync(file, Buffer.from('534B4442' + '09000000' + '1C000000' + '01000000' + '00000000' + '04000000' + '00000000' + '07000000' + '01000000' + '0000' + '6800' + '6900' + '0000', 'hex'));
    const r = await runCli(['arch', 'strdb', file, '7']);
    expect(r.stdout).toBe('7\t"hi"\n');
    expect((await runCli(['arch', 'strdb', file, '8'])).code).toBe(1);
  });

  it('reports where an .embb contradicts the tools layout (exit 1)', async () => {
    const file = join(dir, 'x.embb');
    writeFileSync(file, Buffer.from('454D424205000000040000000100000078007900090000000300000061626300', 'hex'));
    const r = await runCli(['arch', 'embb', file]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('contradicts hypothesis embb.toolsLayout: name offset 9');
  });

  it('describes the real .scripts chunk as truncated source', async () => {
    const r = await runCli(['arch', 'scripts', fixturePath('scripts', 'island_fortassault_fagameplay.scripts.first65536.bin')]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('SCRI v1, flag 1: source, 819366 bytes declared, 65523 present (truncated)');
  });
});

describe('scry vfs', () => {
  let m1: string;
  let m2: string;
  let loose: string;
  beforeAll(() => {
    m1 = join(dir, 'patch_01.arch06');
    m2 = join(dir, 'patch_00.arch06');
    writeFileSync(m1, packArch06([{ path: 'game.gamedb', data: new TextEncoder().encode('new') }]).bytes);
    writeFileSync(m2, packArch06([{ path: 'game.gamedb', data: new TextEncoder().encode('old') }, { path: 'a/b.txt', data: new TextEncoder().encode('b') }]).bytes);
    loose = join(dir, 'Game');
    mkdirSync(join(loose, 'movies'), { recursive: true });
    writeFileSync(join(loose, 'movies', 'intro.vib'), 'movie');
  });

  it('which: the first --mount wins, later copies are shadowed; hashes resolve through the path table', async () => {
    const r = await runCli(['vfs', 'which', 'Game.GameDB', 'movies/intro.vib', '0x00000001', '--mount', m1, '--mount', m2, '--dir', loose]);
    expect(r.code).toBe(1);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toBe(`Game.GameDB\t[0] archive ${m1}\tshadows [1] ${m2}`);
    expect(lines[1]).toBe(`movies\\intro.vib\t[2] directory ${loose}`);
    expect(lines[2]).toBe('0x00000001\tnot found');
    const json = JSON.parse((await runCli(['vfs', 'which', '--json', 'a\\b.txt', '--mount', m1, '--mount', m2])).stdout);
    expect(json[0].winner).toMatchObject({ index: 1, kind: 'archive' });
  });

  it('conflicts lists shadowed copies (exit 1), table lists the merged path index, cat writes the winner', async () => {
    const c = await runCli(['vfs', 'conflicts', '--mount', m1, '--mount', m2]);
    expect(c.code).toBe(1);
    expect(c.stdout).toContain(`game.gamedb\twins: [0] ${m1}\tshadowed: [1] ${m2}`);
    const t = await runCli(['vfs', 'table', '--mount', m1, '--mount', m2, '--json']);
    expect(JSON.parse(t.stdout).map((r: { path: string }) => r.path).sort()).toEqual(['a\\b.txt', 'game.gamedb']);
    const out = join(dir, 'gamedb.out');
    expect((await runCli(['vfs', 'cat', 'game.gamedb', '-o', out, '--mount', m2, '--mount', m1])).code).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe('old');
    const ls = await runCli(['vfs', 'ls', '--mount', m1, '--dir', loose]);
    expect(ls.stdout).toContain('[1]\tmovies\\intro.vib');
  });

  it('which resolves a hash through the merged path table', async () => {
    const hash = '0x' + p919('a\\b.txt').toString(16).toUpperCase().padStart(8, '0');
    const r = await runCli(['vfs', 'which', hash, '--mount', m1, '--mount', m2]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`a\\b.txt\t[1] archive ${m2}\n`);
  });

  it('exits 2 without sources', async () => {
    expect((await runCli(['vfs', 'ls'])).code).toBe(2);
  });
});
