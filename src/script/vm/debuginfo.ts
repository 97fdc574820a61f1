/**
 * What a running frame is, for error messages and tracebacks, as Lua 5.1's `ldebug.c` computes it: the chunk id
 * (`luaO_chunkid`), the current line, the name of a register (a local, or by symbolic execution up to the current
 * instruction: global, field, method, upvalue) and the name a function was called by.
 *
 * HavokScript debug blocks carry the function's own name too; tracebacks use it when the call site gives none.
 * Stripped functions have no lines ("?") and no local or upvalue names.
 */
import * as protoModule from './proto.ts';
import type { Proto } from './proto.ts';
import type { CallInfo, LuaThread } from './thread.ts';

const LUA_IDSIZE = 60;
/** The internal opcodes, read once (imported names can be getters under tsx / vitest). */
const Op = protoModule.Op;

/** `luaO_chunkid`: `=name` as is, `@file` (last part when long), else `[string "first line..."]`. */
export function chunkId(source: string): string {
  const nul = source.indexOf('\0');
  if (nul >= 0) source = source.slice(0, nul);
  if (source.startsWith('=')) return source.slice(1, LUA_IDSIZE);
  if (source.startsWith('@')) {
    const name = source.slice(1);
    const room = LUA_IDSIZE - 8;
    return name.length > room ? '...' + name.slice(name.length - room) : name;
  }
  let len = source.search(/[\n\r]/);
  if (len < 0) len = source.length;
  const room = LUA_IDSIZE - 17;
  if (len > room) len = room;
  return len < source.length ? `[string "${source.slice(0, len)}..."]` : `[string "${source}"]`;
}

/** Current line of a Lua frame, or -1 without line information. */
export function currentLine(ci: CallInfo): number {
  const p = ci.cl?.p;
  if (!p || !p.lines) return -1;
  return p.lines[ci.pc >> 2] ?? -1;
}

/** The name of the n-th (1-based) local active at word `pc`, or null (`luaF_getlocalname`). */
export function localName(p: Proto, n: number, pc: number): string | null {
  const locals = p.fn.debug?.locals;
  if (!locals) return null;
  for (const l of locals) {
    if (l.startPc > pc) break;
    if (pc < l.endPc) {
      n--;
      if (n === 0) return l.name ?? '?';
    }
  }
  return null;
}

/** What register `reg` of a frame holds at word `pc`: `{ kind: 'local' | 'global' | 'field' | 'method' | 'upvalue', name }`. */
export function objectName(p: Proto, pc: number, reg: number): { kind: string; name: string } | null {
  const local = localName(p, reg + 1, pc);
  if (local !== null) return { kind: 'local', name: local };
  const code = p.code;
  const n = code.length / 4 - 1;
  let last = -1;
  for (let i = 0; i < pc && i < n; i++) {
    const o = i * 4;
    const op = code[o]!;
    const a = code[o + 1]!;
    const b = code[o + 2]!;
    switch (op) {
      case Op.LOADNIL:
        if (a <= reg && reg <= b) last = i;
        break;
      case Op.SELF:
      case Op.SELFSLOT:
      case Op.SELFSLOTMT:
        if (reg === a || reg === a + 1) last = i;
        break;
      case Op.CALL:
      case Op.TAILCALL:
        if (reg >= a) last = i;
        break;
      case Op.TFORLOOP_J:
      case Op.TFORLOOP_S:
        if (reg >= a + 2) last = i;
        break;
      case Op.JMP:
      case Op.FORPREP:
      case Op.FORLOOP: {
        if (op !== Op.JMP && reg === a) last = i;
        const dest = b >> 2;
        if (i < dest && dest <= pc) i = dest - 1;
        break;
      }
      default:
        if (SETS_A.has(op) && a === reg) last = i;
    }
  }
  if (last < 0) return null;
  const o = last * 4;
  const op = code[o]!;
  const b = code[o + 2]!;
  const c = code[o + 3]!;
  switch (op) {
    case Op.GETGLOBAL: {
      const k = p.k[b];
      return typeof k === 'string' ? { kind: 'global', name: k } : null;
    }
    case Op.MOVE: {
      const a = code[o + 1]!;
      return b < a ? objectName(p, pc, b) : null;
    }
    case Op.GETFIELD:
      return { kind: 'field', name: String(p.k[c]) };
    case Op.GETTABLE:
      return { kind: 'field', name: c < 0 && typeof p.k[~c] === 'string' ? (p.k[~c] as string) : '?' };
    case Op.GETUPVAL:
      return { kind: 'upvalue', name: p.fn.debug?.upvalueNames[b] ?? '?' };
    case Op.SELF:
      return { kind: 'method', name: c < 0 && typeof p.k[~c] === 'string' ? (p.k[~c] as string) : '?' };
    default:
      return null;
  }
}

