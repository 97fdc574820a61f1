/** Public surface of GameDB editing: the editor, diff, patch databases, change files, export/import. */
export { GadbEditor, boolWordCount, type EditorOptions, type EditMessage, type EditChange, type RecordContent } from './editor.ts';
export { diffGadb, diffCount as gadbDiffCount, formatDiffText as formatGadbDiff, type GadbDiff, type FieldChange as GadbFieldChange, type RecordChange as GadbRecordChange } from './diff.ts';
export { makeGadbPatch, applyGadbPatch, gadbBuildTag, type PatchRecordRule, type MakePatchResult, type ApplyPatchOptions, type ApplyPatchResult } from './patch.ts';
export { parseChangeFile, parseChangeOp, applyChangeFiles, applyChangeOps, type ChangeOp, type ChangeConflict, type ApplyChangesResult } from './changes.ts';
export { conflictsOf, type ConflictSource, type ConflictRow, type ConflictReport, type ConflictStatus, type SourceValue } from './conflicts.ts';
export { exportGadbJson, exportGadbJsonBytes, importGadbJson, readGadbJson, GADB_JSON_FORMAT, type ImportJsonOptions } from './json.ts';
export { exportJsonl as exportGadbJsonl, exportCsv as exportGadbCsv } from './tables.ts';
export { exportSqlite as exportGadbSqlite, type SqlDatabase as GadbSqlSink } from './sqlite.ts';
export { FIELD_NOTES as GADB_FIELD_NOTES, notesFor as gadbFieldNotesFor, type FieldNote as GadbFieldNote } from './notes.ts';
export { EDIT_HYPOTHESES, type EditHypothesis } from './hypotheses.ts';
