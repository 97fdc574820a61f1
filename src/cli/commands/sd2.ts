/**
 * `scry sd2 …`: Firefall's static database (`clientdb.sd2`): info, tables, show, find, names, crack, export, sql,
 * set, subset, pack. Thin over `src/formats/sd2` and `src/staticdb`.
 */
import { readFileSync, existsSync, unlinkSync, mkdirSync } from 'node:fs';
import { inflateRawSync, deflateRawSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { NotFoundError, UsageError } from '../../binary/errors.ts';
import { loadSd2NameFiles, userConfigDir } from '../../node/names.ts';
import { sqliteSink } from '../../node/sqlite.ts';
import { replaceFileAtomic, safeJoin, scryTempPath, writeFileAtomic } from '../../node/fs.ts';
import { SD2_TYPES, isSd2, verifySd2, writeSd2, Sd2Flags, Sd2InflateLimitError, sd2InfoSize, type ParseSd2Options, type Sd2File, type Sd2Inflate } from '../../formats/sd2/index.ts';
import {
  StaticDb,
  Sd2Names,
  crackSd2Names,
  exportSd2Sql,
  harvestSd2Words,
  importSd2Json,
  sd2CsvChunks,
  sd2JsonChunks,
  sd2JsonValue,
  sd2ValueFromJson,
  sd2NameCoverage,
  diffSd2,
  renderSd2LocalizedText,
  searchSd2,
  unnamedSd2Ids,
  type StaticDbTable,
  type Sd2SearchKind,
} from '../../staticdb/index.ts';
import { hex32, utf8Decode } from '../../binary/text.ts';
import { type Command, type CommandContext, type OptionSpec } from '../command.ts';
import { lockForUpdate, readInputFile } from '../input.ts';

const namesOption: Record<string, OptionSpec> = {
  names: { type: 'string', multiple: true, valueName: 'FILE', description: 'name list (Brutus JSON, hash→name JSON, one name or 0xHASH<TAB>name per line); repeatable; also $SCRY_SD2_NAMES (colon-separated) and ~/.config/scry/names/' },
  patch: { type: 'string', valueName: 'NAME', description: 'patch name for the payload keystream instead of the header\'s' },
  'max-image': { type: 'string', valueName: 'MiB', description: 'accept an inflated image up to MiB (default: 4 MiB + 16 × the payload; real files inflate 1.7×)' },
};

/** How the CLI opens sd2 files: node:zlib, the names, and the --patch / --max-image options. */
function openOptions(ctx: CommandContext): ParseSd2Options & { names: Sd2Names } {
  const patch = str(ctx, 'patch');
  const max = str(ctx, 'max-image');
  if (max !== undefined && !(Number(max) > 0)) throw new UsageError(`--max-image needs a size in MiB, got ${JSON.stringify(max)}`);
  return { names: loadNames(ctx), inflate: zlibInflate, ...(patch !== undefined ? { patch } : {}), ...(max !== undefined ? { maxImageBytes: Math.floor(Number(max) * 2 ** 20) } : {}) };
}

const writeOptions: Record<string, OptionSpec> = {
  out: { type: 'string', short: 'o', valueName: 'FILE', description: 'output file (written atomically)' },
  force: { type: 'boolean', description: 'replace an existing output (a .bak is kept)' },
};

/** node:zlib is several times faster than fflate; the library defaults to fflate so it also runs in a browser. */
const zlibInflate: Sd2Inflate = (deflated, size, maxSize) => {
  if (size !== undefined && size > maxSize) throw new Sd2InflateLimitError(`declared size ${size} exceeds ${maxSize}`);
  let out: Buffer;
  try {
    out = inflateRawSync(deflated, { maxOutputLength: Math.max(1, size ?? maxSize) });
  } catch (e) {
    if ((e as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw new Sd2InflateLimitError(`output exceeds ${size ?? maxSize} bytes`);
    throw e;
  }
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
};
const zlibDeflate = (data: Uint8Array, level: number): Uint8Array => {
  const out = deflateRawSync(data, { level });
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
};

function str(ctx: CommandContext, name: string): string | undefined {
  const v = ctx.options[name];
  return typeof v === 'string' ? v : undefined;
}

function list(ctx: CommandContext, name: string): string[] {
  const v = ctx.options[name];
  return Array.isArray(v) ? v : typeof v === 'string' ? [v] : [];
}

function int(ctx: CommandContext, name: string, fallback: number): number {
  const v = str(ctx, name);
  if (v === undefined) return fallback;
  if (!/^\d+$/.test(v)) throw new UsageError(`--${name} needs a non-negative integer, got ${JSON.stringify(v)}`);
  return Number(v);
}

function loadNames(ctx: CommandContext): Sd2Names {
  const names = new Sd2Names();
  const env = ctx.io.env['SCRY_SD2_NAMES'];
  const files = [...(env ? env.split(':').filter(Boolean) : []), ...list(ctx, 'names')];
  loadSd2NameFiles(names, files.map((f) => ctx.resolvePath(f)), userConfigDir(ctx.io.env));
  return names;
}

function openDb(ctx: CommandContext, file = ctx.args[0]!): StaticDb {
  // Without -o, --force writes the input back: hold its lock from the read to the write.
  if (file === ctx.args[0] && str(ctx, 'out') === undefined && ctx.options['force'] === true) lockForUpdate(ctx, ctx.resolvePath(file));
  return StaticDb.open(readInputFile(ctx.resolvePath(file), 'sd2', file), openOptions(ctx));
}

function progress(ctx: CommandContext, text: string): void {
  if (ctx.io.isTTY && !ctx.json) ctx.io.stderr(`\r\x1b[K${text}`);
}

function progressDone(ctx: CommandContext): void {
  if (ctx.io.isTTY && !ctx.json) ctx.io.stderr('\r\x1b[K');
}

function flagNames(flags: number): string[] {
  return Object.entries(Sd2Flags)
    .filter(([, bit]) => flags & bit)
    .map(([name]) => name);
}

/** A cell as the CLI prints it: JSON, f32 numbers in their shortest form (`typeId` of the column). */
function show(v: unknown, typeId?: number): string {
  return JSON.stringify(sd2JsonValue(v as never, typeId));
}

function outputPath(ctx: CommandContext, fallbackToInput: boolean): { path: string; overwrite: boolean } {
  const out = str(ctx, 'out');
  const force = ctx.options['force'] === true;
  if (out === undefined) {
    if (!fallbackToInput || !force) throw new UsageError('name the output with -o FILE (or pass --force to replace the input, keeping a .bak)');
    return { path: ctx.resolvePath(ctx.args[0]!), overwrite: true };
  }
  return { path: ctx.resolvePath(out), overwrite: force };
}

function writeDb(ctx: CommandContext, bytes: Uint8Array, fallbackToInput = true): string {
  const { path, overwrite } = outputPath(ctx, fallbackToInput);
  writeFileAtomic(path, bytes, { overwrite });
  return path;
}

/** A row reference: an index, or `key:VALUE` (first-column key). */
function resolveRow(table: StaticDbTable, ref: string): number {
  if (/^\d+$/.test(ref)) return Number(ref);
  const m = /^key[:=](.*)$/s.exec(ref);
  if (!m) throw new UsageError(`row must be an index or key:VALUE, got ${JSON.stringify(ref)}`);
  const row = table.findRowByKey(m[1]!);
  if (row < 0) throw new NotFoundError(`${table.label}: no row whose first column is ${JSON.stringify(m[1])}`);
  return row;
}

/** A value typed on the command line: JSON when it parses (numbers, arrays, null, "quoted"), else the raw text. */
/**
 * A value as typed on the command line, for a column of `typeId`: JSON, plus the export's encodings of special
 * floats (`NaN`, `Infinity`, `-Infinity`, `-0`, bare or as JSON strings, also inside vectors).
 */
function parseCliValue(text: string, typeId: number): unknown {
  const typeKind = SD2_TYPES[typeId]?.kind ?? '';
  if (typeKind === 'u64' || typeKind === 'i64') {
    if (text === 'null') return null;
    return BigInt(text);
  }
  if (typeKind === 'string' || typeKind === 'char') {
    if (text === 'null') return null;
    if (text.startsWith('"')) return JSON.parse(text) as unknown;
    return text;
  }
  if (typeKind === 'bytes') {
    if (text === 'null') return null;
    const clean = text.replace(/\s+/g, '');
    if (!/^([0-9a-f]{2})*$/i.test(clean)) throw new UsageError(`bytes must be hex, got ${JSON.stringify(text)}`);
    return Uint8Array.from(clean.match(/../g) ?? [], (h) => parseInt(h, 16));
  }
  if (/^(NaN|-?Infinity|-0)$/.test(text)) return sd2ValueFromJson(typeId, text);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text) as unknown;
  } catch {
    throw new UsageError(`cannot read ${JSON.stringify(text)} as a value (use JSON: 12, 1.5, [1,2,3], null; NaN, Infinity, -Infinity, -0)`);
  }
  return sd2ValueFromJson(typeId, parsed);
}

// ---------------------------------------------------------------- commands

const info: Command = {
  path: ['sd2', 'info'],
  summary: 'header, versions, compression, tables, rows, pool, layout and findings of an sd2 file',
  usage: 'FILE',
  minArgs: 1,
  maxArgs: 1,
  options: namesOption,
  run(ctx) {
    const bytes = readInputFile(ctx.resolvePath(ctx.args[0]!), 'sd2', ctx.args[0]!);
    const db = StaticDb.open(bytes, openOptions(ctx));
    const f = db.toFile();
    const tables = db.tables();
    const fields = tables.reduce((n, t) => n + t.columns.length, 0);
    const rows = tables.reduce((n, t) => n + t.rowCount, 0);
    const ts = f.header.timestamp;
    const iso = ts >= 0n && ts < 8640000000000000000n ? new Date(Number(ts / 1000n)).toISOString() : null;
    const findings = verifySd2(f);
    const cov = sd2NameCoverage(db);
    const summary = {
      fileSize: bytes.length,
      fileVersion: f.header.fileVersion,
      flags: f.header.flags,
      flagNames: flagNames(f.header.flags),
      timestamp: ts,
      timestampUtc: iso,
      patch: f.header.patch,
      payloadSize: bytes.length - 128 - (f.trailing?.length ?? 0),
      compressed: f.compression.compressed,
      adler32: f.compression.adler32,
      memoryVersion: f.image.memoryVersion,
      imageSize: f.source?.image.length ?? null,
      infoSize: sd2InfoSize(tables.length, fields),
      tables: tables.length,
      columns: fields,
      rows,
      poolSize: f.image.pool.length,
      layout: f.image.layout ? 'recorded (re-emitted byte-exact)' : 'canonical (blocks outside the row region)',
      names: { tablesNamed: cov.tables.named, columnsNamed: cov.columns.named, columnSlots: cov.columns.total },
      findings,
    };
    if (ctx.json) {
      ctx.printJson(summary);
      return 0;
    }
    ctx.out(`file          ${ctx.args[0]} (${bytes.length} bytes)`);
    ctx.out(`version       file ${summary.fileVersion}, memory ${summary.memoryVersion}`);
    ctx.out(`flags         ${summary.flags} (${summary.flagNames.join(', ') || 'none'})`);
    ctx.out(`patch         ${summary.patch}`);
    ctx.out(`timestamp     ${ts} µs${iso ? ` (${iso})` : ''}`);
    ctx.out(`payload       ${summary.payloadSize} bytes, ${summary.compressed ? `deflate${summary.adler32 ? ' + Adler-32' : ''}` : 'stored raw'} → image ${summary.imageSize} bytes`);
    ctx.out(`tables        ${summary.tables} (${cov.tables.named} named), ${fields} columns (${cov.columns.named} named), ${rows} rows`);
    ctx.out(`pool          ${summary.poolSize} bytes`);
    ctx.out(`layout        ${summary.layout}`);
    for (const i of findings) ctx.out(`${i.severity.padEnd(13)} ${i.path ?? ''}: ${i.message}${i.hypothesis ? ` [${i.hypothesis}]` : ''}`);
    return 0;
  },
};

const tablesCmd: Command = {
  path: ['sd2', 'tables'],
  summary: 'list the tables: index, id, name, rows, columns, row stride',
  usage: 'FILE',
  minArgs: 1,
  maxArgs: 1,
  options: { ...namesOption, filter: { type: 'string', valueName: 'TEXT', description: 'only tables whose label contains TEXT (case-insensitive)' } },
  run(ctx) {
    const db = openDb(ctx);
    const filter = str(ctx, 'filter')?.toLowerCase();
    const rows = db
      .tables()
      .filter((t) => !filter || t.label.toLowerCase().includes(filter))
      .map((t) => ({ index: t.index, id: hex32(t.id), name: t.name ?? null, rows: t.rowCount, columns: t.columns.length, numBytes: t.raw.numBytes }));
    if (ctx.json) ctx.printJson(rows);
    else {
      ctx.out(['#', 'id', 'rows', 'cols', 'bytes', 'name'].join('\t'));
      for (const r of rows) ctx.out([r.index, r.id, r.rows, r.columns, r.numBytes, r.name ?? ''].join('\t'));
    }
    return 0;
  },
};

const showCmd: Command = {
  path: ['sd2', 'show'],
  summary: 'a table\'s columns and rows, or one row (ROW = index or key:VALUE)',
  usage: 'FILE TABLE [ROW]',
  minArgs: 2,
  maxArgs: 3,
  options: {
    ...namesOption,
    limit: { type: 'string', valueName: 'N', description: 'rows to show (default 20)' },
    offset: { type: 'string', valueName: 'N', description: 'first row to show (default 0)' },
    schema: { type: 'boolean', description: 'columns only' },
    render: { type: 'boolean', description: 'render localized-text parameter headers as {index} (hypothesis sd2.localized-text-header)' },
  },
  run(ctx) {
    const db = openDb(ctx);
    const table = db.table(ctx.args[1]!);
    const columns = table.columns.map((c) => ({ index: c.index, id: hex32(c.id), name: c.name ?? null, type: c.type.name, typeId: c.typeId, start: c.start, width: c.width, nullableIndex: c.nullable ? c.nullableIndex : null }));
    const render = ctx.options['render'] === true;
    const rowValues = (r: number): unknown[] =>
      table.row(r).map((v, i) => {
        if (!render || typeof v !== 'string') return v;
        const entry = table.entryBytes(r, i);
        return (entry && renderSd2LocalizedText(entry)?.rendered) ?? v;
      });
    if (ctx.args[2] !== undefined) {
      const row = resolveRow(table, ctx.args[2]);
      const values = rowValues(row);
      if (ctx.json) ctx.printJson({ table: table.label, row, values: Object.fromEntries(table.columns.map((c, i) => [c.label, sd2JsonValue(values[i] as never, c.typeId)])) });
      else {
        ctx.out(`${table.label} row ${row}`);
        table.columns.forEach((c, i) => ctx.out(`  ${c.label.padEnd(28)} ${c.type.name.padEnd(13)} ${show(values[i], c.typeId)}`));
      }
      return 0;
    }
    const offset = int(ctx, 'offset', 0);
    const limit = ctx.options['schema'] ? 0 : int(ctx, 'limit', 20);
    const end = Math.min(table.rowCount, offset + limit);
    const rows: unknown[][] = [];
    for (let r = offset; r < end; r++) rows.push(rowValues(r).map((v, c) => sd2JsonValue(v as never, table.columns[c]!.typeId)));
    if (ctx.json) {
      ctx.printJson({ table: table.label, id: hex32(table.id), rowCount: table.rowCount, numBytes: table.raw.numBytes, numUsedBytes: table.raw.numUsedBytes, nullableBytes: table.raw.nullableBytes, columns, offset, rows });
      return 0;
    }
    ctx.out(`${table.label} (${hex32(table.id)}): ${table.rowCount} rows of ${table.raw.numBytes} bytes`);
    for (const c of columns) ctx.out(`  #${String(c.index).padEnd(3)} ${c.id}  ${(c.name ?? '').padEnd(28)} ${c.type.padEnd(13)} @${c.start}${c.nullableIndex !== null ? `  null bit ${c.nullableIndex}` : ''}`);
    if (limit > 0) {
      ctx.out('');
      ctx.out(['_row', ...table.columns.map((c) => c.label)].join('\t'));
      rows.forEach((r, i) => ctx.out([offset + i, ...r.map((v) => JSON.stringify(v))].join('\t')));
      if (end < table.rowCount) ctx.out(`… ${table.rowCount - end} more (--offset ${end})`);
    }
    return 0;
  },
};

const findCmd: Command = {
  path: ['sd2', 'find'],
  summary: 'typed search across tables; prints table:row:column (exit 1 when nothing matches)',
  usage: 'FILE VALUE',
  minArgs: 2,
  maxArgs: 2,
  options: {
    ...namesOption,
    type: { type: 'string', valueName: 'KIND', description: 'auto (default), string, int or float' },
    table: { type: 'string', multiple: true, valueName: 'TABLE', description: 'search only this table (repeatable)' },
    exact: { type: 'boolean', description: 'strings: whole-value match' },
    'case-sensitive': { type: 'boolean', description: 'strings: match case' },
    limit: { type: 'string', valueName: 'N', description: 'stop after N hits (default 1000)' },
  },
  run(ctx) {
    const kind = (str(ctx, 'type') ?? 'auto') as Sd2SearchKind;
    if (!['auto', 'string', 'int', 'float'].includes(kind)) throw new UsageError(`--type must be auto, string, int or float`);
    const db = openDb(ctx);
    const tables = list(ctx, 'table');
    const result = searchSd2(db, { value: ctx.args[1]!, kind, exact: ctx.options['exact'] === true, caseSensitive: ctx.options['case-sensitive'] === true, limit: int(ctx, 'limit', 1000), ...(tables.length ? { tables } : {}) });
    const typeOf = (h: (typeof result.hits)[number]) => db.tableAt(h.tableIndex).columns[h.columnIndex]!.typeId;
    if (ctx.json) ctx.printJson({ truncated: result.truncated, hits: result.hits.map((h) => ({ ref: h.ref, table: h.table, row: h.row, column: h.column, value: sd2JsonValue(h.value, typeOf(h)) })) });
    else {
      for (const h of result.hits) ctx.out(`${h.ref}\t${show(h.value, typeOf(h))}`);
      if (result.truncated) ctx.err(`(stopped after ${result.hits.length} hits; raise --limit)`);
    }
    return result.hits.length > 0 ? 0 : 1;
  },
};

const namesCmd: Command = {
  path: ['sd2', 'names'],
  summary: 'name coverage (named/unnamed tables and columns), collisions and list entries that do not hash to their key',
  usage: 'FILE',
  minArgs: 1,
  maxArgs: 1,
  options: { ...namesOption, unnamed: { type: 'boolean', description: 'list every unnamed id' } },
  run(ctx) {
    const db = openDb(ctx);
    const cov = sd2NameCoverage(db);
    const mismatches = db.names.mismatches;
    if (ctx.json) {
      ctx.printJson({
        dictionary: db.names.size,
        tables: { total: cov.tables.total, named: cov.tables.named, unnamed: cov.tables.unnamed.map(hex32) },
        columns: { total: cov.columns.total, named: cov.columns.named, unnamedIds: cov.columns.unnamedIds.map(hex32) },
        collisions: cov.collisions.map((c) => ({ id: hex32(c.id), kind: c.kind, names: c.names })),
        mismatches,
      });
      return 0;
    }
    const pct = (a: number, b: number): string => (b ? ((100 * a) / b).toFixed(1) : '100.0') + '%';
    ctx.out(`dictionary    ${db.names.size} hashes`);
    ctx.out(`tables        ${cov.tables.named}/${cov.tables.total} named (${pct(cov.tables.named, cov.tables.total)})`);
    ctx.out(`columns       ${cov.columns.named}/${cov.columns.total} named (${pct(cov.columns.named, cov.columns.total)}), ${cov.columns.unnamedIds.length} distinct unnamed ids`);
    for (const c of cov.collisions) ctx.out(`collision     ${hex32(c.id)} ${c.kind}: ${c.names.join(' | ')}`);
    for (const m of mismatches) ctx.out(`mismatch      ${m.source}: ${JSON.stringify(m.name)} listed under ${m.key} hashes to ${hex32(m.hash)}`);
    if (ctx.options['unnamed']) {
      for (const id of cov.tables.unnamed) ctx.out(`unnamed table ${hex32(id)}`);
      for (const id of cov.columns.unnamedIds) ctx.out(`unnamed column ${hex32(id)}`);
    }
    return 0;
  },
};

const crackCmd: Command = {
  path: ['sd2', 'crack'],
  summary: 'propose names for unnamed ids (dictionary, namespace::Table, snake/camel token permutations, words from the file\'s strings)',
  usage: 'FILE',
  minArgs: 1,
  maxArgs: 1,
  options: {
    ...namesOption,
    words: { type: 'string', multiple: true, valueName: 'FILE', description: 'extra dictionary (one word or name per line); repeatable' },
    namespace: { type: 'string', multiple: true, valueName: 'NS', description: 'namespace to combine with table words (repeatable; default: those of known names)' },
    'max-tokens': { type: 'string', valueName: 'N', description: 'longest token combination (default 2)' },
    budget: { type: 'string', valueName: 'N', description: 'stop after N hashes (default 50000000)' },
    'no-harvest': { type: 'boolean', description: 'do not take words from the file\'s strings' },
    ...writeOptions,
  },
  run(ctx) {
    const db = openDb(ctx);
    const { tables, columns } = unnamedSd2Ids(db, db.names);
    // The user's words first: their namespaces are tried before those of the loaded name lists.
    const words: string[] = [];
    for (const f of list(ctx, 'words')) words.push(...readFileSync(ctx.resolvePath(f), 'utf8').split(/\r?\n/).map((w) => w.trim()).filter(Boolean));
    for (const e of db.names.entries()) words.push(...e.names);
    if (ctx.options['no-harvest'] !== true) words.push(...harvestSd2Words(db));
    const namespaces = list(ctx, 'namespace');
    const result = crackSd2Names({ targets: [...tables, ...columns], words, maxTokens: int(ctx, 'max-tokens', 2), budget: int(ctx, 'budget', 50_000_000), ...(namespaces.length ? { namespaces } : {}) });
    const found = new Sd2Names();
    for (const h of result.hits) found.add(h.name, h.method);
    const out = str(ctx, 'out');
    if (out !== undefined) writeFileAtomic(ctx.resolvePath(out), found.toText(), { overwrite: ctx.options['force'] === true });
    const tableSet = new Set(tables);
    if (ctx.json) ctx.printJson({ targets: { tables: tables.length, columns: columns.length }, tried: result.tried, complete: result.complete, vocabulary: result.vocabulary, expectedFalseHits: result.expectedFalseHits, hits: result.hits.map((h) => ({ id: hex32(h.id), name: h.name, kind: tableSet.has(h.id) ? 'table' : 'column', method: h.method })) });
    else {
      for (const h of result.hits) ctx.out(`${hex32(h.id)}\t${tableSet.has(h.id) ? 'table' : 'column'}\t${h.name}\t(${h.method})`);
      ctx.err(`${result.hits.length} candidate(s) for ${tables.length} unnamed table(s) and ${columns.length} unnamed column id(s); ${result.tried} hashes${result.complete ? '' : ' (budget reached)'}, ~${result.expectedFalseHits.toFixed(1)} hit(s) expected by chance: review before trusting${out ? `; written to ${out}` : ''}`);
    }
    return 0;
  },
};

function tableFileName(t: StaticDbTable): string {
  return t.label.replace(/::/g, '.').replace(/[^A-Za-z0-9._-]/g, '_') + '.csv';
}

function concatChunks(chunks: Iterable<string>): Uint8Array {
  const enc = new TextEncoder();
  const parts: Uint8Array[] = [];
  let total = 0;
  let pending: string[] = [];
  let pendingLength = 0;
  const flush = (): void => {
    const b = enc.encode(pending.join(''));
    parts.push(b);
    total += b.length;
    pending = [];
    pendingLength = 0;
  };
  for (const c of chunks) {
    pending.push(c);
    pendingLength += c.length;
    if (pendingLength > 1 << 24) flush();
  }
  flush();
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const exportCmd: Command = {
  path: ['sd2', 'export'],
  summary: 'export to JSON (re-importable by `sd2 pack`), CSV (one file per table) or SQLite',
  usage: 'FILE',
  minArgs: 1,
  maxArgs: 1,
  options: {
    ...namesOption,
    format: { type: 'string', valueName: 'FMT', description: 'json (default), csv or sqlite' },
    table: { type: 'string', multiple: true, valueName: 'TABLE', description: 'export only this table (repeatable)' },
    ...writeOptions,
  },
  details: 'json: one file (-o, or stdout when omitted); csv: -o names a folder that receives <namespace>.<Table>.csv per table; sqlite: -o names the database file.',
  run(ctx) {
    const format = str(ctx, 'format') ?? 'json';
    const db = openDb(ctx);
    const only = list(ctx, 'table');
    const tables = only.length ? only.map((t) => db.table(t)) : db.tables();
    const out = str(ctx, 'out');
    const force = ctx.options['force'] === true;
    if (format === 'json') {
      const chunks = sd2JsonChunks(db, only.length ? { tables: only } : {});
      if (out === undefined) for (const c of chunks) ctx.io.stdout(c);
      else writeFileAtomic(ctx.resolvePath(out), concatChunks(chunks), { overwrite: force });
      return 0;
    }
    if (out === undefined) throw new UsageError(`--format ${format} needs -o`);
    const target = ctx.resolvePath(out);
    if (format === 'csv') {
      mkdirSync(target, { recursive: true });
      const files: string[] = [];
      tables.forEach((t, i) => {
        progress(ctx, `csv ${i + 1}/${tables.length} ${t.label}`);
        const path = safeJoin(target, tableFileName(t));
        writeFileAtomic(path, concatChunks(sd2CsvChunks(t)), { overwrite: force, backup: false });
        files.push(path);
      });
      progressDone(ctx);
      if (ctx.json) ctx.printJson({ files });
      else ctx.err(`${files.length} CSV file(s) in ${target}`);
      return 0;
    }
    if (format === 'sqlite') {
      if (existsSync(target) && !force) throw new UsageError(`refusing to overwrite ${target} (pass --force; a .bak is kept)`);
      const temp = scryTempPath(target);
      const sqlite = new Database(temp);
      try {
        sqlite.pragma('journal_mode = OFF');
        sqlite.pragma('synchronous = OFF');
        exportSd2Sql(db, sqliteSink(sqlite), { tables: tables.map((t) => t.index).map((i) => `#${i}`), onTable: (t, i, n) => progress(ctx, `sqlite ${i + 1}/${n} ${t.label}`) });
        sqlite.close();
      } catch (e) {
        sqlite.close();
        unlinkSync(temp);
        throw e;
      }
      progressDone(ctx);
      replaceFileAtomic(temp, target, { overwrite: true, backup: true });
      if (ctx.json) ctx.printJson({ file: target, tables: tables.length });
      else ctx.err(`${tables.length} table(s) in ${target}`);
      return 0;
    }
    throw new UsageError(`--format must be json, csv or sqlite, got ${JSON.stringify(format)}`);
  },
};

const sqlCmd: Command = {
  path: ['sd2', 'sql'],
  summary: 'run SQL over the database (tables named by label, e.g. "dbitems::Weapons"; `_row` is the row index)',
  usage: 'FILE QUERY',
  minArgs: 2,
  maxArgs: 2,
  options: { ...namesOption, all: { type: 'boolean', description: 'load every table (default: only tables whose label appears in the query)' } },
  run(ctx) {
    const db = openDb(ctx);
    const query = ctx.args[1]!;
    const lower = query.toLowerCase();
    const tables = ctx.options['all'] ? db.tables() : db.tables().filter((t) => lower.includes(t.label.toLowerCase()));
    const sqlite = new Database(':memory:');
    try {
      exportSd2Sql(db, sqliteSink(sqlite), { tables: tables.map((t) => `#${t.index}`), onTable: (t, i, n) => progress(ctx, `loading ${i + 1}/${n} ${t.label}`) });
      progressDone(ctx);
      const stmt = sqlite.prepare(query);
      if (!stmt.reader) {
        const info = stmt.run();
        if (ctx.json) ctx.printJson({ changes: info.changes });
        else ctx.err(`${info.changes} change(s) (in the in-memory copy; the sd2 file is not modified)`);
        return 0;
      }
      stmt.safeIntegers(true);
      const rows = stmt.all() as Record<string, unknown>[];
      if (ctx.json) ctx.printJson(rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'bigint' && v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v]))));
      else {
        const cols = stmt.columns().map((c) => c.name);
        ctx.out(cols.join('\t'));
        for (const r of rows) ctx.out(cols.map((c) => { const v = r[c]; return v === null ? 'NULL' : Buffer.isBuffer(v) ? v.toString('hex') : String(v); }).join('\t'));
      }
      return 0;
    } catch (e) {
      if (e instanceof Error && e.constructor.name === 'SqliteError') throw new UsageError(`sql: ${e.message}`);
      throw e;
    } finally {
      sqlite.close();
    }
  },
};

