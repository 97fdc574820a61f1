/**
 * `scry sim …`: what-if runs of the engine's resource streaming over a database and its archives — the gear budget,
 * a region's creature set, the spawn gate, and a request trace through the I/O pipeline. Simulation (virtual time,
 * the latency model of `src/resources/streaming/latency.ts`) unless `--real`, which streams with real asynchronous
 * I/O and wall-clock times. Without `--mount`, the world the database describes is served by the generated world
 * source (the seed's sizes).
 */
import { readFileSync } from 'node:fs';
import { UsageError } from '../../binary/errors.ts';
import { openStreamingInputs } from '../../node/streaming.ts';
import { MountVector } from '../../resources/vfs/mount-vector.ts';
import { mountPath } from '../../node/dir-source.ts';
import { ChunkDecoder } from '../../compress/codecs.ts';
import {
  SizedFileSource,
  parseStreamTrace,
  replayTrace,
  simulateGear,
  simulateRegion,
  simulateSpawn,
  type GearEquip,
  type WorldContext,
} from '../../resources/streaming/scenarios.ts';
import type { StreamReport } from '../../resources/streaming/streamer.ts';
import { ExitCode, type Command, type CommandContext, type OptionSpec } from '../command.ts';
import { resolveLut } from './hash.ts';

const common: Record<string, OptionSpec> = {
  db: { type: 'string', valueName: 'GAMEDB', description: 'the database (.gamedb) whose records drive the managers (required)' },
  mount: { type: 'string', multiple: true, valueName: 'ARCHIVE', description: 'an .arch06 or a folder, in priority order (default: the generated world the database describes)' },
  real: { type: 'boolean', description: 'stream with real asynchronous I/O and wall-clock times instead of the simulation' },
};

const n = (x: number, digits = 0): string => x.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const mib = (bytes: number): string => `${(bytes / 1048576).toFixed(2)} MiB`;
const ms = (t: number | undefined): string => (t === undefined ? 'never' : `${n(t, 1)} ms`);

/** Opens the inputs, runs `fn`, and closes every mounted archive whatever happens. */
async function withInputs<T>(ctx: CommandContext, fn: (world: WorldContext, mounted: string[]) => Promise<T>): Promise<T> {
  const { world, mounted } = await inputs(ctx);
  try {
    return await fn(world, mounted);
  } finally {
    await world.vfs.close();
  }
}

async function inputs(ctx: CommandContext): Promise<{ world: WorldContext; mounted: string[] }> {
  const db = ctx.options['db'];
  if (typeof db !== 'string') throw new UsageError('--db GAMEDB is required');
  const mounts = ((ctx.options['mount'] as string[] | undefined) ?? []).map((m) => ctx.resolvePath(m));
  const opened = await openStreamingInputs(ctx.resolvePath(db), mounts, { table: resolveLut(ctx) });
  return { world: { db: opened.db, vfs: opened.vfs, mode: ctx.options['real'] === true ? 'real' : 'simulation' }, mounted: opened.mounted };
}

function streamLines(ctx: CommandContext, r: StreamReport): void {
  ctx.out(`pipeline (${r.mode}, ${ms(r.timeMs)}): ${n(r.requests.submitted)} requests (${n(r.requests.done)} done, ${n(r.requests.missing)} missing, ${n(r.requests.failed)} failed, ${n(r.requests.stalled)} stalled, ${n(r.requests.shared)} shared)`);
  ctx.out(`  queue high-water: open ${r.highWater.open[0]} / ${r.highWater.open[1]}, load ${r.highWater.load[0]} / ${r.highWater.load[1]}, parse ${r.highWater.parse}; open-file slots ${r.slots.max} (fewest free ${r.slots.lowWater})`);
  ctx.out(`  resource table: ${n(r.table.resources)} resources in ${n(r.table.bucketsUsed)} of 2,048 buckets (longest chain ${r.table.longestChain}), ${mib(r.table.residentBytes)} resident; path table ${n(r.pathTableRows)} rows`);
  for (const s of r.stalls) ctx.out(`  STALLED in ${s.stage} at ${ms(s.at)}: ${s.reason} (${n(s.waitingBehind)} request(s) waiting behind it)`);
}

