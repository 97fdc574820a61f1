/**
 * The string library of Lua 5.1 (`lstrlib.c` behaviour): byte, char, dump (refused: no binary chunks from
 * scripts), find, format, gmatch, gsub, len, lower, match, rep, reverse, sub, upper; strings get a metatable whose
 * `__index` is this table, so `s:upper()` works. Strings are byte strings; case mapping is the C locale's.
 */
import { IsLuaTable, LuaTable } from '../table.ts';
import { HKS_STANDARD_TYPES, writeHksChunk } from '../../../formats/hks/chunk.ts';
import { latin1Decode } from '../../../binary/text.ts';
import { HostFunction, IsHostFunction, IsLuaClosure, type LuaValue } from '../value.ts';
import type { LuaThread } from '../thread.ts';
import type { LuaVM } from '../vm.ts';
import { callValue } from '../interp.ts';
import { index } from '../meta.ts';
import { doubleToInt, doubleToLong, doubleToUnsignedLong, formatFloat, formatInteger, numberToString, type PrintfSpec } from '../numfmt.ts';
import { arg, argError, charge, checkAny, checkInt, checkNumber, checkString, checkStringSize, libError, newLib, optInt, typeArgError } from './aux.ts';
import { tostring } from './base.ts';
import { doMatch, getCapture, hasSpecials, MatchState } from './pattern.ts';

/** `posrelat`: a negative position counts from the end. */
function posrelat(pos: number, len: number): number {
  return pos >= 0 ? pos : len + pos + 1;
}

function pushCaptures(L: LuaThread, ms: MatchState, ra: number, s: number, e: number, wholeIfNone: boolean): number {
  const n = ms.level === 0 && wholeIfNone ? 1 : ms.level;
  L.ensure(ra + n + 20);
  for (let i = 0; i < n; i++) L.set(ra + i, getCapture(ms, i, s, e));
  return n;
}

function strFindAux(L: LuaThread, ra: number, nargs: number, find: boolean): number {
  const s = checkString(L, ra, nargs, 1);
  const p = checkString(L, ra, nargs, 2);
  let init = posrelat(optInt(L, ra, nargs, 3, 1), s.length) - 1;
  if (init < 0) init = 0;
  else if (init > s.length) init = s.length;
  const plain = arg(L, ra, nargs, 4);
  if (find && ((plain !== undefined && plain !== false) || !hasSpecials(p))) {
    charge(L, (s.length >> 4) + 1);
    const at = s.indexOf(p, init);
    if (at >= 0) {
      L.set(ra, at + 1);
      L.set(ra + 1, at + p.length);
      return 2;
    }
  } else {
    const ms = new MatchState(L);
    ms.reset(s, p);
    let pi = 0;
    const anchor = p.charCodeAt(0) === 94;
    if (anchor) pi = 1;
    let s1 = init;
    do {
      ms.level = 0;
      ms.depth = 0;
      const e = doMatch(ms, s1, pi);
      if (e !== -1) {
        ms.flush();
        if (find) {
          L.set(ra, s1 + 1);
          L.set(ra + 1, e);
          return pushCaptures(L, ms, ra + 2, -1, -1, false) + 2;
        }
        return pushCaptures(L, ms, ra, s1, e, true);
      }
      s1++;
    } while (s1 <= s.length && !anchor);
    ms.flush();
  }
  L.set(ra, undefined);
  return 1;
}