const setCmd: Command = {
  path: ['sd2', 'set'],
  summary: 'set one cell (ROW = index or key:VALUE; VALUE as JSON: 12, 1.5, [1,2,3], null; text for strings; hex for bytes)',
  usage: 'FILE TABLE ROW COLUMN VALUE',
  minArgs: 5,
  maxArgs: 5,
  options: { ...namesOption, ...writeOptions },
  run(ctx) {
    const db = openDb(ctx);
    const [, tableRef, rowRef, columnRef, valueText] = ctx.args as [string, string, string, string, string];
    const table = db.table(tableRef);
    const row = resolveRow(table, rowRef);
    const column = table.column(columnRef);
    const before = table.cell(row, column.index);
    db.setCell(table, row, column.index, parseCliValue(valueText, column.typeId));
    const after = table.cell(row, column.index);
    const path = writeDb(ctx, db.write({ deflate: zlibDeflate }));
    if (ctx.json) ctx.printJson({ ref: `${table.label}:${row}:${column.label}`, before: sd2JsonValue(before, column.typeId), after: sd2JsonValue(after, column.typeId), file: path });
    else ctx.err(`${table.label}:${row}:${column.label}: ${show(before, column.typeId)} → ${show(after, column.typeId)}; written to ${path}`);
    return 0;
  },
};

