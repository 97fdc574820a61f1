/**
 * `scry script compile` and `scry script check`: HavokScript source (a `.lua` file, stdin, or a `.scripts` / SCRI
 * container whose body is source text) to bytecode, as hksc compiles it. Thin over `src/script/compile`.
 */
import { ToolkitError, UsageError } from '../../binary/errors.ts';
import { analyzeHksChunk, HKS_STRUCTURE_ORDERS, writeHksChunk } from '../../formats/hks/index.ts';
import { isScri, parseScri, writeScri } from '../../formats/scri/scri.ts';
import { readBytes, writeFileAtomic } from '../../node/fs.ts';
import { CompileError, compileLua, NUMBER_MODES, STRIP_LEVELS, type NumberMode, type StripLevel, type StructureOrder } from '../../script/compile/index.ts';
import { ExitCode, type Command, type CommandContext } from '../command.ts';

/** hksc's file-name cleaning for source names: `./` components are dropped (`./a/./b.lua` → `a/b.lua`). */
export function cleanFileName(name: string): string {
  return name.replace(/^(?:\.[/\\])+/, '').replace(/([/\\])(?:\.[/\\])+/g, '$1');
}

/** hksc's output name: `x.lua` → `x.luac` (any other name gets `.luac` appended); with SCRI, `.scri`. */
export function defaultOutputName(input: string, scri: boolean): string {
  const base = input.replace(/\.(lua|scripts)$/i, '');
  return base + (scri ? '.scri' : '.luac');
}

function choice<T extends string>(ctx: CommandContext, option: string, allowed: readonly T[], fallback: T): T {
  const v = ctx.options[option];
  if (v === undefined) return fallback;
  if (typeof v !== 'string' || !(allowed as readonly string[]).includes(v)) throw new UsageError(`--${option} must be one of ${allowed.join(', ')} (got ${String(v)})`);
  return v as T;
}

/** The source bytes of a command argument: a file (bare source or a SCRI container with a source body) or stdin. */
async function readSource(ctx: CommandContext, arg: string): Promise<{ bytes: Uint8Array; path: string; container: 'scri' | null }> {
  if (arg === '-') return { bytes: new TextEncoder().encode(await ctx.io.readStdin()), path: '-', container: null };
  const path = ctx.resolvePath(arg);
  const bytes = readBytes(path);
  if (!isScri(bytes)) return { bytes, path, container: null };
  const scri = parseScri(bytes, { allowTruncated: true });
  if (scri.flag === 0) throw new UsageError(`${arg}: this SCRI body is already bytecode (flag 0); \`scry script disasm\` lists it`);
  if (scri.truncatedBy > 0) throw new UsageError(`${arg}: the SCRI source body is cut short by ${scri.truncatedBy} byte(s); extract it (\`scry script extract\`), close it, and compile the text`);
  return { bytes: scri.body, path, container: 'scri' };
}

