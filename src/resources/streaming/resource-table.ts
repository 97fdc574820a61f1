/**
 * The resource table (seed 001 "The resource table"): every resource the engine knows is a node in a hash table of
 * 0x800 buckets, bucket = hash & 0x7FF, the hash being P919 of the path. A node carries a reference count; at zero
 * it is not freed but moved to the unused list and kept for reuse — "released" does not mean "gone": residency is
 * decided by the data being present (`stream.releasedNotGone`).
 */
import { DEFAULT_P919_TABLE, type P919Table } from '../../hash/p919.ts';
import { vfsKey } from '../vfs/source.ts';
import type { LoadRequest } from './request.ts';

export const RESOURCE_BUCKETS = 0x800;

/**
 * Resource-data states. 3 = finalized is the seed's; the others are scry's names for the steps before it
 * (hypothesis `stream.states`).
 */
export const RESOURCE_STATE = { none: 0, queued: 1, read: 2, finalized: 3 } as const;
export type ResourceState = (typeof RESOURCE_STATE)[keyof typeof RESOURCE_STATE];

/** One node. `data` present = resident. */
export class Resource {
  readonly hash: number;
  readonly path: string;
  /** The normalised, lower-case key the table compares. */
  readonly key: string;
  refCount = 0;
  state: ResourceState = RESOURCE_STATE.none;
  /** The resource's data once parsed (bytes, a parsed manifest, an effect database…); undefined = not resident. */
  data: unknown = undefined;
  /** Bytes of the data (for memory accounting). */
  bytes = 0;
  /** The request in flight for it, if any. */
  request: LoadRequest | undefined;
  /** Next node in its bucket. */
  next: Resource | undefined;
  /** Set when the last load failed (bad data); the resource then has no data. */
  error: unknown;
  /** Times it was found resident without I/O. */
  reuses = 0;

  constructor(hash: number, path: string, key: string) {
    this.hash = hash;
    this.path = path;
    this.key = key;
  }

  get resident(): boolean {
    return this.data !== undefined;
  }
}

/** P919 of a key with a table, unknown characters counting as their (zero) table value: only a bucket choice. */
function bucketHash(key: string, values: Int8Array): number {
  let h = 0;
  for (let i = 0; i < key.length; i++) h = (Math.imul(h, 919) + values[key.charCodeAt(i) & 0xff]!) | 0;
  return h >>> 0;
}

export interface ResourceTableStats {
  resources: number;
  bucketsUsed: number;
  longestChain: number;
  referenced: number;
  unused: number;
  resident: number;
  residentBytes: number;
  unusedResidentBytes: number;
}

export class ResourceTable {
  private readonly buckets: Array<Resource | undefined> = new Array<Resource | undefined>(RESOURCE_BUCKETS);
  /** Count-zero nodes in the order they reached zero (`stream.releasedNotGone`). */
  readonly unused = new Set<Resource>();
  private readonly values: Int8Array;
  size = 0;

  constructor(table: P919Table = DEFAULT_P919_TABLE) {
    this.values = table.values;
  }

  /** P919 of a path as the table keys it (`\` separators, case folded). */
  hashOf(path: string): number {
    return bucketHash(vfsKey(path), this.values);
  }

  /** The node for `path`, if the table has one. */
  find(path: string): Resource | undefined {
    const key = vfsKey(path);
    const h = bucketHash(key, this.values);
    for (let n = this.buckets[h & (RESOURCE_BUCKETS - 1)]; n; n = n.next) if (n.hash === h && n.key === key) return n;
    return undefined;
  }

  /** Get-or-create without taking a reference (a registered resource with no data). */
  register(path: string): Resource {
    const key = vfsKey(path);
    const h = bucketHash(key, this.values);
    const b = h & (RESOURCE_BUCKETS - 1);
    for (let n = this.buckets[b]; n; n = n.next) if (n.hash === h && n.key === key) return n;
    const node = new Resource(h, path, key);
    node.next = this.buckets[b];
    this.buckets[b] = node;
    this.size++;
    this.unused.add(node);
    return node;
  }

  /** Takes a reference: get-or-create, count + 1, off the unused list. */
  acquire(path: string): Resource {
    const node = this.register(path);
    this.addRef(node);
    return node;
  }

  addRef(node: Resource): void {
    if (node.refCount++ === 0) this.unused.delete(node);
  }

  /** Drops a reference; at zero the node goes to the unused list and keeps its data. */
  release(node: Resource): void {
    if (node.refCount <= 0) throw new Error(`resource ${node.path} released more often than acquired`);
    if (--node.refCount === 0) this.unused.add(node);
  }

  /**
   * NOT AN ENGINE OPERATION as such (hypothesis `stream.unusedTrim`): frees the data of every unused node and removes
   * the nodes. Returns the bytes freed.
   */
  trimUnused(): number {
    let freed = 0;
    for (const node of this.unused) {
      if (node.request) continue;
      freed += node.resident ? node.bytes : 0;
      this.remove(node);
    }
    return freed;
  }

  private remove(node: Resource): void {
    const b = node.hash & (RESOURCE_BUCKETS - 1);
    let prev: Resource | undefined;
    for (let n = this.buckets[b]; n; prev = n, n = n.next) {
      if (n !== node) continue;
      if (prev) prev.next = n.next;
      else this.buckets[b] = n.next;
      this.size--;
      this.unused.delete(node);
      node.data = undefined;
      return;
    }
  }

  /** Every node, bucket by bucket. */
  *nodes(): Generator<Resource> {
    for (const head of this.buckets) for (let n = head; n; n = n.next) yield n;
  }

  /** Length of each bucket's chain (for the seed's layout check: 0x800 buckets, hash & 0x7FF). */
  chainLength(bucket: number): number {
    let k = 0;
    for (let n = this.buckets[bucket]; n; n = n.next) k++;
    return k;
  }

  stats(): ResourceTableStats {
    const s: ResourceTableStats = { resources: this.size, bucketsUsed: 0, longestChain: 0, referenced: 0, unused: this.unused.size, resident: 0, residentBytes: 0, unusedResidentBytes: 0 };
    for (let b = 0; b < RESOURCE_BUCKETS; b++) {
      const k = this.chainLength(b);
      if (k > 0) s.bucketsUsed++;
      if (k > s.longestChain) s.longestChain = k;
    }
    for (const n of this.nodes()) {
      if (n.refCount > 0) s.referenced++;
      if (n.resident) {
        s.resident++;
        s.residentBytes += n.bytes;
        if (n.refCount === 0) s.unusedResidentBytes += n.bytes;
      }
    }
    return s;
  }
}
