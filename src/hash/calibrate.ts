/**
 * Calibration of the P919 table from real (string, hash) pairs, and the saved-table format.
 *
 * P919 is linear in the table: P919(s) = Σ LUT[s_i] · 919^(n-1-i) mod 2^32. With the verified entries fixed,
 * each pair whose string has unknown characters is one linear equation over Z/2^32 in those unknowns. We solve
 * by repeated substitution: an equation left with one unknown character c gives coefficient·x ≡ rhs; the
 * coefficient (a sum of odd powers of 919 over the positions of c) is odd when c occurs an odd number of times,
 * and then x is unique. Otherwise the int8 candidates are enumerated and kept only if exactly one fits. Every
 * derived value is then checked against every pair. The game's category names contain `/`, so a real database's
 * category sort keys (P919 of the names) calibrate at least that character.
 */
import { ToolkitError } from '../binary/errors.ts';
import { DEFAULT_P919_TABLE, nameBytes, p919, type LutStatus, type P919Table } from './p919.ts';

export interface HashPair {
  text: string;
  hash: number;
}

export interface CalibrationResult {
  table: P919Table;
  /** Characters given a value, with the number of pairs that determined or confirmed it. */
  derived: Array<{ character: string; byte: number; value: number; support: number }>;
  /** Pairs that still contain characters without a value. */
  unresolved: HashPair[];
  /** Pairs whose hash does not match even after calibration (different hash, or a wrong pair). */
  contradicted: Array<HashPair & { computed: number }>;
}

/** Odd `a` → its inverse modulo 2^32 (Newton iteration). */
function inverseOdd(a: number): number {
  let x = a; // correct to 3 bits for odd a
  for (let i = 0; i < 5; i++) x = Math.imul(x, 2 - Math.imul(a, x));
  return x >>> 0;
}

/** Derives unknown table entries from pairs. Entries already usable in `base` are never changed. */
export function calibrateP919(pairs: readonly HashPair[], base: P919Table = DEFAULT_P919_TABLE, source = 'user pairs'): CalibrationResult {
  const values = Int8Array.from(base.values);
  const status: LutStatus[] = [...base.status];
  const known = (c: number) => status[c] === 'verified' || status[c] === 'calibrated';
  const support = new Map<number, number>();
  let pending = pairs.map((p) => ({ pair: p, bytes: nameBytes(p.text) }));
  let progress = true;
  while (progress) {
    progress = false;
    const next: typeof pending = [];
    for (const item of pending) {
      const { bytes, pair } = item;
      const unknowns = new Set<number>();
      for (const c of bytes) if (!known(c)) unknowns.add(c);
      if (unknowns.size === 0) continue;
      if (unknowns.size > 1) {
        next.push(item);
        continue;
      }
      const target = [...unknowns][0]!;
      // rhs = hash − Σ known terms; coefficient = Σ 919^(n-1-i) over positions of target.
      let partial = 0;
      let coefficient = 0;
      for (let i = 0; i < bytes.length; i++) {
        const c = bytes[i]!;
        partial = (Math.imul(partial, 919) + (c === target ? 0 : values[c]!)) | 0;
        coefficient = (Math.imul(coefficient, 919) + (c === target ? 1 : 0)) | 0;
      }
      const rhs = (pair.hash - partial) | 0;
      let solution: number | undefined;
      if ((coefficient & 1) === 1) {
        const x = Math.imul(rhs, inverseOdd(coefficient >>> 0)) | 0;
        if (x >= -128 && x <= 127) solution = x;
      } else {
        const fits: number[] = [];
        for (let x = -128; x <= 127; x++) if ((Math.imul(coefficient, x) | 0) === rhs) fits.push(x);
        if (fits.length === 1) solution = fits[0];
      }
      if (solution === undefined) {
        next.push(item);
        continue;
      }
      values[target] = solution;
      status[target] = 'calibrated';
      support.set(target, 0);
      progress = true;
    }
    pending = next;
  }
  const table: P919Table = { values, status, calibrationSource: source };
  const contradicted: CalibrationResult['contradicted'] = [];
  const unresolved: HashPair[] = [];
  for (const pair of pairs) {
    const bytes = nameBytes(pair.text);
    if (!bytes.every((c) => known(c))) {
      unresolved.push(pair);
      continue;
    }
    const computed = p919(bytes, { table, allowInferred: true });
    if (computed !== pair.hash >>> 0) {
      contradicted.push({ ...pair, computed });
      continue;
    }
    for (const c of new Set(bytes)) if (support.has(c)) support.set(c, support.get(c)! + 1);
  }
  const derived = [...support].map(([byte, n]) => ({ character: String.fromCharCode(byte), byte, value: values[byte]!, support: n }));
  derived.sort((a, b) => a.byte - b.byte);
  return { table, derived, unresolved, contradicted };
}

