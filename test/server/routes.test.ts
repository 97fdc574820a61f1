import { describe, expect, it } from 'vitest';
import { formatRoute, parseRoute, type Route } from '../../web/src/routes.ts';
import { detectKind } from '../../src/server/workspace.ts';
import { hex } from '../support/fixtures.ts';

describe('shareable URLs', () => {
  const cases: [Route, string][] = [
    [{ view: 'home' }, '/'],
    [{ view: 'file', file: 'game.gamedb' }, '/f/game.gamedb'],
    [{ view: 'category', file: 'game.gamedb', category: 'AI/Templates' }, '/f/game.gamedb/c/AI%2FTemplates'],
    [{ view: 'category', file: 'game.gamedb', category: 'AI/Templates', record: 'Orc Captain', field: '0x267D8BCA' }, '/f/game.gamedb/c/AI%2FTemplates/r/Orc%20Captain?field=0x267D8BCA'],
    [{ view: 'category', file: 'g', category: '_StructuresHordeOdd', record: '#12' }, '/f/g/c/_StructuresHordeOdd/r/%2312'],
    [{ view: 'search', file: 'g', q: 'a & b?' }, '/f/g/search?q=a%20%26%20b%3F'],
    [{ view: 'edits', file: 'g' }, '/f/g/edits'],
    [{ view: 'sd2table', file: 'clientdb.sd2', table: 'dbtest::Wide', row: 7 }, '/f/clientdb.sd2/t/dbtest%3A%3AWide?row=7'],
    [{ view: 'hash', text: 'CombatProp' }, '/hash?text=CombatProp'],
    [{ view: 'entry', file: 'Patch_00.arch06', entry: 'worlds/retail/a b.bndl' }, '/f/Patch_00.arch06/e/worlds/retail/a%20b.bndl'],
    [{ view: 'listing', file: 'closures.debug.luac', line: 26 }, '/f/closures.debug.luac/listing?line=26'],
    [{ view: 'listing', file: 'x.scripts' }, '/f/x.scripts/listing'],
  ];

  it('formats every view as a URL and reads it back to the same view', () => {
    for (const [route, url] of cases) {
      expect(formatRoute(route)).toBe(url);
      const q = url.indexOf('?');
      expect(parseRoute(q < 0 ? url : url.slice(0, q), q < 0 ? '' : url.slice(q))).toEqual(route);
    }
  });

  it('treats unknown and malformed paths as missing, not as a crash', () => {
    expect(parseRoute('/f/x/c/a/b', '').view).toBe('missing');
    expect(parseRoute('/%E0%A4%A', '').view).toBe('missing');
    expect(parseRoute('/nope', '').view).toBe('missing');
    expect(parseRoute('/f/x/e', '').view).toBe('missing');
    // an archive path with backslashes is written with slashes (the archive reads either)
    expect(formatRoute({ view: 'entry', file: 'a.arch06', entry: 'x\\y.txt' })).toBe('/f/a.arch06/e/x/y.txt');
  });

  it('keeps an archive entry with a . or .. segment through the browser\'s URL normalisation (issue 17, bug 11)', () => {
    for (const entry of ['docs/../x.txt', 'docs/./y.txt', 'a/../../b', '../up.txt', 'docs/a..b.txt']) {
      const url = new URL(formatRoute({ view: 'entry', file: 'a.arch06', entry }), 'http://127.0.0.1:7919/');
      expect(parseRoute(url.pathname, url.search)).toEqual({ view: 'entry', file: 'a.arch06', entry });
    }
  });

  it('formats extension views under their file or at the root, with their own path and query', () => {
    expect(formatRoute({ view: 'ext', segment: 'run', file: 'x.luac', rest: ['a b'], query: '?n=1' })).toBe('/f/x.luac/run/a%20b?n=1');
    expect(formatRoute({ view: 'ext', segment: 'streaming', rest: [], query: '' })).toBe('/streaming');
  });
});

describe('file kinds', () => {
  it('knows GADB by its magic, bare or wrapped, and the others by magic or extension', () => {
    expect(detectKind(hex`47 41 44 42 11 00 00 00`, 'x.bin')).toBe('gadb');
    expect(detectKind(hex`4c 54 46 58 08 00 00 00 47 41 44 42`, 'x.fxp')).toBe('gadb');
    expect(detectKind(hex`1b 4c 75 61 51`, 'x.luac')).toBe('hks');
    expect(detectKind(hex`00 00 00 00`, 'clientdb.sd2')).toBe('sd2');
    expect(detectKind(hex`00 00 00 00`, 'Patch_00.arch06')).toBe('arch06');
    expect(detectKind(hex`00 00 00 00`, 'notes.txt')).toBe('unknown');
    expect(detectKind(hex`4c 54 41 52 04 00 00 00`, 'mod.bin')).toBe('arch06');
    expect(detectKind(hex`53 43 52 49 01 00 00 00 01`, 'layer.scripts')).toBe('hks');
  });
});
