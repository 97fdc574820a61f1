/** An in-memory source that answers by path like a directory source (tests; files dropped into a browser). */
import { NotFoundError } from '../../binary/errors.ts';
import { normalizeVfsPath, vfsKey, type VfsSource } from './source.ts';

export class MemorySource implements VfsSource {
  readonly kind = 'memory' as const;
  readonly name: string;
  private readonly files = new Map<string, { path: string; data: Uint8Array }>();

  constructor(name: string, files: Record<string, Uint8Array> | Iterable<[string, Uint8Array]> = {}) {
    this.name = name;
    const entries = Symbol.iterator in Object(files) ? (files as Iterable<[string, Uint8Array]>) : Object.entries(files as Record<string, Uint8Array>);
    for (const [p, d] of entries) this.set(p, d);
  }

  set(path: string, data: Uint8Array): void {
    this.files.set(vfsKey(path), { path: normalizeVfsPath(path), data });
  }

  async has(path: string): Promise<boolean> {
    return this.files.has(vfsKey(path));
  }

  async read(path: string): Promise<Uint8Array> {
    const f = this.files.get(vfsKey(path));
    if (!f) throw new NotFoundError(`${this.name}: no file ${JSON.stringify(normalizeVfsPath(path))}`);
    return f.data;
  }

  async list(): Promise<string[]> {
    return [...this.files.values()].map((f) => f.path);
  }
}
