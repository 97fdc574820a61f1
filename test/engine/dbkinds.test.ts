import { describe, expect, it } from 'vitest';
import { DB_KINDS, DbKindResolver, isDbKindName } from '../../src/engine/dbkinds.ts';
import { closestNames, editDistance } from '../../src/engine/closest.ts';
import { buildScriptDb } from './support/script-db.ts';

const db = buildScriptDb([
  { name: 'Client/ClientFXList', records: ['Sparks', 'Smoke'] },
  { name: 'Client/ClientFXSequence', records: ['Intro'] },
  { name: 'Combat/FX/MaterialController/States', records: ['Burning', 'Frozen'] },
  { name: 'DynamicObjectGroup/StateTypes', typeName: 'DOG.StateType', records: ['Hidden', 'Alive', 'Occupied', 'Destroyed'] },
  { name: 'Inventory/Items', typeName: 'Inventory.Item', records: ['FM_Archer_UsingWarDrum'] },
  { name: 'Design/OutputChannel', records: ['Design', 'Audio'] },
  { name: 'Character/Models', records: ['Orc_Base'] },
  { name: 'Presentation/SlowMo', records: Array.from({ length: 332 }, (_, i) => `SlowMo${i}`) },
  { name: 'Debug/SlowMo', records: ['Test'] },
  { name: 'UI/NodeTags', records: ['A'] },
  { name: 'AI/NodeTags', records: ['B'] },
]);

describe('DB<Kind> table (seed 002)', () => {
  it('names the seed pairs', () => {
    const byKind = Object.fromEntries(DB_KINDS.map((k) => [k.kind, k]));
    expect(byKind['DBFX']!.category).toBe('Client/ClientFXList');
    expect(byKind['DBFXSeq']!.category).toBe('Client/ClientFXSequence');
    expect(byKind['DBMaterialState']).toMatchObject({ category: 'Combat/FX/MaterialController/States', records: 168 });
    expect(byKind['DBSlowMo']!.records).toBe(332);
    expect(byKind['DBAlignments']!.records).toBe(52);
    for (const k of ['DBBandType', 'DBCombatAppliedState', 'DBCharacterModels', 'DBCombatBuff']) expect(byKind[k], k).toBeDefined();
  });

  it('recognises kind globals', () => {
    expect(isDbKindName('DBDOGStateType')).toBe(true);
    expect(isDbKindName('DBfoo')).toBe(false);
    expect(isDbKindName('ScriptObject')).toBe(false);
  });
});

describe('resolving DB<Kind>.Name against a GameDB built with the editor', () => {
  const r = new DbKindResolver(db);

  it('resolves table kinds by their category (names with "/" need no calibration)', () => {
    const fx = r.record('DBFX', 'Smoke');
    expect(fx.ok && fx.record.path).toBe('Client/ClientFXList:Smoke');
    const st = r.record('DBMaterialState', 'frozen'); // names hash case-insensitively
    expect(st.ok && st.record.name).toBe('Frozen');
    expect(r.kind('DBMaterialState')).toMatchObject({ ok: true, match: 'table' });
    // The seed counted 168 records in the game's category: a smaller test database gets a warning.
    const k = r.kind('DBMaterialState');
    expect(k.ok && k.warnings[0]).toMatch(/seed counted 168/);
  });

  it('resolves the rest by the rule: record type name, then joined name, last segment, plural', () => {
    expect(r.kind('DBDOGStateType')).toMatchObject({ ok: true, match: 'type-name' });
    const hidden = r.record('DBDOGStateType', 'Hidden');
    expect(hidden.ok && hidden.record.path).toBe('DynamicObjectGroup/StateTypes:Hidden');
    expect(r.kind('DBInventoryItem')).toMatchObject({ ok: true, match: 'type-name' });
    expect(r.kind('DBOutputChannel')).toMatchObject({ ok: true, match: 'last-segment' });
    expect(r.kind('DBCharacterModels')).toMatchObject({ ok: true, match: 'table' });
  });

  it('an open table row with the seed record count picks the category with that many records', () => {
    const k = r.kind('DBSlowMo');
    expect(k.ok && k.category.name).toBe('Presentation/SlowMo');
    expect(k.ok && k.match).toBe('record-count');
  });

  it('reports ambiguity instead of guessing', () => {
    const k = r.kind('DBNodeTag');
    expect(k.ok).toBe(false);
    expect(!k.ok && k.reason).toBe('ambiguous');
    expect(!k.ok && k.candidates.sort()).toEqual(['AI/NodeTags', 'UI/NodeTags']);
  });

  it('an unknown record is reported with the closest names', () => {
    const miss = r.record('DBDOGStateType', 'Hiden');
    expect(miss.ok).toBe(false);
    expect(!miss.ok && miss.reason).toBe('unknown-record');
    expect(!miss.ok && miss.closest[0]).toBe('Hidden');
    expect(!miss.ok && miss.message).toMatch(/no record "Hiden" in DynamicObjectGroup\/StateTypes .*closest: Hidden/);
  });

  it('an unknown kind is reported with the closest category names', () => {
    const miss = r.record('DBMapCanvasSettings', 'CP_Offense');
    expect(miss.ok).toBe(false);
    expect(!miss.ok && miss.reason).toBe('unknown-kind');
    const fxl = r.record('DBClientFXLst', 'x');
    expect(!fxl.ok && fxl.closest).toContain('ClientFXList');
  });

  it('a table kind whose category the database lacks says which category it wanted', () => {
    const k = new DbKindResolver(buildScriptDb([{ name: 'Other', records: ['x'] }])).kind('DBFX');
    expect(k).toMatchObject({ ok: false, reason: 'table-category-missing' });
    expect(!k.ok && k.message).toMatch(/reads category Client\/ClientFXList/);
  });

  it('a user override names the category', () => {
    const o = new DbKindResolver(db, new Map([['DBNodeTag', 'AI/NodeTags']]));
    const rec = o.record('DBNodeTag', 'B');
    expect(rec.ok && rec.record.path).toBe('AI/NodeTags:B');
  });
});

describe('closest names', () => {
  it('edit distance', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('abc', 'abc')).toBe(0);
  });
  it('suggests near names, never unrelated ones', () => {
    expect(closestNames('Hiden', ['Hidden', 'Alive', 'Occupied'])).toEqual(['Hidden']);
    expect(closestNames('zzzzzz', ['Hidden', 'Alive'])).toEqual([]);
  });
});
