import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeGadb } from '../../src/formats/gadb/write.ts';
import { writeScri } from '../../src/formats/scri/scri.ts';
import { parseFireSpec, runPlan } from '../../src/engine/run.ts';
import { fixturePath } from '../support/fixtures.ts';
import { runCli } from '../support/cli.ts';
import { buildScriptGadb, fortAssaultCategories } from './support/script-db.ts';

const dir = mkdtempSync(join(tmpdir(), 'scry-run-cli-'));
const LAYER = join(dir, 'fagameplay.scripts');
writeFileSync(LAYER, writeScri({ version: 1, flag: 1, body: new Uint8Array(readFileSync(fixturePath('scripts', 'island_fortassault_fagameplay.closed.lua'))), trailing: new Uint8Array(0) }));
const FULL = join(dir, 'full.gamedb');
const LACKING = join(dir, 'lacking.gamedb');
writeFileSync(FULL, writeGadb(buildScriptGadb(fortAssaultCategories())));
writeFileSync(LACKING, writeGadb(buildScriptGadb(fortAssaultCategories(['DBDOGStateType.Hidden']))));
const START_WD = '_assaultarcherdrumtowertopfull_scWD_Script_696a2498@1';

/** A layer source of the shipped shape: StartupCommands entries in the section table handed to _G.loadedresource. */
function layerSource(name: string, entries: Record<string, string>): string {
  const fields = Object.entries(entries).map(([prefab, body], i) => `_${prefab}_SC_Script_${i + 1} = function (self, threadId, scriptId)\n${body}\nend,`);
  const path = join(dir, `${name}.lua`);
  writeFileSync(path, `local section_1 = {\n${fields.join('\n')}\n}\n_G.loadedresource = section_1\n`);
  return path;
}
const SLEEPER = layerSource('sleeper', { sleeper: 'for i = 1, 2 do LithThreadSleep(threadId, 2) end' });
const BROKEN = layerSource('broken', { broken: 'local t = nil\nreturn t.x', sleeper: 'LithThreadSleep(threadId, 1)' });
const RUNAWAY = layerSource('runaway', { spin: 'while true do end', sleeper: 'LithThreadSleep(threadId, 1)' });
const PLAIN = join(dir, 'plain.lua');
writeFileSync(PLAIN, 'print("plain", ...)\n');

type Line = Record<string, unknown> & { t: number; kind: string; name: string };
const jsonLines = (stdout: string): Line[] => stdout.trim().split('\n').map((l) => JSON.parse(l) as Line);

describe('run plans', () => {
  it('parses fire specs: the event after the last dot, the run second, argument fields', () => {
    expect(parseFireSpec('WD.DOG.OnStateChange@3.5:NewState=DBDOGStateType.Destroyed,n=2,b=true,who=@ST,s=x')).toEqual({
      at: 3500,
      kind: 'fire',
      label: 'WD.DOG',
      event: 'OnStateChange',
      fields: { NewState: { record: 'DBDOGStateType.Destroyed' }, n: 2, b: true, who: { object: 'ST' }, s: 'x' },
    });
    expect(() => parseFireSpec('nodot')).toThrow(/OBJECT\.EVENT/);
  });

  it('orders actions by run time, then as given; a pause is a pause and a resume', () => {
    const p = runPlan({ fire: ['A.OnX@2', 'B.OnY@1'], pause: ['1:3'], forSeconds: '5' });
    expect(p.actions.map((a) => `${a.kind}@${a.at}`)).toEqual(['fire@1000', 'pause@1000', 'fire@2000', 'resume@4000']);
    expect(() => runPlan({ forSeconds: '-1' })).toThrow(/seconds/);
    expect(() => runPlan({ slowmo: ['1:2:99'] })).toThrow(/between 0 and 16/);
  });
});

