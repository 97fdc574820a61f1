/**
 * The toolkit's error hierarchy. Every error a user can cause says where: a byte offset and a field path for
 * binary input, a line and column for text input. Bad input raises a `ToolkitError` subclass; an impossible
 * state inside the toolkit is a plain `Error` (a bug).
 *
 * Message shape: `gadb: expected u32 0x11 at 0x0004 (/header/version), got 0x12`.
 */

/** Stable codes that the CLI maps to exit codes and the UI to messages. */
export const ErrorCode = {
  Format: 'E_FORMAT',
  Eof: 'E_EOF',
  Unsupported: 'E_UNSUPPORTED',
  Consistency: 'E_CONSISTENCY',
  Hash: 'E_HASH',
  NotFound: 'E_NOT_FOUND',
  Usage: 'E_USAGE',
  Asm: 'E_ASM',
  Vfs: 'E_VFS',
  Codec: 'E_CODEC',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** Base of every error the toolkit raises for bad input or bad requests. */
export class ToolkitError extends Error {
  override name = 'ToolkitError';
  readonly code: string;
  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

/** Formats an offset the way every message in the toolkit does: `0x` and at least four hex digits. */
export function hexOffset(offset: number): string {
  return '0x' + offset.toString(16).toUpperCase().padStart(4, '0');
}

/** Formats a value for an error message: numbers in hex and decimal, other values as JSON. */
export function describeValue(value: unknown): string {
  if (typeof value === 'number' && Number.isInteger(value)) {
    return value < 0 ? String(value) : `0x${value.toString(16).toUpperCase()}`;
  }
  if (typeof value === 'bigint') return `0x${value.toString(16).toUpperCase()}`;
  if (typeof value === 'string') return JSON.stringify(value);
  if (value instanceof Uint8Array) return `<${Array.from(value, (b) => b.toString(16).padStart(2, '0')).join(' ')}>`;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

export interface FormatErrorDetails {
  expected?: unknown;
  actual?: unknown;
  cause?: unknown;
}

/** Parse-side error: the input does not match the format. Names the format, the byte offset and the field path. */
export class FormatError extends ToolkitError {
  override name = 'FormatError';
  readonly format: string;
  readonly offset: number;
  readonly path: string;
  readonly expected?: unknown;
  readonly actual?: unknown;
  /** The message without the `format: … at 0x… (path)` decoration. */
  readonly reason: string;
  constructor(format: string, offset: number, path: string, reason: string, details: FormatErrorDetails = {}, code: string = ErrorCode.Format) {
    super(code, `${format}: ${reason} at ${hexOffset(offset)} (${path || '/'})`, { cause: details.cause });
    this.format = format;
    this.offset = offset;
    this.path = path;
    this.reason = reason;
    if ('expected' in details) this.expected = details.expected;
    if ('actual' in details) this.actual = details.actual;
  }
}

/** The input ended before a field could be read. */
export class EofError extends FormatError {
  override name = 'EofError';
  readonly requested: number;
  readonly available: number;
  constructor(format: string, offset: number, path: string, requested: number, available: number) {
    super(format, offset, path, `unexpected end of data: needs ${requested} byte(s), ${available} left`, {}, ErrorCode.Eof);
    this.requested = requested;
    this.available = available;
  }
}

/** A version, flag or variant the toolkit does not (yet) read. */
export class UnsupportedError extends FormatError {
  override name = 'UnsupportedError';
  readonly variant: string;
  constructor(format: string, offset: number, path: string, variant: string, reason?: string) {
    super(format, offset, path, reason ?? `unsupported ${variant}`, {}, ErrorCode.Unsupported);
    this.variant = variant;
  }
}

/** One problem found in a model before writing, or in a file by `verify`. */
export interface Issue {
  /** Stable identifier of the rule that was broken, e.g. `categories.sorted`. */
  rule: string;
  message: string;
  /** Byte offset in the input, when the issue concerns a parsed file. */
  offset?: number;
  /** Field path in the model. */
  path?: string;
  /** The named hypothesis the issue concerns, when the rule is inferred rather than verified. */
  hypothesis?: string;
  severity: 'error' | 'warning' | 'info';
}

/** Write-side error: the model is not consistent and cannot be written as it is. */
export class ConsistencyError extends ToolkitError {
  override name = 'ConsistencyError';
  readonly format: string;
  readonly issues: Issue[];
  constructor(format: string, issues: Issue[]) {
    const head = issues.slice(0, 5).map((i) => `${i.path ?? ''} ${i.message}`.trim());
    const more = issues.length > 5 ? ` (+${issues.length - 5} more)` : '';
    super(ErrorCode.Consistency, `${format}: model is not consistent: ${head.join('; ')}${more}`);
    this.format = format;
    this.issues = issues;
  }
}

/** A hash that cannot be computed faithfully (e.g. a character whose table value is unknown). */
export class HashError extends ToolkitError {
  override name = 'HashError';
  readonly character: string;
  readonly position: number;
  constructor(message: string, character: string, position: number) {
    super(ErrorCode.Hash, message);
    this.character = character;
    this.position = position;
  }
}

/** A lookup by name, hash or index found nothing. */
export class NotFoundError extends ToolkitError {
  override name = 'NotFoundError';
  constructor(message: string) {
    super(ErrorCode.NotFound, message);
  }
}

/** Assembly text error, with a 1-based line and column. */
export class AsmError extends ToolkitError {
  override name = 'AsmError';
  readonly line: number;
  readonly column: number;
  constructor(message: string, line: number, column: number, source = '<asm>') {
    super(ErrorCode.Asm, `${source}:${line}:${column}: ${message}`);
    this.line = line;
    this.column = column;
  }
}

/** A file-system or mount error, with the virtual path concerned. */
export class VfsError extends ToolkitError {
  override name = 'VfsError';
  readonly path: string;
  constructor(code: string, path: string, message: string) {
    super(code, message);
    this.path = path;
  }
}

/** A compression codec failed or is not available. */
export class CodecError extends ToolkitError {
  override name = 'CodecError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(ErrorCode.Codec, message, options);
  }
}

/** Bad command-line usage (exit code 2 unless stated otherwise). */
export class UsageError extends ToolkitError {
  override name = 'UsageError';
  constructor(message: string) {
    super(ErrorCode.Usage, message);
  }
}