/** `ITEM[@OWNER][:SCORE]`. */
function parseEquip(spec: string): GearEquip {
  const m = /^([^@:]+)(?:@([^:]+))?(?::(\d+))?$/.exec(spec);
  if (!m) throw new UsageError(`--equip takes ITEM[@OWNER][:SCORE], got ${JSON.stringify(spec)}`);
  return { item: m[1]!, ...(m[2] ? { owner: m[2] } : {}), ...(m[3] ? { score: Number(m[3]) } : {}) };
}

const gearCommand: Command = {
  path: ['sim', 'gear'],
  summary: 'the gear budget (NemesisBundleMgr): priorities, costs, which requests load and which fall back to which backup',
  usage: '--db GAMEDB [--equip ITEM[@OWNER][:SCORE]…] [--give ITEM…] [--budget N]',
  maxArgs: 0,
  options: {
    ...common,
    equip: { type: 'string', multiple: true, valueName: 'ITEM', description: 'equip an Inventory/ArmorData or WeaponData item (owner default "player"; SCORE = byte 3, the interaction score); repeatable' },
    give: { type: 'string', multiple: true, valueName: 'ITEM', description: 'a give-path request (byte 0 clear), same syntax as --equip; repeatable' },
    budget: { type: 'string', valueName: 'N', description: 'budget in MB instead of Faction/Global.NemsisBundleMemoryLimit × 10' },
  },
  details: [
    'Each frame the manager sorts the requested bundle objects by priority and loads them while the running cost stays',
    'within the budget; a request with a bundle over the budget takes the first OutOfMemoryBackups item whose bundles are',
    'all resident, and nothing new loads for it. Costs start as Bundles/Types.MaxMemoryPC and latch to the real size',
    '(MB) when a load finishes. Exit 1 when a request was replaced by a backup, could not load, or names a bundle no',
    'mounted source has (missing: benign in the engine, nothing loads for it).',
  ].join('\n'),
  async run(ctx) {
    const equips = [...((ctx.options['equip'] as string[] | undefined) ?? []).map(parseEquip), ...((ctx.options['give'] as string[] | undefined) ?? []).map((g) => ({ ...parseEquip(g), give: true }))];
    const budgetText = ctx.options['budget'];
    let budget: number | undefined;
    if (typeof budgetText === 'string') {
      budget = Number(budgetText);
      if (!(budget >= 0) || !Number.isFinite(budget)) throw new UsageError(`--budget must be a number ≥ 0, got ${JSON.stringify(budgetText)}`);
    }
    const { r, mounted } = await withInputs(ctx, async (world, mounted) => ({ r: await simulateGear(world, equips, budget !== undefined ? { budget } : {}), mounted }));
    const fallback = r.requests.some((q) => q.status === 'replaced' || q.status === 'unavailable' || q.status === 'missing');
    if (ctx.json) {
      ctx.printJson({ mounted, ...r });
      return fallback ? ExitCode.Findings : ExitCode.Ok;
    }
    ctx.out(`budget ${n(r.budget, 1)} MB${budget === undefined ? ` (Faction/Global.NemsisBundleMemoryLimit ${r.memoryLimit} × 10)` : ' (--budget)'}; ${n(r.definitions)} bundle objects; mounted: ${mounted.join(', ')}`);
    r.evaluations.forEach((e, i) => {
      ctx.out(`frame ${i + 1} at ${ms(e.t)}: used ${n(e.used, 2)} of ${n(r.budget, 1)} (required if unlimited ${n(e.required, 2)})`);
      for (const row of e.rows) ctx.out(`  ${row.bundle.padEnd(32)} priority ${n(row.priority, 2).padStart(10)}  cost ${n(row.cost, 3).padStart(8)}  cumulative ${n(row.cumulative, 3).padStart(9)}  ×${row.requesters}  ${row.action}`);
    });
    ctx.out('requests:');
    for (const q of r.requests) {
      const tail = q.status === 'replaced' ? ` → backup ${q.backup} (over budget: ${q.over.join(', ')})` : q.status === 'unavailable' ? ` (over budget: ${q.over.join(', ')}; no backup is resident)` : '';
      ctx.out(`  ${q.owner.padEnd(10)} ${q.item.padEnd(28)} ${q.status}${tail}`);
    }
    streamLines(ctx, r.stream);
    return fallback ? ExitCode.Findings : ExitCode.Ok;
  },
};

