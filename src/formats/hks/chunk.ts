/**
 * HavokScript (HKS, Havok's Lua 5.1 fork) bytecode chunks, format 14, as loaded by Shadow of War's LoadHeader /
 * LoadFunction / LoadConstants / LoadDebug / LoadStructures. Layout: `specs/hks.md` §2–6 (verified on hksc output,
 * two big-endian Halo Infinite chunks and one proprietary-compiler chunk). Endianness and the int / size_t /
 * number sizes come from the header, never hard-coded.
 *
 * The model keeps every byte the writer needs: the header bytes, the type table as read, each function's vararg
 * flags and observed pad byte, code as raw u32 words (DATA payloads and unused bits included), constants with
 * NaN payloads, debug blocks at every strip level with null-vs-empty strings, the structure section with the
 * layout that parsed, and trailing bytes. `writeHksChunk(parseHksChunk(x))` equals `x` for every fixture.
 */
import { ConsistencyError, FormatError, UnsupportedError, type Issue } from '../../binary/errors.ts';
import { ByteReader } from '../../binary/reader.ts';
import { ByteWriter } from '../../binary/writer.ts';
import { latin1Decode, latin1EncodeInto, latin1Issue } from '../../binary/text.ts';

/** The 4-byte signature `"\x1bLua"`. */
export const HKS_SIGNATURE = Uint8Array.of(0x1b, 0x4c, 0x75, 0x61);
/** Format id used in errors. */
const FMT = 'hks';
/** The pad byte every observed writer uses (Havok's DLL, Halo Infinite, hksc): `'_'`. */
export const HKS_DEFAULT_PAD_BYTE = 0x5f;
/** Nesting limit of the engine's LoadFunction ("code too deep"). */
export const HKS_MAX_FUNCTION_DEPTH = 128;

/** The 14-byte chunk header (§3). */
export interface HksHeader {
  /** Byte 4: Lua version, 0x51. */
  luaVersion: number;
  /** Byte 5: HavokScript format version, 14 (13 = CoD T6, a different debug layout: refused). */
  formatVersion: number;
  /** Byte 6: 1 = little-endian (Shadow of War, hksc on x86), 0 = big-endian (Halo Infinite, Havok DLL sample). */
  littleEndian: boolean;
  /** Byte 7: sizeof(int); 4 in every known file. */
  intSize: number;
  /** Byte 8: sizeof(size_t); 8 in every known file (4 also read). */
  sizeTSize: number;
  /** Byte 9: sizeof(Instruction); always 4. */
  instructionSize: number;
  /** Byte 10: sizeof(lua_Number): 4 (float, Shadow of War) or 8 (double). */
  numberSize: number;
  /** Byte 11: 1 when lua_Number is an integer type, 0 for floating point. */
  integralNumbers: number;
  /** Byte 12: build-compatibility bits (bit0 memoization, bit1 structures, bit2 SELF, bit3 doubles, bit4 native int). */
  buildFlags: number;
  /** Byte 13: bytecode sharing mode (0 offline-compiled; 1 in-place, 2 referenced per the HavokScript API). */
  referenced: number;
}

/** One entry of the type table (§4.1): id and name as read. */
export interface HksTypeEntry {
  id: number;
  /** Name without its NUL terminator (one char per byte); null when the stored length is 0. */
  name: string | null;
}

/** Constant type tags (they are the type-table ids). */
export const HksConstantTag = {
  nil: 0,
  boolean: 1,
  lightuserdata: 2,
  number: 3,
  string: 4,
  ui64: 11,
} as const;

/** One constant (§4.3). Strings are byte strings held one char per byte (latin-1), `null` = null string. */
export type HksConstant =
  | { type: 'nil' }
  /** Raw byte: 0 false, 1 true (other values kept as read). */
  | { type: 'boolean'; value: number }
  | { type: 'lightuserdata'; value: bigint }
  /** `value` is the number as read; `nanBits` keeps a NaN's exact payload (u32 for float, u64 for double). */
  | { type: 'number'; value: number; nanBits?: bigint }
  | { type: 'string'; value: string | null }
  | { type: 'ui64'; value: bigint };

/** A local variable's debug record. */
export interface HksLocal {
  name: string | null;
  startPc: number;
  endPc: number;
}

