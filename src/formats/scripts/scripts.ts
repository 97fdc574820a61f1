/**
 * `.scripts`: a `SCRI` container (spec `archives.md` §10). The container codec lives in `../scri` (the HKS
 * module); this module only describes an entry for archive listings: source text or bytecode, and its size,
 * including entries cut short (the first chunk of a large file).
 */
import { isScri, parseScri, scriSourceText } from '../scri/scri.ts';

export interface ScriptsSummary {
  version: number;
  flag: number;
  /** `source` (flag 1, verified on a real file), `bytecode` (flag 0, never seen in public data) or `unknown`. */
  kind: 'source' | 'bytecode' | 'unknown';
  /** Body length the header declares. */
  declaredLength: number;
  /** Body bytes present. */
  availableLength: number;
  /** The first lines of a source body. */
  preview?: string;
}

export function isScripts(bytes: Uint8Array): boolean {
  return isScri(bytes);
}

/** Summarises a `.scripts` file (or its first bytes). Throws a FormatError when it is not a SCRI container. */
export function describeScripts(bytes: Uint8Array, previewLines = 3): ScriptsSummary {
  const scri = parseScri(bytes, { allowTruncated: true });
  const kind = scri.flag === 1 ? 'source' : scri.flag === 0 ? 'bytecode' : 'unknown';
  const summary: ScriptsSummary = { version: scri.version, flag: scri.flag, kind, declaredLength: scri.body.length + scri.truncatedBy, availableLength: scri.body.length };
  if (kind === 'source') summary.preview = scriSourceText({ ...scri, body: scri.body.subarray(0, 4096) }).split(/\r?\n/).slice(0, previewLines).join('\n');
  return summary;
}
