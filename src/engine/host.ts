/**
 * The script host: runs a world layer's script headless on the VM the way the engine runs it (seed 002), on the
 * engine's clocks and world state (seed 004), and records everything the script asks of the engine in a trace.
 *
 * - A layer's SCRI is compiled (source) or loaded (bytecode) through the process-wide layer cache, its chunk runs
 *   with the loader's entry on the running-script stack, and `_G.loadedresource` names its section table.
 * - Every StartupCommands entry (`_<prefab>_SC_Script_<hash>`) starts as a script thread
 *   `entry(self, threadId, scriptId)` (H-THREAD-ARGS) on one instance of its prefab (H-ONE-INSTANCE);
 *   `LithThreadSleep(threadId, seconds)` suspends it on the world clock, so pause and slow motion delay it.
 * - `ScriptObject.Create(scriptId, name)` builds the `hmake`d script object through its `__constructor`, once per
 *   instance, and gives it a `lookupId`; `WBEventSystem:Add(sender, event, {scriptId, lookupId, hash})` registers;
 *   firing the event dispatches through the script object's `__eventmap[hash]` with the running-script stack
 *   pushed (H-STACK-NAME) and popped after.
 * - Natives come from the natives table (`natives.ts`): argument shapes are checked (a mismatch would fault the
 *   game: the call fails, H-FAULT-ENDS), context-asserting natives assert at depth 0, a few behaviours are
 *   implemented, the rest set object state or return their shape's default; a native that is not in the table
 *   returns a recorded stand-in so a real script runs to its end, and is listed as unknown.
 * - Budgets: every slice of script work (a thread resume, a dispatch, the chunk) gets an instruction budget; a
 *   script that loops, recurses without end or misuses a native ends with an error in the trace, and the host
 *   goes on. Same input, same trace.
 */
import type { Database, DbRecord, FieldValue } from '../gamedb/database.ts';
import type { CharacterBundleEvent, CharacterBundleMgr } from '../resources/bundles/character.ts';
import { WorldDataError } from '../resources/bundles/world-data.ts';
import type { Chunk } from '../script/ast.ts';
import { compileLua } from '../script/compile/index.ts';
import {
  createScriptVM,
  HostFunction,
  LightUserdata,
  LuaClosure,
  LuaStruct,
  LuaTable,
  LuaThread,
  LuaUserdata,
  ScriptError,
  defineHostFunction,
  type HostCall,
  type HostResult,
  type LuaValue,
  type LuaVM,
} from '../script/vm/index.ts';
import { closestNames } from './closest.ts';
import { DbKindResolver, NULL_RECORD_NAME, isDbKindName, unresolvedWithoutDatabase } from './dbkinds.ts';
import { ENGINE_HYPOTHESES } from './hypotheses.ts';
import { LayerCache, entryOrigins, entryPrefab, processLayerCache, type EntryOrigin, type Layer } from './layer.ts';
import {
  WORLD_CLASSES,
  eventArgumentShapes,
  isClassOf,
  nativeGlobals,
  objectMethod,
  shapeMismatch,
  worldClass,
  type NativeSpec,
  type ValueInfo,
  type ValueShape,
} from './natives.ts';
import { EventRegistry, PrefabInstance, WorldObject, type EventRegistration } from './objects.ts';
import { startupCommandPrefab } from './needs.ts';
import { TimeQueue } from './schedule.ts';
import { RunningScriptStack } from './stack.ts';
import { Trace, summarizeTrace, type TraceEntry, type TraceSummary, type TraceValue } from './trace.ts';
import { World } from './world.ts';

/** Limits on the script work of one slice (a thread resume, a dispatch, the chunk's run). */
export interface ScriptBudget {
  /** VM instructions per slice (default 2,000,000). */
  instructions: number;
  /** Lua call depth (default 200, the engine's C-call depth is not known; deep enough for every shipped script). */
  callDepth: number;
}

export const DEFAULT_SCRIPT_BUDGET: Readonly<ScriptBudget> = { instructions: 2_000_000, callDepth: 200 };

export interface ScriptHostOptions {
  /** The GameDB `DB<Kind>.Name` lookups search. */
  db?: Database;
  /** Kind → category overrides (`--kind`). */
  kindOverrides?: ReadonlyMap<string, string>;
  /** Script property values (`--prop NAME=VALUE`, or `PREFAB.NAME=VALUE` for one prefab). */
  props?: ReadonlyMap<string, string>;
  /** Seed of `Math:GetRandomInt` (default 1). */
  seed?: number;
  budget?: Partial<ScriptBudget>;
  /** `auto` (default): a started ScriptTimer fires OnComplete by itself (H-TIMER-COMPLETE); `manual`: only `fire`. */
  timers?: 'auto' | 'manual';
  /** The reinstall table (default: the process's). */
  cache?: LayerCache;
  /** Trace entries kept. */
  traceLimit?: number;
  /** The world to run in (default: a new one, with `db`). */
  world?: World;
  /**
   * The streaming layer's CharacterBundleMgr (`createStreamingWorld`), when the run streams creature bundles: a
   * region change resets it through the world's region hook (the region is a WorldInfo record name), the NPC
   * bundle list natives set its lists, each frame runs its update, and its loaded / unloaded events are traced.
   */
  bundles?: CharacterBundleMgr;
  /** The VM's JavaScript tier (`createScriptVM`'s `jit`: true or a call-count threshold); same results, same budgets. */
  jit?: boolean | number;
}

/** What a script bus listener receives from `System:ActivateRemoteScript`. */
export interface RemoteScriptCall {
  /** The native's arguments, as the trace shows them. */
  readonly args: readonly TraceValue[];
  /** The running-script stack's top name and depth at the call (`""` and 0 from a thread: no script context). */
  readonly stackTop: string;
  readonly depth: number;
  /** The script thread that called, if any. */
  readonly thread?: number;
}

/** A value given to an event's argument table (`--fire DOG.OnStateChange:NewState=DBDOGStateType.Destroyed`). */
export type FireValue = boolean | number | string | { record: string } | { object: string };

/** A script thread. */
export interface ScriptThread {
  readonly id: number;
  readonly entry: string;
  readonly co: LuaThread;
  readonly instance: PrefabInstance;
  state: 'running' | 'sleeping' | 'ended' | 'error';
  wakeAt?: number;
}

/** What `load` did. */
export interface LayerLoadResult {
  layer: string;
  compiled: boolean;
  ok: boolean;
  entries: string[];
  startupCommands: string[];
  threads: number[];
}

type Task = { kind: 'wake'; thread: ScriptThread } | { kind: 'timer'; object: WorldObject };

/** A GameDB record as scripts hold it. */
class RecordHandle {
  readonly kind: string;
  readonly name: string;
  readonly record: DbRecord | undefined;
  constructor(kind: string, name: string, record: DbRecord | undefined) {
    this.kind = kind;
    this.name = name;
    this.record = record;
  }
  get label(): string {
    return `${this.kind}.${this.name}`;
  }
  get isNull(): boolean {
    return this.record === undefined;
  }
}

/** An event property of an object (`obj.OnSpawn`). */
class EventHandle {
  readonly object: WorldObject;
  readonly event: string;
  constructor(object: WorldObject, event: string) {
    this.object = object;
    this.event = event;
  }
}

/** What an unknown native returned, or an unknown global / member. */
class StandIn {
  readonly label: string;
  constructor(label: string) {
    this.label = label;
  }
}

/** A script object made by ScriptObject.Create. */
interface ScriptObjectInfo {
  readonly instance: PrefabInstance;
  readonly name: string;
  readonly entry: string;
  readonly meta: LuaValue;
  readonly value: LuaValue;
}

/** Lua helpers the host calls to read and write values with the VM's own semantics (metamethods, structures). */
const PRELUDE = `local H = {}
function H.get(t, k) return t[k] end
function H.set(t, k, v) t[k] = v end
function H.keys(t) local out = {} for k in pairs(t) do out[#out + 1] = k end return out end
return H
`;
let preludeChunk: ReturnType<typeof compileLua> | undefined;

