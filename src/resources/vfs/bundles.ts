/**
 * Bundles through the mount vector (seed 001, "Bundles"): a bundle is a manifest (`.bndl`) plus a container of
 * its contents (`.embb`). The registry's get-by-name forces the `.bndl` extension; a missing path is benign (the
 * registry keeps an entry whose manifest has no data).
 */
import { parseBndl, type Bndl } from '../../formats/bndl/bndl.ts';
import type { MountVector, Resolution } from './mount-vector.ts';
import { normalizeVfsPath } from './source.ts';

export interface BundleInfo {
  /** The manifest path (extension forced to `.bndl`). */
  path: string;
  /** The parsed manifest, or undefined when no source has it (benign, as in the engine). */
  manifest: Bndl | undefined;
  manifestSource: Resolution | undefined;
  /** The companion content container and where it resolves. */
  contentPath: string;
  contentSource: Resolution | undefined;
}

/** `x\y` or `x\y.anything` → `x\y.bndl` (the registry's slot 24 behaviour). */
export function bundleManifestPath(path: string): string {
  const p = normalizeVfsPath(path);
  const slash = p.lastIndexOf('\\');
  const dot = p.lastIndexOf('.');
  return (dot > slash ? p.slice(0, dot) : p) + '.bndl';
}

/** Opens a bundle's manifest and locates its content, without loading the content. */
export async function openBundle(vfs: MountVector, path: string): Promise<BundleInfo> {
  const manifestPath = bundleManifestPath(path);
  const contentPath = manifestPath.slice(0, -5) + '.embb';
  const manifestSource = await vfs.resolve(manifestPath);
  const manifest = manifestSource ? parseBndl(await manifestSource.source.read(manifestPath)) : undefined;
  return { path: manifestPath, manifest, manifestSource, contentPath, contentSource: await vfs.resolve(contentPath) };
}