const SETS_A = new Set<number>([
  Op.MOVE, Op.LOADKN, Op.LOADKV, Op.LOADBOOL, Op.GETUPVAL, Op.GETGLOBAL, Op.GETFIELD, Op.GETTABLE, Op.NEWTABLE, Op.NEWSTRUCT,
  Op.ADD_RR, Op.ADD_RK, Op.ADD_KR, Op.ADD, Op.SUB_RR, Op.SUB_RK, Op.SUB_KR, Op.SUB, Op.MUL_RR, Op.MUL_RK, Op.MUL_KR, Op.MUL,
  Op.DIV_RR, Op.DIV_RK, Op.DIV_KR, Op.DIV, Op.MOD_RR, Op.MOD_RK, Op.MOD_KR, Op.MOD, Op.POW_RR, Op.POW_RK, Op.POW_KR, Op.POW,
  Op.UNM, Op.NOT, Op.LEN, Op.CONCAT, Op.TESTSET_J, Op.TESTSET_S, Op.CLOSURE, Op.VARARG, Op.GETSLOT, Op.GETSLOTMT,
  // Lua 5.1 counts TEST as writing R(A) (its A mode), so a value tested on the way has no name
  Op.TEST_J, Op.TEST_S,
]);

/** How the function of frame `level` was named by its caller (`getfuncname`), or null. */
export function calledName(L: LuaThread, level: number): { kind: string; name: string } | null {
  const ci = L.cis[level]!;
  if (ci.cl !== null && ci.tailcalls > 0) return null;
  if (level <= 1) return null;
  const caller = L.cis[level - 1]!;
  if (caller.cl === null) return null;
  const p = caller.cl.p;
  const pc = caller.pc >> 2;
  const o = pc * 4;
  const op = p.code[o]!;
  if (op === Op.CALL || op === Op.TAILCALL || op === Op.TFORLOOP_J || op === Op.TFORLOOP_S) return objectName(p, pc, p.code[o + 1]!);
  return null;
}

/** Chunk id of a Lua frame's function. */
export function frameSource(p: Proto): string {
  return chunkId(p.chunk.source);
}

const LEVELS1 = 12;
const LEVELS2 = 10;

/** One traceback line per level from frame `fromLevel` down (Lua 5.1's `db_errorfb` layout), without the header. */
export function tracebackLines(L: LuaThread, fromLevel = L.ciTop): string[] {
  // levels as runs: a frame line, or `count` tail-call pseudo levels
  const runs: { line: string; count: number }[] = [];
  let total = 0;
  for (let lv = fromLevel; lv >= 1; lv--) {
    const ci = L.cis[lv]!;
    if (ci.cl === null) {
      const nm = calledName(L, lv);
      runs.push({ line: nm ? `[C]: in function '${nm.name}'` : ci.hf ? `[C]: in function '${ci.hf.name}'` : '[C]: ?', count: 1 });
    } else {
      const p = ci.cl.p;
      const src = frameSource(p);
      const line = currentLine(ci);
      let s = `${src}:${line > 0 ? `${line}:` : ''}`;
      const nm = calledName(L, lv);
      if (nm) s += ` in function '${nm.name}'`;
      else if (p.path === 'main') s += ' in main chunk';
      else if (p.name) s += ` in function '${p.name}'`;
      else s += ` in function <${src}:${p.lineDefined}>`;
      runs.push({ line: s, count: 1 });
      if (ci.tailcalls > 0) runs.push({ line: '(tail call): ?', count: ci.tailcalls });
    }
  }
  for (const r of runs) total += r.count;
  const pick = (from: number, to: number): string[] => {
    const out: string[] = [];
    let at = 0;
    for (const r of runs) {
      const lo = Math.max(from, at);
      const hi = Math.min(to, at + r.count);
      for (let i = lo; i < hi; i++) out.push(r.line);
      at += r.count;
      if (at >= to) break;
    }
    return out;
  };
  if (total <= LEVELS1 + LEVELS2) return pick(0, total);
  return [...pick(0, LEVELS1), '...', ...pick(total - LEVELS2, total)];
}

/** `stack traceback:` and the levels, tab-indented. */
export function traceback(L: LuaThread, fromLevel = L.ciTop): string {
  return ['stack traceback:', ...tracebackLines(L, fromLevel).map((l) => '\t' + l)].join('\n');
}

/** A stack level: a frame index of the thread, or a tail-call pseudo level. */
export type Level = { ci: number } | { tail: true } | null;

/** `lua_getstack`: level 0 is the thread's running function (for the running thread, the debug function itself). */
export function getStack(L: LuaThread, level: number): Level {
  let i = L.ciTop;
  for (; level > 0 && i > 0; i--) {
    level--;
    const ci = L.cis[i]!;
    if (ci.cl !== null) level -= ci.tailcalls;
  }
  if (level === 0 && i > 0) return { ci: i };
  if (level < 0) return { tail: true };
  return null;
}
