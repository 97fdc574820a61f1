import { describe, expect, it } from 'vitest';
import {
  GadbEditor,
  applyChangeFiles,
  applyGadbPatch,
  diffGadb,
  exportGadbCsv,
  exportGadbJson,
  exportGadbJsonl,
  formatGadbDiff,
  gadbDiffCount,
  importGadbJson,
  readGadbJson,
  makeGadbPatch,
  parseChangeFile,
  verifyGadb,
} from '../../../src/index.ts';
import type { Gadb } from '../../../src/formats/gadb/types.ts';
import { gen, generatedBytes, parseGadb, real, realBytes, writeGadb } from './support/dbs.ts';

const eq = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));

/** Five edits of different kinds on the real sample. */
function edited(): Gadb {
  const e = new GadbEditor(real());
  const g = e.record('FxGlobalProps', 'FxGlobalProps');
  e.set(g, '0x3114F9A5', 7000);
  e.set(g, '0xCA5E75DD', 'ClientFX.Sound/14', { index: 3 });
  e.set(e.record('ClientFX.Sound', '13'), 'KeyName', 'boom');
  e.set(e.record('ClientFX.Sound', '13'), 'StartTime', 0.5);
  e.set(e.record('ClientFX.Sprite', '1'), 'EndTime', 9);
  return parseGadb(writeGadb(e.finish()));
}

describe('diff', () => {
  it('of a database with itself is empty; after N edits it lists exactly those N changes', () => {
    expect(gadbDiffCount(diffGadb(real(), real()))).toBe(0);
    const lines = formatGadbDiff(diffGadb(real(), edited()));
    expect(lines).toEqual([
      '~ FxGlobalProps/FxGlobalProps.0x3114F9A5: 6000 → 7000',
      '~ FxGlobalProps/FxGlobalProps.0xCA5E75DD[3]: ClientFX.MaterialController/3 → ClientFX.Sound/14',
      '~ ClientFX.Sprite/1.0x5E0B44D0: 0.084 → 9',
      '~ ClientFX.Sound/13.0x267D8BCA: "" → "boom"',
      '~ ClientFX.Sound/13.0x36058CD7: 0.024 → 0.5',
    ].sort((a, b) => lines.indexOf(a) - lines.indexOf(b)));
  });

  it('resolves field names and shows links as Category/Record in JSON', () => {
    const d = diffGadb(real(), edited(), { namer: { get: (h) => (h === 0x36058cd7 ? 'StartTime' : undefined) } });
    const sound = d.recordsChanged.find((r) => r.record === 'ClientFX.Sound/13')!;
    expect(sound.changes.map((c) => c.field).sort()).toEqual(['0x267D8BCA', 'StartTime']);
    const link = d.recordsChanged.find((r) => r.record === 'FxGlobalProps/FxGlobalProps')!.changes.find((c) => c.index === 3)!;
    expect(link.new).toEqual({ link: 'ClientFX.Sound/14' });
  });

  it('of the generated database with itself is empty and notices one edit', () => {
    const g = gen();
    expect(gadbDiffCount(diffGadb(g, gen()))).toBe(0);
  });
});

