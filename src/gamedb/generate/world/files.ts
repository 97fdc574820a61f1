/**
 * The world's bundle files: for every bundle a `.bndl` manifest (laid out as the game's, `buildBndl`) and its
 * `.embb` content, at sizes fitted to the seed (`figures.ts`): gear by bundle type (Flair_1MB median 0.40 MB,
 * largest 1.12; Flair_2MB median 0.018 MB; Flair_3MB sized so that 157 resident bundles cost about 66.3), creature
 * bundles around the 28.8 MB average of the seed's 129-bundle burst with Nazgul_Base at its 36.0 MB, layer bundles
 * after the real `fortwallgameplay.bndl` (which is reproduced byte for byte). Every size is a pure function of the
 * bundle's path (and type), so the same files come out of any database that names the same bundles.
 *
 * The `.embb` layout is unknown (spec archives.md §8). The generated content follows hypothesis
 * `embb.generatedLayout`: a 24-byte header (`EMBB`, 5, namesSize, count, two zero words), the manifest's name block,
 * then the resources back to back — which satisfies the verified size rule (raw size = Σ sizes + namesSize + 24).
 * Resource bytes are filler: each resource starts with its own path and is zero after it (so a large content costs
 * address space, not memory, until something reads it).
 *
 * `WorldFileSource` serves these files through the VFS without writing them (a source for the mount vector);
 * `packWorldArchives` writes them into `.arch06` archives.
 */
import { NotFoundError } from '../../../binary/errors.ts';
import { latin1EncodeInto } from '../../../binary/text.ts';
import { EMBB_FORMAT } from '../../../formats/embb/embb.ts';
import { buildGadb } from '../../../formats/gadb/build.ts';
import { writeGadb } from '../../../formats/gadb/write.ts';
import { APL_FILE_NAME, buildArchivePathIndex, writeArchivePathIndex, type ArchivePathIndex } from '../../../formats/apl/apl.ts';
import { buildBndl, bndlNamesSize, writeBndl, type Bndl } from '../../../formats/bndl/bndl.ts';
import { packArch06 } from '../../../formats/arch06/pack.ts';
import { p919 } from '../../../hash/p919.ts';
import { normalizeVfsPath, vfsKey, type VfsSource } from '../../../resources/vfs/source.ts';
import { Prng } from '../prng.ts';
import { ISLAND_FORTWALL_LAYER, WORLD_FIGURES } from './figures.ts';
import { WORLD_UNSHIPPED_FOLDER, type WorldPlan } from './world.ts';

export const EMBB_GENERATED_LAYOUT = {
  id: 'embb.generatedLayout',
  statement: 'generated .embb = 24-byte header {EMBB, 5, namesSize, count, 0, 0} + the manifest name block + resources back to back (fits the verified size rule; the real layout is unknown)',
  status: 'scry',
} as const;

/** What a bundle is for, which decides its resources and sizes. */
export type WorldBundleKind = 'gear-geometry' | 'gear-material' | 'creature' | 'skin' | 'layer';

export interface WorldBundleRef {
  /** The `.bndl` path. */
  path: string;
  kind: WorldBundleKind;
  /** Bundles/Types name of a gear bundle (decides its size). */
  type?: string;
}

export interface WorldBundleFiles {
  manifestPath: string;
  contentPath: string;
  manifest: Bndl;
  manifestBytes: Uint8Array;
  /** Raw size of the content (Σ sizes + namesSize + 24). */
  contentSize: number;
}

const MB = 1 << 20;

function lognormal(rng: Prng, median: number, sigma: number, lo: number, hi: number): number {
  const u = Math.max(1e-12, rng.float());
  const z = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng.float());
  return Math.min(hi, Math.max(lo, median * Math.exp(sigma * z)));
}

