/**
 * GameDB routes: overview, categories, record pages, record view, referenced-by, search, staged edits and save.
 * Each handler maps its arguments to `src/gamedb` (`Database`, `searchDatabase`, `summarizeDatabase`,
 * `GadbEditor`) and the codec (`verifyGadb`, `writeGadb`); `gadb-view.ts` turns the answers into the JSON the
 * page reads.
 */
import { basename, dirname } from 'node:path';
import { NotFoundError, UsageError, VfsError } from '../binary/errors.ts';
import { stringify as stringifyYaml } from 'yaml';
import { gadbCellTotal, parseGadb, verifyGadb, writeGadb } from '../formats/gadb/index.ts';
import type { Gadb } from '../formats/gadb/types.ts';
import { applyChangeFiles, parseChangeFile } from '../gamedb/edit/changes.ts';
import { diffGadb } from '../gamedb/edit/diff.ts';
import { applyGadbPatch, gadbBuildTag, makeGadbPatch } from '../gamedb/edit/patch.ts';
import { Database, type DbRecord } from '../gamedb/database.ts';
import { formatHash } from '../gamedb/names.ts';
import { readBytes, safeJoin, writeFileAtomic } from '../node/fs.ts';
import type { ApiContext } from './api.ts';
import type { FileInfo } from './workspace.ts';
import type { CategoryDetail, CategorySummary, EditList, GadbAnalysis, GadbOverview, RecordPage, RecordRow, RecordView, ReferencedBy, SaveResult, SearchResult, SearchStatus, StagedEdit } from './api-types.ts';
import { columnsOf, editInput, findingsOf, recordRef, recordView, rowOf, setLinkContext } from './gadb-view.ts';
import { intParam, type Router } from './router.ts';
import { Staging } from './staging.ts';
import { SearchService } from './search-service.ts';
import { dictionaryText } from './names.ts';
import { checkPlainFileName } from './file-names.ts';
import { parseTableQuery, queryRecords, tableQueryKey } from './table-query.ts';
import { analyseInline, analyseInWorker, type Analysis } from './analysis.ts';
import { utf8Encode } from '../binary/text.ts';

/** An opened GameDB file: the database, the edits staged on it, its search index. */
export interface GadbDoc {
  db: Database;
  openMs: number;
  staging: Staging;
  analysis?: Promise<Analysis>;
  search?: SearchService;
  /** A patch database: the base it is opened against, and the base with it applied (where its links resolve). */
  patch?: { base: string; merged: Database } | { base: string; problem: string };
  /** Edits kept from an earlier run that could not be staged again. */
  notRestored: string[];
  /** Record orders of filtered or sorted tables (positions in the category), by category and query. */
  tableOrders: Map<string, Uint32Array>;
  /** Releases the search worker (the workspace calls it when the server stops). */
  close(): Promise<void>;
}

/** The search index service of a GameDB file (created on first use). */
export function searchOf(c: ApiContext, file: string): SearchService {
  const info = c.workspace.info(file);
  const d = doc(c, info.id);
  d.search ??= new SearchService({ path: c.workspace.pathOf(info.id), db: d.db, worker: info.size >= c.workerThreshold, namesText: () => dictionaryText(c.names.gadb) });
  return d.search;
}

function openGadb(bytes: Uint8Array, info: FileInfo, c: ApiContext): GadbDoc {
  const t0 = performance.now();
  const db = Database.open(bytes, { names: c.names.gadb });
  const path = c.workspace.pathOf(info.id);
  const staging = new Staging(db, (edits) => c.state.setEdits(path, edits));
  const d: GadbDoc = { db, openMs: performance.now() - t0, staging, notRestored: [], tableOrders: new Map(), close: async () => d.search?.close() };
  if (info.patchOf !== undefined) {
    try {
      const base = doc(c, info.patchOf).db;
      const merged = new Database(applyGadbPatch(base.model, db.model).merged, { names: c.names.gadb });
      d.patch = { base: info.patchOf, merged };
      setLinkContext(db, { db: merged, file: info.patchOf });
    } catch (e) {
      d.patch = { base: info.patchOf, problem: (e as Error).message };
    }
  }
  d.notRestored = staging.restore(c.state.edits(path));
  // The reverse index (referenced-by) takes a second or two at game scale: build it now, while the overview is
  // read, rather than on the first record opened.
  if (db.recordCount > 0) setImmediate(() => db.referenceCount(db.record(0)));
  return d;
}

