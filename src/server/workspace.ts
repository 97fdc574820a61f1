/**
 * The files a workbench run serves. The browser names a file only by its id (a slug of its base name, stable
 * across runs so URLs can be shared); no request parameter ever reaches the file system as a path. Files are read
 * and opened lazily, once, on first use, by the opener registered for their kind.
 */
import { statSync } from 'node:fs';
import { basename } from 'node:path';
import { NotFoundError } from '../binary/errors.ts';
import { readBytes, readHead } from '../node/fs.ts';
import { FORMAT_HEAD_SIZE, detectFormat } from '../formats/registry.ts';

/** What a file holds, decided from its first bytes (and its extension where the bytes cannot tell). */
/** `changes`: a YAML change file (`*.yaml`, `*.yml`), a source of the conflict view. */
export type FileKind = 'gadb' | 'sd2' | 'arch06' | 'hks' | 'changes' | 'unknown';

/** Where a file came from. */
export type FileOrigin = 'argument' | 'sample' | 'saved' | 'extracted';

/** The public description of one served file. */
export interface FileInfo {
  id: string;
  /** Base name shown to the user (never the full path: the page has no business knowing the user's folders). */
  name: string;
  kind: FileKind;
  size: number;
  origin: FileOrigin;
  /** For a saved file, the id of the file it was saved from; for an extracted archive entry, the archive's id. */
  savedFrom?: string;
  /** For a patch database, the id of the database it applies to (opened against it: links point into it). */
  patchOf?: string;
}

/** Opens the bytes of a file of one kind into whatever model its views use. */
export type Opener = (bytes: Uint8Array, info: FileInfo) => unknown;

/**
 * Opens a file of one kind from its path, for kinds read lazily (an archive reads its index, then entries on
 * demand, never the whole file). The path stays on the server.
 */
export type PathOpener = (path: string, info: FileInfo) => unknown;

interface Entry {
  info: FileInfo;
  path: string;
  opened?: unknown;
}

/** The formats the workbench has views for (ids of the format registry). */
const WORKBENCH_KINDS: ReadonlySet<string> = new Set<FileKind>(['gadb', 'sd2', 'arch06', 'hks']);

/** Decides a file's kind through the format registry: by content (magic and version), else by its name. */
export function detectKind(head: Uint8Array, name: string): FileKind {
  const found = detectFormat(head, name);
  if (found && WORKBENCH_KINDS.has(found.format.id)) return found.format.id as FileKind;
  return /\.ya?ml$/i.test(name) ? 'changes' : 'unknown';
}

function slug(name: string): string {
  const s = name.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '');
  return s.length > 0 ? s : 'file';
}

export class Workspace {
  private readonly entries = new Map<string, Entry>();
  private readonly openers = new Map<FileKind, Opener>();
  private readonly pathOpeners = new Map<FileKind, PathOpener>();

  /** Registers how files of `kind` are opened. */
  registerOpener(kind: FileKind, opener: Opener): void {
    this.openers.set(kind, opener);
  }

  /** Registers how files of `kind` are opened from their path (lazily read kinds such as archives). */
  registerPathOpener(kind: FileKind, opener: PathOpener): void {
    this.pathOpeners.set(kind, opener);
  }

  /** Adds a file from disk (read lazily) and returns its description. */
  add(path: string, origin: FileOrigin, savedFrom?: string, patchOf?: string): FileInfo {
    const name = basename(path);
    const size = statSync(path).size;
    const head = readHead(path, FORMAT_HEAD_SIZE);
    let id = slug(name);
    for (let n = 2; this.entries.has(id); n++) id = `${slug(name)}~${n}`;
    const info: FileInfo = { id, name, kind: detectKind(head, name), size, origin };
    if (savedFrom !== undefined) info.savedFrom = savedFrom;
    if (patchOf !== undefined) info.patchOf = patchOf;
    this.entries.set(id, { info, path });
    return info;
  }

  /**
   * Marks every GameDB named like the loader's loose patch (`<base>gamedb_patch`) as a patch of the served
   * database `<base>`, when there is one and it was not said otherwise.
   */
  linkPatches(): void {
    const suffix = 'gamedb_patch';
    for (const e of this.entries.values()) {
      const info = e.info;
      if (info.kind !== 'gadb' || info.patchOf !== undefined || !info.name.toLowerCase().endsWith(suffix) || info.name.length === suffix.length) continue;
      const baseName = info.name.slice(0, -suffix.length);
      const base = [...this.entries.values()].find((b) => b.info.kind === 'gadb' && b.info.name === baseName && b.info.patchOf === undefined);
      if (base) info.patchOf = base.info.id;
    }
  }

  /** The file served from `path`, if any. */
  findByPath(path: string): FileInfo | undefined {
    for (const e of this.entries.values()) if (e.path === path) return e.info;
    return undefined;
  }

  list(): FileInfo[] {
    return [...this.entries.values()].map((e) => e.info);
  }

  /** The description of file `id`; a `NotFoundError` for an id this run does not serve. */
  info(id: string): FileInfo {
    return this.entry(id).info;
  }

  /** The disk path of file `id`, for the server's own use (saving beside it); never sent to the browser. */
  pathOf(id: string): string {
    return this.entry(id).path;
  }

  /** The opened model of file `id`, opened on first use with the opener of its kind. */
  open<T>(id: string, kind: FileKind): T {
    const entry = this.entry(id);
    if (entry.info.kind !== kind) throw new NotFoundError(`file ${id} is a ${entry.info.kind} file, not ${kind}`);
    if (entry.opened === undefined && this.pathOpeners.has(kind)) entry.opened = this.pathOpeners.get(kind)!(entry.path, entry.info);
    if (entry.opened === undefined) {
      const opener = this.openers.get(kind);
      if (!opener) throw new NotFoundError(`this build of scry cannot open ${kind} files yet`);
      entry.opened = opener(readBytes(entry.path), entry.info);
    }
    return entry.opened as T;
  }

  /** Whether file `id` has been opened already. */
  isOpen(id: string): boolean {
    return this.entry(id).opened !== undefined;
  }

  /** Releases what opened models hold (an archive's file handle): every model with a `close()`, or a promise of one. */
  async close(): Promise<void> {
    for (const e of this.entries.values()) {
      const opened = e.opened;
      e.opened = undefined;
      if (opened === undefined) continue;
      try {
        const model = (await opened) as { close?: () => unknown } | undefined;
        if (model && typeof model.close === 'function') await model.close();
      } catch {
        // a model that failed to open holds nothing
      }
    }
  }

  private entry(id: string): Entry {
    const entry = this.entries.get(id);
    if (!entry) throw new NotFoundError(`no file ${JSON.stringify(id)} in this workbench`);
    return entry;
  }
}
