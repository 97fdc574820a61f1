/** Makes the game-scale sample database with the generator of `src/gamedb/generate`, when this build has one. */

/** Writes a game-scale database to `path`; `undefined` while the generator has not landed. */
export const generateSampleDatabase: ((path: string) => Promise<void>) | undefined = undefined;
