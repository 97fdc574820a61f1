/**
 * `searchDatabase`: one query over names, hashes and string values.
 *
 * A query matches, case-insensitively, any category or record whose name contains it, any field whose known name
 * contains it, and any String / StringEnum value that contains it. It also matches by hash: a `0x…` literal, or
 * P919 of the query (when it can be hashed), against category sort keys, record name hashes and field hashes,
 * so a field with no known name is found by its name once you guess it.
 */
import { HashError } from '../binary/errors.ts';
import { GADB_TYPE_MASK, GadbStorageCode } from '../formats/gadb/type-codes.ts';
import { Category, DbRecord, Field, type Database } from './database.ts';
import { parseHashLiteral } from './names.ts';

export type SearchHit =
  | { kind: 'category'; category: Category; by: 'name' | 'hash' }
  | { kind: 'record'; record: DbRecord; by: 'name' | 'hash' }
  /** A field declared by a category's records (reported once per category). */
  | { kind: 'field'; category: Category; hash: number; name: string | undefined; by: 'name' | 'hash' }
  | { kind: 'value'; record: DbRecord; field: Field; element: number; text: string };

export interface SearchOptions {
  /** Stop after this many hits (default 200). `total` still counts every hit. */
  limit?: number;
}

export interface SearchResult {
  query: string;
  /** The hash searched for (the literal, or P919 of the query), when there is one. */
  hash: number | undefined;
  hits: SearchHit[];
  /** Every hit, including those past the limit. */
  total: number;
}

const TEXT_TYPES = new Set([4, 5]);

export function searchDatabase(db: Database, query: string, options: SearchOptions = {}): SearchResult {
  const limit = options.limit ?? 200;
  const needle = query.toLowerCase();
  let hash = parseHashLiteral(query);
  if (hash === undefined) {
    try {
      hash = db.hash(query);
    } catch (e) {
      if (!(e instanceof HashError)) throw e;
    }
  }
  const hits: SearchHit[] = [];
  let total = 0;
  const add = (hit: SearchHit) => {
    total++;
    if (hits.length < limit) hits.push(hit);
  };
  const m = db.model;
  for (const c of db.categories) {
    if (c.name.toLowerCase().includes(needle)) add({ kind: 'category', category: c, by: 'name' });
    else if (hash !== undefined && c.sortKey === hash) add({ kind: 'category', category: c, by: 'hash' });
  }
  const lowered = new Map<number, boolean>();
  for (const c of db.categories) {
    for (let r = c.firstRecord + c.primaryCount; r < c.firstRecord + c.recordCount; r++) {
      const key = m.records.nameKey[r]!;
      let byName = lowered.get(key);
      if (byName === undefined) {
        byName = db.block.text(key).toLowerCase().includes(needle);
        lowered.set(key, byName);
      }
      if (byName) add({ kind: 'record', record: new DbRecord(db, r), by: 'name' });
      else if (hash !== undefined && db.hashRecordName(r) === hash) add({ kind: 'record', record: new DbRecord(db, r), by: 'hash' });
    }
  }
  // Fields: once per category, from the category's first record with fields (every record declares the same fields, H-RUN-SHAPE).
  const d = m.descriptors;
  for (const c of db.categories) {
    const probe = c.firstRecordWithFields();
    if (!probe) continue;
    for (let row = probe.firstDescriptor; row < probe.firstDescriptor + probe.descriptorCount; row++) {
      const h = d.declaredHash[row]!;
      const name = db.names.get(h);
      if (name !== undefined && name.toLowerCase().includes(needle)) add({ kind: 'field', category: c, hash: h, name, by: 'name' });
      else if (hash !== undefined && h === hash) add({ kind: 'field', category: c, hash: h, name, by: 'hash' });
    }
  }
  // String values: each distinct text is tested once.
  const tested = new Map<number, boolean>();
  for (let r = 0; r < m.records.count; r++) {
    const rows = db.runRows(r, GadbStorageCode.Block);
    if (rows.length === 0) continue;
    const base = db.recordCellStart[r]!;
    const own = m.records.cellCount[r]!;
    for (let j = 0; j < rows.length; j++) {
      const row = rows[j]!;
      if (!TEXT_TYPES.has(d.typeCode[row]! & GADB_TYPE_MASK)) continue;
      const link = d.link[row]!;
      for (let e = 0; e < d.elementCount[row]! && link + e < own; e++) {
        const key = m.cells[base + link + e]!;
        let match = tested.get(key);
        if (match === undefined) {
          match = needle.length > 0 && db.block.text(key).toLowerCase().includes(needle);
          tested.set(key, match);
        }
        if (match) {
          const rec = new DbRecord(db, r);
          add({ kind: 'value', record: rec, field: new Field(rec, row), element: e, text: db.block.text(key) });
        }
      }
    }
  }
  return { query, hash, hits, total };
}
