/**
 * The values of the HavokScript VM (Lua 5.1 plus HavokScript's light userdata, ui64 and structures).
 *
 * Native representation (outside the register file and used by every host API):
 *
 * | Lua type        | JavaScript                                                          |
 * |-----------------|---------------------------------------------------------------------|
 * | nil             | `undefined`                                                         |
 * | boolean         | `true` / `false`                                                    |
 * | number          | `number` (already rounded to float32 in float mode)                 |
 * | string          | `string`, one char per byte (latin-1), so 8-bit clean               |
 * | table           | {@link LuaTable}                                                    |
 * | function        | {@link LuaClosure} (Lua) or {@link HostFunction} (host)             |
 * | userdata        | {@link LuaUserdata} (handles the host hands out)                    |
 * | light userdata  | {@link LightUserdata}, interned per 64-bit value (`0x…hi` literals) |
 * | ui64            | `bigint` in 0 .. 2^64-1 (`0x…hl` literals)                          |
 * | struct          | {@link LuaStruct} (an `hstructure` instance)                        |
 * | thread          | {@link LuaThread} (declared in `thread.ts`)                         |
 *
 * Inside the register file a number is kept unboxed: the value slot holds the marker `0` and the number lives in a
 * typed array beside it (Float32Array in float mode, so every store rounds as the game's float32 VM does).
 */
import type { LuaTable } from './table.ts';
import type { LuaThread } from './thread.ts';
import type { Proto } from './proto.ts';
import type { StructDef } from './structs.ts';

/** Any Lua value in its native form. */
export type LuaValue = undefined | boolean | number | string | bigint | LuaObject;

/** The reference types. */
export type LuaObject = LuaTable | LuaFunction | LuaUserdata | LightUserdata | LuaStruct | LuaThread;

/** A Lua or host function. */
export type LuaFunction = LuaClosure | HostFunction;

/**
 * The host-function protocol (the one the standard library uses; {@link defineHostFunction} in `host.ts` builds one
 * from a friendlier signature). Arguments are the `nargs` stack slots after `ra`; results are written from `ra`
 * on (the function's own slot first) and their count returned. Return {@link YIELD_RESULT} after
 * `thread.yieldValues(…)` to suspend the running coroutine.
 */
export type NativeFn = (L: LuaThread, ra: number, nargs: number) => number;

/** Returned by a native function that asked its thread to yield. */
export const YIELD_RESULT = -1;

/** One upvalue: open (a live stack slot of `thread`) or closed (its own value). */
export class Upval {
  /** The stack slot while open; -1 once closed. */
  idx: number;
  thread: LuaThread | null;
  /** The value once closed (native form). */
  v: LuaValue;
  /** Next open upvalue of the thread (lower slot), while open. */
  next: Upval | null;
  constructor(thread: LuaThread | null, idx: number, v: LuaValue) {
    this.thread = thread;
    this.idx = idx;
    this.v = v;
    this.next = null;
  }
}

/** A Lua function instance: a prototype, its upvalues and its environment (5.1 `setfenv`). */
export class LuaClosure {
  readonly p: Proto;
  readonly up: Upval[];
  env: LuaTable;
  constructor(p: Proto, up: Upval[], env: LuaTable) {
    this.p = p;
    this.up = up;
    this.env = env;
  }
}

/** A function implemented by the host. */
export class HostFunction {
  /** The name used in tracebacks and argument errors (`print`, `string.format`, `LithThreadSleep`…). */
  readonly name: string;
  readonly fn: NativeFn;
  /** Environment (`getfenv` of a host function returns the globals). */
  env: LuaTable | null;
  /** Upvalue-like values of the host function, for `debug.getupvalue` and closures made by the library. */
  readonly upvalues: LuaValue[] | null;
  /**
   * What the function returns for one number argument, when that is all it does (no error, no allocation, no frame
   * looked at, extra arguments ignored: `math.sqrt`…): the JavaScript tier calls this in place of the host call.
   */
  numeric: ((x: number) => number) | null = null;
  constructor(name: string, fn: NativeFn, env: LuaTable | null = null, upvalues: LuaValue[] | null = null) {
    this.name = name;
    this.fn = fn;
    this.env = env;
    this.upvalues = upvalues;
  }
}

/** A full userdata: a host value with an optional metatable and environment. */
export class LuaUserdata {
  /** The host's payload (an engine handle, a file, anything). */
  value: unknown;
  metatable: LuaTable | null;
  env: LuaTable | null;
  constructor(value: unknown, metatable: LuaTable | null = null, env: LuaTable | null = null) {
    this.value = value;
    this.metatable = metatable;
    this.env = env;
  }
}

/** A light userdata: a bare 64-bit value compared by value (interned so `===` and table keys work). */
export class LightUserdata {
  readonly value: bigint;
  private constructor(value: bigint) {
    this.value = value;
  }
  private static readonly interned = new Map<bigint, LightUserdata>();
  /** The one instance for a value (masked to 64 bits). */
  static of(value: bigint): LightUserdata {
    const v = BigInt.asUintN(64, value);
    let u = LightUserdata.interned.get(v);
    if (!u) {
      u = new LightUserdata(v);
      LightUserdata.interned.set(v, u);
    }
    return u;
  }
}

/**
 * An `hstructure` instance. Slots are addressed by the declaration's positions; `__structmeta` (position 2) and
 * `__structbacking` (position 3, the proxy table) are ordinary slots of the array.
 */
export class LuaStruct {
  readonly def: StructDef;
  /** Slot values by position (native form). */
  readonly slots: LuaValue[];
  constructor(def: StructDef) {
    this.def = def;
    this.slots = new Array<LuaValue>(def.size).fill(undefined);
  }
}

/**
 * A plain function whose `prototype` is `ctor.prototype`, so that `x instanceof instanceTest(C)` is exactly
 * `x instanceof C` (no VM class defines `Symbol.hasInstance`). The VM tests values against these stand-ins: loaders
 * that keep function names (tsx and vitest, through esbuild's `keepNames`) redefine each class's `name` in a static
 * block, which leaves the class constructor a dictionary-mode object, and V8 then stops inlining `instanceof`
 * against it (measured: the interpreter ran fib about 1.3× slower under tsx than bundled). An anonymous function
 * is renamed by no loader.
 */
export function instanceTest<T>(ctor: { prototype: T }): abstract new (...args: never[]) => T {
  const test = [function () {}][0]!;
  test.prototype = ctor.prototype;
  return test as unknown as abstract new (...args: never[]) => T;
}

/** `instanceof` stand-ins of the value classes (see {@link instanceTest}). */
export const IsLuaClosure = instanceTest(LuaClosure);
export const IsHostFunction = instanceTest(HostFunction);
export const IsLuaUserdata = instanceTest(LuaUserdata);
export const IsLightUserdata = instanceTest(LightUserdata);
export const IsLuaStruct = instanceTest(LuaStruct);

/** Lua type names as `type()` returns them. */
export type LuaTypeName = 'nil' | 'boolean' | 'number' | 'string' | 'table' | 'function' | 'userdata' | 'thread' | 'ui64' | 'struct';
