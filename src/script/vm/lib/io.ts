/**
 * `io` on the host's standard streams: io.write / io.read / io.lines and the `io.stdout`, `io.stderr`, `io.stdin`
 * handles with their methods (`write`, `read`, `lines`, `flush`, `close`, `seek`, `setvbuf`). `io.open` and
 * `io.output(name)` / `io.input(name)` work only when the host grants a file system ({@link IoHost.open}).
 * Text is bytes (one char per byte).
 */
import { LuaTable } from '../table.ts';
import { HostFunction, IsLuaUserdata, LuaUserdata, type LuaValue } from '../value.ts';
import type { LuaThread } from '../thread.ts';
import type { LuaVM } from '../vm.ts';
import { numberToString, stringToNumber } from '../numfmt.ts';
import { arg, argError, checkInt, checkString, libError, newLib, optString, registerLib, typeArgError } from './aux.ts';
import { addressOf } from './base.ts';

/** An open stream as the io library sees it. */
export interface StreamHandle {
  /** Appends bytes (one char per byte). */
  write?(text: string): void;
  /** Next chunk of bytes, null at end of input. */
  read?(): string | null;
  flush?(): void;
  close?(): void;
  /** Moves the position (files only): returns the new offset or an error message. */
  seek?(whence: 'set' | 'cur' | 'end', offset: number): number | string;
}

/** File access a host may grant. */
export interface IoHost {
  /** Opens a file (`mode` as C fopen) or returns an error message. */
  open?: (path: string, mode: string) => StreamHandle | string;
  /** A fresh anonymous file opened for update (io.tmpfile). */
  tmpfile?: () => StreamHandle | string;
}

