/** The mount vector's rules: which come from the seed (engine facts) and which are scry's own choices. */
export interface VfsRule {
  readonly id: string;
  readonly statement: string;
  /** `engine`: stated by the fan document (seed 001); `inferred`: a reading of it; `scry`: a convenience, not the engine. */
  readonly source: 'engine' | 'inferred' | 'scry';
}

export const VFS_RULES = {
  order: { id: 'vfs.order', statement: 'Sources form one priority vector; entry 0 is consulted first and the first source that has a path serves it', source: 'engine' },
  directoryStops: { id: 'vfs.directoryStops', statement: 'A directory source answers by path; a hit stops the archive search', source: 'engine' },
  mountAt: { id: 'vfs.mountAt', statement: 'Mount(path, index) inserts a source at a position of the vector', source: 'engine' },
  noUnmount: { id: 'vfs.noUnmount', statement: 'The engine has no unmount; scry\'s unmount() is a non-engine convenience', source: 'engine' },
  hashFolding: { id: 'vfs.hashFolding', statement: 'Paths are found through P919, whose table folds case: lookups ignore case', source: 'engine' },
  pathTable: { id: 'vfs.pathTable', statement: 'Mount merges every archive\'s path index into one hash → path table {u32 hash, u32 0, path}, sorted by hash', source: 'engine' },
  pathTableDuplicates: { id: 'vfs.pathTableDuplicates', statement: 'Rows with the same hash and path from several archives are kept once (the engine\'s handling of duplicates is not documented)', source: 'inferred' },
  notMerged: { id: 'vfs.notMerged', statement: 'A path present in several sources is served whole by the winner; copies are shadowed, never merged (nine copies of game.gamedb)', source: 'engine' },
  hashFallback: { id: 'vfs.hashFallback', statement: 'A hash missing from the path table is also looked for among archive entries\' own path hashes', source: 'scry' },
} as const satisfies Record<string, VfsRule>;
