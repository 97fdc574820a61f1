/**
 * The natives the shipped scripts call, as data (seed 002, "Records and natives from script").
 *
 * The seed's facts: natives do not validate their arguments and an engine assert writes to a null address, so a
 * native called with an argument shape the shipped scripts never use can fault; each record argument is fetched
 * from the live category of the expected kind (27 of 27 natives checked); some natives need the running-script
 * stack (NPC::SetAlignment asserts "This function should only be called from script code" when its name is empty;
 * CPlayerObj::SetAISpectatorInvisible, SetRetreatingEnabled …); calls either set engine state / queue work
 * (AISpawnManager:SummonGrunts only queues a spawn request) or dispatch to script listeners
 * (System:ActivateRemoteScript = the script bus's Notify, main thread only).
 *
 * The seed does not list the 27 natives or their stubs' argument types, so every argument shape below that is not
 * from the seed comes from how the shipped source calls the native (`source: 'shipped-source'`): it is what a
 * script known to work passes, which is exactly the envelope outside of which the game may fault.
 *
 * Naming: `Owner.Name` is called with a dot on a global table, `Owner:Name` with a colon on a global table, and
 * `Class::Name` is a method of a world object handle (found on the class, else on GameBase), as the seed names
 * them. Plain `Name` is a global function.
 */

/**
 * The shape of an argument or a return value. `?` suffix = optional (nil allowed). `object:<Class>` = a world
 * object handle of that class (or a class derived from it); `record:<Kind>` = a GameDB record of that DB kind.
 */
export type ValueShape =
  | 'any'
  | 'nil'
  | 'boolean'
  | 'number'
  | 'string'
  | 'table'
  | 'function'
  | 'scriptId'
  | 'scriptObject'
  | 'object'
  | `object:${string}`
  | 'record'
  | `record:${string}`
  | 'event'
  | 'class'
  | 'registration'
  | 'list'
  | 'iterator'
  | 'delegate';

export type ArgShape = ValueShape | `${ValueShape}?` | '...';

/** What a call does to the engine (seed 002's two groups, plus reads and logging). */
export type NativeEffect = 'query' | 'state' | 'queue' | 'dispatch' | 'log' | 'create';

/** The few natives whose behaviour the headless engine implements; each id has one implementation. */
export type NativeBehaviour =
  | 'script-object-create'
  | 'object-create'
  | 'object-cast'
  | 'event-add'
  | 'event-remove'
  | 'thread-sleep'
  | 'prop'
  | 'object-name'
  | 'object-typeof'
  | 'object-is-type'
  | 'object-members'
  | 'list-new'
  | 'list-insert'
  | 'list-size'
  | 'list-at'
  | 'delegate'
  | 'random-int'
  | 'console'
  | 'timer-start'
  | 'remote-script'
  | 'npc-bundle-override'
  | 'npc-bundle-default';

export interface NativeSpec {
  /** `Owner.Name`, `Owner:Name`, `Class::Name` or `Name` (see the module comment). */
  readonly name: string;
  readonly args: readonly ArgShape[];
  readonly returns: ValueShape;
  /** Reads the running-script stack's top name and asserts when it is empty (seed 002). */
  readonly context?: 'asserts' | 'logs';
  readonly effect: NativeEffect;
  readonly behaviour?: NativeBehaviour;
  /** An object state the call writes or reads (`Script_SetState` / `GetStateRecord` share `state`). */
  readonly sets?: string;
  readonly gets?: string;
  /** The assert text, for `context: 'asserts'`. */
  readonly assertMessage?: string;
  readonly source: 'seed' | 'shipped-source';
  readonly note?: string;
}

/** A world object class the scripts use: its parent and the events scripts register on it. */
export interface WorldClassSpec {
  readonly name: string;
  /** `undefined` for GameBase itself. */
  readonly parent?: string;
  /** `Class.Create(scriptId, name, fromProperty, required)` exists. */
  readonly creatable: boolean;
  /** `Class:Cast(object)` exists. */
  readonly castable: boolean;
  /** `Class.None` (the null handle) is used. */
  readonly none: boolean;
  /**
   * Event properties (`obj.OnSpawn`) the shipped source registers on, with the fields its handlers read from the
   * event's argument table besides `Sender` (always the sending object) and their shapes (inferred from how the
   * handlers use them: `args.ai` is registered on for OnDispatched, an NPC event).
   */
  readonly events: Readonly<Record<string, Readonly<Record<string, ValueShape>>>>;
}

