import { describe, expect, it } from 'vitest';
import { EofError, FormatError, isScri, parseScri, scriSourceText, writeScri } from '../../../src/index.ts';
import { hex, loadFixture } from '../../support/fixtures.ts';
import { expectSameBytes, scriFixtures } from '../hks/helpers.ts';

describe('SCRI container', () => {
  it('reads an independent hex literal: magic, version, flag, length, body, trailing', () => {
    const bytes = hex`53435249 01000000 01 05000000 7072696e74 aabb`;
    expect(isScri(bytes)).toBe(true);
    const s = parseScri(bytes);
    expect(s.version).toBe(1);
    expect(s.flag).toBe(1);
    expect(scriSourceText(s)).toBe('print');
    expect([...s.trailing]).toEqual([0xaa, 0xbb]);
    expectSameBytes(writeScri(s), bytes, 'rewrite');
  });

  it.each(scriFixtures())('%s round-trips byte for byte', (_name, bytes) => {
    const s = parseScri(bytes);
    expect(s.version).toBe(1);
    expect(s.body.length).toBe(bytes.length - 13);
    expect(s.trailing.length).toBe(0);
    expectSameBytes(writeScri(s), bytes, 'write(parse(x))');
  });

  it('knows flag 0 bodies are bytecode and flag 1 bodies source', () => {
    const bc = parseScri(loadFixture('hks', 'generated', 'scri', 'hello.stripped.scri'));
    expect(bc.flag).toBe(0);
    expectSameBytes(bc.body, loadFixture('hks', 'generated', 'hello.stripped.luac'), 'embedded chunk');
    const src = parseScri(loadFixture('hks', 'generated', 'scri', 'hello.source.scri'));
    expect(src.flag).toBe(1);
    expect(scriSourceText(src)).toBe(new TextDecoder().decode(loadFixture('hks', 'generated', 'hello.lua')));
  });

  it('recognises the real Shadow of War .scripts head as Lua source, truncated', () => {
    const bytes = loadFixture('scripts', 'island_fortassault_fagameplay.scripts.first65536.bin');
    expect(() => parseScri(bytes)).toThrow(FormatError);
    const s = parseScri(bytes, { allowTruncated: true });
    expect(s.flag).toBe(1);
    expect(s.body.length + s.truncatedBy).toBe(819366);
    expect(s.truncatedBy).toBe(819366 - (65536 - 13));
    expect(scriSourceText(s).startsWith('-- SCRIPTOBJECT PROTOTYPES')).toBe(true);
  });

  it('refuses a bad magic and a short header with typed errors', () => {
    expect(() => parseScri(hex`53435249 01000000`)).toThrow(EofError);
    try {
      parseScri(hex`5343524a 01000000 00 00000000`);
      expect.fail('no error');
    } catch (e) {
      expect(e).toBeInstanceOf(FormatError);
      expect((e as FormatError).offset).toBe(0);
      expect((e as FormatError).path).toBe('/magic');
    }
  });
});
