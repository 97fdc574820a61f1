/**
 * `scry db set|add|add-category|rm|rename|patch make|patch apply|apply|diff|export|import|sql`: safe editing,
 * patch databases, change files, diff and export/import, thin over `src/gamedb/edit`.
 *
 * Safety: every output is written atomically (temp file + rename); the input is never overwritten unless
 * `--in-place`, which keeps `FILE.bak`; an edited file must pass `verifyGadb` before it is written, so any error
 * leaves the original untouched.
 */
import { createHash } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { UsageError } from '../../binary/errors.ts';
import { parseGadb, verifyGadb, writeGadb } from '../../formats/gadb/index.ts';
import type { Gadb } from '../../formats/gadb/types.ts';
import { applyChangeFiles, parseChangeFile } from '../../gamedb/edit/changes.ts';
import { conflictsOf, type ConflictSource } from '../../gamedb/edit/conflicts.ts';
import { diffCount, diffGadb, formatDiffText, showValue } from '../../gamedb/edit/diff.ts';
import { GadbEditor, type EditMessage } from '../../gamedb/edit/editor.ts';
import { exportGadbJsonBytes, readGadbJson } from '../../gamedb/edit/json.ts';
import { p919Hasher, type FieldNamer } from '../../gamedb/edit/model.ts';
import { applyGadbPatch, makeGadbPatch, type PatchRecordRule } from '../../gamedb/edit/patch.ts';
import { exportCsv, exportJsonl } from '../../gamedb/edit/tables.ts';
import { exportSqlite } from '../../gamedb/edit/sqlite.ts';
import type BetterSqlite3 from 'better-sqlite3';
import { readFileChunks, replaceFileAtomic, safeJoin, scryTempPath, writeFileAtomic } from '../../node/fs.ts';
import { ExitCode, type Command, type CommandContext, type OptionSpec } from '../command.ts';
import { resolveLut } from './hash.ts';
import { lockForUpdate, readInputFile } from '../input.ts';
import { commandNames, namesOption } from './db.ts';

const outputOptions: Record<string, OptionSpec> = {
  output: { type: 'string', short: 'o', valueName: 'OUT', description: 'write the result to OUT (never the input unless --in-place)' },
  'in-place': { type: 'boolean', description: 'replace the input file (atomically; the previous file is kept as FILE.bak)' },
  force: { type: 'boolean', description: 'replace an existing OUT (a .bak is kept)' },
  ...namesOption,
};

interface Ctx {
  namer: FieldNamer;
  hasher: (s: string) => number;
}

function setup(ctx: CommandContext): Ctx {
  const table = resolveLut(ctx);
  return { namer: commandNames(ctx, table), hasher: p919Hasher(table) };
}

function load(ctx: CommandContext, file: string): { g: Gadb; path: string } {
  const path = ctx.resolvePath(file);
  if (ctx.options['in-place'] === true) lockForUpdate(ctx, path);
  return { g: parseGadb(readInputFile(path, 'gadb', file)), path };
}

/** Where an output goes: `-o OUT`, or the input itself with `--in-place`. */
function outputPath(ctx: CommandContext, input: string | undefined): { path: string; inPlace: boolean } {
  const o = ctx.options['output'];
  const inPlace = ctx.options['in-place'] === true;
  if (inPlace && typeof o === 'string') throw new UsageError('give either -o OUT or --in-place, not both');
  if (inPlace) {
    if (!input) throw new UsageError('--in-place needs an input file');
    return { path: input, inPlace: true };
  }
  if (typeof o !== 'string') throw new UsageError('give -o OUT (or --in-place to replace the input, keeping a .bak)');
  const path = ctx.resolvePath(o);
  if (input && resolve(path) === resolve(input)) throw new UsageError('OUT is the input file: use --in-place to replace it (a .bak is kept)');
  return { path, inPlace: false };
}

