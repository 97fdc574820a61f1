/**
 * Node file-system adapters shared by the CLI and server: reading files as `Uint8Array`, atomic writes (temp file
 * + rename, `.bak` kept when an existing file is replaced on request), and path containment for extraction.
 */
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, readSync, renameSync, copyFileSync, unlinkSync, writeSync, mkdirSync } from 'node:fs';
import { dirname, basename, join, resolve, relative, isAbsolute, sep } from 'node:path';
import { VfsError } from '../binary/errors.ts';

/** Reads a whole file as a Uint8Array view of Node's buffer. */
export function readBytes(path: string): Uint8Array {
  const b = readFileSync(path);
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}

/** The first `length` bytes of a file (fewer when the file is shorter): enough to tell its format. */
export function readHead(path: string, length: number): Uint8Array {
  const fd = openSync(path, 'r');
  try {
    const head = new Uint8Array(length);
    const n = readSync(fd, head, 0, length, 0);
    return head.subarray(0, n);
  } finally {
    closeSync(fd);
  }
}

export interface AtomicWriteOptions {
  /** Allow replacing an existing file (default false: refuse). */
  overwrite?: boolean;
  /** When replacing, keep the old file as `<path>.bak` (default true). */
  backup?: boolean;
}

/**
 * Writes `data` to `path` atomically: a temporary file in the same folder, fsync, then rename. Refuses to replace
 * an existing file unless `overwrite` is set; then the previous file is kept as `.bak` unless `backup` is false.
 */
export function writeFileAtomic(path: string, data: Uint8Array | string, options: AtomicWriteOptions = {}): void {
  const target = resolve(path);
  if (existsSync(target)) {
    if (!options.overwrite) throw new VfsError('EEXIST', target, `refusing to overwrite ${target} (pass --force to replace it; a .bak is kept)`);
    if (options.backup !== false) copyFileSync(target, target + '.bak');
  }
  mkdirSync(dirname(target), { recursive: true });
  const temp = join(dirname(target), `.${basename(target)}.${process.pid}.${Date.now().toString(36)}.tmp`);
  const fd = openSync(temp, 'w');
  try {
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    let written = 0;
    while (written < bytes.byteLength) written += writeSync(fd, bytes, written, bytes.byteLength - written);
    fsyncSync(fd);
  } catch (e) {
    closeSync(fd);
    try {
      unlinkSync(temp);
    } catch {
      /* already gone */
    }
    throw e;
  }
  closeSync(fd);
  renameSync(temp, target);
}

/**
 * Joins an entry path from an archive or database under `root`, refusing absolute paths, drive letters and `..`
 * segments that would leave the folder. Backslashes count as separators.
 */
export function safeJoin(root: string, entryPath: string): string {
  const normalized = entryPath.replace(/\\/g, '/');
  if (normalized.startsWith('/') || /^[a-zA-Z]:/.test(normalized) || normalized.includes('\0')) {
    throw new VfsError('EUNSAFE', entryPath, `refusing to extract ${JSON.stringify(entryPath)}: absolute path`);
  }
  const base = resolve(root);
  const full = resolve(base, ...normalized.split('/').filter((s) => s.length > 0));
  const rel = relative(base, full);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel) || rel.split(sep).includes('..')) {
    throw new VfsError('EUNSAFE', entryPath, `refusing to extract ${JSON.stringify(entryPath)}: it leaves the target folder`);
  }
  return full;
}
