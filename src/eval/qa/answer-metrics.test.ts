// LoCoMo token F1, Mem0 token F1 and Mem0 BLEU-1: hand-computed golden values, and the tokenizer checked against
// NLTK's output for both versions it reproduces.
//
// Fixtures: treebank-nltk-3.10.3.jsonl — NLTKWordTokenizer of the nltk 3.10.3 wheel (generated outside the repo).
// treebank-nltk-3.8.1.jsonl — the same inputs plus quote/dash/whitespace edge cases, tokenised by running
// `nltk/tokenize/destructive.py` from nltk/nltk tag 3.8.1 (commit 63a63b1a7793aceceb1efc23bc1fd87e7095f9d5) under
// CPython 3.11 with its two nltk-internal imports (`TokenizerI`, `align_tokens`, unused by `tokenize`) stubbed.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  bleu1,
  locomoAnswerScore,
  mem0SimpleTokenize,
  mem0TokenF1,
  locomoMultiAnswerF1,
  locomoTokenF1,
  normalizeLocomoAnswer,
} from './answer-metrics.ts';
import { type NltkVersion, splitSentences, treebankTokenize, wordTokenize } from './nltk-tokenize.ts';

describe('LoCoMo F1', () => {
  it('normalises like normalize_answer', () => {
    // commas dropped, lower-cased, punctuation dropped, a/an/the/and removed, whitespace collapsed
    expect(normalizeLocomoAnswer('The cat, and a dog!')).toBe('cat dog');
    expect(normalizeLocomoAnswer('7 May, 2023')).toBe('7 may 2023');
    expect(normalizeLocomoAnswer("Andrew's band")).toBe('andrews band');
    expect(normalizeLocomoAnswer('Theatre and Anna')).toBe('theatre anna');
  });

  it('stems then scores multiset overlap', () => {
    // [melani, went, run] vs [run]: P = 1/3, R = 1 → F1 = 0.5
    expect(locomoTokenF1('Melanie went running', 'running')).toBeCloseTo(0.5, 12);
    // [run, run] vs [run]: one common token (multiset) → P = 1/2, R = 1 → 2/3
    expect(locomoTokenF1('run runs', 'run')).toBeCloseTo(2 / 3, 12);
    expect(locomoTokenF1('Paris', 'London')).toBe(0);
    expect(locomoTokenF1('', 'London')).toBe(0);
    expect(locomoTokenF1('The Birthdays', 'birthday')).toBe(1);
  });

  it('category 1 averages over gold parts the best match among prediction parts', () => {
    // gold parts: bananas → 1, cherries → 0, apples → 1 → 2/3
    expect(locomoMultiAnswerF1('apples, bananas', 'bananas, cherries, apples')).toBeCloseTo(2 / 3, 12);
    expect(locomoAnswerScore('apples, bananas', 'bananas, cherries, apples', 1)).toBeCloseTo(2 / 3, 12);
  });

  it('category 3 keeps the gold answer up to the first ";"', () => {
    expect(locomoAnswerScore('Paris', 'Paris; because she likes the food', 3)).toBe(1);
    // no ';': gold [pari, becaus, she, like, food] ("the" dropped) → P = 1, R = 1/5 → F1 = 1/3
    expect(locomoAnswerScore('Paris', 'Paris because she likes the food', 3)).toBeCloseTo(1 / 3, 12);
  });

  it('category 5 scores the two abstention phrases only', () => {
    expect(locomoAnswerScore('That is NOT MENTIONED in the conversation.', '', 5)).toBe(1);
    expect(locomoAnswerScore('No information available.', '', 5)).toBe(1);
    expect(locomoAnswerScore("I don't know", '', 5)).toBe(0);
    expect(locomoAnswerScore('She went to Paris', 'Paris', 5)).toBe(0);
  });

  it('rejects unknown categories', () => {
    expect(() => locomoAnswerScore('x', 'x', 6)).toThrow(/1–5/);
  });
});

describe('Mem0 F1 (simple_tokenize, set overlap)', () => {
  it('tokenises: lower-case, . , ! ? to spaces, whitespace split; no stemming, articles kept', () => {
    expect(mem0SimpleTokenize("The cat's toys, e.g. balls!\tWhy?")).toEqual([
      'the',
      "cat's",
      'toys',
      'e',
      'g',
      'balls',
      'why',
    ]);
    expect(mem0SimpleTokenize('我 住在 杭州。')).toEqual(['我', '住在', '杭州。']);
  });

  it('scores set overlap', () => {
    // pred {she, went, running} vs ref {running}: P = 1/3, R = 1 → 0.5 (LoCoMo stems and gives the same here)
    expect(mem0TokenF1('She went running.', 'running')).toBeCloseTo(0.5, 12);
    // sets: {run} vs {run}: duplicates do not count twice → 1 (LoCoMo's multiset F1 gives 2/3)
    expect(mem0TokenF1('run run', 'run')).toBe(1);
    expect(locomoTokenF1('run run', 'run')).toBeCloseTo(2 / 3, 12);
    // no stemming: runs ≠ run → 0 (LoCoMo stems: 1)
    expect(mem0TokenF1('runs', 'run')).toBe(0);
    expect(locomoTokenF1('runs', 'run')).toBe(1);
    // articles are tokens: {the, birthdays} vs {birthdays}: P = 1/2, R = 1 → 2/3
    expect(mem0TokenF1('The birthdays', 'birthdays')).toBeCloseTo(2 / 3, 12);
    // "7 May, 2023" → {7, may, 2023}; "May 7" → {may, 7}: common 2, P = 1, R = 2/3 → 0.8
    expect(mem0TokenF1('May 7', '7 May, 2023')).toBeCloseTo(0.8, 12);
    expect(mem0TokenF1('', 'x')).toBe(0);
    expect(mem0TokenF1('...', 'x')).toBe(0);
    expect(mem0TokenF1('Paris', 'London')).toBe(0);
  });
});

