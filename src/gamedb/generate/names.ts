/**
 * Realistic, P919-hashable names for generated databases: categories (`Combat.Attack`, `_StructuresCombatAttackData`),
 * record types (`Combat.Attack`), placeholders (`DEFAULT_RECORD_NAMECombat.AttackData`), fields (`BaseSpeedMultiplier`),
 * records (`Orc_Captain_Berserker_03`), enum values, resource paths and text values.
 *
 * The real category names contain `/` (`AI/Templates`), whose P919 value is unknown; generated names use `.` unless
 * the caller's table knows `/` (see `categorySeparator`).
 */
import { Prng } from './prng.ts';
import { FIELD_WORDS, LEAF, PATH_FOLDERS, RECORD_WORDS, TOP_LEVEL } from './words.ts';

/** Text → bytes for ASCII names (one byte per char). */
export function asciiBytes(text: string): Uint8Array {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
  return out;
}

/** P919 of an ASCII string with a table's values (the caller guarantees every char is hashable). */
export function hashAscii(text: string, values: Int8Array): number {
  let h = 0;
  for (let i = 0; i < text.length; i++) h = (Math.imul(h, 919) + values[text.charCodeAt(i)]!) | 0;
  return h >>> 0;
}

function singular(word: string): string {
  if (word.endsWith('ies')) return word.slice(0, -3) + 'y';
  if (word.endsWith('sses')) return word.slice(0, -2);
  if (word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

/** A category: its name and the record type it holds. */
export interface CategoryName {
  name: string;
  typeName: string;
}

/** Names of `count` categories, `structures` of them `_Structures*`; top-level groups are drawn from `TOP_LEVEL`. */
export function categoryNames(rng: Prng, count: number, structures: number, separator: string, hashOf: (s: string) => number): CategoryName[] {
  const out: CategoryName[] = [];
  const used = new Set<number>();
  const usedTypes = new Set<string>();
  const tops = Math.min(TOP_LEVEL.length, Math.max(4, Math.round(count / 20)));
  const add = (name: string, typeName: string): boolean => {
    const h = hashOf(name);
    if (used.has(h) || usedTypes.has(typeName)) return false;
    used.add(h);
    usedTypes.add(typeName);
    out.push({ name, typeName });
    return true;
  };
  let guard = 0;
  while (out.length < structures) {
    const top = TOP_LEVEL[rng.skewed(tops, 1.6)]!;
    const a = singular(rng.pick(LEAF));
    const b = rng.chance(0.5) ? rng.pick(FIELD_WORDS) : '';
    const leaf = `${a}${b}${rng.chance(0.3) ? 'Data' : ''}${guard > count * 4 ? guard : ''}`;
    add(`_Structures${top}${leaf}`, `${top}.${leaf}`);
    guard++;
  }
  while (out.length < count) {
    const top = TOP_LEVEL[rng.skewed(tops, 1.6)]!;
    let leaf: string = rng.pick(LEAF);
    if (rng.chance(0.35)) leaf = `${leaf}${separator}${rng.pick(LEAF)}`;
    if (guard > count * 6) leaf = `${leaf}${guard}`;
    add(`${top}${separator}${leaf}`, `${top}.${singular(leaf.split(separator).join(''))}`);
    guard++;
  }
  return out;
}

/** The placeholder record of a type: `DEFAULT_RECORD_NAME<Type>`. */
export function placeholderName(typeName: string): string {
  return `DEFAULT_RECORD_NAME${typeName}`;
}

/** A record name such as `Orc_Captain_Berserker_03`, `HeavyCombo2` or `Seregost_Gate_Ambush`. */
export function recordName(rng: Prng): string {
  const words = 1 + rng.skewed(4, 1.3);
  const parts: string[] = [];
  for (let i = 0; i < words; i++) parts.push(RECORD_WORDS[rng.int(RECORD_WORDS.length)]!);
  let s = rng.chance(0.6) ? parts.join('_') : parts.join('');
  const r = rng.float();
  if (r < 0.35) s += `_${String(rng.int(100)).padStart(2, '0')}`;
  else if (r < 0.5) s += String(1 + rng.int(12));
  else if (r < 0.53) s += '+';
  else if (r < 0.56) s += ` ${RECORD_WORDS[rng.int(RECORD_WORDS.length)]!}`;
  return s;
}

/** A CamelCase field name such as `BaseSpeedMultiplier`; a few start with a digit (`3DRotation`). */
export function fieldName(rng: Prng): string {
  const words = 1 + rng.skewed(4, 1.2);
  let s = rng.chance(0.02) ? `${1 + rng.int(4)}D` : '';
  for (let i = 0; i < words; i++) s += FIELD_WORDS[rng.int(FIELD_WORDS.length)]!;
  if (rng.chance(0.08)) s += String(rng.int(6));
  return s;
}

/** The values of one enum (e.g. `COM_MOVE`, `COM_INV`, … or `Low`, `Mid`, `High`). */
export function enumValues(rng: Prng, count: number): string[] {
  const style = rng.int(3);
  const prefix = FIELD_WORDS[rng.int(FIELD_WORDS.length)]!;
  const seen = new Set<string>();
  const out: string[] = [];
  let guard = 0;
  while (out.length < count && guard++ < count * 20) {
    const w = RECORD_WORDS[rng.int(RECORD_WORDS.length)]!;
    const w2 = FIELD_WORDS[rng.int(FIELD_WORDS.length)]!;
    const v = style === 0 ? `${prefix.toUpperCase()}_${w.toUpperCase()}` : style === 1 ? `${w}${w2}` : `e${prefix}_${w}`;
    // The hash folds case: HIGH and High are one value, so case-insensitive duplicates are skipped.
    if (seen.has(v.toLowerCase())) continue;
    seen.add(v.toLowerCase());
    out.push(v);
  }
  return out;
}

/** A resource path with the given extension (`gameobjects\characters\orc\orc_captain_03.bndl`), or a folder. */
export function resourcePath(rng: Prng, extension: string | undefined, serial: number): string {
  const depth = 2 + rng.int(3);
  const parts: string[] = [];
  for (let i = 0; i < depth; i++) parts.push(PATH_FOLDERS[rng.int(PATH_FOLDERS.length)]!);
  const base = `${RECORD_WORDS[rng.int(RECORD_WORDS.length)]!.toLowerCase()}_${serial.toString(36)}`;
  return extension === undefined ? `${parts.join('\\')}\\${base}` : `${parts.join('\\')}\\${base}.${extension}`;
}

const TEXT_WORDS = ['the', 'of', 'a', 'to', 'and', 'Talion', 'orc', 'fortress', 'gain', 'deal', 'damage', 'while', 'when', 'enemy', 'attack', 'after', 'killing', 'captain', 'increase', 'chance', 'fire', 'poison', 'curse', 'bonus', 'seconds', 'for', 'nearby', 'allies', 'with', 'your'];

/** A text value of exactly `length` characters, unique through its `serial` prefix (`LOC_1a2b_…`). */
export function textValue(rng: Prng, serial: number, length: number): string {
  let s = `LOC_${serial.toString(36)}`;
  if (s.length >= length) return s.slice(0, length);
  s += ' ';
  while (s.length < length) s += TEXT_WORDS[rng.int(TEXT_WORDS.length)]! + ' ';
  return s.slice(0, length);
}
