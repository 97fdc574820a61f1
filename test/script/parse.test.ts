import { describe, expect, it } from 'vitest';
import { visitAst, type Chunk, type Node } from '../../src/script/ast.ts';
import { parseLua } from '../../src/script/compile/index.ts';
import { loadFixture } from '../support/fixtures.ts';
import { goldenCorpus } from './helpers.ts';

/** Node types in source order, for compact shape checks. */
function shape(chunk: Chunk): string[] {
  const out: string[] = [];
  visitAst(chunk, (n) => void out.push(n.type));
  return out;
}

function find<T extends Node['type']>(root: Node, type: T): Extract<Node, { type: T }>[] {
  const out: Extract<Node, { type: T }>[] = [];
  visitAst(root, (n) => {
    if (n.type === type) out.push(n as Extract<Node, { type: T }>);
  });
  return out;
}

describe('parseLua: the AST of Lua 5.1 and the HavokScript extensions', () => {
  it('statements and expressions, with positions of first and last tokens', () => {
    const src = ['local a, b = 1, "x"', 'function t.f:m(p, ...) return p .. #a end', 'while not a do break end', 'x = { 1, k = 2, [3] = 4 }'].join('\n');
    const chunk = parseLua(src, { chunkName: 't.lua' });
    const [local, fn, loop, assign] = chunk.body.body;
    expect(local).toMatchObject({ type: 'LocalStatement', line: 1, column: 1, endLine: 1, endColumn: 19, names: [{ name: 'a' }, { name: 'b' }] });
    expect(local!.type === 'LocalStatement' && local.values.map((v) => v.type)).toEqual(['NumberLiteral', 'StringLiteral']);
    expect(fn).toMatchObject({ type: 'FunctionStatement', isMethod: true, line: 2, column: 1, endLine: 2, endColumn: 41 });
    if (fn!.type !== 'FunctionStatement') throw new Error();
    expect(fn.target).toMatchObject({ type: 'MemberExpression', property: { name: 'm' }, object: { type: 'MemberExpression', property: { name: 'f' }, object: { type: 'NameExpression', name: 't' } } });
    expect(fn.func.params.map((p) => p.name)).toEqual(['p']);
    expect(fn.func.isVararg).toBe(true);
    const ret = fn.func.body.body[0]!;
    expect(ret).toMatchObject({ type: 'ReturnStatement', values: [{ type: 'BinaryExpression', operator: '..', right: { type: 'UnaryExpression', operator: '#' } }] });
    expect(loop).toMatchObject({ type: 'WhileStatement', condition: { type: 'UnaryExpression', operator: 'not' }, body: { body: [{ type: 'BreakStatement' }] } });
    expect(assign).toMatchObject({ type: 'AssignmentStatement', targets: [{ type: 'NameExpression', name: 'x' }] });
    const table = find(chunk, 'TableConstructor')[0]!;
    expect(table.fields.map((f) => f.type)).toEqual(['TableArrayField', 'TableNamedField', 'TableKeyedField']);
    expect([table.line, table.column, table.endLine, table.endColumn]).toEqual([4, 5, 4, 25]);
  });

  it('keeps operator precedence and associativity (.. and ^ to the right)', () => {
    const chunk = parseLua('x = a + b * c ^ d ^ e .. f .. g == h and i or j');
    const top = (chunk.body.body[0] as { values: Node[] }).values[0]!;
    expect(top).toMatchObject({ operator: 'or', left: { operator: 'and', left: { operator: '==', left: { operator: '..', right: { operator: '..' } } } } });
    const pow = find(chunk, 'BinaryExpression').find((b) => b.operator === '^')!;
    expect(pow).toMatchObject({ left: { name: 'c' }, right: { operator: '^', left: { name: 'd' }, right: { name: 'e' } } });
  });

  it('hstructure, hmake, typed locals / parameters / for variables, int literals', () => {
    const src = [
      'hstructure Meta', '  __index : Meta;', 'end',
      'hstructure S', '  meta : Meta', '  proxytable', '  n : number', '  s : S', 'end',
      'local s : S = hmake S { n = 1 }',
      'local function f(a : S, b) return a.n end',
      'for i : number = 1, 3 do end',
      'for k : string, v in pairs({}) do end',
      'local e = 0xcf58d231hi',
      'local u = 0xffffffff0hl',
    ].join('\n');
    const chunk = parseLua(src, { chunkName: 's.lua' });
    const structs = find(chunk, 'StructureStatement');
    expect(structs.map((s) => s.name.name)).toEqual(['Meta', 'S']);
    expect(structs[1]!.items.map((i) => i.type)).toEqual(['StructureMeta', 'StructureProxyTable', 'StructureSlot', 'StructureSlot']);
    expect(structs[1]!.items[0]).toMatchObject({ annotation: { name: 'Meta', line: 5 } });
    const local = chunk.body.body[2]!;
    expect(local).toMatchObject({ type: 'LocalStatement', names: [{ name: 's', annotation: { type: 'TypeAnnotation', name: 'S' } }], values: [{ type: 'HmakeExpression', structure: { name: 'S' }, table: { fields: [{ type: 'TableNamedField' }] } }] });
    const lf = find(chunk, 'LocalFunctionStatement')[0]!;
    expect(lf.func.params.map((p) => [p.name, p.annotation?.name])).toEqual([['a', 'S'], ['b', undefined]]);
    expect([lf.line, lf.column, lf.func.line, lf.func.column, lf.name.name, lf.name.column]).toEqual([11, 1, 11, 7, 'f', 16]);
    expect(find(chunk, 'NumericForStatement')[0]!.variable.annotation?.name).toBe('number');
    expect(find(chunk, 'GenericForStatement')[0]!.variables.map((v) => v.annotation?.name ?? null)).toEqual(['string', null]);
    expect(find(chunk, 'LightUserdataLiteral')[0]).toMatchObject({ value: 0xcf58d231n, raw: '0xcf58d231hi' });
    expect(find(chunk, 'Ui64Literal')[0]).toMatchObject({ value: 0xffffffff0n, raw: '0xffffffff0hl' });
  });

  it('strings are byte strings: escapes decoded, UTF-8 source bytes kept one char per byte', () => {
    const chunk = parseLua(new Uint8Array([...new TextEncoder().encode('x = "\\65\\n\\\\'), 0xc3, 0xa9, 0x22, 0x0a, ...new TextEncoder().encode('y = [==[\nline]==]')]));
    const strings = find(chunk, 'StringLiteral');
    expect(strings.map((s) => s.value)).toEqual(['A\n\\\u00c3\u00a9', 'line']);
    expect(strings[1]).toMatchObject({ line: 2, endLine: 3, raw: '[==[\nline]==]' });
    expect(parseLua('x = "é"').body.body.length).toBe(1); // a JS string is encoded as UTF-8
    expect(find(parseLua('x = "é"'), 'StringLiteral')[0]!.value).toBe('\u00c3\u00a9');
  });

  it('reads numerals as C strtod does (decimal, exponent, trailing or leading dot, hexadecimal)', () => {
    const values = find(parseLua('x = {.5, 3., 1e2, 0x10, 12, 0.25, 1E-1, 0XfF, 007}'), 'NumberLiteral').map((n) => [n.raw, n.value]);
    expect(values).toEqual([['.5', 0.5], ['3.', 3], ['1e2', 100], ['0x10', 16], ['12', 12], ['0.25', 0.25], ['1E-1', 0.1], ['0XfF', 255], ['007', 7]]);
  });

  it('keeps parentheses, call styles and method calls', () => {
    const chunk = parseLua('f(a)(b) g{1} h"s" o:m(1, 2) x = (f())');
    expect(shape(chunk).filter((t) => t.endsWith('Expression'))).toEqual([
      'CallExpression', 'CallExpression', 'NameExpression', 'NameExpression', 'NameExpression',
      'CallExpression', 'NameExpression', 'CallExpression', 'NameExpression', 'MethodCallExpression', 'NameExpression',
      'NameExpression', 'ParenExpression', 'CallExpression', 'NameExpression',
    ]);
    expect(find(chunk, 'CallExpression').map((c) => c.argStyle)).toEqual(['parens', 'parens', 'table', 'string', 'parens']);
    expect(find(chunk, 'MethodCallExpression')[0]!.method.name).toBe('m');
  });

  it('marks a UTF-8 byte-order mark and skips a first line starting with #', () => {
    expect(parseLua(new Uint8Array([0xef, 0xbb, 0xbf, 0x78, 0x3d, 0x31])).utf8Bom).toBe(true);
    const chunk = parseLua('#!/usr/bin/env lua\nx = 1');
    expect(chunk.body.body[0]).toMatchObject({ type: 'AssignmentStatement', line: 2 });
  });

  it('parses every corpus program and the real Shadow of War source head', () => {
    for (const c of goldenCorpus()) expect(() => parseLua(c.source, { chunkName: `@${c.program}.lua` })).not.toThrow();
    const real = parseLua(loadFixture('scripts', 'island_fortassault_fagameplay.closed.lua'), { chunkName: '@fagameplay.lua' });
    expect(find(real, 'StructureStatement').length).toBe(36); // grep -c '^hstructure'
    const section = real.body.body.find((s) => s.type === 'LocalStatement')!;
    expect(section).toMatchObject({ names: [{ name: 'section_9f90cfd8' }] });
    const entries = (section as { values: { fields: unknown[] }[] }).values[0]!.fields;
    expect(entries.length).toBe(13);
    expect(find(real, 'HmakeExpression').length).toBe(6);
    expect(real.body.body[real.body.body.length - 1]).toMatchObject({ type: 'AssignmentStatement', targets: [{ type: 'MemberExpression', property: { name: 'loadedresource' } }] });
  });
});
