/**
 * Gear streaming (seed 001 "Gear needs two bundles", "The gear budget").
 *
 * An armour piece's geometry is in `<piece>_g.bndl` and its material and textures in the set-wide
 * `<set>_<slot>_m.bndl`, both named by the item's design record (DynamicBundle). The engine loads both through a
 * gear load request made only for an equipped item (`equip`); a piece placed without an item gets none.
 *
 * NemesisBundleMgr: the budget is Faction/Global.NemsisBundleMemoryLimit × 10 (320 → 3,200); one object per
 * DynamicResource/BundleDefinition record (1,484), kept in a table of {record, object}. An object's cost starts as
 * its type's Bundles/Types.MaxMemoryPC (10 / 20 / 30) and is replaced once, when its load finishes, by the real
 * size in MB (`gear.realSize`); its state becomes 2 and its requesters are told.
 *
 * Priority (0x3FFB10), from the live requesters: the highest DynamicBundleLoadPriority among them plus byte 3 (their
 * maximum), + 1,000 for byte 0 when the bundle has a handle, + 10,000 for byte 1, + 500 for byte 2, + 1,000 for
 * byte 4 (bytes 0, 1, 2, 4 merge by OR); then × 1.25 at exactly 4 requesters, × 1.5 at 6 or 7, × 1.75 above 8,
 * unchanged at 5 and 8 (and below 4).
 *
 * Each frame (0x614438), when something changed: sort by priority, highest first, add up the costs; objects within
 * the budget are loaded (`gear.budgetPrefix`); a request with an object over the budget takes the first
 * OutOfMemoryBackups entry — the armour's, then the weapon's (`gear.backupLists`) — whose bundles are all resident
 * (a handle, counters +0x4C and +0x50 equal, state 2), and nothing new is loaded for it. The budget applies to
 * this gear path only.
 */
import type { Database, DbRecord } from '../../gamedb/database.ts';
import type { Bundle, BundleRegistry } from './registry.ts';
import { bundleDefinitions, gearBudget, gearItem, gearItemKind, gearItemOf, type BundleDefinitionInfo, type GearItemInfo } from './world-data.ts';

/** The five bytes a request carries at +0x50: 0, 1, 2 and 4 are flags, 3 a number. */
export interface GearFlags {
  /** Byte 0: always 1 on the equip path; clear on the give path. Counts only when the bundle has a handle. */
  b0: boolean;
  /** Byte 1: the owner reference has a +0x40. */
  b1: boolean;
  /** Byte 2: the owning character is a follower (+0x2700, +0x23B8 or +0x2C04). */
  b2: boolean;
  /** Byte 3: the member's Player Interaction Score when the request was made (a snapshot). */
  score: number;
  /** Byte 4: from 0x77F804. */
  b4: boolean;
}

/** The equip path's bytes (0x400084): byte 0 always set. */
export function equipFlags(flags: Partial<Omit<GearFlags, 'b0'>> = {}): GearFlags {
  return { b0: true, b1: flags.b1 ?? false, b2: flags.b2 ?? false, score: flags.score ?? 0, b4: flags.b4 ?? false };
}

/**
 * The give path's bytes (0x4B4C7C): taken from a struct at +0xF8 of the 25-slot item table, whose content is an open
 * question; byte 0 is clear (the seed saw byte 3 values up to 41 there).
 */
export function giveFlags(flags: Partial<Omit<GearFlags, 'b0'>> = {}): GearFlags {
  return { b0: false, b1: flags.b1 ?? false, b2: flags.b2 ?? false, score: flags.score ?? 0, b4: flags.b4 ?? false };
}

/** The requester-count scale: × 1.25 at exactly 4, × 1.5 at 6 or 7, × 1.75 above 8; 1 otherwise (5 and 8 included). */
export function requesterMultiplier(requesters: number): number {
  if (requesters === 4) return 1.25;
  if (requesters === 6 || requesters === 7) return 1.5;
  if (requesters > 8) return 1.75;
  return 1;
}