/** The opened GameDB file `file` (opened on first use). */
export function gadbDoc(c: ApiContext, file: string): GadbDoc {
  return doc(c, file);
}

function doc(c: ApiContext, file: string): GadbDoc {
  return c.workspace.open<GadbDoc>(file, 'gadb');
}

function category(d: GadbDoc, name: string) {
  const cat = d.db.findCategory(name);
  if (!cat) throw new NotFoundError(`no category ${JSON.stringify(name)}`);
  return cat;
}

function recordAt(d: GadbDoc, text: string): DbRecord {
  if (!/^\d+$/.test(text)) throw new UsageError(`record index must be a non-negative integer, got ${JSON.stringify(text)}`);
  const index = Number(text);
  if (index >= d.db.recordCount) throw new NotFoundError(`no record ${index} (the file has ${d.db.recordCount})`);
  return d.db.record(index);
}

const HEADER_NOTES: Record<string, string> = {
  recordCount: 'equals the number of secondaries (H-HDR-10)',
  unk14: 'unknown; possibly the primary count (H-HDR-14)',
  unk20: 'unknown 32-bit value, written verbatim (H-HDR-20)',
  unk24: 'unknown; possibly the pair-table count (H-HDR-24)',
};

/** Registers the GameDB routes. */
export function registerGadbApi(router: Router<ApiContext>, context: ApiContext): void {
  context.workspace.registerOpener('gadb', (bytes, info) => openGadb(bytes, info, context));

  router.add({
    method: 'GET',
    pattern: '/api/files/:file',
    summary: 'overview: container, header, counts',
    handler: (req, c): GadbOverview => {
      const info = c.workspace.info(req.params['file']!);
      const d = doc(c, info.id);
      const m = d.db.model;
      const primaries = m.categories.reduce((n, cat) => n + cat.primaryCount, 0);
      return {
        file: info,
        kind: 'gadb',
        container: m.container.kind === 'bare' ? 'bare GADB' : `${m.container.magic} v${m.container.version} wrapper`,
        rootName: d.db.rootName,
        header: Object.entries(m.header).map(([name, value]) => {
          const f: GadbOverview['header'][number] = { name, value, hex: formatHash(value) };
          if (HEADER_NOTES[name]) f.note = HEADER_NOTES[name];
          return f;
        }),
        counts: [
          { label: 'categories', value: m.categories.length },
          { label: 'records', value: m.records.count },
          { label: 'primaries', value: primaries },
          { label: 'secondaries', value: m.records.count - primaries },
          { label: 'cells', value: gadbCellTotal(m) },
          { label: 'descriptors', value: m.descriptors.count },
          { label: 'string-block items', value: m.strings.itemKeys.length },
          { label: 'string-block bytes', value: m.strings.data.length },
        ],
        openMs: d.openMs,
        ...(d.patch ? { patch: patchInfo(c, d) } : {}),
      };
    },
  });

  router.add({
    method: 'GET',
    pattern: '/api/files/:file/analysis',
    summary: 'summary figures (links, shared values, layouts) and verify findings; a worker thread for large files',
    handler: async (req, c): Promise<GadbAnalysis> => {
      const info = c.workspace.info(req.params['file']!);
      const d = doc(c, info.id);
      const merged = d.patch && 'merged' in d.patch ? d.patch.merged : undefined;
      const large = info.size + (d.patch ? c.workspace.info(d.patch.base).size : 0) >= c.workerThreshold;
      d.analysis ??= large
        ? analyseInWorker(c.workspace.pathOf(info.id), merged ? c.workspace.pathOf(d.patch!.base) : undefined)
        : Promise.resolve().then(() => analyseInline(d.db, merged));
      d.analysis.catch(() => (d.analysis = undefined));
      const a = await d.analysis;
      const s = a.summary;
      return {
        counts: [
          { label: 'record layouts', value: s.runs },
          { label: 'zero-field records', value: s.zeroFieldRecords },
          { label: 'link cells', value: s.links.cells },
          { label: 'null links', value: s.links.null },
          { label: 'unresolved links', value: s.links.unresolved },
          { label: 'cells with shared values', value: s.blockValues.sharedCells },
          { label: 'distinct block values', value: s.blockValues.distinct },
          { label: 'pair-table entries', value: s.pairTableEntries },
        ],
        descriptorTypes: Object.entries(s.descriptorTypes)
          .map(([type, count]) => ({ type, count }))
          .sort((x, y) => y.count - x.count),
        largestCategories: s.largestCategories,
        findings: a.findings,
        ms: a.ms,
        worker: a.worker,
        ...(merged ? { findingsOf: `${c.workspace.info(d.patch!.base).name} with this patch applied` } : {}),
      };
    },
  });

  router.add({
    method: 'GET',
    pattern: '/api/files/:file/categories',
    summary: 'every category with its record and field counts',
    handler: (req, c): CategorySummary[] => {
      const d = doc(c, req.params['file']!);
      return d.db.categories.map((cat) => ({
        ordinal: cat.ordinal,
        name: cat.name,
        recordCount: cat.recordCount,
        primaryCount: cat.primaryCount,
        secondaryCount: cat.secondaryCount,
        fieldCount: cat.firstRecordWithFields()?.descriptorCount ?? 0,
      }));
    },
  });

  router.add({
    method: 'GET',
    pattern: '/api/files/:file/categories/:category',
    summary: "a category and its records' fields (the table's columns)",
    handler: (req, c): CategoryDetail => {
      const d = doc(c, req.params['file']!);
      const cat = category(d, req.params['category']!);
      const fields = columnsOf(cat);
      return { ordinal: cat.ordinal, name: cat.name, recordCount: cat.recordCount, primaryCount: cat.primaryCount, secondaryCount: cat.secondaryCount, fieldCount: fields.length, fields };
    },
  });

  router.add({
    method: 'GET',
    pattern: '/api/files/:file/categories/:category/records',
    summary: 'a page of records with one compact value per column (?offset=&limit= at most 500; ?sort=COLUMN&dir=desc&filter.COLUMN=TEXT, COLUMN: record, 0x… or a name)',
    handler: (req, c): RecordPage => {
      const d = doc(c, req.params['file']!);
      const cat = category(d, req.params['category']!);
      const columns = columnsOf(cat);
      const limit = intParam(req.query, 'limit', 100, 1, 500);
      const q = parseTableQuery(req.query, columns);
      if (!q.sort && q.filters.length === 0) {
        const offset = intParam(req.query, 'offset', 0, 0, Math.max(0, cat.recordCount));
        return { total: cat.recordCount, offset, rows: cat.records(offset, limit).map((r) => rowOf(r, columns)) };
      }
      // The order of a filtered or sorted table is computed once over the whole category, then paged.
      const key = `${cat.ordinal}\u0000${tableQueryKey(req.query)}`;
      let order = d.tableOrders.get(key);
      if (!order) {
        order = queryRecords(cat, columns, q);
        d.tableOrders.set(key, order);
        if (d.tableOrders.size > 16) d.tableOrders.delete(d.tableOrders.keys().next().value!);
      }
      const offset = intParam(req.query, 'offset', 0, 0, Math.max(0, order.length));
      const rows: RecordRow[] = [];
      for (let i = offset; i < Math.min(order.length, offset + limit); i++) rows.push(rowOf(cat.at(order[i]!)!, columns));
      return { total: order.length, offset, rows };
    },
  });

  router.add({
    method: 'GET',
    pattern: '/api/files/:file/categories/:category/records/:record',
    summary: 'one record by name (or #N for the N-th, primaries first), every field typed',
    handler: (req, c): RecordView => {
      const d = doc(c, req.params['file']!);
      const cat = category(d, req.params['category']!);
      const rec = cat.findRecord(req.params['record']!);
      if (!rec) throw new NotFoundError(`no record ${JSON.stringify(req.params['record'])} in ${cat.name}`);
      return recordView(rec, d.staging);
    },
  });

  router.add({
    method: 'GET',
    pattern: '/api/files/:file/records/:index',
    summary: 'one record by its index in the file, every field typed',
    handler: (req, c): RecordView => {
      const d = doc(c, req.params['file']!);
      return recordView(recordAt(d, req.params['index']!), d.staging);
    },
  });

  router.add({
    method: 'GET',
    pattern: '/api/files/:file/records/:index/referenced-by',
    summary: 'the records whose links name this one (?offset=&limit=, default the first 200)',
    handler: (req, c): ReferencedBy => {
      const d = doc(c, req.params['file']!);
      const rec = recordAt(d, req.params['index']!);
      const limit = intParam(req.query, 'limit', 200, 1, 5000);
      const refs = d.db.referencedBy(rec);
      const offset = intParam(req.query, 'offset', 0, 0, refs.length);
      return {
        total: refs.length,
        offset,
        refs: refs.slice(offset, offset + limit).map((r) => {
          const out: ReferencedBy['refs'][number] = { from: recordRef(r.record), field: r.field.label, fieldHex: formatHash(r.field.hash) };
          if (r.field.count > 1) out.element = r.element;
          return out;
        }),
      };
    },
  });

  router.add({
    method: 'GET',
    pattern: '/api/files/:file/search',
    summary: 'names, hashes, text values and numbers (?q=, ?limit= at most 2000); the index is built on first use (a worker thread for large files)',
    handler: async (req, c): Promise<SearchResult> => {
      const q = req.query.get('q') ?? '';
      if (q.trim() === '') throw new UsageError('give ?q=');
      const limit = intParam(req.query, 'limit', 200, 1, 2000);
      return searchOf(c, req.params['file']!).query(q, limit);
    },
  });

  router.add({
    method: 'GET',
    pattern: '/api/files/:file/search/status',
    summary: 'the search index: idle, building (records scanned of total) or ready; asking starts the build',
    handler: (req, c): SearchStatus => {
      const service = searchOf(c, req.params['file']!);
      service.ready().catch(() => undefined);
      return service.status();
    },
  });

  router.add({
    method: 'GET',
    pattern: '/api/files/:file/edits',
    summary: 'the staged edits, before and after',
    handler: (req, c): EditList => {
      const info = c.workspace.info(req.params['file']!);
      const d = doc(c, info.id);
      return {
        edits: d.staging.list(),
        saveAs: [
          { id: 'gadb', label: 'a new database file', extension: extensionOf(info.name), suggestedName: suggestName(info.name) },
          // The loader's loose patch file: the database's name with `gamedb_patch` appended.
          { id: 'patch', label: 'a patch database', extension: 'gamedb_patch', suggestedName: `${info.name}gamedb_patch` },
          { id: 'changes', label: 'a change file (YAML)', extension: '.yaml', suggestedName: `${stemOf(info.name)}.changes.yaml` },
        ],
        suggestedName: suggestName(info.name),
        notRestored: d.notRestored,
        persistent: c.state.persistent,
      };
    },
  });

  router.add({
    method: 'POST',
    pattern: '/api/files/:file/edits',
    summary: 'stage an edit: { record: index, field: "0x…", element?: n, value: TypedValue }',
    handler: (req, c): StagedEdit => {
      const d = doc(c, req.params['file']!);
      const body = req.body as { record?: unknown; field?: unknown; element?: unknown; value?: unknown } | undefined;
      if (!body || typeof body.record !== 'number' || typeof body.field !== 'string' || body.value === undefined) {
        throw new UsageError('body must be { record: number, field: "0x…", element?: number, value: TypedValue }');
      }
      const rec = recordAt(d, String(body.record));
      const element = body.element === undefined ? undefined : Number(body.element);
      return d.staging.stage(rec.index, body.field, element, editInput(body.value));
    },
  });

  router.add({
    method: 'DELETE',
    pattern: '/api/files/:file/edits/:id',
    summary: 'unstage one edit',
    handler: (req, c) => {
      const d = doc(c, req.params['file']!);
      d.staging.unstage(Number(req.params['id']));
      return { edits: d.staging.list().length };
    },
  });

  router.add({
    method: 'DELETE',
    pattern: '/api/files/:file/edits',
    summary: 'unstage every edit',
    handler: (req, c) => {
      doc(c, req.params['file']!).staging.clear();
      return { edits: 0 };
    },
  });

  router.add({
    method: 'POST',
    pattern: '/api/files/:file/save',
    summary: 'write the staged edits: { name, as?: "gadb" (a new file, default) | "patch" (patch database) | "changes" (YAML change file) } (atomic; never replaces a file)',
    handler: (req, c): SaveResult => {
      const info = c.workspace.info(req.params['file']!);
      const d = doc(c, info.id);
      const body = req.body as { name?: unknown; as?: unknown } | undefined;
      if (typeof body?.name !== 'string') throw new UsageError('body must be { name, as? }');
      const name = checkPlainFileName(body.name);
      const format = body?.as === undefined ? 'gadb' : body.as;
      if (format !== 'gadb' && format !== 'patch' && format !== 'changes') throw new UsageError(`as must be "gadb", "patch" or "changes", got ${JSON.stringify(format)}`);
      if (d.staging.list().length === 0) throw new UsageError('nothing staged: stage an edit first');
      const target = safeJoin(saveFolderOf(c, info), name);
      if (format === 'patch') return savePatch(c, d, info, name, target);
      if (format === 'changes') return saveChanges(c, d, info, name, target);
      const bytes = writeGadb(d.staging.result());
      const saved = saveNewFile(c, target, bytes, info);
      return { format, name, saved, bytes: bytes.length, findings: findingsOf(verifyGadb(readBytes(target))) };
    },
  });
}

