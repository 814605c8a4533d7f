/**
 * Answer metrics for LoCoMo: token F1 exactly as LoCoMo's own evaluation computes it, and Mem0's token F1 and
 * BLEU-1 as Mem0's evaluation computes them.
 *
 * LoCoMo F1 — snap-research/locomo `task_eval/evaluation.py` (commit 92286325a40764bee61f77824ddb95233b11c4d6):
 * - `normalize_answer`: drop commas, lower-case, drop ASCII punctuation (`string.punctuation`), replace the words
 *   a / an / the / and by a space, collapse whitespace;
 * - `f1_score`: Porter-stem every token (NLTK's PorterStemmer, src/index/analysers/porter-stemmer.ts), multiset overlap,
 *   F1 = 2PR/(P+R), 0 when nothing overlaps;
 * - `eval_question_answering`: category 3 keeps the gold answer up to its first `;`; categories 2, 3, 4 use
 *   `f1_score`; category 1 (multi-hop) uses `f1`: prediction and gold are split on `,`, and the score is the mean
 *   over gold parts of the best F1 against any prediction part; category 5 (adversarial) scores 1 when the
 *   prediction contains "no information available" or "not mentioned" (case-insensitive), else 0.
 *
 * BLEU-1 — mem0ai/mem0 `evaluation/metrics/utils.py` (commit 240dc10a9708c209afa7760c33cfab75e536a6c8),
 * `calculate_metrics` → `calculate_bleu_scores`: 0 when either string is empty; both `.strip()`ed; tokens =
 * `nltk.word_tokenize(text.lower())`; `sentence_bleu([ref], hyp, weights=(1,0,0,0),
 * smoothing_function=SmoothingFunction().method1)`. With those weights the smoothing never matters (it only
 * rescues zero higher-order precisions, which weigh 0), so BLEU-1 = BP × clipped unigram precision, and NLTK
 * returns 0 when no unigram matches. BP = 1 if the hypothesis is longer than the reference, else exp(1 − r/c).
 * Tokens follow NLTK 3.8.1 by default (src/eval/qa/nltk-tokenize.ts says how 3.10.3 differs).
 *
 * Mem0 F1 — the same file (unchanged at d85fcda0378e3e2ba8772705b075049484bd8fa8, the last commit before Mem0 moved
 * its evaluation out of the repo), `calculate_metrics` with `simple_tokenize`: 0 when either string is empty; both
 * `.strip()`ed; tokens = `text.lower()` with `.` `,` `!` `?` replaced by spaces, split on whitespace; **sets** (not
 * multisets) of tokens; precision = |common| / |pred set|, recall = |common| / |ref set|, F1 = 2PR/(P+R), 0 when
 * either set is empty or nothing overlaps. No stemming, no article removal — so it differs from LoCoMo's F1.
 */
import { DEFAULT_NLTK_VERSION, type NltkVersion, wordTokenize } from './nltk-tokenize.ts';
import { porterStem } from '../../index/analysers/porter-stemmer.ts';

const PUNCTUATION = new Set('!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~');
const WORD = '[\\p{L}\\p{N}\\p{M}_]';
// Python's `\b` is Unicode-aware; JavaScript's is not, so the boundaries are spelled out.
const ARTICLES = new RegExp(`(?<!${WORD})(?:a|an|the|and)(?!${WORD})`, 'gu');

/** LoCoMo `normalize_answer`. */
export function normalizeLocomoAnswer(s: string): string {
  let t = s.replaceAll(',', '').toLowerCase();
  t = [...t].filter((ch) => !PUNCTUATION.has(ch)).join('');
  t = t.replace(ARTICLES, ' ');
  return t
    .split(/\s+/u)
    .filter((x) => x !== '')
    .join(' ');
}

function stemmedTokens(s: string): string[] {
  const n = normalizeLocomoAnswer(s);
  return n === '' ? [] : n.split(' ').map(porterStem);
}

