/**
 * Okapi BM25 that reproduces `rank_bm25.BM25Okapi` (dorianbrown/rank_bm25, `rank_bm25.py`) score for score, the
 * implementation the official LongMemEval BM25 baseline uses:
 *
 *   idf(t)   = ln(N − n_t + 0.5) − ln(n_t + 0.5); every negative idf is replaced by ε·mean(idf) (ε = 0.25), the
 *              mean taken over the whole vocabulary *before* the replacement;
 *   score(d) = Σ_{q in query tokens, repeats counted} idf(q) · tf·(k1+1) / (tf + k1·(1 − b + b·|d|/avgdl)),
 *              k1 = 1.5, b = 0.75, avgdl = mean document length in tokens.
 *
 * Weights are precomputed per (term, doc) in inverted postings (CSR typed arrays), as rank_bm25 ≥ 0.3 precomputes
 * its CSC score matrix, so a query touches only its own terms' postings. Arithmetic follows rank_bm25's float64
 * order (`tf*(k1+1)/(tf+len_norm)` then `*idf`; query terms summed in query order), so scores are bit-identical
 * to its numpy path.
 */
import { z } from 'zod';
import { makeTokenizer, TokenizerNameSchema, type Tokenizer } from './tokenizers.ts';
import { termIdsOfSpaceSplit, termIdsOfTokens, type TermIdStream, type Vocabulary } from './vocabulary.ts';

export const Bm25OptionsSchema = z
  .object({
    k1: z.number().nonnegative().default(1.5),
    b: z.number().min(0).max(1).default(0.75),
    epsilon: z.number().default(0.25),
    /** `whitespace` = the official LongMemEval `split(" ")`; `default`/`standard` = the standard analyser (stemmed, Chinese segmented); `simple` = the earlier lowercase word tokens, CJK per character (tokenizers.ts). */
    tokenizer: TokenizerNameSchema.default('default'),
    /** Drop English stopwords (`standard`/`default` and `simple` tokenizers). */
    stopwords: z.boolean().default(false),
    /** Order of equal scores; see top-k.ts (`reverse` approximates numpy's `argsort()[::-1]`). */
    tieBreak: z.enum(['position', 'reverse']).default('position'),
  })
  .strict();
export type Bm25Options = z.input<typeof Bm25OptionsSchema>;
export type Bm25Settings = z.output<typeof Bm25OptionsSchema>;

export class Bm25 {
  readonly size: number;
  readonly avgdl: number;
  readonly averageIdf: number;
  private readonly vocab: Vocabulary;
  private readonly idfs: Float64Array;
  /** Postings of term t are entries postingStart[t] … postingStart[t+1]-1 of postingDoc / postingWeight. */
  private readonly postingStart: Int32Array;
  private readonly postingDoc: Int32Array;
  private readonly postingWeight: Float64Array;

  /**
   * Builds the index from tokenized documents: an array of token arrays (rank_bm25 takes a tokenized corpus too),
   * or the documents as term ids (vocabulary.ts), read once per document in order — so a document's tokens are
   * garbage as soon as they are counted, instead of every token of the corpus staying alive (and being copied by
   * each young-generation collection) until the index is built.
   */
  constructor(
    docs: readonly (readonly string[])[] | TermIdStream,
    readonly params: { k1: number; b: number; epsilon: number } = { k1: 1.5, b: 0.75, epsilon: 0.25 },
  ) {
    const { k1, b, epsilon } = params;
    const corpus: TermIdStream = 'termIds' in docs ? docs : termIdsOfTokens(docs.length, (d) => docs[d]!);
    const n = corpus.count;
    if (n === 0) throw new Error('BM25 needs at least one document (rank_bm25 divides by the corpus size)');
    this.size = n;
    const counts = countTerms(corpus);
    this.vocab = corpus.vocabulary;
    this.avgdl = counts.totalLen / n;
    const { idfs, averageIdf } = idfsOf(counts.docFreq, n, corpus.vocabulary.size, epsilon);
    this.averageIdf = averageIdf;
    this.idfs = idfs;
    const postings = invertedPostings(counts, idfs, corpus.vocabulary.size, { k1, b, avgdl: this.avgdl });
    this.postingStart = postings.start;
    this.postingDoc = postings.doc;
    this.postingWeight = postings.weight;
  }

  /** BM25 score of every document for a tokenized query (`BM25Okapi.get_scores`); unknown tokens add nothing. */
  scores(queryTokens: readonly string[]): Float64Array {
    const out = new Float64Array(this.size);
    for (const token of queryTokens) {
      const t = this.vocab.id(token);
      if (t === undefined) continue;
      for (let p = this.postingStart[t]!, end = this.postingStart[t + 1]!; p < end; p++) {
        out[this.postingDoc[p]!]! += this.postingWeight[p]!;
      }
    }
    return out;
  }

  /** The idf rank_bm25 would use for a token (0 for a token not in the corpus, as `self.idf.get(q) or 0`). */
  idf(token: string): number {
    const t = this.vocab.id(token);
    return t === undefined ? 0 : this.idfs[t]!;
  }
}

/** `to` with `from` copied into its start. */
function grown<T extends Int32Array | Float64Array>(from: T, to: T): T {
  to.set(from);
  return to;
}

/** A BM25 index over raw texts with its tokenizer, so queries are tokenized the same way as the documents. */
export class Bm25Index {
  readonly settings: Bm25Settings;
  readonly tokenize: Tokenizer;
  readonly bm25: Bm25;

