/**
 * The order of a chunk's structure section (hypothesis H-STRUCT-ORDER, `hypotheses.ts`). hksc lists the structures
 * the code references (NEWSTRUCT / SETSLOTS / struct-typed SETSLOTMT DATA ids, CHECKTYPES / CHECKTYPE_D Bx), each
 * followed depth-first by the structures its struct-typed slots name, in the order `luaH_next` visits a Lua 5.1
 * table holding those ids (inserted in code order, function by function, depth-first) and one boolean key. Its
 * `ds3` build walks FromSoftware's insertion-ordered tables backwards from the last insertion; its `iw6` build walks
 * the nodes in order. Both are verified on hksc's output (test/fixtures/hks/hksc-tests); which one Shadow of War's
 * compiler uses is unknown. The compiler writes the section in this order; `verifyHksChunk` reports which order a
 * file's section follows.
 */
import type { HksFunction, HksStructure } from './chunk.ts';
import { hksBx, hksOp, hksOpcodes } from './opcodes.ts';

/** Traversal order of the structure-reference table: hksc's `ds3` build (the default) or its `iw6` build. */
export type HksStructureOrder = 'ds3' | 'iw6';
export const HKS_STRUCTURE_ORDERS: readonly HksStructureOrder[] = ['ds3', 'iw6'];

/**
 * A Lua 5.1 hash part holding light-userdata keys (structure ids) and one boolean key, enough to reproduce the
 * order `luaH_next` visits them in: main positions by `hashgeneric`, free slots taken from the end, Brent's move of a
 * colliding node that is not in its main position, and rehash into the next power of two (old nodes re-inserted
 * from the last to the first). `ds3` also keeps FromSoftware's insertion links and walks them backwards.
 */
class LuaKeyTable {
  private keys: (number | true | null)[] = [];
  private nextIdx: number[] = [];
  private prevInserted: number[] = [];
  private size = 0; // 0 = the shared dummy node
  private lastFree = 0;
  private lastInserted = -1;

  private mainPosition(key: number | true): number {
    if (this.size === 0) return 0;
    if (key === true) return 0; // a boolean's low bits hash to 0 for every table size that can occur
    const hash = Math.imul(key >>> 3, 0x9e3779b1) >>> 0;
    return hash % this.size;
  }

  has(key: number | true): boolean {
    if (this.size === 0) return false;
    let n = this.mainPosition(key);
    while (n >= 0) {
      if (this.keys[n] === key) return true;
      n = this.nextIdx[n]!;
    }
    return false;
  }

  private setNodeVector(size: number): void {
    const lsize = size === 0 ? 0 : Math.ceil(Math.log2(size));
    const n = size === 0 ? 0 : 2 ** lsize;
    this.size = n;
    this.keys = new Array<number | true | null>(n).fill(null);
    this.nextIdx = new Array<number>(n).fill(-1);
    this.prevInserted = new Array<number>(n).fill(-1);
    this.lastFree = n;
    this.lastInserted = -1;
  }

  private getFreePos(): number {
    while (this.lastFree-- > 0) {
      if (this.keys[this.lastFree] === null) return this.lastFree;
    }
    this.lastFree = 0;
    return -1;
  }

  /** Inserts `key` if absent. */
  insert(key: number | true): void {
    if (this.has(key)) return;
    this.newKey(key);
  }

  private newKey(key: number | true): void {
    let mp = this.mainPosition(key);
    if (this.size === 0 || this.keys[mp] !== null) {
      const n = this.size === 0 ? -1 : this.getFreePos();
      if (n < 0) {
        this.rehash();
        this.newKey(key);
        return;
      }
      const other = this.mainPosition(this.keys[mp]!);
      if (other !== mp) {
        // Move the colliding node into the free slot; its insertion link follows it.
        let o = other;
        while (this.nextIdx[o] !== mp) o = this.nextIdx[o]!;
        this.nextIdx[o] = n;
        this.keys[n] = this.keys[mp]!;
        this.nextIdx[n] = this.nextIdx[mp]!;
        this.prevInserted[n] = this.prevInserted[mp]!;
        for (let i = 0; i < this.size; i++) if (this.prevInserted[i] === mp) this.prevInserted[i] = n;
        if (this.lastInserted === mp) this.lastInserted = n;
        this.nextIdx[mp] = -1;
        this.keys[mp] = null;
        this.prevInserted[mp] = -1;
      } else {
        this.nextIdx[n] = this.nextIdx[mp]!;
        this.nextIdx[mp] = n;
        mp = n;
      }
    }
    this.keys[mp] = key;
    this.prevInserted[mp] = this.lastInserted;
    this.lastInserted = mp;
  }

