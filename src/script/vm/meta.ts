/**
 * The slow paths of the interpreter: Lua 5.1's `luaV_gettable` / `luaV_settable` (`__index` / `__newindex` chains,
 * at most 100 steps), arithmetic with string coercion and metamethods, `__eq` / `__lt` / `__le`, `__concat`,
 * `__len` (userdata only, as 5.1 has it), and the same operations on HavokScript structures.
 *
 * Every function here may call Lua code (a metamethod) and may raise a Lua error; the interpreter saves its pc
 * before calling one.
 */
import { IsLuaTable, LuaTable, TableOverflow } from './table.ts';
import { IsHostFunction, IsLightUserdata, IsLuaClosure, IsLuaStruct, IsLuaUserdata, LuaStruct, type LuaValue } from './value.ts';
import { IsLuaThread, LuaThread } from './thread.ts';
import { numberToString, stringToNumber } from './numfmt.ts';
import type { LuaVM } from './vm.ts';
import { HksTypeId, HKS_TYPE_NAMES, sameStruct, type StructDef } from './structs.ts';

/** The interpreter's call entry (`callValue` of `interp.ts`, which installs itself here to avoid an import cycle). */
export const interpreter: { callValue: (L: LuaThread, fi: number, nargs: number, nres: number) => void } = {
  callValue: () => {
    throw new Error('the interpreter module is not loaded');
  },
};

/** `type(v)`. Light userdata is "userdata" as in Lua 5.1; ui64 and structures use HavokScript's names. */
export function typeName(v: LuaValue): string {
  switch (typeof v) {
    case 'undefined':
      return 'nil';
    case 'boolean':
      return 'boolean';
    case 'number':
      return 'number';
    case 'string':
      return 'string';
    case 'bigint':
      return 'ui64';
    default:
      if (v instanceof IsLuaTable) return 'table';
      if (v instanceof IsLuaClosure || v instanceof IsHostFunction) return 'function';
      if (v instanceof IsLuaUserdata || v instanceof IsLightUserdata) return 'userdata';
      if (v instanceof IsLuaStruct) return 'struct';
      if (v instanceof IsLuaThread) return 'thread';
      return 'userdata';
  }
}

/** The HavokScript type id of a value (type table of §4.1): Lua functions are TIFUNCTION, host ones TCFUNCTION. */
export function hksTypeId(v: LuaValue): number {
  switch (typeof v) {
    case 'undefined':
      return HksTypeId.nil;
    case 'boolean':
      return HksTypeId.boolean;
    case 'number':
      return HksTypeId.number;
    case 'string':
      return HksTypeId.string;
    case 'bigint':
      return HksTypeId.ui64;
    default:
      if (v instanceof IsLuaTable) return HksTypeId.table;
      if (v instanceof IsLuaClosure) return HksTypeId.ifunction;
      if (v instanceof IsHostFunction) return HksTypeId.cfunction;
      if (v instanceof IsLightUserdata) return HksTypeId.lightuserdata;
      if (v instanceof IsLuaStruct) return HksTypeId.struct;
      if (v instanceof IsLuaThread) return HksTypeId.thread;
      return HksTypeId.userdata;
  }
}

/** True when a value of type id `actual` satisfies a declared type id (`function` accepts both kinds). */
export function typeMatches(declared: number, v: LuaValue): boolean {
  const actual = hksTypeId(v);
  if (declared === actual) return true;
  if (declared === HksTypeId.function) return actual === HksTypeId.ifunction || actual === HksTypeId.cfunction;
  return false;
}

/** The metatable of any value (`getmetatable` without `__metatable`). */
export function getMetatable(vm: LuaVM, v: LuaValue): LuaTable | null {
  if (v instanceof IsLuaTable) return v.metatable;
  if (v instanceof IsLuaUserdata) return v.metatable;
  if (typeof v === 'string') return vm.stringMeta;
  return vm.typeMetas.get(typeName(v)) ?? null;
}

/** A metamethod of a value, or undefined. */
export function getTM(vm: LuaVM, v: LuaValue, event: string): LuaValue {
  const mt = getMetatable(vm, v);
  return mt === null ? undefined : mt.getStr(event);
}

/** Converts a value to a number as arithmetic does (numbers, and strings Lua 5.1 can read); rounded in float mode. */
export function toNumber(vm: LuaVM, v: LuaValue): number | undefined {
  if (typeof v === 'number') return v;
  if (typeof v === 'string') {
    const n = stringToNumber(v);
    if (n === undefined) return undefined;
    return vm.float32 ? Math.fround(n) : n;
  }
  return undefined;
}

/** `tostring` without `__tostring` for numbers and strings (concatenation's coercion), else undefined. */
export function toStringCoerce(v: LuaValue): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return numberToString(v);
  return undefined;
}