/** Where files saved from `info` go: beside it for a file named on the command line, else the output folder. */
export function saveFolderOf(c: ApiContext, info: FileInfo): string {
  return info.origin === 'argument' && c.outDir === undefined ? dirname(c.workspace.pathOf(info.id)) : (c.outDir ?? c.sampleOutDir);
}

/**
 * Writes a file saved from `from` (a new file only), serves it, and remembers it in the work folder so a restart
 * serves it again; `patch`: it is a patch database of `from`.
 */
export function saveNewFile(c: ApiContext, target: string, bytes: Uint8Array, from: FileInfo, patch = false): FileInfo {
  writeNewFile(target, bytes);
  const saved = c.workspace.add(target, 'saved', from.id, patch ? from.id : undefined);
  const fromPath = c.workspace.pathOf(from.id);
  c.state.addFile(patch ? { path: target, origin: 'saved', from: fromPath, patchOf: fromPath } : { path: target, origin: 'saved', from: fromPath });
  return saved;
}

/**
 * Writes a new file atomically; a name already taken is refused in the user's terms (the page shows the message:
 * no folder, no command-line flag).
 */
function writeNewFile(target: string, bytes: Uint8Array): void {
  try {
    writeFileAtomic(target, bytes);
  } catch (e) {
    if (e instanceof VfsError && e.code === 'EEXIST') throw new VfsError('EEXIST', basename(target), `a file named ${basename(target)} already exists in the output folder: choose another name`);
    throw e;
  }
}