const HEX = (v: bigint | number) => '0x' + (BigInt(v) & 0xffffffffn).toString(16).toUpperCase().padStart(8, '0');
const MAX_TRACE_STRING = 200;

/** The headless engine running layer scripts. */
export class ScriptHost {
  readonly world: World;
  readonly vm: LuaVM;
  readonly trace: Trace;
  /** The streaming layer's creature bundle manager, when connected (`ScriptHostOptions.bundles`). */
  readonly bundles: CharacterBundleMgr | undefined;
  readonly stack = new RunningScriptStack();
  readonly events = new EventRegistry<LuaValue>();
  readonly threads: ScriptThread[] = [];
  readonly instances: PrefabInstance[] = [];
  readonly budget: ScriptBudget;
  readonly timers: 'auto' | 'manual';
  readonly #cache: LayerCache;
  readonly #resolver: DbKindResolver | undefined;
  readonly #props: ReadonlyMap<string, string>;
  readonly #queue = new TimeQueue<Task>();
  readonly #remoteListeners: ((call: RemoteScriptCall) => void)[] = [];
  #worldMs = 0;
  #realMs = 0;
  #rng: number;
  #nextObject = 1;
  #nextThread = 1;
  #nextScriptObject = 1;
  #nextInstance = 1;
  /** Nesting of host-started script work (a budget is set only at the outermost). */
  #slices = 0;
  #currentThread: ScriptThread | undefined;
  readonly #helpers: { get: LuaValue; set: LuaValue; keys: LuaValue };
  // value bindings
  readonly #objectUd = new Map<WorldObject, LuaUserdata>();
  readonly #eventUd = new Map<string, LuaUserdata>();
  readonly #recordUd = new Map<string, LuaUserdata>();
  readonly #standIns = new Map<string, LuaUserdata>();
  readonly #classTables = new Map<LuaTable, string>();
  readonly #noneObjects = new Map<string, WorldObject>();
  readonly #scriptIds = new Map<LuaTable, PrefabInstance>();
  readonly #scriptObjects = new Map<LightUserdata, ScriptObjectInfo>();
  readonly #threadsByCo = new Map<LuaThread, ScriptThread>();
  readonly #nativeFns = new Map<string, HostFunction>();
  readonly #objectMeta: LuaTable;
  readonly #recordMeta: LuaTable;
  readonly #standInMeta: LuaTable;
  readonly #eventMeta: LuaTable;
  #section: LuaValue;
  #sectionEntries: string[] = [];
  #origins = new Map<string, EntryOrigin>();

  constructor(options: ScriptHostOptions = {}) {
    this.world = options.world ?? new World(options.db ? { db: options.db } : {});
    const db = options.db ?? this.world.gamedb?.db;
    this.#resolver = db ? new DbKindResolver(db, options.kindOverrides) : undefined;
    this.#props = options.props ?? new Map();
    this.#cache = options.cache ?? processLayerCache;
    this.budget = { ...DEFAULT_SCRIPT_BUDGET, ...options.budget };
    this.timers = options.timers ?? 'auto';
    this.#rng = (options.seed ?? 1) >>> 0 || 1;
    this.trace = new Trace(() => this.#worldMs, options.traceLimit, () => this.#realMs);
    this.vm = createScriptVM({
      numbers: 'float',
      limits: { instructions: Infinity, maxCallDepth: this.budget.callDepth },
      io: { stdout: (text) => this.#log('print', text), stderr: (text) => this.#log('io.stderr', text) },
      os: { clock: () => this.#worldMs / 1000 },
      debug: false,
      ...(options.jit !== undefined ? { jit: options.jit } : {}),
    });
    this.world.clocks.world.addListener((step) => {
      this.#worldMs += step;
    });
    this.world.onLoad(() => this.#resetWorldObjects());
    this.bundles = options.bundles;
    if (this.bundles) this.#connectBundles(this.bundles);
    preludeChunk ??= compileLua(PRELUDE, { name: '=engine', strip: 'all' });
    const h = this.vm.call(this.vm.load(preludeChunk, '=engine'))[0] as LuaTable;
    this.#helpers = { get: h.getStr('get'), set: h.getStr('set'), keys: h.getStr('keys') };
    this.#objectMeta = this.#makeObjectMeta();
    this.#recordMeta = this.#makeRecordMeta();
    this.#standInMeta = this.#makeStandInMeta();
    this.#eventMeta = this.vm.newTable();
    this.#eventMeta.setStr('__tostring', this.#fn('tostring', (c) => {
      const e = this.#payload(c.arg(1));
      return e instanceof EventHandle ? `${e.object.label}.${e.event}` : 'event';
    }));
    this.#installGlobals();
  }

  /** World time in ms since the host started (does not wrap). */
  get worldMs(): number {
    return this.#worldMs;
  }

  /** Run time (the real-time clock) in ms. */
  get realMs(): number {
    return this.#realMs;
  }

  // ------------------------------------------------------------------------------------------------ loading

  /**
   * Loads a layer into the current region (loading the world first when none is): runs its chunk, reads
   * `_G.loadedresource`, and starts every StartupCommands entry as a thread.
   */
  load(layer: Layer, region: string = layer.name): LayerLoadResult {
    if (!this.world.loaded || this.world.region !== region) this.world.load(region);
    const result: LayerLoadResult = { layer: layer.name, compiled: false, ok: false, entries: [], startupCommands: [], threads: [] };
    let chunk;
    let ast: Chunk | undefined;
    try {
      const got = this.#cache.get(layer);
      chunk = got.entry.chunk;
      ast = got.entry.ast;
      result.compiled = got.compiled;
    } catch (e) {
      this.trace.add('error', layer.name, { message: `cannot ${layer.kind === 'source' ? 'compile' : 'load'} the layer: ${errorText(e)}` });
      return result;
    }
    let closure: LuaClosure;
    try {
      closure = this.vm.load(chunk, `@${layer.name}.lua`);
    } catch (e) {
      this.trace.add('error', layer.name, { message: `cannot load the chunk: ${errorText(e)}` });
      return result;
    }
    this.trace.add('load', layer.name, { message: result.compiled ? `${layer.kind === 'source' ? 'compiled' : 'loaded'} and cached` : 'from the layer cache (compiled once per process)' });
    // The resource loader pushes the running-script stack while the chunk runs (seed 002; H-STACK-THREADS).
    const fault = this.stack.push(layer.name, 'loader');
    if (fault) {
      this.trace.add('fault', layer.name, { message: fault.message, hypothesis: ENGINE_HYPOTHESES.stackLimit.id });
      return result;
    }
    this.vm.setGlobal('loadedresource', undefined);
    let ran = false;
    try {
      ran = this.#slice(layer.name, undefined, () => this.vm.call(closure)) !== undefined;
    } finally {
      this.stack.pop();
    }
    if (!ran) return result;
    const section = this.vm.getGlobal('loadedresource');
    if (!(section instanceof LuaTable)) {
      this.trace.add('error', layer.name, { message: `the chunk did not set _G.loadedresource to its section table (got ${describeLua(section)})` });
      return result;
    }
    this.#section = section;
    const keys = this.#call(this.#helpers.keys, [section]);
    const tableKeys = keys instanceof LuaTable ? Array.from({ length: keys.length() }, (_, i) => keys.getInt(i + 1)).filter((k): k is string => typeof k === 'string') : [];
    // Source order when the AST is known (the table's own order otherwise; both are fixed for a given input).
    const order = ast ? sectionEntryOrder(ast) : [];
    const known = new Set(tableKeys);
    const entries = [...order.filter((k) => known.has(k)), ...tableKeys.filter((k) => !order.includes(k))];
    this.#sectionEntries = entries;
    this.#origins = layer.source ? entryOrigins(layer.source) : new Map();
    result.entries = entries;
    result.ok = true;
    for (const entry of entries) {
      if (startupCommandPrefab(entry) === undefined) continue;
      result.startupCommands.push(entry);
      const fn = section.getStr(entry);
      if (!(fn instanceof LuaClosure || fn instanceof HostFunction)) {
        this.trace.add('error', entry, { message: `the StartupCommands entry is a ${describeLua(fn)}, not a function` });
        continue;
      }
      const thread = this.#startThread(entry, fn, this.#instanceFor(this.prefabOf(entry)), section);
      result.threads.push(thread.id);
    }
    return result;
  }

  /** The prefab an entry belongs to: its source comment, else its name (`entryPrefab`). */
  prefabOf(entry: string): string {
    return this.#origins.get(entry)?.prefab ?? entryPrefab(entry, this.#sectionEntries);
  }

  /**
   * Starts an entry of the last layer's table as a script thread, as the world does when the entry's object
   * triggers it (a relay, a trigger volume). Returns the thread, or undefined when there is no such entry.
   */
  start(entry: string): ScriptThread | undefined {
    const section = this.#section;
    const fn = section instanceof LuaTable ? section.getStr(entry) : undefined;
    if (!(fn instanceof LuaClosure || fn instanceof HostFunction)) {
      const near = this.#sectionEntries.filter((e) => e.toLowerCase().includes(entry.toLowerCase().replace(/^_/, '').split('_')[0] ?? '')).slice(0, 5);
      this.trace.add('error', entry, { message: `no function entry ${entry} in the layer's table${near.length ? ` (entries: ${near.join(', ')})` : ''}` });
      return undefined;
    }
    return this.#startThread(entry, fn, this.#instanceFor(this.prefabOf(entry)), section);
  }

  #instanceFor(prefab: string): PrefabInstance {
    const existing = this.instances.find((i) => i.prefab === prefab);
    if (existing) return existing;
    const props = new Map<string, string>();
    for (const [k, v] of this.#props) {
      const dot = k.lastIndexOf('.');
      if (dot < 0) props.set(k, v);
    }
    for (const [k, v] of this.#props) {
      const dot = k.lastIndexOf('.');
      if (dot > 0 && k.slice(0, dot) === prefab) props.set(k.slice(dot + 1), v);
    }
    const inst = new PrefabInstance(this.#nextInstance++, prefab, props);
    const scriptId = this.vm.newTable();
    const instanceObject = this.#newObject('GameBase', prefab, inst);
    scriptId.setStr('Instance', this.#objectValue(instanceObject));
    inst.scriptId = scriptId;
    this.#scriptIds.set(scriptId, inst);
    this.instances.push(inst);
    return inst;
  }

  #resetWorldObjects(): void {
    // H-LOAD-RESETS: a load rebuilds the world's objects.
    for (const t of this.threads) if (t.state === 'running' || t.state === 'sleeping') t.state = 'ended';
    this.#queue.removeWhere(() => true);
    this.events.clear();
    this.instances.length = 0;
    this.#scriptIds.clear();
    this.#scriptObjects.clear();
  }

  // ------------------------------------------------------------------------------------------------ threads

  #startThread(entry: string, fn: LuaValue, instance: PrefabInstance, self: LuaValue): ScriptThread {
    const co = this.vm.newThread(fn);
    const thread: ScriptThread = { id: this.#nextThread++, entry, co, instance, state: 'running' };
    this.threads.push(thread);
    this.#threadsByCo.set(co, thread);
    this.trace.add('thread-start', entry, { thread: thread.id, hypothesis: ENGINE_HYPOTHESES.threadArgs.id });
    this.#resume(thread, [self, thread.id, instance.scriptId as LuaValue]);
    return thread;
  }

  #resume(thread: ScriptThread, args: LuaValue[]): void {
    thread.state = 'running';
    delete thread.wakeAt;
    const saved = this.#currentThread;
    this.#currentThread = thread;
    try {
      const r = this.#slice(thread.entry, thread.id, () => this.vm.resume(thread.co, args));
      if (r === undefined) {
        thread.state = 'error';
        return;
      }
      if (r.status === 'error') {
        thread.state = 'error';
        const err = r.error;
        this.trace.add('error', thread.entry, { thread: thread.id, message: err.message, traceback: err.traceback });
      } else if (r.status === 'return') {
        thread.state = 'ended';
        this.trace.add('end', thread.entry, { thread: thread.id });
      } else if (thread.wakeAt === undefined) {
        // coroutine.yield without LithThreadSleep: resumed on the next frame.
        thread.state = 'sleeping';
        thread.wakeAt = this.#worldMs;
        this.#queue.add(this.#worldMs, { kind: 'wake', thread });
      } else thread.state = 'sleeping';
    } finally {
      this.#currentThread = saved;
    }
  }