/** `string.format`'s conversions (C printf on glibc). */
function strFormat(L: LuaThread, ra: number, nargs: number): number {
  const fmt = checkString(L, ra, nargs, 1);
  let out = '';
  let argi = 1;
  for (let i = 0; i < fmt.length; ) {
    const c = fmt.charCodeAt(i);
    if (c !== 37) {
      const next = fmt.indexOf('%', i);
      const end = next < 0 ? fmt.length : next;
      out += fmt.slice(i, end);
      i = end;
      continue;
    }
    i++;
    const cc = fmt.charCodeAt(i);
    if (cc === 37) {
      out += '%';
      i++;
      continue;
    }
    // a bare %d %i %x %X %s (no flags, width or precision): what the general path below does for it, without
    // parsing a spec
    if (cc === 100 || cc === 105 || cc === 120 || cc === 88 || cc === 115) {
      argi++;
      if (argi > nargs) argError(L, argi, 'no value');
      i++;
      if (cc === 115) {
        const s = checkString(L, ra, nargs, argi);
        out += s.length >= 100 ? s : untilNul(s);
      } else {
        const n = Math.trunc(checkNumber(L, ra, nargs, argi));
        if (n >= 0 && n <= Number.MAX_SAFE_INTEGER) out += cc === 120 ? n.toString(16) : cc === 88 ? n.toString(16).toUpperCase() : String(n);
        else if ((cc === 100 || cc === 105) && n >= -Number.MAX_SAFE_INTEGER && n < 0) out += String(n);
        else out += formatInteger(cc === 100 || cc === 105 ? doubleToLong(n) : doubleToUnsignedLong(n), { flags: '', width: 0, precision: -1, conv: fmt[i - 1]! });
      }
      checkStringSize(L, out.length);
      continue;
    }
    // spec: flags, width (2 digits), precision (2 digits)
    const start = i;
    while (i < fmt.length && '-+ #0'.includes(fmt[i]!)) i++;
    if (i - start >= 6) libError(L, 'invalid format (repeated flags)');
    const flags = fmt.slice(start, i);
    let width = 0;
    let nd = 0;
    while (nd < 3 && fmt.charCodeAt(i) >= 48 && fmt.charCodeAt(i) <= 57) {
      width = width * 10 + (fmt.charCodeAt(i) - 48);
      i++;
      nd++;
    }
    let precision = -1;
    if (fmt[i] === '.') {
      i++;
      precision = 0;
      let np = 0;
      while (np < 3 && fmt.charCodeAt(i) >= 48 && fmt.charCodeAt(i) <= 57) {
        precision = precision * 10 + (fmt.charCodeAt(i) - 48);
        i++;
        np++;
      }
      if (np > 2) libError(L, 'invalid format (width or precision too long)');
    }
    if (nd > 2) libError(L, 'invalid format (width or precision too long)');
    const conv = fmt[i++] ?? '';
    const spec: PrintfSpec = { flags, width, precision, conv };
    argi++;
    if (argi > nargs) argError(L, argi, 'no value');
    switch (conv) {
      case 'c': {
        const n = checkNumber(L, ra, nargs, argi);
        out += untilNul(pad(String.fromCharCode(doubleToInt(n) & 255), spec));
        break;
      }
      case 'd':
      case 'i':
      case 'o':
      case 'u':
      case 'x':
      case 'X': {
        const n = Math.trunc(checkNumber(L, ra, nargs, argi));
        // a plain conversion of an integer that is exact as a double is JavaScript's own digits; the rest
        // (flags, width, precision, 64-bit wrap of negatives for %x/%o/%u) goes through formatInteger
        if (i - start === 1 && n >= 0 && n <= Number.MAX_SAFE_INTEGER) out += conv === 'x' ? n.toString(16) : conv === 'X' ? n.toString(16).toUpperCase() : conv === 'o' ? n.toString(8) : String(n);
        else if (i - start === 1 && (conv === 'd' || conv === 'i') && n >= -Number.MAX_SAFE_INTEGER && n < 0) out += String(n);
        else out += formatInteger(conv === 'd' || conv === 'i' ? doubleToLong(n) : doubleToUnsignedLong(n), spec);
        break;
      }
      case 'e':
      case 'E':
      case 'f':
      case 'g':
      case 'G':
        out += formatFloat(checkNumber(L, ra, nargs, argi), spec);
        break;
      case 'q':
        out += quoteString(checkString(L, ra, nargs, argi));
        break;
      case 's': {
        const s = checkString(L, ra, nargs, argi);
        // lua5.1 keeps a string of 100 bytes or more whole when no precision is given (width ignored); the rest go
        // through C's sprintf as C strings (cut at the first NUL)
        if (precision < 0 && s.length >= 100) out += s;
        else {
          const c = untilNul(s);
          out += pad(precision >= 0 ? c.slice(0, precision) : c, spec);
        }
        break;
      }
      default:
        libError(L, `invalid option '%${conv}' to 'format'`);
    }
    checkStringSize(L, out.length);
  }
  L.set(ra, out);
  return 1;
}

/** A C string's view of `s` (lua5.1 appends each `sprintf` result up to its first NUL). */
function untilNul(s: string): string {
  const z = s.indexOf('\0');
  return z < 0 ? s : s.slice(0, z);
}

function pad(s: string, spec: PrintfSpec): string {
  if (s.length >= spec.width) return s;
  const fill = ' '.repeat(spec.width - s.length);
  return spec.flags.includes('-') ? s + fill : fill + s;
}

