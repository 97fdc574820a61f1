/**
 * Name routes: how many of a file's hashes are named (GameDB field hashes, sd2 table and column ids), adding
 * names from the page, and the name finder (`crackGadbFieldNames`, `crackSd2Names`) proposing names to add.
 */
import { UsageError } from '../binary/errors.ts';
import { fieldNameCoverage } from '../gamedb/crack.ts';
import { formatHash } from '../gamedb/names.ts';
import { crackSd2Names, harvestSd2Words, unnamedSd2Ids } from '../staticdb/crack.ts';
import { sd2NameCoverage } from '../staticdb/query.ts';
import type { StaticDb } from '../staticdb/database.ts';
import type { ApiContext } from './api.ts';
import type { GadbDoc } from './api-gadb.ts';
import type { AddNamesAnswer, CrackAnswer, GadbNamesInfo, Sd2NamesInfo } from './api-types.ts';
import { crackInline, dictionaryText, type CrackRequest, type CrackRun } from './names.ts';
import { intParam, type Router } from './router.ts';
import { runWorker } from './workers.ts';
import { basename } from 'node:path';
import { readHead } from '../node/fs.ts';
import { utf8Decode } from '../binary/text.ts';

const MAX_LISTED = 500;

function gadbNames(c: ApiContext, file: string): GadbNamesInfo {
  const db = c.workspace.open<GadbDoc>(file, 'gadb').db;
  const cov = fieldNameCoverage(db);
  const byHash = new Map<number, { rows: number; categories: number; type: string }>();
  const d = db.model.descriptors;
  for (let row = 0; row < d.count; row++) {
    const h = d.declaredHash[row]!;
    if (db.names.has(h)) continue;
    const e = byHash.get(h);
    if (e) e.rows++;
    else byHash.set(h, { rows: 1, categories: 0, type: '' });
  }
  for (const cat of db.categories) {
    for (const f of cat.firstRecordWithFields()?.fields() ?? []) {
      const e = byHash.get(f.hash);
      if (!e) continue;
      e.categories++;
      if (e.type === '') e.type = f.typeName;
    }
  }
  return {
    kind: 'gadb',
    fields: cov.fields,
    named: cov.named,
    dictionary: db.names.size,
    unnamed: [...byHash]
      .sort((a, b) => b[1].rows - a[1].rows || a[0] - b[0])
      .slice(0, MAX_LISTED)
      .map(([h, e]) => ({ hex: formatHash(h), ...e })),
    lists: c.names.reports.map((r) => {
      const list: GadbNamesInfo['lists'][number] = { name: basename(r.file), added: r.report.added, skipped: r.report.mismatches.length + r.report.unhashable.length };
      const about = listAbout(r.file);
      if (about !== undefined) list.about = about;
      return list;
    }),
    persistent: c.names.configDir !== undefined,
  };
}

/**
 * What a list says about itself: its first line when that is a `#` comment (the generated sample's list says it
 * stands in for a community list). Read from the list's first bytes; a list that is gone says nothing.
 */
function listAbout(path: string): string | undefined {
  let head: string;
  try {
    head = utf8Decode(readHead(path, 512));
  } catch {
    return undefined;
  }
  const m = /^#\s*([^\r\n]+)/.exec(head);
  return m ? m[1]!.trim() : undefined;
}

function sd2Names(c: ApiContext, file: string): Sd2NamesInfo {
  const db = c.workspace.open<StaticDb>(file, 'sd2');
  const cov = sd2NameCoverage(db);
  return {
    kind: 'sd2',
    tables: { total: cov.tables.total, named: cov.tables.named },
    columns: { total: cov.columns.total, named: cov.columns.named },
    dictionary: db.names.size,
    unnamedTables: cov.tables.unnamed.slice(0, MAX_LISTED).map(formatHash),
    unnamedColumns: cov.columns.unnamedIds.slice(0, MAX_LISTED).map(formatHash),
    collisions: cov.collisions.map((x) => ({ id: formatHash(x.id), names: x.names, kind: x.kind })),
    persistent: c.names.configDir !== undefined,
  };
}

