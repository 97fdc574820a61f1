/**
 * The LZB16 token loop as a WebAssembly module, assembled here from its instructions (no toolchain, no binary in
 * the repository). It decodes the verified grammar only — the same tokens as `decodeLzb16Into` in `lzb16.ts`,
 * minus the open hypotheses (a 0xFF literal extension, a 0x7F match extension) — and answers "decoded" or "not
 * mine" (0 / 1): on anything else, malformed input included, the JavaScript decoder runs the chunk again from the
 * start and gives the answer (the output or the typed error). Correctness therefore never depends on this module;
 * `test/formats/compress/lzb16.test.ts` holds the two decoders to the same output on every case it has.
 *
 * Why it exists: a chunk of short tokens (~10 output bytes each) costs the JavaScript decoder a bounds check per
 * access and 4-byte words; here the copies are 8-byte words and the bounds are the memory's own.
 *
 * Memory (3 pages, fixed, never grown): the output at `[0, rawSize)`, rawSize ≤ 64 KiB; the payload at
 * {@link LZB16_WASM_INPUT} `[+0, +n)`, n ≤ {@link LZB16_WASM_INPUT_MAX}. Exported function
 * `decode(pos, end, rawSize) → i32`: `pos` is the payload's first quantum header (after the 2-byte block header,
 * which the caller has checked), `end` the payload's end, both as memory addresses.
 */

/** Where the payload is copied in the module's memory (the output starts at 0). */
export const LZB16_WASM_INPUT = 0x10000;
/** The largest payload the module takes (two pages); larger ones go to the JavaScript decoder. */
export const LZB16_WASM_INPUT_MAX = 0x20000;

/** One instance: `decode` and a view of its memory. */
export interface Lzb16Wasm {
  decode(pos: number, end: number, rawSize: number): number;
  memory: Uint8Array;
}

// Instruction bytes (WebAssembly core spec 1.0 + bulk memory's memory.copy). Immediates follow each opcode.
const BLOCK = 0x02, LOOP = 0x03, IF = 0x04, ELSE = 0x05, END = 0x0b, BR = 0x0c, BR_IF = 0x0d, RETURN = 0x0f, VOID = 0x40;
const GET = 0x20, SET = 0x21, TEE = 0x22;
const I32_LOAD8_U = 0x2d, I32_LOAD16_U = 0x2f, I64_LOAD = 0x29, I64_STORE = 0x37, I32_STORE8 = 0x3a, I32_CONST = 0x41;
const EQZ = 0x45, EQ = 0x46, NE = 0x47, GT_S = 0x4a, LE_S = 0x4c, GE_S = 0x4e, LT_U = 0x49, GT_U = 0x4b, GE_U = 0x4f;
const ADD = 0x6a, SUB = 0x6b, AND = 0x71, OR = 0x72, SHL = 0x74, SHR_U = 0x76, SELECT = 0x1b, LT_S = 0x48;

function uleb(v: number): number[] {
  const out: number[] = [];
  do {
    let b = v & 0x7f;
    v >>>= 7;
    if (v !== 0) b |= 0x80;
    out.push(b);
  } while (v !== 0);
  return out;
}

function sleb(v: number): number[] {
  const out: number[] = [];
  for (;;) {
    const b = v & 0x7f;
    v >>= 7;
    if ((v === 0 && (b & 0x40) === 0) || (v === -1 && (b & 0x40) !== 0)) {
      out.push(b);
      return out;
    }
    out.push(b | 0x80);
  }
}

const get = (l: number): number[] => [GET, l];
const set = (l: number): number[] => [SET, l];
const tee = (l: number): number[] => [TEE, l];
const k = (v: number): number[] => [I32_CONST, ...sleb(v)];
// memarg: alignment exponent 0 (unaligned access is legal and cheap on the hosts we run on), then the offset
const load8 = (offset = 0): number[] => [I32_LOAD8_U, 0, ...uleb(offset)];
const load16 = (offset = 0): number[] => [I32_LOAD16_U, 0, ...uleb(offset)];
const load64 = (offset = 0): number[] => [I64_LOAD, 0, ...uleb(offset)];
const store64 = (offset = 0): number[] => [I64_STORE, 0, ...uleb(offset)];
const store8 = (offset = 0): number[] => [I32_STORE8, 0, ...uleb(offset)];
const memoryCopy = [0xfc, 0x0a, 0x00, 0x00];
/** `dst[+offset] = src[+offset]` as one 8-byte word; `dst` and `src` are locals. */
const copy64 = (dst: number, src: number, offset: number): number[] => [...get(dst), ...get(src), ...load64(offset), ...store64(offset)];
/** `local += value`. */
const addTo = (l: number, ...value: number[]): number[] => [...get(l), ...value, ADD, ...set(l)];

// Locals: the three parameters, then the decoder's state.
const POS = 0, END_ = 1, RAW = 2;
const OP = 3, Q_END = 4, OUT_END = 5, IN_FAST = 6, OUT_FAST = 7, T = 8, LIT = 9, LEN = 10, DIST = 11, FROM = 12, O = 13, MP = 14, E = 15, I = 16;
const LOCALS = 14;

