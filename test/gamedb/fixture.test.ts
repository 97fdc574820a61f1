/**
 * The engine's view of the real sample (`landmine_curse.fxp`) against its reviewed golden parse
 * (`landmine_curse.expected.json`, made with an independent parser) and the spec's listing.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Database, DbRecord, NameDictionary, type CurveKey, type EnumValue } from '../../src/gamedb/index.ts';
import { p919 } from '../../src/hash/p919.ts';
import { BUILTIN_NAMES_URL, loadBuiltinNames } from '../../src/node/gamedb.ts';
import { loadFixture, loadJsonFixture } from '../support/fixtures.ts';

interface ExpectedField {
  decl: number;
  hash: number;
  type: number;
  count: number;
  link: number;
  name?: string;
  value?: boolean;
  values?: unknown[];
}
interface ExpectedRecord {
  name: string;
  cellCount: number;
  descriptorCount: number;
  firstDescriptor: number;
  cells: number[];
  fields: ExpectedField[];
}
interface ExpectedCategory {
  name: string;
  primaryCount: number;
  secondaryCount: number;
  sortKey: number;
  records: ExpectedRecord[];
}

const expected = loadJsonFixture<{ categories: ExpectedCategory[] }>('gadb', 'landmine_curse.expected.json');
const db = Database.open(loadFixture('gadb', 'landmine_curse.fxp'), { names: loadBuiltinNames() });

/** The golden file's element, in the shape the Database decodes to. */
function expectedElement(f: ExpectedField, i: number): unknown {
  const v = f.values![i] as Record<string, unknown> | number;
  if (typeof v === 'number') return f.type === 2 ? Math.fround(v) : v;
  if ('text' in v) return f.type === 5 ? { text: v['text'], hash: p919(v['text'] as string) } : v['text'];
  if ('target' in v) return (v['target'] as string).replace('/', ':');
  const data = v['data'] as number[] | number[][];
  if (f.type === 8) return (data as number[]).map(Math.fround);
  return (data as number[][]).map(([t, ...rest]) => ({ time: Math.fround(t!), value: f.type === 16 ? rest.map(Math.fround) : f.type === 14 ? rest : f.type === 13 ? Math.fround(rest[0]!) : rest[0] }));
}

function actualElement(v: unknown): unknown {
  if (v instanceof DbRecord) return v.path;
  if (Array.isArray(v) && v.length > 0 && typeof v[0] === 'object') return (v as CurveKey[]).map((k) => ({ time: k.time, value: Array.isArray(k.value) ? [...k.value] : k.value }));
  if (Array.isArray(v)) return [...v];
  return v;
}