const compileCommand: Command = {
  path: ['script', 'compile'],
  summary: 'compile HavokScript source (.lua, `-` for stdin, or a .scripts/SCRI source body) to bytecode, byte-identical to hksc',
  usage: 'FILE [-o OUT]',
  minArgs: 1,
  maxArgs: 1,
  details: [
    'Writes a bare chunk (the Shadow of War header: little-endian, float32 numbers, structures) or, with --scri, a SCRI',
    'version 1 container (flag 0) around it. The source name stored in debug info is @FILE as given (./ removed), like',
    "hksc; --name overrides it. Default output: FILE with .lua replaced by .luac (.scri with --scri); an existing file",
    'is replaced only with --force. Errors print as `file:line: message` (exit 3).',
  ].join('\n'),
  options: {
    output: { type: 'string', short: 'o', valueName: 'OUT', description: 'output file (default: FILE.luac, or FILE.scri with --scri)' },
    strip: { type: 'string', valueName: 'LEVEL', description: 'debug info kept: none (all of it, default), profile (names and lines defined), all (nothing)' },
    numbers: { type: 'string', valueName: 'TYPE', description: 'number type: float (4-byte, the game\'s; default) or double (8-byte)' },
    name: { type: 'string', valueName: 'NAME', description: 'source name written into debug info (default: FILE as given)' },
    scri: { type: 'boolean', description: 'wrap the chunk in a SCRI container (version 1, flag 0 = bytecode)' },
    'structure-order': { type: 'string', valueName: 'ORDER', description: 'structure section order, hypothesis H-STRUCT-ORDER: ds3 (default) or iw6' },
    force: { type: 'boolean', description: 'replace OUT if it exists (the old file is kept as OUT.bak)' },
  },
  async run(ctx) {
    const arg = ctx.args[0]!;
    const strip = choice<StripLevel>(ctx, 'strip', STRIP_LEVELS, 'none');
    const numbers = choice<NumberMode>(ctx, 'numbers', NUMBER_MODES, 'float');
    const structureOrder = choice<StructureOrder>(ctx, 'structure-order', HKS_STRUCTURE_ORDERS, 'ds3');
    const nameOpt = ctx.options['name'];
    const name = typeof nameOpt === 'string' ? nameOpt : arg === '-' ? '=stdin' : cleanFileName(arg);
    const { bytes, container } = await readSource(ctx, arg);
    const chunk = compileLua(bytes, { name, strip, numbers, structureOrder });
    const code = writeHksChunk(chunk);
    const scri = ctx.options['scri'] === true;
    const data = scri ? writeScri({ version: 1, flag: 0, body: code, trailing: new Uint8Array(0) }) : code;
    const outOpt = ctx.options['output'];
    if (typeof outOpt !== 'string' && arg === '-') throw new UsageError('reading stdin: give -o OUT');
    const out = ctx.resolvePath(typeof outOpt === 'string' ? outOpt : defaultOutputName(arg, scri));
    writeFileAtomic(out, data, { overwrite: ctx.options['force'] === true });
    const s = analyzeHksChunk(chunk).summary;
    const report = { input: arg, inputContainer: container, output: out, bytes: data.length, container: scri ? 'scri' : null, strip, numbers, source: name, functions: s.functions, instructions: s.instructions, dataWords: s.dataWords, constants: s.constants, structures: s.structures };
    if (ctx.json) ctx.printJson(report);
    else ctx.err(`wrote ${out} (${data.length} bytes: ${s.functions} functions, ${s.instructions} instructions + ${s.dataWords} DATA words, ${s.structures} structures, strip ${strip}, ${numbers} numbers)`);
    return ExitCode.Ok;
  },
};

const checkCommand: Command = {
  path: ['script', 'check'],
  summary: 'parse and compile HavokScript sources; print each error as file:line:col: message (exit 1 when any has one)',
  usage: 'FILE…',
  minArgs: 1,
  options: {},
  async run(ctx) {
    const results: { file: string; ok: boolean; error?: { line: number; column: number; message: string } }[] = [];
    for (const arg of ctx.args) {
      try {
        const { bytes } = await readSource(ctx, arg);
        compileLua(bytes, { name: arg === '-' ? '=stdin' : cleanFileName(arg) });
        results.push({ file: arg, ok: true });
      } catch (e) {
        if (e instanceof CompileError) {
          results.push({ file: arg, ok: false, error: { line: e.line, column: e.column, message: e.reason } });
          if (!ctx.json) ctx.out(`${arg}:${e.line}:${e.column}: ${e.reason}`);
        } else if (e instanceof ToolkitError) {
          // Not source text (a bytecode SCRI, a cut-off body, a bad container): this file fails, the others are checked.
          results.push({ file: arg, ok: false, error: { line: 0, column: 0, message: e.message } });
          if (!ctx.json) ctx.out(`${arg}: ${e.message}`);
        } else throw e;
      }
    }
    const failed = results.filter((r) => !r.ok).length;
    if (ctx.json) ctx.printJson({ files: results.length, failed, results });
    else ctx.err(`${results.length - failed} of ${results.length} file(s) compile`);
    return failed > 0 ? ExitCode.Findings : ExitCode.Ok;
  },
};

/** `scry script compile|check`, and the same under the `hks` alias. */
export const scriptCompileCommands: Command[] = [compileCommand, checkCommand, ...[compileCommand, checkCommand].map((c) => ({ ...c, path: ['hks', ...c.path.slice(1)], aliasOf: 'script' }))];
