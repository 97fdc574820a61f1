import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseGadb, verifyGadb, writeGadb, decodeGadbText, gadbCellToFloat, gadbCellTotal, gadbRecordCellStarts, type Gadb } from '../../src/formats/gadb/index.ts';
import { GADB_STORAGE_BY_TYPE_BYTE, GadbStorageCode } from '../../src/formats/gadb/type-codes.ts';
import { Database } from '../../src/gamedb/database.ts';
import { generateGadb, generateGadbBytes, scaledFigures, GAME_DB_FIGURES, SHARED_FLOAT_PAIRS, type GenFigures } from '../../src/gamedb/generate/index.ts';
import { Prng, apportion } from '../../src/gamedb/generate/prng.ts';
import { p919 } from '../../src/hash/p919.ts';
import { runCli } from '../support/cli.ts';
import { UsageError } from '../../src/binary/errors.ts';

const SMALL = 1 / 1000;
const small = generateGadbBytes({ seed: 42, scale: SMALL });

/** What a parsed file holds, counted independently of the generator's own statistics. */
function census(g: Gadb) {
  const { records, descriptors: d, categories, cells } = g;
  const text = (key: number) => decodeGadbText(g.strings, key);
  let primaries = 0;
  let secondaries = 0;
  for (const c of categories) (primaries += c.primaryCount), (secondaries += c.secondaryCount);
  const typeCodes = new Set<number>();
  for (let i = 0; i < d.count; i++) typeCodes.add(d.typeCode[i]!);
  let linkCells = 0;
  let nulls = 0;
  const primaryHits = new Map<number, number>();
  let zeroField = 0;
  const recordStart = gadbRecordCellStarts(g);
  for (let r = 0; r < records.count; r++) {
    const start = recordStart[r]!;
    const first = records.firstDescriptor[r]!;
    const n = records.descriptorCount[r]!;
    if (n === 0) zeroField++;
    for (let k = first; k < first + n; k++) {
      if (GADB_STORAGE_BY_TYPE_BYTE[d.typeCode[k]!] !== GadbStorageCode.Link) continue;
      for (let e = 0; e < d.elementCount[k]!; e++) {
        const raw = cells[start + d.link[k]! + e]!;
        linkCells++;
        if (raw === 0xffffffff) nulls++;
        else {
          const cat = categories[raw >>> 20]!;
          if ((raw & 0xfffff) < cat.primaryCount) primaryHits.set(raw, (primaryHits.get(raw) ?? 0) + 1);
        }
      }
    }
  }
  // Placeholders: DEFAULT_RECORD_NAME<Type>, always the category's first secondary.
  let placeholders = 0;
  let placeholdersFirst = 0;
  let recordIndex = 0;
  for (const c of categories) {
    for (let i = 0; i < c.secondaryCount; i++) {
      const name = text(records.nameKey[recordIndex + c.primaryCount + i]!);
      if (name.startsWith('DEFAULT_RECORD_NAME')) {
        placeholders++;
        if (i === 0 && name === `DEFAULT_RECORD_NAME${text(c.typeNameKey)}`) placeholdersFirst++;
      }
    }
    recordIndex += c.primaryCount + c.secondaryCount;
  }
  const structures = categories.filter((c) => text(c.nameKey).startsWith('_Structures'));
  return { primaries, secondaries, typeCodes, linkCells, nulls, primaryHits, zeroField, placeholders, placeholdersFirst, structures, recordStart };
}

/**
 * The counts a generated file must hold at a scale, written out from the seed note's figures (the scale-1 test
 * above) times the scale, rounded — not from the generator's own `scaledFigures`: categories (at least 40),
 * primaries, secondaries, cells, link cells and null links are proportional to the game's.
 */
function expectSeedNoteProportions(g: Gadb, expected: { categories: number; primaries: number; secondaries: number; cells: number; linkCells: number; nullLinks: number }): void {
  const c = census(g);
  expect({ categories: g.categories.length, primaries: c.primaries, secondaries: c.secondaries, cells: gadbCellTotal(g), linkCells: c.linkCells, nullLinks: c.nulls }).toEqual(expected);
}

