/**
 * The parsed model views its input (string block always, cells when the value section lies 4-aligned): what it
 * shares, what the owned parse copies, and that editing a viewing model never changes the input.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { gadbCellTotal, gadbRecordCellStarts, gadbValueSectionOffset, parseGadb, writeGadb, type Gadb } from '../../../src/formats/gadb/index.ts';
import { GadbEditor } from '../../../src/gamedb/edit/editor.ts';
import { cloneGadb } from '../../../src/gamedb/edit/model.ts';
import { Database } from '../../../src/gamedb/database.ts';
import { generateGadbBytes } from '../../../src/gamedb/generate/index.ts';
import { readGadbFile } from '../../../src/node/gamedb.ts';
import { loadFixture } from '../../support/fixtures.ts';

const fixture = loadFixture('gadb', 'landmine_curse.fxp');
const generated = generateGadbBytes({ seed: 7, scale: 0.002, exactSize: false }).bytes;
const dir = mkdtempSync(join(tmpdir(), 'scry-views-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `bytes` at a chosen position mod 4 of a fresh buffer. */
function placed(bytes: Uint8Array, shift: number): Uint8Array {
  const buf = new Uint8Array(bytes.byteLength + 4);
  buf.set(bytes, shift);
  return buf.subarray(shift, shift + bytes.byteLength);
}

/** The shift that puts the value section of `bytes` on a multiple of 4. */
function alignedShift(bytes: Uint8Array): number {
  return (4 - (gadbValueSectionOffset(bytes) & 3)) & 3;
}

/** Every record's own cells, as arrays. */
function recordCells(g: Gadb): number[][] {
  const starts = gadbRecordCellStarts(g);
  const out: number[][] = [];
  for (let r = 0; r < g.records.count; r++) out.push(Array.from(g.cells.subarray(starts[r]!, starts[r]! + g.records.cellCount[r]!)));
  return out;
}

