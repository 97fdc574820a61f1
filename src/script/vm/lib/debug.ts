/** The debug library (Lua 5.1 `ldblib.c`): traceback, getinfo, locals, upvalues, hooks, metatables, environments. */
import type { LuaVM } from '../vm.ts';
import { traceback } from '../debuginfo.ts';
import { arg, newLib } from './aux.ts';

export function openDebug(vm: LuaVM): void {
  newLib(vm, 'debug', {
    traceback(L, ra, nargs) {
      const msg = arg(L, ra, nargs, 1);
      if (msg !== undefined && typeof msg !== 'string' && typeof msg !== 'number') {
        L.set(ra, msg);
        return 1;
      }
      L.set(ra, (msg !== undefined ? String(msg) + '\n' : '') + traceback(L, L.ciTop - 1));
      return 1;
    },
  });
}
