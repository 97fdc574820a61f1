import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ScriptHost, type ScriptHostOptions } from '../../src/engine/host.ts';
import { LayerCache, openLayer } from '../../src/engine/layer.ts';
import { traceJson, type TraceEntry } from '../../src/engine/trace.ts';
import { fixturePath } from '../support/fixtures.ts';
import { buildScriptDb, fortAssaultCategories } from './support/script-db.ts';

const REAL = readFileSync(fixturePath('scripts', 'island_fortassault_fagameplay.closed.lua'));
const realLayer = () => openLayer(new Uint8Array(REAL), 'fagameplay');
const layerOf = (source: string, name = 'test') => openLayer(new TextEncoder().encode(source), name);
const host = (options: ScriptHostOptions = {}) => new ScriptHost({ cache: new LayerCache(), ...options });
const run = (h: ScriptHost, seconds: number, frameMs = 20) => {
  for (let t = 0; t < seconds * 1000; t += frameMs) h.frame(frameMs);
};
const of = (h: ScriptHost, kind: TraceEntry['kind']) => h.trace.entries.filter((e) => e.kind === kind);

/** A layer with StartupCommands entries whose bodies are given. */
function layerWith(entries: Record<string, string>, extra = ''): string {
  const fields = Object.entries(entries).map(([prefab, body]) => `_${prefab}_SC_Script_1 = function (self, threadId, scriptId)\n${body}\nend,`);
  return `${extra}\nlocal section_1 = {\n${fields.join('\n')}\n}\n_G.loadedresource = section_1\n`;
}

