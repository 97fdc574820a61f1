/**
 * A deterministic generator of GADB v17 databases at the real game's scale and shape (`game.gamedb`: 2,742
 * categories, 694,632 records, 8.5M cells, 56.8 MB), or any fraction of it, built as a model (`Gadb`) that the
 * codec's `writeGadb` turns into bytes.
 *
 * How it hits the seed's figures (`figures.ts`): counts that the structure decides (categories, records, runs,
 * descriptors, cells, link cells, nulls) are planned exactly, by apportioning totals and then tuning array
 * element counts; per-type cell totals are quotas the field types are drawn towards; shared values follow exact
 * schedules (the (0, 0) float pair behind 72,774 cells). The file size is hit exactly by sizing the last text
 * values to the bytes that remain (and an inline header string whose length fixes the size modulo 4, H-HDR-2C).
 *
 * Everything follows the codec's own rules: the slot rule (`assignGadbSlots`), link encoding, first-use layout
 * (done by `writeGadb`), hypotheses H-PRIM-HDR, H-PRIM-FIRST, H-LINK-SIDE, H-ZERO-FIELD, H-HDR-10, H-CAT-04.
 * No `node:*` import: it runs in the browser too.
 */
import { DEFAULT_P919_TABLE, canHashP919, type P919Table } from '../../hash/p919.ts';
import { assignGadbSlots, type GadbSlotField } from '../../formats/gadb/slots.ts';
import { encodeGadbLink, gadbFloatToCell, GADB_NULL_LINK } from '../../formats/gadb/decode.ts';
import type { Gadb, GadbCategory } from '../../formats/gadb/types.ts';
import { newGadbDescriptors } from '../../formats/gadb/parse.ts';
import { Prng, apportion } from './prng.ts';
import {
  MOST_SHARED_RECORD_NAMES,
  RESOURCE_PATH_EXTENSIONS,
  RESOURCE_PATH_FILES,
  SHARED_FLOAT_PAIRS,
  ZERO_VECTOR_CELLS,
  GAME_DB_FIGURES,
  scaledFigures,
  type GenFigures,
} from './figures.ts';
import { categoryNames, enumValues, fieldName, hashAscii, placeholderName, recordName, resourcePath, textValue } from './names.ts';

/** Options of `generateGadb`. */
export interface GenerateGadbOptions {
  /** Any safe integer; the same seed and options give the same bytes. */
  seed: number;
  /** Fraction of the game's size, in (0, 1] (default 1: the game's own figures). */
  scale?: number;
  /**
   * Hit the scaled file size exactly (default true) by sizing text values and an inline header string (H-HDR-2C).
   * Off: no header string, text values of natural length.
   */
  exactSize?: boolean;
  /**
   * Include the curve type codes 12–16 and type 9 in a few fields (default true). The real game database uses only
   * types 1–11 and 0x44; the curves come from effect databases.
   */
  allTypes?: boolean;
  /** P919 table for names (default: the verified table). With `/` calibrated, category names use `/` like the game's. */
  table?: P919Table;
}

/** What was generated, measured on the model. */
export interface GenStats {
  categories: number;
  structureCategories: number;
  primaries: number;
  secondaries: number;
  placeholders: number;
  zeroFieldRecords: number;
  emptyCategories: number;
  descriptors: number;
  runs: number;
  fieldPairs: number;
  multiLayoutCategories: number;
  largestLayoutCount: number;
  cells: number;
  boolWordCells: number;
  boolBits: number;
  /** Cells per type byte (Bool: bool-word cells are in `boolWordCells`). */
  cellsByType: Record<string, number>;
  linkCells: number;
  nullLinks: number;
  linksToPrimaries: number;
  linksToSecondaries: number;
  stringItems: number;
  stringBlockSize: number;
  /** File size the codec will write. */
  fileSize: number;
  /** True when the file size equals the target figure. */
  exactSize: boolean;
  distinctRecordNames: number;
  sharedFloatPairCells: number;
  zeroVectorCells: number;
}

/** A generated database: the model, the figures it aimed at, what it holds, and the names of its fields. */
export interface GeneratedGadb {
  gadb: Gadb;
  figures: GenFigures;
  stats: GenStats;
  /** Every field name used, for a names dictionary (hashes are P919 of these). */
  fieldNames: string[];
  /** Wall time of each generation phase, in milliseconds (not part of the output: it varies run to run). */
  phaseMs: Record<string, number>;
}

// Type bytes.
const T_BOOL = 1,
  T_FLOAT = 2,
  T_INT = 3,
  T_STRING = 4,
  T_ENUM = 5,
  T_INT64 = 6,
  T_PAIR = 7,
  T_VEC3 = 8,
  T_TYPE9 = 9,
  T_LINK = 10,
  T_LINK11 = 11,
  T_PATH = 0x44;
const CURVE_TYPES = [12, 13, 14, 15, 16] as const;

/** Block item pools (text shares one pool, H-SB-TEXT-POOL; binary values are pooled per kind). */
const K_TEXT = 1,
  K_INT64 = 2,
  K_PAIR = 3,
  K_VEC3 = 4,
  K_TYPE9 = 5,
  K_CURVE = 6; // 6..10 for type codes 12..16
const KIND_OF_TYPE: Record<number, number> = { [T_STRING]: K_TEXT, [T_PATH]: K_TEXT, [T_ENUM]: K_TEXT, [T_INT64]: K_INT64, [T_PAIR]: K_PAIR, [T_VEC3]: K_VEC3, [T_TYPE9]: K_TYPE9, 12: K_CURVE, 13: K_CURVE + 1, 14: K_CURVE + 2, 15: K_CURVE + 3, 16: K_CURVE + 4 };

const MAX_FIELDS = 200;
const MAX_COUNT_STEP = 64;
/** Bools per record type: few enough that most records carry some (the game packs 2.94M bools into ~0.52M words). */
const MAX_BOOLS = 6;

interface Field {
  name: string;
  hash: number;
  typeByte: number;
  /** Element count before the layout digit. */
  base: number;
  /** Which layout digit adds to the count (-1: none). */
  vary: number;
  ordinal: number;
  /** Link target (plan index of a category), -1 when not a link. */
  target: number;
  /** A link to the primaries of `target` (an inline-structure owner field). */
  owner: boolean;
  /** Enum value set, for StringEnum fields. */
  enumSet: number;
  /** Pre-typed (owner, adjuster or varying field): the type quota draw leaves it alone. */
  fixed: boolean;
}

interface Cat {
  name: string;
  typeName: string;
  hash: number;
  structure: boolean;
  primaries: number;
  secondaries: number;
  placeholder: boolean;
  zeroField: boolean;
  single: boolean;
  /** Secondary names (sorted by hash once named) and their hashes. */
  names: string[];
  nameHashes: number[];
  fields: Field[];
  layouts: number;
  radices: number[];
  /** Layout of each record (primaries, then secondaries), or null when every record has layout 0. */
  recordLayout: Uint32Array | null;
  /** Records per layout. */
  layoutRecords: Uint32Array;
  /** Sum of each digit over the records. */
  digitSums: number[];
  /** Position in file (sort-key) order: the link ordinal. */
  ordinal: number;
}

const records = (c: Cat): number => c.primaries + c.secondaries;

