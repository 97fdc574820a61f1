/**
 * `scry script decompile`: HavokScript bytecode (a bare chunk `.luac`, or a `.scripts` / SCRI container with a
 * bytecode body) to Lua source, and with `--verify` the proof: the source recompiled at the chunk's strip level and
 * number mode, compared function by function. Thin over `src/script/decompile`.
 */
import { UsageError } from '../../binary/errors.ts';
import { HKS_DIALECTS, openHksFile, type HksDialect } from '../../formats/hks/index.ts';
import { writeFileAtomic } from '../../node/fs.ts';
import { decompileHks } from '../../script/decompile/index.ts';
import { ExitCode, type Command } from '../command.ts';
import { readInputFile } from '../input.ts';

const decompileCommand: Command = {
  path: ['script', 'decompile'],
  summary: 'decompile bytecode (.luac, .scripts/SCRI flag 0) to Lua source; --verify recompiles it and proves each function',
  usage: 'FILE [-o OUT] [--verify]',
  minArgs: 1,
  maxArgs: 1,
  details: [
    'Prints the source on stdout (or writes OUT atomically; an existing OUT is replaced only with --force).',
    'With --verify the source is recompiled by scry\'s compiler at the chunk\'s own strip level and number type and',
    'every function is compared with the original (code, constants, counts and, when present, debug info): each is',
    'reported proven or unmatched with its first difference, then `N/M functions proven` (on stderr when the source',
    'goes to stdout). Unmatched functions carry a comment in the source. Exit 1 when any function is unmatched.',
  ].join('\n'),
  options: {
    output: { type: 'string', short: 'o', valueName: 'OUT', description: 'write the source to OUT instead of stdout' },
    force: { type: 'boolean', description: 'replace OUT if it exists (the old file is kept as OUT.bak)' },
    verify: { type: 'boolean', description: 'recompile and compare every function; exit 1 if any is unmatched' },
    dialect: { type: 'string', valueName: 'NAME', description: `opcode numbering: ${HKS_DIALECTS.join(', ')} (default: default, the Shadow of War one)` },
  },
  run(ctx) {
    const arg = ctx.args[0]!;
    const d = ctx.options['dialect'];
    if (d !== undefined && (typeof d !== 'string' || !(HKS_DIALECTS as readonly string[]).includes(d))) throw new UsageError(`unknown dialect ${String(d)} (known: ${HKS_DIALECTS.join(', ')})`);
    const dialect = (d ?? 'default') as HksDialect;
    const path = ctx.resolvePath(arg);
    const file = openHksFile(readInputFile(path, 'hks', arg));
    if (file.kind === 'scri-source') throw new UsageError(`${arg}: this SCRI body is Lua source text (flag 1), not bytecode; \`scry script extract\` writes the text out`);
    const verify = ctx.options['verify'] === true;
    const r = decompileHks(file.chunk, { dialect, verify });
    const outOpt = ctx.options['output'];
    const out = typeof outOpt === 'string' ? ctx.resolvePath(outOpt) : null;
    if (out) writeFileAtomic(out, r.source, { overwrite: ctx.options['force'] === true });
    const p = r.proof;
    const failed = r.functions.filter((f) => f.failure !== undefined).length;
    const unproven = p ? p.total - p.matched + p.chunkDifferences.length : 0;
    if (ctx.json) {
      const report: Record<string, unknown> = {
        input: arg,
        output: out,
        functions: r.functions.map((f) => ({
          path: f.path,
          name: f.name,
          ...(f.failure !== undefined ? { failure: f.failure } : {}),
          ...(f.proof ? { proven: f.proof.matched, ...(f.proof.difference !== undefined ? { difference: f.proof.difference } : {}) } : {}),
        })),
        failed,
      };
      if (p) report['proof'] = { strip: p.strip, numbers: p.numbers, proven: p.matched, total: p.total, compileError: p.compileError ?? null, chunkDifferences: p.chunkDifferences };
      if (!out) report['source'] = r.source;
      ctx.printJson(report);
      return unproven > 0 ? ExitCode.Findings : ExitCode.Ok;
    }
    if (!out) ctx.io.stdout(r.source);
    if (p) {
      // The report goes where it does not mix with the source.
      const say = out ? ctx.out.bind(ctx) : ctx.err.bind(ctx);
      if (p.compileError) say(`the decompiled source does not compile: ${p.compileError}`);
      for (const f of r.functions) {
        const label = f.name ? `${f.path} [${f.name}]` : f.path;
        if (f.proof?.matched) say(`proven     ${label}`);
        else say(`unmatched  ${label}: ${f.failure !== undefined ? `not decompiled: ${f.failure}` : (f.proof?.difference ?? '')}`);
      }
      for (const c of p.chunkDifferences) say(`chunk: ${c}`);
      say(`${p.matched}/${p.total} functions proven (strip ${p.strip}, ${p.numbers} numbers)`);
    } else if (out) ctx.err(`wrote ${out} (${r.functions.length} functions${failed > 0 ? `, ${failed} not decompiled` : ''})`);
    return unproven > 0 ? ExitCode.Findings : ExitCode.Ok;
  },
};

/** `scry script decompile`, and the same under the `hks` alias. */
export const scriptDecompileCommands: Command[] = [decompileCommand, { ...decompileCommand, path: ['hks', 'decompile'], aliasOf: 'script' }];
