/**
 * Work waiting on simulated time: sleeping script threads (LithThreadSleep runs on simulation time, seed 002, so
 * threads wait while the game is paused or unfocused), started script timers. Entries are due in order of their
 * time, then of their insertion, so a run is reproducible.
 */

/** One waiting piece of work. */
export interface Scheduled<T> {
  readonly at: number;
  readonly seq: number;
  readonly item: T;
}

/** A queue ordered by (time, insertion); a binary heap. */
export class TimeQueue<T> {
  readonly #heap: Scheduled<T>[] = [];
  #seq = 0;

  get size(): number {
    return this.#heap.length;
  }

  /** Adds `item`, due at `at`. */
  add(at: number, item: T): Scheduled<T> {
    const e: Scheduled<T> = { at, seq: this.#seq++, item };
    const h = this.#heap;
    h.push(e);
    let i = h.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!before(h[i]!, h[p]!)) break;
      [h[i], h[p]] = [h[p]!, h[i]!];
      i = p;
    }
    return e;
  }

  /** The next entry, if any, without removing it. */
  peek(): Scheduled<T> | undefined {
    return this.#heap[0];
  }

  /** Removes and returns the next entry due at or before `now`. */
  popDue(now: number): Scheduled<T> | undefined {
    const top = this.#heap[0];
    if (!top || top.at > now) return undefined;
    const h = this.#heap;
    const last = h.pop()!;
    if (h.length > 0) {
      h[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && before(h[l]!, h[m]!)) m = l;
        if (r < h.length && before(h[r]!, h[m]!)) m = r;
        if (m === i) break;
        [h[i], h[m]] = [h[m]!, h[i]!];
        i = m;
      }
    }
    return top;
  }

  /** Removes every entry whose item matches. */
  removeWhere(match: (item: T) => boolean): number {
    const kept = this.#heap.filter((e) => !match(e.item));
    const removed = this.#heap.length - kept.length;
    if (removed > 0) {
      const all = kept.sort((a, b) => (before(a, b) ? -1 : 1));
      this.#heap.length = 0;
      this.#heap.push(...all); // a sorted array is a valid heap
    }
    return removed;
  }

  /** Every entry in due order. */
  list(): Scheduled<T>[] {
    return [...this.#heap].sort((a, b) => (before(a, b) ? -1 : 1));
  }
}

function before(a: Scheduled<unknown>, b: Scheduled<unknown>): boolean {
  return a.at < b.at || (a.at === b.at && a.seq < b.seq);
}