describe('patch databases', () => {
  it('made from an edited copy and applied to the base reproduce the edited copy byte for byte', () => {
    const base = real();
    const e = new GadbEditor(base);
    e.set(e.record('FxGlobalProps', 'FxGlobalProps'), '0x3114F9A5', 7000);
    e.addRecord('ClientFX.Sound', '15');
    e.set(e.record('ClientFX.Sound', '15'), 'KeyName', 'new');
    e.set(e.record('FxGlobalProps', 'FxGlobalProps'), '0xCA5E75DD', 'ClientFX.Sound/15', { index: 4 });
    e.addCategory('ClientFX.Extra', 'ClientFX.Sprite');
    e.addRecord('ClientFX.Extra', 'e1', { from: 'ClientFX.Sprite/1' });
    const editedBytes = writeGadb(e.finish());
    const made = makeGadbPatch(base, parseGadb(editedBytes));
    expect(made.records.sort()).toEqual(['ClientFX.Extra/e1', 'ClientFX.Sound/15', 'FxGlobalProps/FxGlobalProps']);
    expect(made.added.sort()).toEqual(['ClientFX.Extra/e1', 'ClientFX.Sound/15']);
    expect(made.patch.header.unk20).toBe(base.header.unk20);
    const patchBytes = writeGadb(made.patch);
    expect(patchBytes.length).toBeLessThan(realBytes.length / 4);
    const applied = applyGadbPatch(base, parseGadb(patchBytes));
    expect(applied.replaced).toEqual(['FxGlobalProps/FxGlobalProps']);
    expect(eq(writeGadb(applied.merged), editedBytes)).toBe(true);
  });

  it('keeps the base record with rule keep-base, and is refused on a different build tag', () => {
    const base = real();
    const made = makeGadbPatch(base, edited());
    const kept = applyGadbPatch(base, made.patch, { rule: 'keep-base' });
    expect(kept.kept.length).toBe(3);
    expect(eq(writeGadb(kept.merged), realBytes)).toBe(true);
    const other = structuredClone(made.patch);
    other.header.unk20 = 0x12345678;
    expect(() => applyGadbPatch(base, other)).toThrow(/build tag 0x12345678 differs/);
    expect(applyGadbPatch(base, other, { ignoreBuildTag: true }).replaced.length).toBe(3);
  });

  it('refuses to drop removals silently', () => {
    const e = new GadbEditor(real());
    e.removeRecord(e.record('ClientFX.Sound', '14'));
    expect(() => makeGadbPatch(real(), e.finish())).toThrow(/can only add and replace/);
    expect(makeGadbPatch(real(), e.gadb, { allowLoss: true }).notExpressible).toContain('record ClientFX.Sound/14 removed');
  });

  it('works on the generated database', () => {
    const base = gen();
    const e = new GadbEditor(base);
    const ix = e.index;
    // Edit the first Int of the last 3 named records that have one.
    let done = 0;
    for (let r = base.records.count - 1; r >= 0 && done < 3; r--) {
      const c = ix.recordCategory[r]!;
      const i = r - ix.categoryFirstRecord[c]!;
      if (i < base.categories[c]!.primaryCount) continue;
      const d = base.descriptors;
      for (let k = base.records.firstDescriptor[r]!; k < base.records.firstDescriptor[r]! + base.records.descriptorCount[r]!; k++) {
        if (d.typeCode[k] === 3 && d.elementCount[k] === 1) {
          e.set({ category: c, index: i, record: r }, '0x' + d.declaredHash[k]!.toString(16), 123456);
          done++;
          break;
        }
      }
    }
    const editedBytes = writeGadb(e.finish());
    const made = makeGadbPatch(base, parseGadb(editedBytes));
    expect(made.records.length).toBe(3);
    expect(eq(writeGadb(applyGadbPatch(base, parseGadb(writeGadb(made.patch))).merged), editedBytes)).toBe(true);
  });
});

describe('change files', () => {
  it('apply in order with a per-field conflict report', () => {
    const a = parseChangeFile(
      ['- set FxGlobalProps/FxGlobalProps.0x3114F9A5 = 100', '- set ClientFX.Sound/13.KeyName = "from a"', '- set: ClientFX.Sound/13.StartTime', '  value: 0.25'].join('\n'),
      'a.yaml',
    );
    const b = parseChangeFile(JSON.stringify(['set FxGlobalProps/FxGlobalProps.0x3114F9A5 = 200', { set: 'FxGlobalProps/FxGlobalProps.0xCA5E75DD', index: 0, value: null }, 'rename ClientFX.Sound/14 to 16']), 'b.json');
    const r = applyChangeFiles(real(), [
      { name: 'a.yaml', ops: a },
      { name: 'b.json', ops: b },
    ]);
    expect(r.conflicts).toEqual([{ target: 'FxGlobalProps/FxGlobalProps.0x3114F9A5', winner: { file: 'b.json', value: 200 }, overridden: [{ file: 'a.yaml', value: 100 }] }]);
    const out = parseGadb(writeGadb(r.gadb));
    expect(verifyGadb(writeGadb(r.gadb)).filter((i) => i.severity === 'error')).toEqual([]);
    const e = new GadbEditor(out);
    expect(e.get(e.record('FxGlobalProps', 'FxGlobalProps'), '0x3114F9A5')).toBe(200);
    expect(e.get(e.record('ClientFX.Sound', '13'), 'KeyName')).toBe('from a');
    expect(e.get(e.record('ClientFX.Sound', '13'), 'StartTime')).toBe(0.25);
    expect(e.format(e.get(e.record('FxGlobalProps', 'FxGlobalProps'), '0xCA5E75DD') as never)).toEqual(expect.arrayContaining([null, 'ClientFX.Sound/16']));
  });

  it('reports unreadable operations with their place', () => {
    expect(() => parseChangeFile('- frobnicate X', 'c.yaml')).toThrow(/c.yaml: item 1: cannot read/);
    expect(() => parseChangeFile('{a: 1}', 'c.yaml')).toThrow(/expected a list/);
  });
});