describe('GADB parse: views and owned copies', () => {
  for (const [name, bytes] of [['landmine_curse.fxp', fixture], ['generated', generated]] as const) {
    it(`${name}: a 4-aligned value section is viewed, not copied; the string block is always viewed`, () => {
      const input = placed(bytes, alignedShift(bytes));
      const g = parseGadb(input);
      expect(g.cells.buffer).toBe(input.buffer);
      expect(g.strings.data.buffer).toBe(input.buffer);
      expect(g.records.cellStart).toBeDefined();
      // The record's cells are the file's words right after its header.
      const r = g.records.count - 1;
      const at = input.byteOffset + gadbValueSectionOffset(input) + g.records.cellStart![r]! * 4;
      expect(g.cells.byteOffset + g.records.cellStart![r]! * 4).toBe(at);
    });

    it(`${name}: a viewing model's string-block items, derived on first use, are the file's whatever was replaced first`, () => {
      const input = placed(bytes, alignedShift(bytes));
      const owned = parseGadb(input, { owned: true }).strings;
      const same = (s: { itemKeys: Uint32Array; itemSizes: Uint32Array }) => {
        expect(Array.from(s.itemKeys)).toEqual(Array.from(owned.itemKeys));
        expect(Array.from(s.itemSizes)).toEqual(Array.from(owned.itemSizes));
      };
      // The real fixture's 152 items (golden.test.ts, from the file's own tiling).
      if (name === 'landmine_curse.fxp') expect(owned.itemKeys.length).toBe(152);
      same(parseGadb(input).strings);
      same({ ...parseGadb(input).strings });
      same(structuredClone(parseGadb(input)).strings);
      // The editor's copy on write moves the cells and drops `cellStart` before it first reads the items.
      const moved = parseGadb(input);
      moved.cells = new Uint32Array(moved.cells.length);
      delete moved.records.cellStart;
      same(moved.strings);
      // A write replaces the column, as on a plain object.
      const written = parseGadb(input);
      written.strings.itemKeys = Uint32Array.of(0);
      expect(Array.from(written.strings.itemKeys)).toEqual([0]);
      expect(Array.from(written.strings.itemSizes)).toEqual(Array.from(owned.itemSizes));
    });

    it(`${name}: any other alignment copies the value section once, with the same records`, () => {
      const aligned = parseGadb(placed(bytes, alignedShift(bytes)));
      const other = placed(bytes, (alignedShift(bytes) + 1) & 3);
      const g = parseGadb(other);
      expect(g.cells.buffer).not.toBe(other.buffer);
      expect(g.strings.data.buffer).toBe(other.buffer);
      expect(recordCells(g)).toEqual(recordCells(aligned));
    });

    it(`${name}: the owned parse shares nothing and keeps cells back to back`, () => {
      const input = placed(bytes, alignedShift(bytes));
      const g = parseGadb(input, { owned: true });
      for (const a of [g.cells, g.strings.data, g.headerExtra, g.headerString]) expect(a.buffer).not.toBe(input.buffer);
      expect(g.records.cellStart).toBeUndefined();
      expect(g.cells.length).toBe(gadbCellTotal(g));
      expect(recordCells(g)).toEqual(recordCells(parseGadb(input)));
    });

    it(`${name}: a viewing model reads the input as it is now (it must not outlive changes to it)`, () => {
      const input = placed(bytes, alignedShift(bytes));
      const db = new Database(parseGadb(input));
      const root = db.rootName;
      // The root name is the string block's first item: overwrite its first byte in the input.
      const sb = gadbValueSectionOffset(input) - db.model.descriptors.count * 15 - db.model.strings.data.byteLength;
      input[sb] = 0x5a;
      expect(new Database(db.model).rootName).toBe('Z' + root.slice(1));
    });

    it(`${name}: writeGadb places its result so that the value section is 4-aligned (re-parsing views it)`, () => {
      const out = writeGadb(parseGadb(bytes));
      expect(Buffer.from(out).equals(Buffer.from(bytes))).toBe(true);
      expect((out.byteOffset + gadbValueSectionOffset(out)) % 4).toBe(0);
      expect(parseGadb(out).cells.buffer).toBe(out.buffer);
    });

    it(`${name}: readGadbFile reads the file with its value section 4-aligned`, () => {
      const path = join(dir, `${name}.gadb`);
      writeFileSync(path, bytes);
      const read = readGadbFile(path);
      expect(Buffer.from(read).equals(Buffer.from(bytes))).toBe(true);
      expect((read.byteOffset + gadbValueSectionOffset(read)) % 4).toBe(0);
      expect(parseGadb(read).cells.buffer).toBe(read.buffer);
    });
  }

  it('editing a viewing model never changes its input (copy, in place, structuredClone)', () => {
    const input = placed(generated, alignedShift(generated));
    const pristine = input.slice();
    const edit = (e: GadbEditor): void => {
      const g = e.gadb;
      // Strings (new items appended to the block), Ints, Floats and Bools of the first records that have them.
      let done = 0;
      for (let r = 0; r < g.records.count && done < 40; r++) {
        const c = e.index.recordCategory[r]!;
        const index = r - e.index.categoryFirstRecord[c]!;
        if (index < g.categories[c]!.primaryCount) continue;
        const a = { category: c, index, record: r };
        for (let j = 0; j < g.records.descriptorCount[r]!; j++) {
          const row = g.records.firstDescriptor[r]! + j;
          const type = g.descriptors.typeCode[row]! & 0x3f;
          if (g.descriptors.elementCount[row] !== 1) continue;
          const field = '0x' + g.descriptors.declaredHash[row]!.toString(16).toUpperCase().padStart(8, '0');
          if (type === 4) e.set(a, field, `edited ${r}`);
          else if (type === 3) e.set(a, field, '12345');
          else if (type === 2) e.set(a, field, '0.5');
          else if (type === 1) e.set(a, field, 'true');
          else continue;
          done++;
        }
      }
      expect(done).toBeGreaterThanOrEqual(40);
    };
    const copy = new GadbEditor(parseGadb(input));
    edit(copy);
    writeGadb(copy.finish());
    expect(Buffer.from(input).equals(Buffer.from(pristine))).toBe(true);

    const viewing = parseGadb(input);
    const inPlace = new GadbEditor(viewing, { inPlace: true });
    expect(viewing.cells.buffer).not.toBe(input.buffer);
    expect(viewing.strings.data.buffer).not.toBe(input.buffer);
    edit(inPlace);
    writeGadb(inPlace.finish());
    expect(Buffer.from(input).equals(Buffer.from(pristine))).toBe(true);

    const cloned = cloneGadb(parseGadb(input));
    cloned.cells.fill(0);
    cloned.strings.data.fill(0);
    expect(Buffer.from(input).equals(Buffer.from(pristine))).toBe(true);
    const structured = structuredClone(parseGadb(input));
    structured.cells.fill(0);
    structured.strings.data.fill(0);
    expect(Buffer.from(input).equals(Buffer.from(pristine))).toBe(true);
  });
});
