/**
 * The interpreter's fast paths against Debian's lua5.1: number keys of the hash part read and written through the
 * per-instruction entry cache (the same instruction meeting other tables, keys that move to the array part on a
 * rehash, keys set to nil and set again, -0 and 0), a CALL of a fixed-arity function whose frame is set up inline
 * (missing arguments, extra ones, locals that must start nil), and string.format's integer conversions without
 * flags (JavaScript digits) beside the ones formatInteger keeps (negatives under %x/%o/%u, huge values, flags),
 * the C casts of out-of-range numbers (inf, NaN, 1e300, 2^64 under %d and the unsigned %x/%X/%o/%u, (int) for %c)
 * and the C-string cut of each sprintf piece at its first NUL; small hash parts searched without a Map and the step to an
 * indexed one (keys of every type, dead entries, clearing during traversal); number values of the hash part (constant-key fields
 * and globals in loops, a field changing type, -0 and NaN, a rehash, pairs, a weak table); resume and yield handing values from stack to stack
 * (past the free slots, -0 and NaN kept) and host calls nested past the pooled frames.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { compileLua } from '../../../src/script/compile/index.ts';
import { createScriptVM } from '../../../src/script/vm/index.ts';
import { hasLua51 } from './helpers.ts';

const PROGRAM = String.raw`
local out = {}
local function put(...) local t = {...} for i = 1, select('#', ...) do t[i] = tostring(t[i]) end out[#out + 1] = table.concat(t, ' ') end

-- one GETTABLE / SETTABLE pair running over several tables whose number keys live in the hash part
local function get(t, k) return t[k] end
local function set(t, k, v) t[k] = v end
local a, b = { [0] = 'a0', [-1] = 'a-1' }, { [0] = 'b0', [2.5] = 'b2.5' }
for round = 1, 3 do
  put(get(a, 0), get(b, 0), get(a, -1), get(b, 2.5), get(a, 2.5), get(b, -1))
  set(a, 0, 'a0/' .. round); set(b, 0, 'b0/' .. round)
end
set(a, 0, nil); put('dead', get(a, 0)); set(a, 0, 'again'); put('revived', get(a, 0), get(a, -0))
-- keys that a rehash moves into the array part, read through the same instructions before and after
local c = {}
for i = 0, 40 do set(c, i, i * 2) end
local sum = 0
for i = 0, 40 do sum = sum + get(c, i) end
put('sum', sum, #c, get(c, 0), get(c, 40), get(c, 41))
for i = 40, 0, -1 do set(c, i, nil) end
put('cleared', get(c, 0), get(c, 20), next(c))
-- constant number keys
local d = { [0] = 1 }
for _ = 1, 3 do d[0] = d[0] * 3; d[-5] = (d[-5] or 0) + 1 end
put('const', d[0], d[-5], d[1e300], d[-0])

-- fixed-arity calls: missing and extra arguments, locals that start nil, deep recursion through pooled frames
local function f3(x, y, z) local u, v; return x, y, z, u, v end
put(f3()); put(f3(1)); put(f3(1, 2, 3, 4, 5))
local function depth(n) if n == 0 then return 0 end local r = depth(n - 1) return r + 1 end
put('depth', depth(150), depth(3))
local function fib(n) if n < 2 then return n end return fib(n - 1) + fib(n - 2) end
put('fib', fib(20))

-- number values of the hash part (kept apart from the entries, unboxed): constant-key fields read and written in a
-- loop (GETFIELD/SETFIELD and the globals), a field switching between a number and other values, -0 and NaN, many
-- number fields (the number array grows), a rehash moving them, pairs and next over them, a weak-valued table
local body = { x = 1.5, y = -0, vx = 0.1, name = 'b' }
for i = 1, 60 do
  body.x = body.x + body.vx * i; body.y = body.y - 0.5
  if i == 20 then body.vx = 'str' .. i; put('vx now', body.vx); body.vx = 0.2 end
  if i == 40 then body.name = i; body.name = 'again' end
end
put('body', body.x, body.y, body.vx, body.name, 1 / (body.y * 0) ~= 1 / (body.y * 0))
G_NUM = 0.75
for i = 1, 30 do G_NUM = G_NUM * 1.5 + i end
put('global', G_NUM)
local nf = {}
for i = 1, 40 do nf['k' .. i] = i + 0.25 end
nf.k3 = 'three'; nf.k4 = -0; nf.k5 = 0 / 0; nf.k6 = nil; nf.k7 = false
local nsum, ncount = 0, 0
for key, v in pairs(nf) do if type(v) == 'number' and v == v then nsum = nsum + v; ncount = ncount + 1 end end
put('fields', nsum, ncount, nf.k1, nf.k3, 1 / nf.k4, nf.k5 ~= nf.k5, nf.k6, nf.k7, nf.k40)
for i = 1, 100 do nf[i] = i * 1.5 end
put('rehashed', nf.k1, nf.k40, nf.k3, 1 / nf.k4, nf[1], nf[100], #nf, next({ z = 2.5 }))
local mixed = { [0] = 0.5, [-1] = -1.5, [2.5] = 3.25 }
for i = 1, 3 do mixed[0] = mixed[0] * 3; mixed[2.5] = mixed[2.5] + mixed[-1] end
put('number keys', mixed[0], mixed[-1], mixed[2.5])
local weak = setmetatable({}, { __mode = 'v' })
weak.n = 4.5; weak.t = {}; weak.s = 'kept'
collectgarbage(); collectgarbage()
put('weak', weak.n, weak.t, weak.s)

-- resume / yield hand values over slot by slot (numbers unboxed, -0 and NaN kept): counts past the free slots a
-- host function gets (the stacks grow), nil holes, every type, and host calls nested deeper than the pooled frames
local function pack(...) return select('#', ...), {...} end
local co = coroutine.create(function(...)
  local n, got = pack(...)
  put('co got', n, got[1], got[2], got[3], got[30], got[60], 1 / got[4] < 0, got[5] ~= got[5])
  local back = {}
  for i = 1, 70 do back[i] = i * 0.5 end
  back[2] = nil; back[3] = -0; back[4] = 'four'
  local n2, again = pack(coroutine.yield(unpack(back, 1, 70)))
  put('co again', n2, again[1], again[25], again[26])
  return 'done', -0, nil
end)
local args = { 1.25, 'two', nil, -0, 0 / 0 }
for i = 6, 60 do args[i] = i end
local r = { coroutine.resume(co, unpack(args, 1, 60)) }
put('yielded', #r, r[1], r[2], r[3], r[4], r[5], r[71], 1 / r[4] < 0)
local big = {}
for i = 1, 25 do big[i] = i * i end
put('returned', coroutine.resume(co, unpack(big, 1, 26)))
put('dead', coroutine.resume(co, 1))
local function nest(n) if n == 0 then return coroutine.resume(coroutine.create(function(x) return x * 2 end), 21) end return select(2, pcall(nest, n - 1)) end
put('nested', nest(30))

-- small hash parts (searched without a Map up to 8 entries, indexed past that): tables growing one key at a time
-- across the boundary, keys of every type (0 and -0 one key, floats, booleans, tables, functions), keys set to nil
-- and set again (dead entries), next over a table while its fields are cleared, a constructor's preallocated part
local function sorted(t) local ks = {} for k, v in pairs(t) do local o = type(k) == 'table' or type(k) == 'function' ks[#ks + 1] = (o and type(k) or tostring(k)) .. '=' .. tostring(v) end table.sort(ks) return table.concat(ks, ',') end
local tk, fk = {}, function() end
for n = 1, 12 do
  local t = {}
  for i = 1, n do t['k' .. i] = i end
  t[0] = 'zero'; t[-0] = 'negzero'; t[2.5] = 'f'; t[true] = 'yes'; t[false] = 'no'; t[tk] = 'tab'; t[fk] = 'fn'
  put('small', n, t[0], t[2.5], t[true], t[false], t[tk], t[fk], t.k1, t['k' .. n], t.missing, sorted(t))
  t.k1 = nil; t['k' .. n] = nil
  put('dead', n, t.k1, t['k' .. n], next(t) ~= nil)
  t.k1 = 'again'; t.new = 'new'
  local c = 0
  for k in pairs(t) do t[k] = nil; c = c + 1 end
  put('cleared', n, c, next(t))
end
local obj = { x = 1, y = 2, z = 3 }
obj.w = 4; obj.x = nil; obj.v = 5; obj.x = 6
put('ctor', sorted(obj))
local many = {}
for i = 1, 40 do many['m' .. i] = i; if i % 3 == 0 then many['m' .. (i - 1)] = nil end end
put('many', sorted(many))
-- string.format's integer conversions
local nums = { 0, -0, 1, -1, 255, -255, 3.7, -3.7, 2^31, -2^31, 2^53, 2^53 + 2, -2^53, 2^63, -2^63 }
for _, n in ipairs(nums) do
  put(string.format('%d %i %x %X %o %u|%5d|%-5x|%05X|%.3d|%#x|%+d', n, n, n, n, n, n, n, n, n, n, n, n))
end
-- out of the 64-bit range: (long) and gcc's (unsigned long) on x86-64 (inf, 2^64 and above give 0 unsigned)
for _, n in ipairs({ 1/0, -1/0, 0/0, 1e300, -1e300, 2^64, 1e19, 2^63 + 2^11, -2^63 - 2^11 }) do
  put(string.format('%d %x %X %o %u|%#x|%5.3o|%-20u|', n, n, n, n, n, n, n, n))
end
-- bare conversions' argument errors, in the order lua5.1 raises them
put(pcall(string.format, '%d %s', 1)); put(pcall(string.format, '%s %x', 'a', 'zz')); put(pcall(string.format, '%X|%i', '12', {}))
put(string.format('%s%d%x%X%i', 'n', '42', '255', 255.9, -7.9), pcall(string.format, '%s', {}))
-- %c through (int), and every sprintf piece cut at its first NUL; %s of 100 bytes or more kept whole without precision
put(string.format('[%c|%c|%c|%c|%5c|%-5c|%c%c]', 2^31 + 65, -2^31 - 191, 2^32 + 66, 65.9, 0, 0, 66, 0))
put(string.format('[%s|%5s|%.2s|%-4s]', 'a\0b', 'x\0y', 'q\0r', '\0z'))
put(#string.format('%s', ('a'):rep(120) .. '\0z'), #string.format('%20s', ('b'):rep(100)), #string.format('%.20s', ('b'):rep(100)), #string.format('%5s', ('b'):rep(99)))
print(table.concat(out, '\n'))
`;

function runScry(jit: boolean): string {
  let out = '';
  const vm = createScriptVM({ numbers: 'double', jit: jit ? 1 : false, io: { stdout: (s) => void (out += s), stderr: () => {} } });
  vm.call(vm.load(compileLua(PROGRAM, { name: 'fastpaths.lua', numbers: 'double' }), '@fastpaths.lua'));
  return out;
}

describe.skipIf(!hasLua51)('interpreter fast paths match lua5.1', () => {
  const ref = spawnSync('lua5.1', ['-'], { input: PROGRAM, encoding: 'latin1', timeout: 10_000 });
  it('lua5.1 runs the program', () => {
    expect(ref.status).toBe(0);
  });
  it.each([false, true])('scry (jit %s) prints what lua5.1 prints', (jit) => {
    expect(runScry(jit)).toBe(ref.stdout);
  });
});
