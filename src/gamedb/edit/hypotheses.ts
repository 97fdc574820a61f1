/**
 * What editing, patches and merges assume beyond the codec's own hypotheses (`formats/gadb/hypotheses.ts`):
 * each is a guess the seed leaves open, implemented in one place and reported by the commands that rely on it.
 */
export interface EditHypothesis {
  readonly id: string;
  readonly statement: string;
  readonly status: 'inferred' | 'unknown' | 'choice';
  /** Where the open question is stated. */
  readonly spec: string;
  /** Where scry implements it. */
  readonly handling: string;
}

export const EDIT_HYPOTHESES: readonly EditHypothesis[] = [
  {
    id: 'H-EDIT-BUILD-TAG',
    statement: 'The build tag the patch loader compares (loaded header +0x2C) is the file header\'s +0x20 (the opaque 0xABF244DF of the sample).',
    status: 'unknown',
    spec: 'seed "Other copies and the patch database"; gadb.md §3.2 (+0x20 unknown)',
    handling: 'gadbBuildTag(); makeGadbPatch copies the base\'s +0x20; applyGadbPatch refuses a mismatch unless ignoreBuildTag.',
  },
  {
    id: 'H-EDIT-PATCH-RULE',
    statement: 'A record both the base and the patch define is replaced by the patch\'s record (the seed names "replace, or append under the same name" as the open alternatives).',
    status: 'choice',
    spec: 'seed "Open questions" (per-record merge rule not traced)',
    handling: 'applyGadbPatch option rule: replace (default) or keep-base. "append" is not offered: two records with one name break the binary search.',
  },
  {
    id: 'H-EDIT-PATCH-LINKS',
    statement: 'A patch record\'s RecordLinks are numbered in the merged database (base ∪ patch, categories and records each in sorted order).',
    status: 'unknown',
    spec: 'seed "Other copies and the patch database" (the merge sizes are traced, link resolution is not)',
    handling: 'makeGadbPatch keeps the edited copy\'s link cells (its numbering equals the merged one when nothing was removed); applyGadbPatch copies them verbatim after placing every new category and record. verify of a patch alone reports its links as out of range.',
  },
  {
    id: 'H-EDIT-SLOT-ORDER',
    statement: 'When a count changes, the record\'s non-Bool fields keep the slot order the file already uses (type code, then hash; count-0 fields just before the field that shares their link).',
    status: 'inferred',
    spec: 'gadb.md §3.6 (the order of flagged codes 0x44 is unknown, H-SLOT-FLAGGED)',
    handling: 'GadbEditor.setCount re-packs fields in their current link order, so whichever rule the file follows is kept.',
  },
  {
    id: 'H-EDIT-NEW-RUN',
    statement: 'A record whose layout no other record of its category has gets a new descriptor run placed right after its category\'s runs; a run no record uses any more is removed.',
    status: 'inferred',
    spec: 'gadb.md §3.4 (runs in category order); seed (876 categories hold several layouts)',
    handling: 'GadbEditor #replaceLayout / #collectRun.',
  },
];
