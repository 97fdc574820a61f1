import { describe, expect, it } from 'vitest';
import { GadbEditor, makeGadbPatch, parseChangeFile } from '../../../src/index.ts';
import { conflictsOf, type ConflictRow } from '../../../src/gamedb/edit/conflicts.ts';
import { p919 } from '../../../src/hash/p919.ts';
import { real } from './support/dbs.ts';

const GLOBAL = 'FxGlobalProps/FxGlobalProps';
const SOUND = 'ClientFX.Sound/13';

function baseValue(record: string, field: string): unknown {
  const e = new GadbEditor(real());
  const [c, r] = [record.slice(0, record.lastIndexOf('/')), record.slice(record.lastIndexOf('/') + 1)];
  return e.get(e.record(c, r), field);
}

function row(rows: ConflictRow[], record: string, field: string): ConflictRow {
  // rows name a field by name when the namer knows it, else by hash: compare hashes
  const hash = field.startsWith('(') ? 0 : field.startsWith('0x') ? parseInt(field, 16) : p919(field);
  const found = rows.filter((r) => r.record === record && r.hash === hash && (hash !== 0 || r.field === field));
  expect(found, `${record}.${field}`).toHaveLength(1);
  return found[0]!;
}

describe('conflict view (several sources over one base)', () => {
  it('gives every source\'s value per field, the last source that touches a field wins, disagreements are conflicts', () => {
    const startBase = baseValue(SOUND, 'StartTime');
    expect(startBase).not.toBe(0.25);
    const a = parseChangeFile(['- set FxGlobalProps/FxGlobalProps.0x3114F9A5 = 100', '- set ClientFX.Sound/13.KeyName = "from a"', '- set ClientFX.Sound/13.StartTime = 0.25'].join('\n'), 'a.yaml');
    const b = parseChangeFile(['- set FxGlobalProps/FxGlobalProps.0x3114F9A5 = 200', '- set ClientFX.Sound/13.StartTime = 0.25'].join('\n'), 'b.yaml');
    const r = conflictsOf(real(), [
      { name: 'a.yaml', kind: 'changes', ops: a },
      { name: 'b.yaml', kind: 'changes', ops: b },
    ]);
    const x = row(r.rows, GLOBAL, '0x3114F9A5');
    expect(x.base).toBe(baseValue(GLOBAL, '0x3114F9A5'));
    expect(x.values).toEqual([{ touched: true, value: 100 }, { touched: true, value: 200 }]);
    expect([x.winner, x.merged, x.status]).toEqual([1, 200, 'conflict']);
    const k = row(r.rows, SOUND, 'KeyName');
    expect(k.values).toEqual([{ touched: true, value: 'from a' }, { touched: false }]);
    expect([k.winner, k.merged, k.status]).toEqual([0, 'from a', 'override']);
    const s = row(r.rows, SOUND, 'StartTime');
    expect([s.winner, s.merged, s.status]).toEqual([1, 0.25, 'agree']);
    expect(r.counts).toEqual({ override: 1, agree: 1, conflict: 1, interaction: 0 });

    // reversed load order: a wins
    const rev = conflictsOf(real(), [
      { name: 'b.yaml', kind: 'changes', ops: b },
      { name: 'a.yaml', kind: 'changes', ops: a },
    ]);
    expect(row(rev.rows, GLOBAL, '0x3114F9A5')).toMatchObject({ winner: 1, merged: 100, status: 'conflict' });
    const e = new GadbEditor(rev.merged);
    expect(e.get(e.record('FxGlobalProps', 'FxGlobalProps'), '0x3114F9A5')).toBe(100);
  });

  it('a later file that sets a field back to the base value wins it (the merged result holds the base value)', () => {
    const before = baseValue(GLOBAL, '0x3114F9A5');
    const a = parseChangeFile('- set FxGlobalProps/FxGlobalProps.0x3114F9A5 = 100', 'a.yaml');
    const b = parseChangeFile(`- set FxGlobalProps/FxGlobalProps.0x3114F9A5 = ${String(before)}`, 'b.yaml');
    const r = conflictsOf(real(), [
      { name: 'a.yaml', kind: 'changes', ops: a },
      { name: 'b.yaml', kind: 'changes', ops: b },
    ]);
    expect(row(r.rows, GLOBAL, '0x3114F9A5')).toMatchObject({ values: [{ touched: true, value: 100 }, { touched: true, value: before }], winner: 1, merged: before, status: 'conflict' });
  });

  it('a patch database loaded last wins every field of its records (H-EDIT-PATCH-RULE replace), also where it holds the base value', () => {
    const keyBase = baseValue(SOUND, 'KeyName');
    const ed = new GadbEditor(real());
    ed.set(ed.record('ClientFX.Sound', '13'), 'StartTime', 0.5);
    ed.finish();
    const patch = makeGadbPatch(real(), ed.gadb).patch;
    const changes = parseChangeFile(['- set ClientFX.Sound/13.StartTime = 0.25', '- set ClientFX.Sound/13.KeyName = "from a"'].join('\n'), 'a.yaml');
    const r = conflictsOf(real(), [
      { name: 'a.yaml', kind: 'changes', ops: changes },
      { name: 'p.gamedb_patch', kind: 'patch', patch },
    ]);
    expect(row(r.rows, SOUND, 'StartTime')).toMatchObject({ values: [{ touched: true, value: 0.25 }, { touched: true, value: 0.5 }], winner: 1, merged: 0.5, status: 'conflict' });
    expect(row(r.rows, SOUND, 'KeyName')).toMatchObject({ values: [{ touched: true, value: 'from a' }, { touched: true, value: keyBase }], winner: 1, merged: keyBase, status: 'conflict' });
  });

  it('records added and removed are rows of their own', () => {
    const a = parseChangeFile('- add ClientFX.Sound/NewSound from ClientFX.Sound/13', 'a.yaml');
    const b = parseChangeFile('- remove ClientFX.Sound/13', 'b.yaml');
    const r = conflictsOf(real(), [
      { name: 'a.yaml', kind: 'changes', ops: a },
      { name: 'b.yaml', kind: 'changes', ops: b },
    ]);
    expect(row(r.rows, 'ClientFX.Sound/NewSound', '(record)')).toMatchObject({ base: undefined, values: [{ touched: true, value: 'present' }, { touched: false }], winner: 0, status: 'override' });
    expect(row(r.rows, SOUND, '(record)')).toMatchObject({ base: 'present', values: [{ touched: false }, { touched: true, value: undefined }], winner: 1, merged: undefined, status: 'override' });
  });
});
