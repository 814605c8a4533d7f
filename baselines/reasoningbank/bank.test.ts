// The offline bank's title reads the first words off the start of a unit's text; it must be the title of the
// definition that split the whole text (any text: Unicode spaces, no spaces, CJK, surrounding whitespace).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { titleOf } from './bank.ts';

function titleReference(text: string): string {
  const words = text.trim().split(/\s+/u);
  const t = words.length > 1 ? words.slice(0, 8).join(' ') : text.slice(0, 12);
  return t.length < text.trim().length ? `${t}…` : t;
}

describe('reasoningbank offline title', () => {
  const piece = fc.constantFrom(
    'I',
    'moved',
    'to',
    'Hangzhou',
    '我搬到了杭州',
    'x',
    ' ',
    '  ',
    '\n',
    '\t',
    '\u00a0',
    '\u3000',
    '\ufeff',
    '.',
    'well-known',
    '',
  );
  it('is the first eight words of the whole-text split, on any text', () => {
    fc.assert(
      fc.property(fc.string({ unit: piece, maxLength: 40, size: 'max' }), (text) => {
        expect(titleOf(text)).toBe(titleReference(text));
      }),
      { numRuns: 3000 },
    );
    // Past the eighth word, and around it.
    for (const text of [
      'one two three four five six seven eight nine',
      ' one two three four five six seven eight ',
      'a\u3000b c d e f g h\ni j',
      '我搬到了杭州西湖区的一个小区',
    ])
      expect(titleOf(text)).toBe(titleReference(text));
    expect(titleOf('one two three four five six seven eight nine')).toBe('one two three four five six seven eight…');
  });
});
