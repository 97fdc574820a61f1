/**
 * `scry db gen --world`: the generator's semantic core — a database of the streaming systems' records at the seed's
 * figures (`src/gamedb/generate/world/`), and with `--world-archives DIR` the matching bundle archives.
 */
import { UsageError } from '../../binary/errors.ts';
import { writeGadb } from '../../formats/gadb/write.ts';
import { generateWorld, planBundleRefs, SLASH_HYPOTHESIS } from '../../gamedb/generate/world/index.ts';
import { writeFileAtomic } from '../../node/fs.ts';
import { writeWorldArchives } from '../../node/streaming.ts';
import type { CommandContext } from '../command.ts';
import { resolveLut } from './hash.ts';

export function worldGenCommand(ctx: CommandContext, seed: number): number {
  const out = ctx.options['output'];
  if (typeof out !== 'string') throw new UsageError('-o FILE is required');
  const t0 = performance.now();
  const w = generateWorld({ seed, table: resolveLut(ctx) });
  const bytes = writeGadb(w.gadb);
  const path = ctx.resolvePath(out);
  const overwrite = ctx.options['force'] === true;
  writeFileAtomic(path, bytes, { overwrite });
  let archives: Array<{ path: string; bytes: number }> = [];
  const dir = ctx.options['world-archives'];
  if (typeof dir === 'string') {
    const scaleText = ctx.options['size-scale'];
    const frac = typeof scaleText === 'string' ? /^(\d+)\/(\d+)$/.exec(scaleText.trim()) : null;
    const sizeScale = scaleText === undefined ? 1 : frac ? Number(frac[1]) / Number(frac[2]) : Number(scaleText);
    if (!(sizeScale > 0 && sizeScale <= 1)) throw new UsageError(`--size-scale must be in (0, 1], got ${JSON.stringify(scaleText)}`);
    archives = writeWorldArchives(ctx.resolvePath(dir), planBundleRefs(w.plan), { sizeScale, overwrite });
  }
  const p = w.plan;
  const summary = {
    path,
    seed,
    bytes: bytes.length,
    ms: Math.round(performance.now() - t0),
    provisionalSlash: w.provisionalSlash,
    bundleDefinitions: p.bundleDefinitions.length,
    unshippedBundles: p.bundleDefinitions.filter((d) => d.unshipped).length,
    armor: p.armor.length,
    weapons: p.weapons.length,
    templates: p.templates.length,
    templatesWithoutBundle: p.templates.filter((t) => t.bundle === undefined).length,
    lists: p.lists,
    worlds: p.regions.map((r) => ({ name: r.name, isTestWorld: r.isTestWorld, layers: r.layers.length })),
    archives,
  };
  if (ctx.json) {
    ctx.printJson(summary);
    return 0;
  }
  ctx.out(`${path}: ${bytes.length.toLocaleString('en-US')} bytes, the streaming systems' records (seed ${seed})`);
  ctx.out(`  ${summary.bundleDefinitions} DynamicResource/BundleDefinition (${summary.unshippedBundles} never shipped), ${summary.armor} armour and ${summary.weapons} weapon items, ${summary.templates} AI/Templates (${summary.templatesWithoutBundle} without a bundle)`);
  ctx.out(`  worlds: ${summary.worlds.map((x) => `${x.name}${x.isTestWorld ? ' (test)' : ''}`).join(', ')}`);
  if (w.provisionalSlash) ctx.out(`  category names with "/" are hashed with the provisional table (hypothesis ${SLASH_HYPOTHESIS.id}: "/" = 41); pass --lut with a calibrated table to change that`);
  for (const a of archives) ctx.out(`  ${a.path}: ${a.bytes.toLocaleString('en-US')} bytes`);
  return 0;
}
