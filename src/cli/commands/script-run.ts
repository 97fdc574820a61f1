/**
 * `scry script run FILE [-- ARG…]` and `scry script repl`: run HavokScript on scry's VM with the standard library,
 * as `lua5.1 FILE ARG…` runs Lua. FILE is Lua source (`.lua`, compiled first, double numbers unless `--numbers`
 * says otherwise), a bytecode chunk (`.luac`, the chunk's own number mode) or a SCRI container (`.scripts`; a
 * source body is compiled with float numbers, as the game compiles layers). `arg` and `...` are set as lua5.1 sets
 * them; the script's stdout / stderr are the process's. A runtime error prints `chunk:line: message` and the Lua
 * traceback on stderr and exits 3.
 *
 * Thin over `src/script/vm`: `loadScriptFile` (what FILE is) and `runScriptFile` are the pieces other run modes
 * reuse. A world layer, or any engine option (`--db`, `--fire`, `--for` …), runs in the engine instead
 * (`script-engine.ts`: `engineRunLayer` decides, `runLayerCommand` runs).
 */
import { UsageError } from '../../binary/errors.ts';
import { latin1Decode } from '../../binary/text.ts';
import { openHksFile, type HksChunk } from '../../formats/hks/index.ts';
import { readBytes } from '../../node/fs.ts';
import { CompileError, compileLua } from '../../script/compile/index.ts';
import { createScriptVM, ScriptError, LuaTable, type LuaValue, type LuaVM, type ScriptVMOptions } from '../../script/vm/index.ts';
import { ExitCode, type CliIo, type Command, type CommandContext, type OptionSpec } from '../command.ts';
import { checkInputFile } from '../input.ts';
import { engineRunLayer, engineRunOptions, runLayerCommand, vmModeOption } from './script-engine.ts';

/** Options shared by `script run` and `script repl`. */
export const scriptVmOptions: Record<string, OptionSpec> = {
  numbers: { type: 'string', valueName: 'float|double', description: 'number mode for source input (default: double for .lua, float for SCRI source, the chunk\'s own for bytecode)' },
  budget: { type: 'string', valueName: 'N', description: 'stop the script after N instructions (exit 3)' },
  checked: { type: 'boolean', description: "mode 2's instruction-pointer checks (\"VM Kernel error: invalid instruction pointer.\")" },
  jit: { type: 'boolean', description: 'the JavaScript tier: hot functions translated to JavaScript (same results, same budget)' },
};

/** A script file ready to run: its chunk and the name messages use. */
export interface ScriptFile {
  chunk: HksChunk;
  /** Lua source name (`@file.lua`). */
  name: string;
  numbers: 'float' | 'double';
}

function numbersOption(ctx: CommandContext): 'float' | 'double' | undefined {
  const v = ctx.options['numbers'];
  if (v === undefined) return undefined;
  if (v !== 'float' && v !== 'double') throw new UsageError(`--numbers must be float or double (got ${String(v)})`);
  return v;
}

/** Reads FILE: source is compiled, bytecode parsed, SCRI unwrapped. Compile errors are CompileErrors. */
export function loadScriptFile(ctx: CommandContext, shown: string): ScriptFile {
  const path = ctx.resolvePath(shown);
  checkInputFile(path, shown);
  const bytes = readBytes(path);
  const name = '@' + shown;
  const wanted = numbersOption(ctx);
  const isChunk = bytes.length >= 4 && bytes[0] === 0x1b && bytes[1] === 0x4c;
  const isScri = bytes.length >= 4 && latin1Decode(bytes.subarray(0, 4)) === 'SCRI';
  if (isChunk || isScri) {
    const file = openHksFile(bytes, { allowTruncated: true });
    if (file.kind === 'scri-source') {
      if (file.truncatedBy > 0) throw new UsageError(`${shown}: the SCRI source body is cut short by ${file.truncatedBy} byte(s)`);
      const numbers = wanted ?? 'float';
      return { chunk: compileLua(file.scri.body, { name: shown, numbers }), name, numbers };
    }
    const numbers = file.chunk.header.numberSize === 4 ? 'float' : 'double';
    if (wanted !== undefined && wanted !== numbers) throw new UsageError(`${shown} is a ${numbers} chunk; --numbers ${wanted} applies to source input only`);
    return { chunk: file.chunk, name, numbers };
  }
  const numbers = wanted ?? 'double';
  return { chunk: compileLua(bytes, { name: shown, numbers }), name, numbers };
}

