import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CompileError, compileLua, parseLua } from '../../src/script/compile/index.ts';
import { fixturePath, loadFixture } from '../support/fixtures.ts';

const dir = fixturePath('hks', 'hksc-errors');
const cases = readdirSync(dir)
  .filter((f) => f.endsWith('.lua'))
  .sort()
  .map((f) => {
    const name = f.slice(0, -4);
    const expect = new TextDecoder('latin1').decode(loadFixture('hks', 'hksc-errors', `${name}.expect`)).split('\n');
    return { name, file: f, message: expect[0]!.startsWith('rc=') ? null : expect[0]!, rc: expect.find((l) => l.startsWith('rc='))! };
  });

describe("hksc's 37 error cases", () => {
  it('are all here', () => expect(cases.length).toBe(37));

  it.each(cases.map((c) => [c.name, c] as const))('%s: the message and line hksc prints (or compiles where hksc does)', (_name, c) => {
    const source = loadFixture('hks', 'hksc-errors', c.file);
    if (c.message === null) {
      expect(c.rc).toBe('rc=0');
      expect(() => compileLua(source, { name: c.file, strip: 'all' })).not.toThrow();
      return;
    }
    let error: unknown;
    try {
      compileLua(source, { name: c.file, strip: 'all' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(CompileError);
    const ce = error as CompileError;
    expect(ce.message).toBe(c.message);
    expect(`${ce.chunkName}:${ce.line}: ${ce.reason}`).toBe(c.message);
  });
});

describe('CompileError shape', () => {
  it('carries chunk name, line, column and the Lua-style message', () => {
    let e: CompileError | undefined;
    try {
      parseLua('local x = 1\nlocal y = = 2\n', { chunkName: 'x.lua' });
    } catch (err) {
      e = err as CompileError;
    }
    expect(e).toBeInstanceOf(CompileError);
    expect(e!.message).toBe("x.lua:2: unexpected symbol near '='");
    expect([e!.chunkName, e!.line, e!.column, e!.reason]).toEqual(['x.lua', 2, 11, "unexpected symbol near '='"]);
  });

  it('names chunks the way Lua does: @file, =name, or [string "..."]', () => {
    const msg = (chunkName: string): string => {
      try {
        parseLua('x =', { chunkName });
        return '';
      } catch (e) {
        return (e as Error).message;
      }
    };
    expect(msg('@dir/a.lua')).toBe('dir/a.lua:1: unexpected symbol near <eof>');
    expect(msg('=stdin')).toBe('stdin:1: unexpected symbol near <eof>');
    expect(msg('b.lua')).toBe('b.lua:1: unexpected symbol near <eof>');
  });

  it('reports hksc messages for lexical problems, with the near text hksc quotes', () => {
    const err = (src: string): string => {
      try {
        parseLua(src, { chunkName: 't.lua' });
        return '';
      } catch (e) {
        return (e as Error).message;
      }
    };
    expect(err('x = "abc\ny = 1')).toBe(`t.lua:1: unfinished string near '"abc'`);
    expect(err('x = [==[ abc')).toBe('t.lua:1: unfinished long string near <eof>');
    expect(err('x = 1.2.3')).toBe("t.lua:1: malformed number near '1.2.3'");
    expect(err('x = "\\300"')).toBe(`t.lua:1: escape sequence too large near '"'`);
    expect(err('x = 0x1ghi')).toBe("t.lua:1: malformed int literal near '0x1ghi'");
    expect(err('x = [[ [[ ]]')).toBe("t.lua:1: nesting of [[...]] is deprecated near '['");
    expect(err('for i = 1 do end')).toBe("t.lua:1: ',' expected near 'do'");
    expect(err('if x then\n\nelse')).toBe("t.lua:3: 'end' expected (to close 'if' at line 1) near <eof>");
    expect(err('f()\n(g)()')).toBe("t.lua:2: ambiguous syntax (function call x new statement) near '('");
    expect(err('return ...')).toBe('');
    expect(err('function f() return ... end')).toBe("t.lua:1: cannot use '...' outside a vararg function near '...'");
    expect(err('x = ' + '('.repeat(200) + '1' + ')'.repeat(200))).toBe('t.lua:1: chunk has too many syntax levels');
  });
});
