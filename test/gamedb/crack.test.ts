/** The GameDB field-name cracker and name lists with `0xHASH<TAB>name` lines. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Database } from '../../src/gamedb/database.ts';
import { NameDictionary } from '../../src/gamedb/names.ts';
import { Vocabulary, crackGadbFieldNames, fieldNameCoverage, gadbVocabulary, nameWords, unnamedFieldHashes } from '../../src/gamedb/crack.ts';
import { p919 } from '../../src/hash/p919.ts';
import { BUILTIN_NAMES_URL } from '../../src/node/gamedb.ts';
import { loadFixture } from '../support/fixtures.ts';

/** The 33 names of the shipped list: each was confirmed on the real sample (specs/gadb.md §3.4). */
const CONFIRMED = readFileSync(BUILTIN_NAMES_URL, 'utf8')
  .split('\n')
  .map((l) => l.replace(/#.*/, '').trim())
  .filter(Boolean);

describe('nameWords', () => {
  it('splits at case changes, digits, underscores and punctuation, keeping acronyms whole', () => {
    expect(nameWords('EmissionRate2')).toEqual(['Emission', 'Rate', '2']);
    expect(nameWords('AI_Templates')).toEqual(['AI', 'Templates']);
    expect(nameWords('FXName')).toEqual(['FX', 'Name']);
    expect(nameWords('fx\\weapons\\bow_trail.fxp')).toEqual(['fx', 'weapons', 'bow', 'trail', 'fxp']);
    expect(nameWords('ClientFX.Sprite')).toEqual(['Client', 'FX', 'Sprite']);
  });
});

describe('crackGadbFieldNames on the real sample', () => {
  // No names at all: everything the cracker reports comes from the file's own words.
  const db = Database.open(loadFixture('gadb', 'landmine_curse.fxp'), { names: new NameDictionary() });

  it('recovers confirmed field names from the words of the file alone, each hashing to its field', () => {
    const targets = unnamedFieldHashes(db);
    expect(targets.length).toBe(fieldNameCoverage(db).fields);
    const r = crackGadbFieldNames({ targets, vocabulary: gadbVocabulary(db), maxWords: 2 });
    const found = new Map(r.hits.map((h) => [h.hash, h.name]));
    // Names the seeds confirmed whose words all occur in the file's names and texts (Material, Intensity0, Scale…).
    for (const name of ['Material', 'Materials', 'Material0', 'Material4', 'Intensity', 'Intensity1', 'Model', 'Scale']) {
      expect(CONFIRMED).toContain(name);
      expect(found.get(p919(name))?.toLowerCase()).toBe(name.toLowerCase());
    }
    for (const h of r.hits) {
      expect(p919(h.name)).toBe(h.hash);
      expect(targets).toContain(h.hash);
    }
    expect(r.complete).toBe(true);
  });

  it('finds more with the known names in the vocabulary (their words combine into new names)', () => {
    const known = new NameDictionary();
    for (const n of CONFIRMED) known.add(n);
    const withNames = Database.open(loadFixture('gadb', 'landmine_curse.fxp'), { names: known });
    const r = crackGadbFieldNames({ targets: unnamedFieldHashes(withNames), vocabulary: gadbVocabulary(withNames), maxWords: 2 });
    expect(fieldNameCoverage(withNames)).toEqual({ fields: 348, named: 33 });
    // Intensity2/3 extend the confirmed Intensity0/1; every hit is a new, unnamed hash.
    expect(r.hits.map((h) => h.name)).toEqual(expect.arrayContaining(['Intensity2', 'Intensity3']));
    for (const h of r.hits) expect(known.has(h.hash)).toBe(false);
  });

  it('lists two different candidates for one hash as a collision and picks neither', () => {
    // P919 of both is 0xBAA8534B (a real collision of the hash, found on this file at three words).
    expect(p919('ParticleModel')).toBe(p919('ShutdownFXRandom'));
    const v = new Vocabulary();
    v.addText('Particle Model Shutdown FX Random');
    const r = crackGadbFieldNames({ targets: [p919('ParticleModel')], vocabulary: v, maxWords: 3 });
    expect(r.hits).toEqual([]);
    expect(r.collisions).toEqual([{ hash: p919('ParticleModel'), names: ['ParticleModel', 'ShutdownFXRandom'] }]);
  });

  it('stops at its budget and says so', () => {
    const r = crackGadbFieldNames({ targets: unnamedFieldHashes(db), vocabulary: gadbVocabulary(db), maxWords: 3, budget: 5000 });
    expect(r.tried).toBeLessThanOrEqual(5000);
    expect(r.complete).toBe(false);
  });
});

describe('name lists', () => {
  it('reads 0xHASH<TAB>name lines: checked against P919, refused when they differ, kept unverified when they cannot be hashed', () => {
    const names = new NameDictionary();
    const text = ['EndTime', `0x${p919('StartTime').toString(16)}\tStartTime`, '0x12345678\tKeyName', '0xCAFEF00D\tAI/Templates', '# comment'].join('\n');
    const report = names.addText(text);
    expect(names.get(p919('EndTime'))).toBe('EndTime');
    expect(names.get(p919('StartTime'))).toBe('StartTime');
    expect(names.get(0x12345678)).toBeUndefined();
    expect(names.get(p919('KeyName'))).toBeUndefined();
    expect(report.mismatches).toEqual([{ line: 3, name: 'KeyName', listed: 0x12345678, hash: p919('KeyName') }]);
    expect(names.get(0xcafef00d)).toBe('AI/Templates');
    expect(report.unverified).toEqual([{ line: 4, name: 'AI/Templates', hash: 0xcafef00d }]);
    expect(report.added).toBe(3);
  });
});
