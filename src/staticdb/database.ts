/**
 * `StaticDb`: the runtime layer over the sd2 codec. Opening decodes only the header, the compression and the
 * info section (via `parseSd2`); cells decode on access, pool entries are de-obfuscated on first use and cached.
 * Edits are copy-on-write: a table's row bytes are copied on its first edit, new pool entries are appended to a
 * copy of the pool, and `toFile()` returns a model for `writeSd2` (an unedited database writes byte-identical).
 */
import { ConsistencyError, NotFoundError } from '../binary/errors.ts';
import { parseSd2, writeSd2, Sd2Flags, type ParseSd2Options, type Sd2Field, type Sd2File, type Sd2Table, type WriteSd2Options } from '../formats/sd2/sd2.ts';
import { sd2LocatePoolEntry, sd2ReadPoolEntry, Sd2PoolBuilder } from '../formats/sd2/pool.ts';
import { SD2_TYPES, SD2_TYPE_IDS, sd2CellWidth, type Sd2TypeInfo } from '../formats/sd2/types.ts';
import { sd2DecodeInline, sd2DecodePoolPayload, sd2EncodeInline, sd2EncodePoolPayload, type Sd2Value } from '../formats/sd2/values.ts';
import { ffnv32 } from '../formats/sd2/obfuscation.ts';
import { Sd2Names, sd2Label, sd2ParseRef } from './names.ts';
import { hex32 } from '../binary/text.ts';

export interface StaticDbColumn {
  /** Position in the table's field list. */
  index: number;
  id: number;
  /** Best known name, if any. */
  name: string | undefined;
  /** Name or `0x%08X`. */
  label: string;
  typeId: number;
  type: Sd2TypeInfo;
  start: number;
  width: number;
  nullable: boolean;
  nullableIndex: number;
}

function modelError(path: string, message: string): ConsistencyError {
  return new ConsistencyError('sd2', [{ rule: 'sd2.edit', path, message, severity: 'error' }]);
}

/** One table: schema, lazy row access, key lookup. Obtained from `StaticDb.table()`. */
export class StaticDbTable {
  readonly db: StaticDb;
  readonly index: number;
  /** @internal */ raw: Sd2Table;
  /** @internal */ dv: DataView;
  private columnCache: StaticDbColumn[] | undefined;

  constructor(db: StaticDb, index: number, raw: Sd2Table) {
    this.db = db;
    this.index = index;
    this.raw = raw;
    this.dv = new DataView(raw.rows.buffer, raw.rows.byteOffset, raw.rows.byteLength);
  }

  get id(): number {
    return this.raw.id;
  }
  get name(): string | undefined {
    return this.db.names.get(this.raw.id);
  }
  get label(): string {
    return sd2Label(this.raw.id, this.db.names);
  }
  get rowCount(): number {
    return this.raw.rowCount;
  }

  get columns(): StaticDbColumn[] {
    if (!this.columnCache) {
      const mv = this.db.memoryVersion;
      this.columnCache = this.raw.fields.map((f, index) => {
        const name = this.db.names.get(f.id);
        return { index, id: f.id, name, label: sd2Label(f.id, this.db.names), typeId: f.type, type: SD2_TYPES[f.type]!, start: f.start, width: sd2CellWidth(f.type, mv), nullable: f.nullableIndex !== 255, nullableIndex: f.nullableIndex };
      });
    }
    return this.columnCache;
  }

