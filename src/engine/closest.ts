/**
 * "Did you mean": the names closest to a wanted one, for reports of unknown `DB<Kind>` kinds and record names.
 * Case-insensitive (names hash case-insensitively), by edit distance, a shared prefix breaking ties.
 */

/** Levenshtein distance of two strings, capped at `limit + 1` (stops early past it). */
export function editDistance(a: string, b: string, limit = Number.POSITIVE_INFINITY): number {
  if (a === b) return 0;
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let prev = new Uint32Array(b.length + 1);
  let cur = new Uint32Array(b.length + 1);
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let rowMin = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++) {
      const cost = ca === b.charCodeAt(j - 1) ? 0 : 1;
      const v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > limit) return limit + 1;
    [prev, cur] = [cur, prev];
  }
  return prev[b.length]!;
}

/**
 * Up to `count` of `candidates` closest to `wanted` (case-insensitive), nearest first; names further than half
 * the wanted name's length (at least 3 edits) are left out, so a report never suggests something unrelated.
 */
export function closestNames(wanted: string, candidates: Iterable<string>, count = 3): string[] {
  const w = wanted.toLowerCase();
  const limit = Math.max(3, Math.ceil(w.length / 2));
  const scored: { name: string; d: number; prefix: number }[] = [];
  const seen = new Set<string>();
  for (const name of candidates) {
    if (seen.has(name)) continue;
    seen.add(name);
    const n = name.toLowerCase();
    const contains = n.includes(w) || (w.length >= 4 && w.includes(n) && n.length >= 4);
    const d = contains ? Math.min(1, editDistance(w, n, limit)) : editDistance(w, n, limit);
    if (d > limit) continue;
    let prefix = 0;
    while (prefix < w.length && prefix < n.length && w[prefix] === n[prefix]) prefix++;
    scored.push({ name, d, prefix });
  }
  scored.sort((a, b) => a.d - b.d || b.prefix - a.prefix || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return scored.slice(0, count).map((s) => s.name);
}
