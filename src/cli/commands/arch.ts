/**
 * `scry arch …`: `.arch06` archives (ls, cat, extract, verify, pack, index), the family formats inside them
 * (`bndl`, `strdb`, `embb`, `scripts`), and `scry vfs …`: the engine's mount vector.
 */
import { readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { UsageError, type Issue } from '../../binary/errors.ts';
import { hexdump } from '../../binary/hexdump.ts';
import { ChunkDecoder } from '../../compress/codecs.ts';
import { APL_FILE_NAME, isArchivePathIndex, parseArchivePathIndex, validateArchivePathIndex } from '../../formats/apl/apl.ts';
import type { Arch06Archive } from '../../formats/arch06/archive.ts';
import type { Arch06FileRecord } from '../../formats/arch06/arch06.ts';
import { packArch06, type Arch06PackEntry } from '../../formats/arch06/pack.ts';
import type { Arch06Storage } from '../../formats/arch06/chunks.ts';
import { readBytes, safeJoin, writeFileAtomic } from '../../node/fs.ts';
import { openArch06File } from '../../node/vfs-file.ts';
import { ExitCode, hex32, type Command, type CommandContext } from '../command.ts';
import { resolveLut } from './hash.ts';

// ---------------------------------------------------------------------------------------------------------------
// helpers

/** One decoder for the whole command, so ooz-wasm is loaded at most once. */
function decoder(ctx: CommandContext): ChunkDecoder {
  return new ChunkDecoder({ strictLzb16: ctx.options['lax-lzb16'] !== true });
}

async function withArchive<T>(ctx: CommandContext, file: string, fn: (a: Arch06Archive) => Promise<T>, dec = decoder(ctx)): Promise<T> {
  const archive = await openArch06File(ctx.resolvePath(file), { decoder: dec, name: file });
  try {
    return await fn(archive);
  } finally {
    await archive.close();
  }
}

/** A glob over archive paths: `*` within a segment, `**` across segments, `?` one char; `/` = `\`; no case. */
export function archiveGlob(pattern: string): RegExp {
  const p = pattern.replace(/\//g, '\\');
  let re = '';
  for (let i = 0; i < p.length; i++) {
    const c = p[i]!;
    if (c === '*' && p[i + 1] === '*') {
      re += '.*';
      i++;
      if (p[i + 1] === '\\') i++;
    } else if (c === '*') re += '[^\\\\]*';
    else if (c === '?') re += '[^\\\\]';
    else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`, 'i');
}

function humanSize(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KiB', 'MiB', 'GiB'];
  let v = n / 1024;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${v.toFixed(1)} ${units[u]}`;
}

/** Progress on stderr, only when it is a terminal; at most ~10 updates a second. */
function progress(ctx: CommandContext, label: string): (done: number, total: number) => void {
  if (!ctx.io.isTTY) return () => {};
  let last = 0;
  return (done, total) => {
    const now = Date.now();
    if (done < total && now - last < 100) return;
    last = now;
    const width = 30;
    const filled = total === 0 ? width : Math.round((done / total) * width);
    ctx.io.stderr(`\r${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}${done === total ? '\n' : ''}`);
  };
}

function printIssues(ctx: CommandContext, issues: Issue[]): void {
  for (const i of issues) ctx.out(`${i.severity}\t${i.rule}\t${i.path ?? ''}\t${i.message}${i.hypothesis ? ` [hypothesis ${i.hypothesis}]` : ''}`);
}

/** How an entry is stored, for listings: `stored`, or the codecs of its chunks (`Kraken`, `LZB16`, `raw`). */
async function storageOf(archive: Arch06Archive, f: Arch06FileRecord, peek: boolean): Promise<string> {
  if (f.isCompressed === 0) return 'stored';
  if (!peek) return 'chunked';
  try {
    const kinds = [...new Set((await archive.chunks(f)).map((c) => c.kind))];
    return kinds.join('+') || 'empty';
  } catch {
    return 'unreadable';
  }
}

// ---------------------------------------------------------------------------------------------------------------
// arch commands

const lsCommand: Command = {
  path: ['arch', 'ls'],
  summary: 'list the entries of .arch06 archives (flat, or --tree), with sizes and storage',
  usage: 'ARCHIVE… [--tree] [--codecs] [--glob PATTERN]',
  minArgs: 1,
  options: {
    tree: { type: 'boolean', description: 'show the folder tree' },
    codecs: { type: 'boolean', description: 'read each entry\'s chunk headers to name its codecs (Kraken, LZB16, raw)' },
    glob: { type: 'string', valueName: 'PATTERN', description: 'only entries matching (e.g. "worlds/**/*.bndl")' },
  },
  async run(ctx) {
    const match = typeof ctx.options['glob'] === 'string' ? archiveGlob(ctx.options['glob']) : undefined;
    const peek = ctx.options['codecs'] === true;
    const results: unknown[] = [];
    for (const file of ctx.args) {
      await withArchive(ctx, file, async (a) => {
        const files = a.files.filter((f) => !match || match.test(f.path));
        const rows = [];
        for (const f of files) rows.push({ path: f.path, rawSize: f.rawSize, storedSize: f.storedSize, storage: await storageOf(a, f, peek), dataOffset: f.dataOffset });
        if (ctx.json) {
          results.push({ archive: file, header: { ...a.index.header, guid: a.index.header.guid }, folders: a.index.folders.length, entries: rows });
          return;
        }
        if (ctx.args.length > 1) ctx.out(`${file}:`);
        if (ctx.options['tree'] === true) {
          for (const d of a.index.folders) {
            const depth = d.name === '' ? 0 : d.name.split('\\').length;
            const own = a.files.slice(d.firstFile, d.firstFile + d.fileCount).filter((f) => !match || match.test(f.path));
            if (match && own.length === 0) continue;
            ctx.out(`${'  '.repeat(depth)}${d.name === '' ? '\\' : d.name.slice(d.name.lastIndexOf('\\') + 1) + '\\'}`);
            for (const f of own) {
              const row = rows.find((r) => r.path === f.path)!;
              ctx.out(`${'  '.repeat(depth + 1)}${f.name}  ${humanSize(f.rawSize)}  (${row.storage}, ${humanSize(f.storedSize)} stored)`);
            }
          }
        } else {
          for (const r of rows) ctx.out(`${String(r.rawSize).padStart(12)} ${String(r.storedSize).padStart(12)} ${r.storage.padEnd(8)} ${r.path}`);
        }
        const raw = files.reduce((s, f) => s + f.rawSize, 0);
        const stored = files.reduce((s, f) => s + f.storedSize, 0);
        ctx.out(`${files.length} entr${files.length === 1 ? 'y' : 'ies'}, ${humanSize(raw)} raw, ${humanSize(stored)} stored`);
      });
    }
    if (ctx.json) ctx.printJson(ctx.args.length === 1 ? results[0] : results);
    return ExitCode.Ok;
  },
};

const catCommand: Command = {
  path: ['arch', 'cat'],
  summary: 'print one entry (text as is, binary as a hex dump) or write it with -o',
  usage: 'ARCHIVE ENTRY [-o FILE]',
  minArgs: 2,
  maxArgs: 2,
  options: {
    output: { type: 'string', short: 'o', valueName: 'FILE', description: 'write the entry\'s bytes to FILE' },
    force: { type: 'boolean', description: 'replace an existing output file (a .bak is kept)' },
    'lax-lzb16': { type: 'boolean', description: 'decode LZB16 branches that rest on open hypotheses' },
  },
  async run(ctx) {
    const [file, entry] = ctx.args as [string, string];
    const bytes = await withArchive(ctx, file, (a) => a.read(entry));
    const out = ctx.options['output'];
    if (typeof out === 'string') {
      writeFileAtomic(ctx.resolvePath(out), bytes, { overwrite: ctx.options['force'] === true });
      if (ctx.json) ctx.printJson({ entry, bytes: bytes.length, output: out });
      return ExitCode.Ok;
    }
    if (ctx.json) {
      ctx.printJson({ entry, bytes: bytes.length, base64: Buffer.from(bytes).toString('base64') });
      return ExitCode.Ok;
    }
    const text = isMostlyText(bytes);
    ctx.io.stdout(text ? new TextDecoder('utf-8').decode(bytes) : hexdump(bytes) + '\n');
    return ExitCode.Ok;
  },
};

function isMostlyText(bytes: Uint8Array): boolean {
  const n = Math.min(bytes.length, 4096);
  for (let i = 0; i < n; i++) {
    const b = bytes[i]!;
    if (b === 0 || (b < 9 && b !== 0) || (b > 13 && b < 32 && b !== 27)) return false;
  }
  return true;
}

const extractCommand: Command = {
  path: ['arch', 'extract'],
  summary: 'extract all entries, or those matching globs, under a folder (never outside it)',
  usage: 'ARCHIVE [GLOB…] -o DIR',
  minArgs: 1,
  options: {
    output: { type: 'string', short: 'o', valueName: 'DIR', description: 'target folder (required)' },
    force: { type: 'boolean', description: 'replace existing files (a .bak is kept)' },
    'lax-lzb16': { type: 'boolean', description: 'decode LZB16 branches that rest on open hypotheses' },
  },
  async run(ctx) {
    const out = ctx.options['output'];
    if (typeof out !== 'string') throw new UsageError('extract needs -o DIR');
    const root = ctx.resolvePath(out);
    const [file, ...globs] = ctx.args as [string, ...string[]];
    const matchers = globs.map(archiveGlob);
    return withArchive(ctx, file, async (a) => {
      const chosen = a.files.filter((f) => matchers.length === 0 || matchers.some((m) => m.test(f.path)));
      // refuse unsafe names before writing anything
      const targets = chosen.map((f) => ({ f, target: safeJoin(root, f.path) }));
      const tick = progress(ctx, 'extract');
      let bytes = 0;
      for (const [i, { f, target }] of targets.entries()) {
        const data = await a.read(f);
        writeFileAtomic(target, data, { overwrite: ctx.options['force'] === true });
        bytes += data.length;
        tick(i + 1, targets.length);
      }
      if (ctx.json) ctx.printJson({ archive: file, output: out, entries: targets.map((t) => t.f.path), bytes });
      else ctx.out(`extracted ${targets.length} entr${targets.length === 1 ? 'y' : 'ies'} (${humanSize(bytes)}) to ${out}`);
      return ExitCode.Ok;
    });
  },
};

const verifyCommand: Command = {
  path: ['arch', 'verify'],
  summary: 'check every table invariant and decode every chunk to its declared size (exit 1 on errors)',
  usage: 'ARCHIVE…',
  minArgs: 1,
  options: {
    'lax-lzb16': { type: 'boolean', description: 'decode LZB16 branches that rest on open hypotheses' },
    all: { type: 'boolean', description: 'also print info-level findings (e.g. hypotheses a mod archive departs from)' },
  },
  async run(ctx) {
    const dec = decoder(ctx);
    const reports: unknown[] = [];
    let failed = false;
    for (const file of ctx.args) {
      await withArchive(
        ctx,
        file,
        async (a) => {
          const { issues, entries } = await a.verify(progress(ctx, `verify ${file}`));
          const errors = issues.filter((i) => i.severity === 'error').length;
          if (errors > 0) failed = true;
          const shown = ctx.options['all'] === true ? issues : issues.filter((i) => i.severity !== 'info');
          if (ctx.json) reports.push({ archive: file, ok: errors === 0, entries: entries.length, chunks: entries.reduce((s, e) => s + e.chunks, 0), issues });
          else {
            printIssues(ctx, shown);
            const chunks = entries.reduce((s, e) => s + e.chunks, 0);
            ctx.out(`${file}: ${errors === 0 ? 'ok' : `${errors} error(s)`}: ${entries.length} entries, ${chunks} chunks decoded, ${issues.length - errors} other finding(s)`);
          }
        },
        dec,
      );
    }
    if (ctx.json) ctx.printJson(ctx.args.length === 1 ? reports[0] : reports);
    return failed ? ExitCode.Findings : ExitCode.Ok;
  },
};

/** Every regular file under `dir`, as archive paths (`\`), sorted for determinism. */
function walkFolder(dir: string): Array<{ path: string; full: string }> {
  const out: Array<{ path: string; full: string }> = [];
  const visit = (d: string): void => {
    for (const name of readdirSync(d).sort()) {
      const full = join(d, name);
      const st = statSync(full);
      if (st.isDirectory()) visit(full);
      else if (st.isFile()) out.push({ path: relative(dir, full).split(sep).join('\\'), full });
    }
  };
  visit(dir);
  return out;
}

const STORAGES: readonly Arch06Storage[] = ['stored', 'raw-chunks', 'lzb16'];

const packCommand: Command = {
  path: ['arch', 'pack'],
  summary: 'build an .arch06 from a folder (stored entries + a path index, like the community mods)',
  usage: 'DIR -o ARCHIVE',
  minArgs: 1,
  maxArgs: 1,
  options: {
    output: { type: 'string', short: 'o', valueName: 'FILE', description: 'the archive to write (required)' },
    storage: { type: 'string', valueName: 'MODE', description: 'stored (default) | raw-chunks | lzb16' },
    'no-index': { type: 'boolean', description: 'do not add an archivepatchloosefiles.txt' },
    'keep-case': { type: 'boolean', description: 'keep the case of file names (default: lower case, as retail)' },
    retail: { type: 'boolean', description: 'set the header word isRetail to 1' },
    force: { type: 'boolean', description: 'replace an existing archive (a .bak is kept)' },
  },
  details: 'Entries are sorted as retail archives are (folders depth-first, names ascending); the output depends only on the folder\'s paths and bytes. An archivepatchloosefiles.txt already in the folder is packed as is; otherwise one listing every entry is generated (P919 hashes; --lut for a calibrated table).',
  async run(ctx) {
    const out = ctx.options['output'];
    if (typeof out !== 'string') throw new UsageError('pack needs -o ARCHIVE');
    const storage = (ctx.options['storage'] ?? 'stored') as Arch06Storage;
    if (!STORAGES.includes(storage)) throw new UsageError(`--storage must be one of ${STORAGES.join(', ')}`);
    const dir = ctx.resolvePath(ctx.args[0]!);
    const entries: Arch06PackEntry[] = walkFolder(dir).map((f) => ({ path: f.path, data: readBytes(f.full) }));
    const result = packArch06(entries, {
      storage,
      pathIndex: ctx.options['no-index'] !== true,
      lowercase: ctx.options['keep-case'] !== true,
      isRetail: ctx.options['retail'] === true ? 1 : 0,
      p919Table: resolveLut(ctx),
    });
    writeFileAtomic(ctx.resolvePath(out), result.bytes, { overwrite: ctx.options['force'] === true });
    const summary = { output: out, entries: result.index.files.length, folders: result.index.folders.length, bytes: result.bytes.length, storage, generatedPathIndex: result.generatedPathIndex };
    if (ctx.json) ctx.printJson(summary);
    else ctx.out(`packed ${summary.entries} entries in ${summary.folders} folders (${storage}) into ${out}: ${humanSize(summary.bytes)}${result.generatedPathIndex ? `, with a generated ${APL_FILE_NAME}` : ''}`);
    return ExitCode.Ok;
  },
};

const indexCommand: Command = {
  path: ['arch', 'index'],
  summary: 'print the path index (archivepatchloosefiles.txt) of an archive or of a loose index file',
  usage: 'FILE… [--check]',
  minArgs: 1,
  options: { check: { type: 'boolean', description: 'check sort order and every hash against P919 (exit 1 on errors)' } },
  async run(ctx) {
    let failed = false;
    const all: unknown[] = [];
    for (const file of ctx.args) {
      const raw = readBytes(ctx.resolvePath(file));
      const bytes = isArchivePathIndex(raw) ? raw : await withArchive(ctx, file, (a) => a.read(APL_FILE_NAME));
      const index = parseArchivePathIndex(bytes);
      const issues = ctx.options['check'] === true ? validateArchivePathIndex(index, resolveLut(ctx)) : [];
      if (issues.some((i) => i.severity === 'error')) failed = true;
      if (ctx.json) all.push({ file, version: index.version, entries: index.entries.map((e) => ({ hash: e.hash, hex: hex32(e.hash), path: e.path })), issues });
      else {
        for (const e of index.entries) ctx.out(`${hex32(e.hash)}\t${e.path}`);
        printIssues(ctx, issues);
        if (ctx.options['check'] === true) ctx.out(`${file}: ${index.entries.length} entries, ${issues.filter((i) => i.severity === 'error').length} error(s)`);
      }
    }
    if (ctx.json) ctx.printJson(ctx.args.length === 1 ? all[0] : all);
    return failed ? ExitCode.Findings : ExitCode.Ok;
  },
};

export const archCommands: Command[] = [lsCommand, catCommand, extractCommand, verifyCommand, packCommand, indexCommand];
