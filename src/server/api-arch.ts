/**
 * Archive routes (`.arch06`): overview, the folder tree (paged), one entry (storage, codecs, a preview of its
 * decoded bytes), a download of one decoded entry, and verify. Each handler maps its arguments to
 * `Arch06Archive` of `src/formats/arch06`; the archive is opened lazily (index only) and entries are read on demand.
 */
import { existsSync } from 'node:fs';
import { UsageError } from '../binary/errors.ts';
import { hexdump } from '../binary/hexdump.ts';
import { readBytes, safeJoin, writeFileAtomic } from '../node/fs.ts';
import { ChunkDecoder } from '../compress/codecs.ts';
import type { Arch06Archive } from '../formats/arch06/archive.ts';
import type { Arch06FileRecord } from '../formats/arch06/arch06.ts';
import { openArch06File } from '../node/vfs-file.ts';
import type { ApiContext } from './api.ts';
import type { ArchEntryDetail, ArchOpenResult, ArchOverview, ArchSearchAnswer, ArchTreePage, ArchTreeRow, ArchVerify } from './api-types.ts';
import { findingsOf } from './gadb-view.ts';
import { Download, intParam, type Router } from './router.ts';
import { detectKind } from './workspace.ts';
import { FORMAT_HEAD_SIZE } from '../formats/registry.ts';
import { bytesToHex, hex32, latin1Decode, utf8Decode } from '../binary/text.ts';

/** Bytes of text shown in an entry's preview; a hex dump shows fewer (it is four times wider). */
const TEXT_PREVIEW = 1 << 16;
const HEX_PREVIEW = 1 << 12;

/** The tree rows of each opened archive (folders depth-first as the index stores them, each with its files). */
const treeCache = new WeakMap<Arch06Archive, ArchTreeRow[]>();

function archive(c: ApiContext, file: string): Promise<Arch06Archive> {
  return c.workspace.open<Promise<Arch06Archive>>(file, 'arch06');
}

const depthOf = (folderName: string): number => (folderName === '' ? 0 : folderName.split('\\').length);
const storageOf = (f: Arch06FileRecord): 'stored' | 'chunked' => (f.isCompressed === 0 ? 'stored' : 'chunked');

function treeRows(a: Arch06Archive): ArchTreeRow[] {
  let rows = treeCache.get(a);
  if (rows) return rows;
  rows = [];
  for (const [i, d] of a.index.folders.entries()) {
    const own = a.files.slice(d.firstFile, d.firstFile + d.fileCount);
    const depth = depthOf(d.name);
    rows.push({
      kind: 'folder',
      folder: i,
      name: d.name === '' ? '\\' : d.name.slice(d.name.lastIndexOf('\\') + 1),
      path: d.name,
      depth,
      files: own.length,
      rawSize: own.reduce((s, f) => s + f.rawSize, 0),
      storedSize: own.reduce((s, f) => s + f.storedSize, 0),
    });
    for (const [k, f] of own.entries()) rows.push({ kind: 'file', index: d.firstFile + k, name: f.name, path: f.path, depth: depth + 1, rawSize: f.rawSize, storedSize: f.storedSize, storage: storageOf(f) });
  }
  treeCache.set(a, rows);
  return rows;
}

/** An entry by archive path (`/` or `\`, any case) or `#N` for the N-th file record. */
function entryOf(a: Arch06Archive, ref: string): Arch06FileRecord {
  const m = /^#(\d+)$/.exec(ref);
  if (m) {
    const f = a.files[Number(m[1])];
    if (f) return f;
  }
  return a.get(ref);
}

/** Text when the first bytes hold no control characters but tab, newlines and ESC (as `scry arch cat` decides). */
function isMostlyText(bytes: Uint8Array): boolean {
  const n = Math.min(bytes.length, 4096);
  for (let i = 0; i < n; i++) {
    const b = bytes[i]!;
    if (b < 9 || (b > 13 && b < 32 && b !== 27)) return false;
  }
  return true;
}

