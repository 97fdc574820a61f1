/**
 * Resource types: what the parse stage (and the bundle loader, for bundled resources) does with a resource's
 * bytes, by file extension. One table. Bundle manifests are parsed as `.bndl`; effects (`.fxp`) as GADB databases,
 * with the engine's trailer rule; everything else is kept as its bytes.
 *
 * The `.fxp` trailer rule (seed 001 "A malformed effect stalls the loader"): every `.fxp` ends with a u32, the
 * count of the database's (u32, u32) pair table (0 in 968 of 968 shipped effects). A file without it makes the
 * body reader read 4 bytes past the end; on the raw asynchronous stream that read never returns, and every later
 * load waits behind it. A missing file, by contrast, is harmless.
 */
import { EofError } from '../../binary/errors.ts';
import { parseBndl } from '../../formats/bndl/bndl.ts';
import { parseGadb } from '../../formats/gadb/parse.ts';

/** What a resource type makes of bytes. */
export type ParseOutcome = { ok: true; data: unknown } | { ok: false; error: unknown } | { ok: false; stall: string };

export interface ResourceType {
  readonly ext: string;
  readonly name: string;
  parse(bytes: Uint8Array, path: string): ParseOutcome;
}

/** True when `e` is the reader running out exactly at the trailer's pair count (the stalling case). */
export function isMissingPairCount(e: unknown): boolean {
  return e instanceof EofError && /\/trailer\/pairCount$/.test(e.path);
}

function parseEffect(bytes: Uint8Array, path: string): ParseOutcome {
  try {
    return { ok: true, data: parseGadb(bytes) };
  } catch (e) {
    if (isMissingPairCount(e)) return { ok: false, stall: `${path}: the effect database ends before its pair-table count; the raw stream's read 4 bytes past the end never returns, so every later load waits behind it` };
    return { ok: false, error: e };
  }
}

export const RESOURCE_TYPES: readonly ResourceType[] = [
  { ext: 'bndl', name: 'bundle manifest', parse: (bytes) => ({ ok: true, data: parseBndl(bytes) }) },
  { ext: 'fxp', name: 'effect', parse: parseEffect },
];

const RAW: ResourceType = { ext: '', name: 'raw', parse: (bytes) => ({ ok: true, data: bytes }) };

/** The resource type of a path (by extension; raw bytes when the table has none). */
export function resourceTypeOf(path: string): ResourceType {
  const dot = path.lastIndexOf('.');
  const ext = dot < 0 ? '' : path.slice(dot + 1).toLowerCase();
  return RESOURCE_TYPES.find((t) => t.ext === ext) ?? RAW;
}

/** Parses with the path's type; a thrown format error becomes a failed outcome. */
export function parseResource(bytes: Uint8Array, path: string): ParseOutcome {
  try {
    return resourceTypeOf(path).parse(bytes, path);
  } catch (e) {
    return { ok: false, error: e };
  }
}