/** Calls `f(a, b)` and returns its first result. */
export function callMeta(L: LuaThread, f: LuaValue, a: LuaValue, b: LuaValue, c?: LuaValue, nargs = 2): LuaValue {
  const top = scratch(L);
  L.ensure(top + 5);
  L.set(top, f);
  L.set(top + 1, a);
  L.set(top + 2, b);
  if (nargs > 2) L.set(top + 3, c);
  const saved = L.top;
  L.top = top + 1 + nargs;
  interpreter.callValue(L, top, nargs, 1);
  const r = L.get(top);
  L.top = saved;
  return r;
}

/** Where a call made from the running frame may put its function and arguments. */
export function scratch(L: LuaThread): number {
  const ci = L.ci;
  return ci.cl !== null ? ci.top : L.top;
}

// ------------------------------------------------------------------------------------------------------------------
// Indexing

const MAXTAGLOOP = 100;

/** `t[k]` with metamethods. `reg` is the register holding `t` (for the error message), or -1. */
export function index(L: LuaThread, t: LuaValue, k: LuaValue, reg = -1): LuaValue {
  const vm = L.vm;
  for (let loop = 0; loop < MAXTAGLOOP; loop++) {
    let tm: LuaValue;
    if (t instanceof IsLuaTable) {
      const res = t.get(k);
      if (res !== undefined) return res;
      const mt = t.metatable;
      if (mt === null) return undefined;
      tm = mt.getStr('__index');
      if (tm === undefined) return undefined;
    } else if (t instanceof IsLuaStruct) {
      const r = structGet(t, k);
      if (r.found) return r.value;
      tm = structMetaField(t, '__index');
      if (tm === undefined) return undefined;
    } else {
      tm = getTM(vm, t, '__index');
      if (tm === undefined) vm.typeError(L, t, 'index', reg);
    }
    if (tm instanceof IsLuaClosure || tm instanceof IsHostFunction) return callMeta(L, tm, t, k);
    t = tm;
    reg = -1;
  }
  return vm.runError(L, 'loop in gettable');
}

/** `t[k] = v` with metamethods. */
export function setIndex(L: LuaThread, t: LuaValue, k: LuaValue, v: LuaValue, reg = -1): void {
  const vm = L.vm;
  for (let loop = 0; loop < MAXTAGLOOP; loop++) {
    let tm: LuaValue;
    if (t instanceof IsLuaTable) {
      const mt = t.metatable;
      if (mt === null || t.get(k) !== undefined || (tm = mt.getStr('__newindex')) === undefined) {
        rawSet(L, t, k, v);
        return;
      }
    } else if (t instanceof IsLuaStruct) {
      if (structSet(L, t, k, v)) return;
      tm = structMetaField(t, '__newindex');
      if (tm === undefined) return vm.runError(L, `cannot set field ${describeKey(k)} of a '${t.def.name}' structure (no such slot, no proxy table, no __newindex)`);
    } else {
      tm = getTM(vm, t, '__newindex');
      if (tm === undefined) vm.typeError(L, t, 'index', reg);
    }
    if (tm instanceof IsLuaClosure || tm instanceof IsHostFunction) {
      callMeta(L, tm, t, k, v, 3);
      return;
    }
    t = tm;
    reg = -1;
  }
  vm.runError(L, 'loop in settable');
}

/** Raw set with Lua 5.1's key checks and the table budget. */
export function rawSet(L: LuaThread, t: LuaTable, k: LuaValue, v: LuaValue): void {
  if (typeof k === 'number') {
    if (k !== k) L.vm.runError(L, 'table index is NaN');
  } else if (k === undefined) L.vm.runError(L, 'table index is nil');
  try {
    t.set(k, v);
  } catch (e) {
    if (e instanceof TableOverflow) L.vm.limitError(L, `table overflow (a table may hold ${L.vm.limits.maxTableEntries} slots)`);
    throw e;
  }
}

function describeKey(k: LuaValue): string {
  return typeof k === 'string' ? `'${k}'` : typeof k === 'number' ? numberToString(k) : `(a ${typeName(k)} key)`;
}

// ------------------------------------------------------------------------------------------------------------------
// Structures

/** A slot or proxy-table read by key: `found` when the key names a slot, or the proxy table has it. */
export function structGet(s: LuaStruct, k: LuaValue): { found: boolean; value: LuaValue } {
  if (typeof k === 'string') {
    const slot = s.def.byName.get(k);
    if (slot) return { found: true, value: s.slots[slot.position] };
    if (k === 'meta' && s.def.metaPos >= 0) return { found: true, value: s.slots[s.def.metaPos] };
  }
  const proxy = structProxy(s);
  if (proxy !== null) {
    const v = proxy.get(k);
    if (v !== undefined) return { found: true, value: v };
  }
  return { found: false, value: undefined };
}