/** The state behind a file userdata: the handle, a read buffer, closed or not. */
class LuaFile {
  handle: StreamHandle;
  buf = '';
  eof = false;
  closed = false;
  readonly standard: boolean;
  constructor(handle: StreamHandle, standard: boolean) {
    this.handle = handle;
    this.standard = standard;
  }
  /** Makes at least n bytes available (or all there is). */
  fill(n: number): void {
    while (this.buf.length < n && !this.eof) {
      const chunk = this.handle.read ? this.handle.read() : null;
      if (chunk === null) this.eof = true;
      else this.buf += chunk;
    }
  }
  readLine(keepNewline = false): string | null {
    for (let searched = 0; ; ) {
      const nl = this.buf.indexOf('\n', searched);
      if (nl >= 0) {
        const line = this.buf.slice(0, keepNewline ? nl + 1 : nl);
        this.buf = this.buf.slice(nl + 1);
        return line;
      }
      searched = this.buf.length;
      if (this.eof) break;
      this.fill(this.buf.length + 1);
    }
    if (this.buf.length === 0) return null;
    const line = this.buf;
    this.buf = '';
    return line;
  }
  readAll(): string {
    while (!this.eof) this.fill(this.buf.length + 65536);
    const s = this.buf;
    this.buf = '';
    return s;
  }
  readChars(n: number): string | null {
    this.fill(n);
    if (this.buf.length === 0 && n > 0) return null;
    if (n === 0) return this.eof && this.buf.length === 0 ? null : '';
    const s = this.buf.slice(0, n);
    this.buf = this.buf.slice(n);
    return s;
  }
  /** fscanf("%lf"): white space, then the longest prefix that reads as a number. */
  readNumber(): number | undefined {
    for (;;) {
      this.fill(1);
      if (this.buf.length === 0) return undefined;
      const c = this.buf.charCodeAt(0);
      if (c === 32 || (c >= 9 && c <= 13)) this.buf = this.buf.slice(1);
      else break;
    }
    this.fill(256);
    const m = /^[+-]?(0[xX][0-9a-fA-F]+|(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?|inf(inity)?|nan)/i.exec(this.buf);
    if (!m) return undefined;
    this.buf = this.buf.slice(m[0].length);
    return stringToNumber(m[0]);
  }
}

export function openIo(vm: LuaVM, host: IoHost = {}): LuaTable {
  const methods = vm.newTable();
  const mt = vm.newTable();
  mt.setStr('__index', methods);
  mt.setStr('__name', 'FILE*');
  const files = new WeakMap<LuaUserdata, LuaFile>();

  const wrap = (h: StreamHandle, standard: boolean): LuaUserdata => {
    const u = new LuaUserdata(null, mt);
    const f = new LuaFile(h, standard);
    u.value = f;
    files.set(u, f);
    return u;
  };
  const toFile = (L: LuaThread, ra: number, nargs: number, i: number): LuaFile => {
    const v = arg(L, ra, nargs, i);
    const f = v instanceof IsLuaUserdata ? files.get(v) : undefined;
    if (!f) typeArgError(L, i, nargs, 'FILE*');
    return f;
  };
  const openFile = (L: LuaThread, ra: number, nargs: number, i: number): LuaFile => {
    const f = toFile(L, ra, nargs, i);
    if (f.closed) libError(L, 'attempt to use a closed file');
    return f;
  };

  const stdout = wrap({ write: (s) => vm.io.stdout(s) }, true);
  const stderr = wrap({ write: (s) => vm.io.stderr(s) }, true);
  const stdin = wrap({ read: () => (vm.io.stdin ? vm.io.stdin() : null) }, true);
  let output = stdout;
  let input = stdin;

  const write = (L: LuaThread, f: LuaFile, ra: number, nargs: number, first: number): void => {
    if (!f.handle.write) libError(L, 'file is not open for writing');
    for (let i = first; i <= nargs; i++) {
      const v = L.get(ra + i);
      if (typeof v === 'number') f.handle.write(numberToString(v));
      else if (typeof v === 'string') f.handle.write(v);
      else typeArgError(L, i - first + 1, nargs - first + 1, 'string');
    }
  };
  /** g_read: reads with the formats from argument `first` on; results from `ra`. */
  const read = (L: LuaThread, f: LuaFile, ra: number, nargs: number, first: number): number => {
    const results: LuaValue[] = [];
    if (nargs < first) results.push(f.readLine() ?? undefined);
    else {
      for (let i = first; i <= nargs; i++) {
        const fmt = L.get(ra + i);
        let r: LuaValue;
        if (typeof fmt === 'number') r = f.readChars(Math.trunc(fmt)) ?? undefined;
        else {
          const s = typeof fmt === 'string' ? fmt : '';
          if (typeof fmt !== 'string' || s[0] !== '*') argError(L, i, 'invalid format');
          const c = s[1];
          if (c === 'n') r = f.readNumber();
          else if (c === 'l') r = f.readLine() ?? undefined;
          else if (c === 'a') r = f.readAll();
          else argError(L, i, 'invalid format');
        }
        results.push(r);
        if (r === undefined) break;
      }
    }
    L.ensure(ra + results.length + 20);
    for (let i = 0; i < results.length; i++) L.set(ra + i, results[i]);
    return results.length;
  };
  const linesIterator = (f: LuaFile, closeAtEof: boolean): HostFunction =>
    new HostFunction('lines_iterator', (L, ra) => {
      if (f.closed) libError(L, 'file is already closed');
      const line = f.readLine();
      if (line === null) {
        if (closeAtEof) {
          f.closed = true;
          f.handle.close?.();
        }
        return 0;
      }
      L.set(ra, line);
      return 1;
    });
  const close = (L: LuaThread, ra: number, f: LuaFile): number => {
    if (f.standard) {
      L.set(ra, undefined);
      L.set(ra + 1, 'cannot close standard file');
      return 2;
    }
    f.closed = true;
    f.handle.close?.();
    L.set(ra, true);
    return 1;
  };

  registerLib(vm, methods, 'file', {
    write(L, ra, nargs) {
      const f = openFile(L, ra, nargs, 1);
      write(L, f, ra, nargs, 2);
      L.copy(ra, ra + 1);
      return 1;
    },
    read(L, ra, nargs) {
      return read(L, openFile(L, ra, nargs, 1), ra, nargs, 2);
    },
    lines(L, ra, nargs) {
      L.set(ra, linesIterator(openFile(L, ra, nargs, 1), false));
      return 1;
    },
    flush(L, ra, nargs) {
      openFile(L, ra, nargs, 1).handle.flush?.();
      L.copy(ra, ra + 1);
      return 1;
    },
    close(L, ra, nargs) {
      return close(L, ra, openFile(L, ra, nargs, 1));
    },
    seek(L, ra, nargs) {
      const f = openFile(L, ra, nargs, 1);
      const whence = optString(L, ra, nargs, 2, 'cur');
      if (whence !== 'set' && whence !== 'cur' && whence !== 'end') argError(L, 2, `invalid option '${whence}'`);
      const off = arg(L, ra, nargs, 3) === undefined ? 0 : checkInt(L, ra, nargs, 3);
      const r = f.handle.seek ? f.handle.seek(whence, off) : 'Illegal seek';
      if (typeof r === 'string') {
        L.set(ra, undefined);
        L.set(ra + 1, r);
        return 2;
      }
      f.buf = '';
      f.eof = false;
      L.set(ra, r);
      return 1;
    },
    setvbuf(L, ra, nargs) {
      openFile(L, ra, nargs, 1);
      L.set(ra, true);
      return 1;
    },
  });
  registerLib(vm, mt, 'file', {
    __gc(L, ra, nargs) {
      const f = toFile(L, ra, nargs, 1);
      if (!f.standard && !f.closed) {
        f.closed = true;
        f.handle.close?.();
      }
      return 0;
    },
    __tostring(L, ra, nargs) {
      const v = L.get(ra + 1);
      const f = toFile(L, ra, nargs, 1);
      L.set(ra, f.closed ? 'file (closed)' : `file (${addressOf(v as LuaUserdata)})`);
      return 1;
    },
  });

  const io = newLib(vm, 'io', {
    write(L, ra, nargs) {
      const f = files.get(output)!;
      write(L, f, ra, nargs, 1);
      L.set(ra, output);
      return 1;
    },
    read(L, ra, nargs) {
      return read(L, files.get(input)!, ra, nargs, 1);
    },
    lines(L, ra, nargs) {
      const name = arg(L, ra, nargs, 1);
      if (name === undefined) {
        L.set(ra, linesIterator(files.get(input)!, false));
        return 1;
      }
      const path = checkString(L, ra, nargs, 1);
      const h = host.open?.(path, 'r') ?? 'file access is not granted to scripts';
      if (typeof h === 'string') libError(L, `${path}: ${h}`);
      L.set(ra, linesIterator(new LuaFile(h, false), true));
      return 1;
    },
    open(L, ra, nargs) {
      const path = checkString(L, ra, nargs, 1);
      const mode = optString(L, ra, nargs, 2, 'r');
      if (!/^[rwa]\+?b?$/.test(mode)) argError(L, 2, 'invalid mode');
      const h = host.open?.(path, mode) ?? 'file access is not granted to scripts';
      if (typeof h === 'string') {
        L.set(ra, undefined);
        L.set(ra + 1, `${path}: ${h}`);
        L.set(ra + 2, 2);
        return 3;
      }
      L.set(ra, wrap(h, false));
      return 1;
    },
    close(L, ra, nargs) {
      if (nargs === 0) return close(L, ra, files.get(output)!);
      return close(L, ra, openFile(L, ra, nargs, 1));
    },
    flush(L, ra) {
      files.get(output)!.handle.flush?.();
      L.set(ra, output);
      return 1;
    },
    type(L, ra, nargs) {
      const v = arg(L, ra, nargs, 1);
      const f = v instanceof IsLuaUserdata ? files.get(v) : undefined;
      L.set(ra, f === undefined ? undefined : f.closed ? 'closed file' : 'file');
      return 1;
    },
    output(L, ra, nargs) {
      const v = arg(L, ra, nargs, 1);
      if (v instanceof IsLuaUserdata && files.has(v)) output = v;
      else if (typeof v === 'string') {
        const h = host.open?.(v, 'w') ?? 'file access is not granted to scripts';
        if (typeof h === 'string') libError(L, `${v}: ${h}`);
        output = wrap(h, false);
      } else if (v !== undefined) typeArgError(L, 1, nargs, 'FILE*');
      L.set(ra, output);
      return 1;
    },
    input(L, ra, nargs) {
      const v = arg(L, ra, nargs, 1);
      if (v instanceof IsLuaUserdata && files.has(v)) input = v;
      else if (typeof v === 'string') {
        const h = host.open?.(v, 'r') ?? 'file access is not granted to scripts';
        if (typeof h === 'string') libError(L, `${v}: ${h}`);
        input = wrap(h, false);
      } else if (v !== undefined) typeArgError(L, 1, nargs, 'FILE*');
      L.set(ra, input);
      return 1;
    },
    popen(L) {
      libError(L, "'popen' not supported");
    },
    tmpfile(L, ra) {
      const h = host.tmpfile?.() ?? 'io.tmpfile is not granted to scripts';
      if (typeof h === 'string') libError(L, h);
      L.set(ra, wrap(h, false));
      return 1;
    },
  });
  io.setStr('stdout', stdout);
  io.setStr('stderr', stderr);
  io.setStr('stdin', stdin);
  return io;
}
