/** `scry db crack` and name lists on `db`/`sd2` commands: `--names FILE` (both line forms) and the config folder. */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { p919 } from '../../src/hash/p919.ts';
import { ffnv32 } from '../../src/formats/sd2/obfuscation.ts';
import { runCli } from '../support/cli.ts';
import { fixturePath } from '../support/fixtures.ts';

const FXP = fixturePath('gadb', 'landmine_curse.fxp');
const SD2 = fixturePath('sd2', 'faufau-1.5.0-generated', 'sample-beta-1869.sd2');
const dir = mkdtempSync(join(tmpdir(), 'scry-names-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const hex = (h: number) => '0x' + h.toString(16).toUpperCase().padStart(8, '0');

describe('scry db crack', () => {
  it('prints a name list of the hits with coverage before and after; --names of that list names the fields', async () => {
    const r = await runCli(['db', 'crack', FXP]);
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines[1]).toMatch(/^# coverage: 33 of 348 field hashes named \(9\.5%\) before, \d+ \([\d.]+%\) with these$/);
    const hits = lines.filter((l) => !l.startsWith('#')).map((l) => l.split('\t') as [string, string]);
    expect(hits.length).toBeGreaterThan(5);
    for (const [h, name] of hits) expect(hex(p919(name))).toBe(h);
    expect(hits).toContainEqual([hex(p919('Intensity2')), 'Intensity2']);
    // Saved with -o and loaded with --names, a cracked name labels the field in `db show`.
    const list = join(dir, 'cracked.txt');
    expect((await runCli(['db', 'crack', FXP, '-o', list])).code).toBe(0);
    expect(readFileSync(list, 'utf8')).toBe(r.stdout);
    const before = await runCli(['db', 'show', FXP, 'ClientFX.Rumble', '5', '--json']);
    const after = await runCli(['db', 'show', FXP, 'ClientFX.Rumble', '5', '--json', '--names', list]);
    const fieldsOf = (t: string) => (JSON.parse(t) as { fieldList: { field: string }[] }).fieldList.map((f) => f.field);
    expect(fieldsOf(before.stdout)).toContain(hex(p919('Intensity2')));
    expect(fieldsOf(after.stdout)).toContain('Intensity2');
    // never over an existing file
    expect((await runCli(['db', 'crack', FXP, '-o', list])).code).toBe(3);
  });

  it('reports the coverage and collisions as JSON, and takes a word list and --max-words', async () => {
    const words = join(dir, 'words.txt');
    writeFileSync(words, 'Shutdown\nRandom\n');
    const r = await runCli(['db', 'crack', FXP, '--words', words, '--max-words', '3', '--json']);
    const j = JSON.parse(r.stdout) as { coverage: { fields: number; namedBefore: number; namedAfter: number }; hits: { hash: string; name: string }[]; collisions: { hash: string; names: string[] }[] };
    expect(j.coverage.fields).toBe(348);
    expect(j.coverage.namedAfter).toBe(j.coverage.namedBefore + j.hits.length);
    // ParticleModel and ShutdownFXRandom share P919 0xBAA8534B: listed, neither picked.
    expect(j.collisions).toContainEqual({ hash: hex(p919('ParticleModel')), names: ['ParticleModel', 'ShutdownFXRandom'] });
    expect(j.hits.map((h) => h.hash)).not.toContain(hex(p919('ParticleModel')));
  });
});

describe('name lists on db and sd2 commands', () => {
  it('reads 0xHASH<TAB>name lines and refuses a pair whose name hashes elsewhere', async () => {
    const list = join(dir, 'pairs.txt');
    writeFileSync(list, `${hex(p919('Intensity2'))}\tIntensity2\n0x00000001\tIntensity3\n`);
    const r = await runCli(['db', 'show', FXP, 'ClientFX.Rumble', '5', '--json', '--names', list]);
    const fields = (JSON.parse(r.stdout) as { fieldList: { field: string }[] }).fieldList.map((f) => f.field);
    expect(fields).toContain('Intensity2');
    expect(fields).toContain(hex(p919('Intensity3')));
    expect(r.stderr).toContain(`pairs.txt:2: skipped "Intensity3": its P919 is ${hex(p919('Intensity3'))}, not the listed 0x00000001`);
  });

  it('loads every list of the user config folder ($SCRY_CONFIG/names) for db and sd2 commands', async () => {
    const config = join(dir, 'xdg', 'scry');
    mkdirSync(join(config, 'names'), { recursive: true });
    writeFileSync(join(config, 'names', 'mine.txt'), 'Intensity2\n');
    const env = { SCRY_CONFIG: config };
    const show = await runCli(['db', 'show', FXP, 'ClientFX.Rumble', '5', '--json'], { env });
    expect((JSON.parse(show.stdout) as { fieldList: { field: string }[] }).fieldList.map((f) => f.field)).toContain('Intensity2');
    // $XDG_CONFIG_HOME/scry is the same folder by another route; with neither variable there is no folder
    const xdg = await runCli(['db', 'show', FXP, 'ClientFX.Rumble', '5', '--json'], { env: { XDG_CONFIG_HOME: join(dir, 'xdg') } });
    expect(xdg.stdout).toContain('"field": "Intensity2"');
    expect((await runCli(['db', 'show', FXP, 'ClientFX.Rumble', '5', '--json'])).stdout).not.toContain('"field": "Intensity2"');
    // an sd2 column name in the folder labels the column (FFnv32), in either line form
    const info = JSON.parse((await runCli(['sd2', 'names', SD2, '--json'])).stdout) as { dictionary: number };
    expect(info.dictionary).toBe(0);
    writeFileSync(join(config, 'names', 'sd2.txt'), `${hex(ffnv32('dbtest::PoolTypes'))}\tdbtest::PoolTypes\n`);
    const tables = await runCli(['sd2', 'tables', SD2, '--json'], { env });
    expect(tables.stdout).toContain('dbtest::PoolTypes');
  });
});

describe('one number formatter (issue 17, bug 13)', () => {
  it('db diff prints f32 values as db show does (1e11 as 100000000000, not 99999997952)', async () => {
    const copy = join(dir, 'diff-b.fxp');
    expect((await runCli(['db', 'set', FXP, 'FxGlobalProps', 'FxGlobalProps', '0xE907FA5A', '5', '-o', copy])).code).toBe(0);
    const show = await runCli(['db', 'get', FXP, 'FxGlobalProps', 'FxGlobalProps', '0xE907FA5A']);
    expect(show.stdout).toBe('100000000000\n');
    const diff = await runCli(['db', 'diff', FXP, copy]);
    expect(diff.stdout).toBe('~ FxGlobalProps/FxGlobalProps.0xE907FA5A: 100000000000 → 5\n');
    const json = JSON.parse((await runCli(['db', 'diff', FXP, copy, '--json'])).stdout) as { recordsChanged: { changes: { old: unknown }[] }[] };
    expect(json.recordsChanged[0]!.changes[0]!.old).toBe(100000000000);
  });

  it('sd2 find prints f32 vector components in their shortest form', async () => {
    const r = await runCli(['sd2', 'find', SD2, '0.001']);
    expect(r.stdout.split('\n')[0]).toBe('0x5496D6B8:0:0x2923BDED\t[-2,0.5,-0.5,0.001]');
  });
});