  /** A column by position, name, `0x` id or decimal id. Throws NotFoundError. */
  column(ref: string | number): StaticDbColumn {
    const cols = this.columns;
    if (typeof ref === 'number') {
      const c = cols[ref];
      if (!c) throw new NotFoundError(`${this.label}: no column #${ref} (has ${cols.length})`);
      return c;
    }
    if (/^#\d+$/.test(ref)) return this.column(Number(ref.slice(1)));
    const id = sd2ParseRef(ref);
    const c = cols.find((x) => x.id === id);
    if (!c) throw new NotFoundError(`${this.label}: no column ${JSON.stringify(ref)} (id ${hex32(id)})`);
    return c;
  }

  private checkRow(row: number): void {
    if (!Number.isInteger(row) || row < 0 || row >= this.raw.rowCount) throw new NotFoundError(`${this.label}: no row ${row} (has ${this.raw.rowCount})`);
  }

  /** Whether a cell is NULL (its null bit is set, or it is a pool cell without an entry). */
  isNull(row: number, column: number): boolean {
    return this.cell(row, column) === null;
  }

  /** Whether the cell's null bit is set (false for non-nullable columns). */
  nullBit(row: number, column: number): boolean {
    const f = this.raw.fields[column]!;
    if (f.nullableIndex === 255) return false;
    const at = row * this.raw.numBytes + this.raw.numUsedBytes + (f.nullableIndex >>> 3);
    return ((this.raw.rows[at]! >>> (f.nullableIndex & 7)) & 1) === 1;
  }

  /** The raw inline bytes of a cell (a view; for pool types, the key). */
  rawCell(row: number, column: number): Uint8Array {
    this.checkRow(row);
    const c = this.columns[column];
    if (!c) throw new NotFoundError(`${this.label}: no column #${column}`);
    const at = row * this.raw.numBytes + c.start;
    return this.raw.rows.subarray(at, at + c.width);
  }

  /** The plain pool entry bytes behind a pool cell (null when the cell has no entry). */
  entryBytes(row: number, column: number): Uint8Array | null {
    this.checkRow(row);
    const f = this.raw.fields[column];
    if (!f) throw new NotFoundError(`${this.label}: no column #${column}`);
    if (!SD2_TYPES[f.type]!.pool) throw new NotFoundError(`${this.label}: column #${column} is not a pool column`);
    if (this.nullBit(row, column)) return null;
    return this.db.poolEntry(this, row, f);
  }

  /** Decodes one cell. */
  cell(row: number, column: number): Sd2Value {
    this.checkRow(row);
    const f = this.raw.fields[column];
    if (!f) throw new NotFoundError(`${this.label}: no column #${column}`);
    if (f.nullableIndex !== 255) {
      const at = row * this.raw.numBytes + this.raw.numUsedBytes + (f.nullableIndex >>> 3);
      if ((this.raw.rows[at]! >>> (f.nullableIndex & 7)) & 1) return null;
    }
    const info = SD2_TYPES[f.type]!;
    if (!info.pool) return sd2DecodeInline(info, this.dv, row * this.raw.numBytes + f.start);
    const plain = this.db.poolEntry(this, row, f);
    return plain === null ? null : sd2DecodePoolPayload(info, plain);
  }

  /** Decodes a whole row, cells in column order. */
  row(row: number): Sd2Value[] {
    this.checkRow(row);
    const n = this.raw.fields.length;
    const out = new Array<Sd2Value>(n);
    for (let c = 0; c < n; c++) out[c] = this.cell(row, c);
    return out;
  }

  /** A row as an object keyed by column label. */
  rowObject(row: number): Record<string, Sd2Value> {
    const values = this.row(row);
    const out: Record<string, Sd2Value> = {};
    this.columns.forEach((c, i) => (out[c.label] = values[i]!));
    return out;
  }

  /**
   * The first row whose first column equals `key` (number, bigint, or string; numeric strings match numbers).
   * Returns -1 when there is none.
   */
  findRowByKey(key: string | number | bigint, column = 0): number {
    if (this.raw.fields.length === 0) return -1;
    for (let r = 0; r < this.raw.rowCount; r++) if (valueMatchesKey(this.cell(r, column), key)) return r;
    return -1;
  }
}

function valueMatchesKey(v: Sd2Value, key: string | number | bigint): boolean {
  if (v === null) return false;
  if (typeof v === 'number' || typeof v === 'bigint') {
    if (typeof key === 'string') {
      if (!/^-?\d+(\.\d+)?$/.test(key.trim()) && !/^0x[0-9a-f]+$/i.test(key.trim())) return false;
      key = /^0x/i.test(key.trim()) ? BigInt(key.trim()) : key.includes('.') ? Number(key) : BigInt(key.trim());
    }
    if (typeof v === 'bigint' || typeof key === 'bigint') {
      try {
        return BigInt(v) === BigInt(key);
      } catch {
        return Number(v) === Number(key);
      }
    }
    return v === key;
  }
  if (typeof v === 'string') return v === String(key);
  return false;
}

export interface CreateStaticDbOptions {
  fileVersion?: number;
  memoryVersion?: 1000 | 1002;
  flags?: number;
  patch?: string;
  timestamp?: bigint;
  names?: Sd2Names;
}

export interface StaticDbNewColumn {
  /** Column name (hashed) or id. */
  name: string | number;
  /** Type name (`UInt`) or id. */
  type: string | number;
  nullable?: boolean;
}

export interface StaticDbAddTableOptions {
  /** Order columns as native tables appear to (width desc, id desc; hypothesis sd2.column-order). */
  nativeOrder?: boolean;
}

/** The runtime view over one sd2 file. */
export class StaticDb {
  file: Sd2File;
  names: Sd2Names;
  private views: (StaticDbTable | undefined)[] = [];
  private poolCache = new Map<number | string, Uint8Array | null>();
  private poolBuilder: Sd2PoolBuilder | undefined;
  private ownedRows = new Set<Sd2Table>();
  /** Growable row buffers of tables that gained rows (raw.rows is a view of the first rowCount × numBytes). */
  private rowCapacity = new Map<Sd2Table, Uint8Array>();
  private dirty = false;

