/**
 * The HavokScript compiler: source text → AST (`parseLua`) and → bytecode chunk model (`compileLua`), producing
 * the bytes hksc (Jake-NotTheMuss/hksc, `ds3` build, int literals on) produces for the same source at every strip
 * level. The chunk model is written by the codec's `writeHksChunk` (src/formats/hks); nothing here writes bytes.
 *
 * Every problem in the source is a {@link CompileError}; no input makes these functions throw anything else or
 * run without bound (nesting is limited like hksc's: 128 syntax levels, 200 locals, 250 registers…).
 */
import type { Chunk } from '../ast.ts';
import { findLoneSurrogate, latin1Decode, utf8Encode } from '../../binary/text.ts';
import { HKS_SHADOW_OF_WAR_HEADER, HKS_STANDARD_TYPES, type HksChunk, type HksFunction, type HksHeader } from '../../formats/hks/chunk.ts';
import type { CompileContext, NumberMode, Proto } from './codegen.ts';
import { CompileError, luaChunkId } from './errors.ts';
import { Lexer } from './lexer.ts';
import { Parser } from './parser.ts';
import type { HksStructureOrder } from '../../formats/hks/structure-order.ts';
import { buildStructureSection, StructRegistry } from './structures.ts';

export { CompileError, COMPILE_ERROR_CODE, luaChunkId } from './errors.ts';
export type { NumberMode } from './codegen.ts';
/** Order of the structure section, hypothesis H-STRUCT-ORDER (`ds3` default, `iw6` alternative). */
export type StructureOrder = HksStructureOrder;
export { COMPILE_HYPOTHESES, type CompileHypothesis } from './hypotheses.ts';

/** Debug information kept: `none` stripped = full debug info (hksc `-s=n`), `profile` (`-s=p`), `all` (`-s=a`). */
export type StripLevel = 'none' | 'profile' | 'all';
export const STRIP_LEVELS: readonly StripLevel[] = ['none', 'profile', 'all'];
export const NUMBER_MODES: readonly NumberMode[] = ['float', 'double'];

export interface ParseOptions {
  /**
   * The chunk's source name as Lua keeps it: `@file.lua` (a file), `=name` (shown as is), or any other text (shown
   * as `[string "…"]`). A name without `@` or `=` is taken as a file name (`x.lua` → `@x.lua`). Default `?`.
   */
  chunkName?: string;
}

export interface CompileOptions {
  /** Source name (see {@link ParseOptions.chunkName}); hksc writes `@` + the file name as given. */
  name?: string;
  /**
   * The source name exactly as Lua keeps it, a byte string (one char per byte), used as is instead of `name`: what
   * `loadstring(s [, chunkname])` gives a VM (the source text itself by default, so messages read `[string "…"]`).
   */
  sourceName?: string;
  /** Debug information to keep (default `none`: everything). */
  strip?: StripLevel;
  /** Number type of the chunk: `float` (4-byte float32, Shadow of War's) or `double` (8-byte; header flag bit 3). */
  numbers?: NumberMode;
  /** Order of the structure section (hypothesis H-STRUCT-ORDER; default `ds3`). */
  structureOrder?: StructureOrder;
}

/** The AST and the compiled chunk of one source. */
export interface CompileResult {
  ast: Chunk;
  chunk: HksChunk;
}

const TEXT_FIELD = { format: 'lua', path: '/source' };

/** hksc's source name for a user-given name, as a byte string (UTF-8 bytes, one char per byte). */
function sourceName(name: string | undefined): string {
  if (name === undefined) return '?';
  const full = name.startsWith('@') || name.startsWith('=') ? name : `@${name}`;
  return /^[\x00-\x7f]*$/.test(full) ? full : latin1Decode(utf8Encode(full, { format: 'lua', path: '/name' }));
}

/**
 * The bytes hksc's file loader hands the lexer: a string as UTF-8 (a lone surrogate, which UTF-8 cannot hold, is
 * refused), and a first line starting with `#` (a shebang) becomes empty.
 */
