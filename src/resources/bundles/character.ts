/**
 * CharacterBundleMgr (CharacterBundleMgr.cpp, MainScene+0x868; seed 001 "Creature bundles"): which creature models
 * are in memory.
 *
 * - The update (0x4B4FFC), when the dirty byte is set: wanted = the first override list (or the default list) plus
 *   the always and extra sets; world set = the provider's list (the region's Server/NPCBundle/Lists record). The
 *   reconcile (0xE9F360) requests what is new (RequestBundleLoad 0x4B6204), queues what dropped out for unloading,
 *   then drains the queue, firing loaded / unloaded events through the global script agent — here, to any
 *   `CharacterBundleListener` (the engine's script host hooks one).
 * - A region change resets everything: every set and every loaded creature bundle is cleared, including loads
 *   requested on demand, then the region's sets are rebuilt: skins first, then the world set.
 * - Loads requested directly with RequestBundleLoad persist within a region, because no set owns them.
 * - The spawn gate (0x16652C): template → CharacterModel → Bundle → IsBundleLoaded (0x1665B4). A null bundle allows
 *   the spawn (the data is always resident); a loaded one too; a missing one is requested only when the region's
 *   WorldInfo.IsTestWorld is set, otherwise the spawn is rejected.
 */
import type { Database } from '../../gamedb/database.ts';
import { vfsKey } from '../vfs/source.ts';
import type { Bundle, BundleRegistry } from './registry.ts';
import { npcBundleListNamed, spawnChain, spawnChannelTemplates, worldInfo, type WorldInfo } from './world-data.ts';

/** Why a bundle is held: a set, the world set, a skin, or a direct RequestBundleLoad (also the test-world gate). */
export type CharacterBundleOwner = 'wanted' | 'world' | 'skin' | 'direct';

export interface CharacterBundleEvent {
  /** The bundle path. */
  bundle: string;
  /** Its name (file stem), as scripts see it. */
  name: string;
  /** Milliseconds (streamer time). */
  t: number;
  owners: CharacterBundleOwner[];
}

/** The hook for the engine's script host (the global script agent, GM+0x6CF0). */
export interface CharacterBundleListener {
  bundleLoaded?(e: CharacterBundleEvent): void;
  bundleUnloaded?(e: CharacterBundleEvent): void;
}

interface Held {
  bundle: Bundle;
  owners: Set<CharacterBundleOwner>;
  requestedAt: number;
  loadedFired: boolean;
}

export interface SpawnDecision {
  template: string;
  model: string | undefined;
  /** The bundle path; undefined for a null bundle. */
  bundle: string | undefined;
  loaded: boolean;
  admitted: boolean;
  /** The gate requested the bundle (test world only). */
  requested: boolean;
  isTestWorld: boolean;
  reason: 'null-bundle' | 'loaded' | 'requested' | 'rejected';
  /** The engine's log line for a rejection. */
  message?: string;
  /** The region's spawn channels (AITypes) whose entries reach this template. */
  channels: string[];
}

export interface CharacterBundleMgrOptions {
  listener?: CharacterBundleListener;
  now?: () => number;
  event?: (kind: string, detail: Record<string, unknown>) => void;
}