function expectCounts(g: Gadb, fig: GenFigures): void {
  const c = census(g);
  expect(g.categories.length).toBe(fig.categories);
  expect(c.structures.length).toBe(fig.structureCategories);
  expect(c.structures.filter((s) => s.primaryCount > 0).length).toBe(fig.structureCategoriesWithPrimaries);
  expect(g.categories.filter((s) => s.primaryCount > 0).length).toBe(fig.structureCategoriesWithPrimaries);
  expect(g.categories.filter((s) => s.primaryCount + s.secondaryCount === 0).length).toBe(fig.emptyCategories);
  expect(c.primaries).toBe(fig.primaries);
  expect(c.secondaries).toBe(fig.secondaries);
  expect(c.placeholders).toBe(fig.placeholders);
  expect(c.placeholdersFirst).toBe(fig.placeholders);
  expect(c.zeroField).toBe(fig.zeroFieldRecords);
  expect(g.descriptors.count).toBe(fig.descriptors);
  expect(gadbCellTotal(g)).toBe(fig.cells);
  expect(c.linkCells).toBe(fig.linkCells);
  expect(c.nulls).toBe(fig.nullLinks);
  // Every primary is the target of exactly one link.
  expect(c.primaryHits.size).toBe(fig.primaries);
  expect([...c.primaryHits.values()].every((n) => n === 1)).toBe(true);
  expect(g.header.recordCount).toBe(fig.secondaries);
  expect(g.header.unk14).toBe(fig.primaries);
}

describe('scaledFigures', () => {
  it('is the seed note itself at scale 1', () => {
    const f = scaledFigures(1);
    expect(f).toMatchObject({ categories: 2742, primaries: 415_767, secondaries: 278_865, placeholders: 921, descriptors: 361_939, cells: 8_544_670, linkCells: 5_204_006, nullLinks: 3_471_923, fileSize: 56_759_100 });
    expect(GAME_DB_FIGURES.structureCategoriesWithPrimaries).toBe(736);
  });

  it('keeps every kind of thing at a tiny scale and refuses scales outside (0, 1]', () => {
    const f = scaledFigures(1e-6);
    expect(f.structureCategoriesWithPrimaries).toBeGreaterThanOrEqual(4);
    expect(f.structureCategoriesWithPlaceholder).toBeGreaterThanOrEqual(f.structureCategories - f.structureCategoriesWithPrimaries);
    expect(f.placeholders).toBeGreaterThan(f.structureCategoriesWithPlaceholder);
    expect(() => scaledFigures(0)).toThrow(UsageError);
    expect(() => scaledFigures(1.5)).toThrow(UsageError);
  });
});

describe('Prng and apportion', () => {
  it('is a fixed stream per seed', () => {
    const a = new Prng(1);
    const b = new Prng(1);
    const xs = Array.from({ length: 5 }, () => a.u32());
    expect(Array.from({ length: 5 }, () => b.u32())).toEqual(xs);
    expect(new Prng(2).u32()).not.toBe(xs[0]);
    for (let i = 0; i < 1000; i++) {
      const x = a.int(7);
      expect(x >= 0 && x < 7 && Number.isInteger(x)).toBe(true);
    }
  });

  it('splits a total exactly, honouring the minimum and maximum', () => {
    const parts = apportion(1000, [1, 2, 3, 100], 5, 600);
    expect(parts.reduce((s, x) => s + x, 0)).toBe(1000);
    expect(Math.min(...parts)).toBeGreaterThanOrEqual(5);
    expect(Math.max(...parts)).toBeLessThanOrEqual(600);
    expect(() => apportion(3, [1, 1], 2)).toThrow();
  });
});