/** Signals os.exit from a script (only bin/ sets the process status). */
class ScriptExit {
  readonly code: number;
  constructor(code: number) {
    this.code = code;
  }
}

/** The VM options of the process: stdio, environment, clock, limits from the command line. */
export function processVmOptions(ctx: CommandContext, numbers: 'float' | 'double'): ScriptVMOptions {
  const io = ctx.io;
  const budget = ctx.options['budget'];
  let instructions = Infinity;
  if (budget !== undefined) {
    instructions = Number(budget);
    if (!Number.isSafeInteger(instructions) || instructions < 1) throw new UsageError(`--budget must be a positive integer (got ${String(budget)})`);
  }
  return {
    numbers,
    checked: ctx.options['checked'] === true,
    jit: ctx.options['jit'] === true,
    limits: { instructions },
    io: {
      stdout: (s) => writeBytes(io, 'stdout', s),
      stderr: (s) => writeBytes(io, 'stderr', s),
      stdin: () => {
        const b = io.readStdinChunk?.() ?? null;
        return b === null ? null : latin1Decode(b);
      },
    },
    os: {
      getenv: (n) => ctx.io.env[n],
      exit: (code) => {
        throw new ScriptExit(code);
      },
    },
  };
}

/** Writes a script's byte string: raw bytes when the host can, else as text (exact for ASCII). */
function writeBytes(io: CliIo, stream: 'stdout' | 'stderr', s: string): void {
  const raw = stream === 'stdout' ? io.stdoutBytes : io.stderrBytes;
  if (raw && /[^\x00-\x7f]/.test(s)) {
    const b = new Uint8Array(s.length);
    for (let i = 0; i < s.length; i++) b[i] = s.charCodeAt(i) & 0xff;
    raw(b);
  } else if (stream === 'stdout') io.stdout(s);
  else io.stderr(s);
}

/** `arg` as lua5.1 builds it: arg[0] the script, arg[1..n] its arguments, arg[-1] the interpreter. */
function argTable(vm: LuaVM, script: string, args: readonly string[]): LuaTable {
  const t = vm.newTable(args.length, 1);
  t.set(-1, 'scry');
  t.set(0, script);
  args.forEach((a, i) => t.set(i + 1, a));
  return t;
}

/** Prints a script failure the way users read it: `chunk:line: message` and the traceback. */
function reportScriptError(ctx: CommandContext, e: ScriptError): number {
  if (ctx.json) ctx.printJson({ error: { kind: e.kind, message: e.message, traceback: e.traceback } });
  ctx.err(e.message);
  ctx.err(e.traceback);
  return ExitCode.BadInput;
}

/** Runs a loaded script file with arguments; returns the exit code. */
export function runScriptFile(ctx: CommandContext, file: ScriptFile, args: readonly string[], shown: string): number {
  const vm = createScriptVM(processVmOptions(ctx, file.numbers));
  vm.globals.set('arg', argTable(vm, shown, args));
  try {
    const results = vm.call(vm.load(file.chunk, file.name), args);
    // pending finalizers run at the end, as lua_close runs them
    vm.close();
    if (ctx.json) ctx.printJson({ results: results.map((v) => describe(v)) });
    return ExitCode.Ok;
  } catch (e) {
    if (e instanceof ScriptError) {
      const cause = (e as { cause?: unknown }).cause;
      if (cause instanceof ScriptExit) return cause.code;
      return reportScriptError(ctx, e);
    }
    throw e;
  }
}

function describe(v: LuaValue): unknown {
  if (v === undefined) return null;
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  if (typeof v === 'bigint') return v.toString();
  return `(${typeof v === 'object' ? v.constructor.name : typeof v})`;
}

