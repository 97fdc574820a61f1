/**
 * HavokScript structure prototypes at compile time (`hstructure`), and the structure section of a chunk.
 *
 * Facts, verified on hksc's output (test/fixtures/hks): structure ids are 1, 2, 3… in declaration order; every
 * prototype starts with three reserved slots (`__testdummy` reserved 3 at position 0, `__structmeta` reserved 1,
 * `__structbacking` reserved 2 of type table); a slot's position is `8n/7 + 1` for slot index n (8-byte slots, one
 * byte in eight skipped). The section lists the structures the code references (NEWSTRUCT / SETSLOTS / struct-typed
 * SETSLOTMT DATA ids, CHECKTYPES / CHECKTYPE_D Bx), each followed depth-first by the structures its struct-typed
 * slots name, in the traversal order of a Lua 5.1 hash table keyed by those ids. Which traversal the Shadow of War
 * compiler uses is hypothesis H-STRUCT-ORDER (`hypotheses.ts`): hksc's `ds3` build walks its tables in reverse
 * insertion order (FromSoftware's tables), the `iw6` build in node order.
 */
import type { HksFunction, HksSlot, HksStructure, HksStructureSection } from '../../formats/hks/chunk.ts';
import { hksStructureOrder, type HksStructureOrder, type HksStructureRelations } from '../../formats/hks/structure-order.ts';

/** One slot of a structure prototype. */
export interface StructSlot {
  name: string;
  /** Slot index (0..n-1, reserved slots first). */
  index: number;
  /** Structure id of a struct-typed slot; -1 (written as 0xFFFF) for other slots, 0 for two reserved ones. */
  structId: number;
  /** Lua type id: 0 = untyped (`object`), 12 = structure. */
  typeId: number;
  /** 0 normal, 1 meta, 2 backing (proxy) table, 3 internal. */
  reserved: number;
  position: number;
}

/** A structure prototype. */
export interface StructProto {
  name: string;
  /** 1-based id in declaration order (hksc's global prototype list). */
  id: number;
  hasMeta: boolean;
  hasProxy: boolean;
  slots: StructSlot[];
}

/** Lua type ids (the chunk's type table), plus hksc's two pseudo types. */
export const LuaType = {
  ANY: -2,
  NONE: -1,
  NIL: 0,
  BOOLEAN: 1,
  LIGHTUSERDATA: 2,
  NUMBER: 3,
  STRING: 4,
  TABLE: 5,
  FUNCTION: 6,
  USERDATA: 7,
  THREAD: 8,
  IFUNCTION: 9,
  CFUNCTION: 10,
  UI64: 11,
  STRUCT: 12,
} as const;

/** hksc's type names, indexed by type id + 2 (`object` = ANY … `struct` = STRUCT). */
export const TYPE_NAMES = ['object', 'no value', 'nil', 'boolean', 'luserdata', 'number', 'string', 'table', 'invalid function', 'userdata', 'thread', 'ifunction', 'cfunction', 'ui64', 'struct'];
/** What `typeIdOfName` returns for a name that is no built-in type (a structure name). */
export const STRUCTURE_TYPE = 13;

/** The type id a type name denotes, or STRUCTURE_TYPE when it is not a built-in name. */
export function typeIdOfName(name: string): number {
  const i = TYPE_NAMES.indexOf(name);
  return (i < 0 ? TYPE_NAMES.length : i) - 2;
}

/** The printed name of a type id (`luaX_typename`). */
export function typeName(type: number): string {
  return TYPE_NAMES[type + 2] ?? '?';
}

/** The most prototypes one compilation may define (hksc's LUAI_MAXSTRUCTS). */
export const MAX_STRUCTS = 1024;
/** Id given to a prototype while it is being declared (a slot of its own type names it). */
export const PENDING_STRUCT_ID = MAX_STRUCTS - 1;
/** The most slots a prototype may have, reserved ones included. */
export const MAX_STRUCT_SLOTS = 224;
export const NUM_RESERVED_SLOTS = 3;
export const SLOT_INDEX_META = 1;
export const SlotReserved = { none: 0, meta: 1, proxy: 2, internal: 3 } as const;

