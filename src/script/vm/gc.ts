/**
 * What scripts can observe of garbage collection, emulated over JavaScript's collector: weak tables (`__mode`)
 * lose entries whose keys or values are no longer reachable, `__gc` finalizers of userdata run (newest first, once),
 * `collectgarbage` / `gcinfo` report a heap estimate that grows with allocation and drops after a cycle, and cycles
 * also start by themselves as scripts allocate (Lua 5.1's 200% pause), as programs that wait for a collection expect.
 *
 * A cycle marks from the roots the VM knows (registry, globals, type metatables, the running threads' stacks, the
 * host's anchors) with an explicit work list (deep structures do not recurse). Memory itself is JavaScript's to
 * free: the mark only decides what weak tables forget and which userdata are finalized. Real marks run only when the
 * loaded code can have weak tables or finalizers (its constants name `__mode` / `__gc`); otherwise a cycle just
 * resets the estimate. Values a host keeps only on its own side must be anchored (`vm.anchors`) to stay in weak tables.
 */
import { IsLuaTable, LuaTable } from './table.ts';
import { HostFunction, IsHostFunction, IsLuaClosure, IsLuaStruct, IsLuaUserdata, LuaClosure, LuaStruct, LuaUserdata, type LuaValue } from './value.ts';
import { IsLuaThread, LuaThread } from './thread.ts';
import type { LuaVM } from './vm.ts';
import { interpreter } from './meta.ts';

/** Rough bytes per object kind, for the estimate (Lua 5.1 on 64 bits). */
const SIZE_TABLE = 64;
const SIZE_SLOT = 24;
const SIZE_CLOSURE = 40;
const SIZE_USERDATA = 48;
const SIZE_THREAD = 1024;

function isCollectable(v: LuaValue): v is LuaTable | LuaClosure | HostFunction | LuaUserdata | LuaThread | LuaStruct {
  return typeof v === 'object' && (v instanceof IsLuaTable || v instanceof IsLuaClosure || v instanceof IsHostFunction || v instanceof IsLuaUserdata || v instanceof IsLuaThread || v instanceof IsLuaStruct);
}

interface Mark {
  marked: Set<object>;
  weak: { t: LuaTable; keys: boolean; values: boolean }[];
  bytes: number;
}

function mark(vm: LuaVM, extraRoots: readonly LuaValue[]): Mark {
  const marked = new Set<object>();
  const weak: Mark['weak'] = [];
  const work: LuaValue[] = [vm.registry, vm.globals, vm.main, vm.current, vm.stringMeta ?? undefined, ...vm.typeMetas.values(), ...vm.anchors, ...extraRoots];
  let bytes = 0;
  const push = (v: LuaValue): void => {
    if (isCollectable(v) && !marked.has(v)) work.push(v);
  };
  while (work.length > 0) {
    const v = work.pop();
    if (!isCollectable(v) || marked.has(v)) continue;
    marked.add(v);
    if (v instanceof IsLuaTable) {
      bytes += SIZE_TABLE + SIZE_SLOT * v.slotCount;
      const mt = v.metatable;
      let wk = false;
      let wv = false;
      if (mt !== null) {
        push(mt);
        const mode = mt.getStr('__mode');
        if (typeof mode === 'string') {
          wk = mode.includes('k');
          wv = mode.includes('v');
        }
      }
      if (wk || wv) weak.push({ t: v, keys: wk, values: wv });
      for (const x of v.arr) {
        if (typeof x === 'string') bytes += x.length;
        else if (!wv) push(x);
      }
      for (let i = 0; i < v.hused; i++) {
        const val = v.hv[i];
        if (val === undefined) continue;
        const key = v.hk[i];
        if (typeof key === 'string') bytes += key.length;
        if (typeof val === 'string') bytes += val.length;
        if (!wk) push(key);
        if (!wv) push(val);
      }
    } else if (v instanceof IsLuaClosure) {
      bytes += SIZE_CLOSURE + 8 * v.up.length;
      push(v.env);
      for (const u of v.up) {
        if (u.thread === null) push(u.v);
        else push(u.thread);
      }
    } else if (v instanceof IsHostFunction) {
      push(v.env ?? undefined);
      if (v.upvalues) for (const u of v.upvalues) push(u);
    } else if (v instanceof IsLuaUserdata) {
      bytes += SIZE_USERDATA;
      push(v.metatable ?? undefined);
      push(v.env ?? undefined);
      const payload = v.value;
      if (typeof payload === 'object' && payload !== null && isCollectable(payload as LuaValue)) push(payload as LuaValue);
    } else if (v instanceof IsLuaThread) {
      bytes += SIZE_THREAD;
      // live slots end at the top of the running frame: a host frame's top, or a Lua frame's registers (as
      // lua_State.top is while a C function or the interpreter runs); dead locals above are not roots
      for (let i = 0; i <= v.ciTop; i++) {
        const ci = v.cis[i]!;
        push(ci.cl ?? undefined);
        push(ci.hf ?? undefined);
      }
      const cur = v.cis[v.ciTop]!;
      const end = Math.min(cur.cl !== null ? cur.top : v.top, v.sv.length);
      for (let i = 0; i < end; i++) {
        const x = v.sv[i];
        if (typeof x === 'object') push(x);
      }
      push(v.body);
      push(v.hookFn);
      push(v.env as LuaValue);
    } else if (v instanceof IsLuaStruct) {
      for (const x of v.slots) push(x);
    }
  }
  return { marked, weak, bytes };
}

