/**
 * `verifyGadb`: every invariant of the spec and the seed note, as findings (`Issue`) with the byte offset (when
 * verifying bytes), the model path and the hypothesis concerned. Severity: `error` = a verified rule is broken
 * (the engine or the writer would disagree with the file); `warning` = an inferred rule (hypothesis) is broken or
 * something is suspicious; `info` = what the file says about an open question.
 *
 * Rules (ids are stable):
 * - header.*: counts and sizes agree with the content; H-HDR-10/14/24 observations.
 * - categories.sorted, categories.sortKey: strictly ascending keys, key = P919(name).
 * - records.sorted: secondaries strictly ascending by P919(name) within a category.
 * - records.run, runs.sorted, runs.permutation, runs.ordinal, runs.shape, descriptors.unused, descriptors.type.
 * - slots.rule, slots.cellCount, slots.range: the slot rule and bool packing.
 * - links.range, links.side: links resolve; primary/secondary side (H-PRIM-FIRST, H-LINK-SIDE).
 * - strings.*: tiling, padding, kinds, one item per value (per kind), first-use order, references.
 * - cells.blockReference: block-type cells that are not item keys.
 *
 * Bytes are first given to the bytes verifier (`verify-bytes.ts`), which checks all of this while it reads the file
 * and returns the report of a file with nothing to name; only another file is parsed and verified here as a model.
 * Cost of the model verifier: after the parse, one pass over the records (names, runs and slots, block and link
 * cells, through spans computed once per distinct run), one over the string block's items and the first-use walk;
 * no object per record, cell or item. Findings are listed in the order of the rules above.
 */
import type { Issue } from '../../binary/errors.ts';
import { DEFAULT_P919_TABLE } from '../../hash/p919.ts';
import { parseGadbOnHost, GADB_PRIMARY_HEADER_SIZE, GADB_SECONDARY_HEADER_SIZE, GADB_DESCRIPTOR_SIZE, HOST_LITTLE_ENDIAN } from './parse.ts';
import { GadbFirstUseCheck, GadbRunSpans, gadbCellTotal, gadbTiledBlockSize, gadbItemIndex, gadbRecordCellStarts, planGadbStringBlockWithItems, type GadbItemIndex } from './layout.ts';
import { validateGadbWithItems, IssueList } from './validate.ts';
import { assignGadbRunSlots, assignGadbSortedRunSlots, type GadbFlaggedOrder } from './slots.ts';
import { GADB_ITEM_KIND_BY_TYPE_BYTE, GADB_TYPE_MASK, GadbStorageCode, gadbTypeInfo, isGadbResourcePath } from './type-codes.ts';
import { GadbItemKind, type Gadb, type GadbLayout } from './types.ts';
import { hex32, latin1Decode } from '../../binary/text.ts';
import { FLAG_NATIVE_STRUCTURE, HASHABLE, TYPE_OF_KIND, fieldEnd, gadbItemsClean, gadbRunShape, verifyGadbBytesClean, type GadbCleanFile, type GadbRunOrder } from './verify-bytes.ts';

/** Options of `verifyGadb`. */
export interface VerifyGadbOptions {
  /** Where the parts lay in the file, for offsets (given automatically when verifying bytes). */
  layout?: GadbLayout;
}

type RunOrder = GadbRunOrder;

/** What `checkRun` found for a run, the highest cell its fields need (`maxEnd`) and where its block and link spans lie. */
interface CheckedRun {
  /** The run's descriptor count. */
  n: number;
  cellCount: number;
  ok: boolean;
  order?: RunOrder;
  maxEnd: number;
  /** Runs declaring the same fields in the same order share a shape id (H-RUN-SHAPE). */
  shape: number;
  /** Span words `[blockFrom, blockTo)` of the block-field spans, `[linkFrom, linkTo)` of the link-field spans. */
  blockFrom: number;
  blockTo: number;
  linkFrom: number;
  linkTo: number;
}

const KIND_NAMES: Record<number, string> = Object.fromEntries(Object.entries(GadbItemKind).map(([k, v]) => [v, k]));
/**
 * Verifies a file or a model. A file is first checked while its bytes are read (`verifyGadbBytesClean`, no model
 * built); only a file with a finding to name is parsed and verified as a model (a parse failure throws its
 * `FormatError`), so both give the same findings.
 */
export function verifyGadb(input: Uint8Array | Gadb, options: VerifyGadbOptions = {}): Issue[] {
  if (input instanceof Uint8Array && !options.layout) {
    const clean = verifyGadbBytesClean(input);
    if (clean) return cleanFileFindings(clean);
  }
  return verifyGadbThroughModel(input, options);
}

/**
 * @internal `verifyGadb` without the bytes verifier: bytes are parsed and verified as a model (the reference the
 * bytes verifier is held to).
 */
export function verifyGadbThroughModel(input: Uint8Array | Gadb, options: VerifyGadbOptions = {}): Issue[] {
  let g: Gadb;
  let layout = options.layout;
  if (input instanceof Uint8Array) {
    // The record offsets follow from the cells' places in the value section (see `Verifier.cellOffset`).
    const parsed = parseGadbOnHost(input, {}, HOST_LITTLE_ENDIAN, false);
    g = parsed.gadb;
    layout = parsed.layout;
  } else {
    g = input;
  }
  const out = new IssueList();
  const items = gadbItemIndex(g);
  const structural = validateGadbWithItems(g, items);
  for (const i of structural) out.add(i);
  if (structural.some((i) => i.severity === 'error')) return out.finish();

  const v = new Verifier(g, layout, items);
  v.header();
  v.records();
  v.strings();
  return [...out.finish(), ...v.finish()];
}

/** The findings of a file with nothing to report beyond the observations of a clean file. */
function cleanFileFindings(f: GadbCleanFile): Issue[] {
  const out: Issue[] = [];
  const facts: HeaderFacts = { ...f, valueSectionUnk00: 0 };
  headerFindings(facts, f.header.categoryCount, f.header.cellCount, f.header.descriptorCount, (severity, rule, path, message, offset, hypothesis) => {
    const issue: Issue = { rule, message, path, severity };
    if (offset !== undefined) issue.offset = offset;
    if (hypothesis) issue.hypothesis = hypothesis;
    out.push(issue);
  });
  const flagged = flaggedOrderFinding(f.flaggedOrders);
  if (flagged) out.push(flagged);
  return out;
}