/** Debug block (§4.4). Profile-level blocks have empty arrays; stripped functions have no block at all. */
export interface HksDebug {
  lineDefined: number;
  lastLineDefined: number;
  /** `null` = a null string (children inherit the parent's source); kept as such. */
  source: string | null;
  name: string | null;
  /** One line per code word (DATA included) in compiler output. */
  lines: number[];
  locals: HksLocal[];
  upvalueNames: (string | null)[];
}

/** A function prototype (§4.2). */
export interface HksFunction {
  upvalueCount: number;
  paramCount: number;
  /** Lua 5.1 vararg flags: 1 HASARG, 2 ISVARARG, 4 NEEDSARG (main chunk 2). */
  varargFlags: number;
  maxStackSize: number;
  /** The byte used for the alignment padding before the code (`'_'` everywhere so far; default when none was read). */
  padByte: number;
  /** Raw instruction words in chunk order (DATA words included). */
  code: Uint32Array;
  constants: HksConstant[];
  /** `null` = debug flag 0 (stripped). */
  debug: HksDebug | null;
  children: HksFunction[];
}

/** One slot of a structure declaration (§5). */
export interface HksSlot {
  name: string | null;
  /** Id of the slot's structure type; 0xFFFF when not a structure type. */
  structId: number;
  /** Lua type id (0 = untyped object, 12 = struct). */
  typeId: number;
  /** 0 normal, 1 meta slot, 2 proxy/backing table, 3 internal. */
  reserved: number;
  position: number;
}

/** One structure declaration. */
export interface HksStructure {
  name: string;
  id: number;
  hasMeta: number;
  hasProxy: number;
  /** Parent structure names; present (possibly empty) only in the `extends` layout. */
  extends?: (string | null)[];
  slots: HksSlot[];
}

/** The two structure-section layouts of §5: hksc's, and Halo Infinite's with an `extends` list after the slot count. */
export type HksStructureLayout = 'hksc' | 'extends';

/** The structure section, present when build flag bit 1 is set. */
export interface HksStructureSection {
  /** Which layout parsed (the one ending exactly at the body end when both parse). */
  layout: HksStructureLayout;
  /** The leading int, 1 in every file. */
  marker: number;
  structures: HksStructure[];
}

/** A whole chunk. */
export interface HksChunk {
  header: HksHeader;
  types: HksTypeEntry[];
  main: HksFunction;
  /** Present when `header.buildFlags & 2`. */
  structures: HksStructureSection | null;
  /** Bytes after the last section, kept verbatim (Halo Infinite carries tag tables there). */
  trailing: Uint8Array;
}

export interface HksParseOptions {
  /** File offset of the chunk's first byte, so errors report file offsets (e.g. 13 inside SCRI). */
  baseOffset?: number;
  /** Force a structure-section layout instead of choosing the one that parses. */
  structureLayout?: HksStructureLayout;
}

/** Build flag bit: the chunk carries a structure section. */
export const HKS_FLAG_STRUCTURES = 0x02;

/** True when the bytes start with `"\x1bLua"` + version 0x51. */
export function isHksChunk(bytes: Uint8Array): boolean {
  return hasLuaSignature(bytes) && bytes[4] === 0x51;
}

/** True when the bytes start with the Lua signature `\x1bLua`, whatever the version byte after it. */
export function hasLuaSignature(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x1b && bytes[1] === 0x4c && bytes[2] === 0x75 && bytes[3] === 0x61;
}

// ---------------------------------------------------------------------------------------------------------------
// Primitive readers / writers (sizes from the header)

interface Ctx {
  r: ByteReader;
  h: HksHeader;
}

function readInt(c: Ctx, path: string): number {
  return c.r.i32(path);
}
function writeInt(w: ByteWriter, v: number): void {
  w.i32(v);
}

/** A non-negative int count, guarded against the remaining bytes (`minElemSize` bytes per element at least). */
function readCount(c: Ctx, minElemSize: number, path: string): number {
  const at = c.r.pos;
  const n = c.r.i32(path);
  if (n < 0) throw c.r.error(`negative count ${n}`, path, at, { actual: n });
  return c.r.guardCount(n, minElemSize, path);
}

