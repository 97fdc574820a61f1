/**
 * HavokScript structures read back from a chunk: the `hstructure` declarations rebuilt from the structure section,
 * and slot names recovered from the positions and tag chains the code uses (GETSLOT / SETSLOT* / SELFSLOT and
 * their `MT` forms).
 *
 * Facts (the compiler's, `src/script/compile/structures.ts`, verified on hksc's output): ids are 1, 2, 3… in
 * declaration order; every prototype starts with the three reserved slots (`__testdummy`, `__structmeta`,
 * `__structbacking`), then the declared slots in order; the meta slot's type is the `meta :` annotation (a
 * structure, `table`, or untyped); a slot typed `object` is stored as type 0. The section lists only the
 * structures the code references (and those their struct slots name): an id missing from it was declared and
 * never used, so a placeholder declaration keeps the later ids. Halo Infinite's `extends` layout has parents the
 * compiler cannot declare; such structures are declared without them (their chunks do not prove).
 */
import type * as A from '../ast.ts';
import type { HksSlot, HksStructure, HksStructureSection } from '../../formats/hks/chunk.ts';
import { LuaType, SLOT_INDEX_META, typeName } from '../compile/structures.ts';

/** One structure of the section with its slots by position. */
export interface StructInfo {
  id: number;
  name: string;
  hasMeta: boolean;
  hasProxy: boolean;
  slots: readonly HksSlot[];
}

const NUM_RESERVED_SLOTS = 3;
/** The compiler's STRUCT_LOOKUP_MAX_STEPS: a longer lookup falls back to GETTABLE / SETTABLE. */
const LOOKUP_MAX_STEPS = 15;

/** One slot lookup: the slots visited in order (meta hops are three steps: meta slot, `__index` slot, result). */
interface Lookup {
  steps: { struct: StructInfo; slot: HksSlot | null }[];
  store: boolean;
}

/** The structures of a chunk, by id and by name. */
export class StructTable {
  readonly list: StructInfo[];
  private readonly ids = new Map<number, StructInfo>();
  private readonly names = new Map<string, StructInfo>();

  constructor(section: HksStructureSection | null) {
    this.list = (section?.structures ?? []).map((s: HksStructure) => ({ id: s.id, name: s.name, hasMeta: s.hasMeta !== 0, hasProxy: s.hasProxy !== 0, slots: s.slots }));
    for (const s of this.list) {
      this.ids.set(s.id, s);
      this.names.set(s.name, s);
    }
  }

  byId(id: number): StructInfo | undefined {
    return this.ids.get(id);
  }

  byName(name: string): StructInfo | undefined {
    return this.names.get(name);
  }

  /** The structure a slot holds (struct-typed slots only). */
  slotStruct(slot: HksSlot): StructInfo | undefined {
    return slot.typeId === LuaType.STRUCT ? this.ids.get(slot.structId) : undefined;
  }

  /** The printed type of a slot or meta slot (`object` for untyped). */
  slotTypeName(slot: HksSlot): string | null {
    if (slot.typeId === LuaType.STRUCT) return this.ids.get(slot.structId)?.name ?? null;
    // Halo Infinite's compiler stores ui64 slots, which hksc (and scry's compiler) refuse: declared untyped.
    if (slot.typeId === LuaType.NIL || slot.typeId === LuaType.UI64) return 'object';
    const n = typeName(slot.typeId);
    return /^[a-z0-9]+$/.test(n) ? n : null;
  }

  /** The declared (non-reserved) slot of `s` at a byte position. */
  slotAt(s: StructInfo, position: number): HksSlot | undefined {
    for (let i = NUM_RESERVED_SLOTS; i < s.slots.length; i++) if (s.slots[i]!.position === position) return s.slots[i];
    return undefined;
  }

  /**
   * Every slot name a lookup on an instance of `s` could resolve through the code's tag chain: names of `s` and of
   * the structures its meta chain reaches.
   */
  private reachableNames(s: StructInfo): string[] {
    const out = new Set<string>();
    const seen = new Set<StructInfo>();
    const visit = (x: StructInfo | undefined): void => {
      if (!x || seen.has(x)) return;
      seen.add(x);
      for (let i = NUM_RESERVED_SLOTS; i < x.slots.length; i++) {
        const n = x.slots[i]!.name;
        if (n !== null) out.add(n);
      }
      const meta = x.slots[SLOT_INDEX_META];
      if (x.hasMeta && meta) {
        const m = this.slotStruct(meta);
        visit(m);
        if (m) for (const sl of m.slots) if (sl.typeId === LuaType.STRUCT) visit(this.slotStruct(sl));
      }
    };
    visit(s);
    return [...out];
  }

  /**
   * The slot name whose lookup on an instance of `s` compiles to `chain` (GETSLOTMT / SETSLOTMT / SELFSLOTMT DATA
   * words: one per meta hop, then the final slot), and the slot it resolves to; undefined when none does.
   */
  nameForChain(s: StructInfo, chain: readonly (readonly [number, number])[], store: boolean): { name: string; slot: HksSlot } | undefined {
    for (const name of this.reachableNames(s)) {
      const l: Lookup = { steps: [], store };
      if (this.resolve(s, name, l) !== 'slot') continue;
      const words = chainWords(l);
      if (words.length === chain.length && words.every((w, k) => w[0] === chain[k]![0] && w[1] === chain[k]![1])) return { name, slot: l.steps[l.steps.length - 1]!.slot! };
    }
    return undefined;
  }