const run: Command = {
  path: ['script', 'run'],
  summary: "run a script on scry's HavokScript VM (Lua source, bytecode or SCRI) with the standard library, or a world layer headless in the engine; errors exit 3",
  usage: 'FILE [--numbers float|double] [--budget N] [--checked] [--jit] [-- ARG…]  |  LAYER [--db GAMEDB] [--fire OBJECT.EVENT[@S]]… [--for S] [--pause AT:FOR]… [--json]',
  minArgs: 1,
  options: { ...scriptVmOptions, ...engineRunOptions, ...vmModeOption },
  details:
    'Two modes. The plain VM (lua5.1-like): FILE is a .lua source (compiled first; double numbers unless --numbers float), a bytecode chunk (its own number mode) or a .scripts SCRI container. ' +
    'ARG… become arg[1..n] and the chunk\'s `...`, as lua5.1 passes them. A runtime error prints chunk:line: message and the traceback and exits 3; --budget N stops a script after N instructions. ' +
    'The engine (docs/engine.md): when an engine option is given (--db, --fire, --start, --for, --pause, --slowmo, --prop, --kind, --frame, --seed, --timers) or FILE is a world layer (its chunk sets _G.loadedresource, as every shipped .scripts layer does), ' +
    'the layer is loaded headless, its StartupCommands start as threads, simulated time passes frame by frame with the fired events, and the trace is printed (--json: one object per line with t, kind, name; a summary last); --budget N is then the instruction budget of each slice of script work. ' +
    'Engine exit codes: 3 a script error (or a layer that does not compile), 1 an engine assert, something that would fault in game or an unresolved DB<Kind>.Name record, 0 otherwise. --vm forces the plain VM for a layer.',
  run(ctx) {
    const layer = engineRunLayer(ctx);
    if (layer) return runLayerCommand(ctx, layer);
    const shown = ctx.args[0]!;
    let file: ScriptFile;
    try {
      file = loadScriptFile(ctx, shown);
    } catch (e) {
      if (e instanceof CompileError) {
        ctx.err(e.message);
        return ExitCode.BadInput;
      }
      throw e;
    }
    return runScriptFile(ctx, file, ctx.args.slice(1), shown);
  },
};

const repl: Command = {
  path: ['script', 'repl'],
  summary: 'an interactive HavokScript prompt on scry\'s VM (`=expr` prints a value; incomplete statements continue)',
  usage: '[--numbers float|double] [--budget N]',
  maxArgs: 0,
  options: { ...scriptVmOptions },
  async run(ctx) {
    const numbers = numbersOption(ctx) ?? 'double';
    const vm = createScriptVM(processVmOptions(ctx, numbers));
    const text = await ctx.io.readStdin();
    const lines = text.split('\n');
    let pending = '';
    const prompt = (): void => void (ctx.io.isTTY ? ctx.io.stderr(pending ? '>> ' : '> ') : undefined);
    prompt();
    for (const line of lines) {
      let src = pending ? `${pending}\n${line}` : line;
      if (!pending && src.startsWith('=')) src = `return ${src.slice(1)}`;
      let chunk: HksChunk;
      try {
        chunk = compileLua(src, { sourceName: '=stdin', numbers });
      } catch (e) {
        if (e instanceof CompileError && /<eof>'?$/.test(e.reason)) {
          pending = src;
          prompt();
          continue;
        }
        pending = '';
        ctx.err(e instanceof Error ? e.message : String(e));
        prompt();
        continue;
      }
      pending = '';
      try {
        const results = vm.call(vm.load(chunk, '=stdin'));
        if (results.length > 0) vm.call(vm.getGlobal('print'), results);
      } catch (e) {
        if (!(e instanceof ScriptError)) throw e;
        const cause = (e as { cause?: unknown }).cause;
        if (cause instanceof ScriptExit) return cause.code;
        ctx.err(e.message);
        ctx.err(e.traceback);
      }
      prompt();
    }
    return ExitCode.Ok;
  },
};

export const scriptRunCommands: Command[] = [run, repl];
