/**
 * Bad bytecode never crashes the host and never runs past its budget: chunks with mutated instruction words,
 * operands, constants and frame sizes only ever end in a ScriptError (never a JavaScript TypeError / RangeError,
 * never an internal error), and the instructions executed stay within the budget. Plus the refusals mode 0 and
 * mode 2 make: opcodes above 0x5B, control leaving the code, INTRINSIC_* / DATA as no-ops.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { assembleHks, parseHksChunk, type HksChunk, type HksFunction } from '../../../src/formats/hks/index.ts';
import { createScriptVM, ScriptError } from '../../../src/script/vm/index.ts';
import { loadFixture, propertySeed } from '../../support/fixtures.ts';

const FIXTURES = ['closures', 'varargs', 'tables', 'loops', 'methods', 'constants', 'r1forms', 'structs3'].map((n) => parseHksChunk(loadFixture('hks/generated', `${n}.debug.luac`)));

function cloneFn(f: HksFunction): HksFunction {
  return { ...f, code: Uint32Array.from(f.code), constants: f.constants.map((k) => ({ ...k })), children: f.children.map(cloneFn) };
}
function allFns(f: HksFunction, out: HksFunction[] = []): HksFunction[] {
  out.push(f);
  for (const c of f.children) allFns(c, out);
  return out;
}

const BUDGET = 20_000;

function runHostile(chunk: HksChunk): void {
  const vm = createScriptVM({ numbers: chunk.header.numberSize === 4 ? 'float' : 'double', limits: { instructions: BUDGET, maxCallDepth: 200, maxStackSlots: 1 << 16, maxTableEntries: 1 << 16, maxStringLength: 1 << 16 } });
  // the fixtures call these; give them harmless hosts
  for (const g of ['GetSomething', 'GetThing', 'GetNumber', 'f', 'g']) vm.register(g, () => 1);
  try {
    vm.call(vm.load(chunk, '=mutant'));
  } catch (e) {
    if (!(e instanceof ScriptError)) throw e;
    expect(e.kind, e.message).not.toBe('internal');
  }
  expect(vm.budget).toBeGreaterThanOrEqual(0);
}

describe('mutated bytecode', () => {
  it('word mutations end in a ScriptError within the budget', () => {
    const seed = propertySeed();
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: FIXTURES.length - 1 }),
        fc.array(fc.tuple(fc.nat(), fc.nat(), fc.oneof(fc.integer({ min: 0, max: 0xffffffff }), fc.integer({ min: 0, max: 31 }))), { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 0, max: 3 }),
        (which, edits, kind) => {
          const base = FIXTURES[which]!;
          const chunk: HksChunk = { ...base, main: cloneFn(base.main) };
          const fns = allFns(chunk.main);
          for (const [fi, wi, v] of edits) {
            const fn = fns[fi % fns.length]!;
            if (fn.code.length === 0) continue;
            const i = wi % fn.code.length;
            if (kind === 0) fn.code[i] = v >>> 0; // any word
            else if (kind === 1) fn.code[i] = (fn.code[i]! ^ (1 << (v & 31))) >>> 0; // one bit
            else if (kind === 2) fn.maxStackSize = v & 0xff; // wrong frame size
            else fn.constants = fn.constants.slice(0, v % (fn.constants.length + 1)); // constants missing
          }
          runHostile(chunk);
        },
      ),
      { seed, numRuns: 300 },
    );
  });
});

const DOUBLE = '.header lua=0x51 format=14 endian=little int=4 size_t=8 instruction=4 number=8 integral=0 flags=0x0b referenced=0';
function run(code: string, checked = false): { out: string; error: ScriptError | null } {
  let out = '';
  const vm = createScriptVM({ checked, limits: { instructions: 1000 }, io: { stdout: (s) => void (out += s), stderr: () => {} } });
  const chunk = assembleHks(`${DOUBLE}\n.function main\n  .params 0  .upvalues 0  .vararg 2  .maxstack 4\n  .debug line=0 last=0 source="@t.lua" name="(main chunk)"\n  .code\n${code}\n.end`).chunk;
  try {
    vm.call(vm.load(chunk));
    return { out, error: null };
  } catch (e) {
    return { out, error: e as ScriptError };
  }
}

describe('mode 0 refusals and no-ops', () => {
  it('INTRINSIC_* and DATA words run as no-ops', () => {
    const r = run(`
    0 [1] GETGLOBAL      R(0) K("print")
    1 [1] INTRINSIC_INDEX 1 2 3
    2 [1] INTRINSIC_SELF_LITERAL 0 0 0
    3 [1] .data 5 6
    4 [1] LOADK          R(1) K("ok")
    5 [1] CALL_I         R(0) 2 1
    6 [1] RETURN         R(0) 1`);
    expect(r.error).toBeNull();
    expect(r.out).toBe('ok\n');
  });

  it('NEWTABLE size hints past the table budget are a table overflow, not a huge allocation', () => {
    // B = 193 decodes (luaO_fb2int) to 75,497,472 array slots, C = 490 to 2,684,354,560 hash slots: beyond an int32,
    // which once wrapped negative, passed the budget check and preallocated 75 M slots (33 s in the fuzz test)
    for (const [b, c] of [[193, 490], [0, 490], [193, 0]]) {
      const r = run(`
    0 [1] NEWTABLE       R(0) ${b} ${c}
    1 [1] RETURN         R(0) 1`);
      expect(r.error?.message).toMatch(/^t\.lua:1: table overflow \(a table may hold 67108864 slots\)/);
    }
  });

  it('an opcode above 0x5B is refused when reached', () => {
    const r = run(`
    0 [1] .word 0xB8000000
    1 [1] RETURN         R(0) 1`);
    expect(r.error?.message).toBe('t.lua:1: invalid bytecode: invalid opcode 92 (the interpreter refuses opcodes above 0x5B)');
  });

  it('falling off the code raises mode 2\'s message in checked mode and scry\'s own otherwise', () => {
    const code = `
    0 [1] LOADK          R(0) K("a")
    1 [2] JMP            L3
    2 [2] RETURN         R(0) 1
  L3:
    3 [3] LOADK          R(1) K("b")`;
    expect(run(code, true).error?.message).toBe('t.lua:3: VM Kernel error: invalid instruction pointer.');
    expect(run(code, false).error?.message).toMatch(/^t\.lua:3: invalid bytecode: control left the function/);
  });
});
