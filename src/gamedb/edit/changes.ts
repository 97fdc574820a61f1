/**
 * Change files: a human-editable YAML or JSON list of operations that applies to a database, in order. Several
 * change files apply one after another with a per-field conflict report (which file's value wins, which were
 * overridden) — the per-field merge modders know from xEdit and merged patches.
 *
 * Each item is either a line of text or an object:
 *
 *   - set Category/Record.Field = value          { set: Category/Record.Field, value: …, index: 2 }
 *   - set Category/Record.Field[2] = value
 *   - count Category/Record.Field = 3            { count: Category/Record.Field, value: 3 }
 *   - add Category/Record from Template          { add: Category/Record, from: Template }
 *   - remove Category/Record                     { remove: Category/Record }
 *   - rename Category/Record to NewName          { rename: Category/Record, to: NewName }
 *   - add-category Name like Existing            { addCategory: Name, like: Existing }
 *
 * In the text form the value is YAML (so `1.5`, `true`, `"quoted text"`, `[0, 1, 0]` and bare text all work);
 * links are `Category/Record` or `null`.
 */
import { parse as parseYaml } from 'yaml';
import { NotFoundError, UsageError } from '../../binary/errors.ts';
import type { Gadb } from '../../formats/gadb/types.ts';
import { GadbEditor, type EditChange, type EditMessage, type EditorOptions } from './editor.ts';
import { findCategoryByName, fieldHashOf, fieldLabel } from './model.ts';

export type ChangeOp =
  | { op: 'set'; path: string; value: unknown; index?: number }
  | { op: 'count'; path: string; value: number }
  | { op: 'add'; record: string; from?: string }
  | { op: 'remove'; record: string }
  | { op: 'rename'; record: string; to: string }
  | { op: 'add-category'; name: string; like: string };

function str(v: unknown, what: string, where: string): string {
  if (typeof v !== 'string' || v.length === 0) throw new UsageError(`${where}: ${what} must be text`);
  return v;
}

function scalarOf(text: string): unknown {
  try {
    return parseYaml(text);
  } catch {
    return text;
  }
}

/** Parses one item of a change file. */
export function parseChangeOp(item: unknown, where: string): ChangeOp {
  if (typeof item === 'string') {
    const t = item.trim();
    let m = /^set\s+(.+?)\s*=\s*(.*)$/s.exec(t);
    if (m) {
      const raw = m[2]!;
      const v = scalarOf(raw);
      // Keep command-line-like text as typed unless YAML made it structured or quoted.
      return { op: 'set', path: m[1]!, value: typeof v === 'string' || v === null ? (v === null ? null : v) : v };
    }
    m = /^count\s+(.+?)\s*=\s*(\d+)$/.exec(t);
    if (m) return { op: 'count', path: m[1]!, value: Number(m[2]) };
    m = /^add-category\s+(.+?)\s+like\s+(.+)$/.exec(t);
    if (m) return { op: 'add-category', name: m[1]!, like: m[2]! };
    m = /^add\s+(.+?)(?:\s+from\s+(.+))?$/.exec(t);
    if (m) return m[2] !== undefined ? { op: 'add', record: m[1]!, from: m[2] } : { op: 'add', record: m[1]! };
    m = /^(?:remove|rm)\s+(.+)$/.exec(t);
    if (m) return { op: 'remove', record: m[1]! };
    m = /^rename\s+(.+?)\s+to\s+(.+)$/.exec(t);
    if (m) return { op: 'rename', record: m[1]!, to: m[2]! };
    throw new UsageError(`${where}: cannot read ${JSON.stringify(t)} (expected set/count/add/remove/rename/add-category)`);
  }
  if (item && typeof item === 'object' && !Array.isArray(item)) {
    const o = item as Record<string, unknown>;
    if ('set' in o) {
      const op: ChangeOp = { op: 'set', path: str(o['set'], 'set', where), value: o['value'] };
      if (typeof o['index'] === 'number') op.index = o['index'];
      return op;
    }
    if ('count' in o) return { op: 'count', path: str(o['count'], 'count', where), value: Number(o['value']) };
    if ('add' in o) return typeof o['from'] === 'string' ? { op: 'add', record: str(o['add'], 'add', where), from: o['from'] } : { op: 'add', record: str(o['add'], 'add', where) };
    if ('remove' in o) return { op: 'remove', record: str(o['remove'], 'remove', where) };
    if ('rename' in o) return { op: 'rename', record: str(o['rename'], 'rename', where), to: str(o['to'], 'to', where) };
    if ('addCategory' in o) return { op: 'add-category', name: str(o['addCategory'], 'addCategory', where), like: str(o['like'], 'like', where) };
  }
  throw new UsageError(`${where}: an operation must be a line of text or an object with set/count/add/remove/rename/addCategory`);
}

