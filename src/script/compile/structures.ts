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
import { hksBx, hksOp, hksOpcodes } from '../../formats/hks/opcodes.ts';

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

/** Traversal order of the structure-reference table (hypothesis H-STRUCT-ORDER). */
export type StructureOrder = 'ds3' | 'iw6';

/**
 * A Lua 5.1 hash part holding light-userdata keys (structure ids) and one boolean key, enough to reproduce the
 * order `luaH_next` visits them in: main positions by `hashgeneric`, free slots taken from the end, Brent's move of a
 * colliding node that is not in its main position, and rehash into the next power of two (old nodes re-inserted
 * from the last to the first). `ds3` also keeps FromSoftware's insertion links and walks them backwards.
 */
class LuaKeyTable {
  private keys: (number | true | null)[] = [];
  private nextIdx: number[] = [];
  private prevInserted: number[] = [];
  private size = 0; // 0 = the shared dummy node
  private lastFree = 0;
  private lastInserted = -1;

  private mainPosition(key: number | true): number {
    if (this.size === 0) return 0;
    if (key === true) return 0; // a boolean's low bits hash to 0 for every table size that can occur
    const hash = Math.imul(key >>> 3, 0x9e3779b1) >>> 0;
    return hash % this.size;
  }

  has(key: number | true): boolean {
    if (this.size === 0) return false;
    let n = this.mainPosition(key);
    while (n >= 0) {
      if (this.keys[n] === key) return true;
      n = this.nextIdx[n]!;
    }
    return false;
  }

  private setNodeVector(size: number): void {
    const lsize = size === 0 ? 0 : Math.ceil(Math.log2(size));
    const n = size === 0 ? 0 : 2 ** lsize;
    this.size = n;
    this.keys = new Array<number | true | null>(n).fill(null);
    this.nextIdx = new Array<number>(n).fill(-1);
    this.prevInserted = new Array<number>(n).fill(-1);
    this.lastFree = n;
    this.lastInserted = -1;
  }

  private getFreePos(): number {
    while (this.lastFree-- > 0) {
      if (this.keys[this.lastFree] === null) return this.lastFree;
    }
    this.lastFree = 0;
    return -1;
  }

  /** Inserts `key` if absent. */
  insert(key: number | true): void {
    if (this.has(key)) return;
    this.newKey(key);
  }

  private newKey(key: number | true): void {
    let mp = this.mainPosition(key);
    if (this.size === 0 || this.keys[mp] !== null) {
      const n = this.size === 0 ? -1 : this.getFreePos();
      if (n < 0) {
        this.rehash();
        this.newKey(key);
        return;
      }
      const other = this.mainPosition(this.keys[mp]!);
      if (other !== mp) {
        // Move the colliding node into the free slot; its insertion link follows it.
        let o = other;
        while (this.nextIdx[o] !== mp) o = this.nextIdx[o]!;
        this.nextIdx[o] = n;
        this.keys[n] = this.keys[mp]!;
        this.nextIdx[n] = this.nextIdx[mp]!;
        this.prevInserted[n] = this.prevInserted[mp]!;
        for (let i = 0; i < this.size; i++) if (this.prevInserted[i] === mp) this.prevInserted[i] = n;
        if (this.lastInserted === mp) this.lastInserted = n;
        this.nextIdx[mp] = -1;
        this.keys[mp] = null;
        this.prevInserted[mp] = -1;
      } else {
        this.nextIdx[n] = this.nextIdx[mp]!;
        this.nextIdx[mp] = n;
        mp = n;
      }
    }
    this.keys[mp] = key;
    this.prevInserted[mp] = this.lastInserted;
    this.lastInserted = mp;
  }

  private rehash(): void {
    const oldKeys = this.keys;
    let used = 1; // the key being inserted
    for (const k of oldKeys) if (k !== null) used++;
    this.setNodeVector(used);
    for (let i = oldKeys.length - 1; i >= 0; i--) {
      const k = oldKeys[i];
      if (k !== null && k !== undefined) this.newKey(k);
    }
  }

  /** Keys in `luaH_next` order. */
  traverse(order: StructureOrder): (number | true)[] {
    const out: (number | true)[] = [];
    if (order === 'iw6') {
      for (const k of this.keys) if (k !== null) out.push(k);
      return out;
    }
    for (let n = this.lastInserted; n >= 0; n = this.prevInserted[n]!) out.push(this.keys[n]!);
    return out;
  }
}

/** Structure ids referenced by one function's code, in code order (hksc's ScanFunctionStructReferences). */
function scanReferences(fn: HksFunction, table: LuaKeyTable, ops: StructOps): boolean {
  let seen = false;
  const code = fn.code;
  for (let pc = 0; pc < code.length; pc++) {
    let w = code[pc]!;
    const op = hksOp(w);
    if (op === ops.SETSLOTMT) {
      if (((w >>> 17) & 0xff) >> 4 !== LuaType.STRUCT) continue;
      w = code[++pc]!;
    } else if (op === ops.NEWSTRUCT || op === ops.SETSLOTS) {
      w = code[++pc]!;
    } else if (op !== ops.CHECKTYPES && op !== ops.CHECKTYPE_D) continue;
    table.insert(hksBx(w));
    seen = true;
  }
  for (const child of fn.children) if (scanReferences(child, table, ops)) seen = true;
  return seen;
}

interface StructOps {
  SETSLOTMT: number;
  NEWSTRUCT: number;
  SETSLOTS: number;
  CHECKTYPES: number;
  CHECKTYPE_D: number;
}

/** The structure section hksc writes after the main function (flag bit 1 set). */
export function buildStructureSection(main: HksFunction, registry: StructRegistry, order: StructureOrder): HksStructureSection {
  const t = hksOpcodes();
  const op = (name: string): number => t.byName.get(name)!.op;
  const ops: StructOps = { SETSLOTMT: op('SETSLOTMT'), NEWSTRUCT: op('NEWSTRUCT'), SETSLOTS: op('SETSLOTS'), CHECKTYPES: op('CHECKTYPES'), CHECKTYPE_D: op('CHECKTYPE_D') };
  const table = new LuaKeyTable();
  const structures: HksStructure[] = [];
  if (scanReferences(main, table, ops)) {
    table.insert(true);
    const dumped = new Set<number>();
    const dump = (id: number): void => {
      if (dumped.has(id)) return;
      dumped.add(id);
      const proto = registry.byId(id);
      if (!proto) return;
      structures.push({
        name: proto.name,
        id: proto.id & 0xffff,
        hasMeta: proto.hasMeta ? 1 : 0,
        hasProxy: proto.hasProxy ? 1 : 0,
        slots: proto.slots.map((s): HksSlot => ({ name: s.name, structId: s.structId & 0xffff, typeId: s.typeId, reserved: s.reserved, position: s.position })),
      });
      for (const s of proto.slots) if (s.typeId === LuaType.STRUCT) dump(s.structId);
    };
    for (const key of table.traverse(order)) if (key !== true) dump(key);
  }
  return { layout: 'hksc', marker: 1, structures };
}
