/**
 * `.embb`: a bundle's content container, version 5 (spec `archives.md` §8). Its layout is **not known**: the one
 * both public tools describe (ImHex, QuickBMS) is implemented here as the named hypothesis `embb.toolsLayout`,
 * and every parse reports precisely where a file departs from it. No real `.embb` has been decoded yet.
 *
 * Hypothesis `embb.toolsLayout` (little-endian):
 *
 *     0     char[4] "EMBB"
 *     4     u32 version = 5                (verified: four real chunks start `EMBB 05 00 00 00`)
 *     8     u32 namesSize
 *     12    u32 count
 *     16    char[namesSize]                NUL-terminated names
 *     16+S  u32[count]                     name offsets relative to byte 16
 *     …     count × {u32 size, byte[size]} resource data in table order
 *     (QuickBMS: further EMBB sections may follow back to back)
 *
 * The verified constraint `embb.sizeRule`: for four real bundles, the `.embb` raw size is exactly
 * Σ(.bndl sizes) + .bndl namesSize + 24, which the tools' layout does not give when the names are the
 * manifest's padded paths (it needs 16 + namesSize + 8 × count).
 */
import { FormatError, UnsupportedError, type Issue } from '../../binary/errors.ts';
import { ByteReader } from '../../binary/reader.ts';
import { bndlNamesSize, bndlTotalSize, type Bndl } from '../bndl/bndl.ts';
import { latin1Decode } from '../../binary/text.ts';

export const EMBB_FORMAT = 'embb';

export const EMBB_HYPOTHESES = {
  toolsLayout: {
    id: 'embb.toolsLayout',
    statement: 'EMBB v5 = header {magic, version, namesSize, count}, names, u32 name offsets, then {u32 size, data} per resource (ImHex + QuickBMS); contradicted by real sizes',
    status: 'open',
  },
  sizeRule: {
    id: 'embb.sizeRule',
    statement: '.embb raw size = Σ .bndl resource sizes + .bndl namesSize + 24 (holds for all four real bundles)',
    status: 'verified',
  },
} as const;

export interface EmbbResource {
  name: string;
  nameOffset: number;
  /** Offset of the data (after its u32 size). */
  dataOffset: number;
  size: number;
}

export interface EmbbSection {
  offset: number;
  version: number;
  namesSize: number;
  count: number;
  resources: EmbbResource[];
}

/** The result of reading a file under `embb.toolsLayout`. */
export interface EmbbReading {
  hypothesis: typeof EMBB_HYPOTHESES.toolsLayout.id;
  sections: EmbbSection[];
}

export function isEmbb(bytes: Uint8Array): boolean {
  return bytes.length >= 8 && bytes[0] === 0x45 && bytes[1] === 0x4d && bytes[2] === 0x42 && bytes[3] === 0x42;
}

/**
 * Reads `bytes` under the tools' layout. Throws a FormatError naming the offset and field where the file
 * contradicts the hypothesis (the message says so); never guesses past it.
 */