  /** The slot a name resolves to on an instance of `s` (through the meta chain), when it resolves to one. */
  slotNamed(s: StructInfo, name: string, store = false): HksSlot | undefined {
    const l: Lookup = { steps: [], store };
    return this.resolve(s, name, l) === 'slot' ? (l.steps[l.steps.length - 1]!.slot ?? undefined) : undefined;
  }

  /** The slot a name resolves to on an instance of `s` in one step (GETSLOT / SETSLOT*): `undefined` otherwise. */
  directSlot(s: StructInfo, position: number, store: boolean): { name: string; slot: HksSlot } | undefined {
    const slot = this.slotAt(s, position);
    if (!slot || slot.name === null) return undefined;
    const l: Lookup = { steps: [], store };
    if (this.resolve(s, slot.name, l) !== 'slot' || l.steps.length !== 1) return undefined;
    return { name: slot.name, slot };
  }

  /** The compiler's structure index resolution (hksc's resolvestructindex), over the section's structures. */
  private resolve(s: StructInfo, name: string, l: Lookup): 'slot' | 'proxy' | 'invalid' {
    const step = (struct: StructInfo, slot: HksSlot | null): boolean => {
      if (l.steps.length >= LOOKUP_MAX_STEPS) return false;
      l.steps.push({ struct, slot });
      return true;
    };
    let first: 'slot' | 'proxy' | 'invalid';
    const own = s.slots.find((x) => x.name === name);
    if (own) first = step(s, own) ? 'slot' : 'proxy';
    else if (s.hasProxy) first = 'proxy';
    else {
      step(s, null);
      first = 'invalid';
    }
    if (first === 'proxy') return 'proxy';
    if (s.hasMeta) {
      const n = l.steps.length;
      const meta = s.slots[SLOT_INDEX_META]!;
      if (!step(s, meta) || meta.typeId !== LuaType.STRUCT) return 'proxy';
      const m = this.slotStruct(meta);
      if (!m) return 'proxy';
      const tm = m.slots.find((x) => x.name === (l.store ? '__newindex' : '__index'));
      if (tm) {
        if (!step(m, tm) || tm.typeId !== LuaType.STRUCT) return 'proxy';
        const parent = this.slotStruct(tm);
        if (!parent) return 'proxy';
        const r = this.resolve(parent, name, l);
        if (r !== 'invalid') return r;
        if (l.store) return 'proxy';
      }
      if (m.hasProxy) return 'proxy';
      l.steps.length = n;
    }
    return first;
  }

  /**
   * The `hstructure` declarations, in id order (declaration order), with a placeholder for every id the section
   * leaves out (declared, never referenced) so the others keep their ids.
   */
  declarations(): A.StructureStatement[] {
    const out: A.StructureStatement[] = [];
    const max = Math.max(0, ...this.list.map((s) => s.id));
    const at = { line: 0, column: 0 };
    const ident = (name: string): A.Identifier => ({ type: 'Identifier', name, ...at });
    const ann = (name: string): A.TypeAnnotation => ({ type: 'TypeAnnotation', name, ...at });
    const taken = new Set(this.list.map((s) => s.name));
    for (let id = 1; id <= max; id++) {
      const s = this.ids.get(id);
      if (!s) {
        let name = `__unused_structure_${id}`;
        while (taken.has(name)) name += '_';
        out.push({ type: 'StructureStatement', name: ident(name), items: [{ type: 'StructureSlot', name: ident('o'), annotation: ann('object'), ...at }], ...at });
        continue;
      }
      const items: A.StructureItem[] = [];
      if (s.hasProxy) items.push({ type: 'StructureProxyTable', ...at });
      const meta = s.slots[SLOT_INDEX_META];
      if (s.hasMeta && meta) items.push({ type: 'StructureMeta', annotation: ann(meta.typeId === LuaType.NIL ? 'object' : (this.slotTypeName(meta) ?? 'object')), ...at });
      for (let i = NUM_RESERVED_SLOTS; i < s.slots.length; i++) {
        const sl = s.slots[i]!;
        items.push({ type: 'StructureSlot', name: ident(sl.name ?? `slot_${i}`), annotation: ann(this.slotTypeName(sl) ?? 'object'), ...at });
      }
      out.push({ type: 'StructureStatement', name: ident(s.name), items, ...at });
    }
    return out;
  }
}

/** The DATA words of a tag chain (the compiler's codeTagChain): per meta hop (slot, `__index` slot), then the slot. */
function chainWords(l: Lookup): [number, number][] {
  const steps = l.steps;
  const out: [number, number][] = [];
  const n = Math.floor(steps.length / 3) * 3;
  for (let i = 0; i < n; i += 3) out.push([steps[i]!.slot ? steps[i]!.slot!.position : 0, steps[i + 2]!.slot!.position]);
  out.push([steps[steps.length - 1]!.slot!.position, 0]);
  return out;
}
