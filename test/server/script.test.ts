import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { disassembleHksFile, openHksFile } from '../../src/formats/hks/index.ts';
import type { Workbench } from '../../src/server/server.ts';
import type { ScriptAnalysis, ScriptLinePage, ScriptOverview } from '../../src/server/api-types.ts';
import { loadFixture } from '../support/fixtures.ts';
import { api, raw, startScriptWorkbench } from './harness.ts';

const LUAC = '/api/files/closures.debug.luac/script';
const SCRI = '/api/files/structs.debug.scri/script';
const SOURCE = '/api/files/island_fortassault_fagameplay.scripts.first65536.bin/script';

describe('workbench script API', () => {
  let wb: Workbench;
  beforeAll(async () => {
    wb = await startScriptWorkbench();
  });
  afterAll(async () => {
    await wb.close();
  });

  it('detects bare chunks and SCRI containers (by magic, whatever the extension)', () => {
    expect(wb.workspace.list().map((f) => f.kind)).toEqual(['hks', 'hks', 'hks']);
  });

  it('gives the info of an hksc chunk as `scry script info` does', async () => {
    const o = await api<ScriptOverview>(wb, LUAC);
    expect(o).toMatchObject({ container: 'bare chunk', body: 'bytecode', truncatedBy: 0 });
    const count = (label: string) => o.counts.find((c) => c.label === label)?.value;
    // golden values of the fixture (`scry script info --json`)
    expect([count('functions'), count('instructions'), count('DATA words'), count('constants'), count('distinct strings')]).toEqual([8, 74, 9, 20, 4]);
    expect(o.header).toContainEqual({ name: 'format', value: '14' });
    expect(o.header).toContainEqual({ name: 'debug info', value: 'full' });
    expect(o.opcodes[0]).toEqual({ name: 'RETURN', count: 16 });
    const s = await api<ScriptOverview>(wb, SCRI);
    expect(s.container).toBe('SCRI v1, bytecode body');
  });

  it('pages the listing line by line, equal to the library\'s disassembly', async () => {
    const expected = disassembleHksFile(openHksFile(loadFixture('hks', 'generated', 'closures.debug.luac'))).replace(/\n$/, '').split('\n');
    const o = await api<ScriptOverview>(wb, LUAC);
    expect(o.lines).toBe(expected.length);
    const all = await api<ScriptLinePage>(wb, `${LUAC}/lines?limit=2000`);
    expect(all.lines).toEqual(expected);
    expect(all.lines).toContain('.function main  ; main lines 0..0, 34 words, 13 constants, 4 functions');
    const page = await api<ScriptLinePage>(wb, `${LUAC}/lines?offset=3&limit=2`);
    expect(page).toEqual({ total: expected.length, offset: 3, lines: expected.slice(3, 5) });
    expect((await raw(wb, 'GET', `${LUAC}/lines?limit=0`)).status).toBe(400);
  });

  it('verifies, round-trips, and lists strings and calls', async () => {
    const a = await api<ScriptAnalysis>(wb, `${LUAC}/analysis`);
    expect(a.counts).toEqual({ error: 0, warning: 0, info: 0 });
    expect(a.roundTrip).toEqual({ write: true, listing: true });
    expect(a.strings).toEqual([
      { value: 'make_counter', functions: 1 },
      { value: 'apply', functions: 1 },
      { value: 'fact', functions: 2 },
      { value: 'result', functions: 1 },
    ]);
    expect(a.calls.map((s) => s.section)).toEqual(['natives', 'calls', 'records', 'globalsRead', 'globalsWritten', 'fieldsRead', 'fieldsWritten']);
    expect(a.calls.find((s) => s.section === 'globalsWritten')?.names.map((n) => n.name)).toContain('result');
  });

  it('shows a truncated .scripts head as Lua source text, with the truncation as a finding', async () => {
    const o = await api<ScriptOverview>(wb, SOURCE);
    expect(o).toMatchObject({ container: 'SCRI v1, Lua source body', body: 'lua-source', truncatedBy: 753_843, lines: 2023 });
    // `scry script info` says 2024: it counts the empty piece after the head's final newline
    expect(o.counts).toContainEqual({ label: 'hstructure declarations', value: 36 });
    const first = await api<ScriptLinePage>(wb, `${SOURCE}/lines?limit=1`);
    expect(first.lines).toEqual(['-- SCRIPTOBJECT PROTOTYPES (search for IMPLEMENTATION to get to the actual code)']);
    const a = await api<ScriptAnalysis>(wb, `${SOURCE}/analysis`);
    expect(a.roundTrip).toEqual({ write: null, listing: null });
    expect(a.findings.map((f) => f.rule)).toEqual(['scri.truncated']);
  });

  it('refuses script routes on other kinds and unknown files', async () => {
    expect((await raw(wb, 'GET', '/api/files/nope.luac/script')).status).toBe(404);
    expect((await raw(wb, 'GET', '/api/files/closures.debug.luac/arch')).status).toBe(404);
  });
});