  constructor(file: Sd2File, names: Sd2Names = new Sd2Names()) {
    // The model's image and tables are shallow-copied so edits never touch the caller's object.
    this.file = { ...file, image: { ...file.image, tables: file.image.tables.map((t) => ({ ...t })) } };
    this.names = names;
  }

  /** Opens sd2 bytes (header, compression and info decoded now; rows and pool on access). */
  static open(bytes: Uint8Array, options: ParseSd2Options & { names?: Sd2Names } = {}): StaticDb {
    return new StaticDb(parseSd2(bytes, options), options.names);
  }

  /** An empty database ready for `addTable` (defaults: file version 12, memory version 1002, flags 13). */
  static create(options: CreateStaticDbOptions = {}): StaticDb {
    const file: Sd2File = {
      header: { fileVersion: options.fileVersion ?? 12, flags: options.flags ?? 13, timestamp: options.timestamp ?? 0n, patch: options.patch ?? 'prod-1962' },
      compression: { compressed: ((options.flags ?? 13) & Sd2Flags.Compressed) !== 0, unk04: 0, zlibHeader: 0x7801, adler32: false },
      image: { memoryVersion: options.memoryVersion ?? 1002, tables: [], reserved: new Uint8Array(33), pool: new Uint8Array(0) },
    };
    return new StaticDb(file, options.names);
  }

  get memoryVersion(): number {
    return this.file.image.memoryVersion;
  }
  get tableCount(): number {
    return this.file.image.tables.length;
  }
  /** Whether any edit was made since opening. */
  get edited(): boolean {
    return this.dirty;
  }

  /** Drops cached column labels after names were added to `names` (the next table access labels them anew). */
  namesChanged(): void {
    this.views = [];
  }

  /** Every table, in file order. */
  tables(): StaticDbTable[] {
    return this.file.image.tables.map((_, i) => this.tableAt(i));
  }

  tableAt(index: number): StaticDbTable {
    const raw = this.file.image.tables[index];
    if (!raw) throw new NotFoundError(`no table #${index} (has ${this.tableCount})`);
    let v = this.views[index];
    if (!v || v.raw !== raw) {
      v = new StaticDbTable(this, index, raw);
      this.views[index] = v;
    }
    return v;
  }

  /** A table by name (`dbitems::Weapons`), `0x` id, decimal id or `#index`; undefined when absent. */
  findTable(ref: string | number): StaticDbTable | undefined {
    if (typeof ref === 'string' && /^#\d+$/.test(ref)) {
      const i = Number(ref.slice(1));
      return i < this.tableCount ? this.tableAt(i) : undefined;
    }
    const id = sd2ParseRef(ref);
    const i = this.file.image.tables.findIndex((t) => t.id === id);
    return i < 0 ? undefined : this.tableAt(i);
  }

