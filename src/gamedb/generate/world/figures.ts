/**
 * The figures of the streaming systems, as seed `001_83bc7b444f8213a8` measured them in the running game (game
 * version 1.21). The world generator reproduces the counts exactly; sizes follow distributions fitted to the
 * seed's medians and totals (which bundles exist at which size is made up; the shape is the seed's).
 */
export const WORLD_FIGURES = {
  /** Faction/Global.NemsisBundleMemoryLimit; the gear budget is this × 10. */
  nemesisBundleMemoryLimit: 320,
  budgetScale: 10,
  /** DynamicResource/BundleDefinition records: one NemesisBundleMgr object each. */
  bundleDefinitions: 1_484,
  /** Bundles/Types and their MaxMemoryPC (the console figures are the names). */
  bundleTypes: [
    ['Flair_1MB', 10],
    ['Flair_2MB', 20],
    ['Flair_3MB', 30],
  ] as ReadonlyArray<readonly [string, number]>,
  /** Bundles/Policies Character_Nemesis on PC (not read by NemesisBundleMgr). */
  characterNemesisBudgetPC: 1_600,
  /** AI/Templates, and how many have no character bundle (orcs, ologs, tamed wargs, the fellbeast). */
  templates: 177,
  templatesWithoutBundle: 94,
  /** Server/NPCBundle/Lists: the two region lists the seed names. */
  islandList: ['Goblin', 'Spider', 'Warg_Base', 'Fellbeast', 'Troll_Base', 'Troll_Poison'] as readonly string[],
  minasIthilListLength: 9,
  /** The list record's bundle array: only its P919 hash is known. */
  npcBundleArrayHash: 0x7ab8b862,
  /** WorldInfo.MaxBundleSizePC (PC) and the console value; checked only when content is packed. */
  maxBundleSizePC: 1_096,
  maxBundleSizeConsole: 548,
  /** Resident gear bundles in one loaded Lithlad: 157 at a total cost of 66.3 (of 3,200). */
  residentGearBundles: 157,
  residentGearCost: 66.3,
  /** Flair_1MB: 124 resident, median 0.40 MB, largest 1.12; Flair_2MB: 20 resident, median 0.018 MB. */
  flair1Resident: 124,
  flair1MedianMB: 0.4,
  flair1MaxMB: 1.12,
  flair2Resident: 20,
  flair2MedianMB: 0.018,
  /** Nazgul_base by the engine's count. */
  nazgulBaseMB: 36.0,
  /** 129 bundles requested at once: 622 → 4,337 MB by the engine's count (≈ 28.8 MB each). */
  burstBundles: 129,
  burstMB: 4_337 - 622,
  /** Bundles in the registry of a loaded region, and registry rows whose manifest has no data. */
  registryBundles: 544,
  missingManifestRows: 10,
  /** The load stage's path table in a loaded region, and the retail archives' total entries. */
  pathTableRows: 30_639,
  archiveEntries: 488_679,
  /** Queue high-water marks in a long play period: open queue 0 / 1, load queue 0 / 1. */
  openQueuePeaks: [1_812, 1_567] as readonly number[],
  loadQueuePeaks: [33, 32] as readonly number[],
  /** The open-file semaphore's initial and maximum count (u32 at 0x262AAA0). */
  openFileSlots: 32,
  /** A region change: skins, then the world set, about 3 s to resident. */
  regionRebuildSeconds: 3,
  /** Shipped effects whose pair-table count is 0. */
  effectsWithZeroPairCount: 968,
} as const;

/**
 * The real island layer bundle (`worlds\retail\island\sectionsandlayers\fortwallgameplay.bndl`, spec archives.md
 * §7): its resources and sizes, verified on the real manifest. The generator ships it byte-identical and sizes its
 * other layer bundles after it.
 */
export const ISLAND_FORTWALL_LAYER = {
  folder: 'worlds\\retail\\island\\sectionsandlayers',
  stem: 'fortwallgameplay',
  resources: [
    ['inst', 76],
    ['veggrid', 117],
    ['terrain', 12],
    ['uiwd', 245],
    ['objres', 36_298],
    ['uis', 1_093],
    ['wldmsh', 0],
    ['scripts', 163_908],
    ['wldclnt', 96],
    ['hkai', 13_544],
  ] as ReadonlyArray<readonly [string, number]>,
} as const;
