/**
 * The proof: a decompiled function is *proven* when compiling the printed source at the original's strip level
 * and number mode gives that function back exactly: the same counts (upvalues, parameters, vararg flags, stack
 * size), the same code words, the same constants (bit for bit), the same number of children and, when the
 * original has them, the same debug facts (lines, locals with their pc ranges, upvalue names, defined lines,
 * name). Functions are paired by their position in the prototype tree (`main`, `main/0`, …).
 */
import type { HksChunk, HksConstant, HksFunction } from '../../formats/hks/chunk.ts';
import { sameHksConstant } from '../../formats/hks/literals.ts';
import { compileLua, CompileError, type NumberMode, type StripLevel, type StructureOrder } from '../compile/index.ts';
import { hksMatchingStructureOrders } from '../../formats/hks/structure-order.ts';

/** What to compare: `lines: false` leaves line numbers out (a diagnostic: "proven but for line info"). */
export interface CompareOptions {
  lines?: boolean;
}

/** The outcome for one function of the original chunk. */
export interface FunctionProof {
  /** Path in the prototype tree. */
  path: string;
  /** Debug name of the original when it has one. */
  name: string | null;
  matched: boolean;
  /** The first difference (absent when matched). */
  difference?: string;
}

/** The outcome for a whole chunk. */
export interface ChunkProof {
  /** Strip level and number mode the source was recompiled with. */
  strip: StripLevel;
  numbers: NumberMode;
  /** Set when the printed source did not compile at all (then every function is unmatched). */
  compileError?: string;
  functions: FunctionProof[];
  matched: number;
  total: number;
  /** Chunk-level facts that differ (header, structure section), each a sentence. */
  chunkDifferences: string[];
}

/** The strip level a chunk was built with: stripped, profile (names and defined lines only) or full debug info. */
export function hksStripLevel(chunk: HksChunk): StripLevel {
  const d = chunk.main.debug;
  if (!d) return 'all';
  return d.lines.length > 0 || chunk.main.code.length === 0 ? 'none' : 'profile';
}

/** Recompiles `source` like `original` was compiled and compares every function. */
export function proveHksChunk(original: HksChunk, source: string, options: CompareOptions = {}): ChunkProof {
  const strip = hksStripLevel(original);
  const numbers: NumberMode = original.header.numberSize === 8 ? 'double' : 'float';
  const sourceName = original.main.debug?.source ?? undefined;
  const paths = listFunctions(original.main, 'main');
  let recompiled: HksChunk;
  try {
    // The structure section's order (H-STRUCT-ORDER): the one that reproduces the original's, else hksc's ds3.
    const structureOrder: StructureOrder = original.structures ? (hksMatchingStructureOrders(original.main, original.structures.structures)[0] ?? 'ds3') : 'ds3';
    const opts: { strip: StripLevel; numbers: NumberMode; name?: string; structureOrder: StructureOrder } = { strip, numbers, structureOrder };
    if (sourceName !== undefined && sourceName !== null) opts.name = sourceName;
    recompiled = compileLua(source, opts);
  } catch (e) {
    const message = e instanceof CompileError ? e.message : e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    if (!(e instanceof CompileError)) throw e;
    return {
      strip,
      numbers,
      compileError: message,
      functions: paths.map(({ path, fn }) => ({ path, name: fn.debug?.name ?? null, matched: false, difference: `the source does not compile: ${message}` })),
      matched: 0,
      total: paths.length,
      chunkDifferences: [],
    };
  }
  // The compiler builds the chunk model; its writer serialises it in either byte order, so the recompiled chunk
  // is compared as it would be written in the original's (Halo Infinite's chunks are big-endian).
  recompiled = { ...recompiled, header: { ...recompiled.header, littleEndian: original.header.littleEndian } };
  const mine = new Map(listFunctions(recompiled.main, 'main').map((e) => [e.path, e.fn]));
  const functions: FunctionProof[] = paths.map(({ path, fn }) => {
    const other = mine.get(path);
    const difference = other ? compareHksFunctions(fn, other, options) : 'the recompiled chunk has no function here';
    const p: FunctionProof = { path, name: fn.debug?.name ?? null, matched: difference === null };
    if (difference !== null) p.difference = difference;
    return p;
  });
  return { strip, numbers, functions, matched: functions.filter((f) => f.matched).length, total: functions.length, chunkDifferences: compareChunkLevel(original, recompiled) };
}

function listFunctions(fn: HksFunction, path: string, out: { path: string; fn: HksFunction }[] = []): { path: string; fn: HksFunction }[] {
  out.push({ path, fn });
  fn.children.forEach((c, i) => listFunctions(c, `${path}/${i}`, out));
  return out;
}