describe('the closed real source, headless', () => {
  it('loads, reads _G.loadedresource, and starts every StartupCommands entry as a thread', () => {
    const h = host();
    const r = h.load(realLayer());
    expect(r.ok).toBe(true);
    expect(r.entries).toHaveLength(13);
    expect(r.startupCommands).toEqual(['_ammo_large_timed_SC_Script_1b86e977']);
    expect(of(h, 'thread-start').map((e) => e.name)).toEqual(r.startupCommands);
    // SC -> ScriptObject.Create(scriptId, "SO") -> SO:Init(): the thread runs to its end
    expect(of(h, 'end').map((e) => e.name)).toEqual(['_ammo_large_timed_SC_Script_1b86e977']);
    expect(of(h, 'error')).toEqual([]);
    expect(of(h, 'load')[0]).toMatchObject({ name: 'fagameplay', message: 'compiled and cached' });
  });

  it('records every WBEventSystem:Add the script makes, with its sender, event and hash', () => {
    const h = host();
    h.load(realLayer());
    const adds = of(h, 'event-add');
    expect(adds.map((e) => [e.sender, e.event, e.hash])).toEqual([['InventoryItemUI', 'OnCollect', '0xCF58D231']]);
    expect(h.events.list()).toHaveLength(1);
    // every native call of WBEventSystem:Add has its registration
    expect(of(h, 'native').filter((e) => e.name === 'WBEventSystem:Add')).toHaveLength(adds.length);
  });

  it('firing a registered event dispatches to the right handler with the running-script stack set', () => {
    const h = host();
    h.load(realLayer());
    expect(h.stack.depth).toBe(0);
    expect(h.fire('InventoryItemUI', 'OnCollect')).toBe(1);
    const d = of(h, 'dispatch');
    expect(d).toHaveLength(1);
    expect(d[0]).toMatchObject({ name: 'Collected', handler: '_ammo_large_timed_SO_Script_3dc53bc3.Collected', hash: '0xCF58D231', stack: ['Collected'] });
    expect(h.stack.depth).toBe(0); // popped after
    // Collected registers the timer's OnComplete (0xBA18759A) and starts it; the timer fires OnTimeout
    expect(of(h, 'event-add').map((e) => e.hash)).toEqual(['0xCF58D231', '0xBA18759A']);
    run(h, 0.1);
    const handlers = of(h, 'dispatch').map((e) => e.handler);
    expect(handlers).toEqual(['_ammo_large_timed_SO_Script_3dc53bc3.Collected', '_ammo_large_timed_SO_Script_3dc53bc3.OnTimeout']);
    // OnTimeout -> Enable(): NeedRespawn is true, so the item respawns
    expect(of(h, 'native').map((e) => e.name)).toContain('InventoryItemUI::Respawn');
  });

  it('DBDOGStateType lookups resolve against a GameDB built with the editor, and are unresolved against one that lacks them', () => {
    const full = host({ db: buildScriptDb(fortAssaultCategories()) });
    full.load(realLayer());
    full.start('_assaultarcherdrumtowertopfull_scWD_Script_696a2498');
    const db = of(full, 'db');
    expect(db.map((e) => [e.name, e.record])).toEqual([['DBDOGStateType.Hidden', 'DynamicObjectGroup/StateTypes:Hidden']]);
    const set = of(full, 'native').find((e) => e.name === 'DynamicObjectGroup::Script_SetState')!;
    expect(set).toMatchObject({ self: 'WD.DOG', args: [{ ref: 'DBDOGStateType.Hidden' }] });
    expect(full.summary().db).toEqual({ resolved: ['DBDOGStateType.Hidden -> DynamicObjectGroup/StateTypes:Hidden'], unresolved: [] });

    const lacking = host({ db: buildScriptDb(fortAssaultCategories(['DBDOGStateType.Hidden'])) });
    lacking.load(realLayer());
    lacking.start('_assaultarcherdrumtowertopfull_scWD_Script_696a2498');
    const miss = of(lacking, 'db')[0]!;
    expect(miss).toMatchObject({ name: 'DBDOGStateType.Hidden' });
    expect(miss.record).toBeUndefined();
    expect(miss.message).toMatch(/no record "Hidden" in DynamicObjectGroup\/StateTypes/);
    expect(lacking.summary().db.unresolved.map((u) => u.name)).toEqual(['DBDOGStateType.Hidden']);
  });

  it('runs the war drum: script object construction, a 10 s timer on the world clock, the state record round trip', () => {
    const h = host({ db: buildScriptDb(fortAssaultCategories()) });
    h.load(realLayer());
    const before = of(h, 'event-add').length; // the StartupCommands entry's own
    h.start('_assaultarcherdrumtowertopfull_rsWD_Script_119ac151'); // SO:AssaultDrumStart()
    expect(of(h, 'event-add').slice(before).map((e) => [e.sender, e.event, e.hash])).toEqual([['ST', 'OnComplete', '0x7DA073C0']]);
    run(h, 9.9);
    expect(of(h, 'dispatch')).toHaveLength(0);
    run(h, 0.2);
    const d = of(h, 'dispatch');
    expect(d.map((e) => e.name)).toEqual(['AssaultDrumScriptTimerComplete']);
    expect(d[0]!.t).toBe(10_000);
    // _IsDrumAvailable compares WD_DOG:GetStateRecord() with DBDOGStateType.Occupied
    expect(of(h, 'db').map((e) => e.name)).toContain('DBDOGStateType.Occupied');
    expect(of(h, 'error')).toEqual([]);
  });
});

describe('threads on the world clock', () => {
  const sleeper = layerWith({ sleeper: 'for i = 1, 3 do LithThreadSleep(threadId, 2) end' });

  it('LithThreadSleep wakes the thread after the seconds of world time', () => {
    const h = host();
    h.load(layerOf(sleeper));
    run(h, 10);
    expect(of(h, 'sleep').map((e) => e.wakeAt)).toEqual([2000, 4000, 6000]);
    expect(of(h, 'wake').map((e) => e.t)).toEqual([2000, 4000, 6000]);
    expect(of(h, 'end').map((e) => e.t)).toEqual([6000]);
  });

  it('a pause delays the wake by the pause: world time stops, real time goes on', () => {
    const h = host();
    h.load(layerOf(sleeper));
    run(h, 1);
    h.setPaused(true);
    run(h, 1);
    expect(h.world.clocks.realTime.timeMs).toBe(2000);
    expect(h.worldMs).toBe(1000);
    h.setPaused(false);
    run(h, 2);
    const wake = of(h, 'wake')[0]!;
    expect([wake.t, wake.rt]).toEqual([2000, 3000]);
  });

  it('slow motion at 0.5 takes twice the real time for the same sleep', () => {
    const h = host();
    h.setSlowMotion(0.5);
    h.load(layerOf(sleeper));
    run(h, 4.1);
    const wake = of(h, 'wake')[0]!;
    expect([wake.t, wake.rt]).toEqual([2000, 4000]);
  });

  it('a 5 s hitch advances the world clock by 100 ms: a 2 s sleep needs real frames, not one long one', () => {
    const h = host();
    h.load(layerOf(sleeper));
    h.frame(5000);
    expect(h.worldMs).toBe(100);
    expect(of(h, 'wake')).toHaveLength(0);
  });

  it('a thread sleeping 0 s resumes on the next frame, not in the same one', () => {
    const h = host();
    h.load(layerOf(layerWith({ spin: 'while true do LithThreadSleep(threadId, 0) end' })));
    h.frame(20);
    h.frame(20);
    h.frame(20);
    expect(of(h, 'wake')).toHaveLength(3);
  });
});

