import { describe, expect, it } from 'vitest';
import { CLOCK_SLOTS, ClockSet, SLOW_MOTION_CHANNELS, UNBOUNDED_STEP_MS } from '../../src/engine/clocks.ts';

// Figures are seed 004's ("Time and frames").
const CLAMPED = ['world', 'player', 'combatCompanion', 'worldUi', 'presentations', 'ui'] as const;
const PAUSABLE_NAMED = [...CLAMPED, 'unscaled'] as const;

describe('clock slots (seed 004)', () => {
  it('has the 11 slots from 0x2702548 to 0x2702598, 8 bytes apart', () => {
    expect(CLOCK_SLOTS).toHaveLength(11);
    CLOCK_SLOTS.forEach((s, i) => expect(s.slot).toBe(0x2702548 + 8 * i));
    const bySlot = Object.fromEntries(CLOCK_SLOTS.map((s) => [s.slot, s.id]));
    expect(bySlot[0x2702598]).toBe('world');
    expect(bySlot[0x2702548]).toBe('player');
    expect(bySlot[0x2702570]).toBe('combatCompanion');
    expect(bySlot[0x2702558]).toBe('worldUi');
    expect(bySlot[0x2702578]).toBe('presentations');
    expect(bySlot[0x2702550]).toBe('unscaled');
    expect(bySlot[0x2702588]).toBe('ui');
    expect(bySlot[0x2702590]).toBe('realTime');
  });

  it('six named clocks clamp to 1-100 ms; unscaled and real-time have no upper bound', () => {
    for (const id of CLAMPED) {
      const s = CLOCK_SLOTS.find((c) => c.id === id)!;
      expect([s.minStepMs, s.maxStepMs]).toEqual([1, 100]);
    }
    for (const id of ['unscaled', 'realTime']) expect(CLOCK_SLOTS.find((c) => c.id === id)!.maxStepMs).toBe(0xffffffff);
  });

  it('slow motion scales the first five as channels', () => {
    expect([...SLOW_MOTION_CHANNELS].sort()).toEqual(['combatCompanion', 'player', 'presentations', 'world', 'worldUi']);
  });
});

describe('the update rule', () => {
  it('a 5 s hitch advances a clamped clock by 100 ms, an unbounded one by 5000 ms', () => {
    const clocks = new ClockSet();
    clocks.tick(5000);
    for (const id of CLAMPED) expect(clocks.get(id).stepMs, id).toBe(100);
    for (const id of CLAMPED) expect(clocks.get(id).timeMs, id).toBe(100);
    expect(clocks.get('unscaled').stepMs).toBe(5000);
    expect(clocks.realTime.stepMs).toBe(5000);
    expect(clocks.realTime.maxStepMs).toBe(UNBOUNDED_STEP_MS);
  });

  it('a frame with no real time still steps a clamped clock by its 1 ms minimum', () => {
    const clocks = new ClockSet();
    clocks.tick(0);
    expect(clocks.world.stepMs).toBe(1);
    expect(clocks.realTime.stepMs).toBe(0);
  });

  it('step = rate x real elapsed + the pending extra, which is used once', () => {
    const clocks = new ClockSet();
    const world = clocks.world;
    world.addExtra(30);
    world.update(20);
    expect(world.stepMs).toBe(50);
    expect(world.extraMs).toBe(0);
    world.update(20);
    expect(world.stepMs).toBe(20);
    world.setRate(3, 2);
    world.update(20);
    expect(world.stepMs).toBe(30);
    expect(world.effectiveRate).toBe(1.5);
    expect(world.timeMs).toBe(100);
    expect(world.timeSeconds).toBeCloseTo(0.1, 12);
    expect(world.stepSeconds).toBe(Math.fround(0.03));
  });

  it('the extra is cleared but no step is taken while the stop byte is set, and the clamp is skipped', () => {
    const world = new ClockSet().world;
    world.stop = 1;
    world.addExtra(40);
    world.update(20);
    expect(world.stepMs).toBe(0); // not clamped up to the 1 ms minimum
    expect(world.extraMs).toBe(0);
    world.stop = 0;
    world.update(20);
    expect(world.stepMs).toBe(20);
  });

  it('a denominator above 0xFFFF forces the step to 0 without the clamp', () => {
    const world = new ClockSet().world;
    world.setRate(1, 0x10000);
    world.update(20);
    expect(world.stepMs).toBe(0);
    world.setRate(1, 0xffff);
    world.update(20);
    expect(world.stepMs).toBe(1); // 20 / 65535 rounds to 0, clamped up to the minimum
  });

  it('passes each step to every listener', () => {
    const world = new ClockSet().world;
    const seen: number[] = [];
    const remove = world.addListener((step) => seen.push(step));
    world.update(5000);
    world.update(7);
    remove();
    world.update(7);
    expect(seen).toEqual([100, 7]);
  });

  it('the time in ms is a u32 and wraps', () => {
    const clock = new ClockSet().realTime;
    clock.timeMs = 0xffffffff - 5;
    clock.update(10);
    expect(clock.timeMs).toBe(4);
  });

  it('the reference count includes the holder', () => {
    const clocks = new ClockSet();
    const p = clocks.get('presentations');
    expect(p.refCount).toBe(1);
    p.acquire();
    p.acquire();
    expect(p.refCount).toBe(3);
    p.release();
    p.release();
    p.release();
    expect(p.refCount).toBe(1);
  });
});

describe('pause and slow motion', () => {
  it('paused for one second: real-time +1000 ms, the other clocks +0 with stop byte 1 and step 0', () => {
    const clocks = new ClockSet();
    clocks.tick(20);
    const before = clocks.snapshot();
    clocks.setPaused(true);
    for (let i = 0; i < 50; i++) clocks.tick(20);
    const after = clocks.snapshot();
    for (const [i, c] of after.entries()) {
      if (c.id === 'realTime') {
        expect(c.timeMs - before[i]!.timeMs).toBe(1000);
        expect(c.stop).toBe(0);
        expect(c.effectiveRate).toBe(1);
      } else {
        expect(c.timeMs - before[i]!.timeMs, c.id).toBe(0);
        expect(c.stepMs, c.id).toBe(0);
        expect(c.stop, c.id).toBe(1);
      }
    }
    for (const id of PAUSABLE_NAMED) expect(clocks.get(id).stop).toBe(1);
    clocks.setPaused(false);
    clocks.tick(20);
    expect(clocks.world.stepMs).toBe(20);
  });

  it('slow motion at 0.5 halves the five channels and leaves UI, unscaled and real-time alone', () => {
    const clocks = new ClockSet();
    clocks.setSlowMotion(0.5);
    clocks.tick(40);
    for (const id of SLOW_MOTION_CHANNELS) expect(clocks.get(id).stepMs, id).toBe(20);
    for (const id of ['ui', 'unscaled', 'realTime'] as const) expect(clocks.get(id).stepMs, id).toBe(40);
    clocks.setSlowMotion(1);
    clocks.tick(40);
    expect(clocks.world.stepMs).toBe(40);
  });

  it('slow motion on one channel only scales that clock; a clock that is not a channel is refused', () => {
    const clocks = new ClockSet();
    clocks.setSlowMotion(0.25, ['player']);
    clocks.tick(40);
    expect(clocks.get('player').stepMs).toBe(10);
    expect(clocks.world.stepMs).toBe(40);
    expect(() => clocks.setSlowMotion(0.5, ['ui'])).toThrow(/not a slow-motion channel/);
  });
});