/** What the header rules read (offsets undefined when verifying a model without a layout). */
interface HeaderFacts {
  header: Gadb['header'];
  primaries: number;
  secondaries: number;
  pairCount: number;
  headerExtraLength: number;
  headerStringLength: number;
  valueSectionUnk00: number;
  gadbOffset: number | undefined;
  valueSectionOffset: number | undefined;
  trailerOffset: number | undefined;
}

type AddFinding = (severity: Issue['severity'], rule: string, path: string, message: string, offset?: number, hypothesis?: string) => void;

/** The header rules: counts that agree with the content (`categories`, `cells`, `descriptors`), the H-HDR-* observations. */
function headerFindings(f: HeaderFacts, categories: number, cells: number, descriptors: number, add: AddFinding): void {
  const h = f.header;
  const { primaries, secondaries, pairCount } = f;
  const at = (rel: number): number | undefined => (f.gadbOffset === undefined ? undefined : f.gadbOffset + rel);
  if (h.categoryCount !== categories) add('error', 'header.categoryCount', '/header/categoryCount', `header says ${h.categoryCount} categories, the value section has ${categories}`, at(0x0c));
  if (h.cellCount !== cells) add('error', 'header.cellCount', '/header/cellCount', `header says ${h.cellCount} cells, the records own ${cells}`, at(0x18));
  if (h.descriptorCount !== descriptors) add('error', 'header.descriptorCount', '/header/descriptorCount', `header says ${h.descriptorCount} descriptors, the model has ${descriptors}`, at(0x1c));
  if (h.recordCount !== secondaries) {
    if (h.recordCount === secondaries + primaries) add('warning', 'header.recordCount', '/header/recordCount', `header record count ${h.recordCount} counts primaries too (${secondaries} secondaries + ${primaries} primaries)`, at(0x10), 'H-HDR-10');
    else add('error', 'header.recordCount', '/header/recordCount', `header says ${h.recordCount} records; the file has ${secondaries} secondaries and ${primaries} primaries`, at(0x10), 'H-HDR-10');
  }
  if (primaries > 0 || h.unk14 !== 0) {
    add('info', 'header.unk14', '/header/unk14', `+0x14 is ${h.unk14}; the primary total is ${primaries} (${h.unk14 === primaries ? 'equal' : 'different'})`, at(0x14), 'H-HDR-14');
  }
  if (pairCount > 0 || h.unk24 !== 0) {
    add('info', 'header.unk24', '/header/unk24', `+0x24 is ${h.unk24}; the pair table holds ${pairCount} pair(s) (${h.unk24 === pairCount ? 'equal' : 'different'})`, at(0x24), 'H-HDR-24');
  }
  if (pairCount > 0) add('info', 'trailer.pairs', '/pairs', `the trailer holds ${pairCount} pair(s) of unknown meaning`, f.trailerOffset, 'H-PAIRS');
  if (f.headerExtraLength > 0) add('info', 'header.extra', '/headerExtra', `header size 0x${(0x2c + f.headerExtraLength).toString(16)}: ${f.headerExtraLength} extra header byte(s) kept verbatim`, at(0x2c), 'H-HDR-28');
  if (f.headerStringLength > 0) add('info', 'header.string', '/headerString', `inline header string of ${f.headerStringLength} byte(s) before the string block`, at(h.headerSize), 'H-HDR-2C');
  if (f.valueSectionUnk00 !== 0) add('warning', 'values.unk00', '/valueSectionUnk00', `the value section starts with ${f.valueSectionUnk00}, not 0`, f.valueSectionOffset, 'H-VAL-00');
}

/** The H-SLOT-FLAGGED tally: how many distinct runs with flagged type codes fit each order. */
function flaggedOrderFinding(orders: Map<RunOrder, number>): Issue | undefined {
  if (orders.size === 0) return undefined;
  const parts = [...orders].map(([order, count]) => `${count} run(s) "${order}"`);
  return { rule: 'slots.flaggedOrder', message: `runs with flagged type codes fit the slot order: ${parts.join(', ')} (full = by the whole type byte, base = by its low 6 bits, either = both give the same links)`, path: '/descriptors', severity: 'info', hypothesis: 'H-SLOT-FLAGGED' };
}

/** Findings of one group of rules (listed in this order). */
const PHASES = ['header', 'categories', 'runs', 'links', 'strings', 'cells'] as const;
type Phase = (typeof PHASES)[number];

class Verifier {
  readonly g: Gadb;
  readonly layout: GadbLayout | undefined;
  readonly map: GadbItemIndex;
  /** Per item: the kind of the references to it (`GadbItemKind`; Mixed when two kinds). */
  readonly kinds: Uint8Array;
  readonly starts: Uint32Array;
  /** Global index of each category's first record; length categories + 1. */
  readonly categoryFirstRecord: Uint32Array;
  private linkScratch = new Int32Array(64);
  private readonly lists = new Map<Phase, IssueList>(PHASES.map((p) => [p, new IssueList()]));
  private phase: Phase = 'header';
  /** Set by `records`: the first-use rule, walked beside the cell checks, keeps every item at its key. */
  private firstUseKeepsKeys = false;

  constructor(g: Gadb, layout: GadbLayout | undefined, items: GadbItemIndex) {
    this.g = g;
    this.layout = layout;
    this.map = items;
    this.kinds = new Uint8Array(g.strings.itemKeys.length);
    this.starts = gadbRecordCellStarts(g);
    const { categories } = g;
    this.categoryFirstRecord = new Uint32Array(categories.length + 1);
    for (let c = 0; c < categories.length; c++) this.categoryFirstRecord[c + 1] = this.categoryFirstRecord[c]! + categories[c]!.primaryCount + categories[c]!.secondaryCount;
  }

  add(severity: Issue['severity'], rule: string, path: string, message: string, offset?: number, hypothesis?: string): void {
    const issue: Issue = { rule, message, path, severity };
    if (offset !== undefined) issue.offset = offset;
    if (hypothesis) issue.hypothesis = hypothesis;
    this.lists.get(this.phase)!.add(issue);
  }

  finish(): Issue[] {
    return PHASES.flatMap((p) => this.lists.get(p)!.finish());
  }