function namesInfo(c: ApiContext, file: string): GadbNamesInfo | Sd2NamesInfo {
  const kind = c.workspace.info(file).kind;
  if (kind === 'gadb') return gadbNames(c, file);
  if (kind === 'sd2') return sd2Names(c, file);
  throw new UsageError(`${file} is a ${kind} file: only GameDB and sd2 files have hashed names`);
}

/** Registers the name routes. */
export function registerNamesApi(router: Router<ApiContext>, _context: ApiContext): void {
  router.add({
    method: 'GET',
    pattern: '/api/files/:file/names',
    summary: 'name coverage: hashes of the file with a name, the unnamed ones, the lists loaded',
    handler: (req, c) => namesInfo(c, req.params['file']!),
  });

  router.add({
    method: 'POST',
    pattern: '/api/names',
    summary: 'add names: { text: one name or 0xHASH<TAB>name per line, file?: id for the coverage after }',
    handler: (req, c): AddNamesAnswer => {
      const body = req.body as { text?: unknown; file?: unknown } | undefined;
      if (typeof body?.text !== 'string' || body.text.trim() === '') throw new UsageError('body must be { text: "names, one per line" }');
      if (body.text.length > 1 << 20) throw new UsageError('at most 1 MiB of names at once');
      const r = c.names.add(body.text);
      // sd2 views cache their column labels: drop them in every opened static database; search workers learn the names.
      for (const f of c.workspace.list()) {
        if (!c.workspace.isOpen(f.id)) continue;
        if (f.kind === 'sd2') c.workspace.open<StaticDb>(f.id, 'sd2').namesChanged();
        if (f.kind === 'gadb') c.workspace.open<GadbDoc>(f.id, 'gadb').search?.namesAdded(body.text);
      }
      const out: AddNamesAnswer = {
        added: r.gadb.added,
        mismatches: r.gadb.mismatches.map((m) => ({ line: m.line, name: m.name, listed: formatHash(m.listed), hash: formatHash(m.hash) })),
        unhashable: r.gadb.unhashable,
        saved: r.saved,
      };
      if (typeof body.file === 'string') out.coverage = namesInfo(c, body.file);
      return out;
    },
  });

  router.add({
    method: 'GET',
    pattern: '/api/files/:file/names/crack',
    summary: 'find names for unnamed hashes (?words=N, 1 to 3; a worker thread for large GameDB files); nothing is added',
    handler: async (req, c): Promise<CrackAnswer> => {
      const info = c.workspace.info(req.params['file']!);
      const maxWords = intParam(req.query, 'words', 2, 1, 3);
      const t0 = performance.now();
      if (info.kind === 'gadb') {
        const doc = c.workspace.open<GadbDoc>(info.id, 'gadb');
        const worker = info.size >= c.workerThreshold;
        const run = worker
          ? await runWorker<CrackRun>(new URL('./crack-worker.ts', import.meta.url), { path: c.workspace.pathOf(info.id), names: dictionaryText(doc.db.names), maxWords } satisfies CrackRequest)
          : crackInline(doc.db, maxWords);
        return { ...run, ms: performance.now() - t0, worker };
      }
      if (info.kind !== 'sd2') throw new UsageError(`${info.id} is a ${info.kind} file: only GameDB and sd2 files have hashed names`);
      const db = c.workspace.open<StaticDb>(info.id, 'sd2');
      const { tables, columns } = unnamedSd2Ids(db, db.names);
      const words = [...[...db.names.entries()].flatMap((e) => e.names), ...harvestSd2Words(db)];
      const r = crackSd2Names({ targets: [...tables, ...columns], words, maxTokens: maxWords, budget: 20_000_000 });
      const byId = new Map<number, string[]>();
      for (const h of r.hits) byId.set(h.id, [...(byId.get(h.id) ?? []), h.name]);
      const how = new Map(r.hits.map((h) => [h.name, h.method]));
      return {
        hits: [...byId].filter(([, n]) => n.length === 1).map(([id, n]) => ({ hex: formatHash(id), name: n[0]!, how: how.get(n[0]!) ?? '' })),
        collisions: [...byId].filter(([, n]) => n.length > 1).map(([id, n]) => ({ hex: formatHash(id), names: n.sort() })),
        tried: r.tried,
        complete: r.complete,
        vocabulary: r.vocabulary,
        expectedFalseHits: r.expectedFalseHits,
        ms: performance.now() - t0,
        worker: false,
      };
    },
  });
}
