/**
 * The structure opcodes (NEWSTRUCT, SETSLOT*, GETSLOT*, SELFSLOT*, CHECKTYPE*) as `specs/hks.md` §8 and hksc's
 * code generator describe them. hksc is only a compiler, so how the game's VM reacts to a failed check or a broken
 * meta chain is not known; the choices are hypotheses in `hypotheses.ts` (`vm.struct.*`):
 *
 * - a nil value passes every type check (typed locals and slots start out nil);
 * - a failed check raises a Lua error naming the slot or register, the expected and the actual type;
 * - a tag chain (`*MT` forms) walks `meta` slot, then the `__index` / `__newindex` slot the chain word names, level
 *   by level; when a link is not a structure the access falls back to ordinary indexing by the slot's name.
 */
import { IsLuaTable, LuaTable } from './table.ts';
import { IsLuaStruct, LuaStruct, type LuaValue } from './value.ts';
import type { LuaThread } from './thread.ts';
import type { SlotSide, StructSide } from './proto.ts';
import { checkSlotValue, describeValueType, index, setIndex, typeMatches } from './meta.ts';
import { HKS_TYPE_NAMES, sameStruct, type SlotDef, type StructDef } from './structs.ts';
import { objectName } from './debuginfo.ts';

/** NEWSTRUCT: a fresh instance (its proxy table sized like NEWTABLE's). */
export function newStruct(L: LuaThread, s: StructSide): LuaStruct {
  if (s.def === null) return L.vm.runError(L, `invalid bytecode: NEWSTRUCT of unknown structure id ${s.id}`);
  const inst = new LuaStruct(s.def);
  if (s.def.proxyPos >= 0) inst.slots[s.def.proxyPos] = new LuaTable(s.narray, s.nhash, L.vm.limits.maxTableEntries);
  return inst;
}

/** The table positional constructor items of a structure go to (its proxy table). */
export function slotTarget(L: LuaThread, s: LuaStruct): LuaTable {
  const p = s.def.proxyPos;
  const t = p >= 0 ? s.slots[p] : undefined;
  if (t instanceof IsLuaTable) return t;
  return L.vm.runError(L, `structure '${s.def.name}' has no proxy table for positional items`);
}

function registerName(L: LuaThread, reg: number): string {
  const ci = L.ci;
  if (ci.cl === null || reg < 0) return '';
  const nm = objectName(ci.cl.p, ci.pc >> 2, reg);
  return nm ? ` ${nm.kind} '${nm.name}'` : '';
}

function expectStruct(L: LuaThread, v: LuaValue, reg: number, what: string): LuaStruct {
  if (v instanceof IsLuaStruct) return v;
  return L.vm.runError(L, `attempt to ${what}${registerName(L, reg)} (a structure expected, got ${describeValueType(v)})`);
}

function checkPosition(L: LuaThread, s: LuaStruct, position: number): void {
  if (position >= s.def.size || s.def.byPosition[position] === undefined) L.vm.runError(L, `invalid bytecode: structure '${s.def.name}' has no slot at position ${position}`);
}

/** SETSLOTN / SETSLOTI / SETSLOT / SETSLOTS. `typeId` >= 0 checks a Lua type; `structCheck` checks the side's structure. */
export function setSlotChecked(L: LuaThread, target: LuaValue, reg: number, s: SlotSide, v: LuaValue, typeId: number, structCheck: boolean): void {
  const inst = expectStruct(L, target, reg, 'set a slot of');
  checkPosition(L, inst, s.position);
  const slot = inst.def.byPosition[s.position]!;
  if (typeId >= 0) checkSlotValue(L, inst.def, slot.name, typeId, null, v);
  if (structCheck) {
    if (s.structDef === null) L.vm.runError(L, `invalid bytecode: SETSLOTS names unknown structure id ${s.structId}`);
    checkSlotValue(L, inst.def, slot.name, 12, s.structDef, v);
  }
  inst.slots[s.position] = v;
}