  private gadbOffset(rel: number): number | undefined {
    return this.layout ? this.layout.gadbOffset + rel : undefined;
  }
  private categoryOffset(c: number, field = 0): number | undefined {
    return this.layout ? this.layout.categoryOffsets[c]! + field : undefined;
  }
  /** Whether record `r` is a primary (its category's first `primaryCount` records). */
  private isPrimary(r: number): boolean {
    const f = this.categoryFirstRecord;
    let lo = 0;
    let hi = f.length - 2;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (f[mid]! <= r) lo = mid;
      else hi = mid - 1;
    }
    return r - f[lo]! < this.g.categories[lo]!.primaryCount;
  }
  private recordOffset(r: number, field = 0): number | undefined {
    if (!this.layout) return undefined;
    if (r < this.layout.recordOffsets.length) return this.layout.recordOffsets[r]! + field;
    const cell = this.cellOffset(r, 0);
    return cell === undefined ? undefined : cell - (this.isPrimary(r) ? GADB_PRIMARY_HEADER_SIZE : GADB_SECONDARY_HEADER_SIZE) + field;
  }
  private descriptorOffset(i: number, field = 0): number | undefined {
    return this.layout ? this.layout.descriptorsOffset + i * GADB_DESCRIPTOR_SIZE + field : undefined;
  }
  private itemOffset(key: number): number | undefined {
    return this.layout ? this.layout.stringBlockOffset + key : undefined;
  }
  /**
   * File offset of cell `k` of record `r`: from the layout's record offsets when it has them, else (a model parsed
   * here, whose pool is the value section's words) from the cell's place in the pool.
   */
  private cellOffset(r: number, k: number): number | undefined {
    const layout = this.layout;
    if (!layout) return undefined;
    if (r < layout.recordOffsets.length) return layout.recordOffsets[r]! + (this.isPrimary(r) ? GADB_PRIMARY_HEADER_SIZE : GADB_SECONDARY_HEADER_SIZE) + k * 4;
    return this.g.records.cellStart ? layout.valueSectionOffset + (this.starts[r]! + k) * 4 : undefined;
  }

  /** End (exclusive) of the NUL-terminated text of the item at `key`, or -1 when `key` is no item or it has no NUL inside. */
  private nameEnd(key: number): number {
    const i = this.map.of(key);
    if (i < 0) return -1;
    const data = this.g.strings.data;
    const end = data.indexOf(0, key);
    return end >= 0 && end < key + this.g.strings.itemSizes[i]! ? end : -1;
  }
  private nameText(key: number): string {
    const end = this.nameEnd(key);
    return end >= 0 ? latin1Decode(this.g.strings.data.subarray(key, Math.min(end, key + 200))) : `@0x${key.toString(16)}`;
  }
  /** P919 of the text `[key, end)` of the block, or -1 when a byte has no usable table value. */
  private hashText(key: number, end: number): number {
    const data = this.g.strings.data;
    const values = DEFAULT_P919_TABLE.values;
    let h = 0;
    for (let p = key; p < end; p++) {
      const c = data[p]!;
      if (HASHABLE[c] === 0) return -1;
      h = (Math.imul(h, 919) + values[c]!) | 0;
    }
    return h >>> 0;
  }
  /** Marks item `key` as referenced by a value of `kind`. */
  private mark(key: number, kind: number): void {
    const i = this.map.of(key);
    if (i < 0) return;
    const was = this.kinds[i]!;
    if (was === GadbItemKind.Unreferenced) this.kinds[i] = kind;
    else if (was !== kind) this.kinds[i] = GadbItemKind.Mixed;
  }

  header(): void {
    const { g } = this;
    let primaries = 0;
    let secondaries = 0;
    for (const c of g.categories) {
      primaries += c.primaryCount;
      secondaries += c.secondaryCount;
    }
    const facts: HeaderFacts = {
      header: g.header,
      primaries,
      secondaries,
      pairCount: g.pairs.length >>> 1,
      headerExtraLength: g.headerExtra.byteLength,
      headerStringLength: g.headerString.byteLength,
      valueSectionUnk00: g.valueSectionUnk00,
      gadbOffset: this.layout?.gadbOffset,
      valueSectionOffset: this.layout?.valueSectionOffset,
      trailerOffset: this.layout?.trailerOffset,
    };
    headerFindings(facts, g.categories.length, gadbCellTotal(g), g.descriptors.count, (severity, rule, path, message, offset, hypothesis) => this.add(severity, rule, path, message, offset, hypothesis));
  }

  /** Selects the group the next findings belong to. */
  private at(phase: Phase): this {
    this.phase = phase;
    return this;
  }

  /**
   * The one pass over the records, category by category: category keys and names, secondaries' name order, each
   * record's run and slots (checked once per distinct run), the run shape, block cells (kinds, references) and link
   * cells (range, side), through spans computed once per run. The per-record work lives in small functions over
   * typed arrays (`recordRuns`, `blockCells`, `linkCells`, `nameHashes`); findings are added out of line.
   */
  records(): void {
    const { g } = this;
    const { records, descriptors: d, categories } = g;
    const data = g.strings.data;
    const nc = categories.length;
    // Link targets: records and primaries per category, and which are _Structures* (H-LINK-SIDE).
    const catTotal = new Uint32Array(nc);
    const catPrimary = new Uint32Array(nc);
    const structures = new Uint8Array(nc);
    for (let c = 0; c < nc; c++) {
      const cat = categories[c]!;
      catTotal[c] = cat.primaryCount + cat.secondaryCount;
      catPrimary[c] = cat.primaryCount;
      const end = this.nameEnd(cat.nameKey);
      structures[c] = end >= 0 && end - cat.nameKey >= 11 && latin1Decode(data.subarray(cat.nameKey, cat.nameKey + 11)) === '_Structures' ? 1 : 0;
    }
    const kinds = this.kinds;
    if (kinds.length > 0 && g.strings.itemKeys[0] === 0) kinds[0] = GadbItemKind.Root;
    const state: RunState = {
      blockSpans: new GadbRunSpans(g, 'declared', GadbStorageCode.Block),
      linkSpans: new GadbRunSpans(g, 'declared', GadbStorageCode.Link),
      used: new Uint8Array(d.count),
      runs: [],
      runByFirst: new Int32Array(d.count + 1),
      otherRuns: new Map(),
      shapes: new Map(),
      flaggedOrders: new Map(),
      recordRun: new Int32Array(largestCategory(g)),
      recordBase: 0,
      firstUse: gadbTiledBlockSize(g.strings.itemKeys, g.strings.itemSizes) >= 0 ? new GadbFirstUseCheck(g) : undefined,
      badBlocks: 0,
      badLinks: 0,
    };
    // Per record of the current category: hash of its name (secondaries), -1 when it cannot be hashed, -2 when it
    // is no text item (a primary, or a name that is no item).
    const nameHash = new Float64Array(state.recordRun.length);
    const linkTables = { catTotal, catPrimary, structures };
    for (let c = 0, r = 0; c < nc; c++) {
      const cat = categories[c]!;
      this.categoryKey(c);
      this.mark(cat.nameKey, GadbItemKind.Text);
      this.mark(cat.typeNameKey, GadbItemKind.Text);
      this.mark(cat.unk08Key, GadbItemKind.Text);
      const firstSecondary = r + cat.primaryCount;
      const end = firstSecondary + cat.secondaryCount;
      state.recordBase = r;
      const fu = state.firstUse;
      if (fu && !(fu.key(cat.nameKey) && fu.key(cat.typeNameKey) && fu.key(cat.unk08Key))) state.firstUse = undefined;
      markTexts(records.nameKey, firstSecondary, end, this.map, kinds);
      nameHashes(g, this.map, nameHash, r, firstSecondary, end);
      const bad = nameOrder(nameHash, firstSecondary - r, end - r);
      if (bad >= 0) this.nameOrderFindings(c, firstSecondary, end, nameHash, r);
      if (recordRuns(this, state, r, end) > 0) this.runFindings(c, r, end, state);
      recordCells(g, this.starts, state, r, firstSecondary, end, this.map, kinds, linkTables);
      if (state.badBlocks > 0) this.blockFindings(r, end, state);
      if (state.badLinks > 0) this.linkFindings(r, end, state, linkTables);
      r = end;
    }
    this.firstUseKeepsKeys = state.firstUse?.done() ?? false;
    this.phase = 'runs';
    const flagged = flaggedOrderFinding(state.flaggedOrders);
    if (flagged) this.lists.get('runs')!.add(flagged);
    const used = state.used;
    for (let i = 0; i < d.count; i++) {
      if (!used[i]) {
        let j = i;
        while (j < d.count && !used[j]) j++;
        this.add('warning', 'descriptors.unused', `/descriptors[${i}]`, `descriptor rows [${i}, ${j}) belong to no record's run`, this.descriptorOffset(i));
        i = j;
      }
    }
  }

  /** Category `c`'s key: above the previous one, and P919 of its name. */
  private categoryKey(c: number): void {
    const categories = this.g.categories;
    const cat = categories[c]!;
    const path = `/categories[${c}]`;
    this.phase = 'categories';
    if (c > 0 && cat.sortKey <= categories[c - 1]!.sortKey) {
      this.add('error', 'categories.sorted', `${path}/sortKey`, `category ${JSON.stringify(this.nameText(cat.nameKey))} key ${hex32(cat.sortKey)} is not above the previous ${hex32(categories[c - 1]!.sortKey)}`, this.categoryOffset(c, 0x14));
    }
    const nameEnd = this.nameEnd(cat.nameKey);
    if (nameEnd < 0) return;
    const h = this.hashText(cat.nameKey, nameEnd);
    if (h < 0) {
      this.add('info', 'categories.sortKeyUnchecked', `${path}/sortKey`, `cannot check the sort key of ${JSON.stringify(this.nameText(cat.nameKey))}: its name has characters of unknown P919 value (calibrate the table)`, this.categoryOffset(c, 0x14));
    } else if (h !== cat.sortKey) {
      this.add('error', 'categories.sortKey', `${path}/sortKey`, `sort key ${hex32(cat.sortKey)} is not P919(${JSON.stringify(this.nameText(cat.nameKey))}) = ${hex32(h)}`, this.categoryOffset(c, 0x14));
    }
  }

  /** The findings of the secondaries `[from, to)` of category `c` (first record `base`) whose names are unhashable or out of order. */
  private nameOrderFindings(c: number, from: number, to: number, nameHash: Float64Array, base: number): void {
    const { nameKey } = this.g.records;
    const catName = this.g.categories[c]!.nameKey;
    this.phase = 'categories';
    let prev = -1;
    for (let r = from; r < to; r++) {
      const h = nameHash[r - base]!;
      if (h === -2) continue;
      if (h === -1) {
        this.add('info', 'records.sortUnchecked', `/records[${r}]/name`, `cannot hash record name ${JSON.stringify(this.nameText(nameKey[r]!))} (unknown P919 characters); its order is not checked`, this.recordOffset(r));
      } else if (prev >= 0 && h <= prev) {
        this.add('error', 'records.sorted', `/records[${r}]/name`, `record ${JSON.stringify(this.nameText(nameKey[r]!))} (P919 ${hex32(h)}) is not above the previous record's ${hex32(prev)} in ${JSON.stringify(this.nameText(catName))}`, this.recordOffset(r));
      }
      prev = h;
    }
  }

  /** The run and slot findings of records `[from, to)` (category `c`). */
  private runFindings(c: number, from: number, to: number, state: RunState): void {
    const { records } = this.g;
    const catName = this.g.categories[c]!.nameKey;
    this.phase = 'runs';
    let refShape = -1;
    for (let r = from; r < to; r++) {
      const first = records.firstDescriptor[r]!;
      const n = records.descriptorCount[r]!;
      const own = records.cellCount[r]!;
      if (n === 0) {
        if (first !== 0) this.add('warning', 'records.zeroField', `/records[${r}]/firstDescriptor`, `zero-field record points at descriptor ${first}, not 0`, this.recordOffset(r, 7), 'H-ZERO-FIELD');
        if (own !== 0) this.add('error', 'slots.cellCount', `/records[${r}]/cellCount`, `zero-field record owns ${own} cells`, this.recordOffset(r, 4));
        continue;
      }
      const rn = state.runs[state.recordRun[r - state.recordBase]!]!;
      if (rn.ok && own !== rn.cellCount) {
        const native = (records.flags[r]! & FLAG_NATIVE_STRUCTURE) !== 0;
        this.add(native ? 'info' : 'error', 'slots.cellCount', `/records[${r}]/cellCount`, `record owns ${own} cells; its run's slot rule needs ${rn.cellCount}`, this.recordOffset(r, 4), native ? 'H-REC-FLAGS' : undefined);
      }
      if (rn.maxEnd > own) this.slotsOutside(r, first, n, own);
      if (refShape < 0) refShape = rn.shape;
      else if (rn.shape !== refShape) {
        this.add('warning', 'runs.shape', `/records[${r}]`, `record declares other fields than the first record of its category ${JSON.stringify(this.nameText(catName))}`, this.recordOffset(r, 6), 'H-RUN-SHAPE');
      }
    }
  }

  /** The block-reference findings of records `[from, to)`. */
  private blockFindings(from: number, to: number, state: RunState): void {
    const { records, cells } = this.g;
    const bs = state.blockSpans.spans;
    this.phase = 'cells';
    for (let r = from; r < to; r++) {
      if (records.descriptorCount[r] === 0) continue;
      const rn = state.runs[state.recordRun[r - state.recordBase]!]!;
      const base = this.starts[r]!;
      const own = records.cellCount[r]!;
      for (let q = rn.blockFrom; q < rn.blockTo; q += 3) {
        for (let k = bs[q]!, to2 = Math.min(own, bs[q]! + bs[q + 1]!); k < to2; k++) {
          const v = cells[base + k]!;
          if (this.map.of(v) < 0) this.add('error', 'cells.blockReference', `/records[${r}]/cells[${k}]`, `${gadbTypeInfo(bs[q + 2]!)?.name} cell ${hex32(v)} is not the offset of a string-block item (block size ${this.g.strings.data.byteLength})`, this.cellOffset(r, k));
        }
      }
    }
  }

  /** The link findings of records `[from, to)`. */
  private linkFindings(from: number, to: number, state: RunState, t: LinkTables): void {
    const { records, cells } = this.g;
    const ls = state.linkSpans.spans;
    for (let r = from; r < to; r++) {
      if (records.descriptorCount[r] === 0) continue;
      const rn = state.runs[state.recordRun[r - state.recordBase]!]!;
      const base = this.starts[r]!;
      const own = records.cellCount[r]!;
      for (let q = rn.linkFrom; q < rn.linkTo; q += 3) {
        for (let k = ls[q]!, to2 = Math.min(own, ls[q]! + ls[q + 1]!); k < to2; k++) {
          const raw = cells[base + k]!;
          if (raw === 0xffffffff) continue;
          const tc = raw >>> 20;
          const idx = raw & 0xfffff;
          if (tc >= t.catTotal.length || idx >= t.catTotal[tc]!) this.linkOutOfRange(r, k, raw);
          else if ((idx < t.catPrimary[tc]! ? 1 : 0) !== t.structures[tc]) this.linkOnWrongSide(r, k, raw);
        }
      }
    }
  }

  /** @internal The checked run `(first, n)`, checked on its first use (`native`: the record using it is a native structure). */
  runOf(state: RunState, first: number, n: number, native: boolean): number {
    const at = state.runByFirst[first]!;
    if (at > 0 && state.runs[at - 1]!.n === n) return at - 1;
    const key = first * 256 + n;
    const other = state.otherRuns.get(key);
    if (other !== undefined) return other;
    const run = this.newRun(first, n, native, state.used, state.blockSpans, state.linkSpans, state.shapes);
    state.runs.push(run);
    const id = state.runs.length - 1;
    if (at === 0) state.runByFirst[first] = id + 1;
    else state.otherRuns.set(key, id);
    if (run.order) state.flaggedOrders.set(run.order, (state.flaggedOrders.get(run.order) ?? 0) + 1);
    return id;
  }

  /** Checks a run the first time a record uses it, and locates its block and link spans. */
  private newRun(first: number, n: number, native: boolean, used: Uint8Array, blockSpans: GadbRunSpans, linkSpans: GadbRunSpans, shapes: Map<number, number[]>): CheckedRun {
    const d = this.g.descriptors;
    used.fill(1, first, first + n);
    this.phase = 'runs';
    const checked = this.checkRun(first, n, native);
    // The highest cell any field of the run needs (fields with no elements need none).
    let maxEnd = 0;
    for (let k = first; k < first + n; k++) {
      const end = fieldEnd(d, k);
      if (d.elementCount[k]! > 0 && end > maxEnd) maxEnd = end;
    }
    const shape = shapeOf(d, first, n, shapes);
    const b = blockSpans.run(first, n);
    const l = linkSpans.run(first, n);
    const run: CheckedRun = { n, cellCount: checked.cellCount, ok: checked.ok, shape, maxEnd, blockFrom: blockSpans.start[b]! * 3, blockTo: blockSpans.start[b + 1]! * 3, linkFrom: linkSpans.start[l]! * 3, linkTo: linkSpans.start[l + 1]! * 3 };
    if (checked.order) run.order = checked.order;
    return run;
  }

  /** Every field of record `r` whose cells lie past the record's own. */
  private slotsOutside(r: number, first: number, n: number, own: number): void {
    const d = this.g.descriptors;
    for (let k = first; k < first + n; k++) {
      const end = fieldEnd(d, k);
      if (d.elementCount[k]! > 0 && end > own) {
        this.at('runs').add('error', 'slots.range', `/records[${r}]/fields[${k - first}]`, `field ${hex32(d.declaredHash[k]!)} needs cells up to ${end}, the record owns ${own}`, this.descriptorOffset(k, 0x0d));
      }
    }
  }

  private linkOutOfRange(r: number, e: number, raw: number): void {
    const { categories } = this.g;
    const cat = raw >>> 20;
    const idx = raw & 0xfffff;
    const target = categories[cat];
    this.at('links').add('error', 'links.range', `/records[${r}]/cells[${e}]`, `link ${hex32(raw)} (category ${cat}, index ${idx}) resolves to nothing: ${target ? `the category has ${target.primaryCount + target.secondaryCount} records` : `there are ${categories.length} categories`}`, this.cellOffset(r, e), 'H-PRIM-FIRST');
  }

  private linkOnWrongSide(r: number, e: number, raw: number): void {
    const target = this.g.categories[raw >>> 20]!;
    const primary = (raw & 0xfffff) < target.primaryCount;
    this.at('links').add('warning', 'links.side', `/records[${r}]/cells[${e}]`, `link ${hex32(raw)} addresses a ${primary ? 'primary' : 'secondary'} of ${JSON.stringify(this.nameText(target.nameKey))}, ${primary ? 'outside' : 'inside'} a _Structures* category`, this.cellOffset(r, e), 'H-LINK-SIDE');
  }

  /** Checks one run: sorted column, permutation, ordinals, types, slot rule. */
  private checkRun(first: number, n: number, native: boolean): { cellCount: number; ok: boolean; order?: RunOrder } {
    const d = this.g.descriptors;
    let ok = true;
    const seen = new Uint8Array(n);
    let flagged = false;
    for (let j = 0; j < n; j++) {
      const i = first + j;
      if (j > 0 && d.sortedHash[i]! <= d.sortedHash[i - 1]!) {
        this.add('error', 'runs.sorted', `/descriptors[${i}]/sortedHash`, `sorted column not strictly ascending: ${hex32(d.sortedHash[i - 1]!)} then ${hex32(d.sortedHash[i]!)}`, this.descriptorOffset(i, 4));
        ok = false;
      }
      if (j > 0 && d.schemaOrdinal[i]! <= d.schemaOrdinal[i - 1]!) {
        this.add('error', 'runs.ordinal', `/descriptors[${i}]/schemaOrdinal`, `schema ordinal ${d.schemaOrdinal[i]} is not above the previous ${d.schemaOrdinal[i - 1]}`, this.descriptorOffset(i, 8));
      }
      const p = d.sortedToDeclared[i]!;
      if (seen[p]) {
        this.add('error', 'runs.permutation', `/descriptors[${i}]/sortedToDeclared`, `declaration index ${p} appears twice in the run's permutation column`, this.descriptorOffset(i, 9));
        ok = false;
      }
      seen[p] = 1;
      if (d.declaredHash[first + p] !== d.sortedHash[i]) {
        this.add('error', 'runs.permutation', `/descriptors[${i}]/sortedToDeclared`, `sorted entry ${hex32(d.sortedHash[i]!)} points at declared row ${p} whose hash is ${hex32(d.declaredHash[first + p]!)}`, this.descriptorOffset(i, 9));
        ok = false;
      }
      const t = d.typeCode[i]!;
      const info = gadbTypeInfo(t);
      if (!info) this.add('warning', 'descriptors.type', `/descriptors[${i}]/typeCode`, `unknown type code 0x${t.toString(16)}`, this.descriptorOffset(i, 10));
      if ((t & ~GADB_TYPE_MASK & 0xff) !== 0) {
        flagged = true;
        if (!isGadbResourcePath(t) || (t & 0x80) !== 0 || (t & GADB_TYPE_MASK) !== 4) {
          this.add('warning', 'descriptors.flag', `/descriptors[${i}]/typeCode`, `type byte 0x${t.toString(16)} carries flags on a type other than String, or a flag other than 0x40`, this.descriptorOffset(i, 10), 'H-FLAG-40');
        }
      }
      if (info?.storage === 'bit' && d.elementCount[i] !== 1) {
        this.add('warning', 'descriptors.boolCount', `/descriptors[${i}]/elementCount`, `Bool with element count ${d.elementCount[i]} (every known Bool has 1)`, this.descriptorOffset(i, 11), 'H-BOOL-ARRAY');
      }
    }
    if (!ok) return { cellCount: 0, ok };
    const links = (this.linkScratch = this.linkScratch.length >= n ? this.linkScratch : new Int32Array(n));
    const orders: GadbFlaggedOrder[] = flagged ? ['full', 'base'] : ['full'];
    const matching: GadbFlaggedOrder[] = [];
    let cellCount = 0;
    for (const order of orders) {
      const cells = assignGadbSortedRunSlots(d, first, n, order, links);
      let match = true;
      for (let j = 0; j < n && match; j++) match = links[j] === d.link[first + j];
      if (match) {
        matching.push(order);
        cellCount = cells;
      }
    }
    if (matching.length > 0) {
      if (!flagged) return { cellCount, ok: true };
      return { cellCount, ok: true, order: matching.length === 2 ? 'either' : matching[0]! };
    }
    const cells = assignGadbRunSlots(d, first, n, 'full', links);
    for (let j = 0; j < n; j++) {
      if (links[j] !== d.link[first + j]) {
        this.add(native ? 'info' : 'error', 'slots.rule', `/descriptors[${first + j}]/link`, `field ${hex32(d.declaredHash[first + j]!)} (${gadbTypeInfo(d.typeCode[first + j]!)?.name ?? 'unknown type'}) has link ${d.link[first + j]}; the slot rule gives ${links[j]}${native ? ' (native-structure record)' : ''}`, this.descriptorOffset(first + j, 0x0d), native ? 'H-REC-FLAGS' : undefined);
        break;
      }
    }
    return { cellCount: cells, ok: false };
  }

  /** The string block, item by item: tiling, padding, kinds, one item per value per kind; then the first-use order. */
  strings(): void {
    const { g, kinds } = this;
    const { data, itemKeys, itemSizes } = g.strings;
    const size = data.byteLength;
    this.phase = 'strings';
    // Distinct items by a hash of (kind, payload): an open hash table of chains in typed arrays (heads and links
    // are item index + 1, 0 = none).
    const n = itemKeys.length;
    if (g.header.stringBlockSize !== size && this.layout) {
      this.add('error', 'header.stringBlockSize', '/header/stringBlockSize', `header says ${g.header.stringBlockSize} bytes, the block has ${size}`, this.gadbOffset(8));
    }
    // A block with nothing to report is confirmed by a loop that builds no finding (V8 keeps it optimized); only a
    // block that fails it is walked again, here, to say where (with the tables that walk needs).
    const clean = gadbItemsClean(data, itemKeys, itemSizes, kinds);
    let seenSlots = 1;
    while (!clean && seenSlots < n) seenSlots *= 2;
    const dv = new DataView(data.buffer, data.byteOffset, data.byteLength);
    const seenMask = seenSlots - 1;
    const seenHead = new Int32Array(seenSlots);
    const seenNext = new Int32Array(clean ? 0 : n);
    const seenHash = new Uint32Array(clean ? 0 : n);
    const payloads = new Int32Array(clean ? 0 : n);
    const itemPath = (key: number): string => `/strings@0x${key.toString(16)}`;
    for (let i = clean ? n : 0; i < n; i++) {
      const key = itemKeys[i]!;
      const span = itemSizes[i]!;
      const kind = kinds[i]!;
      if ((span & 3) !== 0) this.add('error', 'strings.aligned', itemPath(key), `item of ${span} bytes does not end on a multiple of 4`, this.itemOffset(key));
      if (kind === GadbItemKind.Unreferenced) {
        this.add('error', 'strings.unreferenced', itemPath(key), `${span} byte(s) that no name or cell references`, this.itemOffset(key));
        continue;
      }
      if (kind === GadbItemKind.Mixed) {
        this.add('error', 'strings.kind', itemPath(key), 'item referenced as values of different kinds (sharing is per kind)', this.itemOffset(key));
        continue;
      }
      let payload = span;
      if (kind === GadbItemKind.Text || kind === GadbItemKind.Root) {
        const nul = data.indexOf(0, key);
        if (nul < 0 || nul >= key + span) {
          this.add('error', 'strings.text', itemPath(key), 'text item has no NUL terminator inside its extent (overlapping items?)', this.itemOffset(key));
          continue;
        }
        payload = nul - key + 1;
        const padded = (payload + 3) & ~3;
        if (padded !== span) this.add('error', 'strings.tiling', itemPath(key), `text of ${payload - 1} byte(s) should take ${padded} bytes, the next item starts ${span} bytes later`, this.itemOffset(key + padded));
      } else {
        const t = TYPE_OF_KIND.get(kind) ?? 0;
        const firstWord = span >= 4 ? (data[key]! | (data[key + 1]! << 8) | (data[key + 2]! << 16) | (data[key + 3]! << 24)) >>> 0 : 0;
        const info = gadbTypeInfo(t);
        const want = info?.decoding.kind === 'fixed' ? info.decoding.size : info?.decoding.kind === 'curve' ? 4 + firstWord * info.decoding.keySize : -1;
        if (want >= 0 && want !== span) {
          this.add('error', 'strings.tiling', itemPath(key), `${KIND_NAMES[kind]} value should take ${want} bytes, the item spans ${span}`, this.itemOffset(key), t === 6 || t === 7 ? `H-TYPE-${t}` : undefined);
          payload = Math.min(span, Math.max(0, want));
        }
      }
      for (let p = key + payload, end = key + span; p < end; p++) {
        if (data[p] !== 0) {
          this.add('error', 'strings.padding', itemPath(key), `padding byte at +${p - key} is 0x${data[p]!.toString(16)}, not NUL`, this.itemOffset(p));
          break;
        }
      }
      // Stored once per kind [V]: bucket by a hash of (kind, payload), compare bytes within a bucket.
      if (kind !== GadbItemKind.Root) {
        const h = itemHash(data, dv, key, payload, kind);
        // Chain of earlier distinct items in this hash's slot (duplicates are never added, so a match is unique).
        const slot = h & seenMask;
        const prev = earlierSame(data, itemKeys, kinds, payloads, seenHead, seenNext, seenHash, slot, h, kind, key, payload);
        if (prev < 0) {
          seenHash[i] = h;
          seenNext[i] = seenHead[slot]!;
          seenHead[slot] = i + 1;
        }
        payloads[i] = payload;
        if (prev >= 0) this.add('error', 'strings.duplicate', itemPath(key), `${KIND_NAMES[kind]} value stored again (first at sb+0x${prev.toString(16)})`, this.itemOffset(key), kind === GadbItemKind.Text ? 'H-SB-TEXT-POOL' : undefined);
      }
    }
    // First-use order [V] (usually confirmed during the pass over the records).
    if (this.firstUseKeepsKeys) return;
    const plan = planGadbStringBlockWithItems(g, 'first-use', this.map);
    if (plan.identity) return;
    for (let i = 0; i < n; i++) {
      if (kinds[i] === GadbItemKind.Unreferenced) continue;
      if (plan.newOffset[i] !== itemKeys[i]) {
        this.add('error', 'strings.firstUse', `/strings@0x${itemKeys[i]!.toString(16)}`, `item is not where the first-use rule puts it (0x${plan.newOffset[i]!.toString(16)}); writeGadb's default layout will move it (stringOrder 'model' keeps the file's order)`, this.itemOffset(itemKeys[i]!));
        break;
      }
    }
  }
}

