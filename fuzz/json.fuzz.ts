/**
 * Lossless GameDB JSON campaign: `npm run fuzz -- json [--runs N --seed S]`. Seeds: the exports of the real sample
 * (`landmine_curse.fxp`), of the hand-assembled file of the hypothesis tests and of the synthetic model of the
 * read-API tests. Two peers hold every case to account:
 * - `JSON.parse` for the byte reader: on input that is UTF-8, `JsonReader` (both value paths, read whole and as a
 *   stream of chunks of a size the case picks, each chunk overwriting the last one's memory as `db import` reads a
 *   file) gives the same value `JSON.parse` gives, or a `JsonSyntaxError` exactly when `JSON.parse` refuses;
 * - the tree importer for the streaming importer: when `readGadbJson` (streamed) and `importGadbJson(JSON.parse(…))`
 *   both take a document, their models write the same bytes (or both are refused by the writer); what the streaming
 *   reader takes, the tree importer takes too.
 */
import { isDeepStrictEqual } from 'node:util';
import { writeGadb, parseGadb } from '../src/formats/gadb/index.ts';
import { JsonSyntaxError } from '../src/binary/json-reader.ts';
import { ToolkitError } from '../src/binary/errors.ts';
import { exportGadbJsonBytes, importGadbJson, readGadbJson } from '../src/gamedb/edit/json.ts';
import { firstDifference } from '../src/binary/hexdump.ts';
import { SYNTHETIC } from '../test/formats/gadb/synthetic.ts';
import { syntheticModel } from '../test/gamedb/synthetic.ts';
import { loadFixture } from '../test/support/fixtures.ts';
import { concatBytes, reusedChunks } from '../test/support/chunks.ts';
import { parseJson, readJsonWhole } from '../test/support/json.ts';
import { Finding, formatCampaign, type FuzzTarget, type Outcome } from './harness.ts';

const utf8 = new TextDecoder('utf-8', { fatal: true });

function exportBytes(gadb: Uint8Array): Uint8Array {
  return concatBytes([...exportGadbJsonBytes(parseGadb(gadb))].map((p) => p.slice()));
}

/** What a call gave: its value, or the ToolkitError it threw (anything else escapes: a finding). */
function attempt<T>(fn: () => T): { ok: true; value: T } | { ok: false; error: ToolkitError } {
  try {
    return { ok: true, value: fn() };
  } catch (e) {
    if (e instanceof ToolkitError) return { ok: false, error: e };
    throw e;
  }
}

/** The byte reader against `JSON.parse`'s reading of the same text. */
function checkReader(bytes: Uint8Array, parsed: ReturnType<typeof parseJson>, size: number): void {
  for (const small of [false, true]) {
    for (const input of [bytes, reusedChunks(bytes, size)]) {
      const got = attempt(() => readJsonWhole(input, small));
      const how = `${small ? 'smallValue' : 'value'}, ${input === bytes ? 'whole' : `chunks of ${size}`}`;
      if (got.ok) {
        if (!parsed.valid) throw new Finding(`the reader took what JSON.parse refuses (${how})`);
        if (!isDeepStrictEqual(got.value, parsed.value)) throw new Finding(`the reader read another value than JSON.parse (${how})`);
      } else {
        if (!(got.error instanceof JsonSyntaxError)) throw new Finding(`the reader refused with ${got.error.name}, not a JsonSyntaxError (${how})`);
        if (parsed.valid) throw new Finding(`the reader refused what JSON.parse reads (${how}): ${got.error.message}`);
        if (got.error.offset < 0 || got.error.offset > bytes.length) throw new Finding(`error offset ${got.error.offset} outside the ${bytes.length}-byte input (${how})`);
      }
    }
  }
}

/** The streaming importer against the tree importer. */
function checkImport(bytes: Uint8Array, parsed: ReturnType<typeof parseJson>, size: number): Outcome {
  const streamed = attempt(() => readGadbJson(reusedChunks(bytes, size)));
  if (!parsed.valid) {
    if (streamed.ok) throw new Finding('readGadbJson took a document JSON.parse refuses');
    return 'rejected';
  }
  const tree = attempt(() => importGadbJson(parsed.value));
  if (!streamed.ok) return 'rejected';
  if (!tree.ok) throw new Finding(`readGadbJson took a document importGadbJson refuses: ${tree.error.message}`);
  const a = attempt(() => writeGadb(streamed.value));
  const b = attempt(() => writeGadb(tree.value));
  if (a.ok !== b.ok) throw new Finding(`the writer took one importer's model and refused the other's: ${a.ok ? '' : a.error.message}${b.ok ? '' : b.error.message}`);
  if (a.ok && b.ok) {
    const at = firstDifference(a.value, b.value);
    if (at >= 0) throw new Finding(`the two importers' models write different bytes (first at 0x${at.toString(16)})`);
  }
  return a.ok ? 'accepted' : 'rejected';
}

export const target: FuzzTarget = {
  id: 'json',
  seeds: () => [loadFixture('gadb', 'landmine_curse.fxp'), SYNTHETIC, writeGadb(syntheticModel())].map(exportBytes),
  open: (b) => readGadbJson(b),
  check: (b) => {
    // The chunk size of the streamed reads: 1–16 bytes, or 4 KiB, chosen by the input's length.
    const size = b.length % 17 === 16 ? 4096 : (b.length % 17) + 1;
    let text: string;
    try {
      text = utf8.decode(b);
    } catch {
      // Not UTF-8: JSON.parse cannot be asked about these bytes; the importer takes them or refuses them with a
      // typed error (any other exception escapes `attempt`: a finding).
      const r = attempt(() => readGadbJson(reusedChunks(b, size)));
      return r.ok ? 'accepted' : 'rejected';
    }
    const parsed = parseJson(text);
    checkReader(b, parsed, size);
    return checkImport(b, parsed, size);
  },
};

export const fuzz = formatCampaign(import.meta.url, target);
