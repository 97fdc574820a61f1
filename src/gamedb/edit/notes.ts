/**
 * Field notes: what the seed note traced about who reads a field and when ("Who reads a field, and when",
 * "Changing values in a running game"). A value written to a file is seen by the game only when its reader runs
 * again; fields copied at start-up or on events need a reload or a new event. The editor attaches the matching
 * notes to every edit so a modder knows what to expect.
 *
 * `match: 'traced'` notes name the category and field the seed traced (addresses given); `match: 'category'`
 * notes name only a cache or copier whose exact fields the seed does not list, matched by category name, so they
 * are hints rather than facts.
 */
import { p919 } from '../../hash/p919.ts';

export interface FieldNote {
  /** Category name the note applies to (exact), or a pattern. */
  category: string | RegExp;
  /** Field names the note applies to; undefined = every field of the category. */
  fields?: readonly string[];
  /** When a change is seen. */
  note: string;
  /** `traced`: the seed names these fields and the copying code; `category`: a cache matched by category name only. */
  match: 'traced' | 'category';
}

/** The notes, as data (seed "Who reads a field, and when"). */
export const FIELD_NOTES: readonly FieldNote[] = [
  {
    category: 'Client/PlayerMovement',
    fields: ['BaseSpeedMultiplier', 'FallMinHeight', 'PlayerYawInterpolateTime'],
    note:
      'copied by 0x187F94C when a movement record is applied; applying the record it already holds returns without copying, so a change is seen only after a different movement record is applied and this one again (or after a reload)',
    match: 'traced',
  },
  {
    category: '_StructuresCombatAttackData',
    fields: ['AOE', 'AOEOnStart'],
    note: 'copied by 0x2DED44 at every attack start: a change applies from the next attack',
    match: 'traced',
  },
  {
    category: /AudioHooks/i,
    note: 'AudioHooks records are compiled by the audio thread at load: a change needs a reload',
    match: 'category',
  },
  {
    category: /^Combat\/Attack/i,
    note: 'the attack cache is compiled at start-up or load and does not refresh on its own: a change needs a reload',
    match: 'category',
  },
  {
    category: /Target/i,
    note: 'the targeting cache (0x1C0B634) is compiled at start-up or load: a change to targeting data needs a reload',
    match: 'category',
  },
  {
    category: /Material/i,
    note: 'the material-set cache (0x1B6190C) is compiled at start-up or load: a change to material sets needs a reload',
    match: 'category',
  },
  {
    category: /^Inventory\/Items/i,
    note: 'item prompt links are compiled at load: a change to an item link needs a reload',
    match: 'category',
  },
];

/** General notes by value kind (seed "Changing values in a running game"). */
export const KIND_NOTES = {
  pointer:
    'a float pair, vector or RecordLink is a pointer: a running copy of it sees the new value only after its next copy (the file edit points this cell at another value; cells that shared the old one are unchanged)',
} as const;

function fieldHash(name: string): number | undefined {
  try {
    return p919(name);
  } catch {
    return undefined;
  }
}

/** The notes that apply to `field` (by hash) of category `categoryName`. */
export function notesFor(categoryName: string, fieldHashValue: number): FieldNote[] {
  const out: FieldNote[] = [];
  for (const n of FIELD_NOTES) {
    const catOk = typeof n.category === 'string' ? n.category.toLowerCase() === categoryName.toLowerCase() : n.category.test(categoryName);
    if (!catOk) continue;
    if (n.fields && !n.fields.some((f) => fieldHash(f) === fieldHashValue >>> 0)) continue;
    out.push(n);
  }
  return out;
}