/** A hash of item `(kind, payload bytes at key)`: FNV-style over 4-byte words, then the tail bytes, mixed so the low bits (the slot) depend on all. */
function itemHash(data: Uint8Array, dv: DataView, key: number, payload: number, kind: number): number {
  let h = (0x811c9dc5 ^ kind) | 0;
  let p = key;
  for (const end = key + payload - 3; p < end; p += 4) h = Math.imul(h ^ dv.getUint32(p, true), 0x01000193);
  for (const end = key + payload; p < end; p++) h = Math.imul(h ^ data[p]!, 0x01000193);
  h ^= payload;
  h = Math.imul(h ^ (h >>> 16), 0x45d9f3b);
  return (h ^ (h >>> 16)) >>> 0;
}

/** The key of an earlier distinct item in `slot`'s chain with the same kind and payload bytes as `key`'s, or -1. */
function earlierSame(data: Uint8Array, itemKeys: Uint32Array, kinds: Uint8Array, payloads: Int32Array, seenHead: Int32Array, seenNext: Int32Array, seenHash: Uint32Array, slot: number, h: number, kind: number, key: number, payload: number): number {
  for (let j = seenHead[slot]! - 1; j >= 0; j = seenNext[j]! - 1) {
    if (seenHash[j] !== h || kinds[j] !== kind || payloads[j] !== payload) continue;
    const o = itemKeys[j]!;
    let same = true;
    for (let p = 0; p < payload && same; p++) same = data[o + p] === data[key + p];
    if (same) return o;
  }
  return -1;
}