/**
 * World object classes seen in the shipped source. Every class derives from GameBase (`gb:__typeof(GameBase)` on
 * group members, GameBase.None): the deeper hierarchy is not known (H-NATIVE-CLASSES).
 */
export const WORLD_CLASSES: readonly WorldClassSpec[] = [
  { name: 'GameBase', creatable: false, castable: false, none: true, events: {} },
  { name: 'DynamicObjectGroup', parent: 'GameBase', creatable: true, castable: false, none: false, events: { OnStateChange: { NewState: 'record:DBDOGStateType' } } },
  { name: 'CombatProp', parent: 'GameBase', creatable: true, castable: false, none: false, events: {} },
  { name: 'InventoryItemUI', parent: 'GameBase', creatable: true, castable: false, none: false, events: { OnCollect: {} } },
  { name: 'ScriptTimer', parent: 'GameBase', creatable: true, castable: false, none: false, events: { OnComplete: {} } },
  { name: 'AINodeAttract', parent: 'GameBase', creatable: true, castable: false, none: false, events: {} },
  { name: 'AINodeAnimate', parent: 'GameBase', creatable: true, castable: false, none: false, events: { OnApproaching: { Approacher: 'object:NPC' }, OnApproachInterrupted: { Approacher: 'object:NPC' }, OnArrival: { Activator: 'object:NPC' }, OnDeparture: { Departer: 'object:NPC' } } },
  { name: 'AISpawnerAmbientBase', parent: 'GameBase', creatable: true, castable: false, none: false, events: { OnSpawn: { ai: 'object:NPC' } } },
  { name: 'AINavMeshObstacle', parent: 'GameBase', creatable: true, castable: false, none: false, events: {} },
  { name: 'AINodeSet', parent: 'GameBase', creatable: true, castable: false, none: false, events: {} },
  { name: 'AINodeBattle', parent: 'GameBase', creatable: false, castable: true, none: false, events: {} },
  { name: 'Group', parent: 'GameBase', creatable: true, castable: false, none: false, events: {} },
  { name: 'QuestRelay', parent: 'GameBase', creatable: true, castable: false, none: false, events: {} },
  { name: 'ScriptRelay', parent: 'GameBase', creatable: false, castable: true, none: false, events: {} },
  { name: 'MapCanvas', parent: 'GameBase', creatable: false, castable: true, none: false, events: {} },
  { name: 'NPC', parent: 'GameBase', creatable: false, castable: true, none: true, events: { OnDispatched: {} } },
  { name: 'CPlayerObj', parent: 'GameBase', creatable: false, castable: false, none: false, events: {} },
];

const SCRIPT_CONTEXT_ASSERT = 'This function should only be called from script code';

