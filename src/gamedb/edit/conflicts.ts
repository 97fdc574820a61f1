/**
 * The conflict view of xEdit for GameDB: one base database, several sources loaded over it in order (change files
 * and patch databases), and per record and field every source's value, which one wins under the load order, and
 * whether the sources disagree.
 *
 * How each kind of source touches the base (what "wins" means follows from it):
 * - a change file touches the fields it sets (`set`, `count`), even to the value the base holds, and the records it
 *   adds, removes or renames; applied in order, the last file to set a field decides it (`applyChangeFiles`);
 * - a patch database replaces whole records under H-EDIT-PATCH-RULE `replace` (the default of `applyGadbPatch`):
 *   it touches every field of every record it holds, so a patch loaded last wins each field of its records, also
 *   those where it holds the base's value.
 *
 * The merged result is the sources applied one after another over the base. Each row's winner is the last source
 * that touches it; the merged value is read back from the merged result and compared with the winner's, and a
 * row where they differ (sources that interact, such as a record renamed by one file and set by another) is
 * marked `interaction` rather than given a winner it does not have.
 */
import type { Gadb } from '../../formats/gadb/types.ts';
import { applyChangeOps, type ChangeOp } from './changes.ts';
import { diffGadb, type GadbDiff } from './diff.ts';
import { GadbEditor, type EditorOptions } from './editor.ts';
import { applyGadbPatch } from './patch.ts';
import { fieldLabel, indexModel, recordLabel } from './model.ts';

/** One source of a conflict view, in load order. */
export type ConflictSource = { name: string; kind: 'changes'; ops: ChangeOp[] } | { name: string; kind: 'patch'; patch: Gadb };

/** What one source says about one row. */
export type SourceValue =
  /** The source does not touch this row. */
  | { touched: false }
  /** The source touches it; `value` as `diffGadb` decodes it (a link as `{ link }`; `undefined`: absent). */
  | { touched: true; value: unknown };

/**
 * - `override`: one source changes the row;
 * - `agree`: several sources touch it and hold the same value;
 * - `conflict`: several sources touch it with different values (the winner overrides the others);
 * - `interaction`: the merged result holds a value that is not the last touching source's.
 */
export type ConflictStatus = 'override' | 'agree' | 'conflict' | 'interaction';

/** One record field (or element, or the record itself) that at least one source changes. */
export interface ConflictRow {
  /** `Category/Record`. */
  record: string;
  /** The field's name (or `0x%08X`); `(record)` for a record added or removed. */
  field: string;
  /** The field's hash (0 for a record row). */
  hash: number;
  index?: number;
  /** The base's value (`undefined`: absent; for a record row, `present` or `undefined`). */
  base: unknown;
  /** One entry per source, in load order. */
  values: SourceValue[];
  /** Index of the source whose value is in the merged result, or -1 (`interaction`). */
  winner: number;
  /** The merged result's value. */
  merged: unknown;
  status: ConflictStatus;
}

export interface ConflictReport {
  sources: Array<{ name: string; kind: ConflictSource['kind'] }>;
  rows: ConflictRow[];
  /** The sources applied in order over the base. */
  merged: Gadb;
  counts: Record<ConflictStatus, number>;
}

export interface ConflictOptions extends EditorOptions {
  /** Apply patches whose build tag differs from the base's (the engine's loader would ignore them). */
  ignoreBuildTag?: boolean;
}

const RECORD_FIELD = '(record)';
const PRESENT = 'present';

function key(record: string, hash: number, index: number | undefined): string {
  return `${record}\u0000${hash}\u0000${index ?? ''}`;
}

/** Same value as `diffGadb` decodes it (decoded values are JSON data: numbers, text, arrays, `{ link }`). */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined) return false;
  return JSON.stringify(a) === JSON.stringify(b);
}

/** What one source alone does to the base. */
interface SourceEffect {
  diff: GadbDiff;
  /** Rows a change file sets: `key(record, hash, index)` and, for a whole field, `key(record, hash, undefined)`. */
  sets: Set<string>;
  /** Records a patch holds (each replaced or added whole). */
  records: Set<string>;
}

function applySource(g: Gadb, s: ConflictSource, options: ConflictOptions, onSet?: (record: string, hash: number, index: number | undefined) => void): Gadb {
  if (s.kind === 'patch') {
    const patchOptions = options.ignoreBuildTag ? { ignoreBuildTag: true } : {};
    return applyGadbPatch(g, s.patch, options.hasher ? { ...patchOptions, hasher: options.hasher } : patchOptions).merged;
  }
  const ed = new GadbEditor(g, options);
  applyChangeOps(ed, s.ops, (_target, _value, at) => onSet?.(at.record, at.hash, at.index));
  ed.finish();
  return ed.gadb;
}