/** What the pass over the records keeps: the runs checked so far (by id), their spans, which descriptors they use. */
interface RunState {
  blockSpans: GadbRunSpans;
  linkSpans: GadbRunSpans;
  used: Uint8Array;
  runs: CheckedRun[];
  /** Run id + 1 by first descriptor (a run is (first, n); the rare same first with another n is in `otherRuns`). */
  runByFirst: Int32Array;
  otherRuns: Map<number, number>;
  shapes: Map<number, number[]>;
  flaggedOrders: Map<RunOrder, number>;
  /** Run id of each record of the current category, at `r - recordBase` (records without fields: unused). */
  recordRun: Int32Array;
  /** Global index of the current category's first record. */
  recordBase: number;
  /** The first-use walk fed by the pass over the records while it agrees with the block's key order, else undefined. */
  firstUse: GadbFirstUseCheck | undefined;
  /** What `recordCells` counted in the last records it read: block cells that are no item key, links that fail. */
  badBlocks: number;
  badLinks: number;
}

/** Per category: records, primaries, and whether it is a _Structures* category (H-LINK-SIDE). */
interface LinkTables {
  catTotal: Uint32Array;
  catPrimary: Uint32Array;
  structures: Uint8Array;
}

/**
 * P919 of the names of the secondaries `[from, to)` into `out[r - base]` (-1: a byte of unknown table value; -2:
 * the key is no text item or has no NUL inside its item); the category's primaries `[base, from)` get -2.
 */
