/**
 * What the headless engine assumes beyond what the seeds measured, in one place. Every rule the engine applies that
 * the seeds (`002` scripting, `004` engine core) do not state is one of these, referred to by id where it is used,
 * so a trace or a report can say which guess a result rests on.
 */
export interface EngineHypothesis {
  readonly id: string;
  readonly statement: string;
  /** `verified`: measured in the seed; `inferred`: follows from the seed or the shipped source; `open`: a guess. */
  readonly status: 'verified' | 'inferred' | 'open';
}

export const ENGINE_HYPOTHESES = {
  clockUnnamed: {
    id: 'H-CLOCK-UNNAMED',
    statement:
      'The three unnamed clocks (slots 0x2702560, 0x2702568, 0x2702580) were not measured: they are taken to stop while paused ("every clock but the real-time one stops"), to clamp to 1-100 ms like the six clamped clocks, and not to be slow-motion channels.',
    status: 'open',
  },
  clockUnboundedMin: {
    id: 'H-CLOCK-MIN-UNBOUNDED',
    statement:
      'The seed gives the unscaled and real-time clocks no upper bound (+0x3C = 0xFFFFFFFF) but does not give their lower bound (+0x38): taken as 0 ms (the real-time clock read steps of 3-4 ms, which either value allows).',
    status: 'open',
  },
  clockStepRounding: {
    id: 'H-CLOCK-STEP-ROUNDING',
    statement:
      'The u32 step is the effective rate (numerator / denominator x scale, kept as f32 at +0x34) times the real elapsed milliseconds, rounded down, plus the pending extra; the f32 seconds are the u32 step / 1000 and the f64 time adds the same. The seed states the rule, not its rounding.',
    status: 'open',
  },
  clockUpdateOrder: {
    id: 'H-CLOCK-ORDER',
    statement: 'The clocks are updated once per frame in slot order (0x2702548 first, the world clock last); the seed does not give the order.',
    status: 'open',
  },
  slowMotionScale: {
    id: 'H-SLOWMO-SCALE',
    statement:
      'Slow motion writes the scale (+0x30) of the channel clocks it names (by default all five: world, player, combat companion, world UI, presentations); the rate numerator / denominator are left alone.',
    status: 'inferred',
  },
  dbKindRule: {
    id: 'H-DBKIND-RULE',
    statement:
      'A DB<Kind> global the seed does not place reads the category whose record type name (+0x04) without dots is Kind, else whose name without "/" is Kind, else whose last path segment is Kind, else the same with a plural "s" (case-insensitive); for a kind the seed gives a record count for (DBSlowMo 332, DBAlignments 52), the one category whose name contains Kind and holds that many records.',
    status: 'open',
  },
  stackLimit: {
    id: 'H-STACK-LIMIT',
    statement:
      'The running-script stack holds 16 pushed entries above the static depth-0 entry; a 17th push is reported as a fault (the engine would write past its array) and not made. The seed gives "at most 16" without saying whether the static entry is one of them.',
    status: 'open',
  },
  nativeClasses: {
    id: 'H-NATIVE-CLASSES',
    statement:
      'Every world object class the scripts use derives directly from GameBase and has its methods (SetHidden, GetName, __typeof …); argument shapes not named by the seed are those the shipped source passes.',
    status: 'inferred',
  },
  oneInstance: {
    id: 'H-ONE-INSTANCE',
    statement:
      "Which object runs which script is world data (the layer's ScriptBind block), which a layer's script does not carry: headless, every prefab whose StartupCommands entry (_<prefab>_SC_Script_<hash>) starts gets one instance (one scriptId), and ScriptObject.Create(scriptId, NAME) builds the entry _<prefab>_<NAME without dots>_Script_<hash> of the layer's table, once per instance.",
    status: 'inferred',
  },
  threadArgs: {
    id: 'H-THREAD-ARGS',
    statement:
      "A StartupCommands thread is called as entry(self, threadId, scriptId) with self = the layer's section table (the shipped entries never read it), threadId = a number naming the thread for LithThreadSleep, scriptId = a table whose Instance field is the prefab instance.",
    status: 'open',
  },
  stackThreads: {
    id: 'H-STACK-THREADS',
    statement:
      "Only the engine pushes the running-script stack (the __eventmap dispatcher, the resource loaders): the layer's chunk runs with the loader's entry (named after the layer) pushed, while script threads (StartupCommands entries, on start and after a sleep) run at depth 0, so a context-asserting native called from a thread asserts. The seed lists the pushers, not whether the thread scheduler is one of them.",
    status: 'open',
  },
  stackName: {
    id: 'H-STACK-NAME',
    statement: 'A dispatch pushes the __eventmap entry\'s name field (the handler\'s name, e.g. "Collected"); "Invalid" when it is not a non-empty string.',
    status: 'open',
  },
  sleepWake: {
    id: 'H-SLEEP-WAKE',
    statement:
      'LithThreadSleep(threadId, s) resumes the thread on the first frame after the world time has advanced by s seconds (rounded to ms) since the call; a sleep of 0 resumes on the next frame. Work that becomes due while due work runs waits for the next frame.',
    status: 'inferred',
  },
  timerComplete: {
    id: 'H-TIMER-COMPLETE',
    statement:
      "ScriptTimer:Start(seconds, …) fires the timer's OnComplete once, after `seconds` of world time; starting a running timer restarts it. The other three arguments (an interval, two flags) are recorded, not interpreted.",
    status: 'open',
  },
  propDefaults: {
    id: 'H-PROP-DEFAULTS',
    statement: 'WBScriptProp* return the value the world data gives the property; headless, the value the run supplies (--prop NAME=VALUE), else the default the script passes.',
    status: 'inferred',
  },
  unresolvedRecord: {
    id: 'H-DB-UNRESOLVED',
    statement: "A DB<Kind>.Name whose record is not in the database gives a null record of the kind (as DB<Kind>.None), which natives receive; the game's exact result (nil or a null handle) is not known.",
    status: 'open',
  },
  castRefines: {
    id: 'H-CAST',
    statement:
      'Class:Cast(object) returns the object when its class is or derives from Class, the class\'s None otherwise; an object whose class the headless world does not know (an event argument) takes the class it is cast to.',
    status: 'inferred',
  },
  groupMembers: {
    id: 'H-GROUP-MEMBERS',
    statement: 'WBObjectPair(group) iterates the group\'s members, which are world data: headless, a group has none.',
    status: 'inferred',
  },
  listIndex: {
    id: 'H-LIST-AT',
    statement: 'WBLinkedList:At(i) is 0-based (the shipped source picks At(GetRandomInt(0, Size() - 1))).',
    status: 'inferred',
  },
  faultEnds: {
    id: 'H-FAULT-ENDS',
    statement:
      'A native called with an argument shape it does not expect, or a context-asserting native called at depth 0, would fault the game (natives do not validate; an assert writes to null): headless, the call raises an error that ends the calling thread or handler, and the run goes on.',
    status: 'inferred',
  },
  loadResets: {
    id: 'H-LOAD-RESETS',
    statement: "A load rebuilds the world's objects, so it ends every script thread and drops every event registration, timer and prefab instance; the compiled layers stay cached (the reinstall table lives for the process).",
    status: 'inferred',
  },
  contextAssert: {
    id: 'H-CONTEXT-ASSERT',
    statement:
      "SetRetreatingEnabled and CPlayerObj::SetAISpectatorInvisible fail at depth 0 the way NPC::SetAlignment does (its assert text): seed 002 says they read the running script's name and work only inside an engine-dispatched handler, not how they fail outside one.",
    status: 'inferred',
  },
  bundleEvents: {
    id: 'H-BUNDLE-EVENTS',
    statement:
      "CharacterBundleMgr's loaded / unloaded events go through the global script agent (seed 001); which script events or handlers they reach is not known, so headless they are traced and dispatched to no script. The bundle list natives take (list name or record, slot number), as seed 001 writes them.",
    status: 'open',
  },
} as const satisfies Record<string, EngineHypothesis>;

/** Every engine hypothesis, for listings (`scry script run --json` summary, docs). */
export function engineHypotheses(): EngineHypothesis[] {
  return Object.values(ENGINE_HYPOTHESES);
}
