/**
 * The generated world for streaming tests: the semantic-core database (seed 1), read back through the codec, and
 * its bundle files served by the generated world source at small sizes unless a test asks for the seed's sizes.
 */
import { Database, MemorySource, MountVector, Streamer, writeGadb, type StreamerOptions } from '../../../src/index.ts';
import { generateWorld, planBundleRefs, WorldFileSource, type GeneratedWorld } from '../../../src/gamedb/generate/world/index.ts';

let cached: { world: GeneratedWorld; db: Database } | undefined;

/** The world database (generated once per test file). */
export function worldDb(): { world: GeneratedWorld; db: Database } {
  if (!cached) {
    const world = generateWorld({ seed: 1 });
    cached = { world, db: Database.open(writeGadb(world.gadb)) };
  }
  return cached;
}

const vfsCache = new Map<number, Promise<MountVector>>();

/** A mount vector over the world's files (sizeScale 1 = the seed's sizes); read-only, so shared within a test file. */
export function worldVfs(sizeScale = 1 / 64): Promise<MountVector> {
  let v = vfsCache.get(sizeScale);
  if (!v) {
    v = (async () => {
      const { world } = worldDb();
      const vfs = new MountVector();
      await vfs.mount(new WorldFileSource(planBundleRefs(world.plan), { sizeScale }));
      return vfs;
    })();
    vfsCache.set(sizeScale, v);
  }
  return v;
}

/** A mount vector over in-memory files. */
export async function memoryVfs(files: Record<string, Uint8Array>): Promise<MountVector> {
  const vfs = new MountVector();
  await vfs.mount(new MemorySource('test', files));
  return vfs;
}

/** A simulation streamer over `files` (each path → that many zero bytes unless bytes are given). */
export async function streamerOver(files: Record<string, number | Uint8Array>, options: Omit<StreamerOptions, 'vfs'> = {}): Promise<Streamer> {
  const bytes: Record<string, Uint8Array> = {};
  for (const [p, v] of Object.entries(files)) bytes[p] = typeof v === 'number' ? new Uint8Array(v) : v;
  return new Streamer({ vfs: await memoryVfs(bytes), ...options });
}
