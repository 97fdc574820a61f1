/**
 * The conflict view's routes: a base GameDB, the served sources that can load over it (change files, patch
 * databases of it), every record field they change with each source's value and the winner under the load order
 * (`conflictsOf`), and the merged result saved as a new database.
 */
import { UsageError } from '../binary/errors.ts';
import { utf8Decode } from '../binary/text.ts';
import { verifyGadb, writeGadb } from '../formats/gadb/index.ts';
import { parseChangeFile, type ChangeOp } from '../gamedb/edit/changes.ts';
import { conflictsOf, type ConflictReport, type ConflictSource } from '../gamedb/edit/conflicts.ts';
import { showValue } from '../gamedb/edit/diff.ts';
import { gadbBuildTag } from '../gamedb/edit/patch.ts';
import { formatHash } from '../gamedb/names.ts';
import { readBytes, safeJoin } from '../node/fs.ts';
import type { ApiContext } from './api.ts';
import type { ChangesOverview, ConflictAnswer, ConflictCandidate, ConflictRowView, SaveResult } from './api-types.ts';
import { gadbDoc, saveFolderOf, saveNewFile } from './api-gadb.ts';
import { findingsOf } from './gadb-view.ts';
import { checkPlainFileName } from './file-names.ts';
import type { Router } from './router.ts';
import type { FileInfo } from './workspace.ts';

/** Rows sent per answer: a patch of thousands of records changes more fields than a page can show at once. */
export const ROW_LIMIT = 5000;

/** A served change file: its text and operations, or why they could not be read. */
interface ChangesDoc {
  text: string;
  ops?: ChangeOp[];
  problem?: string;
}

function openChanges(bytes: Uint8Array, info: FileInfo): ChangesDoc {
  const text = utf8Decode(bytes);
  try {
    return { text, ops: parseChangeFile(text, info.name) };
  } catch (e) {
    return { text, problem: (e as Error).message };
  }
}

function changesDoc(c: ApiContext, id: string): ChangesDoc {
  return c.workspace.open<ChangesDoc>(id, 'changes');
}

/** Sources that can load over `base`: every change file, and every GameDB that is a patch of it. */
function candidatesOf(c: ApiContext, base: FileInfo): ConflictCandidate[] {
  const out: ConflictCandidate[] = [];
  for (const f of c.workspace.list()) {
    if (f.kind === 'changes') {
      const d = changesDoc(c, f.id);
      out.push(d.problem !== undefined ? { id: f.id, name: f.name, kind: 'changes', problem: d.problem } : { id: f.id, name: f.name, kind: 'changes' });
    } else if (f.kind === 'gadb' && f.id !== base.id && f.patchOf === base.id) out.push({ id: f.id, name: f.name, kind: 'patch' });
  }
  return out;
}

function sourceOf(c: ApiContext, base: FileInfo, id: string): ConflictSource {
  const info = c.workspace.info(id);
  if (info.kind === 'changes') {
    const d = changesDoc(c, id);
    if (!d.ops) throw new UsageError(d.problem ?? `${info.name}: not a change file`);
    return { name: info.name, kind: 'changes', ops: d.ops };
  }
  if (info.kind === 'gadb' && info.id !== base.id) {
    const patch = gadbDoc(c, id).db.model;
    const tag = gadbBuildTag(patch);
    const baseTag = gadbBuildTag(gadbDoc(c, base.id).db.model);
    if (tag !== baseTag) throw new UsageError(`${info.name} has the build tag ${formatHash(tag)}, ${base.name} ${formatHash(baseTag)}: the engine's loader would ignore it as a patch of ${base.name} (H-EDIT-BUILD-TAG)`);
    return { name: info.name, kind: 'patch', patch };
  }
  throw new UsageError(`${info.name} is neither a change file nor a patch database of ${base.name}`);
}

/** The `src` parameters: source ids in load order, each once. */
function sourceIds(values: unknown): string[] {
  const ids = Array.isArray(values) ? values : [];
  if (!ids.every((x): x is string => typeof x === 'string')) throw new UsageError('sources must be file ids');
  if (new Set(ids).size !== ids.length) throw new UsageError('a source can be loaded once');
  return ids;
}

/** The last few reports, by base and load order (reordering back and forth, then saving, computes each once). */
const reports = new Map<string, { report: ConflictReport; ms: number }>();

function reportOf(c: ApiContext, base: FileInfo, ids: string[]): { report: ConflictReport; ms: number } {
  const key = JSON.stringify([base.id, ...ids]);
  const cached = reports.get(key);
  if (cached) return cached;
  const sources = ids.map((id) => sourceOf(c, base, id));
  const t0 = performance.now();
  const d = gadbDoc(c, base.id);
  const report = conflictsOf(d.db.model, sources, { namer: d.db.names });
  const entry = { report, ms: performance.now() - t0 };
  reports.set(key, entry);
  if (reports.size > 4) reports.delete(reports.keys().next().value!);
  return entry;
}