describe(`generated database, scale ${SMALL}`, () => {
  it('verifies with no error or warning', () => {
    const issues = verifyGadb(small.bytes);
    expect(issues.filter((i) => i.severity !== 'info')).toEqual([]);
    // The info findings are the open questions the generator answers by hypothesis, named.
    for (const i of issues) expect(['H-HDR-14', 'H-HDR-2C', 'H-SLOT-FLAGGED']).toContain(i.hypothesis);
  });

  it('rebuilds byte-exact from its parsed model', () => {
    const rebuilt = writeGadb(parseGadb(small.bytes));
    expect(rebuilt.byteLength).toBe(small.bytes.byteLength);
    expect(Buffer.compare(Buffer.from(rebuilt), Buffer.from(small.bytes))).toBe(0);
  });

  it('is deterministic for a seed and differs for another seed', () => {
    const again = generateGadbBytes({ seed: 42, scale: SMALL }).bytes;
    expect(Buffer.compare(Buffer.from(again), Buffer.from(small.bytes))).toBe(0);
    const other = generateGadbBytes({ seed: 43, scale: SMALL }).bytes;
    expect(Buffer.compare(Buffer.from(other), Buffer.from(small.bytes))).not.toBe(0);
  });

  it('contains every type code, the resource-path flag included', () => {
    const { typeCodes } = census(parseGadb(small.bytes));
    for (const t of [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 0x44]) expect(typeCodes.has(t), `type 0x${t.toString(16)}`).toBe(true);
    const gameOnly = census(generateGadb({ seed: 42, scale: SMALL, allTypes: false }).gadb).typeCodes;
    for (const t of [9, 12, 13, 14, 15, 16]) expect(gameOnly.has(t)).toBe(false);
    for (const t of [1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 0x44]) expect(gameOnly.has(t)).toBe(true);
  });

  it('has the scaled figures: categories, records, placeholders, descriptors, cells, links, nulls', () => {
    // 415,767 primaries, 278,865 secondaries, 8,544,670 cells, 5,204,006 link cells, 3,471,923 nulls ÷ 1000;
    // 2742 / 1000 categories is below the floor of 40
    expectSeedNoteProportions(parseGadb(small.bytes), { categories: 40, primaries: 416, secondaries: 279, cells: 8545, linkCells: 5204, nullLinks: 3472 });
    expectCounts(parseGadb(small.bytes), small.figures);
  });

  it('has arrays whose element counts differ per record, and records with several layouts', () => {
    const g = parseGadb(small.bytes);
    const firstsByCategory = new Map<number, Set<number>>();
    let r = 0;
    g.categories.forEach((c, ci) => {
      const set = new Set<number>();
      for (let i = 0; i < c.primaryCount + c.secondaryCount; i++, r++) if (g.records.descriptorCount[r]! > 0) set.add(g.records.firstDescriptor[r]!);
      firstsByCategory.set(ci, set);
    });
    const multi = [...firstsByCategory.values()].filter((s) => s.size > 1);
    expect(multi.length).toBe(small.figures.multiLayoutCategories);
    let runs = 0;
    for (const s of firstsByCategory.values()) runs += s.size;
    expect(runs).toBe(small.figures.runs);
  });

  it('shares values: the (0, 0) float pair is the most shared pair, stored once', () => {
    const g = parseGadb(small.bytes);
    const db = new Database(g);
    const byKey = new Map<number, number>();
    const { descriptors: d, records, cells } = g;
    const starts = gadbRecordCellStarts(g);
    for (let r = 0; r < records.count; r++) {
      const first = records.firstDescriptor[r]!;
      for (let k = first; k < first + records.descriptorCount[r]!; k++) {
        if (d.typeCode[k] !== 7) continue;
        for (let e = 0; e < d.elementCount[k]!; e++) {
          const key = cells[starts[r]! + d.link[k]! + e]!;
          byKey.set(key, (byKey.get(key) ?? 0) + 1);
        }
      }
    }
    const [topKey, topCount] = [...byKey].sort((a, b) => b[1] - a[1])[0]!;
    const bytes = new DataView(g.strings.data.buffer, g.strings.data.byteOffset);
    expect([gadbCellToFloat(bytes.getUint32(topKey, true)), gadbCellToFloat(bytes.getUint32(topKey + 4, true))]).toEqual([0, 0]);
    let pairCells = 0;
    for (const n of byKey.values()) pairCells += n;
    expect(topCount).toBe(Math.floor((SHARED_FLOAT_PAIRS[0]![2] * pairCells) / GAME_DB_FIGURES.floatPairCells));
    expect(db.sharedCount(topKey)).toBe(topCount);
  });

  it('names are realistic and hash with the verified P919 table; lookups find them', () => {
    const g = parseGadb(small.bytes);
    const db = new Database(g);
    for (const c of db.categories) {
      expect(p919(c.name)).toBe(c.sortKey);
      const first = c.at(c.primaryCount);
      if (first?.name?.startsWith('DEFAULT_RECORD_NAME')) expect(db.findRecord(c, first.name)?.indexInCategory).toBe(c.primaryCount);
    }
    const s = db.categories.find((c) => c.isStructures && c.primaryCount > 0)!;
    expect(s.name).toMatch(/^_Structures[A-Z]/);
    for (const name of small.fieldNames) expect(name).toMatch(/^[0-9A-Za-z]+$/);
  });
});

