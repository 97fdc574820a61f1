/**
 * The LZB16 token loop as a WebAssembly module, assembled here from its instructions (no toolchain, no binary in
 * the repository). It decodes the verified grammar only — the same tokens as `decodeLzb16Into` in `lzb16.ts`,
 * minus the open hypotheses (a 0xFF literal extension, a 0x7F match extension) — and answers "decoded" or "not
 * mine" (0 / 1): on anything else, malformed input included, the JavaScript decoder runs the chunk again from the
 * start and gives the answer (the output or the typed error). Correctness therefore never depends on this module;
 * `test/formats/compress/lzb16.test.ts` holds the two decoders to the same output on every case it has.
 *
 * Why it exists: a chunk of short tokens (~10 output bytes each) costs the JavaScript decoder a bounds check per
 * access and 4-byte words; here the copies are 8-byte words and the bounds are the memory's own. What limits it
 * is the chain from one token to the next (its address depends on the token byte before it): the common tokens run
 * in a function of their own whose values stay in registers, and each token's step to the next is read from a table
 * made for the whole quantum beforehand (one load and one add on the chain instead of a load, a mask and two adds).
 *
 * Memory (5 pages, fixed, never grown): the output at `[0, rawSize)`, rawSize ≤ 64 KiB; the payload at
 * {@link LZB16_WASM_INPUT} `[+0, +n)`, n ≤ {@link LZB16_WASM_INPUT_MAX}; each payload byte's step at its address
 * + `ADV_OFFSET`. Exported function `decode(pos, end, rawSize) → i32`: `pos` is the payload's first quantum header
 * (after the 2-byte block header, which the caller has checked), `end` the payload's end, both as memory addresses.
 * It needs WebAssembly 1.0 with multi-value results and 128-bit SIMD (Node 16 and later); a host without them
 * refuses the module and the JavaScript decoder serves alone.
 */

/** Where the payload is copied in the module's memory (the output starts at 0). */
export const LZB16_WASM_INPUT = 0x10000;
/**
 * The largest payload the module takes (two pages less the slack its fast loop and its step table read past the
 * payload's end); larger ones go to the JavaScript decoder.
 */
export const LZB16_WASM_INPUT_MAX = 0x20000 - 128;

/** One instance: `decode` and a view of its memory. */
export interface Lzb16Wasm {
  decode(pos: number, end: number, rawSize: number): number;
  memory: Uint8Array;
}

// Instruction bytes (WebAssembly core spec 1.0, multi-value, 128-bit SIMD). Immediates follow each opcode.
const BLOCK = 0x02, LOOP = 0x03, IF = 0x04, ELSE = 0x05, END = 0x0b, BR = 0x0c, BR_IF = 0x0d, RETURN = 0x0f, CALL = 0x10, VOID = 0x40;
const GET = 0x20, SET = 0x21, TEE = 0x22;
const I32_LOAD8_U = 0x2d, I32_LOAD16_U = 0x2f, I64_LOAD = 0x29, I64_STORE = 0x37, I32_STORE8 = 0x3a, I32_CONST = 0x41;
const EQZ = 0x45, EQ = 0x46, NE = 0x47, GT_S = 0x4a, LE_S = 0x4c, GE_S = 0x4e, LT_U = 0x49, GT_U = 0x4b, GE_U = 0x4f;
const ADD = 0x6a, SUB = 0x6b, AND = 0x71, OR = 0x72, SHL = 0x74, SHR_U = 0x76, SELECT = 0x1b, LT_S = 0x48;
const SIMD = 0xfd, V128_LOAD = 0x00, V128_STORE = 0x0b, V128_CONST = 0x0c, V128_AND = 0x4e, I8X16_ADD = 0x6e;
const I64_CONST = 0x42, I64_EXTEND_I32_U = 0xad, I64_SHR_U = 0x88, I32_WRAP_I64 = 0xa7, I64_SHL = 0x86, I64_AND = 0x83, I64_OR = 0x84, I64_SUB = 0x7d;

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

/** Signed LEB128 of a 64-bit constant. */
function sleb64(v: bigint): number[] {
  const out: number[] = [];
  for (;;) {
    const b = Number(v & 0x7fn);
    v >>= 7n;
    if ((v === 0n && (b & 0x40) === 0) || (v === -1n && (b & 0x40) !== 0)) {
      out.push(b);
      return out;
    }
    out.push(b | 0x80);
  }
}

