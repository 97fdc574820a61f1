/**
 * Effects only load through bundles (seed 001): an effect reference (an attack's AOEFX path, say) never loads
 * anything; the effect system finds resident effects by name, and only a bundle (or start-up) makes one resident.
 * The effect database's categories are sorted by the hash of their path and binary-searched (the codec's
 * `Database.findCategory` does the same).
 */
import type { Resource, ResourceTable } from '../streaming/resource-table.ts';
import { vfsKey } from '../vfs/source.ts';

const stemOf = (key: string): string => key.slice(key.lastIndexOf('\\') + 1).replace(/\.fxp$/, '');

export class EffectSystem {
  readonly table: ResourceTable;
  /** References made, and how many found their effect resident. */
  references = 0;
  hits = 0;

  constructor(table: ResourceTable) {
    this.table = table;
  }

  /** A resident effect by path or by name (file stem), case-insensitively; never loads. */
  find(name: string): Resource | undefined {
    const key = vfsKey(name.endsWith('.fxp') || name.includes('\\') || name.includes('/') ? name : name + '.fxp');
    const direct = this.table.find(key);
    if (direct) return direct.resident ? direct : undefined;
    const wanted = stemOf(key);
    for (const n of this.table.nodes()) if (n.resident && n.key.endsWith('.fxp') && stemOf(n.key) === wanted) return n;
    return undefined;
  }

  /** An effect reference (e.g. AOEFX): resident or not, it loads nothing. */
  reference(path: string): { path: string; resident: boolean } {
    this.references++;
    const hit = this.find(path) !== undefined;
    if (hit) this.hits++;
    return { path, resident: hit };
  }

  /** Every resident effect's path. */
  resident(): string[] {
    const out: string[] = [];
    for (const n of this.table.nodes()) if (n.resident && n.key.endsWith('.fxp')) out.push(n.path);
    return out.sort();
  }
}
