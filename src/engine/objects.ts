/**
 * The headless world's objects: prefab instances (each StartupCommands entry's prefab, one instance each,
 * H-ONE-INSTANCE), the world objects scripts reach with `Class.Create(scriptId, name, …)`, and event
 * registrations (`WBEventSystem:Add(sender, event, {scriptId, lookupId, hash})`).
 *
 * Which object runs which script is world data (the layer's ScriptBind block, seed 002); a layer's script alone
 * does not carry it, so the headless engine gives every prefab whose StartupCommands entry it starts one
 * instance, and an object is identified by its instance, class and name.
 */

/** A world object handle (`DynamicObjectGroup.Create(scriptId, "WD.DOG", false, true)`). */
export class WorldObject {
  readonly id: number;
  readonly className: string;
  /** The name the script asked for (may be `""` when a property was left at its default). */
  readonly name: string;
  readonly instance: PrefabInstance | undefined;
  /** State the natives table's `sets` / `gets` columns write and read (`hidden`, `enabled`, `state` …). */
  readonly state = new Map<string, unknown>();
  /** True for `Class.None`. */
  readonly isNone: boolean;

  constructor(id: number, className: string, name: string, instance: PrefabInstance | undefined, isNone = false) {
    this.id = id;
    this.className = className;
    this.name = name;
    this.instance = instance;
    this.isNone = isNone;
  }

  /**
   * How traces and `--fire` name the object: its name, or its class when it has none (`InventoryItemUI` for a
   * property left empty), or `Class.None`.
   */
  get label(): string {
    if (this.isNone) return `${this.className}.None`;
    return this.name !== '' ? this.name : this.className;
  }
}

/** One placed prefab: its scriptId table (a VM value the binding keeps), objects and script objects. */
export class PrefabInstance {
  readonly id: number;
  readonly prefab: string;
  /** The scriptId table handed to its entries (set by the binding). */
  scriptId: unknown;
  /** Objects by `class\0name`. */
  readonly objects = new Map<string, WorldObject>();
  /** Script objects by name (`"SO"`), built once through `__constructor`. */
  readonly scriptObjects = new Map<string, unknown>();
  /** Script property values the run supplies (`--prop NAME=VALUE`); the rest keep their defaults. */
  readonly props: Map<string, string>;

  constructor(id: number, prefab: string, props: Map<string, string> = new Map()) {
    this.id = id;
    this.prefab = prefab;
    this.props = props;
  }
}

/** One `WBEventSystem:Add`. */
export interface EventRegistration<V = unknown> {
  readonly id: number;
  readonly sender: WorldObject;
  readonly event: string;
  /** The registration table's three values. */
  readonly scriptId: V;
  readonly lookupId: V;
  readonly hash: V;
  /** `0x%08X` of the hash. */
  readonly hashText: string;
}

/**
 * The event system's registrations. An object's event dispatches to its registrations in the order they were
 * made; a registration made twice is kept twice and `Remove` takes out every equal one (H-EVENT-REGISTRATIONS).
 */
export class EventRegistry<V = unknown> {
  readonly #list: EventRegistration<V>[] = [];
  /** sender → event → registrations, in registration order. */
  readonly #bySender = new Map<WorldObject, Map<string, EventRegistration<V>[]>>();
  #next = 1;
  /** Every registration ever made (for the summary and `script needs`). */
  total = 0;

  add(r: Omit<EventRegistration<V>, 'id'>): EventRegistration<V> {
    const reg = { ...r, id: this.#next++ };
    this.#list.push(reg);
    let events = this.#bySender.get(reg.sender);
    if (!events) {
      events = new Map();
      this.#bySender.set(reg.sender, events);
    }
    const regs = events.get(reg.event);
    if (regs) regs.push(reg);
    else events.set(reg.event, [reg]);
    this.total++;
    return reg;
  }

  /** Removes the registrations equal to (sender, event, lookupId, hash); returns how many. */
  remove(sender: WorldObject, event: string, lookupId: V, hash: V): number {
    const regs = this.#bySender.get(sender)?.get(event);
    if (!regs) return 0;
    const gone = new Set(regs.filter((r) => r.lookupId === lookupId && r.hash === hash));
    if (gone.size === 0) return 0;
    this.#bySender.get(sender)!.set(event, regs.filter((r) => !gone.has(r)));
    for (let i = this.#list.length - 1; i >= 0; i--) if (gone.has(this.#list[i]!)) this.#list.splice(i, 1);
    return gone.size;
  }

  /** The registrations of an object's event, in registration order (a copy: a handler may register more). */
  of(sender: WorldObject, event: string): EventRegistration<V>[] {
    return [...(this.#bySender.get(sender)?.get(event) ?? [])];
  }

  /** Live registrations, in registration order. */
  list(): readonly EventRegistration<V>[] {
    return this.#list;
  }

  clear(): void {
    this.#list.length = 0;
    this.#bySender.clear();
  }
}