const regionCommand: Command = {
  path: ['sim', 'region'],
  summary: 'a region change: the creature set, its bundles and sizes, time to resident under the latency model',
  usage: '--db GAMEDB [--mount ARCHIVE…] WORLD',
  minArgs: 1,
  maxArgs: 1,
  options: {
    ...common,
    from: { type: 'string', valueName: 'WORLD', description: 'visit this region first (its bundles are cleared by the change)' },
    'no-layers': { type: 'boolean', description: 'only the creature set and skins, not the region\'s layer bundles' },
  },
  details: 'WORLD is a WorldInfo record (e.g. World_Island_Day). Exit 1 when a loader stalled.',
  async run(ctx) {
    const from = ctx.options['from'];
    const { r, mounted } = await withInputs(ctx, async (world, mounted) => ({ r: await simulateRegion(world, ctx.args[0]!, { ...(typeof from === 'string' ? { from } : {}), layers: ctx.options['no-layers'] !== true }), mounted }));
    const code = r.stream.stalls.length > 0 ? ExitCode.Findings : ExitCode.Ok;
    if (ctx.json) {
      ctx.printJson({ mounted, ...r });
      return code;
    }
    ctx.out(`${r.world}${r.isTestWorld ? ' (test world)' : ''}: world set ${r.list ?? '(none)'}; mounted: ${mounted.join(', ')}`);
    for (const b of r.bundles) ctx.out(`  ${b.role.padEnd(6)} ${b.name.padEnd(20)} ${b.state.padEnd(9)} ${mib(b.contentBytes).padStart(12)}  ${String(b.resources).padStart(3)} resources  resident at ${ms(b.residentAt)}${b.layout === 'opaque' ? '  (content contradicts the size rule: kept whole, hypothesis stream.contentSplit)' : ''}`);
    const t = r.timeToResident;
    ctx.out(`time to resident: skins ${ms(t.skins)}, world set ${ms(t.worldSet)}, layers ${ms(t.layers)}, all ${ms(t.all)}`);
    ctx.out(`layers: ${n(r.layers.count)} bundles, ${n(r.layers.resident)} resident, ${n(r.layers.missing)} missing, ${mib(r.layers.bytes)}; objects placed: ${r.layers.placedObjects} (a layer bundle places nothing)${r.layers.opaque > 0 ? `; ${n(r.layers.opaque)} with content that contradicts the size rule (kept whole, hypothesis stream.contentSplit)` : ''}`);
    ctx.out(`registry: ${n(r.registryRows)} bundles`);
    streamLines(ctx, r.stream);
    return code;
  },
};

const spawnCommand: Command = {
  path: ['sim', 'spawn'],
  summary: 'the spawn chain of an AI/Templates record and whether the gate admits it in a region',
  usage: '--db GAMEDB TEMPLATE --region WORLD',
  minArgs: 1,
  maxArgs: 1,
  options: { ...common, region: { type: 'string', valueName: 'WORLD', description: 'the WorldInfo record whose creature set is loaded (required)' } },
  details: 'template → CharacterModel → Bundle → loaded? A null bundle is admitted. Exit 1 when the gate rejects the spawn.',
  async run(ctx) {
    const region = ctx.options['region'];
    if (typeof region !== 'string') throw new UsageError('--region WORLD is required');
    const { r, mounted } = await withInputs(ctx, async (world, mounted) => ({ r: await simulateSpawn(world, ctx.args[0]!, region), mounted }));
    const final = r.retry ?? r.decision;
    const code = final.admitted ? ExitCode.Ok : ExitCode.Findings;
    if (ctx.json) {
      ctx.printJson({ mounted, ...r });
      return code;
    }
    const d = r.decision;
    ctx.out(`${d.template} → ${d.model ?? '(no model)'} → ${d.bundle ?? '(null bundle)'}`);
    ctx.out(`region ${r.region}${r.isTestWorld ? ' (WorldInfo.IsTestWorld set)' : ''}: world set ${r.worldSet.length} bundle(s); spawn channels reaching it: ${d.channels.length > 0 ? d.channels.join(', ') : 'none'}`);
    const say = (x: typeof d): string =>
      x.reason === 'null-bundle' ? 'admitted: null bundle (its data is always resident)' : x.reason === 'loaded' ? 'admitted: the bundle is loaded' : x.reason === 'requested' ? 'not yet: the test world requested the bundle' : `rejected: ${x.message}`;
    ctx.out(say(d));
    if (r.retry) ctx.out(`after the requested bundle is resident: ${say(r.retry)}`);
    return code;
  },
};