function readSizeT(c: Ctx, path: string): number {
  if (c.h.sizeTSize === 4) return c.r.u32(path);
  const at = c.r.pos;
  const lo = c.r.u32(path);
  const hi = c.r.u32(path);
  const [low, high] = c.h.littleEndian ? [lo, hi] : [hi, lo];
  if (high > 0x1fffff) throw c.r.error(`size_t ${high.toString(16)}${low.toString(16).padStart(8, '0')}h too large`, path, at);
  return high * 0x100000000 + low;
}
function writeSizeT(w: ByteWriter, h: HksHeader, v: number): void {
  if (h.sizeTSize === 4) {
    w.u32(v);
    return;
  }
  const low = v % 0x100000000;
  const high = Math.floor(v / 0x100000000);
  if (h.littleEndian) w.u32(low).u32(high);
  else w.u32(high).u32(low);
}
function readSizeTBig(c: Ctx, path: string): bigint {
  return c.h.sizeTSize === 4 ? BigInt(c.r.u32(path)) : c.r.u64(path);
}
function writeSizeTBig(w: ByteWriter, h: HksHeader, v: bigint): void {
  if (h.sizeTSize === 4) w.u32(Number(BigInt.asUintN(32, v)));
  else w.u64(v);
}

/** `size_t n` then n bytes whose last is NUL; n = 0 is the null string. */
function readString(c: Ctx, path: string): string | null {
  const at = c.r.pos;
  const n = readSizeT(c, path);
  if (n === 0) return null;
  if (n > c.r.remaining) throw c.r.error(`string length ${n} exceeds the ${c.r.remaining} remaining byte(s)`, path, at, { actual: n });
  const b = c.r.bytes(n, path);
  if (b[n - 1] !== 0) throw c.r.error('string is not NUL-terminated', path, c.r.pos - 1, { actual: b[n - 1] });
  return latin1Decode(b.subarray(0, n - 1));
}
/** Lua strings are Latin-1 bytes (a NUL inside is legal: the length is stored); `path` names the field. */
function writeString(w: ByteWriter, h: HksHeader, s: string | null, path: string): void {
  if (s === null) {
    writeSizeT(w, h, 0);
    return;
  }
  writeSizeT(w, h, s.length + 1);
  const b = new Uint8Array(s.length + 1);
  latin1EncodeInto(s, b, 0, { format: FMT, path });
  w.bytes(b);
}

// ---------------------------------------------------------------------------------------------------------------
// Header

function readHeader(r: ByteReader): HksHeader {
  r.expectBytes(HKS_SIGNATURE, '/header/signature');
  const luaVersion = r.u8('/header/luaVersion');
  if (luaVersion !== 0x51) throw new UnsupportedError(FMT, r.fileOffset(4), '/header/luaVersion', `Lua version 0x${luaVersion.toString(16)}`, `unsupported Lua version 0x${luaVersion.toString(16)} (HavokScript is 0x51)`);
  const formatVersion = r.u8('/header/formatVersion');
  if (formatVersion !== 14) throw new UnsupportedError(FMT, r.fileOffset(5), '/header/formatVersion', `format ${formatVersion}`, `unsupported HavokScript format ${formatVersion} (only 14 is read; 13 is CoD T6)`);
  const endian = r.u8('/header/endianness');
  if (endian > 1) throw r.error(`endianness byte must be 0 or 1, got ${endian}`, '/header/endianness', 6);
  const h: HksHeader = {
    luaVersion,
    formatVersion,
    littleEndian: endian === 1,
    intSize: r.u8('/header/intSize'),
    sizeTSize: r.u8('/header/sizeTSize'),
    instructionSize: r.u8('/header/instructionSize'),
    numberSize: r.u8('/header/numberSize'),
    integralNumbers: r.u8('/header/integralNumbers'),
    buildFlags: r.u8('/header/buildFlags'),
    referenced: r.u8('/header/referenced'),
  };
  const unsupported = (field: string, off: number, what: string): never => {
    throw new UnsupportedError(FMT, r.fileOffset(off), `/header/${field}`, what);
  };
  if (h.intSize !== 4) unsupported('intSize', 7, `sizeof(int) ${h.intSize}`);
  if (h.sizeTSize !== 4 && h.sizeTSize !== 8) unsupported('sizeTSize', 8, `sizeof(size_t) ${h.sizeTSize}`);
  if (h.instructionSize !== 4) unsupported('instructionSize', 9, `sizeof(Instruction) ${h.instructionSize}`);
  if (h.numberSize !== 4 && h.numberSize !== 8) unsupported('numberSize', 10, `sizeof(lua_Number) ${h.numberSize}`);
  if (h.integralNumbers > 1) unsupported('integralNumbers', 11, `integral flag ${h.integralNumbers}`);
  r.littleEndian = h.littleEndian;
  return h;
}

