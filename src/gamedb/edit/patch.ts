/**
 * Patch databases (the loader's `gamedb_patch`): a GADB file holding only the records that differ from a base,
 * tagged with the base's build tag, which the engine's loader merges into the base when the tags match (seed
 * "Other copies and the patch database").
 *
 * What the seed traced: the loader looks for a patch database (the resource system, then a loose file named after
 * the database with `gamedb_patch` appended), keeps it only when its build tag equals the base's, and sizes the
 * base's allocation to load the patch's records with the base's. What it did not trace, and scry therefore makes
 * explicit (see `EDIT_HYPOTHESES`):
 * - which header field is the build tag in the file (H-EDIT-BUILD-TAG: header +0x20);
 * - how a record defined in both combines (H-EDIT-PATCH-RULE: `replace` by default, `keep-base` on request);
 * - how a patch record's links are numbered (H-EDIT-PATCH-LINKS: in the merged database's numbering, base ∪
 *   patch, each category sorted — for a patch made from an edited copy that only changed or added records, this is
 *   exactly the edited copy's numbering).
 *
 * A patch can add categories and records and replace records; it cannot remove anything, and it holds named
 * (secondary) records only. `makeGadbPatch` reports what an edited copy changed that a patch cannot express.
 */
import { ToolkitError, UsageError } from '../../binary/errors.ts';
import type { Gadb } from '../../formats/gadb/types.ts';
import { newGadbDescriptors } from '../../formats/gadb/parse.ts';
import { diffGadb } from './diff.ts';
import { GadbEditor, type RecordContent } from './editor.ts';
import { blockText, blockTextBytes, categoryName, findCategoryByName, findRecordByName, indexModel, recordName, type NameHasher } from './model.ts';

/** How a record that both the base and the patch define is merged (H-EDIT-PATCH-RULE). */
export type PatchRecordRule =
  /** The patch's record replaces the base's whole record (layout and every value). Default. */
  | 'replace'
  /** The base's record is kept; the patch only adds records the base lacks. */
  | 'keep-base';

export interface MakePatchResult {
  patch: Gadb;
  /** `Category/Record` of every record in the patch. */
  records: string[];
  /** Records added relative to the base (a subset of `records`). */
  added: string[];
  /** Categories the patch adds. */
  categoriesAdded: string[];
  /** Differences a patch database cannot express (removals, primaries, header fields). */
  notExpressible: string[];
}

const EMPTY: RecordContent = { rows: [], cells: new Uint32Array(0), flags: 0, unk0A: 0 };

function emptyLike(base: Gadb, edited: Gadb): Gadb {
  const rootSize = edited.strings.itemKeys.length > 0 && edited.strings.itemKeys[0] === 0 ? edited.strings.itemSizes[0]! : 0;
  return {
    container: structuredClone(base.container),
    header: { ...edited.header, unk20: base.header.unk20, recordCount: 0, stringBlockSize: 0, categoryCount: 0, cellCount: 0, descriptorCount: 0 },
    headerExtra: edited.headerExtra.slice(),
    headerString: edited.headerString.slice(),
    strings: { data: edited.strings.data.slice(0, rootSize), itemKeys: Uint32Array.of(0), itemSizes: Uint32Array.of(rootSize) },
    descriptors: newGadbDescriptors(0),
    valueSectionUnk00: edited.valueSectionUnk00,
    categories: [],
    records: { count: 0, nameKey: new Uint32Array(0), cellCount: new Uint16Array(0), descriptorCount: new Uint8Array(0), firstDescriptor: new Uint32Array(0), unk0A: new Uint8Array(0), flags: new Uint8Array(0) },
    cells: new Uint32Array(0),
    pairs: new Uint32Array(0),
  };
}

/**
 * Makes a patch database holding the named records of `edited` that differ from (or are missing in) `base`, with
 * the base's build tag. Throws when the edited copy removed records or categories unless `allowLoss` is set (a
 * patch cannot remove, and its link numbering assumes nothing was removed).
 */