/** Natives with their own rows (the per-class Create / Cast rows are derived from `WORLD_CLASSES` below). */
const NATIVE_ROWS: readonly NativeSpec[] = [
  // Threads, script objects, properties, events.
  { name: 'LithThreadSleep', args: ['number', 'number'], returns: 'nil', effect: 'queue', behaviour: 'thread-sleep', source: 'seed', note: 'LithThreadSleep(threadId, seconds): the thread waits on the world clock' },
  { name: 'ScriptObject.Create', args: ['scriptId', 'string'], returns: 'scriptObject', effect: 'create', behaviour: 'script-object-create', source: 'shipped-source' },
  { name: 'WBScriptPropString', args: ['scriptId', 'string', 'string'], returns: 'string', effect: 'query', behaviour: 'prop', source: 'shipped-source' },
  { name: 'WBScriptPropBool', args: ['scriptId', 'string', 'boolean'], returns: 'boolean', effect: 'query', behaviour: 'prop', source: 'shipped-source' },
  { name: 'WBScriptPropInt', args: ['scriptId', 'string', 'number'], returns: 'number', effect: 'query', behaviour: 'prop', source: 'shipped-source' },
  { name: 'WBEventSystem:Add', args: ['object', 'event', 'registration'], returns: 'nil', effect: 'state', behaviour: 'event-add', source: 'seed', note: 'WBEventSystem:Add(sender, event, {scriptId, lookupId, hash})' },
  { name: 'WBEventSystem:Remove', args: ['object', 'event', 'registration'], returns: 'nil', effect: 'state', behaviour: 'event-remove', source: 'shipped-source' },
  { name: 'WBObjectPair', args: ['object'], returns: 'iterator', effect: 'query', behaviour: 'object-members', source: 'shipped-source', note: 'for _, gb in WBObjectPair(group): a headless group has no members' },
  { name: 'WBDelegate', args: ['any?', 'any?'], returns: 'delegate', effect: 'create', behaviour: 'delegate', source: 'shipped-source' },
  { name: 'WBLinkedList:New', args: [], returns: 'list', effect: 'create', behaviour: 'list-new', source: 'shipped-source' },
  { name: 'WBLinkedList::Insert', args: ['any'], returns: 'nil', effect: 'state', behaviour: 'list-insert', source: 'shipped-source' },
  { name: 'WBLinkedList::Size', args: [], returns: 'number', effect: 'query', behaviour: 'list-size', source: 'shipped-source' },
  { name: 'WBLinkedList::At', args: ['number'], returns: 'any', effect: 'query', behaviour: 'list-at', source: 'shipped-source' },
  // Engine services.
  { name: 'Engine:IsObjectOfType', args: ['object', 'string'], returns: 'boolean', effect: 'query', behaviour: 'object-is-type', source: 'shipped-source' },
  { name: 'Math:GetRandomInt', args: ['number', 'number'], returns: 'number', effect: 'query', behaviour: 'random-int', source: 'shipped-source', note: 'headless: a seeded generator, so runs repeat' },
  { name: 'GameConsole:ChannelDebug', args: ['record:DBOutputChannel', 'string'], returns: 'nil', effect: 'log', behaviour: 'console', source: 'shipped-source' },
  { name: 'GameConsole:ChannelWarning', args: ['record:DBOutputChannel', 'string'], returns: 'nil', effect: 'log', behaviour: 'console', source: 'shipped-source' },
  { name: 'GameConsole:ChannelError', args: ['record:DBOutputChannel', 'string'], returns: 'nil', effect: 'log', behaviour: 'console', source: 'shipped-source' },
  { name: 'GameConsole:PrintToScreen', args: ['string'], returns: 'nil', effect: 'log', behaviour: 'console', source: 'shipped-source' },
  { name: 'GameConsole:PrintMessage', args: ['string'], returns: 'nil', effect: 'log', behaviour: 'console', source: 'shipped-source' },
  { name: 'System:ShowDebugMenu', args: ['boolean'], returns: 'nil', effect: 'state', source: 'shipped-source' },
  { name: 'System:ActivateRemoteScript', args: ['...'], returns: 'nil', effect: 'dispatch', behaviour: 'remote-script', source: 'seed', note: "the script bus's Notify 0x605990: calls the global script agent per listener, main thread only" },
  { name: 'System:LoadOverrideNPCBundleList', args: ['...'], returns: 'nil', effect: 'queue', behaviour: 'npc-bundle-override', source: 'seed', note: "seed 001: (list, slot); argument types not given; sets CharacterBundleMgr's override (its next update reconciles)" },
  { name: 'System:LoadDefaultNPCBundleList', args: ['...'], returns: 'nil', effect: 'queue', behaviour: 'npc-bundle-default', source: 'seed', note: "seed 001: (list); sets CharacterBundleMgr's default list" },
  { name: 'AISpawnManager:SummonGrunts', args: ['...'], returns: 'nil', effect: 'queue', source: 'seed', note: 'only queues a spawn request; argument types not given' },
  { name: 'Faction.HasFortUpgradeEquipped', args: ['record:DBFortUpgradeDefinition'], returns: 'boolean', effect: 'query', source: 'shipped-source', note: 'in a comment of the shipped source' },
  // Methods of every world object.
  { name: 'GameBase::SetHidden', args: ['boolean'], returns: 'nil', effect: 'state', sets: 'hidden', source: 'shipped-source' },
  { name: 'GameBase::GetName', args: [], returns: 'string', effect: 'query', behaviour: 'object-name', source: 'shipped-source' },
  { name: 'GameBase::__typeof', args: ['class'], returns: 'boolean', effect: 'query', behaviour: 'object-typeof', source: 'shipped-source' },
  { name: 'GameBase::SetEnabled', args: ['boolean'], returns: 'nil', effect: 'state', sets: 'enabled', source: 'shipped-source' },
  { name: 'GameBase::GetEnabled', args: [], returns: 'boolean', effect: 'query', gets: 'enabled', source: 'shipped-source' },
  { name: 'GameBase::HasScriptTag', args: ['string'], returns: 'boolean', effect: 'query', source: 'shipped-source' },
  { name: 'GameBase::SetRetreatingEnabled', args: ['boolean'], returns: 'nil', effect: 'state', context: 'asserts', assertMessage: SCRIPT_CONTEXT_ASSERT, source: 'seed', note: 'SetRetreatingEnabled 0x1BAE1F8 reads the running-script name; the seed names the native, not its class or arguments; asserts as NPC::SetAlignment does (H-CONTEXT-ASSERT)' },
  // Class methods.
  { name: 'DynamicObjectGroup::Script_SetState', args: ['record:DBDOGStateType'], returns: 'nil', effect: 'state', sets: 'state', source: 'shipped-source' },
  { name: 'DynamicObjectGroup::GetStateRecord', args: [], returns: 'record:DBDOGStateType', effect: 'query', gets: 'state', source: 'shipped-source' },
  { name: 'InventoryItemUI::Respawn', args: [], returns: 'nil', effect: 'queue', source: 'shipped-source' },
  { name: 'ScriptTimer::Start', args: ['number', 'number', 'boolean', 'boolean'], returns: 'nil', effect: 'queue', behaviour: 'timer-start', source: 'shipped-source', note: 'Start(seconds, interval, …): OnComplete after the seconds of world time (H-TIMER-COMPLETE)' },
  { name: 'Group::GetGroup', args: [], returns: 'object:Group', effect: 'query', source: 'shipped-source' },
  { name: 'AINodeBattle::SetCaptureNumber', args: ['number'], returns: 'nil', effect: 'state', source: 'shipped-source' },
  { name: 'ScriptRelay::Trigger', args: ['object'], returns: 'nil', effect: 'dispatch', source: 'shipped-source' },
  { name: 'MapCanvas::SetCanvasSettingsOverride', args: ['record:DBMapCanvasSettings'], returns: 'nil', effect: 'state', source: 'shipped-source' },
  { name: 'NPC::SetAlignment', args: ['record:DBAlignments'], returns: 'nil', effect: 'state', context: 'asserts', assertMessage: SCRIPT_CONTEXT_ASSERT, source: 'seed', note: 'NPC::SetAlignment 0x7D2ED4; the argument kind is inferred from the DBAlignments records' },
  { name: 'NPC::AddInventoryItem', args: ['record:DBInventoryItem', 'number'], returns: 'nil', effect: 'state', source: 'shipped-source' },
  { name: 'NPC::RemoveInventoryItem', args: ['record:DBInventoryItem'], returns: 'nil', effect: 'state', source: 'shipped-source' },
  { name: 'NPC::AddNodeTag', args: ['record:DBNodeTag'], returns: 'nil', effect: 'state', source: 'shipped-source' },
  { name: 'NPC::RemoveNodeTag', args: ['record:DBNodeTag'], returns: 'nil', effect: 'state', source: 'shipped-source' },
  { name: 'NPC::GotoNode', args: ['object', 'string', 'boolean'], returns: 'nil', effect: 'queue', source: 'shipped-source' },
  { name: 'NPC::AnimateSmartObjectPickerWithTarget', args: ['record:DBSmartObjectPicker', 'object'], returns: 'nil', effect: 'queue', source: 'shipped-source', note: 'in a comment of the shipped source' },
  { name: 'CPlayerObj::SetAISpectatorInvisible', args: ['boolean'], returns: 'nil', effect: 'state', context: 'asserts', assertMessage: SCRIPT_CONTEXT_ASSERT, source: 'seed', note: 'reads the running-script name; argument shape not given; asserts as NPC::SetAlignment does (H-CONTEXT-ASSERT)' },
  { name: 'CPlayerObj::SetHidden', args: ['boolean'], returns: 'nil', effect: 'state', sets: 'hidden', context: 'logs', source: 'seed', note: "the player's SetHidden (vf32) reads the running-script name for logging only" },
];