/** Writes a database after checking it passes `verifyGadb` (errors leave everything untouched). */
function writeChecked(ctx: CommandContext, g: Gadb, out: { path: string; inPlace: boolean }, check = true): Uint8Array {
  const bytes = writeGadb(g);
  if (check) {
    const errors = verifyGadb(bytes).filter((i) => i.severity === 'error');
    if (errors.length > 0) {
      for (const e of errors.slice(0, 10)) ctx.err(`verify: ${e.rule}: ${e.message}`);
      throw new UsageError(`the result does not pass verify (${errors.length} error(s)); nothing was written`);
    }
  }
  writeFileAtomic(out.path, bytes, { overwrite: out.inPlace || ctx.options['force'] === true, backup: true });
  return bytes;
}

function printMessages(ctx: CommandContext, messages: EditMessage[]): void {
  for (const m of messages) ctx.err(`${m.severity}: ${m.target}: ${m.message}`);
}

function show(v: unknown): string {
  return showValue(typeof v === 'bigint' ? v.toString() : v);
}

// ------------------------------------------------------------------ set

const set: Command = {
  path: ['db', 'set'],
  summary: 'set a field (or one element with --index, or the element count with --count) and write the result',
  usage: 'FILE CATEGORY RECORD FIELD [VALUE] (-o OUT | --in-place)',
  minArgs: 4,
  maxArgs: 5,
  details:
    'VALUE is typed per field: true/false, 1.5, 0x40, text, 1,2,3 (vector), [[0,1],[1,2]] (curve), Category/Record or null (link).\n' +
    'A Bool changes its own bit only; a text or vector is interned, so no other cell that shared the old value changes.',
  options: {
    ...outputOptions,
    index: { type: 'string', valueName: 'I', description: 'set element I of an array field' },
    count: { type: 'string', valueName: 'N', description: 'change the element count of an array field (cells laid out again by the slot rule)' },
  },
  run(ctx) {
    const [file, category, record, field, value] = ctx.args as [string, string, string, string, string | undefined];
    const s = setup(ctx);
    const { g, path } = load(ctx, file);
    const out = outputPath(ctx, path);
    const ed = new GadbEditor(g, { hasher: s.hasher, namer: s.namer, inPlace: true });
    const a = ed.record(category, record);
    const count = ctx.options['count'];
    if (typeof count === 'string') {
      if (value !== undefined) throw new UsageError('give either VALUE or --count N');
      if (!/^\d+$/.test(count)) throw new UsageError('--count must be a non-negative integer');
      ed.setCount(a, field, Number(count));
    } else {
      if (value === undefined) throw new UsageError('missing VALUE');
      const idx = ctx.options['index'];
      if (idx !== undefined && (typeof idx !== 'string' || !/^\d+$/.test(idx))) throw new UsageError('--index must be a non-negative integer');
      ed.set(a, field, value, typeof idx === 'string' ? { index: Number(idx) } : {});
    }
    writeChecked(ctx, ed.finish(), out);
    if (ctx.json) ctx.printJson({ output: out.path, changes: ed.changes, messages: ed.messages });
    else {
      for (const c of ed.changes) ctx.out(`${c.target}.${c.field}${c.index !== undefined ? `[${c.index}]` : ''}${c.op === 'count' ? ' count' : ''}: ${show(c.old)} → ${show(c.new)}`);
      printMessages(ctx, ed.messages);
    }
    return ExitCode.Ok;
  },
};

// ------------------------------------------------------------------ add / add-category / rm / rename

const add: Command = {
  path: ['db', 'add'],
  summary: 'add a named record (a copy of --from, else the category\'s DEFAULT_RECORD_NAME… placeholder or first record)',
  usage: 'FILE CATEGORY RECORD (-o OUT | --in-place)',
  minArgs: 3,
  maxArgs: 3,
  options: { ...outputOptions, from: { type: 'string', valueName: 'RECORD', description: 'template: a record of the category, or Category/Record' } },
  run(ctx) {
    const [file, category, record] = ctx.args as [string, string, string];
    const s = setup(ctx);
    const { g, path } = load(ctx, file);
    const out = outputPath(ctx, path);
    const ed = new GadbEditor(g, { hasher: s.hasher, namer: s.namer, inPlace: true });
    const from = ctx.options['from'];
    ed.addRecord(category, record, typeof from === 'string' ? { from } : {});
    writeChecked(ctx, ed.finish(), out);
    return report(ctx, ed, out.path);
  },
};