const subsetCmd: Command = {
  path: ['sd2', 'subset'],
  summary: 'keep only the named tables (and the pool entries they use)',
  usage: 'FILE TABLE…',
  minArgs: 1,
  options: { ...namesOption, ...writeOptions, 'tables-from': { type: 'string', valueName: 'FILE', description: 'table names or ids, one per line' } },
  run(ctx) {
    const db = openDb(ctx);
    const refs = ctx.args.slice(1);
    const from = str(ctx, 'tables-from');
    if (from) refs.push(...readFileSync(ctx.resolvePath(from), 'utf8').split(/\r?\n/).map((l) => l.trim()).filter((l) => l && !l.startsWith('#')));
    if (refs.length === 0) throw new UsageError('name at least one table');
    const sub = db.subset(refs);
    const bytes = sub.write({ deflate: zlibDeflate });
    const path = writeDb(ctx, bytes, false);
    const rows = sub.tables().reduce((n, t) => n + t.rowCount, 0);
    if (ctx.json) ctx.printJson({ file: path, tables: sub.tableCount, rows, bytes: bytes.length });
    else ctx.err(`${sub.tableCount} table(s), ${rows} row(s), ${bytes.length} bytes written to ${path}`);
    return 0;
  },
};

const packCmd: Command = {
  path: ['sd2', 'pack'],
  summary: 'write an sd2 from a JSON export or re-encode an sd2 (other file/memory version, canonical pool)',
  usage: 'INPUT',
  minArgs: 1,
  maxArgs: 1,
  options: {
    ...namesOption,
    ...writeOptions,
    'file-version': { type: 'string', valueName: 'N', description: 'file version to write (7, 11, 12)' },
    'memory-version': { type: 'string', valueName: 'N', description: 'memory version to write (1000, 1002)' },
    flags: { type: 'string', valueName: 'N', description: 'header flags to write (e.g. 13)' },
    'set-patch': { type: 'string', valueName: 'NAME', description: 'patch name to write (re-keys the payload)' },
    compact: { type: 'boolean', description: 'rebuild the pool (exact-bytes dedup) and lay rows out canonically' },
    'short-keys': { type: 'boolean', description: 'with --compact: short-form pool keys where they fit (FauFau never writes them)' },
    level: { type: 'string', valueName: 'N', description: 'deflate level 0-9 (default 1)' },
  },
  run(ctx) {
    const input = readInputFile(ctx.resolvePath(ctx.args[0]!), 'sd2', ctx.args[0]!);
    let db: StaticDb;
    if (isSd2(input)) db = StaticDb.open(input, openOptions(ctx));
    else db = importSd2Json(utf8Decode(input));
    const mv = str(ctx, 'memory-version');
    if (mv !== undefined) {
      if (mv !== '1000' && mv !== '1002') throw new UsageError('--memory-version must be 1000 or 1002');
      db = db.withMemoryVersion(Number(mv) as 1000 | 1002);
    } else if (ctx.options['compact']) db = db.compact({ shortKeys: ctx.options['short-keys'] === true });
    const flags = str(ctx, 'flags');
    let newFlags: number | undefined;
    if (flags !== undefined) {
      newFlags = Number(flags);
      if (!Number.isInteger(newFlags) || newFlags < 0 || newFlags > 0xffffffff) throw new UsageError('--flags needs an integer');
      db = db.withFlags(newFlags);
    }
    const base = db.toFile();
    const file: Sd2File = { ...base, header: { ...base.header }, compression: { ...base.compression } };
    const fv = str(ctx, 'file-version');
    if (fv !== undefined) file.header.fileVersion = Number(fv);
    const setPatch = str(ctx, 'set-patch');
    if (setPatch !== undefined) file.header.patch = setPatch;
    const level = int(ctx, 'level', 1);
    // An asked level re-deflates even an unchanged image (otherwise the original stream is reused as it is).
    const reuseCompressed = str(ctx, 'level') === undefined;
    const bytes = writeSd2(file, { level, reuseCompressed, deflate: zlibDeflate, ...(ctx.options['compact'] ? { layout: 'canonical' as const } : {}) });
    const path = writeDb(ctx, bytes, false);
    if (ctx.json) ctx.printJson({ file: path, bytes: bytes.length, fileVersion: file.header.fileVersion, memoryVersion: file.image.memoryVersion });
    else ctx.err(`${bytes.length} bytes (file version ${file.header.fileVersion}, memory version ${file.image.memoryVersion}) written to ${path}`);
    return 0;
  },
};

