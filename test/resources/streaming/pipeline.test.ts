import { describe, expect, it } from 'vitest';
import { DEFAULT_LATENCY, DoubleBufferedQueue, OPEN_FILE_SLOTS, RESOURCE_BUCKETS, ResourceTable, STREAMING_HYPOTHESES, textureQueue, withLatency, p919 } from '../../../src/index.ts';
import { streamerOver } from './world.ts';

describe('the resource table (seed 001)', () => {
  it('has 0x800 buckets chosen by P919(path) & 0x7FF', () => {
    const t = new ResourceTable();
    // spec archives.md §5 test vector
    const path = 'characters\\modelcharacters\\player\\bodies\\body_eltariel\\grafteltariel_wraith_body.mesh';
    expect(RESOURCE_BUCKETS).toBe(0x800);
    const node = t.register(path);
    expect(node.hash).toBe(0x3e81711f);
    expect(t.chainLength(0x3e81711f & 0x7ff)).toBe(1);
    // case and separators fold to the same node, as the hash folds case
    expect(t.register('Characters/ModelCharacters/Player/Bodies/Body_Eltariel/GraftEltariel_Wraith_Body.MESH')).toBe(node);
    expect(t.hashOf('materials\\0dev\\engine\\deferred_debug.mat')).toBe(58863867);
  });

  it('keeps a released resource with its data on the unused list: released is not gone', () => {
    const t = new ResourceTable();
    const a = t.acquire('a.tex');
    a.data = new Uint8Array(10);
    a.bytes = 10;
    t.acquire('a.tex');
    expect(a.refCount).toBe(2);
    t.release(a);
    expect(t.unused.has(a)).toBe(false);
    t.release(a);
    expect(a.refCount).toBe(0);
    expect(t.unused.has(a)).toBe(true);
    expect(a.resident).toBe(true);
    expect(t.find('A.TEX')).toBe(a);
    expect(t.stats().unusedResidentBytes).toBe(10);
    // taken again: off the unused list, still the same data
    expect(t.acquire('a.tex')).toBe(a);
    expect(t.unused.has(a)).toBe(false);
    t.release(a);
    expect(t.trimUnused()).toBe(10);
    expect(t.find('a.tex')).toBeUndefined();
    expect(() => t.release(a)).toThrow(/more often/);
    expect(STREAMING_HYPOTHESES.releasedNotGone.status).toBe('engine');
  });
});

describe('the double-buffered queue', () => {
  it('serves first-in first-out across swaps, and records its high-water mark', () => {
    const q = new DoubleBufferedQueue<number>();
    const out: number[] = [];
    q.push(1);
    q.push(2);
    q.push(3);
    out.push(q.take()!); // swap + reverse: 1
    q.push(4); // lands in the input vector while 2, 3 wait in the output
    out.push(q.take()!, q.take()!, q.take()!);
    expect(out).toEqual([1, 2, 3, 4]);
    expect(q.take()).toBeUndefined();
    expect(q.highWater).toBe(3);
  });
});

