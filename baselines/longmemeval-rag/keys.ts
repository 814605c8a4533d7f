/**
 * Key expansion's join modes, after `resolve_expansion` in the official LongMemEval code
 * (xiaowu0162/LongMemEval@9e0b455, src/retrieval/index_expansion_utils.py). A value (memory unit) is retrieved through
 * its keys; every key points at the value it came from, so rankings stay on source unit ids:
 *
 * - `merge`:    one key per expansion item, `item + ' ' + value text` (the paper's "K = V + fact");
 * - `separate`: the value's own text is a key, and every expansion item is an extra key of the same value;
 * - `replace`:  one key per expansion item, the item alone.
 *
 * A failed expansion (reply that did not parse) is an empty string, as the official code treats `None`. Deviation:
 * the official merge/replace emit no key at all for a value whose user-fact list is empty (the loop runs over zero
 * items), which makes the value unretrievable; here such a value keeps one key (its text for merge, '' for replace)
 * so every unit stays in the ranking. Empty keys are skipped in separate mode (they cannot match).
 */
export type JoinMode = 'merge' | 'separate' | 'replace';

export interface Key {
  text: string;
  /** Position of the value (memory unit) in the index. */
  unit: number;
}

export function joinKeys(
  values: readonly string[],
  expansions: readonly (readonly string[] | undefined)[],
  mode: JoinMode,
): Key[] {
  const keys: Key[] = [];
  values.forEach((value, unit) => {
    const raw = expansions[unit];
    const items = raw === undefined || raw.length === 0 ? [''] : raw;
    if (mode === 'separate') {
      keys.push({ text: value, unit });
      for (const item of items) if (item.trim() !== '') keys.push({ text: item, unit });
    } else if (mode === 'merge') {
      for (const item of items) keys.push({ text: item === '' ? value : `${item} ${value}`, unit });
    } else {
      for (const item of items) keys.push({ text: item, unit });
    }
  });
  return keys;
}

/** Best key score per value (a value reached through several keys counts once, at its best key). */
export function bestPerUnit(keys: readonly Key[], keyScores: ArrayLike<number>, unitCount: number): Float64Array {
  const out = new Float64Array(unitCount).fill(-Infinity);
  keys.forEach((k, i) => {
    if (keyScores[i]! > out[k.unit]!) out[k.unit] = keyScores[i]!;
  });
  return out;
}