/** Object state +0x48: 0 nothing requested, 1 loading, 2 loaded (the seed names 2). */
export type GearObjectState = 0 | 1 | 2;

export class GearObject {
  readonly definition: BundleDefinitionInfo;
  /** Position in the manager's table. */
  readonly index: number;
  /** Bundles/Types.MaxMemoryPC. */
  readonly estimate: number;
  /** +0x3C: the estimate, until the real size latches. */
  cost: number;
  /** +0x58: the real size has replaced the estimate. */
  latched = false;
  /** +0x38, rebuilt from the requesters. */
  priority = 0;
  /** +0x48. */
  state: GearObjectState = 0;
  /** +0x4C / +0x50 (`gear.counters`). */
  issued = 0;
  completed = 0;
  readonly requesters = new Set<GearRequest>();
  /** The bundle handle (and prefetch) the manager holds while the object is loaded. */
  bundle: Bundle | undefined;
  /** The manifest was missing (a benign empty row). */
  missing = false;
  /** Whether the last evaluation put it within the budget. */
  withinBudget = false;

  constructor(definition: BundleDefinitionInfo, index: number) {
    this.definition = definition;
    this.index = index;
    this.estimate = definition.estimate;
    this.cost = definition.estimate;
  }

  get name(): string {
    return this.definition.name;
  }
  get hasHandle(): boolean {
    return this.bundle !== undefined;
  }
  /** Resident as the backup walk requires (0x614D3C): a handle, counters equal, state 2. */
  get residentForBackup(): boolean {
    return this.hasHandle && this.issued === this.completed && this.state === 2;
  }
}

/** `missing`: a bundle's manifest is in no mounted source (benign: nothing loads for it). */
export type GearRequestStatus = 'pending' | 'loading' | 'loaded' | 'missing' | 'replaced' | 'unavailable';

export class GearRequest {
  readonly id: number;
  readonly owner: string;
  readonly item: GearItemInfo;
  readonly flags: GearFlags;
  readonly objects: GearObject[];
  status: GearRequestStatus = 'pending';
  /** The backup the owner received instead (`replaced`). */
  backup: GearItemInfo | undefined;

  constructor(id: number, owner: string, item: GearItemInfo, flags: GearFlags, objects: GearObject[]) {
    this.id = id;
    this.owner = owner;
    this.item = item;
    this.flags = flags;
    this.objects = objects;
  }
}

/** One row of an evaluation: the sorted order with running cost. */
export interface GearEvaluationRow {
  object: GearObject;
  priority: number;
  cost: number;
  cumulative: number;
  requesters: number;
  withinBudget: boolean;
  /** What happened to it this frame. */
  action: 'load' | 'loading' | 'resident' | 'over-budget' | 'missing';
}

export interface GearEvaluation {
  t: number;
  budget: number;
  /** Σ cost of the objects within budget (and resident ones). */
  used: number;
  /** Σ cost of every requested object: what an unlimited budget would hold. */
  required: number;
  rows: GearEvaluationRow[];
  requests: Array<{ request: GearRequest; status: GearRequestStatus; backup?: string; over: string[] }>;
}

export interface NemesisBundleMgrOptions {
  /** Override the budget (default: Faction/Global.NemsisBundleMemoryLimit × 10). */
  budget?: number;
  now?: () => number;
  /** Told about loads, latches and backups. */
  event?: (kind: string, detail: Record<string, unknown>) => void;
}

export class NemesisBundleMgr {
  readonly db: Database;
  readonly registry: BundleRegistry;
  /** +0x00. */
  readonly budget: number;
  /** Faction/Global.NemsisBundleMemoryLimit. */
  readonly memoryLimit: number;
  /** +0x08: {record, object}, one per BundleDefinition. */
  readonly objects: GearObject[];
  readonly requests = new Set<GearRequest>();
  private readonly byRecord = new Map<number, GearObject>();
  private readonly now: () => number;
  private readonly emit: (kind: string, detail: Record<string, unknown>) => void;
  private dirty = false;
  private nextId = 1;
  /** Every evaluation made, in order. */
  readonly evaluations: GearEvaluation[] = [];

