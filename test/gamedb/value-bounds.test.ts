/**
 * One decoder per value kind: the codec, the read API (`Database`) and the editor's value codec read a block
 * value through the same code, bounded by the value's own string-block item — not by the end of the block.
 */
import { describe, expect, it } from 'vitest';
import { FormatError } from '../../src/binary/errors.ts';
import { decodeGadbCurve, parseGadb, writeGadb } from '../../src/formats/gadb/index.ts';
import { gadbTypeInfo } from '../../src/formats/gadb/type-codes.ts';
import { Database, DbRecord } from '../../src/gamedb/index.ts';
import { decodeBlockValue } from '../../src/gamedb/edit/values.ts';
import { syntheticModel } from './synthetic.ts';

/** The synthetic model, with the key count of Sword's FloatCurve `Fade` (2 keys) raised by 2. */
function withInflatedCurve() {
  const g = parseGadb(writeGadb(syntheticModel()));
  const db = new Database(g);
  const sword = db.getRecord('Inventory.Items', 'Sword');
  const fade = sword.field('Fade')!;
  const key = sword.cells[fade.link]!;
  const data = g.strings.data.slice();
  const dv = new DataView(data.buffer);
  expect(dv.getUint32(key, true)).toBe(2);
  // The 4 keys (36 bytes) still fit in the block: only the item bound can catch it.
  expect(key + 4 + 4 * 8).toBeLessThanOrEqual(data.length);
  dv.setUint32(key, 4, true);
  const edited = { ...g, strings: { ...g.strings, data } };
  return { g: edited, key, typeByte: fade.typeByte };
}

describe('a FloatCurve whose key count runs past its item', () => {
  it('is refused by the codec', () => {
    const { g, key, typeByte } = withInflatedCurve();
    expect(() => decodeGadbCurve(g.strings, key, typeByte)).toThrow(FormatError);
  });

  it('is refused by the read API, not read into the next item', () => {
    const { g } = withInflatedCurve();
    const sword = new Database(g).getRecord('Inventory.Items', 'Sword');
    expect(() => sword.getCurve('Fade')).toThrow(FormatError);
  });

  it("is refused by the editor's value codec", () => {
    const { g, key, typeByte } = withInflatedCurve();
    expect(() => decodeBlockValue(g, gadbTypeInfo(typeByte)!.decoding, key)).toThrow(FormatError);
  });
});

/**
 * The synthetic model with Sword's `Price` declared 65535 elements: the record (in the model as written, and in
 * the edited one) and the field as declared before the edit.
 */
function withPriceCount65535() {
  const g = parseGadb(writeGadb(syntheticModel()));
  const sword = new Database(g).getRecord('Inventory.Items', 'Sword');
  const price = sword.field('Price')!;
  const elementCount = g.descriptors.elementCount.slice();
  elementCount[price.row] = 0xffff;
  const db = new Database({ ...g, descriptors: { ...g.descriptors, elementCount } });
  return { sword, price, db, record: db.getRecord('Inventory.Items', 'Sword') };
}

describe('reading a field is bounded by the cells the record holds, not by its declared count', () => {
  it('a descriptor whose element count was raised to 65535 presents only the elements that exist', () => {
    const { sword, price, record } = withPriceCount65535();
    const before = price.values();
    const field = record.field('Price')!;
    expect(field.count).toBe(0xffff);
    // values() walks presentCount elements: the cells from the field's link to the record's end, not 65535.
    expect(field.presentCount).toBe(sword.cellCount - price.link);
    const values = field.values();
    expect(values.length).toBe(field.presentCount);
    expect(values.slice(0, before.length)).toEqual(before);
  });

  it('the cursor presents the same elements and values as the object API', () => {
    const { sword, price, db, record } = withPriceCount65535();
    const field = record.field('Price')!;
    const cur = db.cursor().seek(sword.index);
    expect(cur.at(price.declIndex)).toBe(true);
    expect(cur.count).toBe(field.presentCount);
    const values: unknown[] = [];
    for (let e = 0; e < cur.count; e++) values.push(cur.value(e));
    expect(values).toEqual(field.values());
    expect(cur.value(cur.count)).toBeUndefined();
  });

  it('readRecord decodes such a record field by field: the present elements, in order, as the object API', () => {
    const { sword, price, db, record } = withPriceCount65535();
    const cur = db.cursor().seek(sword.index);
    const fields = record.fields();
    const present = fields.reduce((n, f) => n + f.presentCount, 0);
    expect(cur.readRecord()).toBe(present);
    const { numbers, objects } = cur;
    let at = 0;
    for (const f of fields) {
      expect(cur.nextField() && cur.elementIndex).toBe(at);
      for (const v of f.values()) {
        const got = cur.numeric ? numbers[at] : objects[at];
        expect(got, `${f.label}`).toEqual(typeof v === 'boolean' ? Number(v) : v instanceof DbRecord ? v.index : v === null ? -1 : v);
        at++;
      }
    }
    expect(at).toBe(present);
    // Price's 65535 declared elements: only those up to the record's last cell.
    expect(cur.at(price.declIndex) && cur.count).toBe(sword.cellCount - price.link);
  });
});