/** `%q`: a Lua string literal that reads back as the same bytes. */
function quoteString(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 34) out += '\\"';
    else if (c === 92) out += '\\\\';
    else if (c === 10) out += '\\\n';
    else if (c === 13) out += '\\r';
    else if (c === 0) out += '\\000';
    else out += s[i];
  }
  return out + '"';
}

function addValue(L: LuaThread, ms: MatchState, s: number, e: number, repl: LuaValue, parts: string[]): void {
  const src = ms.src;
  if (typeof repl === 'string' || typeof repl === 'number') {
    const r = typeof repl === 'number' ? numberToString(repl) : repl;
    for (let i = 0; i < r.length; i++) {
      const c = r.charCodeAt(i);
      if (c !== 37) {
        const next = r.indexOf('%', i);
        const end = next < 0 ? r.length : next;
        parts.push(r.slice(i, end));
        i = end - 1;
        continue;
      }
      i++;
      const d = r.charCodeAt(i);
      if (!(d >= 48 && d <= 57)) parts.push(i < r.length ? r[i]! : '');
      else if (d === 48) parts.push(src.slice(s, e));
      else {
        const v = getCapture(ms, d - 49, s, e);
        parts.push(typeof v === 'number' ? numberToString(v) : v);
      }
    }
    return;
  }
  let v: LuaValue;
  if (repl instanceof IsLuaTable) v = index(L, repl, getCapture(ms, 0, s, e));
  else {
    const top = L.top;
    const n = ms.level === 0 ? 1 : ms.level;
    L.ensure(top + n + 2);
    L.set(top, repl);
    for (let i = 0; i < n; i++) L.set(top + 1 + i, getCapture(ms, i, s, e));
    L.top = top + 1 + n;
    callValue(L, top, n, 1);
    v = L.get(top);
    L.top = top;
  }
  if (v === undefined || v === false) parts.push(src.slice(s, e));
  else if (typeof v === 'string') parts.push(v);
  else if (typeof v === 'number') parts.push(numberToString(v));
  else libError(L, `invalid replacement value (a ${typeof v === 'boolean' ? 'boolean' : v instanceof IsLuaTable ? 'table' : 'userdata'})`);
}