const addCategory: Command = {
  path: ['db', 'add-category'],
  summary: 'add an empty category of the same type as --like, at its P919-sorted place',
  usage: 'FILE NAME --like CATEGORY (-o OUT | --in-place)',
  minArgs: 2,
  maxArgs: 2,
  options: { ...outputOptions, like: { type: 'string', valueName: 'CATEGORY', description: 'existing category whose type the new one takes' } },
  run(ctx) {
    const [file, name] = ctx.args as [string, string];
    const like = ctx.options['like'];
    if (typeof like !== 'string') throw new UsageError('--like CATEGORY is required');
    const s = setup(ctx);
    const { g, path } = load(ctx, file);
    const out = outputPath(ctx, path);
    const ed = new GadbEditor(g, { hasher: s.hasher, namer: s.namer, inPlace: true });
    ed.addCategory(name, like);
    writeChecked(ctx, ed.finish(), out);
    return report(ctx, ed, out.path);
  },
};

const rm: Command = {
  path: ['db', 'rm'],
  summary: 'remove a named record; links to it become null (referrers are listed), later records are renumbered',
  usage: 'FILE CATEGORY RECORD (-o OUT | --in-place)',
  minArgs: 3,
  maxArgs: 3,
  options: outputOptions,
  run(ctx) {
    const [file, category, record] = ctx.args as [string, string, string];
    const s = setup(ctx);
    const { g, path } = load(ctx, file);
    const out = outputPath(ctx, path);
    const ed = new GadbEditor(g, { hasher: s.hasher, namer: s.namer, inPlace: true });
    ed.removeRecord(ed.record(category, record));
    writeChecked(ctx, ed.finish(), out);
    return report(ctx, ed, out.path);
  },
};

const rename: Command = {
  path: ['db', 'rename'],
  summary: 'rename a named record; it moves to its sorted place and every link follows it',
  usage: 'FILE CATEGORY RECORD NEWNAME (-o OUT | --in-place)',
  minArgs: 4,
  maxArgs: 4,
  options: outputOptions,
  run(ctx) {
    const [file, category, record, newName] = ctx.args as [string, string, string, string];
    const s = setup(ctx);
    const { g, path } = load(ctx, file);
    const out = outputPath(ctx, path);
    const ed = new GadbEditor(g, { hasher: s.hasher, namer: s.namer, inPlace: true });
    ed.renameRecord(ed.record(category, record), newName);
    writeChecked(ctx, ed.finish(), out);
    return report(ctx, ed, out.path);
  },
};

function report(ctx: CommandContext, ed: GadbEditor, output: string): number {
  if (ctx.json) ctx.printJson({ output, changes: ed.changes, messages: ed.messages });
  else {
    for (const c of ed.changes) ctx.out(`${c.op} ${c.target}${c.old !== undefined && c.op !== 'remove' ? ` (${String(c.old)})` : ''}`);
    printMessages(ctx, ed.messages);
  }
  return ExitCode.Ok;
}

// ------------------------------------------------------------------ apply (change files)

const apply: Command = {
  path: ['db', 'apply'],
  summary: 'apply YAML/JSON change files in order, with a per-field conflict report',
  usage: 'FILE CHANGES… (-o OUT | --in-place)',
  minArgs: 2,
  options: outputOptions,
  run(ctx) {
    const [file, ...changeFiles] = ctx.args as [string, ...string[]];
    const s = setup(ctx);
    const { g, path } = load(ctx, file);
    const out = outputPath(ctx, path);
    const files = changeFiles.map((f) => ({ name: f, ops: parseChangeFile(readFileSync(ctx.resolvePath(f), 'utf8'), f) }));
    const r = applyChangeFiles(g, files, { hasher: s.hasher, namer: s.namer, inPlace: true });
    writeChecked(ctx, r.gadb, out);
    if (ctx.json) ctx.printJson({ output: out.path, changes: r.changes, messages: r.messages, conflicts: r.conflicts });
    else {
      for (const c of r.changes) ctx.out(`${c.file}: ${c.op} ${c.target}${c.field ? `.${c.field}` : ''}${c.index !== undefined ? `[${c.index}]` : ''}${c.op === 'set' || c.op === 'count' ? `: ${show(c.old)} → ${show(c.new)}` : ''}`);
      for (const c of r.conflicts) ctx.out(`conflict: ${c.target}: ${c.winner.file} wins (${show(c.winner.value)}); overridden: ${c.overridden.map((o) => `${o.file} (${show(o.value)})`).join(', ')}`);
      for (const m of r.messages) ctx.err(`${m.file}: ${m.severity}: ${m.target}: ${m.message}`);
    }
    return ExitCode.Ok;
  },
};