/** The overview's facts of a patch database. */
function patchInfo(c: ApiContext, d: GadbDoc): NonNullable<GadbOverview['patch']> {
  const p = d.patch!;
  const base = doc(c, p.base).db;
  const out: NonNullable<GadbOverview['patch']> = {
    base: p.base,
    buildTag: formatHash(gadbBuildTag(d.db.model)),
    baseBuildTag: formatHash(gadbBuildTag(base.model)),
    records: d.db.recordCount,
  };
  if ('problem' in p) out.problem = p.problem;
  return out;
}

/** Counts the differences `diffGadb` reports (0: the two databases hold the same values). */
function differenceCount(a: Gadb, b: Gadb): number {
  const d = diffGadb(a, b);
  return d.categoriesAdded.length + d.categoriesRemoved.length + d.categoriesChanged.length + d.recordsAdded.length + d.recordsRemoved.length + d.recordsChanged.length + d.header.length;
}

/**
 * A patch database of the staged edits (`makeGadbPatch` from the opened file and the staged result, with the
 * base's build tag). Before anything is written, the patch's bytes are read back and merged into the base
 * (`applyGadbPatch`); the result must equal the staged result, else nothing is written.
 */
function savePatch(c: ApiContext, d: GadbDoc, info: FileInfo, name: string, target: string): SaveResult {
  const base = d.db.model;
  const edited = d.staging.result();
  const made = makeGadbPatch(base, edited);
  if (made.notExpressible.length > 0) {
    throw new UsageError(`a patch database cannot hold these edits: ${made.notExpressible.join('; ')} (save as a new file or a change file instead)`);
  }
  const bytes = writeGadb(made.patch);
  const merged = applyGadbPatch(base, parseGadb(bytes)).merged;
  const left = differenceCount(edited, merged);
  if (left > 0) throw new Error(`the patch database, applied to ${info.name}, differs from the staged result in ${left} place(s); nothing was written`);
  const saved = saveNewFile(c, target, bytes, info, true);
  return {
    format: 'patch',
    name,
    saved,
    bytes: bytes.length,
    findings: findingsOf(verifyGadb(writeGadb(merged))),
    checked: `patch database of ${made.records.length} record(s) with the build tag 0x${gadbBuildTag(made.patch).toString(16).toUpperCase()} of ${info.name}; applied to it, it gives the staged result`,
  };
}

