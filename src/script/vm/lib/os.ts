/**
 * `os` as HavokScript scripts get it: clock, date, difftime, getenv, time. Process control and the file system
 * (`exit`, `remove`, `rename`, `tmpname`, `execute`) exist only when the host grants them through {@link OsHost}.
 */
import { LuaTable } from '../table.ts';
import type { LuaValue } from '../value.ts';
import type { LuaVM } from '../vm.ts';
import { arg, checkNumber, checkString, checkTable, libError, newLib, optString } from './aux.ts';

/** What the host lets `os` see. */
export interface OsHost {
  /** Seconds of processor time (os.clock). Default: seconds since the VM's library was opened. */
  clock?: () => number;
  /** Environment variables (os.getenv); absent: every variable is unset. */
  getenv?: (name: string) => string | undefined;
  /** Present when scripts may end the process (os.exit). */
  exit?: (code: number) => never;
  /** Present when scripts may remove / rename files. */
  remove?: (path: string) => string | null;
  rename?: (from: string, to: string) => string | null;
  /** Present when scripts may name temporary files (os.tmpname). */
  tmpname?: () => string;
}

const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

interface Tm {
  year: number;
  month: number; // 1..12
  day: number;
  hour: number;
  min: number;
  sec: number;
  wday: number; // 1 = Sunday
  yday: number; // 1..366
  isdst: boolean;
}

function toTm(t: number, utc: boolean): Tm {
  const d = new Date(t * 1000);
  const year = utc ? d.getUTCFullYear() : d.getFullYear();
  const month = (utc ? d.getUTCMonth() : d.getMonth()) + 1;
  const day = utc ? d.getUTCDate() : d.getDate();
  const start = utc ? Date.UTC(year, 0, 1) : new Date(year, 0, 1).getTime();
  const today = utc ? Date.UTC(year, month - 1, day) : new Date(year, month - 1, day).getTime();
  const yday = Math.round((today - start) / 86400000) + 1;
  let isdst = false;
  if (!utc) {
    const jan = new Date(year, 0, 1).getTimezoneOffset();
    const jul = new Date(year, 6, 1).getTimezoneOffset();
    isdst = d.getTimezoneOffset() < Math.max(jan, jul);
  }
  return {
    year,
    month,
    day,
    hour: utc ? d.getUTCHours() : d.getHours(),
    min: utc ? d.getUTCMinutes() : d.getMinutes(),
    sec: utc ? d.getUTCSeconds() : d.getSeconds(),
    wday: (utc ? d.getUTCDay() : d.getDay()) + 1,
    yday,
    isdst,
  };
}

const p2 = (n: number): string => String(n).padStart(2, '0');

/** C `strftime` in the C locale for the conversions Lua scripts use. */
function strftime(fmt: string, tm: Tm): string {
  let out = '';
  for (let i = 0; i < fmt.length; i++) {
    const c = fmt[i]!;
    if (c !== '%') {
      out += c;
      continue;
    }
    const f = fmt[++i];
    const h12 = tm.hour % 12 === 0 ? 12 : tm.hour % 12;
    switch (f) {
      case 'a':
        out += DAYS[tm.wday - 1]!.slice(0, 3);
        break;
      case 'A':
        out += DAYS[tm.wday - 1]!;
        break;
      case 'b':
      case 'h':
        out += MONTHS[tm.month - 1]!.slice(0, 3);
        break;
      case 'B':
        out += MONTHS[tm.month - 1]!;
        break;
      case 'c':
        out += `${DAYS[tm.wday - 1]!.slice(0, 3)} ${MONTHS[tm.month - 1]!.slice(0, 3)} ${String(tm.day).padStart(2, ' ')} ${p2(tm.hour)}:${p2(tm.min)}:${p2(tm.sec)} ${tm.year}`;
        break;
      case 'd':
        out += p2(tm.day);
        break;
      case 'e':
        out += String(tm.day).padStart(2, ' ');
        break;
      case 'D':
      case 'x':
        out += `${p2(tm.month)}/${p2(tm.day)}/${p2(tm.year % 100)}`;
        break;
      case 'F':
        out += `${tm.year}-${p2(tm.month)}-${p2(tm.day)}`;
        break;
      case 'H':
        out += p2(tm.hour);
        break;
      case 'I':
        out += p2(h12);
        break;
      case 'j':
        out += String(tm.yday).padStart(3, '0');
        break;
      case 'm':
        out += p2(tm.month);
        break;
      case 'M':
        out += p2(tm.min);
        break;
      case 'n':
        out += '\n';
        break;
      case 'p':
        out += tm.hour < 12 ? 'AM' : 'PM';
        break;
      case 'S':
        out += p2(tm.sec);
        break;
      case 't':
        out += '\t';
        break;
      case 'T':
      case 'X':
        out += `${p2(tm.hour)}:${p2(tm.min)}:${p2(tm.sec)}`;
        break;
      case 'w':
        out += String(tm.wday - 1);
        break;
      case 'y':
        out += p2(tm.year % 100);
        break;
      case 'Y':
        out += String(tm.year);
        break;
      case 'Z':
        out += '';
        break;
      case '%':
        out += '%';
        break;
      default:
        out += '%' + (f ?? '');
    }
  }
  return out;
}

