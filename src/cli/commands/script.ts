/**
 * `scry script …`: HavokScript files, bare chunks (`\x1bLua…`) or SCRI containers (`.scripts`): info, disasm,
 * asm, verify, strings, calls, xref, extract. Thin over `src/formats/hks` and `src/formats/scri`.
 */
import { firstDifference, hexdump } from '../../binary/hexdump.ts';
import { UsageError, type Issue } from '../../binary/errors.ts';
import {
  analyzeHksChunk,
  assembleHksFile,
  countHksFindings,
  disassembleHksFile,
  HKS_DIALECTS,
  HKS_HYPOTHESES,
  openHksFile,
  verifyHksChunk,
  writeHksFile,
  xrefHks,
  type HksDialect,
  type HksFile,
} from '../../formats/hks/index.ts';
import { scriSourceText } from '../../formats/scri/scri.ts';
import { readBytes, writeFileAtomic } from '../../node/fs.ts';
import { ExitCode, type Command, type CommandContext, type OptionSpec } from '../command.ts';
import { readInputFile } from '../input.ts';
import { utf8Decode } from '../../binary/text.ts';

const dialectOption: Record<string, OptionSpec> = {
  dialect: { type: 'string', valueName: 'NAME', description: `opcode numbering: ${HKS_DIALECTS.join(', ')} (default: default, the Shadow of War one)` },
};
const writeOptions: Record<string, OptionSpec> = {
  output: { type: 'string', short: 'o', valueName: 'OUT', description: 'write to OUT (atomically) instead of stdout' },
  force: { type: 'boolean', description: 'replace OUT if it exists (the old file is kept as OUT.bak)' },
};

function dialectOf(ctx: CommandContext): HksDialect {
  const d = ctx.options['dialect'];
  if (d === undefined) return 'default';
  if (typeof d !== 'string' || !(HKS_DIALECTS as readonly string[]).includes(d)) throw new UsageError(`unknown dialect ${String(d)} (known: ${HKS_DIALECTS.join(', ')})`);
  return d as HksDialect;
}

function open(ctx: CommandContext, allowTruncated = false): { path: string; bytes: Uint8Array; file: HksFile } {
  const path = ctx.resolvePath(ctx.args[0]!);
  const bytes = readInputFile(path, 'hks', ctx.args[0]!);
  return { path, bytes, file: openHksFile(bytes, { allowTruncated }) };
}

function requireBytecode(file: HksFile): asserts file is Exclude<HksFile, { kind: 'scri-source' }> {
  if (file.kind === 'scri-source') throw new UsageError('this SCRI body is Lua source text (flag 1), not bytecode; `scry script extract` writes the text out');
}

function writeOut(ctx: CommandContext, data: Uint8Array | string): string {
  const out = ctx.options['output'];
  if (typeof out !== 'string') throw new UsageError('missing -o OUT');
  const path = ctx.resolvePath(out);
  writeFileAtomic(path, data, { overwrite: ctx.options['force'] === true });
  return path;
}

function roundTrip(bytes: Uint8Array, file: HksFile, dialect: HksDialect): { write: number; listing: number } {
  const written = writeHksFile(file);
  const write = firstDifference(written, bytes);
  let listing = -1;
  if (file.kind !== 'scri-source') listing = firstDifference(assembleHksFile(disassembleHksFile(file, { dialect, bare: true }), { dialect }).bytes, bytes);
  return { write, listing };
}

