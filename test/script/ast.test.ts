import { describe, expect, it } from 'vitest';
import { astChildren, visitAst, type Chunk, type Node } from '../../src/script/ast.ts';

const at = { line: 1, column: 1 };

/** `local t = { f = print } ; t.f("x")` built by hand. */
const chunk: Chunk = {
  type: 'Chunk',
  ...at,
  body: {
    type: 'Block',
    ...at,
    body: [
      {
        type: 'LocalStatement',
        ...at,
        names: [{ type: 'LocalVariable', name: 't', ...at }],
        values: [{ type: 'TableConstructor', ...at, fields: [{ type: 'TableNamedField', ...at, name: { type: 'Identifier', name: 'f', ...at }, value: { type: 'NameExpression', name: 'print', ...at } }] }],
      },
      {
        type: 'CallStatement',
        ...at,
        call: {
          type: 'CallExpression',
          ...at,
          argStyle: 'string',
          callee: { type: 'MemberExpression', ...at, object: { type: 'NameExpression', name: 't', ...at }, property: { type: 'Identifier', name: 'f', ...at } },
          args: [{ type: 'StringLiteral', value: 'x', raw: '"x"', ...at }],
        },
      },
    ],
  },
};

describe('AST walking', () => {
  it('visits every node once, in source order, with its parent', () => {
    const seen: string[] = [];
    const parents = new Map<Node, Node | null>();
    visitAst(chunk, (n, p) => {
      seen.push(n.type);
      parents.set(n, p);
    });
    expect(seen).toEqual([
      'Chunk', 'Block', 'LocalStatement', 'LocalVariable', 'TableConstructor', 'TableNamedField', 'Identifier', 'NameExpression',
      'CallStatement', 'CallExpression', 'MemberExpression', 'NameExpression', 'Identifier', 'StringLiteral',
    ]);
    expect(parents.get(chunk)).toBeNull();
    expect(parents.get(chunk.body)).toBe(chunk);
  });

  it('skips the children of a node when enter returns false, and calls leave after the children', () => {
    const order: string[] = [];
    visitAst(
      chunk,
      (n) => {
        order.push(`+${n.type}`);
        return n.type !== 'TableConstructor';
      },
      (n) => void order.push(`-${n.type}`),
    );
    expect(order).toContain('+TableConstructor');
    expect(order).not.toContain('+TableNamedField');
    expect(order.indexOf('-LocalStatement')).toBeGreaterThan(order.indexOf('-TableConstructor'));
    expect(order[order.length - 1]).toBe('-Chunk');
  });

  it('lists children for every statement kind', () => {
    expect(astChildren(chunk.body).length).toBe(2);
    expect(astChildren({ type: 'BreakStatement', ...at })).toEqual([]);
  });
});
