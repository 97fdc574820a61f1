/**
 * What the streaming runtime takes from the seed (`engine`), what it reads into the seed (`inferred`), what is
 * open (`unknown`, implemented one way and named), and what is scry's own modelling (`scry`). One table; every
 * place in the code that depends on a non-engine rule names its id.
 */
export interface StreamingHypothesis {
  readonly id: string;
  readonly statement: string;
  readonly status: 'engine' | 'inferred' | 'unknown' | 'scry';
}

export const STREAMING_HYPOTHESES = {
  buckets: { id: 'stream.buckets', statement: 'The resource table has 0x800 buckets; bucket = P919(path) & 0x7FF; nodes chain per bucket', status: 'engine' },
  releasedNotGone: { id: 'stream.releasedNotGone', statement: 'A resource whose count reaches 0 moves to the unused list and keeps its data; residency is decided by the data being present', status: 'engine' },
  states: { id: 'stream.states', statement: 'Resource-data state 3 = finalized (seed); scry names 0 none, 1 queued, 2 read (not yet parsed) — the meaning of states other than 3 is unknown', status: 'unknown' },
  unusedTrim: { id: 'stream.unusedTrim', statement: 'Unused resources keep their data until the unused list is trimmed; scry trims it at a region change (a fast travel releases everything a region loaded)', status: 'inferred' },
  sharedRequests: { id: 'stream.sharedRequests', statement: 'A second load of a resource in flight shares its request (one request object, reference counted)', status: 'inferred' },
  queueKept: { id: 'stream.queueKept', statement: 'A request keeps its queue index (0 or 1) from the open stage to the load stage', status: 'inferred' },
  missingSlot: { id: 'stream.missingSlot', statement: 'A path no source has completes at open as missing (harmless) and gives its open-file slot back there', status: 'inferred' },
  bundleContentSlot: { id: 'stream.bundleContentSlot', statement: 'A bundle content request goes from load to the bundle loader, not to parse; it gives its open-file slot back when the bundle loader is done', status: 'unknown' },
  bundleJob: { id: 'stream.bundleJob', statement: 'The bundle system queues the .embb content load as soon as the manifest\'s data is present (its job latency is not modelled)', status: 'scry' },
  contentSplit: { id: 'stream.contentSplit', statement: 'The bundle loader takes resources back to back after a 24-byte header and the manifest\'s name block whenever the .embb raw size satisfies the verified size rule; otherwise the content stays one blob (the real .embb layout is unknown)', status: 'unknown' },
  pathTableNames: { id: 'stream.pathTableNames', statement: 'The bundle loader names each resource through the path table (hash → path); a hash missing from it keeps the manifest\'s path and is counted as a miss', status: 'inferred' },
  effectStall: { id: 'stream.effectStall', statement: 'An .fxp whose database lacks the pair-table count makes its reader wait forever on the raw stream: the thread that parses it (parse stage, or the load stage for a bundled effect) stalls, and every later load waits behind it', status: 'engine' },
  latency: { id: 'stream.latency', statement: 'Simulated stage costs are scry\'s model: a fixed cost per request plus bytes over a rate, per stage (not measured on the game)', status: 'scry' },
  mainThread: { id: 'stream.mainThread', statement: 'Work that runs inline because a switch byte is 0 runs on the thread that hands the request on (the caller of submit is modelled as one main thread)', status: 'inferred' },
  realSize: { id: 'gear.realSize', statement: 'The real size that replaces a gear object\'s cost estimate is the bundle\'s content bytes (.embb raw size) / 2^20', status: 'inferred' },
  budgetPrefix: { id: 'gear.budgetPrefix', statement: 'Objects sorted by priority load while the running sum of their costs stays within the budget; the first past it and all after it are over budget', status: 'inferred' },
  residentStays: { id: 'gear.residentStays', statement: 'An object already resident stays loaded wherever the sort puts it; only objects not yet resident can be over budget', status: 'scry' },
  counters: { id: 'gear.counters', statement: 'The object counters +0x4C / +0x50 are loads issued / loads completed (equal: nothing in flight)', status: 'inferred' },
  backupLists: { id: 'gear.backupLists', statement: 'The backup walk reads the item\'s Inventory/ArmorData.OutOfMemoryBackups, then its Inventory/WeaponData.OutOfMemoryBackups (an item has the lists of the design records it has)', status: 'inferred' },
  dynamicBundleLayout: { id: 'gear.dynamicBundleLayout', statement: 'DynamicBundle holds the piece\'s two BundleDefinition links: <piece>_g then <set>_<slot>_m', status: 'inferred' },
  releaseDetour: { id: 'bundle.releaseDetour', statement: 'A release to zero with a prefetch still counted takes an error path (0x10DD00A); scry raises a contract error', status: 'inferred' },
  spawnRequestDefers: { id: 'cbm.spawnRequestDefers', statement: 'In a test world the gate requests the missing bundle and the spawn waits for it (it is not admitted in the same call)', status: 'inferred' },
} as const satisfies Record<string, StreamingHypothesis>;

export const STREAMING_HYPOTHESIS_LIST: readonly StreamingHypothesis[] = Object.values(STREAMING_HYPOTHESES);
