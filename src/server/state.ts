/**
 * What a workbench run keeps in its work folder so a restart loses nothing: the files it saved or extracted
 * (served again when they still exist) and the edits staged on each database (staged again when it is opened).
 * One JSON file, `workbench-state.json`, written atomically after every change; files are named by their disk
 * path (the work folder is the user's own), records by `Category/Record` and fields by hash, so the state still
 * applies when ids or record positions change.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { writeFileAtomic } from '../node/fs.ts';
import type { FileOrigin } from './workspace.ts';

/** One staged edit as kept on disk. */
export interface PersistedEdit {
  category: string;
  /** Record name, or `#N` for a primary. */
  record: string;
  field: number;
  element?: number;
  /** The value as given to `GadbEditor.set`. */
  input: unknown;
}

/** A file the workbench wrote (a save, a patch, an extracted entry). */
export interface PersistedFile {
  path: string;
  origin: Extract<FileOrigin, 'saved' | 'extracted'>;
  /** Disk path of the file it was saved or extracted from. */
  from?: string;
  /** Disk path of the database a patch applies to. */
  patchOf?: string;
}

interface StateFile {
  format: 'scry-workbench-state';
  version: 1;
  files: PersistedFile[];
  /** Staged edits per database path. */
  edits: Record<string, PersistedEdit[]>;
}

/** The state file's name in the work folder. */
export const STATE_FILE = 'workbench-state.json';

export class WorkbenchState {
  readonly #path: string | undefined;
  #state: StateFile = { format: 'scry-workbench-state', version: 1, files: [], edits: {} };
  /** Why the previous state could not be read, if it could not. */
  readonly problem: string | undefined;

  /** `workDir` undefined: nothing is kept (tests, or a run that asked for none). */
  constructor(workDir: string | undefined) {
    this.#path = workDir === undefined ? undefined : join(workDir, STATE_FILE);
    if (this.#path === undefined || !existsSync(this.#path)) return;
    try {
      const data = JSON.parse(readFileSync(this.#path, 'utf8')) as Partial<StateFile>;
      if (data.format !== 'scry-workbench-state' || data.version !== 1) throw new Error('not a workbench state file of version 1');
      this.#state = { format: 'scry-workbench-state', version: 1, files: Array.isArray(data.files) ? data.files : [], edits: data.edits && typeof data.edits === 'object' ? data.edits : {} };
    } catch (e) {
      this.problem = `${STATE_FILE} was not read (${(e as Error).message}); it will be replaced`;
    }
  }

  /** Whether the state is kept on disk. */
  get persistent(): boolean {
    return this.#path !== undefined;
  }

  /** Files written by earlier runs that still exist. */
  files(): PersistedFile[] {
    return this.#state.files.filter((f) => existsSync(f.path));
  }

  /** Remembers a file the workbench wrote. */
  addFile(file: PersistedFile): void {
    const path = resolve(file.path);
    this.#state.files = [...this.#state.files.filter((f) => f.path !== path), { ...file, path }];
    this.#write();
  }

  /** The edits kept for the database at `path`. */
  edits(path: string): PersistedEdit[] {
    return this.#state.edits[resolve(path)] ?? [];
  }

  /** Replaces the edits kept for the database at `path` (none: forgets it). */
  setEdits(path: string, edits: PersistedEdit[]): void {
    const key = resolve(path);
    if (edits.length === 0) delete this.#state.edits[key];
    else this.#state.edits[key] = edits;
    this.#write();
  }

  #write(): void {
    if (this.#path === undefined) return;
    writeFileAtomic(this.#path, JSON.stringify(this.#state, null, 1) + '\n', { overwrite: true, backup: false });
  }
}
