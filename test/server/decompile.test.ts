import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseHksChunk } from '../../src/formats/hks/index.ts';
import { compileLua } from '../../src/script/compile/index.ts';
import type { ScriptSourceAnswer } from '../../src/server/api-decompile.ts';
import type { Workbench } from '../../src/server/server.ts';
import { loadFixture } from '../support/fixtures.ts';
import { api, raw, startScriptWorkbench } from './harness.ts';

describe('workbench decompiled source (GET /api/files/:file/script/source)', () => {
  let wb: Workbench;
  beforeAll(async () => {
    wb = await startScriptWorkbench();
  });
  afterAll(async () => {
    await wb.close();
  });

  it('gives source that recompiles to the file, and every function proven', async () => {
    const r = await api<ScriptSourceAnswer>(wb, '/api/files/closures.debug.luac/script/source');
    expect(r).toMatchObject({ strip: 'none', numbers: 'float', proven: 8, total: 8, compileError: null });
    expect(r.functions.map((f) => f.path)).toEqual(['main', 'main/0', 'main/0/0', 'main/1', 'main/1/0', 'main/1/1', 'main/2', 'main/3']);
    expect(r.functions.find((f) => f.path === 'main/1/0')).toMatchObject({ name: 'inc', proven: true });
    // The proof, redone here: the source compiled like the original gives back hksc's code of every function.
    const original = parseHksChunk(loadFixture('hks', 'generated', 'closures.debug.luac'));
    const again = compileLua(r.source, { name: original.main.debug!.source! });
    expect(Array.from(again.main.children[1]!.children[0]!.code)).toEqual(Array.from(original.main.children[1]!.children[0]!.code));
  });

  it('reads SCRI bytecode, and refuses a source body with a 400', async () => {
    const s = await api<ScriptSourceAnswer>(wb, '/api/files/structs.debug.scri/script/source');
    expect(s.total).toBe(s.functions.length);
    expect(s.compileError).toBeNull();
    // Every function is proven or says why not.
    for (const f of s.functions) expect(f.proven || (f.failure ?? f.difference ?? '') !== '').toBe(true);
    const refused = await raw(wb, 'GET', '/api/files/island_fortassault_fagameplay.scripts.first65536.bin/script/source');
    expect(refused.status).toBe(400);
  });
});