/** `Category/Record` of every secondary a patch holds (the records `applyGadbPatch` replaces or adds; primaries are skipped). */
function patchRecords(patch: Gadb): Set<string> {
  const out = new Set<string>();
  const ix = indexModel(patch);
  patch.categories.forEach((cat, c) => {
    for (let i = cat.primaryCount; i < cat.primaryCount + cat.secondaryCount; i++) out.add(recordLabel(patch, ix, c, i));
  });
  return out;
}

function rowsOf(d: GadbDiff, namer: EditorOptions['namer']): Array<Omit<ConflictRow, 'values' | 'winner' | 'merged' | 'status'> & { value: unknown }> {
  const out: Array<Omit<ConflictRow, 'values' | 'winner' | 'merged' | 'status'> & { value: unknown }> = [];
  for (const r of d.recordsAdded) out.push({ record: r, field: RECORD_FIELD, hash: 0, base: undefined, value: PRESENT });
  for (const r of d.recordsRemoved) out.push({ record: r, field: RECORD_FIELD, hash: 0, base: PRESENT, value: undefined });
  for (const r of d.recordsChanged) {
    for (const c of r.changes) {
      const row: Omit<ConflictRow, 'values' | 'winner' | 'merged' | 'status'> & { value: unknown } = { record: r.record, field: c.hash === 0 ? c.field : fieldLabel(c.hash, namer), hash: c.hash, base: c.old, value: c.new };
      if (c.index !== undefined) row.index = c.index;
      out.push(row);
    }
  }
  return out;
}

/**
 * Every row some source changes, with each source's value, the winner under the load order and the merged
 * result. `base` is not modified.
 */
export function conflictsOf(base: Gadb, sources: readonly ConflictSource[], options: ConflictOptions = {}): ConflictReport {
  const effects: SourceEffect[] = sources.map((s) => {
    const sets = new Set<string>();
    const alone = applySource(base, s, options, (record, hash, index) => sets.add(key(record, hash, index)));
    return { diff: diffGadb(base, alone, options.namer ? { namer: options.namer } : {}), sets, records: s.kind === 'patch' ? patchRecords(s.patch) : new Set() };
  });

  // Rows: the union of what each source changes, in first-seen order; the value each source gives it.
  const rows = new Map<string, { row: Omit<ConflictRow, 'values' | 'winner' | 'merged' | 'status'>; changed: Map<number, unknown> }>();
  effects.forEach((e, si) => {
    for (const r of rowsOf(e.diff, options.namer)) {
      const k = key(r.record, r.hash, r.index);
      let entry = rows.get(k);
      if (!entry) {
        const { value: _value, ...row } = r;
        entry = { row, changed: new Map() };
        rows.set(k, entry);
      }
      entry.changed.set(si, r.value);
    }
  });

  let merged = base;
  for (const s of sources) merged = applySource(merged, s, options);
  const mergedValues = new Map<string, unknown>();
  for (const r of rowsOf(diffGadb(base, merged, options.namer ? { namer: options.namer } : {}), options.namer)) mergedValues.set(key(r.record, r.hash, r.index), r.value);

  const counts: Record<ConflictStatus, number> = { override: 0, agree: 0, conflict: 0, interaction: 0 };
  const out: ConflictRow[] = [];
  for (const [k, { row, changed }] of rows) {
    const values: SourceValue[] = effects.map((e, si) => {
      if (changed.has(si)) return { touched: true, value: changed.get(si) };
      const isRecordRow = row.field === RECORD_FIELD;
      const touches = isRecordRow
        ? false
        : sources[si]!.kind === 'patch'
          ? e.records.has(row.record)
          : e.sets.has(k) || e.sets.has(key(row.record, row.hash, undefined));
      // A source that touches a row without changing it holds the base's value there.
      return touches ? { touched: true, value: row.base } : { touched: false };
    });
    let winner = -1;
    for (let i = values.length - 1; i >= 0; i--) if (values[i]!.touched) { winner = i; break; }
    const mergedValue = mergedValues.has(k) ? mergedValues.get(k) : row.base;
    const touchedValues = values.filter((v): v is { touched: true; value: unknown } => v.touched).map((v) => v.value);
    let status: ConflictStatus;
    if (winner < 0 || !sameValue((values[winner] as { value: unknown }).value, mergedValue)) {
      status = 'interaction';
      winner = -1;
    } else if (touchedValues.length === 1) status = 'override';
    else status = touchedValues.every((v) => sameValue(v, touchedValues[0])) ? 'agree' : 'conflict';
    counts[status]++;
    out.push({ ...row, values, winner, merged: mergedValue, status });
  }
  return { sources: sources.map((s) => ({ name: s.name, kind: s.kind })), rows: out, merged, counts };
}
