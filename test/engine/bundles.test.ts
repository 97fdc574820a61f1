/**
 * The engine with the streaming layer beside it: the world's region change resets CharacterBundleMgr, the NPC
 * bundle list natives set its lists, its update runs each frame and its loaded / unloaded events are traced. The
 * database and bundle files are the generated world (seed 001's creature sets: World_Island_Day holds six bundles,
 * World_MinasIthil_Day nine).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ScriptHost } from '../../src/engine/host.ts';
import { openLayer } from '../../src/engine/layer.ts';
import { runLayerStreaming, runPlan } from '../../src/engine/run.ts';
import { LayerCache } from '../../src/engine/layer.ts';
import type { TraceEntry } from '../../src/engine/trace.ts';
import { writeGadb } from '../../src/formats/gadb/write.ts';
import { createStreamingWorld } from '../../src/resources/streaming/scenarios.ts';
import { runCli } from '../support/cli.ts';
import { worldDb, worldVfs } from '../resources/streaming/world.ts';

const ISLAND = ['goblin', 'spider', 'warg_base', 'fellbeast', 'troll_base', 'troll_poison'];
const SKINS = ['talion_base', 'celebrimbor_base'];

function layer(name: string, body: string) {
  const src = `local section_1 = {\n_quest_SC_Script_1 = function (self, threadId, scriptId)\n${body}\nend,\n}\n_G.loadedresource = section_1\n`;
  return openLayer(new TextEncoder().encode(src), name);
}

async function streamingHost() {
  const { db } = worldDb();
  const streaming = createStreamingWorld({ db, vfs: await worldVfs() }, { gear: false });
  const host = new ScriptHost({ db, bundles: streaming.cbm, cache: new LayerCache() });
  const advance = async (ms: number) => void (await streaming.streamer.run(ms));
  return { host, streaming, advance };
}

const bundles = (h: ScriptHost, change: TraceEntry['change']) => h.trace.entries.filter((e) => e.kind === 'bundle' && e.change === change);

describe('the engine with the streaming layer', () => {
  it("a load into a region resets the creature bundles: skins first, then the region's world set, each load traced", async () => {
    const { host, advance } = await streamingHost();
    const s = await runLayerStreaming(host, layer('idle', 'LithThreadSleep(threadId, 60)'), runPlan({ forSeconds: '6' }), 'World_Island_Day', advance);
    const region = bundles(host, 'region');
    expect(region).toHaveLength(1);
    expect(region[0]).toMatchObject({ name: 'World_Island_Day', t: 0 });
    expect(region[0]!.message).toMatch(/0 creature bundle\(s\) cleared, 8 requested/);
    expect(s.bundles.loaded).toEqual([...SKINS, ...ISLAND]);
    const loaded = bundles(host, 'loaded');
    expect(loaded.map((e) => e.owners)).toEqual([...SKINS.map(() => ['skin']), ...ISLAND.map(() => ['world'])]);
    // loads take streaming time: they arrive after the region change, in request order
    expect(loaded.every((e, i) => e.t > 0 && (i === 0 || e.t >= loaded[i - 1]!.t))).toBe(true);
  });

  it('System:LoadOverrideNPCBundleList from a thread sets the override; the next update requests its bundles', async () => {
    const { host, streaming, advance } = await streamingHost();
    const body = 'LithThreadSleep(threadId, 5)\nSystem:LoadOverrideNPCBundleList("Override_Nazgul", 0)';
    const s = await runLayerStreaming(host, layer('quest', body), runPlan({ forSeconds: '8' }), 'World_Island_Day', advance);
    const call = host.trace.entries.find((e) => e.kind === 'native' && e.name === 'System:LoadOverrideNPCBundleList')!;
    expect(call).toMatchObject({ t: 5000, args: ['Override_Nazgul', 0] });
    expect(call.message).toMatch(/override slot 0 = Override_Nazgul/);
    expect(streaming.cbm.overrides.get(0)?.name).toBe('Override_Nazgul');
    const update = bundles(host, 'update');
    expect(update.map((e) => e.t)).toEqual([5000]);
    const after = host.trace.entries.indexOf(update[0]!);
    const late = bundles(host, 'loaded').filter((e) => host.trace.entries.indexOf(e) > after);
    expect(late.map((e) => e.name)).toEqual(['nazgul_base']);
    expect(late.every((e) => e.owners?.includes('wanted'))).toBe(true);
    expect(s.bundles.loaded.slice(0, 8)).toEqual([...SKINS, ...ISLAND]);
  });

  it('a list the database lacks queues nothing and says so; without a streaming layer the call is only recorded', async () => {
    const { host, advance } = await streamingHost();
    await runLayerStreaming(host, layer('quest', 'System:LoadDefaultNPCBundleList("Override_Nobody")'), runPlan({ forSeconds: '0.1' }), 'World_Island_Day', advance);
    expect(host.trace.entries.find((e) => e.name === 'System:LoadDefaultNPCBundleList')!.message).toMatch(/no record "Override_Nobody": nothing queued/);
    expect(bundles(host, 'update')).toEqual([]);
    const plain = new ScriptHost({ cache: new LayerCache() });
    plain.load(layer('quest', 'System:LoadDefaultNPCBundleList("Override_Elf")'));
    expect(plain.trace.entries.find((e) => e.name === 'System:LoadDefaultNPCBundleList')!.message).toMatch(/no streaming layer/);
  });

  it('a second region clears every creature bundle (override loads included) and unloads them, then loads its own set', async () => {
    const { host, advance } = await streamingHost();
    await runLayerStreaming(host, layer('quest', 'System:LoadOverrideNPCBundleList("Override_Elf", 1)'), runPlan({ forSeconds: '6' }), 'World_Island_Day', advance);
    const before = bundles(host, 'loaded').length;
    await runLayerStreaming(host, layer('quest', 'LithThreadSleep(threadId, 60)'), runPlan({ forSeconds: '8' }), 'World_MinasIthil_Day', advance);
    const change = bundles(host, 'region')[1]!;
    expect(change.name).toBe('World_MinasIthil_Day');
    expect(change.message).toMatch(new RegExp(`from World_Island_Day: ${before} creature bundle\\(s\\) cleared`));
    expect(bundles(host, 'unloaded')).toHaveLength(before);
    expect(host.summary().bundles.unloaded).toEqual(bundles(host, 'loaded').slice(0, before).map((e) => e.name));
    // World_MinasIthil_Day's nine, after the two skins again
    expect(bundles(host, 'loaded').slice(before).filter((e) => e.owners?.includes('world'))).toHaveLength(9);
  });
});

describe('scry script run --region', () => {
  const dir = mkdtempSync(join(tmpdir(), 'scry-run-bundles-'));
  const dbPath = join(dir, 'world.gamedb');
  writeFileSync(dbPath, writeGadb(worldDb().world.gadb));
  const layerPath = join(dir, 'quest.lua');
  writeFileSync(layerPath, 'local section_1 = {\n_quest_SC_Script_1 = function (self, threadId, scriptId)\nLithThreadSleep(threadId, 1)\nSystem:LoadOverrideNPCBundleList("Override_Nazgul", 0)\nend,\n}\n_G.loadedresource = section_1\n');

  it('streams the region and the override from the generated world; JSON lines carry the bundle changes', async () => {
    const r = await runCli(['script', 'run', layerPath, '--db', dbPath, '--region', 'World_Island_Day', '--for', '5', '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as TraceEntry & { kind: string });
    expect(lines[0]).toMatchObject({ kind: 'bundle', change: 'region', name: 'World_Island_Day', t: 0 });
    const summary = lines.at(-1) as unknown as { kind: string; bundles: { regionChanges: number; loaded: string[] } };
    expect(summary.kind).toBe('summary');
    expect(summary.bundles.regionChanges).toBe(1);
    expect(summary.bundles.loaded.slice(0, 8)).toEqual([...SKINS, ...ISLAND]);
    expect(lines.some((l) => l.kind === 'bundle' && l.change === 'update' && l.t === 1000)).toBe(true);
  });

  it('a region the database lacks is bad input with the closest names; --region needs --db', async () => {
    const r = await runCli(['script', 'run', layerPath, '--db', dbPath, '--region', 'World_Island_Night']);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/no WorldInfo record .*closest: World_Island_Day/);
    expect((await runCli(['script', 'run', layerPath, '--region', 'World_Island_Day'])).code).toBe(2);
    expect((await runCli(['script', 'run', layerPath, '--mount', dir])).code).toBe(2);
  });
});