/** The whole table: the rows above plus `Class.Create` / `Class:Cast` for the classes that have them. */
export const NATIVES: readonly NativeSpec[] = [
  ...NATIVE_ROWS,
  ...WORLD_CLASSES.flatMap((c): NativeSpec[] => [
    ...(c.creatable
      ? [{ name: `${c.name}.Create`, args: ['scriptId', 'string', 'boolean', 'boolean'], returns: `object:${c.name}`, effect: 'create', behaviour: 'object-create', source: 'shipped-source', note: 'Create(scriptId, name, name is a property value, required)' } satisfies NativeSpec]
      : []),
    ...(c.castable
      ? [{ name: `${c.name}:Cast`, args: ['object?'], returns: `object:${c.name}`, effect: 'query', behaviour: 'object-cast', source: 'shipped-source', note: 'a cast of nil (an empty list\'s At) gives None: taken to be a null-safe type test (H-CAST)' } satisfies NativeSpec]
      : []),
  ]),
];

const NATIVES_BY_NAME = new Map(NATIVES.map((n) => [n.name, n]));
const CLASSES_BY_NAME = new Map(WORLD_CLASSES.map((c) => [c.name, c]));

/** The table row named exactly `name`. */
export function nativeSpec(name: string): NativeSpec | undefined {
  return NATIVES_BY_NAME.get(name);
}

