import { describe, expect, it } from 'vitest';
import { compileLua } from '../../../src/script/compile/index.ts';
import { createScriptVM } from '../../../src/script/vm/index.ts';

// The shipped layer scripts' script objects: `setmetatable(self, parent)` on an hstructure instance whose
// declaration has `meta : <the _meta structure>` (every __constructor of the fort-assault source does this).
const run = (src: string) => {
  const vm = createScriptVM({ numbers: 'float' });
  return vm.call(vm.load(compileLua(src, { name: 'm.lua' }), '@m.lua'));
};
const DECL = `
hstructure M
  __index : M
  f : ifunction
end
hstructure I
  meta : M
  x : number
end
`;

describe('setmetatable on a structure', () => {
  it('sets the meta slot, which method lookups then go through', () => {
    expect(run(`${DECL}
local m = hmake M { f = function (self) return 42 end }
m.__index = m
local i = hmake I {}
local r = setmetatable(i, m)
return i:f(), r == i, i.meta == m`)).toEqual([42, true, true]);
  });

  it('checks the value against the meta slot type', () => {
    expect(() => run(`${DECL}\nlocal i = hmake I {}\nsetmetatable(i, {})`)).toThrow(/slot 'meta' of 'I' holds a 'M' structure, not a table/);
  });

  it('refuses a structure that declares no meta', () => {
    expect(() => run(`${DECL}\nlocal m = hmake M {}\nsetmetatable(m, {})`)).toThrow(/bad argument #1 to 'setmetatable' \(structure 'M' declares no meta\)/);
  });
});