/** Byte `d` (1–7): the smallest multiple of the offset `d` that is 8 or more. */
const NEAR_PERIODS = 0x0e0c0a0809080800n;

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
/** `dst[+offset] = src[+offset]` as one 8-byte word; `dst` and `src` are locals. */
const copy64 = (dst: number, src: number, offset: number): number[] => [...get(dst), ...get(src), ...load64(offset), ...store64(offset)];
/** `local += value`. */
const addTo = (l: number, ...value: number[]): number[] => [...get(l), ...value, ADD, ...set(l)];

/** `do { out[dst + i] = out[src + i] (one `step`-byte unit); i += step } while (i < len)`, with `i` as it is. */
function copyLoop(dst: number, src: number, i: number, len: number, load: number[], store: number[], step: number): number[] {
  return [LOOP, VOID, ...get(dst), ...get(i), ADD, ...get(src), ...get(i), ADD, ...load, ...store, ...addTo(i, ...k(step)), ...get(i), ...get(len), LT_S, BR_IF, 0, END];
}

// The fast token loop, a function of its own so that its few values stay in registers (in the one function with
// the quantum loop they were spilled to the stack, the token address among them). Parameters, then locals:
const F_POS = 0, F_OP = 1, F_Q_END = 2, F_OUT_END = 3;
const F_OUT_FAST = 4, F_T = 5, F_LIT = 6, F_MP = 7, F_O = 8, F_LEN = 9, F_DIST = 10, F_FROM = 11, F_I = 12, F_E = 13, F_NP = 14;
const F_LOCALS = 11;
/** The i64 locals, after the i32 ones: the pattern of a match at offset 1–7, and its length in bits. */
const F_V = 15, F_V_SHIFT = 16;
const F_LOCALS_I64 = 2;
/** Output bytes a fast token may write past its start: 14 literals as 16, a match as 32 (or 24), and slack. */
const FAST_OUTPUT_MARGIN = 56;
/** Where each input byte's step to the next token lies: its address + this. */
const ADV_OFFSET = 0x20000;

/**
 * The first 8 bytes of a match at `o` with offset `dist` = 1–7 (1 ≤ dist ≤ o), then `from` set for the rest: the
 * word at `from` masked to its `dist` bytes, OR-ed with itself shifted by 1, 2 and 4 times the pattern while that
 * is shorter than 8 bytes (a shift by 0 changes nothing), stored at `o`; the rest repeats the bytes at the smallest
 * multiple of the offset that is 8 or more (8, 8, 9, 8, 10, 12, 14: bytes of one i64 constant) before it. `from`
 * may then lie before the output, `from + 8` never does.
 */
const nearStart = [
  ...get(F_DIST), ...k(3), SHL, I64_EXTEND_I32_U, ...set(F_V_SHIFT),
  ...get(F_FROM), ...load64(), I64_CONST, 1, ...get(F_V_SHIFT), I64_SHL, I64_CONST, 1, I64_SUB, I64_AND, ...set(F_V),
  ...get(F_V), ...get(F_V), ...get(F_V_SHIFT), I64_SHL, I64_OR, ...set(F_V),
  ...get(F_V), ...get(F_V), ...get(F_DIST), ...k(4), SHL, ...k(0), ...get(F_DIST), ...k(4), LT_U, SELECT, I64_EXTEND_I32_U, I64_SHL, I64_OR, ...set(F_V),
  ...get(F_V), ...get(F_V), ...k(32), ...k(0), ...get(F_DIST), ...k(1), EQ, SELECT, I64_EXTEND_I32_U, I64_SHL, I64_OR, ...set(F_V),
  ...get(F_O), ...get(F_V), ...store64(),
  ...get(F_O), I64_CONST, ...sleb64(NEAR_PERIODS), ...get(F_DIST), ...k(3), SHL, I64_EXTEND_I32_U, I64_SHR_U, I32_WRAP_I64, ...k(0xff), AND, SUB, ...set(F_FROM),
];

