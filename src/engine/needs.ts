/**
 * `script needs`: what a layer's script asks of the engine, read statically — the natives it calls and the
 * `DB<Kind>.Name` records it names — and, against a GameDB, which of those records the database lacks (a
 * modder's pre-flight check before the game would fault or silently get a null record).
 *
 * Two readers produce the same usage model: the AST of a source body (`usageFromAst`, `needs-ast.ts`) and the
 * static analysis of a bytecode chunk (`usageFromChunk`, through `analyzeHksChunk`'s call and field names).
 */
import type { Database } from '../gamedb/database.ts';
import type { HksChunk } from '../formats/hks/chunk.ts';
import { analyzeHksChunk } from '../formats/hks/analyze.ts';
import { DbKindResolver, NULL_RECORD_NAME, isDbKindName } from './dbkinds.ts';
import { NATIVES, nativeSpec, objectMethod, shapeMismatch, worldClass, type NativeSpec, type ValueInfo } from './natives.ts';

/** Where a name is used. */
export interface UsageSite {
  line?: number;
  column?: number;
  /** The function it is in (entry or method name), when known. */
  function?: string;
}

/** A call as the reader could name it: `Global.f`, `Global:m`, `Class::m` (class inferred), or `?::m`. */
export interface CallUsage {
  name: string;
  sites: UsageSite[];
  /** Per-site argument descriptions the reader could tell statically (literal types, record kinds). */
  args: (ValueInfo | undefined)[][];
}

export interface RecordUsage {
  kind: string;
  name: string;
  sites: UsageSite[];
}

/** Everything a reader found. */
export interface ScriptUsage {
  calls: CallUsage[];
  records: RecordUsage[];
  /** `DB<Kind>[expr]`: a record chosen at run time (by a property), which only a run can check. */
  dynamicKinds: { kind: string; sites: UsageSite[] }[];
  /** Entries of the section table (`_G.loadedresource`'s table), in order. */
  entries: string[];
  /** The `local section_<hash>` the chunk hands to `_G.loadedresource`, when found. */
  section?: string;
  /** Event hashes the script objects map (`__eventmap[0x…hi]`), with their handler names. */
  eventMaps: { entry: string; hash: string; handler: string }[];
  /** How the usage was read. */
  reader: 'ast' | 'bytecode';
}

/** One native in the report. */
export interface NativeNeed {
  name: string;
  count: number;
  /** The table row (for `?:m`, the methods of that name on every class). */
  known: boolean;
  spec?: Pick<NativeSpec, 'args' | 'returns' | 'effect' | 'context' | 'source'>;
  /** Argument shapes a call passes that the table does not expect (would fault in game). */
  faults: { site: UsageSite; message: string }[];
  firstSite?: UsageSite;
}

export interface RecordNeed {
  name: string;
  kind: string;
  record: string;
  count: number;
  /** `undefined` without a database. */
  resolved?: boolean;
  path?: string;
  message?: string;
  closest?: string[];
  firstSite?: UsageSite;
}

export interface KindNeed {
  kind: string;
  count: number;
  dynamic: boolean;
  resolved?: boolean;
  category?: string;
  match?: string;
  message?: string;
  candidates?: string[];
  warnings?: string[];
}

export interface NeedsReport {
  reader: ScriptUsage['reader'];
  entries: { total: number; startupCommands: string[] };
  natives: NativeNeed[];
  unknownNatives: string[];
  records: RecordNeed[];
  kinds: KindNeed[];
  /** With a database: records and kinds it lacks. */
  missing: { records: number; kinds: number } | undefined;
  faults: number;
  eventMaps: ScriptUsage['eventMaps'];
}

/** A StartupCommands entry (seed 002): `_<prefab>_SC_Script_<hash>`. */
export const STARTUP_COMMAND_ENTRY = /^_(.+)_SC_Script_[0-9a-fA-F]+$/;

/** The prefab of a StartupCommands entry name, or `undefined` when it is not one. */
export function startupCommandPrefab(entry: string): string | undefined {
  return STARTUP_COMMAND_ENTRY.exec(entry)?.[1];
}

