/**
 * Answer length: o200k tokens (stored per answer, `answers.answer_tokens`) bucketed for the accuracy-by-length table,
 * and words for the reader prompts' own length instructions ("under 5-6 words"). Words are whitespace-separated
 * chunks, as the LoCoMo audit counts them (`len(answer.split())`, dial481/locomo-audit@9493fb4
 * methodology/scripts/word_count_analysis.py); a chunk holding CJK text counts its words by Intl.Segmenter instead,
 * since Chinese puts no spaces between words.
 */

/** Token buckets (inclusive maxima); the last is open. */
export const LENGTH_BUCKETS: readonly { label: string; max: number }[] = [
  { label: '1–5', max: 5 },
  { label: '6–10', max: 10 },
  { label: '11–20', max: 20 },
  { label: '21–50', max: 50 },
  { label: '51+', max: Number.POSITIVE_INFINITY },
];

export function lengthBucket(tokens: number): string {
  if (tokens <= 0) return 'empty';
  return LENGTH_BUCKETS.find((b) => tokens <= b.max)!.label;
}

const CJK = /[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uac00-\ud7af]/u;
let segmenter: Intl.Segmenter | undefined;

export function answerWords(text: string): number {
  let n = 0;
  for (const chunk of text.split(/\s+/u)) {
    if (chunk === '') continue;
    if (!CJK.test(chunk)) {
      n++;
      continue;
    }
    segmenter ??= new Intl.Segmenter('zh', { granularity: 'word' });
    for (const s of segmenter.segment(chunk)) if (s.isWordLike) n++;
  }
  return n;
}

/**
 * The most words a reader prompt asks for, where it says: the LoCoMo audit's `answer_prompt_memos` ("The answer must
 * be brief (under 5-6 words)") and Mem0's `answer_prompt_mem0` ("less than 5-6 words") — both read as 6
 * (dial481/locomo-audit@9493fb4 evaluation/config/prompts.yaml). LongMemEval's reader prompts and the CoT prompt give
 * no length, so no limit.
 */
export const READER_WORD_LIMITS: Readonly<Record<string, number>> = {
  answer_prompt_memos: 6,
  answer_prompt_mem0: 6,
};

/** Share of answers longer than the limit above which the report warns. */
export const LENGTH_WARNING_SHARE = 0.05;