// ------------------------------------------------------------------ conflicts (several sources over one base)

const conflicts: Command = {
  path: ['db', 'conflicts'],
  summary: 'the conflict view: change files and patch databases loaded over FILE in order, each field they change, who wins',
  usage: 'FILE SOURCE… [--all] [-o MERGED]',
  minArgs: 2,
  details:
    'Each SOURCE is a change file (*.yaml, *.yml, *.json) or a patch database of FILE, loaded in the order given: the last\n' +
    'source that touches a field wins it (a patch database replaces its whole records, H-EDIT-PATCH-RULE). Lists the\n' +
    'fields where sources disagree (every changed field with --all) with every source\'s value; -o writes the merged\n' +
    'result. Exit status 1 when sources disagree.',
  options: {
    all: { type: 'boolean', description: 'list every changed field (overrides and agreements too), not only conflicts' },
    output: { type: 'string', short: 'o', valueName: 'MERGED', description: 'write the merged result to MERGED' },
    force: { type: 'boolean', description: 'replace an existing MERGED (a .bak is kept)' },
    'ignore-build-tag': { type: 'boolean', description: 'load patches whose build tag differs from FILE\'s (the engine would ignore them)' },
    ...namesOption,
  },
  run(ctx) {
    const [file, ...sourceFiles] = ctx.args as [string, ...string[]];
    const s = setup(ctx);
    const { g, path } = load(ctx, file);
    const sources: ConflictSource[] = sourceFiles.map((f) =>
      /\.(ya?ml|json)$/i.test(f)
        ? { name: f, kind: 'changes', ops: parseChangeFile(readFileSync(ctx.resolvePath(f), 'utf8'), f) }
        : { name: f, kind: 'patch', patch: parseGadb(readInputFile(ctx.resolvePath(f), 'gadb', f)) },
    );
    const r = conflictsOf(g, sources, { hasher: s.hasher, namer: s.namer, ignoreBuildTag: ctx.options['ignore-build-tag'] === true });
    let output: string | undefined;
    if (typeof ctx.options['output'] === 'string') {
      output = outputPath(ctx, path).path;
      writeChecked(ctx, r.merged, { path: output, inPlace: false });
    }
    const rows = ctx.options['all'] === true ? r.rows : r.rows.filter((x) => x.status === 'conflict' || x.status === 'interaction');
    if (ctx.json) ctx.printJson({ sources: r.sources, counts: r.counts, rows, ...(output !== undefined ? { output } : {}) });
    else {
      for (const x of rows) {
        const target = `${x.record}${x.hash !== 0 ? `.${x.field}` : ''}${x.index !== undefined ? `[${x.index}]` : ''}`;
        const values = x.values.map((v, i) => (v.touched ? `${r.sources[i]!.name} ${show(v.value)}` : undefined)).filter((v) => v !== undefined);
        const verdict = x.winner >= 0 ? `${r.sources[x.winner]!.name} wins (${show(x.merged)})` : `merged holds ${show(x.merged)} (sources interact)`;
        ctx.out(`${x.status} ${target}: base ${show(x.base)} · ${values.join(' · ')} → ${verdict}`);
      }
      ctx.out(`${r.counts.conflict} conflict(s), ${r.counts.agree} agreement(s), ${r.counts.override} override(s)${r.counts.interaction ? `, ${r.counts.interaction} interaction(s)` : ''} over ${r.rows.length} changed field(s)${output !== undefined ? `; merged result written to ${output}` : ''}`);
    }
    return r.counts.conflict + r.counts.interaction > 0 ? ExitCode.Findings : ExitCode.Ok;
  },
};