  /** Like `findTable`, but throws NotFoundError. */
  table(ref: string | number): StaticDbTable {
    const t = this.findTable(ref);
    if (!t) throw new NotFoundError(`no table ${JSON.stringify(String(ref))} (id ${hex32(sd2ParseRef(ref))})`);
    return t;
  }

  /** @internal The plain bytes of a pool cell's entry (cached). */
  poolEntry(table: StaticDbTable, row: number, f: Sd2Field): Uint8Array | null {
    const t = table.raw;
    const at = row * t.numBytes + f.start;
    const keyLow = table.dv.getUint32(at, true);
    const keyHigh = this.memoryVersion === 1000 ? table.dv.getUint32(at + 4, true) : 0;
    const cacheKey = this.memoryVersion === 1000 ? `${keyLow}:${keyHigh}:${row}` : keyLow;
    const cached = this.poolCache.get(cacheKey);
    if (cached !== undefined) return cached;
    const pool = this.currentPool();
    const loc = sd2LocatePoolEntry(pool, this.memoryVersion, this.file.header.flags, keyLow, keyHigh, row, `/pool (table ${table.label} row ${row} column ${sd2Label(f.id, this.names)})`);
    const plain = loc === null ? null : sd2ReadPoolEntry(pool, loc);
    this.poolCache.set(cacheKey, plain);
    return plain;
  }

  // ------------------------------------------------------------ edits

  private own(table: StaticDbTable): Sd2Table {
    const raw = table.raw;
    if (!this.ownedRows.has(raw)) {
      raw.rows = raw.rows.slice();
      this.ownedRows.add(raw);
      table.dv = new DataView(raw.rows.buffer, raw.rows.byteOffset, raw.rows.byteLength);
    }
    this.dirty = true;
    return raw;
  }

  private pool(): Sd2PoolBuilder {
    if (!this.poolBuilder) this.poolBuilder = new Sd2PoolBuilder({ memoryVersion: this.memoryVersion, flags: this.file.header.flags, base: this.file.image.pool });
    return this.poolBuilder;
  }

  /** Copies appended pool entries into the model (once, when the model is handed out). */
  private syncPool(): void {
    if (this.poolBuilder && this.poolBuilder.size !== this.file.image.pool.length) this.file.image.pool = this.poolBuilder.finish();
  }

  /** The stored pool as it is now (appended entries included), without copying. */
  private currentPool(): Uint8Array {
    return this.poolBuilder ? this.poolBuilder.view() : this.file.image.pool;
  }

  /** @internal */
  writeCell(table: StaticDbTable, row: number, column: number, value: unknown): void {
    const raw = table.raw;
    const f = raw.fields[column]!;
    const info = SD2_TYPES[f.type]!;
    const path = (): string => `/tables[${table.index}]/rows[${row}]/${sd2Label(f.id, this.names)}`;
    const at = row * raw.numBytes + f.start;
    const width = sd2CellWidth(f.type, this.memoryVersion);
    const nullAt = row * raw.numBytes + raw.numUsedBytes + (f.nullableIndex >>> 3);
    const setNullBit = (on: boolean): void => {
      if (f.nullableIndex === 255) return;
      const bit = 1 << (f.nullableIndex & 7);
      raw.rows[nullAt] = on ? raw.rows[nullAt]! | bit : raw.rows[nullAt]! & ~bit;
    };
    if (value === null || value === undefined) {
      if (f.nullableIndex === 255 && !info.pool && info.kind !== 'none') throw modelError(path(), `column is not nullable`);
      raw.rows.fill(0, at, at + width);
      setNullBit(true);
      return;
    }
    if (info.pool) {
      const plain = sd2EncodePoolPayload(info, value);
      if (typeof plain === 'string') throw modelError(path(), plain);
      const key = this.pool().add(plain, row);
      if (this.memoryVersion === 1000) table.dv.setBigUint64(at, key, true);
      else table.dv.setUint32(at, Number(key), true);
      setNullBit(key === 0n && f.nullableIndex !== 255);
      return;
    }
    const problem = sd2EncodeInline(info, value, table.dv, at);
    if (problem) throw modelError(path(), problem);
    setNullBit(false);
  }

