import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { writeHksChunk } from '../../src/formats/hks/index.ts';
import type * as A from '../../src/script/ast.ts';
import { compileLua, parseLua } from '../../src/script/compile/index.ts';
import { isLuaName, printLua, quoteLuaString } from '../../src/script/print.ts';
import { fixturePath, loadFixture } from '../support/fixtures.ts';

/** Every Lua source of the corpus: hksc's test programs, our generated programs and the official Lua 5.1 suite. */
function corpusSources(): { name: string; bytes: Uint8Array }[] {
  const out: { name: string; bytes: Uint8Array }[] = [];
  for (const set of [['hks', 'hksc-tests'], ['hks', 'generated'], ['lua51-tests']]) {
    for (const f of readdirSync(fixturePath(...set)).filter((n) => n.endsWith('.lua')).sort()) out.push({ name: `${set.join('/')}/${f}`, bytes: loadFixture(...set, f) });
  }
  return out;
}

const same = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

describe('printLua', () => {
  const sources = corpusSources().flatMap((s) => {
    try {
      return [{ ...s, ast: parseLua(s.bytes, { chunkName: s.name }) }];
    } catch {
      return []; // the official suite has files hksc does not accept (it rejects some 5.1 forms); hksc's own all parse
    }
  });

  it('has the corpus', () => {
    expect(sources.length).toBeGreaterThan(150);
    expect(sources.filter((s) => s.name.includes('hksc-tests')).length).toBe(117);
  });

  it('print → parse → print is stable on every corpus source', () => {
    const unstable: string[] = [];
    for (const s of sources) {
      const once = printLua(s.ast);
      const twice = printLua(parseLua(once, { chunkName: s.name }));
      if (once !== twice) unstable.push(s.name);
    }
    expect(unstable).toEqual([]);
  });

  it('the printed source compiles to the bytes the original compiles to (what the user reads is what runs)', () => {
    const differ: string[] = [];
    for (const s of sources) {
      const a = writeHksChunk(compileLua(s.bytes, { strip: 'all' }));
      const b = writeHksChunk(compileLua(printLua(s.ast), { strip: 'all' }));
      if (!same(a, b)) differ.push(s.name);
    }
    expect(differ).toEqual([]);
  });

  const pos = { line: 0, column: 0 };
  const num = (v: number): A.Expression => ({ type: 'NumberLiteral', value: v, raw: String(v), ...pos });
  const name = (n: string): A.NameExpression => ({ type: 'NameExpression', name: n, ...pos });
  const bin = (operator: A.BinaryOperator, left: A.Expression, right: A.Expression): A.Expression => ({ type: 'BinaryExpression', operator, left, right, ...pos });
  const neg = (argument: A.Expression): A.Expression => ({ type: 'UnaryExpression', operator: '-', argument, ...pos });

  it('adds the parentheses a synthesized tree needs, no more', () => {
    expect(printLua(bin('*', bin('+', name('a'), name('b')), name('c'))).trim()).toBe('(a + b) * c');
    expect(printLua(bin('+', name('a'), bin('*', name('b'), name('c')))).trim()).toBe('a + b * c');
    expect(printLua(bin('-', name('a'), bin('-', name('b'), name('c')))).trim()).toBe('a - (b - c)');
    expect(printLua(bin('^', name('a'), bin('^', name('b'), name('c')))).trim()).toBe('a ^ b ^ c');
    expect(printLua(bin('^', bin('^', name('a'), name('b')), name('c'))).trim()).toBe('(a ^ b) ^ c');
    expect(printLua(bin('..', bin('..', name('a'), name('b')), name('c'))).trim()).toBe('(a .. b) .. c');
    expect(printLua(bin('^', neg(num(2)), num(2))).trim()).toBe('(-2) ^ 2');
    expect(printLua(neg(bin('^', num(2), num(2)))).trim()).toBe('-2 ^ 2');
    expect(printLua(neg(neg(name('x')))).trim()).toBe('- -x');
    expect(printLua(bin('or', bin('and', name('a'), name('b')), name('c'))).trim()).toBe('a and b or c');
    expect(printLua(bin('and', name('a'), bin('or', name('b'), name('c')))).trim()).toBe('a and (b or c)');
  });

  it('writes bytes outside printable ASCII as decimal escapes that do not swallow a following digit', () => {
    expect(quoteLuaString('a"b\\c\n')).toBe('"a\\"b\\\\c\\n"');
    expect(quoteLuaString('\x001')).toBe('"\\0001"');
    expect(quoteLuaString('\xe9x')).toBe('"\\233x"');
    expect(isLuaName('hmake')).toBe(false);
    expect(isLuaName('_x1')).toBe(true);
  });

  it('keeps a space between a number and `.`/`..`, and none after a name ending in a digit', () => {
    const text = printLua(parseLua('local l_0_0 = {}\nl_0_0.x = 1 .. l_0_0.y\nprint(l_0_0:m(), 2 .. "")\n'));
    expect(text).toContain('l_0_0.x = 1 .. l_0_0.y');
    expect(text).toContain('l_0_0:m(), 2 .. ""');
    expect(() => parseLua(text)).not.toThrow();
  });

  it('separates a statement from a next one that starts with a parenthesis', () => {
    const chunk = parseLua('a = b\n;(f)()\n');
    const text = printLua(chunk);
    expect(() => parseLua(text)).not.toThrow();
    expect(text).toContain(';');
  });

  it('places nodes on the lines of their positions in lines mode', () => {
    const chunk = parseLua('local a = 1\n\n\nprint(a,\n  2)\n');
    const text = printLua(chunk, { lines: true });
    const lines = text.split('\n');
    expect(lines[0]).toBe('local a = 1');
    expect(lines[3]).toMatch(/^print\(a,/);
    expect(lines[4]).toMatch(/2\)$/);
    expect(writeHksChunk(compileLua(text))).toEqual(writeHksChunk(compileLua('local a = 1\n\n\nprint(a,\n  2)\n')));
  });
});