describe('generated database, scale 1/50', () => {
  const mid = generateGadbBytes({ seed: 7, scale: 1 / 50 });

  it('verifies clean, rebuilds byte-exact and has the scaled counts and exact file size', () => {
    expect(verifyGadb(mid.bytes).filter((i) => i.severity !== 'info')).toEqual([]);
    const g = parseGadb(mid.bytes);
    expect(Buffer.compare(Buffer.from(writeGadb(g)), Buffer.from(mid.bytes))).toBe(0);
    // the seed note's 2742 categories, 415,767 / 278,865 records, 8,544,670 cells, 5,204,006 links, 3,471,923
    // nulls and 56,759,100 bytes ÷ 50
    expectSeedNoteProportions(g, { categories: 55, primaries: 8315, secondaries: 5577, cells: 170_893, linkCells: 104_080, nullLinks: 69_438 });
    expectCounts(g, mid.figures);
    expect(mid.bytes.byteLength).toBe(1_135_182);
    expect(mid.stats.exactSize).toBe(true);
    expect(g.headerString.byteLength % 4).toBe((mid.bytes.byteLength - 46 - g.descriptors.count * 15 - g.header.stringBlockSize) % 4);
  });
});

describe('scry db gen', () => {
  const dir = mkdtempSync(join(tmpdir(), 'scry-gen-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes the same bytes as the library, refuses to overwrite without --force, and writes the field names', async () => {
    const out = join(dir, 'g.gamedb');
    const names = join(dir, 'g.names.txt');
    const r = await runCli(['db', 'gen', '--seed', '42', '--scale', '1/1000', '-o', out, '--names-out', names]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('categories 40');
    expect(Buffer.compare(readFileSync(out), Buffer.from(small.bytes))).toBe(0);
    expect(readFileSync(names, 'utf8').split('\n').filter((l) => l && !l.startsWith('#'))).toEqual(small.fieldNames);
    const again = await runCli(['db', 'gen', '--seed', '42', '--scale', '0.001', '-o', out]);
    expect(again.code).toBe(3);
    expect(again.stderr).toContain('refusing to overwrite');
    const forced = await runCli(['db', 'gen', '--seed', '42', '--scale', '0.001', '-o', out, '--force', '--json']);
    expect(forced.code).toBe(0);
    expect(JSON.parse(forced.stdout).stats.cells).toBe(small.figures.cells);
  });

  it('exits 2 on usage errors', async () => {
    expect((await runCli(['db', 'gen', '--scale', '0.5', '-o', join(dir, 'x')])).code).toBe(2);
    expect((await runCli(['db', 'gen', '--seed', '1', '--scale', '2', '-o', join(dir, 'x')])).code).toBe(2);
    expect((await runCli(['db', 'gen', '--seed', '-1', '-o', join(dir, 'x')])).code).toBe(2);
    expect((await runCli(['db', 'gen', '--seed', '1'])).code).toBe(2);
  });
});

describe('generator robustness', () => {
  it('reaches the exact counts for other seeds and scales', () => {
    // Including the seeds and scales other areas build on (editing tests, the workbench sample).
    for (const [seed, scale, exactSize] of [[1, 0.003, true], [2, 0.006, true], [3, 0.01, true], [99, 0.004, true], [42, 0.002, false], [919, 0.05, true]] as const) {
      const { gadb, figures, stats } = generateGadb({ seed, scale, exactSize });
      expect(gadbCellTotal(gadb), `seed ${seed} scale ${scale}`).toBe(figures.cells);
      expect(gadb.descriptors.count).toBe(figures.descriptors);
      expect(stats.runs).toBe(figures.runs);
      expect(stats.linkCells).toBe(figures.linkCells);
      expect(stats.nullLinks).toBe(figures.nullLinks);
    }
  });
});

describe('generation over many seeds and small scales', () => {
  // Earlier generator versions threw "cannot tune … off by N" for some (seed, scale) pairs (e.g. seed 7 at 0.002,
  // seed 1 at 0.01): every pair must generate a file that verifies without errors and rebuilds byte-exact.
  it('succeeds, verifies and rebuilds for seeds 1..8 at scales 0.001, 0.002, 0.003', () => {
    for (let seed = 1; seed <= 8; seed++) {
      for (const scale of [0.001, 0.002, 0.003]) {
        const { bytes } = generateGadbBytes({ seed, scale });
        const model = parseGadb(bytes);
        const errors = verifyGadb(model).filter((f) => f.severity === 'error');
        expect(errors, `seed ${seed} scale ${scale}`).toEqual([]);
        expect(Buffer.compare(writeGadb(model), bytes), `seed ${seed} scale ${scale}`).toBe(0);
      }
    }
  });
});