// ------------------------------------------------------------------ patch make / apply

const patchMake: Command = {
  path: ['db', 'patch', 'make'],
  summary: 'make a patch database holding only the records EDITED changes or adds, with BASE\'s build tag',
  usage: 'BASE EDITED -o PATCH',
  minArgs: 2,
  maxArgs: 2,
  options: { ...outputOptions, 'allow-loss': { type: 'boolean', description: 'make it even when EDITED removes records (a patch cannot remove)' } },
  details: 'The engine looks for a loose patch named after the database with `gamedb_patch` appended and keeps it only when the build tags match.',
  run(ctx) {
    const s = setup(ctx);
    const base = load(ctx, ctx.args[0]!);
    const edited = load(ctx, ctx.args[1]!);
    const out = outputPath(ctx, undefined);
    const r = makeGadbPatch(base.g, edited.g, { hasher: s.hasher, allowLoss: ctx.options['allow-loss'] === true });
    // A patch's links are numbered in the merged database (H-EDIT-PATCH-LINKS), so verify alone would flag them.
    const bytes = writeChecked(ctx, r.patch, out, false);
    if (ctx.json) ctx.printJson({ output: out.path, bytes: bytes.length, records: r.records, added: r.added, categoriesAdded: r.categoriesAdded, notExpressible: r.notExpressible });
    else {
      ctx.out(`${basename(out.path)}: patch database of ${r.records.length} record(s) (${r.added.length} added), ${bytes.length} bytes`);
      for (const x of r.records) ctx.out(`  ${x}`);
      for (const x of r.notExpressible) ctx.err(`warning: not expressible in a patch: ${x}`);
    }
    return ExitCode.Ok;
  },
};

const patchApply: Command = {
  path: ['db', 'patch', 'apply'],
  summary: 'merge a patch database into BASE as the loader does (build tags must match)',
  usage: 'BASE PATCH (-o OUT | --in-place)',
  minArgs: 2,
  maxArgs: 2,
  options: {
    ...outputOptions,
    rule: { type: 'string', valueName: 'RULE', description: 'record in both: replace (default: the patch wins) or keep-base' },
    'ignore-build-tag': { type: 'boolean', description: 'merge even when the build tags differ (the engine would ignore the patch)' },
  },
  run(ctx) {
    const s = setup(ctx);
    const base = load(ctx, ctx.args[0]!);
    const patch = load(ctx, ctx.args[1]!);
    const out = outputPath(ctx, base.path);
    const rule = (ctx.options['rule'] ?? 'replace') as string;
    if (rule !== 'replace' && rule !== 'keep-base') throw new UsageError('--rule must be replace or keep-base');
    const r = applyGadbPatch(base.g, patch.g, { rule: rule as PatchRecordRule, ignoreBuildTag: ctx.options['ignore-build-tag'] === true, hasher: s.hasher });
    writeChecked(ctx, r.merged, out);
    if (ctx.json) ctx.printJson({ output: out.path, replaced: r.replaced, added: r.added, kept: r.kept, categoriesAdded: r.categoriesAdded, skipped: r.skipped });
    else {
      for (const x of r.categoriesAdded) ctx.out(`+ category ${x}`);
      for (const x of r.added) ctx.out(`+ ${x}`);
      for (const x of r.replaced) ctx.out(`~ ${x}`);
      for (const x of r.kept) ctx.out(`= ${x} (base kept)`);
    }
    return ExitCode.Ok;
  },
};

// ------------------------------------------------------------------ diff

