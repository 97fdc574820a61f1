/**
 * The headless engine on the closed real source (`npm run bench -- engine`). Each step is set against a floor
 * measured in the same run:
 *
 * - loading a layer with a cold layer cache (compile + chunk + StartupCommands) against compiling the source alone
 *   (`compileLua`: what the engine cannot avoid paying once per layer);
 * - a warm load (the reinstall table hit) against the same compile;
 * - 20,000 native calls from a script thread (`GameConsole:PrintMessage`, each a checked, traced call) against the
 *   same loop calling an empty Lua function on the plain VM;
 * - 1,000 dispatches of `InventoryItemUI.OnCollect` (through `__eventmap`, the stack pushed and popped; the
 *   handler makes three checked native calls and registers an event);
 * - 60 s of 20 ms frames with the war drum's 10 s timer running (3,000 frames, clock updates, six dispatches).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { measure, report } from './harness.ts';
import { ScriptHost } from '../src/engine/host.ts';
import { LayerCache, openLayer } from '../src/engine/layer.ts';
import { compileLua } from '../src/script/compile/index.ts';
import { createScriptVM } from '../src/script/vm/index.ts';

const source = new Uint8Array(readFileSync(fileURLToPath(new URL('../test/fixtures/scripts/island_fortassault_fagameplay.closed.lua', import.meta.url))));
const enc = new TextEncoder();

const N_NATIVES = 20_000;
const nativeLayer = enc.encode(`local section_1 = {
_bench_SC_Script_1 = function (self, threadId, scriptId)
  for i = 1, ${N_NATIVES} do GameConsole:PrintMessage("x") end
end,
}
_G.loadedresource = section_1
`);
const plainLoop = `local function f(s) end for i = 1, ${N_NATIVES} do f("x") end`;

export async function run(): Promise<string> {
  const layer = openLayer(source, 'fagameplay');
  const compile = measure('floor: compileLua of the source (50,089 bytes)', () => compileLua(source, { name: 'fagameplay.lua' }));
  const cold = measure('load, cold layer cache (compile + chunk + StartupCommands)', () => new ScriptHost({ cache: new LayerCache() }).load(layer));
  const warmCache = new LayerCache();
  warmCache.get(layer);
  const warm = measure('load, warm layer cache (new host: VM, globals, chunk, StartupCommands)', () => new ScriptHost({ cache: warmCache }).load(layer));

  const plainVm = createScriptVM({ numbers: 'float' });
  const loopChunk = plainVm.load(compileLua(plainLoop, { name: 'loop.lua' }), '@loop.lua');
  const loopFloor = measure(`floor: ${N_NATIVES.toLocaleString('en-US')} calls of an empty Lua function (plain VM)`, () => plainVm.call(loopChunk));
  const nativeLayerOpened = openLayer(nativeLayer, 'natives');
  const nativeCache = new LayerCache();
  const natives = measure(`${N_NATIVES.toLocaleString('en-US')} native calls from a thread (checked and traced)`, () => new ScriptHost({ cache: nativeCache }).load(nativeLayerOpened));

  // a fresh host per run: each Collected registers the timer's OnComplete again, as the real script does
  const hosts = Array.from({ length: 6 }, () => {
    const h = new ScriptHost({ cache: warmCache, timers: 'manual' });
    h.load(layer);
    return h;
  });
  let k = 0;
  const dispatches = measure('1,000 dispatches of InventoryItemUI.OnCollect (through __eventmap, stack pushed)', () => {
    const h = hosts[k++]!;
    for (let i = 0; i < 1000; i++) h.fire('InventoryItemUI', 'OnCollect');
  });
  const frames = measure('60 s of 20 ms frames, the drum timer running (3,000 frames)', () => {
    const h = new ScriptHost({ cache: warmCache });
    h.load(layer);
    h.start('_assaultarcherdrumtowertopfull_rsWD_Script_119ac151');
    for (let i = 0; i < 3000; i++) h.frame(20);
  });

  const ratio = (a: { ms: number }, b: { ms: number }) => (a.ms / b.ms).toFixed(2);
  return [
    report('engine: loading the closed real source', [cold, warm], compile),
    '',
    report('engine: natives, dispatches, frames', [natives, dispatches, frames], loopFloor),
    '',
    `native call overhead: ${ratio(natives, loopFloor)}× the plain VM's Lua call loop; ${((natives.ms * 1000) / N_NATIVES).toFixed(2)} µs per native call (trace entry included); ${((dispatches.ms * 1000) / 1000).toFixed(1)} µs per dispatch; a cold load costs ${ratio(cold, compile)}× the compile alone`,
  ].join('\n');
}