/** `do { out[op + i] = out[from + i] (one `step`-byte unit); i += step } while (i < len)`, i starting at 0. */
function copyLoop(load: number[], store: number[], step: number): number[] {
  return [LOOP, VOID, ...get(OP), ...get(I), ADD, ...get(FROM), ...get(I), ADD, ...load, ...store, ...addTo(I, ...k(step)), ...get(I), ...get(LEN), LT_S, BR_IF, 0, END];
}

// Branch depths are counted from the innermost enclosing block; each label below is named where it opens.
function decodeBody(): number[] {
  const fastLoop = [
    // while pos <= inFast && op <= outFast: one common token (0–14 literals, then a 4–18-byte match or a long one of
    // 19–145 bytes, at offset ≥ 8)
    BLOCK, VOID, // $slow
    LOOP, VOID, // $fast
    ...get(POS), ...get(IN_FAST), GT_S, BR_IF, 1,
    ...get(OP), ...get(OUT_FAST), GT_S, BR_IF, 1,
    ...get(POS), ...load8(), ...tee(T), ...k(15), AND, ...tee(LIT), ...k(15), EQ, BR_IF, 1,
    // 16 literal bytes, as two words (the bytes past `lit` are overwritten by what follows)
    ...get(OP), ...get(POS), ...load64(1), ...store64(),
    ...get(OP), ...get(POS), ...load64(9), ...store64(8),
    ...get(POS), ...get(LIT), ADD, ...set(MP),
    ...get(OP), ...get(LIT), ADD, ...set(O),
    ...get(T), ...k(0xf0), GE_U, IF, VOID,
    // a long match (extension byte E < 0x7F: length E + 19, u16 offset), copied in words while it stays inside
    ...get(MP), ...load8(1), ...tee(E), ...k(0x7f), GE_U, BR_IF, 2,
    ...get(MP), ...load16(2), ...tee(DIST), ...k(8), LT_U, BR_IF, 2,
    ...get(DIST), ...get(O), GT_U, BR_IF, 2,
    ...get(E), ...k(19), ADD, ...set(LEN),
    ...get(O), ...get(LEN), ADD, ...k(8), ADD, ...get(OUT_END), GT_S, BR_IF, 2,
    ...get(O), ...get(DIST), SUB, ...set(FROM),
    ...get(O), ...set(OP),
    ...k(0), ...set(I),
    ...copyLoop(load64(), store64(), 8),
    ...get(MP), ...k(4), ADD, ...set(POS),
    ...get(O), ...get(LEN), ADD, ...set(OP),
    BR, 1,
    END,
    ...get(MP), ...load16(1), ...tee(DIST), ...k(8), LT_U, BR_IF, 1,
    ...get(DIST), ...get(O), GT_U, BR_IF, 1,
    ...get(O), ...get(DIST), SUB, ...set(FROM),
    // the match as three words, each read after the one before it is written (offset ≥ 8)
    ...copy64(O, FROM, 0), ...copy64(O, FROM, 8), ...copy64(O, FROM, 16),
    ...get(MP), ...k(3), ADD, ...set(POS),
    ...get(O), ...get(T), ...k(4), SHR_U, ADD, ...k(4), ADD, ...set(OP),
    BR, 0,
    END, // $fast
    END, // $slow
  ];
  // One token of any verified shape, every bound checked. Enclosing: $fail 3, $quantumLoop 2, $quantumDone 1, $token 0.
  const general = [
    ...get(POS), ...get(Q_END), GE_S, BR_IF, 3,
    ...get(POS), ...load8(), ...set(T),
    ...addTo(POS, ...k(1)),
    ...get(T), ...k(15), AND, ...set(LIT),
    ...get(LIT), ...k(15), EQ, IF, VOID,
    ...get(POS), ...get(Q_END), GE_S, BR_IF, 4,
    ...get(POS), ...load8(), ...tee(E), ...k(0xff), EQ, BR_IF, 4,
    ...addTo(POS, ...k(1)),
    ...addTo(LIT, ...get(E)),
    END,
    ...get(LIT), ...get(Q_END), ...get(POS), SUB, GT_S, BR_IF, 3,
    ...get(LIT), ...get(OUT_END), ...get(OP), SUB, GT_S, BR_IF, 3,
    ...get(OP), ...get(POS), ...get(LIT), ...memoryCopy,
    ...addTo(POS, ...get(LIT)),
    ...addTo(OP, ...get(LIT)),
    ...get(OP), ...get(OUT_END), EQ, BR_IF, 1,
    // the match: M < 15 → M + 4 and a u16 offset; M = 15 → extension byte E
    ...get(T), ...k(4), SHR_U, ...tee(LEN), ...k(15), LT_U, IF, VOID,
    ...get(POS), ...k(2), ADD, ...get(Q_END), GT_S, BR_IF, 4,
    ...addTo(LEN, ...k(4)),
    ...get(POS), ...load16(), ...set(DIST),
    ...addTo(POS, ...k(2)),
    ELSE,
    ...get(POS), ...get(Q_END), GE_S, BR_IF, 4,
    ...get(POS), ...load8(), ...set(E),
    ...addTo(POS, ...k(1)),
    ...get(E), ...k(0x80), LT_U, IF, VOID,
    ...get(E), ...k(0x7f), EQ, BR_IF, 5,
    ...get(E), ...k(19), ADD, ...set(LEN),
    ...get(POS), ...k(2), ADD, ...get(Q_END), GT_S, BR_IF, 5,
    ...get(POS), ...load16(), ...set(DIST),
    ...addTo(POS, ...k(2)),
    ELSE,
    ...get(E), ...k(3), SHR_U, ...k(15), AND, ...k(4), ADD, ...set(LEN),
    ...get(E), ...k(7), AND, ...set(DIST),
    END,
    END,
    ...get(DIST), EQZ, BR_IF, 3,
    ...get(DIST), ...get(OP), GT_U, BR_IF, 3,
    ...get(LEN), ...get(OUT_END), ...get(OP), SUB, GT_S, BR_IF, 3,
    ...get(OP), ...get(DIST), SUB, ...set(FROM),
    ...k(0), ...set(I),
    ...get(DIST), ...k(8), GE_U, ...get(LEN), ...k(8), ADD, ...get(OUT_END), ...get(OP), SUB, LE_S, AND, IF, VOID,
    // words, each read after the one before it is written; up to 7 bytes past the end, inside the output
    ...copyLoop(load64(), store64(), 8),
    ELSE,
    // byte by byte: an overlapping match repeats the last `dist` bytes
    ...copyLoop(load8(), store8(), 1),
    END,
    ...addTo(OP, ...get(LEN)),
  ];
  return [
    BLOCK, VOID, // $fail
    LOOP, VOID, // $quantumLoop
    ...get(OP), ...get(RAW), GE_S, IF, VOID,
    ...get(POS), ...get(END_), NE, RETURN,
    END,
    // quantum header: u16 BE, flags (top 2 bits) 0, low 14 bits = input size - 1
    ...get(POS), ...k(2), ADD, ...get(END_), GT_S, BR_IF, 1,
    ...get(POS), ...load8(), ...k(8), SHL, ...get(POS), ...load8(1), OR, ...tee(E),
    ...k(14), SHR_U, BR_IF, 1,
    ...addTo(POS, ...k(2)),
    ...get(POS), ...get(E), ...k(0x3fff), AND, ADD, ...k(1), ADD, ...tee(Q_END), ...get(END_), GT_S, BR_IF, 1,
    // outEnd = min(rawSize, op + 16 KiB)
    ...get(OP), ...k(0x4000), ADD, ...get(RAW), ...get(OP), ...k(0x4000), ADD, ...get(RAW), LT_S, SELECT, ...set(OUT_END),
    ...get(Q_END), ...k(20), SUB, ...set(IN_FAST),
    ...get(OUT_END), ...k(40), SUB, ...set(OUT_FAST),
    BLOCK, VOID, // $quantumDone
    LOOP, VOID, // $token
    ...get(OP), ...get(OUT_END), GE_S, BR_IF, 1,
    ...fastLoop,
    ...general,
    BR, 0,
    END, // $token
    END, // $quantumDone
    ...get(POS), ...get(Q_END), NE, BR_IF, 1,
    BR, 0,
    END, // $quantumLoop
    END, // $fail
    ...k(1),
    END,
  ];
}

