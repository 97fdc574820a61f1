/**
 * Staged edits of one opened database. Edits are applied, as they are staged, to a `GadbEditor` working on its
 * own copy of the model (the opened database never changes), so a bad value is refused at once with the
 * editor's message, and the editor's warnings and engine notes travel with the edit. A preview `Database` over
 * the edited copy answers "what will the value be"; saving writes the editor's model.
 *
 * Staging the same field again replaces the earlier edit; an edit that brings a value back to the original is
 * dropped. Unstaging replays the remaining edits on a fresh copy (edits are few; the copy is one model clone).
 */
import { NotFoundError } from '../binary/errors.ts';
import type { Gadb } from '../formats/gadb/types.ts';
import { Database } from '../gamedb/database.ts';
import { formatHash } from '../gamedb/names.ts';
import { GadbEditor, type EditMessage } from '../gamedb/edit/editor.ts';
import type { ChangeOp } from '../gamedb/edit/changes.ts';
import type { StagedEdit, TypedValue } from './api-types.ts';
import type { PersistedEdit } from './state.ts';
import { elementValue, fieldValue, recordRef } from './gadb-view.ts';

interface Entry {
  id: number;
  record: number;
  fieldHash: number;
  element: number | undefined;
  input: unknown;
  messages: EditMessage[];
}

export class Staging {
  readonly db: Database;
  #entries: Entry[] = [];
  #editor: GadbEditor | undefined;
  #preview: Database | undefined;
  #nextId = 1;
  /** Told the edits (as kept on disk) after every change, so they outlive the server. */
  readonly #onChange: ((edits: PersistedEdit[]) => void) | undefined;
  #restoring = false;

  constructor(db: Database, onChange?: (edits: PersistedEdit[]) => void) {
    this.db = db;
    this.#onChange = onChange;
  }

  #changed(): void {
    if (!this.#restoring) this.#onChange?.(this.persisted());
  }