/** Registers the archive routes. Opening needs no `ooz-wasm` unless a Kraken entry is read. */
export function registerArchApi(router: Router<ApiContext>, context: ApiContext): void {
  const decoder = new ChunkDecoder({ strictLzb16: true });
  context.workspace.registerPathOpener('arch06', (path, info) => openArch06File(path, { decoder, name: info.name }));

  router.add({
    method: 'GET',
    pattern: '/api/files/:file/arch',
    summary: 'archive overview: header, counts, storage summary',
    handler: async (req, c): Promise<ArchOverview> => {
      const info = c.workspace.info(req.params['file']!);
      const a = await archive(c, info.id);
      const h = a.index.header;
      const byStorage = new Map<string, { storage: string; entries: number; rawSize: number; storedSize: number }>();
      for (const f of a.files) {
        const s = storageOf(f);
        const row = byStorage.get(s) ?? { storage: s, entries: 0, rawSize: 0, storedSize: 0 };
        row.entries++;
        row.rawSize += f.rawSize;
        row.storedSize += f.storedSize;
        byStorage.set(s, row);
      }
      return {
        file: info,
        kind: 'arch06',
        header: [
          { name: 'magic', value: h.magic },
          { name: 'version', value: String(h.version) },
          { name: 'string table size', value: String(h.stringTableSize) },
          { name: 'isRetail', value: String(h.isRetail), note: '1 in retail patches, 0 in a community mod (semantics unverified)' },
          { name: 'isDownloadable', value: String(h.isDownloadable), note: '0 in every sample' },
          { name: 'hasCRC', value: String(h.hasCRC), note: '0 in every sample; no CRC trailer was ever seen' },
          { name: 'guid', value: bytesToHex(h.guid), note: 'zero in every sample' },
          { name: 'tables end', value: hex32(a.index.tablesEnd) },
          { name: 'gap', value: `${a.index.gapLength} bytes`, note: 'retail: 6 × fileCount zeros' },
        ],
        counts: [
          { label: 'entries', value: a.files.length },
          { label: 'folders', value: a.index.folders.length },
          { label: 'raw bytes', value: a.files.reduce((s, f) => s + f.rawSize, 0) },
          { label: 'stored bytes', value: a.files.reduce((s, f) => s + f.storedSize, 0) },
        ],
        storage: [...byStorage.values()],
        treeRows: treeRows(a).length,
      };
    },
  });

  router.add({
    method: 'GET',
    pattern: '/api/files/:file/arch/tree',
    summary: 'a page of the folder tree: folders with their own files (?offset=&limit= at most 2000)',
    handler: async (req, c): Promise<ArchTreePage> => {
      const rows = treeRows(await archive(c, req.params['file']!));
      const offset = intParam(req.query, 'offset', 0, 0, rows.length);
      const limit = intParam(req.query, 'limit', 500, 1, 2000);
      return { total: rows.length, offset, rows: rows.slice(offset, offset + limit) };
    },
  });

  router.add({
    method: 'GET',
    pattern: '/api/files/:file/arch/entries/:entry',
    summary: 'one entry (path or #N): sizes, storage, codecs and a preview of its decoded bytes',
    handler: async (req, c): Promise<ArchEntryDetail> => {
      const a = await archive(c, req.params['file']!);
      const f = entryOf(a, req.params['entry']!);
      const chunks = await a.chunks(f);
      const bytes = await a.read(f);
      const text = isMostlyText(bytes);
      const limit = text ? TEXT_PREVIEW : HEX_PREVIEW;
      const head = bytes.subarray(0, limit);
      const index = a.files.indexOf(f);
      const detail: ArchEntryDetail = {
        index,
        treeRow: treeRows(a).findIndex((r) => r.kind === 'file' && r.index === index),
        path: f.path,
        name: f.name,
        rawSize: f.rawSize,
        storedSize: f.storedSize,
        storage: storageOf(f),
        compressionLevel: f.compressionLevel,
        codecs: [...new Set(chunks.map((k) => k.kind))],
        chunks: chunks.length,
        content: text ? 'text' : 'binary',
        preview: text ? utf8Decode(head) : hexdump(head),
        previewTruncated: bytes.length > limit,
      };
      const magic = latin1Decode(bytes.subarray(0, 4));
      if (bytes.length >= 4 && /^[\x20-\x7e]{4}$/.test(magic)) detail.magic = magic;
      const kind = detectKind(bytes.subarray(0, FORMAT_HEAD_SIZE), f.name);
      if (kind === 'gadb' || kind === 'hks') detail.opensAs = kind;
      return detail;
    },
  });

  router.add({
    method: 'GET',
    pattern: '/api/files/:file/arch/entries/:entry/content',
    summary: 'download one entry\'s decoded bytes (Content-Disposition: attachment)',
    handler: async (req, c): Promise<Download> => {
      const a = await archive(c, req.params['file']!);
      const f = entryOf(a, req.params['entry']!);
      return new Download(f.name, await a.read(f));
    },
  });

  router.add({
    method: 'POST',
    pattern: '/api/files/:file/arch/entries/:entry/open',
    summary: 'extract a GameDB or script entry to the output folder (--out, else the cache) and serve it',
    handler: async (req, c): Promise<ArchOpenResult> => {
      const info = c.workspace.info(req.params['file']!);
      const a = await archive(c, info.id);
      const f = entryOf(a, req.params['entry']!);
      const bytes = await a.read(f);
      const kind = detectKind(bytes.subarray(0, FORMAT_HEAD_SIZE), f.name);
      if (kind !== 'gadb' && kind !== 'hks') throw new UsageError(`${f.path} is not a GameDB or a script: download it instead`);
      // Never beside the archive (often a game folder) and never over another file: the entry's own name, or
      // name~2, name~3… unless that file already holds exactly these bytes.
      const folder = c.outDir ?? c.sampleOutDir;
      const dot = f.name.lastIndexOf('.');
      const [stem, ext] = dot > 0 ? [f.name.slice(0, dot), f.name.slice(dot)] : [f.name, ''];
      for (let n = 1; n <= 50; n++) {
        const target = safeJoin(folder, n === 1 ? f.name : `${stem}~${n}${ext}`);
        const served = c.workspace.findByPath(target);
        if (existsSync(target)) {
          const same = Buffer.compare(readBytes(target), bytes) === 0;
          if (!same) continue;
          return { opened: served ?? c.workspace.add(target, 'extracted', info.id), extracted: false };
        }
        writeFileAtomic(target, bytes);
        c.state.addFile({ path: target, origin: 'extracted', from: c.workspace.pathOf(info.id) });
        return { opened: c.workspace.add(target, 'extracted', info.id), extracted: true };
      }
      throw new UsageError(`50 different files named like ${f.name} in the output folder already`);
    },
  });

  router.add({
    method: 'GET',
    pattern: '/api/files/:file/arch/search',
    summary: 'entries whose path contains every word of ?q= (any case, / or \\), at most ?limit= (default 500)',
    handler: async (req, c): Promise<ArchSearchAnswer> => {
      const q = (req.query.get('q') ?? '').trim();
      if (q === '') throw new UsageError('give ?q=');
      const limit = intParam(req.query, 'limit', 500, 1, 5000);
      const a = await archive(c, req.params['file']!);
      const words = q.toLowerCase().replace(/\//g, '\\').split(/\s+/);
      const hits: ArchSearchAnswer['hits'] = [];
      let total = 0;
      for (const [index, f] of a.files.entries()) {
        const path = f.path.toLowerCase();
        if (!words.every((w) => path.includes(w))) continue;
        total++;
        if (hits.length < limit) hits.push({ index, path: f.path, rawSize: f.rawSize, storedSize: f.storedSize });
      }
      return { query: q, hits, total };
    },
  });

  router.add({
    method: 'GET',
    pattern: '/api/files/:file/arch/verify',
    summary: 'table checks and every entry decoded to its declared size; codecs found',
    handler: async (req, c): Promise<ArchVerify> => {
      const a = await archive(c, req.params['file']!);
      const started = performance.now();
      const { issues, entries } = await a.verify();
      const codecs = new Map<string, number>();
      for (const e of entries) for (const k of e.kinds) codecs.set(k, (codecs.get(k) ?? 0) + 1);
      return {
        ok: !issues.some((i) => i.severity === 'error'),
        entries: entries.length,
        chunks: entries.reduce((s, e) => s + e.chunks, 0),
        codecs: [...codecs].map(([codec, n]) => ({ codec, entries: n })),
        findings: findingsOf(issues),
        ms: Math.round(performance.now() - started),
      };
    },
  });
}