describe('scry script run (engine mode)', () => {
  it('runs the layer against a database: StartupCommands, the fired event, the lookup; exit 0', async () => {
    const r = await runCli(['script', 'run', LAYER, '--db', FULL, '--fire', 'InventoryItemUI.OnCollect@1', '--start', START_WD, '--for', '3']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/thread-start _ammo_large_timed_SC_Script_1b86e977 #1/);
    expect(r.stdout).toMatch(/dispatch +Collected InventoryItemUI\.OnCollect 0xCF58D231 -> _ammo_large_timed_SO_Script_3dc53bc3\.Collected \[stack: Collected\]/);
    expect(r.stdout).toMatch(/db +DBDOGStateType\.Hidden -> DynamicObjectGroup\/StateTypes:Hidden/);
    expect(r.stdout).toMatch(/DB lookups: 1 resolved, 0 unresolved/);
  });

  it('--json: one object per line with t, kind and name, then the summary; exit 1 for an unresolved record', async () => {
    const r = await runCli(['script', 'run', LAYER, '--db', LACKING, '--start', START_WD, '--for', '2', '--pause', '0.5:1', '--json']);
    expect(r.code).toBe(1);
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    for (const l of lines.slice(0, -1)) {
      expect(typeof l['t']).toBe('number');
      expect(typeof l['kind']).toBe('string');
      expect(typeof l['name']).toBe('string');
    }
    const summary = lines.at(-1)! as { kind: string; worldMs: number; realMs: number; db: { unresolved: { name: string }[] } };
    expect(summary.kind).toBe('summary');
    expect([summary.worldMs, summary.realMs]).toEqual([1000, 2000]);
    expect(summary.db.unresolved.map((u) => u.name)).toEqual(['DBDOGStateType.Hidden']);
  });

  it('the same command gives the same output', async () => {
    const args = ['script', 'run', LAYER, '--db', FULL, '--fire', 'InventoryItemUI.OnCollect@1', '--start', '_assaultarcherdrumtowertopfull_rsWD_Script_119ac151', '--for', '12', '--json'];
    const a = await runCli(args);
    const b = await runCli(args);
    expect(b.stdout.split('\n').slice(1)).toEqual(a.stdout.split('\n').slice(1)); // the first line says whether the layer was compiled or cached
  });

  it("--jit (the VM's JavaScript tier) gives the same trace, hot functions and budgets included", async () => {
    // a function called past the tier's threshold (64 calls), then a loop that runs out of its budget
    const hot = layerSource('hot', {
      hot: 'local function step(a, i) return (a * 31 + i) % 65521 end\nlocal a = 1\nfor i = 1, 500 do a = step(a, i) end\nGameConsole:PrintMessage("sum " .. a)\nLithThreadSleep(threadId, 1)',
      spin: 'local n = 0\nwhile true do n = n + 1 end',
    });
    for (const args of [
      ['script', 'run', hot, '--for', '2', '--budget', '50000', '--json'],
      ['script', 'run', LAYER, '--db', FULL, '--fire', 'InventoryItemUI.OnCollect@1', '--start', START_WD, '--for', '3', '--json'],
    ]) {
      const plain = await runCli(args);
      const jit = await runCli([...args, '--jit']);
      expect(jit.code).toBe(plain.code);
      expect(jit.stdout.split('\n').slice(1)).toEqual(plain.stdout.split('\n').slice(1));
    }
    const text = await runCli(['script', 'run', hot, '--for', '2', '--budget', '50000', '--jit']);
    expect(text.stdout).toMatch(/GameConsole:PrintMessage #1 \("sum \d+"\)/);
    expect(text.stdout).toMatch(/error +_spin_SC_Script_2 #2 .*budget/);
  });

  it('usage errors exit 2 with the reason', async () => {
    const r = await runCli(['script', 'run', LAYER, '--fire', 'nonsense']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/OBJECT\.EVENT/);
  });

  it('a pause delays a sleep: the wake comes at the same world time, one paused second later in run time', async () => {
    const plain = jsonLines((await runCli(['script', 'run', SLEEPER, '--for', '6', '--json'])).stdout);
    const paused = await runCli(['script', 'run', SLEEPER, '--for', '6', '--pause', '1:1', '--json']);
    expect(paused.code).toBe(0);
    const wakes = (ls: Line[]) => ls.filter((l) => l.kind === 'wake').map((l) => [l.t, l['rt']]);
    expect(wakes(plain)).toEqual([[2000, 2000], [4000, 4000]]);
    expect(wakes(jsonLines(paused.stdout))).toEqual([[2000, 3000], [4000, 5000]]);
    const text = await runCli(['script', 'run', SLEEPER, '--for', '6', '--pause', '1:1']);
    expect(text.stdout).toMatch(/^ +2\.000s \(run 3\.000s\) +wake +_sleeper_SC_Script_1 #1$/m);
    expect(text.stdout).toMatch(/world time 5\.000 s \(real 6\.000 s\)/);
  });

  it('a script error ends its thread with chunk:line: message in the trace, the other thread goes on; exit 3', async () => {
    const r = await runCli(['script', 'run', BROKEN, '--for', '2', '--json']);
    expect(r.code).toBe(3);
    const lines = jsonLines(r.stdout);
    const error = lines.find((l) => l.kind === 'error')!;
    expect(error).toMatchObject({ name: '_broken_SC_Script_1', t: 0 });
    expect(error['message']).toMatch(/broken\.lua:4: attempt to index local 't' \(a nil value\)/);
    expect(lines.filter((l) => l.kind === 'end').map((l) => [l.name, l.t])).toEqual([['_sleeper_SC_Script_2', 1000]]);
    expect(lines.at(-1)).toMatchObject({ kind: 'summary', errors: 1 });
  });

  it('an infinite loop runs out of --budget; the host survives and the other thread wakes; exit 3', async () => {
    const r = await runCli(['script', 'run', RUNAWAY, '--for', '2', '--budget', '100000']);
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(/error +_spin_SC_Script_1 #1 .*budget/);
    expect(r.stdout).toMatch(/^ +1\.000s +end +_sleeper_SC_Script_2 #2$/m);
  });

  it('a layer that does not compile is an error entry with its line; exit 3', async () => {
    const bad = join(dir, 'bad.lua');
    writeFileSync(bad, 'local section_1 = {\n_x_SC_Script_1 = function (self) end end,\n}\n_G.loadedresource = section_1\n');
    const r = await runCli(['script', 'run', bad]);
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(/error +bad : cannot compile the layer: .*bad\.lua:2:/);
  });
});

describe('scry script run: which mode', () => {
  it('a source that is not a world layer runs on the plain VM, with its arguments', async () => {
    const r = await runCli(['script', 'run', PLAIN, 'a', 'b']);
    expect([r.code, r.stdout]).toEqual([0, 'plain\ta\tb\n']);
  });

  it('a world layer runs in the engine without any option; --vm runs it as a plain chunk', async () => {
    const engine = await runCli(['script', 'run', SLEEPER]);
    expect(engine.stdout).toMatch(/thread-start _sleeper_SC_Script_1 #1/);
    expect(engine.stdout).toMatch(/world time 10\.000 s/); // the default run length
    const vm = await runCli(['script', 'run', SLEEPER, '--vm']);
    expect([vm.code, vm.stdout, vm.stderr]).toEqual([0, '', '']);
  });

  it('an engine option puts any file in engine mode: a plain chunk is a layer that sets no _G.loadedresource', async () => {
    const r = await runCli(['script', 'run', PLAIN, '--for', '1']);
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(/did not set _G\.loadedresource/);
  });

  it("mixing the modes' options is a usage error (exit 2)", async () => {
    for (const args of [
      [SLEEPER, '--vm', '--db', FULL],
      [SLEEPER, '--numbers', 'double'],
      [SLEEPER, '--', 'x'],
    ]) {
      const r = await runCli(['script', 'run', ...args]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^scry script run: .*(engine|VM)/);
    }
  });

  it('--help names both modes and the options of each', async () => {
    const r = await runCli(['script', 'run', '--help']);
    expect(r.code).toBe(0);
    for (const o of ['--db', '--fire', '--for', '--pause', '--slowmo', '--vm', '--numbers', '_G.loadedresource']) expect(r.stdout).toContain(o);
  });
});

