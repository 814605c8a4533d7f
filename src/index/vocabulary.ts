/**
 * A BM25 corpus as term ids: each distinct token gets an id, 0, 1, … in order of first occurrence in the corpus
 * (rank_bm25's document-frequency dict is filled in that order, and the mean idf is summed in it), and each document
 * is read as the ids of its tokens. Two ways in:
 *
 * - `termIdsOfTokens`: documents already tokenized (any tokenizer), interned through a Map;
 * - `termIdsOfSpaceSplit`: the official whitespace tokenizer (`text.split(' ')`, Python's `str.split(" ")`) read off
 *   the texts themselves. A haystack repeats most of its tokens; a token is hashed as it is scanned and found in an
 *   open-addressing table by comparing it in place, and a new one is kept as a span of its text (the table keeps
 *   its sources), so no token becomes a string and no per-document token array is made. Splitting was a third of
 *   the official BM25 run's allocations (`split` and the vocabulary Map's growth, ~280 MB of 1.2 GB on LongMemEval S,
 *   sampling heap profile), and the term strings later a fifth of what was left, all young garbage. The pieces and
 *   their order are exactly `split(' ')`'s, empty strings included (property test in vocabulary.test.ts).
 */
import { FNV_OFFSET, FNV_PRIME, SubstringTable } from './substring-table.ts';

/** Token → id, for scoring queries against the corpus. */
export interface Vocabulary {
  readonly size: number;
  id(token: string): number | undefined;
}

/** A corpus read one document at a time: `termIds(d)` is called once per document, in order; the first `length`
 * entries of `ids` are document d's tokens (the array may be reused by the next call). */
export interface TermIdStream {
  readonly count: number;
  readonly vocabulary: Vocabulary;
  termIds(d: number): { ids: Int32Array; length: number };
}

// The vocabularies are made outside the builders' scopes: a closure there would keep the texts and the id buffer
// alive as long as the index that keeps its vocabulary.
function mapVocabulary(map: Map<string, number>): Vocabulary {
  return {
    get size() {
      return map.size;
    },
    id: (t) => map.get(t),
  };
}
function tableVocabulary(table: SubstringTable): Vocabulary {
  return {
    get size() {
      return table.size;
    },
    id: (t) => table.id(t),
  };
}

/** A growing id buffer, reused across documents. */
class IdBuffer {
  ids = new Int32Array(1024);
  fit(n: number): Int32Array {
    if (n > this.ids.length) this.ids = new Int32Array(Math.max(n, 2 * this.ids.length));
    return this.ids;
  }
  /** Twice the room, the ids so far kept. */
  grow(): Int32Array {
    const ids = new Int32Array(2 * this.ids.length);
    ids.set(this.ids);
    return (this.ids = ids);
  }
}

/** Tokenized documents (`tokens(d)` called once per document, in order) as term ids. */
export function termIdsOfTokens(count: number, tokens: (d: number) => readonly string[]): TermIdStream {
  const map = new Map<string, number>();
  const buffer = new IdBuffer();
  return {
    count,
    vocabulary: mapVocabulary(map),
    termIds(d) {
      const doc = tokens(d);
      const ids = buffer.fit(doc.length);
      for (let i = 0; i < doc.length; i++) {
        const token = doc[i]!;
        let id = map.get(token);
        if (id === undefined) map.set(token, (id = map.size));
        ids[i] = id;
      }
      return { ids, length: doc.length };
    },
  };
}

const SPACE = 0x20;

/** The texts' `split(' ')` tokens as term ids (see header). */
export function termIdsOfSpaceSplit(texts: readonly string[]): TermIdStream {
  // Terms are read off the texts, which the index's units keep alive anyway: no string is made per term.
  const table = new SubstringTable(true);
  const buffer = new IdBuffer();
  return {
    count: texts.length,
    vocabulary: tableVocabulary(table),
    termIds(d) {
      const text = texts[d]!;
      const n = text.length;
      let ids: Int32Array = buffer.ids;
      let length = 0;
      let start = 0;
      let h = FNV_OFFSET;
      for (let i = 0; i < n; i++) {
        const c = text.charCodeAt(i);
        if (c === SPACE) {
          if (length === ids.length) ids = buffer.grow();
          ids[length++] = table.intern(text, start, i, h);
          start = i + 1;
          h = FNV_OFFSET;
        } else {
          h = Math.imul(h ^ c, FNV_PRIME);
        }
      }
      // split(' ') gives one piece more than there are spaces: the rest after the last one.
      if (length === ids.length) ids = buffer.grow();
      ids[length++] = table.intern(text, start, n, h);
      return { ids, length };
    },
  };
}