/**
 * The staged edits as a YAML change file (`docs/gamedb-editing.md`). Before it is written, the text is parsed
 * back (`parseChangeFile`) and applied to the opened file (`applyChangeFiles`, as `scry db apply` does); the
 * result must equal the staged result, else nothing is written.
 */
function saveChanges(c: ApiContext, d: GadbDoc, info: FileInfo, name: string, target: string): SaveResult {
  const ops = d.staging.changeOps();
  const items = ops.map((op) => (op.op === 'set' ? (op.index === undefined ? { set: op.path, value: op.value } : { set: op.path, index: op.index, value: op.value }) : op));
  const text = `# scry change file: ${ops.length} edit(s) of ${info.name}, staged in the workbench.\n# Apply with: scry db apply ${info.name} ${name} -o OUT\n${stringifyYaml(items)}`;
  const edited = d.staging.result();
  const applied = applyChangeFiles(d.db.model, [{ name, ops: parseChangeFile(text, name) }], { namer: d.db.names }).gadb;
  const left = differenceCount(edited, applied);
  if (left > 0) throw new Error(`the change file, applied to ${info.name}, differs from the staged result in ${left} place(s); nothing was written`);
  const bytes = utf8Encode(text, { format: 'changes', path: `/${name}` });
  // Served from now on: a source the conflict view can load over this database.
  const saved = saveNewFile(c, target, bytes, info);
  return {
    format: 'changes',
    name,
    saved,
    bytes: bytes.length,
    findings: findingsOf(verifyGadb(writeGadb(applied))),
    checked: `change file of ${ops.length} edit(s); applied to ${info.name}, it gives the staged result`,
  };
}

