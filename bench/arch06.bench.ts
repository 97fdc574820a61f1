/**
 * Archives at the retail game's scale.
 *
 * 1. Index: one generated archive index with 488,679 entries (the retail game's total across its archives):
 *    open (parse the tables), build the P919 lookup, look up 100,000 paths. Floor: summing the index bytes as u32.
 * 2. Extract: a generated archive of ~200 MB (stored entries of 1–4 MiB and 16 KiB LZB16-chunked entries of
 *    repetitive text, as small retail files are): read every entry through the lazy reader. Floor: copying the
 *    same number of bytes (one `slice` of the archive) in the same run.
 * 3. LZB16 decode MB/s on 16 KiB chunks of two synthetic kinds (a word salad of 11 words: ~10 output bytes per
 *    token, the hardest case for a decoder that is bound by tokens; bundle-manifest-shaped records: ~26) and on the
 *    four real chunks (~60 bytes per token; each row prints its figure). Floors: copying the decoded bytes
 *    (`slice`, which allocates as the decoder does), `set` into a buffer already allocated (memcpy), and summing
 *    the compressed input; decoding into a preallocated output is measured beside it. A second floor walks the
 *    tokens only (the dependent chain from one token to the next, no copy): on the word salad it alone costs about
 *    what the slice floor does.
 *
 * Each section also prints the CPU time (user + system, `process.cpuUsage`) of its rows: on a shared machine it
 * moves far less with the load than wall time.
 */
import { cpuMs, cpuMsAsync, measure, measureAsync, report, sumU32, type Measurement } from './harness.ts';
import { Arch06Archive, ArchiveTreeSource, MountVector, decodeLzb16, decodeLzb16Into, encodeLzb16, packArch06, parseArch06Index, scanArch06Chunks, type Arch06PackEntry } from '../src/index.ts';
import { loadFixture } from '../test/support/fixtures.ts';

/** One line of CPU times against the first (the floor). */
function cpuLine(rows: Array<[string, number]>): string {
  const floor = rows[0]![1];
  return `CPU (median ms, × the first): ${rows.map(([n, ms]) => `${n} ${ms.toFixed(1)} (${(ms / floor).toFixed(2)}×)`).join('; ')}.`;
}

const EXTS = ['.bndl', '.embb', '.tex', '.mesh', '.mat', '.anix', '.scripts', '.fxp'];

function retailPaths(n: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const region = ['island', 'mtnpass', 'snowmtn', 'volcano', 'minasithil', 'desert'][i % 6];
    out.push(`worlds\\retail\\${region}\\sectionsandlayers\\layer${(i >> 6) % 997}\\asset_${i}${EXTS[i % EXTS.length]}`);
  }
  return out;
}

