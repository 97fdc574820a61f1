/**
 * Script routes (HavokScript: a bare chunk `\x1bLua…`, or a SCRI container / `.scripts` file): info, the listing
 * (disassembly, or the Lua source text of a source body) paged by lines, and the analysis (verify findings, both
 * round trips, strings and calls). Handlers map to `openHksFile`, `disassembleHksFile`, `analyzeHksChunk` and
 * `verifyHksChunk` of `src/formats/hks`, as `scry script info|disasm|verify|strings|calls` do.
 */
import { UsageError, type Issue } from '../binary/errors.ts';
import { firstDifference } from '../binary/hexdump.ts';
import { analyzeHksChunk, assembleHksFile, countHksFindings, disassembleHksFile, openHksFile, verifyHksChunk, writeHksFile, type HksFile } from '../formats/hks/index.ts';
import { scriSourceText } from '../formats/scri/scri.ts';
import type { ApiContext } from './api.ts';
import type { ScriptAnalysis, ScriptLinePage, ScriptOverview, ScriptSearchAnswer } from './api-types.ts';
import { findingsOf } from './gadb-view.ts';
import { intParam, type Router } from './router.ts';

/** An opened script: the file model, its bytes (for the round trips) and its listing, split once. */
interface OpenedScript {
  bytes: Uint8Array;
  file: HksFile;
  lines: string[];
  analysis?: ScriptAnalysis;
}

function script(c: ApiContext, file: string): OpenedScript {
  return c.workspace.open<OpenedScript>(file, 'hks');
}

const sorted = (m: Map<string, number>) => [...m].sort((x, y) => y[1] - x[1] || x[0].localeCompare(y[0])).map(([name, count]) => ({ name, count }));

function analyse(s: OpenedScript): ScriptAnalysis {
  const { file, bytes } = s;
  const issues: Issue[] = [];
  // a truncated head cannot be written back as it was (its header declares the whole body): no write round trip
  const truncated = file.kind === 'scri-source' && file.truncatedBy > 0;
  const write = truncated ? -1 : firstDifference(writeHksFile(file), bytes);
  if (write >= 0) issues.push({ rule: 'hks.roundtrip.write', message: `write(parse(file)) differs at byte 0x${write.toString(16)}`, severity: 'error', offset: write });
  let listing: boolean | null = null;
  if (file.kind !== 'scri-source') {
    const at = firstDifference(assembleHksFile(disassembleHksFile(file, { bare: true })).bytes, bytes);
    listing = at < 0;
    if (at >= 0) issues.push({ rule: 'hks.roundtrip.listing', message: `asm(disasm(file)) differs at byte 0x${at.toString(16)}`, severity: 'error', offset: at });
    issues.push(...verifyHksChunk(file.chunk));
  } else if (file.truncatedBy > 0) {
    issues.push({ rule: 'scri.truncated', message: `the source body is cut short: ${file.truncatedBy} byte(s) missing`, severity: 'warning' });
  }
  if (file.scri && file.scri.trailing.length > 0) issues.push({ rule: 'scri.trailing', message: `${file.scri.trailing.length} byte(s) after the SCRI body`, severity: 'warning', hypothesis: 'hks.scri.trailing' });
  if (file.scri && file.scri.flag > 1) issues.push({ rule: 'scri.flag', message: `SCRI flag ${file.scri.flag} (only 0 and 1 are known)`, severity: 'warning', hypothesis: 'hks.scri.flag' });
  const result: ScriptAnalysis = { counts: countHksFindings(issues), roundTrip: { write: truncated ? null : write < 0, listing }, findings: findingsOf(issues), strings: [], calls: [] };
  if (file.kind !== 'scri-source') {
    const a = analyzeHksChunk(file.chunk);
    result.strings = a.strings;
    const sections: [string, Map<string, number>][] = [
      ['natives', a.natives],
      ['calls', a.calls],
      ['records', a.records],
      ['globalsRead', a.globalsRead],
      ['globalsWritten', a.globalsWritten],
      ['fieldsRead', a.fieldsRead],
      ['fieldsWritten', a.fieldsWritten],
    ];
    result.calls = sections.map(([section, m]) => ({ section, names: sorted(m) }));
  }
  return result;
}

