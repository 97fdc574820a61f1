/**
 * The directory source of the engine's file system (kind 1, seed 001): answers by path from a folder, as the
 * engine does with GetFileAttributesW(directory + path). Windows paths are case-insensitive, so a lookup that
 * misses with the exact case retries segment by segment without case. Paths that would leave the folder
 * (`..`, absolute, drive letters) are never served.
 */
import { readdirSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, join, relative, sep } from 'node:path';
import { NotFoundError, VfsError } from '../binary/errors.ts';
import { FORMAT_HEAD_SIZE, detectFormat } from '../formats/registry.ts';
import { normalizeVfsPath, type VfsSource } from '../resources/vfs/source.ts';
import { ArchiveTreeSource } from '../resources/vfs/archive-source.ts';
import type { MountVector } from '../resources/vfs/mount-vector.ts';
import type { P919Table } from '../hash/p919.ts';
import { readHead, safeJoin } from './fs.ts';
import { openArch06File } from './vfs-file.ts';
import type { ChunkDecoder } from '../compress/codecs.ts';

export class DirectorySource implements VfsSource {
  readonly kind = 'directory' as const;
  readonly name: string;
  readonly root: string;

  constructor(root: string, name = root) {
    this.root = root;
    this.name = name;
  }

  /** The real file for a virtual path, or undefined. */
  locate(path: string): string | undefined {
    const p = normalizeVfsPath(path);
    if (p === '') return undefined;
    let exact: string;
    try {
      exact = safeJoin(this.root, p);
    } catch {
      return undefined;
    }
    if (isFile(exact)) return exact;
    // case-insensitive walk
    let dir = this.root;
    const segments = p.split('\\');
    for (let i = 0; i < segments.length; i++) {
      let names: string[];
      try {
        names = readdirSync(dir);
      } catch {
        return undefined;
      }
      const want = segments[i]!.toLowerCase();
      const hit = names.find((n) => n.toLowerCase() === want);
      if (!hit) return undefined;
      dir = join(dir, hit);
    }
    return isFile(dir) ? dir : undefined;
  }

  async has(path: string): Promise<boolean> {
    return this.locate(path) !== undefined;
  }

  async read(path: string): Promise<Uint8Array> {
    const file = this.locate(path);
    if (!file) throw new NotFoundError(`${this.name}: no file ${JSON.stringify(normalizeVfsPath(path))}`);
    const b = await readFile(file);
    return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  }

  async list(): Promise<string[]> {
    const out: string[] = [];
    const visit = (d: string): void => {
      for (const name of readdirSync(d).sort()) {
        const full = join(d, name);
        const st = statSync(full);
        if (st.isDirectory()) visit(full);
        else if (st.isFile()) out.push(relative(this.root, full).split(sep).join('\\'));
      }
    };
    visit(this.root);
    return out;
  }
}

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

/**
 * The engine's Mount(path, index) for Node: a folder becomes a directory source, a file an archive tree. Returns
 * the source mounted.
 */
export async function mountPath(vfs: MountVector, path: string, index?: number, options: { decoder?: ChunkDecoder; table?: P919Table } = {}): Promise<VfsSource> {
  const st = statSync(path);
  let source: VfsSource;
  if (st.isDirectory()) source = new DirectorySource(path);
  else {
    const found = detectFormat(readHead(path, FORMAT_HEAD_SIZE), basename(path));
    if (found && found.format.id !== 'arch06') {
      throw new VfsError('ENOTARCHIVE', path, `${path} is a ${found.format.title}, not an .arch06 archive or a folder: only archives and folders can be mounted`);
    }
    const archive = await openArch06File(path, options.decoder ? { decoder: options.decoder } : {});
    source = new ArchiveTreeSource(archive, options.table ? { name: path, table: options.table } : { name: path });
  }
  await vfs.mount(source, index);
  return source;
}