async function indexSection(): Promise<string> {
  const count = 488_679;
  const archives = 8;
  const paths = retailPaths(count);
  const empty = new Uint8Array(0);
  const packed = Array.from({ length: archives }, (_, k) =>
    packArch06(
      paths.filter((_, i) => i % archives === k).map((path) => ({ path, data: empty })),
      { pathIndex: true },
    ).bytes,
  );
  const total = packed.reduce((s, b) => s + b.length, 0);
  const floor = measure('floor: sum u32 of the 8 indexes', () => packed.forEach(sumU32), { bytes: total, runs: 5 });
  const open = measure(`parse the 8 indexes (${count.toLocaleString('en')} entries)`, () => packed.forEach((b) => parseArch06Index(b)), { bytes: total, runs: 3 });
  const mount = async (): Promise<MountVector> => {
    const vfs = new MountVector();
    for (const b of packed) await vfs.mount(new ArchiveTreeSource(await Arch06Archive.fromBytes(b)));
    // the merged table is built when first read: read it inside the timing
    if (vfs.pathTableSize === 0) throw new Error('nothing mounted');
    return vfs;
  };
  const mounted = await measureAsync('open + mount all 8 (path indexes merged into one table)', mount, { runs: 3 });
  const cpu = cpuLine([
    ['sum', cpuMs(() => packed.forEach(sumU32))],
    ['parse', cpuMs(() => packed.forEach((b) => parseArch06Index(b)), 3)],
    ['open + mount', await cpuMsAsync(mount)],
  ]);
  const vfs = await mount();
  const rows = vfs.pathTableSize;
  await vfs.resolve(paths[0]!);
  const queries = Array.from({ length: 100_000 }, (_, i) => paths[(i * 7919) % count]!);
  const lookups = await measureAsync('100,000 lookups through the mount vector (first lookup builds each P919 index)', async () => {
    let hits = 0;
    for (const q of queries) if (await vfs.resolve(q)) hits++;
    if (hits !== queries.length) throw new Error('lookup missed');
  }, { runs: 3 });
  const upper = queries.map((q) => q.toUpperCase());
  const lookupsUpper = await measureAsync('100,000 upper-case lookups (case folded)', async () => {
    for (const q of upper) await vfs.resolve(q);
  }, { runs: 3 });
  return `${report(`arch06 index: ${archives} archives totalling ${count.toLocaleString('en')} entries, ${(total / 1e6).toFixed(1)} MB of tables`, [open, mounted, lookups, lookupsUpper], floor)}\n\n${cpu} Merged path table: ${rows.toLocaleString('en')} rows. Peak RSS so far ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB.`;
}

function textChunk(seed: number, size: number): Uint8Array {
  const words = ['worlds', 'retail', 'sectionsandlayers', 'fortwallgameplay', '.bndl', 'hstructure', 'end', 'local', 'function', '\\', '\n'];
  let s = '';
  let x = seed;
  while (s.length < size) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    s += words[x % words.length] + (x & 1 ? ' ' : '');
  }
  return new TextEncoder().encode(s.slice(0, size));
}

/**
 * 16 KiB of bundle-manifest-shaped bytes, the shape of the four real LZB16 chunks (BNDL headers): records of a u32
 * hash, a u32 size and a NUL-terminated retail path, the paths of each run of 12 records sharing a region and a
 * layer. Its tokens are longer than the word salad's (~26 output bytes per token against ~10; the real chunks
 * have ~60).
 */
function manifestChunk(seed: number, size: number): Uint8Array {
  const regions = ['island', 'mtnpass', 'snowmtn', 'volcano', 'minasithil', 'desert'];
  const layers = ['fortwallgameplay', 'fortassault', 'fagameplay', 'terrain', 'veggrid', 'uiwd', 'objres', 'inst', 'lighting', 'audio', 'navmesh', 'cinematics'];
  const exts = ['.bndl', '.embb', '.tex', '.mesh', '.mat', '.anix', '.scripts', '.fxp', '.inst', '.veggrid', '.terrain'];
  const out = new Uint8Array(size);
  let o = 0;
  let x = seed >>> 0;
  const next = (): number => (x = (Math.imul(x, 1103515245) + 12345) >>> 0);
  let r = 0;
  for (let rec = 0; o < size; rec++) {
    // one bundle's manifest every 12 records: its paths share a region and a layer, as in the real chunks
    if (rec % 12 === 0) r = next();
    // a record: a u32 hash (incompressible), a u32 size (small), the path, NUL
    const h = next();
    for (let k = 0; k < 4 && o < size; k++) out[o++] = (h >>> (8 * k)) & 0xff;
    const n = next() % 50000;
    for (let k = 0; k < 4 && o < size; k++) out[o++] = (n >>> (8 * k)) & 0xff;
    const e = next();
    const path = `worlds\\retail\\${regions[r % 6]}\\sectionsandlayers\\${layers[(r >>> 8) % 12]}${(e >>> 16) % 4 === 0 ? `_${(e >>> 18) % 100}` : ''}${exts[(e >>> 24) % 11]}\0`;
    for (let k = 0; k < path.length && o < size; k++) out[o++] = path.charCodeAt(k);
  }
  return out;
}