function nameHashes(g: Gadb, items: GadbItemIndex, out: Float64Array, base: number, from: number, to: number): void {
  out.fill(-2, 0, to - base);
  const { nameKey } = g.records;
  const { data, itemSizes } = g.strings;
  const values = DEFAULT_P919_TABLE.values;
  for (let r = from; r < to; r++) {
    const key = nameKey[r]!;
    const i = items.of(key);
    if (i < 0) continue;
    const stop = key + itemSizes[i]!;
    let h = 0;
    let p = key;
    let hashable = true;
    for (; p < stop; p++) {
      const b = data[p]!;
      if (b === 0) break;
      if (HASHABLE[b] === 0) hashable = false;
      h = (Math.imul(h, 919) + values[b]!) | 0;
    }
    if (p < stop) out[r - base] = hashable ? h >>> 0 : -1;
  }
}

/** The most records a category holds. */
function largestCategory(g: Gadb): number {
  let most = 0;
  for (const c of g.categories) most = Math.max(most, c.primaryCount + c.secondaryCount);
  return most;
}

/** Index of the first secondary in `[from, to)` out of order or unhashable, or -1 (names that are no text are skipped). */
function nameOrder(nameHash: Float64Array, from: number, to: number): number {
  let prev = -1;
  for (let r = from; r < to; r++) {
    const h = nameHash[r]!;
    if (h === -2) continue;
    if (h === -1 || (prev >= 0 && h <= prev)) return r;
    prev = h;
  }
  return -1;
}

