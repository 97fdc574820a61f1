/**
 * Helpers for native library functions (Lua 5.1's `lauxlib`): argument checks with Lua's messages ("bad argument
 * #1 to 'insert' (table expected, got nil)"), coercions, errors with the caller's position, registration.
 *
 * Arguments of a native call live at `L.sv/sn[ra + 1 .. ra + nargs]`; results are written from `ra` on.
 */
import { IsLuaTable, LuaTable } from '../table.ts';
import { HostFunction, type LuaValue, type NativeFn } from '../value.ts';
import type { LuaThread } from '../thread.ts';
import type { LuaVM } from '../vm.ts';
import { LuaError } from '../vm.ts';
import { calledName, chunkId, currentLine } from '../debuginfo.ts';
import { toNumber, typeName } from '../meta.ts';
import { numberToString } from '../numfmt.ts';

/** `chunk:line: ` of the frame `level` levels below the running native function (luaL_where), or ''. */
export function whereLevel(L: LuaThread, level: number): string {
  const i = L.ciTop - level;
  if (i < 1) return '';
  const ci = L.cis[i]!;
  if (ci.cl === null) return '';
  const line = currentLine(ci);
  if (line <= 0) return line === -1 && ci.cl.p.lines === null ? `${chunkId(ci.cl.p.chunk.source)}:?: ` : '';
  return `${chunkId(ci.cl.p.chunk.source)}:${line}: `;
}

/** `luaL_error`: a runtime error with the position of the Lua code that called the native function. */
export function libError(L: LuaThread, msg: string): never {
  throw new LuaError(whereLevel(L, 1) + msg);
}

/** The name the running native function was called by (`'insert'`), '?' when unknown. */
function calledAs(L: LuaThread): { name: string; method: boolean } {
  const nm = calledName(L, L.ciTop);
  if (nm) return { name: nm.name, method: nm.kind === 'method' };
  return { name: '?', method: false };
}

/** `luaL_argerror`. */
export function argError(L: LuaThread, i: number, msg: string): never {
  const { name, method } = calledAs(L);
  if (method) {
    i--;
    if (i === 0) libError(L, `calling '${name}' on bad self (${msg})`);
  }
  libError(L, `bad argument #${i} to '${name}' (${msg})`);
}

/** `luaL_typerror`. */
export function typeArgError(L: LuaThread, i: number, nargs: number, expected: string): never {
  const got = i > nargs ? 'no value' : typeName(L.get(L.ci.func + i));
  argError(L, i, `${expected} expected, got ${got}`);
}

/** Argument i (1-based) in native form, undefined past the last. */
export function arg(L: LuaThread, ra: number, nargs: number, i: number): LuaValue {
  return i <= nargs ? L.get(ra + i) : undefined;
}

export function checkAny(L: LuaThread, ra: number, nargs: number, i: number): LuaValue {
  if (i > nargs) argError(L, i, 'value expected');
  return L.get(ra + i);
}

/** `luaL_checknumber` (strings that read as numbers are accepted). */
export function checkNumber(L: LuaThread, ra: number, nargs: number, i: number): number {
  const v = i <= nargs ? L.get(ra + i) : undefined;
  if (typeof v === 'number') return v;
  const n = toNumber(L.vm, v);
  if (n === undefined) typeArgError(L, i, nargs, 'number');
  return n;
}

export function optNumber(L: LuaThread, ra: number, nargs: number, i: number, d: number): number {
  const v = i <= nargs ? L.get(ra + i) : undefined;
  if (v === undefined) return d;
  return checkNumber(L, ra, nargs, i);
}

/** C's `(int)x` on x86-64 (truncation; out of range gives INT_MIN). */
export function toInt(x: number): number {
  const t = Math.trunc(x);
  return t >= -2147483648 && t <= 2147483647 ? t : -2147483648;
}

/** `luaL_checkint`. */
export function checkInt(L: LuaThread, ra: number, nargs: number, i: number): number {
  return toInt(checkNumber(L, ra, nargs, i));
}

export function optInt(L: LuaThread, ra: number, nargs: number, i: number, d: number): number {
  const v = i <= nargs ? L.get(ra + i) : undefined;
  if (v === undefined) return d;
  return toInt(checkNumber(L, ra, nargs, i));
}

/** `luaL_checklstring`: numbers are converted (in place, as 5.1 does). */
export function checkString(L: LuaThread, ra: number, nargs: number, i: number): string {
  const v = i <= nargs ? L.get(ra + i) : undefined;
  if (typeof v === 'string') return v;
  if (typeof v === 'number') {
    const s = numberToString(v);
    L.sv[ra + i] = s;
    return s;
  }
  typeArgError(L, i, nargs, 'string');
}

export function optString(L: LuaThread, ra: number, nargs: number, i: number, d: string): string {
  const v = i <= nargs ? L.get(ra + i) : undefined;
  if (v === undefined) return d;
  return checkString(L, ra, nargs, i);
}

export function checkTable(L: LuaThread, ra: number, nargs: number, i: number): LuaTable {
  const v = i <= nargs ? L.get(ra + i) : undefined;
  if (v instanceof IsLuaTable) return v;
  typeArgError(L, i, nargs, 'table');
}

/** Charges `n` instructions to the budget for work a library function does (pattern matching, copies). */
export function charge(L: LuaThread, n: number): void {
  L.vm.charge(L, n);
}

/** Raises the string-size limit error when a result would be longer than the budget allows. */
export function checkStringSize(L: LuaThread, n: number): void {
  if (n > L.vm.limits.maxStringLength) L.vm.limitError(L, `string length overflow (strings are limited to ${L.vm.limits.maxStringLength} bytes)`);
}

/** Registers native functions into a table, named `prefix.name` for tracebacks. */
export function registerLib(vm: LuaVM, t: LuaTable, prefix: string, fns: Record<string, NativeFn>): void {
  for (const [name, fn] of Object.entries(fns)) t.setStr(name, new HostFunction(prefix ? `${prefix}.${name}` : name, fn, vm.globals));
}

/** A library table registered as a global. */
export function newLib(vm: LuaVM, name: string, fns: Record<string, NativeFn>): LuaTable {
  const t = vm.newTable();
  registerLib(vm, t, name, fns);
  vm.globals.setStr(name, t);
  return t;
}