  /** Sets one cell (null clears it: null bit for nullable columns, key 0 for pool columns). */
  setCell(tableRef: string | number | StaticDbTable, row: number, columnRef: string | number, value: unknown): void {
    const table = tableRef instanceof StaticDbTable ? tableRef : this.table(tableRef);
    const column = table.column(columnRef);
    if (!Number.isInteger(row) || row < 0 || row >= table.rowCount) throw new NotFoundError(`${table.label}: no row ${row} (has ${table.rowCount})`);
    this.own(table);
    this.writeCell(table, row, column.index, value);
  }

  /**
   * Appends a row. `values` is an array in column order or an object keyed by column label, name or id; missing
   * cells are NULL where nullable and zero (no entry for pool columns) otherwise. Returns the row index.
   */
  addRow(tableRef: string | number | StaticDbTable, values: unknown[] | Record<string, unknown> = []): number {
    const table = tableRef instanceof StaticDbTable ? tableRef : this.table(tableRef);
    const raw = this.own(table);
    const need = raw.rows.length + raw.numBytes;
    let buf = this.rowCapacity.get(raw);
    if (!buf || buf.buffer !== raw.rows.buffer || buf.byteOffset !== raw.rows.byteOffset || need > buf.length) {
      // Doubling keeps appending a million rows linear.
      const next = new Uint8Array(Math.max(need, raw.rows.length * 2, raw.numBytes * 16));
      next.set(raw.rows);
      buf = next;
      this.rowCapacity.set(raw, buf);
    }
    buf.fill(0, raw.rows.length, need);
    raw.rows = buf.subarray(0, need);
    raw.rowCount++;
    table.dv = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
    const row = raw.rowCount - 1;
    const cols = table.columns;
    const byColumn = new Array<unknown>(cols.length).fill(undefined);
    if (Array.isArray(values)) values.forEach((v, i) => (byColumn[i] = v));
    else for (const [k, v] of Object.entries(values)) byColumn[table.column(k).index] = v;
    cols.forEach((c, i) => {
      const v = byColumn[i];
      if (v === undefined) {
        if (c.nullable) this.writeCell(table, row, i, null);
      } else this.writeCell(table, row, i, v);
    });
    return row;
  }

  /** Removes a row (later rows move up; in memory version 1000 their pool entries are re-keyed to the new index). */
  removeRow(tableRef: string | number | StaticDbTable, row: number): void {
    const table = tableRef instanceof StaticDbTable ? tableRef : this.table(tableRef);
    if (!Number.isInteger(row) || row < 0 || row >= table.rowCount) throw new NotFoundError(`${table.label}: no row ${row} (has ${table.rowCount})`);
    const raw = table.raw;
    const poolCols = raw.fields.map((f, i) => (SD2_TYPES[f.type]!.pool ? i : -1)).filter((i) => i >= 0);
    // Memory version 1000 seeds each entry with its row index: decode the moving rows before they move.
    const moving: (Uint8Array | null)[][] = [];
    if (this.memoryVersion === 1000) {
      for (let r = row + 1; r < raw.rowCount; r++) moving.push(poolCols.map((c) => (table.nullBit(r, c) ? null : this.poolEntry(table, r, raw.fields[c]!))));
    }
    this.own(table);
    const next = new Uint8Array(raw.rows.length - raw.numBytes);
    next.set(raw.rows.subarray(0, row * raw.numBytes));
    next.set(raw.rows.subarray((row + 1) * raw.numBytes), row * raw.numBytes);
    raw.rows = next;
    raw.rowCount--;
    table.dv = new DataView(next.buffer, next.byteOffset, next.byteLength);
    this.poolCache.clear();
    if (this.memoryVersion === 1000) {
      moving.forEach((entries, k) => {
        const r = row + k;
        poolCols.forEach((c, j) => {
          const plain = entries[j];
          if (plain === null || plain === undefined) return;
          table.dv.setBigUint64(r * raw.numBytes + raw.fields[c]!.start, this.pool().add(plain, r), true);
        });
      });
      this.syncPool();
      this.poolCache.clear();
    }
  }