/** Parses a change file (YAML or JSON: JSON is YAML). The document is a list, or `{ changes: [...] }`. */
export function parseChangeFile(text: string, source: string): ChangeOp[] {
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (e) {
    throw new UsageError(`${source}: not valid YAML or JSON: ${(e as Error).message}`);
  }
  if (doc && typeof doc === 'object' && !Array.isArray(doc) && Array.isArray((doc as { changes?: unknown }).changes)) doc = (doc as { changes: unknown[] }).changes;
  if (!Array.isArray(doc)) throw new UsageError(`${source}: expected a list of operations`);
  return doc.map((item, i) => parseChangeOp(item, `${source}: item ${i + 1}`));
}

/** One field set by more than one change file. */
export interface ChangeConflict {
  /** `Category/Record.Field` (with `[i]` for an element). */
  target: string;
  /** The file whose value is in the result (the last one). */
  winner: { file: string; value: unknown };
  /** Earlier files whose values were overridden, in order. */
  overridden: Array<{ file: string; value: unknown }>;
}

export interface ApplyChangesResult {
  gadb: Gadb;
  changes: Array<EditChange & { file: string }>;
  messages: Array<EditMessage & { file: string }>;
  conflicts: ChangeConflict[];
}

function splitCategory(ed: GadbEditor, path: string): { category: string; record: string } {
  let best: { category: string; record: string } | undefined;
  for (let i = path.indexOf('/'); i >= 0; i = path.indexOf('/', i + 1)) {
    if (findCategoryByName(ed.gadb, path.slice(0, i)) >= 0) best = { category: path.slice(0, i), record: path.slice(i + 1) };
  }
  if (!best) throw new NotFoundError(`no category for ${JSON.stringify(path)} (expected Category/Record)`);
  return best;
}

/** What a `set` or `count` operation addressed: `Category/Record`, the field's hash, the element when one was named. */
export interface ChangeTarget {
  record: string;
  hash: number;
  index?: number;
}

/** Applies one list of operations with an existing editor (the building block of `applyChangeFiles`). */
export function applyChangeOps(ed: GadbEditor, ops: ChangeOp[], onSet?: (target: string, value: unknown, at: ChangeTarget) => void): void {
  for (const op of ops) {
    switch (op.op) {
      case 'set': {
        const p = ed.resolveFieldPath(op.path);
        const index = op.index ?? p.index;
        ed.set(p.address, p.field, op.value, index !== undefined ? { index } : {});
        const record = ed.label(p.address);
        const hash = fieldHashOf(p.field, ed.hasher);
        const label = `${record}.${fieldLabel(hash, ed.namer)}${index !== undefined ? `[${index}]` : ''}`;
        onSet?.(label, op.value, index !== undefined ? { record, hash, index } : { record, hash });
        break;
      }
      case 'count': {
        const p = ed.resolveFieldPath(op.path);
        ed.setCount(p.address, p.field, op.value);
        const record = ed.label(p.address);
        const hash = fieldHashOf(p.field, ed.hasher);
        onSet?.(`${record}.${fieldLabel(hash, ed.namer)}#count`, op.value, { record, hash });
        break;
      }
      case 'add': {
        const s = splitCategory(ed, op.record);
        ed.addRecord(s.category, s.record, op.from !== undefined ? { from: op.from } : {});
        break;
      }
      case 'remove':
        ed.removeRecord(ed.resolveRecordPath(op.record));
        break;
      case 'rename':
        ed.renameRecord(ed.resolveRecordPath(op.record), op.to);
        break;
      case 'add-category':
        ed.addCategory(op.name, op.like);
        break;
    }
  }
}

/**
 * Applies change files in order to a copy of `g`. A field set by several files ends with the last file's value;
 * every such field is reported as a conflict with the overridden values.
 */
export function applyChangeFiles(g: Gadb, files: Array<{ name: string; ops: ChangeOp[] }>, options: EditorOptions = {}): ApplyChangesResult {
  const ed = new GadbEditor(g, options);
  const seen = new Map<string, Array<{ file: string; value: unknown }>>();
  const result: ApplyChangesResult = { gadb: ed.gadb, changes: [], messages: [], conflicts: [] };
  for (const f of files) {
    const c0 = ed.changes.length;
    const m0 = ed.messages.length;
    applyChangeOps(ed, f.ops, (target, value) => {
      const list = seen.get(target) ?? [];
      list.push({ file: f.name, value });
      seen.set(target, list);
    });
    for (const c of ed.changes.slice(c0)) result.changes.push({ ...c, file: f.name });
    for (const m of ed.messages.slice(m0)) result.messages.push({ ...m, file: f.name });
  }
  for (const [target, list] of seen) {
    const files = new Set(list.map((x) => x.file));
    if (files.size < 2) continue;
    const winner = list[list.length - 1]!;
    result.conflicts.push({ target, winner, overridden: list.slice(0, -1).filter((x) => x.file !== winner.file) });
  }
  ed.finish();
  return result;
}
