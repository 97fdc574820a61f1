/**
 * World state (seed 004, "Is a world loaded?"): loaded, in play, paused, unfocused, and what a load rebuilds.
 *
 * - A world is loaded when the spawn manager exists (null at the main menu) and in play when it also holds spawned
 *   characters; the player persists across menus and proves nothing, so it is not counted.
 * - The simulation pauses while the game is paused or its window unfocused: the pausable clocks stop (world time
 *   stops, per-object steps are 0) while rendering would go on.
 * - Loads rebuild state: GameDB instance data is deserialised again, so values written into it before a load do
 *   not survive it; a region change also resets bundles and animation state (`onRegionChange` is the hook the
 *   streaming layer's bundles use).
 */
import type { Database, DbRecord, FieldRef, FieldValue } from '../gamedb/database.ts';
import { ClockSet } from './clocks.ts';

/** What happens on a load, passed to load listeners. */
export interface LoadEvent {
  /** The region loaded before, if any. */
  readonly previousRegion: string | undefined;
  readonly region: string;
  /** True when the region differs from the previous one (bundles and animation state reset). */
  readonly regionChanged: boolean;
  /** How many GameDB instance values written since the previous load were dropped. */
  readonly droppedInstanceWrites: number;
}

export type LoadListener = (event: LoadEvent) => void;

/**
 * The GameDB as the running game holds it: the file's values plus what the engine wrote into the instance block
 * since the last load. A load deserialises the instance data again, so `rebuild` drops every write.
 */
export class GameDbInstance {
  readonly db: Database;
  readonly #writes = new Map<string, FieldValue>();

  constructor(db: Database) {
    this.db = db;
  }

  #key(record: DbRecord, field: FieldRef, element: number): string {
    const f = record.field(field);
    return `${record.index}:${f ? f.hash : String(field)}:${element}`;
  }

  /** The live value: the last write since the load, else the file's value. */
  get(record: DbRecord, field: FieldRef, element = 0): FieldValue | undefined {
    const key = this.#key(record, field, element);
    return this.#writes.has(key) ? this.#writes.get(key) : record.get(field, element);
  }

  /** Writes a live value (the file is not changed). */
  set(record: DbRecord, field: FieldRef, value: FieldValue, element = 0): void {
    this.#writes.set(this.#key(record, field, element), value);
  }

  /** Values written since the last load. */
  get writeCount(): number {
    return this.#writes.size;
  }

  /** A load: every live value returns to the file's. Returns how many writes were dropped. */
  rebuild(): number {
    const n = this.#writes.size;
    this.#writes.clear();
    return n;
  }
}

/** The headless world: clocks, load state, pause and focus. */
export class World {
  readonly clocks = new ClockSet();
  /** The open GameDB, live values included, when one was given. */
  readonly gamedb: GameDbInstance | undefined;
  #region: string | undefined;
  #loaded = false;
  #spawnedCharacters = 0;
  #paused = false;
  #focused = true;
  readonly #loadListeners: LoadListener[] = [];
  readonly #regionListeners: LoadListener[] = [];

  constructor(options: { db?: Database } = {}) {
    this.gamedb = options.db ? new GameDbInstance(options.db) : undefined;
  }

  /** The spawn manager exists (a world is loaded). */
  get loaded(): boolean {
    return this.#loaded;
  }

  /** Loaded and the spawn manager holds spawned characters. */
  get inPlay(): boolean {
    return this.#loaded && this.#spawnedCharacters > 0;
  }

  get region(): string | undefined {
    return this.#region;
  }

  get spawnedCharacters(): number {
    return this.#spawnedCharacters;
  }

  /** The game's pause (menu), not the focus. */
  get paused(): boolean {
    return this.#paused;
  }

  get focused(): boolean {
    return this.#focused;
  }

  /** True while the simulation is stopped: paused or unfocused. */
  get simulationStopped(): boolean {
    return this.#paused || !this.#focused;
  }

  setPaused(paused: boolean): void {
    this.#paused = paused;
    this.clocks.setPaused(this.simulationStopped);
  }

  /** An unfocused window pauses the simulation exactly like the pause menu (rendering would go on). */
  setFocused(focused: boolean): void {
    this.#focused = focused;
    this.clocks.setPaused(this.simulationStopped);
  }

  /** Characters the spawn manager spawned (or despawned, negative). */
  addSpawnedCharacters(n: number): void {
    this.#spawnedCharacters = Math.max(0, this.#spawnedCharacters + n);
  }

  /**
   * Loads `region`: the spawn manager is rebuilt (no characters yet), GameDB instance values return to the file's,
   * and, when the region changes, the region listeners run (bundles and animation state reset).
   */
  load(region: string): LoadEvent {
    const previousRegion = this.#region;
    const event: LoadEvent = {
      previousRegion,
      region,
      regionChanged: previousRegion !== region,
      droppedInstanceWrites: this.gamedb?.rebuild() ?? 0,
    };
    this.#region = region;
    this.#loaded = true;
    this.#spawnedCharacters = 0;
    if (event.regionChanged) for (const l of [...this.#regionListeners]) l(event);
    for (const l of [...this.#loadListeners]) l(event);
    return event;
  }

  /** Back to the main menu: the spawn manager is gone. */
  unload(): void {
    this.#loaded = false;
    this.#spawnedCharacters = 0;
  }

  /** Called on every load, after the region listeners. Returns a function that removes the listener. */
  onLoad(listener: LoadListener): () => void {
    return addListener(this.#loadListeners, listener);
  }

  /** Called when a load enters a different region (the streaming layer resets its bundles here). */
  onRegionChange(listener: LoadListener): () => void {
    return addListener(this.#regionListeners, listener);
  }

  /** One frame of `realElapsedMs` real time: every clock updates (the stopped ones by 0). */
  frame(realElapsedMs: number): void {
    this.clocks.tick(realElapsedMs);
  }
}

function addListener<T>(list: T[], listener: T): () => void {
  list.push(listener);
  return () => {
    const i = list.indexOf(listener);
    if (i >= 0) list.splice(i, 1);
  };
}
