/**
 * The table library of Lua 5.1 (`ltablib.c` behaviour): concat, foreach, foreachi, getn, insert, maxn, remove,
 * setn (obsolete, raises), sort. Reads and writes are raw, as 5.1's are. `sort` is the same quicksort (median of
 * three, the smaller half recursed), so an order function that is not a strict order gives the same result and
 * the same "invalid order function for sorting" as Lua 5.1.
 */
import { LuaTable } from '../table.ts';
import { IsHostFunction, IsLuaClosure, type LuaValue } from '../value.ts';
import type { LuaThread } from '../thread.ts';
import type { LuaVM } from '../vm.ts';
import { callValue } from '../interp.ts';
import { lessThan, rawSet } from '../meta.ts';
import { numberToString } from '../numfmt.ts';
import { arg, argError, charge, checkInt, checkStringSize, checkTable, libError, newLib, optInt, optString, typeArgError } from './aux.ts';

function callF(L: LuaThread, f: LuaValue, a: LuaValue, b: LuaValue, nres: number): LuaValue {
  const top = L.top;
  L.ensure(top + 4);
  L.set(top, f);
  L.set(top + 1, a);
  L.set(top + 2, b);
  L.top = top + 3;
  callValue(L, top, 2, nres);
  const r = L.get(top);
  L.top = top;
  return r;
}

export function openTable(vm: LuaVM): LuaTable {
  return newLib(vm, 'table', {
    concat(L, ra, nargs) {
      const t = checkTable(L, ra, nargs, 1);
      const sep = optString(L, ra, nargs, 2, '');
      const i = optInt(L, ra, nargs, 3, 1);
      const last = arg(L, ra, nargs, 4) === undefined ? t.length() : checkInt(L, ra, nargs, 4);
      const parts: string[] = [];
      let size = 0;
      for (let k = i; k <= last; k++) {
        const v = t.getInt(k);
        if (typeof v === 'string') parts.push(v);
        else if (typeof v === 'number') parts.push(numberToString(v));
        else libError(L, `invalid value (at index ${k}) in table for 'concat'`);
        size += parts[parts.length - 1]!.length + sep.length;
        if ((k & 1023) === 0) {
          checkStringSize(L, size);
          charge(L, 1024);
        }
      }
      checkStringSize(L, size);
      L.set(ra, parts.join(sep));
      return 1;
    },
    foreach(L, ra, nargs) {
      const t = checkTable(L, ra, nargs, 1);
      const f = arg(L, ra, nargs, 2);
      if (!(f instanceof IsLuaClosure || f instanceof IsHostFunction)) typeArgError(L, 2, nargs, 'function');
      const out = { k: undefined as LuaValue, v: undefined as LuaValue };
      let k: LuaValue = undefined;
      for (;;) {
        const r = t.next(k, out);
        if (r !== true) break;
        k = out.k;
        const v = callF(L, f, out.k, out.v, 1);
        if (v !== undefined) {
          L.set(ra, v);
          return 1;
        }
      }
      return 0;
    },
    foreachi(L, ra, nargs) {
      const t = checkTable(L, ra, nargs, 1);
      const f = arg(L, ra, nargs, 2);
      if (!(f instanceof IsLuaClosure || f instanceof IsHostFunction)) typeArgError(L, 2, nargs, 'function');
      const n = t.length();
      for (let i = 1; i <= n; i++) {
        const v = callF(L, f, i, t.getInt(i), 1);
        if (v !== undefined) {
          L.set(ra, v);
          return 1;
        }
      }
      return 0;
    },
    getn(L, ra, nargs) {
      L.set(ra, checkTable(L, ra, nargs, 1).length());
      return 1;
    },
    setn(L, ra, nargs) {
      checkTable(L, ra, nargs, 1);
      libError(L, "'setn' is obsolete");
    },
    maxn(L, ra, nargs) {
      const t = checkTable(L, ra, nargs, 1);
      let max = 0;
      const out = { k: undefined as LuaValue, v: undefined as LuaValue };
      let k: LuaValue = undefined;
      while (t.next(k, out) === true) {
        k = out.k;
        if (typeof k === 'number' && k > max) max = k;
      }
      L.set(ra, max);
      return 1;
    },
    insert(L, ra, nargs) {
      const t = checkTable(L, ra, nargs, 1);
      let e = t.length() + 1;
      let pos: number;
      if (nargs === 2) pos = e;
      else if (nargs === 3) {
        pos = checkInt(L, ra, nargs, 2);
        if (pos > e) e = pos;
        for (let i = e; i > pos; i--) rawSet(L, t, i, t.getInt(i - 1));
      } else libError(L, "wrong number of arguments to 'insert'");
      rawSet(L, t, pos, L.get(ra + nargs));
      return 0;
    },
    remove(L, ra, nargs) {
      const t = checkTable(L, ra, nargs, 1);
      const e = t.length();
      let pos = optInt(L, ra, nargs, 2, e);
      if (!(1 <= pos && pos <= e)) return 0;
      const v = t.getInt(pos);
      for (; pos < e; pos++) rawSet(L, t, pos, t.getInt(pos + 1));
      rawSet(L, t, e, undefined);
      L.set(ra, v);
      return 1;
    },
    sort(L, ra, nargs) {
      const t = checkTable(L, ra, nargs, 1);
      const n = t.length();
      const f = arg(L, ra, nargs, 2);
      if (f !== undefined && !(f instanceof IsLuaClosure || f instanceof IsHostFunction)) typeArgError(L, 2, nargs, 'function');
      const lt =
        f === undefined
          ? (a: LuaValue, b: LuaValue): boolean => lessThan(L, a, b)
          : (a: LuaValue, b: LuaValue): boolean => {
              const r = callF(L, f, a, b, 1);
              return r !== undefined && r !== false;
            };
      const get = (i: number): LuaValue => t.getInt(i);
      const set = (i: number, v: LuaValue): void => rawSet(L, t, i, v);
      const swap = (i: number, j: number): void => {
        const x = get(i);
        set(i, get(j));
        set(j, x);
      };
      const sort = (lo: number, up: number): void => {
        while (lo < up) {
          charge(L, up - lo);
          if (lt(get(up), get(lo))) swap(lo, up);
          if (up - lo === 1) break;
          let i = Math.floor((lo + up) / 2);
          if (lt(get(i), get(lo))) swap(i, lo);
          else if (lt(get(up), get(i))) swap(i, up);
          if (up - lo === 2) break;
          const pivot = get(i);
          swap(i, up - 1);
          i = lo;
          let j = up - 1;
          for (;;) {
            while (lt(get(++i), pivot)) if (i > up) libError(L, 'invalid order function for sorting');
            while (lt(pivot, get(--j))) if (j < lo) libError(L, 'invalid order function for sorting');
            if (j < i) break;
            swap(i, j);
          }
          swap(up - 1, i);
          let a: number;
          let b: number;
          if (i - lo < up - i) {
            a = lo;
            b = i - 1;
            lo = i + 1;
          } else {
            a = i + 1;
            b = up;
            up = i - 1;
          }
          sort(a, b);
        }
      };
      sort(1, n);
      void argError;
      return 0;
    },
  });
}