  /** The initialiser 0x1B42728 (run once from the database setup). */
  constructor(db: Database, registry: BundleRegistry, options: NemesisBundleMgrOptions = {}) {
    this.db = db;
    this.registry = registry;
    const { limit, budget } = gearBudget(db);
    this.memoryLimit = limit;
    this.budget = options.budget ?? budget;
    this.objects = bundleDefinitions(db).map((d, i) => new GearObject(d, i));
    for (const o of this.objects) this.byRecord.set(o.definition.record.index, o);
    this.now = options.now ?? (() => 0);
    this.emit = options.event ?? (() => {});
  }

  /** The object of a BundleDefinition record. */
  objectOf(definition: DbRecord): GearObject | undefined {
    return this.byRecord.get(definition.index);
  }

  /** A gear load request for an equipped item (the only way one is made). */
  equip(owner: string, item: string | DbRecord, flags: GearFlags = equipFlags()): GearRequest {
    const info = typeof item === 'string' ? gearItem(this.db, item) : gearItemOf(item, gearItemKind(item) ?? 'armor');
    const objects = info.bundles.map((b) => this.objectOf(b)).filter((o): o is GearObject => o !== undefined);
    const r = new GearRequest(this.nextId++, owner, info, flags, objects);
    for (const o of objects) o.requesters.add(r);
    this.requests.add(r);
    this.dirty = true;
    this.emit('gear.request', { owner, item: info.name, bundles: objects.map((o) => o.name) });
    return r;
  }

  /** The item goes away: its objects lose a requester; one left with none is let go (discard, then release). */
  unequip(r: GearRequest): void {
    if (!this.requests.delete(r)) return;
    for (const o of r.objects) {
      o.requesters.delete(r);
      if (o.requesters.size === 0) this.letGo(o);
    }
    this.dirty = true;
  }

  private letGo(o: GearObject): void {
    if (!o.bundle) return;
    this.registry.discard(o.bundle);
    this.registry.release(o.bundle);
    o.bundle = undefined;
    o.state = 0;
    this.emit('gear.release', { bundle: o.name });
  }

  /** The merged bytes of an object's requesters: 0, 1, 2, 4 by OR, 3 by maximum (0x3FFD44). */
  mergedFlags(o: GearObject): GearFlags {
    const m: GearFlags = { b0: false, b1: false, b2: false, score: 0, b4: false };
    for (const r of o.requesters) {
      m.b0 ||= r.flags.b0;
      m.b1 ||= r.flags.b1;
      m.b2 ||= r.flags.b2;
      m.b4 ||= r.flags.b4;
      if (r.flags.score > m.score) m.score = r.flags.score;
    }
    return m;
  }

  /** The priority (0x3FFB10) from the live requesters. */
  priorityOf(o: GearObject): number {
    if (o.requesters.size === 0) return 0;
    let highest = Number.NEGATIVE_INFINITY;
    for (const r of o.requesters) if (r.item.priority > highest) highest = r.item.priority;
    const f = this.mergedFlags(o);
    const score = highest + f.score + (f.b0 && o.hasHandle ? 1000 : 0) + (f.b1 ? 10_000 : 0) + (f.b2 ? 500 : 0) + (f.b4 ? 1000 : 0);
    return score * requesterMultiplier(o.requesters.size);
  }

