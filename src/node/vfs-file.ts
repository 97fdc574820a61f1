/** Node adapters for archives: random access over a file handle (archives are read lazily, never whole). */
import { open } from 'node:fs/promises';
import type { RandomAccess } from '../formats/arch06/archive.ts';
import { Arch06Archive, type OpenArch06Options } from '../formats/arch06/archive.ts';

/** Opens `path` for random access. Close it with `close()` (an `Arch06Archive` closes it with its own `close`). */
export async function openFileRandomAccess(path: string): Promise<RandomAccess> {
  const handle = await open(path, 'r');
  const { size } = await handle.stat();
  return {
    size,
    async read(offset, length) {
      const len = Math.max(0, Math.min(length, size - offset));
      const buf = new Uint8Array(len);
      let done = 0;
      while (done < len) {
        const { bytesRead } = await handle.read(buf, done, len - done, offset + done);
        if (bytesRead === 0) break;
        done += bytesRead;
      }
      return done === len ? buf : buf.subarray(0, done);
    },
    close: () => handle.close(),
  };
}

/** Opens an `.arch06` file lazily (index now, entries on demand). */
export async function openArch06File(path: string, options: OpenArch06Options = {}): Promise<Arch06Archive> {
  const source = await openFileRandomAccess(path);
  try {
    return await Arch06Archive.open(source, { name: path, ...options });
  } catch (e) {
    await source.close?.();
    throw e;
  }
}