/** Marks the items of names `nameKey[from, to)` as texts. */
function markTexts(nameKey: Uint32Array, from: number, to: number, items: GadbItemIndex, kinds: Uint8Array): void {
  for (let r = from; r < to; r++) {
    const i = items.of(nameKey[r]!);
    if (i < 0) continue;
    const was = kinds[i]!;
    if (was !== GadbItemKind.Text) kinds[i] = was === GadbItemKind.Unreferenced ? GadbItemKind.Text : GadbItemKind.Mixed;
  }
}

/**
 * Looks up (checking on first use) the run of each record in `[from, to)`; returns how many records may have a run
 * or slot finding (zero-field records with cells or a descriptor, counts the slot rule does not give, fields
 * outside the record, another shape than the category's first run), for `runFindings` to name.
 */
function recordRuns(v: Verifier, state: RunState, from: number, to: number): number {
  const { firstDescriptor, descriptorCount, cellCount, flags } = v.g.records;
  const recordRun = state.recordRun;
  const base = state.recordBase;
  const runs = state.runs;
  let suspect = 0;
  let refShape = -1;
  let lastKey = -1;
  let id = -1;
  for (let r = from; r < to; r++) {
    const first = firstDescriptor[r]!;
    const n = descriptorCount[r]!;
    const own = cellCount[r]!;
    if (n === 0) {
      if (first !== 0 || own !== 0) suspect++;
      continue;
    }
    const key = first * 256 + n;
    if (key !== lastKey) {
      id = v.runOf(state, first, n, (flags[r]! & FLAG_NATIVE_STRUCTURE) !== 0);
      lastKey = key;
    }
    recordRun[r - base] = id;
    const rn = runs[id]!;
    if ((rn.ok && own !== rn.cellCount) || rn.maxEnd > own) suspect++;
    if (refShape < 0) refShape = rn.shape;
    else if (rn.shape !== refShape) suspect++;
  }
  return suspect;
}