function sourceBytes(source: string | Uint8Array, chunkId: string): Uint8Array {
  if (typeof source === 'string') {
    const at = findLoneSurrogate(source);
    if (at >= 0) {
      const before = source.slice(0, at);
      const line = before.split('\n').length;
      throw new CompileError(chunkId, line, at - before.lastIndexOf('\n'), `source text has a lone surrogate U+${source.charCodeAt(at).toString(16).toUpperCase()} at index ${at}, which UTF-8 cannot hold`);
    }
  }
  const bytes = typeof source === 'string' ? utf8Encode(source, TEXT_FIELD) : source;
  if (bytes.length > 0 && bytes[0] === 0x23) {
    const nl = bytes.indexOf(0x0a);
    const rest = nl < 0 ? new Uint8Array(0) : bytes.subarray(nl + 1);
    const out = new Uint8Array(rest.length + 1);
    out[0] = 0x0a;
    out.set(rest, 1);
    return out;
  }
  return bytes;
}

function run(source: string | Uint8Array, name: string, numbers: NumberMode, ast: boolean): { parsed: ReturnType<Parser['parseMain']>; structs: StructRegistry } {
  const chunkId = luaChunkId(name);
  const src = sourceBytes(source, chunkId);
  if (src.length > 0 && src[0] === 0x1b) throw new CompileError(chunkId, 1, 1, 'input is a bytecode chunk, not source text');
  const ls = new Lexer(src, chunkId);
  const structs = new StructRegistry();
  const ctx: CompileContext = { ls, numbers, structs, num: numbers === 'float' ? Math.fround : (x: number) => x };
  try {
    return { parsed: new Parser(ctx, { ast }).parseMain(), structs };
  } catch (e) {
    if (e instanceof CompileError) throw e;
    // A JavaScript engine limit (e.g. the call stack on a pathological input) is still a problem of the input.
    if (e instanceof RangeError) throw new CompileError(chunkId, ls.line, ls.tokCol, `input too complex (${e.message})`);
    throw e;
  }
}

/**
 * Parses HavokScript source into its AST. `source` is the file's bytes (exact) or a string (encoded as UTF-8).
 * Reports every error hksc reports for the source, semantic ones included (undeclared structure types, bad slot
 * stores), as a {@link CompileError}.
 */
export function parseLua(source: string | Uint8Array, options: ParseOptions = {}): Chunk {
  return run(source, sourceName(options.chunkName), 'float', true).parsed.chunk;
}

/** Compiles HavokScript source into a chunk model, byte-identical to hksc's once written by `writeHksChunk`. */
export function compileLua(source: string | Uint8Array, options: CompileOptions = {}): HksChunk {
  return compile(source, options, false).chunk;
}

/** Like {@link compileLua}, also returning the AST of the source. */
export function compileLuaWithAst(source: string | Uint8Array, options: CompileOptions = {}): CompileResult {
  return compile(source, options, true);
}

function compile(source: string | Uint8Array, options: CompileOptions, ast: boolean): CompileResult {
  const name = options.sourceName ?? sourceName(options.name);
  const numbers = options.numbers ?? 'float';
  const strip = options.strip ?? 'none';
  const { parsed, structs } = run(source, name, numbers, ast);
  const main = toHksFunction(parsed.main, strip, name, true);
  const header: HksHeader = { ...HKS_SHADOW_OF_WAR_HEADER, numberSize: numbers === 'float' ? 4 : 8, buildFlags: numbers === 'float' ? 0x03 : 0x0b };
  const chunk: HksChunk = {
    header,
    types: HKS_STANDARD_TYPES.map((t) => ({ ...t })),
    main,
    structures: buildStructureSection(main, structs, options.structureOrder ?? 'ds3'),
    trailing: new Uint8Array(0),
  };
  return { ast: parsed.chunk, chunk };
}

function toHksFunction(p: Proto, strip: StripLevel, source: string, isMain: boolean): HksFunction {
  const full = strip === 'none';
  return {
    upvalueCount: p.upvalueCount,
    paramCount: p.paramCount,
    varargFlags: p.varargFlags,
    maxStackSize: p.maxStackSize,
    padByte: 0x5f,
    code: p.code,
    constants: p.constants,
    debug:
      strip === 'all'
        ? null
        : {
            lineDefined: p.lineDefined,
            lastLineDefined: p.lastLineDefined,
            source: isMain ? source : null,
            name: p.name,
            lines: full ? p.lines : [],
            locals: full ? p.locals.map((l) => ({ name: l.name, startPc: l.startPc, endPc: l.endPc })) : [],
            upvalueNames: full ? p.upvalueNames : [],
          },
    children: p.children.map((c) => toHksFunction(c, strip, source, false)),
  };
}