  constructor(texts: readonly string[], options: Bm25Options = {}) {
    this.settings = Bm25OptionsSchema.parse(options);
    this.tokenize = makeTokenizer(this.settings.tokenizer, { stopwords: this.settings.stopwords });
    // The official whitespace tokenizer is read off the texts without token arrays (vocabulary.ts); the same tokens.
    const corpus =
      this.settings.tokenizer === 'whitespace'
        ? termIdsOfSpaceSplit(texts)
        : termIdsOfTokens(texts.length, (d) => this.tokenize(texts[d]!));
    this.bm25 = new Bm25(corpus, this.settings);
  }

  scores(query: string): Float64Array {
    return this.bm25.scores(this.tokenize(query));
  }
}

/** Term counts of a corpus: per term its document frequency, per (doc, term) pair its frequency, per doc its length. */
interface TermCounts {
  docFreq: Int32Array;
  /** Doc d's pairs are entries docTermStart[d] … docTermStart[d+1]-1 of flatTerm / flatTf. */
  docTermStart: Int32Array;
  flatTerm: Int32Array;
  flatTf: Float64Array;
  pairs: number;
  docLen: Float64Array;
  totalLen: number;
}

/** Counts every document's terms in one pass, reading each document once. */
function countTerms(corpus: TermIdStream): TermCounts {
  const n = corpus.count;
  // Typed arrays (no per-element boxing), doubled when full: per term (document frequency, and for counting term
  // frequencies without a per-document Map: lastDoc[t], the last document term t was seen in, and slot[t], its
  // entry in flatTf there) and per (doc, term) pair (doc d's pairs are docTermStart[d] … docTermStart[d+1]-1).
  let docFreq = new Int32Array(1024);
  let lastDoc = new Int32Array(1024).fill(-1);
  let slot = new Int32Array(1024);
  let flatTerm = new Int32Array(4096);
  let flatTf = new Float64Array(4096);
  const docTermStart = new Int32Array(n + 1);
  let pairs = 0;
  const docLen = new Float64Array(n);
  let totalLen = 0;
  for (let d = 0; d < n; d++) {
    const { ids, length } = corpus.termIds(d);
    docLen[d] = length;
    totalLen += length;
    if (pairs + length > flatTerm.length) {
      const size = Math.max(2 * flatTerm.length, pairs + length);
      flatTerm = grown(flatTerm, new Int32Array(size));
      flatTf = grown(flatTf, new Float64Array(size));
    }
    // Ids are numbered in order of first occurrence, so a new one is at most one past the arrays' end.
    const seen = corpus.vocabulary.size;
    if (seen > docFreq.length) {
      const size = Math.max(2 * docFreq.length, seen);
      docFreq = grown(docFreq, new Int32Array(size));
      lastDoc = grown(lastDoc, new Int32Array(size).fill(-1));
      slot = grown(slot, new Int32Array(size));
    }
    for (let i = 0; i < length; i++) {
      const id = ids[i]!;
      if (lastDoc[id] !== d) {
        lastDoc[id] = d;
        slot[id] = pairs;
        docFreq[id]! += 1;
        flatTerm[pairs] = id;
        flatTf[pairs] = 1;
        pairs++;
      } else {
        flatTf[slot[id]!]! += 1;
      }
    }
    docTermStart[d + 1] = pairs;
  }
  return { docFreq, docTermStart, flatTerm, flatTf, pairs, docLen, totalLen };
}

/** idf exactly as BM25Okapi._calc_idf (math.log is the natural log), summed in first-occurrence order as its dict. */
function idfsOf(
  docFreq: Int32Array,
  n: number,
  v: number,
  epsilon: number,
): { idfs: Float64Array; averageIdf: number } {
  const idfs = new Float64Array(v);
  let idfSum = 0;
  for (let t = 0; t < v; t++) {
    const df = docFreq[t]!;
    const idf = Math.log(n - df + 0.5) - Math.log(df + 0.5);
    idfs[t] = idf;
    idfSum += idf;
  }
  const averageIdf = v > 0 ? idfSum / v : 0;
  const eps = epsilon * averageIdf;
  for (let t = 0; t < v; t++) if (idfs[t]! < 0) idfs[t] = eps;
  return { idfs, averageIdf };
}

/** Inverted postings (counting sort by term), weights precomputed like rank_bm25's score matrix. */
function invertedPostings(
  c: TermCounts,
  idfs: Float64Array,
  v: number,
  p: { k1: number; b: number; avgdl: number },
): { start: Int32Array; doc: Int32Array; weight: Float64Array } {
  const { k1, b, avgdl } = p;
  const start = new Int32Array(v + 1);
  for (let t = 0; t < v; t++) start[t + 1] = start[t]! + c.docFreq[t]!;
  const fill = start.slice(0, v);
  const doc = new Int32Array(c.pairs);
  const weight = new Float64Array(c.pairs);
  for (let d = 0; d < c.docLen.length; d++) {
    // numpy: k1 * (1 - b + b * doc_len / avgdl), with `b * doc_len` evaluated first.
    const lenNorm = k1 * (1 - b + (b * c.docLen[d]!) / avgdl);
    for (let j = c.docTermStart[d]!; j < c.docTermStart[d + 1]!; j++) {
      const t = c.flatTerm[j]!;
      const tf = c.flatTf[j]!;
      const i = fill[t]!++;
      doc[i] = d;
      weight[i] = ((tf * (k1 + 1)) / (tf + lenNorm)) * idfs[t]!;
    }
  }
  return { start, doc, weight };
}