const diff: Command = {
  path: ['db', 'diff'],
  summary: 'categories and records added/removed/changed, per field old → new (exit 1 on difference, 0 when equal)',
  usage: 'A B',
  minArgs: 2,
  maxArgs: 2,
  options: { names: outputOptions['names']! },
  run(ctx) {
    const s = setup(ctx);
    const a = load(ctx, ctx.args[0]!);
    const b = load(ctx, ctx.args[1]!);
    const d = diffGadb(a.g, b.g, { namer: s.namer });
    const n = diffCount(d);
    if (ctx.json) ctx.printJson({ equal: n === 0, differences: n, ...d });
    else for (const line of formatDiffText(d)) ctx.out(line);
    return n === 0 ? ExitCode.Ok : ExitCode.Findings;
  },
};

// ------------------------------------------------------------------ export / import

const exportCmd: Command = {
  path: ['db', 'export'],
  summary: 'export as lossless JSON (default), JSONL per record, CSV per category (a folder) or SQLite',
  usage: 'FILE -o OUT [--format json|jsonl|csv|sqlite]',
  minArgs: 1,
  maxArgs: 1,
  options: { ...outputOptions, format: { type: 'string', valueName: 'FORMAT', description: 'json (lossless, default), jsonl, csv (OUT is a folder), sqlite' } },
  run(ctx) {
    const s = setup(ctx);
    const { g, path } = load(ctx, ctx.args[0]!);
    const format = (ctx.options['format'] ?? 'json') as string;
    const out = outputPath(ctx, path);
    const overwrite = ctx.options['force'] === true;
    if (format === 'json') writeChunksAtomic(out.path, exportGadbJsonBytes(g, { namer: s.namer }), overwrite);
    else if (format === 'jsonl') writeChunksAtomic(out.path, utf8Chunks(exportJsonl(g, { namer: s.namer })), overwrite);
    else if (format === 'csv') {
      mkdirSync(out.path, { recursive: true });
      const files = exportCsv(g, { namer: s.namer });
      for (const f of files) writeFileAtomic(safeJoin(out.path, f.name), f.text, { overwrite });
      if (!ctx.json) ctx.out(`${files.length} CSV file(s) in ${out.path}`);
    } else if (format === 'sqlite') {
      if (existsSync(out.path)) {
        if (!overwrite) throw new UsageError(`refusing to overwrite ${out.path} (pass --force)`);
      }
      buildSqlite(g, out.path, s.namer, overwrite);
    } else throw new UsageError('--format must be json, jsonl, csv or sqlite');
    if (ctx.json) ctx.printJson({ output: out.path, format });
    else if (format !== 'csv') ctx.out(`${out.path}: ${format} export of ${g.categories.length} categories, ${g.records.count} records`);
    return ExitCode.Ok;
  },
};

/** Text chunks as UTF-8, batched to about 1 MiB. */
function* utf8Chunks(chunks: Iterable<string>): Generator<Uint8Array> {
  const enc = new TextEncoder();
  let pending = '';
  for (const c of chunks) {
    pending += c;
    if (pending.length > 1 << 20) {
      yield enc.encode(pending);
      pending = '';
    }
  }
  if (pending) yield enc.encode(pending);
}

/**
 * Writes byte chunks to `path` as they are produced (each is written before the next is asked for, so a view of a
 * reused buffer is fine) into a temporary file, then published atomically: a game-scale export never exists as
 * one string or one buffer.
 */
function writeChunksAtomic(path: string, chunks: Iterable<Uint8Array>, overwrite: boolean): void {
  const temp = scryTempPath(path);
  const fd = openSync(temp, 'wx');
  try {
    for (const b of chunks) for (let at = 0; at < b.length; ) at += writeSync(fd, b, at, b.length - at);
  } catch (e) {
    closeSync(fd);
    unlinkSync(temp);
    throw e;
  }
  closeSync(fd);
  replaceFileAtomic(temp, path, { overwrite });
}


