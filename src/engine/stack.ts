/**
 * The running-script stack (seed 002): a u32 depth [base+0x2702540] and entries 0x277C1B0 + i x 0x80, at most 16;
 * depth 0 is the static entry 0x2680000, whose name is empty. Entry +0x28 is the running script's name and
 * 0x503EF8 returns the top entry's name. Only the engine pushes: the __eventmap dispatcher (which always writes a
 * name, "Invalid" at worst) and the resource loaders; `LoadBuffer` + `Pcall` push nothing. Natives that need
 * script context read the top name and assert when it is empty, so they work only inside an engine-dispatched
 * handler.
 */

/** Entries the engine's array holds. */
export const RUNNING_SCRIPT_STACK_ENTRIES = 16;
/** What the push writes when it cannot name the script. */
export const INVALID_SCRIPT_NAME = 'Invalid';

/** Why an entry was pushed. */
export type StackPusher = 'dispatch' | 'loader';

export interface StackEntry {
  readonly name: string;
  readonly pushedBy: StackPusher;
}

/** A push past the 16 entries: the engine would write past its array. */
export class StackOverflowFault {
  readonly depth: number;
  readonly name: string;
  constructor(depth: number, name: string) {
    this.depth = depth;
    this.name = name;
  }
  get message(): string {
    return `running-script stack: a push at depth ${this.depth} is past the engine's ${RUNNING_SCRIPT_STACK_ENTRIES} entries (would write past the array in game)`;
  }
}

export class RunningScriptStack {
  readonly #entries: StackEntry[] = [];

  /** 0 = only the static entry. */
  get depth(): number {
    return this.#entries.length;
  }

  /** The top entry's name (0x503EF8); `""` at depth 0, the static entry. */
  get topName(): string {
    return this.#entries.at(-1)?.name ?? '';
  }

  /** True when a context-asserting native would not assert. */
  get inScriptContext(): boolean {
    return this.topName !== '';
  }

  entries(): readonly StackEntry[] {
    return this.#entries;
  }

  /**
   * Pushes an entry; an empty or missing name is written as "Invalid". Returns a fault instead of pushing when the
   * 16 entries are in use.
   */
  push(name: string | undefined, pushedBy: StackPusher): StackOverflowFault | undefined {
    const written = name === undefined || name === '' ? INVALID_SCRIPT_NAME : name;
    if (this.#entries.length >= RUNNING_SCRIPT_STACK_ENTRIES) return new StackOverflowFault(this.#entries.length + 1, written);
    this.#entries.push({ name: written, pushedBy });
    return undefined;
  }

  pop(): void {
    this.#entries.pop();
  }

  /** Runs `fn` with an entry pushed, popping it afterwards whatever happens. */
  with<T>(name: string | undefined, pushedBy: StackPusher, fn: () => T): T | StackOverflowFault {
    const fault = this.push(name, pushedBy);
    if (fault) return fault;
    try {
      return fn();
    } finally {
      this.pop();
    }
  }
}
