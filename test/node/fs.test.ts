/**
 * The Node file-system adapters under attack (issue 15 items 3, 6, 7, 8): extraction through symlinks, long and
 * dotted names, backups interrupted by kill -9, stale temporary files and locks, concurrent writers.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { VfsError } from '../../src/binary/errors.ts';
import { lockFile, lockPathOf, removeStaleTempFiles, safeJoin, writeFileAtomic } from '../../src/node/fs.ts';

const dir = mkdtempSync(join(tmpdir(), 'scry-fs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const fresh = (name: string): string => {
  const d = join(dir, name);
  mkdirSync(d, { recursive: true });
  return d;
};
/** A pid no process has: the largest pid Linux allows is 2^22. */
const DEAD_PID = 4_194_304 + 17;
const fsModule = fileURLToPath(new URL('../../src/node/fs.ts', import.meta.url));

describe('safeJoin refuses paths through symbolic links, and only real ".." segments', () => {
  it('an entry below a symlinked folder of the output is refused, nothing is written where it points', () => {
    const out = fresh('sym-out');
    const elsewhere = fresh('sym-elsewhere');
    symlinkSync(elsewhere, join(out, 'link'));
    expect(() => safeJoin(out, 'link\\pwned.txt')).toThrow(VfsError);
    expect(() => safeJoin(out, 'link\\pwned.txt')).toThrow(/is a symbolic link/);
    expect(readdirSync(elsewhere)).toEqual([]);
  });

  it('an entry that is itself an existing symlink is refused (writing it would follow it)', () => {
    const out = fresh('sym-file');
    writeFileSync(join(dir, 'secret.txt'), 'keep');
    symlinkSync(join(dir, 'secret.txt'), join(out, 'a.txt'));
    expect(() => safeJoin(out, 'a.txt')).toThrow(/symbolic link/);
    expect(() => writeFileAtomic(join(out, 'a.txt'), 'x', { overwrite: true })).toThrow(/symbolic link/);
    expect(readFileSync(join(dir, 'secret.txt'), 'utf8')).toBe('keep');
  });

  it('"..notes.txt" is a legal name; "a/../../b" is not', () => {
    const out = fresh('dots');
    expect(safeJoin(out, '..notes.txt')).toBe(join(out, '..notes.txt'));
    expect(safeJoin(out, 'docs\\..notes.txt')).toBe(join(out, 'docs', '..notes.txt'));
    expect(() => safeJoin(out, 'a/../../b')).toThrow(/leaves the target folder/);
    expect(() => safeJoin(out, '..')).toThrow(/leaves the target folder/);
  });
});

describe('atomic writes', () => {
  it('write a file whose name has 250 characters (the temporary name no longer adds to it)', () => {
    const d = fresh('long');
    const name = 'n'.repeat(246) + '.txt';
    writeFileAtomic(join(d, name), 'long');
    expect(readFileSync(join(d, name), 'utf8')).toBe('long');
    writeFileAtomic(join(d, name), 'longer', { overwrite: true, backup: false });
    expect(readFileSync(join(d, name), 'utf8')).toBe('longer');
  });

  it('remove stale temporary files of scry’s naming whose process is gone, and nothing else', () => {
    const d = fresh('stale');
    writeFileSync(join(d, `.scry-tmp-${DEAD_PID}-abc1`), 'half');
    writeFileSync(join(d, `.scry-tmp-${process.pid}-abc2`), 'mine, live');
    writeFileSync(join(d, '.scry-tmp-notes'), 'not ours');
    writeFileSync(join(d, 'x.tmp'), 'not ours');
    expect(removeStaleTempFiles(d)).toEqual([join(d, `.scry-tmp-${DEAD_PID}-abc1`)]);
    expect(readdirSync(d).sort()).toEqual([`.scry-tmp-${process.pid}-abc2`, '.scry-tmp-notes', 'x.tmp']);
  });
});

/** Runs `writeFileAtomic(target, 'NEW', overwrite)` in a child killed (SIGKILL) at the named point. */
function killedWrite(target: string, point: string): Promise<string | null> {
  const script = `import(${JSON.stringify(fsModule)}).then((m) => m.writeFileAtomic(${JSON.stringify(target)}, 'NEW', { overwrite: true }))`;
  const child = spawn(process.execPath, ['--import', 'tsx', '-e', script], { env: { ...process.env, SCRY_FAILPOINT: point }, stdio: 'ignore' });
  return new Promise((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
}

describe('kill -9 at any moment of a replacing write keeps the file and its .bak whole', () => {
  const points = ['temp-written', 'backup-linked', 'backup-renamed', 'renamed'] as const;
  it('killed at each point of the write (four children at once)', { timeout: 60_000 }, async () => {
    const targets = points.map((point) => {
      const target = join(fresh(`kill-${point}`), 'game.gamedb');
      writeFileSync(target, 'OLD');
      writeFileSync(target + '.bak', 'OLDER');
      return target;
    });
    expect(await Promise.all(points.map((point, i) => killedWrite(targets[i]!, point)))).toEqual(points.map(() => 'SIGKILL'));
    points.forEach((point, i) => {
      const target = targets[i]!;
      // the target is the old or the new file, never a part; the .bak is a complete earlier version
      expect(readFileSync(target, 'utf8')).toBe(point === 'renamed' ? 'NEW' : 'OLD');
      expect(readFileSync(target + '.bak', 'utf8')).toBe(point === 'temp-written' || point === 'backup-linked' ? 'OLDER' : 'OLD');
      // the next write takes over the dead writer's lock, removes its temporary files and succeeds
      writeFileAtomic(target, 'NEXT', { overwrite: true });
      expect(readFileSync(target, 'utf8')).toBe('NEXT');
      expect(readdirSync(join(target, '..')).filter((f) => f.startsWith('.scry-'))).toEqual([]);
    });
  });
});

describe('locks', () => {
  it('a lock left by a dead process is taken over', () => {
    const target = join(fresh('lock-stale'), 'f.sd2');
    writeFileSync(lockPathOf(target), JSON.stringify({ pid: DEAD_PID, host: hostname(), since: 'then' }));
    const lock = lockFile(target, { waitMs: 100 });
    expect(JSON.parse(readFileSync(lockPathOf(target), 'utf8')).pid).toBe(process.pid);
    lock.release();
    expect(existsSync(lockPathOf(target))).toBe(false);
  });

  it('a live writer’s lock is waited for, then refused with who holds it', { timeout: 30_000 }, async () => {
    const target = join(fresh('lock-live'), 'f.sd2');
    const script = `import(${JSON.stringify(fsModule)}).then((m) => { m.lockFile(${JSON.stringify(target)}); console.log('LOCKED'); setTimeout(() => {}, 60000); })`;
    const child = spawn(process.execPath, ['--import', 'tsx', '-e', script], { stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      await new Promise<void>((resolve) => child.stdout!.on('data', (b: Buffer) => b.toString().includes('LOCKED') && resolve()));
      expect(() => lockFile(target, { waitMs: 300 })).toThrow(new RegExp(`being written by scry process ${child.pid}`));
    } finally {
      child.kill('SIGKILL');
    }
    await new Promise((r) => child.on('exit', r));
    // its process is gone now: the lock is stale and taken over
    lockFile(target, { waitMs: 100 }).release();
  });
});