export function parseEmbbHypothesis(bytes: Uint8Array): EmbbReading {
  const r = new ByteReader(bytes, { format: EMBB_FORMAT });
  const sections: EmbbSection[] = [];
  const contradiction = (at: number, path: string, reason: string): FormatError =>
    new FormatError(EMBB_FORMAT, at, path, `contradicts hypothesis ${EMBB_HYPOTHESES.toolsLayout.id}: ${reason}`);
  while (r.remaining > 0) {
    const offset = r.pos;
    const s = `/sections/${sections.length}`;
    r.expectBytes('EMBB', `${s}/magic`);
    const versionAt = r.pos;
    const version = r.u32(`${s}/version`);
    if (version !== 5) throw new UnsupportedError(EMBB_FORMAT, versionAt, `${s}/version`, `EMBB version ${version}`);
    const namesSize = r.u32(`${s}/namesSize`);
    const count = r.u32(`${s}/count`);
    if (namesSize > r.remaining) throw contradiction(offset + 8, `${s}/namesSize`, `names block of ${namesSize} bytes exceeds the ${r.remaining} left`);
    const namesAt = r.pos;
    const block = r.bytes(namesSize, `${s}/names`);
    if (count > Math.floor(r.remaining / 8)) throw contradiction(offset + 12, `${s}/count`, `${count} resources need at least ${count * 8} more bytes, ${r.remaining} left`);
    const resources: EmbbResource[] = [];
    const offsets: number[] = [];
    for (let i = 0; i < count; i++) offsets.push(r.u32(`${s}/nameOffsets/${i}`));
    // The block is decoded once and each name is a slice of it, ended by the next NUL (one backward pass finds
    // them all): names that overlap share the text, so time and memory stay linear in the file.
    const text = latin1Decode(block);
    const nextNul = new Int32Array(namesSize);
    for (let k = namesSize - 1, nul = -1; k >= 0; k--) {
      if (block[k] === 0) nul = k;
      nextNul[k] = nul;
    }
    for (let i = 0; i < count; i++) {
      const no = offsets[i]!;
      if (no >= namesSize) throw contradiction(namesAt + namesSize + 4 * i, `${s}/nameOffsets/${i}`, `name offset ${no} is outside the ${namesSize}-byte names block`);
      const nul = nextNul[no]!;
      if (nul < 0) throw contradiction(namesAt + no, `${s}/names`, `the name at +${no} of the names block is not NUL-terminated`);
      const name = text.slice(no, nul);
      const sizeAt = r.pos;
      if (r.remaining < 4) throw contradiction(sizeAt, `${s}/resources/${i}/size`, 'the file ends before the resource size');
      const size = r.u32(`${s}/resources/${i}/size`);
      if (size > r.remaining) throw contradiction(sizeAt, `${s}/resources/${i}/size`, `resource size ${size} exceeds the ${r.remaining} bytes left`);
      resources.push({ name, nameOffset: no, dataOffset: r.pos, size });
      r.skip(size);
    }
    sections.push({ offset, version, namesSize, count, resources });
  }
  return { hypothesis: EMBB_HYPOTHESES.toolsLayout.id, sections };
}

/**
 * Compares an `.embb`'s raw size with its manifest: the verified size rule, and what the tools' layout would need
 * if its names were the manifest's padded paths. Each result names the hypothesis it bears on.
 */
export function checkEmbbAgainstBndl(embbRawSize: number, bndl: Bndl): Issue[] {
  const issues: Issue[] = [];
  const sum = bndlTotalSize(bndl);
  const namesSize = bndlNamesSize(bndl);
  const rule = sum + namesSize + 24;
  issues.push({
    rule: 'embb.sizeRule',
    message: rule === embbRawSize ? `raw size ${embbRawSize} = Σ sizes ${sum} + namesSize ${namesSize} + 24` : `raw size ${embbRawSize} ≠ Σ sizes ${sum} + namesSize ${namesSize} + 24 = ${rule}`,
    severity: rule === embbRawSize ? 'info' : 'error',
    hypothesis: EMBB_HYPOTHESES.sizeRule.id,
  });
  const n = bndl.entries.length;
  const tools = 16 + namesSize + 4 * n + 4 * n + sum;
  issues.push({
    rule: 'embb.toolsLayout.size',
    message:
      tools === embbRawSize
        ? `raw size ${embbRawSize} fits the tools' layout (16 + ${namesSize} + 8 × ${n} + ${sum})`
        : `raw size ${embbRawSize} contradicts the tools' layout with the manifest's names: 16 + namesSize ${namesSize} + 8 × ${n} + Σ sizes ${sum} = ${tools} (off by ${embbRawSize - tools})`,
    severity: tools === embbRawSize ? 'info' : 'warning',
    hypothesis: EMBB_HYPOTHESES.toolsLayout.id,
  });
  return issues;
}
