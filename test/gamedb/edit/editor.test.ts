import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { verifyGadb } from '../../../src/formats/gadb/index.ts';
import type { Gadb } from '../../../src/formats/gadb/types.ts';
import { GadbEditor } from '../../../src/gamedb/edit/editor.ts';
import { diffCount, diffGadb, formatDiffText } from '../../../src/gamedb/edit/diff.ts';
import { notesFor } from '../../../src/gamedb/edit/notes.ts';
import { categoryName, recordFields, type RecordAddress, type RecordField } from '../../../src/gamedb/edit/model.ts';
import { p919 } from '../../../src/hash/p919.ts';
import { propertySeed } from '../../support/fixtures.ts';
import { gen, parseGadb, real, realBytes, writeGadb } from './support/dbs.ts';

/** Writes, checks `verifyGadb` finds no error, and parses again. */
function roundTrip(g: Gadb): { bytes: Uint8Array; g: Gadb } {
  const bytes = writeGadb(g);
  const errors = verifyGadb(bytes).filter((i) => i.severity === 'error');
  expect(errors.map((e) => `${e.rule}: ${e.message}`)).toEqual([]);
  return { bytes, g: parseGadb(bytes) };
}

/** The first secondary record with a field of the given type name (and count predicate). */
function findFieldOfType(e: GadbEditor, type: string, countOk: (n: number) => boolean = (n) => n === 1): { a: RecordAddress; f: RecordField } {
  const g = e.gadb;
  const ix = e.index;
  for (let r = 0; r < g.records.count; r++) {
    const c = ix.recordCategory[r]!;
    const i = r - ix.categoryFirstRecord[c]!;
    if (i < g.categories[c]!.primaryCount) continue;
    for (const f of recordFields(g, r)) if (f.info?.name === type && countOk(f.count)) return { a: { category: c, index: i, record: r }, f };
  }
  throw new Error(`no ${type} field`);
}
const hex = (h: number) => '0x' + h.toString(16).toUpperCase().padStart(8, '0');