function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot) : '';
}

function stemOf(name: string): string {
  const ext = extensionOf(name);
  return ext ? basename(name, ext) : name;
}

function suggestName(name: string): string {
  return `${stemOf(name)}.edited${extensionOf(name)}`;
}

/** Names equal to `hash` among the opened GameDB files (categories, records) and the field-name dictionary. */
export function gadbNamesForHash(c: ApiContext, hash: number): { name: string; source: string }[] {
  const out: { name: string; source: string }[] = [];
  const seen = new Set<string>();
  const add = (name: string, source: string) => {
    const key = `${name}\u0000${source}`;
    if (!seen.has(key)) {
      seen.add(key);
      out.push({ name, source });
    }
  };
  for (const f of c.workspace.list()) {
    if (f.kind !== 'gadb' || !c.workspace.isOpen(f.id)) continue;
    const d = doc(c, f.id);
    const cat = d.db.findCategory(hash);
    if (cat && cat.sortKey === hash) add(cat.name, `category in ${f.name}`);
    // Record names: one binary search per category (FindRecord), not a scan.
    for (const k of d.db.categories) {
      const rec = k.findRecord(hash);
      if (rec) add(rec.label, `record in ${f.name} (${k.name})`);
    }
  }
  for (const n of c.names.gadb.all(hash)) add(n, 'field-name dictionary');
  return out;
}
