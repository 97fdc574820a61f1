/**
 * Static summaries of a chunk: counts, strings, globals read and written, fields read and written, calls (with
 * the qualified names the call patterns give: `Global.field(...)`, `Global:method(...)`), record references
 * (`DB<Kind>.Name`) and cross-references of a name.
 *
 * Call names come from a forward scan of each function that tracks which registers hold a named value:
 * GETGLOBAL(_MEM) names a register, GETFIELD / SELF / GETSLOT extend the name, MOVE copies it; any other write
 * clears the register, and every jump target and the word after a jump clear everything (a conservative,
 * block-local view: a call whose function came from another block stays unnamed).
 */
import { listHksFunctions, type HksChunk, type HksConstant, type HksFunction } from './chunk.ts';
import { hksFunctionDisplayName } from './disasm.ts';
import { hksA, hksB, hksBx, hksC, hksOpcodes, hksOp, hksSbx, type HksDialect } from './opcodes.ts';

/** Global names the Lua 5.1 / HavokScript standard library defines (calls through them are not engine natives). */
export const HKS_LUA_STANDARD_GLOBALS: ReadonlySet<string> = new Set([
  'assert', 'collectgarbage', 'dofile', 'error', 'getfenv', 'getmetatable', 'ipairs', 'load', 'loadfile', 'loadstring', 'next', 'pairs', 'pcall',
  'print', 'rawequal', 'rawget', 'rawset', 'select', 'setfenv', 'setmetatable', 'tonumber', 'tostring', 'type', 'unpack', 'xpcall', 'require',
  'module', 'coroutine', 'debug', 'io', 'math', 'os', 'package', 'string', 'table', '_G', '_VERSION',
]);

export interface HksSummary {
  functions: number;
  /** Code words, DATA included. */
  words: number;
  /** Code words that are not DATA. */
  instructions: number;
  dataWords: number;
  constants: number;
  strings: number;
  structures: number;
  /** `full` (lines), `profile` (names only), `stripped`, or `mixed`. */
  debug: 'full' | 'profile' | 'stripped' | 'mixed';
  maxDepth: number;
  /** Instruction count per opcode name, most frequent first. */
  opcodes: { name: string; count: number }[];
}

/** One use of a name. */
export interface HksReference {
  /** Function path (`main/0/2`) and its display name. */
  function: string;
  functionName: string;
  pc: number;
  opcode: string;
  /** What the instruction does with the name. */
  role: 'global-read' | 'global-write' | 'field-read' | 'field-write' | 'method' | 'call' | 'constant';
  /** Qualified name for calls (`System:ActivateRemoteScript`). */
  name: string;
  /** Source line when the function has line info. */
  line?: number;
}

export interface HksAnalysis {
  summary: HksSummary;
  /** Distinct string constants with the number of functions holding them, in first-seen order. */
  strings: { value: string; functions: number }[];
  globalsRead: Map<string, number>;
  globalsWritten: Map<string, number>;
  fieldsRead: Map<string, number>;
  fieldsWritten: Map<string, number>;
  /** Qualified call names with counts. */
  calls: Map<string, number>;
  /** Calls whose root is a global the chunk never assigns and the standard library does not define. */
  natives: Map<string, number>;
  /** `DB<Kind>.Name` record references. */
  records: Map<string, number>;
  references: HksReference[];
}

const bump = (m: Map<string, number>, k: string): void => void m.set(k, (m.get(k) ?? 0) + 1);

function stringConstant(fn: HksFunction, index: number): string | undefined {
  const k: HksConstant | undefined = fn.constants[index];
  return k && k.type === 'string' && k.value !== null ? k.value : undefined;
}