describe('GadbEditor on the real sample', () => {
  it('sets an Int, writes a verify-clean file that re-parses to the new value, and leaves the input model alone', () => {
    const g = real();
    const e = new GadbEditor(g);
    const a = e.record('FxGlobalProps', 'FxGlobalProps');
    expect(e.get(a, '0x3114F9A5')).toBe(6000);
    e.set(a, '0x3114F9A5', '6500');
    const out = roundTrip(e.finish());
    const e2 = new GadbEditor(out.g);
    expect(e2.get(e2.record('FxGlobalProps', 'FxGlobalProps'), '0x3114F9A5')).toBe(6500);
    expect(Buffer.from(writeGadb(g)).equals(Buffer.from(realBytes))).toBe(true);
    expect(out.bytes.length).toBe(realBytes.length);
    // Exactly one cell changed: the Int at file offset 0x2CD4 (golden layout, spec §4).
    const diffs: number[] = [];
    for (let i = 0; i < realBytes.length; i++) if (realBytes[i] !== out.bytes[i]) diffs.push(i);
    expect(diffs).toEqual([0x2cd4, 0x2cd5]);
    expect([out.bytes[0x2cd4], out.bytes[0x2cd5]]).toEqual([6500 & 0xff, 6500 >> 8]);
  });

  it('sets a Bool as its own bit: the 31 other bits of its word are untouched', () => {
    const e = new GadbEditor(real());
    const a = e.record('ClientFX.StandardGPUParticleSystem', '4');
    const base = e.index.recordCellStart[a.record]!;
    expect(e.gadb.cells[base]).toBe(0x43); // bits 0, 1, 6 set (spec §4)
    const bools = recordFields(e.gadb, a.record).filter((f) => f.info?.name === 'Bool');
    const bit2 = bools.find((f) => f.link === 2)!;
    const bit1 = bools.find((f) => f.link === 1)!;
    e.set(a, hex(bit2.hash), true);
    expect(e.gadb.cells[base]).toBe(0x47);
    e.set(a, hex(bit1.hash), 'false');
    expect(e.gadb.cells[base]).toBe(0x45);
    const out = roundTrip(e.finish());
    const e2 = new GadbEditor(out.g);
    expect(e2.get(e2.record('ClientFX.StandardGPUParticleSystem', '4'), hex(bit2.hash))).toBe(true);
  });

  it('interns a new text without changing the other cells that shared the old value', () => {
    const e = new GadbEditor(real());
    const a = e.record('ClientFX.Sound', '13');
    expect(e.get(a, 'KeyName')).toBe(''); // "" is shared by dozens of cells (spec §3.3)
    e.set(a, 'KeyName', 'MyKey');
    const before = real();
    const out = roundTrip(e.finish());
    const d = diffGadb(before, out.g);
    expect(formatDiffText(d)).toEqual(['~ ClientFX.Sound/13.0x267D8BCA: "" → "MyKey"']);
  });

  it('sets a StringEnum by name, a Vector3 and a curve by value', () => {
    const e = new GadbEditor(real());
    const a = e.record('ClientFX.Sound', '13');
    const en = hex(602391987);
    expect(e.get(a, en)).toBe('Follow');
    e.set(a, en, 'Quad'); // an enum text already in the block is reused
    const v = findFieldOfType(e, 'Vector3');
    e.set(v.a, hex(v.f.hash), '1, 2.5, -3');
    const c = findFieldOfType(e, 'FloatCurve');
    e.set(c.a, hex(c.f.hash), [[0, 1], [0.5, 2], [1, 0]]);
    const out = roundTrip(e.finish());
    const e2 = new GadbEditor(out.g);
    expect(e2.get(e2.record('ClientFX.Sound', '13'), en)).toBe('Quad');
    expect(e2.get({ ...v.a }, hex(v.f.hash))).toEqual([1, 2.5, -3]);
    expect(e2.get({ ...c.a }, hex(c.f.hash))).toEqual([[0, 1], [0.5, 2], [1, 0]]);
  });

  it('refuses an element past the field count and a value of the wrong shape', () => {
    const e = new GadbEditor(real());
    const a = e.record('FxGlobalProps', 'FxGlobalProps');
    expect(() => e.set(a, '0xCA5E75DD', null, { index: 15 })).toThrow(/outside the field's 15 element/);
    expect(() => e.set(a, '0x3114F9A5', 'abc')).toThrow(/32-bit integer/);
    expect(() => e.set(a, 'NoSuchField', 1)).toThrow(/has no field/);
  });

  it('warns when a link targets a category the field never points into elsewhere', () => {
    const e = new GadbEditor(real());
    const a = e.record('FxGlobalProps', 'FxGlobalProps');
    const ok = e.set(a, '0xCA5E75DD', 'ClientFX.Sound/14', { index: 0 });
    expect(ok.filter((m) => m.severity === 'warning')).toEqual([]);
    const bad = e.set(a, '0xCA5E75DD', 'FxGlobalProps/FxGlobalProps', { index: 1 });
    expect(bad.filter((m) => m.severity === 'warning').map((m) => m.message).join()).toMatch(/points into ClientFX\./);
    const out = roundTrip(e.finish());
    const e2 = new GadbEditor(out.g);
    const links = e2.get(e2.record('FxGlobalProps', 'FxGlobalProps'), '0xCA5E75DD') as unknown[];
    expect(links.slice(0, 2).map((l) => e2.format(l as never))).toEqual(['ClientFX.Sound/14', 'FxGlobalProps/FxGlobalProps']);
  });

  it('changes an array count: the slot rule is recomputed, values kept, new elements null', () => {
    const e = new GadbEditor(real());
    const a = e.record('FxGlobalProps', 'FxGlobalProps');
    const old = (e.get(a, '0xCA5E75DD') as unknown[]).map((l) => e.format(l as never));
    e.setCount(a, '0xCA5E75DD', 17);
    let out = roundTrip(e.finish());
    let e2 = new GadbEditor(out.g);
    const now = (e2.get(e2.record('FxGlobalProps', 'FxGlobalProps'), '0xCA5E75DD') as unknown[]).map((l) => e2.format(l as never));
    expect(now).toEqual([...old, null, null]);
    e2.setCount(e2.record('FxGlobalProps', 'FxGlobalProps'), '0xCA5E75DD', 2);
    out = roundTrip(e2.finish());
    e2 = new GadbEditor(out.g);
    expect(e2.gadb.records.cellCount[0]).toBe(19 - 13);
    expect(e2.get(e2.record('FxGlobalProps', 'FxGlobalProps'), '0x3114F9A5')).toBe(6000);
  });

  it('adds, renames and removes records, renumbering every link; adds a category', () => {
    const e = new GadbEditor(real());
    e.addRecord('ClientFX.Sound', '15');
    e.renameRecord(e.record('ClientFX.Sound', '13'), '99');
    const warnings = e.removeRecord(e.record('ClientFX.Sound', '14'));
    expect(warnings.map((w) => w.message)).toEqual(['linked to ClientFX.Sound/14; the link is now null']);
    e.addCategory('ClientFX.Sound2', 'ClientFX.Sound');
    e.addRecord('ClientFX.Sound2', 'x', { from: 'ClientFX.Sound/99' });
    const out = roundTrip(e.finish());
    const e2 = new GadbEditor(out.g);
    const links = (e2.get(e2.record('FxGlobalProps', 'FxGlobalProps'), '0xCA5E75DD') as unknown[]).map((l) => e2.format(l as never));
    expect(links[13]).toBe('ClientFX.Sound/99');
    expect(links[14]).toBe(null);
    expect(links[0]).toBe('ClientFX.CameraShake/0');
    expect(e2.get(e2.record('ClientFX.Sound2', 'x'), 'StartTime')).toBeCloseTo(0.024, 6);
    expect(out.g.header.recordCount).toBe(17);
    const d = diffGadb(real(), out.g);
    expect(d.categoriesAdded).toEqual(['ClientFX.Sound2']);
    expect(d.recordsAdded.sort()).toEqual(['ClientFX.Sound/15', 'ClientFX.Sound/99', 'ClientFX.Sound2/x']);
    expect(d.recordsRemoved.sort()).toEqual(['ClientFX.Sound/13', 'ClientFX.Sound/14']);
  });

  it('shows the seed\'s field notes when such a field is edited', () => {
    expect(notesFor('Client/PlayerMovement', p919('BaseSpeedMultiplier')).map((n) => n.match)).toEqual(['traced']);
    expect(notesFor('Client/PlayerMovement', p919('KeyName'))).toEqual([]);
    expect(notesFor('_StructuresCombatAttackData', p919('AOEOnStart'))[0]!.note).toMatch(/next attack/);
    const e = new GadbEditor(real());
    e.addCategory('AudioHooks', 'ClientFX.Sound');
    const a = e.addRecord('AudioHooks', 'Hook', { from: 'ClientFX.Sound/13' });
    const msgs = e.set(a, 'StartTime', 1);
    expect(msgs.some((m) => m.severity === 'note' && /audio thread/.test(m.message))).toBe(true);
  });

  it('property: any set of Int/Float/Bool edits verifies and re-parses to exactly the edited values', () => {
    const seed = propertySeed();
    const g0 = real();
    const probe = new GadbEditor(g0);
    const targets: Array<{ a: RecordAddress; f: RecordField }> = [];
    for (let r = 0; r < g0.records.count; r++) {
      const c = probe.index.recordCategory[r]!;
      const a = { category: c, index: r - probe.index.categoryFirstRecord[c]!, record: r };
      for (const f of recordFields(g0, r)) if (f.count === 1 && ['Int', 'Float', 'Bool'].includes(f.info?.name ?? '')) targets.push({ a, f });
    }
    const edit = fc.record({ t: fc.nat({ max: targets.length - 1 }), i: fc.integer(), x: fc.float({ noNaN: true }), b: fc.boolean() });
    fc.assert(
      fc.property(fc.array(edit, { minLength: 1, maxLength: 12 }), (edits) => {
        const e = new GadbEditor(g0);
        const want = new Map<string, unknown>();
        for (const ed of edits) {
          const { a, f } = targets[ed.t]!;
          const v = f.info!.name === 'Int' ? ed.i : f.info!.name === 'Float' ? ed.x : ed.b;
          e.set(a, hex(f.hash), v);
          want.set(`${a.record}:${f.hash}`, e.get(a, hex(f.hash)));
        }
        const bytes = writeGadb(e.finish());
        expect(verifyGadb(bytes).filter((i) => i.severity === 'error')).toEqual([]);
        const e2 = new GadbEditor(parseGadb(bytes));
        for (const [k, v] of want) {
          const [r, h] = k.split(':').map(Number) as [number, number];
          const c = e2.index.recordCategory[r]!;
          expect(e2.get({ category: c, index: r - e2.index.categoryFirstRecord[c]!, record: r }, hex(h))).toEqual(v);
        }
        expect(diffCount(diffGadb(g0, e2.gadb))).toBeLessThanOrEqual(want.size);
      }),
      { seed, numRuns: 60 },
    );
  });
});

describe('GadbEditor on a generated database (every type, primaries, arrays)', () => {
  it('edits every value type, changes a count, adds/renames/removes, and the file verifies and re-parses', () => {
    const g = gen();
    const e = new GadbEditor(g);
    const values: Record<string, unknown> = {
      Int: -7,
      Float: 2.5,
      Bool: true,
      String: 'edited text',
      StringEnum: 'SomeEnumValue',
      Int64: '-1234567890123',
      FloatPair: [0.25, 4],
      Vector3: [1, 2, 3],
      Vector3Curve: [[0, 1, 2, 3], [1, 4, 5, 6]],
    };
    const set: Array<{ a: RecordAddress; hash: number; v: unknown }> = [];
    let changed = 0;
    for (const [type, v] of Object.entries(values)) {
      const { a, f } = findFieldOfType(e, type);
      const before = JSON.stringify(e.get(a, hex(f.hash)), (_k, x) => (typeof x === 'bigint' ? String(x) : x));
      e.set(a, hex(f.hash), v);
      if (JSON.stringify(e.get(a, hex(f.hash)), (_k, x) => (typeof x === 'bigint' ? String(x) : x)) !== before) changed++;
      set.push({ a, hash: f.hash, v: e.get(a, hex(f.hash)) });
    }
    const link = findFieldOfType(e, 'RecordLink');
    const target = e.label({ category: link.a.category, index: link.a.index, record: link.a.record });
    const linkBefore = e.format(e.get(link.a, hex(link.f.hash)) as never);
    e.set(link.a, hex(link.f.hash), target);
    if (linkBefore !== target) changed++;
    const arr = findFieldOfType(e, 'Int', (n) => n > 1);
    const arrLabel = e.label(arr.a);
    e.setCount(arr.a, hex(arr.f.hash), arr.f.count + 3);
    const out = roundTrip(e.finish());
    const e2 = new GadbEditor(out.g);
    for (const s of set) expect(e2.get(s.a, hex(s.hash))).toEqual(s.v);
    expect(e2.get(e2.resolveRecordPath(arrLabel), hex(arr.f.hash))).toHaveLength(arr.f.count + 3);
    expect(e2.format(e2.get(link.a, hex(link.f.hash)) as never)).toBe(target);
    // One line per changed value; a count change is one line (the whole array, old → new).
    expect(diffCount(diffGadb(gen(), out.g))).toBe(changed + 1);
    expect(changed).toBeGreaterThanOrEqual(8);

    // Structural edits on the generated file.
    const cat = categoryName(out.g, link.a.category);
    const a = e2.addRecord(cat, 'ScryAddedRecord');
    e2.renameRecord(a, 'ScryRenamed');
    e2.removeRecord(e2.record(cat, 'ScryRenamed'));
    const out2 = roundTrip(e2.finish());
    expect(diffCount(diffGadb(out.g, out2.g))).toBe(0);
  });
});