const importCmd: Command = {
  path: ['db', 'import'],
  summary: 'rebuild a GADB file from lossless JSON (`db export --format json`), byte-identical to the original',
  usage: 'JSON -o OUT',
  minArgs: 1,
  maxArgs: 1,
  options: outputOptions,
  run(ctx) {
    const s = setup(ctx);
    const path = ctx.resolvePath(ctx.args[0]!);
    const out = outputPath(ctx, path);
    // Read as a stream: the document never exists whole; bad JSON is a JsonSyntaxError (offset, line, column).
    const g = readGadbJson(readFileChunks(path), { hasher: s.hasher });
    const bytes = writeChecked(ctx, g, out);
    if (ctx.json) ctx.printJson({ output: out.path, bytes: bytes.length });
    else ctx.out(`${basename(out.path)}: ${bytes.length} bytes`);
    return ExitCode.Ok;
  },
};

// ------------------------------------------------------------------ sql

function openSqlite(path: string, readonly = false): BetterSqlite3.Database {
  const require = createRequire(import.meta.url);
  const Ctor = require('better-sqlite3') as typeof BetterSqlite3;
  return new Ctor(path, readonly ? { readonly: true } : {});
}

function buildSqlite(g: Gadb, path: string, namer: FieldNamer, overwrite: boolean): void {
  const temp = scryTempPath(path);
  const db = openSqlite(temp);
  try {
    exportSqlite(g, db, { namer });
  } catch (e) {
    db.close();
    unlinkSync(temp);
    throw e;
  }
  db.close();
  replaceFileAtomic(temp, path, { overwrite, backup: false });
}

/** The work folder for cached SQLite files: `$SCRY_CACHE`, `$XDG_CACHE_HOME/scry`, or `~/.cache/scry`. */
export function sqlCacheDir(env: Record<string, string | undefined>): string {
  return env['SCRY_CACHE'] || join(env['XDG_CACHE_HOME'] || join(env['HOME'] || homedir(), '.cache'), 'scry');
}

const sql: Command = {
  path: ['db', 'sql'],
  summary: 'run an SQL query over the database (SQLite export cached in a work folder, never beside the game files)',
  usage: 'FILE "SELECT …"',
  minArgs: 2,
  maxArgs: 2,
  options: {
    names: outputOptions['names']!,
    cache: { type: 'string', valueName: 'DIR', description: 'work folder for the cached SQLite file (default $SCRY_CACHE or ~/.cache/scry)' },
  },
  details: 'Tables: one per category (typed columns), plus categories, records, fields, cells and links. The cache is keyed by the file\'s content hash.',
  run(ctx) {
    const s = setup(ctx);
    const path = ctx.resolvePath(ctx.args[0]!);
    const bytes = readInputFile(path, 'gadb', ctx.args[0]!);
    const dir = typeof ctx.options['cache'] === 'string' ? ctx.resolvePath(ctx.options['cache']) : sqlCacheDir(ctx.io.env);
    mkdirSync(dir, { recursive: true });
    const key = createHash('sha256').update(bytes).digest('hex').slice(0, 24);
    const cached = join(dir, `${key}.sqlite`);
    if (!existsSync(cached) || statSync(cached).size === 0) buildSqlite(parseGadb(bytes), cached, s.namer, true);
    const db = openSqlite(cached, true);
    try {
      const stmt = db.prepare(ctx.args[1]!);
      if (!stmt.reader) throw new UsageError('only queries that return rows are allowed (the cache is read-only)');
      const rows = stmt.all() as Array<Record<string, unknown>>;
      if (ctx.json) ctx.printJson(rows);
      else {
        const cols = stmt.columns().map((c: { name: string }) => c.name);
        ctx.out(cols.join('\t'));
        const cell = (x: unknown): string => (x === null || x === undefined ? 'NULL' : typeof x === 'string' ? x : String(x));
        for (const r of rows) ctx.out(cols.map((c) => cell(r[c])).join('\t'));
      }
    } catch (e) {
      if (e instanceof Error && e.constructor.name === 'SqliteError') throw new UsageError(`sql: ${e.message}`);
      throw e;
    } finally {
      db.close();
    }
    return ExitCode.Ok;
  },
};

export const dbEditCommands: Command[] = [set, add, addCategory, rm, rename, apply, conflicts, patchMake, patchApply, diff, exportCmd, importCmd, sql];