const infoCommand: Command = {
  path: ['script', 'info'],
  summary: 'what a script file is: container, header, counts, debug level, structures, trailing bytes, call summary',
  usage: 'FILE',
  minArgs: 1,
  maxArgs: 1,
  options: { ...dialectOption },
  run(ctx) {
    const { path, bytes, file } = open(ctx, true);
    if (file.kind === 'scri-source') {
      const text = scriSourceText(file.scri);
      const info = {
        file: path,
        bytes: bytes.length,
        container: { magic: 'SCRI', version: file.scri.version, flag: file.scri.flag, body: 'lua-source', bodyLength: file.scri.body.length + file.truncatedBy, truncatedBy: file.truncatedBy, trailing: file.scri.trailing.length },
        source: { lines: text.split('\n').length, firstLine: text.split('\n', 1)[0] ?? '', hstructures: (text.match(/^\s*hstructure\s/gm) ?? []).length, functions: (text.match(/\bfunction\b/g) ?? []).length },
      };
      if (ctx.json) ctx.printJson(info);
      else {
        ctx.out(`${path}: SCRI version ${info.container.version}, flag ${info.container.flag} = Lua source text, ${info.container.bodyLength} byte body${file.truncatedBy ? ` (file truncated: ${file.truncatedBy} bytes missing)` : ''}`);
        ctx.out(`  ${info.source.lines} lines, ${info.source.functions} 'function' keywords, ${info.source.hstructures} hstructure declarations`);
        ctx.out(`  first line: ${info.source.firstLine}`);
      }
      return ExitCode.Ok;
    }
    const chunk = file.chunk;
    const a = analyzeHksChunk(chunk, { dialect: dialectOf(ctx) });
    const h = chunk.header;
    const info = {
      file: path,
      bytes: bytes.length,
      container: file.scri ? { magic: 'SCRI', version: file.scri.version, flag: file.scri.flag, body: 'bytecode', bodyLength: file.scri.body.length, trailing: file.scri.trailing.length } : null,
      header: h,
      summary: a.summary,
      structures: chunk.structures ? { layout: chunk.structures.layout, count: chunk.structures.structures.length } : null,
      trailing: chunk.trailing.length,
      globalsRead: a.globalsRead.size,
      globalsWritten: a.globalsWritten.size,
      natives: a.natives.size,
    };
    if (ctx.json) {
      ctx.printJson(info);
      return ExitCode.Ok;
    }
    const s = a.summary;
    ctx.out(`${path}: ${file.scri ? `SCRI version ${file.scri.version}, flag ${file.scri.flag} = bytecode, ` : ''}HavokScript chunk, format ${h.formatVersion}, ${h.littleEndian ? 'little' : 'big'}-endian`);
    ctx.out(`  sizes: int ${h.intSize}, size_t ${h.sizeTSize}, instruction ${h.instructionSize}, number ${h.numberSize} (${h.integralNumbers ? 'integer' : 'float'}), flags 0x${h.buildFlags.toString(16).padStart(2, '0')}, referenced ${h.referenced}`);
    ctx.out(`  ${s.functions} functions (depth ${s.maxDepth}), ${s.instructions} instructions + ${s.dataWords} DATA words, ${s.constants} constants, ${s.strings} distinct strings, debug: ${s.debug}`);
    ctx.out(`  structures: ${chunk.structures ? `${chunk.structures.structures.length} (${chunk.structures.layout} layout)` : 'no section'}; trailing bytes: ${chunk.trailing.length}${file.scri?.trailing.length ? `; after the SCRI body: ${file.scri.trailing.length}` : ''}`);
    ctx.out(`  globals: ${a.globalsRead.size} read, ${a.globalsWritten.size} written; calls: ${a.calls.size} distinct, ${a.natives.size} through undefined globals (natives)`);
    ctx.out(`  opcodes: ${s.opcodes.slice(0, 8).map((o) => `${o.name} ${o.count}`).join(', ')}${s.opcodes.length > 8 ? ', …' : ''}`);
    return ExitCode.Ok;
  },
};

const disasmCommand: Command = {
  path: ['script', 'disasm'],
  summary: 'the listing of a bytecode file (bare chunk or SCRI); `scry script asm` rebuilds the exact bytes',
  usage: 'FILE',
  minArgs: 1,
  maxArgs: 1,
  options: { ...dialectOption, ...writeOptions, bare: { type: 'boolean', description: 'omit explanatory comments' } },
  run(ctx) {
    const { file } = open(ctx);
    requireBytecode(file);
    const text = disassembleHksFile(file, { dialect: dialectOf(ctx), bare: ctx.options['bare'] === true });
    if (typeof ctx.options['output'] === 'string') {
      const out = writeOut(ctx, text);
      if (ctx.json) ctx.printJson({ output: out, characters: text.length });
      else ctx.err(`wrote ${out}`);
    } else if (ctx.json) ctx.printJson({ listing: text });
    else ctx.io.stdout(text);
    return ExitCode.Ok;
  },
};