/** Splits `total` bytes by fractions (the last takes the rest). */
function split(total: number, parts: ReadonlyArray<readonly [string, number]>): Array<[string, number]> {
  const out: Array<[string, number]> = [];
  let left = total;
  parts.forEach(([p, f], i) => {
    const n = i === parts.length - 1 ? left : Math.min(left, Math.round(total * f));
    out.push([p, n]);
    left -= n;
  });
  return out;
}

const stemOf = (path: string): { folder: string; stem: string } => {
  const p = normalizeVfsPath(path);
  const cut = p.lastIndexOf('\\');
  const file = p.slice(cut + 1);
  return { folder: cut < 0 ? '' : p.slice(0, cut), stem: file.replace(/\.[^.]*$/, '') };
};

/** Bundle sizes in MB by gear type: median, spread, bounds. */
const GEAR_SIZE: Record<string, readonly [number, number, number, number]> = {
  Flair_1MB: [WORLD_FIGURES.flair1MedianMB, 0.45, 0.02, WORLD_FIGURES.flair1MaxMB],
  Flair_2MB: [WORLD_FIGURES.flair2MedianMB, 0.6, 0.002, 0.2],
  Flair_3MB: [0.87, 0.35, 0.1, 2.5],
};

/** Named sizes the seed gives (by the engine's count). */
const NAMED_SIZES: Record<string, number> = { nazgul_base: Math.round(WORLD_FIGURES.nazgulBaseMB * MB) };

/** The resources (path, size) of a bundle: a pure function of its path, kind and type. */
export function worldBundleResources(ref: WorldBundleRef, sizeScale = 1): Array<{ path: string; size: number }> {
  const { folder, stem } = stemOf(ref.path);
  const rng = new Prng(p919(vfsKey(ref.path)));
  const at = (name: string): string => (folder ? `${folder}\\${name}` : name);
  let parts: Array<[string, number]>;
  switch (ref.kind) {
    case 'gear-geometry': {
      const [m, s, lo, hi] = GEAR_SIZE[ref.type ?? 'Flair_1MB'] ?? GEAR_SIZE['Flair_1MB']!;
      const base = stem.replace(/_g$/, '');
      parts = split(Math.round(lognormal(rng, m, s, lo, hi) * MB), [[`${base}.mesh`, 0.62], [`${base}.skel`, 0.08], [`${base}.anix`, 0.3]]);
      break;
    }
    case 'gear-material': {
      const [m, s, lo, hi] = GEAR_SIZE[ref.type ?? 'Flair_1MB'] ?? GEAR_SIZE['Flair_1MB']!;
      const base = stem.replace(/_m$/, '');
      const total = Math.round(lognormal(rng, m, s, lo, hi) * MB);
      const mat = Math.min(total, 2048 + rng.int(4096));
      parts = [[`${base}.mat`, mat], ...split(total - mat, [[`${base}_d.tex`, 0.5], [`${base}_n.tex`, 0.3], [`${base}_s.tex`, 0.2]])];
      break;
    }
    case 'creature':
    case 'skin': {
      const named = NAMED_SIZES[stem];
      const total = named ?? Math.round(lognormal(rng, ref.kind === 'creature' ? 24 : 10, 0.4, 4, 60) * MB);
      const fx = ref.kind === 'creature' ? generatedEffectBytes().length : 0;
      parts = split(total - fx, [
        [`${stem}.mesh`, 0.25],
        [`${stem}.skel`, 0.02],
        [`${stem}_locomotion.anix`, 0.15],
        [`${stem}_combat.anix`, 0.18],
        [`${stem}.mat`, 0.005],
        [`${stem}_d.tex`, 0.2],
        [`${stem}_n.tex`, 0.12],
        [`${stem}_s.tex`, 0.075],
      ]);
      if (fx > 0) parts.push([`${stem}_blood.fxp`, fx]);
      break;
    }
    case 'layer': {
      const real = folder === ISLAND_FORTWALL_LAYER.folder && stem === ISLAND_FORTWALL_LAYER.stem;
      const kindScale = stem.endsWith('art') ? 4 : stem.endsWith('lighting') ? 0.5 : 1;
      const bundleScale = lognormal(rng, kindScale, 0.7, 0.05, 40);
      parts = ISLAND_FORTWALL_LAYER.resources.map(([ext, size]) => [`${stem}.${ext}`, real ? size : Math.round(size * bundleScale * lognormal(rng, 1, 0.3, 0.2, 5))]);
      if (real) return parts.map(([p, size]) => ({ path: at(p), size }));
      break;
    }
  }
  return parts.map(([p, size]) => ({ path: at(p), size: p.endsWith('.fxp') ? size : Math.max(0, Math.round(size * sizeScale)) }));
}

