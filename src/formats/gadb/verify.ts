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
 */
import type { Issue } from '../../binary/errors.ts';
import { canHashP919, p919Unchecked } from '../../hash/p919.ts';
import { parseGadbWithLayout, GADB_PRIMARY_HEADER_SIZE, GADB_SECONDARY_HEADER_SIZE, GADB_DESCRIPTOR_SIZE } from './parse.ts';
import { gadbSpanWalk, gadbCellTotal, gadbItemIndex, planGadbStringBlockWithItems, type GadbItemIndex } from './layout.ts';
import { buildGadbIndexWithItems } from './gadb-index.ts';
import { validateGadbWithItems, IssueList } from './validate.ts';
import { assignGadbSlots, gadbRunFields, type GadbFlaggedOrder } from './slots.ts';
import { GADB_STORAGE_BY_TYPE_BYTE, GADB_TYPE_MASK, GadbStorageCode, gadbTypeInfo, isGadbResourcePath, GADB_TYPE_CODES } from './type-codes.ts';
import { GadbItemKind, type Gadb, type GadbLayout } from './types.ts';
import { hex32, latin1Decode } from '../../binary/text.ts';

/** Options of `verifyGadb`. */
export interface VerifyGadbOptions {
  /** Where the parts lay in the file, for offsets (given automatically when verifying bytes). */
  layout?: GadbLayout;
}

/** Which reading of H-SLOT-FLAGGED a run fits. */
type RunOrder = GadbFlaggedOrder | 'either';

/** What `checkRun` found for a run, plus the highest cell its fields need (`maxEnd`). */
interface CheckedRun {
  cellCount: number;
  ok: boolean;
  order?: RunOrder;
  maxEnd?: number;
}

/** Record flag of native-structure records (seed "Native-structure records"; H-REC-FLAGS). */
const FLAG_NATIVE_STRUCTURE = 0x10;

