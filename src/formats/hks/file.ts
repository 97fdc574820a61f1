/**
 * Files as users have them: a bare chunk (`\x1bLua…`) or a SCRI container (`.scripts` entry) whose body is a
 * chunk (flag 0) or Lua source text (flag 1). One entry point for the CLI and the runtime layers.
 */
import { FormatError } from '../../binary/errors.ts';
import { isScri, parseScri, writeScri, SCRI_HEADER_SIZE, type Scri } from '../scri/scri.ts';
import { hasLuaSignature, isHksChunk, parseHksChunk, writeHksChunk, type HksChunk, type HksParseOptions } from './chunk.ts';
import { assembleHks, type HksAssembleOptions, type HksAssembleResult } from './asm.ts';
import { disassembleHks, type HksDisassembleOptions } from './disasm.ts';

export type HksFile =
  | { kind: 'chunk'; chunk: HksChunk; scri: null }
  | { kind: 'scri-bytecode'; chunk: HksChunk; scri: Scri }
  | { kind: 'scri-source'; scri: Scri; truncatedBy: number };

export interface HksOpenOptions extends HksParseOptions {
  /** Accept a SCRI whose body is cut short (source text only). */
  allowTruncated?: boolean;
}

/** Opens a bare chunk or a SCRI container. Bytecode bodies are parsed; source bodies are returned as they are. */
export function openHksFile(bytes: Uint8Array, options: HksOpenOptions = {}): HksFile {
  if (isScri(bytes)) {
    const scri = parseScri(bytes, { allowTruncated: options.allowTruncated ?? false });
    if (scri.flag === 0 || (scri.flag !== 1 && isHksChunk(scri.body))) {
      if (scri.truncatedBy > 0) throw new FormatError('scri', 9, '/bodyLength', `bytecode body is truncated by ${scri.truncatedBy} byte(s)`);
      const chunk = parseHksChunk(scri.body, { ...options, baseOffset: SCRI_HEADER_SIZE });
      return { kind: 'scri-bytecode', chunk, scri };
    }
    return { kind: 'scri-source', scri, truncatedBy: scri.truncatedBy };
  }
  // Any `\x1bLua` goes to the chunk parser, which names an unsupported Lua version rather than "not a chunk".
  if (hasLuaSignature(bytes)) return { kind: 'chunk', chunk: parseHksChunk(bytes, options), scri: null };
  throw new FormatError('hks', 0, '/', 'neither a SCRI container nor a HavokScript chunk (expected "SCRI" or "\\x1bLua")');
}

/** Writes an opened file back (rebuilding the chunk from its model). */
export function writeHksFile(file: HksFile): Uint8Array {
  if (file.kind === 'scri-source') return writeScri(file.scri);
  const chunk = writeHksChunk(file.chunk);
  return file.scri ? writeScri({ ...file.scri, body: chunk }) : chunk;
}

/** Disassembles a bytecode file (bare or in SCRI); the listing records the container. */
export function disassembleHksFile(file: HksFile, options: HksDisassembleOptions = {}): string {
  if (file.kind === 'scri-source') throw new FormatError('scri', 8, '/flag', 'the SCRI body is Lua source text, not bytecode');
  return disassembleHks(file.chunk, { ...options, ...(file.scri ? { scri: { version: file.scri.version, flag: file.scri.flag, trailing: file.scri.trailing } } : {}) });
}

/** Assembles a listing to file bytes: a SCRI container when the listing has `.scri`, else a bare chunk. */
export function assembleHksFile(text: string, options: HksAssembleOptions = {}): { bytes: Uint8Array; result: HksAssembleResult } {
  const result = assembleHks(text, options);
  const chunk = writeHksChunk(result.chunk);
  const bytes = result.scri ? writeScri({ version: result.scri.version, flag: result.scri.flag, body: chunk, trailing: result.scri.trailing }) : chunk;
  return { bytes, result };
}
