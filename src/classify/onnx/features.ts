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
 */
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

export type FeatureSpec = FeatureSpecV1 | FeatureSpecV2;

export const DEFAULT_FEATURE_SPEC: FeatureSpecV1 = { version: 'adaptmr-hash-v1', dim: 1 << 15, wordNgrams: [1, 2], charNgrams: [3, 5] };

/** v2 with every current rules cue. */
export function specWithCues(base: Omit<FeatureSpecV1, 'version'> = DEFAULT_FEATURE_SPEC): FeatureSpecV2 {
  return { version: 'adaptmr-hash-v2', dim: base.dim, wordNgrams: base.wordNgrams, charNgrams: base.charNgrams, cues: cueIds() };
}

/** Length of a feature row. */
export function featureWidth(spec: FeatureSpec): number {
  return spec.dim + (spec.version === 'adaptmr-hash-v2' ? spec.cues.length : 0);
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
export function sparseFeatures(text: string, spec: FeatureSpec = DEFAULT_FEATURE_SPEC): { indices: Int32Array; value: number } {
  const set = new Set<number>();
  for (const f of featureStrings(text, spec)) set.add(fnv1a32(f) % spec.dim);
  const indices = Int32Array.from([...set].sort((a, b) => a - b));
  return { indices, value: indices.length ? 1 / Math.sqrt(indices.length) : 0 };
}

export interface SparseRow {
  indices: Int32Array;
  values: Float32Array;
}

/** A whole feature row in sparse form: the hashed block, then (v2) the matched cues at dim + position. */
export function sparseRow(text: string, spec: FeatureSpec = DEFAULT_FEATURE_SPEC): SparseRow {
  const hashed = sparseFeatures(text, spec);
  const cueIdx: number[] = [];
  if (spec.version === 'adaptmr-hash-v2') {
    const matched = new Set(matchCues(text).cues);
    spec.cues.forEach((c, j) => {
      if (matched.has(c)) cueIdx.push(spec.dim + j);
    });
  }
  const indices = Int32Array.from([...hashed.indices, ...cueIdx]);
  const values = new Float32Array(indices.length);
  values.fill(hashed.value, 0, hashed.indices.length);
  values.fill(1, hashed.indices.length);
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
