/**
 * A synthetic database exercising what the real sample lacks: primaries in a `_Structures*` category, every
 * type code (6, 7, 9, 11 and the 0x44 flag included), Bool arrays, per-record element counts, null and
 * out-of-range links, a zero-field record and category names with `/`. Its sort keys use a made-up value for
 * `/` (41, one of the probable ones) that stands in for the real, unknown one.
 */
import { DEFAULT_P919_TABLE, type P919Table } from '../../src/hash/p919.ts';
import { buildGadb, type CategorySpec, type RecordSpec } from './build.ts';

/** The stand-in "true" table: the built-in one plus `/` = 41. */
export const TRUE_TABLE: P919Table = (() => {
  const values = Int8Array.from(DEFAULT_P919_TABLE.values);
  values['/'.charCodeAt(0)] = 41;
  const status = [...DEFAULT_P919_TABLE.status];
  status['/'.charCodeAt(0)] = 'verified';
  return { values, status };
})();

const stats = (damage: number, range: [number, number], tags: string[]): RecordSpec => ({
  fields: [
    { name: 'Damage', type: 2, values: [damage] },
    { name: 'Range', type: 7, values: [range] },
    { name: 'Tags', type: 4, values: tags },
  ],
});

const item = (name: string, o: { price: number; rare: boolean; bits: boolean[]; stats: number; next: { category: string; index: number } | null | number; quality: string; id: bigint; related: number }): RecordSpec => ({
  name,
  fields: [
    { name: 'Stats', type: 10, values: [{ link: { category: '_StructuresWeapon.Stats', index: o.stats } }] },
    { name: 'IsRare', type: 1, values: [o.rare] },
    { name: 'Bits', type: 1, values: o.bits },
    { name: 'Price', type: 3, values: [o.price] },
    { name: 'Id', type: 6, values: [o.id] },
    { name: 'Model', type: 0x44, values: [`models\\${name.toLowerCase()}.mdl`] },
    { name: 'Quality', type: 5, values: [o.quality] },
    { name: 'Offset', type: 8, values: [[0, 1, 0]] },
    { name: 'Blob', type: 9, values: [{ bytes: new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]) }] },
    { name: 'Fade', type: 13, values: [{ curve: [[0, 1], [1, 0.5]] }] },
    { name: 'Tint', type: 12, values: [{ curve: [[0, 0xff00ff00]] }] },
    { name: 'Next', type: 10, values: [typeof o.next === 'number' ? { raw: o.next } : { link: o.next }] },
    { name: 'Related', type: 11, values: Array.from({ length: o.related }, (_, i) => ({ link: { category: 'Inventory.Items', index: i } })) },
  ],
});

export const SYNTHETIC_CATEGORIES: CategorySpec[] = [
  {
    name: '_StructuresWeapon.Stats',
    typeName: 'Weapon.Stats',
    primaries: [stats(10, [0, 0], ['sharp', 'long']), stats(25.5, [1, 1], []), stats(7, [0, 0], ['blunt'])],
    records: [{ name: 'DEFAULT_RECORD_NAMEWeapon.Stats', ...stats(0, [0, 0], []) }],
  },
  {
    name: 'Inventory.Items',
    typeName: 'Inventory.Item',
    records: [
      item('Sword', { price: 100, rare: true, bits: [true, false, true], stats: 0, next: { category: 'Inventory.Items', index: 1 }, quality: 'High', id: 0x123456789abcdefn, related: 2 }),
      item('Axe', { price: -5, rare: false, bits: [false], stats: 2, next: null, quality: 'HIGH', id: -1n, related: 0 }),
      item('Bow', { price: 7, rare: false, bits: [], stats: 1, next: 0x00100007, quality: 'Low', id: 0n, related: 1 }),
    ],
  },
  { name: 'Empty.Things', records: [{ name: 'Nothing', fields: [] }] },
  {
    name: 'AI/Templates',
    typeName: 'AI.Template',
    records: [
      { name: 'Orc', fields: [{ name: 'CombatProp', type: 10, values: [{ link: { category: 'Inventory.Items', index: 0 } }] }, { name: 'Scale', type: 2, values: [1.5] }] },
      { name: 'Uruk/Captain', fields: [{ name: 'CombatProp', type: 10, values: [{ link: null }] }, { name: 'Scale', type: 2, values: [2] }] },
    ],
  },
];

/** The synthetic model (sort keys computed with `TRUE_TABLE`). */
export function syntheticModel() {
  return buildGadb({ root: 'GameDatabase', categories: SYNTHETIC_CATEGORIES, table: TRUE_TABLE });
}
