/**
 * The engine's semantics on a synthetic database (built by `build.ts`, written by the codec, read back): what
 * the real sample cannot show — primaries, types 6/7/9/11 and 0x44, Bool arrays, per-record counts, null and
 * out-of-range links, zero-field records, names with `/`.
 */
import { describe, expect, it } from 'vitest';
import { writeGadb } from '../../src/formats/gadb/index.ts';
import { Database, DbRecord, FieldTypeError, SlotMismatchError, formatValue, searchDatabase, summarizeDatabase, valueToJson } from '../../src/gamedb/index.ts';
import { calibrateP919 } from '../../src/hash/calibrate.ts';
import { p919 } from '../../src/hash/p919.ts';
import { syntheticModel, TRUE_TABLE } from './synthetic.ts';

const bytes = writeGadb(syntheticModel());
const db = Database.open(bytes);
const items = db.category('Inventory.Items');
const sword = db.getRecord('Inventory.Items', 'Sword');
const axe = db.getRecord('Inventory.Items', 'Axe');
const bow = db.getRecord('Inventory.Items', 'Bow');

describe('lookups', () => {
  it('orders categories by sort key and secondaries by P919 of their names; binary search agrees with a scan', () => {
    const keys = db.categories.map((c) => c.sortKey);
    expect(keys).toEqual([...keys].sort((a, b) => a - b));
    for (const cat of db.categories) {
      for (const r of cat.records()) {
        if (r.isPrimary) continue;
        const byScan = cat.records().find((x) => !x.isPrimary && x.name!.toLowerCase() === r.name!.toLowerCase());
        expect(cat.findRecord(r.name!)?.index).toBe(byScan?.index);
        expect(cat.findRecord(r.name!.toUpperCase())?.index).toBe(r.index); // the hash folds case
      }
      expect(cat.findRecord('NoSuchRecord')).toBeUndefined();
    }
    expect(items.records().map((r) => r.name)).toEqual(['Axe', 'Bow', 'Sword'].sort((a, b) => p919(a) - p919(b)));
  });

  it('matches names with an uncalibrated `/` by text, and by hash once the table is calibrated', () => {
    expect(() => db.hash('AI/Templates')).toThrow(/'\/'/);
    const cat = db.findCategory('ai/templates')!;
    expect(cat.name).toBe('AI/Templates');
    expect(db.findRecord(cat, 'Uruk/Captain')?.path).toBe('AI/Templates:Uruk/Captain');
    const pairs = db.categories.map((c) => ({ text: c.name, hash: c.sortKey }));
    const { table, derived } = calibrateP919(pairs);
    expect(derived.map((d) => [d.character, d.value])).toEqual([['/', 41]]);
    const calibrated = Database.open(bytes, { table });
    expect(calibrated.findCategory('AI/Templates')?.ordinal).toBe(cat.ordinal);
    expect(calibrated.findCategory(p919('AI/Templates', { table: TRUE_TABLE }))?.ordinal).toBe(cat.ordinal);
    expect(calibrated.findRecord('AI/Templates', p919('Uruk/Captain', { table: TRUE_TABLE }))?.name).toBe('Uruk/Captain');
  });

  it('addresses primaries as #N, with no name, ahead of the secondaries', () => {
    const s = db.category('_StructuresWeapon.Stats');
    expect([s.primaryCount, s.secondaryCount, s.isStructures, s.typeName]).toEqual([3, 1, true, 'Weapon.Stats']);
    const p1 = s.findRecord('#1')!;
    expect([p1.isPrimary, p1.name, p1.label, p1.nameHash]).toEqual([true, undefined, '#1', undefined]);
    expect(s.findRecord('#3')?.name).toBe('DEFAULT_RECORD_NAMEWeapon.Stats');
    expect(s.findRecord('#4')).toBeUndefined();
    expect(s.findRecord('DEFAULT_RECORD_NAMEWeapon.Stats')?.indexInCategory).toBe(3);
    expect(db.categoriesOfType('weapon.stats').map((c) => c.name)).toEqual(['_StructuresWeapon.Stats']);
  });
});

