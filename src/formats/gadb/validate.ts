/**
 * `validateGadb`: what a model must satisfy to be written at all (column lengths, counts that add up, field
 * widths, references to existing items). `writeGadb` refuses a model with errors. Semantic invariants of real
 * files (sort orders, the slot rule, tiling, …) are `verifyGadb`'s.
 */
import type { Issue } from '../../binary/errors.ts';
import { gadbCellTotal, gadbItemIndex, type GadbItemIndex } from './layout.ts';
import { GADB_HEADER_SIZE } from './parse.ts';
import type { Gadb } from './types.ts';

const MAX_ISSUES_PER_RULE = 20;

/** Collects issues, at most `MAX_ISSUES_PER_RULE` per rule plus one summary, so huge broken models stay cheap to report. */
export class IssueList {
  readonly issues: Issue[] = [];
  private readonly counts = new Map<string, number>();
  /** Issues added so far, listed or not. */
  total = 0;
  add(issue: Issue): void {
    this.total++;
    const n = (this.counts.get(issue.rule) ?? 0) + 1;
    this.counts.set(issue.rule, n);
    if (n <= MAX_ISSUES_PER_RULE) this.issues.push(issue);
  }
  /** Appends, per truncated rule, one issue saying how many were left out. */
  finish(): Issue[] {
    for (const [rule, n] of this.counts) {
      if (n > MAX_ISSUES_PER_RULE) {
        const sample = this.issues.find((i) => i.rule === rule)!;
        this.issues.push({ rule, message: `${n - MAX_ISSUES_PER_RULE} more finding(s) of this rule not listed (${n} in all)`, severity: sample.severity, ...(sample.hypothesis ? { hypothesis: sample.hypothesis } : {}) });
      }
    }
    return this.issues;
  }
}

/** Structural issues that prevent writing `g` (errors) or that the writer silently corrects (warnings: stale header sizes). */
export function validateGadb(g: Gadb): Issue[] {
  return validateGadbWithItems(g, undefined);
}