/** Registers the script routes. */
export function registerScriptApi(router: Router<ApiContext>, context: ApiContext): void {
  context.workspace.registerOpener('hks', (bytes): OpenedScript => {
    // a `.scripts` file may be a truncated head (the first archive chunk): source bodies are read as far as they go
    const file = openHksFile(bytes, { allowTruncated: true });
    const text = file.kind === 'scri-source' ? scriSourceText(file.scri) : disassembleHksFile(file);
    const lines = text.split('\n');
    if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
    return { bytes, file, lines };
  });

  router.add({
    method: 'GET',
    pattern: '/api/files/:file/script',
    summary: 'script info: container, chunk header, counts',
    handler: (req, c): ScriptOverview => {
      const info = c.workspace.info(req.params['file']!);
      const s = script(c, info.id);
      const { file } = s;
      if (file.kind === 'scri-source') {
        const text = scriSourceText(file.scri);
        return {
          file: info,
          kind: 'hks',
          container: `SCRI v${file.scri.version}, Lua source body`,
          body: 'lua-source',
          header: [
            { name: 'SCRI version', value: String(file.scri.version) },
            { name: 'SCRI flag', value: `${file.scri.flag} (Lua source text)` },
            { name: 'body length', value: String(file.scri.body.length + file.truncatedBy) },
          ],
          counts: [
            { label: 'lines', value: s.lines.length },
            { label: "'function' keywords", value: (text.match(/\bfunction\b/g) ?? []).length },
            { label: 'hstructure declarations', value: (text.match(/^\s*hstructure\s/gm) ?? []).length },
          ],
          lines: s.lines.length,
          truncatedBy: file.truncatedBy,
          opcodes: [],
        };
      }
      const a = analyzeHksChunk(file.chunk);
      const h = file.chunk.header;
      const sum = a.summary;
      const header: ScriptOverview['header'] = [];
      if (file.scri) header.push({ name: 'SCRI version', value: String(file.scri.version) }, { name: 'SCRI flag', value: `${file.scri.flag} (bytecode)` });
      header.push(
        { name: 'format', value: String(h.formatVersion) },
        { name: 'byte order', value: h.littleEndian ? 'little-endian' : 'big-endian' },
        { name: 'sizes', value: `int ${h.intSize}, size_t ${h.sizeTSize}, instruction ${h.instructionSize}, number ${h.numberSize} (${h.integralNumbers ? 'integer' : 'float'})` },
        { name: 'build flags', value: '0x' + h.buildFlags.toString(16).padStart(2, '0') },
        { name: 'debug info', value: sum.debug },
        { name: 'structures', value: file.chunk.structures ? `${file.chunk.structures.structures.length} (${file.chunk.structures.layout} layout)` : 'no section' },
        { name: 'trailing bytes', value: String(file.chunk.trailing.length) },
      );
      return {
        file: info,
        kind: 'hks',
        container: file.scri ? `SCRI v${file.scri.version}, bytecode body` : 'bare chunk',
        body: 'bytecode',
        header,
        counts: [
          { label: 'functions', value: sum.functions },
          { label: 'instructions', value: sum.instructions },
          { label: 'DATA words', value: sum.dataWords },
          { label: 'constants', value: sum.constants },
          { label: 'distinct strings', value: sum.strings },
          { label: 'globals read', value: a.globalsRead.size },
          { label: 'globals written', value: a.globalsWritten.size },
          { label: 'natives', value: a.natives.size },
        ],
        lines: s.lines.length,
        truncatedBy: 0,
        opcodes: sum.opcodes,
      };
    },
  });

  router.add({
    method: 'GET',
    pattern: '/api/files/:file/script/lines',
    summary: 'a page of the listing (disassembly, or the source text) (?offset=&limit= at most 2000)',
    handler: (req, c): ScriptLinePage => {
      const s = script(c, req.params['file']!);
      const offset = intParam(req.query, 'offset', 0, 0, s.lines.length);
      const limit = intParam(req.query, 'limit', 500, 1, 2000);
      return { total: s.lines.length, offset, lines: s.lines.slice(offset, offset + limit) };
    },
  });

  router.add({
    method: 'GET',
    pattern: '/api/files/:file/script/search',
    summary: 'listing (or source) lines that contain ?q= (any case), at most ?limit= (default 500)',
    handler: (req, c): ScriptSearchAnswer => {
      const q = (req.query.get('q') ?? '').trim();
      if (q === '') throw new UsageError('give ?q=');
      const limit = intParam(req.query, 'limit', 500, 1, 5000);
      const s = script(c, req.params['file']!);
      const needle = q.toLowerCase();
      const hits: ScriptSearchAnswer['hits'] = [];
      let total = 0;
      for (const [i, line] of s.lines.entries()) {
        if (!line.toLowerCase().includes(needle)) continue;
        total++;
        if (hits.length < limit) hits.push({ line: i + 1, text: line });
      }
      return { query: q, hits, total };
    },
  });

  router.add({
    method: 'GET',
    pattern: '/api/files/:file/script/analysis',
    summary: 'verify findings, round trips, strings and calls',
    handler: (req, c): ScriptAnalysis => {
      const s = script(c, req.params['file']!);
      return (s.analysis ??= analyse(s));
    },
  });
}
