/** `scry hash …`: P919 of names and paths; calibration of the unknown table entries. */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { basename } from 'node:path';
import { UsageError } from '../../binary/errors.ts';
import { DEFAULT_P919_TABLE, p919, type P919Table } from '../../hash/p919.ts';
import { calibrateP919, parseP919Table, serializeP919Table } from '../../hash/calibrate.ts';
import { parseGadb } from '../../formats/gadb/index.ts';
import { writeFileAtomic } from '../../node/fs.ts';
import { hex32, latin1Decode } from '../../binary/text.ts';
import { ExitCode, type Command, type CommandContext } from '../command.ts';
import { readInputFile } from '../input.ts';

/** Where a calibrated table is kept for reuse when `--lut` is not given. */
export function userLutPath(env: Record<string, string | undefined>): string {
  const base = env['XDG_CONFIG_HOME'] || join(env['HOME'] || homedir(), '.config');
  return join(base, 'scry', 'p919-table.json');
}

/** The table a command should use: `--lut FILE`, else the user's saved table, else the built-in one. */
export function resolveLut(ctx: CommandContext): P919Table {
  const explicit = ctx.options['lut'];
  if (typeof explicit === 'string') {
    const path = ctx.resolvePath(explicit);
    return parseP919Table(JSON.parse(readFileSync(path, 'utf8')), path);
  }
  const saved = ctx.io.env['SCRY_LUT'] ?? userLutPath(ctx.io.env);
  let text: string;
  try {
    text = readFileSync(saved, 'utf8');
  } catch {
    return DEFAULT_P919_TABLE;
  }
  return parseP919Table(JSON.parse(text), saved);
}

const hashCommand: Command = {
  path: ['hash'],
  summary: 'P919 of each TEXT, one `0x%08X<TAB>text` line each (`-` reads lines from stdin)',
  usage: 'TEXT… | -',
  minArgs: 1,
  options: {
    'allow-inferred': { type: 'boolean', description: 'hash control and non-ASCII bytes as 0 (their value is only inferred)' },
  },
  async run(ctx) {
    const table = resolveLut(ctx);
    const texts: string[] = [];
    for (const a of ctx.args) {
      if (a === '-') texts.push(...(await ctx.io.readStdin()).split(/\r?\n/).filter((l) => l.length > 0));
      else texts.push(a);
    }
    if (texts.length === 0) throw new UsageError('no text to hash');
    const allowInferred = ctx.options['allow-inferred'] === true;
    const results = texts.map((text) => ({ text, hash: p919(text, { table, allowInferred }) }));
    if (ctx.json) ctx.printJson(results.map((r) => ({ text: r.text, hash: r.hash, hex: hex32(r.hash) })));
    else for (const r of results) ctx.out(`${hex32(r.hash)}\t${r.text}`);
    return 0;
  },
};

/** Where `--save` writes and where `resolveLut` looks when `--lut` is not given. */
function savedLutPath(ctx: CommandContext): string {
  return ctx.io.env['SCRY_LUT'] ?? userLutPath(ctx.io.env);
}

const calibrateCommand: Command = {
  path: ['hash', 'calibrate'],
  summary: 'derive unknown P919 table entries from a real database (its category sort keys are P919 of the names)',
  usage: 'FILE [-o TABLE.json] [--save]',
  details: [
    'Every category of a GADB file stores P919(name) as its sort key; the game\'s category names contain `/` and other',
    'characters whose table value is unknown. Each (name, key) pair is a linear equation in the unknown entries;',
    'calibration solves them, checks every derived value against every pair, and starts from the table in use',
    '(--lut, the saved table, or the built-in one), so calibrations accumulate. Exit 1 when a pair contradicts the table.',
    'Save with -o TABLE.json (reuse with --lut TABLE.json) or --save (the user config; every command then uses it).',
  ].join('\n'),
  minArgs: 1,
  maxArgs: 1,
  options: {
    output: { type: 'string', short: 'o', valueName: 'TABLE.json', description: 'write the calibrated table there' },
    save: { type: 'boolean', description: 'save the calibrated table in the user config (SCRY_LUT or ~/.config/scry/p919-table.json), keeping a .bak' },
    force: { type: 'boolean', description: 'with -o: replace an existing file (a .bak is kept)' },
  },
  run(ctx) {
    const path = ctx.resolvePath(ctx.args[0]!);
    const gadb = parseGadb(readInputFile(path, 'gadb', ctx.args[0]!));
    const data = gadb.strings.data;
    const pairs = gadb.categories.map((c) => {
      const end = data.indexOf(0, c.nameKey);
      return { text: latin1Decode(data.subarray(c.nameKey, end < 0 ? data.length : end)), hash: c.sortKey >>> 0 };
    });
    const base = resolveLut(ctx);
    const result = calibrateP919(pairs, base, `category sort keys of ${basename(path)}`);
    const targets: string[] = [];
    const saved = JSON.stringify(serializeP919Table(result.table), null, 2) + '\n';
    const output = ctx.options['output'];
    if (typeof output === 'string') {
      const out = ctx.resolvePath(output);
      writeFileAtomic(out, saved, { overwrite: ctx.options['force'] === true });
      targets.push(out);
    }
    if (ctx.options['save'] === true) {
      const out = savedLutPath(ctx);
      writeFileAtomic(out, saved, { overwrite: true, backup: true });
      targets.push(out);
    }
    const still = new Set<string>();
    for (const p of result.unresolved) for (const ch of p.text) if (result.table.status[ch.charCodeAt(0)] === 'unknown') still.add(ch);
    if (ctx.json) {
      ctx.printJson({
        file: path,
        pairs: pairs.length,
        derived: result.derived,
        unresolved: result.unresolved.length,
        stillUnknown: [...still].sort(),
        contradicted: result.contradicted.map((c) => ({ text: c.text, hash: c.hash, computed: c.computed })),
        written: targets,
      });
    } else {
      ctx.out(`${basename(path)}: ${pairs.length} category names with their sort keys`);
      if (result.derived.length === 0) ctx.out('  no new table entry (no name with exactly one character of unknown value left to solve)');
      for (const d of result.derived) ctx.out(`  '${d.character}' (0x${d.byte.toString(16).padStart(2, '0')}) = ${d.value}   confirmed by ${d.support} pair(s)`);
      if (result.unresolved.length > 0) ctx.out(`  ${result.unresolved.length} pair(s) still unsolved; characters still unknown: ${[...still].sort().join(' ')}`);
      for (const c of result.contradicted) ctx.out(`  contradiction: ${JSON.stringify(c.text)} is stored as ${hex32(c.hash)}, the table gives ${hex32(c.computed)}`);
      for (const t of targets) ctx.out(`  saved ${t}`);
      if (targets.length === 0 && result.derived.length > 0) ctx.out('  (not saved: pass -o TABLE.json or --save)');
    }
    return result.contradicted.length > 0 ? ExitCode.Findings : ExitCode.Ok;
  },
};

export const hashCommands: Command[] = [hashCommand, calibrateCommand];