/** `validateGadb` with the model's item index already built (internal: shared by write and verify). */
export function validateGadbWithItems(g: Gadb, items: GadbItemIndex | undefined): Issue[] {
  const out = new IssueList();
  const err = (rule: string, path: string, message: string): void => out.add({ rule, path, message, severity: 'error' });
  const { descriptors: d, records, categories, strings, cells, header } = g;

  // Columns.
  for (const [name, col] of Object.entries({ declaredHash: d.declaredHash, sortedHash: d.sortedHash, schemaOrdinal: d.schemaOrdinal, sortedToDeclared: d.sortedToDeclared, typeCode: d.typeCode, elementCount: d.elementCount, link: d.link })) {
    if (col.length !== d.count) err('model.columns', `/descriptors/${name}`, `column has ${col.length} entries, descriptor count is ${d.count}`);
  }
  for (const [name, col] of Object.entries({ nameKey: records.nameKey, cellCount: records.cellCount, descriptorCount: records.descriptorCount, firstDescriptor: records.firstDescriptor, unk0A: records.unk0A, flags: records.flags })) {
    if (col.length !== records.count) err('model.columns', `/records/${name}`, `column has ${col.length} entries, record count is ${records.count}`);
  }
  if (records.cellStart && records.cellStart.length !== records.count + 1) err('model.columns', '/records/cellStart', `column has ${records.cellStart.length} entries, record count + 1 is ${records.count + 1}`);
  if (strings.itemKeys.length !== strings.itemSizes.length) err('model.columns', '/strings/itemSizes', `${strings.itemSizes.length} sizes for ${strings.itemKeys.length} items`);
  if (out.issues.length > 0) return out.finish();

  // Header values that must fit.
  if (header.version !== 17) err('header.version', '/header/version', `version ${header.version}; only 17 can be written`);
  if (g.headerString.byteLength > 0xffff) err('header.string', '/headerString', `inline header string of ${g.headerString.byteLength} bytes does not fit its u16 length`);
  if (g.pairs.length % 2 !== 0) err('trailer.pairs', '/pairs', `pair table has an odd number of words (${g.pairs.length})`);
  if (!g.container || (g.container.kind !== 'bare' && g.container.kind !== 'wrapped')) err('container.kind', '/container', `container must be {kind: 'bare'} or {kind: 'wrapped', magic, version}, got ${JSON.stringify(g.container)}`);
  else if (g.container.kind === 'wrapped' && (typeof g.container.magic !== 'string' || g.container.magic.length !== 4)) err('container.magic', '/container/magic', `wrapper magic must be 4 characters, got ${JSON.stringify(g.container.magic)}`);

  // Items.
  const { itemKeys, itemSizes, data } = strings;
  if (itemKeys.length === 0 || itemKeys[0] !== 0) err('strings.root', '/strings/itemKeys[0]', 'the first item must be the root name at key 0');
  // Each check below first runs as a loop with no exit but its answer (V8 keeps such loops optimized); only a model
  // that fails one walks it again to say where.
  for (let i = itemsValid(itemKeys, itemSizes, data.byteLength) ? itemKeys.length : 0; i < itemKeys.length; i++) {
    const k = itemKeys[i]!;
    if ((k & 3) !== 0) err('strings.keyAligned', `/strings/itemKeys[${i}]`, `item key ${k} is not a multiple of 4`);
    if (i > 0 && k <= itemKeys[i - 1]!) err('strings.keyOrder', `/strings/itemKeys[${i}]`, `item keys must be strictly ascending (${itemKeys[i - 1]} then ${k})`);
    if (k + itemSizes[i]! > data.byteLength) err('strings.itemRange', `/strings/itemSizes[${i}]`, `item [${k}, ${k + itemSizes[i]!}) runs past the ${data.byteLength} bytes of data`);
  }

  // Categories and records add up.
  let recordTotal = 0;
  for (const c of categories) recordTotal += c.primaryCount + c.secondaryCount;
  if (recordTotal !== records.count) err('model.recordCount', '/categories', `categories hold ${recordTotal} records, the record table has ${records.count}`);
  const cellTotal = gadbCellTotal(g);
  const starts = records.cellStart;
  if (!starts) {
    if (cellTotal !== cells.length) err('model.cellCount', '/cells', `records own ${cellTotal} cells, the cell pool has ${cells.length}`);
  } else {
    // Each record's cells inside the pool, records in order and not overlapping.
    const { cellCount } = records;
    for (let r = cellStartsValid(starts, cellCount, records.count, cells.length) ? records.count : 0, end = 0; r < records.count; r++) {
      const s = starts[r]!;
      if (s < end || s + cellCount[r]! > cells.length) {
        err('model.cellCount', `/records/cellStart[${r}]`, `record ${r}'s cells [${s}, ${s + cellCount[r]!}) overlap the previous record's or run past the ${cells.length} cells of the pool`);
        break;
      }
      end = s + cellCount[r]!;
    }
  }

  const map = items ?? gadbItemIndex(g);
  // (The path is built only for a reference that fails: this visits every name of 694,632 records.)
  const notItem = (key: number, path: () => string): void => err('strings.reference', path(), `string-block reference ${key} is not an item key`);
  let rec = 0;
  for (let c = namesAreItems(g, map) ? categories.length : 0; c < categories.length; c++) {
    const cat = categories[c]!;
    if (map.of(cat.nameKey) < 0) notItem(cat.nameKey, () => `/categories[${c}]/nameKey`);
    if (map.of(cat.typeNameKey) < 0) notItem(cat.typeNameKey, () => `/categories[${c}]/typeNameKey`);
    if (map.of(cat.unk08Key) < 0) notItem(cat.unk08Key, () => `/categories[${c}]/unk08Key`);
    rec += cat.primaryCount;
    const nameKey = records.nameKey;
    for (let i = 0; i < cat.secondaryCount && rec < records.count; i++, rec++) {
      if (map.of(nameKey[rec]!) < 0) notItem(nameKey[rec]!, () => `/records[${rec}]/nameKey`);
    }
  }
  // The run checks depend on (first, n) alone: a record whose run passed passes (runs by first descriptor: n + 1).
  const valid = runsValid(g);
  const passed = new Int32Array(valid ? 0 : d.count + 1);
  for (let r = valid ? records.count : 0; r < records.count; r++) {
    const first = records.firstDescriptor[r]!;
    const n = records.descriptorCount[r]!;
    if (first <= d.count && passed[first] === n + 1) continue;
    const before = out.total;
    if (first > 0xffffff) err('records.firstDescriptor', `/records[${r}]/firstDescriptor`, `first descriptor ${first} does not fit 24 bits`);
    if (first + n > d.count) {
      err('records.run', `/records[${r}]/firstDescriptor`, `descriptor run [${first}, ${first + n}) is outside the ${d.count} descriptors`);
      continue;
    }
    for (let j = 0; j < n; j++) {
      if (d.sortedToDeclared[first + j]! >= n) err('descriptors.permutationRange', `/descriptors/sortedToDeclared[${first + j}]`, `declaration index ${d.sortedToDeclared[first + j]} is outside the run of ${n} (record ${r})`);
    }
    if (out.total === before && passed[first] === 0) passed[first] = n + 1;
  }

  // Stale sizes the writer recomputes.
  const warn = (path: string, what: string, have: number, computed: number): void => {
    if (have !== computed) out.add({ rule: 'header.stale', path, message: `${what} is ${have} in the model; the writer writes ${computed}`, severity: 'warning' });
  };
  warn('/header/categoryCount', 'category count', header.categoryCount, categories.length);
  warn('/header/cellCount', 'cell count', header.cellCount, cellTotal);
  warn('/header/descriptorCount', 'descriptor count', header.descriptorCount, d.count);
  warn('/header/headerSize', 'header size', header.headerSize, GADB_HEADER_SIZE + g.headerExtra.byteLength);
  warn('/header/headerStringLength', 'inline header string length', header.headerStringLength, g.headerString.byteLength);
  return out.finish();
}

