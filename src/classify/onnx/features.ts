/**
 * The hashed n-gram features the trainable ONNX classifier reads (its input contract; README "ONNX classifier").
 * A question becomes a float vector of `dim` entries: word 1–2-grams and character 3–5-grams, each hashed with
 * 32-bit FNV-1a (over the UTF-8 bytes of a prefixed feature string) modulo `dim`, set to 1 (binary presence), then
 * L2-normalised. Feature hashing follows Weinberger et al. 2009 ("Feature hashing for large scale multitask
 * learning"), without the sign hash so a reader in any language can rebuild the vector from this description alone.
 *
 * Versions (the spec travels in the model file's metadata, so old files keep working):
 * - `adaptmr-hash-v1`: the `dim` hashed entries only.
 * - `adaptmr-hash-v2`: the same `dim` entries, then one entry per rules cue listed in `cues` (ids
 *   `<type>:<pattern source>` of src/classify/rules.ts, both languages), 1 when that cue matches the question and 0
 *   otherwise (not normalised) — the rules' knowledge as features the model weighs. Width = dim + cues.length.
 * - `adaptmr-hash-v3`: v2 (the hashed block may be empty, `dim` 0), then the question's sentence vector from the
 *   offline embedder `wordVectors.embedder` (src/index/embedders/wink-sif.ts: SIF-weighted mean of the wink GloVe
 *   word vectors, Arora et al. 2017, plus its hashed buckets for Chinese and unknown words; unit length, the zero
 *   vector for a text with no representable word) times `wordVectors.scale`. Width = dim + cues.length +
 *   wordVectors.dim. The same function (`sparseRow`) builds training and inference rows, so the ONNX graph only
 *   ever sees this dense vector; the word vectors are loaded on the first v3 row (wink-vectors.ts cache).
 */
import {
  LazyWinkSifEmbedder,
  WINK_SIF_ID,
  createWinkSifEmbedder,
  type WinkSifEmbedder,
} from '../../index/embedders/wink-sif.ts';
import { cueIds, matchCues } from '../rules.ts';

export interface FeatureSpecV1 {
  /** Identifies this contract; bump when any step below changes. */
  version: 'adaptmr-hash-v1';
  dim: number;
  wordNgrams: [number, number];
  charNgrams: [number, number];
}

export interface FeatureSpecV2 extends Omit<FeatureSpecV1, 'version'> {
  version: 'adaptmr-hash-v2';
  /** Rules cue ids, in feature order after the hashed block. */
  cues: string[];
}

export interface FeatureSpecV3 extends Omit<FeatureSpecV2, 'version'> {
  version: 'adaptmr-hash-v3';
  /** The sentence-vector block after the cues. */
  wordVectors: { embedder: string; dim: number; scale: number };
}

export type FeatureSpec = FeatureSpecV1 | FeatureSpecV2 | FeatureSpecV3;

/** The embedder a v3 spec may name (its id pins the vectors, the SIF weights and the Chinese hashing). */
export const WORD_VECTOR_EMBEDDER = WINK_SIF_ID;

export const DEFAULT_FEATURE_SPEC: FeatureSpecV1 = {
  version: 'adaptmr-hash-v1',
  dim: 1 << 15,
  wordNgrams: [1, 2],
  charNgrams: [3, 5],
};

/** v2 with every current rules cue. */
export function specWithCues(base: Omit<FeatureSpecV1, 'version'> = DEFAULT_FEATURE_SPEC): FeatureSpecV2 {
  return {
    version: 'adaptmr-hash-v2',
    dim: base.dim,
    wordNgrams: base.wordNgrams,
    charNgrams: base.charNgrams,
    cues: cueIds(),
  };
}

/** v3: `base` n-grams (dim 0 = none), every current rules cue or none, and the word-vector block times `scale`. */
export function specWithWordVectors(
  base: Omit<FeatureSpecV1, 'version'> = DEFAULT_FEATURE_SPEC,
  opts: { cues?: boolean; scale?: number } = {},
): FeatureSpecV3 {
  const wv = new LazyWinkSifEmbedder();
  return {
    version: 'adaptmr-hash-v3',
    dim: base.dim,
    wordNgrams: base.wordNgrams,
    charNgrams: base.charNgrams,
    cues: opts.cues === false ? [] : cueIds(),
    wordVectors: { embedder: wv.id, dim: wv.dim, scale: opts.scale ?? 1 },
  };
}

/** Cue ids of a spec (none for v1). */
export function specCues(spec: FeatureSpec): readonly string[] {
  return spec.version === 'adaptmr-hash-v1' ? [] : spec.cues;
}

/** Length of a feature row. */
export function featureWidth(spec: FeatureSpec): number {
  return spec.dim + specCues(spec).length + (spec.version === 'adaptmr-hash-v3' ? spec.wordVectors.dim : 0);
}