describe('the I/O pipeline (open → load → parse)', () => {
  it('routes tex0 / texuhd paths to queue 1, everything else to queue 0', () => {
    expect(textureQueue('textures\\x\\rock_d.tex0.tex')).toBe(1);
    expect(textureQueue('TEXTURES\\X\\ROCK_D.TEXUHD.TEX')).toBe(1);
    expect(textureQueue('textures\\x\\rock_d.tex')).toBe(0);
    expect(textureQueue('meshes\\rock.mesh')).toBe(0);
  });

  it('drains queue 0 before queue 1 is touched, first-in first-out within a queue', async () => {
    const files: Record<string, number> = {};
    const hi = Array.from({ length: 8 }, (_, i) => `tex\\hi${i}.texuhd.tex`);
    const base = Array.from({ length: 8 }, (_, i) => `tex\\base${i}.tex`);
    for (const p of [...hi, ...base]) files[p] = 1000;
    const s = await streamerOver(files);
    // all high-resolution tiers are submitted first, in one burst
    s.at(0, () => {
      for (const p of hi) s.requestTexture(p);
      for (const p of base) s.requestTexture(p);
    });
    await s.run();
    const order = s.completions.map((c) => c.path);
    expect(order).toEqual([...base, ...hi]);
    expect(s.completions.every((c) => c.status === 'done')).toBe(true);
  });

  it('bounds open files with 32 slots taken at open and released at parse: the 33rd open waits for a parse', async () => {
    expect(OPEN_FILE_SLOTS).toBe(32);
    const files: Record<string, number> = {};
    const paths = Array.from({ length: 33 }, (_, i) => `f\\${String(i).padStart(2, '0')}.bin`);
    for (const p of paths) files[p] = 100;
    // a slow load: nothing reaches parse before all 32 slots are taken
    const latency = withLatency({ open: { fixedMs: 1 }, load: { fixedMs: 100, mibPerSecond: 0 }, parse: { fixedMs: 1, mibPerSecond: 0 } });
    const run = async (slots: number) => {
      const s = await streamerOver(files, { latency, slots });
      const reqs = paths.map((p) => s.load(p)).map((node) => node.request!);
      await s.run();
      return { s, reqs };
    };
    const { s, reqs } = await run(32);
    const first = reqs[0]!;
    // 32 opens complete one millisecond apart
    expect(reqs.slice(0, 32).map((r) => r.times.opened)).toEqual(Array.from({ length: 32 }, (_, i) => i + 1));
    // the 33rd takes the slot the first request gives back when its parse starts (right after its read, t = 101)
    expect(first.times.read).toBe(101);
    expect(reqs[32]!.times.opened).toBe(first.times.read! + 1);
    expect(s.report().slots.lowWater).toBe(0);
    expect(s.report().slots.inUse).toBe(0);
    // with a 33rd slot it does not wait
    const wide = await run(33);
    expect(wide.reqs[32]!.times.opened).toBe(33);
  });

  it('keeps the load queues bounded by the slots while the backlog builds in front of the open stage', async () => {
    const files: Record<string, number> = {};
    const paths = Array.from({ length: 600 }, (_, i) => `b\\${i}.bin`);
    for (const p of paths) files[p] = 65536;
    const s = await streamerOver(files);
    s.at(0, () => {
      for (const p of paths) s.load(p);
    });
    await s.run();
    const hw = s.report().highWater;
    expect(hw.open[0]).toBeGreaterThan(500);
    expect(hw.load[0]).toBeLessThanOrEqual(32);
    expect(hw.load[0]).toBeGreaterThan(20);
    expect(s.report().requests.done).toBe(600);
  });

  it('runs a stage inline on the caller when its switch byte is 0, with the same results', async () => {
    const files = { 'a.bin': 10, 'b.bin': 20, 'c.bin': 30 };
    const order = async (switches: { open: boolean; load: boolean; parse: boolean }) => {
      const s = await streamerOver(files, { switches });
      for (const p of Object.keys(files)) s.load(p);
      await s.run();
      return { s, paths: s.completions.map((c) => c.path), threads: s.report().threads };
    };
    const shipped = await order({ open: true, load: true, parse: true });
    expect(shipped.threads.map((t) => t.name)).toEqual(['caller', 'open', 'load', 'parse']);
    const noOpen = await order({ open: false, load: true, parse: true });
    expect(noOpen.threads.map((t) => t.name)).toEqual(['caller', 'load', 'parse']);
    expect(noOpen.threads[0]!.busyMs).toBeCloseTo(3 * DEFAULT_LATENCY.open.fixedMs, 6); // the caller did the opens
    const allInline = await order({ open: false, load: false, parse: false });
    expect(allInline.threads.map((t) => t.name)).toEqual(['caller']);
    for (const r of [noOpen, allInline]) {
      expect(r.paths).toEqual(shipped.paths);
      for (const p of Object.keys(files)) expect(r.s.table.find(p)!.resident).toBe(true);
    }
  });

  it('shares a request in flight, serves a resident resource without I/O, and treats a missing path as harmless', async () => {
    const s = await streamerOver({ 'x.bin': 100 });
    const a = s.load('x.bin');
    const b = s.load('X.BIN');
    expect(b).toBe(a);
    expect(a.request!.refs).toBe(2);
    const gone = s.load('not\\there.bin');
    await s.run();
    const r = s.report();
    expect(r.requests).toMatchObject({ submitted: 2, done: 1, missing: 1, shared: 1 });
    expect(gone.resident).toBe(false);
    expect(r.slots.inUse).toBe(0);
    s.load('x.bin');
    await s.run();
    expect(s.report().requests.submitted).toBe(2);
    expect(s.report().requests.residentHits).toBe(1);
  });

  it('is deterministic: the same inputs give the same order and times of completion', async () => {
    const files: Record<string, number> = {};
    for (let i = 0; i < 200; i++) files[`d\\${i}.${i % 5 === 0 ? 'texuhd.tex' : 'tex'}`] = 1000 + ((i * 7919) % 50000);
    const once = async () => {
      const s = await streamerOver(files);
      Object.keys(files).forEach((p, i) => s.at(i * 0.3, () => s.requestTexture(p)));
      await s.run();
      return s.completions.map((c) => `${c.path}@${c.t}`);
    };
    const a = await once();
    expect(a).toHaveLength(200);
    expect(await once()).toEqual(a);
  });

  it('hashes keys with P919 the way the mount vector does', () => {
    expect(new ResourceTable().hashOf('a\\b.tex')).toBe(p919('a\\b.tex'));
  });
});
