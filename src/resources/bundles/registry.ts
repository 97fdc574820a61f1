/**
 * The bundle registry and the bundles' reference contract (seed 001 "Bundles").
 *
 * A bundle is a manifest (`.bndl`) plus a container of its contents (`.embb`). The registry gets a bundle by the
 * hash of its path, creating it when absent (get-or-create 0x1B5DC0); a registry row holds no reference.
 *
 * The contract:
 * - prefetch (0 → 1) references the manifest, requests it and, once its data is present, queues the content load;
 * - discard is the exact reverse, and asserts that it never drops the final reference (the holder must still hold
 *   its handle);
 * - release at zero unregisters and destroys the bundle (with a prefetch still counted it detours to an error path,
 *   `bundle.releaseDetour`).
 * A holder keeps a handle and a prefetch, and lets go by discarding first and releasing second. A missing path is
 * benign: the registry keeps an entry whose manifest has no data.
 */
import { ToolkitError } from '../../binary/errors.ts';
import type { Bndl } from '../../formats/bndl/bndl.ts';
import { bundleManifestPath } from '../vfs/bundles.ts';
import { normalizeVfsPath } from '../vfs/source.ts';
import type { Resource, ResourceTable } from '../streaming/resource-table.ts';
import type { LoadRequest } from '../streaming/request.ts';

/** A broken rule of the reference contract (the engine asserts). */
export class BundleContractError extends ToolkitError {
  override name = 'BundleContractError';
  readonly rule: 'discard-final-reference' | 'discard-without-prefetch' | 'release-without-reference' | 'release-with-prefetch';
  readonly bundle: string;
  constructor(rule: BundleContractError['rule'], bundle: string, message: string) {
    super('E_BUNDLE_CONTRACT', `${bundle}: ${message}`);
    this.rule = rule;
    this.bundle = bundle;
  }
}

/**
 * `registered`: known, nothing requested; `manifest`: manifest requested; `content`: content requested;
 * `resident`: its resources are resident; `missing`: no source has the manifest (or the content) — benign;
 * `failed`: the data is bad; `stalled`: its loader never returned.
 */
export type BundleState = 'registered' | 'manifest' | 'content' | 'resident' | 'missing' | 'failed' | 'stalled';

export class Bundle {
  readonly hash: number;
  /** Manifest path (`.bndl`). */
  readonly path: string;
  readonly contentPath: string;
  /** Handles held (acquire / release). */
  references = 0;
  /** Prefetch count (prefetch / discard). */
  prefetches = 0;
  state: BundleState = 'registered';
  /** The manifest resource, referenced while prefetched. */
  manifest: Resource | undefined;
  /** The content container's node, referenced while prefetched. */
  content: Resource | undefined;
  /** The resources its content registered, each referenced by the bundle. */
  resources: Resource[] = [];
  /** Raw bytes of the content (the real size a gear object latches). */
  contentBytes = 0;
  /** Resources whose hash the path table named, and those it did not. */
  pathTableHits = 0;
  pathTableMisses = 0;
  /** How the content was split (`stream.contentSplit`). */
  layout: 'size-rule' | 'opaque' | undefined;
  /** Times: first prefetch of this residency, and when it became resident. */
  prefetchedAt: number | undefined;
  residentAt: number | undefined;
  /** Bumped by every 0-crossing, so late completions of an abandoned prefetch are ignored. */
  generation = 0;
  /** The content request of the current prefetch (a late one of a discarded prefetch registers nothing). */
  contentRequest: LoadRequest | undefined;
  private waiters: Array<(b: Bundle) => void> = [];

  constructor(hash: number, path: string) {
    this.hash = hash;
    this.path = path;
    this.contentPath = path.replace(/\.bndl$/i, '') + '.embb';
  }

  get resident(): boolean {
    return this.state === 'resident';
  }

  /** The parsed manifest, when its data is present. */
  get manifestData(): Bndl | undefined {
    return this.manifest?.data as Bndl | undefined;
  }

  /** Calls `fn` once the bundle is resident, missing, failed or stalled (at once if it is). */
  whenSettled(fn: (b: Bundle) => void): void {
    if (this.settled) fn(this);
    else this.waiters.push(fn);
  }

  get settled(): boolean {
    return this.state === 'resident' || this.state === 'missing' || this.state === 'failed' || this.state === 'stalled';
  }

  /** @internal */
  settle(state: BundleState, now: number): void {
    this.state = state;
    if (state === 'resident') this.residentAt = now;
    const w = this.waiters.splice(0);
    for (const fn of w) fn(this);
  }
}

/** What the registry needs from the streamer. */
export interface BundleLoader {
  readonly table: ResourceTable;
  now(): number;
  /** Loads a resource (shares a request in flight; no I/O when resident). Calls `done` when it ends. */
  loadResource(resource: Resource, done: (status: 'done' | 'missing' | 'failed' | 'resident') => void): void;
  /** Queues the bundle content job (the `.embb` on the I/O pipeline, queue 0). */
  submitContent(bundle: Bundle, done: (request: LoadRequest) => void): LoadRequest;
  /** Tells listeners (the event log). */
  emit(kind: string, bundle: Bundle, detail?: Record<string, unknown>): void;
}

