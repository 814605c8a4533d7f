// namedWords / extractEntities decide "not at a sentence start" by the character before a word; the linear scan that
// replaced the per-word regex over the whole prefix must give the same words on any text (property test against
// the earlier definition, including Unicode spaces, quotes and Chinese).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ENGLISH_STOPWORDS } from '../index/tokenizers.ts';
import { normaliseEnglish } from '../index/analysers/index.ts';
import { extractEntities, namedWords, normaliseWord, textKeys } from './text.ts';

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

const piece = fc.constantFrom(
  'Alice',
  'Bob',
  'New',
  'York',
  'moved',
  'to',
  'the',
  'Hangzhou',
  '.',
  '?',
  '!',
  ':',
  ';',
  '"',
  '“',
  ' ',
  '  ',
  '\n',
  '\u00a0',
  '\u3000',
  '\t',
  'x',
  '杭州',
  'Dr',
  '’s',
);

describe('namedWords', () => {
  it('matches the regex definition of "not after sentence punctuation" on any text', () => {
    fc.assert(
      fc.property(fc.string({ unit: piece, maxLength: 40 }), (text) => {
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

/** textKeys as first written: the text's own words, each normalised (before the lower-case-first scan). */
function textKeysReference(text: string): { words: string[]; lower: string } {
  const words = new Set<string>();
  for (const w of new Set(text.match(WORD))) words.add(normaliseWord(w));
  return { words: [...words], lower: text.toLowerCase() };
}
const keysOf = (text: string) => {
  const k = textKeys(text);
  return { words: [...k.words], lower: k.lower };
};

describe('textKeys', () => {
  it('lower-casing keeps the word boundaries: every code point keeps its length and word class, but İ', () => {
    const start = /^[\p{L}\p{N}]$/u;
    const inner = /^[\p{L}\p{N}'’-]$/u;
    const changed: string[] = [];
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const c = String.fromCodePoint(cp);
      const l = c.toLowerCase();
      if (l.length !== c.length || start.test(l) !== start.test(c) || inner.test(l) !== inner.test(c)) changed.push(c);
    }
    // The one exception is why textKeys checks the length (U+0130 → i + U+0307, a mark that ends a word).
    expect(changed).toEqual(['İ']);
  });

  const piece = fc.constantFrom(
    'The',
    'the',
    'THE',
    'Running',
    'runs',
    "cat's",
    'don’t',
    'well-known',
    'İstanbul',
    'ΟΔΟΣ',
    'Σ',
    '.',
    'Χ',
    ' ',
    '\n',
    '杭州',
    '我搬到',
    'Ñandú',
    'straße',
    'ǅ',
    '𐐀𐐨',
    '42',
  );
  it('gives the words and lower-cased text of the per-word definition on any text (English, Chinese, Greek sigma, İ)', () => {
    fc.assert(
      fc.property(fc.string({ unit: piece, maxLength: 30 }), (text) => {
        expect(keysOf(text)).toEqual(textKeysReference(text));
      }),
      { numRuns: 3000 },
    );
    for (const text of ['ΟΔΟΣ.Χ ΟΔΟΣ', 'İSTANBUL and Istanbul', 'The THE the'])
      expect(keysOf(text)).toEqual(textKeysReference(text));
  });

  // textKeys scans ASCII words itself and leaves a word with a non-ASCII code unit in or next to it to the regex:
  // the pieces put every kind of code unit at a word's start, middle and end.
  const edge = fc.constantFrom(
    'cafe',
    'e\u0301',
    '\u0301',
    'é',
    'É',
    '😀',
    '𠀀',
    '\ud83d',
    '\udc00',
    '-',
    "'",
    '’',
    '“',
    '\u00a0',
    'a-',
    "x'",
    'b’',
    ',',
    '_',
    '9',
    'Z',
    '我',
    'ǅ',
    'Ⅻ',
    '²',
    ' ',
  );
  it('gives the regex words next to non-ASCII letters, marks, digits, symbols and lone surrogates', () => {
    fc.assert(
      fc.property(fc.string({ unit: edge, maxLength: 24 }), (text) => {
        expect(keysOf(text)).toEqual(textKeysReference(text));
      }),
      { numRuns: 5000 },
    );
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (text) => {
        expect(keysOf(text)).toEqual(textKeysReference(text));
      }),
      { numRuns: 3000 },
    );
  });

  it('keeps its answers while its table of forms grows past its first sizes, over many calls', () => {
    const texts = Array.from({ length: 60 }, (_, t) =>
      Array.from({ length: 800 }, (_, w) => `w${((t * 797 + w * 31) % 40_000).toString(36)} the Same-word`).join(' '),
    );
    for (const text of texts) expect(keysOf(text)).toEqual(textKeysReference(text));
    for (const text of texts.slice(0, 5)) expect(keysOf(text)).toEqual(textKeysReference(text));
  });
});

describe('extractEntities limit', () => {
  const piece = fc.constantFrom(
    'Alice',
    'Bob',
    'New',
    'York',
    'moved',
    'to',
    'the',
    'Hangzhou',
    'restaurant',
    'cats',
    '.',
    ' ',
    '  ',
    '\n',
    '杭州',
    '我的猫叫什么名字',
    '西湖区',
    'Dr',
    '’s',
  );
  it('is the first n entities of the full list, for any n', () => {
    fc.assert(
      fc.property(fc.string({ unit: piece, maxLength: 40 }), fc.integer({ min: 0, max: 10 }), (text, n) => {
        expect(extractEntities(text, n)).toEqual(extractEntities(text).slice(0, n));
      }),
      { numRuns: 2000 },
    );
  });
});

/** extractEntities' English part as first written: every word of the text matched first, phrases then words. */
function entitiesReference(text: string): string[] {
  const found: string[] = [];
  const add = (e: string) => void (e && !found.includes(e) && found.push(e));
  const words = [...text.matchAll(WORD)];
  for (let i = 0; i < words.length; i++) {
    const w = words[i]![0];
    if (!/^\p{Lu}/u.test(w)) continue;
    const sentenceStart = words[i]!.index === 0 || /[.?!]\s*$/u.test(text.slice(0, words[i]!.index));
    let j = i;
    while (
      j + 1 < words.length &&
      /^\p{Lu}/u.test(words[j + 1]![0]) &&
      /^\s+$/u.test(text.slice(words[j]!.index + words[j]![0].length, words[j + 1]!.index))
    )
      j++;
    if (j > i && !sentenceStart)
      add(
        words
          .slice(i, j + 1)
          .map((m) => normaliseWord(m[0]))
          .join(' '),
      );
  }
  for (const m of words) {
    const raw = normaliseEnglish(m[0].toLowerCase());
    if (/\p{Script=Han}/u.test(raw) || raw.length < 3 || ENGLISH_STOPWORDS.has(raw)) continue;
    add(normaliseWord(raw));
  }
  return found;
}

describe('extractEntities phrases', () => {
  // Token edges WORD draws (a capital inside "iPhone", after "x-" or "O’", hyphen and apostrophe runs, digits).
  const piece = fc.constantFrom(
    'Alice',
    'Bob',
    'New',
    'York',
    'iPhone',
    'x-Ray',
    '-',
    '--',
    '’',
    "'",
    'O’Neil',
    'McDonald',
    '42',
    '4B',
    'Éva',
    'ÉVA',
    'Σ',
    'İstanbul',
    'moved',
    'the',
    ' ',
    '  ',
    '\n',
    '\u00a0',
    '.',
    '?',
    ',',
    '杭州',
    'Dr',
    '’s',
  );
  it('finds the phrases and words of the all-words definition on any text', () => {
    fc.assert(
      fc.property(fc.string({ unit: piece, maxLength: 40 }), (text) => {
        // QUESTION_WORDS are not among the pieces, so the reference need not know them; the Chinese words come last.
        const ours = extractEntities(text);
        const ref = entitiesReference(text);
        expect(ours.slice(0, ref.length)).toEqual(ref);
        for (const e of ours.slice(ref.length)) expect(e).toMatch(/^\p{Script=Han}+$/u);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('countOverlap', () => {
  it('the Han script starts at U+2E80 (countOverlap skips its Han regex below it)', () => {
    const below: number[] = [];
    for (let cp = 0; cp < 0x2e80; cp++) if (/\p{Script=Han}/u.test(String.fromCodePoint(cp))) below.push(cp);
    expect(below).toEqual([]);
    expect(/\p{Script=Han}/u.test('\u2e80')).toBe(true);
  });
});
