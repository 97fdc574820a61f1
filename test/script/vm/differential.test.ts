/**
 * Differential test in double mode: every Lua program of the hksc fixtures (test/fixtures/hks/hksc-tests and
 * generated) that Debian's lua5.1 can run is compiled by scry (`compileLua`, double numbers) and run by scry's VM; its
 * stdout, its returned values and its error message must be exactly lua5.1's. (Programs in HavokScript's own syntax
 * — structures, typed locals, `0x…hl` literals — are not Lua 5.1 and are covered by the float32 fixture test.)
 */
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { latin1Decode } from '../../../src/binary/text.ts';
import { compileScript, createScriptVM, ScriptError } from '../../../src/script/vm/index.ts';
import { fixturePath } from '../../support/fixtures.ts';
import { hasLua51 } from './helpers.ts';

const NON_TERMINATING = new Set(['18_repeat', '19_while', '25_nested_break', '38_upvalue_repeatorwhile', '39_optimizedbreak', '40_repuntilfalse', '43_upvalue_repuntilfalse', '51_while2_if_false', '55_whilewhile', '93_melded_repeat']);

/** Prints what a chunk returns (count, then each value; reference types by type name) after running it. */
const SHOW_RESULTS = `local r = { n = select('#', ...), ... }
io.write('returned ', r.n)
for i = 1, r.n do local v = r[i]; local t = type(v); io.write(' ', (t == 'table' or t == 'function' or t == 'userdata' or t == 'thread') and t or tostring(v)) end
io.write('\\n')`;

const programs: { dir: string; name: string }[] = [];
for (const dir of ['hks/hksc-tests', 'hks/generated']) {
  for (const f of readdirSync(fixturePath(dir))) if (f.endsWith('.lua') && !NON_TERMINATING.has(f.slice(0, -4))) programs.push({ dir, name: f.slice(0, -4) });
}

function lua51(dir: string, name: string): { stdout: string; error: string | null; syntax: boolean } {
  const script = `local f, e = loadfile('${name}.lua') if not f then io.stderr:write(e) os.exit(2) end
local function show(...) ${SHOW_RESULTS.replace(/\n/g, ' ')} end
local ok, err = pcall(function() show(f()) end)
if not ok then io.stderr:write(tostring(err)) os.exit(1) end`;
  const r = spawnSync('lua5.1', ['-e', script], { cwd: fixturePath(dir), encoding: 'latin1', timeout: 10_000 });
  return { stdout: r.stdout, error: r.status === 0 ? null : r.stderr, syntax: r.status === 2 };
}

function scry(dir: string, name: string, jit: number | false): { stdout: string; error: string | null } {
  let stdout = '';
  const vm = createScriptVM({ numbers: 'double', jit, limits: { instructions: 50_000_000 }, io: { stdout: (s) => void (stdout += s), stderr: () => {} } });
  const src = latin1Decode(new Uint8Array(readFileSync(fixturePath(dir, `${name}.lua`))));
  try {
    const f = vm.load(compileScript(src, `@${name}.lua`, 'double'));
    const show = vm.load(compileScript(SHOW_RESULTS, '=show', 'double'));
    vm.call(show, vm.call(f));
    return { stdout, error: null };
  } catch (e) {
    if (e instanceof ScriptError) return { stdout, error: e.message };
    throw e;
  }
}

describe.skipIf(!hasLua51)('double mode: scry vs lua5.1 on the fixture programs', () => {
  const counted = { compared: 0, syntax: 0 };
  it.each(programs)('$name', ({ dir, name }) => {
    const expected = lua51(dir, name);
    if (expected.syntax) {
      counted.syntax++;
      return;
    }
    counted.compared++;
    const got = scry(dir, name, false);
    expect(got.stdout).toBe(expected.stdout);
    expect(got.error).toBe(expected.error);
    // the JavaScript tier, compiling every function at its first entry
    const jitted = scry(dir, name, 1);
    expect(jitted.stdout).toBe(expected.stdout);
    expect(jitted.error).toBe(expected.error);
  });
  it('compared most programs', () => {
    expect(counted.compared).toBeGreaterThan(80);
  });
});