/** A typed store by key: true when done (slot or proxy table), false when the meta's `__newindex` must decide. */
export function structSet(L: LuaThread, s: LuaStruct, k: LuaValue, v: LuaValue): boolean {
  if (typeof k === 'string') {
    const slot = s.def.byName.get(k);
    if (slot) {
      checkSlotValue(L, s.def, slot.name, slot.typeId, slot.structType, v);
      s.slots[slot.position] = v;
      return true;
    }
  }
  const proxy = structProxy(s);
  if (proxy !== null) {
    rawSet(L, proxy, k, v);
    return true;
  }
  return false;
}

export function structProxy(s: LuaStruct): LuaTable | null {
  const p = s.def.proxyPos;
  if (p < 0) return null;
  const t = s.slots[p];
  return t instanceof IsLuaTable ? t : null;
}

/** A field of the structure's meta (its `meta` slot, a structure or a table), e.g. `__index`. */
export function structMetaField(s: LuaStruct, name: string): LuaValue {
  const mp = s.def.metaPos;
  if (mp < 0) return undefined;
  const m = s.slots[mp];
  if (m instanceof IsLuaStruct) return structGet(m, name).value;
  if (m instanceof IsLuaTable) return m.get(name);
  return undefined;
}

/** Raises the type-mismatch error of a typed slot store (hypothesis `vm.struct.check`); nil always passes. */
export function checkSlotValue(L: LuaThread, def: StructDef, slotName: string, typeId: number, structType: StructDef | null, v: LuaValue): void {
  if (v === undefined || typeId === 0) return;
  if (typeId === HksTypeId.struct) {
    if (v instanceof IsLuaStruct && (structType === null || sameStruct(v.def, structType))) return;
    L.vm.runError(L, `slot '${slotName}' of '${def.name}' holds a ${structType ? `'${structType.name}' structure` : 'structure'}, not ${describeValueType(v)}`);
  }
  if (!typeMatches(typeId, v)) L.vm.runError(L, `slot '${slotName}' of '${def.name}' holds a ${HKS_TYPE_NAMES[typeId] ?? `type ${typeId}`} value, not ${describeValueType(v)}`);
}

export function describeValueType(v: LuaValue): string {
  if (v instanceof IsLuaStruct) return `a '${v.def.name}' structure`;
  return `a ${typeName(v)} value`;
}

// ------------------------------------------------------------------------------------------------------------------
// Arithmetic, comparison, concatenation, length

export const ArithEvent = ['__add', '__sub', '__mul', '__div', '__mod', '__pow', '__unm'] as const;

/** The arithmetic of opcode `op` (0 add .. 5 pow, 6 unm) on two numbers, before the store's float32 rounding. */
export function arithNumbers(vm: LuaVM, op: number, x: number, y: number): number {
  switch (op) {
    case 0:
      return x + y;
    case 1:
      return x - y;
    case 2:
      return x * y;
    case 3:
      return x / y;
    case 4: {
      const q = vm.float32 ? Math.fround(x / y) : x / y;
      return x - Math.floor(q) * y;
    }
    case 5:
      return Math.pow(x, y);
    default:
      return -x;
  }
}

/**
 * Arithmetic with coercion and metamethods (`luaV_arith`). `rb` / `rc` are the operand registers (-1 for
 * constants) for the error message.
 */
export function arith(L: LuaThread, op: number, a: LuaValue, b: LuaValue, rb: number, rc: number): LuaValue {
  const vm = L.vm;
  const x = toNumber(vm, a);
  const y = toNumber(vm, b);
  if (x !== undefined && y !== undefined) return arithNumbers(vm, op, x, y);
  const ev = ArithEvent[op]!;
  let tm = getTM(vm, a, ev);
  if (tm === undefined) tm = getTM(vm, b, ev);
  if (tm === undefined) {
    // luaG_aritherror: blame the first operand that is not a number
    if (x === undefined) vm.typeError(L, a, 'perform arithmetic on', rb);
    vm.typeError(L, b, 'perform arithmetic on', rc);
  }
  return callMeta(L, tm, a, b);
}

/** Raw equality (`rawequal`). */
export function rawEquals(a: LuaValue, b: LuaValue): boolean {
  return a === b;
}