let generatedEffect: Uint8Array | undefined;

/**
 * A minimal valid effect database (`LTFX` v8 wrapping an `FXDB` GADB with an empty pair table): 0 pairs. Built on
 * first use (not when the module loads: every CLI start would pay for it).
 */
export function generatedEffectBytes(): Uint8Array {
  generatedEffect ??= writeGadb(
    buildGadb({
      rootName: 'FXDB',
      container: { kind: 'wrapped', magic: 'LTFX', version: 8 },
      categories: [{ name: 'ClientFX.Sprite', sortKey: p919('ClientFX.Sprite'), fields: [{ hash: p919('Lifetime'), type: 2 }], records: [{ name: 'Blood', values: [[1.5]] }] }],
    }),
  );
  return generatedEffect;
}

/** Manifest and content size of a bundle. */
export function worldBundleFiles(ref: WorldBundleRef, sizeScale = 1): WorldBundleFiles {
  const manifestPath = normalizeVfsPath(ref.path);
  const contentPath = manifestPath.replace(/\.bndl$/i, '') + '.embb';
  const manifest = buildBndl(worldBundleResources(ref, sizeScale));
  const manifestBytes = writeBndl(manifest);
  const contentSize = manifest.entries.reduce((s, e) => s + e.size, 0) + bndlNamesSize(manifest) + 24;
  return { manifestPath, contentPath, manifest, manifestBytes, contentSize };
}

/** Writes `text` (Latin-1, cut to `n` bytes) at `out[at]`; the rest of the `n` bytes stay zero. */
function stamp(out: Uint8Array, at: number, n: number, text: string): void {
  latin1EncodeInto(text.slice(0, n), out, at, { format: EMBB_FORMAT, path: '/resources' });
}

/** The `.embb` bytes of a bundle (hypothesis `embb.generatedLayout`). Effects are real effect databases. */
export function worldBundleContent(files: WorldBundleFiles): Uint8Array {
  const { manifest } = files;
  const namesSize = bndlNamesSize(manifest);
  const out = new Uint8Array(files.contentSize);
  const dv = new DataView(out.buffer);
  out.set([0x45, 0x4d, 0x42, 0x42]);
  dv.setUint32(4, 5, true);
  dv.setUint32(8, namesSize, true);
  dv.setUint32(12, manifest.entries.length, true);
  let at = 24;
  for (const n of manifest.names) {
    latin1EncodeInto(n.text, out, at, { format: EMBB_FORMAT, path: '/names' });
    at += n.text.length + 1 + n.padding;
  }
  const effect = generatedEffectBytes();
  for (const e of manifest.entries) {
    if (e.path.endsWith('.fxp') && e.size === effect.length) out.set(effect, at);
    else stamp(out, at, e.size, e.path);
    at += e.size;
  }
  return out;
}

/** Every bundle of a plan, with its kind (what the readers of `resources/bundles` find in its database). */
export function planBundleRefs(plan: WorldPlan): WorldBundleRef[] {
  const refs = new Map<string, WorldBundleRef>();
  const add = (r: WorldBundleRef): void => void (refs.has(vfsKey(r.path)) || refs.set(vfsKey(r.path), r));
  for (const d of plan.bundleDefinitions) add({ path: d.path, kind: d.name.endsWith('_m') ? 'gear-material' : 'gear-geometry', type: d.type });
  for (const p of Object.values(plan.creatureBundles)) add({ path: p, kind: 'creature' });
  for (const r of plan.regions) {
    for (const s of r.skins) add({ path: s, kind: 'skin' });
    for (const l of r.layers) add({ path: l, kind: 'layer' });
  }
  return [...refs.values()];
}