/** Analyses a chunk (one pass over every function). */
export function analyzeHksChunk(chunk: HksChunk, options: { dialect?: HksDialect } = {}): HksAnalysis {
  const table = hksOpcodes(options.dialect);
  const byOp = table.byOp;
  const opcodeCounts = new Map<string, number>();
  const stringsSeen = new Map<string, number>();
  const a: HksAnalysis = {
    summary: { functions: 0, words: 0, instructions: 0, dataWords: 0, constants: 0, strings: 0, structures: chunk.structures?.structures.length ?? 0, debug: 'stripped', maxDepth: 0, opcodes: [] },
    strings: [],
    globalsRead: new Map(),
    globalsWritten: new Map(),
    fieldsRead: new Map(),
    fieldsWritten: new Map(),
    calls: new Map(),
    natives: new Map(),
    records: new Map(),
    references: [],
  };
  const debugKinds = new Set<string>();
  for (const { fn, path, depth } of listHksFunctions(chunk)) {
    const s = a.summary;
    s.functions++;
    s.maxDepth = Math.max(s.maxDepth, depth);
    s.words += fn.code.length;
    s.constants += fn.constants.length;
    debugKinds.add(fn.debug === null ? 'stripped' : fn.debug.lines.length > 0 ? 'full' : 'profile');
    const local = new Set<string>();
    for (const k of fn.constants) {
      if (k.type === 'string' && k.value !== null && !local.has(k.value)) {
        local.add(k.value);
        stringsSeen.set(k.value, (stringsSeen.get(k.value) ?? 0) + 1);
      }
    }
    scanFunction(fn, path, byOp, table.dataOp, a, opcodeCounts);
  }
  a.summary.debug = debugKinds.size === 1 ? ([...debugKinds][0] as HksSummary['debug']) : debugKinds.size === 0 ? 'stripped' : 'mixed';
  a.summary.strings = stringsSeen.size;
  a.summary.opcodes = [...opcodeCounts].map(([name, count]) => ({ name, count })).sort((x, y) => y.count - x.count || x.name.localeCompare(y.name));
  a.strings = [...stringsSeen].map(([value, functions]) => ({ value, functions }));
  for (const [name, count] of a.calls) {
    const root = name.split(/[.:]/)[0]!;
    if (!HKS_LUA_STANDARD_GLOBALS.has(root) && !a.globalsWritten.has(root) && a.globalsRead.has(root)) a.natives.set(name, count);
    if (/^DB[A-Za-z0-9_]*\./.test(name)) bump(a.records, name.split(/[:(]/)[0]!);
  }
  return a;
}

function scanFunction(fn: HksFunction, path: string, byOp: ReturnType<typeof hksOpcodes>['byOp'], dataOp: number, a: HksAnalysis, opcodeCounts: Map<string, number>): void {
  const code = fn.code;
  const n = code.length;
  const fnName = hksFunctionDisplayName(fn, path);
  const lines = fn.debug && fn.debug.lines.length === n ? fn.debug.lines : null;
  // Block starts: jump targets and the word after any jump or test.
  const blockStart = new Uint8Array(n + 1);
  for (let pc = 0; pc < n; pc++) {
    const info = byOp[hksOp(code[pc]!)];
    if (!info) continue;
    if (info.b === 'J') {
      const t = pc + 1 + hksSbx(code[pc]!);
      if (t >= 0 && t < n) blockStart[t] = 1;
      blockStart[pc + 1] = 1;
    }
    if (info.test) blockStart[Math.min(n, pc + 2)] = 1;
  }
  const names: (string | undefined)[] = [];
  const ref = (pc: number, opcode: string, role: HksReference['role'], name: string): void => {
    const r: HksReference = { function: path, functionName: fnName, pc, opcode, role, name };
    if (lines) r.line = lines[pc]!;
    a.references.push(r);
  };
  for (let pc = 0; pc < n; pc++) {
    const w = code[pc]!;
    const op = hksOp(w);
    if (op === dataOp) {
      a.summary.dataWords++;
      continue;
    }
    if (blockStart[pc]) names.length = 0;
    const info = byOp[op];
    if (!info) continue;
    a.summary.instructions++;
    opcodeCounts.set(info.name, (opcodeCounts.get(info.name) ?? 0) + 1);
    const A = hksA(w);
    const B = hksB(w);
    const C = hksC(w);
    let named: string | undefined;
    const access = info.access;
    if (access) {
      const index = access.operand === 'Bx' ? hksBx(w) : access.operand === 'B' ? B : C;
      switch (access.role) {
        case 'global-read': {
          const g = stringConstant(fn, index);
          if (g !== undefined) {
            bump(a.globalsRead, g);
            ref(pc, info.name, 'global-read', g);
            named = g;
          }
          break;
        }
        case 'global-write': {
          const g = stringConstant(fn, index);
          if (g !== undefined) {
            bump(a.globalsWritten, g);
            ref(pc, info.name, 'global-write', g);
          }
          continue;
        }
        case 'field-read': {
          const f = stringConstant(fn, index);
          if (f !== undefined) {
            bump(a.fieldsRead, f);
            const base = names[B] ?? localName(fn, B, pc);
            named = base !== undefined ? `${base}.${f}` : undefined;
            ref(pc, info.name, 'field-read', named ?? f);
          }
          break;
        }
        case 'field-write': {
          const f = stringConstant(fn, index);
          if (f !== undefined) {
            bump(a.fieldsWritten, f);
            const base = names[A];
            ref(pc, info.name, 'field-write', base !== undefined ? `${base}.${f}` : f);
          }
          continue;
        }
        case 'method': {
          const m = index >= 256 ? stringConstant(fn, index - 256) : undefined;
          const base = names[B] ?? localName(fn, B, pc);
          if (m !== undefined) {
            bump(a.fieldsRead, m);
            ref(pc, info.name, 'method', base !== undefined ? `${base}:${m}` : m);
          }
          names[A + 1] = base;
          names[A] = m !== undefined && base !== undefined ? `${base}:${m}` : m !== undefined ? `?:${m}` : undefined;
          continue;
        }
      }
    } else if (info.call) {
      const callee = names[A];
      if (callee !== undefined) {
        bump(a.calls, callee);
        ref(pc, info.name, 'call', callee);
      }
      names.length = Math.min(names.length, A);
      continue;
    } else if (info.name === 'MOVE') named = names[B];
    // Every other instruction that writes R(A) clears (or sets) that register's name.
    if (info.setsA) names[A] = named;
  }
  for (let i = 0; i < fn.constants.length; i++) {
    const s = stringConstant(fn, i);
    if (s !== undefined) ref(-1, `K(${i})`, 'constant', s);
  }
}

/** Debug name of register `reg` at `pc`: the reg-th local active there (Lua 5.1 allocates locals in order). */
function localName(fn: HksFunction, reg: number, pc: number): string | undefined {
  const locals = fn.debug?.locals;
  if (!locals) return undefined;
  let i = 0;
  for (const l of locals) {
    if (l.startPc <= pc && pc < l.endPc) {
      if (i === reg) return l.name ?? undefined;
      i++;
    }
  }
  return undefined;
}

/** The references of `name`: exact matches of the name, or qualified names ending in `.name` / `:name`. */
export function xrefHks(analysis: HksAnalysis, name: string): HksReference[] {
  return analysis.references.filter((r) => r.name === name || r.name.endsWith(`.${name}`) || r.name.endsWith(`:${name}`) || r.name.startsWith(`${name}.`) || r.name.startsWith(`${name}:`));
}