/**
 * `fast(pos, op, qEnd, outEnd) → (pos, op)`: decodes common tokens while `op` leaves room for the widest copies,
 * and returns where it stopped, at the start of a token it leaves to the careful loop (a literal extension, a
 * short-match form, a hypothesis, a bound it cannot see at a glance, malformed input). Each token: 0–14 literals,
 * then a match of 4–18 bytes or a long one of 19–145 bytes with a u16 offset. Literals and matches are copied in
 * whole words past their ends, inside the quantum's output and overwritten by the tokens that follow; the input
 * is read up to 17 bytes past a token (inside the memory: see `LZB16_WASM_INPUT_MAX`).
 */
function fastBody(): number[] {
  return [
    ...get(F_OUT_END), ...k(FAST_OUTPUT_MARGIN), SUB, ...set(F_OUT_FAST),
    BLOCK, VOID, // $done
    LOOP, VOID, // $fast
    ...get(F_OP), ...get(F_OUT_FAST), GT_S, BR_IF, 1,
    ...get(F_POS), ...get(F_POS), ...load8(ADV_OFFSET), ADD, ...set(F_NP),
    ...get(F_POS), ...load8(), ...tee(F_T), ...k(15), AND, ...tee(F_LIT), ...k(15), EQ, BR_IF, 1,
    // 16 literal bytes, as two words
    ...get(F_OP), ...get(F_POS), ...load64(1), ...store64(),
    ...get(F_OP), ...get(F_POS), ...load64(9), ...store64(8),
    ...get(F_POS), ...get(F_LIT), ADD, ...set(F_MP),
    ...get(F_OP), ...get(F_LIT), ADD, ...set(F_O),
    ...get(F_T), ...k(0xf0), GE_U, IF, VOID,
    // a long match (extension byte E < 0x7F: length E + 19, u16 offset): 32 bytes, then words while it stays inside
    ...get(F_NP), ...k(1), ADD, ...tee(F_NP), ...get(F_Q_END), GT_S, BR_IF, 2,
    ...get(F_MP), ...load8(1), ...tee(F_E), ...k(0x7f), GE_U, BR_IF, 2,
    // offset 0, or one reaching before the output, leaves: dist - 1 >= o (unsigned)
    ...get(F_MP), ...load16(2), ...tee(F_DIST), ...k(1), SUB, ...get(F_O), GE_U, BR_IF, 2,
    ...get(F_E), ...k(19), ADD, ...set(F_LEN),
    ...get(F_O), ...get(F_DIST), SUB, ...set(F_FROM),
    ...get(F_DIST), ...k(8), LT_U, IF, VOID,
    ...nearStart,
    ...k(8), ...set(F_I),
    ELSE,
    ...copy64(F_O, F_FROM, 0), ...copy64(F_O, F_FROM, 8), ...copy64(F_O, F_FROM, 16), ...copy64(F_O, F_FROM, 24),
    ...k(32), ...set(F_I),
    END,
    ...get(F_LEN), ...get(F_I), GT_U, IF, VOID,
    ...get(F_O), ...get(F_LEN), ADD, ...k(8), ADD, ...get(F_OUT_END), GT_S, BR_IF, 3,
    ...copyLoop(F_O, F_FROM, F_I, F_LEN, load64(), store64(), 8),
    END,
    ...get(F_NP), ...set(F_POS),
    ...get(F_O), ...get(F_LEN), ADD, ...set(F_OP),
    BR, 1,
    END,
    // a near match: 4–18 bytes, u16 offset, copied as 24
    ...get(F_NP), ...get(F_Q_END), GT_S, BR_IF, 1,
    ...get(F_MP), ...load16(1), ...tee(F_DIST), ...k(1), SUB, ...get(F_O), GE_U, BR_IF, 1,
    ...get(F_O), ...get(F_DIST), SUB, ...set(F_FROM),
    ...get(F_DIST), ...k(8), LT_U, IF, VOID,
    ...nearStart,
    ...get(F_FROM), ...k(8), ADD, ...set(F_FROM),
    ...get(F_O), ...get(F_FROM), ...load64(), ...store64(8),
    ...get(F_O), ...get(F_FROM), ...load64(8), ...store64(16),
    ELSE,
    // three words, each read after the one before it is written (offset ≥ 8)
    ...copy64(F_O, F_FROM, 0), ...copy64(F_O, F_FROM, 8), ...copy64(F_O, F_FROM, 16),
    END,
    ...get(F_NP), ...set(F_POS),
    ...get(F_O), ...get(F_T), ...k(4), SHR_U, ADD, ...k(4), ADD, ...set(F_OP),
    BR, 0,
    END, // $fast
    END, // $done
    ...get(F_POS), ...get(F_OP),
    END,
  ];
}