function gaussian(rng: Prng): number {
  const u = 1 - rng.float();
  const v = rng.float();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

function lognormalWeights(rng: Prng, n: number, sigma: number): number[] {
  const w = new Array<number>(n);
  for (let i = 0; i < n; i++) w[i] = Math.exp(sigma * gaussian(rng));
  return w;
}

/** Like `apportion` with a maximum per part. */
function apportionCapped(total: number, weights: number[], min: number, maxs: number[]): number[] {
  let capSum = 0;
  for (const m of maxs) capSum += m;
  if (total > capSum) throw new Error(`generator: ${total} cannot fit parts capped at ${capSum} in all`);
  const out = apportion(total, weights, min);
  for (;;) {
    let excess = 0;
    for (let i = 0; i < out.length; i++) {
      if (out[i]! > maxs[i]!) {
        excess += out[i]! - maxs[i]!;
        out[i] = maxs[i]!;
      }
    }
    if (excess === 0) return out;
    const open: number[] = [];
    for (let i = 0; i < out.length; i++) if (out[i]! < maxs[i]!) open.push(i);
    const add = apportion(
      excess,
      open.map((i) => weights[i]!),
      0,
    );
    open.forEach((i, k) => (out[i] = out[i]! + add[k]!));
  }
}

/** Digit `v` of layout `id` in the mixed radix `radices`. */
function digit(id: number, radices: number[], v: number): number {
  let x = id;
  for (let i = 0; i < v; i++) x = Math.floor(x / radices[i]!);
  return x % radices[v]!;
}

/** Generates a database model. See the module comment and `docs/gamedb-gen.md`. */
export function generateGadb(options: GenerateGadbOptions): GeneratedGadb {
  const scale = options.scale ?? 1;
  const fig = scaledFigures(scale);
  const table = options.table ?? DEFAULT_P919_TABLE;
  const lut = table.values;
  const hashOf = (s: string): number => hashAscii(s, lut);
  const allTypes = options.allTypes !== false;
  const exactSize = options.exactSize !== false;
  const root = new Prng(options.seed);
  const rngCats = root.fork();
  const rngNames = root.fork();
  const rngSchema = root.fork();
  const rngLayout = root.fork();
  const rngValues = root.fork();
  const rngText = root.fork();
  const separator = canHashP919('/', { table }) ? '/' : '.';

  const phaseMs: Record<string, number> = {};
  let phaseStart = performance.now();
  const phase = (name: string): void => {
    const now = performance.now();
    phaseMs[name] = Math.round(now - phaseStart);
    phaseStart = now;
  };
  // ---- 1. Categories and their record counts -------------------------------------------------------------------
  const C = fig.categories;
  const S = fig.structureCategories;
  const catNames = categoryNames(rngCats, C, S, separator, hashOf);
  const cats: Cat[] = catNames.map((n, i) => ({
    name: n.name,
    typeName: n.typeName,
    hash: hashOf(n.name),
    structure: i < S,
    primaries: 0,
    secondaries: 0,
    placeholder: false,
    zeroField: false,
    single: true,
    names: [],
    nameHashes: [],
    fields: [],
    layouts: 1,
    radices: [],
    recordLayout: null,
    layoutRecords: new Uint32Array(1),
    digitSums: [],
    ordinal: 0,
  }));
  const structures = cats.slice(0, S);
  const withPrimaries = structures.slice(0, fig.structureCategoriesWithPrimaries);
  const primaryCounts = apportion(fig.primaries, lognormalWeights(rngCats, withPrimaries.length, 1.4), 1);
  withPrimaries.forEach((c, i) => (c.primaries = primaryCounts[i]!));
  // Structures without primaries all carry the placeholder; the ones without a placeholder all hold primaries.
  const noPlaceholder = S - fig.structureCategoriesWithPlaceholder;
  structures.forEach((c, i) => {
    c.placeholder = i >= noPlaceholder;
    c.secondaries = c.placeholder ? 1 : 0;
  });
  const nonStructure = cats.slice(S);
  // nonStructure[0, emptyCategories) hold no record at all.
  const multi = nonStructure.slice(fig.emptyCategories, fig.emptyCategories + fig.multiSecondaryCategories);
  const singles = nonStructure.slice(fig.emptyCategories + fig.multiSecondaryCategories);
  for (const c of singles) c.secondaries = 1;
  const zeroCount = Math.max(1, Math.min(Math.floor(fig.zeroFieldRecords / 2), multi.length - 2, Math.round(40 * Math.sqrt(scale))));
  const zeroCats = multi.slice(0, zeroCount);
  const zeroCounts = apportion(fig.zeroFieldRecords, lognormalWeights(rngCats, zeroCount, 1), 2);
  zeroCats.forEach((c, i) => {
    c.zeroField = true;
    c.secondaries = zeroCounts[i]!;
  });
  const named = multi.slice(zeroCount);
  const namedTotal = fig.secondaries - fig.structureCategoriesWithPlaceholder - singles.length - fig.zeroFieldRecords;
  const namedCounts = apportion(namedTotal, lognormalWeights(rngCats, named.length, 1.6), 2, 0xfffff);
  named.forEach((c, i) => (c.secondaries = namedCounts[i]!));
  // Placeholders outside _Structures*: half in one-record categories, half in small multi-record ones (record 0).
  const extraPlaceholders = fig.placeholders - fig.structureCategoriesWithPlaceholder;
  {
    const inSingles = Math.min(singles.length, Math.ceil(extraPlaceholders / 2));
    const smallMulti = named.filter((c) => c.secondaries <= 60);
    rngCats.shuffle(smallMulti);
    const inMulti = Math.min(smallMulti.length, extraPlaceholders - inSingles);
    const pool = [...rngCats.shuffle(singles.slice()).slice(0, extraPlaceholders - inMulti), ...smallMulti.slice(0, inMulti)];
    for (const c of pool) c.placeholder = true;
  }

  phase('categories');
  // ---- 2. Record names ------------------------------------------------------------------------------------------
  const usedNames = new Set<string>();
  const catHashSets = new Map<Cat, Set<number>>();
  const hashSet = (c: Cat): Set<number> => {
    let s = catHashSets.get(c);
    if (!s) catHashSets.set(c, (s = new Set()));
    return s;
  };
  const addName = (c: Cat, name: string, h = hashOf(name)): boolean => {
    const set = hashSet(c);
    if (set.has(h)) return false;
    // Record 0 of a category with a placeholder is the placeholder: every other name must hash above it.
    if (c.placeholder && c.nameHashes.length > 0 && h <= c.nameHashes[0]!) return false;
    set.add(h);
    c.names.push(name);
    c.nameHashes.push(h);
    return true;
  };
  for (const c of cats) {
    if (!c.placeholder) continue;
    if (!c.structure && c.secondaries > 1) {
      // The type name variant whose placeholder hashes lowest, so that few names are refused below it.
      const base = c.typeName;
      let best = hashOf(placeholderName(base));
      for (let v = 2; v <= 64; v++) {
        const h = hashOf(placeholderName(`${base}${v}`));
        if (h < best) {
          best = h;
          c.typeName = `${base}${v}`;
        }
      }
    }
    addName(c, placeholderName(c.typeName));
  }
  // Free name slots outside _Structures*, one entry per slot.
  const nameable = nonStructure.filter((c) => c.secondaries > 0);
  let slotCount = 0;
  for (const c of nameable) slotCount += c.secondaries - (c.placeholder ? 1 : 0);
  const freeSlots = new Uint32Array(slotCount);
  {
    let k = 0;
    nameable.forEach((c, i) => {
      for (let j = c.placeholder ? 1 : 0; j < c.secondaries; j++) freeSlots[k++] = i;
    });
  }
  let freeCount = slotCount;
  const takeSlot = (name: string, tries: Set<number>): boolean => {
    const h = hashOf(name);
    for (let attempt = 0; attempt < 40 && freeCount > 0; attempt++) {
      const j = rngNames.int(freeCount);
      const ci = freeSlots[j]!;
      if (tries.has(ci)) continue;
      const c = nameable[ci]!;
      if (!addName(c, name, h)) continue;
      tries.add(ci);
      freeSlots[j] = freeSlots[--freeCount]!;
      return true;
    }
    return false;
  };
  // Names found in several categories: the seed's most shared ones, then names of multiplicity ≥ 2.
  let distinctNames = fig.placeholders;
  {
    const occurrences = Math.min(fig.recordsWithSharedName, Math.floor(slotCount * 0.6));
    const top = MOST_SHARED_RECORD_NAMES.map(([n, m]) => [n, Math.max(2, Math.min(nameable.length, Math.round(m * (scale === 1 ? 1 : Math.sqrt(scale)))))] as const);
    let topOccurrences = 0;
    for (const [, m] of top) topOccurrences += m;
    const sharedNames = Math.max(top.length, Math.min(fig.sharedRecordNames, Math.floor((occurrences - topOccurrences) / 2) + top.length));
    const rest = sharedNames - top.length;
    const restOccurrences = Math.max(rest * 2, occurrences - topOccurrences);
    const mult = rest > 0 ? apportionCapped(restOccurrences, lognormalWeights(rngNames, rest, 0.5), 2, new Array<number>(rest).fill(Math.max(2, Math.min(nameable.length, 60)))) : [];
    const place = (name: string, m: number): void => {
      usedNames.add(name);
      const tries = new Set<number>();
      let placed = 0;
      for (let i = 0; i < m; i++) if (takeSlot(name, tries)) placed++;
      if (placed > 0) distinctNames++;
    };
    for (const [n, m] of top) place(n, m);
    for (let i = 0; i < rest; i++) {
      let name = recordName(rngNames);
      while (usedNames.has(name)) name = recordName(rngNames);
      place(name, mult[i]!);
    }
  }
  // Every other slot gets a name of its own.
  for (let j = 0; j < freeCount; j++) {
    const c = nameable[freeSlots[j]!]!;
    for (;;) {
      const name = recordName(rngNames);
      if (usedNames.has(name)) continue;
      if (addName(c, name)) {
        usedNames.add(name);
        distinctNames++;
        break;
      }
    }
  }
  for (const c of cats) {
    const order = c.nameHashes.map((_, i) => i).sort((a, b) => c.nameHashes[a]! - c.nameHashes[b]!);
    c.names = order.map((i) => c.names[i]!);
    c.nameHashes = order.map((i) => c.nameHashes[i]!);
  }

  phase('names');
  // ---- 3. Schemas: field counts, layouts, owners of the primaries ----------------------------------------------
  const fieldCats = cats.filter((c) => records(c) > 0 && !c.zeroField);
  const byRecordsDesc = fieldCats.slice().sort((a, b) => records(b) - records(a) || a.hash - b.hash);
  // Multi-layout categories: mostly the big ones.
  const multiCandidates = fieldCats.filter((c) => records(c) >= 2);
  const K = Math.min(fig.multiLayoutCategories, multiCandidates.length);
  const multiKey = new Map<Cat, number>();
  for (const c of multiCandidates) multiKey.set(c, records(c) * (0.3 + rngSchema.float()));
  const multiCats = multiCandidates.sort((a, b) => multiKey.get(b)! - multiKey.get(a)! || a.hash - b.hash).slice(0, K);
  const multiRuns = fig.runs - (fieldCats.length - K);
  {
    const biggest = multiCats.reduce((a, b) => (records(b) > records(a) ? b : a), multiCats[0]!);
    const others = multiCats.filter((c) => c !== biggest);
    const lMax = Math.max(2, Math.min(fig.largestLayoutCount, records(biggest), multiRuns - 2 * others.length));
    biggest.layouts = lMax;
    const ls = apportionCapped(
      multiRuns - lMax,
      others.map((c) => Math.pow(records(c), 0.75) * Math.exp(0.5 * gaussian(rngSchema))),
      2,
      others.map((c) => Math.min(records(c), lMax)),
    );
    others.forEach((c, i) => (c.layouts = ls[i]!));
    // One category with exactly two layouts gives the descriptor count its last unit steps (weight L - 1 = 1).
    const two = others.slice().sort((a, b) => a.layouts - b.layouts || records(a) - records(b))[0];
    if (two && two.layouts > 2) {
      let spare = two.layouts - 2;
      two.layouts = 2;
      for (const c of others) {
        if (spare === 0) break;
        if (c === two) continue;
        const room = Math.min(records(c), lMax) - c.layouts;
        const add = Math.min(room, spare);
        c.layouts += add;
        spare -= add;
      }
      if (spare > 0) two.layouts += spare;
    }
    for (const c of multiCats) c.single = false;
  }
  for (const c of multiCats) {
    const L = c.layouts;
    const V = L <= 6 ? 1 : L <= 36 ? 2 : L <= 216 ? 3 : 4;
    const r = Math.ceil(Math.pow(L, 1 / V) - 1e-9);
    c.radices = new Array<number>(V).fill(r);
    c.digitSums = new Array<number>(V).fill(0);
  }
  // Owners of the primaries: structure categories (largest first) matched to the non-structure categories with the most records.
  const owners = byRecordsDesc.filter((c) => !c.structure);
  const ownedBy = new Map<Cat, { structure: Cat; count: number }[]>();
  {
    const structs = withPrimaries.slice().sort((a, b) => b.primaries - a.primaries || a.hash - b.hash);
    structs.forEach((s, i) => {
      const o = owners[i % owners.length]!;
      const k = Math.max(1, Math.ceil((s.primaries * 1.08) / records(o)));
      if (k > 4000) throw new Error(`generator: structure ${s.name} (${s.primaries} primaries) has no owner large enough`);
      let list = ownedBy.get(o);
      if (!list) ownedBy.set(o, (list = []));
      list.push({ structure: s, count: k });
    });
  }
  const required = (c: Cat): number => 1 + (ownedBy.get(c)?.length ?? 0) + c.radices.length + (records(c) === 1 ? 2 : 0);
  // Field counts: Σ f = fieldPairs, Σ L·f = descriptors.
  {
    const targetExtra = fig.descriptors - fig.fieldPairs;
    const clampF = (c: Cat, f: number): number => Math.max(required(c), Math.min(MAX_FIELDS, f));
    const noise = multiCats.map(() => Math.exp(0.35 * gaussian(rngSchema)));
    const extraFor = (a: number): number => {
      let s = 0;
      multiCats.forEach((c, i) => (s += (c.layouts - 1) * clampF(c, Math.round(a * Math.sqrt(c.layouts) * noise[i]!))));
      return s;
    };
    let lo = 0,
      hi = 200;
    for (let it = 0; it < 50; it++) {
      const mid = (lo + hi) / 2;
      if (extraFor(mid) < targetExtra) lo = mid;
      else hi = mid;
    }
    multiCats.forEach((c, i) => {
      const f = clampF(c, Math.round(lo * Math.sqrt(c.layouts) * noise[i]!));
      c.fields = new Array<Field>(f);
    });
    let diff = targetExtra - extraFor(lo);
    const adjust = multiCats.slice().sort((a, b) => b.layouts - a.layouts);
    for (let pass = 0; pass < 3 && diff !== 0; pass++) {
      for (const c of adjust) {
        if (diff === 0) break;
        const w = c.layouts - 1;
        let step = Math.trunc(diff / w);
        const f = c.fields.length;
        step = Math.max(required(c) - f, Math.min(MAX_FIELDS - f, step));
        if (step === 0) continue;
        c.fields = new Array<Field>(f + step);
        diff -= step * w;
      }
    }
    if (diff !== 0) throw new Error(`generator: cannot reach ${fig.descriptors} descriptors (off by ${diff})`);
    let multiFields = 0;
    for (const c of multiCats) multiFields += c.fields.length;
    const singleCats = fieldCats.filter((c) => c.single);
    let requiredSum = 0;
    for (const c of singleCats) requiredSum += required(c);
    const rest = fig.fieldPairs - multiFields - requiredSum;
    if (rest < 0) throw new Error(`generator: ${fig.fieldPairs} field pairs cannot cover the required fields (short by ${-rest})`);
    const fs = apportionCapped(
      rest,
      singleCats.map(() => Math.exp(0.8 * gaussian(rngSchema))),
      0,
      singleCats.map((c) => MAX_FIELDS - required(c)),
    );
    singleCats.forEach((c, i) => {
      c.fields = new Array<Field>(required(c) + fs[i]!);
    });
  }

  phase('schemas');
  // ---- 4. Fields: names, types, counts, ordinals -----------------------------------------------------------------
  const fieldPool: string[] = [];
  const fieldPoolHashes = new Set<number>();
  while (fieldPool.length < fig.fieldNames) {
    const n = fieldName(rngSchema);
    const h = hashOf(n);
    if (fieldPoolHashes.has(h)) continue;
    fieldPoolHashes.add(h);
    fieldPool.push(n);
  }
  const usedFieldNames = new Set<string>();
  {
    const slots: [Cat, number][] = [];
    for (const c of fieldCats) for (let j = 0; j < c.fields.length; j++) slots.push([c, j]);
    rngSchema.shuffle(slots);
    const catFieldHashes = new Map<Cat, Set<number>>();
    const blank = (name: string, hash: number): Field => ({ name, hash, typeByte: 0, base: 1, vary: -1, ordinal: 0, target: -1, owner: false, enumSet: -1, fixed: false });
    slots.forEach(([c, j], i) => {
      let set = catFieldHashes.get(c);
      if (!set) catFieldHashes.set(c, (set = new Set()));
      let name = i < fieldPool.length ? fieldPool[i]! : '';
      for (let attempt = 0; name === '' || set.has(hashOf(name)); attempt++) {
        name = attempt < 20 ? fieldPool[rngSchema.skewed(fieldPool.length, 3)]! : fieldName(rngSchema) + String(attempt);
      }
      set.add(hashOf(name));
      usedFieldNames.add(name);
      c.fields[j] = blank(name, hashOf(name));
    });
  }
  // Layout assignment (so the varying fields' cell totals are known before types are drawn).
  for (const c of multiCats) {
    const R = records(c);
    const L = c.layouts;
    const raw = new Uint32Array(R);
    for (let i = 0; i < R; i++) raw[i] = rngLayout.skewed(L, 2);
    const positions = rngLayout.shuffle(Array.from({ length: R }, (_, i) => i)).slice(0, L);
    positions.forEach((p, id) => (raw[p] = id));
    // Relabel in order of first use, so runs appear in file order.
    const relabel = new Int32Array(L).fill(-1);
    let next = 0;
    for (let i = 0; i < R; i++) {
      if (relabel[raw[i]!]! < 0) relabel[raw[i]!] = next++;
      raw[i] = relabel[raw[i]!]!;
    }
    c.recordLayout = raw;
    c.layoutRecords = new Uint32Array(L);
    for (let i = 0; i < R; i++) c.layoutRecords[raw[i]!]!++;
    for (let id = 0; id < L; id++) for (let v = 0; v < c.radices.length; v++) c.digitSums[v]! += digit(id, c.radices, v) * c.layoutRecords[id]!;
  }
  for (const c of fieldCats) if (c.single) c.layoutRecords[0] = records(c);

  const catIndex = new Map<Cat, number>(cats.map((c, i) => [c, i]));
  // Link targets: non-structure categories with secondaries, weighted by size.
  const linkTargets = nonStructure.filter((c) => c.secondaries > 0);
  const targetWeights: number[] = [];
  {
    let acc = 0;
    for (const c of linkTargets) targetWeights.push((acc += Math.sqrt(c.secondaries)));
  }
  const pickTarget = (): number => {
    const x = rngSchema.float() * targetWeights[targetWeights.length - 1]!;
    let lo = 0,
      hi = targetWeights.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (targetWeights[mid]! > x) hi = mid;
      else lo = mid + 1;
    }
    return catIndex.get(linkTargets[lo]!)!;
  };
  const linkType = (): number => (rngSchema.chance(0.04) ? T_LINK11 : T_LINK);

  // Quotas per type byte, in cells (Bool: bits).
  const quota = new Map<number, number>();
  const smallQuota = Math.max(3, Math.round(40 * scale));
  quota.set(T_BOOL, fig.boolBits);
  quota.set(T_FLOAT, fig.floatCells);
  quota.set(T_INT, fig.intCells);
  quota.set(T_STRING, fig.stringCells - fig.resourcePathCells);
  quota.set(T_PATH, fig.resourcePathCells);
  quota.set(T_ENUM, fig.enumCells);
  quota.set(T_INT64, fig.int64Cells);
  quota.set(T_PAIR, fig.floatPairCells);
  quota.set(T_VEC3, fig.vector3Cells);
  quota.set(T_LINK, fig.linkCells);
  if (allTypes) {
    quota.set(T_TYPE9, smallQuota);
    for (const t of CURVE_TYPES) quota.set(t, smallQuota);
  }
  const take = (t: number, n: number): void => {
    const q = t === T_LINK11 ? T_LINK : t;
    quota.set(q, (quota.get(q) ?? 0) - n);
  };
  // Pre-typed fields: owners of primaries, the layout digits, the adjusters of one-record categories.
  for (const c of fieldCats) {
    let j = 0;
    const R = records(c);
    for (const { structure, count } of ownedBy.get(c) ?? []) {
      const f = c.fields[j++]!;
      Object.assign(f, { typeByte: T_LINK, base: count, target: catIndex.get(structure)!, owner: true, fixed: true });
      take(T_LINK, count * R);
    }
    for (let v = 0; v < c.radices.length; v++) {
      const f = c.fields[j++]!;
      const r = rngSchema.float();
      const t = r < 0.6 ? linkType() : r < 0.72 ? T_FLOAT : r < 0.84 ? T_INT : r < 0.92 ? T_STRING : T_ENUM;
      f.typeByte = t;
      f.base = rngSchema.int(2);
      f.vary = v;
      f.fixed = true;
      if (t === T_LINK || t === T_LINK11) f.target = pickTarget();
      take(t, f.base * R + c.digitSums[v]!);
    }
    if (R === 1) {
      const a = c.fields[j++]!;
      Object.assign(a, { typeByte: T_LINK, base: 3, target: pickTarget(), fixed: true });
      take(T_LINK, 3);
      const b = c.fields[j++]!;
      Object.assign(b, { typeByte: T_INT, base: 3, fixed: true });
      take(T_INT, 3);
    }
  }
  // Draw every other field's type towards the quotas, biggest categories first.
  const arrayChance: Record<number, [number, number, number]> = { [T_LINK]: [0.3, 2, 8], [T_FLOAT]: [0.12, 2, 4], [T_INT]: [0.1, 2, 6], [T_STRING]: [0.05, 2, 4], [T_ENUM]: [0.05, 2, 3] };
  const drawOrder = fieldCats.slice().sort((a, b) => records(b) - records(a) || a.hash - b.hash);
  const typeList = [...quota.keys()];
  // Every type code appears at least once: fields in the smallest categories take the rare ones.
  {
    const wanted = [T_BOOL, T_FLOAT, T_INT, T_STRING, T_ENUM, T_INT64, T_PAIR, T_VEC3, T_LINK, T_LINK11, T_PATH, ...(allTypes ? [T_TYPE9, ...CURVE_TYPES] : [])];
    const present = new Set<number>();
    for (const c of fieldCats) for (const f of c.fields) if (f.fixed) present.add(f.typeByte);
    const smallest = fieldCats.slice().sort((a, b) => records(a) - records(b) || a.hash - b.hash);
    let k = 0;
    for (const t of wanted) {
      if (present.has(t)) continue;
      for (let tries = 0; tries < smallest.length; tries++) {
        const c = smallest[k++ % smallest.length]!;
        const f = c.fields.find((x) => !x.fixed);
        if (!f) continue;
        Object.assign(f, { typeByte: t, base: 1, fixed: true, target: t === T_LINK || t === T_LINK11 ? pickTarget() : -1 });
        take(t, records(c));
        present.add(t);
        break;
      }
    }
  }
  // The real database declares more fields than it fills: 11.4M descriptor uses against 8.5M cells, so many
  // fields are empty arrays (count 0). A field whose drawn type has no quota left for its category becomes one.
  const initialQuota = new Map(quota);
  for (const c of drawOrder) {
    const R = records(c);
    let bools = 0;
    for (const f of c.fields) {
      if (f.fixed) continue;
      let total = 0;
      const weights = typeList.map((t) => {
        const q = quota.get(t)!;
        const w = q > 0 && !(t === T_BOOL && bools >= MAX_BOOLS) ? q : 0;
        total += w;
        return w;
      });
      let t: number;
      let count = 1;
      if (total <= 0) {
        // Nothing left: an empty array of a type drawn from the overall mix.
        let sum = 0;
        for (const t2 of typeList) if (t2 !== T_BOOL) sum += initialQuota.get(t2)!;
        let x = rngSchema.float() * sum;
        t = T_INT;
        for (const t2 of typeList) {
          if (t2 === T_BOOL) continue;
          x -= initialQuota.get(t2)!;
          if (x < 0) {
            t = t2;
            break;
          }
        }
        count = 0;
      } else {
        let x = rngSchema.float() * total;
        let k = 0;
        while (k < weights.length - 1 && x >= weights[k]!) x -= weights[k++]!;
        t = typeList[k]!;
        if (quota.get(t)! < R * 0.5) {
          if (t === T_BOOL) t = T_INT;
          count = 0;
        }
      }
      if (t === T_LINK) t = linkType();
      const arr = arrayChance[t === T_LINK11 ? T_LINK : t];
      if (count === 1 && arr && rngSchema.chance(arr[0]) && quota.get(t === T_LINK11 ? T_LINK : t)! > R * arr[2]) count = rngSchema.range(arr[1], arr[2]);
      f.typeByte = t;
      f.base = count;
      if (t === T_LINK || t === T_LINK11) f.target = pickTarget();
      if (t === T_BOOL) bools++;
      take(t, R * count);
    }
  }
  // Enum sets: fields of the same name share one.
  const enumSets: string[][] = [];
  {
    const byName = new Map<string, number>();
    for (const c of fieldCats) {
      for (const f of c.fields) {
        if (f.typeByte !== T_ENUM) continue;
        let s = byName.get(f.name);
        if (s === undefined) {
          s = enumSets.length;
          enumSets.push(enumValues(rngSchema, 2 + rngSchema.skewed(14, 1.5)));
          byName.set(f.name, s);
        }
        f.enumSet = s;
      }
    }
  }
  // Shuffle declaration order (owners and digits are not always first), then ordinals with gaps (group markers).
  for (const c of fieldCats) {
    rngSchema.shuffle(c.fields);
    let budget = 255 - c.fields.length;
    let ord = rngSchema.int(Math.min(3, budget + 1));
    budget -= ord;
    for (const f of c.fields) {
      f.ordinal = ord++;
      if (budget > 0 && rngSchema.chance(0.08)) {
        const gap = Math.min(budget, 1 + rngSchema.int(2));
        ord += gap;
        budget -= gap;
      }
    }
  }

  phase('fields');
  // ---- 5. Exact link and cell totals: tune array element counts -----------------------------------------------
  const isLink = (t: number): boolean => t === T_LINK || t === T_LINK11;
  const fieldCells = (c: Cat, f: Field): number => f.base * records(c) + (f.vary >= 0 ? c.digitSums[f.vary]! : 0);
  const boolWords = (c: Cat): number => {
    let b = 0;
    for (const f of c.fields) if (f.typeByte === T_BOOL) b++;
    return ((b + 31) >>> 5) * records(c);
  };
  /** Tunes element counts until `current()` is `target`: candidates in order of the predicates, arrays before scalars. */
  const tune = (target: number, current: () => number, ...picks: ((f: Field) => boolean)[]): void => {
    const candidates: [Cat, Field][] = [];
    const isArray = (f: Field): boolean => f.base !== 1 || f.vary >= 0 || f.fixed;
    for (const pick of picks) {
      for (const c of drawOrder) for (const f of c.fields) if (pick(f) && isArray(f)) candidates.push([c, f]);
      for (const c of drawOrder) for (const f of c.fields) if (pick(f) && !isArray(f)) candidates.push([c, f]);
    }
    let diff = target - current();
    const passes = (): void => {
      for (let pass = 0; pass < 8 && diff !== 0; pass++) {
        for (const [c, f] of candidates) {
          if (diff === 0) break;
          const R = records(c);
          let step = Math.trunc(diff / R);
          step = Math.max(-f.base, Math.min(MAX_COUNT_STEP, step));
          if (step === 0) continue;
          f.base += step;
          diff -= step * R;
        }
      }
    };
    passes();
    // Too many cells left and only categories with more records than that: take one element too many from the
    // smallest of them, then add back with smaller ones.
    for (let round = 0; round < 4 && diff < 0; round++) {
      let best: [Cat, Field] | undefined;
      for (const cf of candidates) if (cf[1].base > 0 && (!best || records(cf[0]) < records(best[0]))) best = cf;
      if (!best) break;
      best[1].base--;
      diff += records(best[0]);
      passes();
    }
    if (diff !== 0) throw new Error(`generator: cannot tune to ${target} (off by ${diff})`);
  };
  const linkTotal = (): number => {
    let s = 0;
    for (const c of fieldCats) for (const f of c.fields) if (isLink(f.typeByte)) s += fieldCells(c, f);
    return s;
  };
  const cellTotal = (): number => {
    let s = 0;
    for (const c of fieldCats) {
      s += boolWords(c);
      for (const f of c.fields) if (f.typeByte !== T_BOOL) s += fieldCells(c, f);
    }
    return s;
  };
  // Arrays first (their counts already vary); scalars too when arrays cannot absorb the difference (a scalar
  // tuned to 0 becomes an empty array, one tuned above 1 an array).
  tune(fig.linkCells, linkTotal, (f) => isLink(f.typeByte) && !f.owner);
  tune(
    fig.cells,
    cellTotal,
    (f) => f.typeByte === T_INT || f.typeByte === T_FLOAT,
    (f) => f.typeByte === T_STRING || f.typeByte === T_ENUM || f.typeByte === T_PAIR || f.typeByte === T_VEC3 || f.typeByte === T_PATH,
  );

  phase('tune');
  // ---- 6. File order, runs and descriptors ------------------------------------------------------------------------
  const fileOrder = cats.slice().sort((a, b) => a.hash - b.hash);
  fileOrder.forEach((c, i) => (c.ordinal = i));
  interface Run {
    first: number;
    counts: Uint16Array;
    links: Uint16Array;
    cellCount: number;
  }
  const runsOf = new Map<Cat, Run[]>();
  let descriptorTotal = 0;
  let runTotal = 0;
  for (const c of fileOrder) if (c.fields.length > 0) descriptorTotal += c.fields.length * c.layouts;
  const desc = newGadbDescriptors(descriptorTotal);
  {
    let row = 0;
    for (const c of fileOrder) {
      if (c.fields.length === 0 || records(c) === 0) continue;
      const n = c.fields.length;
      const sorted = c.fields.map((_, j) => j).sort((a, b) => c.fields[a]!.hash - c.fields[b]!.hash);
      const list: Run[] = [];
      const slotFields: GadbSlotField[] = c.fields.map((f) => ({ hash: f.hash, typeByte: f.typeByte, count: f.base }));
      for (let id = 0; id < c.layouts; id++) {
        const counts = new Uint16Array(n);
        c.fields.forEach((f, j) => {
          const k = f.base + (f.vary >= 0 ? digit(id, c.radices, f.vary) : 0);
          if (k > 0xffff) throw new Error(`generator: element count ${k} too large`);
          counts[j] = k;
          slotFields[j]!.count = k;
        });
        const a = assignGadbSlots(slotFields);
        if (a.cellCount > 0xffff) throw new Error(`generator: record of ${a.cellCount} cells in ${c.name}`);
        const links = Uint16Array.from(a.links);
        const first = row;
        for (let j = 0; j < n; j++, row++) {
          const f = c.fields[j]!;
          desc.declaredHash[row] = f.hash;
          desc.sortedHash[row] = c.fields[sorted[j]!]!.hash;
          desc.schemaOrdinal[row] = f.ordinal;
          desc.sortedToDeclared[row] = sorted[j]!;
          desc.typeCode[row] = f.typeByte;
          desc.elementCount[row] = counts[j]!;
          desc.link[row] = links[j]!;
        }
        list.push({ first, counts, links, cellCount: a.cellCount });
        runTotal++;
      }
      runsOf.set(c, list);
    }
  }

  phase('runs');
  // ---- 7. Records and cells ---------------------------------------------------------------------------------------
  let recordTotal = 0;
  let cellTotalCount = 0;
  for (const c of fileOrder) {
    recordTotal += records(c);
    const runs = runsOf.get(c);
    if (runs) for (let id = 0; id < runs.length; id++) cellTotalCount += runs[id]!.cellCount * c.layoutRecords[id]!;
  }
  const rec = {
    count: recordTotal,
    nameKey: new Uint32Array(recordTotal),
    cellCount: new Uint16Array(recordTotal),
    descriptorCount: new Uint8Array(recordTotal),
    firstDescriptor: new Uint32Array(recordTotal),
    unk0A: new Uint8Array(recordTotal),
    flags: new Uint8Array(recordTotal).fill(0x08),
  };
  const cells = new Uint32Array(cellTotalCount);
  /** Per cell: which block pool its value indexes (0: the cell holds its final value). */
  const cellPool = new Uint8Array(cellTotalCount);

  // Text pool (names, strings, enums, paths) and binary pools, by id; keys are given when the block is laid out.
  const texts: string[] = [];
  const textId = new Map<string, number>();
  const intern = (s: string): number => {
    let id = textId.get(s);
    if (id === undefined) {
      id = texts.length;
      texts.push(s);
      textId.set(s, id);
    }
    return id;
  };
  const emptyText = intern('');

  // Cells per value type, from the runs (for the schedules).
  const cellsByType = new Map<number, number>();
  for (const c of fileOrder) {
    const runs = runsOf.get(c);
    if (!runs) continue;
    runs.forEach((run, id) => {
      const m = c.layoutRecords[id]!;
      c.fields.forEach((f, j) => {
        if (f.typeByte === T_BOOL) return;
        cellsByType.set(f.typeByte, (cellsByType.get(f.typeByte) ?? 0) + run.counts[j]! * m);
      });
    });
  }
  const nOf = (t: number): number => cellsByType.get(t) ?? 0;

  // Schedules: exact sharing counts, shuffled over the cells of a type.
  const schedule = (total: number, fixedCounts: number[], distinct: number): Uint32Array => {
    const out = new Uint32Array(total);
    let k = 0;
    fixedCounts.forEach((m, id) => {
      for (let i = 0; i < m && k < total; i++) out[k++] = id;
    });
    const firstFree = fixedCounts.length;
    const free = Math.max(0, Math.min(distinct - firstFree, total - k));
    for (let id = 0; id < free; id++) out[k++] = firstFree + id;
    while (k < total) out[k++] = free > 0 ? firstFree + rngValues.skewed(free, 3) : 0;
    return rngValues.shuffle(out);
  };
  const shareScale = (n: number, full: number): number => (n >= full ? 1 : n / full);
  // Float pairs.
  const pairTotal = nOf(T_PAIR);
  const pairFixed = SHARED_FLOAT_PAIRS.map(([, , m]) => Math.floor(m * shareScale(pairTotal, GAME_DB_FIGURES.floatPairCells)));
  const pairSchedule = schedule(pairTotal, pairFixed, fig.distinctFloatPairs);
  const pairValue = (id: number): [number, number] => {
    const top = SHARED_FLOAT_PAIRS[id];
    if (top) return [top[0], top[1]];
    const x = id - SHARED_FLOAT_PAIRS.length;
    const lo = (x % 97) * 0.25;
    return [Math.fround(lo), Math.fround(lo + 1 + Math.floor(x / 97) * 5)];
  };
  // Vectors.
  const vecTotal = nOf(T_VEC3);
  const vecSchedule = schedule(vecTotal, [Math.floor(ZERO_VECTOR_CELLS * shareScale(vecTotal, GAME_DB_FIGURES.vector3Cells))], fig.distinctVectors);
  const vecValue = (id: number): [number, number, number] => (id === 0 ? [0, 0, 0] : [Math.fround((id % 7) - 3), Math.fround(Math.floor(id / 7) % 11), Math.fround(id * 0.5)]);
  // Strings: a share of "", every deferred text used at least once.
  const stringTotal = nOf(T_STRING);
  const stringEmpty = Math.floor(stringTotal * 0.18);
  // Resource paths: the seed's empty share and extension mix, exact at scale 1.
  const pathTotal = nOf(T_PATH);
  const pathScale = pathTotal / GAME_DB_FIGURES.resourcePathCells;
  const pathEmpty = Math.min(pathTotal, Math.round(GAME_DB_FIGURES.emptyResourcePaths * pathScale));
  const pathFileCells = RESOURCE_PATH_EXTENSIONS.map(([, m]) => Math.round(m * pathScale));
  const pathOtherFiles = Math.round((RESOURCE_PATH_FILES - RESOURCE_PATH_EXTENSIONS.reduce((s, [, m]) => s + m, 0)) * pathScale);
  const pathCells: number[] = [pathEmpty, ...pathFileCells, pathOtherFiles];
  const pathFolderCells = Math.max(0, pathTotal - pathCells.reduce((s, m) => s + m, 0));
  pathCells.push(pathFolderCells);
  // Each path class gets distinct paths used ~2.5 times each.
  const pathExt = [undefined, ...RESOURCE_PATH_EXTENSIONS.map(([e]) => e), 'wav', undefined];
  const pathSchedule = new Uint32Array(pathTotal);
  {
    let k = 0;
    let serial = 0;
    pathCells.forEach((m, cls) => {
      const n = Math.min(m, pathTotal - k);
      if (cls === 0) {
        for (let i = 0; i < n; i++) pathSchedule[k++] = emptyText;
        return;
      }
      const distinct = Math.max(1, Math.round(n / 2.5));
      const ids: number[] = [];
      for (let i = 0; i < Math.min(distinct, n); i++) ids.push(intern(resourcePath(rngText, pathExt[cls], serial++)));
      for (let i = 0; i < n; i++) pathSchedule[k++] = i < ids.length ? ids[i]! : ids[rngValues.skewed(ids.length, 2)]!;
    });
    while (k < pathTotal) pathSchedule[k++] = emptyText;
    rngValues.shuffle(pathSchedule);
  }
  // Names enter the text pool in the order of the file (not required: the writer lays the block out again).
  const catNameId = fileOrder.map((c) => intern(c.name));
  const catTypeId = fileOrder.map((c) => intern(c.typeName));
  const recordNameIds: number[][] = fileOrder.map((c) => c.names.map(intern));
  // Deferred texts: their count now, their content once the byte budget is known.
  const fixedBytes = (headerStringLength: number): number =>
    0x2c + 2 + headerStringLength + desc.count * 15 + 8 + C * 24 + fig.primaries * 8 + fig.secondaries * 12 + cellTotalCount * 4 + 4;
  const deferredCount = Math.min(stringTotal - stringEmpty, Math.max(1, Math.round((stringTotal - stringEmpty) * 0.3)));
  const stringSchedule = schedule(stringTotal, [stringEmpty], deferredCount + 1);
  // Small binary pools.
  const int64Values = [0n, 1n, -1n, 0x1_0000_0000n, 0x7fff_ffff_ffff_ffffn, 76561197960265728n, 1234567890123n, 0xdead_beef_cafen];
  const type9Values = [Uint32Array.of(0, 0, 0, 0x3f800000), Uint32Array.of(0x3f800000, 0, 0, 0), Uint32Array.of(0x3f000000, 0x3f000000, 0, 0x3f800000)];
  const curveValue = (type: number, id: number): Uint32Array => {
    const keySize = type === 14 ? 12 : type === 16 ? 16 : 8;
    const n = 1 + (id % 4);
    const out = new Uint32Array(1 + (n * keySize) / 4);
    out[0] = n;
    for (let k = 0; k < n; k++) {
      const at = 1 + (k * keySize) / 4;
      out[at] = gadbFloatToCell(n === 1 ? 0 : k / (n - 1));
      for (let w = 1; w < keySize / 4; w++) out[at + w] = type === 12 ? (0xff000000 | (id * 0x10203)) >>> 0 : type === 15 ? k * 10 + id : type === 14 ? (w === 1 ? 12 : 0) : gadbFloatToCell(id + k * 0.5 + w);
    }
    return out;
  };
  const binaryIds = new Map<string, number>();
  const binaries: { kind: number; words: Uint32Array }[] = [];
  const binary = (kind: number, words: Uint32Array): number => {
    const key = `${kind}:${words.join(',')}`;
    let id = binaryIds.get(key);
    if (id === undefined) {
      id = binaries.length;
      binaries.push({ kind, words });
      binaryIds.set(key, id);
    }
    return id;
  };
  const pairIds = new Map<number, number>();
  const vecIds = new Map<number, number>();

  /** Per enum set, the text id of each value once used. */
  const enumTextIds: Int32Array[] = [];
  // Links: each primary is the target of exactly one owner cell; other nulls spread evenly.
  let ownerCells = 0;
  let ownerPrimaries = 0;
  for (const [o, list] of ownedBy) for (const { structure, count } of list) (ownerCells += count * records(o)), (ownerPrimaries += structure.primaries);
  const otherLinkCells = fig.linkCells - ownerCells;
  let otherNullsLeft = Math.max(0, Math.min(otherLinkCells, fig.nullLinks - (ownerCells - ownerPrimaries)));
  let otherCellsLeft = otherLinkCells;
  const ownerState = new Map<Cat, { cellsLeft: number; needLeft: number; next: number }>();
  for (const [o, list] of ownedBy) for (const { structure, count } of list) ownerState.set(structure, { cellsLeft: count * records(o), needLeft: structure.primaries, next: 0 });

  // Value generators.
  const floatValue = (): number => {
    const r = rngValues.float();
    if (r < 0.3) return 0;
    if (r < 0.45) return 1;
    if (r < 0.55) return 0.5;
    if (r < 0.75) return Math.round(rngValues.float() * 100) / 20;
    return Math.round(rngValues.float() * 100000) / 100;
  };
  const intValue = (): number => {
    const r = rngValues.float();
    if (r < 0.35) return 0;
    if (r < 0.5) return 1;
    if (r < 0.55) return -1;
    if (r < 0.85) return rngValues.int(100);
    if (r < 0.9) return (0xff000000 | rngValues.u32()) >>> 0;
    return rngValues.int(100000);
  };

  let pairK = 0,
    vecK = 0,
    strK = 0,
    pathK = 0;
  let nulls = 0,
    toPrimaries = 0,
    toSecondaries = 0,
    boolBitsTotal = 0,
    boolWordTotal = 0;
  {
    let r = 0;
    let cellStart = 0;
    for (let ci = 0; ci < fileOrder.length; ci++) {
      const c = fileOrder[ci]!;
      const runs = runsOf.get(c);
      const R = records(c);
      for (let i = 0; i < R; i++, r++) {
        rec.nameKey[r] = i < c.primaries ? 0 : recordNameIds[ci]![i - c.primaries]!;
        if (!runs) {
          // Zero-field record: no descriptor, no cell, points at descriptor 0 (H-ZERO-FIELD).
          continue;
        }
        const id = c.recordLayout ? c.recordLayout[i]! : 0;
        const run = runs[id]!;
        rec.cellCount[r] = run.cellCount;
        rec.descriptorCount[r] = c.fields.length;
        rec.firstDescriptor[r] = run.first;
        let boolsHere = 0;
        for (let j = 0; j < c.fields.length; j++) {
          const f = c.fields[j]!;
          const t = f.typeByte;
          const link = run.links[j]!;
          const count = run.counts[j]!;
          if (t === T_BOOL) {
            boolsHere++;
            if (rngValues.chance(0.3)) cells[cellStart + (link >>> 5)]! |= 1 << (link & 31);
            continue;
          }
          for (let e = 0; e < count; e++) {
            const at = cellStart + link + e;
            let v = 0;
            switch (t) {
              case T_FLOAT:
                v = gadbFloatToCell(floatValue());
                break;
              case T_INT:
                v = intValue() >>> 0;
                break;
              case T_STRING: {
                const s = stringSchedule[strK++]!;
                v = s === 0 ? emptyText : -s; // deferred texts are negative until laid out
                cellPool[at] = K_TEXT;
                break;
              }
              case T_PATH:
                v = pathSchedule[pathK++]!;
                cellPool[at] = K_TEXT;
                break;
              case T_ENUM: {
                const set = enumSets[f.enumSet]!;
                const k = rngValues.skewed(set.length, 2);
                const ids = (enumTextIds[f.enumSet] ??= new Int32Array(set.length).fill(-1));
                v = ids[k]! >= 0 ? ids[k]! : (ids[k] = intern(set[k]!));
                cellPool[at] = K_TEXT;
                break;
              }
              case T_INT64:
                v = binary(K_INT64, (() => {
                  const x = BigInt.asUintN(64, int64Values[rngValues.int(int64Values.length)]!);
                  return Uint32Array.of(Number(x & 0xffffffffn), Number(x >> 32n));
                })());
                cellPool[at] = K_INT64;
                break;
              case T_PAIR: {
                const pid = pairSchedule[pairK++]!;
                let b = pairIds.get(pid);
                if (b === undefined) {
                  const [x, y] = pairValue(pid);
                  pairIds.set(pid, (b = binary(K_PAIR, Uint32Array.of(gadbFloatToCell(x), gadbFloatToCell(y)))));
                }
                v = b;
                cellPool[at] = K_PAIR;
                break;
              }
              case T_VEC3: {
                const vid = vecSchedule[vecK++]!;
                let b = vecIds.get(vid);
                if (b === undefined) {
                  const [x, y, z] = vecValue(vid);
                  vecIds.set(vid, (b = binary(K_VEC3, Uint32Array.of(gadbFloatToCell(x), gadbFloatToCell(y), gadbFloatToCell(z)))));
                }
                v = b;
                cellPool[at] = K_VEC3;
                break;
              }
              case T_TYPE9:
                v = binary(K_TYPE9, type9Values[rngValues.int(type9Values.length)]!);
                cellPool[at] = K_TYPE9;
                break;
              case T_LINK:
              case T_LINK11: {
                const target = cats[f.target]!;
                if (f.owner) {
                  const st = ownerState.get(target)!;
                  const use = st.needLeft > 0 && rngValues.float() * st.cellsLeft < st.needLeft;
                  st.cellsLeft--;
                  if (use) {
                    st.needLeft--;
                    v = encodeGadbLink(target.ordinal, st.next++);
                    toPrimaries++;
                  } else {
                    v = GADB_NULL_LINK;
                    nulls++;
                  }
                } else {
                  const isNull = rngValues.float() * otherCellsLeft < otherNullsLeft;
                  otherCellsLeft--;
                  if (isNull) {
                    otherNullsLeft--;
                    v = GADB_NULL_LINK;
                    nulls++;
                  } else {
                    v = encodeGadbLink(target.ordinal, target.primaries + rngValues.skewed(target.secondaries, 2));
                    toSecondaries++;
                  }
                }
                break;
              }
              default: {
                // Curves (12..16).
                v = binary(KIND_OF_TYPE[t]!, curveValue(t, rngValues.int(6)));
                cellPool[at] = KIND_OF_TYPE[t]!;
              }
            }
            cells[at] = v >>> 0;
          }
        }
        boolBitsTotal += boolsHere;
        boolWordTotal += (boolsHere + 31) >>> 5;
        cellStart += run.cellCount;
      }
    }
  }

  phase('cells');
  // ---- 8. String block: deferred texts sized to the remaining bytes, then every item laid out ---------------------
  const padded = (len: number): number => (len + 1 + 3) & ~3;
  const rootName = 'GameDatabase';
  let blockBytes = padded(rootName.length);
  for (const s of texts) blockBytes += padded(s.length);
  for (const b of binaries) blockBytes += b.words.length * 4;
  let headerStringLength = 0;
  let deferredSizes: number[];
  let exact = false;
  {
    const target = fig.fileSize;
    const fixedNoString = fixedBytes(0);
    const rem = (((target - fixedNoString - blockBytes) % 4) + 4) % 4;
    const hs = 8 + rem;
    const budget = target - fixedBytes(hs) - blockBytes;
    if (exactSize && budget >= deferredCount * 12 && budget <= deferredCount * 400 && budget % 4 === 0) {
      headerStringLength = hs;
      deferredSizes = apportion(budget / 4, lognormalWeights(rngText, deferredCount, 0.6), 3, 100).map((x) => x * 4);
      exact = true;
    } else {
      deferredSizes = Array.from({ length: deferredCount }, () => padded(14 + rngText.int(40)));
    }
  }
  const deferredIds = new Int32Array(deferredCount + 1);
  for (let d = 1; d <= deferredCount; d++) {
    const size = deferredSizes[d - 1]!;
    const len = Math.max(8, size - 1 - rngText.int(4));
    // Unique by construction: `LOC_` and a lower-case base-36 serial, which no name, enum or path has.
    deferredIds[d] = texts.length;
    texts.push(textValue(rngText, d, len));
  }
  let blockSize = padded(rootName.length);
  for (const s of texts) blockSize += padded(s.length);
  for (const b of binaries) blockSize += b.words.length * 4;
  const itemCount = 1 + texts.length + binaries.length;
  const data = new Uint8Array(blockSize);
  const itemKeys = new Uint32Array(itemCount);
  const itemSizes = new Uint32Array(itemCount);
  const textKey = new Uint32Array(texts.length);
  const binaryKey = new Uint32Array(binaries.length);
  {
    let at = 0;
    let item = 0;
    const putText = (s: string): number => {
      const key = at;
      for (let i = 0; i < s.length; i++) data[at + i] = s.charCodeAt(i) & 0xff;
      itemKeys[item] = key;
      itemSizes[item++] = padded(s.length);
      at += padded(s.length);
      return key;
    };
    putText(rootName);
    texts.forEach((s, i) => (textKey[i] = putText(s)));
    const dv = new DataView(data.buffer);
    binaries.forEach((b, i) => {
      binaryKey[i] = at;
      itemKeys[item] = at;
      itemSizes[item++] = b.words.length * 4;
      for (let w = 0; w < b.words.length; w++) dv.setUint32(at + w * 4, b.words[w]!, true);
      at += b.words.length * 4;
    });
  }
  for (let k = 0; k < cells.length; k++) {
    const pool = cellPool[k]!;
    if (pool === 0) continue;
    if (pool === K_TEXT) {
      const v = cells[k]! | 0;
      cells[k] = v < 0 ? textKey[deferredIds[-v]!]! : textKey[v]!;
    } else cells[k] = binaryKey[cells[k]!]!;
  }
  // Text id 0 is the empty text, which no name uses: a 0 here marks a primary, which has no name (H-PRIM-HDR).
  for (let r = 0; r < rec.count; r++) if (rec.nameKey[r] !== 0) rec.nameKey[r] = textKey[rec.nameKey[r]!]!;

  phase('block');
  const categories: GadbCategory[] = fileOrder.map((c, i) => ({
    nameKey: textKey[catNameId[i]!]!,
    typeNameKey: textKey[catTypeId[i]!]!,
    unk08Key: textKey[emptyText]!,
    primaryCount: c.primaries,
    secondaryCount: c.secondaries,
    sortKey: c.hash,
  }));
  const headerString = new Uint8Array(headerStringLength);
  {
    const tag = `scry-gen:${options.seed}:${scale}`.padEnd(headerStringLength, '_').slice(0, headerStringLength);
    for (let i = 0; i < headerStringLength; i++) headerString[i] = tag.charCodeAt(i);
  }
  const unk20 = root.u32();
  const gadb: Gadb = {
    container: { kind: 'bare' },
    header: {
      version: 17,
      stringBlockSize: blockSize,
      categoryCount: C,
      recordCount: fig.secondaries,
      unk14: fig.primaries,
      cellCount: cells.length,
      descriptorCount: desc.count,
      unk20,
      unk24: 0,
      headerSize: 0x2c,
      headerStringLength,
    },
    headerExtra: new Uint8Array(0),
    headerString,
    strings: { data, itemKeys, itemSizes },
    descriptors: desc,
    valueSectionUnk00: 0,
    categories,
    records: rec,
    cells,
    pairs: new Uint32Array(0),
  };

  const fileSize = fixedBytes(headerStringLength) + blockSize;
  const typeCounts: Record<string, number> = {};
  for (const [t, n] of [...cellsByType].sort((a, b) => a[0] - b[0])) typeCounts[`0x${t.toString(16).padStart(2, '0')}`] = n;
  let multiLayout = 0;
  let largest = 0;
  for (const c of fieldCats) {
    if (c.layouts > 1) multiLayout++;
    largest = Math.max(largest, c.layouts);
  }
  let fieldPairs = 0;
  for (const c of fieldCats) fieldPairs += c.fields.length;
  let pairShared = 0;
  for (let i = 0; i < pairSchedule.length; i++) if (pairSchedule[i] === 0) pairShared++;
  let zeroVec = 0;
  for (let i = 0; i < vecSchedule.length; i++) if (vecSchedule[i] === 0) zeroVec++;
  const stats: GenStats = {
    categories: C,
    structureCategories: S,
    primaries: fig.primaries,
    secondaries: fig.secondaries,
    placeholders: cats.filter((c) => c.placeholder).length,
    zeroFieldRecords: zeroCats.reduce((s, c) => s + c.secondaries, 0),
    emptyCategories: cats.filter((c) => records(c) === 0).length,
    descriptors: desc.count,
    runs: runTotal,
    fieldPairs,
    multiLayoutCategories: multiLayout,
    largestLayoutCount: largest,
    cells: cells.length,
    boolWordCells: boolWordTotal,
    boolBits: boolBitsTotal,
    cellsByType: typeCounts,
    linkCells: nOf(T_LINK) + nOf(T_LINK11),
    nullLinks: nulls,
    linksToPrimaries: toPrimaries,
    linksToSecondaries: toSecondaries,
    stringItems: itemCount,
    stringBlockSize: blockSize,
    fileSize,
    exactSize: exact && fileSize === fig.fileSize,
    distinctRecordNames: distinctNames,
    sharedFloatPairCells: pairShared,
    zeroVectorCells: zeroVec,
  };
  return { gadb, figures: fig, stats, fieldNames: [...usedFieldNames].sort(), phaseMs };
}