describe('a hostile or broken script ends with a clear error; the host survives', () => {
  it('an infinite loop runs out of its budget; the other thread still runs', () => {
    const h = host({ budget: { instructions: 100_000 } });
    h.load(layerOf(layerWith({ loop: 'while true do end', fine: 'GameConsole:PrintMessage("still here")' })));
    const err = of(h, 'error');
    expect(err).toHaveLength(1);
    expect(err[0]).toMatchObject({ name: '_loop_SC_Script_1', thread: 1 });
    expect(err[0]!.message).toMatch(/budget/);
    expect(of(h, 'native').find((e) => e.name === 'GameConsole:PrintMessage')?.message).toBe('still here');
    expect(of(h, 'end').map((e) => e.name)).toEqual(['_fine_SC_Script_1']);
  });

  it('runaway recursion is a stack overflow', () => {
    const h = host();
    h.load(layerOf(layerWith({ deep: 'local function f(n) return 1 + f(n + 1) end f(1)' })));
    expect(of(h, 'error')[0]!.message).toMatch(/stack overflow/);
  });

  it('a native called with the wrong shape would fault: the thread ends with the reason', () => {
    const h = host();
    h.load(layerOf(layerWith({ bad: 'local D = DynamicObjectGroup.Create(scriptId, "D", false, true)\nD:Script_SetState("Hidden")\nGameConsole:PrintMessage("not reached")' })));
    expect(of(h, 'fault')[0]).toMatchObject({ name: 'DynamicObjectGroup::Script_SetState', message: 'would fault in game: argument 1: expected a DBDOGStateType record, got a string' });
    const err = of(h, 'error')[0]!;
    expect(err.message).toMatch(/^@?test\.lua:\d+: DynamicObjectGroup::Script_SetState: would fault in game/);
    expect(of(h, 'native').map((e) => e.name)).not.toContain('GameConsole:PrintMessage');
  });

  it('a colon native called with a dot would fault', () => {
    const h = host();
    h.load(layerOf(layerWith({ dot: 'GameConsole.PrintToScreen("x")' })));
    expect(of(h, 'fault')[0]!.message).toMatch(/called with "\." instead of ":"/);
  });

  it('LithThreadSleep with a string, or outside a thread, would fault', () => {
    const h = host();
    h.load(layerOf(layerWith({ s: 'LithThreadSleep(threadId, "soon")' })));
    expect(of(h, 'fault')[0]!.message).toBe('would fault in game: argument 2: expected a number, got a string');
  });

  it('a chunk that fails to compile is an error entry, not an exception', () => {
    const h = host();
    const r = h.load(layerOf('local x = = 1'));
    expect(r.ok).toBe(false);
    expect(of(h, 'error')[0]!.message).toMatch(/cannot compile the layer: .*test\.lua:1:/);
  });

  it('a chunk that does not set _G.loadedresource says so', () => {
    const h = host();
    h.load(layerOf('local t = {}'));
    expect(of(h, 'error')[0]!.message).toMatch(/did not set _G.loadedresource/);
  });
});