  /** Adds an empty table. Column starts are packed without gaps; nullable columns get bits 0…k−1. */
  addTable(name: string | number, columns: StaticDbNewColumn[], options: StaticDbAddTableOptions = {}): StaticDbTable {
    const id = typeof name === 'number' ? name >>> 0 : (this.names.add(name, 'added'), ffnv32(name));
    if (this.file.image.tables.some((t) => t.id === id)) throw modelError('/tables', `a table with id 0x${id.toString(16)} already exists`);
    const mv = this.memoryVersion;
    let cols = columns.map((c) => {
      const typeId = typeof c.type === 'number' ? c.type : SD2_TYPE_IDS[c.type];
      if (typeId === undefined || !SD2_TYPES[typeId]) throw modelError('/tables', `unknown type ${String(c.type)}`);
      const colId = typeof c.name === 'number' ? c.name >>> 0 : (this.names.add(c.name, 'added'), ffnv32(c.name));
      return { id: colId, typeId, nullable: c.nullable === true, width: sd2CellWidth(typeId, mv) };
    });
    if (new Set(cols.map((c) => c.id)).size !== cols.length) throw modelError('/tables', 'duplicate column ids');
    if (options.nativeOrder) cols = [...cols].sort((a, b) => b.width - a.width || b.id - a.id);
    let start = 0;
    let nullable = 0;
    const fields: Sd2Field[] = cols.map((c) => {
      const f: Sd2Field = { id: c.id, start, nullableIndex: c.nullable ? nullable++ : 255, type: c.typeId };
      start += c.width;
      return f;
    });
    if (nullable > 255) throw modelError('/tables', 'more than 255 nullable columns');
    const nullableBytes = Math.ceil(nullable / 8);
    // A table of only zero-width (Unknown) columns still gets a 4-byte stride: readers refuse rows of 0 bytes.
    const numBytes = Math.max(4, (start + nullableBytes + 3) & ~3);
    if (numBytes > 0xffff) throw modelError('/tables', `row of ${numBytes} bytes exceeds 65535`);
    const raw: Sd2Table = { id, numBytes, numUsedBytes: start, nullableBytes, fields, rowCount: 0, rows: new Uint8Array(0) };
    this.file.image.tables.push(raw);
    this.ownedRows.add(raw);
    this.dirty = true;
    return this.tableAt(this.file.image.tables.length - 1);
  }

  /** Removes a table. */
  removeTable(ref: string | number): void {
    const t = this.table(ref);
    this.file.image.tables.splice(t.index, 1);
    this.views = [];
    this.dirty = true;
  }

  /**
   * A new database keeping only the named tables (in file order), with a pool rebuilt to hold only what they use
   * (the emulator community trims the client DB to what its server reads).
   */
  subset(refs: (string | number)[]): StaticDb {
    this.syncPool();
    const keep = new Set(refs.map((r) => this.table(r).index));
    const sub = new StaticDb({ header: this.file.header, compression: this.file.compression, image: { ...this.file.image } }, this.names);
    delete sub.file.image.layout;
    // The shallow-copied tables still read the old pool, so the rebuild decodes through `this`.
    return sub.rebuildFrom(this, [...keep].sort((a, b) => a - b));
  }

  /**
   * A new database with a freshly built pool: entries in table → column → row order (as FauFau writes), identical
   * bytes stored once (exact comparison), long-form keys unless `shortKeys`, canonical row layout.
   */
  compact(options: { shortKeys?: boolean } = {}): StaticDb {
    this.syncPool();
    const copy = new StaticDb({ header: this.file.header, compression: this.file.compression, image: { ...this.file.image } }, this.names);
    delete copy.file.image.layout;
    return copy.rebuildFrom(this, this.file.image.tables.map((_, i) => i), options.shortKeys);
  }