const asmCommand: Command = {
  path: ['script', 'asm'],
  summary: 'assemble a listing (`-` = stdin) to a chunk, or to a SCRI container when the listing has .scri',
  usage: 'LISTING -o OUT',
  minArgs: 1,
  maxArgs: 1,
  options: { ...dialectOption, ...writeOptions, compare: { type: 'string', valueName: 'FILE', description: 'exit 1 unless the result equals FILE byte for byte' } },
  async run(ctx) {
    const arg = ctx.args[0]!;
    const source = arg === '-' ? '<stdin>' : arg;
    const text = arg === '-' ? await ctx.io.readStdin() : utf8Decode(readBytes(ctx.resolvePath(arg)));
    if (typeof ctx.options['output'] !== 'string' && typeof ctx.options['compare'] !== 'string') throw new UsageError('missing -o OUT (or --compare FILE)');
    const { bytes, result } = assembleHksFile(text, { source, dialect: dialectOf(ctx) });
    let diff: number | null = null;
    if (typeof ctx.options['compare'] === 'string') {
      const other = readBytes(ctx.resolvePath(ctx.options['compare']));
      diff = firstDifference(bytes, other);
      if (diff >= 0 && !ctx.json) {
        ctx.out(`differs from ${ctx.options['compare']} at 0x${diff.toString(16)} (${bytes.length} vs ${other.length} bytes)`);
        ctx.out(hexdump(bytes, Math.max(0, diff - 16), 48));
      }
    }
    const out = typeof ctx.options['output'] === 'string' ? writeOut(ctx, bytes) : null;
    // A hand-edited listing may assemble into code the VM would misread (missing DATA words, bad registers):
    // the verifier's findings are reported, without changing the exit status.
    const findings = verifyHksChunk(result.chunk, { dialect: result.dialect }).filter((i) => i.severity !== 'info');
    if (ctx.json) ctx.printJson({ output: out, bytes: bytes.length, identical: diff === null ? null : diff < 0, firstDifference: diff !== null && diff >= 0 ? diff : null, findings });
    else {
      if (out) ctx.err(`wrote ${out} (${bytes.length} bytes)`);
      if (findings.length > 0) {
        ctx.err(`verify: ${findings.length} finding(s) in the assembled code (see \`scry script verify\`):`);
        for (const i of findings.slice(0, 10)) ctx.err(`  ${formatIssue(i)}`);
      }
    }
    if (diff !== null && diff < 0 && !ctx.json) ctx.out('identical');
    return diff !== null && diff >= 0 ? ExitCode.Findings : ExitCode.Ok;
  },
};

function formatIssue(i: Issue): string {
  return `${i.severity.padEnd(7)} ${i.rule.padEnd(24)} ${i.message}${i.hypothesis ? ` [hypothesis ${i.hypothesis}]` : ''}`;
}

const verifyCommand: Command = {
  path: ['script', 'verify'],
  summary: 'operand ranges, jumps, DATA ownership and both round trips (write, disasm+asm); exit 1 on errors or warnings',
  usage: 'FILE',
  minArgs: 1,
  maxArgs: 1,
  options: { ...dialectOption, limit: { type: 'string', valueName: 'N', description: 'show at most N findings (default 50; --json shows all up to 10 000)' } },
  run(ctx) {
    const dialect = dialectOf(ctx);
    const { path, bytes, file } = open(ctx);
    const rt = roundTrip(bytes, file, dialect);
    const issues: Issue[] = [];
    if (rt.write >= 0) issues.push({ rule: 'hks.roundtrip.write', message: `write(parse(file)) differs at byte 0x${rt.write.toString(16)}`, severity: 'error', offset: rt.write });
    if (rt.listing >= 0) issues.push({ rule: 'hks.roundtrip.listing', message: `asm(disasm(file)) differs at byte 0x${rt.listing.toString(16)}`, severity: 'error', offset: rt.listing });
    if (file.kind !== 'scri-source') issues.push(...verifyHksChunk(file.chunk, { dialect }));
    if (file.scri && file.scri.trailing.length > 0) issues.push({ rule: 'scri.trailing', message: `${file.scri.trailing.length} byte(s) after the SCRI body`, severity: 'warning', hypothesis: 'hks.scri.trailing' });
    if (file.scri && file.scri.flag > 1) issues.push({ rule: 'scri.flag', message: `SCRI flag ${file.scri.flag} (only 0 and 1 are known)`, severity: 'warning', hypothesis: 'hks.scri.flag' });
    const counts = countHksFindings(issues);
    const failing = counts.error + counts.warning > 0;
    if (ctx.json) ctx.printJson({ file: path, ok: !failing, counts, roundTrip: { write: rt.write < 0, listing: file.kind === 'scri-source' ? null : rt.listing < 0 }, issues, hypotheses: HKS_HYPOTHESES });
    else {
      const limitOpt = ctx.options['limit'];
      const limit = typeof limitOpt === 'string' ? Math.max(0, Number(limitOpt) | 0) : 50;
      ctx.out(`${path}: ${counts.error} error(s), ${counts.warning} warning(s), ${counts.info} note(s); round trip: write ${rt.write < 0 ? 'identical' : 'DIFFERS'}${file.kind === 'scri-source' ? '' : `, listing ${rt.listing < 0 ? 'identical' : 'DIFFERS'}`}`);
      for (const i of issues.slice(0, limit)) ctx.out(`  ${formatIssue(i)}`);
      if (issues.length > limit) ctx.out(`  … ${issues.length - limit} more (--limit N, or --json)`);
    }
    return failing ? ExitCode.Findings : ExitCode.Ok;
  },
};