export function worldClass(name: string): WorldClassSpec | undefined {
  return CLASSES_BY_NAME.get(name);
}

/** The globals that own natives (`ScriptObject`, `WBEventSystem`, …), with their call style. */
export function nativeGlobals(): Map<string, NativeSpec[]> {
  const out = new Map<string, NativeSpec[]>();
  for (const n of NATIVES) {
    const m = /^([A-Za-z_][A-Za-z0-9_]*)[.:](?!:)/.exec(n.name);
    const owner = m ? m[1]! : n.name.includes('::') ? undefined : n.name;
    if (owner === undefined) continue;
    const list = out.get(owner) ?? [];
    list.push(n);
    out.set(owner, list);
  }
  return out;
}

/** The class chain of a class, itself first (GameBase last). */
export function classChain(name: string): string[] {
  const chain: string[] = [];
  let c = CLASSES_BY_NAME.get(name);
  if (!c) return [name, 'GameBase'];
  while (c && chain.length < 16) {
    chain.push(c.name);
    c = c.parent ? CLASSES_BY_NAME.get(c.parent) : undefined;
  }
  return chain;
}

/** A method of a world object: the row on its class or an ancestor. */
export function objectMethod(className: string, method: string): NativeSpec | undefined {
  for (const c of classChain(className)) {
    const n = NATIVES_BY_NAME.get(`${c}::${method}`);
    if (n) return n;
  }
  return undefined;
}

/** True when `className` is `ancestor` or derives from it. */
export function isClassOf(className: string, ancestor: string): boolean {
  return classChain(className).includes(ancestor);
}

/** What a value is, as far as shape checks care (the binding layer classifies VM values into this). */
export type ValueInfo =
  | { type: 'nil' | 'boolean' | 'number' | 'string' | 'table' | 'function' | 'luserdata' | 'thread' | 'struct' | 'other' }
  | { type: 'scriptId' }
  | { type: 'scriptObject' }
  | { type: 'object'; className: string; label: string }
  | { type: 'record'; kind: string; label: string; isNull: boolean }
  | { type: 'event' }
  | { type: 'class'; className: string }
  | { type: 'list' | 'iterator' | 'delegate' }
  | { type: 'standin'; label: string };

