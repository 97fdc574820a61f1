/**
 * Node file-system adapters shared by the CLI and server: reading files as `Uint8Array`, atomic writes, locks for
 * writers that update a file in place, and path containment for extraction.
 *
 * Crash safety (kill -9 at any moment): a new file is written to a temporary file of scry's own naming
 * (`.scry-tmp-<pid>-<n>`) in the target's folder, fsynced, then renamed over the target. The `.bak` of a replaced
 * file is made the same way — a hard link to the old file under a temporary name, renamed to `FILE.bak` (a copy
 * where the file system has no hard links) — so an interrupted backup never truncates the previous `.bak`.
 * Temporary files whose process is gone are removed by the next write into that folder.
 *
 * Concurrency: `lockFile` takes an exclusive lock (a lock file beside the target holding pid and host); a second
 * writer waits for it, then is refused with a message; a lock whose process is dead is taken over.
 */
import { closeSync, constants, copyFileSync, fsyncSync, linkSync, lstatSync, mkdirSync, openSync, readFileSync, readSync, readdirSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { hostname } from 'node:os';
import { dirname, basename, join, resolve, relative, isAbsolute, sep } from 'node:path';
import { VfsError } from '../binary/errors.ts';

/** Reads a whole file as a Uint8Array view of Node's buffer. */
export function readBytes(path: string): Uint8Array {
  const b = readFileSync(path);
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}

/** The first `length` bytes of a file (fewer when the file is shorter): enough to tell its format. */
/**
 * A file's bytes `chunkSize` at a time (default 1 MiB) into one reused buffer: each chunk is valid until the next
 * is read (copy it to keep it). What a streaming reader of a large file consumes.
 */
export function* readFileChunks(path: string, chunkSize = 1 << 20): Generator<Uint8Array> {
  const fd = openSync(path, 'r');
  const buf = new Uint8Array(chunkSize);
  try {
    for (;;) {
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n === 0) return;
      yield buf.subarray(0, n);
    }
  } finally {
    closeSync(fd);
  }
}

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

// ---------------------------------------------------------------------------------------------------------------
// Temporary files

/** Prefix of every temporary file scry writes (short, so that a target of a 255-character name still fits). */
export const SCRY_TEMP_PREFIX = '.scry-tmp-';
const TEMP_NAME = /^\.scry-tmp-(\d+)-[0-9a-z]+$/;
let tempCounter = 0;

/** A fresh temporary path in `dir` of scry's own naming. */
function tempPath(dir: string): string {
  return join(dir, `${SCRY_TEMP_PREFIX}${process.pid}-${(Date.now() % 1e8).toString(36)}${(tempCounter++).toString(36)}`);
}

/** Whether a process of this machine is alive (EPERM: alive, owned by someone else). */
function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as { code?: string }).code === 'EPERM';
  }
}

/**
 * Removes the temporary files of scry's own naming in `dir` whose process is gone (left by a kill during a
 * write); returns their paths. Files of live processes and every other file are left alone.
 */
export function removeStaleTempFiles(dir: string): string[] {
  const removed: string[] = [];
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return removed;
  }
  for (const name of names) {
    const m = TEMP_NAME.exec(name);
    if (!m || processAlive(Number(m[1]))) continue;
    try {
      unlinkSync(join(dir, name));
      removed.push(join(dir, name));
    } catch {
      /* removed by another process meanwhile */
    }
  }
  return removed;
}

/** Test hook: `SCRY_FAILPOINT=name` kills the process (SIGKILL) when a write reaches that point. */
function failpoint(name: string): void {
  if (process.env['SCRY_FAILPOINT'] === name) process.kill(process.pid, 'SIGKILL');
}

function writeAllSync(fd: number, bytes: Uint8Array): void {
  let written = 0;
  while (written < bytes.byteLength) written += writeSync(fd, bytes, written, bytes.byteLength - written);
}