function clearWeak(m: Mark, finalizing: Set<object>): void {
  const dead = (v: LuaValue, isKey: boolean): boolean => isCollectable(v) && (!m.marked.has(v) || (!isKey && finalizing.has(v)));
  for (const { t, keys, values } of m.weak) {
    if (!m.marked.has(t)) continue;
    const a = t.arr;
    if (values) for (let i = 0; i < a.length; i++) if (dead(a[i], false)) a[i] = undefined;
    for (let i = 0; i < t.hused; i++) {
      const val = t.hv[i];
      if (val === undefined) continue;
      if ((keys && dead(t.hk[i], true)) || (values && dead(val, false))) t.hv[i] = undefined;
    }
  }
}

/** The collector state of a VM. */
export class Collector {
  readonly vm: LuaVM;
  /** Estimated live bytes after the last cycle. */
  live = 24 * 1024;
  /** Automatic cycles stopped (`collectgarbage("stop")`). */
  stopped = false;
  pause = 200;
  stepmul = 200;
  /** Work done by `step` towards the current cycle (KiB). */
  stepWork = 0;
  /** The loaded code may create weak tables or finalizers (its constants mention `__mode` or `__gc`). */
  active = false;
  /** Userdata that may need finalizing, oldest first (newproxy and host userdata with metatables). */
  readonly finalizable: LuaUserdata[] = [];
  private collecting = false;

  constructor(vm: LuaVM) {
    this.vm = vm;
  }

  /** Heap estimate in KiB (`collectgarbage('count')`). */
  countKb(): number {
    return (this.live + this.allocated) / 1024;
  }

  /** Allocation of `bytes` by a script; may start a cycle (which may run finalizers, i.e. Lua code). */
  note(L: LuaThread, bytes: number): void {
    this.vm.gcAllocated += bytes;
    if (this.vm.gcAllocated > this.vm.gcThreshold) this.fullCycle(L);
  }

  /** Bytes allocated since the last cycle. */
  get allocated(): number {
    return this.vm.gcAllocated;
  }
  set allocated(n: number) {
    this.vm.gcAllocated = n;
  }

  /** Re-computes the automatic-cycle threshold (Infinity while stopped). */
  updateThreshold(): void {
    this.vm.gcThreshold = this.stopped ? Infinity : Math.max(64 * 1024, (this.live * (this.pause - 100)) / 100);
  }

  /**
   * The cycle when it can collect nothing a script could see (the loaded code makes no weak tables or finalizers,
   * none is pending, no cycle is running): the allocation count restarts. False, and nothing done, otherwise. The
   * JavaScript tier runs it in place of leaving to the interpreter for the cycle.
   */
  quietCycle(): boolean {
    if (this.collecting || this.active || this.finalizable.length !== 0) return false;
    this.allocated = 0;
    this.updateThreshold();
    return true;
  }

  /** A complete cycle: mark, clear weak tables, finalize unreachable userdata (newest first). */
  fullCycle(L: LuaThread): void {
    if (this.collecting || this.quietCycle()) return;
    this.collecting = true;
    let pending: LuaUserdata[] = [];
    try {
      const m = mark(this.vm, this.stackRoots(L));
      // userdata to finalize: unreachable, with __gc; they (and what they reach) stay alive for their finalizer
      const finalizing = new Set<object>();
      for (let i = this.finalizable.length - 1; i >= 0; i--) {
        const u = this.finalizable[i]!;
        if (m.marked.has(u)) continue;
        const gc = u.metatable?.getStr('__gc');
        if (gc instanceof IsLuaClosure || gc instanceof IsHostFunction) {
          pending.push(u);
          finalizing.add(u);
        }
      }
      if (pending.length > 0) {
        const m2 = mark(this.vm, [...this.stackRoots(L), ...pending]);
        for (const o of m2.marked) m.marked.add(o);
        for (const w of m2.weak) if (!m.weak.some((x) => x.t === w.t)) m.weak.push(w);
      }
      clearWeak(m, finalizing);
      // drop userdata that died without a finalizer, and the finalized ones (finalized only once)
      const keep = this.finalizable.filter((u) => m.marked.has(u) && !finalizing.has(u));
      this.finalizable.length = 0;
      this.finalizable.push(...keep);
      this.live = m.bytes;
      this.allocated = 0;
      this.stepWork = 0;
      this.updateThreshold();
    } finally {
      this.collecting = false;
    }
    // finalizers run last, newest first; an error in one propagates (Lua 5.1 runs them unprotected)
    const run = pending;
    pending = [];
    for (const u of run) {
      const gc = u.metatable?.getStr('__gc');
      if (!(gc instanceof IsLuaClosure || gc instanceof IsHostFunction)) continue;
      const top = L.ci.cl !== null ? L.ci.top : L.top;
      L.ensure(top + 3);
      L.set(top, gc);
      L.set(top + 1, u);
      const saved = L.top;
      L.top = top + 2;
      interpreter.callValue(L, top, 1, 0);
      L.top = saved;
    }
  }

  /** `collectgarbage("step", size)`: true when the step finished a cycle. */
  step(L: LuaThread, size: number): boolean {
    this.stepWork += (size <= 0 ? 1 : size) * (this.stepmul / 100);
    if (this.stepWork >= Math.max(1, this.countKb())) {
      this.fullCycle(L);
      this.stepWork = 0;
      return true;
    }
    return false;
  }

  /** Runs the finalizers of every tracked userdata (when the VM closes), ignoring their errors. */
  closeState(L: LuaThread): void {
    const all = this.finalizable.splice(0).reverse();
    for (const u of all) {
      const gc = u.metatable?.getStr('__gc');
      if (!(gc instanceof IsLuaClosure || gc instanceof IsHostFunction)) continue;
      try {
        this.vm.call(gc, [u]);
      } catch {
        // lua_close ignores errors in finalizers
      }
    }
    void L;
  }

  /** Stack slots of the thread being run (its frames are roots). */
  private stackRoots(L: LuaThread): LuaValue[] {
    return [L];
  }
}
