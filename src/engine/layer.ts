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
import { latin1Decode } from '../binary/text.ts';
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

/**
 * Whether a script is a world layer's: its chunk hands a table to `_G.loadedresource` (every shipped layer source
 * does, seed 002). Source is read for the assignment (`_G.loadedresource =` or `_G["loadedresource"] =`); bytecode
 * for the `loadedresource` string among the main function's constants (the key of that SETFIELD/SETGLOBAL).
 */
export function isWorldLayer(layer: Layer): boolean {
  if (layer.chunk) return layer.chunk.main.constants.some((k) => k.type === 'string' && k.value === 'loadedresource');
  const text = latin1Decode(layer.source ?? new Uint8Array(0));
  return /(?:^|[^\w.])_G\s*(?:\.\s*loadedresource|\[\s*(["'])loadedresource\1\s*\])\s*=[^=]/m.test(text);
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
    const key = layerKey(layer);
    const hit = this.#entries.get(key);
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
    this.#entries.set(key, entry);
    return { entry, compiled: true };
  }

  has(layer: Layer): boolean {
    return this.#entries.has(layerKey(layer));
  }

  get size(): number {
    return this.#entries.size;
  }

  clear(): void {
    this.#entries.clear();
  }
}

/**
 * The reinstall table's key: the layer's name plus a fingerprint of its bytes, so that an edited layer of the same
 * name (a modder's change) is compiled again rather than served stale.
 */
function layerKey(layer: Layer): string {
  const words: ArrayLike<number> = layer.source ?? layer.chunk?.main.code ?? [];
  let h = 0x811c9dc5;
  for (let i = 0; i < words.length; i++) h = Math.imul(h ^ words[i]!, 0x01000193);
  return `${layer.name}\u0000${layer.kind}\u0000${words.length}\u0000${(h >>> 0).toString(16)}`;
}

/** The process-wide reinstall table. */
export const processLayerCache = new LayerCache();

/** Where an entry of the section table comes from, as the shipped source's comment before it says. */
export interface EntryOrigin {
  /** The object and script (`SC.Script`, `DISABLE.Script1`). */
  readonly object: string;
  readonly script: string;
  /** The prefab file (`prefabs\gameplay\…\ammo_large_timed.prefab06c`) and its base name (`ammo_large_timed`). */
  readonly prefabPath: string;
  readonly prefab: string;
}

/**
 * The `-- OBJECT.Script (prefab path)` comment before each entry of a source layer (the shipped sources carry
 * one per entry; bytecode has none), by entry name.
 */
export function entryOrigins(source: Uint8Array): Map<string, EntryOrigin> {
  const text = new TextDecoder('latin1').decode(source);
  const out = new Map<string, EntryOrigin>();
  const re = /^-- ([^\s()]+)\.(Script\d*) \(([^)\r\n]+)\)\r?\n(_[A-Za-z0-9_]+) = /gm;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const prefabPath = m[3]!;
    const base = prefabPath.slice(Math.max(prefabPath.lastIndexOf('\\'), prefabPath.lastIndexOf('/')) + 1).replace(/\.prefab[0-9a-z]*$/i, '');
    out.set(m[4]!, { object: m[1]!, script: m[2]!, prefabPath, prefab: base });
  }
  return out;
}

/**
 * The prefab of an entry without its comment: `_<prefab>_SC_Script_<hash>` exactly; otherwise the longest
 * `_`-separated prefix that another entry shares (prefab scripts compile into one table per prefab), else the
 * first segment.
 */
export function entryPrefab(entry: string, entries: readonly string[]): string {
  const sc = /^_(.+)_SC_Script_[0-9a-fA-F]+$/.exec(entry);
  if (sc) return sc[1]!;
  const body = entry.replace(/^_/, '');
  const cuts: number[] = [];
  for (let i = body.indexOf('_'); i > 0; i = body.indexOf('_', i + 1)) cuts.push(i);
  for (let k = cuts.length - 1; k >= 0; k--) {
    const p = body.slice(0, cuts[k]);
    if (entries.some((e) => e !== entry && e.startsWith(`_${p}_`))) return p;
  }
  return cuts.length ? body.slice(0, cuts[0]) : body;
}
