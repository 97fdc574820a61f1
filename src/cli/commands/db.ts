/**
 * `scry db …`: the engine's view of a GADB database (`.gamedb`, `.fxp`, `.bvr`), thin over `src/gamedb`.
 * Every command takes `--json`; names of categories, records and fields are hashed with the table `resolveLut`
 * picks (`--lut FILE`, the saved calibrated table, or the built-in one).
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { UsageError, type Issue } from '../../binary/errors.ts';
import { parseGadbWithLayout, verifyGadb, writeGadb } from '../../formats/gadb/index.ts';
import { Database, DbRecord, Field, type FieldValue } from '../../gamedb/database.ts';
import { formatValue, quoteText, recordRef, valueToJson } from '../../gamedb/format.ts';
import { formatHash, type NameDictionary } from '../../gamedb/names.ts';
import type { P919Table } from '../../hash/p919.ts';
import { searchDatabase } from '../../gamedb/search.ts';
import { crackGadbFieldNames, fieldNameCoverage, gadbVocabulary, unnamedFieldHashes } from '../../gamedb/crack.ts';
import { summarizeDatabase } from '../../gamedb/summary.ts';
import { loadGadbNames, nameReportWarnings, userConfigDir } from '../../node/names.ts';
import { writeFileAtomic } from '../../node/fs.ts';
import { ExitCode, type Command, type CommandContext, type OptionSpec } from '../command.ts';
import { resolveLut } from './hash.ts';
import { readInputFile } from '../input.ts';

/** `--names FILE` of every `db` command that shows or takes field names. */
export const namesOption: Record<string, OptionSpec> = {
  names: { type: 'string', multiple: true, valueName: 'FILE', description: 'field-name list (one name, or 0xHASH<TAB>name, per line); repeatable; also every *.txt in ~/.config/scry/names/' },
};

/**
 * The field-name dictionary of a `db` command: the shipped names, the user's config folder (`src/node/names.ts`)
 * and every `--names FILE`; lines that were skipped are reported on stderr.
 */
export function commandNames(ctx: CommandContext, table: P919Table): NameDictionary {
  const extra = ctx.options['names'];
  const files = (Array.isArray(extra) ? extra : []).map((f) => ctx.resolvePath(f));
  const { names, reports } = loadGadbNames({ table, files, configDir: userConfigDir(ctx.io.env) });
  for (const r of reports) for (const w of nameReportWarnings(r)) ctx.err(w);
  return names;
}

interface Opened {
  db: Database;
  bytes: Uint8Array;
  path: string;
}

function openDb(ctx: CommandContext, file: string): Opened {
  const path = ctx.resolvePath(file);
  const bytes = readInputFile(path, 'gadb', file);
  const table = resolveLut(ctx);
  return { db: Database.open(bytes, { table, names: commandNames(ctx, table) }), bytes, path };
}

const n = (x: number) => x.toLocaleString('en-US');
const plural = (x: number, one: string, many = one + 's') => `${n(x)} ${x === 1 ? one : many}`;

