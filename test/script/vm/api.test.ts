/**
 * The VM API the engine builds on: loading a chunk, typed host functions, script threads that a host function
 * suspends (LithThreadSleep) and the host resumes, budgets, and ScriptError with `chunk:line: message` and a
 * traceback. Chunks are written in scry's assembly listing (double numbers unless a test says otherwise).
 */
import { describe, expect, it } from 'vitest';
import { assembleHks } from '../../../src/formats/hks/index.ts';
import { compileLua } from '../../../src/script/compile/index.ts';
import { createScriptVM, LuaClosure, LuaTable, LuaThread, ScriptError, type LuaVM } from '../../../src/script/vm/index.ts';

const DOUBLE = '.header lua=0x51 format=14 endian=little int=4 size_t=8 instruction=4 number=8 integral=0 flags=0x0b referenced=0';

function asm(body: string, header = DOUBLE): ReturnType<typeof assembleHks>['chunk'] {
  return assembleHks(`${header}\n${body}`).chunk;
}

/** A chunk defining global `thread(self, threadId, scriptId)`: sleeps, logs what the sleep returned, returns "done". */
const THREAD = `
.function main
  .params 0  .upvalues 0  .vararg 2  .maxstack 2
  .debug line=0 last=0 source="@layer.lua" name="(main chunk)"
  .code
    0 [1] CLOSURE        R(0) P(0)
    1 [1] SETGLOBAL      R(0) K("thread")
    2 [1] RETURN         R(0) 1
  .function main/0
    .params 3  .upvalues 0  .vararg 0  .maxstack 6
    .debug line=1 last=5 source=null name="thread"
    .code
      0 [2] GETGLOBAL      R(3) K("LithThreadSleep")
      1 [2] MOVE           R(4) R(1)
      2 [2] LOADK          R(5) K(1.5)
      3 [2] CALL_I         R(3) 3 2
      4 [3] GETGLOBAL      R(4) K("Log")
      5 [3] MOVE           R(5) R(3)
      6 [3] CALL_I         R(4) 2 1
      7 [4] LOADK          R(4) K("done")
      8 [4] RETURN         R(4) 2
      9 [5] RETURN         R(0) 1
  .end
.end
`;

function threadVm(): { vm: LuaVM; log: unknown[] } {
  const vm = createScriptVM({ numbers: 'double' });
  const log: unknown[] = [];
  vm.register('LithThreadSleep', (call) => call.yield(call.number(1), call.number(2)));
  vm.register('Log', (call) => void log.push(call.arg(1)));
  vm.call(vm.load(asm(THREAD)));
  return { vm, log };
}

describe('script threads', () => {
  it('a host function suspends the thread; the host resumes it with the sleep result', () => {
    const { vm, log } = threadVm();
    const fn = vm.getGlobal('thread');
    expect(fn).toBeInstanceOf(LuaClosure);
    const t = vm.newThread(fn);
    expect(t).toBeInstanceOf(LuaThread);
    const self = vm.newTable();
    expect(vm.resume(t, [self, 7, 9])).toEqual({ status: 'yield', values: [7, 1.5] });
    expect(t.status).toBe('suspended');
    expect(log).toEqual([]);
    expect(vm.resume(t, ['woken'])).toEqual({ status: 'return', values: ['done'] });
    expect(log).toEqual(['woken']);
    expect(t.status).toBe('dead');
    const again = vm.resume(t, []);
    expect(again.status).toBe('error');
    if (again.status === 'error') expect(again.error.message).toBe('cannot resume dead coroutine');
  });

  it('a host function cannot yield the main thread (Lua 5.1 says so as for any C boundary)', () => {
    const { vm } = threadVm();
    expect(() => vm.call(vm.getGlobal('thread'), [undefined, 1, 2])).toThrowError(/^attempt to yield across metamethod\/C-call boundary$/);
  });

  it('argument errors name the function as the script called it', () => {
    const { vm } = threadVm();
    const t = vm.newThread(vm.getGlobal('thread'));
    const r = vm.resume(t, [undefined, 'seven']);
    expect(r.status).toBe('error');
    if (r.status === 'error') {
      expect(r.error).toBeInstanceOf(ScriptError);
      expect(r.error.message).toBe("layer.lua:2: bad argument #1 to 'LithThreadSleep' (number expected, got string)");
      expect(r.error.traceback).toContain("[C]: in function 'LithThreadSleep'");
      expect(r.error.traceback).toContain("layer.lua:2: in function 'thread'");
    }
  });
});