  private load(o: GearObject): void {
    const b = this.registry.get(o.definition.path);
    this.registry.acquire(b);
    this.registry.prefetch(b);
    o.bundle = b;
    o.state = 1;
    o.issued++;
    this.emit('gear.load', { bundle: o.name, cost: o.cost });
    b.whenSettled((settled) => {
      if (o.bundle !== settled) return;
      o.completed++;
      if (settled.resident) {
        if (!o.latched) {
          // 0x3FFA24: the real size replaces the estimate once
          o.cost = settled.contentBytes / 1048576;
          o.latched = true;
        }
        o.state = 2;
        this.emit('gear.resident', { bundle: o.name, cost: o.cost });
      } else {
        o.missing = true;
        o.state = 0;
        this.emit('gear.missing', { bundle: o.name, path: o.definition.path });
      }
      this.dirty = true;
    });
  }

  /** Whether the next `update` will re-evaluate. */
  get changed(): boolean {
    return this.dirty;
  }

  /** The per-frame re-evaluation (0x614438); only when something changed. */
  update(): GearEvaluation | undefined {
    if (!this.dirty) return undefined;
    this.dirty = false;
    const live = this.objects.filter((o) => o.requesters.size > 0);
    for (const o of live) o.priority = this.priorityOf(o);
    live.sort((a, b) => b.priority - a.priority || a.index - b.index);
    let cumulative = 0;
    let overflowed = false;
    const rows: GearEvaluationRow[] = [];
    let used = 0;
    let required = 0;
    for (const o of live) {
      required += o.cost;
      const fits = !overflowed && cumulative + o.cost <= this.budget;
      if (!fits) overflowed = true;
      cumulative += o.cost;
      const resident = o.state === 2;
      o.withinBudget = fits || resident; // gear.residentStays
      let action: GearEvaluationRow['action'];
      if (o.missing) action = 'missing';
      else if (resident) action = 'resident';
      else if (!fits) action = o.state === 1 ? 'loading' : 'over-budget';
      else if (o.state === 1) action = 'loading';
      else {
        this.load(o);
        action = 'load';
      }
      if (o.withinBudget || o.state === 1) used += o.cost;
      rows.push({ object: o, priority: o.priority, cost: o.cost, cumulative, requesters: o.requesters.size, withinBudget: o.withinBudget, action });
    }
    const requests: GearEvaluation['requests'] = [];
    for (const r of this.requests) {
      const over = r.objects.filter((o) => !o.withinBudget && o.state !== 1 && !o.missing);
      if (over.length === 0) {
        r.status = r.objects.some((o) => o.missing) ? 'missing' : r.objects.every((o) => o.state === 2) ? 'loaded' : 'loading';
        r.backup = undefined;
      } else {
        const backup = this.findBackup(r);
        r.status = backup ? 'replaced' : 'unavailable';
        r.backup = backup;
        this.emit('gear.backup', { owner: r.owner, item: r.item.name, backup: backup?.name ?? null });
      }
      requests.push({ request: r, status: r.status, ...(r.backup ? { backup: r.backup.name } : {}), over: over.map((o) => o.name) });
    }
    const evaluation: GearEvaluation = { t: this.now(), budget: this.budget, used, required, rows, requests };
    this.evaluations.push(evaluation);
    return evaluation;
  }

  /** 0x1B427E4: the first backup (armour's list, then weapon's) whose bundles with an object are all resident. */
  findBackup(r: GearRequest): GearItemInfo | undefined {
    const lists: GearItemInfo[] = [];
    for (const b of r.item.backups) {
      const kind = gearItemKind(b);
      if (kind) lists.push(gearItemOf(b, kind));
    }
    lists.sort((a, b) => (a.kind === b.kind ? 0 : a.kind === 'armor' ? -1 : 1));
    for (const candidate of lists) {
      const objects = candidate.bundles.map((d) => this.objectOf(d)).filter((o): o is GearObject => o !== undefined);
      if (objects.every((o) => o.residentForBackup)) return candidate;
    }
    return undefined;
  }

  /** Σ cost of objects held (state 1 or 2). */
  get usedCost(): number {
    return this.objects.reduce((s, o) => s + (o.state > 0 ? o.cost : 0), 0);
  }
}
