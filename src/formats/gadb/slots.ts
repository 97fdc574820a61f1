/**
 * The cell slot rule [V, all 16 sample records; seed "The slot rule"]: how a record type's fields are placed in
 * its cells, i.e. what each descriptor's `link` must be.
 *
 * 1. Bools, in ascending field-hash order, take bit indexes 0, 1, 2, … and occupy `ceil(bits / 32)` leading
 *    cells (a run without Bools has no bool word, H-SLOT-NOBOOL; a Bool of count n takes n bits, H-BOOL-ARRAY).
 * 2. Every other field follows, grouped by ascending type code and, within a type, by ascending field hash; each
 *    takes `count` consecutive cells (a count-0 field takes none and shares the next field's link).
 * 3. The record's cell count is the total.
 *
 * Whether a flagged code (0x44) sorts by its full byte or by its low 6 bits is unknown (H-SLOT-FLAGGED): both
 * orders are available; `verifyGadb` accepts either and says which a file uses.
 */
import { GADB_TYPE_MASK, gadbTypeInfo } from './type-codes.ts';
import type { GadbDescriptors } from './types.ts';

/** H-SLOT-FLAGGED: `full` sorts by the whole type byte (0x44 after 16), `base` by its low 6 bits (0x44 with 4). */
export type GadbFlaggedOrder = 'full' | 'base';

/** The slot rule's default reading of H-SLOT-FLAGGED. */
export const DEFAULT_GADB_FLAGGED_ORDER: GadbFlaggedOrder = 'full';

/** Sort key of a type byte in the slot rule's type grouping. */
export function gadbSlotOrderKey(typeByte: number, order: GadbFlaggedOrder = DEFAULT_GADB_FLAGGED_ORDER): number {
  return order === 'full' ? typeByte : typeByte & GADB_TYPE_MASK;
}

/** The fields of one run, as the slot rule sees them (declaration order). */
export interface GadbSlotField {
  hash: number;
  typeByte: number;
  count: number;
}

/** Result of the slot rule for one run. */
export interface GadbSlotAssignment {
  /** Link of each field, in declaration order (Bool: a bit index; others: a cell index). */
  links: number[];
  /** Bool bits used. */
  boolBits: number;
  /** Cells the record owns: bool words plus every other field's count. */
  cellCount: number;
}

/** Applies the slot rule to `fields` (declaration order). */
export function assignGadbSlots(fields: readonly GadbSlotField[], order: GadbFlaggedOrder = DEFAULT_GADB_FLAGGED_ORDER): GadbSlotAssignment {
  const links = new Array<number>(fields.length).fill(0);
  const bools: number[] = [];
  const others: number[] = [];
  for (let i = 0; i < fields.length; i++) (gadbTypeInfo(fields[i]!.typeByte)?.storage === 'bit' ? bools : others).push(i);
  bools.sort((a, b) => fields[a]!.hash - fields[b]!.hash);
  let bit = 0;
  for (const i of bools) {
    links[i] = bit;
    bit += fields[i]!.count;
  }
  const words = (bit + 31) >>> 5;
  others.sort((a, b) => gadbSlotOrderKey(fields[a]!.typeByte, order) - gadbSlotOrderKey(fields[b]!.typeByte, order) || fields[a]!.hash - fields[b]!.hash);
  let slot = words;
  for (const i of others) {
    links[i] = slot;
    slot += fields[i]!.count;
  }
  return { links, boolBits: bit, cellCount: slot };
}

/** The slot-rule fields of the run `[first, first + count)` of a descriptor table. */
export function gadbRunFields(d: GadbDescriptors, first: number, count: number): GadbSlotField[] {
  const out: GadbSlotField[] = new Array<GadbSlotField>(count);
  for (let j = 0; j < count; j++) out[j] = { hash: d.declaredHash[first + j]!, typeByte: d.typeCode[first + j]!, count: d.elementCount[first + j]! };
  return out;
}