describe('errors and limits', () => {
  it('a runtime error reaches the host as chunk:line: message with a traceback', () => {
    const vm = createScriptVM();
    const chunk = asm(`
.function main
  .params 0  .upvalues 0  .vararg 2  .maxstack 2
  .debug line=0 last=0 source="@broken.lua" name="(main chunk)"
  .code
    0 [3] GETGLOBAL      R(0) K("missing")
    1 [3] CALL_I         R(0) 1 1
    2 [4] RETURN         R(0) 1
.end`);
    let err: unknown;
    try {
      vm.call(vm.load(chunk));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ScriptError);
    const se = err as ScriptError;
    expect(se.message).toBe("broken.lua:3: attempt to call global 'missing' (a nil value)");
    expect(se.kind).toBe('runtime');
    expect(se.traceback).toBe('stack traceback:\n\tbroken.lua:3: in main chunk');
  });

  it('an endless loop stops at the instruction budget, and pcall cannot catch it', () => {
    const vm = createScriptVM({ limits: { instructions: 10_000 } });
    const loop = asm(`
.function main
  .params 0  .upvalues 0  .vararg 2  .maxstack 2
  .code
  L0:
    0 JMP            L0
.end`);
    const f = vm.load(loop, '=loop');
    // run it under pcall: the budget error is fatal
    const pcall = vm.getGlobal('pcall');
    expect(() => vm.call(pcall, [f])).toThrowError(/loop:\?: instruction budget exhausted/);
    try {
      vm.budget = 10;
      vm.call(f);
    } catch (e) {
      expect((e as ScriptError).kind).toBe('budget');
    }
  });

  it('deep recursion is a catchable stack overflow', () => {
    const vm = createScriptVM({ limits: { maxCallDepth: 500 } });
    const rec = asm(`
.function main
  .params 0  .upvalues 0  .vararg 2  .maxstack 2
  .debug line=0 last=0 source="@rec.lua" name="(main chunk)"
  .code
    0 [1] CLOSURE        R(0) P(0)
    1 [1] SETGLOBAL      R(0) K("r")
    2 [2] GETGLOBAL      R(0) K("r")
    3 [2] CALL_I         R(0) 1 1
    4 [2] RETURN         R(0) 1
  .function main/0
    .params 0  .upvalues 0  .vararg 0  .maxstack 2
    .debug line=1 last=1 source=null name="r"
    .code
      0 [1] GETGLOBAL      R(0) K("r")
      1 [1] CALL_I         R(0) 1 1
      2 [1] RETURN         R(0) 1
  .end
.end`);
    expect(() => vm.call(vm.load(rec))).toThrowError(/^rec\.lua:1: stack overflow$/);
    // the VM is usable afterwards
    expect(vm.call(vm.getGlobal('tostring'), [12])).toEqual(['12']);
  });
});

describe('float32 mode', () => {
  it('rounds arithmetic to float32 and prints %.14g of the widened value', () => {
    let out = '';
    const vm = createScriptVM({ numbers: 'float', io: { stdout: (s) => void (out += s), stderr: () => {} } });
    const chunk = asm(
      `
.function main
  .params 0  .upvalues 0  .vararg 2  .maxstack 3
  .code
    0 GETGLOBAL      R(0) K("print")
    1 LOADK          R(1) K(0.1)
    2 ADD            R(2) R(1) K(0.2)
    3 CALL_I         R(0) 3 1
    4 RETURN         R(0) 1
.end`,
      '.header lua=0x51 format=14 endian=little int=4 size_t=8 instruction=4 number=4 integral=0 flags=0x03 referenced=0',
    );
    vm.call(vm.load(chunk));
    // float(0.1) and float(float(0.1) + float(0.2)), each printed through double
    expect(out).toBe(`0.10000000149012\t0.30000001192093\n`);
  });

  it('a double the host stores in a table field reads as float32 in both tiers', () => {
    for (const jit of [false, 1] as const) {
      let out = '';
      const vm = createScriptVM({ numbers: 'float', jit, io: { stdout: (s) => void (out += s), stderr: () => {} } });
      const t = vm.newTable();
      t.set('x', 0.1);
      vm.setGlobal('T', t);
      vm.setGlobal('G', 0.1);
      const src = 'local s, g = 0, 0 for i = 1, 3 do s = T.x; g = G; T.y = s end print(s, g, T.x == 0.1, T.y == 0.1)';
      vm.call(vm.load(compileLua(src, { name: 'f32.lua', numbers: 'float' })));
      // float(0.1) printed through double; equal to the chunk's float32 constant 0.1
      expect(out).toBe('0.10000000149012\t0.10000000149012\ttrue\ttrue\n');
    }
  });

  it('refuses a chunk of the other number mode', () => {
    const vm = createScriptVM({ numbers: 'float' });
    expect(() => vm.load(asm('.function main\n  .params 0  .upvalues 0  .vararg 2  .maxstack 2\n  .code\n    0 RETURN R(0) 1\n.end'))).toThrowError(/double but this VM runs in float32 mode/);
  });
});

describe('host values', () => {
  it('tables made by the host are ordinary Lua tables', () => {
    const vm = createScriptVM();
    const t = vm.newTable();
    t.set(1, 'a');
    t.set('k', 2);
    expect(vm.call(vm.getGlobal('rawget'), [t, 'k'])).toEqual([2]);
    expect(t).toBeInstanceOf(LuaTable);
    expect(vm.call(vm.getGlobal('select'), ['#', 1, undefined, 3])).toEqual([3]);
  });
});