const replayCommand: Command = {
  path: ['sim', 'replay'],
  summary: 'a request trace through the I/O pipeline, with queue depths over time',
  usage: 'TRACE.json [--mount ARCHIVE…]',
  minArgs: 1,
  maxArgs: 1,
  options: {
    mount: { type: 'string', multiple: true, valueName: 'ARCHIVE', description: 'an .arch06 or a folder, in priority order, mounted before the trace\'s "files"' },
    real: common['real']!,
    'max-points': { type: 'string', valueName: 'N', description: 'queue-depth samples to print (default 20)' },
  },
  details: [
    'TRACE.json: { "format": "scry.stream-trace", "version": 1, "requests": [{ "t": ms, "path": "…", "op": "load|texture|bundle", "queue": 0|1 }],',
    '"files": { "path": bytes } (served as zeros when nothing is mounted), "switches": { "open", "load", "parse" }, "slots": 32,',
    '"latency": { "open": { "fixedMs", "mibPerSecond" }, … } }. Exit 1 when a loader stalled.',
  ].join('\n'),
  async run(ctx) {
    const points = Number(ctx.options['max-points'] ?? 20);
    if (!Number.isInteger(points) || points < 1 || points > 10_000) throw new UsageError(`--max-points must be an integer in 1..10000, got ${JSON.stringify(ctx.options['max-points'])}`);
    const file = ctx.resolvePath(ctx.args[0]!);
    let doc: unknown;
    try {
      doc = JSON.parse(readFileSync(file, 'utf8'));
    } catch (e) {
      if (e instanceof SyntaxError) throw new UsageError(`${ctx.args[0]}: not JSON (${e.message})`);
      throw e;
    }
    const trace = parseStreamTrace(doc);
    const vfs = new MountVector({ table: resolveLut(ctx) });
    const decoder = new ChunkDecoder();
    for (const m of (ctx.options['mount'] as string[] | undefined) ?? []) await mountPath(vfs, ctx.resolvePath(m), undefined, { decoder });
    if (trace.files) await vfs.mount(new SizedFileSource(trace.files));
    let r;
    try {
      r = await replayTrace(trace, vfs, { mode: ctx.options['real'] === true ? 'real' : 'simulation' });
    } finally {
      await vfs.close();
    }
    const code = r.stream.stalls.length > 0 ? ExitCode.Findings : ExitCode.Ok;
    if (ctx.json) {
      ctx.printJson({ completions: r.completions, depths: r.depths, stream: r.stream });
      return code;
    }
    ctx.out(`order of completion (${r.completions.length}):`);
    for (const c of r.completions) ctx.out(`  ${ms(c.t).padStart(12)}  #${String(c.id).padEnd(5)} q${c.queue} ${c.status.padEnd(8)} ${c.path}${c.bytes ? ` (${n(c.bytes)} B)` : ''}`);
    if (r.depths) {
      ctx.out('open queue depth over time (queue 0 / queue 1):');
      const [t0, d0] = r.depths.open[0]!;
      const [t1, d1] = r.depths.open[1]!;
      const end = Math.max(r.stream.timeMs, 1);
      const at = (ts: number[], ds: number[], t: number): number => {
        let v = 0;
        for (let i = 0; i < ts.length && ts[i]! <= t; i++) v = ds[i]!;
        return v;
      };
      for (let i = 0; i <= points; i++) {
        const t = (end * i) / points;
        ctx.out(`  ${ms(t).padStart(12)}  ${String(at(t0, d0, t)).padStart(5)} / ${String(at(t1, d1, t)).padEnd(5)}`);
      }
    }
    streamLines(ctx, r.stream);
    return code;
  },
};

export const simCommands: Command[] = [gearCommand, regionCommand, spawnCommand, replayCommand];