/** JSON form of a table, as saved by `scry hash calibrate` and read by `--lut`. */
export interface SavedP919Table {
  format: 'scry-p919-table';
  version: 1;
  values: number[];
  status: LutStatus[];
  calibrationSource?: string;
}

export function serializeP919Table(table: P919Table): SavedP919Table {
  const saved: SavedP919Table = { format: 'scry-p919-table', version: 1, values: Array.from(table.values), status: [...table.status] };
  if (table.calibrationSource) saved.calibrationSource = table.calibrationSource;
  return saved;
}

const STATUSES: readonly LutStatus[] = ['verified', 'inferred', 'unknown', 'calibrated'];

/**
 * Reads a saved table. Also accepts a bare array of 256 numbers (the fixture form), where 0 entries for the 27
 * unknown characters stay unknown. Verified entries of the built-in table must agree: a saved table cannot
 * silently contradict verified values.
 */
export function parseP919Table(json: unknown, origin = 'table'): P919Table {
  const fail = (msg: string) => new ToolkitError('E_HASH', `${origin}: ${msg}`);
  let rawValues: unknown;
  let rawStatus: unknown;
  let calibrationSource: string | undefined;
  if (Array.isArray(json)) {
    rawValues = json;
  } else if (json && typeof json === 'object' && (json as SavedP919Table).format === 'scry-p919-table') {
    rawValues = (json as SavedP919Table).values;
    rawStatus = (json as SavedP919Table).status;
    calibrationSource = (json as SavedP919Table).calibrationSource;
  } else {
    throw fail('not a P919 table (expected {"format": "scry-p919-table", …} or an array of 256 numbers)');
  }
  if (!Array.isArray(rawValues) || rawValues.length !== 256 || !rawValues.every((v) => Number.isInteger(v) && v >= -128 && v <= 255)) {
    throw fail('values must be 256 integers');
  }
  const values = Int8Array.from(rawValues as number[], (v) => (v << 24) >> 24);
  let status: LutStatus[];
  if (rawStatus === undefined) {
    status = DEFAULT_P919_TABLE.status.map((s, i) => (s === 'unknown' && values[i] !== 0 ? 'calibrated' : s));
  } else {
    if (!Array.isArray(rawStatus) || rawStatus.length !== 256 || !rawStatus.every((s) => STATUSES.includes(s as LutStatus))) {
      throw fail('status must be 256 of verified/inferred/unknown/calibrated');
    }
    status = rawStatus as LutStatus[];
  }
  for (let i = 0; i < 256; i++) {
    if (DEFAULT_P919_TABLE.status[i] === 'verified' && (values[i] !== DEFAULT_P919_TABLE.values[i] || status[i] !== 'verified')) {
      throw fail(`entry 0x${i.toString(16)} ('${String.fromCharCode(i)}') contradicts the verified value ${DEFAULT_P919_TABLE.values[i]}`);
    }
  }
  return calibrationSource ? { values, status, calibrationSource } : { values, status };
}
