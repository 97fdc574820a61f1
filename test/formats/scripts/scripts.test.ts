import { describe, expect, it } from 'vitest';
import { describeScripts, isScripts } from '../../../src/index.ts';
import { loadFixture } from '../../support/fixtures.ts';

describe('.scripts summary (through the scri codec)', () => {
  it('describes the real first chunk as source text with its declared and available sizes', () => {
    const bytes = loadFixture('scripts', 'island_fortassault_fagameplay.scripts.first65536.bin');
    expect(isScripts(bytes)).toBe(true);
    const s = describeScripts(bytes);
    expect(s).toMatchObject({ version: 1, flag: 1, kind: 'source', declaredLength: 819366, availableLength: 65536 - 13 });
    expect(s.preview!.startsWith('-- SCRIPTOBJECT PROTOTYPES')).toBe(true);
  });
});
