import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../support/cli.ts';

let dir: string;
let db: string;
let archives: string[];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'scry-sim-'));
  db = join(dir, 'world.gamedb');
  const r = await runCli(['db', 'gen', '--world', '--seed', '1', '-o', db, '--world-archives', dir, '--size-scale', '0.002', '--json']);
  expect(r.code).toBe(0);
  archives = (JSON.parse(r.stdout) as { archives: Array<{ path: string }> }).archives.map((a) => a.path);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('scry db gen --world', () => {
  it('writes the semantic core and its archives, and says which "/" table it used', async () => {
    const r = await runCli(['db', 'gen', '--world', '--seed', '1', '-o', join(dir, 'again.gamedb')]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/1484 DynamicResource\/BundleDefinition \(10 never shipped\)/);
    expect(r.stdout).toMatch(/177 AI\/Templates \(94 without a bundle\)/);
    expect(r.stdout).toMatch(/provisional table \(hypothesis world\.slashValue/);
    expect(archives.map((a) => a.slice(a.lastIndexOf('/') + 1))).toEqual(['world_characters.arch06', 'world_gear.arch06', 'world_island.arch06', 'world_minasithil.arch06', 'world_testarena.arch06']);
    expect((await runCli(['db', 'gen', '--world', '--seed', '1', '-o', db])).code).toBe(3); // never replaces a file unless --force
  });
});

describe('scry db gen --with-world', () => {
  it('places the core into a generated database the sim commands then read', async () => {
    const out = join(dir, 'scaled-world.gamedb');
    expect((await runCli(['db', 'gen', '--seed', '42', '--scale', '0.002', '--with-world', '-o', out])).code).toBe(0);
    const r = await runCli(['sim', 'spawn', '--db', out, 'Goblin_1', '--region', 'World_Island_Day', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).decision.reason).toBe('loaded');
    expect((await runCli(['db', 'verify', out])).code).toBe(0);
  });
});

describe('scry sim', () => {
  it('region: the creature set, its sizes and time to resident, from the archives', async () => {
    const r = await runCli(['sim', 'region', '--db', db, ...archives.flatMap((a) => ['--mount', a]), 'World_Island_Day', '--json']);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.bundles.map((b: { name: string; role: string }) => `${b.role}:${b.name}`)).toEqual(['skin:talion_base', 'skin:celebrimbor_base', 'world:goblin', 'world:spider', 'world:warg_base', 'world:fellbeast', 'world:troll_base', 'world:troll_poison']);
    expect(j.bundles.every((b: { state: string; contentBytes: number }) => b.state === 'resident' && b.contentBytes > 0)).toBe(true);
    expect(j.layers).toMatchObject({ count: 360, resident: 360, placedObjects: 0 });
    expect(j.timeToResident.skins).toBeLessThan(j.timeToResident.worldSet);
    const text = await runCli(['sim', 'region', '--db', db, 'World_MinasIthil_Day', '--no-layers']);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/world  nazgul_base +resident +36\.0\d MiB/); // the seed's 36.0 MB, from the generated world
    expect((await runCli(['sim', 'region', '--db', db, 'World_Nowhere'])).code).toBe(3);
  });

  it('gear: priorities and costs; a piece over the budget falls back to a resident backup (exit 1)', async () => {
    const ok = await runCli(['sim', 'gear', '--db', db, '--equip', 'RangerWarden_Armor_1', '--json']);
    expect(ok.code).toBe(0);
    const j = JSON.parse(ok.stdout);
    expect(j.budget).toBe(3200);
    expect(j.requests).toEqual([expect.objectContaining({ item: 'RangerWarden_Armor_1', status: 'loaded' })]);
    expect(j.evaluations[0].rows.map((x: { cost: number }) => x.cost)).toEqual(expect.arrayContaining([expect.any(Number)]));
    expect(j.objects.every((o: { latched: boolean; cost: number; estimate: number }) => o.latched && o.cost < o.estimate)).toBe(true);
    const tight = await runCli(['sim', 'gear', '--db', db, '--equip', 'DolIron_Armor_1', '--budget', '5']);
    expect(tight.code).toBe(1);
    expect(tight.stdout).toMatch(/DolIron_Armor_1 +unavailable \(over budget/);
    expect((await runCli(['sim', 'gear', '--db', db, '--equip', 'No_Such_Item'])).code).toBe(3);
    expect((await runCli(['sim', 'gear', '--db', db, '--budget', 'lots'])).code).toBe(2);
    expect((await runCli(['sim', 'gear'])).code).toBe(2);
  });

  it('spawn: the chain and the gate\'s decision (exit 1 when rejected)', async () => {
    const orc = await runCli(['sim', 'spawn', '--db', db, 'Orc_Dark_Warrior', '--region', 'World_Island_Day']);
    expect(orc.code).toBe(0);
    expect(orc.stdout).toMatch(/Orc_Dark_Warrior → Orc_Dark_Warrior_Model → \(null bundle\)/);
    expect(orc.stdout).toMatch(/admitted: null bundle/);
    const graug = await runCli(['sim', 'spawn', '--db', db, 'Graug_1', '--region', 'World_Island_Day', '--json']);
    expect(graug.code).toBe(1);
    expect(JSON.parse(graug.stdout).decision.message).toBe("[AI|SPAWNAMBIENT|REJECT] Graug_1 doesn't have character bundle loaded (graug)");
    const test = await runCli(['sim', 'spawn', '--db', db, 'Graug_1', '--region', 'World_TestArena']);
    expect(test.code).toBe(0);
    expect(test.stdout).toMatch(/not yet: the test world requested the bundle\nafter the requested bundle is resident: admitted/);
  });

  it('replay: a trace through the pipeline with queue depths; a bad trace is a usage error', async () => {
    const trace = {
      format: 'scry.stream-trace',
      version: 1,
      files: { 'a\\rock.tex': 70000, 'a\\rock.tex0.tex': 300000, 'a\\tree.mesh': 20000 },
      requests: [
        { t: 0, path: 'a\\rock.tex0.tex', op: 'texture' },
        { t: 0, path: 'a\\rock.tex', op: 'texture' },
        { t: 0, path: 'a\\tree.mesh' },
        { t: 5, path: 'a\\missing.tex', op: 'texture' },
      ],
    };
    const file = join(dir, 'trace.json');
    writeFileSync(file, JSON.stringify(trace));
    const r = await runCli(['sim', 'replay', file, '--json']);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.completions.map((c: { path: string; status: string }) => `${c.status} ${c.path}`)).toEqual(['done a\\rock.tex', 'done a\\tree.mesh', 'done a\\rock.tex0.tex', 'missing a\\missing.tex']);
    expect(j.depths.open).toHaveLength(2);
    const text = await runCli(['sim', 'replay', file]);
    expect(text.stdout).toMatch(/open queue depth over time/);
    writeFileSync(file, JSON.stringify({ format: 'scry.stream-trace', version: 1, requests: [{ path: 'x' }] }));
    expect((await runCli(['sim', 'replay', file])).code).toBe(2);
  });
});
