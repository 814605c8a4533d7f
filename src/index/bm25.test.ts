// BM25 against hand-computed rank_bm25 values, a property test against a direct transcription of BM25Okapi's
// formula, tokenizers (Python str.split(" ") semantics) and tie order.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Bm25, Bm25Index } from './bm25.ts';
import { termIdsOfTokens } from './vocabulary.ts';
import { defaultTokenizer, makeTokenizer, simpleTokenizer, whitespaceTokenizer } from './tokenizers.ts';
import { rankIndices } from './top-k.ts';

describe('Bm25 golden values (hand-computed)', () => {
  /*
   * Corpus (whitespace tokens): d0 = [a b c], d1 = [a a d], d2 = [e f]. N = 3, avgdl = 8/3.
   * df: a = 2, b c d e f = 1.
   *   idf(a)  = ln(3 − 2 + 0.5) − ln(2 + 0.5) = ln(0.6) = −0.5108256…  (negative)
   *   idf(df=1) = ln(2.5) − ln(1.5) = ln(5/3) = 0.5108256237659907
   *   mean idf over the 6 terms = (−ln(5/3) + 5·ln(5/3)) / 6 = (2/3)·ln(5/3); ε·mean = 0.25·(2/3)·ln(5/3)
   *   = ln(5/3)/6 = 0.08513760396099845, which replaces idf(a).
   * len_norm for |d| = 3: 1.5·(1 − 0.75 + 0.75·3/(8/3)) = 1.5·1.09375 = 1.640625.
   * Query [a d]:
   *   d0: a (tf 1): 1·2.5/(1 + 1.640625) · ln(5/3)/6 = 0.946745562… · 0.085137604 = 0.0806036487204719
   *   d1: a (tf 2): 2·2.5/(2 + 1.640625) · ln(5/3)/6 = 0.1169271814056631
   *       d (tf 1): 2.5/2.640625 · ln(5/3)           = 0.4836218923228314   → 0.6005490737284945
   *   d2: 0
   */
  const bm25 = new Bm25([
    ['a', 'b', 'c'],
    ['a', 'a', 'd'],
    ['e', 'f'],
  ]);

  it('idf with the epsilon floor', () => {
    expect(bm25.avgdl).toBeCloseTo(8 / 3, 15);
    expect(bm25.idf('b')).toBeCloseTo(Math.log(5 / 3), 15);
    expect(bm25.idf('a')).toBeCloseTo(Math.log(5 / 3) / 6, 15);
    expect(bm25.idf('zzz')).toBe(0);
  });

  it('scores every document', () => {
    const s = bm25.scores(['a', 'd']);
    expect(s[0]).toBeCloseTo(0.0806036487204719, 14);
    expect(s[1]).toBeCloseTo(0.6005490737284945, 14);
    expect(s[2]).toBe(0);
  });

  it('counts repeated query tokens each time, as rank_bm25 does', () => {
    const once = bm25.scores(['d'])[1]!;
    expect(bm25.scores(['d', 'd'])[1]).toBeCloseTo(2 * once, 14);
  });

  it('rejects an empty corpus', () => {
    expect(() => new Bm25([])).toThrow(/at least one document/);
  });
});

/** BM25Okapi transcribed literally (dict per doc, loop per query term) — the reference for the property test. */
function referenceScores(corpus: string[][], query: string[], k1 = 1.5, b = 0.75, epsilon = 0.25): number[] {
  const n = corpus.length;
  const avgdl = corpus.reduce((s, d) => s + d.length, 0) / n;
  const nd = new Map<string, number>();
  const freqs = corpus.map((doc) => {
    const f = new Map<string, number>();
    for (const w of doc) f.set(w, (f.get(w) ?? 0) + 1);
    for (const w of f.keys()) nd.set(w, (nd.get(w) ?? 0) + 1);
    return f;
  });
  const idf = new Map<string, number>();
  let sum = 0;
  for (const [w, df] of nd) {
    const v = Math.log(n - df + 0.5) - Math.log(df + 0.5);
    idf.set(w, v);
    sum += v;
  }
  const eps = (epsilon * sum) / nd.size;
  for (const [w, v] of idf) if (v < 0) idf.set(w, eps);
  return corpus.map((doc, i) => {
    let s = 0;
    for (const q of query) {
      const tf = freqs[i]!.get(q) ?? 0;
      // rank_bm25 ≥ 0.3 adds only stored (non-zero tf) entries; 0.2's dense path adds idf·0/len_norm = 0 too,
      // except on an all-empty corpus (avgdl 0), where it yields NaN and ours 0.
      if (tf === 0) continue;
      s += (idf.get(q) ?? 0) * ((tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * doc.length) / avgdl)));
    }
    return s;
  });
}

describe('Bm25 properties', () => {
  const word = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g', '');
  const doc = fc.array(word, { minLength: 0, maxLength: 8 });
  const corpus = fc.array(doc, { minLength: 1, maxLength: 12 });

  it('matches the literal BM25Okapi formula on random corpora', () => {
    fc.assert(
      fc.property(corpus, fc.array(fc.constantFrom('a', 'b', 'c', 'x', ''), { maxLength: 5 }), (docs, query) => {
        const ours = new Bm25(docs).scores(query);
        const ref = referenceScores(docs, query);
        ref.forEach((r, i) => expect(ours[i]).toBe(r)); // bit-identical: same float64 operation order
      }),
    );
  });

  it('a document sharing no token with the query scores exactly 0', () => {
    fc.assert(
      fc.property(corpus, fc.array(word, { minLength: 1, maxLength: 4 }), (docs, query) => {
        const scores = new Bm25(docs).scores(query);
        docs.forEach((d, i) => {
          if (!d.some((t) => query.includes(t))) expect(scores[i]).toBe(0);
        });
      }),
    );
  });
});