/** Output bytes per token of an encoded chunk (what a token-bound decoder's speed depends on). */
function bytesPerToken(encoded: readonly Uint8Array[], rawSize: number): number {
  let tokens = 0;
  for (const e of encoded) {
    let pos = 4;
    let op = 0;
    while (op < rawSize) {
      const t = e[pos++]!;
      let lit = t & 15;
      if (lit === 15) lit += e[pos++]!;
      pos += lit;
      op += lit;
      tokens++;
      if (op >= rawSize) break;
      const m = t >> 4;
      if (m < 15) {
        op += m + 4;
        pos += 2;
      } else {
        const x = e[pos++]!;
        if (x < 0x80) {
          op += x + 19;
          pos += 2;
        } else op += ((x >> 3) & 15) + 4;
      }
    }
  }
  return (encoded.length * rawSize) / tokens;
}

/**
 * The second floor of a token-bound decoder: walk a chunk's tokens as the decoder does (token byte, literal count
 * and its extension, match length and offset: the dependent load chain from one token to the next), reading one
 * byte of each literal run and match source instead of copying them. What is left above it is the copying.
 */
function walkTokens(e: Uint8Array, rawSize: number): number {
  let pos = 4;
  let op = 0;
  let x = 0;
  while (op < rawSize) {
    const t = e[pos++]!;
    let lit = t & 15;
    if (lit === 15) lit += e[pos++]!;
    x ^= e[pos]!;
    pos += lit;
    op += lit;
    if (op >= rawSize) break;
    const m = t >> 4;
    let dist: number;
    if (m < 15) {
      op += m + 4;
      dist = e[pos]! | (e[pos + 1]! << 8);
      pos += 2;
    } else {
      const b = e[pos++]!;
      if (b < 0x80) {
        op += b + 19;
        dist = e[pos]! | (e[pos + 1]! << 8);
        pos += 2;
      } else {
        op += ((b >> 3) & 15) + 4;
        dist = b & 7;
      }
    }
    x += dist;
  }
  return x;
}

async function extractSection(): Promise<string> {
  const entries: Arch06PackEntry[] = [];
  let stored = 0;
  let i = 0;
  while (stored < 120e6) {
    const size = (1 + (i % 4)) << 20;
    const data = new Uint8Array(size);
    for (let k = 0; k < size; k += 4096) data[k] = (k >> 12) & 0xff;
    entries.push({ path: `stored\\big_${i++}.bin`, data });
    stored += size;
  }
  const small: Arch06PackEntry[] = [];
  for (let k = 0; k < 5000; k++) small.push({ path: `bundles\\small_${k}.bndl`, data: textChunk(k, 16384) });
  const a = packArch06(entries, { storage: 'stored', pathIndex: false }).bytes;
  const b = packArch06(small, { storage: 'lzb16', pathIndex: false }).bytes;
  const rawA = entries.reduce((s, e) => s + e.data.length, 0);
  const rawB = small.reduce((s, e) => s + e.data.length, 0);
  // reads copy, as a file read would (an in-memory source would hand out views)
  const copying = (bytes: Uint8Array) => ({ size: bytes.length, read: async (o: number, l: number) => bytes.slice(o, o + l) });
  const archA = await Arch06Archive.open(copying(a));
  const archB = await Arch06Archive.open(copying(b));
  const kinds = new Set((await Promise.all(archB.files.slice(0, 20).map((f) => archB.chunks(f)))).flat().map((c) => c.kind));
  const floor = measure(`floor: copy ${((a.length + b.length) / 1e6).toFixed(0)} MB`, () => {
    a.slice();
    b.slice();
  }, { bytes: a.length + b.length, runs: 3 });
  const readAll = async (arch: Arch06Archive): Promise<number> => {
    let n = 0;
    for (const f of arch.files) n += (await arch.read(f)).length;
    return n;
  };
  const storedM = await measureAsync(`extract ${archA.files.length} stored entries (${(rawA / 1e6).toFixed(0)} MB)`, () => readAll(archA), { bytes: rawA });
  const lzbM = await measureAsync(`extract ${archB.files.length} LZB16 entries (${(rawB / 1e6).toFixed(0)} MB raw, ${(b.length / 1e6).toFixed(0)} MB stored)`, () => readAll(archB), { bytes: rawB });
  const both = await measureAsync('extract both archives', async () => (await readAll(archA)) + (await readAll(archB)), { bytes: rawA + rawB });
  return `${report('arch06 extract (in memory, no disk writes)', [storedM, lzbM, both], floor)}\n\nChunk kinds in the LZB16 archive: ${[...kinds].join(', ')}.`;
}