describe('export and import', () => {
  it('lossless JSON imports back byte-identical, for the real sample and the generated database', () => {
    for (const bytes of [realBytes, generatedBytes()]) {
      const text = [...exportGadbJson(parseGadb(bytes))].join('');
      const back = writeGadb(importGadbJson(JSON.parse(text)));
      expect(eq(back, bytes)).toBe(true);
    }
  });

  it('the streaming reader (bytes, whole or in small chunks) gives the same model as JSON.parse + importGadbJson', () => {
    for (const bytes of [realBytes, generatedBytes()]) {
      const json = new TextEncoder().encode([...exportGadbJson(parseGadb(bytes))].join(''));
      expect(eq(writeGadb(readGadbJson(json)), bytes)).toBe(true);
      const chunks: Uint8Array[] = [];
      for (let i = 0; i < json.length; i += 97) chunks.push(json.subarray(i, i + 97));
      expect(eq(writeGadb(readGadbJson(chunks)), bytes)).toBe(true);
    }
    const good = [...exportGadbJson(real())].join('');
    expect(good.split('\n')[1]).toBe('"descriptors": [');
    const bad = new TextEncoder().encode(good.replace('"descriptors": [\n[', '"descriptors": [\n[,'));
    expect(() => readGadbJson(bad)).toThrow(/line 3, column 2\)/);
    expect(() => readGadbJson(new TextEncoder().encode('{"format": "other"}'))).toThrow(/not a scry.gadb.json version 1 document/);
  });

  it('lossless JSON keeps NaN payloads, -0 and cell bits no field claims', () => {
    const g = real();
    // FxGlobalProps: cell 0 holds one Bool (bit 0); cell 1 is a Float (spec §4).
    g.cells[0] = 0x80000020; // bits 5 and 31 claimed by no field
    g.cells[1] = 0x7fc00001; // a NaN with a payload
    const e = new GadbEditor(g, { inPlace: true });
    e.set(e.record('ClientFX.Sound', '13'), 'StartTime', -0);
    const bytes = writeGadb(e.finish());
    const text = [...exportGadbJson(parseGadb(bytes))].join('');
    expect(text).toContain('"residual":{"0":2147483680}');
    expect(text).toContain('{"f32":"0x7FC00001"}');
    expect(text).toContain('{"f32":"0x80000000"}');
    expect(eq(writeGadb(importGadbJson(JSON.parse(text))), bytes)).toBe(true);
  });

  it('lossless JSON keeps an edit made in the JSON', () => {
    const doc = JSON.parse([...exportGadbJson(real())].join(''));
    doc.categories[0].records[0].values['0x3114F9A5'] = 4242;
    const e = new GadbEditor(importGadbJson(doc));
    expect(e.get(e.record('FxGlobalProps', 'FxGlobalProps'), '0x3114F9A5')).toBe(4242);
  });

  it('JSONL has one record per line and CSV one file per category, with links resolved', () => {
    const lines = [...exportGadbJsonl(real())].join('').trim().split('\n');
    expect(lines).toHaveLength(16);
    const first = JSON.parse(lines[0]!);
    expect(first.category).toBe('FxGlobalProps');
    expect(first.values['0xCA5E75DD'][0]).toBe('ClientFX.CameraShake/0');
    const csv = exportGadbCsv(real());
    expect(csv).toHaveLength(12);
    const fx = csv.find((f) => f.name === 'FxGlobalProps.csv')!;
    expect(fx.text.split('\r\n')[0]).toBe('record,0x7B656605,0x3114F9A5,0xCA5E75DD,0xE907FA5A,0x776BA58F');
    expect(fx.text).toContain('FxGlobalProps,fx\\weapons\\landmines\\landmine_curse.fxp,6000,"[""ClientFX.CameraShake/0""');
  });
});
