/** `scry hash …`: P919 of names and paths; calibration of the unknown table entries. */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from '../../binary/errors.ts';
import { DEFAULT_P919_TABLE, p919, type P919Table } from '../../hash/p919.ts';
import { parseP919Table } from '../../hash/calibrate.ts';
import { hex32, type Command, type CommandContext } from '../command.ts';

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

export const hashCommands: Command[] = [hashCommand];
