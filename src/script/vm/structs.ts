/**
 * HavokScript structures (`hstructure` declarations) at run time: the declarations a chunk carries (`specs/hks.md`
 * §5) turned into slot tables, and the type checks CHECKTYPE / CHECKTYPES / SETSLOT / SETSLOTS make.
 *
 * What the game's VM does on a failed check, and its message, is unknown (hypotheses `vm.struct.*` in
 * `hypotheses.ts`): scry raises a Lua error naming the expected and the actual type.
 */
import type { HksStructure } from '../../formats/hks/chunk.ts';

/** Lua type ids of the chunk type table (§4.1), used by slot types and the type-check opcodes. */
export const HksTypeId = {
  nil: 0,
  boolean: 1,
  lightuserdata: 2,
  number: 3,
  string: 4,
  table: 5,
  function: 6,
  userdata: 7,
  thread: 8,
  ifunction: 9,
  cfunction: 10,
  ui64: 11,
  struct: 12,
} as const;

/** The names hksc's lexer gives the type ids (`luaX_typenames`, offset by 2), for error messages. */
export const HKS_TYPE_NAMES: readonly string[] = ['nil', 'boolean', 'luserdata', 'number', 'string', 'table', 'function', 'userdata', 'thread', 'ifunction', 'cfunction', 'ui64', 'struct'];

/** One slot of a declaration. */
export interface SlotDef {
  name: string;
  position: number;
  /** Lua type id; 0 = untyped ("object"). */
  typeId: number;
  /** For struct-typed slots, the declaration of the slot's type (resolved after loading). */
  structType: StructDef | null;
  structId: number;
  /** 0 normal, 1 meta, 2 proxy table, 3 internal. */
  reserved: number;
}

/** A structure declaration as the VM uses it. */
export interface StructDef {
  name: string;
  id: number;
  hasMeta: boolean;
  hasProxy: boolean;
  /** Slots by position (holes are undefined). */
  byPosition: (SlotDef | undefined)[];
  /** Named slots that scripts can address (reserved ones excluded). */
  byName: Map<string, SlotDef>;
  /** Position of the meta slot (reserved 1) and of the proxy table (reserved 2); -1 when absent. */
  metaPos: number;
  proxyPos: number;
  /** Slot count of an instance (largest position + 1). */
  size: number;
}

/** Builds the declarations of one chunk, resolving struct-typed slots within the chunk. Ids map to declarations. */
export function buildStructDefs(structures: readonly HksStructure[]): Map<number, StructDef> {
  const byId = new Map<number, StructDef>();
  for (const s of structures) {
    let size = 0;
    const byPosition: (SlotDef | undefined)[] = [];
    const byName = new Map<string, SlotDef>();
    let metaPos = -1;
    let proxyPos = -1;
    for (const sl of s.slots) {
      // positions come from the file; anything absurd is left out rather than allocating for it
      if (sl.position < 0 || sl.position > 4096) continue;
      const slot: SlotDef = { name: sl.name ?? '', position: sl.position, typeId: sl.typeId, structType: null, structId: sl.structId, reserved: sl.reserved };
      byPosition[sl.position] = slot;
      size = Math.max(size, sl.position + 1);
      if (sl.reserved === 1) metaPos = sl.position;
      else if (sl.reserved === 2) proxyPos = sl.position;
      if (sl.reserved === 0 && sl.name !== null) byName.set(sl.name, slot);
    }
    // the meta slot is addressed by scripts as `meta` (hksc's declaration keyword)
    const def: StructDef = { name: s.name, id: s.id, hasMeta: s.hasMeta !== 0, hasProxy: s.hasProxy !== 0, byPosition, byName, metaPos: s.hasMeta !== 0 ? metaPos : -1, proxyPos: s.hasProxy !== 0 ? proxyPos : -1, size };
    if (!byId.has(s.id)) byId.set(s.id, def);
  }
  for (const def of byId.values()) {
    for (const slot of def.byPosition) {
      if (slot && slot.typeId === HksTypeId.struct) slot.structType = byId.get(slot.structId) ?? null;
    }
  }
  return byId;
}

/** True when an instance of `actual` satisfies a check for `expected` (same declaration, or same id and name). */
export function sameStruct(actual: StructDef, expected: StructDef): boolean {
  return actual === expected || (actual.id === expected.id && actual.name === expected.name);
}