/** Byte position of the n-th slot: 8-byte slots, `8n/7 + 1` (one position in eight skipped). */
export function slotPosition(index: number): number {
  return Math.floor((8 * index) / 7 + 1) & 0xff;
}

/** A new prototype under declaration, with its three reserved slots. */
export function newStructProto(name: string): StructProto {
  const p: StructProto = { name, id: PENDING_STRUCT_ID, hasMeta: false, hasProxy: false, slots: [] };
  addSlot(p, '__testdummy', LuaType.NIL, 0).reserved = SlotReserved.internal;
  p.slots[0]!.position = 0;
  addSlot(p, '__structmeta', LuaType.NIL, 0).reserved = SlotReserved.meta;
  addSlot(p, '__structbacking', LuaType.TABLE, -1).reserved = SlotReserved.proxy;
  return p;
}

export function addSlot(p: StructProto, name: string, typeId: number, structId: number): StructSlot {
  const index = p.slots.length;
  const slot: StructSlot = { name, index, structId, typeId, reserved: 0, position: slotPosition(index) };
  p.slots.push(slot);
  return slot;
}

export function findSlot(p: StructProto, name: string): StructSlot | undefined {
  for (const s of p.slots) if (s.name === name) return s;
  return undefined;
}

/**
 * True when two declarations of a structure are the same (a re-declaration is allowed only then). hksc's own
 * comparison reads past the slot array (it indexes slot 2i); this compares slot by slot, which agrees with it on
 * every declaration whose slots it reads correctly.
 */
export function sameStructProto(a: StructProto, b: StructProto): boolean {
  if (a.slots.length !== b.slots.length || a.hasMeta !== b.hasMeta || a.hasProxy !== b.hasProxy || a.name !== b.name) return false;
  return a.slots.every((s1, i) => {
    const s2 = b.slots[i]!;
    return s1.name === s2.name && s1.structId === s2.structId && s1.typeId === s2.typeId && s1.reserved === s2.reserved && s1.index === s2.index && s1.position === s2.position;
  });
}

/** The prototypes declared in one compilation. */
export class StructRegistry {
  readonly list: StructProto[] = [];
  private readonly byName = new Map<string, StructProto>();

  get(name: string): StructProto | undefined {
    return this.byName.get(name);
  }

  byId(id: number): StructProto | undefined {
    return id > 0 && id <= this.list.length ? this.list[id - 1] : undefined;
  }

  /** Registers a finished declaration: it gets the next id; slots of its own type get that id. */
  add(p: StructProto): StructProto {
    const proto: StructProto = { ...p, slots: p.slots.map((s) => ({ ...s })) };
    this.list.push(proto);
    proto.id = this.list.length;
    for (const s of proto.slots) if (s.structId === PENDING_STRUCT_ID) s.structId = proto.id;
    this.byName.set(proto.name, proto);
    return proto;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Structure section

/** The structure section hksc writes after the main function (flag bit 1 set), in `order` (H-STRUCT-ORDER). */
export function buildStructureSection(main: HksFunction, registry: StructRegistry, order: HksStructureOrder): HksStructureSection {
  const related = (id: number): HksStructureRelations | undefined => {
    const proto = registry.byId(id);
    return proto ? { before: [], after: proto.slots.filter((sl) => sl.typeId === LuaType.STRUCT).map((sl) => sl.structId) } : undefined;
  };
  const structures = hksStructureOrder(main, related, order).map((id): HksStructure => {
    const proto = registry.byId(id)!;
    return {
      name: proto.name,
      id: proto.id & 0xffff,
      hasMeta: proto.hasMeta ? 1 : 0,
      hasProxy: proto.hasProxy ? 1 : 0,
      slots: proto.slots.map((sl): HksSlot => ({ name: sl.name, structId: sl.structId & 0xffff, typeId: sl.typeId, reserved: sl.reserved, position: sl.position })),
    };
  });
  return { layout: 'hksc', marker: 1, structures };
}