  /**
   * Runs one slice of script work with the budget; a script error or an exhausted budget becomes an `error` entry
   * (and `undefined`), never an exception.
   */
  #slice<T>(name: string, thread: number | undefined, work: () => T): T | undefined {
    const outer = this.#slices === 0;
    if (outer) this.vm.budget = this.budget.instructions;
    this.#slices++;
    try {
      return work();
    } catch (e) {
      if (!(e instanceof ScriptError)) throw e;
      const message = e.kind === 'budget' ? `${e.message} (the slice's budget is ${this.budget.instructions.toLocaleString('en-US')} instructions)` : e.message;
      this.trace.add('error', name, { ...(thread !== undefined ? { thread } : {}), message, traceback: e.traceback });
      return undefined;
    } finally {
      this.#slices--;
      if (outer) this.vm.budget = Infinity;
    }
  }

  // ------------------------------------------------------------------------------------------------ time

  /**
   * One frame of `realMs` real time: the clocks update (the world clock drives sleeping threads and timers), then
   * the work that became due runs, in due order.
   */
  frame(realMs: number): void {
    this.#realMs += Math.max(0, realMs);
    this.world.frame(realMs);
    const due: Task[] = [];
    for (let e = this.#queue.popDue(this.#worldMs); e; e = this.#queue.popDue(this.#worldMs)) due.push(e.item);
    for (const task of due) {
      if (task.kind === 'wake') {
        if (task.thread.state !== 'sleeping') continue;
        this.trace.add('wake', task.thread.entry, { thread: task.thread.id });
        this.#resume(task.thread, []);
      } else {
        this.trace.add('fire', `${task.object.label}.OnComplete`, { message: 'the timer completed', hypothesis: ENGINE_HYPOTHESES.timerComplete.id, result: this.events.of(task.object, 'OnComplete').length });
        this.dispatch(task.object, 'OnComplete');
      }
    }
    // the main scene's update runs CharacterBundleMgr's update (a no-op unless a list changed: its dirty byte)
    if (this.bundles) {
      const u = this.bundles.update();
      if (u.requested.length || u.unloaded.length) this.trace.add('bundle', 'update', { change: 'update', message: `${u.requested.length} requested, ${u.unloaded.length} dropped out and unloaded` });
    }
  }

  /**
   * The streaming hooks: a region change resets the creature bundles (seed 001: every set and loaded bundle
   * cleared, skins then the world set requested); loaded / unloaded events reach the host as they reach the global
   * script agent (which script handlers they reach is not known, H-BUNDLE-EVENTS: traced, not dispatched).
   */
  #connectBundles(m: CharacterBundleMgr): void {
    const traced = (change: 'loaded' | 'unloaded') => (e: CharacterBundleEvent) =>
      this.trace.add('bundle', e.name, { change, bundle: e.bundle, owners: e.owners, hypothesis: ENGINE_HYPOTHESES.bundleEvents.id });
    m.listener = { bundleLoaded: traced('loaded'), bundleUnloaded: traced('unloaded') };
    this.world.onRegionChange((ev) => {
      try {
        const r = m.changeRegion(ev.region);
        this.trace.add('bundle', ev.region, { change: 'region', message: `region change${ev.previousRegion !== undefined ? ` from ${ev.previousRegion}` : ''}: ${r.cleared.length} creature bundle(s) cleared, ${r.requested.length} requested (skins, then the world set ${m.region?.listName ?? '(none)'})` });
      } catch (e) {
        if (!(e instanceof WorldDataError)) throw e;
        this.trace.add('error', ev.region, { change: 'region', message: `region change: ${e.message} (the region is a WorldInfo record)` });
      }
    });
  }

  /** System:LoadOverrideNPCBundleList(list, slot) / LoadDefaultNPCBundleList(list) on the bundle manager. */
  #npcBundleList(spec: NativeSpec, args: LuaValue[], entry: TraceEntry): void {
    const v = this.#payload(args[0]);
    const list = typeof args[0] === 'string' ? args[0] : v instanceof RecordHandle ? (v.record?.label ?? v.name) : undefined;
    if (!this.bundles) {
      entry.message = 'queued for CharacterBundleMgr (no streaming layer in this run: give --region)';
      return;
    }
    if (list === undefined) {
      entry.message = `the list is ${describeLua(args[0])}, not a Server/NPCBundle/Lists name or record: nothing queued`;
      return;
    }
    const slot = typeof args[1] === 'number' ? args[1] : 0;
    try {
      if (spec.behaviour === 'npc-bundle-override') this.bundles.loadOverrideList(list, slot);
      else this.bundles.loadDefaultList(list);
      entry.message = `CharacterBundleMgr: ${spec.behaviour === 'npc-bundle-override' ? `override slot ${slot}` : 'default list'} = ${list} (reconciled by the next update)`;
    } catch (e) {
      if (!(e instanceof WorldDataError)) throw e;
      entry.message = `${e.message}: nothing queued`;
    }
  }

  /**
   * Listens to the script bus (`System:ActivateRemoteScript`, the bus's Notify 0x605990): each listener is called
   * synchronously inside the native, on the main thread, with the running-script stack as it is (a listener may
   * dispatch events, which then nest on that stack). Returns a function that removes the listener.
   */
  onRemoteScript(listener: (call: RemoteScriptCall) => void): () => void {
    this.#remoteListeners.push(listener);
    return () => {
      const i = this.#remoteListeners.indexOf(listener);
      if (i >= 0) this.#remoteListeners.splice(i, 1);
    };
  }

  /** Pause (or resume) the game: the pausable clocks stop; real time goes on. */
  setPaused(paused: boolean): void {
    this.world.setPaused(paused);
    this.trace.add('pause', paused ? 'pause' : 'resume');
  }

  /** Slow motion on the channel clocks. */
  setSlowMotion(scale: number): void {
    this.world.clocks.setSlowMotion(scale);
    this.trace.add('pause', 'slow-motion', { message: `scale ${scale}` });
  }

  // ------------------------------------------------------------------------------------------------ events

  /** World objects whose label (or `prefab/label`) is `label`. */
  findObjects(label: string): WorldObject[] {
    const out: WorldObject[] = [];
    for (const inst of this.instances) {
      for (const o of inst.objects.values()) if (o.label === label || `${inst.prefab}/${o.label}` === label) out.push(o);
    }
    return out;
  }

  /**
   * Fires `event` on every object labelled `label` (what the world would do: a timer completing, an item
   * collected). Returns how many handlers ran.
   */
  fire(label: string, event: string, fields: Readonly<Record<string, FireValue>> = {}): number {
    const objects = this.findObjects(label);
    const regs = objects.reduce((n, o) => n + this.events.of(o, event).length, 0);
    this.trace.add('fire', `${label}.${event}`, {
      result: regs,
      ...(objects.length === 0 ? { message: `no object ${label}${this.#closestObjectLabels(label)}` } : regs === 0 ? { message: 'nothing is registered on it' } : {}),
    });
    let n = 0;
    for (const o of objects) n += this.dispatch(o, event, fields);
    return n;
  }

  #closestObjectLabels(label: string): string {
    const labels = [...new Set(this.instances.flatMap((i) => [...i.objects.values()].map((o) => o.label)))].sort();
    const near = closestNames(label, labels);
    if (near.length) return ` (closest: ${near.join(', ')})`;
    return labels.length ? ` (objects: ${labels.slice(0, 12).join(', ')}${labels.length > 12 ? ', …' : ''})` : ' (no objects yet: scripts make them with Class.Create)';
  }

  /** Dispatches an object's event to its registrations through the script objects' `__eventmap`. */
  dispatch(object: WorldObject, event: string, fields: Readonly<Record<string, FireValue>> = {}): number {
    let n = 0;
    for (const reg of this.events.of(object, event)) {
      const found = this.#handlerOf(reg);
      if ('problem' in found) {
        this.trace.add('fault', `${object.label}.${event}`, { hash: reg.hashText, message: found.problem });
        continue;
      }
      const { so, func, name } = found;
      const fault = this.stack.push(name, 'dispatch');
      if (fault) {
        this.trace.add('fault', name ?? 'Invalid', { message: fault.message, hypothesis: ENGINE_HYPOTHESES.stackLimit.id });
        continue;
      }
      try {
        const handler = `${so.entry}.${name ?? '?'}`;
        this.trace.add('dispatch', name ?? 'Invalid', { sender: object.label, event, hash: reg.hashText, handler, stack: this.stack.entries().map((e) => e.name), hypothesis: ENGINE_HYPOTHESES.stackName.id });
        const args = this.#eventArgs(object, event, fields);
        const ok = this.#slice(handler, undefined, () => this.vm.call(func, [so.value, args]));
        if (ok !== undefined) this.trace.add('end', name ?? 'Invalid', { handler });
        n++;
      } finally {
        this.stack.pop();
      }
    }
    return n;
  }

  /** What a registration dispatches to: the script object, its `__eventmap[hash]` function and name. */
  #handlerOf(reg: EventRegistration<LuaValue>): { so: ScriptObjectInfo; func: LuaValue; name: string | undefined } | { problem: string } {
    const so = reg.lookupId instanceof LightUserdata ? this.#scriptObjects.get(reg.lookupId) : undefined;
    if (!so) return { problem: 'the registration names no script object (its lookupId was not made by ScriptObject.Create)' };
    let emap: LuaValue;
    try {
      emap = this.#call(this.#helpers.get, [so.meta, '__eventmap']);
    } catch (e) {
      return { problem: `${so.entry}.__eventmap cannot be read: ${errorText(e)}` };
    }
    const handlerEntry = emap instanceof LuaTable ? emap.get(reg.hash) : undefined;
    const func = handlerEntry instanceof LuaTable ? handlerEntry.getStr('func') : undefined;
    const nameValue = handlerEntry instanceof LuaTable ? handlerEntry.getStr('name') : undefined;
    if (!(func instanceof LuaClosure || func instanceof HostFunction)) return { problem: `${so.entry}.__eventmap has no handler for ${reg.hashText}` };
    return { so, func, name: typeof nameValue === 'string' ? nameValue : undefined };
  }

  /** The live registrations with what each would dispatch to. */
  registrations(): { sender: string; event: string; hash: string; entry?: string; handler?: string; problem?: string }[] {
    return this.events.list().map((r) => {
      const found = this.#handlerOf(r);
      const base = { sender: r.sender.label, event: r.event, hash: r.hashText };
      return 'problem' in found ? { ...base, problem: found.problem } : { ...base, entry: found.so.entry, ...(found.name !== undefined ? { handler: found.name } : {}) };
    });
  }

  #eventArgs(object: WorldObject, event: string, fields: Readonly<Record<string, FireValue>>): LuaTable {
    const t = this.vm.newTable();
    t.setStr('Sender', this.#objectValue(object));
    const shapes = eventArgumentShapes(object.className, event) ?? {};
    for (const [field, shape] of Object.entries(shapes)) t.setStr(field, this.#defaultOf(shape, `${object.label}.${event}.${field}`, object.instance));
    for (const [field, v] of Object.entries(fields)) t.setStr(field, this.#fireValue(v, shapes[field], object));
    return t;
  }

  #fireValue(v: FireValue, shape: ValueShape | undefined, sender: WorldObject): LuaValue {
    if (typeof v === 'number') return this.vm.fromHost(v);
    if (typeof v !== 'object') return v;
    if ('record' in v) {
      const m = /^(DB[A-Za-z0-9_]+)\.(.+)$/.exec(v.record);
      return m ? this.#lookupRecord(m[1]!, m[2]!) : undefined;
    }
    const found = this.findObjects(v.object)[0];
    const className = shape?.startsWith('object:') ? shape.slice(7) : 'GameBase';
    return this.#objectValue(found ?? this.#object(className, v.object, sender.instance));
  }

  // ------------------------------------------------------------------------------------------------ summary

  /** Threads still waiting, in due order. */
  sleeping(): { name: string; thread: number; wakeAt: number }[] {
    return this.threads.filter((t) => t.state === 'sleeping').map((t) => ({ name: t.entry, thread: t.id, wakeAt: t.wakeAt ?? this.#worldMs }));
  }

  summary(): TraceSummary {
    return summarizeTrace(this.trace, { worldMs: this.#worldMs, realMs: this.#realMs, sleeping: this.sleeping() });
  }

  /** The section table's entries of the last layer loaded. */
  get entries(): readonly string[] {
    return this.#sectionEntries;
  }

  // ------------------------------------------------------------------------------------------------ values

  #fn(name: string, fn: (call: HostCall) => HostResult): HostFunction {
    return defineHostFunction(this.vm, name, fn);
  }

  #call(fn: LuaValue, args: LuaValue[]): LuaValue {
    return this.vm.call(fn, args)[0];
  }

  #payload(v: LuaValue): unknown {
    return v instanceof LuaUserdata ? v.value : undefined;
  }

  #newObject(className: string, name: string, instance: PrefabInstance | undefined, isNone = false): WorldObject {
    return new WorldObject(this.#nextObject++, className, name, instance, isNone);
  }

  /** The object of `className` named `name` in an instance (made on first use). */
  #object(className: string, name: string, instance: PrefabInstance | undefined): WorldObject {
    const key = `${className}\u0000${name}`;
    const existing = instance?.objects.get(key);
    if (existing) return existing;
    const o = this.#newObject(className, name, instance);
    instance?.objects.set(key, o);
    return o;
  }

  #none(className: string): WorldObject {
    let o = this.#noneObjects.get(className);
    if (!o) {
      o = this.#newObject(className, '', undefined, true);
      this.#noneObjects.set(className, o);
    }
    return o;
  }

  #objectValue(o: WorldObject): LuaUserdata {
    let ud = this.#objectUd.get(o);
    if (!ud) {
      ud = new LuaUserdata(o, this.#objectMeta);
      this.#objectUd.set(o, ud);
    }
    return ud;
  }

  #eventValue(o: WorldObject, event: string): LuaUserdata {
    const key = `${o.id}\u0000${event}`;
    let ud = this.#eventUd.get(key);
    if (!ud) {
      ud = new LuaUserdata(new EventHandle(o, event), this.#eventMeta);
      this.#eventUd.set(key, ud);
    }
    return ud;
  }

  #recordValue(kind: string, name: string, record: DbRecord | undefined): LuaUserdata {
    const key = record ? `#${record.index}` : `${kind}\u0000${name}`;
    let ud = this.#recordUd.get(key);
    if (!ud) {
      ud = new LuaUserdata(new RecordHandle(kind, record ? name : name, record), this.#recordMeta);
      this.#recordUd.set(key, ud);
    }
    return ud;
  }

  #standIn(label: string): LuaUserdata {
    let ud = this.#standIns.get(label);
    if (!ud) {
      ud = new LuaUserdata(new StandIn(label), this.#standInMeta);
      this.#standIns.set(label, ud);
    }
    return ud;
  }

  /** What a shape check sees in a value. */
  #info(v: LuaValue): ValueInfo {
    if (v === undefined) return { type: 'nil' };
    if (typeof v === 'boolean') return { type: 'boolean' };
    if (typeof v === 'number') return { type: 'number' };
    if (typeof v === 'string') return { type: 'string' };
    if (v instanceof LuaUserdata) {
      const p = v.value;
      if (p instanceof WorldObject) {
        if (p.className === 'WBLinkedList') return { type: 'list' };
        if (p.className === 'WBDelegate') return { type: 'delegate' };
        return { type: 'object', className: p.className, label: p.label };
      }
      if (p instanceof RecordHandle) return { type: 'record', kind: p.kind, label: p.label, isNull: p.isNull };
      if (p instanceof EventHandle) return { type: 'event' };
      if (p instanceof StandIn) return { type: 'standin', label: p.label };
      return { type: 'other' };
    }
    if (v instanceof LuaTable) {
      if (this.#scriptIds.has(v)) return { type: 'scriptId' };
      const c = this.#classTables.get(v);
      if (c !== undefined) return { type: 'class', className: c };
      return { type: 'table' };
    }
    if (v instanceof LuaStruct) return { type: 'struct' };
    if (v instanceof LuaClosure || v instanceof HostFunction) return { type: 'function' };
    if (v instanceof LightUserdata) return { type: 'luserdata' };
    if (v instanceof LuaThread) return { type: 'thread' };
    return { type: 'other' };
  }

  /** A value as the trace shows it: Lua scalars as themselves, everything else as a `{ ref }` label. */
  #traceValue(v: LuaValue): TraceValue {
    if (v === undefined) return null;
    if (typeof v === 'string') return v.length > MAX_TRACE_STRING ? v.slice(0, MAX_TRACE_STRING) + '…' : v;
    if (typeof v === 'number' || typeof v === 'boolean') return v;
    return { ref: this.#refText(v) };
  }

  #refText(v: LuaValue): string {
    if (typeof v === 'bigint') return `${v}hl`;
    if (v instanceof LightUserdata) return HEX(v.value);
    if (v instanceof LuaUserdata) {
      const p = v.value;
      if (p instanceof WorldObject) return p.isNone ? `${p.className}.None` : `<${p.className}${p.name !== '' ? ' ' + p.name : ''}>`;
      if (p instanceof RecordHandle) return p.isNull && p.name !== NULL_RECORD_NAME ? `${p.label} (unresolved)` : p.label;
      if (p instanceof EventHandle) return `${p.object.label}.${p.event}`;
      if (p instanceof StandIn) return `<stand-in ${p.label}>`;
      return '<userdata>';
    }
    if (v instanceof LuaTable) {
      const inst = this.#scriptIds.get(v);
      if (inst) return `<scriptId ${inst.prefab}>`;
      const c = this.#classTables.get(v);
      if (c !== undefined) return c;
      return '<table>';
    }
    if (v instanceof LuaStruct) return `<${v.def.name}>`;
    return `<${describeLua(v).replace(/^an? /, '')}>`;
  }

  #defaultOf(shape: ValueShape, label: string, instance: PrefabInstance | undefined): LuaValue {
    if (shape === 'boolean') return false;
    if (shape === 'number') return 0;
    if (shape === 'string') return '';
    if (shape === 'list') return this.#objectValue(this.#newObject('WBLinkedList', '', instance));
    if (shape === 'delegate') return this.#objectValue(this.#newObject('WBDelegate', '', instance));
    if (shape === 'iterator') return this.#fn('WBObjectPair iterator', () => undefined);
    if (shape.startsWith('object:')) {
      // an event argument: an object the world would give; its name says where it came from
      return this.#objectValue(this.#object(shape.slice(7), label, instance));
    }
    if (shape.startsWith('record:')) return this.#recordValue(shape.slice(7), NULL_RECORD_NAME, undefined);
    return undefined;
  }

  // ------------------------------------------------------------------------------------------------ globals

  #installGlobals(): void {
    const vm = this.vm;
    const owners = nativeGlobals();
    const tables = new Map<string, LuaTable>();
    const ownerTable = (owner: string): LuaTable => {
      let t = tables.get(owner);
      if (!t) {
        t = vm.newTable();
        t.metatable = this.#ownerMeta(owner);
        tables.set(owner, t);
        vm.setGlobal(owner, t);
      }
      return t;
    };
    for (const c of WORLD_CLASSES) {
      const t = ownerTable(c.name);
      this.#classTables.set(t, c.name);
      t.setStr('None', this.#objectValue(this.#none(c.name)));
    }
    for (const [owner, specs] of owners) {
      for (const spec of specs) {
        if (!/[.:]/.test(spec.name)) {
          vm.setGlobal(spec.name, this.#native(spec, undefined));
          continue;
        }
        const member = spec.name.slice(owner.length + 1);
        ownerTable(owner).setStr(member, this.#native(spec, spec.name[owner.length] === ':' ? ownerTable(owner) : undefined));
      }
    }
    // os.time / os.date would read the wall clock: a run must not depend on it.
    const os = vm.getGlobal('os');
    if (os instanceof LuaTable) {
      os.setStr('time', this.#fn('os.time', () => vm.fromHost(Math.floor(this.#worldMs / 1000))));
      os.setStr('date', this.#fn('os.date', () => '1970-01-01 00:00:00'));
    }
    // Unknown globals: DB<Kind> tables on first use; other capitalised names become recorded stand-ins.
    const gmeta = vm.newTable();
    gmeta.setStr('__index', this.#fn('_G.__index', (c) => {
      const name = c.arg(2);
      if (typeof name !== 'string') return undefined;
      if (isDbKindName(name)) {
        const kindTable = this.#kindTable(name);
        vm.globals.setStr(name, kindTable);
        return kindTable;
      }
      if (/^[A-Z]/.test(name)) {
        const t = vm.newTable();
        t.metatable = this.#ownerMeta(name);
        vm.globals.setStr(name, t);
        return t;
      }
      return undefined;
    }));
    vm.globals.metatable = gmeta;
  }

  /** The metatable of a global owner table: unknown members are stand-in natives. */
  #ownerMeta(owner: string): LuaTable {
    const meta = this.vm.newTable();
    meta.setStr('__index', this.#fn(`${owner}.__index`, (c) => {
      const member = c.arg(2);
      if (typeof member !== 'string') return undefined;
      return this.#unknownNative(owner, member, c.arg(1));
    }));
    return meta;
  }

  /** A DB<Kind> table: `DBKind.Name` and `DBKind[name]` look records up. */
  #kindTable(kind: string): LuaTable {
    const t = this.vm.newTable();
    const meta = this.vm.newTable();
    meta.setStr('__index', this.#fn(`${kind}.__index`, (c) => {
      const name = c.arg(2);
      if (typeof name !== 'string') {
        this.trace.add('fault', `${kind}[${this.#text(name)}]`, { message: `a ${kind} record is named by a ${describeLua(name)}, not a string` });
        return undefined;
      }
      return this.#lookupRecord(kind, name);
    }));
    meta.setStr('__tostring', this.#fn('tostring', () => kind));
    t.metatable = meta;
    this.#classTables.set(t, kind);
    return t;
  }

  #lookupRecord(kind: string, name: string): LuaValue {
    if (name === NULL_RECORD_NAME) return this.#recordValue(kind, name, undefined);
    const r = this.#resolver ? this.#resolver.record(kind, name) : unresolvedWithoutDatabase(kind, name);
    if (r.ok) {
      this.trace.add('db', `${kind}.${name}`, { record: r.record.path });
      return this.#recordValue(kind, name, r.record);
    }
    this.trace.add('db', `${kind}.${name}`, { message: r.message, closest: r.closest, hypothesis: ENGINE_HYPOTHESES.unresolvedRecord.id });
    return this.#recordValue(kind, name, undefined);
  }

  #makeObjectMeta(): LuaTable {
    const meta = this.vm.newTable();
    meta.setStr('__index', this.#fn('object.__index', (c) => {
      const o = this.#payload(c.arg(1));
      const key = c.arg(2);
      if (!(o instanceof WorldObject) || typeof key !== 'string') return undefined;
      const spec = objectMethod(o.className, key);
      if (spec) return this.#native(spec, undefined, o.className);
      if (/^On[A-Z]/.test(key)) return this.#eventValue(o, key);
      return this.#unknownNative(o.className, key, undefined, true);
    }));
    meta.setStr('__tostring', this.#fn('tostring', (c) => {
      const o = this.#payload(c.arg(1));
      return o instanceof WorldObject ? o.label : 'object';
    }));
    meta.setStr('__concat', this.#concat());
    return meta;
  }

  #makeRecordMeta(): LuaTable {
    const meta = this.vm.newTable();
    meta.setStr('__tostring', this.#fn('tostring', (c) => {
      const r = this.#payload(c.arg(1));
      return r instanceof RecordHandle ? r.label : 'record';
    }));
    meta.setStr('__index', this.#fn('record.__index', (c) => {
      const r = this.#payload(c.arg(1));
      const field = c.arg(2);
      if (!(r instanceof RecordHandle) || typeof field !== 'string' || !r.record) return undefined;
      const value = this.world.gamedb ? this.world.gamedb.get(r.record, field) : r.record.get(field);
      this.trace.add('db', `${r.label}.${field}`, { record: r.record.path, result: fieldTraceValue(value) });
      return this.#fieldValue(value);
    }));
    meta.setStr('__concat', this.#concat());
    return meta;
  }

  #fieldValue(v: FieldValue | undefined): LuaValue {
    if (v === undefined || v === null) return undefined;
    if (typeof v === 'number') return this.vm.fromHost(v);
    if (typeof v === 'string' || typeof v === 'boolean') return v;
    if (typeof v === 'bigint') return v;
    if (typeof v === 'object' && 'text' in v && typeof v.text === 'string') return v.text;
    if (typeof v === 'object' && 'category' in v && 'index' in v) {
      const rec = v as DbRecord;
      return this.#recordValue(rec.category.name, rec.label, rec);
    }
    return undefined;
  }

  #makeStandInMeta(): LuaTable {
    const meta = this.vm.newTable();
    meta.setStr('__index', this.#fn('stand-in.__index', (c) => {
      const s = this.#payload(c.arg(1));
      const key = c.arg(2);
      return s instanceof StandIn ? this.#standIn(`${s.label}.${typeof key === 'string' ? key : this.#refText(key)}`) : undefined;
    }));
    meta.setStr('__call', this.#fn('stand-in.__call', (c) => {
      const s = this.#payload(c.arg(1));
      const label = s instanceof StandIn ? s.label : '?';
      const args: unknown[] = [];
      for (let i = 2; i <= c.count; i++) args.push(this.#traceValue(c.arg(i)));
      this.trace.add('native', label, { unknown: true, args, ...this.#threadField() });
      return this.#standIn(`${label}()`);
    }));
    meta.setStr('__tostring', this.#fn('tostring', (c) => {
      const s = this.#payload(c.arg(1));
      return s instanceof StandIn ? s.label : 'stand-in';
    }));
    meta.setStr('__concat', this.#concat());
    const zero = this.#fn('stand-in arithmetic', () => 0);
    for (const ev of ['__add', '__sub', '__mul', '__div', '__mod', '__pow', '__unm', '__len']) meta.setStr(ev, zero);
    const no = this.#fn('stand-in comparison', () => false);
    meta.setStr('__lt', no);
    meta.setStr('__le', no);
    return meta;
  }

  #concat(): HostFunction {
    return this.#fn('concat', (c) => this.#text(c.arg(1)) + this.#text(c.arg(2)));
  }

  #text(v: LuaValue): string {
    if (typeof v === 'string') return v;
    if (typeof v === 'number') return String(this.vm.call(this.vm.getGlobal('tostring'), [v])[0]);
    if (v === undefined || typeof v === 'boolean') return String(v ?? 'nil');
    if (v instanceof LuaUserdata) {
      const p = v.value;
      if (p instanceof WorldObject) return p.label;
      if (p instanceof StandIn) return p.label;
    }
    return this.#refText(v);
  }

  #threadField(): { thread?: number } {
    return this.#currentThread ? { thread: this.#currentThread.id } : {};
  }

  #log(name: string, text: string): void {
    this.trace.add('log', name, { message: text.replace(/\n$/, ''), ...this.#threadField() });
  }

  /** An unknown native: a function recording its calls and returning a stand-in. */
  #unknownNative(owner: string, member: string, ownerValue: LuaValue, isMethod = false): HostFunction {
    const key = `?${owner}\u0000${member}\u0000${isMethod}`;
    let f = this.#nativeFns.get(key);
    if (!f) {
      f = this.#fn(`${owner}.${member}`, (c) => {
        const first = c.arg(1);
        const colon = isMethod || (ownerValue !== undefined && first === ownerValue);
        const name = isMethod ? `${owner}::${member}` : `${owner}${colon ? ':' : '.'}${member}`;
        const args: unknown[] = [];
        for (let i = colon ? 2 : 1; i <= c.count; i++) args.push(this.#traceValue(c.arg(i)));
        const self = isMethod ? this.#payload(first) : undefined;
        this.trace.add('native', name, { unknown: true, args, ...(self instanceof WorldObject ? { self: self.label } : {}), ...this.#threadField() });
        return this.#standIn(`${name}()`);
      });
      this.#nativeFns.set(key, f);
    }
    return f;
  }

  /** The host function of a natives-table row. `ownerValue` = the owner table for `Owner:Name` rows. */
  #native(spec: NativeSpec, ownerValue: LuaTable | undefined, viaClass?: string): HostFunction {
    const isMethod = spec.name.includes('::');
    const key = `${spec.name}\u0000${viaClass ?? ''}`;
    let f = this.#nativeFns.get(key);
    if (f) return f;
    f = this.#fn(spec.name, (c) => {
      let self: WorldObject | undefined;
      let first = 1;
      let display = spec.name;
      if (isMethod) {
        const s = this.#payload(c.arg(1));
        const methodName = spec.name.slice(spec.name.indexOf('::') + 2);
        display = `${s instanceof WorldObject ? s.className : (viaClass ?? spec.name.split('::')[0])}::${methodName}`;
        if (!(s instanceof WorldObject)) return this.#fault(c, display, `called with "." instead of ":" (the first argument is ${describeLua(c.arg(1))}, not the object)`);
        self = s;
        first = 2;
      } else if (ownerValue !== undefined) {
        if (c.arg(1) !== ownerValue) return this.#fault(c, spec.name, `called with "." instead of ":" (the native reads its first argument as the ${spec.name.split(':')[0]} object)`);
        first = 2;
      }
      const args: LuaValue[] = [];
      for (let i = first; i <= c.count; i++) args.push(c.arg(i));
      const entry = this.trace.add('native', display, { args: args.map((a) => this.#traceValue(a)), ...(self ? { self: self.label } : {}), ...this.#threadField() });
      // Argument shapes: the engine does not check them; a shape the natives table does not expect would fault.
      for (let i = 0; i < spec.args.length; i++) {
        const shape = spec.args[i]!;
        if (shape === '...') break;
        const why = shapeMismatch(shape, this.#info(args[i]));
        if (why) return this.#fault(c, display, `argument ${i + 1}: ${why}`);
      }
      if (spec.context === 'asserts' && !this.stack.inScriptContext) {
        const message = spec.assertMessage ?? 'script context required';
        this.trace.add('assert', display, { message, stack: [], hypothesis: ENGINE_HYPOTHESES.stackThreads.id, ...this.#threadField() });
        return c.error(`${display}: engine assert "${message}": the running-script stack is at depth 0 (only an engine-dispatched handler has script context); the game would fault here`);
      }
      const result = this.#behave(spec, c, self, args, entry);
      if (result !== undefined && !(typeof result === 'object' && result !== null && 'yielded' in result)) entry.result = this.#traceValue(result as LuaValue);
      return result;
    });
    this.#nativeFns.set(key, f);
    return f;
  }

  /**
   * Script work a native runs (a constructor): its Lua error becomes the native's error, so the calling script
   * sees it where it called the native; a budget or host error stays fatal.
   */
  #nested<T>(c: HostCall, what: string, work: () => T): T {
    try {
      return work();
    } catch (e) {
      if (e instanceof ScriptError && (e.kind === 'runtime' || e.kind === 'limit')) return c.error(`in ${what}: ${e.message}`);
      throw e;
    }
  }

  #fault(c: HostCall, name: string, message: string): never {
    this.trace.add('fault', name, { message: `would fault in game: ${message}`, hypothesis: ENGINE_HYPOTHESES.faultEnds.id, ...this.#threadField() });
    return c.error(`${name}: would fault in game: ${message}`);
  }

  /** What a native does (the behaviour column), else its state column, else its return shape's default. */
  #behave(spec: NativeSpec, c: HostCall, self: WorldObject | undefined, args: LuaValue[], entry: TraceEntry): HostResult {
    const instanceOf = (v: LuaValue) => (v instanceof LuaTable ? this.#scriptIds.get(v) : undefined);
    switch (spec.behaviour) {
      case 'script-object-create':
        return this.#createScriptObject(c, instanceOf(args[0]), args[1] as string);
      case 'object-create': {
        const inst = instanceOf(args[0]);
        const className = spec.returns.slice(7);
        return this.#objectValue(this.#object(className, args[1] as string, inst));
      }
      case 'object-cast': {
        const target = spec.returns.slice(7);
        const o = this.#payload(args[0]);
        if (!(o instanceof WorldObject)) return this.#objectValue(this.#none(target));
        if (isClassOf(o.className, target)) return args[0];
        if (o.className === 'GameBase' && !o.isNone && o.instance && worldClass(target)) {
          // H-CAST: an object of unknown class (an event argument) takes the class it is cast to
          const refined = this.#object(target, o.name, o.instance);
          return this.#objectValue(refined);
        }
        return this.#objectValue(this.#none(target));
      }
      case 'event-add':
      case 'event-remove':
        return this.#eventRegistration(c, spec, args);
      case 'thread-sleep':
        return this.#sleep(c, args[0] as number, args[1] as number);
      case 'prop': {
        const inst = instanceOf(args[0]);
        const name = args[1] as string;
        const given = inst?.props.get(name);
        const fallback = args[2];
        if (given === undefined) return fallback;
        if (spec.returns === 'boolean') return given === 'true' || given === '1';
        if (spec.returns === 'number') return Number.isFinite(Number(given)) ? this.vm.fromHost(Number(given)) : fallback;
        return given;
      }
      case 'object-name':
        return self?.name ?? '';
      case 'object-typeof': {
        const c2 = args[0] instanceof LuaTable ? this.#classTables.get(args[0]) : undefined;
        return self !== undefined && c2 !== undefined && isClassOf(self.className, c2);
      }
      case 'object-is-type': {
        const o = this.#payload(args[0]);
        return o instanceof WorldObject && isClassOf(o.className, args[1] as string);
      }
      case 'object-members':
        return this.#fn('WBObjectPair iterator', () => undefined);
      case 'list-new':
      case 'delegate':
        return this.#defaultOf(spec.returns, '', this.#currentThread?.instance);
      case 'list-insert':
        listOf(self).push(args[0]);
        return undefined;
      case 'list-size':
        return listOf(self).length;
      case 'list-at': {
        const i = args[0] as number;
        return listOf(self)[Math.trunc(i)];
      }
      case 'random-int': {
        const lo = Math.ceil(args[0] as number);
        const hi = Math.floor(args[1] as number);
        if (hi < lo) return lo;
        return lo + (this.#random() % (hi - lo + 1));
      }
      case 'console':
        entry.message = args.filter((a) => typeof a === 'string').join(' ');
        return undefined;
      case 'timer-start': {
        if (this.timers === 'auto' && self) {
          const ms = Math.max(0, Math.round((args[0] as number) * 1000));
          this.#queue.removeWhere((t) => t.kind === 'timer' && t.object === self);
          this.#queue.add(this.#worldMs + ms, { kind: 'timer', object: self });
        }
        return undefined;
      }
      case 'remote-script': {
        // the script bus's Notify: every listener, synchronously, on the calling (main) thread
        const call: RemoteScriptCall = { args: args.map((a) => this.#traceValue(a)), stackTop: this.stack.topName, depth: this.stack.depth, ...this.#threadField() };
        const listeners = [...this.#remoteListeners];
        entry.message = `notified ${listeners.length} script bus listener(s) on the main thread`;
        for (const l of listeners) l(call);
        return undefined;
      }
      case 'npc-bundle-override':
      case 'npc-bundle-default':
        this.#npcBundleList(spec, args, entry);
        return undefined;
      default:
        break;
    }
    if (spec.sets && self) {
      self.state.set(spec.sets, args[0]);
      return undefined;
    }
    if (spec.gets && self) {
      const v = self.state.get(spec.gets) as LuaValue;
      return v !== undefined ? v : this.#defaultOf(spec.returns, `${self.label}.${spec.gets}`, self.instance);
    }
    return this.#defaultOf(spec.returns, `${spec.name}()`, self?.instance ?? this.#currentThread?.instance);
  }

  /** A deterministic 31-bit generator (xorshift32) for Math:GetRandomInt. */
  #random(): number {
    let x = this.#rng;
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    this.#rng = x >>> 0;
    return this.#rng & 0x7fffffff;
  }

  #createScriptObject(c: HostCall, inst: PrefabInstance | undefined, name: string): HostResult {
    if (!inst) return this.#fault(c, 'ScriptObject.Create', 'argument 1 is not a scriptId the engine handed out');
    const cached = inst.scriptObjects.get(name);
    if (cached !== undefined) return cached as LuaValue;
    const prefix = `_${inst.prefab}_${name.replaceAll('.', '')}_Script_`;
    const entry = this.#sectionEntries.find((e) => e.startsWith(prefix) && /^[0-9a-fA-F]+$/.test(e.slice(prefix.length)));
    const section = this.#section;
    const meta = entry !== undefined && section instanceof LuaTable ? section.getStr(entry) : undefined;
    if (entry === undefined || meta === undefined) {
      this.trace.add('fault', 'ScriptObject.Create', { message: `no entry ${prefix}<hash> in the layer's table for script object ${JSON.stringify(name)} of ${inst.prefab}`, hypothesis: ENGINE_HYPOTHESES.oneInstance.id, ...this.#threadField() });
      return undefined;
    }
    const ctor = this.#nested(c, `${entry}.__constructor`, () => this.#call(this.#helpers.get, [meta, '__constructor']));
    if (!(ctor instanceof LuaClosure || ctor instanceof HostFunction)) return this.#fault(c, 'ScriptObject.Create', `${entry} has no __constructor`);
    const value = this.#nested(c, `${entry}.__constructor`, () => this.vm.call(ctor, [meta, inst.scriptId as LuaValue])[0]);
    const lookupId = LightUserdata.of(BigInt(this.#nextScriptObject++));
    this.#nested(c, `${entry}.lookupId`, () => this.vm.call(this.#helpers.set, [value, 'lookupId', lookupId]));
    this.#scriptObjects.set(lookupId, { instance: inst, name, entry, meta, value });
    inst.scriptObjects.set(name, value);
    return value;
  }

  #eventRegistration(c: HostCall, spec: NativeSpec, args: LuaValue[]): HostResult {
    const sender = this.#payload(args[0]) as WorldObject;
    const ev = this.#payload(args[1]);
    const reg = args[2] as LuaTable | LuaStruct;
    const get = (i: number) => (reg instanceof LuaTable ? reg.getInt(i) : undefined);
    const scriptId = get(1);
    const lookupId = get(2);
    const hash = get(3);
    if (!(ev instanceof EventHandle)) return this.#fault(c, spec.name, `argument 2: expected an event, got ${describeLua(args[1])}`);
    if (!(scriptId instanceof LuaTable) || !this.#scriptIds.has(scriptId)) return this.#fault(c, spec.name, 'argument 3: its first value is not a scriptId');
    if (!(lookupId instanceof LightUserdata)) return this.#fault(c, spec.name, `argument 3: its second value (lookupId) is ${describeLua(lookupId)}, not the script object's lookupId`);
    if (!(hash instanceof LightUserdata)) return this.#fault(c, spec.name, `argument 3: its third value (the event hash) is ${describeLua(hash)}, not a 0x…hi hash`);
    const hashText = HEX(hash.value);
    const details = { sender: sender.label, event: ev.event, hash: hashText, ...(ev.object !== sender ? { message: `the event belongs to ${ev.object.label}` } : {}), ...this.#threadField() };
    if (spec.behaviour === 'event-add') {
      this.events.add({ sender, event: ev.event, scriptId, lookupId, hash, hashText });
      this.trace.add('event-add', 'WBEventSystem:Add', details);
    } else {
      const n = this.events.remove(sender, ev.event, lookupId, hash);
      this.trace.add('event-remove', 'WBEventSystem:Remove', { ...details, result: n });
    }
    return undefined;
  }

  #sleep(c: HostCall, threadId: number, seconds: number): HostResult {
    const thread = this.#threadsByCo.get(c.thread);
    if (!thread) return this.#fault(c, 'LithThreadSleep', 'called outside a script thread (an event handler or the chunk cannot sleep)');
    if (thread.id !== threadId) return this.#fault(c, 'LithThreadSleep', `threadId ${threadId} is not the calling thread (#${thread.id})`);
    const ms = Math.max(0, Math.round(seconds * 1000));
    thread.wakeAt = this.#worldMs + ms;
    this.trace.add('sleep', thread.entry, { thread: thread.id, seconds, wakeAt: thread.wakeAt, hypothesis: ENGINE_HYPOTHESES.sleepWake.id });
    this.#queue.add(thread.wakeAt, { kind: 'wake', thread });
    return c.yield();
  }
}

function listOf(o: WorldObject | undefined): LuaValue[] {
  if (!o) return [];
  let items = o.state.get('items') as LuaValue[] | undefined;
  if (!items) {
    items = [];
    o.state.set('items', items);
  }
  return items;
}

/** The top-level `local section_… = { … }` table's field names, in source order. */
function sectionEntryOrder(ast: Chunk): string[] {
  for (const s of ast.body.body) {
    if (s.type === 'LocalStatement' && s.names.length === 1 && /^section_/.test(s.names[0]!.name) && s.values[0]?.type === 'TableConstructor') {
      return s.values[0].fields.flatMap((f) => (f.type === 'TableNamedField' ? [f.name.name] : []));
    }
  }
  return [];
}

function describeLua(v: unknown): string {
  if (v === undefined) return 'nil';
  if (typeof v === 'string') return 'a string';
  if (typeof v === 'number') return 'a number';
  if (typeof v === 'boolean') return 'a boolean';
  if (v instanceof LuaTable) return 'a table';
  if (v instanceof LuaStruct) return 'a structure';
  if (v instanceof LuaClosure || v instanceof HostFunction) return 'a function';
  if (v instanceof LightUserdata) return 'a light userdata';
  if (v instanceof LuaUserdata) return 'a userdata';
  return 'a value';
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function fieldTraceValue(v: FieldValue | undefined): unknown {
  if (v === undefined || v === null) return null;
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'object' && 'path' in v) return (v as DbRecord).path;
  if (typeof v === 'object' && 'text' in v) return v.text;
  return v as unknown;
}
