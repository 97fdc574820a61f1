/**
 * `scry arch …`: `.arch06` archives (ls, cat, extract, verify, pack, index), the family formats inside them
 * (`bndl`, `strdb`, `embb`, `scripts`), and `scry vfs …`: the engine's mount vector.
 */
import { readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { FormatError, UsageError, type Issue } from '../../binary/errors.ts';
import { hexdump } from '../../binary/hexdump.ts';
import { ChunkDecoder } from '../../compress/codecs.ts';
import { APL_FILE_NAME, parseArchivePathIndex, validateArchivePathIndex } from '../../formats/apl/apl.ts';
import type { Arch06Archive } from '../../formats/arch06/archive.ts';
import type { Arch06FileRecord } from '../../formats/arch06/arch06.ts';
import { packArch06, type Arch06PackEntry } from '../../formats/arch06/pack.ts';
import type { Arch06Storage } from '../../formats/arch06/chunks.ts';
import { readBytes, readHead, safeJoin, writeFileAtomic } from '../../node/fs.ts';
import { DirectorySource, mountPath } from '../../node/dir-source.ts';
import { bndlNamesSize, bndlTotalSize, parseBndl, validateBndl } from '../../formats/bndl/bndl.ts';
import { checkEmbbAgainstBndl, EMBB_HYPOTHESES, parseEmbbHypothesis } from '../../formats/embb/embb.ts';
import { parseStrdb, strdbGet, strdbTextAt } from '../../formats/strdb/strdb.ts';
import { describeScripts } from '../../formats/scripts/scripts.ts';
import { p919 } from '../../hash/p919.ts';
import { MountVector, type Resolution } from '../../resources/vfs/mount-vector.ts';
import { openArch06File } from '../../node/vfs-file.ts';
import { hex32, utf8Decode } from '../../binary/text.ts';
import { ExitCode, type Command, type CommandContext } from '../command.ts';
import { resolveLut } from './hash.ts';
import { checkInputFile, checkInputFormat, checkLazyInput, readInputFile } from '../input.ts';
import { FORMAT_HEAD_SIZE, formatOfBytes, type FormatId } from '../../formats/registry.ts';

// ---------------------------------------------------------------------------------------------------------------
// helpers

/** One decoder for the whole command, so ooz-wasm is loaded at most once. */
function decoder(ctx: CommandContext): ChunkDecoder {
  return new ChunkDecoder({ strictLzb16: ctx.options['lax-lzb16'] !== true });
}

async function withArchive<T>(ctx: CommandContext, file: string, fn: (a: Arch06Archive) => Promise<T>, dec = decoder(ctx)): Promise<T> {
  checkLazyInput(ctx.resolvePath(file), 'arch06', file);
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
    ctx.io.stdout(text ? utf8Decode(bytes) : hexdump(bytes) + '\n');
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
          const chunks = entries.reduce((s, e) => s + e.chunks, 0);
          const decoded = entries.reduce((s, e) => s + e.decodedChunks, 0);
          if (ctx.json) reports.push({ archive: file, ok: errors === 0, entries: entries.length, chunks, decodedChunks: decoded, issues });
          else {
            printIssues(ctx, shown);
            ctx.out(`${file}: ${errors === 0 ? 'ok' : `${errors} error(s)`}: ${entries.length} entries, ${decoded === chunks ? `${chunks} chunks decoded` : `${decoded} of ${chunks} chunks decoded`}, ${issues.length - errors} other finding(s)`);
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
      // an archive holds its index as an entry; anything else is read as a loose index file
      checkInputFile(ctx.resolvePath(file), file);
      const isArchive = formatOfBytes(readHead(ctx.resolvePath(file), FORMAT_HEAD_SIZE))?.id === 'arch06';
      const bytes = isArchive ? await withArchive(ctx, file, (a) => a.read(APL_FILE_NAME)) : readInputFile(ctx.resolvePath(file), 'apl', file);
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

// ---------------------------------------------------------------------------------------------------------------
// the family formats (a file on disk, or an entry of an archive with --from)

const fromOption = { from: { type: 'string', valueName: 'ARCHIVE', description: 'read FILE as an entry of this .arch06' } } as const;

async function loadInput(ctx: CommandContext, file: string, expected: FormatId): Promise<Uint8Array> {
  const from = ctx.options['from'];
  const bytes = typeof from === 'string' ? await withArchive(ctx, from, (a) => a.read(file)) : readInputFile(ctx.resolvePath(file), expected, file);
  checkInputFormat(bytes.subarray(0, FORMAT_HEAD_SIZE), expected, file);
  return bytes;
}

const bndlCommand: Command = {
  path: ['arch', 'bndl'],
  summary: 'show a .bndl bundle manifest: resources (P919 hash, size, path) and its checks',
  usage: 'FILE [--from ARCHIVE] [--embb-size N]',
  minArgs: 1,
  maxArgs: 1,
  options: { ...fromOption, 'embb-size': { type: 'string', valueName: 'N', description: 'check the companion .embb raw size against the size rule' } },
  async run(ctx) {
    const bndl = parseBndl(await loadInput(ctx, ctx.args[0]!, 'bndl'));
    const table = resolveLut(ctx);
    const issues = validateBndl(bndl, table);
    const embbSize = ctx.options['embb-size'];
    if (typeof embbSize === 'string') {
      const n = Number(embbSize);
      if (!Number.isInteger(n) || n < 0) throw new UsageError('--embb-size must be a byte count');
      issues.push(...checkEmbbAgainstBndl(n, bndl));
    }
    const rows = bndl.entries.map((e) => ({ hash: p919(e.path, { table }), size: e.size, path: e.path }));
    if (ctx.json) ctx.printJson({ version: bndl.version, namesSize: bndlNamesSize(bndl), totalSize: bndlTotalSize(bndl), entries: rows.map((r) => ({ ...r, hex: hex32(r.hash) })), issues });
    else {
      for (const r of rows) ctx.out(`${hex32(r.hash)}\t${String(r.size).padStart(10)}\t${r.path}`);
      printIssues(ctx, issues);
      ctx.out(`${rows.length} resources, ${bndlTotalSize(bndl)} bytes, names block ${bndlNamesSize(bndl)} bytes`);
    }
    return issues.some((i) => i.severity === 'error') ? ExitCode.Findings : ExitCode.Ok;
  },
};

const strdbCommand: Command = {
  path: ['arch', 'strdb'],
  summary: 'look strings up by id in a .strdb (SKDB) string database, or list them all with --all',
  usage: 'FILE [ID…] [--all] [--from ARCHIVE]',
  minArgs: 1,
  options: { ...fromOption, all: { type: 'boolean', description: 'print every id and string' } },
  async run(ctx) {
    const db = parseStrdb(await loadInput(ctx, ctx.args[0]!, 'strdb'));
    const ids = ctx.args.slice(1).map((a) => {
      const n = Number(a);
      if (!Number.isInteger(n) || n < 0) throw new UsageError(`not a string id: ${a}`);
      return n;
    });
    const rows = ctx.options['all'] === true ? db.entries.map((e) => ({ id: e.id, text: strdbTextAt(db, e.charOffset) as string | undefined })) : ids.map((id) => ({ id, text: strdbGet(db, id) }));
    const missing = rows.filter((r) => r.text === undefined).length;
    if (ctx.json) ctx.printJson({ version: db.version, count: db.entries.length, textUnits: db.text.length, strings: rows });
    else {
      if (rows.length === 0) ctx.out(`SKDB v${db.version}: ${db.entries.length} strings, ${db.text.length} UTF-16 units`);
      for (const r of rows) ctx.out(`${r.id}\t${r.text === undefined ? '(no such id)' : JSON.stringify(r.text)}`);
    }
    return missing > 0 ? ExitCode.Findings : ExitCode.Ok;
  },
};

const embbCommand: Command = {
  path: ['arch', 'embb'],
  summary: 'read an .embb under the tools\' layout (a named hypothesis) and report where the file contradicts it',
  usage: 'FILE [--from ARCHIVE] [--bndl MANIFEST]',
  minArgs: 1,
  maxArgs: 1,
  options: { ...fromOption, bndl: { type: 'string', valueName: 'MANIFEST', description: 'the companion .bndl (a file, or an entry of --from) to check the size rule' } },
  details: 'Exit 1 when the file contradicts the hypothesis embb.toolsLayout (the layout of every real .embb is still unknown).',
  async run(ctx) {
    const bytes = await loadInput(ctx, ctx.args[0]!, 'embb');
    const issues: Issue[] = [];
    const manifest = ctx.options['bndl'];
    if (typeof manifest === 'string') issues.push(...checkEmbbAgainstBndl(bytes.length, parseBndl(await loadInput(ctx, manifest, 'bndl'))));
    let reading: unknown;
    try {
      reading = parseEmbbHypothesis(bytes);
    } catch (e) {
      if (!(e instanceof FormatError)) throw e;
      issues.push({ rule: 'embb.toolsLayout', message: e.message, offset: e.offset, path: e.path, severity: 'error', hypothesis: EMBB_HYPOTHESES.toolsLayout.id });
    }
    if (ctx.json) ctx.printJson({ size: bytes.length, reading, issues });
    else {
      if (reading) for (const s of (reading as ReturnType<typeof parseEmbbHypothesis>).sections) for (const r of s.resources) ctx.out(`${String(r.size).padStart(10)}\t@${r.dataOffset}\t${r.name}`);
      printIssues(ctx, issues);
    }
    return issues.some((i) => i.severity === 'error') ? ExitCode.Findings : ExitCode.Ok;
  },
};

const scriptsCommand: Command = {
  path: ['arch', 'scripts'],
  summary: 'describe a .scripts (SCRI) entry: source or bytecode, declared and present size; --source prints the text',
  usage: 'FILE [--from ARCHIVE] [--source]',
  minArgs: 1,
  maxArgs: 1,
  options: { ...fromOption, source: { type: 'boolean', description: 'print the whole source text (flag 1 only)' } },
  async run(ctx) {
    const bytes = await loadInput(ctx, ctx.args[0]!, 'hks');
    const s = describeScripts(bytes);
    if (ctx.options['source'] === true) {
      if (s.kind !== 'source') throw new UsageError(`the body is ${s.kind}, not source text (see scry script … for bytecode)`);
      ctx.io.stdout(utf8Decode(bytes.subarray(13, 13 + s.availableLength)));
      return ExitCode.Ok;
    }
    if (ctx.json) ctx.printJson(s);
    else {
      ctx.out(`SCRI v${s.version}, flag ${s.flag}: ${s.kind}, ${s.declaredLength} bytes declared${s.availableLength < s.declaredLength ? `, ${s.availableLength} present (truncated)` : ''}`);
      if (s.preview) ctx.out(s.preview);
    }
    return ExitCode.Ok;
  },
};

// ---------------------------------------------------------------------------------------------------------------
// scry vfs: the mount vector

const mountOptions = {
  mount: { type: 'string', multiple: true, valueName: 'PATH', description: 'an .arch06 or a folder, in priority order (the first given is entry 0)' },
  dir: { type: 'string', multiple: true, valueName: 'DIR', description: 'a directory source mounted after every --mount (as the retail game mounts Game\\ last)' },
} as const;

async function buildVector(ctx: CommandContext): Promise<MountVector> {
  const table = resolveLut(ctx);
  const vfs = new MountVector({ table });
  const dec = decoder(ctx);
  const mounts = (ctx.options['mount'] as string[] | undefined) ?? [];
  const dirs = (ctx.options['dir'] as string[] | undefined) ?? [];
  if (mounts.length + dirs.length === 0) throw new UsageError('mount at least one source with --mount PATH or --dir DIR');
  try {
    for (const m of mounts) await mountPath(vfs, ctx.resolvePath(m), undefined, { decoder: dec, table });
    for (const d of dirs) await vfs.mount(new DirectorySource(ctx.resolvePath(d), d));
  } catch (e) {
    await vfs.close();
    throw e;
  }
  return vfs;
}

function describeSource(r: Resolution): { index: number; kind: string; source: string } {
  return { index: r.index, kind: r.source.kind, source: r.source.name };
}

async function withVector(ctx: CommandContext, fn: (vfs: MountVector) => Promise<number>): Promise<number> {
  const vfs = await buildVector(ctx);
  try {
    return await fn(vfs);
  } finally {
    await vfs.close();
  }
}

const vfsWhich: Command = {
  path: ['vfs', 'which'],
  summary: 'which mounted source serves each path (and which copies it shadows); a 0x%08X hash is looked up too',
  usage: 'PATH|HASH… --mount A [--mount B…] [--dir D]',
  minArgs: 1,
  options: mountOptions,
  async run(ctx) {
    return withVector(ctx, async (vfs) => {
      const results = [];
      let missing = 0;
      for (const arg of ctx.args) {
        let path = arg;
        if (/^0x[0-9a-f]{1,8}$/i.test(arg)) {
          const r = await vfs.resolveHash(Number(arg));
          if (r) path = r.path;
        }
        const w = await vfs.which(path);
        if (!w.winner) missing++;
        results.push({ query: arg, path: w.path, hash: vfs.hashPath(w.path), winner: w.winner ? describeSource(w.winner) : null, shadowed: w.shadowed.map(describeSource) });
      }
      if (ctx.json) ctx.printJson(results);
      else
        for (const r of results) {
          if (!r.winner) ctx.out(`${r.query}\tnot found`);
          else ctx.out(`${r.path}\t[${r.winner.index}] ${r.winner.kind} ${r.winner.source}${r.shadowed.length ? `\tshadows ${r.shadowed.map((s) => `[${s.index}] ${s.source}`).join(', ')}` : ''}`);
        }
      return missing > 0 ? ExitCode.Findings : ExitCode.Ok;
    });
  },
};

const vfsLs: Command = {
  path: ['vfs', 'ls'],
  summary: 'every path the mount vector serves, with the source that wins it',
  usage: '--mount A [--mount B…] [--dir D] [--glob PATTERN]',
  maxArgs: 0,
  options: { ...mountOptions, glob: { type: 'string', valueName: 'PATTERN', description: 'only paths matching' } },
  async run(ctx) {
    return withVector(ctx, async (vfs) => {
      const match = typeof ctx.options['glob'] === 'string' ? archiveGlob(ctx.options['glob']) : undefined;
      const all = (await vfs.listAll()).filter((c) => !match || match.test(c.path));
      if (ctx.json) ctx.printJson(all.map((c) => ({ path: c.path, winner: describeSource(c.winner), shadowed: c.shadowed.map(describeSource) })));
      else for (const c of all) ctx.out(`[${c.winner.index}]\t${c.path}`);
      return ExitCode.Ok;
    });
  },
};

const vfsConflicts: Command = {
  path: ['vfs', 'conflicts'],
  summary: 'paths present in several sources: which one wins by search order and which are shadowed (never merged)',
  usage: '--mount A [--mount B…] [--dir D]',
  maxArgs: 0,
  options: mountOptions,
  async run(ctx) {
    return withVector(ctx, async (vfs) => {
      const conflicts = await vfs.conflicts();
      if (ctx.json) ctx.printJson(conflicts.map((c) => ({ path: c.path, winner: describeSource(c.winner), shadowed: c.shadowed.map(describeSource) })));
      else {
        for (const c of conflicts) ctx.out(`${c.path}\twins: [${c.winner.index}] ${c.winner.source.name}\tshadowed: ${c.shadowed.map((s) => `[${s.index}] ${s.source.name}`).join(', ')}`);
        ctx.out(`${conflicts.length} path(s) in more than one source`);
      }
      return conflicts.length > 0 ? ExitCode.Findings : ExitCode.Ok;
    });
  },
};

const vfsTable: Command = {
  path: ['vfs', 'table'],
  summary: 'the hash → path table merged from every mounted archive\'s path index, sorted by hash',
  usage: '--mount A [--mount B…]',
  maxArgs: 0,
  options: mountOptions,
  async run(ctx) {
    return withVector(ctx, async (vfs) => {
      if (ctx.json) ctx.printJson(vfs.pathTable.map((r) => ({ hash: r.hash, hex: hex32(r.hash), zero: r.zero, path: r.path })));
      else for (const r of vfs.pathTable) ctx.out(`${hex32(r.hash)}\t${r.path}`);
      return ExitCode.Ok;
    });
  },
};

const vfsCat: Command = {
  path: ['vfs', 'cat'],
  summary: 'read a path through the mount vector (the winning copy) and write it with -o',
  usage: 'PATH -o FILE --mount A [--mount B…] [--dir D]',
  minArgs: 1,
  maxArgs: 1,
  options: { ...mountOptions, output: { type: 'string', short: 'o', valueName: 'FILE', description: 'where to write (required)' }, force: { type: 'boolean', description: 'replace an existing file (a .bak is kept)' } },
  async run(ctx) {
    const out = ctx.options['output'];
    if (typeof out !== 'string') throw new UsageError('vfs cat needs -o FILE');
    return withVector(ctx, async (vfs) => {
      const bytes = await vfs.readFile(ctx.args[0]!);
      writeFileAtomic(ctx.resolvePath(out), bytes, { overwrite: ctx.options['force'] === true });
      if (ctx.json) ctx.printJson({ path: ctx.args[0], bytes: bytes.length, output: out });
      return ExitCode.Ok;
    });
  },
};

export const archCommands: Command[] = [
  lsCommand,
  catCommand,
  extractCommand,
  verifyCommand,
  packCommand,
  indexCommand,
  bndlCommand,
  strdbCommand,
  embbCommand,
  scriptsCommand,
  vfsWhich,
  vfsLs,
  vfsConflicts,
  vfsTable,
  vfsCat,
];
