import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { JsonReader, JsonSyntaxError } from '../../../src/binary/json-reader.ts';
import { propertySeed } from '../../support/fixtures.ts';

const enc = new TextEncoder();
/** `bytes` cut into chunks of `size` (a file read piece by piece). */
const chunked = (bytes: Uint8Array, size: number): Uint8Array[] => {
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out;
};
const readWhole = (input: Iterable<Uint8Array> | Uint8Array, small = false): unknown => {
  const r = new JsonReader(input);
  const v = small ? r.smallValue() : r.value();
  r.finish();
  return v;
};

describe('JsonReader', () => {
  it('reads what JSON.parse reads, whole or in chunks of any size, by both value paths (fast-check)', () => {
    const seed = propertySeed();
    fc.assert(
      fc.property(fc.jsonValue(), fc.integer({ min: 1, max: 9 }), fc.boolean(), (value, size, pretty) => {
        const text = JSON.stringify(value, null, pretty ? 2 : undefined);
        const expected = JSON.parse(text);
        expect(readWhole(chunked(enc.encode(text), size))).toEqual(expected);
        expect(readWhole(enc.encode(text), true)).toEqual(expected);
      }),
      { seed, numRuns: 300 },
    );
  });

  it('bad JSON is a JsonSyntaxError with offset, line and column, never another error (fast-check)', () => {
    const seed = propertySeed();
    fc.assert(
      fc.property(fc.jsonValue(), fc.nat(), fc.constantFrom('', '}', ']', ',', '"', '\\', 'x', '\n', '01', '-', '\u0001', '\u00e9'), fc.integer({ min: 1, max: 7 }), (value, at, insert, size) => {
        const good = JSON.stringify(value, null, 1);
        const cut = at % (good.length + 1);
        const text = good.slice(0, cut) + insert + good.slice(cut + (insert === '' ? 1 : 0));
        let expected: unknown;
        let valid = true;
        try {
          expected = JSON.parse(text);
        } catch {
          valid = false;
        }
        for (const small of [false, true]) {
          try {
            const v = readWhole(chunked(enc.encode(text), size), small);
            expect(valid, text).toBe(true);
            expect(v).toEqual(expected);
          } catch (e) {
            if (!(e instanceof JsonSyntaxError)) throw e;
            expect(valid, text).toBe(false);
            expect(e.offset).toBeGreaterThanOrEqual(0);
            expect(e.offset).toBeLessThanOrEqual(enc.encode(text).length);
            expect(e.line).toBeGreaterThanOrEqual(1);
            expect(e.column).toBeGreaterThanOrEqual(1);
          }
        }
      }),
      { seed, numRuns: 400 },
    );
  });

  it('names the line and column of the fault, counting lines across chunks', () => {
    const text = '{\n  "a": [1, 2],\n  "b": tru\n}';
    try {
      readWhole(chunked(enc.encode(text), 3));
      expect.fail('no error');
    } catch (e) {
      expect(e).toBeInstanceOf(JsonSyntaxError);
      expect([(e as JsonSyntaxError).line, (e as JsonSyntaxError).column]).toEqual([3, 8]);
      expect((e as JsonSyntaxError).offset).toBe(text.indexOf('tru'));
    }
  });

  it('walks an outer structure member by member', () => {
    const r = new JsonReader(chunked(enc.encode('{"rows": [[1,2],[3]], "n": {"x": null}}'), 2));
    r.enterObject();
    const seen: unknown[] = [];
    for (let key = r.nextKey(); key !== null; key = r.nextKey()) {
      if (key === 'rows') {
        r.enterArray();
        while (r.nextElement()) seen.push(r.value());
      } else seen.push(key, r.value());
    }
    r.finish();
    expect(seen).toEqual([[1, 2], [3], 'n', { x: null }]);
    expect(() => new JsonReader(enc.encode('[1] 2')).finish()).toThrow(JsonSyntaxError);
  });
});