function constantText(k: HksConstant | undefined): string {
  if (!k) return 'none';
  switch (k.type) {
    case 'nil':
      return 'nil';
    case 'string':
      return JSON.stringify(k.value);
    case 'boolean':
      return String(k.value !== 0);
    default:
      return `${k.type} ${String(k.value)}`;
  }
}

/**
 * The first difference between a function and its recompilation (children are compared separately; only
 * their number counts here), or null when they are the same.
 */
export function compareHksFunctions(a: HksFunction, b: HksFunction, options: CompareOptions = {}): string | null {
  const lines = options.lines !== false;
  const counts: [string, number, number][] = [
    ['upvalue count', a.upvalueCount, b.upvalueCount],
    ['parameter count', a.paramCount, b.paramCount],
    ['vararg flags', a.varargFlags, b.varargFlags],
    ['child count', a.children.length, b.children.length],
  ];
  for (const [what, x, y] of counts) if (x !== y) return `${what} ${x}, recompiled ${y}`;
  const n = Math.min(a.code.length, b.code.length);
  for (let pc = 0; pc < n; pc++) {
    if (a.code[pc] !== b.code[pc]) return `code differs at pc ${pc}: 0x${a.code[pc]!.toString(16).padStart(8, '0')}, recompiled 0x${b.code[pc]!.toString(16).padStart(8, '0')}`;
  }
  if (a.code.length !== b.code.length) return `code length ${a.code.length} words, recompiled ${b.code.length}`;
  if (a.maxStackSize !== b.maxStackSize) return `stack size ${a.maxStackSize}, recompiled ${b.maxStackSize}`;
  const nk = Math.max(a.constants.length, b.constants.length);
  for (let k = 0; k < nk; k++) {
    const x = a.constants[k];
    const y = b.constants[k];
    if (!x || !y || !sameHksConstant(x, y)) return `constant ${k} is ${constantText(x)}, recompiled ${constantText(y)}`;
  }
  if ((a.debug === null) !== (b.debug === null)) return a.debug ? 'recompiled without debug info' : 'recompiled with debug info';
  const da = a.debug;
  const db = b.debug;
  if (da && db) {
    if (lines && da.lineDefined !== db.lineDefined) return `defined at line ${da.lineDefined}, recompiled ${db.lineDefined}`;
    if (lines && da.lastLineDefined !== db.lastLineDefined) return `last line ${da.lastLineDefined}, recompiled ${db.lastLineDefined}`;
    if (da.name !== db.name) return `name ${JSON.stringify(da.name)}, recompiled ${JSON.stringify(db.name)}`;
    if (da.source !== db.source) return `source ${JSON.stringify(da.source)}, recompiled ${JSON.stringify(db.source)}`;
    const nl = Math.max(da.lines.length, db.lines.length);
    for (let pc = 0; pc < nl && lines; pc++) if (da.lines[pc] !== db.lines[pc]) return `line of pc ${pc} is ${da.lines[pc] ?? 'none'}, recompiled ${db.lines[pc] ?? 'none'}`;
    const nloc = Math.max(da.locals.length, db.locals.length);
    for (let i = 0; i < nloc; i++) {
      const x = da.locals[i];
      const y = db.locals[i];
      const text = (l: typeof x): string => (l ? `${JSON.stringify(l.name)} [${l.startPc}, ${l.endPc})` : 'none');
      if (!x || !y || x.name !== y.name || x.startPc !== y.startPc || x.endPc !== y.endPc) return `local ${i} is ${text(x)}, recompiled ${text(y)}`;
    }
    const nu = Math.max(da.upvalueNames.length, db.upvalueNames.length);
    for (let i = 0; i < nu; i++) if (da.upvalueNames[i] !== db.upvalueNames[i]) return `upvalue name ${i} is ${JSON.stringify(da.upvalueNames[i])}, recompiled ${JSON.stringify(db.upvalueNames[i])}`;
  }
  return null;
}

function compareChunkLevel(a: HksChunk, b: HksChunk): string[] {
  const out: string[] = [];
  const ha = a.header;
  const hb = b.header;
  for (const k of Object.keys(ha) as (keyof typeof ha)[]) if (ha[k] !== hb[k]) out.push(`header ${k} is ${String(ha[k])}, recompiled ${String(hb[k])}`);
  const sa = a.structures?.structures ?? [];
  const sb = b.structures?.structures ?? [];
  if ((a.structures === null) !== (b.structures === null)) out.push(a.structures ? 'recompiled without a structure section' : 'recompiled with a structure section');
  else if (JSON.stringify(sa) !== JSON.stringify(sb)) out.push(`structure section differs (${sa.length} structure(s), recompiled ${sb.length})`);
  return out;
}