  private rehash(): void {
    const oldKeys = this.keys;
    let used = 1; // the key being inserted
    for (const k of oldKeys) if (k !== null) used++;
    this.setNodeVector(used);
    for (let i = oldKeys.length - 1; i >= 0; i--) {
      const k = oldKeys[i];
      if (k !== null && k !== undefined) this.newKey(k);
    }
  }

  /** Keys in `luaH_next` order. */
  traverse(order: HksStructureOrder): (number | true)[] {
    const out: (number | true)[] = [];
    if (order === 'iw6') {
      for (const k of this.keys) if (k !== null) out.push(k);
      return out;
    }
    for (let n = this.lastInserted; n >= 0; n = this.prevInserted[n]!) out.push(this.keys[n]!);
    return out;
  }
}

const TABLE = hksOpcodes();
const OP_SETSLOTMT = TABLE.byName.get('SETSLOTMT')!.op;
const STRUCT_TYPE = 12;

/** Inserts the structure ids one function's code references, in code order, then its children's; true if any. */
function scanReferences(fn: HksFunction, table: LuaKeyTable): boolean {
  let seen = false;
  const code = fn.code;
  for (let pc = 0; pc < code.length; pc++) {
    let w = code[pc]!;
    const info = TABLE.byOp[hksOp(w)];
    if (!info) continue;
    if (info.op === OP_SETSLOTMT) {
      if (((w >>> 17) & 0xff) >> 4 !== STRUCT_TYPE) continue;
      w = code[++pc] ?? 0;
    } else if (info.dataPayload === 'structId') w = code[++pc] ?? 0;
    else if (info.check !== 'struct') continue;
    table.insert(hksBx(w));
    seen = true;
  }
  for (const child of fn.children) if (scanReferences(child, table)) seen = true;
  return seen;
}

/** The structures written with one structure: its `extends` parents before it, the types of its struct slots after. */
export interface HksStructureRelations {
  before: readonly number[];
  after: readonly number[];
}

/**
 * The structure ids of the section written for the code under `main`, in section order. `related(id)` gives the
 * structures written with structure `id` (undefined: an unknown structure, skipped): hksc writes the structures its
 * struct-typed slots name right after it; the Halo Infinite chunk (real Havok output, extends layout) also writes
 * each structure's `extends` parents right before it.
 */
export function hksStructureOrder(main: HksFunction, related: (id: number) => HksStructureRelations | undefined, order: HksStructureOrder): number[] {
  const table = new LuaKeyTable();
  const out: number[] = [];
  if (!scanReferences(main, table)) return out;
  table.insert(true);
  const done = new Set<number>();
  const visit = (id: number): void => {
    if (done.has(id)) return;
    done.add(id);
    const r = related(id);
    if (r === undefined) return;
    for (const p of r.before) visit(p);
    out.push(id);
    for (const s of r.after) visit(s);
  };
  for (const key of table.traverse(order)) if (key !== true) visit(key);
  return out;
}

/** The relations of a chunk's own structure section (struct-typed slots after, `extends` parents before). */
export function hksSectionRelations(structures: readonly HksStructure[]): (id: number) => HksStructureRelations | undefined {
  const byId = new Map(structures.map((s) => [s.id, s]));
  const idByName = new Map(structures.map((s) => [s.name, s.id]));
  return (id) => {
    const s = byId.get(id);
    if (!s) return undefined;
    const before = (s.extends ?? []).flatMap((name) => (name !== null && idByName.has(name) ? [idByName.get(name)!] : []));
    const after = s.slots.filter((slot) => slot.typeId === STRUCT_TYPE).map((slot) => slot.structId);
    return { before, after };
  };
}

/** Which orders (ds3, iw6) reproduce a chunk's structure section exactly; empty when neither does. */
export function hksMatchingStructureOrders(main: HksFunction, structures: readonly HksStructure[]): HksStructureOrder[] {
  const related = hksSectionRelations(structures);
  const actual = structures.map((s) => s.id);
  return HKS_STRUCTURE_ORDERS.filter((o) => {
    const predicted = hksStructureOrder(main, related, o);
    return predicted.length === actual.length && predicted.every((id, i) => id === actual[i]);
  });
}
