// namedWords / extractEntities decide "not at a sentence start" by the character before a word; the linear scan that
// replaced the per-word regex over the whole prefix must give the same words on any text (property test against
// the earlier definition, including Unicode spaces, quotes and Chinese).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ENGLISH_STOPWORDS } from '../index/tokenizers.ts';
import { normaliseEnglish } from '../index/analysers/index.ts';
import { extractEntities, namedWords } from './text.ts';

const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu;

/** namedWords as first written (regex on the prefix), English part only. */
function namedEnglishReference(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(WORD)) {
    const w = m[0];
    if (!/^\p{Lu}/u.test(w) || /\p{Script=Han}/u.test(w)) continue;
    if (m.index === 0 || /[.?!:;"“]\s*$/u.test(text.slice(0, m.index))) continue;
    const lower = normaliseEnglish(w.toLowerCase());
    if (lower.length >= 3 && !ENGLISH_STOPWORDS.has(lower)) out.add(lower);
  }
  return [...out];
}

const piece = fc.constantFrom('Alice', 'Bob', 'New', 'York', 'moved', 'to', 'the', 'Hangzhou', '.', '?', '!', ':', ';', '"', '“', ' ', '  ', '\n', '\u00a0', '\u3000', '\t', 'x', '杭州', 'Dr', '’s');

describe('namedWords', () => {
  it('matches the regex definition of "not after sentence punctuation" on any text', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (parts) => {
        const text = parts.join('');
        const english = namedWords(text).filter((w) => !/\p{Script=Han}/u.test(w));
        expect(english).toEqual(namedEnglishReference(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps names after a comma and drops capitalised words after sentence punctuation', () => {
    expect(namedWords('We met Alice. Then Bob, Carol and “Dave” came; Erin too')).toEqual(['alice', 'bob', 'carol']);
  });

  it('extractEntities takes capitalised phrases only off sentence starts', () => {
    expect(extractEntities('When did I visit New York City?')).toContain('new york citi');
    expect(extractEntities('New York. Where is it?')).not.toContain('new york');
  });
});
