/**
 * The bundle loader 0x3DBE50: what the load stage does with a bundle's content (`.embb`) bytes. It receives the
 * path table (the load stage's +0xD8: every streamed file's {hash, 0, path}, sorted by hash) and registers the
 * bundle's resources in the resource table under the names the table gives (`stream.pathTableNames`).
 *
 * The `.embb` layout is unknown (spec archives.md §8). Hypothesis `stream.contentSplit`: when the raw size obeys the
 * verified size rule (Σ manifest sizes + manifest namesSize + 24) the resources lie back to back after a 24-byte
 * header and the name block — the generated world's layout (`embb.generatedLayout`); otherwise the content is kept
 * whole, as one blob, and the bundle's resources are registered without data of their own.
 */
import { bndlNamesSize, bndlTotalSize, type Bndl } from '../../formats/bndl/bndl.ts';
import { RESOURCE_STATE, type Resource, type ResourceTable } from '../streaming/resource-table.ts';
import { parseResource, type ParseOutcome } from '../streaming/resource-types.ts';
import type { Bundle } from './registry.ts';

export interface ContentSlice {
  path: string;
  offset: number;
  size: number;
}

/** Where each resource lies in a content container (or `opaque` when the size rule does not hold). */
export function splitBundleContent(manifest: Bndl, contentSize: number): { layout: 'size-rule' | 'opaque'; slices: ContentSlice[] } {
  const namesSize = bndlNamesSize(manifest);
  if (contentSize !== bndlTotalSize(manifest) + namesSize + 24) return { layout: 'opaque', slices: [] };
  let at = 24 + namesSize;
  const slices = manifest.entries.map((e) => {
    const s = { path: e.path, offset: at, size: e.size };
    at += e.size;
    return s;
  });
  return { layout: 'size-rule', slices };
}

/** Names a hash through the path table (binary search over {hash, 0, path} rows); undefined when absent. */
export type PathTableLookup = (hash: number) => string | undefined;

/**
 * Registers a bundle's content: splits it, names each resource through the path table, parses it with its
 * resource type (a bundled effect follows the `.fxp` trailer rule: a missing pair count stalls the loader) and
 * makes it resident, referenced by the bundle. Resources already resident (released ≠ gone) are reused as they are.
 */
export function loadBundleContent(bundle: Bundle, bytes: Uint8Array, table: ResourceTable, lookup: PathTableLookup): ParseOutcome {
  const manifest = bundle.manifestData;
  bundle.contentBytes = bytes.length;
  if (!manifest) return { ok: false, error: new Error(`${bundle.path}: content loaded without a manifest`) };
  const { layout, slices } = splitBundleContent(manifest, bytes.length);
  bundle.layout = layout;
  const held: Resource[] = [];
  const content = bundle.content;
  if (content) {
    content.data = layout === 'opaque' ? bytes : { layout, resources: slices.length };
    content.bytes = layout === 'opaque' ? bytes.length : 0;
    content.state = RESOURCE_STATE.finalized;
  }
  for (const s of slices.length > 0 ? slices : manifest.entries.map((e) => ({ path: e.path, offset: -1, size: e.size }))) {
    const hash = table.hashOf(s.path);
    const named = lookup(hash);
    if (named !== undefined) bundle.pathTableHits++;
    else bundle.pathTableMisses++;
    const node = table.acquire(named ?? s.path);
    held.push(node);
    if (node.resident || s.offset < 0) continue;
    const view = bytes.subarray(s.offset, s.offset + s.size);
    const out = parseResource(view, node.path);
    if (!out.ok && 'stall' in out) {
      bundle.resources = held;
      return out;
    }
    if (!out.ok) {
      node.error = out.error;
      continue;
    }
    node.data = out.data;
    node.bytes = s.size;
    node.state = RESOURCE_STATE.finalized;
  }
  bundle.resources = held;
  return { ok: true, data: bundle };
}