  /** The staged edits as the work folder keeps them: records by `Category/Record`, fields by hash. */
  persisted(): PersistedEdit[] {
    return this.#entries.map((e) => {
      const rec = this.db.record(e.record);
      const out: PersistedEdit = { category: rec.category.name, record: rec.label, field: e.fieldHash, input: e.input };
      if (e.element !== undefined) out.element = e.element;
      return out;
    });
  }

  /**
   * Stages kept edits again (after a restart). Returns why any could not be (the record is gone, the value is
   * refused now); those are dropped.
   */
  restore(edits: PersistedEdit[]): string[] {
    const problems: string[] = [];
    this.#restoring = true;
    try {
      for (const e of edits) {
        const where = `${e.category}/${e.record}.${formatHash(e.field)}${e.element !== undefined ? `[${e.element}]` : ''}`;
        const rec = this.db.findCategory(e.category)?.findRecord(e.record);
        if (!rec) {
          problems.push(`${where}: the record is no longer in the file`);
          continue;
        }
        try {
          this.stage(rec.index, formatHash(e.field), e.element, e.input);
        } catch (err) {
          problems.push(`${where}: ${(err as Error).message}`);
        }
      }
    } finally {
      this.#restoring = false;
    }
    if (problems.length > 0) this.#changed();
    return problems;
  }

  #address(record: number) {
    const category = this.db.recordCategory[record]!;
    return { category, index: record - this.db.categoryFirstRecord[category]!, record };
  }

  #apply(editor: GadbEditor, e: Pick<Entry, 'record' | 'fieldHash' | 'element' | 'input'>): EditMessage[] {
    const options = e.element === undefined ? {} : { index: e.element };
    return editor.set(this.#address(e.record), formatHash(e.fieldHash), e.input, options);
  }

  #newEditor(): GadbEditor {
    return new GadbEditor(this.db.model, { namer: this.db.names });
  }

  #rebuild(): void {
    this.#preview = undefined;
    if (this.#entries.length === 0) {
      this.#editor = undefined;
      return;
    }
    const editor = this.#newEditor();
    for (const e of this.#entries) e.messages = this.#apply(editor, e);
    this.#editor = editor;
  }

  #previewDb(): Database {
    if (!this.#editor) return this.db;
    this.#preview ??= new Database(this.#editor.gadb, { names: this.db.names, table: this.db.table });
    return this.#preview;
  }

  /** Stages `record.field[element] = input` (input as `GadbEditor.set` accepts it); throws the editor's error when refused. */
  stage(record: number, field: string, element: number | undefined, input: unknown): StagedEdit {
    const rec = this.db.record(record);
    const f = rec.field(field);
    if (!f) throw new NotFoundError(`${rec.path} has no field ${field}`);
    const entry: Entry = { id: this.#nextId++, record, fieldHash: f.hash, element, input, messages: [] };
    const editor = (this.#editor ??= this.#newEditor());
    entry.messages = this.#apply(editor, entry);
    this.#preview = undefined;
    const same = (e: Entry) => e.record === record && e.fieldHash === f.hash && e.element === element;
    const previous = this.#entries.findIndex(same);
    if (previous >= 0) {
      entry.id = this.#entries[previous]!.id;
      this.#entries[previous] = entry;
    } else this.#entries.push(entry);
    const view = this.#view(entry);
    if (JSON.stringify(view.before) === JSON.stringify(view.after)) {
      // Back to the original value: nothing to save for this field.
      this.#entries = this.#entries.filter((e) => !same(e));
      this.#rebuild();
    }
    this.#changed();
    return view;
  }

  unstage(id: number): void {
    const before = this.#entries.length;
    this.#entries = this.#entries.filter((e) => e.id !== id);
    if (this.#entries.length === before) throw new NotFoundError(`no staged edit ${id}`);
    this.#rebuild();
    this.#changed();
  }

  clear(): void {
    this.#entries = [];
    this.#rebuild();
    this.#changed();
  }

  #view(e: Entry): StagedEdit {
    const rec = this.db.record(e.record);
    const f = rec.field(e.fieldHash)!;
    const after = this.#previewDb().record(e.record).field(e.fieldHash)!;
    const out: StagedEdit = {
      id: e.id,
      record: recordRef(rec),
      field: { hex: formatHash(f.hash), type: f.typeName },
      before: e.element === undefined ? fieldValue(f) : elementValue(f, e.element),
      after: e.element === undefined ? fieldValue(after) : elementValue(after, e.element),
      messages: e.messages.map((m) => ({ severity: m.severity, message: m.message })),
    };
    if (f.name !== undefined) out.field.name = f.name;
    if (e.element !== undefined) out.element = e.element;
    return out;
  }

  list(): StagedEdit[] {
    return this.#entries.map((e) => this.#view(e));
  }

  /** The staged value of a field of a record, when one is staged. */
  stagedValue(record: number, fieldHash: number): TypedValue | undefined {
    if (!this.#entries.some((e) => e.record === record && e.fieldHash === fieldHash)) return undefined;
    const f = this.#previewDb().record(record).field(fieldHash);
    return f ? fieldValue(f) : undefined;
  }

  /**
   * The staged edits as change-file operations (`docs/gamedb-editing.md`), in staging order: one `set` per edit,
   * the record as `Category/Record` (`#N` for a primary), the field by its hash (`0x…`, unambiguous whether or
   * not its name is known), the element as `index`, and the value as it was given to `GadbEditor.set`.
   */
  changeOps(): ChangeOp[] {
    return this.#entries.map((e) => {
      const rec = this.db.record(e.record);
      const op: ChangeOp = { op: 'set', path: `${rec.category.name}/${rec.label}.${formatHash(e.fieldHash)}`, value: e.input };
      if (e.element !== undefined) op.index = e.element;
      return op;
    });
  }

  /** The edited model, ready to write (the editor compacts its string block; it stays usable). */
  result(): Gadb {
    if (!this.#editor) throw new NotFoundError('nothing staged');
    const g = this.#editor.finish();
    this.#preview = undefined;
    return g;
  }
}
