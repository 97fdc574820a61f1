/**
 * `scry` command-line entry: `run(argv, io)` finds the command, parses its options, runs it and maps errors to
 * exit codes. Only `bin/scry.js` turns the result into a process exit status.
 */
import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { ToolkitError, UsageError, FormatError, ConsistencyError } from '../binary/errors.ts';
import { jsonReplacer } from '../binary/text.ts';
import { ExitCode, type CliIo, type Command, type CommandContext, type OptionSpec } from './command.ts';
import { allCommands } from './commands/index.ts';

/** Options every command accepts. */
export const globalOptions: Record<string, OptionSpec> = {
  json: { type: 'boolean', description: 'machine-readable JSON output' },
  help: { type: 'boolean', short: 'h', description: 'show help for the command' },
  lut: { type: 'string', valueName: 'FILE', description: 'P919 table to use (a calibrated table saved by `scry hash calibrate`)' },
};

export function findCommand(argv: string[], commands: Command[] = allCommands): { command: Command; rest: string[] } | undefined {
  let best: Command | undefined;
  for (const c of commands) {
    if (c.path.length <= argv.length && c.path.every((w, i) => argv[i] === w)) {
      if (!best || c.path.length > best.path.length) best = c;
    }
  }
  return best ? { command: best, rest: argv.slice(best.path.length) } : undefined;
}

function optionSynopsis(options: Record<string, OptionSpec>): string[] {
  return Object.entries(options).map(([name, o]) => {
    const flag = `${o.short ? `-${o.short}, ` : ''}--${name}${o.type === 'string' ? ` ${o.valueName ?? 'VALUE'}` : ''}`;
    return `  ${flag.padEnd(28)} ${o.description ?? ''}`;
  });
}

export function commandHelp(c: Command): string {
  const lines = [`usage: scry ${c.path.join(' ')} ${c.usage}`.trimEnd(), '', c.summary];
  if (c.details) lines.push('', c.details);
  const opts = { ...(c.options ?? {}), ...globalOptions };
  lines.push('', 'options:', ...optionSynopsis(opts));
  return lines.join('\n');
}

export function generalHelp(commands: Command[] = allCommands): string {
  const lines = ['scry: byte-exact tools for Shadow of War (LithTech Firebird) and Firefall game data', '', 'usage: scry <command> [args] [--json]', '', 'commands:'];
  const sorted = commands.filter((c) => !c.aliasOf).sort((a, b) => a.path.join(' ').localeCompare(b.path.join(' ')));
  for (const c of sorted) lines.push(`  ${`${c.path.join(' ')} ${c.usage}`.padEnd(52)} ${c.summary}`);
  const aliases = new Set(commands.flatMap((c) => (c.aliasOf ? [`scry ${c.path[0]} VERB … is another name for scry ${c.aliasOf} VERB …`] : [])));
  if (aliases.size > 0) lines.push('', ...aliases);
  lines.push('', 'exit codes: 0 ok, 1 findings or difference, 2 usage, 3 bad input, 4 internal error (a bug in scry)', 'scry help COMMAND… shows the options of one command.');
  return lines.join('\n');
}