describe('Database over landmine_curse.fxp', () => {
  it('prints 6000 for FxGlobalProps.FxGlobalProps 0x3114F9A5 (the issue\'s check)', () => {
    const r = db.getRecord('FxGlobalProps', 'FxGlobalProps');
    expect(r.get(0x3114f9a5)).toBe(6000);
    expect(r.getInt('0x3114F9A5')).toBe(6000);
  });

  it('finds every category by name, by hash and by 0x literal, in stored order, with the golden counts', () => {
    expect(db.categories.map((c) => c.name)).toEqual(expected.categories.map((c) => c.name));
    expected.categories.forEach((c, ordinal) => {
      for (const ref of [c.name, c.name.toUpperCase(), c.sortKey, '0x' + c.sortKey.toString(16)]) {
        const found = db.findCategory(ref);
        expect(found?.ordinal, `${c.name} by ${ref}`).toBe(ordinal);
      }
      const cat = db.category(c.name);
      expect([cat.sortKey, cat.primaryCount, cat.secondaryCount, cat.typeName]).toEqual([c.sortKey, c.primaryCount, c.secondaryCount, c.name]);
    });
    expect(db.findCategory('ClientFX.Nothing')).toBeUndefined();
    expect(db.findCategory(0x12345678)).toBeUndefined();
    expect(() => db.category('ClientFX.Nothing')).toThrow(/no category "ClientFX.Nothing"/);
  });

  it('finds every record by name and by name hash within its category only', () => {
    for (const c of expected.categories) {
      c.records.forEach((r, i) => {
        const rec = db.findRecord(c.name, r.name)!;
        expect(rec.path).toBe(`${c.name}:${r.name}`);
        expect(rec.indexInCategory).toBe(i);
        expect(db.findRecord(c.name, p919(r.name))?.index).toBe(rec.index);
        expect([rec.cellCount, rec.descriptorCount, rec.firstDescriptor]).toEqual([r.cellCount, r.descriptorCount, r.firstDescriptor]);
        expect(Array.from(rec.cells)).toEqual(r.cells);
      });
    }
    // Names repeat across categories: "8" is a Sprite, not a Sound.
    expect(db.findRecord('ClientFX.Sound', '8')).toBeUndefined();
    expect(db.findRecord('ClientFX.Sprite', '8')?.path).toBe('ClientFX.Sprite:8');
  });

  it('decodes every element of every field as the golden parse does', () => {
    let checked = 0;
    for (const c of expected.categories) {
      for (const r of c.records) {
        const rec = db.getRecord(c.name, r.name);
        const fields = rec.fields();
        expect(fields.length).toBe(r.fields.length);
        for (const f of r.fields) {
          const field = fields[f.decl]!;
          expect([field.hash, field.typeByte, field.count, field.link]).toEqual([f.hash, f.type, f.count, f.link]);
          if (f.type === 1) {
            expect(rec.getBool(f.hash)).toBe(f.value);
            checked++;
            continue;
          }
          for (let i = 0; i < f.count; i++) {
            expect(actualElement(rec.get(f.hash, i)), `${rec.path} ${field.label}[${i}]`).toEqual(expectedElement(f, i));
            checked++;
          }
        }
      }
    }
    // Every field use of every record (16 records over 12 runs): one check per element, one per Bool.
    const uses = expected.categories.flatMap((c) => c.records.flatMap((r) => r.fields.map((f) => (f.type === 1 ? 1 : f.count))));
    expect(checked).toBe(uses.reduce((a, b) => a + b, 0));
    expect(checked).toBeGreaterThan(700);
  });

  it('reads every element of every field through one cursor as the golden parse does', () => {
    const cur = db.cursor();
    let checked = 0;
    for (const c of expected.categories) {
      for (const r of c.records) {
        const rec = db.getRecord(c.name, r.name);
        cur.seek(rec.index);
        expect(cur.record).toBe(rec.index);
        expect(cur.fieldCount).toBe(r.fields.length);
        for (const f of r.fields) {
          expect(cur.nextField()).toBe(true);
          expect([cur.declIndex, cur.hash, cur.typeByte, cur.count]).toEqual([f.decl, f.hash, f.type, f.count]);
          if (f.type === 1) {
            expect(cur.value(0)).toBe(f.value);
            checked++;
            continue;
          }
          for (let i = 0; i < f.count; i++) {
            expect(actualElement(cur.value(i)), `${rec.path} ${f.hash.toString(16)}[${i}]`).toEqual(expectedElement(f, i));
            expect(cur.raw(i)).toBe(r.cells[f.link + i]);
            checked++;
          }
          expect(cur.value(f.count)).toBeUndefined();
          expect(cur.raw(f.count)).toBeUndefined();
        }
        expect(cur.nextField()).toBe(false);
        expect(cur.row).toBe(-1);
      }
    }
    const uses = expected.categories.flatMap((c) => c.records.flatMap((r) => r.fields.map((f) => (f.type === 1 ? 1 : f.count))));
    expect(checked).toBe(uses.reduce((a, b) => a + b, 0));
  });

  it('reads every record at once (readRecord) as the golden parse does', () => {
    const cur = db.cursor();
    let checked = 0;
    for (const c of expected.categories) {
      for (const r of c.records) {
        cur.seek(db.getRecord(c.name, r.name).index);
        const total = cur.readRecord();
        const { numbers, objects } = cur;
        let at = 0;
        for (const f of r.fields) {
          expect(cur.nextField() && cur.elementIndex).toBe(at);
          const base = f.type & 0x3f;
          for (let i = 0; i < f.count; i++, at++, checked++) {
            if (base === 1) expect(numbers[at]).toBe(f.value ? 1 : 0);
            else if (base === 10 || base === 11) expect(numbers[at]! < 0 ? null : db.record(numbers[at]!).path).toBe(expectedElement(f, i));
            else if (base === 2 || base === 3) expect(numbers[at]).toBe(expectedElement(f, i));
            else expect(actualElement(objects[at]), `${c.name}:${r.name} ${f.hash.toString(16)}[${i}]`).toEqual(expectedElement(f, i));
          }
        }
        expect(total).toBe(at);
      }
    }
    const uses = expected.categories.flatMap((c) => c.records.flatMap((r) => r.fields.map((f) => f.count)));
    expect(checked).toBe(uses.reduce((a, b) => a + b, 0));
  });

  it('cursor: at(index) jumps to a declared field, linkTarget gives the index of the record value() gives', () => {
    const cur = db.cursor();
    let links = 0;
    for (const c of expected.categories) {
      for (const r of c.records) {
        const rec = db.getRecord(c.name, r.name);
        cur.seek(rec.index);
        for (const f of [...r.fields].reverse()) {
          expect(cur.at(f.decl)).toBe(true);
          expect(cur.hash).toBe(f.hash);
          expect(cur.isLink).toBe((f.type & 0x3f) === 10 || (f.type & 0x3f) === 11);
          if (!cur.isLink) continue;
          for (let i = 0; i < f.count; i++) {
            const v = cur.value(i);
            const t = cur.linkTarget(i);
            if (v === null) expect(t).toBe(-1);
            else {
              expect(v).toBeInstanceOf(DbRecord);
              expect(t).toBe((v as DbRecord).index);
              expect((v as DbRecord).equals(db.record(t))).toBe(true);
              expect((rec.get(f.hash, i) as DbRecord).index).toBe(t);
            }
            links++;
          }
        }
        expect(cur.at(r.fields.length)).toBe(false);
        expect(cur.at(-1)).toBe(false);
      }
    }
    expect(links).toBeGreaterThan(0);
    expect(() => cur.seek(db.recordCount)).toThrow(/no record/);
    expect(() => cur.seek(-1)).toThrow(/no record/);
  });

  it('gives identical results by name, by hash and through a cached slot, on every field and past every count', () => {
    let compared = 0;
    for (const cat of db.categories) {
      for (const rec of cat.records()) {
        for (const f of rec.fields()) {
          const slot = db.slot(cat, f.hash);
          expect(slot.declIndex).toBe(f.declIndex);
          for (let i = 0; i <= f.count; i++) {
            const byHash = actualElement(rec.get(f.hash, i));
            expect(actualElement(rec.get(slot, i))).toEqual(byHash);
            if (f.name) expect(actualElement(rec.get(f.name, i))).toEqual(byHash);
            compared++;
          }
        }
      }
    }
    const uses = expected.categories.flatMap((c) => c.records.flatMap((r) => r.fields.map((f) => f.count + 1)));
    expect(compared).toBe(uses.reduce((a, b) => a + b, 0));
  });

  it('applies the slot rule: no value past the count, none for a count-0 field, the caller\'s default instead', () => {
    const rec = db.getRecord('FxGlobalProps', 'FxGlobalProps');
    const links = rec.field(0xca5e75dd)!;
    expect(links.count).toBe(15);
    expect(rec.getLink(0xca5e75dd, 14)?.path).toBe('ClientFX.Sound:14');
    expect(rec.getLink(0xca5e75dd, 15)).toBeUndefined();
    expect(rec.getInt(0x3114f9a5, 1, -7)).toBe(-7);
    expect(rec.getInt('NoSuchField', 0, 42)).toBe(42);
    const withMaterials = db.categories.flatMap((c) => c.records()).find((r) => r.has('Materials'))!;
    expect(withMaterials.count('Materials')).toBe(0);
    expect(withMaterials.get('Materials')).toBeUndefined();
    expect(withMaterials.getString('Materials', 0, 'dflt')).toBe('dflt');
    expect(() => rec.getFloat(0x3114f9a5)).toThrow(/is Int, not Float/);
  });

  it('reads Bools as bit link & 31 of cell link >> 5 (11 bools in bits 0..10, bits 0, 1 and 6 set)', () => {
    const rec = db.getRecord('ClientFX.StandardGPUParticleSystem', '4');
    expect(rec.cells[0]).toBe(0x43);
    const bools = rec.fields().filter((f) => f.typeName === 'Bool');
    expect(bools.map((f) => f.link).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    for (const f of bools) expect(f.value(), f.label).toBe([0, 1, 6].includes(f.link));
  });

  it('resolves the 15 links of FxGlobalProps to the effect elements "0".."14", and indexes them in reverse', () => {
    const rec = db.getRecord('FxGlobalProps', 'FxGlobalProps');
    const targets = rec.values(0xca5e75dd).map((v) => (v as DbRecord).name);
    expect(targets).toEqual(Array.from({ length: 15 }, (_, i) => String(i)));
    expect(rec.get(0xca5e75dd, 0)).toEqual(db.resolveLink(0x00600000));
    expect(db.decodeLink(0x00a00001)).toMatchObject({ categoryOrdinal: 10, index: 1 });
    expect(db.resolveLink(0xffffffff)).toBeNull();
    expect(db.resolveLink(0x00c00000)).toBeNull(); // category 12 is past the table
    expect(db.resolveLink(0x00a00002)).toBeNull(); // Sprite has 2 records
    for (const cat of db.categories) {
      for (const r of cat.records()) {
        const refs = r.referencedBy();
        if (r.name === 'FxGlobalProps') expect(refs).toEqual([]);
        else {
          expect(refs.length, r.path).toBe(1);
          expect(refs[0]!.record.path).toBe('FxGlobalProps:FxGlobalProps');
          expect(refs[0]!.element).toBe(Number(r.name));
        }
      }
    }
  });

  it('shows shared values: the cell counts behind each string-block value match the golden parse', () => {
    const byOffset = new Map<number, number>();
    for (const c of expected.categories)
      for (const r of c.records)
        for (const f of r.fields) for (const v of f.values ?? []) if (typeof v === 'object' && v && 'offset' in v) byOffset.set((v as { offset: number }).offset, (byOffset.get((v as { offset: number }).offset) ?? 0) + 1);
    expect(byOffset.get(24)).toBeGreaterThan(100); // "" serves dozens of fields
    for (const [offset, count] of byOffset) expect(db.sharedCount(offset), `sb+0x${offset.toString(16)}`).toBe(count);
    const sprite = db.getRecord('ClientFX.Sprite', '8');
    expect(sprite.field('AttachName')!.sharedCount()).toBe(byOffset.get(24));
    expect(sprite.field('StartTime')!.sharedCount()).toBeUndefined(); // a Float is in its cell, not shared
  });

  it('ships the 33 field names of the spec; each resolves a descriptor hash of the sample', () => {
    const text = readFileSync(BUILTIN_NAMES_URL, 'utf8');
    const names = new NameDictionary();
    const report = names.addText(text);
    expect(report.added).toBe(33);
    expect(report.unhashable).toEqual([]);
    const hashes = new Set(db.model.descriptors.declaredHash);
    for (const { hash, name } of names.entries()) expect(hashes.has(hash), name).toBe(true);
    expect(db.getRecord('ClientFX.Sprite', '8').field(0x267d8bca)!.label).toBe('KeyName');
    expect(db.getRecord('FxGlobalProps', 'FxGlobalProps').field(0x3114f9a5)!.label).toBe('0x3114F9A5');
  });

  it('gives a StringEnum its text and its P919 (what the engine\'s cell holds after loading)', () => {
    const e = db.getRecord('ClientFX.Sprite', '8').getEnum(0x23e7c5b3) as EnumValue;
    expect(e).toEqual({ text: 'Follow', hash: p919('Follow') });
  });
});
