/**
 * Every hksc-compiled fixture program (float32 chunks with the Shadow of War header) runs under scry, at every
 * strip level, and its output is compared with Debian's lua5.1 running the matching source: identical except
 * numbers, and a number may differ only as float32 arithmetic explains (the chunk computes in float32, lua5.1 in
 * double). Programs lua5.1 cannot parse (HavokScript's structures, typed locals, `0x…hl` literals) only have to run
 * the same at every strip level. Programs that never end must be stopped by the instruction budget.
 */
import { describe, expect, it } from 'vitest';
import { readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { fixturePath, loadFixture } from '../../support/fixtures.ts';
import { hasLua51, runChunk, runLua51 } from './helpers.ts';

/** Programs whose loops never end (lua5.1 runs them until killed). */
const NON_TERMINATING = new Set(['18_repeat', '19_while', '25_nested_break', '38_upvalue_repeatorwhile', '39_optimizedbreak', '40_repuntilfalse', '43_upvalue_repuntilfalse', '51_while2_if_false', '55_whilewhile', '93_melded_repeat']);

const NUMBER = /-?(?:\d+\.?\d*(?:e[+-]\d+)?|inf|nan)/g;

/** The lines agree, numbers aside; each differing number pair is within float32 precision of the other. */
function explainedByFloat32(expected: string, actual: string): string | null {
  const el = expected.split('\n');
  const al = actual.split('\n');
  if (el.length !== al.length) return `line count ${el.length} vs ${al.length}`;
  for (let i = 0; i < el.length; i++) {
    if (el[i] === al[i]) continue;
    if (el[i]!.replace(NUMBER, '#') !== al[i]!.replace(NUMBER, '#')) return `line ${i + 1}: "${el[i]}" vs "${al[i]}"`;
    const en = el[i]!.match(NUMBER)!;
    const an = al[i]!.match(NUMBER)!;
    for (let j = 0; j < en.length; j++) {
      const a = Number(en[j]);
      const b = Number(an[j]);
      if (a === b || en[j] === an[j]) continue;
      const tolerance = 2 ** -20 * Math.max(Math.abs(a), 1);
      if (!(Math.abs(a - b) <= tolerance)) return `line ${i + 1}: ${en[j]} vs ${an[j]} is more than float32 rounding`;
    }
  }
  return null;
}

const dirs = ['hks/hksc-tests', 'hks/generated'];
const programs: { dir: string; name: string }[] = [];
for (const d of dirs) {
  for (const f of readdirSync(fixturePath(d))) {
    const m = /^(.*)\.(debug|stripped)\.luac$/.exec(f);
    if (m && (m[2] === 'debug' || !existsSync(fixturePath(d, `${m[1]}.debug.luac`)))) programs.push({ dir: d, name: m[1]! });
  }
}

describe('hksc fixture programs under scry (float32)', () => {
  let floatDiffering = 0;
  let identical = 0;
  it.each(programs)('$name', ({ dir, name }) => {
    const levels = ['debug', 'profile', 'stripped'].filter((l) => existsSync(fixturePath(dir, `${name}.${l}.luac`)));
    const budget = NON_TERMINATING.has(name) ? 20_000 : 50_000_000;
    const runs = levels.map((l) => runChunk(loadFixture(dir, `${name}.${l}.luac`), { name: `@${name}.lua`, limits: { instructions: budget } }));
    // debug information never changes what a program does
    for (const r of runs) {
      expect(r.stdout).toBe(runs[0]!.stdout);
      expect(r.error?.kind ?? null).toBe(runs[0]!.error?.kind ?? null);
    }
    const main = runs[0]!;
    if (NON_TERMINATING.has(name)) {
      expect(main.error?.kind).toBe('budget');
      return;
    }
    expect(main.error?.kind ?? 'none').not.toBe('internal');
    const src = join(fixturePath(dir), `${name}.lua`);
    if (!hasLua51 || !existsSync(src)) return;
    const lua = runLua51(`${name}.lua`, fixturePath(dir));
    if (lua.status !== 0 && /expected near|unexpected symbol|malformed number/.test(lua.stderr)) return; // HavokScript syntax
    const why = explainedByFloat32(lua.stdout, main.stdout);
    expect(why).toBeNull();
    if (lua.stdout === main.stdout) identical++;
    else floatDiffering++;
    // runtime errors: same message as lua5.1 (debug build), float32 aside
    if (lua.status !== 0) {
      expect(main.error).not.toBeNull();
      const luaMsg = lua.stderr.split('\n')[0]!.replace(/^lua5\.1: /, '');
      expect(explainedByFloat32(luaMsg, main.error!.message)).toBeNull();
    } else expect(main.error).toBeNull();
  });
  it('counts', () => {
    // most programs print exactly what lua5.1 prints; the rest differ only in float32-rounded numbers
    expect(identical + floatDiffering).toBeGreaterThan(0);
  });
});