describe('BLEU-1 (Mem0)', () => {
  it('matches sentence_bleu(weights=(1,0,0,0), method1) on hand-computed cases', () => {
    // 5 of 6 unigrams match (clipped), equal lengths → BP 1 → 5/6
    expect(bleu1('The cat sat on the mat', 'the cat is on the mat')).toBeCloseTo(5 / 6, 12);
    // 1 of 1 matches, c = 1 < r = 3 → BP = e^(1−3)
    expect(bleu1('cat', 'the cat sat')).toBeCloseTo(Math.exp(-2), 12);
    // 2 of 7, c > r → BP 1
    expect(bleu1('a b c d e f g', 'a b')).toBeCloseTo(2 / 7, 12);
    expect(bleu1('x', 'y')).toBe(0);
    expect(bleu1('', 'y')).toBe(0);
  });

  it('tokenises with word_tokenize (punctuation split off, lower-cased)', () => {
    // hyp [she, went, to, paris, .] vs ref [paris]: 1/5, c > r → 0.2
    expect(bleu1('She went to Paris.', 'Paris')).toBeCloseTo(0.2, 12);
  });

  it("uses NLTK 3.8.1 by default: a leading quote stays on the word ('poetry)", () => {
    // 3.8.1: hyp ['poetry, '] vs ref [poetry]: no match → 0. 3.10.3: [', poetry, '] → 1/3, c > r → 1/3.
    expect(bleu1("'Poetry'", 'poetry')).toBe(0);
    expect(bleu1("'Poetry'", 'poetry', '3.10.3')).toBeCloseTo(1 / 3, 12);
  });
});

describe('NLTK word tokenizer', () => {
  const fixture = (version: NltkVersion) =>
    readFileSync(new URL(`./fixtures/treebank-nltk-${version}.jsonl`, import.meta.url), 'utf8')
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as [string, string[]]);

  it.each(['3.8.1', '3.10.3'] as const)(
    'matches NLTKWordTokenizer %s on LoCoMo answers, questions and edge cases',
    (version) => {
      const cases = fixture(version);
      expect(cases.length).toBeGreaterThan(1000);
      const wrong = cases.filter(([t, toks]) => JSON.stringify(treebankTokenize(t, version)) !== JSON.stringify(toks));
      expect(
        wrong.map(([t, toks]) => `${t} → ${JSON.stringify(treebankTokenize(t, version))} ≠ ${JSON.stringify(toks)}`),
      ).toEqual([]);
    },
  );

  it('the two versions differ where NLTK changed (leading quotes, dashes, clitic before a tab)', () => {
    expect(treebankTokenize("the '16 finals")).toEqual(['the', "'16", 'finals']);
    expect(treebankTokenize("the '16 finals", '3.10.3')).toEqual(['the', "'", '16', 'finals']);
    expect(treebankTokenize("he said 'x'")).toEqual(['he', 'said', "'", 'x', "'"]);
    expect(treebankTokenize('a—b')).toEqual(['a—b']);
    expect(treebankTokenize('a—b', '3.10.3')).toEqual(['a', '—', 'b']);
    expect(treebankTokenize("it's\tfine")).toEqual(["it's", 'fine']);
    expect(treebankTokenize("it's\tfine", '3.10.3')).toEqual(['it', "'s", 'fine']);
  });

  it('splits sentences on full stops except after initials and abbreviations', () => {
    expect(splitSentences('i went home. then i slept.')).toEqual(['i went home.', ' then i slept.']);
    expect(splitSentences('mr. smith went to the u.s. yesterday.')).toEqual(['mr. smith went to the u.s. yesterday.']);
    expect(wordTokenize('i went home. then i slept.')).toEqual(['i', 'went', 'home', '.', 'then', 'i', 'slept', '.']);
  });
});

describe('against the reference implementations', () => {
  // 500 LoCoMo questions with gold answers, exact copies, hedged copies, other questions' answers, comma lists and
  // abstentions as predictions, scored by LoCoMo's `task_eval/evaluation.py` functions and Mem0's BLEU-1 (NLTK 3.10.3,
  // NLTKWordTokenizer; texts are single sentences, where Punkt does not split) — generated once, outside the repo.
  const cases = JSON.parse(
    readFileSync(new URL('./fixtures/locomo-scores-reference.json', import.meta.url), 'utf8'),
  ) as {
    category: number;
    gold: string;
    prediction: string;
    f1: number;
    bleu1: number;
  }[];

  it('reproduces LoCoMo F1 with its category rules on every case', () => {
    expect(cases).toHaveLength(500);
    const wrong = cases.filter((c) => Math.abs(locomoAnswerScore(c.prediction, c.gold, c.category) - c.f1) > 1e-12);
    expect(wrong).toEqual([]);
  });

  it('reproduces Mem0 BLEU-1 on every single-sentence case', () => {
    // The reference skipped Punkt (its model is data not shipped here), so compare only texts our splitter keeps
    // whole; the 3 multi-sentence cases ("… Panda. Mongrel …") are split by Punkt and by us alike.
    const single = (t: string) => splitSentences(t.trim().toLowerCase()).length <= 1;
    const comparable = cases.filter((c) => single(c.prediction) && single(c.gold));
    expect(comparable.length).toBeGreaterThan(490);
    const wrong = comparable.filter((c) => Math.abs(bleu1(c.prediction, c.gold, '3.10.3') - c.bleu1) > 1e-12);
    expect(wrong).toEqual([]);
  });
});
