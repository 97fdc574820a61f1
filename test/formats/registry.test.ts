import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FORMATS, detectFormat, formatById } from '../../src/formats/registry.ts';
import { buildStrdb, writeStrdb } from '../../src/formats/strdb/strdb.ts';
import { detectKind } from '../../src/server/workspace.ts';
import { MountVector } from '../../src/resources/vfs/mount-vector.ts';
import { mountPath } from '../../src/node/dir-source.ts';
import { hex, loadFixture } from '../support/fixtures.ts';

const samples: Array<[string, Uint8Array, string]> = [
  ['gadb', loadFixture('gadb', 'landmine_curse.fxp'), 'landmine_curse.fxp'],
  ['sd2', loadFixture('sd2', 'faufau-1.5.0-generated', 'sample-beta-1869.sd2'), 'sample.sd2'],
  ['hks', loadFixture('hks', 'real', 'soupstream_havok-script-tools_compiled.luac'), 'a.luac'],
  ['hks', loadFixture('scripts', 'island_fortassault_fagameplay.scripts.first65536.bin'), 'a.scripts'],
  ['arch06', loadFixture('arch06', 'Patch_13_LC.arch06.head2700.bin'), 'Patch_13_LC.arch06'],
  ['bndl', loadFixture('bndl', 'fortwallgameplay_island.bndl'), 'x.bndl'],
  ['apl', loadFixture('archivepatchloosefiles', 'Patch_13_LC.archivepatchloosefiles.txt'), 'archivepatchloosefiles.txt'],
  ['strdb', writeStrdb(buildStrdb([{ id: 1, text: 'hi' }])), 'string.strdb'],
];

describe('format registry: one place decides what a file is', () => {
  it.each(samples)('%s is recognised by content, whatever the file is called', (id, bytes) => {
    expect(detectFormat(bytes, 'renamed.bin')).toMatchObject({ format: { id }, by: id === 'apl' ? 'content' : 'content' });
    expect(() => formatById(id as 'gadb').open(bytes)).not.toThrow();
  });

  it('every format has a stable id and at least one name ending', () => {
    expect(FORMATS.map((f) => f.id)).toEqual(['gadb', 'sd2', 'hks', 'arch06', 'bndl', 'embb', 'strdb', 'apl']);
    for (const f of FORMATS) expect(f.extensions.length).toBeGreaterThan(0);
  });

  it('a damaged file is still named by its ending, so the user gets that format’s error', () => {
    expect(detectFormat(hex`00 00 00 00`, 'broken.sd2')?.format.id).toBe('sd2');
    expect(detectFormat(hex`00 00 00 00`, 'data.bin')).toBeUndefined();
  });

  it('a Lua chunk of another version is a HavokScript file (whose opener says which version), not unknown', () => {
    const lua52 = hex`1b 4c 75 61 52 00 01 04 04 04 08 00`;
    expect(detectFormat(lua52)?.format.id).toBe('hks');
    expect(() => formatById('hks').open(lua52)).toThrow(/unsupported Lua version 0x52/);
  });
});

describe('the workbench detects kinds through the registry', () => {
  it('an .sd2 under another name is sd2 by its magic', () => {
    const sd2 = loadFixture('sd2', 'faufau-1.5.0-generated', 'sample-beta-1869.sd2');
    expect(detectKind(sd2.subarray(0, 16), 'download.dat')).toBe('sd2');
  });

  it('"GADB" at +8 with another version is not a GameDB database', () => {
    const fake = hex`4c 54 46 58 01 00 00 00 47 41 44 42 12 00 00 00`;
    expect(detectKind(fake, 'x.dat')).toBe('unknown');
    const real = loadFixture('gadb', 'landmine_curse.fxp');
    expect(detectKind(real.subarray(0, 16), 'x.dat')).toBe('gadb');
  });
});

describe('the VFS mounts a file only when the registry says it is an archive', () => {
  const dir = mkdtempSync(join(tmpdir(), 'scry-registry-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  it('mounting a GameDB file says what it is', async () => {
    const path = join(dir, 'landmine_curse.fxp');
    writeFileSync(path, loadFixture('gadb', 'landmine_curse.fxp'));
    await expect(mountPath(new MountVector(), path)).rejects.toThrow(/GameDB database.*not an \.arch06 archive/);
  });
});