/** Runs the CLI with `argv` (without `node` and the script) and returns the exit code. */
export async function run(argv: string[], io: CliIo, commands: Command[] = allCommands): Promise<number> {
  if (argv.length === 0 || argv[0] === 'help' || argv[0] === '--help' || argv[0] === '-h') {
    const target = argv[0] === 'help' ? findCommand(argv.slice(1), commands) : undefined;
    io.stdout((target ? commandHelp(target.command) : generalHelp(commands)) + '\n');
    return argv.length === 0 ? ExitCode.Usage : ExitCode.Ok;
  }
  if (argv[0] === '--version') {
    io.stdout('scry 0.1.0\n');
    return ExitCode.Ok;
  }
  const found = findCommand(argv, commands);
  if (!found) {
    io.stderr(`scry: unknown command '${argv.join(' ')}'\n\n${generalHelp(commands)}\n`);
    return ExitCode.Usage;
  }
  const { command, rest } = found;
  const optionConfig: Record<string, OptionSpec> = { ...globalOptions, ...(command.options ?? {}) };
  const parseOptions = Object.fromEntries(
    Object.entries(optionConfig).map(([k, { description: _d, valueName: _v, ...o }]) => [k, o]),
  );
  let parsed: { values: Record<string, unknown>; positionals: string[] };
  try {
    parsed = parseArgs({ args: rest, options: parseOptions, allowPositionals: true, strict: true, allowNegative: false });
  } catch (e) {
    io.stderr(`scry ${command.path.join(' ')}: ${(e as Error).message}\n\n${commandHelp(command)}\n`);
    return ExitCode.Usage;
  }
  if (parsed.values['help']) {
    io.stdout(commandHelp(command) + '\n');
    return ExitCode.Ok;
  }
  const args = parsed.positionals;
  if ((command.minArgs !== undefined && args.length < command.minArgs) || (command.maxArgs !== undefined && args.length > command.maxArgs)) {
    io.stderr(`scry ${command.path.join(' ')}: wrong number of arguments\n\n${commandHelp(command)}\n`);
    return ExitCode.Usage;
  }
  const json = parsed.values['json'] === true;
  const ctx: CommandContext = {
    io,
    args,
    options: parsed.values as CommandContext['options'],
    json,
    out: (line = '') => io.stdout(line + '\n'),
    err: (line = '') => io.stderr(line + '\n'),
    printJson: (value) => io.stdout(JSON.stringify(value, jsonReplacer, 2) + '\n'),
    resolvePath: (p) => resolve(io.cwd, p),
    onDone: (fn) => void cleanups.push(fn),
  };
  const cleanups: Array<() => void> = [];
  try {
    return await command.run(ctx);
  } catch (e) {
    return reportError(e, ctx, command);
  } finally {
    for (const fn of cleanups.reverse()) fn();
  }
}

function reportError(e: unknown, ctx: CommandContext, command: Command): number {
  const name = `scry ${command.path.join(' ')}`;
  if (e instanceof UsageError) {
    ctx.err(`${name}: ${e.message}`);
    return ExitCode.Usage;
  }
  if (e instanceof ToolkitError || isNodeFsError(e)) {
    const err = e as Error & { code?: string };
    if (ctx.json) {
      const detail: Record<string, unknown> = { error: err.name, code: err.code, message: err.message };
      if (e instanceof FormatError) Object.assign(detail, { format: e.format, offset: e.offset, path: e.path });
      if (e instanceof ConsistencyError) detail['issues'] = e.issues;
      ctx.io.stdout(JSON.stringify(detail, jsonReplacer, 2) + '\n');
    }
    ctx.err(`${name}: ${err.message}`);
    return ExitCode.BadInput;
  }
  // Anything else is a bug of scry's: say so plainly, with a distinct exit code (1 would read as "findings").
  const err = e instanceof Error ? e : new Error(String(e));
  if (ctx.json) ctx.io.stdout(JSON.stringify({ error: err.name, code: 'E_INTERNAL', message: err.message }, jsonReplacer, 2) + '\n');
  ctx.err(`${name}: internal error (a bug in scry, not a problem with your input): ${err.name}: ${err.message}`);
  if (ctx.io.env['SCRY_DEBUG']) ctx.err(err.stack ?? '');
  else ctx.err('rerun with SCRY_DEBUG=1 for the stack trace, and report it with the command line and the input file');
  return ExitCode.Internal;
}

function isNodeFsError(e: unknown): boolean {
  return e instanceof Error && typeof (e as { code?: unknown }).code === 'string' && /^E[A-Z]+$/.test((e as unknown as { code: string }).code) && 'syscall' in e;
}