function writeHeader(w: ByteWriter, h: HksHeader): void {
  w.bytes(HKS_SIGNATURE).u8(h.luaVersion).u8(h.formatVersion).u8(h.littleEndian ? 1 : 0);
  w.u8(h.intSize).u8(h.sizeTSize).u8(h.instructionSize).u8(h.numberSize).u8(h.integralNumbers).u8(h.buildFlags).u8(h.referenced);
}

// ---------------------------------------------------------------------------------------------------------------
// Type table

function readTypes(c: Ctx): HksTypeEntry[] {
  const n = readCount(c, 8, '/types/count');
  const types: HksTypeEntry[] = [];
  for (let i = 0; i < n; i++) {
    const path = `/types[${i}]`;
    const id = readInt(c, `${path}/id`);
    const at = c.r.pos;
    const len = readInt(c, `${path}/length`);
    if (len < 0 || len > c.r.remaining) throw c.r.error(`type name length ${len} out of range`, `${path}/length`, at, { actual: len });
    if (len === 0) {
      types.push({ id, name: null });
      continue;
    }
    const b = c.r.bytes(len, `${path}/name`);
    if (b[len - 1] !== 0) throw c.r.error('type name is not NUL-terminated', `${path}/name`, c.r.pos - 1);
    types.push({ id, name: latin1Decode(b.subarray(0, len - 1)) });
  }
  return types;
}
function writeTypes(w: ByteWriter, types: readonly HksTypeEntry[]): void {
  writeInt(w, types.length);
  for (const t of types) {
    writeInt(w, t.id);
    if (t.name === null) {
      writeInt(w, 0);
      continue;
    }
    writeInt(w, t.name.length + 1);
    const b = new Uint8Array(t.name.length + 1);
    latin1EncodeInto(t.name, b, 0, { format: FMT, path: '/types/name' });
    w.bytes(b);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Functions

function readConstant(c: Ctx, path: string): HksConstant {
  const at = c.r.pos;
  const tag = c.r.u8(`${path}/type`);
  switch (tag) {
    case HksConstantTag.nil:
      return { type: 'nil' };
    case HksConstantTag.boolean:
      return { type: 'boolean', value: c.r.u8(`${path}/value`) };
    case HksConstantTag.lightuserdata:
      return { type: 'lightuserdata', value: readSizeTBig(c, `${path}/value`) };
    case HksConstantTag.number:
      return readNumber(c, `${path}/value`);
    case HksConstantTag.string:
      return { type: 'string', value: readString(c, `${path}/value`) };
    case HksConstantTag.ui64:
      return { type: 'ui64', value: c.r.u64(`${path}/value`) };
    default:
      throw new UnsupportedError(FMT, c.r.fileOffset(at), `${path}/type`, `constant type ${tag}`, `unknown constant type ${tag}`);
  }
}

function readNumber(c: Ctx, path: string): HksConstant {
  const { numberSize, integralNumbers } = c.h;
  if (integralNumbers) {
    if (numberSize === 4) return { type: 'number', value: c.r.i32(path) };
    const at = c.r.pos;
    const v = c.r.i64(path);
    if (v > BigInt(Number.MAX_SAFE_INTEGER) || v < -BigInt(Number.MAX_SAFE_INTEGER)) throw new UnsupportedError(FMT, c.r.fileOffset(at), path, '64-bit integer constant', `integer constant ${v} is beyond 2^53 (not representable in the model)`);
    return { type: 'number', value: Number(v) };
  }
  if (numberSize === 4) {
    const bits = c.r.u32At(c.r.pos, path);
    const value = c.r.f32(path);
    return Number.isNaN(value) ? { type: 'number', value, nanBits: BigInt(bits) } : { type: 'number', value };
  }
  const bits = c.r.at(c.r.pos, (r) => r.u64(path));
  const value = c.r.f64(path);
  return Number.isNaN(value) ? { type: 'number', value, nanBits: bits } : { type: 'number', value };
}

function writeConstant(w: ByteWriter, h: HksHeader, k: HksConstant): void {
  switch (k.type) {
    case 'nil':
      w.u8(HksConstantTag.nil);
      return;
    case 'boolean':
      w.u8(HksConstantTag.boolean).u8(k.value);
      return;
    case 'lightuserdata':
      w.u8(HksConstantTag.lightuserdata);
      writeSizeTBig(w, h, k.value);
      return;
    case 'number':
      w.u8(HksConstantTag.number);
      if (h.integralNumbers) {
        if (h.numberSize === 4) w.i32(k.value);
        else w.i64(BigInt(Math.trunc(k.value)));
      } else if (h.numberSize === 4) {
        if (k.nanBits !== undefined && Number.isNaN(k.value)) w.u32(Number(k.nanBits & 0xffffffffn));
        else w.f32(k.value);
      } else if (k.nanBits !== undefined && Number.isNaN(k.value)) w.u64(k.nanBits);
      else w.f64(k.value);
      return;
    case 'string':
      w.u8(HksConstantTag.string);
      writeString(w, h, k.value, '/constants/value');
      return;
    case 'ui64':
      w.u8(HksConstantTag.ui64).u64(k.value);
      return;
  }
}

function readDebug(c: Ctx, path: string): HksDebug {
  const lineCount = readCount(c, 4, `${path}/lineCount`);
  const localCount = readCount(c, 16, `${path}/localCount`);
  const upvalueNameCount = readCount(c, c.h.sizeTSize, `${path}/upvalueNameCount`);
  const lineDefined = readInt(c, `${path}/lineDefined`);
  const lastLineDefined = readInt(c, `${path}/lastLineDefined`);
  const source = readString(c, `${path}/source`);
  const name = readString(c, `${path}/name`);
  c.r.guardCount(lineCount, 4, `${path}/lines`);
  const lines = new Array<number>(lineCount);
  for (let i = 0; i < lineCount; i++) lines[i] = c.r.i32(`${path}/lines[${i}]`);
  c.r.guardCount(localCount, c.h.sizeTSize + 8, `${path}/locals`);
  const locals: HksLocal[] = [];
  for (let i = 0; i < localCount; i++) {
    const p = `${path}/locals[${i}]`;
    locals.push({ name: readString(c, `${p}/name`), startPc: readInt(c, `${p}/startPc`), endPc: readInt(c, `${p}/endPc`) });
  }
  c.r.guardCount(upvalueNameCount, c.h.sizeTSize, `${path}/upvalueNames`);
  const upvalueNames: (string | null)[] = [];
  for (let i = 0; i < upvalueNameCount; i++) upvalueNames.push(readString(c, `${path}/upvalueNames[${i}]`));
  return { lineDefined, lastLineDefined, source, name, lines, locals, upvalueNames };
}

function writeDebug(w: ByteWriter, h: HksHeader, d: HksDebug): void {
  writeInt(w, d.lines.length);
  writeInt(w, d.locals.length);
  writeInt(w, d.upvalueNames.length);
  writeInt(w, d.lineDefined);
  writeInt(w, d.lastLineDefined);
  writeString(w, h, d.source, '/debug/source');
  writeString(w, h, d.name, '/debug/name');
  for (const l of d.lines) w.i32(l);
  for (const l of d.locals) {
    writeString(w, h, l.name, '/debug/locals/name');
    writeInt(w, l.startPc);
    writeInt(w, l.endPc);
  }
  for (const u of d.upvalueNames) writeString(w, h, u, '/debug/upvalueNames');
}

function readFunction(c: Ctx, path: string, depth: number): HksFunction {
  if (depth > HKS_MAX_FUNCTION_DEPTH) throw c.r.error(`functions nested deeper than ${HKS_MAX_FUNCTION_DEPTH} (the engine's "code too deep")`, path);
  const upvalueCount = readCount(c, 0, `${path}/upvalueCount`);
  const paramCount = readCount(c, 0, `${path}/paramCount`);
  const varargFlags = c.r.u8(`${path}/varargFlags`);
  const maxStackSize = readCount(c, 0, `${path}/maxStackSize`);
  const codeCountAt = c.r.pos;
  const codeCount = readSizeT(c, `${path}/codeCount`);
  const pad = (4 - (c.r.pos % 4)) % 4;
  let padByte = HKS_DEFAULT_PAD_BYTE;
  if (pad > 0) {
    const padBytes = c.r.bytes(pad, `${path}/padding`);
    padByte = padBytes[0]!;
    for (let i = 1; i < pad; i++) {
      if (padBytes[i] !== padByte) throw c.r.error(`alignment padding mixes bytes 0x${padByte.toString(16)} and 0x${padBytes[i]!.toString(16)}`, `${path}/padding`, c.r.pos - pad + i);
    }
  }
  c.r.pos = codeCountAt;
  c.r.guardCount(codeCount, 4, `${path}/codeCount`, c.r.remaining - c.h.sizeTSize - pad);
  c.r.pos = codeCountAt + c.h.sizeTSize + pad;
  const code = new Uint32Array(codeCount);
  const { dv } = c.r;
  const le = c.h.littleEndian;
  let p = c.r.pos;
  for (let i = 0; i < codeCount; i++, p += 4) code[i] = dv.getUint32(p, le);
  c.r.pos = p;
  const constantCount = readCount(c, 1, `${path}/constantCount`);
  const constants: HksConstant[] = new Array(constantCount);
  for (let i = 0; i < constantCount; i++) constants[i] = readConstant(c, `${path}/constants[${i}]`);
  const flagAt = c.r.pos;
  const debugFlag = readInt(c, `${path}/debugFlag`);
  if (debugFlag !== 0 && debugFlag !== 1) throw c.r.error(`debug flag must be 0 or 1, got ${debugFlag}`, `${path}/debugFlag`, flagAt, { actual: debugFlag });
  const debug = debugFlag === 1 ? readDebug(c, `${path}/debug`) : null;
  const childCount = readCount(c, 21, `${path}/childCount`);
  const children: HksFunction[] = [];
  for (let i = 0; i < childCount; i++) children.push(readFunction(c, `${path}/children[${i}]`, depth + 1));
  return { upvalueCount, paramCount, varargFlags, maxStackSize, padByte, code, constants, debug, children };
}

function writeFunction(w: ByteWriter, h: HksHeader, f: HksFunction): void {
  writeInt(w, f.upvalueCount);
  writeInt(w, f.paramCount);
  w.u8(f.varargFlags);
  writeInt(w, f.maxStackSize);
  writeSizeT(w, h, f.code.length);
  w.align(4, f.padByte);
  for (let i = 0; i < f.code.length; i++) w.u32(f.code[i]!);
  writeInt(w, f.constants.length);
  for (const k of f.constants) writeConstant(w, h, k);
  if (f.debug) {
    writeInt(w, 1);
    writeDebug(w, h, f.debug);
  } else writeInt(w, 0);
  writeInt(w, f.children.length);
  for (const child of f.children) writeFunction(w, h, child);
}

// ---------------------------------------------------------------------------------------------------------------
// Structures

function readStructures(c: Ctx, layout: HksStructureLayout): HksStructureSection {
  const marker = readInt(c, '/structures/marker');
  const structures: HksStructure[] = [];
  for (let i = 0; ; i++) {
    const path = `/structures[${i}]`;
    const name = readString(c, `${path}/name`);
    if (name === null) break;
    const id = readSizeT(c, `${path}/id`);
    const hasMeta = readInt(c, `${path}/hasMeta`);
    const hasProxy = readInt(c, `${path}/hasProxy`);
    const slotCount = readSizeT(c, `${path}/slotCount`);
    const s: HksStructure = { name, id, hasMeta, hasProxy, slots: [] };
    if (layout === 'extends') {
      const n = readCount(c, c.h.sizeTSize, `${path}/extendCount`);
      s.extends = [];
      for (let j = 0; j < n; j++) s.extends.push(readString(c, `${path}/extends[${j}]`));
    }
    c.r.guardCount(slotCount, 3 * c.h.sizeTSize + 8, `${path}/slotCount`);
    for (let j = 0; j < slotCount; j++) {
      const p = `${path}/slots[${j}]`;
      s.slots.push({
        name: readString(c, `${p}/name`),
        structId: readSizeT(c, `${p}/structId`),
        typeId: readInt(c, `${p}/typeId`),
        reserved: readInt(c, `${p}/reserved`),
        position: readSizeT(c, `${p}/position`),
      });
    }
    structures.push(s);
  }
  return { layout, marker, structures };
}

function writeStructures(w: ByteWriter, h: HksHeader, sec: HksStructureSection): void {
  writeInt(w, sec.marker);
  for (const s of sec.structures) {
    writeString(w, h, s.name, '/structures/name');
    writeSizeT(w, h, s.id);
    writeInt(w, s.hasMeta);
    writeInt(w, s.hasProxy);
    writeSizeT(w, h, s.slots.length);
    if (sec.layout === 'extends') {
      const ext = s.extends ?? [];
      writeInt(w, ext.length);
      for (const e of ext) writeString(w, h, e, '/structures/extends');
    }
    for (const slot of s.slots) {
      writeString(w, h, slot.name, '/structures/slots/name');
      writeSizeT(w, h, slot.structId);
      writeInt(w, slot.typeId);
      writeInt(w, slot.reserved);
      writeSizeT(w, h, slot.position);
    }
  }
  writeString(w, h, null, '/structures');
}

/**
 * Reads the structure section, choosing the layout. HEURISTIC (hypothesis `hks.structures.layout`): each layout
 * is tried; one whose parse ends exactly at the end of the data wins (hksc first), else the only one that parses,
 * else hksc's. Tested on hksc fixtures (hksc layout) and Halo Infinite (extends layout + trailing data).
 */
function readStructureSection(c: Ctx, forced: HksStructureLayout | undefined): HksStructureSection {
  const start = c.r.pos;
  if (forced) return readStructures(c, forced);
  const attempts: { layout: HksStructureLayout; section?: HksStructureSection; end: number; error?: unknown }[] = [];
  for (const layout of ['hksc', 'extends'] as const) {
    c.r.pos = start;
    try {
      const section = readStructures(c, layout);
      attempts.push({ layout, section, end: c.r.pos });
    } catch (error) {
      if (!(error instanceof FormatError)) throw error;
      attempts.push({ layout, end: -1, error });
    }
  }
  const ok = attempts.filter((a) => a.section);
  const pick = ok.find((a) => a.end === c.r.length) ?? ok[0];
  if (!pick) throw attempts[0]!.error;
  c.r.pos = pick.end;
  return pick.section!;
}

// ---------------------------------------------------------------------------------------------------------------
// Public API

/** Parses a chunk (the bytes must start with the signature; everything after the sections is kept as trailing). */
export function parseHksChunk(bytes: Uint8Array, options: HksParseOptions = {}): HksChunk {
  const r = new ByteReader(bytes, { format: FMT, baseOffset: options.baseOffset ?? 0, littleEndian: true });
  const header = readHeader(r);
  const c: Ctx = { r, h: header };
  const types = readTypes(c);
  const main = readFunction(c, '/main', 0);
  const structures = header.buildFlags & HKS_FLAG_STRUCTURES ? readStructureSection(c, options.structureLayout) : null;
  const trailing = r.copyBytes(r.remaining, '/trailing');
  return { header, types, main, structures, trailing };
}

/** Model problems that would make `writeHksChunk` produce a file the loader cannot read back identically. */
export function validateHksChunk(chunk: HksChunk): Issue[] {
  const issues: Issue[] = [];
  const h = chunk.header;
  const err = (path: string, message: string): void => void issues.push({ rule: 'hks.model', path, message, severity: 'error' });
  if (h.intSize !== 4 || h.instructionSize !== 4 || (h.sizeTSize !== 4 && h.sizeTSize !== 8) || (h.numberSize !== 4 && h.numberSize !== 8)) err('/header', 'unsupported primitive sizes');
  if (!!(h.buildFlags & HKS_FLAG_STRUCTURES) !== (chunk.structures !== null)) err('/structures', `build flag bit 1 is ${h.buildFlags & 2 ? 'set' : 'clear'} but the structure section is ${chunk.structures ? 'present' : 'absent'}`);
  const checkString = (path: string, s: string | null): void => {
    const bad = s === null ? undefined : latin1Issue(s, path);
    if (bad) issues.push(bad);
  };
  const visit = (f: HksFunction, path: string, depth: number): void => {
    if (depth > HKS_MAX_FUNCTION_DEPTH) err(path, `nested deeper than ${HKS_MAX_FUNCTION_DEPTH}`);
    if (f.varargFlags < 0 || f.varargFlags > 255) err(`${path}/varargFlags`, 'must be a byte');
    if (f.padByte < 0 || f.padByte > 255) err(`${path}/padByte`, 'must be a byte');
    f.constants.forEach((k, i) => {
      if (k.type === 'string') checkString(`${path}/constants[${i}]`, k.value);
      if (k.type === 'boolean' && (k.value < 0 || k.value > 255)) err(`${path}/constants[${i}]`, 'boolean byte out of range');
    });
    if (f.debug) {
      checkString(`${path}/debug/source`, f.debug.source);
      checkString(`${path}/debug/name`, f.debug.name);
    }
    f.children.forEach((ch, i) => visit(ch, `${path}/children[${i}]`, depth + 1));
  };
  visit(chunk.main, '/main', 0);
  if (chunk.structures?.layout === 'hksc' && chunk.structures.structures.some((s) => s.extends && s.extends.length > 0)) err('/structures', 'extends lists need the extends layout');
  return issues;
}

/** Writes a chunk from its model (never mutates it). Throws a ConsistencyError when `validateHksChunk` finds errors. */
export function writeHksChunk(chunk: HksChunk): Uint8Array {
  const issues = validateHksChunk(chunk);
  if (issues.length > 0) throw new ConsistencyError(FMT, issues);
  const h = chunk.header;
  const w = new ByteWriter({ littleEndian: h.littleEndian, format: FMT, capacity: 4096 });
  writeHeader(w, h);
  writeTypes(w, chunk.types);
  writeFunction(w, h, chunk.main);
  if (chunk.structures) writeStructures(w, h, chunk.structures);
  w.bytes(chunk.trailing);
  return w.finish();
}

/** Every function of the chunk in depth-first order (the file order), with its path (`main`, `main/0`, …). */
export function listHksFunctions(chunk: HksChunk): { path: string; fn: HksFunction; depth: number; parent: HksFunction | null }[] {
  const out: { path: string; fn: HksFunction; depth: number; parent: HksFunction | null }[] = [];
  const stack: { path: string; fn: HksFunction; depth: number; parent: HksFunction | null }[] = [{ path: 'main', fn: chunk.main, depth: 0, parent: null }];
  while (stack.length > 0) {
    const e = stack.pop()!;
    out.push(e);
    for (let i = e.fn.children.length - 1; i >= 0; i--) stack.push({ path: `${e.path}/${i}`, fn: e.fn.children[i]!, depth: e.depth + 1, parent: e.fn });
  }
  return out;
}

/** The standard 13-entry type table (§4.1), for building chunks from scratch. */
export const HKS_STANDARD_TYPES: readonly HksTypeEntry[] = ['TNIL', 'TBOOLEAN', 'TLIGHTUSERDATA', 'TNUMBER', 'TSTRING', 'TTABLE', 'TFUNCTION', 'TUSERDATA', 'TTHREAD', 'TIFUNCTION', 'TCFUNCTION', 'TUI64', 'TSTRUCT'].map((name, id) => ({ id, name }));

/** The Shadow of War header (`1b4c7561 51 0e 01 04 08 04 04 00 03 00`). */
export const HKS_SHADOW_OF_WAR_HEADER: Readonly<HksHeader> = {
  luaVersion: 0x51,
  formatVersion: 14,
  littleEndian: true,
  intSize: 4,
  sizeTSize: 8,
  instructionSize: 4,
  numberSize: 4,
  integralNumbers: 0,
  buildFlags: 3,
  referenced: 0,
};
