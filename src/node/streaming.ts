/**
 * Node adapter for resource streaming: a database and a mount vector from files. Archives are mounted as archive
 * trees over async file handles (`openArch06File`), so the streamer's real mode reads them with real asynchronous
 * I/O (libuv's thread pool does the reads while the pipeline's threads wait); folders become directory sources.
 * Without archives, the world the database describes is served by the generated world source (the seed's sizes,
 * made on demand, nothing written).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Database } from '../gamedb/database.ts';
import type { P919Table } from '../hash/p919.ts';
import { ChunkDecoder } from '../compress/codecs.ts';
import { MountVector } from '../resources/vfs/mount-vector.ts';
import { worldBundleRefs } from '../resources/bundles/world-data.ts';
import { WorldFileSource, packWorldArchives, type WorldBundleRef } from '../gamedb/generate/world/files.ts';
import { mountPath } from './dir-source.ts';
import { writeFileAtomic } from './fs.ts';
import { openDatabaseFile } from './gamedb.ts';

export interface StreamingInputs {
  db: Database;
  vfs: MountVector;
  /** What is mounted, in priority order ('generated world' when nothing was given). */
  mounted: string[];
  generated: boolean;
}

/** Opens the database and mounts `mounts` in order (entry 0 first), or the generated world when none are given. */
export async function openStreamingInputs(dbPath: string, mounts: readonly string[], options: { table?: P919Table; sizeScale?: number } = {}): Promise<StreamingInputs> {
  const db = openDatabaseFile(dbPath, options.table ? { table: options.table } : {});
  const vfs = new MountVector(options.table ? { table: options.table } : {});
  const decoder = new ChunkDecoder();
  for (const m of mounts) await mountPath(vfs, m, undefined, { decoder, ...(options.table ? { table: options.table } : {}) });
  if (mounts.length === 0) {
    await vfs.mount(new WorldFileSource(worldBundleRefs(db) as WorldBundleRef[], { name: 'generated world', ...(options.sizeScale !== undefined ? { sizeScale: options.sizeScale } : {}) }));
  }
  return { db, vfs, mounted: mounts.length > 0 ? [...mounts] : ['generated world'], generated: mounts.length === 0 };
}

/** Writes the world's archives (`packWorldArchives`) into `dir`, atomically; returns the files written. */
export function writeWorldArchives(dir: string, refs: readonly WorldBundleRef[], options: { sizeScale?: number; overwrite?: boolean } = {}): Array<{ path: string; bytes: number }> {
  mkdirSync(dir, { recursive: true });
  return packWorldArchives(refs, options.sizeScale !== undefined ? { sizeScale: options.sizeScale } : {}).map((a) => {
    const path = join(dir, a.name);
    writeFileAtomic(path, a.bytes, { overwrite: options.overwrite === true });
    return { path, bytes: a.bytes.length };
  });
}