export function makeGadbPatch(base: Gadb, edited: Gadb, options: { hasher?: NameHasher; allowLoss?: boolean } = {}): MakePatchResult {
  const d = diffGadb(base, edited);
  const notExpressible: string[] = [];
  for (const c of d.categoriesRemoved) notExpressible.push(`category ${c} removed`);
  for (const r of d.recordsRemoved) notExpressible.push(`record ${r} removed`);
  for (const h of d.header) notExpressible.push(`header ${h.field} changed`);
  for (const c of d.categoriesChanged) notExpressible.push(`category ${c.category} ${c.what} changed`);
  const removals = d.categoriesRemoved.length + d.recordsRemoved.length;
  if (removals > 0 && !options.allowLoss) {
    throw new UsageError(`the edited copy removes ${removals} record(s) or categories; a patch database can only add and replace (pass allowLoss / --allow-loss to make it anyway, without the removals)`);
  }
  const wanted = new Set<string>([...d.recordsAdded, ...d.recordsChanged.map((r) => r.record)]);
  const ix = indexModel(edited);
  const picks: Array<{ c: number; i: number; r: number }> = [];
  for (let c = 0; c < edited.categories.length; c++) {
    const cat = edited.categories[c]!;
    const cname = categoryName(edited, c);
    for (let i = 0; i < cat.primaryCount + cat.secondaryCount; i++) {
      const label = `${cname}/${recordName(edited, ix, c, i)}`;
      if (!wanted.has(label)) continue;
      if (i < cat.primaryCount) {
        notExpressible.push(`primary ${label} changed`);
        continue;
      }
      picks.push({ c, i, r: ix.categoryFirstRecord[c]! + i });
    }
  }
  const patch = emptyLike(base, edited);
  const ed = new GadbEditor(patch, { inPlace: true, ...(options.hasher ? { hasher: options.hasher } : {}) });
  const cats = [...new Set(picks.map((p) => p.c))];
  for (const c of cats) {
    const cat = edited.categories[c]!;
    ed.addCategoryNamed(categoryName(edited, c), blockText(edited, cat.typeNameKey), blockText(edited, cat.unk08Key), cat.sortKey);
  }
  // Phase 1: every record as an empty placeholder (no links yet, so no renumbering touches copied cells).
  const added = new Set(d.recordsAdded);
  const labels: string[] = [];
  for (const p of picks) {
    const name = blockText(edited, edited.records.nameKey[p.r]!);
    ed.addRecord(categoryName(edited, p.c), name, { content: EMPTY });
    labels.push(`${categoryName(edited, p.c)}/${name}`);
  }
  // Phase 2: contents; links verbatim (the edited copy's numbering = the merged numbering, H-EDIT-PATCH-LINKS).
  for (const p of picks) {
    const name = blockText(edited, edited.records.nameKey[p.r]!);
    const a = ed.record(categoryName(edited, p.c), name);
    ed.replaceRecordContent(a, ed.importRecordContent(edited, p.r, ix.recordCellStart[p.r]!));
  }
  ed.finish();
  return { patch, records: labels, added: labels.filter((l) => added.has(l)), categoriesAdded: d.categoriesAdded.filter((c) => cats.some((x) => categoryName(edited, x) === c)), notExpressible };
}

export interface ApplyPatchOptions {
  rule?: PatchRecordRule;
  /** Apply even when the build tags differ (the engine's loader would ignore the patch). */
  ignoreBuildTag?: boolean;
  hasher?: NameHasher;
}

export interface ApplyPatchResult {
  merged: Gadb;
  replaced: string[];
  added: string[];
  kept: string[];
  categoriesAdded: string[];
  /** Records of the patch that were skipped (primaries). */
  skipped: string[];
}

/** The build tag of a database (H-EDIT-BUILD-TAG: header +0x20). */
export function gadbBuildTag(g: Gadb): number {
  return g.header.unk20 >>> 0;
}

/** Merges `patch` into a copy of `base` as the loader does (build tags must match unless `ignoreBuildTag`). */
export function applyGadbPatch(base: Gadb, patch: Gadb, options: ApplyPatchOptions = {}): ApplyPatchResult {
  const rule = options.rule ?? 'replace';
  if (gadbBuildTag(base) !== gadbBuildTag(patch) && !options.ignoreBuildTag) {
    throw new ToolkitError(
      'E_BUILD_TAG',
      `the patch's build tag 0x${gadbBuildTag(patch).toString(16).toUpperCase()} differs from the base's 0x${gadbBuildTag(base).toString(16).toUpperCase()}: the engine's loader would ignore this patch (H-EDIT-BUILD-TAG; pass --ignore-build-tag to merge anyway)`,
    );
  }
  const ed = new GadbEditor(base, options.hasher ? { hasher: options.hasher } : {});
  const pix = indexModel(patch);
  const result: ApplyPatchResult = { merged: ed.gadb, replaced: [], added: [], kept: [], categoriesAdded: [], skipped: [] };
  const work: Array<{ cname: string; name: string; r: number; existed: boolean }> = [];
  for (let c = 0; c < patch.categories.length; c++) {
    const cat = patch.categories[c]!;
    const cname = categoryName(patch, c);
    if (findCategoryByName(ed.gadb, cname) < 0) {
      ed.addCategoryNamed(cname, blockText(patch, cat.typeNameKey), blockText(patch, cat.unk08Key), cat.sortKey);
      result.categoriesAdded.push(cname);
    }
    for (let i = 0; i < cat.primaryCount; i++) result.skipped.push(`${cname}/#${i}`);
    for (let i = cat.primaryCount; i < cat.primaryCount + cat.secondaryCount; i++) {
      const r = pix.categoryFirstRecord[c]! + i;
      const name = new TextDecoder().decode(blockTextBytes(patch, patch.records.nameKey[r]!));
      const bc = findCategoryByName(ed.gadb, cname);
      const existed = findRecordByName(ed.gadb, ed.index, bc, name) >= 0;
      if (!existed) ed.addRecord(cname, name, { content: EMPTY });
      work.push({ cname, name, r, existed });
    }
  }
  for (const w of work) {
    const label = `${w.cname}/${w.name}`;
    if (w.existed && rule === 'keep-base') {
      result.kept.push(label);
      continue;
    }
    const a = ed.record(w.cname, w.name);
    ed.replaceRecordContent(a, ed.importRecordContent(patch, w.r, pix.recordCellStart[w.r]!));
    (w.existed ? result.replaced : result.added).push(label);
  }
  ed.finish();
  return result;
}
