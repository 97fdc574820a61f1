/** Errors of the gamedb runtime layer (all `ToolkitError`s: the CLI reports them as bad input, exit 3). */
import { ToolkitError } from '../binary/errors.ts';

/** A typed getter was called on a field of another type (e.g. `getInt` on a Float). */
export class FieldTypeError extends ToolkitError {
  override name = 'FieldTypeError';
  readonly expected: string;
  readonly actual: string;
  constructor(message: string, expected: string, actual: string) {
    super('E_FIELD_TYPE', message);
    this.expected = expected;
    this.actual = actual;
  }
}

/**
 * A cached field slot was applied to a record whose run does not declare that field at the cached index. The
 * engine's fast getters would silently read another field there (seed "Reading a field"); scry refuses.
 */
export class SlotMismatchError extends ToolkitError {
  override name = 'SlotMismatchError';
  constructor(message: string) {
    super('E_SLOT_MISMATCH', message);
  }
}