let sif: WinkSifEmbedder | undefined;
/** The process's word-vector embedder for v3 rows, loaded on first use (~0.2 s from the binary cache). */
function sifEmbedder(spec: FeatureSpecV3): WinkSifEmbedder {
  if (spec.wordVectors.embedder !== WORD_VECTOR_EMBEDDER)
    throw new Error(
      `feature spec names word vectors ${JSON.stringify(spec.wordVectors.embedder)}; this version has ${WORD_VECTOR_EMBEDDER}`,
    );
  sif ??= createWinkSifEmbedder();
  if (sif.dim !== spec.wordVectors.dim)
    throw new Error(
      `feature spec says ${spec.wordVectors.dim} word-vector dimensions; ${WORD_VECTOR_EMBEDDER} has ${sif.dim}`,
    );
  return sif;
}

/** NFKC, lower case, whitespace runs collapsed to one space, trimmed. */
export function normaliseText(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/gu, ' ').trim();
}

/**
 * Word tokens: every Han character is a token of its own (Chinese has no spaces, and one character is the
 * unit the plan's Chinese cues use), any other run of letters, digits or apostrophes is one token.
 */
export function wordTokens(normalised: string): string[] {
  return normalised.match(/\p{Script=Han}|[\p{L}\p{N}']+/gu) ?? [];
}

const encoder = new TextEncoder();

/** 32-bit FNV-1a over the UTF-8 bytes (offset basis 2166136261, prime 16777619), as an unsigned integer. */
export function fnv1a32(text: string): number {
  let h = 0x811c9dc5;
  for (const byte of encoder.encode(text)) {
    h ^= byte;
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** The feature strings of a text: `w:<n words joined by one space>` and `c:<n chars>` over ` <text> `. */
export function featureStrings(text: string, spec: FeatureSpec = DEFAULT_FEATURE_SPEC): string[] {
  const norm = normaliseText(text);
  const out: string[] = [];
  const words = wordTokens(norm);
  for (let n = spec.wordNgrams[0]; n <= spec.wordNgrams[1]; n++) {
    for (let i = 0; i + n <= words.length; i++) out.push(`w:${words.slice(i, i + n).join(' ')}`);
  }
  // Code points, not UTF-16 units, so a character n-gram never splits a surrogate pair.
  const chars = [...` ${norm} `];
  for (let n = spec.charNgrams[0]; n <= spec.charNgrams[1]; n++) {
    for (let i = 0; i + n <= chars.length; i++) out.push(`c:${chars.slice(i, i + n).join('')}`);
  }
  return out;
}

/** Sparse form: sorted distinct indices, each with value 1/sqrt(count of distinct indices) (binary, L2 = 1). */
export function sparseFeatures(
  text: string,
  spec: FeatureSpec = DEFAULT_FEATURE_SPEC,
): { indices: Int32Array; value: number } {
  const set = new Set<number>();
  if (spec.dim === 0) return { indices: new Int32Array(0), value: 0 };
  for (const f of featureStrings(text, spec)) set.add(fnv1a32(f) % spec.dim);
  const indices = Int32Array.from([...set].sort((a, b) => a - b));
  return { indices, value: indices.length ? 1 / Math.sqrt(indices.length) : 0 };
}

export interface SparseRow {
  indices: Int32Array;
  values: Float32Array;
}

/**
 * A whole feature row in sparse form: the hashed block, then (v2, v3) the matched cues at dim + position, then (v3)
 * the non-zero entries of the scaled sentence vector at dim + cues + j. Training and inference both build rows here.
 */
export function sparseRow(text: string, spec: FeatureSpec = DEFAULT_FEATURE_SPEC): SparseRow {
  const hashed = sparseFeatures(text, spec);
  const cues = specCues(spec);
  const cueIdx: number[] = [];
  if (cues.length > 0) {
    const matched = new Set(matchCues(text).cues);
    cues.forEach((c, j) => {
      if (matched.has(c)) cueIdx.push(spec.dim + j);
    });
  }
  const wvIdx: number[] = [];
  const wvVal: number[] = [];
  if (spec.version === 'adaptmr-hash-v3') {
    const v = sifEmbedder(spec).embedOne(text);
    const base = spec.dim + cues.length;
    v.forEach((x, j) => {
      if (x !== 0) {
        wvIdx.push(base + j);
        wvVal.push(x * spec.wordVectors.scale);
      }
    });
  }
  const indices = Int32Array.from([...hashed.indices, ...cueIdx, ...wvIdx]);
  const values = new Float32Array(indices.length);
  values.fill(hashed.value, 0, hashed.indices.length);
  values.fill(1, hashed.indices.length, hashed.indices.length + cueIdx.length);
  values.set(wvVal, hashed.indices.length + cueIdx.length);
  return { indices, values };
}

/** Dense rows for a batch, laid out row-major as the ONNX input `features` [N, width]. */
export function denseFeatures(texts: readonly string[], spec: FeatureSpec = DEFAULT_FEATURE_SPEC): Float32Array {
  const width = featureWidth(spec);
  const out = new Float32Array(texts.length * width);
  texts.forEach((text, row) => {
    const { indices, values } = sparseRow(text, spec);
    indices.forEach((i, j) => {
      out[row * width + i] = values[j] ?? 0;
    });
  });
  return out;
}
