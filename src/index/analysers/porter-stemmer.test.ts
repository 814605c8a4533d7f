// NLTK-compatible Porter stemming, checked word for word against NLTK 3.10.3 output on LoCoMo's vocabulary
// (questions, answers and all turns of locomo10.json) plus the examples of Porter's paper. The fixture was made
// with `PorterStemmer().stem(w)` from the nltk 3.10.3 wheel.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { porterStem } from './porter-stemmer.ts';

const pairs = readFileSync(new URL('./fixtures/porter-nltk-3.10.3.txt', import.meta.url), 'utf8')
  .split('\n')
  .filter((l) => l !== '')
  .map((l) => l.split(' ') as [string, string]);

describe('porterStem', () => {
  it('matches NLTK on every fixture word', () => {
    expect(pairs.length).toBeGreaterThan(5000);
    const wrong = pairs.filter(([w, s]) => porterStem(w) !== s).map(([w, s]) => `${w}: ${porterStem(w)} ≠ ${s}`);
    expect(wrong).toEqual([]);
  });

  it('follows NLTK where the original algorithm differs', () => {
    expect(porterStem('day')).toBe('day');
    expect(porterStem('dying')).toBe('die');
    expect(porterStem('are')).toBe('are');
    expect(porterStem('generously')).toBe('gener');
    expect(porterStem('Running')).toBe('run');
  });
});