const stringsCommand: Command = {
  path: ['script', 'strings'],
  summary: 'distinct string constants, with how many functions hold each',
  usage: 'FILE',
  minArgs: 1,
  maxArgs: 1,
  run(ctx) {
    const { file } = open(ctx);
    requireBytecode(file);
    const a = analyzeHksChunk(file.chunk);
    if (ctx.json) ctx.printJson(a.strings);
    else for (const s of a.strings) ctx.out(`${String(s.functions).padStart(5)}  ${JSON.stringify(s.value)}`);
    return ExitCode.Ok;
  },
};

const sortedEntries = (m: Map<string, number>): [string, number][] => [...m].sort((x, y) => y[1] - x[1] || x[0].localeCompare(y[0]));

const callsCommand: Command = {
  path: ['script', 'calls'],
  summary: 'globals read and written, fields, calls by qualified name, natives and DB record references',
  usage: 'FILE',
  minArgs: 1,
  maxArgs: 1,
  options: { ...dialectOption },
  run(ctx) {
    const { file } = open(ctx);
    requireBytecode(file);
    const a = analyzeHksChunk(file.chunk, { dialect: dialectOf(ctx) });
    const sections: [string, Map<string, number>][] = [
      ['natives', a.natives],
      ['calls', a.calls],
      ['records', a.records],
      ['globalsRead', a.globalsRead],
      ['globalsWritten', a.globalsWritten],
      ['fieldsRead', a.fieldsRead],
      ['fieldsWritten', a.fieldsWritten],
    ];
    if (ctx.json) ctx.printJson(Object.fromEntries(sections.map(([k, m]) => [k, Object.fromEntries(sortedEntries(m))])));
    else
      for (const [k, m] of sections) {
        ctx.out(`${k} (${m.size}):`);
        for (const [name, n] of sortedEntries(m)) ctx.out(`  ${String(n).padStart(5)}  ${name}`);
      }
    return ExitCode.Ok;
  },
};

const xrefCommand: Command = {
  path: ['script', 'xref'],
  summary: 'where NAME is used: global reads/writes, field reads/writes, methods, calls and constants (exit 1 when unused)',
  usage: 'FILE NAME',
  minArgs: 2,
  maxArgs: 2,
  options: { ...dialectOption },
  run(ctx) {
    const { file } = open(ctx);
    requireBytecode(file);
    const refs = xrefHks(analyzeHksChunk(file.chunk, { dialect: dialectOf(ctx) }), ctx.args[1]!);
    if (ctx.json) ctx.printJson(refs);
    else
      for (const r of refs) {
        const where = r.pc < 0 ? `${r.opcode}` : `pc ${r.pc}${r.line !== undefined ? ` line ${r.line}` : ''} ${r.opcode}`;
        ctx.out(`${r.function.padEnd(12)} ${r.functionName.padEnd(24)} ${where.padEnd(34)} ${r.role.padEnd(12)} ${r.name}`);
      }
    return refs.length > 0 ? ExitCode.Ok : ExitCode.Findings;
  },
};

const extractCommand: Command = {
  path: ['script', 'extract'],
  summary: 'write the body of a SCRI container (Lua source text or bytecode chunk) to OUT',
  usage: 'FILE -o OUT',
  minArgs: 1,
  maxArgs: 1,
  options: { ...writeOptions },
  run(ctx) {
    const { file } = open(ctx, true);
    if (!file.scri) throw new UsageError('not a SCRI container (the file is already a bare chunk)');
    const out = writeOut(ctx, file.scri.body);
    const truncatedBy = file.kind === 'scri-source' ? file.truncatedBy : 0;
    if (ctx.json) ctx.printJson({ output: out, bytes: file.scri.body.length, body: file.kind === 'scri-source' ? 'lua-source' : 'bytecode', truncatedBy });
    else ctx.err(`wrote ${out} (${file.scri.body.length} bytes${truncatedBy ? `, ${truncatedBy} missing: the input is truncated` : ''})`);
    return ExitCode.Ok;
  },
};

export const scriptCommands: Command[] = [infoCommand, disasmCommand, asmCommand, verifyCommand, stringsCommand, callsCommand, xrefCommand, extractCommand];

/** The issue's spelling: `scry hks VERB …` runs the same commands as `scry script VERB …`. */
export const hksCommands: Command[] = scriptCommands.map((c) => ({
  ...c,
  path: ['hks', ...c.path.slice(1)],
  aliasOf: 'script',
}));