/** Reads a bytecode chunk's usage from the static analysis (names as far as registers can be followed). */
export function usageFromChunk(chunk: HksChunk): ScriptUsage {
  const a = analyzeHksChunk(chunk);
  const calls = new Map<string, CallUsage>();
  const records = new Map<string, RecordUsage>();
  for (const r of a.references) {
    const site: UsageSite = { function: r.functionName, ...(r.line !== undefined ? { line: r.line } : {}) };
    if (r.role === 'call') {
      const name = r.name.replace(/\(.*$/, '');
      const root = name.split(/[.:]/)[0]!;
      if (isDbKindName(root) || !a.natives.has(r.name)) continue;
      const c = calls.get(name) ?? { name, sites: [], args: [] };
      c.sites.push(site);
      c.args.push([]);
      calls.set(name, c);
    } else if (r.role === 'field-read') {
      const m = /^(DB[A-Z][A-Za-z0-9_]*)\.([A-Za-z_][A-Za-z0-9_]*)$/.exec(r.name);
      if (!m) continue;
      const key = `${m[1]}.${m[2]}`;
      const u = records.get(key) ?? { kind: m[1]!, name: m[2]!, sites: [] };
      u.sites.push(site);
      records.set(key, u);
    }
  }
  return { calls: [...calls.values()], records: [...records.values()], dynamicKinds: [], entries: [], eventMaps: [], reader: 'bytecode' };
}

/** The table row for a call name as a reader gives it (`Class::m` falls back to GameBase; `?::m` to GameBase or the one class with the method). */
export function specForCall(name: string): NativeSpec | undefined {
  const direct = nativeSpec(name);
  if (direct) return direct;
  const m = /^([A-Za-z_][A-Za-z0-9_]*|\?)::([A-Za-z_][A-Za-z0-9_]*)$/.exec(name);
  if (!m) return undefined;
  // A receiver the reader could not type: the method of that name on GameBase, else on the one class that has it.
  if (m[1] === '?') return objectMethod('GameBase', m[2]!) ?? uniqueMethod(m[2]!);
  return worldClass(m[1]!) ? objectMethod(m[1]!, m[2]!) : undefined;
}

function uniqueMethod(method: string): NativeSpec | undefined {
  const rows = NATIVES.filter((n) => n.name.endsWith(`::${method}`));
  return rows.length === 1 ? rows[0] : undefined;
}

/** The report: usage checked against the natives table and, when given, a GameDB. */
export function needsReport(usage: ScriptUsage, db?: Database, options: { kindOverrides?: ReadonlyMap<string, string> } = {}): NeedsReport {
  const resolver = db ? new DbKindResolver(db, options.kindOverrides) : undefined;
  const natives: NativeNeed[] = [];
  let faults = 0;
  for (const c of [...usage.calls].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const spec = specForCall(c.name);
    const need: NativeNeed = { name: c.name, count: c.sites.length, known: spec !== undefined, faults: [] };
    if (c.sites[0]) need.firstSite = c.sites[0];
    if (spec) {
      need.spec = { args: spec.args, returns: spec.returns, effect: spec.effect, ...(spec.context ? { context: spec.context } : {}), source: spec.source };
      c.args.forEach((args, i) => {
        args.forEach((info, j) => {
          const shape = spec.args[j] ?? (spec.args.includes('...') ? '...' : undefined);
          if (!info || shape === undefined) return;
          const why = shapeMismatch(shape, info);
          if (why) need.faults.push({ site: c.sites[i] ?? {}, message: `argument ${j + 1}: ${why}` });
        });
      });
      faults += need.faults.length;
    }
    natives.push(need);
  }
  const kinds = new Map<string, KindNeed>();
  const records: RecordNeed[] = [];
  for (const r of [...usage.records].sort((a, b) => (a.kind + '.' + a.name < b.kind + '.' + b.name ? -1 : 1))) {
    const k = kinds.get(r.kind) ?? { kind: r.kind, count: 0, dynamic: false };
    k.count += r.sites.length;
    kinds.set(r.kind, k);
    const need: RecordNeed = { name: `${r.kind}.${r.name}`, kind: r.kind, record: r.name, count: r.sites.length };
    if (r.sites[0]) need.firstSite = r.sites[0];
    if (r.name === NULL_RECORD_NAME) {
      need.resolved = true;
      need.message = 'the null record';
    } else if (resolver) {
      const res = resolver.record(r.kind, r.name);
      need.resolved = res.ok;
      if (res.ok) need.path = res.record.path;
      else {
        need.message = res.message;
        need.closest = res.closest;
      }
    }
    records.push(need);
  }
  for (const d of usage.dynamicKinds) {
    const k = kinds.get(d.kind) ?? { kind: d.kind, count: 0, dynamic: true };
    k.dynamic = true;
    k.count += d.sites.length;
    kinds.set(d.kind, k);
  }
  if (resolver) {
    for (const k of kinds.values()) {
      const res = resolver.kind(k.kind);
      k.resolved = res.ok;
      if (res.ok) {
        k.category = res.category.name;
        k.match = res.match;
        if (res.warnings.length) k.warnings = res.warnings;
      } else {
        k.message = res.message;
        k.candidates = res.candidates;
      }
    }
  }
  const kindList = [...kinds.values()].sort((a, b) => (a.kind < b.kind ? -1 : 1));
  return {
    reader: usage.reader,
    entries: { total: usage.entries.length, startupCommands: usage.entries.filter((e) => STARTUP_COMMAND_ENTRY.test(e)) },
    natives,
    unknownNatives: natives.filter((n) => !n.known).map((n) => n.name),
    records,
    kinds: kindList,
    missing: resolver ? { records: records.filter((r) => r.resolved === false).length, kinds: kindList.filter((k) => k.resolved === false).length } : undefined,
    faults,
    eventMaps: usage.eventMaps,
  };
}
