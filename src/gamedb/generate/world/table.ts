/**
 * The P919 value of `/`. The game's category names contain `/` (`AI/Templates`, `Faction/Global`), and a category's
 * sort key is P919 of its name, so a database with such names needs a table value for `/`. No public (string, hash)
 * pair pins it (spec gadb.md §1.2): a calibrated table is used when the caller has one; otherwise a PROVISIONAL
 * table gives `/` the value 41 — the one unused value next to `\` = 42 — under the named hypothesis below. Such a
 * database is self-consistent but its sort keys may differ from the game's.
 */
import { DEFAULT_P919_TABLE, type LutStatus, type P919Table } from '../../../hash/p919.ts';

export const SLASH_HYPOTHESIS = {
  id: 'world.slashValue',
  statement: 'P919 LUT["/"] = 41 (the unused value next to "\\\\" = 42); provisional, no real pair pins it',
  status: 'provisional',
} as const;

const SLASH = 0x2f;

/** The provisional table: the verified entries plus `/` = 41, marked as calibrated from the hypothesis. */
export const PROVISIONAL_SLASH_TABLE: P919Table = (() => {
  const values = Int8Array.from(DEFAULT_P919_TABLE.values);
  const status: LutStatus[] = [...DEFAULT_P919_TABLE.status];
  values[SLASH] = 41;
  status[SLASH] = 'calibrated';
  return { values, status, calibrationSource: `PROVISIONAL: hypothesis ${SLASH_HYPOTHESIS.id} ("/" = 41), not calibrated from real data` };
})();

/** Whether a table has a usable value for `/`. */
export function tableKnowsSlash(table: P919Table): boolean {
  const s = table.status[SLASH];
  return s === 'verified' || s === 'calibrated';
}

/** The table to write `/` names with: `table` when it knows `/`, else the provisional one (and which was used). */
export function slashTable(table?: P919Table): { table: P919Table; provisional: boolean } {
  if (table && tableKnowsSlash(table)) return { table, provisional: table === PROVISIONAL_SLASH_TABLE };
  return { table: PROVISIONAL_SLASH_TABLE, provisional: true };
}