/** `a == b` with `__eq` (tables and userdata of the same type with the same metamethod). */
export function equals(L: LuaThread, a: LuaValue, b: LuaValue): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object') return false;
  if (a instanceof IsLuaTable ? !(b instanceof IsLuaTable) : a instanceof IsLuaUserdata ? !(b instanceof IsLuaUserdata) : true) return false;
  const vm = L.vm;
  const mt1 = getMetatable(vm, a);
  const mt2 = getMetatable(vm, b);
  const tm1 = mt1?.getStr('__eq');
  if (tm1 === undefined) return false;
  if (mt1 !== mt2) {
    const tm2 = mt2?.getStr('__eq');
    if (tm2 !== tm1) return false;
  }
  const r = callMeta(L, tm1, a, b);
  return r !== undefined && r !== false;
}

/** The order metamethod shared by both operands (`get_compTM`). */
function compareTM(L: LuaThread, a: LuaValue, b: LuaValue, ev: string): LuaValue {
  const vm = L.vm;
  const tm1 = getTM(vm, a, ev);
  if (tm1 === undefined) return undefined;
  const tm2 = getTM(vm, b, ev);
  if (tm1 !== tm2) return undefined;
  return tm1;
}

function compareError(L: LuaThread, a: LuaValue, b: LuaValue): never {
  const t1 = typeName(a);
  const t2 = typeName(b);
  if (t1 === t2) return L.vm.runError(L, `attempt to compare two ${t1} values`);
  return L.vm.runError(L, `attempt to compare ${t1} with ${t2}`);
}

/** `a < b`. */
export function lessThan(L: LuaThread, a: LuaValue, b: LuaValue): boolean {
  if (typeof a === 'number' && typeof b === 'number') return a < b;
  if (typeof a === 'string' && typeof b === 'string') return a < b;
  if (typeName(a) !== typeName(b)) compareError(L, a, b);
  const tm = compareTM(L, a, b, '__lt');
  if (tm === undefined) compareError(L, a, b);
  const r = callMeta(L, tm, a, b);
  return r !== undefined && r !== false;
}

/** `a <= b` (falls back to `not (b < a)` through `__lt`, as 5.1 does). */
export function lessEqual(L: LuaThread, a: LuaValue, b: LuaValue): boolean {
  if (typeof a === 'number' && typeof b === 'number') return a <= b;
  if (typeof a === 'string' && typeof b === 'string') return a <= b;
  if (typeName(a) !== typeName(b)) compareError(L, a, b);
  let tm = compareTM(L, a, b, '__le');
  if (tm !== undefined) {
    const r = callMeta(L, tm, a, b);
    return r !== undefined && r !== false;
  }
  tm = compareTM(L, b, a, '__lt');
  if (tm === undefined) compareError(L, a, b);
  const r = callMeta(L, tm, b, a);
  return !(r !== undefined && r !== false);
}

/** `#v` (`OP_LEN`): strings, tables (border), `__len` for other types. */
export function length(L: LuaThread, v: LuaValue, reg: number): LuaValue {
  if (typeof v === 'string') return v.length;
  if (v instanceof IsLuaTable) return v.length();
  const tm = getTM(L.vm, v, '__len');
  if (tm === undefined) {
    if (v instanceof IsLuaStruct) {
      const p = structProxy(v);
      if (p !== null) return p.length();
    }
    L.vm.typeError(L, v, 'get length of', reg);
  }
  return callMeta(L, tm, v, undefined);
}

/**
 * `luaV_concat` over stack slots `[first, last]`, leaving the result in `first`: runs of strings and numbers are
 * joined at once, anything else goes through `__concat` pairwise from the right.
 */
export function concat(L: LuaThread, first: number, last: number): void {
  const vm = L.vm;
  let top = last; // index of the rightmost pending value
  while (top > first) {
    const b = L.get(top);
    const a = L.get(top - 1);
    const sb = toStringCoerce(b);
    const sa = toStringCoerce(a);
    if (sa === undefined || sb === undefined) {
      let tm = getTM(vm, a, '__concat');
      if (tm === undefined) tm = getTM(vm, b, '__concat');
      if (tm === undefined) {
        const bad = sa === undefined ? a : b;
        const reg = sa === undefined ? top - 1 : top;
        vm.typeError(L, bad, 'concatenate', reg - L.ci.base);
      }
      const r = callMeta(L, tm, a, b);
      L.set(top - 1, r);
      top--;
      continue;
    }
    // gather as many string-coercible values as possible
    let n = 2;
    let len = sa.length + sb.length;
    while (top - n >= first) {
      const s = toStringCoerce(L.get(top - n));
      if (s === undefined) break;
      len += s.length;
      n++;
    }
    if (len > vm.limits.maxStringLength) vm.limitError(L, `string length overflow (strings are limited to ${vm.limits.maxStringLength} bytes)`);
    let out = '';
    for (let i = top - n + 1; i <= top; i++) out += toStringCoerce(L.get(i))!;
    L.set(top - n + 1, out);
    top -= n - 1;
  }
}