describe('typed getters and the slot rule', () => {
  it('decodes every type', () => {
    expect(sword.getInt('Price')).toBe(100);
    expect(axe.getInt('Price')).toBe(-5);
    expect(sword.getInt64('Id')).toBe(0x123456789abcdefn);
    expect(axe.getInt64('Id')).toBe(-1n);
    expect(sword.getString('Model')).toBe('models\\sword.mdl');
    expect(sword.field('Model')!.isResourcePath).toBe(true);
    expect(sword.field('Model')!.typeName).toBe('String|ResourcePath');
    expect(sword.getEnum('Quality')).toEqual({ text: 'High', hash: p919('High') });
    expect(axe.getEnum('Quality')!.hash).toBe(p919('High')); // HIGH and High are one value
    expect(sword.getVector3('Offset')).toEqual([0, 1, 0]);
    expect(sword.get('Blob')).toEqual(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]));
    expect(sword.getCurve('Fade')).toEqual([{ time: 0, value: 1 }, { time: 1, value: 0.5 }]);
    expect(sword.getCurve('Tint')).toEqual([{ time: 0, value: 0xff00ff00 }]);
    const primary = db.category('_StructuresWeapon.Stats').at(1)!;
    expect(primary.getFloat('Damage')).toBe(25.5);
    expect(primary.getFloatPair('Range')).toEqual([1, 1]);
  });

  it('reads a Bool array as consecutive bits and gives the default past the count', () => {
    expect([0, 1, 2].map((i) => sword.getBool('Bits', i))).toEqual([true, false, true]);
    expect(sword.getBool('Bits', 3, true)).toBe(true);
    expect(sword.getBool('IsRare')).toBe(true);
    expect(axe.getBool('IsRare', 0, true)).toBe(false);
    expect(bow.count('Bits')).toBe(0);
    expect(bow.getBool('Bits', 0, true)).toBe(true);
  });

  it('lets element counts differ per record, each record through its own run', () => {
    const s = db.category('_StructuresWeapon.Stats');
    expect(s.records().map((r) => r.count('Tags'))).toEqual([2, 0, 1, 0]);
    expect(s.at(0)!.values('Tags')).toEqual(['sharp', 'long']);
    expect(s.at(1)!.getString('Tags', 0, 'none')).toBe('none');
    expect(s.at(2)!.getString('Tags')).toBe('blunt');
  });

  it('refuses a getter of the wrong type, and a slot applied to a record of another layout', () => {
    expect(() => sword.getFloat('Price')).toThrow(FieldTypeError);
    const slot = db.slot('Inventory.Items', 'Price');
    expect(axe.getInt(slot)).toBe(-5);
    const orc = db.getRecord('AI/Templates', 'Orc');
    expect(orc.getInt(slot, 0, 9)).toBe(9); // the cached index is past Orc's two fields: no value
    expect(() => orc.getLink(db.slot('Inventory.Items', 'Stats'))).toThrow(SlotMismatchError); // index 0 is CombatProp there
    expect(() => db.slot('Inventory.Items', 'Nope')).toThrow(/no field/);
  });

  it('gives identical results by name and through cached slots on every field of every record', () => {
    let n = 0;
    for (const cat of db.categories) {
      for (const r of cat.records()) {
        for (const f of r.fields()) {
          const slot = db.slot(cat, f.hash);
          for (let i = 0; i <= f.count; i++) {
            expect(valueToJson(r.get(slot, i), f.type)).toEqual(valueToJson(r.get(f.hash, i), f.type));
            n++;
          }
        }
      }
    }
    expect(n).toBeGreaterThan(60);
  });

  it('reads a whole record at once (readRecord): each field\'s elements in order, numbers for Bool, Int, Float and links', () => {
    const cur = db.cursor().seek(sword.index);
    // Stats 1 + IsRare 1 + Bits 3 + Price, Id, Model, Quality, Offset, Blob, Fade, Tint, Next 1 each + Related 2.
    expect(cur.readRecord()).toBe(16);
    const { numbers, objects } = cur;
    const stats = db.category('_StructuresWeapon.Stats').at(0)!;
    expect(Array.from(numbers.subarray(0, 6))).toEqual([stats.index, 1, 1, 0, 1, 100]);
    expect(objects[6]).toBe(0x123456789abcdefn);
    expect(objects[7]).toBe('models\\sword.mdl');
    expect(objects[8]).toEqual({ text: 'High', hash: p919('High') });
    expect(objects[9]).toEqual([0, 1, 0]);
    expect(objects[10]).toEqual(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]));
    expect(objects[11]).toEqual([{ time: 0, value: 1 }, { time: 1, value: 0.5 }]);
    expect(objects[12]).toEqual([{ time: 0, value: 0xff00ff00 }]);
    // Links name records by their index in link order (the category's secondaries sorted by name hash).
    expect(Array.from(numbers.subarray(13, 16))).toEqual([items.at(1)!.index, items.at(0)!.index, items.at(1)!.index]);
    // Each field's place among them, and which of the two outputs holds it.
    const places: [number, boolean][] = [];
    while (cur.nextField()) places.push([cur.elementIndex, cur.numeric]);
    expect(places).toEqual([[0, true], [1, true], [2, true], [5, true], [6, false], [7, false], [8, false], [9, false], [10, false], [11, false], [12, false], [13, true], [14, true]]);
    expect(cur.at(3)).toBe(true);
    expect(cur.elementIndex).toBe(5);
    expect(cur.at(2) && cur.nextField() && cur.nextField() && cur.elementIndex).toBe(6); // at(2), then Price and Id
    // Axe's null link is -1; Bow's Bits field has no elements, its out-of-range link (ordinal 1, index 7) is -1.
    cur.seek(axe.index).readRecord();
    expect(cur.at(11) && cur.numbers[cur.elementIndex]).toBe(-1);
    expect(cur.seek(bow.index).readRecord()).toBe(12);
    expect(cur.at(11) && [cur.elementIndex, cur.numbers[cur.elementIndex]]).toEqual([10, -1]);
    expect(cur.seek(db.getRecord('Empty.Things', 'Nothing').index).readRecord()).toBe(0);
  });

  it('readRecord gives every element of every record as the object API does', () => {
    const cur = db.cursor();
    let n = 0;
    for (let r = 0; r < db.recordCount; r++) {
      const count = cur.seek(r).readRecord();
      const { numbers, objects } = cur;
      let at = 0;
      for (const f of db.record(r).fields()) {
        for (let i = 0; i < f.count; i++, at++) {
          const v = f.value(i);
          const expected = v instanceof DbRecord ? v.index : v === null ? -1 : typeof v === 'boolean' ? Number(v) : v;
          const numeric = [1, 2, 3, 10, 11].includes(f.typeByte & 0x3f);
          expect(numeric ? numbers[at] : objects[at], `${db.record(r).path} ${f.label}[${i}]`).toEqual(expected);
          n++;
        }
      }
      expect(count).toBe(at);
    }
    expect(n).toBeGreaterThan(50);
  });

  it('has no value for a zero-field record', () => {
    const nothing = db.getRecord('Empty.Things', 'Nothing');
    expect([nothing.descriptorCount, nothing.cellCount, nothing.fields().length]).toEqual([0, 0, 0]);
    expect(nothing.get('Price')).toBeUndefined();
    expect(db.category('Empty.Things').firstRecordWithFields()).toBeUndefined();
    expect(() => db.slot('Empty.Things', 'Price')).toThrow(/no field/);
  });
});