/** Whether the generator ships a bundle (everything but WORLD_UNSHIPPED_FOLDER). */
export function isShipped(path: string): boolean {
  return !vfsKey(path).startsWith(vfsKey(WORLD_UNSHIPPED_FOLDER) + '\\');
}

/** The largest filler entry: 4096 + 6 × 8192 bytes. */
const FILLER_ZEROS = new Uint8Array(4096 + 6 * 8192);

export interface WorldFileSourceOptions {
  name?: string;
  /** Multiply every resource size (tests: small files); default 1, the seed's sizes. */
  sizeScale?: number;
  /** Extra archive entries (loose texture tiers) to reach a retail-sized vector; default 0. */
  fillerEntries?: number;
  /** How many filler paths the path index lists (the path table's extra rows); default 0. */
  fillerRows?: number;
}

/**
 * The world's files as a VFS source, made on demand (nothing is written): `.bndl` and `.embb` of every shipped
 * bundle, the texture-tier filler entries, and a path index naming every file and bundled resource.
 */
export class WorldFileSource implements VfsSource {
  readonly kind = 'memory' as const;
  readonly name: string;
  readonly sizeScale: number;
  private readonly bundles = new Map<string, { ref: WorldBundleRef; files: WorldBundleFiles | undefined; manifest: boolean }>();
  private readonly fillerEntries: number;
  private readonly fillerRows: number;
  private index: ArchivePathIndex | undefined;

  constructor(refs: readonly WorldBundleRef[], options: WorldFileSourceOptions = {}) {
    this.name = options.name ?? 'generated world';
    this.sizeScale = options.sizeScale ?? 1;
    this.fillerEntries = options.fillerEntries ?? 0;
    this.fillerRows = Math.min(options.fillerRows ?? 0, this.fillerEntries);
    for (const ref of refs) {
      if (!isShipped(ref.path)) continue;
      const key = vfsKey(ref.path);
      const value = { ref, files: undefined, manifest: true };
      this.bundles.set(key, value);
      this.bundles.set(key.replace(/\.bndl$/, '') + '.embb', { ...value, manifest: false });
    }
  }

  /** Path of filler entry i: a high-resolution texture tier, as the texture streamer requests. */
  static fillerPath(i: number): string {
    const tier = i % 3 === 0 ? 'tex0' : i % 3 === 1 ? 'texuhd' : 'tex';
    return `textures\\streamed\\${tier}\\block${String(i >> 10).padStart(3, '0')}\\t${i}.${tier === 'tex' ? 'tex' : tier + '.tex'}`;
  }

  private filler(key: string): number {
    const m = /^textures\\streamed\\(?:tex0|texuhd|tex)\\block\d+\\t(\d+)\./.exec(key);
    if (!m) return -1;
    const i = Number(m[1]);
    return i < this.fillerEntries && vfsKey(WorldFileSource.fillerPath(i)) === key ? i : -1;
  }

  private files(key: string): { files: WorldBundleFiles; manifest: boolean } | undefined {
    const b = this.bundles.get(key);
    if (!b) return undefined;
    b.files ??= worldBundleFiles(b.ref, this.sizeScale);
    return { files: b.files, manifest: b.manifest };
  }

  /** Size of a file without making it. */
  async size(path: string): Promise<number | undefined> {
    const key = vfsKey(path);
    const f = this.files(key);
    if (f) return f.manifest ? f.files.manifestBytes.length : f.files.contentSize;
    const i = this.filler(key);
    return i >= 0 ? 4096 + (i % 7) * 8192 : undefined;
  }