// The decoder's locals: the three parameters, then its state.
const POS = 0, END_ = 1, RAW = 2;
const OP = 3, Q_END = 4, OUT_END = 5, T = 6, LIT = 7, LEN = 8, DIST = 9, FROM = 10, E = 11, I = 12;
const LOCALS = 10;
/** The index of the fast loop's function. */
const FAST_FUNCTION = 1;

// Branch depths are counted from the innermost enclosing block; each label below is named where it opens.
function decodeBody(): number[] {
  // One token of any verified shape, every bound checked, every copy exact. Enclosing: $fail 3, $quantumLoop 2,
  // $quantumDone 1, $token 0.
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
    // exactly `lit` bytes: words, then the last 0–7 one by one
    ...k(0), ...set(I),
    BLOCK, VOID, LOOP, VOID,
    ...get(I), ...k(8), ADD, ...get(LIT), GT_S, BR_IF, 1,
    ...get(OP), ...get(I), ADD, ...get(POS), ...get(I), ADD, ...load64(), ...store64(),
    ...addTo(I, ...k(8)),
    BR, 0,
    END, END,
    BLOCK, VOID, LOOP, VOID,
    ...get(I), ...get(LIT), GE_S, BR_IF, 1,
    ...get(OP), ...get(I), ADD, ...get(POS), ...get(I), ADD, ...load8(), ...store8(),
    ...addTo(I, ...k(1)),
    BR, 0,
    END, END,
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
    ...copyLoop(OP, FROM, I, LEN, load64(), store64(), 8),
    ELSE,
    // byte by byte: an overlapping match repeats the last `dist` bytes
    ...copyLoop(OP, FROM, I, LEN, load8(), store8(), 1),
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
    // the step table: for every input byte b of the quantum (and its end), the step past a token b with its
    // literals and a u16 offset, (b & 15) + 3 (a long match's extension byte adds 1 in the fast loop), 64 bytes a step
    ...get(POS), ...set(I),
    LOOP, VOID,
    ...[0, 16, 32, 48].flatMap((at) => [
      ...get(I), ...get(I), SIMD, V128_LOAD, 0, ...uleb(at), SIMD, V128_CONST, ...new Array(16).fill(0x0f), SIMD, V128_AND,
      SIMD, V128_CONST, ...new Array(16).fill(3), SIMD, I8X16_ADD,
      SIMD, V128_STORE, 0, ...uleb(ADV_OFFSET + at),
    ]),
    ...addTo(I, ...k(64)),
    ...get(I), ...get(Q_END), LE_S, BR_IF, 0,
    END,
    BLOCK, VOID, // $quantumDone
    LOOP, VOID, // $token
    ...get(OP), ...get(OUT_END), GE_S, BR_IF, 1,
    ...get(POS), ...get(OP), ...get(Q_END), ...get(OUT_END), CALL, FAST_FUNCTION, ...set(OP), ...set(POS),
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
  const I64 = 0x7e;
  const decode = [1, ...uleb(LOCALS), I32, ...decodeBody()];
  const fast = [2, ...uleb(F_LOCALS), I32, ...uleb(F_LOCALS_I64), I64, ...fastBody()];
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    // types: decode (i32 i32 i32) → i32; fast (i32 i32 i32 i32) → (i32 i32)
    ...section(1, [2, 0x60, 3, I32, I32, I32, 1, I32, 0x60, 4, I32, I32, I32, I32, 2, I32, I32]),
    ...section(3, [2, 0, 1]),
    ...section(5, [1, 0x00, 5]),
    ...section(7, [2, ...name('decode'), 0x00, 0, ...name('memory'), 0x02, 0]),
    ...section(10, [2, ...uleb(decode.length), ...decode, ...uleb(fast.length), ...fast]),
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