describe('script context', () => {
  const layer = layerWith(
    { ctx: 'local SO = ScriptObject.Create(scriptId, "SO")\nSO:Init()' },
    '',
  ).replace(
    '}\n_G.loadedresource',
    `_ctx_SO_Script_2 = hmake CtxMeta {
  __constructor = function (parent, scriptId)
    local self = hmake CtxInst {}
    setmetatable(self, parent)
    parent.__index = parent
    self.scriptId = scriptId
    if (parent.__eventmap == nil) then
      parent.__eventmap = {}
      parent.__eventmap[0x1234hi] = {func = parent.Handle, name = "Handle"};
    end
    return self
  end,
  Init = function (self)
    local T = ScriptTimer.Create(self.scriptId, "T", false, true)
    WBEventSystem:Add(T, T.OnComplete, { self.scriptId, self.lookupId, 0x1234hi })
    local orc = NPC.None
    orc:SetAlignment(DBAlignments.Orc)
  end,
  Handle = function (self, args)
    NPC.None:SetAlignment(DBAlignments.Orc)
  end,
},
}
_G.loadedresource`,
  );
  const structs = `hstructure CtxMeta
  __constructor : ifunction
  __index : CtxMeta
  Init : ifunction
  Handle : ifunction
  __eventmap : table
end
hstructure CtxInst
  meta : CtxMeta
  scriptId : table
  lookupId : luserdata
  npc : object
end
`;

  it('NPC::SetAlignment asserts from a thread (depth 0) and not from a dispatched handler', () => {
    const h = host({ timers: 'manual' });
    h.load(layerOf(structs + layer));
    const asserts = of(h, 'assert');
    expect(asserts).toHaveLength(1);
    expect(asserts[0]).toMatchObject({ name: 'NPC::SetAlignment', message: 'This function should only be called from script code' });
    expect(of(h, 'error')[0]!.message).toMatch(/engine assert/);
    // the Add ran before the assert: fire it
    expect(h.fire('T', 'OnComplete')).toBe(1);
    expect(of(h, 'assert')).toHaveLength(1); // no new assert inside the handler
    expect(of(h, 'dispatch')[0]!.stack).toEqual(['Handle']);
    expect(of(h, 'native').filter((e) => e.name === 'NPC::SetAlignment')).toHaveLength(2);
  });
});

describe('unknown natives and determinism', () => {
  it('an unknown native returns a recorded stand-in and the script runs to its end', () => {
    const h = host();
    h.load(layerOf(layerWith({ u: 'local x = Weather:SetRain(0.5)\nlocal y = x:Intensity() + 1\nAudioBus.Play("boom")\nGameConsole:PrintMessage("done " .. tostring(y))' })));
    expect(of(h, 'error')).toEqual([]);
    expect(h.summary().natives.unknown).toEqual(['AudioBus.Play', 'Weather:SetRain', 'Weather:SetRain().Intensity']);
    expect(of(h, 'native').find((e) => e.name === 'Weather:SetRain')).toMatchObject({ unknown: true, args: [0.5] });
    expect(of(h, 'end')).toHaveLength(1);
  });

  it('the same input gives the same trace', () => {
    const once = () => {
      const h = host({ db: buildScriptDb(fortAssaultCategories()) });
      h.load(realLayer());
      h.start('_assaultarcherdrumtowertopfull_rsWD_Script_119ac151');
      h.fire('InventoryItemUI', 'OnCollect');
      run(h, 25);
      return h.trace.entries.map((e) => traceJson(e)).join('\n');
    };
    const a = once();
    expect(a.length).toBeGreaterThan(1000);
    expect(once()).toBe(a);
  });
});

describe('loads', () => {
  it('a layer is compiled once per cache; a load ends the threads and drops the registrations', () => {
    const cache = new LayerCache();
    const h = new ScriptHost({ cache });
    h.load(layerOf(layerWith({ sleeper: 'LithThreadSleep(threadId, 60)' }), 'a'), 'island');
    expect(h.sleeping()).toHaveLength(1);
    h.load(layerOf(layerWith({ sleeper: 'LithThreadSleep(threadId, 60)' }), 'a'), 'desert');
    expect(cache.compiles).toBe(1);
    expect(of(h, 'load').map((e) => e.message)).toEqual(['compiled and cached', 'from the layer cache (compiled once per process)']);
    expect(h.sleeping().map((t) => t.thread)).toEqual([2]); // thread 1 ended with the region
  });
});