const diffCmd: Command = {
  path: ['sd2', 'diff'],
  summary: 'semantic diff of two databases: tables, columns, rows (by first-column key), cells (exit 1 when they differ)',
  usage: 'OLD NEW',
  minArgs: 2,
  maxArgs: 2,
  options: { ...namesOption, limit: { type: 'string', valueName: 'N', description: 'at most N rows/cells listed per table (default 1000)' } },
  run(ctx) {
    const a = openDb(ctx, ctx.args[0]!);
    const b = openDb(ctx, ctx.args[1]!);
    const d = diffSd2(a, b, { limit: int(ctx, 'limit', 1000) });
    if (ctx.json) ctx.printJson(d);
    else {
      for (const t of d.tablesAdded) ctx.out(`+ table ${t}`);
      for (const t of d.tablesRemoved) ctx.out(`- table ${t}`);
      for (const t of d.tables) {
        ctx.out(`~ table ${t.table}`);
        for (const c of t.columnsAdded) ctx.out(`  + column ${c}`);
        for (const c of t.columnsRemoved) ctx.out(`  - column ${c}`);
        for (const c of t.columnsRetyped) ctx.out(`  ~ column ${c}`);
        for (const r of t.rowsAdded) ctx.out(`  + row ${r}`);
        for (const r of t.rowsRemoved) ctx.out(`  - row ${r}`);
        for (const c of t.cellsChanged) ctx.out(`  ~ ${c.row}:${c.column} ${JSON.stringify(c.before)} → ${JSON.stringify(c.after)}`);
        if (t.truncated) ctx.out('  … (raise --limit)');
      }
    }
    return d.different ? 1 : 0;
  },
};

export const sd2Commands: Command[] = [info, tablesCmd, showCmd, findCmd, namesCmd, crackCmd, exportCmd, sqlCmd, setCmd, subsetCmd, packCmd, diffCmd];