function describeInfo(v: ValueInfo): string {
  switch (v.type) {
    case 'object':
      return `${article(v.className)} object (${v.label})`;
    case 'record':
      return `${article(v.kind)} record (${v.label})`;
    case 'class':
      return `the class ${v.className}`;
    case 'standin':
      return `the stand-in ${v.label}`;
    default:
      return v.type === 'nil' ? 'nil' : article(v.type);
  }
}

/**
 * Why `value` does not fit `shape`, or `undefined` when it does. Stand-ins for unknown natives fit anything (they
 * are reported as unknown already). A table fits `registration` and `scriptId` only structurally, which the
 * binding checks; here any table does.
 */
export function shapeMismatch(shape: ArgShape, value: ValueInfo): string | undefined {
  if (shape === '...' || shape === 'any') return undefined;
  const optional = shape.endsWith('?');
  const base = (optional ? shape.slice(0, -1) : shape) as ValueShape;
  if (value.type === 'standin') return undefined;
  if (value.type === 'nil') return optional || base === 'nil' || base === 'any' ? undefined : `expected ${describeShape(base)}, got nil`;
  const fits = ((): boolean => {
    switch (base) {
      case 'any':
        return true;
      case 'scriptId':
      case 'registration':
        return value.type === 'table' || value.type === 'scriptId';
      case 'scriptObject':
        return value.type === 'scriptObject' || value.type === 'struct' || value.type === 'table';
      case 'object':
        return value.type === 'object';
      case 'record':
        return value.type === 'record';
      case 'list':
      case 'iterator':
      case 'delegate':
      case 'event':
      case 'boolean':
      case 'number':
      case 'string':
      case 'function':
      case 'nil':
        return value.type === base;
      case 'table':
        return value.type === 'table' || value.type === 'struct';
      case 'class':
        return value.type === 'class';
      default:
        if (base.startsWith('object:')) return value.type === 'object' && isClassOf(value.className, base.slice(7));
        if (base.startsWith('record:')) return value.type === 'record' && value.kind === base.slice(7);
        return false;
    }
  })();
  return fits ? undefined : `expected ${describeShape(base)}, got ${describeInfo(value)}`;
}

/** `a` or `an` before a word, as it is read aloud (acronyms such as NPC by their first letter's name). */
function article(word: string): string {
  const acronym = /^[A-Z]{2}/.test(word);
  return (acronym ? /^[AEFHILMNORSX]/.test(word) : /^[aeiou]/i.test(word)) ? `an ${word}` : `a ${word}`;
}

/** A shape in words. */
export function describeShape(shape: ValueShape): string {
  if (shape.startsWith('object:')) return `${article(shape.slice(7))} object`;
  if (shape.startsWith('record:')) return `${article(shape.slice(7))} record`;
  switch (shape) {
    case 'scriptId':
      return 'the scriptId table';
    case 'registration':
      return 'a {scriptId, lookupId, hash} table';
    case 'object':
      return 'a world object';
    case 'record':
      return 'a GameDB record';
    case 'event':
      return 'an event (object.OnSomething)';
    case 'class':
      return 'a class table';
    default:
      return article(shape);
  }
}

/** The DB kinds the natives table expects in record arguments, for `script needs`. */
export function recordKindsOfNatives(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const n of NATIVES) {
    for (const a of [...n.args, n.returns]) {
      const m = /^record:([A-Za-z0-9_]+)\??$/.exec(a);
      if (!m) continue;
      const list = out.get(m[1]!) ?? [];
      if (!list.includes(n.name)) list.push(n.name);
      out.set(m[1]!, list);
    }
  }
  return out;
}

/** The argument fields an event's handlers read (besides `Sender`), from the sender's class chain. */
export function eventArgumentShapes(className: string, event: string): Readonly<Record<string, ValueShape>> | undefined {
  for (const c of classChain(className)) {
    const e = CLASSES_BY_NAME.get(c)?.events[event];
    if (e) return e;
  }
  return undefined;
}
