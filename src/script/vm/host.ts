/**
 * The typed host-function API: how the engine (natives, script threads, `LithThreadSleep`) and any other host gives
 * functions to scripts. A host function receives a {@link HostCall} — its arguments with Lua-standard checks
 * ("bad argument #2 to 'LithThreadSleep' (number expected, got nil)"), errors with the caller's position, and
 * `yield` for suspending the calling script thread — and returns its results.
 *
 * Results: return nothing (`undefined`) for no results, one Lua value for one result, an array for several (so
 * `[undefined]` is one nil), or `call.yield(…)`'s token to suspend the coroutine.
 */
import { LuaTable } from './table.ts';
import { HostFunction, IsLuaUserdata, type LuaValue, type NativeFn } from './value.ts';
import type { LuaThread } from './thread.ts';
import type { LuaVM } from './vm.ts';
import { arg, argError, checkAny, checkInt, checkNumber, checkString, checkTable, libError, optNumber, optString, typeArgError } from './lib/aux.ts';

/** The token `HostCall.yield` returns; return it from the host function. */
export interface HostYield {
  readonly yielded: true;
}

/** What a host function returns (see the module comment). */
export type HostResult = void | LuaValue | readonly LuaValue[] | HostYield;

/** A host function's view of its call. */
export interface HostCall {
  readonly vm: LuaVM;
  /** The calling thread (a script thread's coroutine, or the main thread). */
  readonly thread: LuaThread;
  /** Number of arguments. */
  readonly count: number;
  /** Argument i (1-based) in native form; undefined (nil) past the last. */
  arg(i: number): LuaValue;
  /** Any value, but the argument must be present ("value expected"). */
  any(i: number): LuaValue;
  /** A number (numeric strings accepted, as Lua does). */
  number(i: number): number;
  optNumber(i: number, d: number): number;
  /** A number truncated to an integer (C `(int)` cast). */
  integer(i: number): number;
  string(i: number): string;
  optString(i: number, d: string): string;
  /** Lua truthiness of argument i. */
  boolean(i: number): boolean;
  table(i: number): LuaTable;
  /** A full userdata's host payload, checked by `guard` (an engine handle, say); `what` names it in the error. */
  userdata<T>(i: number, what: string, guard: (v: unknown) => v is T): T;
  /** Raises a Lua error `chunk:line: message` at the calling script's position. */
  error(message: string): never;
  /** Raises "bad argument #i to 'name' (message)". */
  argError(i: number, message: string): never;
  /** Suspends the calling coroutine; `values` go to whoever resumes it. Return the token. */
  yield(...values: LuaValue[]): HostYield;
}

const YIELD_TOKEN: HostYield = Object.freeze({ yielded: true as const });

class Call implements HostCall {
  readonly vm: LuaVM;
  readonly thread: LuaThread;
  readonly ra: number;
  readonly count: number;
  constructor(vm: LuaVM, L: LuaThread, ra: number, nargs: number) {
    this.vm = vm;
    this.thread = L;
    this.ra = ra;
    this.count = nargs;
  }
  arg(i: number): LuaValue {
    return arg(this.thread, this.ra, this.count, i);
  }
  any(i: number): LuaValue {
    return checkAny(this.thread, this.ra, this.count, i);
  }
  number(i: number): number {
    return checkNumber(this.thread, this.ra, this.count, i);
  }
  optNumber(i: number, d: number): number {
    return optNumber(this.thread, this.ra, this.count, i, d);
  }
  integer(i: number): number {
    return checkInt(this.thread, this.ra, this.count, i);
  }
  string(i: number): string {
    return checkString(this.thread, this.ra, this.count, i);
  }
  optString(i: number, d: string): string {
    return optString(this.thread, this.ra, this.count, i, d);
  }
  boolean(i: number): boolean {
    const v = this.arg(i);
    return v !== undefined && v !== false;
  }
  table(i: number): LuaTable {
    return checkTable(this.thread, this.ra, this.count, i);
  }
  userdata<T>(i: number, what: string, guard: (v: unknown) => v is T): T {
    const v = this.arg(i);
    if (v instanceof IsLuaUserdata && guard(v.value)) return v.value;
    typeArgError(this.thread, i, this.count, what);
  }
  error(message: string): never {
    libError(this.thread, message);
  }
  argError(i: number, message: string): never {
    argError(this.thread, i, message);
  }
  pendingYield: LuaValue[] | null = null;
  yield(...values: LuaValue[]): HostYield {
    this.pendingYield = values;
    return YIELD_TOKEN;
  }
}

/** The native-protocol function for a typed host function. */
export function hostNative(vm: LuaVM, fn: (call: HostCall) => HostResult): NativeFn {
  return (L, ra, nargs) => {
    const call = new Call(vm, L, ra, nargs);
    const r = fn(call);
    if (r === YIELD_TOKEN) {
      const vals = call.pendingYield ?? [];
      L.ensure(ra + 1 + vals.length + 20);
      for (let i = 0; i < vals.length; i++) L.set(ra + 1 + i, vals[i]);
      return vm.yieldValues(L, ra + 1, vals.length);
    }
    if (r === undefined) return 0;
    if (Array.isArray(r)) {
      L.ensure(ra + r.length + 20);
      for (let i = 0; i < r.length; i++) L.set(ra + i, r[i]);
      return r.length;
    }
    L.set(ra, r as LuaValue);
    return 1;
  };
}

/** A host function value (not registered anywhere): pass it to scripts, store it in a table. */
export function defineHostFunction(vm: LuaVM, name: string, fn: (call: HostCall) => HostResult): HostFunction {
  return new HostFunction(name, hostNative(vm, fn), vm.globals);
}
