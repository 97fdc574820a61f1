import { describe, expect, it } from 'vitest';
import { NATIVES, WORLD_CLASSES, nativeSpec, objectMethod, recordKindsOfNatives, shapeMismatch, nativeGlobals, isClassOf } from '../../src/engine/natives.ts';
import { INVALID_SCRIPT_NAME, RUNNING_SCRIPT_STACK_ENTRIES, RunningScriptStack, StackOverflowFault } from '../../src/engine/stack.ts';
import { TimeQueue } from '../../src/engine/schedule.ts';
import { Trace, formatTraceEntry, summarizeTrace } from '../../src/engine/trace.ts';

describe('natives table', () => {
  it('has one row per name', () => {
    expect(new Set(NATIVES.map((n) => n.name)).size).toBe(NATIVES.length);
  });

  it('carries the seed facts: script-context asserts, dispatch to listeners, queued work', () => {
    expect(nativeSpec('NPC::SetAlignment')).toMatchObject({ context: 'asserts', assertMessage: 'This function should only be called from script code', source: 'seed' });
    expect(nativeSpec('CPlayerObj::SetAISpectatorInvisible')?.context).toBe('asserts');
    expect(nativeSpec('GameBase::SetRetreatingEnabled')?.context).toBe('asserts');
    expect(nativeSpec('CPlayerObj::SetHidden')?.context).toBe('logs'); // logging only
    expect(nativeSpec('System:ActivateRemoteScript')?.effect).toBe('dispatch');
    expect(nativeSpec('AISpawnManager:SummonGrunts')?.effect).toBe('queue');
    expect(nativeSpec('LithThreadSleep')).toMatchObject({ args: ['number', 'number'], behaviour: 'thread-sleep' });
    expect(nativeSpec('WBEventSystem:Add')).toMatchObject({ args: ['object', 'event', 'registration'] });
  });

  it('record arguments name their DB kind', () => {
    const kinds = recordKindsOfNatives();
    expect(kinds.get('DBDOGStateType')).toEqual(['DynamicObjectGroup::Script_SetState', 'DynamicObjectGroup::GetStateRecord']);
    expect(kinds.get('DBAlignments')).toEqual(['NPC::SetAlignment']);
    expect(kinds.get('DBOutputChannel')?.length).toBe(3);
  });

  it('every class but GameBase derives from GameBase; methods are found on the class, then GameBase', () => {
    for (const c of WORLD_CLASSES) expect(isClassOf(c.name, 'GameBase'), c.name).toBe(true);
    expect(objectMethod('NPC', 'SetHidden')?.name).toBe('GameBase::SetHidden');
    expect(objectMethod('CPlayerObj', 'SetHidden')?.name).toBe('CPlayerObj::SetHidden');
    expect(objectMethod('ScriptTimer', 'Start')?.name).toBe('ScriptTimer::Start');
    expect(objectMethod('ScriptTimer', 'NoSuchMethod')).toBeUndefined();
  });

  it('derives Create and Cast rows from the classes', () => {
    expect(nativeSpec('DynamicObjectGroup.Create')).toMatchObject({ args: ['scriptId', 'string', 'boolean', 'boolean'], returns: 'object:DynamicObjectGroup' });
    expect(nativeSpec('NPC:Cast')?.returns).toBe('object:NPC');
    expect(nativeSpec('NPC.Create')).toBeUndefined();
    const globals = nativeGlobals();
    expect(globals.get('WBEventSystem')?.map((n) => n.name).sort()).toEqual(['WBEventSystem:Add', 'WBEventSystem:Remove']);
    expect(globals.has('LithThreadSleep')).toBe(true);
  });

  it('checks argument shapes: kinds, classes, optional, stand-ins', () => {
    const hidden = { type: 'record', kind: 'DBDOGStateType', label: 'DBDOGStateType.Hidden', isNull: false } as const;
    expect(shapeMismatch('record:DBDOGStateType', hidden)).toBeUndefined();
    expect(shapeMismatch('record:DBNodeTag', hidden)).toBe('expected a DBNodeTag record, got a DBDOGStateType record (DBDOGStateType.Hidden)');
    expect(shapeMismatch('record:DBDOGStateType', { type: 'string' })).toBe('expected a DBDOGStateType record, got a string');
    expect(shapeMismatch('object', { type: 'nil' })).toBe('expected a world object, got nil');
    expect(shapeMismatch('any?', { type: 'nil' })).toBeUndefined();
    expect(shapeMismatch('object:GameBase', { type: 'object', className: 'NPC', label: 'orc' })).toBeUndefined();
    expect(shapeMismatch('object:NPC', { type: 'object', className: 'ScriptTimer', label: 'ST' })).toMatch(/expected an NPC object, got a ScriptTimer object/);
    expect(shapeMismatch('number', { type: 'standin', label: 'Foo.Bar()' })).toBeUndefined();
  });
});

