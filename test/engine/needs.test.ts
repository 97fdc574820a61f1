import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseLua, compileLua } from '../../src/script/compile/index.ts';
import { usageFromAst } from '../../src/engine/needs-ast.ts';
import { needsReport, usageFromChunk } from '../../src/engine/needs.ts';
import { writeGadb } from '../../src/formats/gadb/write.ts';
import { fixturePath } from '../support/fixtures.ts';
import { runCli } from '../support/cli.ts';
import { buildScriptDb, buildScriptGadb, fortAssaultCategories } from './support/script-db.ts';

const FIXTURE = fixturePath('scripts', 'island_fortassault_fagameplay.closed.lua');
const source = readFileSync(FIXTURE, 'latin1');
/** The source's code lines (comments dropped): an independent count of what the reader should find. */
const code = source.split(/\r?\n/).map((l) => l.replace(/--.*$/, '')).join('\n');
const count = (re: RegExp) => (code.match(re) ?? []).length;

describe('script needs on the closed real source', () => {
  const usage = usageFromAst(parseLua(source, { chunkName: 'fagameplay.lua' }));

  it('finds the section table, its 13 entries and the one StartupCommands entry', () => {
    expect(usage.section).toBe('section_9f90cfd8');
    expect(usage.entries).toHaveLength(13);
    expect(usage.entries).toEqual([...code.matchAll(/^(_[A-Za-z0-9_]+) = /gm)].map((m) => m[1]));
    expect(needsReport(usage).entries.startupCommands).toEqual(['_ammo_large_timed_SC_Script_1b86e977']);
  });

  it('counts every DB<Kind>.Name the code names (comments are not code)', () => {
    const expected = new Map<string, number>();
    for (const m of code.matchAll(/\b(DB[A-Z][A-Za-z0-9_]*)\.([A-Za-z_][A-Za-z0-9_]*)/g)) expected.set(`${m[1]}.${m[2]}`, (expected.get(`${m[1]}.${m[2]}`) ?? 0) + 1);
    const got = new Map(usage.records.map((r) => [`${r.kind}.${r.name}`, r.sites.length]));
    expect(got).toEqual(expected);
    expect(got.get('DBDOGStateType.Hidden')).toBe(3);
    // DBDOGStateType[WBScriptPropString(...)]: chosen at run time
    expect(usage.dynamicKinds.map((d) => [d.kind, d.sites.length])).toEqual([['DBDOGStateType', count(/DBDOGStateType\[/g)]]);
  });

  it('types locals and self fields from their Create calls, so methods are attributed to their class', () => {
    const calls = new Map(usage.calls.map((c) => [c.name, c.sites.length]));
    expect(calls.get('DynamicObjectGroup::Script_SetState')).toBe(count(/WD_DOG:Script_SetState\(/g));
    expect(calls.get('ScriptTimer::Start')).toBe(count(/(ST|st|self\.myTimer):Start\(/g));
    expect(calls.get('WBEventSystem:Add')).toBe(count(/WBEventSystem:Add\(/g));
    expect(calls.get('NPC::GetName')).toBe(2); // self.aiDrummer = NPC:Cast(...)
    expect(calls.get('InventoryItemUI::SetHidden')).toBe(2); // self.myInventoryItem
    // script-object methods (SO:Init(), self:_Output()) are Lua, not natives
    expect([...calls.keys()].filter((n) => /Init|_Output|Enable\b/.test(n))).toEqual([]);
  });

  it('lists the __eventmap handlers', () => {
    expect(usage.eventMaps).toHaveLength(count(/__eventmap\[0x/g));
    expect(usage.eventMaps[0]).toEqual({ entry: '_ammo_large_timed_SO_Script_3dc53bc3', hash: '0xCF58D231', handler: 'Collected' });
  });

  it('against a GameDB built with the editor: every record resolves, and the one lacking them reports each', () => {
    const full = needsReport(usage, buildScriptDb(fortAssaultCategories()));
    expect(full.missing).toEqual({ records: 0, kinds: 0 });
    expect(full.records.find((r) => r.name === 'DBDOGStateType.Hidden')?.path).toBe('DynamicObjectGroup/StateTypes:Hidden');
    const lacking = needsReport(usage, buildScriptDb(fortAssaultCategories(['DBDOGStateType.Hidden', 'DBNodeTag'])));
    expect(lacking.missing).toEqual({ records: 3, kinds: 1 });
    const hidden = lacking.records.find((r) => r.name === 'DBDOGStateType.Hidden')!;
    expect(hidden.resolved).toBe(false);
    expect(hidden.message).toMatch(/no record "Hidden" in DynamicObjectGroup\/StateTypes/);
    expect(lacking.kinds.find((k) => k.kind === 'DBNodeTag')).toMatchObject({ resolved: false });
  });
});

const HOSTILE = `
local section_1 = {
  _p_SC_Script_1 = function (self, threadId, scriptId)
    local WD = DynamicObjectGroup.Create(scriptId, "WD", false, true)
    WD:Script_SetState(DBNodeTag.Role_WarDrum)
    WD:Script_SetState("Hidden")
    Foo:Bar(1)
    LithThreadSleep(threadId, "soon")
  end,
}
_G.loadedresource = section_1
`;

describe('script needs on a script that misuses natives', () => {
  it('reports argument shapes the game would fault on and natives the table does not know', () => {
    const r = needsReport(usageFromAst(parseLua(HOSTILE)));
    const set = r.natives.find((n) => n.name === 'DynamicObjectGroup::Script_SetState')!;
    expect(set.faults.map((f) => f.message)).toEqual([
      'argument 1: expected a DBDOGStateType record, got a DBNodeTag record (DBNodeTag.Role_WarDrum)',
      'argument 1: expected a DBDOGStateType record, got a string',
    ]);
    expect(set.faults[0]!.site.line).toBe(5);
    expect(r.natives.find((n) => n.name === 'LithThreadSleep')!.faults[0]!.message).toBe('argument 2: expected a number, got a string');
    expect(r.unknownNatives).toEqual(['Foo:Bar']);
    expect(r.faults).toBe(3);
  });

  it('reads the same natives and records from the compiled bytecode', () => {
    const u = usageFromChunk(compileLua(HOSTILE, { name: 'hostile.lua' }));
    const names = u.calls.map((c) => c.name).sort();
    expect(names).toEqual(['DynamicObjectGroup.Create', 'Foo:Bar', 'LithThreadSleep']);
    expect(u.records.map((r) => `${r.kind}.${r.name}`)).toEqual(['DBNodeTag.Role_WarDrum']);
  });
});

describe('scry script needs', () => {
  const dir = mkdtempSync(join(tmpdir(), 'scry-needs-'));
  const full = join(dir, 'full.gamedb');
  const lacking = join(dir, 'lacking.gamedb');
  writeFileSync(full, writeGadb(buildScriptGadb(fortAssaultCategories())));
  writeFileSync(lacking, writeGadb(buildScriptGadb(fortAssaultCategories(['DBDOGStateType.Hidden']))));

  it('exit 0 when the database has every record', async () => {
    const r = await runCli(['script', 'needs', FIXTURE, '--db', full]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/DBDOGStateType\.Hidden +3 +-> DynamicObjectGroup\/StateTypes:Hidden/);
    expect(r.stdout).toMatch(/StartupCommands 1 \(_ammo_large_timed_SC_Script_1b86e977\)/);
  });

  it('exit 1 and the missing record with --json', async () => {
    const r = await runCli(['script', 'needs', FIXTURE, '--db', lacking, '--json']);
    expect(r.code).toBe(1);
    const j = JSON.parse(r.stdout) as { missing: { records: number }; records: { name: string; resolved: boolean; closest: string[] }[] };
    expect(j.missing.records).toBe(1);
    expect(j.records.find((x) => x.name === 'DBDOGStateType.Hidden')).toMatchObject({ resolved: false });
  });

  it('refuses a truncated .scripts head with a sentence', async () => {
    const r = await runCli(['script', 'needs', fixturePath('scripts', 'island_fortassault_fagameplay.scripts.first65536.bin')]);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/cut short by 753843 byte\(s\)/); // 819,379 - 65,536
  });
});
