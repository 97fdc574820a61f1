/**
 * The compiler's one error type. Every problem in a source text (lexical, syntactic, semantic, a compiler limit)
 * is a `CompileError` with the chunk name, the line hksc reports and a column, and hksc's message text; the
 * rendered message has Lua's shape: `x.lua:7: '=' expected near 'end'`.
 */
import { ToolkitError } from '../../binary/errors.ts';

/** Error code of {@link CompileError} (the CLI maps it to exit code 3, bad input). */
export const COMPILE_ERROR_CODE = 'E_COMPILE';

export class CompileError extends ToolkitError {
  override name = 'CompileError';
  /** The chunk name as Lua shows it (`x.lua` for source `@x.lua`). */
  readonly chunkName: string;
  /** 1-based line, as hksc reports it (the line the lexer is on when it detects the problem). */
  readonly line: number;
  /** 1-based byte column of the token the problem was detected at (0 when not tied to a token). */
  readonly column: number;
  /** The message without the `chunk:line:` prefix, e.g. `'=' expected near 'end'`. */
  readonly reason: string;
  constructor(chunkName: string, line: number, column: number, reason: string) {
    super(COMPILE_ERROR_CODE, `${chunkName}:${line}: ${reason}`);
    this.chunkName = chunkName;
    this.line = line;
    this.column = column;
    this.reason = reason;
  }
}

/**
 * The chunk name Lua prints for a source name (luaO_chunkid): `@file` → `file` (long names keep their last part
 * behind `...`), `=name` → `name`, anything else → `[string "first line..."]`.
 */
export function luaChunkId(source: string, max = 512): string {
  if (source.startsWith('=')) return source.slice(1, max);
  if (source.startsWith('@')) {
    const name = source.slice(1);
    const room = max - " '...' ".length - 1;
    return name.length > room ? '...' + name.slice(name.length - room) : name;
  }
  const room = max - ' [string "..."] '.length - 1;
  const firstLine = source.split(/[\n\r]/, 1)[0]!;
  const cut = Math.min(firstLine.length, room);
  return cut < source.length ? `[string "${source.slice(0, cut)}..."]` : `[string "${source}"]`;
}