/** LoCoMo `f1_score(prediction, ground_truth)`. */
export function locomoTokenF1(prediction: string, groundTruth: string): number {
  const p = stemmedTokens(prediction);
  const g = stemmedTokens(groundTruth);
  const counts = new Map<string, number>();
  for (const t of g) counts.set(t, (counts.get(t) ?? 0) + 1);
  let same = 0;
  for (const t of p) {
    const c = counts.get(t) ?? 0;
    if (c > 0) {
      same++;
      counts.set(t, c - 1);
    }
  }
  if (same === 0) return 0;
  const precision = same / p.length;
  const recall = same / g.length;
  return (2 * precision * recall) / (precision + recall);
}

/** LoCoMo `f1(prediction, ground_truth)`: the multi-answer F1 used for category 1. */
export function locomoMultiAnswerF1(prediction: string, groundTruth: string): number {
  const preds = prediction.split(',').map((x) => x.trim());
  const golds = groundTruth.split(',').map((x) => x.trim());
  let sum = 0;
  for (const g of golds) sum += Math.max(...preds.map((p) => locomoTokenF1(p, g)));
  return sum / golds.length;
}

/** The phrases LoCoMo accepts as an abstention on category-5 (adversarial) questions. */
export const LOCOMO_ABSTENTION_PHRASES = ['no information available', 'not mentioned'] as const;

/**
 * LoCoMo's per-question score by category (`eval_question_answering`, metric f1). `category` is LoCoMo's raw
 * number; `answer` is the gold answer as a string (LoCoMo does `str(line['answer'])`; unused for category 5).
 */
export function locomoAnswerScore(prediction: string, answer: string, category: number): number {
  switch (category) {
    case 1:
      return locomoMultiAnswerF1(prediction, answer);
    case 2:
    case 4:
      return locomoTokenF1(prediction, answer);
    case 3:
      return locomoTokenF1(prediction, (answer.split(';')[0] ?? '').trim());
    case 5: {
      const lower = prediction.toLowerCase();
      return LOCOMO_ABSTENTION_PHRASES.some((p) => lower.includes(p)) ? 1 : 0;
    }
    default:
      throw new RangeError(`LoCoMo category must be 1–5, got ${category}`);
  }
}

/** Mem0's `simple_tokenize`. Python's `str.split()` splits on Unicode whitespace runs, as `\s+` does. */
export function mem0SimpleTokenize(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[.,!?]/gu, ' ')
    .split(/\s+/u)
    .filter((t) => t !== '');
}

/** Mem0's token F1 (`calculate_metrics` → `f1`; see the file header). */
export function mem0TokenF1(prediction: string, reference: string): number {
  if (prediction === '' || reference === '') return 0;
  const pred = new Set(mem0SimpleTokenize(prediction.trim()));
  const ref = new Set(mem0SimpleTokenize(reference.trim()));
  if (pred.size === 0 || ref.size === 0) return 0;
  let common = 0;
  for (const t of pred) if (ref.has(t)) common++;
  if (common === 0) return 0;
  const precision = common / pred.size;
  const recall = common / ref.size;
  return (2 * precision * recall) / (precision + recall);
}

/** BLEU-1 as Mem0's `calculate_metrics` computes it (see the file header), tokenised as NLTK `version` does. */
export function bleu1(prediction: string, reference: string, version: NltkVersion = DEFAULT_NLTK_VERSION): number {
  if (prediction === '' || reference === '') return 0;
  const hyp = wordTokenize(prediction.trim().toLowerCase(), version);
  const ref = wordTokenize(reference.trim().toLowerCase(), version);
  const refCounts = new Map<string, number>();
  for (const t of ref) refCounts.set(t, (refCounts.get(t) ?? 0) + 1);
  const hypCounts = new Map<string, number>();
  for (const t of hyp) hypCounts.set(t, (hypCounts.get(t) ?? 0) + 1);
  let clipped = 0;
  for (const [t, c] of hypCounts) clipped += Math.min(c, refCounts.get(t) ?? 0);
  if (clipped === 0) return 0;
  const c = hyp.length;
  const r = ref.length;
  const bp = c > r ? 1 : Math.exp(1 - r / c);
  return bp * (clipped / c);
}