/**
 * The cells of records `[from, to)` (secondaries from `firstSecondary`), each record once: marks the kinds of the
 * items its block cells reference and counts those that are no item key (`state.badBlocks`), counts its link cells
 * that resolve to nothing or land on the unexpected side (`state.badLinks`), and feeds the first-use walk.
 */
function recordCells(g: Gadb, starts: Uint32Array, state: RunState, from: number, firstSecondary: number, to: number, items: GadbItemIndex, kinds: Uint8Array, t: LinkTables): void {
  const { descriptorCount, cellCount } = g.records;
  const cells = g.cells;
  const runs = state.runs;
  const recordRun = state.recordRun;
  const first = state.recordBase;
  const bs = state.blockSpans.spans;
  const ls = state.linkSpans.spans;
  const kindByType = GADB_ITEM_KIND_BY_TYPE_BYTE;
  const { catTotal, catPrimary, structures } = t;
  const nc = catTotal.length;
  let badBlocks = 0;
  let badLinks = 0;
  let firstUse = state.firstUse;
  for (let r = from; r < to; r++) {
    const base = starts[r]!;
    if (firstUse && !firstUse.record(r, r >= firstSecondary, cells, base)) firstUse = undefined;
    if (descriptorCount[r] === 0) continue;
    const rn = runs[recordRun[r - first]!]!;
    const own = cellCount[r]!;
    for (let q = rn.blockFrom; q < rn.blockTo; q += 3) {
      const link = bs[q]!;
      const end = Math.min(own, link + bs[q + 1]!);
      const kind = kindByType[bs[q + 2]!]!;
      for (let k = base + link, stop = base + end; k < stop; k++) {
        const i = items.of(cells[k]!);
        if (i < 0) {
          badBlocks++;
          continue;
        }
        const was = kinds[i]!;
        if (was !== kind) kinds[i] = was === GadbItemKind.Unreferenced ? kind : GadbItemKind.Mixed;
      }
    }
    for (let q = rn.linkFrom; q < rn.linkTo; q += 3) {
      const link = ls[q]!;
      const end = Math.min(own, link + ls[q + 1]!);
      for (let k = base + link, stop = base + end; k < stop; k++) {
        const raw = cells[k]!;
        if (raw === 0xffffffff) continue;
        const tc = raw >>> 20;
        const idx = raw & 0xfffff;
        if (tc >= nc || idx >= catTotal[tc]! || (idx < catPrimary[tc]! ? 1 : 0) !== structures[tc]) badLinks++;
      }
    }
  }
  state.firstUse = firstUse;
  state.badBlocks = badBlocks;
  state.badLinks = badLinks;
}

/** The shape id of the run `[first, first + n)` (see `gadbRunShape`; shapes are numbered across calls). */
function shapeOf(d: Gadb['descriptors'], first: number, n: number, shapes: Map<number, number[]>): number {
  return gadbRunShape(d, first, n, shapes, () => shapeCount++);
}
let shapeCount = 0;
