/**
 * `require`, `module` and the `package` table of Lua 5.1 (`loadlib.c` behaviour): package.loaded (the libraries
 * are in it), preload, path searched through the host's file reader, loaders, seeall; no C libraries
 * (`package.loadlib` fails, cpath is empty). Without a granted file reader only preloaded and already loaded modules
 * are found.
 */
import { IsLuaTable, LuaTable } from '../table.ts';
import { HostFunction, IsHostFunction, IsLuaClosure, LuaUserdata, type LuaValue } from '../value.ts';
import type { LuaThread } from '../thread.ts';
import { LuaError, type LuaVM } from '../vm.ts';
import { callValue } from '../interp.ts';
import { arg, checkString, checkTable, libError, registerLib } from './aux.ts';
import type { SourceLoader } from './base.ts';

/** Options of the package library. */
export interface PackageOptions {
  loadSource?: SourceLoader;
  readFile?: (path: string) => string | null;
  /** package.path (default `./?.lua;./?/init.lua`). */
  path?: string;
}

/** The value require stores while a module loads, to detect loops. */
const LOADING = new LuaUserdata('require: loading');

export function openPackage(vm: LuaVM, options: PackageOptions = {}): void {
  const G = vm.globals;
  const pkg = vm.newTable();
  G.setStr('package', pkg);
  const loaded = vm.newTable();
  vm.registry.setStr('_LOADED', loaded);
  pkg.setStr('loaded', loaded);
  pkg.setStr('preload', vm.newTable());
  pkg.setStr('path', options.path ?? './?.lua;./?/init.lua');
  pkg.setStr('cpath', '');
  pkg.setStr('config', '/\n;\n?\n!\n-');
  for (const lib of ['_G', 'string', 'table', 'math', 'os', 'io', 'debug', 'coroutine', 'package']) {
    const t = G.getStr(lib);
    if (t !== undefined) loaded.setStr(lib, t);
  }

  const call1 = (L: LuaThread, f: LuaValue, a: LuaValue): LuaValue => {
    const top = L.top;
    L.ensure(top + 3);
    L.set(top, f);
    L.set(top + 1, a);
    L.top = top + 2;
    callValue(L, top, 1, 1);
    const r = L.get(top);
    L.top = top;
    return r;
  };

  const searchPath = (L: LuaThread, name: string, path: string): { file: string | null; tried: string } => {
    const fname = name.replace(/\./g, '/');
    let tried = '';
    for (const template of path.split(';')) {
      if (template === '') continue;
      const file = template.replace(/\?/g, fname);
      if (options.readFile?.(file) != null) return { file, tried };
      tried += `\n\tno file '${file}'`;
    }
    void L;
    return { file: null, tried };
  };

  const loaders = vm.newTable();
  const preloadLoader = new HostFunction('loader_preload', (L, ra, nargs) => {
    const name = checkString(L, ra, nargs, 1);
    const preload = pkg.getStr('preload');
    if (!(preload instanceof IsLuaTable)) libError(L, "'package.preload' must be a table");
    const f = preload.getStr(name);
    L.set(ra, f === undefined ? `\n\tno field package.preload['${name}']` : f);
    return 1;
  });
  const luaLoader = new HostFunction('loader_Lua', (L, ra, nargs) => {
    const name = checkString(L, ra, nargs, 1);
    const path = pkg.getStr('path');
    if (typeof path !== 'string') libError(L, "'package.path' must be a string");
    const { file, tried } = searchPath(L, name, path);
    if (file === null) {
      L.set(ra, tried);
      return 1;
    }
    const text = options.readFile!(file)!;
    const r = options.loadSource ? options.loadSource(text, '@' + file) : { error: 'no compiler' };
    if (!(r instanceof IsLuaClosure)) libError(L, `error loading module '${name}' from file '${file}':\n\t${r.error}`);
    r.env = vm.globals;
    L.set(ra, r);
    return 1;
  });
  const cLoader = new HostFunction('loader_C', (L, ra) => {
    L.set(ra, '');
    return 1;
  });
  [preloadLoader, luaLoader, cLoader, cLoader].forEach((f, i) => loaders.setInt(i + 1, f));
  pkg.setStr('loaders', loaders);

  registerLib(vm, G, '', {
    require(L, ra, nargs) {
      const name = checkString(L, ra, nargs, 1);
      const have = loaded.getStr(name);
      if (have !== undefined && have !== false) {
        if (have === LOADING) libError(L, `loop or previous error loading module '${name}'`);
        L.set(ra, have);
        return 1;
      }
      const ls = pkg.getStr('loaders');
      if (!(ls instanceof IsLuaTable)) libError(L, "'package.loaders' must be a table");
      let msg = '';
      let loader: LuaValue = undefined;
      for (let i = 1; ; i++) {
        const f = ls.getInt(i);
        if (f === undefined) libError(L, `module '${name}' not found:${msg}`);
        const r = call1(L, f, name);
        if (r instanceof IsLuaClosure || r instanceof IsHostFunction) {
          loader = r;
          break;
        }
        if (typeof r === 'string') msg += r;
      }
      loaded.setStr(name, LOADING);
      const r = call1(L, loader, name);
      if (r !== undefined) loaded.setStr(name, r);
      if (loaded.getStr(name) === LOADING) loaded.setStr(name, true);
      L.set(ra, loaded.getStr(name));
      return 1;
    },
    module(L, ra, nargs) {
      const name = checkString(L, ra, nargs, 1);
      let mod = loaded.getStr(name);
      if (!(mod instanceof IsLuaTable)) {
        // findtable: create nested tables along the dotted name
        let t: LuaTable = G;
        for (const part of name.split('.')) {
          let next = t.getStr(part);
          if (next === undefined) {
            next = vm.newTable();
            t.setStr(part, next);
          } else if (!(next instanceof IsLuaTable)) libError(L, `name conflict for module '${name}'`);
          t = next as LuaTable;
        }
        mod = t;
        loaded.setStr(name, mod);
      }
      const m = mod as LuaTable;
      if (m.getStr('_NAME') === undefined) {
        m.setStr('_M', m);
        m.setStr('_NAME', name);
        const dot = name.lastIndexOf('.');
        m.setStr('_PACKAGE', dot < 0 ? '' : name.slice(0, dot + 1));
      }
      // the calling function's environment becomes the module
      const caller = L.cis[L.ciTop - 1];
      if (!caller || caller.cl === null) libError(L, "'module' not called from a Lua function");
      caller.cl.env = m;
      for (let i = 2; i <= nargs; i++) call1(L, arg(L, ra, nargs, i), m);
      return 0;
    },
  });
  registerLib(vm, pkg, 'package', {
    seeall(L, ra, nargs) {
      const m = checkTable(L, ra, nargs, 1);
      let mt = m.metatable;
      if (mt === null) {
        mt = vm.newTable();
        m.metatable = mt;
      }
      mt.setStr('__index', G);
      return 0;
    },
    loadlib(L, ra) {
      L.set(ra, undefined);
      L.set(ra + 1, 'dynamic libraries not enabled; check your Lua installation');
      L.set(ra + 2, 'absent');
      return 3;
    },
  });
  void LuaError;
}
