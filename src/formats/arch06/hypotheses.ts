/**
 * The arch06 module's inferred rules (spec `archives.md`), each implemented in one place and reported by
 * `verifyArch06` when a real file contradicts it.
 */
export interface Arch06Hypothesis {
  readonly id: string;
  readonly statement: string;
  readonly status: 'verified' | 'inferred' | 'open';
}

export const ARCH06_HYPOTHESES = {
  gap: {
    id: 'arch06.gap',
    statement: 'Retail archives leave exactly 6 × fileCount zero bytes between the folder table and the first data offset (sizes verified on 2 archives; the zeros are MordorFormats\' word; a community mod left 222 bytes for 2 files)',
    status: 'inferred',
  },
  stringOrder: {
    id: 'arch06.stringOrder',
    statement: 'Retail string tables list, for each file in full-path order, its name if new, then each new ancestor folder path, shortest first (fits 2 archives exactly)',
    status: 'inferred',
  },
  headerFlags: {
    id: 'arch06.headerFlags',
    statement: 'Header words at 20/24/28 are isRetail/isDownloadable/hasCRC (ImHex names; 1/0/0 in retail, 0/0/0 in a mod); the 16-byte GUID is zero',
    status: 'open',
  },
  compressionLevel: {
    id: 'arch06.compressionLevel',
    statement: 'The level byte (9 in retail, 0 in a mod) does not select the codec: each chunk names its Oodle codec',
    status: 'inferred',
  },
  rawChunks: {
    id: 'arch06.rawChunks',
    statement: 'A chunk whose stored size equals its raw size holds the raw bytes (both public readers do this; whether the game accepts such chunks is untested)',
    status: 'open',
  },
  sortedNames: {
    id: 'arch06.sortedNames',
    statement: 'Sibling folders and the files of a folder are in ascending (case-insensitive) name order (verified on 2 archives)',
    status: 'verified',
  },
} as const satisfies Record<string, Arch06Hypothesis>;

export const ARCH06_HYPOTHESIS_LIST: readonly Arch06Hypothesis[] = Object.values(ARCH06_HYPOTHESES);
