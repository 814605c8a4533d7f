// countTokens sums memoised per-piece counts instead of encoding the whole text (tokens.ts header): it must equal
// js-tiktoken's own `encode(text).length` on any text — whitespace runs and newlines (whose pieces depend on what
// follows), contractions, digits, punctuation, special-token text, Chinese and astral characters.
import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Tiktoken } from 'js-tiktoken/lite';
import { countTokens } from './tokens.ts';

const require = createRequire(import.meta.url);
const { Tiktoken: Encoder } = require('js-tiktoken/lite') as typeof import('js-tiktoken/lite');
const reference: Tiktoken = new Encoder(require('js-tiktoken/ranks/o200k_base'));
const encoded = (text: string): number => (text === '' ? 0 : reference.encode(text, [], []).length);

const piece = fc.constantFrom(
  'I',
  "I'm",
  "don'T",
  ' moved',
  ' to',
  'Hangzhou',
  ' ',
  '  ',
  '   ',
  '\n',
  '\n\n',
  '\r\n',
  ' \n ',
  '\t',
  '.',
  '...',
  '?!',
  '(12)',
  '[2023/05/30 (Tue) 23:40]',
  '1234567',
  '3.14',
  '<|endoftext|>',
  '<|fim_prefix|>',
  '我搬到杭州西湖区了',
  '，',
  '。',
  '🙂',
  '𐐀',
  'İ',
  'é',
  'e\u0301',
  '/',
  '//\n',
  '**Tip:**',
  '-',
  '—',
  "'s",
  'ABCdef',
  'McDonald',
);

describe('countTokens', () => {
  it('equals the encoder on any text', () => {
    fc.assert(
      fc.property(fc.string({ unit: piece, maxLength: 40 }), (text) => {
        expect(countTokens(text)).toBe(encoded(text));
      }),
      { numRuns: 3000 },
    );
  });

  it('equals the encoder on arbitrary Unicode strings, counted twice (memoised pieces)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 60 }), (text) => {
        expect(countTokens(text)).toBe(encoded(text));
        expect(countTokens(text)).toBe(encoded(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('equals the encoder on long texts, counted line by line (memoised chunks), twice', () => {
    fc.assert(
      fc.property(fc.string({ unit: piece, minLength: 200, maxLength: 500 }), (text) => {
        expect(countTokens(text)).toBe(encoded(text));
        expect(countTokens(`${text}\n${text}`)).toBe(encoded(`${text}\n${text}`));
      }),
      { numRuns: 300 },
    );
  });
});
