/**
 * One BM25 index per (units of a memory index, BM25 settings), shared by whoever asks: the memory index's own
 * `keyword`/`keywordScores` and the `bm25` method, which used to build a second, identical index over the same
 * units whenever its options were the index's (the default ones). Keys are the units array (weakly: the index is
 * freed with its haystack) and the canonical JSON of the parsed settings, so equal settings share and different
 * ones (the official whitespace tokenizer…) get their own. Same class, same texts, same settings: the same scores.
 */
import { canonicalJson } from '../core/hash.ts';
import { Bm25Index, Bm25OptionsSchema, type Bm25Options, type Bm25Settings } from './bm25.ts';

const built = new WeakMap<object, Map<string, Bm25Index>>();

/** The parsed settings and their sharing key (compute once per method, not per question). */
export function bm25Settings(options: Bm25Options): { settings: Bm25Settings; key: string } {
  const settings = Bm25OptionsSchema.parse(options);
  return { settings, key: canonicalJson(settings) };
}

/** The BM25 index of `units` (non-empty) under `settings`, built on first request. */
export function sharedBm25(units: readonly { text: string }[], s: { settings: Bm25Settings; key: string }): Bm25Index {
  let bySettings = built.get(units);
  if (!bySettings) {
    bySettings = new Map();
    built.set(units, bySettings);
  }
  let index = bySettings.get(s.key);
  if (!index) {
    index = new Bm25Index(
      units.map((u) => u.text),
      s.settings,
    );
    bySettings.set(s.key, index);
  }
  return index;
}