export function openString(vm: LuaVM): LuaTable {
  const lib = newLib(vm, 'string', {
    byte(L, ra, nargs) {
      const s = checkString(L, ra, nargs, 1);
      const l = s.length;
      const i = posrelat(optInt(L, ra, nargs, 2, 1), l);
      let pose = posrelat(optInt(L, ra, nargs, 3, i), l);
      const posi = i <= 0 ? 1 : i;
      if (pose > l) pose = l;
      if (posi > pose) return 0;
      const n = pose - posi + 1;
      if (posi + n <= pose) libError(L, 'string slice too long');
      L.ensure(ra + n + 20);
      for (let k = 0; k < n; k++) L.set(ra + k, s.charCodeAt(posi - 1 + k));
      return n;
    },
    char(L, ra, nargs) {
      let out = '';
      for (let i = 1; i <= nargs; i++) {
        const c = checkInt(L, ra, nargs, i);
        if (c < 0 || c > 255) argError(L, i, 'invalid value');
        out += String.fromCharCode(c);
      }
      L.set(ra, out);
      return 1;
    },
    dump(L, ra, nargs) {
      const f = arg(L, ra, nargs, 1);
      if (!(f instanceof IsLuaClosure || f instanceof IsHostFunction)) typeArgError(L, 1, nargs, 'function');
      if (!(f instanceof IsLuaClosure)) libError(L, 'unable to dump given function');
      // the function as the main function of a chunk with its own chunk's header and structure section
      const info = f.p.chunk;
      const fn = f.p.fn;
      // a nested function's debug block inherits its source: the dumped main one names it
      const main = fn.debug && fn.debug.source === null ? { ...fn, debug: { ...fn.debug, source: info.source } } : fn;
      const bytes = writeHksChunk({ header: info.header, types: HKS_STANDARD_TYPES.map((t) => ({ ...t })), main, structures: info.structureSection, trailing: new Uint8Array(0) });
      L.set(ra, latin1Decode(bytes));
      return 1;
    },
    find(L, ra, nargs) {
      return strFindAux(L, ra, nargs, true);
    },
    match(L, ra, nargs) {
      return strFindAux(L, ra, nargs, false);
    },
    format: strFormat,
    gmatch(L, ra, nargs) {
      const s = checkString(L, ra, nargs, 1);
      const p = checkString(L, ra, nargs, 2);
      let pos = 0;
      const ms = new MatchState(L);
      L.set(
        ra,
        new HostFunction(
          'gmatch_aux',
          (L2, ra2) => {
            ms.L = L2;
            ms.reset(s, p);
            for (let src = pos; src <= s.length; src++) {
              ms.level = 0;
              ms.depth = 0;
              const e = doMatch(ms, src, 0);
              if (e !== -1) {
                ms.flush();
                const newStart = e === src ? e + 1 : e;
                pos = newStart;
                return pushCaptures(L2, ms, ra2, src, e, true);
              }
            }
            ms.flush();
            pos = s.length + 1;
            return 0;
          },
          vm.globals,
        ),
      );
      return 1;
    },
    gsub(L, ra, nargs) {
      const src = checkString(L, ra, nargs, 1);
      let p = checkString(L, ra, nargs, 2);
      const repl = arg(L, ra, nargs, 3);
      const maxN = optInt(L, ra, nargs, 4, src.length + 1);
      if (!(typeof repl === 'string' || typeof repl === 'number' || repl instanceof IsLuaTable || repl instanceof IsLuaClosure || repl instanceof IsHostFunction)) {
        argError(L, 3, 'string/function/table expected');
      }
      const anchor = p.charCodeAt(0) === 94;
      let pi = 0;
      if (anchor) pi = 1;
      const ms = new MatchState(L);
      ms.reset(src, p);
      const parts: string[] = [];
      let size = 0;
      let s = 0;
      let n = 0;
      while (n < maxN) {
        ms.level = 0;
        ms.depth = 0;
        const e = doMatch(ms, s, pi);
        if (e !== -1) {
          n++;
          const before = parts.length;
          addValue(L, ms, s, e, repl, parts);
          for (let i = before; i < parts.length; i++) size += parts[i]!.length;
          checkStringSize(L, size);
        }
        if (e !== -1 && e > s) s = e;
        else if (s < src.length) {
          parts.push(src[s]!);
          size++;
          s++;
        } else break;
        if (anchor) break;
      }
      ms.flush();
      parts.push(src.slice(s));
      checkStringSize(L, size + src.length - s);
      p = parts.join('');
      L.set(ra, p);
      L.set(ra + 1, n);
      return 2;
    },
    len(L, ra, nargs) {
      L.set(ra, checkString(L, ra, nargs, 1).length);
      return 1;
    },
    lower(L, ra, nargs) {
      const s = checkString(L, ra, nargs, 1);
      L.set(ra, s.replace(/[A-Z]+/g, (m) => m.toLowerCase()));
      return 1;
    },
    upper(L, ra, nargs) {
      const s = checkString(L, ra, nargs, 1);
      L.set(ra, s.replace(/[a-z]+/g, (m) => m.toUpperCase()));
      return 1;
    },
    rep(L, ra, nargs) {
      const s = checkString(L, ra, nargs, 1);
      const n = checkInt(L, ra, nargs, 2);
      if (n <= 0 || s.length === 0) {
        L.set(ra, '');
        return 1;
      }
      checkStringSize(L, s.length * n);
      charge(L, (s.length * n) >> 6);
      L.set(ra, s.repeat(n));
      return 1;
    },
    reverse(L, ra, nargs) {
      const s = checkString(L, ra, nargs, 1);
      let out = '';
      for (let i = s.length - 1; i >= 0; i--) out += s[i];
      L.set(ra, out);
      return 1;
    },
    sub(L, ra, nargs) {
      const s = checkString(L, ra, nargs, 1);
      const l = s.length;
      let start = posrelat(checkInt(L, ra, nargs, 2), l);
      let end = posrelat(optInt(L, ra, nargs, 3, -1), l);
      if (start < 1) start = 1;
      if (end > l) end = l;
      L.set(ra, start <= end ? s.slice(start - 1, end) : '');
      return 1;
    },
  });
  // Lua 5.1's LUA_COMPAT_GFIND
  lib.setStr('gfind', lib.getStr('gmatch'));
  // the string metatable
  const mt = vm.newTable();
  mt.setStr('__index', lib);
  vm.stringMeta = mt;
  vm.stringIndex = lib;
  void checkAny;
  void tostring;
  return lib;
}