/** CHECKTYPE: R(A) must have Lua type `typeId` (nil passes). */
export function checkType(L: LuaThread, v: LuaValue, typeId: number, reg: number): void {
  if (v === undefined || typeId === 0 || typeMatches(typeId, v)) return;
  L.vm.runError(L, `type check failed:${registerName(L, reg) || ' value'} is ${describeValueType(v)}, ${HKS_TYPE_NAMES[typeId] ?? `type ${typeId}`} expected`);
}

/** CHECKTYPES / CHECKTYPE_D: R(A) must be an instance of the structure (nil passes). */
export function checkTypeStruct(L: LuaThread, v: LuaValue, s: StructSide, reg: number): void {
  if (v === undefined) return;
  if (s.def === null) L.vm.runError(L, `invalid bytecode: type check names unknown structure id ${s.id}`);
  if (v instanceof IsLuaStruct && sameStruct(v.def, s.def)) return;
  L.vm.runError(L, `type check failed:${registerName(L, reg) || ' value'} is ${describeValueType(v)}, '${s.def.name}' expected`);
}

/**
 * Walks a tag chain from `obj`: for each chain word, the current instance's meta, then the slot the word names in
 * that meta. Returns the instance holding the final slot, or the declaration-derived slot name when a link breaks.
 */
function walkChain(L: LuaThread, obj: LuaStruct, s: SlotSide): LuaStruct | { name: string } {
  let cur: LuaStruct = obj;
  let def: StructDef | null = obj.def;
  for (let i = 0; i < s.chain.length; i++) {
    const link = s.chain[i]!;
    const meta: LuaValue = def !== null && def.metaPos >= 0 && cur !== null ? cur.slots[def.metaPos] : undefined;
    const next: LuaValue = meta instanceof IsLuaStruct ? meta.slots[link] : undefined;
    if (!(next instanceof IsLuaStruct)) return { name: chainSlotName(L, obj.def, s) };
    cur = next;
    def = next.def;
  }
  return cur;
}

/** The name the chain's final slot has, found through the declarations (for the fallback). */
function chainSlotName(L: LuaThread, start: StructDef, s: SlotSide): string {
  let def: StructDef | null = start;
  for (let i = 0; i < s.chain.length && def !== null; i++) {
    const metaSlot: SlotDef | undefined = def.metaPos >= 0 ? def.byPosition[def.metaPos] : undefined;
    const metaDef: StructDef | null = metaSlot?.structType ?? null;
    def = metaDef?.byPosition[s.chain[i]!]?.structType ?? null;
  }
  const name = def?.byPosition[s.position]?.name;
  if (name === undefined) return L.vm.runError(L, `invalid bytecode: tag chain from '${start.name}' leads to no slot`);
  return name;
}

/** GETSLOTMT / SELFSLOTMT. */
export function getSlotChain(L: LuaThread, target: LuaValue, reg: number, s: SlotSide): LuaValue {
  const inst = expectStruct(L, target, reg, 'index');
  const r = walkChain(L, inst, s);
  if (r instanceof IsLuaStruct) {
    checkPosition(L, r, s.position);
    return r.slots[s.position];
  }
  return index(L, inst, r.name, reg);
}

/** SETSLOTMT: stores through the chain, checking the value against the chain's type (B >> 4, or the struct). */
export function setSlotChain(L: LuaThread, target: LuaValue, reg: number, s: SlotSide, v: LuaValue): void {
  const inst = expectStruct(L, target, reg, 'set a slot of');
  const r = walkChain(L, inst, s);
  if (!(r instanceof IsLuaStruct)) {
    setIndex(L, inst, r.name, v, reg);
    return;
  }
  checkPosition(L, r, s.position);
  const slot = r.def.byPosition[s.position]!;
  if (s.typeId === 12) checkSlotValue(L, r.def, slot.name, 12, s.structDef, v);
  else if (s.typeId > 0) checkSlotValue(L, r.def, slot.name, s.typeId, null, v);
  r.slots[s.position] = v;
}