/** Pads a table's columns (right-aligns numeric-looking cells). */
function table(rows: string[][], rightAlign: boolean[] = []): string[] {
  const widths: number[] = [];
  for (const r of rows) r.forEach((c, i) => (widths[i] = Math.max(widths[i] ?? 0, c.length)));
  return rows.map((r) => r.map((c, i) => (i === r.length - 1 && !rightAlign[i] ? c : rightAlign[i] ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ').trimEnd());
}

function intOption(ctx: CommandContext, name: string, fallback: number): number {
  const v = ctx.options[name];
  if (v === undefined) return fallback;
  const x = Number(v);
  if (typeof v !== 'string' || !/^\d+$/.test(v) || !Number.isSafeInteger(x)) throw new UsageError(`--${name} must be a non-negative integer, got ${JSON.stringify(v)}`);
  return x;
}

// ------------------------------------------------------------------ info

const info: Command = {
  path: ['db', 'info'],
  summary: 'summary of a GADB database: container, counts, runs, links, shared values, field types',
  usage: 'FILE',
  minArgs: 1,
  maxArgs: 1,
  options: namesOption,
  run(ctx) {
    const { db, bytes, path } = openDb(ctx, ctx.args[0]!);
    const s = summarizeDatabase(db);
    if (ctx.json) {
      ctx.printJson({ file: path, bytes: bytes.length, ...s });
      return ExitCode.Ok;
    }
    const types = Object.entries(s.descriptorTypes)
      .sort((a, b) => b[1] - a[1])
      .map(([t, c]) => `${t} ${n(c)}`)
      .join(', ');
    ctx.out(`${basename(path)}: GADB v${s.version} database "${s.rootName}" (${s.container}), ${n(bytes.length)} bytes`);
    const rows = [
      ['categories', n(s.categories)],
      ['records', `${n(s.records)} (${n(s.primaries)} primaries, ${n(s.secondaries)} secondaries, ${n(s.zeroFieldRecords)} zero-field)`],
      ['names', `${n(s.recordNames.distinct)} distinct record names, ${n(s.recordNames.inSeveralCategories)} of them in several categories; ${plural(s.placeholders, 'DEFAULT_RECORD_NAME placeholder')}`],
      ...(s.structureCategories.total > 0 ? [['structures', `${plural(s.structureCategories.total, '_Structures* category', '_Structures* categories')}, ${n(s.structureCategories.withPrimaries)} holding primaries`]] : []),
      ['descriptors', `${n(s.descriptors)} in ${plural(s.runs, 'run')}`],
      ['cells', n(s.cells)],
      ['string block', `${n(s.stringBlockBytes)} bytes, ${plural(s.stringBlockItems, 'item')}; ${plural(s.blockValues.cells, 'cell')} point at ${plural(s.blockValues.distinct, 'value')}, ${n(s.blockValues.sharedCells)} of those cells share theirs`],
      ['links', `${plural(s.links.cells, 'cell')}: ${n(s.links.null)} null, ${n(s.links.toPrimary)} to primaries, ${n(s.links.toSecondary)} to secondaries${s.links.unresolved ? `, ${n(s.links.unresolved)} out of range` : ''}`],
      ['field types', types],
      ['header', `record count ${n(s.header.recordCount)}, +0x14 ${n(s.header.unk14)}, +0x20 ${formatHash(s.header.unk20)}, +0x24 ${n(s.header.unk24)}; ${plural(s.pairTableEntries, 'pair')} in the trailer`],
      ['largest', s.largestCategories.map((c) => `${c.name} ${n(c.records)}`).join(', ')],
    ];
    for (const line of table(rows)) ctx.out('  ' + line);
    return ExitCode.Ok;
  },
};

// ------------------------------------------------------------------ ls

function recordRow(r: DbRecord): string[] {
  const refs = r.db.referenceCount(r);
  return [`#${r.indexInCategory}`, r.name ?? '(primary)', r.nameHash === undefined ? '' : formatHash(r.nameHash), String(r.descriptorCount), String(r.cellCount), refs ? `<- ${refs}` : ''];
}

function recordJson(r: DbRecord) {
  return { ...recordRef(r), index: r.indexInCategory, primary: r.isPrimary, nameHash: r.nameHash ?? null, fields: r.descriptorCount, cells: r.cellCount, referencedBy: r.db.referenceCount(r) };
}

const ls: Command = {
  path: ['db', 'ls'],
  summary: 'list the categories, or the records of one category (paged)',
  usage: 'FILE [CATEGORY] [--all] [--offset N] [--limit N]',
  minArgs: 1,
  maxArgs: 2,
  options: {
    ...namesOption,
    all: { type: 'boolean', short: 'a', description: 'list every category with its records' },
    offset: { type: 'string', valueName: 'N', description: 'first record to list (default 0)' },
    limit: { type: 'string', valueName: 'N', description: 'records to list per category (default 100)' },
  },
  run(ctx) {
    const { db } = openDb(ctx, ctx.args[0]!);
    const offset = intOption(ctx, 'offset', 0);
    const limit = intOption(ctx, 'limit', 100);
    const header = ['#', 'record', 'name hash', 'fields', 'cells', 'refs'];
    if (ctx.args[1] !== undefined) {
      const cat = db.category(ctx.args[1]);
      const page = cat.records(offset, limit);
      if (ctx.json) {
        ctx.printJson({ category: cat.name, ordinal: cat.ordinal, records: cat.recordCount, offset, items: page.map(recordJson) });
        return ExitCode.Ok;
      }
      ctx.out(`${cat.name}: ${plural(cat.recordCount, 'record')} (${n(cat.primaryCount)} primaries), sort key ${formatHash(cat.sortKey)}, ordinal ${cat.ordinal}`);
      for (const line of table([header, ...page.map(recordRow)], [true, false, false, true, true, false])) ctx.out('  ' + line);
      if (offset + page.length < cat.recordCount) ctx.out(`  … ${n(cat.recordCount - offset - page.length)} more (--offset ${offset + page.length})`);
      return ExitCode.Ok;
    }
    const all = ctx.options['all'] === true;
    if (ctx.json) {
      ctx.printJson(
        db.categories.map((c) => ({
          ordinal: c.ordinal,
          name: c.name,
          typeName: c.typeName,
          sortKey: c.sortKey,
          primaries: c.primaryCount,
          secondaries: c.secondaryCount,
          fields: c.firstRecordWithFields()?.descriptorCount ?? 0,
          ...(all ? { items: c.records(offset, limit).map(recordJson) } : {}),
        })),
      );
      return ExitCode.Ok;
    }
    if (!all) {
      const rows = [['ord', 'sort key', 'records', 'prim', 'fields', 'category']];
      for (const c of db.categories) {
        rows.push([String(c.ordinal), formatHash(c.sortKey), n(c.recordCount), n(c.primaryCount), String(c.firstRecordWithFields()?.descriptorCount ?? 0), c.typeName !== c.name ? `${c.name} (${c.typeName})` : c.name]);
      }
      for (const line of table(rows, [true, false, true, true, true, false])) ctx.out(line);
      return ExitCode.Ok;
    }
    // One table for every record, so columns line up across categories; category lines in between.
    const pages = db.categories.map((c) => c.records(offset, limit));
    const lines = table([header, ...pages.flat().map(recordRow)], [true, false, false, true, true, false]);
    ctx.out('    ' + lines[0]);
    let at = 1;
    db.categories.forEach((c, i) => {
      const fields = c.firstRecordWithFields()?.descriptorCount ?? 0;
      ctx.out(`${c.name}${c.typeName !== c.name ? ` (${c.typeName})` : ''}  [ordinal ${c.ordinal}, key ${formatHash(c.sortKey)}, ${plural(c.recordCount, 'record')}${c.primaryCount ? ` (${n(c.primaryCount)} primaries)` : ''}, ${plural(fields, 'field')}]`);
      for (const _ of pages[i]!) ctx.out('    ' + lines[at++]);
      if (offset + pages[i]!.length < c.recordCount) ctx.out(`    … ${n(c.recordCount - offset - pages[i]!.length)} more`);
    });
    return ExitCode.Ok;
  },
};

// ------------------------------------------------------------------ show

function fieldJson(f: Field) {
  const values = [];
  for (let i = 0; i < f.count; i++) {
    const shared = f.sharedCount(i);
    values.push(shared === undefined ? valueToJson(f.value(i), f.type) : { value: valueToJson(f.value(i), f.type), sharedBy: shared });
  }
  return { field: f.label, hash: f.hash, type: f.typeName, count: f.count, link: f.link, values };
}

/** Elements `db show` prints per array field (`db get` prints them all). */
const SHOW_ELEMENTS = 8;

function fieldText(f: Field): string {
  if (f.count === 0) return '(no value: count 0)';
  const parts: string[] = [];
  for (let i = 0; i < Math.min(f.count, SHOW_ELEMENTS); i++) {
    const shared = f.sharedCount(i);
    parts.push(formatValue(f.value(i), f.type) + (shared !== undefined && shared > 1 ? ` [shared ×${n(shared)}]` : ''));
  }
  if (f.count > SHOW_ELEMENTS) parts.push(`… ${n(f.count - SHOW_ELEMENTS)} more (scry db get)`);
  return f.count === 1 ? parts[0]! : `[${f.count}] ${parts.join(', ')}`;
}

const show: Command = {
  path: ['db', 'show'],
  summary: 'one record: header, every field with its decoded value, shared values, incoming links',
  usage: 'FILE CATEGORY RECORD',
  details: 'RECORD is a name, a 0x… name hash, or #N (record N of the category in link order; primaries have no name).',
  minArgs: 3,
  maxArgs: 3,
  options: namesOption,
  run(ctx) {
    const { db } = openDb(ctx, ctx.args[0]!);
    const r = db.getRecord(ctx.args[1]!, ctx.args[2]!);
    const fields = r.fields();
    if (ctx.json) {
      ctx.printJson({ ...recordJson(r), firstDescriptor: r.firstDescriptor, flags: r.flags, nativeStructure: r.isNativeStructure, fieldList: fields.map(fieldJson) });
      return ExitCode.Ok;
    }
    ctx.out(`${r.path}  (record ${r.indexInCategory} of ${r.category.name}, link ${formatHash(r.linkValue)}${r.nameHash !== undefined ? `, name hash ${formatHash(r.nameHash)}` : ''})`);
    ctx.out(`  ${plural(r.descriptorCount, 'field')}, ${plural(r.cellCount, 'cell')}, first descriptor ${r.firstDescriptor}, flags 0x${r.flags.toString(16).padStart(2, '0')}; referenced by ${plural(db.referenceCount(r), 'link')}`);
    if (r.isNativeStructure) ctx.out('  flag 0x10: a native-structure record; the engine does not read it by the slot rule, so these values are a guess [H-REC-FLAGS]');
    const rows = [['field', 'type', 'n', 'link', 'value'], ...fields.map((f) => [f.label, f.typeName, String(f.count), String(f.link), fieldText(f)])];
    for (const line of table(rows, [false, false, true, true, false])) ctx.out('  ' + line);
    return ExitCode.Ok;
  },
};

// ------------------------------------------------------------------ get

const get: Command = {
  path: ['db', 'get'],
  summary: 'the decoded value of one field (all elements, or element I)',
  usage: 'FILE CATEGORY RECORD FIELD [--index I]',
  details:
    'FIELD is a name (hashed with P919) or a 0x… hash. By the slot rule element I exists only for I < count; a field with count 0 has no value. Exit 1 when there is no value.',
  minArgs: 4,
  maxArgs: 4,
  options: { ...namesOption, index: { type: 'string', valueName: 'I', description: 'element index (default: every element; a scalar prints bare)' } },
  run(ctx) {
    const { db } = openDb(ctx, ctx.args[0]!);
    const r = db.getRecord(ctx.args[1]!, ctx.args[2]!);
    const f = r.field(ctx.args[3]!);
    if (!f) {
      ctx.err(`scry db get: ${r.path} has no field ${ctx.args[3]}`);
      if (ctx.json) ctx.printJson(null);
      return ExitCode.Findings;
    }
    const index = ctx.options['index'] === undefined ? undefined : intOption(ctx, 'index', 0);
    // A scalar (count 1) or one element prints bare; an array without --index prints every element.
    const list = index === undefined && f.count > 1 ? f.values() : undefined;
    const value: FieldValue | undefined = list ? undefined : f.value(index ?? 0);
    if (!list && value === undefined) {
      ctx.err(`scry db get: ${r.path} ${f.label} has no value${index !== undefined ? ` at element ${index}` : ''} (count ${f.count})`);
      if (ctx.json) ctx.printJson(null);
      return ExitCode.Findings;
    }
    if (ctx.json) ctx.printJson(list ? list.map((v) => valueToJson(v, f.type)) : valueToJson(value, f.type));
    else if (list) list.forEach((v, i) => ctx.out(`[${i}] ${formatValue(v, f.type)}`));
    else ctx.out(formatValue(value, f.type, Number.POSITIVE_INFINITY));
    return ExitCode.Ok;
  },
};

// ------------------------------------------------------------------ find

const find: Command = {
  path: ['db', 'find'],
  summary: 'search category, record and field names, hashes (0x… or P919 of TEXT) and string values',
  usage: 'FILE TEXT',
  minArgs: 2,
  maxArgs: 2,
  options: { ...namesOption, limit: { type: 'string', valueName: 'N', description: 'hits to show (default 200)' } },
  run(ctx) {
    const { db } = openDb(ctx, ctx.args[0]!);
    const result = searchDatabase(db, ctx.args[1]!, { limit: intOption(ctx, 'limit', 200) });
    if (ctx.json) {
      ctx.printJson({
        query: result.query,
        hash: result.hash ?? null,
        total: result.total,
        hits: result.hits.map((h) => {
          switch (h.kind) {
            case 'category':
              return { kind: h.kind, by: h.by, category: h.category.name, sortKey: h.category.sortKey };
            case 'record':
              return { kind: h.kind, by: h.by, ...recordRef(h.record) };
            case 'field':
              return { kind: h.kind, by: h.by, category: h.category.name, field: h.name ?? formatHash(h.hash), hash: h.hash };
            case 'value':
              return { kind: h.kind, ...recordRef(h.record), field: h.field.label, element: h.element, text: h.text };
          }
        }),
      });
      return result.total > 0 ? ExitCode.Ok : ExitCode.Findings;
    }
    const rows = result.hits.map((h) => {
      switch (h.kind) {
        case 'category':
          return ['category', h.by, h.category.name, formatHash(h.category.sortKey)];
        case 'record':
          return ['record', h.by, h.record.path, h.record.nameHash === undefined ? '' : formatHash(h.record.nameHash)];
        case 'field':
          return ['field', h.by, `${h.category.name} ${h.name ?? formatHash(h.hash)}`, formatHash(h.hash)];
        case 'value':
          return ['value', h.field.typeName, `${h.record.path} ${h.field.label}${h.field.count > 1 ? `[${h.element}]` : ''}`, quoteText(h.text)];
      }
    });
    for (const line of table(rows)) ctx.out(line);
    ctx.out(`${plural(result.total, 'hit')}${result.total > result.hits.length ? ` (${result.hits.length} shown; --limit N)` : ''}${result.hash !== undefined ? `; searched hash ${formatHash(result.hash)}` : ''}`);
    return result.total > 0 ? ExitCode.Ok : ExitCode.Findings;
  },
};

// ------------------------------------------------------------------ refs

const refs: Command = {
  path: ['db', 'refs'],
  summary: 'records whose RecordLinks name this record (referenced by), and the records it links to',
  usage: 'FILE CATEGORY RECORD',
  minArgs: 3,
  maxArgs: 3,
  options: namesOption,
  run(ctx) {
    const { db } = openDb(ctx, ctx.args[0]!);
    const r = db.getRecord(ctx.args[1]!, ctx.args[2]!);
    const incoming = r.referencedBy();
    const outgoing = r.links();
    if (ctx.json) {
      ctx.printJson({
        record: recordRef(r),
        referencedBy: incoming.map((x) => ({ ...recordRef(x.record), field: x.field.label, element: x.element })),
        linksTo: outgoing.map((x) => ({ field: x.field.label, element: x.element, raw: x.raw, target: x.target ? recordRef(x.target) : null })),
      });
      return ExitCode.Ok;
    }
    ctx.out(`${r.path}: referenced by ${plural(incoming.length, 'link')}`);
    for (const line of table(incoming.map((x) => [x.record.path, `${x.field.label}${x.field.count > 1 ? `[${x.element}]` : ''}`]))) ctx.out('  <- ' + line);
    ctx.out(`${r.path}: links to ${plural(outgoing.filter((x) => x.target).length, 'record')} (${n(outgoing.filter((x) => !x.target).length)} null)`);
    const resolved = outgoing.filter((x) => x.target);
    for (const line of table(resolved.map((x) => [`${x.field.label}${x.field.count > 1 ? `[${x.element}]` : ''}`, x.target!.path]))) ctx.out('  -> ' + line);
    return ExitCode.Ok;
  },
};

// ------------------------------------------------------------------ crack

const crack: Command = {
  path: ['db', 'crack'],
  summary: 'find names for unnamed field hashes: CamelCase combinations of the database\'s own words, known names and --words',
  usage: 'FILE [--words FILE] [--max-words N] [-o NAMES]',
  minArgs: 1,
  maxArgs: 1,
  details:
    'Words come from category, type and record names, String/StringEnum values (split at case changes, digits and _),\n' +
    'the known field names and --words lists. A hit is a name whose P919 equals an unnamed field hash (checked again in\n' +
    'full); a hash with two different candidates is listed as a collision, never picked. Output lines are a name list\n' +
    '(0xHASH<TAB>Name; # comments) to save and load with --names. Hits are guesses: a 32-bit hash also matches by chance.',
  options: {
    ...namesOption,
    words: { type: 'string', multiple: true, valueName: 'FILE', description: 'extra words or names, one per line; repeatable' },
    'max-words': { type: 'string', valueName: 'N', description: 'most words in a candidate (default 2; 3 tries far more and finds more chance hits)' },
    'max-vocabulary': { type: 'string', valueName: 'N', description: 'most words used, most frequent first (default 5000)' },
    budget: { type: 'string', valueName: 'N', description: 'stop after N candidates (default 100000000)' },
    output: { type: 'string', short: 'o', valueName: 'NAMES', description: 'also write the found names to NAMES (a name list; never over a file unless --force)' },
    force: { type: 'boolean', description: 'replace NAMES if it exists' },
  },
  run(ctx) {
    const { db } = openDb(ctx, ctx.args[0]!);
    const words: string[] = [];
    const extra = ctx.options['words'];
    for (const f of Array.isArray(extra) ? extra : []) words.push(...readFileSync(ctx.resolvePath(f), 'utf8').split(/\r?\n/).map((w) => w.replace(/#.*/, '').trim()).filter(Boolean));
    const before = fieldNameCoverage(db);
    const result = crackGadbFieldNames({
      targets: unnamedFieldHashes(db),
      vocabulary: gadbVocabulary(db, words),
      maxWords: intOption(ctx, 'max-words', 2),
      maxVocabulary: intOption(ctx, 'max-vocabulary', 5000),
      budget: intOption(ctx, 'budget', 100_000_000),
      table: db.table,
    });
    const after = before.named + result.hits.length;
    const pct = (x: number) => (before.fields === 0 ? '0' : ((100 * x) / before.fields).toFixed(1));
    const list = [
      `# scry db crack ${basename(ctx.args[0]!)}: ${n(result.hits.length)} name(s) found, ${n(result.collisions.length)} collision(s); guesses to review`,
      `# coverage: ${n(before.named)} of ${n(before.fields)} field hashes named (${pct(before.named)}%) before, ${n(after)} (${pct(after)}%) with these`,
      `# ${n(result.tried)} candidates from ${n(result.vocabulary)} words${result.complete ? '' : ' (budget reached: not every combination was tried)'}; ~${result.expectedFalseHits.toFixed(2)} hit(s) expected by chance`,
      ...result.hits.map((h) => `${formatHash(h.hash)}\t${h.name}`),
      ...result.collisions.map((c) => `# collision ${formatHash(c.hash)}: ${c.names.join(' | ')}`),
    ];
    const out = ctx.options['output'];
    if (typeof out === 'string') writeFileAtomic(ctx.resolvePath(out), list.join('\n') + '\n', { overwrite: ctx.options['force'] === true });
    if (ctx.json) {
      ctx.printJson({
        coverage: { fields: before.fields, namedBefore: before.named, namedAfter: after },
        hits: result.hits.map((h) => ({ hash: formatHash(h.hash), name: h.name, words: h.words })),
        collisions: result.collisions.map((c) => ({ hash: formatHash(c.hash), names: c.names })),
        tried: result.tried,
        complete: result.complete,
        vocabulary: result.vocabulary,
        expectedFalseHits: result.expectedFalseHits,
      });
    } else for (const line of list) ctx.out(line);
    return result.hits.length > 0 || result.collisions.length > 0 ? ExitCode.Ok : ExitCode.Findings;
  },
};

// ------------------------------------------------------------------ verify

function issueLine(i: Issue): string {
  const where = i.offset !== undefined ? `0x${i.offset.toString(16).toUpperCase().padStart(4, '0')} ` : '';
  return `${i.severity.padEnd(7)} ${where}${i.rule}${i.path ? ` ${i.path}` : ''}: ${i.message}${i.hypothesis ? ` [${i.hypothesis}]` : ''}`;
}

const verify: Command = {
  path: ['db', 'verify'],
  summary: 'check every invariant of the spec and the seed; findings with offsets and the hypothesis they concern (exit 1 when any)',
  usage: 'FILE',
  minArgs: 1,
  maxArgs: 1,
  run(ctx) {
    const path = ctx.resolvePath(ctx.args[0]!);
    const bytes = readInputFile(path, 'gadb', ctx.args[0]!);
    const issues = verifyGadb(bytes);
    const findings = issues.filter((i) => i.severity !== 'info');
    if (ctx.json) ctx.printJson({ file: path, findings: findings.length, issues });
    else {
      for (const i of issues) ctx.out(issueLine(i));
      ctx.out(`${basename(path)}: ${findings.length === 0 ? 'ok' : plural(findings.length, 'finding')}${issues.length > findings.length ? ` (${n(issues.length - findings.length)} info)` : ''}`);
    }
    return findings.length === 0 ? ExitCode.Ok : ExitCode.Findings;
  },
};

// ------------------------------------------------------------------ rebuild

function firstDifference(a: Uint8Array, b: Uint8Array): number {
  const len = Math.min(a.length, b.length);
  for (let i = 0; i < len; i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? -1 : len;
}

const rebuild: Command = {
  path: ['db', 'rebuild'],
  summary: 'parse and write the database again from the model (atomic; refuses to overwrite without --force, keeps .bak); exit 1 when the output differs from the input',
  usage: 'FILE -o OUT [--force]',
  minArgs: 1,
  maxArgs: 1,
  options: {
    output: { type: 'string', short: 'o', valueName: 'OUT', description: 'where to write the rebuilt file (required)' },
    force: { type: 'boolean', description: 'replace OUT if it exists (the old file is kept as OUT.bak)' },
  },
  run(ctx) {
    const out = ctx.options['output'];
    if (typeof out !== 'string') throw new UsageError('missing -o OUT');
    const path = ctx.resolvePath(ctx.args[0]!);
    const bytes = readInputFile(path, 'gadb', ctx.args[0]!);
    const { gadb } = parseGadbWithLayout(bytes);
    const rebuilt = writeGadb(gadb);
    const outPath = ctx.resolvePath(out);
    writeFileAtomic(outPath, rebuilt, { overwrite: ctx.options['force'] === true });
    const diff = firstDifference(bytes, rebuilt);
    if (ctx.json) ctx.printJson({ input: path, output: outPath, inputBytes: bytes.length, outputBytes: rebuilt.length, identical: diff < 0, firstDifference: diff < 0 ? null : diff });
    else if (diff < 0) ctx.out(`${basename(outPath)}: ${n(rebuilt.length)} bytes, byte-identical to ${basename(path)}`);
    else ctx.out(`${basename(outPath)}: ${n(rebuilt.length)} bytes; differs from ${basename(path)} (${n(bytes.length)} bytes) first at 0x${diff.toString(16).toUpperCase()}`);
    return diff < 0 ? ExitCode.Ok : ExitCode.Findings;
  },
};

export const dbCommands: Command[] = [info, ls, show, get, find, refs, crack, verify, rebuild];
