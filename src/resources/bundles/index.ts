/** Bundles: the registry and its reference contract, content loading, gear (NemesisBundleMgr), CharacterBundleMgr, effects. */
export * from './schema.ts';
export * from './world-data.ts';
export * from './registry.ts';
export * from './content.ts';
export * from './gear.ts';
export * from './character.ts';
export * from './effects.ts';
