/**
 * `.strdb` campaign: `npm run fuzz -- strdb`. No real file is small enough to be a fixture: seeds are built by
 * `buildStrdb` (shared texts, the empty string at 0, non-Latin text, surrogate pairs). Per case: parse, validate,
 * read every string; a database that parses must write back byte for byte.
 */
import { firstDifference } from '../src/binary/hexdump.ts';
import { buildStrdb, parseStrdb, strdbGet, validateStrdb, writeStrdb } from '../src/formats/strdb/strdb.ts';
import { Finding, formatCampaign, typed, type FuzzTarget } from './harness.ts';

export const target: FuzzTarget = {
  id: 'strdb',
  seeds: () => [
    writeStrdb(buildStrdb([{ id: 1, text: 'Talion' }, { id: 7, text: '' }, { id: 9, text: 'Talion' }, { id: 0x12345678, text: 'Celebrimbor — 鍛冶' }])),
    writeStrdb(buildStrdb(Array.from({ length: 40 }, (_, i) => ({ id: i * 3 + 1, text: `line ${i % 7} 😀`.repeat(1 + (i % 3)) })))),
  ],
  open: (b) => parseStrdb(b),
  check: (b) =>
    typed(() => {
      const db = parseStrdb(b);
      validateStrdb(db);
      for (const e of db.entries) strdbGet(db, e.id);
      const at = firstDifference(writeStrdb(db), b);
      if (at >= 0) throw new Finding(`write(parse(x)) differs at 0x${at.toString(16)}`);
    }),
};

export const fuzz = formatCampaign(import.meta.url, target);