export function openOs(vm: LuaVM, host: OsHost = {}): LuaTable {
  const t0 = typeof performance !== 'undefined' ? performance.now() : Date.now();
  const clock = host.clock ?? ((): number => ((typeof performance !== 'undefined' ? performance.now() : Date.now()) - t0) / 1000);
  const field = (t: LuaTable, k: string, d: number | undefined, L: Parameters<typeof libError>[0]): number => {
    const v = t.getStr(k);
    if (typeof v === 'number') return v;
    if (typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v))) return Number(v);
    if (d === undefined) libError(L, `field '${k}' missing in date table`);
    return d;
  };
  return newLib(vm, 'os', {
    clock(L, ra) {
      L.set(ra, clock());
      return 1;
    },
    time(L, ra, nargs) {
      const v = arg(L, ra, nargs, 1);
      if (v === undefined) {
        L.set(ra, Math.floor(Date.now() / 1000));
        return 1;
      }
      const t = checkTable(L, ra, nargs, 1);
      const d = new Date(field(t, 'year', undefined, L), field(t, 'month', undefined, L) - 1, field(t, 'day', undefined, L), field(t, 'hour', 12, L), field(t, 'min', 0, L), field(t, 'sec', 0, L));
      const ms = d.getTime();
      L.set(ra, Number.isNaN(ms) ? undefined : Math.floor(ms / 1000));
      return 1;
    },
    date(L, ra, nargs) {
      let fmt = optString(L, ra, nargs, 1, '%c');
      const tv = arg(L, ra, nargs, 2);
      const t = tv === undefined ? Date.now() / 1000 : checkNumber(L, ra, nargs, 2);
      let utc = false;
      if (fmt.startsWith('!')) {
        utc = true;
        fmt = fmt.slice(1);
      }
      const tm = toTm(Math.floor(t), utc);
      if (fmt.startsWith('*t')) {
        const r = vm.newTable(0, 9);
        const set = (k: string, v: LuaValue): void => r.setStr(k, v);
        set('sec', tm.sec);
        set('min', tm.min);
        set('hour', tm.hour);
        set('day', tm.day);
        set('month', tm.month);
        set('year', tm.year);
        set('wday', tm.wday);
        set('yday', tm.yday);
        set('isdst', tm.isdst);
        L.set(ra, r);
        return 1;
      }
      L.set(ra, strftime(fmt, tm));
      return 1;
    },
    difftime(L, ra, nargs) {
      L.set(ra, checkNumber(L, ra, nargs, 1) - (arg(L, ra, nargs, 2) === undefined ? 0 : checkNumber(L, ra, nargs, 2)));
      return 1;
    },
    getenv(L, ra, nargs) {
      const name = checkString(L, ra, nargs, 1);
      L.set(ra, host.getenv?.(name));
      return 1;
    },
    exit(L, ra, nargs) {
      if (!host.exit) libError(L, 'os.exit is not granted to scripts');
      const v = arg(L, ra, nargs, 1);
      return host.exit(typeof v === 'number' ? v : v === false ? 1 : 0);
    },
    remove(L, ra, nargs) {
      const name = checkString(L, ra, nargs, 1);
      if (!host.remove) libError(L, 'os.remove is not granted to scripts');
      const err = host.remove(name);
      if (err === null) {
        L.set(ra, true);
        return 1;
      }
      L.set(ra, undefined);
      L.set(ra + 1, err);
      return 2;
    },
    rename(L, ra, nargs) {
      const a = checkString(L, ra, nargs, 1);
      const b = checkString(L, ra, nargs, 2);
      if (!host.rename) libError(L, 'os.rename is not granted to scripts');
      const err = host.rename(a, b);
      if (err === null) {
        L.set(ra, true);
        return 1;
      }
      L.set(ra, undefined);
      L.set(ra + 1, err);
      return 2;
    },
    tmpname(L, ra) {
      if (!host.tmpname) libError(L, 'os.tmpname is not granted to scripts');
      L.set(ra, host.tmpname());
      return 1;
    },
    execute(L) {
      libError(L, 'os.execute is not granted to scripts');
    },
    setlocale(L, ra, nargs) {
      const loc = arg(L, ra, nargs, 1);
      L.set(ra, loc === undefined || loc === 'C' || loc === '' ? 'C' : undefined);
      return 1;
    },
  });
}