/** Writes what `produce` gives to a new file (never through a symlink), fsynced. */
function writeNewFile(path: string, produce: (write: (chunk: Uint8Array) => void) => void): void {
  const fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), 0o666);
  try {
    produce((chunk) => writeAllSync(fd, chunk));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function tryUnlink(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    /* already gone */
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Locks

export interface FileLock {
  /** The lock file. */
  readonly path: string;
  /** Releases the lock (idempotent). */
  release(): void;
}

export interface LockOptions {
  /** How long to wait for another writer (default `$SCRY_LOCK_WAIT_MS` or 10 s). */
  waitMs?: number;
}

/** The lock file of a target: in its folder, named by a hash of its name (so a 255-character name still fits). */
export function lockPathOf(target: string): string {
  const full = resolve(target);
  return join(dirname(full), `.scry-lock-${createHash('sha1').update(basename(full)).digest('hex').slice(0, 16)}`);
}

const held = new Map<string, { count: number }>();
const sleeper = new Int32Array(new SharedArrayBuffer(4));

interface LockOwner {
  pid: number;
  host: string;
  since: string;
}

function readOwner(path: string): LockOwner | undefined {
  try {
    const o = JSON.parse(readFileSync(path, 'utf8')) as LockOwner;
    return typeof o.pid === 'number' && typeof o.host === 'string' ? o : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Takes the exclusive lock of `target` (re-entrant within a process). Another live writer's lock is waited for
 * up to `waitMs`, then refused with a `VfsError` (`ELOCKED`) naming its process; a lock left by a process of this
 * machine that is gone (kill -9) is taken over.
 */
export function lockFile(target: string, options: LockOptions = {}): FileLock {
  const path = lockPathOf(target);
  const mine = held.get(path);
  if (mine) {
    mine.count++;
    return releaser(path);
  }
  const waitMs = options.waitMs ?? (Number(process.env['SCRY_LOCK_WAIT_MS']) || 10_000);
  const me: LockOwner = { pid: process.pid, host: hostname(), since: new Date().toISOString() };
  const body = new TextEncoder().encode(JSON.stringify(me));
  const start = Date.now();
  for (let attempt = 0; ; attempt++) {
    try {
      writeNewFile(path, (write) => write(body));
      held.set(path, { count: 1 });
      return releaser(path);
    } catch (e) {
      if ((e as { code?: string }).code !== 'EEXIST') throw e;
    }
    const owner = readOwner(path);
    // An unreadable lock is being written this instant: treat it as live.
    if (owner && owner.host === me.host && !processAlive(owner.pid)) {
      tryUnlink(path);
      continue;
    }
    if (Date.now() - start >= waitMs) {
      const who = owner ? `scry process ${owner.pid} on ${owner.host} (since ${owner.since})` : 'another scry process';
      throw new VfsError('ELOCKED', target, `${target} is being written by ${who}; try again when it has finished (if no such process runs, remove ${path})`);
    }
    Atomics.wait(sleeper, 0, 0, Math.min(200, 10 + attempt * 10));
  }
}

function releaser(path: string): FileLock {
  let done = false;
  return {
    path,
    release() {
      if (done) return;
      done = true;
      const h = held.get(path);
      if (!h) return;
      if (--h.count > 0) return;
      held.delete(path);
      if (readOwner(path)?.pid === process.pid) tryUnlink(path);
    },
  };
}

/** Runs `fn` holding the lock of `target`. */
export function withFileLock<T>(target: string, fn: () => T, options: LockOptions = {}): T {
  const lock = lockFile(target, options);
  try {
    return fn();
  } finally {
    lock.release();
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Atomic writes

export interface AtomicWriteOptions {
  /** Allow replacing an existing file (default false: refuse). */
  overwrite?: boolean;
  /** When replacing, keep the old file as `<path>.bak` (default true). */
  backup?: boolean;
}

function sameFile(a: string, b: string): boolean {
  try {
    const x = lstatSync(a);
    const y = lstatSync(b);
    return x.ino === y.ino && x.dev === y.dev;
  } catch {
    return false;
  }
}

/** Per folder, its modification stamp after this process's last write there. */
const folderStamps = new Map<string, bigint>();

/** Makes `<target>.bak` the current `target`, atomically: a previous `.bak` is replaced only by a complete one. */
function backUp(target: string, dir: string): void {
  // After a kill between the backup's rename and the final one, FILE.bak is a hard link to FILE: it already is
  // the backup (and rename() onto a link of the same file would do nothing, leaving the temporary name behind).
  if (sameFile(target, target + '.bak')) return;
  const temp = tempPath(dir);
  try {
    linkSync(target, temp);
  } catch {
    // no hard links on this file system: copy (to the temporary name, so the old .bak stays whole meanwhile)
    copyFileSync(target, temp, constants.COPYFILE_EXCL);
    const fd = openSync(temp, 'r+');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }
  failpoint('backup-linked');
  renameSync(temp, target + '.bak');
  failpoint('backup-renamed');
}

/**
 * Writes `data` to `path` atomically: a temporary file in the same folder, fsync, then rename. Refuses to replace
 * an existing file unless `overwrite` is set; then the previous file is kept as `.bak` unless `backup` is false.
 * Holds the target's lock meanwhile, refuses a target that is a symlink, and first removes temporary files that
 * killed scry processes left in the folder.
 */
export function writeFileAtomic(path: string, data: Uint8Array | string, options: AtomicWriteOptions = {}): void {
  const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
  writeFileAtomicStream(path, (write) => write(bytes), options);
}

/**
 * `writeFileAtomic` for a file produced in pieces, so that it never exists whole in memory: `produce` calls
 * `write(chunk)` with the file's bytes in order (each chunk is written before `write` returns, so its buffer may
 * be reused). Everything else is as `writeFileAtomic`: the lock is held while `produce` runs, and when it throws
 * the temporary file is removed and the target is left as it was.
 */
export function writeFileAtomicStream(path: string, produce: (write: (chunk: Uint8Array) => void) => void, options: AtomicWriteOptions = {}): void {
  const target = resolve(path);
  const dir = dirname(target);
  mkdirSync(dir, { recursive: true });
  const scan = folderChanged(dir);
  withFileLock(target, () => {
    if (scan) removeStaleTempFiles(dir);
    const temp = tempPath(dir);
    try {
      checkReplaceable(target, options);
      writeNewFile(temp, produce);
      failpoint('temp-written');
      publish(temp, target, options);
    } catch (e) {
      tryUnlink(temp);
      throw e;
    }
  });
  folderStamps.set(dir, folderStamp(dir));
}

/**
 * A temporary path of scry's own naming beside `target`, for a file another writer produces (SQLite); publish it
 * with `replaceFileAtomic`. Stale ones are removed by the next write into the folder.
 */
export function scryTempPath(target: string): string {
  const dir = dirname(resolve(target));
  removeStaleTempFiles(dir);
  return tempPath(dir);
}

/**
 * Whether `dir` may hold stale temporary files: true unless this process was the last to change it (an
 * extraction writing thousands of files into one folder scans it once).
 */
function folderChanged(dir: string): boolean {
  const seen = folderStamps.get(dir);
  return seen === undefined || seen !== folderStamp(dir);
}

function folderStamp(dir: string): bigint {
  try {
    return statSync(dir, { bigint: true }).mtimeNs;
  } catch {
    return -1n;
  }
}

/** Moves a finished temporary file over `target` as `writeFileAtomic` does (lock, checks, `.bak`, rename). */
export function replaceFileAtomic(temp: string, target: string, options: AtomicWriteOptions = {}): void {
  const full = resolve(target);
  withFileLock(full, () => {
    try {
      checkReplaceable(full, options);
      const fd = openSync(temp, 'r+');
      try {
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      publish(temp, full, options);
    } catch (e) {
      tryUnlink(temp);
      throw e;
    }
  });
}

function checkReplaceable(target: string, options: AtomicWriteOptions): void {
  let st;
  try {
    st = lstatSync(target);
  } catch {
    return;
  }
  if (st.isSymbolicLink()) throw new VfsError('EUNSAFE', target, `refusing to write ${target}: it is a symbolic link`);
  if (!options.overwrite) throw new VfsError('EEXIST', target, `refusing to overwrite ${target} (pass --force to replace it; a .bak is kept)`);
}

function publish(temp: string, target: string, options: AtomicWriteOptions): void {
  let exists = true;
  try {
    lstatSync(target);
  } catch {
    exists = false;
  }
  if (exists && options.backup !== false) backUp(target, dirname(target));
  renameSync(temp, target);
  failpoint('renamed');
}

// ---------------------------------------------------------------------------------------------------------------
// Containment

/**
 * Joins an entry path from an archive or database under `root`, refusing what would write outside it: absolute
 * paths, drive letters, NUL, `..` segments, and paths through a component that exists as a symbolic link (or
 * that end on one). Backslashes count as separators. A name that merely starts with dots (`..notes.txt`) is a
 * name like any other.
 */
export function safeJoin(root: string, entryPath: string): string {
  const normalized = entryPath.replace(/\\/g, '/');
  if (normalized.startsWith('/') || /^[a-zA-Z]:/.test(normalized) || normalized.includes('\0')) {
    throw new VfsError('EUNSAFE', entryPath, `refusing to extract ${JSON.stringify(entryPath)}: absolute path`);
  }
  const segments = normalized.split('/').filter((s) => s.length > 0 && s !== '.');
  if (segments.includes('..')) throw new VfsError('EUNSAFE', entryPath, `refusing to extract ${JSON.stringify(entryPath)}: it leaves the target folder`);
  const base = resolve(root);
  const full = resolve(base, ...segments);
  const rel = relative(base, full);
  if (rel === '' || isAbsolute(rel) || rel.split(sep).includes('..')) {
    throw new VfsError('EUNSAFE', entryPath, `refusing to extract ${JSON.stringify(entryPath)}: it leaves the target folder`);
  }
  let at = base;
  for (const s of segments) {
    at = join(at, s);
    let st;
    try {
      st = lstatSync(at);
    } catch {
      break; // does not exist yet: nothing below it exists either
    }
    if (st.isSymbolicLink()) {
      throw new VfsError('EUNSAFE', entryPath, `refusing to extract ${JSON.stringify(entryPath)}: ${at} is a symbolic link (it could lead outside the target folder)`);
    }
  }
  return full;
}