describe('record flags', () => {
  it('marks flag 0x10 records as native structures (read by the slot rule as a guess, H-REC-FLAGS)', () => {
    const model = syntheticModel();
    const orc = Database.open(writeGadb(model)).getRecord('AI/Templates', 'Orc').index;
    model.records.flags[orc] = 0x1a; // what every behaviour-graph record carries
    const flagged = Database.open(writeGadb(model));
    expect(flagged.record(orc).isNativeStructure).toBe(true);
    expect(flagged.record(orc).getFloat('Scale')).toBe(1.5);
    expect(sword.isNativeStructure).toBe(false);
  });
});

describe('links and the reverse index', () => {
  it('resolves primaries first, then secondaries; null and out-of-range links are null', () => {
    expect(sword.getLink('Stats')!.equals(db.category('_StructuresWeapon.Stats').at(0)!)).toBe(true);
    expect(bow.getLink('Stats')!.isPrimary).toBe(true);
    expect(sword.getLink('Next')!.path).toBe(`Inventory.Items:${items.at(1)!.name}`);
    expect(axe.getLink('Next')).toBeNull();
    expect(bow.getLink('Next')).toBeNull(); // category 1 index 7: past both sides
    expect(db.decodeLink(bow.field('Next')!.raw()!)).toMatchObject({ categoryOrdinal: 1, index: 7, nullReason: 'index-out-of-range' });
    expect(db.decodeLink(0xffffffff).nullReason).toBe('null');
    expect(db.decodeLink(0x7ff00000).nullReason).toBe('category-out-of-range');
    expect(db.getRecord('AI/Templates', 'Uruk/Captain').getLink('CombatProp')).toBeNull();
    expect(sword.values('Related').map((r) => (r as DbRecord).name)).toEqual([items.at(0)!.name, items.at(1)!.name]); // type 11 reads as a link
    const link = items.at(2)!.linkValue;
    expect(db.resolveLink(link)!.index).toBe(items.at(2)!.index);
  });

  it('resolves every link word as decodeLink does: each side of each category, past its end, past the table, ordinal 4095', () => {
    // decodeLink reads the categories' counts; linkTarget (the cursor's rule too) its table of spans, without a branch.
    const words = [0xffffffff, 0xfff00000, 0xffefffff, 0xfffffffe];
    for (let c = 0; c <= db.categories.length + 1; c++) {
      const n = c < db.categories.length ? db.categories[c]!.recordCount : 3;
      for (const index of [0, 1, n - 1, n, n + 1, 0x7ffff, 0xfffff]) if (index >= 0) words.push(((c << 20) | index) >>> 0);
    }
    let resolved = 0;
    for (const raw of words) {
      const expected = db.decodeLink(raw).target ?? -1;
      expect(db.linkTarget(raw), `0x${raw.toString(16)}`).toBe(expected);
      if (expected >= 0) resolved++;
    }
    expect(resolved).toBeGreaterThan(db.categories.length);
  });

  it('lists who links to a record, with field and element', () => {
    const refs = (r: DbRecord) => r.referencedBy().map((x) => `${x.record.path} ${x.field.hash === p919('Related') ? 'Related' : x.field.hash === p919('Next') ? 'Next' : x.field.hash === p919('CombatProp') ? 'CombatProp' : 'Stats'}[${x.element}]`);
    const first = items.at(0)!;
    const second = items.at(1)!;
    expect(refs(first)).toContain('AI/Templates:Orc CombatProp[0]');
    expect(refs(first)).toContain('Inventory.Items:Sword Related[0]');
    expect(refs(second)).toEqual(expect.arrayContaining(['Inventory.Items:Sword Related[1]', 'Inventory.Items:Sword Next[0]']));
    expect(refs(db.category('_StructuresWeapon.Stats').at(2)!)).toEqual(['Inventory.Items:Axe Stats[0]']);
    expect(db.referenceCount(db.getRecord('Empty.Things', 'Nothing'))).toBe(0);
    // Every non-null resolved link cell appears exactly once in the reverse index.
    let forward = 0;
    for (let r = 0; r < db.recordCount; r++) forward += db.record(r).links().filter((l) => l.target).length;
    let backward = 0;
    for (let r = 0; r < db.recordCount; r++) backward += db.referenceCount(db.record(r));
    expect(backward).toBe(forward);
  });
});