/**
 * @internal True when `g` passes every error rule of `validateGadb` that concerns the model as a whole (column
 * lengths, header values that must fit, the container, the items, records and cells that add up): the same rules
 * as one boolean, for the writer's fast path, which checks the per-record rules (cells inside the pool and in
 * order, runs, names) while it writes the records and validates in full whenever anything fails.
 */
export function gadbWholeModelValid(g: Gadb): boolean {
  const { itemKeys, itemSizes, data } = g.strings;
  if (itemKeys.length !== itemSizes.length || itemKeys.length === 0 || itemKeys[0] !== 0 || !itemsValid(itemKeys, itemSizes, data.byteLength)) return false;
  return gadbModelValidButItems(g);
}

/**
 * @internal `gadbWholeModelValid` less the rules on the string block's item columns, for a block whose items hold
 * them by construction (not derived yet: `gadbUnderivedItemStarts`), so that the writer need not derive them.
 */
export function gadbModelValidButItems(g: Gadb): boolean {
  const { descriptors: d, records, categories, cells, header } = g;
  const n = d.count;
  if (d.declaredHash.length !== n || d.sortedHash.length !== n || d.schemaOrdinal.length !== n || d.sortedToDeclared.length !== n || d.typeCode.length !== n || d.elementCount.length !== n || d.link.length !== n) return false;
  const r = records.count;
  if (records.nameKey.length !== r || records.cellCount.length !== r || records.descriptorCount.length !== r || records.firstDescriptor.length !== r || records.unk0A.length !== r || records.flags.length !== r) return false;
  if (records.cellStart && records.cellStart.length !== r + 1) return false;
  if (header.version !== 17 || g.headerString.byteLength > 0xffff || g.pairs.length % 2 !== 0) return false;
  if (!g.container || (g.container.kind !== 'bare' && g.container.kind !== 'wrapped')) return false;
  if (g.container.kind === 'wrapped' && (typeof g.container.magic !== 'string' || g.container.magic.length !== 4)) return false;
  let recordTotal = 0;
  for (const c of categories) recordTotal += c.primaryCount + c.secondaryCount;
  if (recordTotal !== r) return false;
  return records.cellStart !== undefined || gadbCellTotal(g) === cells.length;
}

/** Every item key aligned and above the previous one, every item inside the data. */
function itemsValid(keys: Uint32Array, sizes: Uint32Array, dataLength: number): boolean {
  let ok = true;
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    if ((k & 3) !== 0 || (i > 0 && k <= keys[i - 1]!) || k + sizes[i]! > dataLength) ok = false;
  }
  return ok;
}

/** Records' cells in order, not overlapping, inside the pool. */
function cellStartsValid(starts: Uint32Array, cellCount: Uint16Array, count: number, pool: number): boolean {
  let ok = true;
  for (let r = 0, end = 0; r < count; r++) {
    const s = starts[r]!;
    if (s < end || s + cellCount[r]! > pool) ok = false;
    end = s + cellCount[r]!;
  }
  return ok;
}

/** Every category name and secondary name an item key. */
function namesAreItems(g: Gadb, map: GadbItemIndex): boolean {
  const { categories, records } = g;
  const nameKey = records.nameKey;
  let ok = true;
  let rec = 0;
  for (let c = 0; c < categories.length; c++) {
    const cat = categories[c]!;
    if (map.of(cat.nameKey) < 0 || map.of(cat.typeNameKey) < 0 || map.of(cat.unk08Key) < 0) ok = false;
    rec += cat.primaryCount;
    const end = Math.min(records.count, rec + cat.secondaryCount);
    for (; rec < end; rec++) if (map.of(nameKey[rec]!) < 0) ok = false;
  }
  return ok;
}

/** Every record's run inside the table, its first descriptor 24-bit, its permutation column inside the run. */
function runsValid(g: Gadb): boolean {
  const { records, descriptors: d } = g;
  const { firstDescriptor, descriptorCount } = records;
  const sortedToDeclared = d.sortedToDeclared;
  const total = d.count;
  const passed = new Int32Array(total + 1);
  let ok = true;
  for (let r = 0, count = records.count; r < count; r++) {
    const first = firstDescriptor[r]!;
    const n = descriptorCount[r]!;
    if (first <= total && passed[first] === n + 1) continue;
    if (first > 0xffffff || first + n > total) {
      ok = false;
      continue;
    }
    let runOk = true;
    for (let j = 0; j < n; j++) if (sortedToDeclared[first + j]! >= n) runOk = false;
    if (!runOk) ok = false;
    else if (passed[first] === 0) passed[first] = n + 1;
  }
  return ok;
}
