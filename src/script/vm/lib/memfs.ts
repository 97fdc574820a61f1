/**
 * An in-memory file system a host can grant to scripts (the workbench, tests): `io.open`, `io.lines`,
 * `io.output(name)`, `io.tmpfile`, `dofile` / `loadfile` / `require`, `os.remove`, `os.rename`, `os.tmpname` all
 * work on it, and nothing reaches the real disk. Contents are byte strings (one char per byte).
 */
import type { IoHost, StreamHandle } from './io.ts';
import type { OsHost } from './os.ts';

export class MemoryFiles {
  readonly files = new Map<string, string>();
  private tmpCounter = 0;

  constructor(initial: Record<string, string> = {}) {
    for (const [k, v] of Object.entries(initial)) this.files.set(k, v);
  }

  readFile(path: string): string | null {
    return this.files.get(path) ?? null;
  }

  /** A handle on `path` opened with a C `fopen` mode, or an error message. */
  open(path: string, mode: string): StreamHandle | string {
    const exists = this.files.has(path);
    const kind = mode[0];
    const plus = mode.includes('+');
    if (kind === 'r' && !exists) return 'No such file or directory';
    if (kind === 'w') this.files.set(path, '');
    else if (!exists) this.files.set(path, '');
    let pos = kind === 'a' ? this.files.get(path)!.length : 0;
    const canRead = kind === 'r' || plus;
    const canWrite = kind !== 'r' || plus;
    const files = this.files;
    return {
      read: canRead
        ? () => {
            const c = files.get(path) ?? '';
            if (pos >= c.length) return null;
            const chunk = c.slice(pos);
            pos = c.length;
            return chunk;
          }
        : undefined,
      write: canWrite
        ? (text: string) => {
            const c = files.get(path) ?? '';
            if (kind === 'a') pos = c.length;
            files.set(path, c.slice(0, pos).padEnd(pos, '\0') + text + c.slice(pos + text.length));
            pos += text.length;
          }
        : undefined,
      seek: (whence, offset) => {
        const len = (files.get(path) ?? '').length;
        const base = whence === 'set' ? 0 : whence === 'cur' ? pos : len;
        if (base + offset < 0) return 'Invalid argument';
        pos = base + offset;
        return pos;
      },
    };
  }

  /** The grants to spread into `createScriptVM` options. */
  grants(): { files: IoHost; readFile: (path: string) => string | null; os: OsHost } {
    return {
      files: {
        open: (p, m) => this.open(p, m),
        tmpfile: () => this.open(this.tmpname(), 'w+'),
      },
      readFile: (p) => this.readFile(p),
      os: {
        remove: (p) => (this.files.delete(p) ? null : `${p}: No such file or directory`),
        rename: (a, b) => {
          const c = this.files.get(a);
          if (c === undefined) return `${a}: No such file or directory`;
          this.files.delete(a);
          this.files.set(b, c);
          return null;
        },
        tmpname: () => this.tmpname(),
      },
    };
  }

  tmpname(): string {
    return `/tmp/lua_${(++this.tmpCounter).toString(36).padStart(6, '0')}`;
  }
}
