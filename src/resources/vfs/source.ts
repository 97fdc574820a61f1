/**
 * A source of the engine's file system (seed 001, "The file system"): kind 0 is an archive tree, kind 1 a
 * directory source. Sources answer by path; archive trees also carry a path index. Paths are virtual: `\`
 * separators, no leading separator, compared without case.
 */
import type { ArchivePathIndex } from '../../formats/apl/apl.ts';

/** The engine's two kinds of source, plus in-memory sources (tests, browser drops) that answer like directories. */
export type VfsSourceKind = 'archive' | 'directory' | 'memory';

export interface VfsSource {
  readonly kind: VfsSourceKind;
  /** What the user mounted (a file or folder path, or a label). */
  readonly name: string;
  /** Whether the source serves `path` (a normalised virtual path). */
  has(path: string): Promise<boolean>;
  /** The bytes of `path`; throws a NotFoundError when absent. */
  read(path: string): Promise<Uint8Array>;
  /** Every path the source serves, as stored. */
  list(): Promise<string[]>;
  /** The archive's path index (`archivepatchloosefiles.txt`), when it carries one. */
  pathIndex?(): Promise<ArchivePathIndex | undefined>;
  /** Paths whose P919 hash is `hash` (archives answer from their own entries). */
  pathsForHash?(hash: number): Promise<string[]>;
  close?(): Promise<void>;
}

/** `/` → `\`, no leading `.\` or separators, no doubled separators. Case is kept. */
export function normalizeVfsPath(path: string): string {
  let p = path.replace(/\//g, '\\').replace(/\\{2,}/g, '\\');
  while (p.startsWith('.\\')) p = p.slice(2);
  return p.replace(/^\\+/, '').replace(/\\+$/, '');
}

/** The case-insensitive key of a virtual path (ASCII folding, as the P919 table folds). */
export function vfsKey(path: string): string {
  // fast path: one scan proves the path is already a key (lower case, `\`, no leading/trailing/doubled separator)
  const n = path.length;
  let clean = n > 0 && path.charCodeAt(0) !== 92 && path.charCodeAt(n - 1) !== 92 && !(path.charCodeAt(0) === 46 && path.charCodeAt(1) === 92);
  for (let i = 0; clean && i < n; i++) {
    const c = path.charCodeAt(i);
    if (c === 47 || (c >= 65 && c <= 90) || (c === 92 && path.charCodeAt(i + 1) === 92)) clean = false;
  }
  if (clean) return path;
  const p = normalizeVfsPath(path);
  return /[A-Z]/.test(p) ? p.replace(/[A-Z]+/g, (m) => m.toLowerCase()) : p;
}