  async has(path: string): Promise<boolean> {
    const key = vfsKey(path);
    return this.bundles.has(key) || this.filler(key) >= 0;
  }

  async read(path: string): Promise<Uint8Array> {
    const key = vfsKey(path);
    const f = this.files(key);
    if (f) return f.manifest ? f.files.manifestBytes : worldBundleContent(f.files);
    const i = this.filler(key);
    if (i < 0) throw new NotFoundError(`${this.name}: no file ${JSON.stringify(normalizeVfsPath(path))}`);
    // filler content is all zeros: every read is a view of one shared buffer (never write into it)
    return FILLER_ZEROS.subarray(0, (await this.size(path))!);
  }

  async list(): Promise<string[]> {
    const out: string[] = [];
    for (const b of this.bundles.values()) out.push(b.manifest ? normalizeVfsPath(b.ref.path) : normalizeVfsPath(b.ref.path).replace(/\.bndl$/i, '.embb'));
    for (let i = 0; i < this.fillerEntries; i++) out.push(WorldFileSource.fillerPath(i));
    return out;
  }

  /** The path index: every file, every bundled resource, and `fillerRows` filler paths. */
  async pathIndex(): Promise<ArchivePathIndex> {
    if (!this.index) {
      const paths: string[] = [];
      for (const b of this.bundles.values()) {
        if (!b.manifest) continue;
        const f = this.files(vfsKey(b.ref.path))!.files;
        paths.push(f.manifestPath, f.contentPath, ...f.manifest.entries.map((e) => e.path));
      }
      for (let i = 0; i < this.fillerRows; i++) paths.push(WorldFileSource.fillerPath(i));
      this.index = buildArchivePathIndex(paths.map((p) => p.toLowerCase()));
    }
    return this.index;
  }
}

export interface PackWorldOptions {
  /** Multiply every resource size (default 1: the seed's sizes, hundreds of MB in all). */
  sizeScale?: number;
  /** Only these bundles (default: all shipped). */
  filter?: (ref: WorldBundleRef) => boolean;
}

/**
 * The world as `.arch06` archives: `world_gear` (gear bundles), `world_characters` (creatures and skins) and one
 * `world_<region>` per region folder (its layer bundles). Entries are stored (isCompressed 0, as community mods
 * are) with a path index listing every file and bundled resource. Deterministic.
 */
export function packWorldArchives(refs: readonly WorldBundleRef[], options: PackWorldOptions = {}): Array<{ name: string; bytes: Uint8Array }> {
  const groups = new Map<string, WorldBundleRef[]>();
  for (const ref of refs) {
    if (!isShipped(ref.path) || (options.filter && !options.filter(ref))) continue;
    const region = /^worlds\\retail\\([^\\]+)\\/.exec(vfsKey(ref.path))?.[1];
    const name = ref.kind.startsWith('gear') ? 'world_gear' : ref.kind === 'layer' ? `world_${region ?? 'layers'}` : 'world_characters';
    if (!groups.has(name)) groups.set(name, []);
    groups.get(name)!.push(ref);
  }
  const out: Array<{ name: string; bytes: Uint8Array }> = [];
  for (const [name, group] of [...groups.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    const entries: Array<{ path: string; data: Uint8Array }> = [];
    const listed: string[] = [];
    for (const ref of group) {
      const files = worldBundleFiles(ref, options.sizeScale ?? 1);
      entries.push({ path: files.manifestPath, data: files.manifestBytes }, { path: files.contentPath, data: worldBundleContent(files) });
      listed.push(files.manifestPath, files.contentPath, ...files.manifest.entries.map((e) => e.path));
    }
    const index = buildArchivePathIndex(listed.map((p) => p.toLowerCase()));
    entries.push({ path: APL_FILE_NAME, data: writeArchivePathIndex(index) });
    out.push({ name: `${name}.arch06`, bytes: packArch06(entries, { storage: 'stored' }).bytes });
  }
  return out;
}