const stem = (path: string): string => {
  const p = path.replace(/\//g, '\\');
  return p.slice(p.lastIndexOf('\\') + 1).replace(/\.[^.]*$/, '');
};

export class CharacterBundleMgr {
  readonly db: Database;
  readonly registry: BundleRegistry;
  listener: CharacterBundleListener | undefined;
  region: WorldInfo | undefined;
  /** Default list (LoadDefaultNPCBundleList): its name and bundles. */
  defaultList: { name: string; bundles: string[] } | undefined;
  /** Override lists by slot (LoadOverrideNPCBundleList); the first (lowest slot) wins over the default. */
  readonly overrides = new Map<number, { name: string; bundles: string[] }>();
  readonly always = new Set<string>();
  readonly extra = new Map<string, string[]>();
  /** The provider's list: the region's world set. */
  worldSet: string[] = [];
  skins: string[] = [];
  /** Direct RequestBundleLoad calls (persist within a region). */
  readonly direct = new Set<string>();
  private readonly held = new Map<string, Held>();
  private dirty = false;
  private readonly now: () => number;
  private readonly emit: (kind: string, detail: Record<string, unknown>) => void;
  /** Every loaded / unloaded event fired, in order. */
  readonly fired: Array<{ kind: 'loaded' | 'unloaded' } & CharacterBundleEvent> = [];

  constructor(db: Database, registry: BundleRegistry, options: CharacterBundleMgrOptions = {}) {
    this.db = db;
    this.registry = registry;
    this.listener = options.listener;
    this.now = options.now ?? (() => 0);
    this.emit = options.event ?? (() => {});
  }

  /** System:LoadOverrideNPCBundleList(list, slot). */
  loadOverrideList(list: string, slot = 0): void {
    this.overrides.set(slot, { name: list, bundles: npcBundleListNamed(this.db, list) });
    this.dirty = true;
  }

  /** A quest ends: its override goes. */
  unloadOverrideList(slot = 0): void {
    if (this.overrides.delete(slot)) this.dirty = true;
  }

  /** System:LoadDefaultNPCBundleList(list). */
  loadDefaultList(list: string): void {
    this.defaultList = { name: list, bundles: npcBundleListNamed(this.db, list) };
    this.dirty = true;
  }

  setAlways(paths: Iterable<string>): void {
    this.always.clear();
    for (const p of paths) this.always.add(p);
    this.dirty = true;
  }

  setExtra(name: string, paths: string[] | undefined): void {
    if (paths) this.extra.set(name, paths);
    else this.extra.delete(name);
    this.dirty = true;
  }

  /** RequestBundleLoad (0x4B6204) called directly: no set owns it, so it persists within the region. */
  requestBundleLoad(path: string): void {
    this.direct.add(path);
    this.hold(path, 'direct');
  }

  /** The wanted set: first override (or the default list) + always + extra. */
  wanted(): string[] {
    const slots = [...this.overrides.keys()].sort((a, b) => a - b);
    const first = slots.length > 0 ? this.overrides.get(slots[0]!)!.bundles : (this.defaultList?.bundles ?? []);
    const out = [...first, ...this.always];
    for (const e of this.extra.values()) out.push(...e);
    return out;
  }

  /** IsBundleLoaded (0x1665B4): the bundle is resident. */
  isBundleLoaded(path: string): boolean {
    return this.registry.find(path)?.resident === true;
  }

  private hold(path: string, owner: CharacterBundleOwner): void {
    const key = vfsKey(path);
    let h = this.held.get(key);
    if (h) {
      h.owners.add(owner);
      return;
    }
    const bundle = this.registry.get(path);
    this.registry.acquire(bundle);
    this.registry.prefetch(bundle);
    h = { bundle, owners: new Set([owner]), requestedAt: this.now(), loadedFired: false };
    this.held.set(key, h);
    this.emit('cbm.request', { bundle: bundle.path, owner });
    const held = h;
    bundle.whenSettled((b) => {
      if (this.held.get(key) !== held || !b.resident) return;
      held.loadedFired = true;
      this.fire('loaded', held);
    });
  }

  private fire(kind: 'loaded' | 'unloaded', h: Held): void {
    const e: CharacterBundleEvent = { bundle: h.bundle.path, name: stem(h.bundle.path), t: this.now(), owners: [...h.owners] };
    this.fired.push({ kind, ...e });
    this.emit(`cbm.${kind}`, { bundle: e.bundle, owners: e.owners });
    if (kind === 'loaded') this.listener?.bundleLoaded?.(e);
    else this.listener?.bundleUnloaded?.(e);
  }

  /** The update + reconcile, when dirty (or forced). */
  update(force = false): { requested: string[]; unloaded: string[] } {
    if (!this.dirty && !force) return { requested: [], unloaded: [] };
    this.dirty = false;
    const target = new Map<string, Set<CharacterBundleOwner>>();
    const want = (p: string, o: CharacterBundleOwner): void => {
      const k = vfsKey(p);
      if (!target.has(k)) target.set(k, new Set());
      target.get(k)!.add(o);
    };
    for (const p of this.skins) want(p, 'skin');
    for (const p of this.wanted()) want(p, 'wanted');
    for (const p of this.worldSet) want(p, 'world');
    for (const p of this.direct) want(p, 'direct');
    const requested: string[] = [];
    for (const p of [...this.skins, ...this.wanted(), ...this.worldSet, ...this.direct]) {
      const k = vfsKey(p);
      const owners = target.get(k)!;
      const h = this.held.get(k);
      if (h) {
        h.owners = new Set(owners);
        continue;
      }
      for (const o of owners) this.hold(p, o);
      requested.push(p);
    }
    // what dropped out is queued for unloading, then the queue is drained
    const queue: Held[] = [];
    for (const [k, h] of this.held) if (!target.has(k)) queue.push(h);
    const unloaded: string[] = [];
    for (const h of queue) {
      this.unload(h);
      unloaded.push(h.bundle.path);
    }
    return { requested, unloaded };
  }

  private unload(h: Held): void {
    this.held.delete(vfsKey(h.bundle.path));
    this.registry.discard(h.bundle);
    this.registry.release(h.bundle);
    if (h.loadedFired) this.fire('unloaded', h);
  }

  /**
   * A region change: clears every set and every loaded creature bundle (direct loads included), then rebuilds the
   * region's sets — skins first, then the world set.
   */
  changeRegion(world: string): { cleared: string[]; requested: string[] } {
    const info = worldInfo(this.db, world);
    const cleared = [...this.held.values()].map((h) => h.bundle.path);
    for (const h of [...this.held.values()]) this.unload(h);
    this.overrides.clear();
    this.defaultList = undefined;
    this.always.clear();
    this.extra.clear();
    this.direct.clear();
    this.region = info;
    this.emit('region.change', { world: info.name, cleared: cleared.length });
    this.skins = info.skins;
    this.worldSet = [];
    const requested: string[] = [];
    for (const s of this.skins) {
      this.hold(s, 'skin');
      requested.push(s);
    }
    this.worldSet = info.worldSet;
    for (const p of this.worldSet) {
      if (this.held.has(vfsKey(p))) continue;
      this.hold(p, 'world');
      requested.push(p);
    }
    this.dirty = false;
    return { cleared, requested };
  }

  /** The bundles held and why (console CharacterBundleMgr.Dump). */
  dump(): Array<{ bundle: string; owners: CharacterBundleOwner[]; state: string; requestedAt: number; residentAt: number | undefined }> {
    return [...this.held.values()].map((h) => ({ bundle: h.bundle.path, owners: [...h.owners], state: h.bundle.state, requestedAt: h.requestedAt, residentAt: h.bundle.residentAt }));
  }

  /** The held bundle for a path, if any. */
  heldBundle(path: string): Bundle | undefined {
    return this.held.get(vfsKey(path))?.bundle;
  }

  /** The spawn gate (0x16652C). */
  spawn(templateName: string): SpawnDecision {
    const chain = spawnChain(this.db, templateName);
    const isTestWorld = this.region?.isTestWorld ?? false;
    const channels = (this.region?.spawnTypes ?? []).filter((c) => spawnChannelTemplates(c).some((t) => t.index === chain.template.index)).map((c) => c.label);
    const base = { template: chain.template.label, model: chain.model?.label, bundle: chain.bundle, isTestWorld, channels };
    if (chain.bundle === undefined) return { ...base, loaded: true, admitted: true, requested: false, reason: 'null-bundle' };
    if (this.isBundleLoaded(chain.bundle)) return { ...base, loaded: true, admitted: true, requested: false, reason: 'loaded' };
    if (isTestWorld) {
      this.requestBundleLoad(chain.bundle);
      this.emit('spawn.request', { template: base.template, bundle: chain.bundle });
      return { ...base, loaded: false, admitted: false, requested: true, reason: 'requested' };
    }
    const message = `[AI|SPAWNAMBIENT|REJECT] ${base.template} doesn't have character bundle loaded (${stem(chain.bundle)})`;
    this.emit('spawn.reject', { template: base.template, bundle: chain.bundle });
    return { ...base, loaded: false, admitted: false, requested: false, reason: 'rejected', message };
  }
}
