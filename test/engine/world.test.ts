import { describe, expect, it } from 'vitest';
import { Database } from '../../src/gamedb/database.ts';
import { World } from '../../src/engine/world.ts';
import { loadFixture } from '../support/fixtures.ts';

describe('world state (seed 004)', () => {
  it('is not loaded at the main menu, loaded after a load, in play once characters spawn', () => {
    const w = new World();
    expect([w.loaded, w.inPlay]).toEqual([false, false]);
    w.load('island');
    expect([w.loaded, w.inPlay]).toEqual([true, false]);
    w.addSpawnedCharacters(114);
    expect(w.inPlay).toBe(true);
    w.unload();
    expect([w.loaded, w.inPlay]).toEqual([false, false]);
  });

  it('unfocused pauses the simulation like the pause menu; world time stops, real time goes on', () => {
    const w = new World();
    w.load('island');
    w.setFocused(false);
    expect(w.simulationStopped).toBe(true);
    for (let i = 0; i < 10; i++) w.frame(20);
    expect(w.clocks.world.timeMs).toBe(0);
    expect(w.clocks.realTime.timeMs).toBe(200);
    w.setPaused(true);
    w.setFocused(true);
    expect(w.simulationStopped).toBe(true); // still paused from the menu
    w.setPaused(false);
    w.frame(20);
    expect(w.clocks.world.timeMs).toBe(20);
  });

  it('a load returns GameDB instance values written before it to the file values', () => {
    const db = Database.open(loadFixture('gadb', 'landmine_curse.fxp'));
    const w = new World({ db });
    const rec = db.getRecord('FxGlobalProps', 'FxGlobalProps');
    w.load('island');
    expect(w.gamedb!.get(rec, 0x3114f9a5)).toBe(6000);
    w.gamedb!.set(rec, 0x3114f9a5, 9999);
    expect(w.gamedb!.get(rec, 0x3114f9a5)).toBe(9999);
    expect(rec.getInt(0x3114f9a5)).toBe(6000); // the file is never changed
    const e = w.load('island');
    expect(e.droppedInstanceWrites).toBe(1);
    expect(w.gamedb!.get(rec, 0x3114f9a5)).toBe(6000);
  });

  it('runs the region hook only when the region changes', () => {
    const w = new World();
    const changes: string[] = [];
    const loads: string[] = [];
    w.onRegionChange((e) => changes.push(`${e.previousRegion ?? '-'}>${e.region}`));
    w.onLoad((e) => loads.push(e.region));
    w.load('island');
    w.load('island');
    w.load('desert');
    expect(changes).toEqual(['->island', 'island>desert']);
    expect(loads).toEqual(['island', 'island', 'desert']);
  });
});
