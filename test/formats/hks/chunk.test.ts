import { describe, expect, it } from 'vitest';
import {
  ByteWriter,
  ConsistencyError,
  EofError,
  FormatError,
  HKS_SHADOW_OF_WAR_HEADER,
  HKS_STANDARD_TYPES,
  UnsupportedError,
  listHksFunctions,
  parseHksChunk,
  writeHksChunk,
  type HksChunk,
} from '../../../src/index.ts';
import { hex, loadFixture } from '../../support/fixtures.ts';
import { bytecodeFixtures, expectSameBytes } from './helpers.ts';

// Shapes from test/fixtures/hks/README.md (functions, words, structures, debug level).
const GENERATED_SHAPES: Record<string, [number, number, number]> = {
  bigsetlist: [1, 26116, 0],
  closures: [8, 83, 0],
  constants: [1, 78, 0],
  hello: [1, 5, 0],
  loops: [2, 92, 0],
  methods: [5, 92, 0],
  r1forms: [5, 59, 0],
  structs: [1, 27, 2],
  structs2: [2, 55, 2],
  structs3: [3, 41, 3],
  tables: [1, 160, 0],
  varargs: [5, 72, 0],
};

describe('HKS chunk codec', () => {
  it.each(bytecodeFixtures())('%s: write(parse(x)) == x', (_name, bytes) => {
    expectSameBytes(writeHksChunk(parseHksChunk(bytes)), bytes, 'write(parse(x))');
  });

  it('matches the fixture README shapes of every generated chunk at every strip level', () => {
    for (const [name, bytes] of bytecodeFixtures().filter(([n]) => n.startsWith('generated/'))) {
      const m = /generated\/(\w+)\.(debug|profile|stripped)\.luac$/.exec(name)!;
      const [functions, words, structs] = GENERATED_SHAPES[m[1]!]!;
      const c = parseHksChunk(bytes);
      const fns = listHksFunctions(c);
      expect(fns.length, name).toBe(functions);
      expect(fns.reduce((s, f) => s + f.fn.code.length, 0), name).toBe(words);
      expect(c.structures?.structures.length, name).toBe(structs);
      expect(c.structures?.layout, name).toBe('hksc');
      expect(c.trailing.length, name).toBe(0);
      const level = m[2];
      for (const { fn, depth } of fns) {
        if (level === 'stripped') expect(fn.debug).toBeNull();
        else {
          expect(fn.debug).not.toBeNull();
          // only the main function carries the source; children keep a null string (= the parent's)
          expect(fn.debug!.source === null, name).toBe(depth > 0);
          if (level === 'profile') expect([fn.debug!.lines.length, fn.debug!.locals.length, fn.debug!.upvalueNames.length]).toEqual([0, 0, 0]);
          else expect(fn.debug!.lines.length).toBe(fn.code.length);
        }
      }
    }
  });

  it('reads the hello chunk field by field (hksc listing values)', () => {
    const c = parseHksChunk(loadFixture('hks', 'generated', 'hello.debug.luac'));
    expect(c.header).toEqual(HKS_SHADOW_OF_WAR_HEADER);
    expect(c.types).toEqual(HKS_STANDARD_TYPES);
    const f = c.main;
    expect([f.upvalueCount, f.paramCount, f.varargFlags, f.maxStackSize, f.padByte]).toEqual([0, 0, 2, 2, 0x5f]);
    expect(f.constants).toEqual([{ type: 'string', value: 'print' }, { type: 'nil' }, { type: 'nil' }, { type: 'string', value: 'hello world' }]);
    expect(f.debug).toMatchObject({ lineDefined: 0, lastLineDefined: 0, source: '@hello.lua', name: '(main chunk)', lines: [2, 2, 2, 2, 2] });
    // GETGLOBAL_MEM 0 K(0); DATA 20 1; LOADK 1 K(3); CALL_I 0 2 1; RETURN 0 1
    expect([...f.code].map((w) => w >>> 25)).toEqual([91, 76, 25, 2, 9]);
    expect(f.code[1]! & 0xff).toBe(20);
    expect((f.code[1]! >>> 8) & 0x1ffff).toBe(1);
  });

  it('reads the real big-endian chunks: Halo Infinite (extends layout, trailing tag data) and the Havok DLL sample (doubles)', () => {
    const hsc = parseHksChunk(loadFixture('hks', 'real', 'surasia_hksc-disassembler_hsc_example.luac'));
    expect(hsc.header.littleEndian).toBe(false);
    expect(listHksFunctions(hsc).length).toBe(42);
    expect(listHksFunctions(hsc).reduce((s, f) => s + f.fn.code.length, 0)).toBe(9970);
    expect(hsc.structures?.layout).toBe('extends');
    expect(hsc.structures?.structures.length).toBe(25);
    expect(hsc.trailing.length).toBe(51443);
    expect(hsc.main.debug).toBeNull();
    const luas = parseHksChunk(loadFixture('hks', 'real', 'surasia_hksc-disassembler_luas_example.luac'));
    expect(luas.main.debug?.source).toBe('@tags\\ui\\olympus\\scripts\\audiostyle_frontend.lua_script');
    expect(listHksFunctions(luas).reduce((s, f) => s + f.fn.code.length, 0)).toBe(2881);
    expect(luas.trailing.length).toBe(2550);
    const dll = parseHksChunk(loadFixture('hks', 'real', 'soupstream_havok-script-tools_compiled.luac'));
    expect([dll.header.numberSize, dll.header.buildFlags]).toEqual([8, 0x0b]);
    expect(listHksFunctions(dll).length).toBe(3);
  });

  it('forced structure layouts: the wrong one fails on Halo data with a typed error', () => {
    const bytes = loadFixture('hks', 'real', 'surasia_hksc-disassembler_hsc_example.luac');
    expect(() => parseHksChunk(bytes, { structureLayout: 'hksc' })).toThrow(FormatError);
    const structs = loadFixture('hks', 'generated', 'structs3.stripped.luac');
    expect(() => parseHksChunk(structs, { structureLayout: 'extends' })).toThrow(FormatError);
  });

  // An independent fixture written by hand from the spec: no type table entries, one function with
  // RETURN 0 1, constants 1.5 and "hi", no debug, flags 1 (no structure section), then 2 trailing bytes.
  const little = hex`1b4c7561 51 0e 01 04 08 04 04 00 01 00 | 00000000
    | 00000000 00000000 02 02000000 0100000000000000 5f | 00000212
    | 02000000 03 0000c03f 04 0300000000000000 686900 | 00000000 | 00000000 | cafe`;
  const big = hex`1b4c7561 51 0e 00 04 08 04 04 00 01 00 | 00000000
    | 00000000 00000000 02 00000002 0000000000000001 5f | 12020000
    | 00000002 03 3fc00000 04 0000000000000003 686900 | 00000000 | 00000000 | cafe`;
  const model: HksChunk = {
    header: { ...HKS_SHADOW_OF_WAR_HEADER, buildFlags: 1 },
    types: [],
    main: { upvalueCount: 0, paramCount: 0, varargFlags: 2, maxStackSize: 2, padByte: 0x5f, code: Uint32Array.of(0x12020000), constants: [{ type: 'number', value: 1.5 }, { type: 'string', value: 'hi' }], debug: null, children: [] },
    structures: null,
    trailing: Uint8Array.of(0xca, 0xfe),
  };

  it('reads and writes a hand-written little-endian chunk', () => {
    expect(parseHksChunk(little)).toEqual(model);
    expectSameBytes(writeHksChunk(model), little, 'write(model)');
  });

  it('reads and writes the same chunk big-endian', () => {
    const be = { ...model, header: { ...model.header, littleEndian: false } };
    expect(parseHksChunk(big)).toEqual(be);
    expectSameBytes(writeHksChunk(be), big, 'write(model)');
  });

  it('keeps NaN payloads, -0 and a non-"_" pad byte', () => {
    const m: HksChunk = structuredClone(model);
    m.main.constants = [{ type: 'number', value: NaN, nanBits: 0x7fc00123n }, { type: 'number', value: -0 }, { type: 'boolean', value: 7 }, { type: 'lightuserdata', value: 0x572b96b9n }, { type: 'ui64', value: 0x1234567890abcdefn }, { type: 'string', value: null }, { type: 'string', value: 'a\0b\xff' }];
    m.main.padByte = 0x00;
    const bytes = writeHksChunk(m);
    const back = parseHksChunk(bytes);
    expect(back).toEqual(m);
    expect(Object.is((back.main.constants[1] as { value: number }).value, -0)).toBe(true);
    expectSameBytes(writeHksChunk(back), bytes, 'rewrite');
  });

  it('never mutates the model it writes', () => {
    const m = parseHksChunk(loadFixture('hks', 'generated', 'closures.debug.luac'));
    const before = structuredClone(m);
    writeHksChunk(m);
    expect(m).toEqual(before);
  });

  it('refuses an inconsistent model with a ConsistencyError', () => {
    const m: HksChunk = structuredClone(model);
    m.header.buildFlags = 3; // structures announced but none in the model
    expect(() => writeHksChunk(m)).toThrow(ConsistencyError);
  });

  it('reports every truncation of a chunk as a typed error with an offset', () => {
    const bytes = loadFixture('hks', 'generated', 'closures.debug.luac');
    for (let n = 0; n < bytes.length; n++) {
      try {
        parseHksChunk(bytes.subarray(0, n));
      } catch (e) {
        expect(e, `prefix ${n}`).toBeInstanceOf(FormatError);
        expect((e as FormatError).offset).toBeLessThanOrEqual(n);
        continue;
      }
      // the structure section is absent at that cut: every byte must then be accounted for
      expect.fail(`prefix ${n} parsed`);
    }
  });

  it('refuses absurd counts before allocating', () => {
    const bytes = loadFixture('hks', 'generated', 'hello.stripped.luac').slice();
    // code count of the main function: size_t at 238 + 13
    new DataView(bytes.buffer).setUint32(238 + 13, 0x7fffffff, true);
    expect(() => parseHksChunk(bytes)).toThrow(/count 2147483647/);
    const bad = loadFixture('hks', 'generated', 'hello.stripped.luac').slice();
    bad[5] = 13;
    expect(() => parseHksChunk(bad)).toThrow(UnsupportedError);
  });

  it('refuses functions nested deeper than the engine limit (128), naming the path', () => {
    const nested = (levels: number): Uint8Array => {
      const w = new ByteWriter();
      w.bytes(hex`1b4c7561 51 0e 01 04 08 04 04 00 00 00`).i32(0);
      for (let i = 0; i <= levels; i++) {
        w.i32(0).i32(0).u8(0).i32(2).u64(0n);
        w.align(4, 0x5f);
        w.i32(0).i32(0).i32(i < levels ? 1 : 0);
      }
      return w.finish();
    };
    expect(listHksFunctions(parseHksChunk(nested(128))).length).toBe(129);
    try {
      parseHksChunk(nested(129));
      expect.fail('no error');
    } catch (e) {
      expect(e).toBeInstanceOf(FormatError);
      expect((e as FormatError).message).toMatch(/deeper than 128/);
      expect((e as FormatError).path).toMatch(/^\/main(\/children\[0\]){129}$/);
    }
  });

  it('reports errors at file offsets when the chunk sits inside SCRI', () => {
    expect(() => parseHksChunk(hex`1b4c7561 52`, { baseOffset: 13 })).toThrow(/at 0x0011 \(\/header\/luaVersion\)/);
    expect(() => parseHksChunk(hex`1b4c7562 51`, { baseOffset: 13 })).toThrow(/at 0x000D/);
    expect(() => parseHksChunk(hex`1b4c7561 51 0e 01 04 08 04 04 00 00 00 ffffffff`, { baseOffset: 13 })).toThrow(/negative count -1 at 0x001B \(\/types\/count\)/);
    expect(() => parseHksChunk(hex`1b4c7561 51 0e 01 04 08 04 04 00 00 00 0100`, { baseOffset: 13 })).toThrow(EofError);
  });
});
