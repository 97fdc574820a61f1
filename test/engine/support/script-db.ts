/**
 * Test GameDBs for the engine, built with the library's editor (`GadbEditor`) from an empty model: categories
 * with the given names and record types, each holding zero-field records with the given names. Names with `/`
 * (whose P919 value is unknown until calibration) get a sort key from a stand-in value for `/`, never the real
 * one; `Database` then finds them by text, as it does for any uncalibrated name.
 */
import { buildGadb } from '../../../src/formats/gadb/build.ts';
import { GadbEditor } from '../../../src/gamedb/edit/editor.ts';
import { Database } from '../../../src/gamedb/database.ts';
import type { Gadb } from '../../../src/formats/gadb/types.ts';
import { DEFAULT_P919_TABLE, P919_UNUSED_VALUES, p919, type P919Table } from '../../../src/hash/p919.ts';

export interface TestCategory {
  name: string;
  typeName?: string;
  records: string[];
}

/** The built-in table with a stand-in value for `/` (one of the unused values; not known to be the game's). */
const standInTable: P919Table = (() => {
  const values = DEFAULT_P919_TABLE.values.slice();
  const status = DEFAULT_P919_TABLE.status.slice();
  values['/'.charCodeAt(0)] = P919_UNUSED_VALUES[0]!;
  status['/'.charCodeAt(0)] = 'calibrated';
  return { values, status };
})();

export function sortKeyOf(name: string): number {
  return p919(name, { table: standInTable });
}

/** The database as a GADB model (to write it to a file). */
export function buildScriptGadb(categories: readonly TestCategory[]): Gadb {
  const editor = new GadbEditor(buildGadb({ rootName: 'GameDatabase', categories: [] }), { inPlace: true });
  for (const c of categories) {
    editor.addCategoryNamed(c.name, c.typeName ?? c.name.replaceAll('/', '.'), '', sortKeyOf(c.name));
    for (const r of c.records) editor.addRecord(c.name, r, { content: { rows: [], cells: new Uint32Array(0), flags: 0x08, unk0A: 0 } });
  }
  return editor.finish();
}

export function buildScriptDb(categories: readonly TestCategory[]): Database {
  return new Database(buildScriptGadb(categories));
}

/**
 * Categories holding every record the closed fort-assault source names (`DBDOGStateType.Hidden` …), laid out so
 * that the DB<Kind> rule finds them (record type names `DOG.StateType`, `Inventory.Item`, `AI.NodeTag`,
 * `Design.OutputChannel`). The real categories' names are not known; these are the test's own.
 */
export const FORT_ASSAULT_CATEGORIES: readonly TestCategory[] = [
  { name: 'DynamicObjectGroup/StateTypes', typeName: 'DOG.StateType', records: ['None', 'Hidden', 'Alive', 'Occupied', 'Destroyed'] },
  { name: 'Inventory/Items', typeName: 'Inventory.Item', records: ['FM_Archer_UsingWarDrum'] },
  { name: 'AI/NodeTags', typeName: 'AI.NodeTag', records: ['FA_Owner_Ranged', 'Role_WarDrum'] },
  { name: 'Design/OutputChannels', typeName: 'Design.OutputChannel', records: ['Design'] },
];

/** The same categories without the named records (`'DBDOGStateType.Hidden'`) or kinds (`'DBNodeTag'`). */
export function fortAssaultCategories(lacking: readonly string[] = []): TestCategory[] {
  const kindOf: Record<string, string> = { 'DOG.StateType': 'DBDOGStateType', 'Inventory.Item': 'DBInventoryItem', 'AI.NodeTag': 'DBNodeTag', 'Design.OutputChannel': 'DBOutputChannel' };
  return FORT_ASSAULT_CATEGORIES.filter((c) => !lacking.includes(kindOf[c.typeName!]!)).map((c) => ({
    ...c,
    records: c.records.filter((r) => !lacking.includes(`${kindOf[c.typeName!]}.${r}`)),
  }));
}
