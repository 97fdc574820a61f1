/** Opens the standard library as HavokScript ships it to scripts (base, coroutine, string, table, math, os, io, debug). */
import type { LuaVM } from '../vm.ts';
import { openBase, type BaseLibOptions } from './base.ts';
import { openString } from './string.ts';
import { openTable } from './table.ts';
import { openMath } from './math.ts';
import { openOs, type OsHost } from './os.ts';
import { openIo, type IoHost } from './io.ts';
import { openDebug } from './debug.ts';
import { openPackage } from './package.ts';

export interface StdlibOptions extends BaseLibOptions {
  os?: OsHost;
  /** File access granted to `io.open` & co. (absent: none). */
  files?: IoHost;
  /** Open the debug library (default true). */
  debug?: boolean;
  /** package.path for `require` (default `./?.lua;./?/init.lua`). */
  path?: string;
}

export function openStdlib(vm: LuaVM, options: StdlibOptions = {}): void {
  openBase(vm, options);
  openString(vm);
  openTable(vm);
  openMath(vm);
  openOs(vm, options.os);
  openIo(vm, options.files);
  if (options.debug !== false) openDebug(vm);
  openPackage(vm, options);
}