function lzbSection(): string {
  const chunks = Array.from({ length: 2000 }, (_, k) => textChunk(k + 7, 16384));
  const encoded = chunks.map((c) => encodeLzb16(c)!);
  const total = chunks.reduce((s, c) => s + c.length, 0);
  const inputBytes = encoded.reduce((s, e) => s + e.length, 0);
  const target = new Uint8Array(16384);
  const floor = measure(`floor: copy ${(total / 1e6).toFixed(0)} MB (slice of each chunk)`, () => {
    for (const c of chunks) c.slice();
  }, { bytes: total, runs: 5 });
  const memcpy = measure('memcpy of each chunk into one buffer (set)', () => {
    for (const c of chunks) target.set(c);
  }, { bytes: total, runs: 5 });
  const sumIn = measure(`sum u32 of the compressed input (${(inputBytes / 1e6).toFixed(1)} MB)`, () => {
    for (const e of encoded) sumU32(e);
  }, { bytes: inputBytes, runs: 5 });
  const decodeAll = () => {
    for (let k = 0; k < encoded.length; k++) decodeLzb16(encoded[k]!, 16384);
  };
  const walkAll = () => {
    let x = 0;
    for (let k = 0; k < encoded.length; k++) x += walkTokens(encoded[k]!, 16384);
    return x;
  };
  const decodeInto = () => {
    for (let k = 0; k < encoded.length; k++) decodeLzb16Into(encoded[k]!, target, 0, 16384);
  };
  const JS_ONLY = { engine: 'js' } as const;
  const decodeAllJs = () => {
    for (let k = 0; k < encoded.length; k++) decodeLzb16(encoded[k]!, 16384, JS_ONLY);
  };
  const manifests = Array.from({ length: 2000 }, (_, k) => manifestChunk(k + 7, 16384));
  const manifestsEncoded = manifests.map((c) => encodeLzb16(c)!);
  const manifestRatio = manifestsEncoded.reduce((s, e) => s + e.length, 0) / total;
  const decodeManifests = () => {
    for (let k = 0; k < manifestsEncoded.length; k++) decodeLzb16(manifestsEncoded[k]!, 16384);
  };
  const walk = measure('second floor: walk the word salad\'s tokens only (no copy, no output)', walkAll, { bytes: total, runs: 5 });
  const dec = measure(`LZB16 decode 2000 × 16 KiB word salad (ratio ${(inputBytes / total).toFixed(2)}, ${bytesPerToken(encoded, 16384).toFixed(1)} B/token)`, decodeAll, { bytes: total, runs: 5 });
  const decInto = measure('LZB16 decode 2000 × 16 KiB word salad into one preallocated buffer', decodeInto, { bytes: total, runs: 5 });
  const decJs = measure('(reference) the same, the JavaScript decoder alone (`engine: \'js\'`)', decodeAllJs, { bytes: total, runs: 5 });
  const decManifest = measure(`LZB16 decode 2000 × 16 KiB manifest-shaped (ratio ${manifestRatio.toFixed(2)}, ${bytesPerToken(manifestsEncoded, 16384).toFixed(1)} B/token)`, decodeManifests, { bytes: total, runs: 5 });
  const real = ['island', 'mtnpass', 'snowmtn', 'volcano'].map((r) => {
    const entry = loadFixture('arch06', `Patch_00.fortwallgameplay_${r}.bndl.entry.bin`);
    const c = scanArch06Chunks(entry, r === 'island' ? 740 : 760)[0]!;
    return { payload: entry.subarray(8, 8 + c.storedSize), raw: c.rawSize };
  });
  const realOut = real.map((r) => decodeLzb16(r.payload, r.raw));
  const realPerToken = real.map((r) => bytesPerToken([r.payload], r.raw).toFixed(0)).join(', ');
  const realBytes = real.reduce((s, r) => s + r.raw, 0) * 10000;
  const realFloor = measure('floor: slice of the 4 real outputs × 10,000', () => {
    for (let k = 0; k < 10000; k++) for (const o of realOut) o.slice();
  }, { bytes: realBytes, runs: 5 });
  const decodeReal = () => {
    for (let k = 0; k < 10000; k++) for (const r of real) decodeLzb16(r.payload, r.raw);
  };
  const walkReal = () => {
    let x = 0;
    for (let k = 0; k < 10000; k++) for (const r of real) x += walkTokens(r.payload, r.raw);
    return x;
  };
  const decodeRealJs = () => {
    for (let k = 0; k < 10000; k++) for (const r of real) decodeLzb16(r.payload, r.raw, JS_ONLY);
  };
  const realWalk = measure('second floor: walk the 4 real chunks\' tokens only × 10,000', walkReal, { bytes: realBytes, runs: 5 });
  const realM = measure('LZB16 decode the 4 real chunks × 10,000', decodeReal, { bytes: realBytes, runs: 5 });
  const realJs = measure('(reference) the same, the JavaScript decoder alone', decodeRealJs, { bytes: realBytes, runs: 5 });
  const encodeAll = () => {
    for (const c of chunks) encodeLzb16(c);
  };
  const enc = measure('LZB16 encode 2000 × 16 KiB', encodeAll, { bytes: total, runs: 3 });
  const sizeRatio = (inputBytes / total).toFixed(3);
  const cpu = cpuLine([
    ['slice', cpuMs(() => chunks.forEach((c) => c.slice()))],
    ['walk the tokens', cpuMs(walkAll)],
    ['decode', cpuMs(decodeAll)],
    ['decode into', cpuMs(decodeInto)],
    ['decode, JavaScript alone', cpuMs(decodeAllJs)],
    ['decode manifest-shaped', cpuMs(decodeManifests)],
    ['encode', cpuMs(encodeAll, 3)],
  ]);
  const realCpu = cpuLine([
    ['real slice', cpuMs(() => {
      for (let k = 0; k < 10000; k++) for (const o of realOut) o.slice();
    })],
    ['real token walk', cpuMs(walkReal)],
    ['real decode', cpuMs(decodeReal)],
    ['real decode, JavaScript alone', cpuMs(decodeRealJs)],
  ]);
  const rows: Measurement[] = [memcpy, sumIn, walk, dec, decInto, decJs, decManifest, enc];
  return `${report('LZB16', rows, floor)}\n\n${report(`LZB16 on the four real chunks (${realPerToken} B/token)`, [realWalk, realM, realJs], realFloor)}\n\nCompressed size / raw: ${sizeRatio}. ${cpu} ${realCpu}`;
}

/** `SCRY_ARCH06_BENCH_ONLY=index,extract,lzb16` runs only the named sections (default: all three). */
const ONLY = process.env['SCRY_ARCH06_BENCH_ONLY']?.split(',');

export async function run(): Promise<string> {
  const out: string[] = [];
  if (!ONLY || ONLY.includes('index')) out.push(await indexSection());
  if (!ONLY || ONLY.includes('extract')) out.push(await extractSection());
  if (!ONLY || ONLY.includes('lzb16')) out.push(lzbSection());
  return out.join('\n\n');
}