function text(v: unknown): string {
  return showValue(v);
}

function refOf(c: ApiContext, base: FileInfo, record: string): { category: string; label: string } | undefined {
  const db = gadbDoc(c, base.id).db;
  let best: { category: string; label: string } | undefined;
  for (let i = record.indexOf('/'); i >= 0; i = record.indexOf('/', i + 1)) {
    if (db.findCategory(record.slice(0, i))) best = { category: record.slice(0, i), label: record.slice(i + 1) };
  }
  return best;
}

/** Registers the conflict view's routes and the opener of change files. */
export function registerConflictsApi(router: Router<ApiContext>, context: ApiContext): void {
  context.workspace.registerOpener('changes', (bytes, info) => openChanges(bytes, info));

  router.add({
    method: 'GET',
    pattern: '/api/files/:file/conflicts',
    summary: 'the conflict view of a GameDB: ?src=ID (repeated, in load order: the last wins) change files and patch databases; every field they change, each source\'s value, the winner',
    handler: (req, c): ConflictAnswer => {
      const base = c.workspace.info(req.params['file']!);
      if (base.kind !== 'gadb') throw new UsageError(`${base.name} is not a GameDB: the conflict view loads change files and patches over a GameDB`);
      const ids = sourceIds(req.query.getAll('src'));
      const { report, ms } = reportOf(c, base, ids);
      const rows: ConflictRowView[] = report.rows.slice(0, ROW_LIMIT).map((r) => {
        const row: ConflictRowView = {
          record: r.record,
          field: r.field,
          base: r.base === undefined && r.hash === 0 ? '(absent)' : text(r.base),
          values: r.values.map((v) => (v.touched ? (r.hash === 0 && v.value === undefined ? '(removed)' : text(v.value)) : null)),
          winner: r.winner,
          merged: r.hash === 0 && r.merged === undefined ? '(absent)' : text(r.merged),
          status: r.status,
        };
        if (r.hash !== 0) row.hash = formatHash(r.hash);
        if (r.index !== undefined) row.index = r.index;
        const ref = r.base !== undefined || r.hash !== 0 ? refOf(c, base, r.record) : undefined;
        if (ref) row.ref = ref;
        return row;
      });
      return {
        base,
        candidates: candidatesOf(c, base),
        sources: ids.map((id, i) => ({ id, name: report.sources[i]!.name, kind: report.sources[i]!.kind })),
        rows,
        total: report.rows.length,
        counts: report.counts,
        ms,
      };
    },
  });

  router.add({
    method: 'POST',
    pattern: '/api/files/:file/conflicts/save',
    summary: 'save the merged result of the conflict view: { src: [ID…] in load order, name } (a new database; atomic, never replaces a file)',
    handler: (req, c): SaveResult => {
      const base = c.workspace.info(req.params['file']!);
      if (base.kind !== 'gadb') throw new UsageError(`${base.name} is not a GameDB`);
      const body = req.body as { src?: unknown; name?: unknown } | undefined;
      if (typeof body?.name !== 'string') throw new UsageError('body must be { src: [ids], name }');
      const name = checkPlainFileName(body.name);
      const ids = sourceIds(body.src);
      if (ids.length === 0) throw new UsageError('load at least one change file or patch to merge');
      const { report } = reportOf(c, base, ids);
      const bytes = writeGadb(report.merged);
      const target = safeJoin(saveFolderOf(c, base), name);
      const saved = saveNewFile(c, target, bytes, base);
      return {
        format: 'gadb',
        name,
        saved,
        bytes: bytes.length,
        findings: findingsOf(verifyGadb(readBytes(target))),
        checked: `${base.name} with ${report.sources.map((s) => s.name).join(', then ')} loaded over it in this order`,
      };
    },
  });

  router.add({
    method: 'GET',
    pattern: '/api/files/:file/changes',
    summary: 'a change file: its operations, its text, the databases it can load over',
    handler: (req, c): ChangesOverview => {
      const info = c.workspace.info(req.params['file']!);
      const d = changesDoc(c, info.id);
      const out: ChangesOverview = {
        file: info,
        kind: 'changes',
        operations: d.ops?.length ?? 0,
        text: d.text.slice(0, 65536),
        databases: c.workspace.list().filter((f) => f.kind === 'gadb' && f.patchOf === undefined),
      };
      if (d.problem !== undefined) out.problem = d.problem;
      return out;
    },
  });
}