function section(id: number, body: number[]): number[] {
  return [id, ...uleb(body.length), ...body];
}

function name(s: string): number[] {
  return [s.length, ...Array.from(s, (c) => c.charCodeAt(0))];
}

/** The module's bytes. */
export function lzb16WasmBytes(): Uint8Array<ArrayBuffer> {
  const I32 = 0x7f;
  const body = [1, ...uleb(LOCALS), I32, ...decodeBody()];
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, [1, 0x60, 3, I32, I32, I32, 1, I32]),
    ...section(3, [1, 0]),
    ...section(5, [1, 0x00, 3]),
    ...section(7, [2, ...name('decode'), 0x00, 0, ...name('memory'), 0x02, 0]),
    ...section(10, [1, ...uleb(body.length), ...body]),
  ]);
}

let instance: Lzb16Wasm | null | undefined;

/**
 * The module's one instance, made at the first call; `null` where WebAssembly is missing or refuses it (the
 * JavaScript decoder serves alone then).
 */
export function lzb16Wasm(): Lzb16Wasm | null {
  if (instance !== undefined) return instance;
  try {
    const wasm = new WebAssembly.Instance(new WebAssembly.Module(lzb16WasmBytes()));
    const exports = wasm.exports as { decode: (pos: number, end: number, rawSize: number) => number; memory: WebAssembly.Memory };
    instance = { decode: exports.decode, memory: new Uint8Array(exports.memory.buffer) };
  } catch {
    instance = null;
  }
  return instance;
}
