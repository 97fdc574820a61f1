/**
 * Script context through the host (seed 002, "The running-script stack"): only the engine pushes — the __eventmap
 * dispatcher and the resource loaders, at most 16 entries; LoadBuffer + Pcall (a script's own loadstring + pcall)
 * push nothing; System:ActivateRemoteScript notifies the script bus's listeners synchronously on the main thread,
 * where a listener's dispatch nests on the same stack.
 */
import { describe, expect, it } from 'vitest';
import { ScriptHost, type RemoteScriptCall } from '../../src/engine/host.ts';
import { LayerCache, openLayer } from '../../src/engine/layer.ts';
import { RUNNING_SCRIPT_STACK_ENTRIES } from '../../src/engine/stack.ts';
import type { TraceEntry } from '../../src/engine/trace.ts';

const SOURCE = `hstructure PingMeta
  __constructor : ifunction
  __index : PingMeta
  Init : ifunction
  Handle : ifunction
  __eventmap : table
end
hstructure PingInst
  meta : PingMeta
  scriptId : table
  lookupId : luserdata
end
local section_1 = {
_ping_SC_Script_1 = function (self, threadId, scriptId)
  local SO = ScriptObject.Create(scriptId, "SO")
  SO:Init()
  System:ActivateRemoteScript("from-thread")
  pcall(loadstring("NPC.None:SetAlignment(DBAlignments.Orc)"))
  GameConsole:PrintMessage("after pcall")
end,
_ping_SO_Script_2 = hmake PingMeta {
  __constructor = function (parent, scriptId)
    local self = hmake PingInst {}
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
  end,
  Handle = function (self, args)
    pcall(loadstring("NPC.None:SetAlignment(DBAlignments.Orc)"))
    System:ActivateRemoteScript("from-handler")
  end,
},
}
_G.loadedresource = section_1
`;

const layer = () => openLayer(new TextEncoder().encode(SOURCE), 'ping');
const of = (h: ScriptHost, kind: TraceEntry['kind']) => h.trace.entries.filter((e) => e.kind === kind);

function loaded(listen?: (h: ScriptHost, call: RemoteScriptCall) => void): { h: ScriptHost; calls: RemoteScriptCall[] } {
  const h = new ScriptHost({ cache: new LayerCache(), timers: 'manual' });
  const calls: RemoteScriptCall[] = [];
  h.onRemoteScript((c) => {
    calls.push(c);
    listen?.(h, c);
  });
  h.load(layer());
  return { h, calls };
}

describe('script context through the host', () => {
  it('loadstring + pcall push nothing: the chunk asserts from a thread (depth 0) and not inside a handler', () => {
    const { h } = loaded();
    const asserts = of(h, 'assert');
    expect(asserts.map((e) => [e.name, e.message, e.thread])).toEqual([['NPC::SetAlignment', 'This function should only be called from script code', 1]]);
    // pcall caught the faulting call; the thread goes on to its end
    expect(of(h, 'native').filter((e) => e.name === 'GameConsole:PrintMessage').map((e) => e.message)).toEqual(['after pcall']);
    expect(of(h, 'end').map((e) => e.name)).toEqual(['_ping_SC_Script_1']);
    expect(h.fire('T', 'OnComplete')).toBe(1);
    expect(of(h, 'assert')).toHaveLength(1);
    expect(of(h, 'dispatch').map((e) => e.stack)).toEqual([['Handle']]);
    expect(h.stack.depth).toBe(0);
  });

  it('System:ActivateRemoteScript notifies each listener synchronously, with the stack as the caller has it', () => {
    const { h, calls } = loaded();
    expect(calls).toEqual([{ args: ['from-thread'], stackTop: '', depth: 0, thread: 1 }]);
    h.fire('T', 'OnComplete');
    expect(calls[1]).toEqual({ args: ['from-handler'], stackTop: 'Handle', depth: 1 });
    const natives = of(h, 'native').filter((e) => e.name === 'System:ActivateRemoteScript');
    expect(natives.map((e) => e.message)).toEqual(['notified 1 script bus listener(s) on the main thread', 'notified 1 script bus listener(s) on the main thread']);
  });

  it('a listener that dispatches nests on the stack: 16 entries, and the 17th push is a fault, not a push', () => {
    const { h } = loaded((host, c) => {
      if (c.args[0] === 'from-handler') host.fire('T', 'OnComplete');
    });
    h.fire('T', 'OnComplete');
    const depths = of(h, 'dispatch').map((e) => e.stack!.length);
    expect(depths).toEqual(Array.from({ length: RUNNING_SCRIPT_STACK_ENTRIES }, (_, i) => i + 1));
    const faults = of(h, 'fault');
    expect(faults).toHaveLength(1);
    expect(faults[0]).toMatchObject({ name: 'Handle', hypothesis: 'H-STACK-LIMIT' });
    expect(faults[0]!.message).toMatch(/a push at depth 17 is past the engine's 16 entries/);
    // every handler still ended, innermost first, and the stack is back at the static entry
    expect(of(h, 'end').filter((e) => e.handler)).toHaveLength(RUNNING_SCRIPT_STACK_ENTRIES);
    expect(of(h, 'error')).toEqual([]);
    expect(h.stack.depth).toBe(0);
  });
});