describe('shared values, search, summary, formatting', () => {
  it('counts the cells behind a shared value', () => {
    const zero = db.category('_StructuresWeapon.Stats').at(0)!.field('Range')!;
    expect(zero.sharedCount()).toBe(3); // (0, 0) behind primaries 0 and 2 and the placeholder
    expect(sword.field('Offset')!.sharedCount()).toBe(3);
    expect(sword.field('Model')!.sharedCount()).toBe(1);
  });

  it('finds names, hashes and string values', () => {
    const r = searchDatabase(db, 'sword');
    expect(r.hits.map((h) => h.kind)).toEqual(['record', 'value']);
    expect(searchDatabase(db, '0x' + p919('Price').toString(16)).hits.filter((h) => h.kind === 'field').length).toBe(1);
    expect(searchDatabase(db, 'uruk/').hits.map((h) => h.kind)).toEqual(['record']);
    expect(searchDatabase(db, 'e', { limit: 2 }).hits.length).toBe(2);
  });

  it('summarizes the figures the seed gives for the game database', () => {
    const s = summarizeDatabase(db);
    expect(s).toMatchObject({ rootName: 'GameDatabase', categories: 4, records: 10, primaries: 3, secondaries: 7, zeroFieldRecords: 1, placeholders: 1 });
    expect(s.structureCategories).toEqual({ total: 1, withPrimaries: 1 });
    expect(s.recordNames).toEqual({ distinct: 7, inSeveralCategories: 0 });
    // Sword 4 link cells, Axe 2, Bow 3, Orc 1, Uruk/Captain 1.
    expect(s.links).toEqual({ cells: 11, null: 2, toPrimary: 3, toSecondary: 5, unresolved: 1 });
  });

  it('formats values with the shortest f32 text and JSON that keeps 64-bit integers exact', () => {
    expect(formatValue(sword.get('Price'))).toBe('100');
    expect(formatValue(db.getRecord('AI/Templates', 'Orc').get('Scale'), db.getRecord('AI/Templates', 'Orc').field('Scale')!.type)).toBe('1.5');
    expect(valueToJson(sword.get('Id'))).toBe('81985529216486895');
    expect(valueToJson(sword.get('Stats'))).toEqual({ category: '_StructuresWeapon.Stats', record: '#0', link: '0x00300000' });
    expect(formatValue(sword.get('Quality'))).toBe(`High (0x${p919('High').toString(16).toUpperCase().padStart(8, '0')})`);
  });
});