export class BundleRegistry {
  /** Rows by hash (a row holds no reference). */
  private readonly rows = new Map<number, Bundle>();
  private readonly loader: BundleLoader;
  /** Bundles destroyed (release at zero). */
  destroyed = 0;

  constructor(loader: BundleLoader) {
    this.loader = loader;
  }

  get size(): number {
    return this.rows.size;
  }

  /** Every row. */
  all(): Bundle[] {
    return [...this.rows.values()];
  }

  /** Slot 24 0x3DC538: a bundle by name, forcing the `.bndl` extension; get-or-create. */
  get(path: string): Bundle {
    return this.getRaw(bundleManifestPath(path));
  }

  /** Slot 25 0x119F1E8: a bundle by raw path; get-or-create by hash. */
  getRaw(path: string): Bundle {
    const p = normalizeVfsPath(path);
    const hash = this.loader.table.hashOf(p);
    let b = this.rows.get(hash);
    if (!b) {
      b = new Bundle(hash, p);
      this.rows.set(hash, b);
    }
    return b;
  }

  /** The row for a path, without creating it. */
  find(path: string): Bundle | undefined {
    return this.rows.get(this.loader.table.hashOf(bundleManifestPath(path)));
  }

  /** Takes a handle. */
  acquire(b: Bundle): Bundle {
    b.references++;
    return b;
  }

  /** Drops a handle; at zero unregisters and destroys the bundle. */
  release(b: Bundle): void {
    if (b.references <= 0) throw new BundleContractError('release-without-reference', b.path, 'release with no handle held');
    if (b.references === 1 && b.prefetches > 0) throw new BundleContractError('release-with-prefetch', b.path, `release of the last handle with ${b.prefetches} prefetch(es) still counted (the engine detours to 0x10DD00A); discard first, release second`);
    b.references--;
    if (b.references > 0) return;
    this.rows.delete(b.hash);
    this.destroyed++;
    this.loader.emit('bundle.destroyed', b);
  }

  /** Prefetch: 0 → 1 references the manifest, requests it and, once present, queues the content load. */
  prefetch(b: Bundle): void {
    if (b.prefetches++ > 0) return;
    const generation = ++b.generation;
    const table = this.loader.table;
    b.manifest = table.acquire(b.path);
    b.state = 'manifest';
    b.prefetchedAt = this.loader.now();
    b.residentAt = undefined;
    this.loader.emit('bundle.prefetch', b);
    this.loader.loadResource(b.manifest, (status) => {
      if (b.generation !== generation || b.prefetches === 0) return;
      if (status === 'missing' || !b.manifest!.resident) {
        this.loader.emit('bundle.missing', b, { what: 'manifest', status });
        b.settle(status === 'failed' ? 'failed' : 'missing', this.loader.now());
        return;
      }
      this.queueContent(b, generation);
    });
  }

  private queueContent(b: Bundle, generation: number): void {
    const table = this.loader.table;
    b.content = table.acquire(b.contentPath);
    const manifest = b.manifestData!;
    // released ≠ gone: content still resident from an earlier visit needs no I/O
    if (b.content.resident) {
      const nodes = manifest.entries.map((e) => table.find(e.path));
      if (nodes.every((n) => n?.resident)) {
        b.resources = nodes.map((n) => (table.addRef(n!), n!));
        for (const n of b.resources) n.reuses++;
        b.state = 'content';
        this.loader.emit('bundle.reused', b);
        b.settle('resident', this.loader.now());
        this.loader.emit('bundle.resident', b);
        return;
      }
    }
    b.state = 'content';
    b.contentRequest = this.loader.submitContent(b, (request) => {
      if (b.generation !== generation || b.prefetches === 0) return;
      if (request.status === 'missing') {
        this.loader.emit('bundle.missing', b, { what: 'content' });
        b.settle('missing', this.loader.now());
      } else if (request.status === 'failed') b.settle('failed', this.loader.now());
      else if (request.status === 'stalled') b.settle('stalled', this.loader.now());
      else {
        b.settle('resident', this.loader.now());
        this.loader.emit('bundle.resident', b);
      }
    });
  }

  /** Discard: the exact reverse of prefetch; never the final reference. */
  discard(b: Bundle): void {
    if (b.prefetches <= 0) throw new BundleContractError('discard-without-prefetch', b.path, 'discard with no prefetch counted');
    if (b.references <= 0) throw new BundleContractError('discard-final-reference', b.path, 'discard would drop the final reference (no handle is held): keep a handle, discard first, release second');
    if (--b.prefetches > 0) return;
    b.generation++;
    const table = this.loader.table;
    for (const r of b.resources) table.release(r);
    b.resources = [];
    if (b.content) table.release(b.content);
    if (b.manifest) table.release(b.manifest);
    b.content = undefined;
    b.manifest = undefined;
    b.contentRequest = undefined;
    b.state = 'registered';
    this.loader.emit('bundle.discard', b);
  }

  /** Rows whose manifest has no data although prefetched (the seed counts ten in a normal game). */
  missingRows(): Bundle[] {
    return this.all().filter((b) => b.state === 'missing');
  }
}