describe('running-script stack (seed 002)', () => {
  it('depth 0 is the static entry with no name: no script context', () => {
    const s = new RunningScriptStack();
    expect([s.depth, s.topName, s.inScriptContext]).toEqual([0, '', false]);
  });

  it('a push always writes a name, "Invalid" at worst', () => {
    const s = new RunningScriptStack();
    s.push('', 'dispatch');
    expect(s.topName).toBe(INVALID_SCRIPT_NAME);
    expect(s.inScriptContext).toBe(true);
    s.push('Collected', 'dispatch');
    expect(s.entries().map((e) => e.name)).toEqual(['Invalid', 'Collected']);
    s.pop();
    s.pop();
    expect(s.depth).toBe(0);
  });

  it('holds at most 16 entries; the 17th push is a fault, not a push', () => {
    const s = new RunningScriptStack();
    for (let i = 0; i < RUNNING_SCRIPT_STACK_ENTRIES; i++) expect(s.push(`s${i}`, 'dispatch')).toBeUndefined();
    const f = s.push('one too many', 'dispatch');
    expect(f).toBeInstanceOf(StackOverflowFault);
    expect(f!.message).toMatch(/past the engine's 16 entries/);
    expect(s.depth).toBe(16);
  });

  it('with() pops even when the handler throws', () => {
    const s = new RunningScriptStack();
    expect(() => s.with('h', 'dispatch', () => { throw new Error('boom'); })).toThrow('boom');
    expect(s.depth).toBe(0);
  });
});

describe('time queue', () => {
  it('orders by time, then by insertion', () => {
    const q = new TimeQueue<string>();
    q.add(200, 'b');
    q.add(100, 'a1');
    q.add(300, 'c');
    q.add(100, 'a2');
    expect(q.popDue(50)).toBeUndefined();
    const out: string[] = [];
    for (let e = q.popDue(250); e; e = q.popDue(250)) out.push(e.item);
    expect(out).toEqual(['a1', 'a2', 'b']);
    expect(q.size).toBe(1);
    expect(q.removeWhere((x) => x === 'c')).toBe(1);
    expect(q.size).toBe(0);
  });
});

describe('trace', () => {
  it('stamps the world time and sums a run', () => {
    let now = 0;
    const t = new Trace(() => now);
    t.add('thread-start', '_x_SC_Script_1', { thread: 1 });
    now = 40;
    t.add('native', 'Foo:Bar', { unknown: true, args: [1] });
    t.add('native', 'Foo:Bar', { unknown: true });
    t.add('db', 'DBDOGStateType.Hidden', { record: 'DOG:Hidden' });
    t.add('db', 'DBDOGStateType.Hiden', { message: 'no record', closest: ['Hidden'] });
    t.add('event-add', 'WBEventSystem:Add', { sender: 'ST', event: 'OnComplete', hash: '0x7DA073C0' });
    t.add('fire', 'ST.OnComplete', { result: 1 });
    t.add('dispatch', 'AssaultDrumScriptTimerComplete', { stack: ['AssaultDrumScriptTimerComplete'] });
    t.add('end', '_x_SC_Script_1', { thread: 1 });
    const s = summarizeTrace(t, { worldMs: 40, realMs: 40, sleeping: [] });
    expect(s.natives).toEqual({ calls: 2, distinct: { 'Foo:Bar': 2 }, unknown: ['Foo:Bar'] });
    expect(s.db.resolved).toEqual(['DBDOGStateType.Hidden -> DOG:Hidden']);
    expect(s.db.unresolved).toEqual([{ name: 'DBDOGStateType.Hiden', message: 'no record', closest: ['Hidden'] }]);
    expect(s.events).toMatchObject({ registered: 1, fired: 1, dispatched: 1, undelivered: 0 });
    expect(s.threads).toMatchObject({ started: 1, ended: 1 });
    expect(t.entries[1]!.t).toBe(40);
    expect(formatTraceEntry(t.entries[1]!)).toBe('    0.040s  native       Foo:Bar (1) (unknown native: stand-in)');
  });

  it('keeps at most its limit and counts the rest', () => {
    const t = new Trace(() => 0, 3);
    for (let i = 0; i < 5; i++) t.add('log', 'x');
    expect(t.entries.length).toBe(3);
    expect(t.truncated).toBe(2);
  });
});