  private rebuildFrom(src: StaticDb, tableIndexes: number[], shortKeys = false): StaticDb {
    const builder = new Sd2PoolBuilder({ memoryVersion: this.memoryVersion, flags: this.file.header.flags, shortKeys });
    this.file.image.tables = tableIndexes.map((ti) => {
      const view = src.tableAt(ti);
      const raw = view.raw;
      const rows = raw.rows.slice();
      const dv = new DataView(rows.buffer);
      raw.fields.forEach((f, c) => {
        if (!SD2_TYPES[f.type]!.pool) return;
        for (let r = 0; r < raw.rowCount; r++) {
          const at = r * raw.numBytes + f.start;
          const plain = view.nullBit(r, c) ? null : src.poolEntry(view, r, f);
          const key = plain === null ? 0n : builder.add(plain, r);
          if (this.memoryVersion === 1000) dv.setBigUint64(at, key, true);
          else dv.setUint32(at, Number(key), true);
        }
      });
      return { ...raw, fields: raw.fields.map((f) => ({ ...f })), rows };
    });
    this.file.image.pool = builder.finish();
    this.views = [];
    this.poolCache.clear();
    this.ownedRows = new Set(this.file.image.tables);
    this.dirty = true;
    return this;
  }

  /** Converts to another memory version (pool keys re-encoded, row strides recomputed). */
  withMemoryVersion(memoryVersion: 1000 | 1002): StaticDb {
    this.syncPool();
    if (memoryVersion === this.memoryVersion) return this.compact();
    const out = StaticDb.create({ fileVersion: this.file.header.fileVersion, memoryVersion, flags: this.file.header.flags, patch: this.file.header.patch, timestamp: this.file.header.timestamp, names: this.names });
    out.file.compression = { ...this.file.compression, compressed: this.file.compression.compressed };
    out.file.image.reserved = this.file.image.reserved;
    for (const t of this.tables()) {
      const nt = out.addTable(t.id, t.columns.map((c) => ({ name: c.id, type: c.typeId, nullable: c.nullable })));
      for (let r = 0; r < t.rowCount; r++) {
        // Raw inline bytes and plain pool bytes are copied, so NaN payloads and odd strings survive.
        const row = out.addRow(nt);
        const dst = nt.raw;
        t.columns.forEach((c, i) => {
          if (t.nullBit(r, i)) return;
          if (c.type.pool) {
            const plain = t.entryBytes(r, i);
            if (plain !== null) out.writeCell(nt, row, i, plain);
          } else {
            dst.rows.set(t.rawCell(r, i), row * dst.numBytes + nt.columns[i]!.start);
            if (c.nullable) {
              const f = dst.fields[i]!;
              const at = row * dst.numBytes + dst.numUsedBytes + (f.nullableIndex >>> 3);
              dst.rows[at] = dst.rows[at]! & ~(1 << (f.nullableIndex & 7));
            }
          }
        });
      }
    }
    return out;
  }

  /**
   * A copy with other header flags. When the Client flag changes in memory version 1002 the pool is rebuilt,
   * since that flag decides whether entries are XORed; the Compressed flag decides whether the payload is deflated.
   */
  withFlags(flags: number): StaticDb {
    this.syncPool();
    const clientChanges = ((flags ^ this.file.header.flags) & Sd2Flags.Client) !== 0 && this.memoryVersion === 1002;
    const header = { ...this.file.header, flags };
    const compression = { ...this.file.compression, compressed: (flags & Sd2Flags.Compressed) !== 0 };
    if (!clientChanges) return new StaticDb({ ...this.file, header, compression }, this.names);
    const copy = new StaticDb({ header, compression, image: { ...this.file.image } }, this.names);
    delete copy.file.image.layout;
    return copy.rebuildFrom(this, this.file.image.tables.map((_, i) => i));
  }

  /** The current model (for `writeSd2`). */
  toFile(): Sd2File {
    this.syncPool();
    return this.file;
  }

  /** Writes the database (byte-identical when unedited). */
  write(options: WriteSd2Options = {}): Uint8Array {
    return writeSd2(this.toFile(), options);
  }

}
