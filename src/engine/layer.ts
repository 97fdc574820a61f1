/**
 * A world layer's script as the engine loads it (seed 002, "World scripts"): one SCRI payload whose body is Lua
 * source (flag 1) or a HavokScript chunk (flag 0), shipped as a standalone `<layer>.scripts` entry or a SCRI
 * section of the layer's container. Source is compiled, bytecode loaded.
 *
 * Compiled layer scripts are cached for the whole process in the main VM's global reinstall table (0x6A60EC:
 * reinstall[id] unset → compile the buffer and set it; set → reuse it), so a layer's script is compiled once per
 * process, the first time its region loads. `LayerCache` is that table; `processLayerCache` the process's one.
 */
import { FormatError } from '../binary/errors.ts';
import type { HksChunk } from '../formats/hks/chunk.ts';
import { openHksFile } from '../formats/hks/file.ts';
import type { Chunk } from '../script/ast.ts';
import { compileLuaWithAst, parseLua } from '../script/compile/index.ts';

/** A layer's script, opened. */
export interface Layer {
  /** The layer's name (the file name without `.scripts`, or what the caller gives). */
  readonly name: string;
  readonly kind: 'source' | 'bytecode';
  /** The source body as bytes (one char per byte when decoded for the compiler). */
  readonly source?: Uint8Array;
  readonly chunk?: HksChunk;
  /** How the bytes came: a SCRI container, a bare chunk, or plain source text. */
  readonly container: 'scri' | 'chunk' | 'text';
  /** A SCRI body cut short (a `.scripts` head): the bytes missing. A source cut short does not compile. */
  readonly truncatedBy: number;
}

/** The layer name of a path: its base name without `.scripts` / `.lua` / `.luac`. */
export function layerNameOf(path: string): string {
  const base = path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
  return base.replace(/\.(scripts|lua|luac|hks)$/i, '') || base;
}

/**
 * Opens a layer's script from its bytes: a SCRI container (`.scripts`), a bare chunk (`\x1bLua`), or plain source
 * text (anything else that is not binary: what a modder edits).
 */
export function openLayer(bytes: Uint8Array, name: string): Layer {
  if (bytes.length >= 4 && (bytes[0] === 0x53 || bytes[0] === 0x1b)) {
    let file;
    try {
      file = openHksFile(bytes, { allowTruncated: true });
    } catch (e) {
      if (!(e instanceof FormatError) || e.offset !== 0) throw e;
      file = undefined;
    }
    if (file?.kind === 'scri-source') return { name, kind: 'source', source: file.scri.body, container: 'scri', truncatedBy: file.truncatedBy };
    if (file) return { name, kind: 'bytecode', chunk: file.chunk, container: file.kind === 'chunk' ? 'chunk' : 'scri', truncatedBy: 0 };
  }
  if (bytes.includes(0)) throw new FormatError('scri', bytes.indexOf(0), '/', 'neither a SCRI container, a HavokScript chunk nor Lua source text (a NUL byte)');
  return { name, kind: 'source', source: bytes, container: 'text', truncatedBy: 0 };
}

/** The AST of a source layer (for `script needs`). */
export function layerAst(layer: Layer): Chunk {
  if (!layer.source) throw new FormatError('scri', 0, '/', `${layer.name} is bytecode; it has no source AST`);
  return parseLua(layer.source, { chunkName: `${layer.name}.lua` });
}

/** One reinstall-table entry. */
export interface CachedLayer {
  readonly chunk: HksChunk;
  readonly ast?: Chunk;
  /** Times the cache handed it out (the first = the compile). */
  uses: number;
}

/** The reinstall table: layer id → compiled chunk. */
export class LayerCache {
  readonly #entries = new Map<string, CachedLayer>();
  /** Compiles done (a cache miss each). */
  compiles = 0;

  /**
   * The compiled chunk of a layer: compiled (source) or taken as is (bytecode) the first time its id is seen,
   * reused afterwards. Returns whether this call compiled it.
   */
  get(layer: Layer): { entry: CachedLayer; compiled: boolean } {
    const hit = this.#entries.get(layer.name);
    if (hit) {
      hit.uses++;
      return { entry: hit, compiled: false };
    }
    let entry: CachedLayer;
    if (layer.chunk) entry = { chunk: layer.chunk, uses: 1 };
    else {
      const r = compileLuaWithAst(layer.source!, { name: `${layer.name}.lua`, strip: 'none', numbers: 'float' });
      entry = { chunk: r.chunk, ast: r.ast, uses: 1 };
      this.compiles++;
    }
    this.#entries.set(layer.name, entry);
    return { entry, compiled: true };
  }

  has(name: string): boolean {
    return this.#entries.has(name);
  }

  get size(): number {
    return this.#entries.size;
  }

  clear(): void {
    this.#entries.clear();
  }
}

/** The process-wide reinstall table. */
export const processLayerCache = new LayerCache();