describe('Bm25 on a corpus past its initial array sizes', () => {
  it('matches the literal formula with a vocabulary over 1,024 terms and over 4,096 (doc, term) pairs, from arrays or streamed', () => {
    let seed = 7;
    const next = (m: number): number => {
      // a fixed LCG
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return Math.floor((seed / 2 ** 31) * m);
    };
    const docs = Array.from({ length: 60 }, () => Array.from({ length: next(160) }, () => `w${next(3000)}`));
    const query = ['w1', 'w2', 'w2999', 'w17', 'nope'];
    const ref = referenceScores(docs, query);
    const fromArrays = new Bm25(docs).scores(query);
    const streamed = new Bm25(termIdsOfTokens(docs.length, (d) => docs[d]!)).scores(query);
    expect(new Set(docs.flat()).size).toBeGreaterThan(1024);
    expect(docs.flat().length).toBeGreaterThan(4096);
    ref.forEach((r, i) => {
      expect(fromArrays[i]).toBe(r);
      expect(streamed[i]).toBe(r);
    });
  });

  it('matches the literal formula when the vocabulary passes its array sizes one new term per document', () => {
    const docs = Array.from({ length: 2100 }, (_, d) => ['common', `t${d}`, 'common', `x${d % 7}`]);
    for (const query of [
      ['common', 't1500', 'x3'],
      ['t2099', 't0', 't1023', 't1024', 't1025', 't2047', 't2048'],
    ]) {
      const ref = referenceScores(docs, query);
      const ours = new Bm25(docs).scores(query);
      ref.forEach((r, i) => expect(ours[i]).toBe(r));
    }
  });
});

describe('tokenizers', () => {
  it('whitespace = Python str.split(" ") (empty strings kept, case kept)', () => {
    // Expected values are Python 3 outputs of s.split(" ").
    expect(whitespaceTokenizer('a  b')).toEqual(['a', '', 'b']);
    expect(whitespaceTokenizer(' a b ')).toEqual(['', 'a', 'b', '']);
    expect(whitespaceTokenizer('')).toEqual(['']);
    expect(whitespaceTokenizer('  ')).toEqual(['', '', '']);
    expect(whitespaceTokenizer('Tab\tand\nnewline stay')).toEqual(['Tab\tand\nnewline', 'stay']);
    expect(whitespaceTokenizer('What did I buy?')).toEqual(['What', 'did', 'I', 'buy?']);
  });

  it('simple (the earlier default): lowercase word tokens, CJK characters one by one, optional stopwords', () => {
    expect(simpleTokenizer()('Hello, World! café naïve 2023')).toEqual(['hello', 'world', 'café', 'naïve', '2023']);
    expect(simpleTokenizer()('我喜欢猫 abc中文')).toEqual(['我', '喜', '欢', '猫', 'abc', '中', '文']);
    expect(makeTokenizer('simple', { stopwords: true })('What did Caroline buy at the store?')).toEqual([
      'caroline',
      'buy',
      'store',
    ]);
  });

  it('Bm25Index tokenizes queries like documents', () => {
    const idx = new Bm25Index(['The Cat sat', 'a dog ran', '猫在睡觉'], { tokenizer: 'default' });
    const s = idx.scores('cat 猫');
    expect(s[0]).toBeGreaterThan(0);
    expect(s[1]).toBe(0);
    expect(s[2]).toBeGreaterThan(0);
    const ws = new Bm25Index(['The Cat sat', 'a dog ran'], { tokenizer: 'whitespace' });
    expect(ws.scores('cat')[0]).toBe(0); // case-sensitive, like the official script
  });

  it('default is the standard analyser: stems, strips possessives, matches across forms', () => {
    expect(defaultTokenizer()("My cat's toys")).toEqual(['my', 'cat', 'toy']);
    const idx = new Bm25Index(['My sister bought a red car.', 'I went running yesterday.', 'Lunch was good.'], {
      stopwords: true,
    });
    const s = idx.scores("What colour is my sister's car?");
    expect(s[0]).toBeGreaterThan(0);
    expect(s[1]).toBe(0);
    // The old tokenizer (no stemming) is still available by name.
    expect(
      new Bm25Index(['I run daily', 'nothing here', 'or here'], { tokenizer: 'simple' }).scores('running')[0],
    ).toBe(0);
    expect(
      new Bm25Index(['I run daily', 'nothing here', 'or here'], { tokenizer: 'default' }).scores('running')[0],
    ).toBeGreaterThan(0);
  });
});

describe('rankIndices tie order', () => {
  const scores = [1, 3, 3, 0, 3];
  it('position: earlier unit first among equal scores', () => {
    expect(rankIndices(scores, 5)).toEqual([1, 2, 4, 0, 3]);
  });
  it('reverse: later unit first, like np.argsort(scores)[::-1] with a stable sort', () => {
    expect(rankIndices(scores, 5, { tieBreak: 'reverse' })).toEqual([4, 2, 1, 0, 3]);
  });
  it('k and dropZero', () => {
    expect(rankIndices(scores, 2)).toEqual([1, 2]);
    expect(rankIndices(scores, 10, { dropZero: true })).toEqual([1, 2, 4, 0]);
    expect(rankIndices([Number.NaN, 1], 2)).toEqual([1, 0]);
  });
});
