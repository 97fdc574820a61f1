import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { exportGadbJson, exportGadbJsonBytes, importGadbJson, readGadbJson } from '../../../src/gamedb/edit/json.ts';
import { JsonReader, JsonSyntaxError } from '../../../src/binary/json-reader.ts';
import { FormatError, ToolkitError } from '../../../src/binary/errors.ts';
import { f32Bits } from '../../../src/gamedb/edit/values.ts';
import { propertySeed } from '../../support/fixtures.ts';
import { chunked, reusedChunks } from '../../support/chunks.ts';
import { generatedBytes, parseGadb, realBytes, writeGadb } from './support/dbs.ts';
import { buildGadb, type RecordSpec } from '../build.ts';

const enc = new TextEncoder();
const eq = (a: Uint8Array, b: Uint8Array): boolean => Buffer.from(a).equals(Buffer.from(b));
const realJson = (): string => [...exportGadbJson(parseGadb(realBytes))].join('');

describe('lossless JSON, byte level', () => {
  it('the byte export is the string export, and is what JSON.stringify writes for its values', () => {
    for (const bytes of [realBytes, generatedBytes()]) {
      const g = parseGadb(bytes);
      const parts: Uint8Array[] = [];
      for (const c of exportGadbJsonBytes(g)) parts.push(c.slice());
      const text = new TextDecoder().decode(Buffer.concat(parts));
      expect(text).toBe([...exportGadbJson(g)].join(''));
      // Every record line is exactly JSON.stringify of its parsed value (numbers, escapes, labels).
      for (const line of text.split('\n')) {
        const t = line.replace(/,$/, '');
        if (!t.startsWith('{"') || t.startsWith('{"format"') || t.includes('"records": [')) continue;
        expect(JSON.stringify(JSON.parse(t))).toBe(t);
      }
    }
  });

  it('imports byte-identical from chunks of every small size, from a reused buffer, and in one buffer', () => {
    const json = enc.encode(realJson());
    for (const size of [1, 2, 3, 5, 8, 13, 4096]) expect(eq(writeGadb(readGadbJson(reusedChunks(json, size))), realBytes)).toBe(true);
    expect(eq(writeGadb(readGadbJson(json)), realBytes)).toBe(true);
    const gen = enc.encode([...exportGadbJson(parseGadb(generatedBytes()))].join(''));
    expect(eq(writeGadb(readGadbJson(reusedChunks(gen, 7919))), generatedBytes())).toBe(true);
  });

  it('reads records whose members or fields come in another order (and what JSON.parse + importGadbJson reads)', () => {
    const doc = JSON.parse(realJson());
    for (const c of doc.categories) {
      c.records = c.records.map((r: Record<string, unknown>) => {
        const values = Object.fromEntries(Object.entries(r['values'] as object).reverse());
        // values first, header after: not the exporter's order.
        const { values: _v, ...rest } = r;
        void _v;
        return { values, ...Object.fromEntries(Object.entries(rest).reverse()) };
      });
    }
    const text = JSON.stringify(doc, null, 1);
    expect(eq(writeGadb(readGadbJson(chunked(enc.encode(text), 61))), realBytes)).toBe(true);
    expect(eq(writeGadb(importGadbJson(JSON.parse(text))), realBytes)).toBe(true);
    // Only the fields reordered, header in the exporter's order: the token path.
    const doc2 = JSON.parse(realJson());
    for (const c of doc2.categories) for (const r of c.records) r.values = Object.fromEntries(Object.entries(r.values).reverse());
    expect(eq(writeGadb(readGadbJson(enc.encode(JSON.stringify(doc2)))), realBytes)).toBe(true);
  });

  it('links name later records, escapes and \\u forms of the same text intern as one item', () => {
    const doc = JSON.parse(realJson());
    // FxGlobalProps (the first category) links to ClientFX.* records that come later in the document.
    const fx = doc.categories[0].records[0].values['0xCA5E75DD'] as unknown[];
    expect(fx.some((l) => typeof l === 'string')).toBe(true);
    const text = JSON.stringify(doc).replace(/"ClientFX\.Sound\//g, '"ClientFX\\u002eSound\\/');
    expect(text).toContain('ClientFX\\u002eSound\\/');
    expect(eq(writeGadb(readGadbJson(enc.encode(text))), realBytes)).toBe(true);
  });

  it('links read from the same field record after record resolve to their own records, colliding labels too', () => {
    // Names of one length whose labels "Cat/rec…" share an FNV-1a hash (json-tables.test.ts), and same-length
    // neighbours: each record's links come right after another record's links from the same field, to labels
    // equal to, of the length of, or unrelated to the last ones read there; forward links (to later records) are
    // read twice before their record defines them; an array field links several records at once.
    const names = ['rec0539599', 'rec0722382', 'rec0000001', 'rec0000002', 'other'];
    const to = (index: number) => ({ link: { category: 'Cat', index } });
    const pattern = [[0, 0, 1], [0, 1, 1], [1, 0, 0], [2, 3, 4], [3, 2, 4], [3, 3, 3], [4, 0, 1], [1, 1, 0]];
    const records: RecordSpec[] = names.map((name, i) => ({
      name,
      fields: [
        { name: 'Target', type: 10, values: [to(pattern[i]![0]!)] },
        { name: 'Targets', type: 10, values: pattern[i]!.map(to) },
        { name: 'Maybe', type: 10, values: [i % 2 === 0 ? { link: null } : to((i + 4) % names.length)] },
      ],
    }));
    const bytes = writeGadb(buildGadb({ categories: [{ name: 'Cat', records }] }));
    const text = [...exportGadbJson(parseGadb(bytes))].join('');
    expect(text).toContain('"Cat/rec0722382"');
    expect(eq(writeGadb(readGadbJson(enc.encode(text))), bytes)).toBe(true);
    expect(eq(writeGadb(readGadbJson(chunked(enc.encode(text), 5))), bytes)).toBe(true);
    // The same document with the targets swapped pairwise (same lengths, colliding hashes): still each its own.
    const swapped = text.replace(/Cat\/rec0539599|Cat\/rec0722382|Cat\/rec0000001|Cat\/rec0000002/g, (m) => ({ 'Cat/rec0539599': 'Cat/rec0722382', 'Cat/rec0722382': 'Cat/rec0539599', 'Cat/rec0000001': 'Cat/rec0000002', 'Cat/rec0000002': 'Cat/rec0000001' })[m]!);
    const viaParse = writeGadb(importGadbJson(JSON.parse(swapped)));
    expect(eq(viaParse, bytes)).toBe(false);
    expect(eq(writeGadb(readGadbJson(enc.encode(swapped))), viaParse)).toBe(true);
  });

  it('texts of every shape export as JSON.stringify writes them and come back byte-identical (ASCII, UTF-8, escapes, not UTF-8)', () => {
    // Lengths around a word (the exporter measures and copies ASCII texts four bytes at a time), multi-byte UTF-8
    // at every position, bytes that need an escape; names of every length around a word (their labels are links).
    const texts = ['', 'a', 'abc', 'abcd', 'abcde', 'abcdefgh', 'é', 'aé', 'abcé', 'abcdé', 'tab\there', 'q"uote', 'back\\slash', '\u0001ctl', 'long plain text of several words 0123456789'];
    const records: RecordSpec[] = texts.map((t, i) => ({
      name: `n${'x'.repeat(i)}`,
      fields: [
        { name: 'Text', type: 4, values: [t] },
        { name: 'Next', type: 10, values: [{ link: { category: 'Cat', index: (i + 1) % texts.length } }] },
      ],
    }));
    const bytes = writeGadb(buildGadb({ categories: [{ name: 'Cat', records }] }));
    const text = [...exportGadbJson(parseGadb(bytes))].join('');
    const doc = JSON.parse(text);
    const got = (doc.categories[0].records as { values: Record<string, unknown> }[]).map((r) => Object.values(r.values)[0]);
    expect([...got].sort()).toEqual([...texts].sort());
    for (const line of text.split('\n')) if (line.startsWith('{"name"') && !line.includes('"records": [')) expect(JSON.stringify(JSON.parse(line.replace(/,$/, '')))).toBe(line.replace(/,$/, ''));
    expect(eq(writeGadb(readGadbJson(enc.encode(text))), bytes)).toBe(true);
    // A text that is not UTF-8 comes in as hex and goes out as hex.
    const hex = text.replace('"abcdefgh"', '{"hex":"ff41"}');
    expect(hex).not.toBe(text);
    const back = [...exportGadbJson(readGadbJson(enc.encode(hex)))].join('');
    expect(back).toContain('{"hex":"ff41"}');
    expect(eq(writeGadb(readGadbJson(enc.encode(back))), writeGadb(readGadbJson(enc.encode(hex))))).toBe(true);
  });

  it('bad documents: typed errors with line, column and the field path', () => {
    const text = realJson();
    const doc = JSON.parse(text);
    const firstValue = Object.keys(doc.categories[0].records[0].values)[1]!;
    const expectError = (t: string, cls: abstract new (...a: never[]) => FormatError, message: RegExp, path?: RegExp): void => {
      let err: unknown;
      try {
        readGadbJson(enc.encode(t));
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(cls);
      expect((err as Error).message).toMatch(message);
      if (path) expect((err as FormatError).path).toMatch(path);
    };
    // Malformed JSON inside a field: where, and which field.
    expectError(text.replace(`"${firstValue}":6000`, `"${firstValue}":6000x`), JsonSyntaxError, /line \d+, column \d+\)/, new RegExp(`/categories/0/records/0`));
    expectError(text.replace(`"${firstValue}":6000`, `"${firstValue}":tru`), JsonSyntaxError, /expected a number/, new RegExp(`/categories/0/records/0/values/${firstValue}`));
    // A link to a record the document does not have.
    expectError(text.replace('"ClientFX.CameraShake/0"', '"ClientFX.CameraShake/99"'), FormatError, /link target "ClientFX.CameraShake\/99" is not a record/, /\/categories\/0\/records\/0/);
    // A field the run does not declare, and a missing one.
    expectError(text.replace(`"${firstValue}":6000`, '"0x12345678":6000'), FormatError, /"0x12345678" is not a field of this record's descriptor run/);
    expectError(text.replace(`,"${firstValue}":6000`, ''), FormatError, new RegExp(`missing field ${firstValue}`));
    // Header members out of range.
    expectError(text.replace('"cells":', '"cells":1e9,"x":'), FormatError, /cells.*0\.\.65535|expected an integer 0\.\.65535/);
    // The container missing (its key misspelt: found by the fuzz test below, seed 1859320290) or malformed.
    expect(text.slice(0, 120)).toContain('"container":{"kind":"wrapped"');
    expectError(text.replace('"container":', '"65536container":'), FormatError, /expected \{"kind":"bare"\}/, /^\/container$/);
    expectError(text.replace('"kind":"wrapped"', '"kind":"boxed"'), FormatError, /expected \{"kind":"bare"\}/, /^\/container$/);
    expectError(text.replace('"magic":"LTFX"', '"magic":"LTF"'), FormatError, /expected \{"kind":"bare"\}/, /^\/container$/);
  });

  it('a misspelt record header member is missing, never a silent default (streamed and tree import alike)', () => {
    // Found by `npm run fuzz -- json` (seed 12345): "flais", "Flags", "unkQnk30A" and "na}e" were taken by the
    // streaming reader as flags 0, unk0A 0 and an empty name, while importGadbJson refused them.
    const text = realJson();
    const first = JSON.parse(text).categories[0].records[0];
    expect(first.flags).not.toBe(0); // so that a silent 0 would change the file
    expect(first.name.length).toBeGreaterThan(0);
    for (const [from, to, path] of [['"flags":', '"flais":', /\/categories\/0\/records\/0\/flags$/], ['"unk0A":', '"Unk0A":', /\/categories\/0\/records\/0\/unk0A$/], [`{"name":${JSON.stringify(first.name)},"first"`, `{"na}e":${JSON.stringify(first.name)},"first"`, /\/categories\/0\/records\/0\/name$/]] as const) {
      const bad = text.replace(from, to);
      expect(bad, from).not.toBe(text);
      for (const input of [enc.encode(bad), reusedChunks(enc.encode(bad), 7)]) {
        let err: unknown;
        try {
          readGadbJson(input);
        } catch (e) {
          err = e;
        }
        expect(err, `${to} streamed`).toBeInstanceOf(FormatError);
        expect((err as FormatError).path).toMatch(path);
      }
      expect(() => importGadbJson(JSON.parse(bad)), `${to} as a tree`).toThrow(FormatError);
    }
  });

  it('writeGadb refuses a model without a container with a typed error (a model built by hand)', () => {
    const g = parseGadb(realBytes);
    let err: unknown;
    try {
      writeGadb({ ...g, container: undefined as never });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ToolkitError);
    expect((err as Error).message).toMatch(/container must be/);
  });

  it('numberF32Bits is f32Bits(JSON.parse(text)) for any number text (fast-check)', () => {
    const seed = propertySeed();
    const read = (t: string): number => new JsonReader(enc.encode(t)).numberF32Bits();
    fc.assert(
      fc.property(
        fc.oneof(
          fc.float({ noNaN: true, noDefaultInfinity: true }).map((x) => String(x)),
          fc.double({ noNaN: true, noDefaultInfinity: true }).map((x) => String(x)),
          fc.tuple(fc.bigInt({ min: -(10n ** 25n), max: 10n ** 25n }), fc.integer({ min: -60, max: 60 })).map(([m, e]) => `${m}e${e}`),
          fc.tuple(fc.nat(), fc.stringMatching(/^[0-9]{1,30}$/)).map(([i, f]) => `${i}.${f}`),
        ),
        (t) => {
          expect(read(t)).toBe(f32Bits(JSON.parse(t)));
        },
      ),
      { seed, numRuns: 2000 },
    );
    // Halfway cases between two f32 (and just beside them), where a one-step estimate would be wrong.
    for (const t of ['1.00000005960464477539062500', '1.0000000596046447753906251', '1.0000000596046447753906249', '3.4028235677973366e38', '3.4028235677973362e38', '1.401298464324817e-45', '7.006492321624085e-46', '-0', '0e5', '-0.0']) {
      expect(read(t)).toBe(f32Bits(JSON.parse(t)));
    }
  });

  it('mutated small exports give a model or a typed error, never another exception (fast-check)', () => {
    const seed = propertySeed();
    const good = realJson();
    const tokens = ['', '}', ']', '{', '[', ',', ':', '"', '\\', 'x', '\n', '0', '-', '1e999', '-0', 'null', 'true', '"a/b"', '{"raw":1}', '{"f32":"zz"}', '{"hex":"0g"}', '65536', '4294967296', '\u00e9', '\ud800', '"\\ud800"'];
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(), fc.nat({ max: 12 }), fc.constantFrom(...tokens)), { minLength: 1, maxLength: 3 }), fc.integer({ min: 1, max: 4096 }), (edits, size) => {
        let text = good;
        for (const [at, del, ins] of edits) {
          const p = at % (text.length + 1);
          text = text.slice(0, p) + ins + text.slice(p + del);
        }
        try {
          const g = readGadbJson(chunked(enc.encode(text), size));
          try {
            writeGadb(g);
          } catch (e) {
            if (!(e instanceof ToolkitError)) throw e;
          }
        } catch (e) {
          if (!(e instanceof ToolkitError)) throw new Error(`untyped ${String(e)} for edits ${JSON.stringify(edits)}`);
        }
      }),
      { seed, numRuns: 300 },
    );
  });
});