/** Verifies a file (bytes: parsed first; a parse failure throws its `FormatError`) or a model. */
export function verifyGadb(input: Uint8Array | Gadb, options: VerifyGadbOptions = {}): Issue[] {
  let g: Gadb;
  let layout = options.layout;
  if (input instanceof Uint8Array) {
    const parsed = parseGadbWithLayout(input);
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

  const ctx = new Context(g, out, layout, items);
  ctx.header();
  ctx.categories();
  ctx.runsAndSlots();
  ctx.links();
  ctx.strings();
  return out.finish();
}

class Context {
  readonly g: Gadb;
  readonly out: IssueList;
  readonly layout: GadbLayout | undefined;
  readonly index;
  readonly map: GadbItemIndex;
  constructor(g: Gadb, out: IssueList, layout: GadbLayout | undefined, items: GadbItemIndex) {
    this.g = g;
    this.out = out;
    this.layout = layout;
    this.index = buildGadbIndexWithItems(g, items);
    this.map = items;
  }

  add(severity: Issue['severity'], rule: string, path: string, message: string, offset?: number, hypothesis?: string): void {
    const issue: Issue = { rule, message, path, severity };
    if (offset !== undefined) issue.offset = offset;
    if (hypothesis) issue.hypothesis = hypothesis;
    this.out.add(issue);
  }

  private gadbOffset(rel: number): number | undefined {
    return this.layout ? this.layout.gadbOffset + rel : undefined;
  }
  private categoryOffset(c: number, field = 0): number | undefined {
    return this.layout ? this.layout.categoryOffsets[c]! + field : undefined;
  }
  private recordOffset(r: number, field = 0): number | undefined {
    return this.layout ? this.layout.recordOffsets[r]! + field : undefined;
  }
  private descriptorOffset(i: number, field = 0): number | undefined {
    return this.layout ? this.layout.descriptorsOffset + i * GADB_DESCRIPTOR_SIZE + field : undefined;
  }
  private itemOffset(key: number): number | undefined {
    return this.layout ? this.layout.stringBlockOffset + key : undefined;
  }
  private isPrimary(r: number): boolean {
    const c = this.index.recordCategory[r]!;
    return r - this.index.categoryFirstRecord[c]! < this.g.categories[c]!.primaryCount;
  }
  private cellOffset(r: number, k: number): number | undefined {
    return this.recordOffset(r, (this.isPrimary(r) ? GADB_PRIMARY_HEADER_SIZE : GADB_SECONDARY_HEADER_SIZE) + k * 4);
  }

  /** Text of a name item, as bytes, or undefined when it is not a text item. */
  private nameBytes(key: number): Uint8Array | undefined {
    const i = this.map.of(key);
    if (i < 0) return undefined;
    const { data, itemSizes } = this.g.strings;
    const b = data.subarray(key, key + itemSizes[i]!);
    const end = b.indexOf(0);
    return end < 0 ? undefined : b.subarray(0, end);
  }
  private nameText(key: number): string {
    const b = this.nameBytes(key);
    return b ? latin1Decode(b.subarray(0, 200)) : `@0x${key.toString(16)}`;
  }

  header(): void {
    const { g } = this;
    const h = g.header;
    let primaries = 0;
    let secondaries = 0;
    for (const c of g.categories) {
      primaries += c.primaryCount;
      secondaries += c.secondaryCount;
    }
    if (h.categoryCount !== g.categories.length) this.add('error', 'header.categoryCount', '/header/categoryCount', `header says ${h.categoryCount} categories, the value section has ${g.categories.length}`, this.gadbOffset(0x0c));
    const cellTotal = gadbCellTotal(g);
    if (h.cellCount !== cellTotal) this.add('error', 'header.cellCount', '/header/cellCount', `header says ${h.cellCount} cells, the records own ${cellTotal}`, this.gadbOffset(0x18));
    if (h.descriptorCount !== g.descriptors.count) this.add('error', 'header.descriptorCount', '/header/descriptorCount', `header says ${h.descriptorCount} descriptors, the model has ${g.descriptors.count}`, this.gadbOffset(0x1c));
    if (h.recordCount !== secondaries) {
      if (h.recordCount === secondaries + primaries) this.add('warning', 'header.recordCount', '/header/recordCount', `header record count ${h.recordCount} counts primaries too (${secondaries} secondaries + ${primaries} primaries)`, this.gadbOffset(0x10), 'H-HDR-10');
      else this.add('error', 'header.recordCount', '/header/recordCount', `header says ${h.recordCount} records; the file has ${secondaries} secondaries and ${primaries} primaries`, this.gadbOffset(0x10), 'H-HDR-10');
    }
    if (primaries > 0 || h.unk14 !== 0) {
      this.add('info', 'header.unk14', '/header/unk14', `+0x14 is ${h.unk14}; the primary total is ${primaries} (${h.unk14 === primaries ? 'equal' : 'different'})`, this.gadbOffset(0x14), 'H-HDR-14');
    }
    const pairCount = g.pairs.length >>> 1;
    if (pairCount > 0 || h.unk24 !== 0) {
      this.add('info', 'header.unk24', '/header/unk24', `+0x24 is ${h.unk24}; the pair table holds ${pairCount} pair(s) (${h.unk24 === pairCount ? 'equal' : 'different'})`, this.gadbOffset(0x24), 'H-HDR-24');
    }
    if (pairCount > 0) this.add('info', 'trailer.pairs', '/pairs', `the trailer holds ${pairCount} pair(s) of unknown meaning`, this.layout?.trailerOffset, 'H-PAIRS');
    if (g.headerExtra.byteLength > 0) this.add('info', 'header.extra', '/headerExtra', `header size 0x${(0x2c + g.headerExtra.byteLength).toString(16)}: ${g.headerExtra.byteLength} extra header byte(s) kept verbatim`, this.gadbOffset(0x2c), 'H-HDR-28');
    if (g.headerString.byteLength > 0) this.add('info', 'header.string', '/headerString', `inline header string of ${g.headerString.byteLength} byte(s) before the string block`, this.gadbOffset(h.headerSize), 'H-HDR-2C');
    if (g.valueSectionUnk00 !== 0) this.add('warning', 'values.unk00', '/valueSectionUnk00', `the value section starts with ${g.valueSectionUnk00}, not 0`, this.layout?.valueSectionOffset, 'H-VAL-00');
  }

  categories(): void {
    const { g, index } = this;
    const { categories, records } = g;
    for (let c = 0; c < categories.length; c++) {
      const cat = categories[c]!;
      const path = `/categories[${c}]`;
      if (c > 0 && cat.sortKey <= categories[c - 1]!.sortKey) {
        this.add('error', 'categories.sorted', `${path}/sortKey`, `category ${JSON.stringify(this.nameText(cat.nameKey))} key ${hex32(cat.sortKey)} is not above the previous ${hex32(categories[c - 1]!.sortKey)}`, this.categoryOffset(c, 0x14));
      }
      const name = this.nameBytes(cat.nameKey);
      if (name) {
        if (canHashP919(name)) {
          const h = p919Unchecked(name);
          if (h !== cat.sortKey) this.add('error', 'categories.sortKey', `${path}/sortKey`, `sort key ${hex32(cat.sortKey)} is not P919(${JSON.stringify(this.nameText(cat.nameKey))}) = ${hex32(h)}`, this.categoryOffset(c, 0x14));
        } else {
          this.add('info', 'categories.sortKeyUnchecked', `${path}/sortKey`, `cannot check the sort key of ${JSON.stringify(this.nameText(cat.nameKey))}: its name has characters of unknown P919 value (calibrate the table)`, this.categoryOffset(c, 0x14));
        }
      }
      // Secondaries strictly ascending by P919(name).
      const first = index.categoryFirstRecord[c]! + cat.primaryCount;
      let prev = -1;
      for (let r = first; r < first + cat.secondaryCount; r++) {
        const nb = this.nameBytes(records.nameKey[r]!);
        if (!nb) continue;
        if (!canHashP919(nb)) {
          this.add('info', 'records.sortUnchecked', `/records[${r}]/name`, `cannot hash record name ${JSON.stringify(this.nameText(records.nameKey[r]!))} (unknown P919 characters); its order is not checked`, this.recordOffset(r));
          prev = -1;
          continue;
        }
        const h = p919Unchecked(nb);
        if (prev >= 0 && h <= prev) {
          this.add('error', 'records.sorted', `/records[${r}]/name`, `record ${JSON.stringify(this.nameText(records.nameKey[r]!))} (P919 ${hex32(h)}) is not above the previous record's ${hex32(prev)} in ${JSON.stringify(this.nameText(cat.nameKey))}`, this.recordOffset(r));
        }
        prev = h;
      }
    }
  }

  runsAndSlots(): void {
    const { g, index } = this;
    const { records, descriptors: d, categories } = g;
    const used = new Uint8Array(d.count);
    const checkedRuns = new Map<number, CheckedRun>();
    const storageByType = GADB_STORAGE_BY_TYPE_BYTE;
    const BIT = GadbStorageCode.Bit;
    let lastKey = -1;
    let lastRun: CheckedRun | undefined;
    const flaggedOrders = new Map<RunOrder, number>();
    for (let r = 0; r < records.count; r++) {
      const first = records.firstDescriptor[r]!;
      const n = records.descriptorCount[r]!;
      const native = (records.flags[r]! & FLAG_NATIVE_STRUCTURE) !== 0;
      if (n === 0) {
        if (first !== 0) this.add('warning', 'records.zeroField', `/records[${r}]/firstDescriptor`, `zero-field record points at descriptor ${first}, not 0`, this.recordOffset(r, 7), 'H-ZERO-FIELD');
        if (records.cellCount[r]! !== 0) this.add('error', 'slots.cellCount', `/records[${r}]/cellCount`, `zero-field record owns ${records.cellCount[r]} cells`, this.recordOffset(r, 4));
        continue;
      }
      const key = first * 256 + n;
      let run: CheckedRun | undefined = key === lastKey ? lastRun : checkedRuns.get(key);
      if (!run) {
        used.fill(1, first, first + n);
        run = this.checkRun(first, n, native);
        // The highest cell any field of the run needs (fields with no elements need none).
        let maxEnd = 0;
        for (let k = first; k < first + n; k++) {
          const storage = storageByType[d.typeCode[k]!]!;
          const end = storage === BIT ? (d.link[k]! + d.elementCount[k]! + 31) >>> 5 : d.link[k]! + d.elementCount[k]!;
          if (d.elementCount[k]! > 0 && end > maxEnd) maxEnd = end;
        }
        run.maxEnd = maxEnd;
        checkedRuns.set(key, run);
        if (run.order) flaggedOrders.set(run.order, (flaggedOrders.get(run.order) ?? 0) + 1);
      }
      lastKey = key;
      lastRun = run;
      if (run.ok && records.cellCount[r]! !== run.cellCount) {
        this.add(native ? 'info' : 'error', 'slots.cellCount', `/records[${r}]/cellCount`, `record owns ${records.cellCount[r]} cells; its run's slot rule needs ${run.cellCount}`, this.recordOffset(r, 4), native ? 'H-REC-FLAGS' : undefined);
      }
      // Every field's cells must lie inside the record.
      if (run.maxEnd! > records.cellCount[r]!) {
        for (let k = first; k < first + n; k++) {
          const storage = storageByType[d.typeCode[k]!]!;
          const end = storage === BIT ? (d.link[k]! + d.elementCount[k]! + 31) >>> 5 : d.link[k]! + d.elementCount[k]!;
          if (d.elementCount[k]! > 0 && end > records.cellCount[r]!) {
            this.add('error', 'slots.range', `/records[${r}]/fields[${k - first}]`, `field ${hex32(d.declaredHash[k]!)} needs cells up to ${end}, the record owns ${records.cellCount[r]}`, this.descriptorOffset(k, 0x0d));
          }
        }
      }
    }
    if (flaggedOrders.size > 0) {
      const parts = [...flaggedOrders].map(([order, count]) => `${count} run(s) "${order}"`);
      this.add('info', 'slots.flaggedOrder', '/descriptors', `runs with flagged type codes fit the slot order: ${parts.join(', ')} (full = by the whole type byte, base = by its low 6 bits, either = both give the same links)`, undefined, 'H-SLOT-FLAGGED');
    }
    // Runs by category: one declared shape per category (H-RUN-SHAPE).
    for (let c = 0; c < categories.length; c++) {
      const from = index.categoryFirstRecord[c]!;
      const to = index.categoryFirstRecord[c + 1]!;
      let refFirst = -1;
      let refN = 0;
      for (let r = from; r < to; r++) {
        const first = records.firstDescriptor[r]!;
        const n = records.descriptorCount[r]!;
        if (n === 0) continue;
        if (refFirst < 0) {
          refFirst = first;
          refN = n;
          continue;
        }
        if (first === refFirst && n === refN) continue;
        let same = n === refN;
        for (let j = 0; same && j < n; j++) same = d.declaredHash[first + j] === d.declaredHash[refFirst + j];
        if (!same) {
          this.add('warning', 'runs.shape', `/records[${r}]`, `record declares other fields than the first record of its category ${JSON.stringify(this.nameText(categories[c]!.nameKey))}`, this.recordOffset(r, 6), 'H-RUN-SHAPE');
        }
      }
    }
    for (let i = 0; i < d.count; i++) {
      if (!used[i]) {
        let j = i;
        while (j < d.count && !used[j]) j++;
        this.add('warning', 'descriptors.unused', `/descriptors[${i}]`, `descriptor rows [${i}, ${j}) belong to no record's run`, this.descriptorOffset(i));
        i = j;
      }
    }
  }

  /** Checks one run: sorted column, permutation, ordinals, types, slot rule. */
  private checkRun(first: number, n: number, native: boolean): { cellCount: number; ok: boolean; order?: RunOrder } {
    const d = this.g.descriptors;
    let ok = true;
    const path = `/descriptors[${first}..${first + n - 1}]`;
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
    const fields = gadbRunFields(d, first, n);
    const orders: GadbFlaggedOrder[] = flagged ? ['full', 'base'] : ['full'];
    const matching: GadbFlaggedOrder[] = [];
    let cellCount = 0;
    for (const order of orders) {
      const a = assignGadbSlots(fields, order);
      let match = true;
      for (let j = 0; j < n && match; j++) match = a.links[j] === d.link[first + j];
      if (match) {
        matching.push(order);
        cellCount = a.cellCount;
      }
    }
    if (matching.length > 0) {
      if (!flagged) return { cellCount, ok: true };
      return { cellCount, ok: true, order: matching.length === 2 ? 'either' : matching[0]! };
    }
    const a = assignGadbSlots(fields, 'full');
    for (let j = 0; j < n; j++) {
      if (a.links[j] !== d.link[first + j]) {
        this.add(native ? 'info' : 'error', 'slots.rule', `/descriptors[${first + j}]/link`, `field ${hex32(d.declaredHash[first + j]!)} (${gadbTypeInfo(d.typeCode[first + j]!)?.name ?? 'unknown type'}) has link ${d.link[first + j]}; the slot rule gives ${a.links[j]}${native ? ' (native-structure record)' : ''}`, this.descriptorOffset(first + j, 0x0d), native ? 'H-REC-FLAGS' : undefined);
        break;
      }
    }
    void path;
    return { cellCount: a.cellCount, ok: false };
  }

  links(): void {
    const { g } = this;
    const { categories, cells } = g;
    const structures = categories.map((c) => {
      const b = this.nameBytes(c.nameKey);
      return b !== undefined && b.length >= 11 && latin1Decode(b.subarray(0, 11)) === '_Structures';
    });
    for (const s = gadbSpanWalk(g, 'declared', GadbStorageCode.Link); s.next(); ) {
      const r = s.record;
      for (let k = s.begin; k < s.end; k++) {
        const e = k - s.recordCellStart;
        const raw = cells[k]!;
        if (raw === 0xffffffff) continue;
        const cat = raw >>> 20;
        const idx = raw & 0xfffff;
        const target = categories[cat];
        if (!target || idx >= target.primaryCount + target.secondaryCount) {
          this.add('error', 'links.range', `/records[${r}]/cells[${e}]`, `link ${hex32(raw)} (category ${cat}, index ${idx}) resolves to nothing: ${target ? `the category has ${target.primaryCount + target.secondaryCount} records` : `there are ${categories.length} categories`}`, this.cellOffset(r, e), 'H-PRIM-FIRST');
          continue;
        }
        const primary = idx < target.primaryCount;
        if (primary !== structures[cat]) {
          this.add('warning', 'links.side', `/records[${r}]/cells[${e}]`, `link ${hex32(raw)} addresses a ${primary ? 'primary' : 'secondary'} of ${JSON.stringify(this.nameText(target.nameKey))}, ${primary ? 'outside' : 'inside'} a _Structures* category`, this.cellOffset(r, e), 'H-LINK-SIDE');
        }
      }
    }
  }

  strings(): void {
    const { g, index } = this;
    const { data, itemKeys, itemSizes } = g.strings;
    const kinds = index.itemKinds;
    const size = data.byteLength;
    // Distinct items by a hash of (kind, payload): an open hash table of chains in typed arrays (heads and links
    // are item index + 1, 0 = none).
    let seenSlots = 1;
    while (seenSlots < itemKeys.length * 2) seenSlots *= 2;
    const seenMask = seenSlots - 1;
    const seenHead = new Int32Array(seenSlots);
    const seenNext = new Int32Array(itemKeys.length);
    const seenHash = new Uint32Array(itemKeys.length);
    const payloads = new Int32Array(itemKeys.length);
    const kindNames = Object.fromEntries(Object.entries(GadbItemKind).map(([k, v]) => [v, k]));
    const typeOfKind = new Map<number, number>();
    for (const t of GADB_TYPE_CODES) if (t.itemKind !== GadbItemKind.Unreferenced && !typeOfKind.has(t.itemKind)) typeOfKind.set(t.itemKind, t.code);
    if (g.header.stringBlockSize !== size && this.layout) {
      this.add('error', 'header.stringBlockSize', '/header/stringBlockSize', `header says ${g.header.stringBlockSize} bytes, the block has ${size}`, this.gadbOffset(8));
    }
    const itemPath = (key: number): string => `/strings@0x${key.toString(16)}`;
    for (let i = 0; i < itemKeys.length; i++) {
      const key = itemKeys[i]!;
      const span = itemSizes[i]!;
      const b = data.subarray(key, key + span);
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
        const end = b.indexOf(0);
        if (end < 0) {
          this.add('error', 'strings.text', itemPath(key), 'text item has no NUL terminator inside its extent (overlapping items?)', this.itemOffset(key));
          continue;
        }
        payload = end + 1;
        const padded = (payload + 3) & ~3;
        if (padded !== span) this.add('error', 'strings.tiling', itemPath(key), `text of ${end} byte(s) should take ${padded} bytes, the next item starts ${span} bytes later`, this.itemOffset(key + padded));
      } else {
        const t = typeOfKind.get(kind) ?? 0;
        const first = b.byteLength >= 4 ? (b[0]! | (b[1]! << 8) | (b[2]! << 16) | (b[3]! << 24)) >>> 0 : 0;
        const info = gadbTypeInfo(t);
        const want = info?.decoding.kind === 'fixed' ? info.decoding.size : info?.decoding.kind === 'curve' ? 4 + first * info.decoding.keySize : -1;
        if (want >= 0 && want !== span) {
          this.add('error', 'strings.tiling', itemPath(key), `${kindNames[kind]} value should take ${want} bytes, the item spans ${span}`, this.itemOffset(key), t === 6 || t === 7 ? `H-TYPE-${t}` : undefined);
          payload = Math.min(span, Math.max(0, want));
        }
      }
      for (let p = payload; p < span; p++) {
        if (b[p] !== 0) {
          this.add('error', 'strings.padding', itemPath(key), `padding byte at +${p} is 0x${b[p]!.toString(16)}, not NUL`, this.itemOffset(key + p));
          break;
        }
      }
      // Stored once per kind [V]: bucket by a hash of (kind, payload), compare bytes within a bucket.
      if (kind !== GadbItemKind.Root) {
        let h = (0x811c9dc5 ^ kind) >>> 0;
        for (let p = 0; p < payload; p++) h = Math.imul(h ^ b[p]!, 0x01000193);
        h = (h ^ payload) >>> 0;
        // Chain of earlier distinct items in this hash's slot (duplicates are never added, so a match is unique).
        let prev = -1;
        const slot = h & seenMask;
        for (let j = seenHead[slot]! - 1; j >= 0; j = seenNext[j]! - 1) {
          if (seenHash[j] !== h || kinds[j] !== kind || payloads[j] !== payload) continue;
          const o = itemKeys[j]!;
          let same = true;
          for (let p = 0; p < payload && same; p++) same = data[o + p] === b[p];
          if (same) {
            prev = o;
            break;
          }
        }
        if (prev < 0) {
          seenHash[i] = h;
          seenNext[i] = seenHead[slot]!;
          seenHead[slot] = i + 1;
        }
        payloads[i] = payload;
        if (prev >= 0) this.add('error', 'strings.duplicate', itemPath(key), `${kindNames[kind]} value stored again (first at sb+0x${prev.toString(16)})`, this.itemOffset(key), kind === GadbItemKind.Text ? 'H-SB-TEXT-POOL' : undefined);
      }
    }
    // First-use order [V].
    const plan = planGadbStringBlockWithItems(g, 'first-use', this.map);
    for (let i = 0; i < itemKeys.length; i++) {
      if (kinds[i] === GadbItemKind.Unreferenced) continue;
      if (plan.newOffset[i] !== itemKeys[i]) {
        this.add('error', 'strings.firstUse', `/strings@0x${itemKeys[i]!.toString(16)}`, `item is not where the first-use rule puts it (0x${plan.newOffset[i]!.toString(16)}); writeGadb's default layout will move it (stringOrder 'model' keeps the file's order)`, this.itemOffset(itemKeys[i]!));
        break;
      }
    }
    // Block cells that are not item keys.
    const map = this.map;
    const cells = g.cells;
    for (const s = gadbSpanWalk(g); s.next(); ) {
      for (let k = s.begin; k < s.end; k++) {
        const v = cells[k]!;
        if (map.of(v) < 0) {
          const e = k - s.recordCellStart;
          this.add('error', 'cells.blockReference', `/records[${s.record}]/cells[${e}]`, `${gadbTypeInfo(s.typeByte)?.name} cell ${hex32(v)} is not the offset of a string-block item (block size ${size})`, this.cellOffset(s.record, e));
        }
      }
    }
  }
}

