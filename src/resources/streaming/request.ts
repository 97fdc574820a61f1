/**
 * The request object (SResourceLoadRequest, seed 001 "The request object"): allocated together with its reference
 * count (a make_shared layout), no vtable. One request carries one resource (or one bundle's content) through the
 * open, load and parse stages; every holder shares it (`stream.sharedRequests`).
 */
import type { Resolution } from '../vfs/mount-vector.ts';
import type { Resource } from './resource-table.ts';
import type { StageName } from './threads.ts';

export type RequestKind = 'resource' | 'bundle-content';

/** Where a request is. `missing`: no source has the path (harmless); `stalled`: its reader never returned. */
export type RequestStatus = 'queued-open' | 'opening' | 'queued-load' | 'loading' | 'queued-parse' | 'parsing' | 'done' | 'missing' | 'failed' | 'stalled';

/** What a holder is told when the request ends. */
export interface RequestOutcome {
  request: LoadRequest;
  status: 'done' | 'missing' | 'failed';
}

/** Receives the bytes of a bundle content request in the load stage (the bundle loader). */
export interface ContentTarget {
  readonly path: string;
}

export class LoadRequest {
  readonly id: number;
  readonly kind: RequestKind;
  readonly path: string;
  readonly queue: 0 | 1;
  readonly resource: Resource;
  /** The bundle whose content this is (bundle-content requests). */
  readonly bundle: ContentTarget | undefined;
  /** Holders sharing the request. */
  refs = 1;
  status: RequestStatus = 'queued-open';
  /** Stage timestamps (ms, driver time). */
  readonly times: { submitted: number; opened?: number; read?: number; done?: number };
  /** Where the path resolved at open. */
  source: Resolution | undefined;
  /** Bytes read by the load stage. */
  size = 0;
  /** The bytes between the load and parse stages. */
  bytes: Uint8Array | undefined;
  /** Whether it holds an open-file slot. */
  holdsSlot = false;
  error: unknown;
  /** The stage it stalled in, and why. */
  stalledIn: StageName | 'bundle' | undefined;
  stallReason: string | undefined;
  private readonly waiters: Array<(o: RequestOutcome) => void> = [];

  constructor(id: number, kind: RequestKind, path: string, queue: 0 | 1, resource: Resource, bundle: ContentTarget | undefined, now: number) {
    this.id = id;
    this.kind = kind;
    this.path = path;
    this.queue = queue;
    this.resource = resource;
    this.bundle = bundle;
    this.times = { submitted: now };
  }

  get finished(): boolean {
    return this.status === 'done' || this.status === 'missing' || this.status === 'failed';
  }

  /** Calls `fn` when the request ends (at once if it has). */
  then(fn: (o: RequestOutcome) => void): void {
    if (this.finished) fn({ request: this, status: this.status as RequestOutcome['status'] });
    else this.waiters.push(fn);
  }

  /** Ends the request and tells every holder. */
  finish(status: 'done' | 'missing' | 'failed', now: number): void {
    this.status = status;
    this.times.done = now;
    const w = this.waiters.splice(0);
    for (const fn of w) fn({ request: this, status });
  }
}
