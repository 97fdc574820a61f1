/**
 * The CLI's small command framework over `node:util.parseArgs`. A command is data: its path (`['db', 'info']`),
 * a summary, a usage line, its options and a `run` that calls the library and formats output. Commands never
 * print directly or exit: they write through `ctx` and return an exit code.
 *
 * Exit codes: 0 ok, 1 findings or difference, 2 usage, 3 bad input, 4 internal error (a bug in scry).
 */
import type { ParseArgsConfig } from 'node:util';

export const ExitCode = {
  Ok: 0,
  Findings: 1,
  Usage: 2,
  BadInput: 3,
  /** An exception that is not a toolkit error: a bug in scry, never reported as findings. */
  Internal: 4,
} as const;

/** Where a command reads and writes; tests pass buffers, `bin/` passes the process streams. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  /** Reads all of standard input (for `-` arguments). */
  readStdin(): Promise<string>;
  cwd: string;
  env: Record<string, string | undefined>;
  /** True when stderr is an interactive terminal (progress bars only then). */
  isTTY: boolean;
  /** Raw bytes to stdout / stderr (scripts print byte strings); absent: text only. */
  stdoutBytes?(bytes: Uint8Array): void;
  stderrBytes?(bytes: Uint8Array): void;
  /** The next chunk of standard input, read synchronously (a script's io.read), or null at its end. */
  readStdinChunk?(): Uint8Array | null;
}

export type OptionSpec = NonNullable<ParseArgsConfig['options']>[string] & { description?: string; valueName?: string };

export interface CommandContext {
  io: CliIo;
  /** Positional arguments after the command path. */
  args: string[];
  /** Parsed option values (global and command options). */
  options: Record<string, string | boolean | string[] | undefined>;
  json: boolean;
  /** Writes a line (adds the newline) to stdout. */
  out(line?: string): void;
  /** Writes a line to stderr. */
  err(line?: string): void;
  /** Prints a value as JSON (bigint as decimal string, Uint8Array as hex) to stdout. */
  printJson(value: unknown): void;
  /** Resolves a user path against the working directory. */
  resolvePath(p: string): string;
  /** Registers cleanup to run when the command ends, however it ends (locks are released this way). */
  onDone(fn: () => void): void;
}

export interface Command {
  /** Words that select the command, e.g. `['db', 'info']`. */
  path: string[];
  summary: string;
  /** Argument synopsis after the path, e.g. `FILE [CATEGORY]`. */
  usage: string;
  options?: Record<string, OptionSpec>;
  /** Inclusive bounds on the number of positional arguments. */
  minArgs?: number;
  maxArgs?: number;
  /** Longer help text shown by `scry help <command>`. */
  details?: string;
  /** For an alias: the command group it is another name for (e.g. `script` for `hks`). Aliases are left out of
   * the general command list but run and have their own help. */
  aliasOf?: string;
  run(ctx: CommandContext): Promise<number> | number;
}
