/**
 * Long fuzz campaign for the headless engine (`npm run fuzz -- engine`): random layer scripts whose
 * StartupCommands threads call natives (known and unknown) with arguments of every shape, sleep, loop, recurse,
 * build script objects, register and fire events, and misuse all of it; plus the real source head with its
 * entries' bodies mutated. Each run loads the layer, advances simulated time, fires events and checks that the
 * host never throws (a script's failure is a trace entry), that every thread ends, errors or sleeps, and that the
 * running-script stack is back at depth 0. Findings are saved under fuzz/crashers/.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ToolkitError } from '../src/binary/errors.ts';
import { ScriptHost } from '../src/engine/host.ts';
import { LayerCache, openLayer } from '../src/engine/layer.ts';
import type { FuzzOptions } from './run.ts';
import { mutateSource } from './compile.fuzz.ts';
import { saveCrasher, xorshift32 } from './support.ts';

const ARGS = ['nil', 'true', '0', '-1', '1e30', '0/0', '"x"', '""', '{}', 'scriptId', 'threadId', 'D', 'T', 'T.OnComplete', 'DBDOGStateType.Hidden', 'DBNodeTag.X', 'NPC.None', 'GameBase', 'SO', 'Unknown.Thing', 'function() end', '0x1hi'];
const CALLS = [
  'DynamicObjectGroup.Create(%, %, %, %)',
  'D:Script_SetState(%)',
  'D:GetStateRecord()',
  'ScriptTimer.Create(%, %, %, %)',
  'T:Start(%, %, %, %)',
  'WBEventSystem:Add(%, %, { %, %, % })',
  'WBEventSystem:Remove(%, %, { %, %, % })',
  'WBEventSystem.Add(%, %)',
  'LithThreadSleep(%, %)',
  'ScriptObject.Create(%, %)',
  'NPC:Cast(%)',
  'NPC.None:SetAlignment(%)',
  'Math:GetRandomInt(%, %)',
  'GameConsole:PrintMessage(%)',
  'WBScriptPropString(%, %, %)',
  'WBLinkedList:New():At(%)',
  'Engine:IsObjectOfType(%, %)',
  'Weather:SetRain(%)',
  'tostring(%)',
  'DBDOGStateType[%]',
  'setmetatable(%, %)',
  'pcall(%)',
];
const STATEMENTS = [
  'local D = DynamicObjectGroup.Create(scriptId, "D", false, true)',
  'local T = ScriptTimer.Create(scriptId, "T", false, true)',
  'LithThreadSleep(threadId, 0.1)',
  'while true do end',
  'local function f(n) return f(n + 1) + 1 end f(1)',
  'for i = 1, 3 do LithThreadSleep(threadId, i) end',
  'local s = "" for i = 1, 20 do s = s .. s .. "x" end',
  'local t = {} for i = 1, 100000 do t[i] = i end',
  'coroutine.yield()',
  'error("boom")',
  'error({})',
  'SO = ScriptObject.Create(scriptId, "SO")',
  'if SO then SO:Init() end',
];

/** A random layer: one to three StartupCommands entries, a script object to build and fire. */
export function randomLayer(next: () => number): string {
  const pick = <T>(xs: readonly T[]): T => xs[next() % xs.length]!;
  const call = () => pick(CALLS).replace(/%/g, () => pick(ARGS));
  const entries: string[] = [];
  const n = 1 + (next() % 3);
  for (let e = 0; e < n; e++) {
    const body: string[] = ['local D = DynamicObjectGroup.Create(scriptId, "D", false, true)', 'local T = ScriptTimer.Create(scriptId, "T", false, true)', 'local SO = ScriptObject.Create(scriptId, "SO")'];
    const m = 1 + (next() % 8);
    for (let i = 0; i < m; i++) body.push(next() % 3 === 0 ? pick(STATEMENTS) : `local _ = ${call()}`);
    entries.push(`_p${e}_SC_Script_1 = function (self, threadId, scriptId)\n${body.join('\n')}\nend,`);
  }
  const so = `_p0_SO_Script_2 = hmake FMeta {
  __constructor = function (parent, scriptId)
    local self = hmake FInst {}
    setmetatable(self, parent)
    parent.__index = parent
    self.scriptId = scriptId
    if (parent.__eventmap == nil) then
      parent.__eventmap = {}
      parent.__eventmap[0x1hi] = {func = parent.Handle, name = "Handle"};
    end
    return self
  end,
  Init = function (self)
    local T = ScriptTimer.Create(self.scriptId, "T", false, true)
    WBEventSystem:Add(T, T.OnComplete, { self.scriptId, self.lookupId, 0x1hi })
    T:Start(0.05, 0, true, false)
  end,
  Handle = function (self, args) local _ = ${call()} ; ${pick(STATEMENTS)} end,
},`;
  return `hstructure FMeta
  __constructor : ifunction
  __index : FMeta
  Init : ifunction
  Handle : ifunction
  __eventmap : table
end
hstructure FInst
  meta : FMeta
  scriptId : table
  lookupId : luserdata
end
local section_1 = {
${entries.join('\n')}
${so}
}
_G.loadedresource = section_1
`;
}

/** Runs one layer headless and checks the host's promises; throws on a finding. */
export function checkRun(source: Uint8Array, next: () => number): { errors: number } {
  let layer;
  try {
    layer = openLayer(source, 'fuzz');
  } catch (e) {
    // bytes that are not a layer (a NUL byte in text) are refused with a typed error: that is the contract
    if (e instanceof ToolkitError) return { errors: 1 };
    throw e;
  }
  const host = new ScriptHost({ cache: new LayerCache(), budget: { instructions: 20_000 }, traceLimit: 5_000 });
  host.load(layer);
  for (let i = 0; i < 10; i++) {
    host.frame(next() % 3 === 0 ? 5000 : 20);
    if (next() % 4 === 0) host.fire(next() % 2 ? 'T' : 'D', next() % 2 ? 'OnComplete' : 'OnStateChange');
  }
  if (host.stack.depth !== 0) throw new Error(`the running-script stack is at depth ${host.stack.depth} after the run`);
  for (const t of host.threads) if (t.state === 'running') throw new Error(`thread ${t.entry} is still marked running`);
  return { errors: host.summary().errors };
}

const real = new Uint8Array(readFileSync(fileURLToPath(new URL('../test/fixtures/scripts/island_fortassault_fagameplay.closed.lua', import.meta.url))));

export async function fuzz(options: FuzzOptions): Promise<string> {
  const next = xorshift32(options.seed);
  let errors = 0;
  for (let i = 0; i < options.runs; i++) {
    const source = i % 4 === 3 ? mutateSource(real, next) : new TextEncoder().encode(randomLayer(next));
    const runSeed = next();
    try {
      errors += checkRun(source, xorshift32(runSeed)).errors;
    } catch (e) {
      const path = saveCrasher(`engine-${options.seed}-${i}.lua`, source);
      throw new Error(`engine fuzz run ${i} (seed ${options.seed}, run seed ${runSeed}): ${e instanceof Error ? e.message : String(e)}; input saved as ${path}`, { cause: e });
    }
  }
  return `${options.runs} runs, ${errors} script errors traced, no host failure`;
}
